// SPDX-License-Identifier: GPL-2.0
/*
 * BPF LSM on userns_create: refuse every new user namespace except
 * those of a creator whose euid is allowed_uid (-1: none); only for
 * creators whose parent is parent_tgid, the test (other kselftest
 * targets run beside it in the guest).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#define EPERM 1

char _license[] SEC("license") = "GPL";

__u32 allowed_uid = -1;
__u32 parent_tgid;
__u32 calls;

SEC("lsm/userns_create")
int BPF_PROG(userns_create, const struct cred *cred, int ret)
{
	struct task_struct *task = bpf_get_current_task_btf();

	if (task->real_parent->tgid != parent_tgid)
		return ret;
	calls++;
	if (ret)
		return ret;
	if (cred->euid.val == allowed_uid)
		return 0;
	return -EPERM;
}

/*
 * A verdict above 0, which a userns_create hook never means (0 or
 * -errno): loaded only by positive_verdict_refused_since_6_12. It
 * counts the calls of the test's children.
 */
SEC("?lsm/userns_create")
int BPF_PROG(userns_positive, const struct cred *cred, int ret)
{
	struct task_struct *task = bpf_get_current_task_btf();

	if (task->real_parent->tgid == parent_tgid)
		calls++;
	return 1;
}
