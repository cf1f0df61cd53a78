// SPDX-License-Identifier: GPL-2.0
/*
 * The parameters of the task, task_file and task_vma iterators
 * (f0d74c4da1f0, "bpf: Parameterize task iterators."; union
 * bpf_iter_link_info.task in include/uapi/linux/bpf.h):
 *
 *   - tid: only that task, also when it is not a thread group leader;
 *   - pid or pid_fd (a pidfd): every thread of that process once,
 *     leader first; task_file and task_vma skip the threads that share
 *     the leader's file table;
 *   - more than one of them: EINVAL; a pid_fd that is not a pidfd:
 *     EBADF; ids are those of the pid namespace of the reader;
 *   - bpf_link_info and fdinfo show tid or pid (pid_fd shows as the
 *     pid), and so does `bpftool link show`.
 *
 * The fixture's process has THREADS extra threads, blocked on a pipe;
 * thread UNSHARED of them has its own file table (unshare(CLONE_FILES))
 * with one file only it has open. That thread is the guard of 0301
 * (upstream c12e785e8648): without the fix, task_file and task_vma with
 * pid set skip it and visit the next thread instead.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <dirent.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "../kselftest_harness.h"
#include "../kconform_fuzz.h"
#include "iter_util.h"
#include "progs/records.h"
#include "task_iter.skel.h"

#define THREADS		40
#define UNSHARED	20
#define MAX_RECS	8192

static struct {
	pthread_t thread[THREADS];
	pid_t tid[THREADS];
	int wake[2];		/* closing wake[1] ends the threads */
	int u_fd;		/* the file only thread UNSHARED has */
	__u64 u_ino;
	pthread_barrier_t ready;
} tg;

static void *thread_fn(void *arg)
{
	long i = (long)arg;
	struct stat st;
	char c;

	tg.tid[i] = syscall(SYS_gettid);
	if (i == UNSHARED && !unshare(CLONE_FILES)) {
		/* Its own copy of the write end would keep it waiting. */
		close(tg.wake[1]);
		tg.u_fd = memfd_create("kconform-unshared", 0);
		if (tg.u_fd >= 0 && !fstat(tg.u_fd, &st))
			tg.u_ino = st.st_ino;
	}
	pthread_barrier_wait(&tg.ready);
	while (read(tg.wake[0], &c, 1) > 0)
		;
	return NULL;
}

static int tid_index(pid_t tid)
{
	int i;

	if (tid == getpid())
		return THREADS;
	for (i = 0; i < THREADS; i++)
		if (tg.tid[i] == tid)
			return i;
	return -1;
}

FIXTURE(tasks) {
	struct task_iter *skel;
	struct bpf_link *link;
	union {
		struct task_rec task[MAX_RECS];
		struct file_rec file[MAX_RECS];
		struct vma_rec vma[MAX_RECS];
	} out;
};

FIXTURE_SETUP(tasks)
{
	long i;

	memset(&tg, 0, sizeof(tg));
	tg.u_fd = -1;
	ASSERT_EQ(pipe(tg.wake), 0);
	ASSERT_EQ(pthread_barrier_init(&tg.ready, NULL, THREADS + 1), 0);
	/* Created one by one: the thread list is in this order. */
	for (i = 0; i < THREADS; i++) {
		ASSERT_EQ(pthread_create(&tg.thread[i], NULL, thread_fn,
					 (void *)i), 0);
		while (!__atomic_load_n(&tg.tid[i], __ATOMIC_ACQUIRE))
			sched_yield();
	}
	pthread_barrier_wait(&tg.ready);
	ASSERT_GE(tg.u_fd, 0) TH_LOG("thread %d: unshare/memfd failed",
				     UNSHARED);
	self->skel = task_iter__open_and_load();
	ASSERT_NE(self->skel, NULL) TH_LOG("load: %s", strerror(errno));
	self->link = NULL;
}

FIXTURE_TEARDOWN(tasks)
{
	int i;

	bpf_link__destroy(self->link);
	task_iter__destroy(self->skel);
	close(tg.wake[1]);
	for (i = 0; i < THREADS; i++)
		if (tg.tid[i])
			pthread_join(tg.thread[i], NULL);
	close(tg.wake[0]);
	pthread_barrier_destroy(&tg.ready);
}

enum param { NONE, TID, PID, PID_FD };

