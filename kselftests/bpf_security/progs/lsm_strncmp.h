/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by progs/lsm_strncmp.bpf.c and lsm_strncmp_test.c. */
#ifndef KCONFORM_LSM_STRNCMP_H
#define KCONFORM_LSM_STRNCMP_H

/* The comm a task is refused a user namespace for (< TASK_COMM_LEN). */
#define DENIED_COMM	"kc_userns_deny"

#endif
