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
 *     pid), and so does `bpftool link show`;
 *   - no parameter: every task of the reader's pid namespace, in the
 *     order of their ids;
 *   - a walk that found no task ends in EOF, and so does the read()
 *     after it.
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
#include <stdarg.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
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

/*
 * pid names a process: a thread's id finds no thread group, at the first
 * read() and at a read() after that EOF.
 */
TEST_F(tasks, pid_of_non_leader_is_no_task)
{
	struct task_rec rec = {};
	int it;

	ASSERT_EQ(task_link(self->skel->progs.dump_task, PID, tg.tid[3],
			    &self->link), 0);
	EXPECT_EQ(recs(self, sizeof(struct task_rec), variant->chunk), 0);
	it = bpf_iter_create(bpf_link__fd(self->link));
	ASSERT_GE(it, 0);
	EXPECT_EQ(read(it, &rec, sizeof(rec)), 0);
	EXPECT_EQ(read(it, &rec, sizeof(rec)), 0)
		TH_LOG("after EOF: tid %u, tgid %u", rec.tid, rec.tgid);
	close(it);
}

/*
 * No parameter: every task, also those past an id that only a process
 * group still holds, its leader exited and reaped while a member lives
 * on (a shell's background job that outlives the shell). The iterator
 * finds that id (find_ge_pid()), no task with it, and goes on. (The
 * member's id is above the leader's, so a walk that ended at the
 * leader's would miss it, unless the ids wrapped in between.)
 */