static int task_link(struct bpf_program *prog, enum param param, __u32 val,
		     struct bpf_link **link)
{
	union bpf_iter_link_info linfo = {};

	if (param == TID)
		linfo.task.tid = val;
	else if (param == PID)
		linfo.task.pid = val;
	else if (param == PID_FD)
		linfo.task.pid_fd = val;
	return iter_link(prog, &linfo, link);
}

/*
 * Records read through @link, @chunk bytes per read(); or -errno.
 * (struct _test_data_tasks is FIXTURE_DATA(tasks), spelled out because
 * checkpatch reads "FIXTURE_DATA(tasks) *self" as a multiplication.)
 */
static int recs(struct _test_data_tasks *self, size_t rec, size_t chunk)
{
	struct iter_end end;
	ssize_t n;

	n = iter_read(self->link, &self->out, sizeof(self->out), chunk, &end);
	if (n < 0 || end.err)
		return n < 0 ? n : end.err;
	return n / (ssize_t)rec;
}

static int pidfd_self(void)
{
	return syscall(SYS_pidfd_open, getpid(), 0);
}

/* The task iterator, for each way to name the task. */
FIXTURE_VARIANT(tasks) {
	size_t chunk;		/* bytes per read() */
};

FIXTURE_VARIANT_ADD(tasks, large_reads) {
	.chunk = sizeof(((FIXTURE_DATA(tasks) *)0)->out),
};

/* One record per read(): every record is a resumed walk. */
FIXTURE_VARIANT_ADD(tasks, record_per_read) {
	.chunk = sizeof(struct task_rec),
};

TEST_F(tasks, tid_of_leader_is_that_task)
{
	ASSERT_EQ(task_link(self->skel->progs.dump_task, TID, getpid(),
			    &self->link), 0);
	ASSERT_EQ(recs(self, sizeof(struct task_rec), variant->chunk), 1);
	EXPECT_EQ(self->out.task[0].tid, getpid());
	EXPECT_EQ(self->out.task[0].tgid, getpid());
}

TEST_F(tasks, tid_of_other_thread_is_that_thread)
{
	ASSERT_EQ(task_link(self->skel->progs.dump_task, TID, tg.tid[7],
			    &self->link), 0);
	ASSERT_EQ(recs(self, sizeof(struct task_rec), variant->chunk), 1);
	EXPECT_EQ(self->out.task[0].tid, tg.tid[7]);
	EXPECT_EQ(self->out.task[0].tgid, getpid());
}

static void expect_every_thread_once(struct __test_metadata *_metadata,
				     struct _test_data_tasks *self, int n)
{
	int seen[THREADS + 1] = {};
	int i, idx;

	ASSERT_EQ(n, THREADS + 1);
	EXPECT_EQ(self->out.task[0].tid, getpid()) TH_LOG("leader first");
	for (i = 0; i < n; i++) {
		idx = tid_index(self->out.task[i].tid);
		EXPECT_GE(idx, 0) TH_LOG("record %d: tid %u is not ours", i,
					 self->out.task[i].tid);
		EXPECT_EQ(self->out.task[i].tgid, getpid());
		if (idx >= 0)
			seen[idx]++;
	}
	for (i = 0; i <= THREADS; i++)
		EXPECT_EQ(seen[i], 1)
			TH_LOG("thread %d seen %d times", i, seen[i]);
}

TEST_F(tasks, pid_is_every_thread_once)
{
	ASSERT_EQ(task_link(self->skel->progs.dump_task, PID, getpid(),
			    &self->link), 0);
	expect_every_thread_once(_metadata, self,
				 recs(self, sizeof(struct task_rec),
				      variant->chunk));
}

TEST_F(tasks, pid_fd_is_every_thread_once)
{
	int pidfd = pidfd_self();

	ASSERT_GE(pidfd, 0);
	ASSERT_EQ(task_link(self->skel->progs.dump_task, PID_FD, pidfd,
			    &self->link), 0);
	close(pidfd);	/* the link keeps the pid, not the fd */
	expect_every_thread_once(_metadata, self,
				 recs(self, sizeof(struct task_rec),
				      variant->chunk));
}

/* pid names a process: a thread's id finds no thread group. */
TEST_F(tasks, pid_of_non_leader_is_no_task)
{
	ASSERT_EQ(task_link(self->skel->progs.dump_task, PID, tg.tid[3],
			    &self->link), 0);
	EXPECT_EQ(recs(self, sizeof(struct task_rec), variant->chunk), 0);
}

