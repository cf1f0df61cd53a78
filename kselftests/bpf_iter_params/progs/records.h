/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Records of progs/task_iter.bpf.c, shared with task_iter_test.c, and of
 * progs/tcp_rtt.bpf.c, shared with tcp_iter_test.c.
 */
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

/*
 * One BPF_SOCK_OPS_RTT_CB call: the socket's srtt_us as the program
 * reads it (tp->srtt_us, still the value before the sample), args[0]
 * and args[1].
 */
struct rtt_cb_rec {
	__u32 srtt_us;
	__u32 arg0;
	__u32 arg1;
};

/* the calls recorded, the first ones */
#define RTT_CB_RECS	16

#endif