TEST_F(tasks, all_tasks_past_a_group_without_its_leader)
{
	int ids[2], n, i, member_seen = 0, leader_seen = 0;
	pid_t leader, member = 0;

	ASSERT_EQ(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
	ASSERT_EQ(pipe(ids), 0);
	leader = fork();
	ASSERT_GE(leader, 0);
	if (!leader) {
		if (setpgid(0, 0))
			_exit(1);
		member = fork();
		if (!member)
			for (;;)
				pause();
		_exit(write(ids[1], &member, sizeof(member)) != sizeof(member));
	}
	close(ids[1]);
	EXPECT_EQ(read(ids[0], &member, sizeof(member)), sizeof(member));
	close(ids[0]);
	ASSERT_EQ(waitpid(leader, NULL, 0), leader);
	ASSERT_GT(member, 0);
	EXPECT_EQ(getpgid(member), leader);

	ASSERT_EQ(task_link(self->skel->progs.dump_task, NONE, 0, &self->link),
		  0);
	n = recs(self, sizeof(struct task_rec), variant->chunk);
	for (i = 0; i < n; i++) {
		member_seen += self->out.task[i].tid == (__u32)member;
		leader_seen += self->out.task[i].tid == (__u32)leader;
	}
	kill(member, SIGKILL);
	EXPECT_EQ(waitpid(member, NULL, 0), member);
	EXPECT_GT(n, 0);
	EXPECT_EQ(member_seen, 1) TH_LOG("%d records; member %d of group %d",
					 n, member, leader);
	EXPECT_EQ(leader_seen, 0);
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
 * A task_file walk through @param: of this process, the leader's files
 * and those of the thread with its own table, no fd twice; other
 * processes' files only when no parameter is set.
 */
static void expect_leader_and_unshared_files(struct __test_metadata *_metadata,
					     struct _test_data_tasks *self,
					     enum param param, __u32 val,
					     size_t chunk)
{
	int n, i, count, has;
	struct stat st;

	ASSERT_EQ(fstat(tg.wake[0], &st), 0);
	ASSERT_EQ(task_link(self->skel->progs.dump_task_file, param, val,
			    &self->link), 0);
	n = recs(self, sizeof(struct file_rec), chunk);
	ASSERT_GT(n, 0);
	for (i = 0; i < n; i++) {
		int idx = tid_index(self->out.file[i].tid);

		EXPECT_TRUE((idx < 0 && param == NONE) || idx == THREADS ||
			    idx == UNSHARED)
			TH_LOG("record %d: thread %d (tid %u): %s", i, idx,
			       self->out.file[i].tid, idx < 0 ? "another process" :
			       "shares the leader's files");
	}
	count = file_recs_of(self, n, getpid(), tg.wake[0], st.st_ino, &has);
	EXPECT_GT(count, 0);
	EXPECT_EQ(has, 1) TH_LOG("leader's pipe fd %d not seen", tg.wake[0]);
	count = file_recs_of(self, n, tg.tid[UNSHARED], tg.u_fd, tg.u_ino,
			     &has);
	EXPECT_GT(count, 0) TH_LOG("thread with its own files not visited");
	EXPECT_EQ(has, 1) TH_LOG("its memfd (fd %d) not seen", tg.u_fd);
}

/* task_file, pid set: the thread with its own table is visited (0301). */
TEST_F(tasks, task_file_pid_visits_unshared_thread)
{
	expect_leader_and_unshared_files(_metadata, self, PID, getpid(),
					 variant->chunk);
}

/*
 * task_file, no parameter: every task of the reader's pid namespace,
 * where too a thread that shares its leader's file table is skipped
 * ("bpf: Avoid iterating duplicated files for task_file iterator",
 * kept by f0d74c4da1f0 in task_seq_get_next()).
 */
TEST_F(tasks, task_file_all_skips_threads_sharing_files)
{
	expect_leader_and_unshared_files(_metadata, self, NONE, 0,
					 variant->chunk);
}

/*
 * A child with /dev/null at fds 0, 1, 2 and @top (>= 2), no other fd,
 * waiting to be killed. It closes its copy of @sync's write end last:
 * EOF on @sync says the children are ready.
 */
static pid_t fd_child(const int *sync, int top)
{
	pid_t pid = fork();
	int null;

	if (pid)
		return pid;
	null = open("/dev/null", O_RDWR);
	if (null < 0 || dup2(null, 0) || dup2(null, 1) != 1 ||
	    dup2(null, 2) != 2 || dup2(null, top) != top ||
	    dup2(sync[1], top + 1) != top + 1)
		_exit(1);
	if (top > 3)
		close_range(3, top - 1, 0);
	close_range(top + 2, ~0U, 0);
	close(top + 1);
	for (;;)
		pause();
}

#define FAR_FD	200

/*
 * task_file, no parameter, a record per read(): each read() is a session
 * that resumes at the task and fd after the last record. When that task
 * exits between two reads, the walk goes on with the next task from its
 * first fd: only the task a session stopped in resumes at the fd it
 * stopped at. Here the walk stops in @first before its fd FAR_FD;
 * @next, the process forked after it, has fds 0, 1 and 2.
 */
TEST(task_file_next_task_from_fd_0_after_exit)
{
	unsigned long long first_fds = 0, next_fds = 0;
	int sync[2], it, cut = 0;
	struct task_iter *skel;
	struct bpf_link *link;
	struct file_rec rec;
	pid_t first, next;
	char c;

	ASSERT_EQ(pipe(sync), 0);
	first = fd_child(sync, FAR_FD);
	next = fd_child(sync, 2);
	close(sync[1]);
	ASSERT_EQ(read(sync[0], &c, 1), 0);
	close(sync[0]);
	ASSERT_GT(first, 0);
	ASSERT_GT(next, 0);
	EXPECT_EQ(waitpid(-1, NULL, WNOHANG), 0) TH_LOG("a child did not start");

	skel = task_iter__open_and_load();
	ASSERT_NE(skel, NULL) TH_LOG("load: %s", strerror(errno));
	ASSERT_EQ(task_link(skel->progs.dump_task_file, NONE, 0, &link), 0);
	it = bpf_iter_create(bpf_link__fd(link));
	ASSERT_GE(it, 0);
	while (read(it, &rec, sizeof(rec)) == sizeof(rec)) {
		if (rec.tid == (__u32)first)
			first_fds |= 1ULL << (rec.fd < 63 ? rec.fd : 63);
		if (rec.tid == (__u32)next)
			next_fds |= 1ULL << (rec.fd < 63 ? rec.fd : 63);
		if (rec.tid == (__u32)first && rec.fd == 2 && !cut) {
			/* this session ended with first's fd FAR_FD next */
			kill(first, SIGKILL);
			EXPECT_EQ(waitpid(first, NULL, 0), first);
			cut = 1;
		}
	}
	close(it);
	bpf_link__destroy(link);
	task_iter__destroy(skel);
	kill(next, SIGKILL);
	EXPECT_EQ(waitpid(next, NULL, 0), next);
	if (!cut) {
		kill(first, SIGKILL);
		waitpid(first, NULL, 0);
	}
	EXPECT_EQ(cut, 1) TH_LOG("fd 2 of %d not seen", first);
	EXPECT_EQ(first_fds, 0x7) TH_LOG("fds of %d (first): %#llx", first, first_fds);
	EXPECT_EQ(next_fds, 0x7) TH_LOG("fds of %d (next): %#llx", next, next_fds);
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

#define CHURN_PAGES	512
#define CHURN_WALKS	50

static int churn_stop;

/*
 * Map and unmap a page without pause: a writer of the mm's mmap_lock.
 * Shared, so that it never merges with a neighbour (a VMA whose range
 * changed under a walk may be given again, task_iter.c's case 4.2).
 */
static void *churn_fn(void *arg)
{
	void *p;

	while (!__atomic_load_n(&churn_stop, __ATOMIC_RELAXED)) {
		p = mmap(NULL, 4096, PROT_READ, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (p != MAP_FAILED)
			munmap(p, 4096);
	}
	return NULL;
}

/*
 * task_vma, tid set, while another thread of the process maps and unmaps
 * a page without pause: a walk that finds that writer waiting for
 * mmap_lock lets it in and goes on from the VMA it was at
 * (task_vma_seq_get_next(), "In case of lock contention"), so that each
 * of CHURN_WALKS walks ends at the last VMA /proc/self/maps lists and
 * gives each VMA once, in address order, and the program's epilogue (no
 * VMA) comes once, after the last of them.
 * CHURN_PAGES pages of alternating protection make the walks long.
 */
TEST(task_vma_walk_goes_on_past_a_waiting_writer)
{
	static struct vma_rec rec[CHURN_PAGES + 1024];
	static __u64 maps[CHURN_PAGES + 1024];
	struct task_iter *skel;
	struct bpf_link *link;
	struct iter_end end;
	pthread_t churn;
	int i, k, nmaps, last;
	char *area;
	ssize_t n;

	area = mmap(NULL, CHURN_PAGES * 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS,
		    -1, 0);
	ASSERT_NE(area, MAP_FAILED);
	for (i = 0; i < CHURN_PAGES; i += 2)
		ASSERT_EQ(0, mprotect(area + i * 4096, 4096, PROT_READ | PROT_WRITE));
	skel = task_iter__open_and_load();
	ASSERT_NE(skel, NULL) TH_LOG("load: %s", strerror(errno));
	ASSERT_EQ(task_link(skel->progs.dump_task_vma, TID, getpid(), &link), 0);
	memset(rec, 0, sizeof(rec));
	nmaps = maps_starts(maps, ARRAY_SIZE(maps));
	ASSERT_GT(nmaps, CHURN_PAGES);

	ASSERT_EQ(0, pthread_create(&churn, NULL, churn_fn, NULL));
	for (i = 0; i < CHURN_WALKS; i++) {
		skel->bss->vmas = 0;
		skel->bss->epilogues = 0;
		n = iter_read(link, rec, sizeof(rec), sizeof(rec), &end);
		last = n / (ssize_t)sizeof(rec[0]) - 1;
		EXPECT_EQ(0, end.err) TH_LOG("walk %d", i);
		EXPECT_LE(nmaps - 1, last) TH_LOG("walk %d: %d VMAs", i, last + 1);
		EXPECT_EQ(maps[nmaps - 1], last >= 0 ? rec[last].start : 0)
			TH_LOG("walk %d: %d VMAs", i, last + 1);
		for (k = 1; k <= last && rec[k - 1].start < rec[k].start; k++)
			;
		EXPECT_GT(k, last) TH_LOG("walk %d: VMA %d at %#llx after one at %#llx",
					  i, k, (unsigned long long)rec[k].start,
					  (unsigned long long)rec[k - 1].start);
		EXPECT_EQ(1, skel->bss->epilogues) TH_LOG("walk %d", i);
		EXPECT_EQ(last + 1, skel->bss->vmas_at_epilogue)
			TH_LOG("walk %d: epilogue after %u of %d VMAs", i,
			       skel->bss->vmas_at_epilogue, last + 1);
		if (!kc_passed(_metadata))
			break;
	}
	__atomic_store_n(&churn_stop, 1, __ATOMIC_RELAXED);
	pthread_join(churn, NULL);
	bpf_link__destroy(link);
	task_iter__destroy(skel);
	munmap(area, CHURN_PAGES * 4096);
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

/* The dump program of iterator @target (task, task_file, task_vma). */
static struct bpf_program *dump_prog(struct task_iter *skel, const char *target)
{
	if (!strcmp(target, "task"))
		return skel->progs.dump_task;
	if (!strcmp(target, "task_file"))
		return skel->progs.dump_task_file;
	return skel->progs.dump_task_vma;
}

FIXTURE_SETUP(params)
{
	self->skel = task_iter__open_and_load();
	ASSERT_NE(self->skel, NULL) TH_LOG("load: %s", strerror(errno));
	self->prog = dump_prog(self->skel, variant->target);
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

/* ---- seeded bad input and fault injection ------------------ */

/*
 * Tgid of @tid from @proc/<tid>/status (@proc: a proc mount, whose pid
 * namespace both numbers are of), 0 if there is no such task.
 */
static pid_t proc_tgid(const char *proc, pid_t tid)
{
	char path[PATH_MAX], line[128];
	pid_t tgid = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%d/status", proc, tid);
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

/* ---- links made in nested pid namespaces ------------------- */

/*
 * A process one or two pid namespaces down (pid 1 there), with that
 * namespace's proc mounted at NS_PROC in a mount namespace of its own,
 * makes task, task_file and task_vma links with tid (its second
 * thread), pid (1, itself) and pid_fd (a pidfd of itself). Read there,
 * each link visits what NS_PROC shows: the task a tid names; for pid and
 * pid_fd every thread of the process (task), or the leader alone
 * (task_file, task_vma: the threads share its files and mm); exactly
 * the fds of NS_PROC/<tid>/fd, as many VMAs as NS_PROC/<tid>/maps. The
 * records hold global ids (task->pid); the NSpid line of the initial
 * /proc maps them into the namespace.
 *
 * What 6.1.192 does with the numbers (bpf_iter_attach_task(),
 * init_seq_pidns()): tid and pid are kept as given, and pid_fd becomes
 * the process's number in the creator's pid namespace, when the link is
 * made; the number is looked up in the pid namespace of whoever makes
 * the iterator (bpf_iter_create(), or open() of a pinned link), when it
 * is made. Neither seed (f0d74c4da1f0, aa55dfd3783f) nor the uapi
 * header says which namespace: "a pid is interpreted in the creator's
 * namespace" holds only while the reader shares it. The links, passed
 * to this test in the initial namespace and read here, walk other
 * tasks: pid 1 and the pidfd of the nested init both walk the guest's
 * init (a pid_fd link does not keep to its process), the tid walks the
 * initial namespace's task of that number (a kernel thread: no files,
 * no mm). And a link made here with this test's tid, read in the
 * nested namespace, walks the task of that number there (none).
 */
#define NS_PROC		"/tmp/kconform-nsproc"
#define NS_THREADS	2

enum ns_link { NS_TID, NS_PID, NS_PID_FD, NS_LINKS };

static const char *const ns_link_name[NS_LINKS] = { "tid", "pid", "pid_fd" };

/* Field @level of the NSpid line of global task @tid: its id there. */
static __u32 ns_tid(__u32 tid, int level)
{
	char path[64], line[256], *p, *end;
	__u32 ret = 0;
	long v;
	FILE *f;
	int i;

	snprintf(path, sizeof(path), "/proc/%u/status", tid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "NSpid:", 6))
			continue;
		p = line + 6;
		for (i = 0; i <= level; i++, p = end) {
			v = strtol(p, &end, 10);
			if (end == p)
				break;
			if (i == level)
				ret = v;
		}
		break;
	}
	fclose(f);
	return ret;
}

/* The entries of @dir that are numbers, sorted; -1 if it cannot be read. */
static int dir_numbers(const char *dir, __u32 *out, int max)
{
	struct dirent *de;
	int n = 0;
	DIR *d;

	d = opendir(dir);
	if (!d)
		return -1;
	while ((de = readdir(d)))
		if (de->d_name[0] >= '0' && de->d_name[0] <= '9' && n < max)
			out[n++] = atoi(de->d_name);
	closedir(d);
	qsort(out, n, sizeof(*out), cmp_u32);
	return n;
}

/* The VMAs @path (a maps file) lists: its lines but [vsyscall]. */
static int maps_lines(const char *path)
{
	char line[512];
	int n = 0;
	FILE *f;

	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strstr(line, "[vsyscall]"))
			n++;
	fclose(f);
	return n;
}

static union {
	struct task_rec task[MAX_RECS];
	struct file_rec file[MAX_RECS];
	struct vma_rec vma[MAX_RECS];
} ns_out;

/*
 * Read the iterator of link fd @fd to the end, @chunk bytes per read()
 * (0: as much as fits): records, or -errno.
 */
static int ns_read(int fd, size_t rec, size_t chunk)
{
	size_t len = 0, want;
	ssize_t n = 0;
	int it;

	it = bpf_iter_create(fd);
	if (it < 0)
		return -errno;
	while (len < sizeof(ns_out)) {
		want = sizeof(ns_out) - len;
		if (chunk && chunk < want)
			want = chunk;
		n = read(it, (char *)&ns_out + len, want);
		if (n <= 0)
			break;
		len += n;
	}
	if (n < 0)
		n = -errno;
	close(it);
	return n < 0 ? n : (int)(len / rec);
}

struct ns_walk {
	const char *target;	/* task, task_file, task_vma */
	const char *proc;	/* the proc of the reader's pid namespace */
	int level;		/* of that namespace */
	enum ns_link k;
	__u32 id;		/* the tid or pid the link names there */
	int n;			/* records in ns_out */
	int fd;			/* task_file: an fd the walk must show, or -1 */
	__u64 ino;		/* its inode */
	__u64 start;		/* task_vma: a VMA the walk must show, or 0 */
};

/*
 * Does the walk @w (in ns_out) show what w->proc shows? NULL if so, else
 * what differs.
 */
static const char *ns_check(const struct ns_walk *w)
{
	static __u32 want[MAX_RECS], got[MAX_RECS];
	static char why[256];
	bool task = !strcmp(w->target, "task"), marked = false;
	char path[PATH_MAX];
	int i, nw;
	pid_t tgid;
	__u32 tid;

#define WHY(...) (snprintf(why, sizeof(why), __VA_ARGS__), why)
	/* a tid names its task; a pid only a thread group's leader */
	nw = 0;
	tgid = proc_tgid(w->proc, w->id);
	if (tgid && (w->k == NS_TID || tgid == (pid_t)w->id))
		want[nw++] = w->id;
	if (nw && w->k != NS_TID && task) {
		snprintf(path, sizeof(path), "%s/%u/task", w->proc, w->id);
		nw = dir_numbers(path, want, MAX_RECS);
		if (nw < 1)
			return WHY("%s: %d threads", path, nw);
	}
	/* Every record is of a task the link names, as the reader sees it. */
	for (i = 0; i < w->n; i++) {
		memcpy(&tid, (char *)&ns_out + i * (task ? sizeof(struct task_rec) :
			!strcmp(w->target, "task_file") ? sizeof(struct file_rec) :
			sizeof(struct vma_rec)), sizeof(tid));
		got[i] = ns_tid(tid, w->level);
		if (!bsearch(&got[i], want, nw, sizeof(*want), cmp_u32))
			return WHY("record %d: task %u (global %u) in %s, not the %s %u's",
				   i, got[i], tid, w->proc, ns_link_name[w->k], w->id);
	}
	if (task) {
		/* each thread once */
		qsort(got, w->n, sizeof(*got), cmp_u32);
		if (w->n != nw || memcmp(got, want, nw * sizeof(*want)))
			return WHY("%d tasks, %s shows %d", w->n, w->proc, nw);
		return NULL;
	}
	if (!strcmp(w->target, "task_file")) {
		snprintf(path, sizeof(path), "%s/%u/fd", w->proc, w->id);
		nw = nw ? dir_numbers(path, want, MAX_RECS) : 0;
		if (nw < 0)	/* an exiting task's fd directory */
			nw = 0;
		for (i = 0; i < w->n; i++) {
			got[i] = ns_out.file[i].fd;
			marked |= ns_out.file[i].fd == (__u32)w->fd &&
				  ns_out.file[i].ino == w->ino;
		}
		qsort(got, w->n, sizeof(*got), cmp_u32);
		if (w->n != nw || memcmp(got, want, nw * sizeof(*want)))
			return WHY("%d files, %s shows %d", w->n, path, nw);
		if (w->fd >= 0 && !marked)
			return WHY("fd %d not among the files", w->fd);
		return NULL;
	}
	snprintf(path, sizeof(path), "%s/%u/maps", w->proc, w->id);
	nw = nw ? maps_lines(path) : 0;
	if (nw < 0)
		nw = 0;
	for (i = 0; i < w->n; i++)
		marked |= ns_out.vma[i].start == w->start;
	if (w->n != nw)
		return WHY("%d VMAs, %s shows %d", w->n, path, nw);
	if (w->start && !marked)
		return WHY("VMA at %#llx not among them", (unsigned long long)w->start);
	return NULL;
#undef WHY
}

/* Send @n fds and @val over @sock; receive them. */
static int send_fds(int sock, const int *fds, int n, __u32 val)
{
	char cbuf[CMSG_SPACE(sizeof(int) * NS_LINKS)] = {};
	struct iovec iov = { .iov_base = &val, .iov_len = sizeof(val) };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = CMSG_SPACE(sizeof(int) * n),
	};
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);

	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int) * n);
	memcpy(CMSG_DATA(c), fds, sizeof(int) * n);
	return sendmsg(sock, &msg, 0) == sizeof(val) ? 0 : -1;
}