/* A tid that no task has (a reaped child's): a link, but no tasks. */
TEST_F(tasks, dead_tid_is_no_task)
{
	pid_t child = fork();

	ASSERT_GE(child, 0);
	if (!child)
		_exit(0);
	ASSERT_EQ(waitpid(child, NULL, 0), child);
	ASSERT_EQ(task_link(self->skel->progs.dump_task, TID, child,
			    &self->link), 0);
	EXPECT_EQ(recs(self, sizeof(struct task_rec), variant->chunk), 0);
	bpf_link__destroy(self->link);
	ASSERT_EQ(task_link(self->skel->progs.dump_task, PID, child,
			    &self->link), 0);
	EXPECT_EQ(recs(self, sizeof(struct task_rec), variant->chunk), 0);
}

/* The fds of @tid in self->out.file[0..n), as a count; -1 if a dup. */
static int file_recs_of(struct _test_data_tasks *self, int n, pid_t tid,
			int fd, __u64 ino, int *has)
{
	int i, j, count = 0;

	*has = 0;
	for (i = 0; i < n; i++) {
		if (self->out.file[i].tid != (__u32)tid)
			continue;
		count++;
		if (self->out.file[i].fd == (__u32)fd &&
		    self->out.file[i].ino == ino)
			*has = 1;
		for (j = 0; j < i; j++)
			if (self->out.file[j].tid == self->out.file[i].tid &&
			    self->out.file[j].fd == self->out.file[i].fd)
				return -1;
	}
	return count;
}

/*
 * task_file, pid set: the leader's files and the files of the thread
 * with its own table (0301), nobody else's, no fd twice.
 */
TEST_F(tasks, task_file_pid_visits_unshared_thread)
{
	int n, i, count, has;
	struct stat st;

	ASSERT_EQ(fstat(tg.wake[0], &st), 0);
	ASSERT_EQ(task_link(self->skel->progs.dump_task_file, PID, getpid(),
			    &self->link), 0);
	n = recs(self, sizeof(struct file_rec), variant->chunk);
	ASSERT_GT(n, 0);
	for (i = 0; i < n; i++) {
		int idx = tid_index(self->out.file[i].tid);

		EXPECT_TRUE(idx == THREADS || idx == UNSHARED)
			TH_LOG("record %d: thread %d (tid %u) shares the leader's files",
			       i, idx, self->out.file[i].tid);
	}
	count = file_recs_of(self, n, getpid(), tg.wake[0], st.st_ino, &has);
	EXPECT_GT(count, 0);
	EXPECT_EQ(has, 1) TH_LOG("leader's pipe fd %d not seen", tg.wake[0]);
	count = file_recs_of(self, n, tg.tid[UNSHARED], tg.u_fd, tg.u_ino,
			     &has);
	EXPECT_GT(count, 0) TH_LOG("thread with its own files not visited");
	EXPECT_EQ(has, 1) TH_LOG("its memfd (fd %d) not seen", tg.u_fd);
}

/* task_file, tid set: that thread's table, shared or not. */
TEST_F(tasks, task_file_tid_is_that_thread)
{
	int n, count, has;
	struct stat st;

	ASSERT_EQ(fstat(tg.wake[0], &st), 0);
	ASSERT_EQ(task_link(self->skel->progs.dump_task_file, TID, tg.tid[5],
			    &self->link), 0);
	n = recs(self, sizeof(struct file_rec), variant->chunk);
	count = file_recs_of(self, n, tg.tid[5], tg.wake[0], st.st_ino, &has);
	EXPECT_EQ(count, n) TH_LOG("records of other tasks");
	EXPECT_EQ(has, 1);

	bpf_link__destroy(self->link);
	ASSERT_EQ(task_link(self->skel->progs.dump_task_file, TID,
			    tg.tid[UNSHARED], &self->link), 0);
	n = recs(self, sizeof(struct file_rec), variant->chunk);
	count = file_recs_of(self, n, tg.tid[UNSHARED], tg.u_fd, tg.u_ino,
			     &has);
	EXPECT_EQ(count, n);
	EXPECT_EQ(has, 1);
}

