// SPDX-License-Identifier: GPL-2.0
/*
 * A socket as the value of bpf_map_update_elem() on a sockhash: the
 * verifier takes the value of a sockmap or sockhash as a socket
 * (resolve_map_arg_type(): ARG_PTR_TO_BTF_ID_SOCK_COMMON), not as
 * value_size bytes of memory, and allows the update where no socket
 * can be locked (may_update_sockmap(): a map iterator, not an LSM
 * hook). Both programs are loaded by sock_map_update_test only.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char _license[] SEC("license") = "GPL";

/* What the test fills from user space with a socket's fd. */
struct {
	__uint(type, BPF_MAP_TYPE_SOCKMAP);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u64);
} src SEC(".maps");

/* Where the programs put sockets: a lookup gives a socket's cookie. */
struct {
	__uint(type, BPF_MAP_TYPE_SOCKHASH);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u64);
} dst SEC(".maps");

/* outputs */
__u32 elems;		/* the iterator's calls with a key */
__u32 socks;		/* ... and a socket */
long update_ret = 1;	/* the last bpf_map_update_elem()'s */

/* Copy every socket of src into dst under the same key. */
SEC("?iter/sockmap")
int copy(struct bpf_iter__sockmap *ctx)
{
	struct sock *sk = ctx->sk;
	__u32 *key = ctx->key;
	__u32 tmp;

	if (!key)
		return 0;
	elems++;
	if (!sk)
		return 0;
	socks++;
	/* the helper wants the key in the stack or a map, not the context */
	tmp = *key;
	update_ret = bpf_map_update_elem(&dst, &tmp, sk, BPF_ANY);
	return 0;
}

/* Remember each socket opened as a file: refused in an LSM hook. */
SEC("?lsm/file_open")
int BPF_PROG(remember_socket, struct file *file)
{
	struct socket *sock = bpf_sock_from_file(file);
	__u32 key = 0;

	if (!sock)
		return 0;	/* not a socket */
	update_ret = bpf_map_update_elem(&dst, &key, sock->sk, BPF_ANY);
	return 0;
}