static int recv_fds(int sock, int *fds, int n, __u32 *val)
{
	char cbuf[CMSG_SPACE(sizeof(int) * NS_LINKS)] = {};
	struct iovec iov = { .iov_base = val, .iov_len = sizeof(*val) };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = CMSG_SPACE(sizeof(int) * n),
	};
	struct cmsghdr *c;

	if (recvmsg(sock, &msg, 0) != sizeof(*val))
		return -1;
	c = CMSG_FIRSTHDR(&msg);
	if (!c || c->cmsg_type != SCM_RIGHTS ||
	    c->cmsg_len != CMSG_LEN(sizeof(int) * n))
		return -1;
	memcpy(fds, CMSG_DATA(c), sizeof(int) * n);
	return 0;
}

static int ns_wake[2];

static void *ns_thread(void *arg)
{
	char c;

	__atomic_store_n((pid_t *)arg, syscall(SYS_gettid), __ATOMIC_RELEASE);
	while (read(ns_wake[0], &c, 1) > 0)
		;
	return NULL;
}

/* Say what failed in the namespace; the exit status to give. */
static int ns_fail(const char *fmt, ...)
{
	va_list ap;

	printf("# pidns: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	return 1;
}

/*
 * Go @level pid namespaces down: each level forks the next one's pid 1
 * and exits with its status. Returns -1 in the innermost process (the
 * caller itself for level 0), else the status its ancestor exits with.
 */
static int ns_descend(int level)
{
	pid_t pid;
	int i, st;

	for (i = 0; i < level; i++) {
		if (unshare(CLONE_NEWPID))
			return 100;
		pid = fork();
		if (pid < 0)
			return 101;
		if (pid) {
			if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
				return 102;
			return WEXITSTATUS(st);
		}
	}
	return -1;
}

/*
 * The innermost process of ns_descend(@level): pid 1 there (level > 0),
 * in a mount namespace of its own with its pid namespace's proc at
 * NS_PROC, and NS_THREADS more threads (@tids, as that proc numbers
 * them) waiting on ns_wake. 0, or 1 after saying what failed.
 */
static int ns_setup(int level, pid_t *tids)
{
	pthread_t th;
	int i;

	if (level && getpid() != 1)
		return ns_fail("pid %d in the new namespace, 1 expected", getpid());
	if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return ns_fail("mount namespace: %s", strerror(errno));
	mkdir(NS_PROC, 0755);
	if (mount("proc", NS_PROC, "proc", 0, NULL))
		return ns_fail("mount proc: %s", strerror(errno));
	if (pipe(ns_wake))
		return ns_fail("pipe: %s", strerror(errno));
	for (i = 0; i < NS_THREADS; i++) {
		if (pthread_create(&th, NULL, ns_thread, &tids[i]))
			return ns_fail("pthread_create");
		while (!__atomic_load_n(&tids[i], __ATOMIC_ACQUIRE))
			sched_yield();
	}
	return 0;
}

/*
 * Pid 1 of the nested namespace: its links' walks against NS_PROC, the
 * walk of @outer (made in the initial namespace), then its links to the
 * test over @sock; it waits until the test has read them.
 */
static int pidns_inner(const char *target, int level, struct bpf_program *prog,
		       struct bpf_link *outer, __u32 outer_tid, int sock)
{
	struct ns_walk w = { .target = target, .proc = NS_PROC, .level = level };
	union bpf_iter_link_info linfo;
	pid_t tids[NS_THREADS] = {};
	struct bpf_link *link[NS_LINKS];
	int k, memfd, pidfd, fds[NS_LINKS];
	const char *why;
	struct stat st;
	void *page;
	char c;

	if (ns_setup(level, tids))
		return 1;
	memfd = memfd_create("kconform-pidns", 0);
	page = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	pidfd = syscall(SYS_pidfd_open, 1, 0);
	if (memfd < 0 || fstat(memfd, &st) || page == MAP_FAILED || pidfd < 0)
		return ns_fail("memfd, mmap or pidfd_open: %s", strerror(errno));
	maps_lines(NS_PROC "/1/maps");	/* the stdio buffer, before counting */

	for (k = 0; k < NS_LINKS; k++) {
		memset(&linfo, 0, sizeof(linfo));
		if (k == NS_TID)
			linfo.task.tid = tids[1];
		else if (k == NS_PID)
			linfo.task.pid = 1;
		else
			linfo.task.pid_fd = pidfd;
		if (iter_link(prog, &linfo, &link[k]))
			return ns_fail("%s link: %s", ns_link_name[k], strerror(errno));
		fds[k] = bpf_link__fd(link[k]);
		w.k = k;
		w.id = k == NS_TID ? tids[1] : 1;
		w.fd = memfd;
		w.ino = st.st_ino;
		w.start = (unsigned long)page;
		w.n = ns_read(fds[k], !strcmp(target, "task") ? sizeof(struct task_rec) :
			      !strcmp(target, "task_file") ? sizeof(struct file_rec) :
			      sizeof(struct vma_rec), 0);
		if (w.n < 0)
			return ns_fail("%s %s: read: %s", target, ns_link_name[k], strerror(-w.n));
		why = ns_check(&w);
		if (why)
			return ns_fail("%s %s %u, read at level %d: %s", target,
				ns_link_name[k], w.id, level, why);
	}

	/* the initial namespace's tid of the test: no such task here */
	w.k = NS_TID;
	w.id = outer_tid;
	w.fd = -1;
	w.start = 0;
	w.n = ns_read(bpf_link__fd(outer), !strcmp(target, "task") ?
		      sizeof(struct task_rec) : !strcmp(target, "task_file") ?
		      sizeof(struct file_rec) : sizeof(struct vma_rec), 0);
	why = w.n < 0 ? strerror(-w.n) : ns_check(&w);
	if (why)
		return ns_fail("%s tid %u made in the initial namespace, read at level %d: %s",
			target, outer_tid, level, why);

	if (send_fds(sock, fds, NS_LINKS, tids[1]))
		return ns_fail("sendmsg: %s", strerror(errno));
	if (read(sock, &c, 1) < 0)
		return ns_fail("read: %s", strerror(errno));
	return 0;
}

FIXTURE(pidns) {
	struct task_iter *skel;
	struct bpf_program *prog;
	struct bpf_link *outer;	/* made here, read in the namespace */
	int sock[2];
	pid_t child;
};

FIXTURE_VARIANT(pidns) {
	const char *target;
	int level;
};

FIXTURE_VARIANT_ADD(pidns, task_level1) { .target = "task", .level = 1 };
FIXTURE_VARIANT_ADD(pidns, task_level2) { .target = "task", .level = 2 };
FIXTURE_VARIANT_ADD(pidns, task_file_level1) { .target = "task_file", .level = 1 };
FIXTURE_VARIANT_ADD(pidns, task_file_level2) { .target = "task_file", .level = 2 };
FIXTURE_VARIANT_ADD(pidns, task_vma_level1) { .target = "task_vma", .level = 1 };
FIXTURE_VARIANT_ADD(pidns, task_vma_level2) { .target = "task_vma", .level = 2 };

FIXTURE_SETUP(pidns)
{
	self->child = -1;
	self->outer = NULL;
	self->sock[0] = -1;
	self->sock[1] = -1;
	self->skel = task_iter__open_and_load();
	ASSERT_NE(self->skel, NULL) TH_LOG("load: %s", strerror(errno));
	self->prog = dump_prog(self->skel, variant->target);
	ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, self->sock), 0);
}

