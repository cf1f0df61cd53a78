// SPDX-License-Identifier: GPL-2.0
/*
 * The key kfuncs from a tracepoint and from a perf_event program
 * (key_kfuncs_test.c, the system_key_from cases): one program each,
 * loaded one at a time (the "?"). Their set is registered for
 * BPF_PROG_TYPE_TRACING (kernel/trace/bpf_trace.c), whose kfunc hook 6.1
 * gives to tracing and LSM programs only; since bc638d8cb5be ("bpf:
 * allow kfuncs within tracepoint and perf event programs", v6.12) these
 * two types share it. bpf_lookup_system_key() and bpf_key_put() are what
 * that makes callable here: bpf_lookup_user_key() and
 * bpf_verify_pkcs7_signature() are KF_SLEEPABLE, and neither type can be
 * sleepable.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "key_kfuncs.h"

char _license[] SEC("license") = "GPL";

/* inputs */
__u32 monitored_pid;
/* results: runs of the program for the test's process, keys found */
__u32 runs;
__u32 found;

/* The builtin keyring's bpf_key (id 0), looked up and put back. */
static __always_inline void lookup_builtin(void)
{
	struct bpf_key *key;

	if (bpf_get_current_pid_tgid() >> 32 != monitored_pid)
		return;
	runs++;
	key = bpf_lookup_system_key(0);
	if (!key)
		return;
	found++;
	bpf_key_put(key);
}

/* The test's process forks: task_newtask runs in the parent. */
SEC("?tracepoint/task/task_newtask")
int system_key_tracepoint(void *ctx)
{
	lookup_builtin();
	return 0;
}

/* A software page-fault event of the test's process, period 1. */
SEC("?perf_event")
int system_key_perf_event(struct bpf_perf_event_data *ctx)
{
	lookup_builtin();
	return 0;
}
