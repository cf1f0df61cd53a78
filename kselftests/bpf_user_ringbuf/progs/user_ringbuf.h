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
/* The callback checks the pattern of the bytes it measures, no further. */
#define UR_MAX_CHECK	UR_MAX_PROBE

/*
 * What the format callbacks print for a sample with bpf_snprintf(): its
 * seq and the callback's call number, into a buffer of UR_FMT_OUT bytes.
 */
#define UR_FMT		"seq %llu call %u"
#define UR_FMT_OUT	32

/*
 * A test sample starts with its sequence number; any further bytes are
 * (seq + i) & 0xff, so that the callback can tell a torn or misplaced
 * sample from a good one.
 */
struct ur_sample {
	__u64 seq;
};

/*
 * Error codes of the drain callback (drain_err).  A sample shorter than a
 * seq is not an error: the callback records seq (__u64)-1 for it.
 */
enum ur_err {
	UR_OK,
	UR_ERR_PATTERN = 3,	/* a payload byte is not (seq + i) & 0xff */
};

#endif /* KCONFORM_USER_RINGBUF_H */
