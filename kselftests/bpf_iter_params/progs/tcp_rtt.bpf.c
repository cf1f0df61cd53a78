// SPDX-License-Identifier: GPL-2.0
/*
 * The sock_ops program of tcp_iter_test's rtt_cb case, attached to a
 * cgroup of the test's own: a connecting socket (TCP_CONNECT_CB) asks
 * for BPF_SOCK_OPS_RTT_CB, and each of its RTT_CB calls is recorded in
 * calls[] (the first RTT_CB_RECS; ncalls counts them all).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include "records.h"

char _license[] SEC("license") = "GPL";

/* results */
__u32 ncalls;
__u32 connects;
struct rtt_cb_rec calls[RTT_CB_RECS];

SEC("sockops")
int rtt_cb(struct bpf_sock_ops *skops)
{
	__u32 i;

	if (skops->op == BPF_SOCK_OPS_TCP_CONNECT_CB) {
		connects++;
		bpf_sock_ops_cb_flags_set(skops, BPF_SOCK_OPS_RTT_CB_FLAG);
		return 1;
	}
	if (skops->op != BPF_SOCK_OPS_RTT_CB)
		return 1;
	i = ncalls++;
	if (i >= RTT_CB_RECS)
		return 1;
	calls[i].srtt_us = skops->srtt_us;
	calls[i].arg0 = skops->args[0];
	calls[i].arg1 = skops->args[1];
	return 1;
}