/*
 * The start addresses of /proc/self/maps, in its order, without the
 * [vsyscall] gate area, which maps shows but which is no VMA of the mm.
 */
static int maps_starts(__u64 *start, int max)
{
	char line[512];
	int n = 0;
	FILE *f;

	f = fopen("/proc/self/maps", "r");
	if (!f)
		return -1;
	while (n < max && fgets(line, sizeof(line), f))
		if (!strstr(line, "[vsyscall]"))
			start[n++] = strtoull(line, NULL, 16);
	fclose(f);
	return n;
}

static void expect_vmas(struct __test_metadata *_metadata,
			struct _test_data_tasks *self, int n, pid_t tid,
			const __u64 *maps, int nmaps)
{
	int i, k = 0;

	for (i = 0; i < n; i++) {
		if (self->out.vma[i].tid != (__u32)tid)
			continue;
		if (k < nmaps)
			EXPECT_EQ(self->out.vma[i].start, maps[k])
				TH_LOG("tid %d vma %d", tid, k);
		k++;
	}
	EXPECT_EQ(k, nmaps) TH_LOG("tid %d: vmas", tid);
}

/* Records of task_vma through self->link; on no EOF, say so. */
static int vma_recs(struct __test_metadata *_metadata,
		    struct _test_data_tasks *self, size_t chunk)
{
	int n = recs(self, sizeof(struct vma_rec), chunk);

	EXPECT_NE(n, -ENOBUFS)
		TH_LOG("no EOF after %d records: a read() after the end started over",
		       MAX_RECS);
	return n;
}

/*
 * task_vma, tid set: exactly /proc/self/maps, in order, then EOF. With
 * one record per read() every read is a new session; the one after the
 * last VMA must see the end (0305) instead of the last session again.
 */
TEST_F(tasks, task_vma_tid_matches_maps)
{
	static __u64 maps[MAX_RECS];
	int nmaps, n;

	/* Touch what the reads will use before listing the maps. */
	memset(&self->out, 0, sizeof(self->out));
	nmaps = maps_starts(maps, MAX_RECS);
	ASSERT_GT(nmaps, 0);
	ASSERT_EQ(task_link(self->skel->progs.dump_task_vma, TID, tg.tid[9],
			    &self->link), 0);
	n = vma_recs(_metadata, self, variant->chunk);
	ASSERT_EQ(maps_starts(maps, MAX_RECS), nmaps) TH_LOG("maps changed");
	EXPECT_EQ(n, nmaps);
	expect_vmas(_metadata, self, n, tg.tid[9], maps, nmaps);
}

/*
 * task_vma, pid set: the leader's VMAs and those of the thread with its
 * own file table (0301), both the same mm, nobody else's.
 */
TEST_F(tasks, task_vma_pid_visits_unshared_thread)
{
	static __u64 maps[MAX_RECS];
	int nmaps, n, i;

	memset(&self->out, 0, sizeof(self->out));
	nmaps = maps_starts(maps, MAX_RECS);
	ASSERT_GT(nmaps, 0);
	ASSERT_EQ(task_link(self->skel->progs.dump_task_vma, PID, getpid(),
			    &self->link), 0);
	n = vma_recs(_metadata, self, variant->chunk);
	ASSERT_EQ(maps_starts(maps, MAX_RECS), nmaps) TH_LOG("maps changed");
	for (i = 0; i < n; i++) {
		int idx = tid_index(self->out.vma[i].tid);

		EXPECT_TRUE(idx == THREADS || idx == UNSHARED)
			TH_LOG("record %d: thread %d (tid %u)", i, idx,
			       self->out.vma[i].tid);
	}
	expect_vmas(_metadata, self, n, getpid(), maps, nmaps);
	expect_vmas(_metadata, self, n, tg.tid[UNSHARED], maps, nmaps);
}

/* What every task iterator target shares: its parameters. */
FIXTURE(params) {
	struct task_iter *skel;
	struct bpf_program *prog;
	struct bpf_link *link;
};

FIXTURE_VARIANT(params) {
	const char *target;
};

FIXTURE_VARIANT_ADD(params, task) { .target = "task" };
FIXTURE_VARIANT_ADD(params, task_file) { .target = "task_file" };
FIXTURE_VARIANT_ADD(params, task_vma) { .target = "task_vma" };

