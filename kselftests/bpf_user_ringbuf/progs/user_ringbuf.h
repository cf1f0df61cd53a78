/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared between progs/user_ringbuf.bpf.c and the user-space side of the
 * bpf_user_ringbuf kselftests: the layout of a test sample and the size
 * of the per-call record the drain program keeps.
 */
#ifndef KCONFORM_USER_RINGBUF_H
#define KCONFORM_USER_RINGBUF_H

/* How many callback invocations the drain program records. */
#define UR_MAX_REC	64
/* The callback measures a sample's length up to this many bytes. */
#define UR_MAX_PROBE	64
/* Longest payload whose bytes the callback checks against ur_pattern(). */
#define UR_MAX_CHECK	64

/*
 * A test sample starts with its sequence number; any further bytes are
 * (seq + i) & 0xff, so that the callback can tell a torn or misplaced
 * sample from a good one.
 */
struct ur_sample {
	__u64 seq;
};

/* Error codes of the drain callback (drain_err), one per check. */
enum ur_err {
	UR_OK,
	UR_ERR_READ_SEQ = 1,	/* bpf_dynptr_read() of the seq failed */
	UR_ERR_READ_BODY = 2,	/* bpf_dynptr_read() of the payload failed */
	UR_ERR_PATTERN = 3,	/* a payload byte is not (seq + i) & 0xff */
};

#endif /* KCONFORM_USER_RINGBUF_H */
