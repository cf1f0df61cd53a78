// SPDX-License-Identifier: GPL-2.0
/*
 * A cgroup iterator program for cgroup_iter_test: one u64 record (the
 * cgroup's kernfs id, as cgroup_fd's st_ino and name_to_handle_at give
 * it) per cgroup visited, and the epilogue (cgroup == NULL) counted;
 * meta->seq_num is checked against the visits before (0 for the first).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

char _license[] SEC("license") = "GPL";

/* Set by the test before the link is made. */
__u32 stop_after;	/* return 1 from the stop_after-th visit (0: never) */
__u32 pad_chunks;	/* extra PAD bytes written after each record */

/* Read back by the test. */
__u32 visits;
__u32 epilogues;
__u32 seq_num_gaps;	/* visits whose meta->seq_num is not the count before */

#define PAD 256
static const char pad[PAD];

SEC("iter/cgroup")
int dump_cgroup(struct bpf_iter__cgroup *ctx)
{
	struct seq_file *seq = ctx->meta->seq;
	struct cgroup *cgrp = ctx->cgroup;
	__u64 id;
	__u32 i;

	if (!cgrp) {
		epilogues++;
		return 0;
	}
	if (ctx->meta->seq_num != visits)
		seq_num_gaps++;
	id = cgrp->kn->id;
	bpf_seq_write(seq, &id, sizeof(id));
	for (i = 0; i < pad_chunks && i < 64; i++)
		bpf_seq_write(seq, pad, sizeof(pad));
	visits++;
	return stop_after && visits >= stop_after;
}