FIXTURE_SETUP(params)
{
	self->skel = task_iter__open_and_load();
	ASSERT_NE(self->skel, NULL) TH_LOG("load: %s", strerror(errno));
	if (!strcmp(variant->target, "task"))
		self->prog = self->skel->progs.dump_task;
	else if (!strcmp(variant->target, "task_file"))
		self->prog = self->skel->progs.dump_task_file;
	else
		self->prog = self->skel->progs.dump_task_vma;
	self->link = NULL;
}

FIXTURE_TEARDOWN(params)
{
	bpf_link__destroy(self->link);
	task_iter__destroy(self->skel);
}

TEST_F(params, more_than_one_is_einval)
{
	union bpf_iter_link_info linfo;
	int pidfd = pidfd_self();
	int mask;

	ASSERT_GE(pidfd, 0);
	for (mask = 3; mask < 8; mask++) {
		if (mask == 4)
			continue;	/* one of them */
		memset(&linfo, 0, sizeof(linfo));
		linfo.task.tid = mask & 1 ? getpid() : 0;
		linfo.task.pid = mask & 2 ? getpid() : 0;
		linfo.task.pid_fd = mask & 4 ? pidfd : 0;
		EXPECT_EQ(iter_link(self->prog, &linfo, &self->link), -EINVAL)
			TH_LOG("tid %u pid %u pid_fd %u", linfo.task.tid,
			       linfo.task.pid, linfo.task.pid_fd);
	}
	close(pidfd);
}

TEST_F(params, pid_fd_not_a_pidfd_is_ebadf)
{
	int fd = open("/dev/null", O_RDONLY);

	ASSERT_GE(fd, 0);
	EXPECT_EQ(task_link(self->prog, PID_FD, fd, &self->link), -EBADF);
	close(fd);
	EXPECT_EQ(task_link(self->prog, PID_FD, fd, &self->link), -EBADF);
}

static void expect_shown(struct __test_metadata *_metadata,
			 struct _test_data_params *self, const char *target,
			 const char *type, const char *name, __u32 val)
{
	char tname[32], text[4096], want[128];
	struct bpf_link_info info;
	const char *found;

	ASSERT_EQ(iter_info(self->link, &info, tname, sizeof(tname)), 0);
	EXPECT_STREQ(tname, target);
	EXPECT_EQ(info.iter.task.tid, !strcmp(name, "tid") ? val : 0);
	EXPECT_EQ(info.iter.task.pid, !strcmp(name, "pid") ? val : 0);

	fdinfo_text(self->link, text, sizeof(text));
	snprintf(want, sizeof(want), "task_type:\t%s", type);
	EXPECT_EQ(fdinfo_has(self->link, want), 1) TH_LOG("%s", text);
	snprintf(want, sizeof(want), "%s:\t%u", name, val);
	if (val)
		EXPECT_EQ(fdinfo_has(self->link, want), 1) TH_LOG("%s", text);
	EXPECT_EQ(!!strstr(text, "\ntid:\t") + !!strstr(text, "\npid:\t"),
		  !!val) TH_LOG("%s", text);

	ASSERT_EQ(bpftool_link_show(info.id, text, sizeof(text)), 0)
		TH_LOG("%s", text);
	/*
	 * The parameters end bpftool's line (its "pids" line may follow):
	 * "target_name T  tid N " or "target_name T  ", then a newline.
	 */
	if (val)
		snprintf(want, sizeof(want), "target_name %s  %s %u ", target,
			 name, val);
	else
		snprintf(want, sizeof(want), "target_name %s  ", target);
	found = strstr(text, want);
	EXPECT_TRUE(found && found[strlen(want)] == '\n')
		TH_LOG("bpftool: %s; want: %s and the end of the line", text,
		       want);
}

TEST_F(params, shown_for_tid)
{
	ASSERT_EQ(task_link(self->prog, TID, getpid(), &self->link), 0);
	expect_shown(_metadata, self, variant->target, "TID", "tid",
		     getpid());
}

TEST_F(params, shown_for_pid)
{
	ASSERT_EQ(task_link(self->prog, PID, getpid(), &self->link), 0);
	expect_shown(_metadata, self, variant->target, "PID", "pid",
		     getpid());
}

