// SPDX-License-Identifier: GPL-2.0
/*
 * A tracing program that calls crash_kexec(), a KF_DESTRUCTIVE kfunc:
 * loaded only, never attached; armed is never set.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

extern void crash_kexec(struct pt_regs *regs) __ksym;

char _license[] SEC("license") = "GPL";

__u32 armed;

SEC("?fentry/bpf_fentry_test1")
int BPF_PROG(call_crash_kexec, int a)
{
	if (armed)
		crash_kexec((struct pt_regs *)
			    bpf_task_pt_regs(bpf_get_current_task_btf()));
	return 0;
}
