// SPDX-License-Identifier: GPL-2.0
/*
 * The switch of kconform's mutant schemata (include/linux/kconform_mutant.h):
 * the active mutant's number, from the command line (kconform.mutant=N,
 * read before the built-in KUnit suites run) and at run time in
 * /sys/module/kconform/parameters/mutant (the guest's kselftest loop,
 * tools/testing/guest/mutants). Exported, so that a switched file built
 * as a module sees it too.
 */
#include <linux/kconform_mutant.h>
#include <linux/module.h>

#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "kconform."

int kconform_mutant;
EXPORT_SYMBOL(kconform_mutant);
module_param_named(mutant, kconform_mutant, int, 0644);
MODULE_PARM_DESC(mutant, "the active mutant of the schemata (0: none)");
