// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the parameterized BPF task iterators
 * (kernel/bpf/task_iter.c, f0d74c4da1f0 ("bpf: Parameterize task
 * iterators.")).
 *
 * A task, task_file or task_vma iterator link may name one thread (tid)
 * or one process (pid or pid_fd).  For a process, task_seq_get_next()
 * hands over to task_group_seq_get_next(), which must:
 *
 *  - start with the thread group leader and visit every thread once,
 *    following next_thread();
 *  - end the walk when next_thread() comes back round to the leader;
 *  - when a read() session ends with a thread still pending, return that
 *    same thread when the next session starts (the pid_visiting check);
 *  - when the thread it was visiting has exited in between, neither fail
 *    nor restart, nor yield a thread twice or one that is gone (whether
 *    it goes on to the threads after it is not promised: see
 *    bpf_task_iter_test_pid_walk_visited_thread_exits());
 *  - for task_file and task_vma (skip_if_dup_files), skip exactly the
 *    threads that share their group leader's file table, so each table
 *    is reported once.
 *
 * A tid filter must give exactly that thread, also for a non-leader, and
 * a pid filter given a non-leader's tid gives nothing.
 *
 * Getting a real thread group into a KUnit test.  kthread_run() threads
 * each form their own group, and a KUnit module loaded from user space
 * later would need a prepared process and a guest user space to make it.
 * Instead, each case starts a kernel thread (the leader) with
 * kthread_run(), and the leader starts the other threads with
 * kernel_thread(CLONE_THREAD | CLONE_SIGHAND | CLONE_FS | CLONE_FILES),
 * the flags pthread_create() passes.  That is a genuine thread group:
 * one tgid, one thread list, one signal struct, and a file table the
 * leader's threads share unless they call unshare_files(), the kernel
 * side of unshare(CLONE_FILES).  The leader first takes its own file
 * table, so the anonymous files the case installs never appear in the
 * table every other kernel thread shares.  The threads only wait for the
 * case to release them, then exit, and .exit waits until each has been
 * released.  This is why the test is built in: kernel_thread(),
 * do_exit() and unshare_files() are not exported.
 *
 * The cases take task_seq_info and task_file_seq_info (made visible for
 * KUnit by the series), set up the private state with init_seq_private()
 * as a link would, and call start/show/next/stop in bpf_seq_read()'s
 * order.  show() finds no BPF program (the seq_file is not a BPF
 * iterator) and does nothing, so what the walk yields is what start()
 * and next() return.
 *
 * Lifecycle: (init -> case [builds a thread group] -> exit [releases it
 * and waits for every thread to be gone])*.
 */

#include <kunit/test.h>
#include <linux/anon_inodes.h>
#include <linux/bpf.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/fdtable.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/seq_file.h>
#include <linux/string.h>

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/* Threads besides the leader in one test group. */
#define TIT_MAX_MEMBERS	4
/* Bound on next() calls, so a walk that never ends fails instead. */
#define TIT_MAX_STEPS	32
#define TIT_TIMEOUT	(10 * HZ)

struct tit_group;

struct tit_member {
	struct tit_group *g;
	bool own_files;			/* unshare_files() and add own_file */
	struct task_struct *task;	/* reference held until .exit */
	struct file *own_file;
	struct completion ready;
	struct completion leave;
	int err;
};

struct tit_group {
	struct task_struct *leader;	/* reference held until .exit */
	struct file *leader_file;
	struct tit_member m[TIT_MAX_MEMBERS];
	unsigned int nr;		/* members asked for */
	unsigned int started;		/* members running */
	struct completion ready;
	struct completion leave;
	int err;
};

/* Only identity matters: the cases compare struct file pointers. */
static const struct file_operations tit_fops = {
	.owner = THIS_MODULE,
};

/* Open an anonymous file in current's file table; return it, or NULL. */
static struct file *tit_install_file(int *err)
{
	struct file *file;
	int fd;

	fd = get_unused_fd_flags(O_CLOEXEC);
	if (fd < 0) {
		*err = fd;
		return NULL;
	}
	file = anon_inode_getfile("[kunit-task-iter]", &tit_fops, NULL, O_RDONLY);
	if (IS_ERR(file)) {
		put_unused_fd(fd);
		*err = PTR_ERR(file);
		return NULL;
	}
	/* the table owns the reference now; it is closed when the table goes */
	fd_install(fd, file);
	return file;
}

static int tit_member_fn(void *arg)
{
	struct tit_member *m = arg;

	m->task = get_task_struct(current);
	if (m->own_files) {
		m->err = unshare_files();
		if (!m->err)
			m->own_file = tit_install_file(&m->err);
	}
	complete(&m->ready);
	wait_for_completion(&m->leave);
	/* a kernel_thread() function must not return: that means "to user space" */
	do_exit(0);
}

/*
 * A child that exits at once.  Starting one before each member leaves a
 * hole in the pid numbers, so a thread's tid is never the previous
 * thread's plus one and an iterator bug cannot hide behind "++tid".
 * SIGCHLD, which kernel threads ignore, gets it reaped at exit.
 */
static int tit_gap_fn(void *arg)
{
	do_exit(0);
}

static int tit_leader_fn(void *arg)
{
	struct tit_group *g = arg;
	unsigned int i;

	g->err = unshare_files();
	if (!g->err)
		g->leader_file = tit_install_file(&g->err);

	for (i = 0; !g->err && i < g->nr; i++) {
		struct tit_member *m = &g->m[i];
		pid_t pid;

		pid = kernel_thread(tit_gap_fn, NULL, CLONE_FS | CLONE_FILES | SIGCHLD);
		if (pid < 0) {
			g->err = pid;
			break;
		}
		pid = kernel_thread(tit_member_fn, m, CLONE_THREAD | CLONE_SIGHAND |
				    CLONE_FS | CLONE_FILES);
		if (pid < 0) {
			g->err = pid;
			break;
		}
		g->started++;
		/* one at a time, so the thread list is in member order */
		wait_for_completion(&m->ready);
		g->err = m->err;
	}
	complete(&g->ready);
	wait_for_completion(&g->leave);
	return 0;
}

/* Wait until @task has been released (detached from its pids). */
static bool tit_wait_gone(struct task_struct *task)
{
	unsigned long end = jiffies + TIT_TIMEOUT;

	while (pid_alive(task)) {
		if (time_after(jiffies, end))
			return false;
		usleep_range(1000, 2000);
	}
	return true;
}

/* Let member @i exit and wait until it is gone. */
static bool tit_member_leave(struct tit_group *g, unsigned int i)
{
	struct tit_member *m = &g->m[i];

	if (!m->task)
		return true;
	complete(&m->leave);
	if (!tit_wait_gone(m->task))
		return false;
	put_task_struct(m->task);
	m->task = NULL;
	return true;
}

/*
 * Build a thread group of a leader and @nr members; bit i of @own_files
 * makes member i take its own file table.
 */
static struct tit_group *tit_group_create(struct kunit *test, unsigned int nr,
					  unsigned long own_files)
{
	struct tit_group *g;
	struct task_struct *t;
	unsigned int i;

	KUNIT_ASSERT_LE(test, nr, TIT_MAX_MEMBERS);
	g = kunit_kzalloc(test, sizeof(*g), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, g);
	init_completion(&g->ready);
	init_completion(&g->leave);
	g->nr = nr;
	for (i = 0; i < nr; i++) {
		g->m[i].g = g;
		g->m[i].own_files = own_files & BIT(i);
		init_completion(&g->m[i].ready);
		init_completion(&g->m[i].leave);
	}

	t = kthread_run(tit_leader_fn, g, "kunit-tit-leader");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t);
	g->leader = get_task_struct(t);
	test->priv = g;

	KUNIT_ASSERT_TRUE_MSG(test, wait_for_completion_timeout(&g->ready, TIT_TIMEOUT),
			      "thread group did not start");
	KUNIT_ASSERT_EQ(test, g->err, 0);
	KUNIT_ASSERT_EQ(test, g->started, nr);
	for (i = 0; i < nr; i++) {
		struct task_struct *prev = i ? g->m[i - 1].task : g->leader;

		KUNIT_ASSERT_PTR_EQ(test, g->m[i].task->group_leader, g->leader);
		KUNIT_ASSERT_NE(test, task_pid_nr(g->m[i].task), task_pid_nr(prev) + 1);
		KUNIT_ASSERT_EQ(test, task_tgid_nr(g->m[i].task), task_pid_nr(g->leader));
		if (g->m[i].own_files)
			KUNIT_ASSERT_PTR_NE(test, g->m[i].task->files, g->leader->files);
		else
			KUNIT_ASSERT_PTR_EQ(test, g->m[i].task->files, g->leader->files);
	}
	return g;
}

static int tit_init(struct kunit *test)
{
	test->priv = NULL;
	return 0;
}

/* Tolerates a group that never started, or started only in part. */
static void tit_exit(struct kunit *test)
{
	struct tit_group *g = test->priv;
	unsigned int i;

	if (!g)
		return;
	for (i = 0; i < TIT_MAX_MEMBERS; i++)
		if (!tit_member_leave(g, i))
			kunit_err(test, "member %u did not exit\n", i);
	if (!g->leader)
		return;
	complete(&g->leave);
	if (!tit_wait_gone(g->leader))
		kunit_err(test, "leader did not exit\n");
	put_task_struct(g->leader);
	g->leader = NULL;
}

static pid_t tit_tid(struct task_struct *t)
{
	return task_pid_nr_ns(t, task_active_pid_ns(current));
}

/* An iterator over @info set up as a link with this filter would be. */
struct tit_iter {
	const struct bpf_iter_seq_info *info;
	struct seq_file seq;
	struct file file;	/* seq.file; f_op is NULL, so no BPF program */
	void *priv;
};

static struct tit_iter *tit_open(struct kunit *test, const struct bpf_iter_seq_info *info,
				 enum bpf_iter_task_type type, u32 pid)
{
	struct bpf_iter_aux_info aux = {};
	struct tit_iter *it;

	it = kunit_kzalloc(test, sizeof(*it), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, it);
	it->priv = kunit_kzalloc(test, info->seq_priv_size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, it->priv);
	it->info = info;
	aux.task.type = type;
	aux.task.pid = pid;
	KUNIT_ASSERT_EQ(test, info->init_seq_private(it->priv, &aux), 0);
	it->seq.private = it->priv;
	it->seq.file = &it->file;
	return it;
}

static void tit_close(struct tit_iter *it)
{
	it->info->fini_seq_private(it->priv);
}

/*
 * One read() session: start, then show/next until the walk ends, or
 * until @max elements were shown (0: no limit), then stop with whatever
 * is pending.  Records each element in @out (up to @size) and returns
 * how many were shown.
 */
static unsigned int tit_read(struct kunit *test, struct tit_iter *it,
			     unsigned int max, void **out, unsigned int size)
{
	const struct seq_operations *ops = it->info->seq_ops;
	unsigned int n = 0;
	void *v;

	v = ops->start(&it->seq, &it->seq.index);
	while (v) {
		KUNIT_EXPECT_FALSE(test, IS_ERR(v));
		if (IS_ERR(v))
			return n;
		if (n < size)
			out[n] = v;
		ops->show(&it->seq, v);
		v = ops->next(&it->seq, v, &it->seq.index);
		if (++n == max)
			break;
		if (n > TIT_MAX_STEPS) {
			KUNIT_FAIL(test, "walk did not end after %u elements", TIT_MAX_STEPS);
			break;
		}
	}
	ops->stop(&it->seq, v);
	return n;
}

/* The walk yielded exactly these tasks. */
static void tit_expect_tasks(struct kunit *test, void **got, unsigned int n,
			     struct task_struct * const *want, unsigned int nwant)
{
	unsigned int i;

	KUNIT_EXPECT_EQ(test, n, nwant);
	for (i = 0; i < min(n, nwant); i++)
		KUNIT_EXPECT_PTR_EQ_MSG(test, got[i], want[i],
					"element %u: tid %d, want tid %d", i,
					tit_tid(got[i]), tit_tid(want[i]));
}

/* A pid filter yields the leader, then every other thread once, in order. */
static void bpf_task_iter_test_pid_walk_from_leader(struct kunit *test)
{
	struct tit_group *g = tit_group_create(test, 3, 0);
	struct task_struct *want[] = { g->leader, g->m[0].task, g->m[1].task,
				       g->m[2].task };
	void *got[TIT_MAX_STEPS + 1];
	struct tit_iter *it;
	unsigned int n;

	it = tit_open(test, &task_seq_info, BPF_TASK_ITER_TGID, tit_tid(g->leader));
	n = tit_read(test, it, 0, got, ARRAY_SIZE(got));
	tit_close(it);

	tit_expect_tasks(test, got, n, want, ARRAY_SIZE(want));
}

/*
 * When next_thread() wraps back to the leader the walk is over, and stays
 * over: a further read() session yields nothing either.
 */
static void bpf_task_iter_test_pid_walk_ends_at_wrap(struct kunit *test)
{
	struct tit_group *g = tit_group_create(test, 1, 0);
	void *got[TIT_MAX_STEPS + 1];
	struct tit_iter *it;

	it = tit_open(test, &task_seq_info, BPF_TASK_ITER_TGID, tit_tid(g->leader));
	KUNIT_EXPECT_EQ(test, tit_read(test, it, 0, got, ARRAY_SIZE(got)), 2);
	KUNIT_EXPECT_EQ(test, tit_read(test, it, 0, got, ARRAY_SIZE(got)), 0);
	tit_close(it);
}

/*
 * A session that ends with a thread pending (user space's buffer was
 * full) resumes with that thread: one element per session must still
 * give every thread once, in order.
 */
static void bpf_task_iter_test_pid_walk_resumes(struct kunit *test)
{
	struct tit_group *g = tit_group_create(test, 3, 0);
	struct task_struct *want[] = { g->leader, g->m[0].task, g->m[1].task,
				       g->m[2].task };
	void *got[TIT_MAX_STEPS + 1];
	struct tit_iter *it;
	unsigned int n = 0, i;

	it = tit_open(test, &task_seq_info, BPF_TASK_ITER_TGID, tit_tid(g->leader));
	for (i = 0; i <= TIT_MAX_STEPS; i++) {
		if (!tit_read(test, it, 1, &got[n], 1))
			break;
		n++;
	}
	tit_close(it);

	tit_expect_tasks(test, got, n, want, ARRAY_SIZE(want));
}

/*
 * The thread the walk is on exits and is released while the iterator
 * still holds it.  BPF_TASK_ITER_TGID promises "every task of a process"
 * (include/linux/bpf.h); for a thread list that changes under the walk
 * it promises what any seq_file walk does: what is yielded is a live
 * thread of the process, in thread list order, none twice, and the walk
 * ends.  The walk must not fail, start over at the leader, or yield the
 * exited thread again.
 *
 * It is not promised that the walk goes on to the live threads after
 * the exited one, and it does not: the iterator keeps only the tid of
 * the thread it is on (pid_visiting) and looks that thread up again by
 * tid to take its next_thread(); a released thread has no tid any more,
 * so the walk ends there.  That is no 6.1.192 bug.  Upstream does the
 * same after Oleg Nesterov's rework of task_group_seq_get_next() (up to
 * 1e48f069c90f, "bpf: task_group_seq_get_next: simplify the "next tid"
 * logic") and still today:
 *
 *	task = find_task_by_pid_ns(common->pid_visiting, common->ns);
 *	if (!task)
 *		return NULL;
 *
 * (the lookup that fails here; 6.1.192 fails one step earlier, in
 * find_pid_ns()).  No upstream change resumes after a released thread,
 * so there is nothing to backport.  The case accepts either end: no
 * more threads (what 6.1.192 and upstream do), or exactly the two live
 * threads after the exited one, in order (what a walk that resumed by
 * position, as /proc/PID/task's first_tid() does, would yield).
 */
static void bpf_task_iter_test_pid_walk_visited_thread_exits(struct kunit *test)
{
	struct tit_group *g = tit_group_create(test, 3, 0);
	const struct seq_operations *ops = task_seq_info.seq_ops;
	struct task_struct *rest[] = { g->m[1].task, g->m[2].task };
	void *got[TIT_MAX_STEPS + 1];
	struct tit_iter *it;
	unsigned int n = 0;
	void *v;

	it = tit_open(test, &task_seq_info, BPF_TASK_ITER_TGID, tit_tid(g->leader));
	v = ops->start(&it->seq, &it->seq.index);
	KUNIT_EXPECT_PTR_EQ(test, v, g->leader);
	if (v)
		v = ops->next(&it->seq, v, &it->seq.index);
	KUNIT_EXPECT_PTR_EQ(test, v, g->m[0].task);
	if (v != g->m[0].task) {
		ops->stop(&it->seq, v);
		tit_close(it);
		return;
	}

	KUNIT_EXPECT_TRUE(test, tit_member_leave(g, 0));
	/* the rest of the same session */
	v = ops->next(&it->seq, v, &it->seq.index);
	while (v && !IS_ERR(v) && n <= TIT_MAX_STEPS) {
		got[n++] = v;
		ops->show(&it->seq, v);
		v = ops->next(&it->seq, v, &it->seq.index);
	}
	KUNIT_EXPECT_FALSE(test, IS_ERR(v));
	ops->stop(&it->seq, IS_ERR(v) ? NULL : v);
	tit_close(it);

	kunit_info(test, "after the exit the walk yielded %u more threads\n", n);
	if (n)
		tit_expect_tasks(test, got, n, rest, ARRAY_SIZE(rest));
}

/*
 * A session ends with a thread pending, and that thread exits before the
 * next session: the next session yields nothing.
 */
static void bpf_task_iter_test_pid_walk_pending_thread_exits(struct kunit *test)
{
	struct tit_group *g = tit_group_create(test, 3, 0);
	void *got[TIT_MAX_STEPS + 1];
	struct tit_iter *it;

	it = tit_open(test, &task_seq_info, BPF_TASK_ITER_TGID, tit_tid(g->leader));
	/* the leader is shown, member 0 is pending */
	KUNIT_ASSERT_EQ(test, tit_read(test, it, 1, got, ARRAY_SIZE(got)), 1);
	KUNIT_EXPECT_PTR_EQ(test, got[0], g->leader);

	KUNIT_EXPECT_TRUE(test, tit_member_leave(g, 0));
	KUNIT_EXPECT_EQ(test, tit_read(test, it, 0, got, ARRAY_SIZE(got)), 0);
	tit_close(it);
}

/* A tid filter yields exactly that thread, also when it is no leader. */
static void bpf_task_iter_test_tid_non_leader(struct kunit *test)
{
	struct tit_group *g = tit_group_create(test, 3, 0);
	struct task_struct *want[] = { g->m[1].task };
	void *got[TIT_MAX_STEPS + 1];
	struct tit_iter *it;
	unsigned int n;

	it = tit_open(test, &task_seq_info, BPF_TASK_ITER_TID, tit_tid(g->m[1].task));
	n = tit_read(test, it, 0, got, ARRAY_SIZE(got));
	tit_close(it);

	tit_expect_tasks(test, got, n, want, ARRAY_SIZE(want));
}

/* A pid filter naming a non-leader thread's tid names no process. */
static void bpf_task_iter_test_pid_of_non_leader(struct kunit *test)
{
	struct tit_group *g = tit_group_create(test, 3, 0);
	void *got[TIT_MAX_STEPS + 1];
	struct tit_iter *it;

	it = tit_open(test, &task_seq_info, BPF_TASK_ITER_TGID, tit_tid(g->m[1].task));
	KUNIT_EXPECT_EQ(test, tit_read(test, it, 0, got, ARRAY_SIZE(got)), 0);
	tit_close(it);
}

/*
 * task_file with a pid filter, over a leader and three threads of which
 * the ones in @own_files called unshare_files() and opened one more file.
 * Each file table is reported once: the leader's (its one file), then
 * each unshared thread's copy (the leader's file, then its own); threads
 * sharing the leader's table are skipped.  In @want, 0 is the leader's
 * file and i + 1 member i's own file.  The rows with an unshared thread
 * fail on 6.1.192 without the series' fix, which is c12e785e8648 ("bpf:
 * task_group_seq_get_next: fix the skip_if_dup_files check") upstream:
 * it tests the previous thread's table, so the first thread after the
 * leader is always skipped.  The rows whose last thread shares the
 * leader's table also guard 0304 (see the read after the end below).
 */
struct tit_files_case {
	const char *desc;
	unsigned long own_files;
	int want[TIT_MAX_STEPS];
	unsigned int n;
};

static const struct tit_files_case tit_files_cases[] = {
	{ "all threads share the leader's table", 0, { 0 }, 1 },
	{ "first thread unshared", BIT(0), { 0, 0, 1 }, 3 },
	{ "middle thread unshared", BIT(1), { 0, 0, 2 }, 3 },
	{ "first and last threads unshared", BIT(0) | BIT(2), { 0, 0, 1, 0, 3 }, 5 },
};

static void tit_files_desc(const struct tit_files_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

/* Creates tit_files_gen_params(). */
KUNIT_ARRAY_PARAM(tit_files, tit_files_cases, tit_files_desc);

static void bpf_task_iter_test_task_file_skips_shared_tables(struct kunit *test)
{
	const struct tit_files_case *c = test->param_value;
	struct tit_group *g = tit_group_create(test, 3, c->own_files);
	void *got[TIT_MAX_STEPS + 1];
	struct file *want[TIT_MAX_STEPS];
	struct file *seen[TIT_MAX_STEPS];
	unsigned int n, i, nseen = 0;
	struct tit_iter *it;

	for (i = 0; i < c->n; i++)
		want[i] = c->want[i] ? g->m[c->want[i] - 1].own_file : g->leader_file;

	it = tit_open(test, &task_file_seq_info, BPF_TASK_ITER_TGID, tit_tid(g->leader));
	n = tit_read(test, it, 0, got, ARRAY_SIZE(got));
	/*
	 * A read() after the end starts a new session, which must find the
	 * walk over.  Without 0304 (upstream 1e48f069c90f) the walk ended
	 * with the last skipped thread as its resume point, and the new
	 * session returned that thread's files, the leader's once more.
	 */
	KUNIT_EXPECT_EQ_MSG(test, tit_read(test, it, 0, NULL, 0), 0,
			    "a session after the end of the walk");
	tit_close(it);

	/*
	 * The leader's table is a copy of the one all kernel threads share;
	 * keep only the files this case opened.
	 */
	for (i = 0; i < min_t(unsigned int, n, ARRAY_SIZE(got)); i++) {
		struct file *f = got[i];

		if (f->f_op == &tit_fops && nseen < ARRAY_SIZE(seen))
			seen[nseen++] = f;
	}

	KUNIT_EXPECT_EQ(test, nseen, c->n);
	for (i = 0; i < min(nseen, c->n); i++)
		KUNIT_EXPECT_PTR_EQ_MSG(test, seen[i], want[i], "file %u, want id %d",
					i, c->want[i]);
}

static struct kunit_case bpf_task_iter_cases[] = {
	KUNIT_CASE(bpf_task_iter_test_pid_walk_from_leader),
	KUNIT_CASE(bpf_task_iter_test_pid_walk_ends_at_wrap),
	KUNIT_CASE(bpf_task_iter_test_pid_walk_resumes),
	KUNIT_CASE(bpf_task_iter_test_pid_walk_visited_thread_exits),
	KUNIT_CASE(bpf_task_iter_test_pid_walk_pending_thread_exits),
	KUNIT_CASE(bpf_task_iter_test_tid_non_leader),
	KUNIT_CASE(bpf_task_iter_test_pid_of_non_leader),
	KUNIT_CASE_PARAM(bpf_task_iter_test_task_file_skips_shared_tables,
			 tit_files_gen_params),
	{}
};

static struct kunit_suite bpf_task_iter_suite = {
	.name = "bpf_task_iter",
	.init = tit_init,
	.exit = tit_exit,
	.test_cases = bpf_task_iter_cases,
};

kunit_test_suite(bpf_task_iter_suite);

MODULE_DESCRIPTION("KUnit tests for the BPF task and task_file iterators");
MODULE_LICENSE("GPL");