FIXTURE_TEARDOWN(pidns)
{
	if (self->child > 0) {
		kill(self->child, SIGKILL);
		waitpid(self->child, NULL, 0);
	}
	close(self->sock[0]);
	close(self->sock[1]);
	bpf_link__destroy(self->outer);
	task_iter__destroy(self->skel);
}

/*
 * The child's process, @level pid namespaces down: each level forks the
 * next one's pid 1 and exits with its status.
 */
static int pidns_chain(const struct _fixture_variant_pidns *variant,
		       struct _test_data_pidns *self, __u32 outer_tid)
{
	int ret;

	close(self->sock[0]);
	ret = ns_descend(variant->level);
	if (ret >= 0)
		return ret;
	return pidns_inner(variant->target, variant->level, self->prog,
			   self->outer, outer_tid, self->sock[1]);
}

TEST_F(pidns, links_walk_what_the_readers_proc_shows)
{
	struct ns_walk w = { .target = variant->target, .proc = "/proc", .fd = -1 };
	__u32 len = sizeof(struct bpf_link_info), tid = syscall(SYS_gettid), t;
	struct bpf_link_info info;
	int k, st, fds[NS_LINKS];
	const char *why;

	ASSERT_EQ(task_link(self->prog, TID, tid, &self->outer), 0);
	self->child = fork();
	ASSERT_GE(self->child, 0);
	if (!self->child)
		_exit(pidns_chain(variant, self, tid));
	close(self->sock[1]);
	self->sock[1] = -1;

	if (!recv_fds(self->sock[0], fds, NS_LINKS, &t)) {
		for (k = 0; k < NS_LINKS; k++) {
			/* the numbers as the creator gave them (pid_fd: 1) */
			memset(&info, 0, sizeof(info));
			len = sizeof(info);
			ASSERT_EQ(bpf_obj_get_info_by_fd(fds[k], &info, &len), 0);
			EXPECT_EQ(k == NS_TID ? info.iter.task.tid : info.iter.task.pid,
				  k == NS_TID ? t : 1)
				TH_LOG("%s", ns_link_name[k]);
			/* read here: the initial namespace's task of that number */
			w.k = k;
			w.id = k == NS_TID ? t : 1;
			w.n = ns_read(fds[k], !strcmp(variant->target, "task") ?
				      sizeof(struct task_rec) :
				      !strcmp(variant->target, "task_file") ?
				      sizeof(struct file_rec) : sizeof(struct vma_rec), 0);
			ASSERT_GE(w.n, 0) TH_LOG("%s: %s", ns_link_name[k], strerror(-w.n));
			why = ns_check(&w);
			EXPECT_EQ(NULL, why) TH_LOG("%s %s %u of level %d, read here: %s",
						    variant->target, ns_link_name[k], w.id,
						    variant->level, why);
			close(fds[k]);
		}
	}
	EXPECT_EQ(write(self->sock[0], "", 1), 1);
	ASSERT_EQ(waitpid(self->child, &st, 0), self->child);
	self->child = -1;
	ASSERT_TRUE(WIFEXITED(st));
	EXPECT_EQ(WEXITSTATUS(st), 0) TH_LOG("the namespace's checks failed (see above)");
}