/* pid_fd is resolved when the link is made: shown as the pid. */
TEST_F(params, shown_for_pid_fd_as_pid)
{
	int pidfd = pidfd_self();

	ASSERT_GE(pidfd, 0);
	ASSERT_EQ(task_link(self->prog, PID_FD, pidfd, &self->link), 0);
	close(pidfd);
	expect_shown(_metadata, self, variant->target, "PID", "pid",
		     getpid());
}

TEST_F(params, shown_for_no_parameter)
{
	ASSERT_EQ(task_link(self->prog, NONE, 0, &self->link), 0);
	expect_shown(_metadata, self, variant->target, "ALL", "none", 0);
}

/*
 * In a child pid namespace, tid and pid are the namespace's: 1 is the
 * child itself (its global id is what /proc, mounted by the initial
 * namespace, calls "self"), and its global id there names nothing.
 * The child exits with the number of the first check that failed: 13
 * or 15, tid or pid 1 is not the child; 17, a global id was found.
 */
static int pidns_child(struct task_iter *skel)
{
	struct bpf_link *link;
	struct task_rec rec[4];
	struct iter_end end;
	char self_link[32];
	pid_t global;
	ssize_t n;

	n = readlink("/proc/self", self_link, sizeof(self_link) - 1);
	if (n <= 0)
		return 10;
	self_link[n] = '\0';
	global = atoi(self_link);
	if (getpid() != 1 || global <= 1)
		return 11;
	if (task_link(skel->progs.dump_task, TID, 1, &link))
		return 12;
	n = iter_read(link, rec, sizeof(rec), sizeof(rec), &end);
	bpf_link__destroy(link);
	if (end.err || n != sizeof(rec[0]) || rec[0].tid != (__u32)global)
		return 13;
	if (task_link(skel->progs.dump_task, PID, 1, &link))
		return 14;
	n = iter_read(link, rec, sizeof(rec), sizeof(rec), &end);
	bpf_link__destroy(link);
	if (end.err || n != sizeof(rec[0]) || rec[0].tgid != (__u32)global)
		return 15;
	if (task_link(skel->progs.dump_task, TID, global, &link))
		return 16;
	n = iter_read(link, rec, sizeof(rec), sizeof(rec), &end);
	bpf_link__destroy(link);
	if (end.err || n != 0)
		return 17;
	return 0;
}

TEST(ids_are_the_readers_pid_namespace)
{
	struct task_iter *skel = task_iter__open_and_load();
	pid_t child, inner;
	int st;

	ASSERT_NE(skel, NULL) TH_LOG("load: %s", strerror(errno));
	child = fork();
	ASSERT_GE(child, 0);
	if (!child) {
		if (unshare(CLONE_NEWPID))
			_exit(20);
		inner = fork();
		if (inner < 0)
			_exit(21);
		if (!inner)
			_exit(pidns_child(skel));
		if (waitpid(inner, &st, 0) != inner || !WIFEXITED(st))
			_exit(22);
		_exit(WEXITSTATUS(st));
	}
	ASSERT_EQ(waitpid(child, &st, 0), child);
	task_iter__destroy(skel);
	ASSERT_TRUE(WIFEXITED(st));
	EXPECT_EQ(WEXITSTATUS(st), 0)
		TH_LOG("check %d of pidns_child() failed", WEXITSTATUS(st));
}

/* ---- seeded bad input and fault injection (issue 15) ------------------ */

/* Tgid of @tid from /proc/<tid>/status, 0 if there is no such task. */
static pid_t proc_tgid(pid_t tid)
{
	char path[64], line[128];
	pid_t tgid = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", tid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Tgid: %d", &tgid) == 1)
			break;
	fclose(f);
	return tgid;
}

/* Threads of process @tgid as /proc/<tgid>/task lists them, sorted. */
static int proc_threads(pid_t tgid, __u32 *tids, int max)
{
	char path[64];
	struct dirent *de;
	int n = 0;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", tgid);
	d = opendir(path);
	if (!d)
		return 0;
	while ((de = readdir(d)) && n < max)
		if (de->d_name[0] != '.')
			tids[n++] = atoi(de->d_name);
	closedir(d);
	return n;
}

static int cmp_u32(const void *a, const void *b)
{
	__u32 x = *(const __u32 *)a, y = *(const __u32 *)b;

	return x < y ? -1 : x > y;
}

#define TASK_FUZZ_ITERS	300

