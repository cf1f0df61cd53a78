/* SPDX-License-Identifier: GPL-2.0 */
/* Records of progs/task_iter.bpf.c, shared with task_iter_test.c. */
#ifndef RECORDS_H
#define RECORDS_H

struct task_rec {
	__u32 tid;
	__u32 tgid;
};

struct file_rec {
	__u32 tid;
	__u32 fd;
	__u64 ino;
};

struct vma_rec {
	__u32 tid;
	__u32 pad;
	__u64 start;
	__u64 end;
};

#endif