#define TASK_FUZZ_ITERS	300

/*
 * A seeded task link_info: tid, pid and pid_fd each set with chance
 * 40 % (tid and pid from @ids, pid_fd from @fds, of which fds[0] and
 * fds[1] are pidfds and the others are not), in @vals and @linfo.
 * Returns the errno due: -EINVAL for more than one of them, -EBADF for
 * a pid_fd that is not a pidfd, else 0.
 */
static int task_linfo_draw(struct kc_rng *r, const __u32 *ids, unsigned int nids,
			   const __u32 *fds, __u32 vals[3],
			   union bpf_iter_link_info *linfo)
{
	int k;

	memset(vals, 0, 3 * sizeof(vals[0]));
	for (k = 0; k < 3; k++) {
		if (!kc_chance(r, 40))
			continue;
		vals[k] = k == 2 ? fds[kc_below(r, 6)] : ids[kc_below(r, nids)];
	}
	memset(linfo, 0, sizeof(*linfo));
	linfo->task.tid = vals[0];
	linfo->task.pid = vals[1];
	linfo->task.pid_fd = vals[2];
	if (!!vals[0] + !!vals[1] + !!vals[2] > 1)
		return -EINVAL;
	if (vals[2] && vals[2] != fds[0] && vals[2] != fds[1])
		return -EBADF;
	return 0;
}

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
		err = task_linfo_draw(&r, ids, 5, fds, vals, &linfo);
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
			if (proc_tgid("/proc", vals[0]))
				want[w++] = vals[0];
		} else if (vals[1] || vals[2]) {
			target = vals[1] ? (pid_t)vals[1] :
				 vals[2] == (__u32)self_pidfd ? getpid() : zombie;
			if (proc_tgid("/proc", target) == target)
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
		if (!kc_passed(_metadata))
			break;
	}
	tgid = proc_tgid("/proc", zombie);
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
	struct iter_fault f = {
		.prog = self->skel->progs.dump_task,
		.link = &self->link,
		.size = sizeof(struct task_rec[4]),
		.want_len = sizeof(struct task_rec),
		.first_size = sizeof(__u32),	/* task_rec.tid */
		.want_first = getpid(),
	};
	int ret;

	ret = kc_failslab_setup();
	if (ret)
		SKIP(return, "no failslab in debugfs: %s", strerror(-ret));
	f.linfo.task.tid = getpid();
	iter_fault_injection(_metadata, &f);
	ASSERT_EQ(0, task_link(self->skel->progs.dump_task, TID, getpid(), &self->link));
	EXPECT_EQ(1, recs(self, sizeof(struct task_rec), variant->chunk));
}

