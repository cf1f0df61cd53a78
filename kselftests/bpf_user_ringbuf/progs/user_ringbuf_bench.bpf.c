// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel side of user_ringbuf_bench: one syscall program drains the user
 * ring buffer (BPF_MAP_TYPE_USER_RINGBUF, c12a03766788) with a callback
 * that does nothing, the other fills a kernel ring buffer
 * (BPF_MAP_TYPE_RINGBUF) with bpf_loop() and bpf_ringbuf_output(), so
 * that both directions move the same payload through the same kind of
 * ring with one copy each.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#define BENCH_MAX_SAMPLE	1024

char _license[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_USER_RINGBUF);
	__uint(max_entries, 1 << 20);
} bench_urb SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 20);
} bench_krb SEC(".maps");

/* inputs */
__u32 out_size;
__u32 out_count;

/* outputs */
long drain_ret;
long loop_ret;
__u32 out_fail;

__u8 payload[BENCH_MAX_SAMPLE];

static long nop_cb(struct bpf_dynptr *dynptr, void *ctx)
{
	return 0;
}

SEC("syscall")
int bench_drain(void *ctx)
{
	drain_ret = bpf_user_ringbuf_drain(&bench_urb, nop_cb, NULL,
					   BPF_RB_NO_WAKEUP);
	return 0;
}

static long output_cb(__u32 index, void *ctx)
{
	__u32 size = out_size;

	if (size > BENCH_MAX_SAMPLE)
		return 1;
	if (bpf_ringbuf_output(&bench_krb, payload, size, BPF_RB_NO_WAKEUP)) {
		out_fail++;
		return 1;
	}
	return 0;
}

SEC("syscall")
int bench_output(void *ctx)
{
	out_fail = 0;
	loop_ret = bpf_loop(out_count, output_cb, NULL, 0);
	return 0;
}
