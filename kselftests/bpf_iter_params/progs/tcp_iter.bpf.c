// SPDX-License-Identifier: GPL-2.0
/*
 * The TCP iterator program of tcp_iter_test: the cookie of each socket,
 * eight bytes per socket.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

char _license[] SEC("license") = "GPL";

SEC("iter/tcp")
int dump_tcp(struct bpf_iter__tcp *ctx)
{
	struct sock_common *skc = ctx->sk_common;
	__u64 cookie;

	if (!skc)
		return 0;
	cookie = bpf_get_socket_cookie(skc);
	bpf_seq_write(ctx->meta->seq, &cookie, sizeof(cookie));
	return 0;
}