/*
 * Seeded link info of every kind, made and read in the pid namespace of
 * a child @level namespaces down (0: this one), with that namespace's
 * proc at NS_PROC (ns_setup(), as pidns.* has it). Each iteration draws
 * the iterator (task, task_file, task_vma) and tid, pid and pid_fd as
 * tasks.seeded_bad_link_info does, from the namespace's own numbers: the
 * child itself (1 in a nested namespace), its threads, a zombie child
 * (an exiting task), a reaped child, the child's id in the initial
 * namespace, a random number, pidfds and fds that are not. Each
 * link_create() fails with exactly 6.1.192's errno (EINVAL, more than
 * one; EBADF, a pid_fd that is no pidfd) or makes a link whose walk,
 * read in chunks of a random size, is what NS_PROC shows (ns_check()):
 * ids are the namespace's, the one of the link's creator and reader
 * (in 6.1.192 the reader's, which is the creator here; the commit
 * messages say "the creator's"). No parameter: among all tasks, this
 * process's as for its pid. The child exits with 1 after saying what
 * differed.
 */
#define NS_FUZZ_ITERS	120

static int ns_fuzz(struct task_iter *skel, int level, struct kc_rng *r)
{
	static const char *const kinds[] = { "task", "task_file", "task_vma" };
	struct ns_walk w = { .proc = NS_PROC, .level = level, .fd = -1 };
	static __u32 mine[MAX_RECS];
	__u32 vals[3], fds[6], ids[7], tid;
	pid_t tids[NS_THREADS] = {}, zombie, reaped;
	union bpf_iter_link_info linfo;
	int i, k, n, err, nmine;
	long taint = kc_tainted();
	struct bpf_program *prog;
	struct bpf_link *link;
	size_t rec, chunk;
	char self_link[32];
	const char *why;
	siginfo_t si;

	if (ns_setup(level, tids))
		return 1;
	reaped = fork();
	if (!reaped)
		_exit(0);
	zombie = fork();
	if (!zombie)
		_exit(0);
	if (reaped < 0 || zombie < 0 || waitpid(reaped, NULL, 0) != reaped)
		return ns_fail("fork: %s", strerror(errno));
	/* a zombie until waited for: wait until it has exited */
	memset(&si, 0, sizeof(si));
	if (waitid(P_PID, zombie, &si, WEXITED | WNOWAIT) || si.si_pid != zombie)
		return ns_fail("waitid: %s", strerror(errno));
	n = readlink("/proc/self", self_link, sizeof(self_link) - 1);
	if (n <= 0)
		return ns_fail("readlink /proc/self: %s", strerror(errno));
	self_link[n] = '\0';
	ids[0] = getpid();
	ids[1] = zombie;
	ids[2] = reaped;
	ids[3] = atoi(self_link);	/* the initial namespace's number */
	fds[0] = syscall(SYS_pidfd_open, getpid(), 0);
	fds[1] = syscall(SYS_pidfd_open, zombie, 0);
	fds[2] = open("/dev/null", O_RDONLY);
	fds[3] = 4000;
	fds[4] = 0xffffffffu;
	fds[5] = fds[0];
	if ((int)fds[0] < 0 || (int)fds[1] < 0 || (int)fds[2] < 0)
		return ns_fail("pidfd_open or open: %s", strerror(errno));
	/* this process's threads, by their global ids (/proc is the initial one's) */
	nmine = dir_numbers("/proc/self/task", mine, MAX_RECS);

	for (i = 0; i < NS_FUZZ_ITERS; i++) {
		w.target = kc_pick(r, kinds);
		prog = !strcmp(w.target, "task") ? skel->progs.dump_task :
		       !strcmp(w.target, "task_file") ? skel->progs.dump_task_file :
		       skel->progs.dump_task_vma;
		rec = !strcmp(w.target, "task") ? sizeof(struct task_rec) :
		      !strcmp(w.target, "task_file") ? sizeof(struct file_rec) :
		      sizeof(struct vma_rec);
		ids[4] = tids[kc_below(r, NS_THREADS)];
		ids[5] = 1 + kc_below(r, 1u << 22);
		ids[6] = 1 + kc_below(r, 8);	/* low numbers: used in a namespace */
		err = task_linfo_draw(r, ids, 7, fds, vals, &linfo);
		k = iter_link(prog, &linfo, &link);
		if (k != err)
			return ns_fail("iteration %d: %s tid %u pid %u pid_fd %u: %d, not %d",
				       i, w.target, vals[0], vals[1], vals[2], k, err);
		if (err)
			goto next;
		w.k = vals[0] ? NS_TID : vals[1] ? NS_PID : NS_PID_FD;
		w.id = vals[0] ? vals[0] : vals[1] ? vals[1] :
		       vals[2] == fds[1] ? (__u32)zombie : (__u32)getpid();
		chunk = 1 + kc_below(r, kc_chance(r, 50) ? 64 : sizeof(ns_out));
		/* the link stays open until its walk is checked: one of the files */
		w.n = ns_read(bpf_link__fd(link), rec, chunk);
		if (w.n < 0)
			return ns_fail("iteration %d: %s: read: %s", i, w.target, strerror(-w.n));
		if (!vals[0] && !vals[1] && !vals[2]) {
			/* all tasks: keep this process's */
			for (k = 0, n = 0; k < w.n; k++) {
				memcpy(&tid, (char *)&ns_out + k * rec, sizeof(tid));
				if (bsearch(&tid, mine, nmine, sizeof(*mine), cmp_u32))
					memmove((char *)&ns_out + n++ * rec,
						(char *)&ns_out + k * rec, rec);
			}
			w.n = n;
		}
		why = ns_check(&w);
		bpf_link__destroy(link);
		if (why)
			return ns_fail("iteration %d: %s tid %u pid %u pid_fd %u, chunk %zu: %s",
				       i, w.target, vals[0], vals[1], vals[2], chunk, why);
next:
		if (kc_tainted() != taint)
			return ns_fail("tainted at iteration %d", i);
	}
	return waitpid(zombie, NULL, 0) == zombie ? 0 : ns_fail("zombie %d gone", zombie);
}

