/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kconform's mutant schemata (tools/testing/kconform/schemata.py): a
 * mutated line holds the original and its mutants, and KC_MUTANT(n)
 * picks mutant n when it is the active one. Not for merging: the runner
 * adds this header, lib/kconform_mutant.c and the #include in each
 * switched file as one patch after the series, in its scratch tree.
 */
#ifndef _LINUX_KCONFORM_MUTANT_H
#define _LINUX_KCONFORM_MUTANT_H

#include <linux/compiler.h>

/* The active mutant's number; 0: none, every switched line original. */
extern int kconform_mutant;

/*
 * One load of an int, no call and no lock: fine in any context a
 * switched line can be in (atomic, IRQ, under any lock, noinstr aside).
 */
#define KC_MUTANT(n) (READ_ONCE(kconform_mutant) == (n))

#endif /* _LINUX_KCONFORM_MUTANT_H */
