// SPDX-License-Identifier: GPL-2.0
/*
 * Task, task_file and task_vma iterator programs for task_iter_test.
 * Each writes one fixed-size record per object; ids are the global
 * (init pid namespace) ones, task->pid and task->tgid.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "records.h"

char _license[] SEC("license") = "GPL";

SEC("iter/task")
int dump_task(struct bpf_iter__task *ctx)
{
	struct task_struct *task = ctx->task;
	struct task_rec r;

	if (!task)
		return 0;
	r.tid = task->pid;
	r.tgid = task->tgid;
	bpf_seq_write(ctx->meta->seq, &r, sizeof(r));
	return 0;
}

SEC("iter/task_file")
int dump_task_file(struct bpf_iter__task_file *ctx)
{
	struct task_struct *task = ctx->task;
	struct file *file = ctx->file;
	struct file_rec r;

	if (!task || !file)
		return 0;
	r.tid = task->pid;
	r.fd = ctx->fd;
	r.ino = file->f_inode->i_ino;
	bpf_seq_write(ctx->meta->seq, &r, sizeof(r));
	return 0;
}

/* task_vma: VMAs shown, and how many there were at the epilogue */
__u32 vmas;
__u32 vmas_at_epilogue;
__u32 epilogues;

SEC("iter/task_vma")
int dump_task_vma(struct bpf_iter__task_vma *ctx)
{
	struct task_struct *task = ctx->task;
	struct vm_area_struct *vma = ctx->vma;
	struct vma_rec r;

	if (!task && !vma) {
		epilogues++;
		vmas_at_epilogue = vmas;
	}
	if (!task || !vma)
		return 0;
	vmas++;
	r.tid = task->pid;
	r.pad = 0;
	r.start = vma->vm_start;
	r.end = vma->vm_end;
	bpf_seq_write(ctx->meta->seq, &r, sizeof(r));
	return 0;
}