FIXTURE(seeded) {
	struct task_iter *skel;
	pid_t child;
};

FIXTURE_VARIANT(seeded) {
	int level;
};

FIXTURE_VARIANT_ADD(seeded, level0) { .level = 0 };
FIXTURE_VARIANT_ADD(seeded, level1) { .level = 1 };
FIXTURE_VARIANT_ADD(seeded, level2) { .level = 2 };

FIXTURE_SETUP(seeded)
{
	self->child = -1;
	self->skel = task_iter__open_and_load();
	ASSERT_NE(self->skel, NULL) TH_LOG("load: %s", strerror(errno));
}

FIXTURE_TEARDOWN(seeded)
{
	if (self->child > 0) {
		kill(self->child, SIGKILL);
		waitpid(self->child, NULL, 0);
	}
	task_iter__destroy(self->skel);
}

TEST_F_TIMEOUT(seeded, link_info_of_every_kind_in_its_namespace, 120)
{
	char name[96];
	struct kc_rng r;
	int st, ret;

	snprintf(name, sizeof(name), "bpf_iter_params.task.seeded.level%d", variant->level);
	kc_rng_init(&r, name);
	libbpf_set_print(NULL);
	self->child = fork();
	ASSERT_GE(self->child, 0);
	if (!self->child) {
		ret = ns_descend(variant->level);
		if (ret >= 0)
			_exit(ret);
		_exit(ns_fuzz(self->skel, variant->level, &r));
	}
	ASSERT_EQ(waitpid(self->child, &st, 0), self->child);
	self->child = -1;
	ASSERT_TRUE(WIFEXITED(st));
	EXPECT_EQ(WEXITSTATUS(st), 0) TH_LOG("the namespace's checks failed (see above)");
}

TEST_HARNESS_MAIN
