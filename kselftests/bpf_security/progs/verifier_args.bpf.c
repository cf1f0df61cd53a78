// SPDX-License-Identifier: GPL-2.0
/*
 * Calls whose arguments need a map with BTF (a bpf_spin_lock, a bpf_timer),
 * a callback, or a global function's BTF: one program each,
 * loaded one at a time (the "?"), for verifier_args_test.c's c_args
 * fixture, which says which the verifier accepts and how it refuses the
 * rest. They are only loaded, never run. (A kptr needs BTF type tags,
 * which Debian's clang 14 does not emit: the kptr cases are raw programs
 * with a map whose BTF the test writes.)
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#define CLOCK_MONOTONIC	1

char _license[] SEC("license") = "GPL";

struct locked {
	struct bpf_spin_lock lock;
	int n;
};

struct timed {
	struct bpf_timer timer;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, int);
	__type(value, struct locked);
} locks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct timed);
} timers SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct timed);
} other_timers SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_USER_RINGBUF);
	__uint(max_entries, 4096);
} samples SEC(".maps");

int zero;

/* -- ARG_PTR_TO_SPIN_LOCK */

SEC("?tc")
int lock_and_unlock(struct __sk_buff *skb)
{
	struct locked *v = bpf_map_lookup_elem(&locks, &zero);

	if (!v)
		return 0;
	bpf_spin_lock(&v->lock);
	v->n++;
	bpf_spin_unlock(&v->lock);
	return 0;
}

SEC("?tc")
int unlock_without_lock(struct __sk_buff *skb)
{
	struct locked *v = bpf_map_lookup_elem(&locks, &zero);

	if (!v)
		return 0;
	bpf_spin_unlock(&v->lock);
	return 0;
}

SEC("?tc")
int unlock_other_lock(struct __sk_buff *skb)
{
	struct locked *v = bpf_map_lookup_elem(&locks, &zero);
	int one = 1;
	struct locked *w = bpf_map_lookup_elem(&locks, &one);

	if (!v || !w)
		return 0;
	bpf_spin_lock(&v->lock);
	bpf_spin_unlock(&w->lock);
	return 0;
}

/* -- ARG_PTR_TO_TIMER and the ARG_CONST_MAP_PTR after it */

SEC("?tc")
int timer_init(struct __sk_buff *skb)
{
	struct timed *v = bpf_map_lookup_elem(&timers, &zero);

	if (!v)
		return 0;
	bpf_timer_init(&v->timer, &timers, CLOCK_MONOTONIC);
	return 0;
}

SEC("?tc")
int timer_init_other_map(struct __sk_buff *skb)
{
	struct timed *v = bpf_map_lookup_elem(&timers, &zero);

	if (!v)
		return 0;
	bpf_timer_init(&v->timer, &other_timers, CLOCK_MONOTONIC);
	return 0;
}

/* a value with no bpf_timer */
SEC("?tc")
int timer_init_no_timer(struct __sk_buff *skb)
{
	struct locked *v = bpf_map_lookup_elem(&locks, &zero);

	if (!v)
		return 0;
	bpf_timer_init((struct bpf_timer *)v, &locks, CLOCK_MONOTONIC);
	return 0;
}

/*
 * -- a user ring buffer sample's dynptr (PTR_TO_DYNPTR) to a helper that
 * reads it (one that would initialise it again is bpf_user_ringbuf's
 * reinit cases, the guards of fix 0404)
 */

static long read_sample(struct bpf_dynptr *sample, void *ctx)
{
	char buf[8];

	bpf_dynptr_read(buf, sizeof(buf), sample, 0, 0);
	return 0;
}

SEC("?tc")
int sample_read(struct __sk_buff *skb)
{
	bpf_user_ringbuf_drain(&samples, read_sample, NULL, 0);
	return 0;
}

/* -- a global function's arguments (btf_check_subprog_call()) */

__noinline int global_ctx(struct __sk_buff *skb)
{
	return skb ? skb->len : 0;
}

__noinline int global_mem(int *p)
{
	return p ? *p : 0;
}

__noinline int global_scalar(long x)
{
	return x == 1;
}

SEC("?tc")
int global_args(struct __sk_buff *skb)
{
	int n = skb->len;

	return global_ctx(skb) + global_mem(&n) + global_scalar(n);
}

SEC("?tc")
int global_ctx_from_stack(struct __sk_buff *skb)
{
	int n = skb->len;

	return global_ctx((struct __sk_buff *)&n);
}

SEC("?tc")
int global_mem_from_ctx(struct __sk_buff *skb)
{
	return global_mem((int *)skb);
}

SEC("?tc")
int global_scalar_from_pointer(struct __sk_buff *skb)
{
	int n = skb->len;

	return global_scalar((long)&n);
}