/*
 * Random bpf_iter_link_info for the task iterator: tid, pid and pid_fd
 * from this process, one of its threads, a zombie child (an exiting
 * task), a reaped child, a random number, a pidfd of this process and
 * of the zombie, fds that are not pidfds (/dev/null, closed, -1), alone,
 * together or none. Each link_create() fails with exactly the errno of
 * bpf_iter_attach_task() in 6.1.192 (EINVAL for more than one, EBADF for
 * a pid_fd that is no pidfd) or makes a link whose walk, read in chunks
 * of a random size (the task iterator resumes across read() sessions),
 * is what /proc shows: the task a tid names, if it exists (a zombie
 * too); every thread of a pid that is a thread group's (its leader's)
 * tid, once; for no parameter, every thread of this process among all.
 */
TEST_F_TIMEOUT(tasks, seeded_bad_link_info, 300)
{
	static __u32 want[MAX_RECS], got[MAX_RECS];
	int i, k, null_fd, self_pidfd, zombie_pidfd, n, w, nz, err, chunk;
	pid_t zombie, reaped, tgid, target;
	long taint = kc_tainted();
	union bpf_iter_link_info linfo;
	__u32 vals[3], fds[6], ids[5];
	struct iter_end end;
	struct kc_rng r;

	kc_rng_init(&r, "bpf_iter_params.task.seeded_bad_link_info");
	libbpf_set_print(NULL);
	reaped = fork();
	ASSERT_GE(reaped, 0);
	if (!reaped)
		_exit(0);
	ASSERT_EQ(waitpid(reaped, NULL, 0), reaped);
	zombie = fork();
	ASSERT_GE(zombie, 0);
	if (!zombie)
		_exit(0);
	/* a zombie until waited for: wait until it has exited */
	for (k = 0; k < 1000; k++) {
		siginfo_t si = {};

		ASSERT_EQ(0, waitid(P_PID, zombie, &si, WEXITED | WNOWAIT | WNOHANG));
		if (si.si_pid == zombie)
			break;
		usleep(1000);
	}
	null_fd = open("/dev/null", O_RDONLY);
	self_pidfd = pidfd_self();
	zombie_pidfd = syscall(SYS_pidfd_open, zombie, 0);
	ASSERT_GE(null_fd, 0);
	ASSERT_GE(self_pidfd, 0);
	ASSERT_GE(zombie_pidfd, 0);
	ids[0] = getpid();
	ids[1] = zombie;
	ids[2] = reaped;
	fds[0] = self_pidfd;
	fds[1] = zombie_pidfd;
	fds[2] = null_fd;
	fds[3] = 4000;
	fds[4] = 0xffffffffu;
	fds[5] = self_pidfd;

	for (i = 0; i < TASK_FUZZ_ITERS; i++) {
		ids[3] = tg.tid[kc_below(&r, THREADS)];
		ids[4] = 1 + kc_below(&r, 1u << 22);
		memset(vals, 0, sizeof(vals));
		for (k = 0; k < 3; k++) {
			if (!kc_chance(&r, 40))
				continue;
			vals[k] = k == 2 ? fds[kc_below(&r, 6)] : ids[kc_below(&r, 5)];
		}
		nz = !!vals[0] + !!vals[1] + !!vals[2];
		memset(&linfo, 0, sizeof(linfo));
		linfo.task.tid = vals[0];
		linfo.task.pid = vals[1];
		linfo.task.pid_fd = vals[2];
		err = 0;
		if (nz > 1)
			err = -EINVAL;
		else if (vals[2] && vals[2] != (__u32)self_pidfd &&
			 vals[2] != (__u32)zombie_pidfd)
			err = -EBADF;
		k = iter_link(self->skel->progs.dump_task, &linfo, &self->link);
		if (err) {
			EXPECT_EQ(err, k) TH_LOG("iteration %d: tid %u pid %u pid_fd %u",
						 i, vals[0], vals[1], vals[2]);
			self->link = NULL;
			goto next;
		}
		ASSERT_EQ(0, k) TH_LOG("iteration %d: tid %u pid %u pid_fd %u",
				       i, vals[0], vals[1], vals[2]);
		/* the walk as /proc shows it */
		w = 0;
		if (vals[0]) {
			if (proc_tgid(vals[0]))
				want[w++] = vals[0];
		} else if (vals[1] || vals[2]) {
			target = vals[1] ? (pid_t)vals[1] :
				 vals[2] == (__u32)self_pidfd ? getpid() : zombie;
			if (proc_tgid(target) == target)
				w = proc_threads(target, want, MAX_RECS);
		} else {
			w = proc_threads(getpid(), want, MAX_RECS);
		}
		qsort(want, w, sizeof(*want), cmp_u32);
		chunk = 1 + kc_below(&r, kc_chance(&r, 50) ? 64 : sizeof(self->out));
		n = iter_read(self->link, &self->out, sizeof(self->out), chunk, &end);
		ASSERT_EQ(0, end.err) TH_LOG("iteration %d, chunk %d", i, chunk);
		ASSERT_EQ(0, n % sizeof(struct task_rec));
		n /= sizeof(struct task_rec);
		if (!vals[0] && !vals[1] && !vals[2]) {
			/* all tasks: this process's threads among them, once */
			for (k = 0, nz = 0; k < n; k++)
				if ((pid_t)self->out.task[k].tgid == getpid())
					got[nz++] = self->out.task[k].tid;
			n = nz;
		} else {
			for (k = 0; k < n; k++)
				got[k] = self->out.task[k].tid;
		}
		qsort(got, n, sizeof(*got), cmp_u32);
		EXPECT_EQ(w, n) TH_LOG("iteration %d: tid %u pid %u pid_fd %u, chunk %d",
				       i, vals[0], vals[1], vals[2], chunk);
		if (w == n)
			EXPECT_EQ(0, memcmp(want, got, n * sizeof(*got)))
				TH_LOG("iteration %d: other tasks than /proc shows", i);
		bpf_link__destroy(self->link);
		self->link = NULL;
next:
		ASSERT_EQ(taint, kc_tainted()) TH_LOG("tainted at iteration %d", i);
		if (!_metadata->passed)
			break;
	}
	tgid = proc_tgid(zombie);
	EXPECT_EQ(zombie, tgid);
	ASSERT_EQ(waitpid(zombie, NULL, 0), zombie);
	close(zombie_pidfd);
	close(self_pidfd);
	close(null_fd);
}

