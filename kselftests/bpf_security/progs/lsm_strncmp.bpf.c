// SPDX-License-Identifier: GPL-2.0
/*
 * BPF LSM on userns_create, by the creator's name: a new user namespace
 * is refused to a task whose comm is DENIED_COMM, compared with
 * bpf_strncmp(), whose constant string is an ARG_PTR_TO_CONST_STR: the
 * verifier reads and checks it at load, so it must be in a read-only
 * map (.rodata, which libbpf freezes). deny_comm's is there; deny_comm_rw
 * has the same string in .data, which the program may write, and is
 * refused with EACCES. Only for creators whose parent is parent_tgid,
 * the test (other kselftest targets run beside it in the guest).
 * Loaded by lsm_strncmp_test only.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "lsm_strncmp.h"

#define EPERM 1

char _license[] SEC("license") = "GPL";

const char denied[] = DENIED_COMM;
char denied_rw[] = DENIED_COMM;

__u32 parent_tgid;
__u32 calls;

static __always_inline int deny(const char *name, int ret)
{
	struct task_struct *task = bpf_get_current_task_btf();
	char comm[TASK_COMM_LEN];

	if (task->real_parent->tgid != parent_tgid)
		return ret;
	calls++;
	if (ret)
		return ret;
	if (bpf_get_current_comm(comm, sizeof(comm)))
		return ret;
	if (!bpf_strncmp(comm, sizeof(comm), name))
		return -EPERM;
	return 0;
}

SEC("?lsm/userns_create")
int BPF_PROG(deny_comm, const struct cred *cred, int ret)
{
	return deny(denied, ret);
}

SEC("?lsm/userns_create")
int BPF_PROG(deny_comm_rw, const struct cred *cred, int ret)
{
	return deny(denied_rw, ret);
}
