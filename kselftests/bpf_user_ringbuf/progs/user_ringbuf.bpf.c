// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel side of the bpf_user_ringbuf kselftests: BPF_PROG_TYPE_SYSCALL
 * programs, run with BPF_PROG_TEST_RUN, that drain the user ring buffer
 * with bpf_user_ringbuf_drain() (c12a03766788, "bpf: Add
 * bpf_user_ringbuf_drain() helper") and record what each callback saw.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include "user_ringbuf.h"

char _license[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_USER_RINGBUF);
	__uint(max_entries, 4096);
} user_ringbuf SEC(".maps");

/*
 * Only there to be the wrong map type for user_ring_buffer__new(), and
 * the ring buffer a callback must not reserve its own dynptr in.
 */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} kernel_ringbuf SEC(".maps");

/* inputs */
__u64 drain_flags;
__u32 stop_after;	/* the callback returns 1 at this call (0: never) */

/* outputs */
long drain_ret;
long nested_ret;
__u32 nr_cb;
__u32 drain_err;
__u32 rec_len[UR_MAX_REC];
__u64 rec_seq[UR_MAX_REC];

/*
 * Record one sample: its length (up to UR_MAX_PROBE, found by reading one
 * byte at a time until bpf_dynptr_read() fails) and its sequence number,
 * and check that every byte after the seq follows the pattern.
 */
static long record_cb(struct bpf_dynptr *dynptr, void *ctx)
{
	__u32 i = nr_cb;
	__u64 seq = 0;
	bool has_seq;
	__u32 len;
	__u8 b;

	has_seq = !bpf_dynptr_read(&seq, sizeof(seq), dynptr, 0, 0);
	for (len = 0; len < UR_MAX_PROBE; len++) {
		if (bpf_dynptr_read(&b, 1, dynptr, len, 0))
			break;
		if (has_seq && len >= sizeof(seq) &&
		    b != (__u8)(seq + len))
			drain_err = UR_ERR_PATTERN;
	}

	if (i < UR_MAX_REC) {
		rec_len[i] = len;
		rec_seq[i] = has_seq ? seq : (__u64)-1;
	}
	nr_cb = i + 1;

	if (stop_after && nr_cb == stop_after)
		return 1;
	return 0;
}

SEC("syscall")
int drain(void *ctx)
{
	drain_ret = bpf_user_ringbuf_drain(&user_ringbuf, record_cb, NULL,
					   drain_flags);
	return 0;
}

/* A callback that drains the same ring buffer again, from inside a drain. */
static long nested_cb(struct bpf_dynptr *dynptr, void *ctx)
{
	nested_ret = bpf_user_ringbuf_drain(&user_ringbuf, record_cb, NULL, 0);
	return 0;
}

SEC("?syscall")
int drain_nested(void *ctx)
{
	nested_ret = 1;
	drain_ret = bpf_user_ringbuf_drain(&user_ringbuf, nested_cb, NULL, 0);
	return 0;
}

/*
 * Callbacks that hand the dynptr they were given to a helper that
 * initialises one: the verifier must refuse them (series fix 0404;
 * upstream 270605317366, "bpf: Rework process_dynptr_func"). Loaded
 * one at a time by the reinit tests, never run.
 */
static long reinit_mem_cb(struct bpf_dynptr *dynptr, void *ctx)
{
	bpf_dynptr_from_mem(&rec_seq, sizeof(rec_seq[0]), 0, dynptr);
	return 0;
}

SEC("?syscall")
int drain_reinit_mem(void *ctx)
{
	drain_ret = bpf_user_ringbuf_drain(&user_ringbuf, reinit_mem_cb, NULL, 0);
	return 0;
}

static long reinit_ringbuf_cb(struct bpf_dynptr *dynptr, void *ctx)
{
	bpf_ringbuf_reserve_dynptr(&kernel_ringbuf, 8, 0, dynptr);
	return 0;
}

SEC("?syscall")
int drain_reinit_ringbuf(void *ctx)
{
	drain_ret = bpf_user_ringbuf_drain(&user_ringbuf, reinit_ringbuf_cb, NULL, 0);
	return 0;
}

/*
 * A callback returning 2, where only 0 (go on) and 1 (stop) are
 * allowed: refused at load by every release, in words that changed
 * (callback_return_2_log_since_6_8). Never run.
 */
static long return_2_cb(struct bpf_dynptr *dynptr, void *ctx)
{
	return 2;
}

SEC("?syscall")
int drain_return_2(void *ctx)
{
	drain_ret = bpf_user_ringbuf_drain(&user_ringbuf, return_2_cb, NULL, 0);
	return 0;
}

/*
 * A callback that formats its sample with bpf_snprintf(). The format is
 * an ARG_PTR_TO_CONST_STR: a string the verifier reads and checks at
 * load, so it must be in a read-only map (bpf_map_is_rdonly(): .rodata,
 * which libbpf freezes). fmt_ro is there; fmt_rw, the same format in
 * .data, which the program may write, is refused with EACCES. Loaded
 * by the format tests only.
 */
const char fmt_ro[] = UR_FMT;
char fmt_rw[] = UR_FMT;

/* outputs */
char fmt_out[UR_FMT_OUT];
long fmt_ret;

static __always_inline long format_sample(struct bpf_dynptr *dynptr,
					  const char *fmt)
{
	__u64 args[2] = {};

	if (bpf_dynptr_read(&args[0], sizeof(args[0]), dynptr, 0, 0))
		args[0] = (__u64)-1;
	args[1] = nr_cb++;
	fmt_ret = bpf_snprintf(fmt_out, sizeof(fmt_out), fmt, args,
			       sizeof(args));
	return 0;
}

static long format_ro_cb(struct bpf_dynptr *dynptr, void *ctx)
{
	return format_sample(dynptr, fmt_ro);
}

SEC("?syscall")
int drain_format_ro(void *ctx)
{
	drain_ret = bpf_user_ringbuf_drain(&user_ringbuf, format_ro_cb, NULL, 0);
	return 0;
}

static long format_rw_cb(struct bpf_dynptr *dynptr, void *ctx)
{
	return format_sample(dynptr, fmt_rw);
}

SEC("?syscall")
int drain_format_rw(void *ctx)
{
	drain_ret = bpf_user_ringbuf_drain(&user_ringbuf, format_rw_cb, NULL, 0);
	return 0;
}