/*
 * Link creation, the iterator's creation and its first read() of a tid
 * walk of this process, with the n-th slab allocation failing
 * (fail-nth), for every n until the three make fewer than n: each step
 * fails with ENOMEM (bpf(2), read(2)) or the read gives this task, and
 * afterwards a fresh link does too.
 */
TEST_F_TIMEOUT(tasks, link_create_and_read_fault_injection, 300)
{
	union bpf_iter_link_info linfo = {};
	int fail_nth, n, it, ret, enomem = 0;
	struct task_rec rec[4];
	long left;
	ssize_t len;

	ret = kc_failslab_setup();
	if (ret)
		SKIP(return, "no failslab in debugfs: %s", strerror(-ret));
	libbpf_set_print(NULL);
	linfo.task.tid = getpid();
	fail_nth = kc_fail_nth_open();
	ASSERT_GE(fail_nth, 0);
	for (n = 1; n < 5000; n++) {
		ASSERT_EQ(0, kc_fail_nth_arm(fail_nth, n));
		ret = iter_link_read_once(self->skel->progs.dump_task, &linfo, &self->link,
					  rec, sizeof(rec), &it, &len);
		left = kc_fail_nth_disarm(fail_nth);
		ASSERT_GE(left, 0);
		if (ret) {
			EXPECT_EQ(-ENOMEM, ret) TH_LOG("n = %d: link %p, iterator %d, read %zd",
						       n, self->link, it, len);
			EXPECT_EQ(0, left);
			enomem++;
		} else {
			EXPECT_EQ(sizeof(rec[0]), len) TH_LOG("n = %d", n);
			EXPECT_EQ(getpid(), (pid_t)rec[0].tid);
		}
		if (it >= 0)
			close(it);
		bpf_link__destroy(self->link);
		self->link = NULL;
		if (left)
			break;
	}
	printf("# %d attempts: %d ENOMEM\n", n, enomem);
	fflush(stdout);
	close(fail_nth);
	EXPECT_LT(n, 5000);
	EXPECT_GT(enomem, 0);
	ASSERT_EQ(0, task_link(self->skel->progs.dump_task, TID, getpid(), &self->link));
	EXPECT_EQ(1, recs(self, sizeof(struct task_rec), variant->chunk));
}

TEST_HARNESS_MAIN
