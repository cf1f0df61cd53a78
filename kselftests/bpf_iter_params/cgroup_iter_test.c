// SPDX-License-Identifier: GPL-2.0
/*
 * The cgroup iterator's uapi (d4ccaf58a847, "bpf: Introduce cgroup
 * iter"; union bpf_iter_link_info.cgroup in include/uapi/linux/bpf.h):
 *
 *   - order DESCENDANTS_PRE / DESCENDANTS_POST walk the subtree of the
 *     start cgroup, ANCESTORS_UP walks from it to the root, SELF_ONLY
 *     visits it alone; any other order, UNSPEC included, is EINVAL;
 *   - the start is cgroup_fd, or cgroup_id, or neither (the default
 *     cgroup v2 root); both is EINVAL; a v1 cgroup fd walks v1;
 *   - a program returning 1 ends the walk; the program is then called
 *     once more with a NULL cgroup;
 *   - output that does not fit the kernel's buffer: the first read()
 *     gives what fits, the next fails with EOPNOTSUPP;
 *   - fdinfo shows cgroup_path and order (cgroup_path "<unknown>" when
 *     the kernel cannot allocate the path's buffer); bpf_link_info shows
 *     cgroup_id and order, and so does `bpftool link show`.
 *
 * The hierarchy, made in this order under the cgroup v2 root that the
 * guest's init mounts at /sys/fs/cgroup:
 *
 *	ROOT ── kconform ─┬─ a ── a1
 *	                  └─ b
 *
 * A cgroup's id is its kernfs node id, which is also the st_ino of its
 * directory on 64-bit.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <sched.h>
#include <stdarg.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include "../kselftest_harness.h"
#include "../kconform_fuzz.h"
#include "iter_util.h"
#include "cgroup_iter.skel.h"

#define CG2	"/sys/fs/cgroup"
#define TOP	CG2 "/kconform"
#define CG1	"/tmp/kconform-cgroup1"

enum node { ROOT, KCG, A, A1, B, NODES, END = -1 };

static const char *const node_path[NODES] = {
	[ROOT] = CG2, [KCG] = TOP, [A] = TOP "/a", [A1] = TOP "/a/a1",
	[B] = TOP "/b",
};

static __u64 path_id(const char *path)
{
	struct stat st;

	return stat(path, &st) ? 0 : st.st_ino;
}

static void remove_hierarchy(void)
{
	rmdir(node_path[A1]);
	rmdir(node_path[A]);
	rmdir(node_path[B]);
	rmdir(node_path[KCG]);
}

struct hier {
	__u64 id[NODES];
	int fd[NODES];
	struct cgroup_iter *skel;
	struct bpf_link *link;
	__u64 out[64];
};

static void hier_setup(struct __test_metadata *_metadata, struct hier *self)
{
	int i;

	/* A run that died in setup left its cgroups: start clean. */
	remove_hierarchy();
	for (i = KCG; i < NODES; i++)
		ASSERT_EQ(mkdir(node_path[i], 0755), 0)
			TH_LOG("mkdir %s: %s", node_path[i], strerror(errno));
	for (i = ROOT; i < NODES; i++) {
		self->fd[i] = open(node_path[i], O_RDONLY | O_DIRECTORY);
		ASSERT_GE(self->fd[i], 0);
		self->id[i] = path_id(node_path[i]);
		ASSERT_NE(self->id[i], 0);
	}
	self->skel = cgroup_iter__open_and_load();
	ASSERT_NE(self->skel, NULL) TH_LOG("load: %s", strerror(errno));
	self->link = NULL;
}

static void hier_teardown(struct hier *self)
{
	int i;

	bpf_link__destroy(self->link);
	cgroup_iter__destroy(self->skel);
	for (i = ROOT; i < NODES; i++)
		close(self->fd[i]);
	remove_hierarchy();
}

#define WALK_MAX	4096

/* Ids of @dir and every cgroup directory below it, as this mount shows. */
static int tree_ids(const char *dir, __u64 *ids, int n)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *d;

	if (n >= WALK_MAX)
		return n;
	ids[n++] = path_id(dir);
	d = opendir(dir);
	if (!d)
		return n;
	while ((de = readdir(d))) {
		if (de->d_type != DT_DIR || de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		n = tree_ids(path, ids, n);
	}
	closedir(d);
	return n;
}

static int cmp_u64(const void *a, const void *b)
{
	__u64 x = *(const __u64 *)a, y = *(const __u64 *)b;

	return x < y ? -1 : x > y;
}

/* cgroup.stat's nr_dying_descendants of @dir */
static long dying_below(const char *dir)
{
	char path[PATH_MAX], key[64];
	long val, ret = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/cgroup.stat", dir);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fscanf(f, "%63s %ld", key, &val) == 2)
		if (!strcmp(key, "nr_dying_descendants"))
			ret = val;
	fclose(f);
	return ret;
}

/* Walks, one per variant: each test runs for every variant. */
FIXTURE(walk) {
	struct hier h;
};

FIXTURE_SETUP(walk)
{
	hier_setup(_metadata, &self->h);
}

FIXTURE_TEARDOWN(walk)
{
	hier_teardown(&self->h);
}

/* Parameters and limits, once. */
FIXTURE(param) {
	struct hier h;
};

FIXTURE_SETUP(param)
{
	hier_setup(_metadata, &self->h);
}

FIXTURE_TEARDOWN(param)
{
	hier_teardown(&self->h);
}

/* How the walk's start is given. */
enum by { BY_FD, BY_ID, BY_NONE };

static int hier_link(struct __test_metadata *_metadata,
		     struct hier *self, enum bpf_cgroup_iter_order order,
		     enum node start, enum by by)
{
	union bpf_iter_link_info linfo = {};

	linfo.cgroup.order = order;
	if (by == BY_FD)
		linfo.cgroup.cgroup_fd = self->fd[start];
	else if (by == BY_ID)
		linfo.cgroup.cgroup_id = self->id[start];
	return iter_link(self->skel->progs.dump_cgroup, &linfo, &self->link);
}

/*
 * Read the walk; returns the number of ids in self->out, or -errno of
 * the read() that failed.
 */
static int hier_walk(struct hier *self, size_t chunk)
{
	struct iter_end end;
	ssize_t n;

	n = iter_read(self->link, self->out, sizeof(self->out), chunk, &end);
	if (n < 0 || end.err)
		return n < 0 ? n : end.err;
	return n / (ssize_t)sizeof(__u64);
}

static void expect_nodes(struct __test_metadata *_metadata,
			 struct hier *self, int got,
			 const enum node *want)
{
	int i, n = 0;

	while (want[n] != END)
		n++;
	ASSERT_EQ(got, n);
	for (i = 0; i < n; i++)
		EXPECT_EQ(self->out[i], self->id[want[i]])
			TH_LOG("visit %d: want %s", i, node_path[want[i]]);
}

FIXTURE_VARIANT(walk) {
	enum bpf_cgroup_iter_order order;
	enum node start;
	enum by by;
	const char *order_name;		/* as fdinfo and bpftool print it */
	enum node walk[NODES + 1];
};

FIXTURE_VARIANT_ADD(walk, pre_by_fd) {
	.order = BPF_CGROUP_ITER_DESCENDANTS_PRE, .start = KCG, .by = BY_FD,
	.order_name = "descendants_pre", .walk = { KCG, A, A1, B, END },
};

FIXTURE_VARIANT_ADD(walk, pre_by_id) {
	.order = BPF_CGROUP_ITER_DESCENDANTS_PRE, .start = KCG, .by = BY_ID,
	.order_name = "descendants_pre", .walk = { KCG, A, A1, B, END },
};

FIXTURE_VARIANT_ADD(walk, post_by_fd) {
	.order = BPF_CGROUP_ITER_DESCENDANTS_POST, .start = KCG, .by = BY_FD,
	.order_name = "descendants_post", .walk = { A1, A, B, KCG, END },
};

FIXTURE_VARIANT_ADD(walk, post_of_a_by_id) {
	.order = BPF_CGROUP_ITER_DESCENDANTS_POST, .start = A, .by = BY_ID,
	.order_name = "descendants_post", .walk = { A1, A, END },
};

FIXTURE_VARIANT_ADD(walk, ancestors_up_to_root) {
	.order = BPF_CGROUP_ITER_ANCESTORS_UP, .start = A1, .by = BY_FD,
	.order_name = "ancestors_up", .walk = { A1, A, KCG, ROOT, END },
};

FIXTURE_VARIANT_ADD(walk, self_only_by_id) {
	.order = BPF_CGROUP_ITER_SELF_ONLY, .start = B, .by = BY_ID,
	.order_name = "self_only", .walk = { B, END },
};

FIXTURE_VARIANT_ADD(walk, self_only_default_root) {
	.order = BPF_CGROUP_ITER_SELF_ONLY, .start = ROOT, .by = BY_NONE,
	.order_name = "self_only", .walk = { ROOT, END },
};

FIXTURE_VARIANT_ADD(walk, ancestors_up_default_root) {
	.order = BPF_CGROUP_ITER_ANCESTORS_UP, .start = ROOT, .by = BY_NONE,
	.order_name = "ancestors_up", .walk = { ROOT, END },
};

/* The exact visit sequence, then the epilogue once, then EOF. */
TEST_F(walk, visits_in_order)
{
	int n;

	ASSERT_EQ(hier_link(_metadata, &self->h, variant->order, variant->start,
			    variant->by), 0);
	n = hier_walk(&self->h, sizeof(self->h.out));
	expect_nodes(_metadata, &self->h, n, variant->walk);
	EXPECT_EQ(self->h.skel->bss->epilogues, 1);
	EXPECT_EQ(self->h.skel->bss->seq_num_gaps, 0);
}

/*
 * One record per read(): each read() is a new session, which a walk of
 * more than one cgroup cannot resume. The first read() gives the first
 * cgroup, the second fails with EOPNOTSUPP; a walk of one ends in EOF.
 */
TEST_F(walk, small_reads_stop_at_the_session_end)
{
	struct iter_end end;
	ssize_t n;

	ASSERT_EQ(hier_link(_metadata, &self->h, variant->order, variant->start,
			    variant->by), 0);
	n = iter_read(self->h.link, self->h.out, sizeof(self->h.out),
		      sizeof(__u64), &end);
	ASSERT_EQ(n, sizeof(__u64));
	EXPECT_EQ(self->h.out[0], self->h.id[variant->walk[0]]);
	EXPECT_EQ(end.reads, 2);
	EXPECT_EQ(end.err, variant->walk[1] == END ? 0 : -EOPNOTSUPP);
}

/* Returning 1 from the second visit ends the walk after it. */
TEST_F(walk, program_stops_walk)
{
	enum node want[3] = { variant->walk[0], variant->walk[1], END };
	int n;

	self->h.skel->bss->stop_after = 2;
	ASSERT_EQ(hier_link(_metadata, &self->h, variant->order, variant->start,
			    variant->by), 0);
	n = hier_walk(&self->h, sizeof(self->h.out));
	if (variant->walk[1] == END)
		want[1] = END;
	expect_nodes(_metadata, &self->h, n, want);
	EXPECT_EQ(self->h.skel->bss->epilogues, 1);
}

TEST_F(walk, link_info_fdinfo_and_bpftool)
{
	char target[32], text[4096], want[128];
	struct bpf_link_info info;

	ASSERT_EQ(hier_link(_metadata, &self->h, variant->order, variant->start,
			    variant->by), 0);
	ASSERT_EQ(iter_info(self->h.link, &info, target, sizeof(target)), 0);
	EXPECT_EQ(info.type, BPF_LINK_TYPE_ITER);
	EXPECT_STREQ(target, "cgroup");
	EXPECT_EQ(info.iter.cgroup.cgroup_id, self->h.id[variant->start]);
	EXPECT_EQ(info.iter.cgroup.order, variant->order);

	fdinfo_text(self->h.link, text, sizeof(text));
	snprintf(want, sizeof(want), "cgroup_path:\t%s",
		 variant->start == ROOT ? "/" :
		 node_path[variant->start] + strlen(CG2));
	EXPECT_EQ(fdinfo_has(self->h.link, want), 1) TH_LOG("%s", text);
	snprintf(want, sizeof(want), "order: %s", variant->order_name);
	EXPECT_EQ(fdinfo_has(self->h.link, want), 1) TH_LOG("%s", text);

	ASSERT_EQ(bpftool_link_show(info.id, text, sizeof(text)), 0)
		TH_LOG("%s", text);
	snprintf(want, sizeof(want), "cgroup_id %llu  order %s  ",
		 (unsigned long long)self->h.id[variant->start],
		 variant->order_name);
	EXPECT_NE(strstr(text, want), NULL)
		TH_LOG("bpftool: %s; want: %s", text, want);
	EXPECT_NE(strstr(text, "target_name cgroup  "), NULL)
		TH_LOG("bpftool: %s", text);
}

/* Both a start fd and a start id. */
TEST_F(param, fd_and_id_is_einval)
{
	union bpf_iter_link_info linfo = {};

	linfo.cgroup.order = BPF_CGROUP_ITER_SELF_ONLY;
	linfo.cgroup.cgroup_fd = self->h.fd[A];
	linfo.cgroup.cgroup_id = self->h.id[A];
	EXPECT_EQ(iter_link(self->h.skel->progs.dump_cgroup, &linfo,
			    &self->h.link), -EINVAL);
}

TEST_F(param, unknown_orders_are_einval)
{
	static const __u32 bad[] = { BPF_CGROUP_ITER_ORDER_UNSPEC, 5, 255,
				     0x80000000u };
	union bpf_iter_link_info linfo = {};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		linfo.cgroup.order = bad[i];
		linfo.cgroup.cgroup_fd = self->h.fd[A];
		EXPECT_EQ(iter_link(self->h.skel->progs.dump_cgroup, &linfo,
				    &self->h.link), -EINVAL)
			TH_LOG("order %u", bad[i]);
		bpf_link__destroy(self->h.link);
		self->h.link = NULL;
	}
}

/* No parameters at all: order UNSPEC, so EINVAL too. */
TEST_F(param, no_link_info_is_einval)
{
	EXPECT_EQ(iter_link(self->h.skel->progs.dump_cgroup, NULL, &self->h.link),
		  -EINVAL);
}

/* A file that is not a cgroup directory, and a closed fd. */
TEST_F(param, non_cgroup_fds_are_ebadf)
{
	union bpf_iter_link_info linfo = {};
	char procs[PATH_MAX];
	int fd;

	linfo.cgroup.order = BPF_CGROUP_ITER_SELF_ONLY;
	fd = open("/dev/null", O_RDONLY);
	ASSERT_GE(fd, 0);
	linfo.cgroup.cgroup_fd = fd;
	EXPECT_EQ(iter_link(self->h.skel->progs.dump_cgroup, &linfo,
			    &self->h.link), -EBADF);
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", node_path[A]);
	close(fd);
	fd = open(procs, O_RDONLY);
	ASSERT_GE(fd, 0);
	linfo.cgroup.cgroup_fd = fd;
	EXPECT_EQ(iter_link(self->h.skel->progs.dump_cgroup, &linfo,
			    &self->h.link), -EBADF);
	close(fd);
	linfo.cgroup.cgroup_fd = fd;	/* closed now */
	EXPECT_EQ(iter_link(self->h.skel->progs.dump_cgroup, &linfo,
			    &self->h.link), -EBADF);
}

/*
 * An id that names no cgroup: a removed one, and the kernfs id of a
 * cgroup's file (cgroup_get_from_id() must check for a directory).
 */
TEST_F(param, ids_of_no_cgroup_are_enoent)
{
	union bpf_iter_link_info linfo = {};
	char procs[PATH_MAX];

	linfo.cgroup.order = BPF_CGROUP_ITER_SELF_ONLY;
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", node_path[B]);
	linfo.cgroup.cgroup_id = path_id(procs);
	ASSERT_NE(linfo.cgroup.cgroup_id, 0);
	EXPECT_EQ(iter_link(self->h.skel->progs.dump_cgroup, &linfo,
			    &self->h.link), -ENOENT);

	close(self->h.fd[A1]);
	self->h.fd[A1] = -1;
	ASSERT_EQ(rmdir(node_path[A1]), 0);
	linfo.cgroup.cgroup_id = self->h.id[A1];
	EXPECT_EQ(iter_link(self->h.skel->progs.dump_cgroup, &linfo,
			    &self->h.link), -ENOENT);
}

/* A cgroup removed after the link was made is skipped by the walk. */
TEST_F(param, removed_cgroups_are_skipped)
{
	static const enum node want[] = { KCG, A, B, END };
	int n;

	ASSERT_EQ(hier_link(_metadata, &self->h, BPF_CGROUP_ITER_DESCENDANTS_PRE,
			    KCG, BY_FD), 0);
	close(self->h.fd[A1]);
	self->h.fd[A1] = -1;
	ASSERT_EQ(rmdir(node_path[A1]), 0);
	n = hier_walk(&self->h, sizeof(self->h.out));
	expect_nodes(_metadata, &self->h, n, want);
}

/*
 * 10248 bytes per cgroup: three fit the kernel's 8-page buffer, the
 * fourth does not. The first read() returns the three, the next one
 * fails: the walk cannot go on in a new session.
 */
TEST_F(param, output_past_the_buffer_is_eopnotsupp)
{
	static char buf[1 << 17];
	struct iter_end end;
	ssize_t n;

	self->h.skel->bss->pad_chunks = 40;
	ASSERT_EQ(hier_link(_metadata, &self->h, BPF_CGROUP_ITER_DESCENDANTS_PRE,
			    KCG, BY_FD), 0);
	n = iter_read(self->h.link, buf, sizeof(buf), 1 << 16, &end);
	EXPECT_EQ(n, 3 * (8 + 40 * 256));
	EXPECT_EQ(*(__u64 *)buf, self->h.id[KCG]);
	EXPECT_EQ(end.reads, 2);
	EXPECT_EQ(end.err, -EOPNOTSUPP);
}

/* The same walk when everything fits: EOF, and EOF again. */
TEST_F(param, walk_that_fits_ends_with_eof)
{
	char buf[64];
	int fd;

	ASSERT_EQ(hier_link(_metadata, &self->h, BPF_CGROUP_ITER_DESCENDANTS_PRE,
			    KCG, BY_FD), 0);
	fd = bpf_iter_create(bpf_link__fd(self->h.link));
	ASSERT_GE(fd, 0);
	EXPECT_EQ(read(fd, buf, sizeof(buf)), 4 * 8);
	EXPECT_EQ(read(fd, buf, sizeof(buf)), 0);
	EXPECT_EQ(read(fd, buf, sizeof(buf)), 0);
	close(fd);
}

/*
 * Dying cgroups (removed, still referenced: here by a link, as cgroup.stat's
 * nr_dying_descendants counts them) stay on their parent's children list
 * until released, and the walk steps onto them, but they are never shown.
 * Each variant makes one next to the walk, reads the walk in read()s of
 * exactly its size (one read of 8 bytes if it is empty), and wants the
 * documented end: every online cgroup once, in order, the epilogue once,
 * then read() returns 0; and meta->seq_num counts the cgroups shown,
 * from 0 ("the prog can check (seq->num == 0) to determine whether this
 * is the first element", cgroup_iter.c).
 *
 * 6.1.192 without 0306: a pre-order walk whose last online cgroup is
 * followed by a dying one stops its session on it, once the reader's
 * buffer is full: the next read() fails with EOPNOTSUPP, the epilogue
 * never runs (pre_dying_last); seq_num counts the dying ones, so a
 * cgroup after one is not its visit's number (pre_dying_inside,
 * post_dying_inside) and the first one of a walk from a dying start is
 * seq_num 1 (ancestors_up_from_dying). A walk of nothing but a dying
 * cgroup ended in EOF before the fix too (self_only_dying,
 * pre_from_dying).
 */
#define Z	TOP "/z"	/* made last: after b in kconform's children */
#define A2	TOP "/a/a2"	/* made after a1 */

FIXTURE(dying) {
	struct hier h;
	struct bpf_link *pin;	/* keeps the dying cgroup referenced */
};

FIXTURE_VARIANT(dying) {
	enum bpf_cgroup_iter_order order;
	enum node start;	/* NODES: the dying cgroup itself */
	const char *dying;
	enum node walk[NODES + 1];
};

FIXTURE_VARIANT_ADD(dying, pre_dying_last) {
	.order = BPF_CGROUP_ITER_DESCENDANTS_PRE, .start = KCG, .dying = Z,
	.walk = { KCG, A, A1, B, END },
};

FIXTURE_VARIANT_ADD(dying, pre_dying_inside) {
	.order = BPF_CGROUP_ITER_DESCENDANTS_PRE, .start = KCG, .dying = A2,
	.walk = { KCG, A, A1, B, END },
};

FIXTURE_VARIANT_ADD(dying, post_dying_inside) {
	.order = BPF_CGROUP_ITER_DESCENDANTS_POST, .start = KCG, .dying = Z,
	.walk = { A1, A, B, KCG, END },
};

FIXTURE_VARIANT_ADD(dying, ancestors_up_from_dying) {
	.order = BPF_CGROUP_ITER_ANCESTORS_UP, .start = NODES, .dying = A2,
	.walk = { A, KCG, ROOT, END },
};

FIXTURE_VARIANT_ADD(dying, self_only_dying) {
	.order = BPF_CGROUP_ITER_SELF_ONLY, .start = NODES, .dying = Z,
	.walk = { END },
};

FIXTURE_VARIANT_ADD(dying, pre_from_dying) {
	.order = BPF_CGROUP_ITER_DESCENDANTS_PRE, .start = NODES, .dying = Z,
	.walk = { END },
};

FIXTURE_SETUP(dying)
{
	union bpf_iter_link_info linfo = {};
	int fd;

	rmdir(Z);
	rmdir(A2);
	hier_setup(_metadata, &self->h);
	self->pin = NULL;
	ASSERT_EQ(mkdir(variant->dying, 0755), 0);
	fd = open(variant->dying, O_RDONLY | O_DIRECTORY);
	ASSERT_GE(fd, 0);
	linfo.cgroup.order = BPF_CGROUP_ITER_SELF_ONLY;
	linfo.cgroup.cgroup_fd = fd;
	ASSERT_EQ(iter_link(self->h.skel->progs.dump_cgroup, &linfo,
			    &self->pin), 0);
	if (variant->start == NODES) {
		linfo.cgroup.order = variant->order;
		ASSERT_EQ(iter_link(self->h.skel->progs.dump_cgroup, &linfo,
				    &self->h.link), 0);
	}
	close(fd);
	ASSERT_EQ(rmdir(variant->dying), 0);
	ASSERT_GT(dying_below(TOP), 0);
}

FIXTURE_TEARDOWN(dying)
{
	bpf_link__destroy(self->pin);
	hier_teardown(&self->h);
}

TEST_F(dying, exact_reads_end_with_eof)
{
	struct iter_end end;
	int i, n = 0;
	ssize_t len;

	while (variant->walk[n] != END)
		n++;
	if (variant->start != NODES)
		ASSERT_EQ(hier_link(_metadata, &self->h, variant->order,
				    variant->start, BY_FD), 0);
	len = iter_read(self->h.link, self->h.out, sizeof(self->h.out),
			n ? 8 * n : 8, &end);
	ASSERT_EQ(len, 8 * n);
	for (i = 0; i < n; i++)
		EXPECT_EQ(self->h.out[i], self->h.id[variant->walk[i]])
			TH_LOG("visit %d: want %s", i, node_path[variant->walk[i]]);
	EXPECT_EQ(end.err, 0) TH_LOG("read() %d: %s", end.reads, strerror(-end.err));
	EXPECT_EQ(end.reads, n ? 2 : 1);
	EXPECT_EQ(self->h.skel->bss->epilogues, 1);
	EXPECT_EQ(self->h.skel->bss->seq_num_gaps, 0);
}

/*
 * In a cgroup namespace rooted at a: the ids of cgroups outside it name
 * nothing (ENOENT), and fdinfo's cgroup_path is relative to its root.
 * The child exits with the number of the first check that failed: 12,
 * an id outside the namespace was found; 14, the path is not relative.
 */
static int cgroupns_child(struct hier *h)
{
	union bpf_iter_link_info linfo = {};
	char procs[PATH_MAX];
	int fd, ret;

	snprintf(procs, sizeof(procs), "%s/cgroup.procs", node_path[A]);
	fd = open(procs, O_WRONLY);
	if (fd < 0 || write(fd, "0", 1) != 1)
		return 10;
	close(fd);
	if (unshare(CLONE_NEWCGROUP))
		return 11;
	linfo.cgroup.order = BPF_CGROUP_ITER_SELF_ONLY;
	linfo.cgroup.cgroup_id = h->id[B];
	if (iter_link(h->skel->progs.dump_cgroup, &linfo, &h->link) != -ENOENT)
		return 12;
	linfo.cgroup.cgroup_id = h->id[A1];
	if (iter_link(h->skel->progs.dump_cgroup, &linfo, &h->link))
		return 13;
	ret = fdinfo_has(h->link, "cgroup_path:\t/a1") == 1 ? 0 : 14;
	bpf_link__destroy(h->link);
	h->link = NULL;
	return ret;
}

TEST_F(param, cgroup_namespace_limits_ids_and_paths)
{
	pid_t child;
	int st;

	child = fork();
	ASSERT_GE(child, 0);
	if (!child)
		_exit(cgroupns_child(&self->h));
	ASSERT_EQ(waitpid(child, &st, 0), child);
	ASSERT_TRUE(WIFEXITED(st));
	EXPECT_EQ(WEXITSTATUS(st), 0)
		TH_LOG("check %d of cgroupns_child() failed",
		       WEXITSTATUS(st));
}

/*
 * Links made in nested cgroup namespaces: the child moves into a, enters
 * a cgroup namespace (rooted at a), mounts cgroup2 as it sees it at
 * CGNS_MNT "1", moves into a1 and does the same again (rooted at a1,
 * CGNS_MNT "2"). At each level, links made there:
 *
 *   - without a start (neither fd nor id) walk from the namespace's
 *     root (cgroup_get_from_path("/") resolves in the caller's cgroup
 *     namespace): DESCENDANTS_PRE visits exactly the cgroups the mount
 *     shows, SELF_ONLY the mount's root, and fdinfo says cgroup_path "/";
 *   - ANCESTORS_UP from there goes on past the namespace's root to the
 *     hierarchy's root (curr->parent), visiting cgroups the namespace
 *     does not show and whose ids it cannot use (the uapi says "walk
 *     ancestors upward"; 6.1.192 does not stop at the namespace);
 *   - an id of a cgroup outside the namespace (b, kconform) is ENOENT,
 *     but an fd opened before unsharing (b) makes a link that walks b:
 *     cgroup_v1v2_get_from_fd() checks no namespace, and fdinfo shows
 *     b's path relative to the namespace's root.
 *
 * The child exits with the number of the first check that failed and
 * prints what differed.
 */
#define CGNS_MNT	"/tmp/kconform-cgns"

static int cgns_walk(struct hier *h, __u32 order, __u64 *got)
{
	union bpf_iter_link_info linfo = {};
	int n;

	linfo.cgroup.order = order;
	if (iter_link(h->skel->progs.dump_cgroup, &linfo, &h->link))
		return -1;
	n = hier_walk(h, sizeof(h->out));
	if (n > 0)
		memcpy(got, h->out, n * sizeof(*got));
	return n;
}

/* Say what failed at @level; the exit status for check @num. */
static int cgns_fail(int num, int level, const char *fmt, ...)
{
	va_list ap;

	printf("# cgroupns level %d: ", level);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	return num + 10 * level;
}

/*
 * Level @level of the nesting: join a (level 1) or a1 (level 2), enter a
 * new cgroup and mount namespace and mount cgroup2 at CGNS_MNT<level>.
 * 0, or 1 after saying what failed.
 */
static int cgns_enter(int level)
{
	char mnt[64], path[PATH_MAX];

	snprintf(mnt, sizeof(mnt), CGNS_MNT "%d", level);
	snprintf(path, sizeof(path), "%s/cgroup.procs",
		 level == 1 ? node_path[A] : node_path[A1]);
	if (kc_write_file(path, "0"))
		return cgns_fail(0, level, "join %s: %s", path, strerror(errno)) != 0;
	if (unshare(CLONE_NEWCGROUP | CLONE_NEWNS) ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return cgns_fail(0, level, "unshare: %s", strerror(errno)) != 0;
	mkdir(mnt, 0755);
	if (mount("cgroup2", mnt, "cgroup2", 0, NULL))
		return cgns_fail(0, level, "mount cgroup2 at %s: %s", mnt, strerror(errno)) != 0;
	return 0;
}

static int cgns_level(struct hier *h, int level, int b_fd)
{
	static __u64 want[64], got[64];
	enum node up[][5] = { { A, KCG, ROOT, END }, { A1, A, KCG, ROOT, END } };
	union bpf_iter_link_info linfo = {};
	char mnt[64], want_path[64], text[512];
	int n, w, i;

	snprintf(mnt, sizeof(mnt), CGNS_MNT "%d", level);
	if (cgns_enter(level))
		return 1 + 10 * level;

	/* the default start: the namespace's root and what the mount shows */
	w = tree_ids(mnt, want, 0);
	qsort(want, w, sizeof(*want), cmp_u64);
	n = cgns_walk(h, BPF_CGROUP_ITER_DESCENDANTS_PRE, got);
	if (n >= 0)
		qsort(got, n, sizeof(*got), cmp_u64);
	if (n != w || memcmp(got, want, w * sizeof(*want)))
		return cgns_fail(2, level, "default pre-order walk: %d cgroups, %s shows %d",
				 n, mnt, w);
	if (fdinfo_has(h->link, "cgroup_path:\t/") != 1)
		return cgns_fail(3, level, "default start's cgroup_path is not /");
	bpf_link__destroy(h->link);
	n = cgns_walk(h, BPF_CGROUP_ITER_SELF_ONLY, got);
	bpf_link__destroy(h->link);
	if (n != 1 || got[0] != path_id(mnt))
		return cgns_fail(4, level, "default self_only: %d cgroups, not %s's root", n, mnt);

	/* up from the namespace's root: on to the hierarchy's root */
	n = cgns_walk(h, BPF_CGROUP_ITER_ANCESTORS_UP, got);
	bpf_link__destroy(h->link);
	for (w = 0; up[level - 1][w] != END; w++)
		;
	if (n != w)
		return cgns_fail(5, level, "ancestors_up from the namespace's root: %d, not %d",
				 n, w);
	for (i = 0; i < n; i++)
		if (got[i] != h->id[up[level - 1][i]])
			return cgns_fail(5, level, "ancestors_up visit %d is not %s", i,
					 node_path[up[level - 1][i]]);

	/* ids outside are ENOENT, an fd from outside is taken */
	linfo.cgroup.order = BPF_CGROUP_ITER_SELF_ONLY;
	linfo.cgroup.cgroup_id = h->id[B];
	if (iter_link(h->skel->progs.dump_cgroup, &linfo, &h->link) != -ENOENT)
		return cgns_fail(6, level, "b's id did not give ENOENT");
	linfo.cgroup.cgroup_id = h->id[KCG];
	if (iter_link(h->skel->progs.dump_cgroup, &linfo, &h->link) != -ENOENT)
		return cgns_fail(6, level, "kconform's id did not give ENOENT");
	linfo.cgroup.cgroup_id = 0;
	linfo.cgroup.cgroup_fd = b_fd;
	if (iter_link(h->skel->progs.dump_cgroup, &linfo, &h->link))
		return cgns_fail(7, level, "b's fd: %s", strerror(errno));
	snprintf(want_path, sizeof(want_path), "cgroup_path:\t%s/b",
		 level == 1 ? "/.." : "/../..");
	i = fdinfo_has(h->link, want_path);
	fdinfo_text(h->link, text, sizeof(text));
	n = hier_walk(h, sizeof(h->out));
	bpf_link__destroy(h->link);
	if (n != 1 || h->out[0] != h->id[B])
		return cgns_fail(7, level, "b's fd walks %d cgroups, not b", n);
	if (i != 1)
		return cgns_fail(8, level, "b's fd: no \"%s\" in fdinfo: %s", want_path, text);
	return 0;
}

static int cgns_child(struct hier *h)
{
	int level, ret;

	for (level = 1; level <= 2; level++) {
		ret = cgns_level(h, level, h->fd[B]);
		if (ret)
			return ret;
	}
	return 0;
}

TEST_F(param, nested_cgroup_namespaces_walk_from_their_root)
{
	pid_t child;
	int st;

	rmdir(TOP "/a/a1/x");
	ASSERT_EQ(mkdir(TOP "/a/a1/x", 0755), 0);
	child = fork();
	ASSERT_GE(child, 0);
	if (!child)
		_exit(cgns_child(&self->h));
	ASSERT_EQ(waitpid(child, &st, 0), child);
	EXPECT_EQ(rmdir(TOP "/a/a1/x"), 0);
	ASSERT_TRUE(WIFEXITED(st));
	EXPECT_EQ(WEXITSTATUS(st), 0)
		TH_LOG("check %d of cgns_level() failed", WEXITSTATUS(st));
}

/* A named cgroup v1 hierarchy, walked from its root's fd. */
TEST_F(param, v1_fd_walks_v1_hierarchy)
{
	union bpf_iter_link_info linfo = {};
	__u64 root1, child1;
	int fd, n;

	mkdir(CG1, 0755);
	ASSERT_EQ(mount("cgroup", CG1, "cgroup", 0, "none,name=kconform"), 0)
		TH_LOG("mount cgroup v1: %s", strerror(errno));
	rmdir(CG1 "/child");
	ASSERT_EQ(mkdir(CG1 "/child", 0755), 0);
	root1 = path_id(CG1);
	child1 = path_id(CG1 "/child");
	fd = open(CG1, O_RDONLY | O_DIRECTORY);
	ASSERT_GE(fd, 0);
	linfo.cgroup.order = BPF_CGROUP_ITER_DESCENDANTS_PRE;
	linfo.cgroup.cgroup_fd = fd;
	EXPECT_EQ(iter_link(self->h.skel->progs.dump_cgroup, &linfo,
			    &self->h.link), 0);
	if (self->h.link) {
		n = hier_walk(&self->h, sizeof(self->h.out));
		EXPECT_EQ(n, 2);
		EXPECT_EQ(self->h.out[0], root1);
		EXPECT_EQ(self->h.out[1], child1);
	}
	bpf_link__destroy(self->h.link);
	self->h.link = NULL;
	close(fd);
	rmdir(CG1 "/child");
	umount(CG1);
}

/* ---- seeded bad input and fault injection ------------------ */

/*
 * Where a seeded case sees the cgroups: each node's path in the cgroup2
 * mount it looks at (NULL: outside its cgroup namespace, where ids name
 * nothing), and the namespace's root, the start of a link given none.
 */
struct cg_view {
	const char *path[NODES];
	enum node root;
};

static const enum node node_parent[NODES] = {
	[ROOT] = END, [KCG] = ROOT, [A] = KCG, [A1] = A, [B] = KCG,
};

/*
 * The walk a valid link makes from @start as @v shows it: SELF_ONLY and
 * ANCESTORS_UP in their order (up past the namespace's root to the
 * hierarchy's: 6.1.192 does not stop there, see cgns_level()), the
 * descendants sorted (the kernel's sibling order is creation order,
 * which no file shows) from what the mount shows (a start outside the
 * namespace, given by fd: from the initial namespace's mount).
 */
static int expected_walk(const struct cg_view *v, enum node start, __u32 order,
			 __u64 *ids)
{
	const char *path = v->path[start] ? v->path[start] : node_path[start];
	int n = 0;

	switch (order) {
	case BPF_CGROUP_ITER_SELF_ONLY:
		ids[n++] = path_id(path);
		break;
	case BPF_CGROUP_ITER_ANCESTORS_UP:
		for (; start != END; start = node_parent[start])
			ids[n++] = path_id(node_path[start]);
		break;
	default:
		n = tree_ids(path, ids, 0);
		qsort(ids, n, sizeof(*ids), cmp_u64);
	}
	return n;
}

static const struct cg_view host_view = {
	.path = { CG2, TOP, TOP "/a", TOP "/a/a1", TOP "/b" },
	.root = ROOT,
};

#define CG_FUZZ_ITERS	600

/*
 * Waits until no cgroup below kconform/ is dying: nothing holds gone or
 * the previous cases' cgroups (no controller is enabled below
 * kconform/, so no charge holds them either), so only RCU and the
 * cgroup release work stand between rmdir() and their release. A walk
 * steps onto dying cgroups, and 6.1.192 without 0306 ends a read() on
 * one (the dying fixture guards that, with a cgroup it keeps dying);
 * these cases check link_info, and must decide the same way on every
 * kernel. Returns the count left after @ms milliseconds (0: none).
 */
static long settle_dying(int ms)
{
	long n = dying_below(TOP);

	for (; n > 0 && ms > 0; ms -= 10) {
		usleep(10000);
		n = dying_below(TOP);
	}
	return n;
}

/*
 * A walk from the root cgroup, read whole: the hierarchy above and
 * beside kconform/ is not ours (the tcp_ehash lane's memory cgroups come
 * and go while this runs; on a real system, systemd's do), so the check
 * is of what we own in it. Every id once; the root first (pre-order) or
 * last (post-order); and kconform/'s four cgroups together, in the
 * order the walk gives a subtree: kconform, a, a1, b or a1, a, b,
 * kconform.
 */
static void root_walk_check(struct __test_metadata *_metadata,
			    const struct hier *h, __u32 order,
			    const __u64 *got, int n, int iter)
{
	static const enum node pre[] = { KCG, A, A1, B };
	static const enum node post[] = { A1, A, B, KCG };
	const enum node *sub = order == BPF_CGROUP_ITER_DESCENDANTS_PRE ? pre : post;
	static __u64 sorted[WALK_MAX];
	int k, at = -1;

	ASSERT_GE(n, 5) TH_LOG("iteration %d: %d cgroups from the root", iter, n);
	memcpy(sorted, got, n * sizeof(*got));
	qsort(sorted, n, sizeof(*sorted), cmp_u64);
	for (k = 1; k < n; k++)
		EXPECT_NE(sorted[k - 1], sorted[k])
			TH_LOG("iteration %d: cgroup %llu twice", iter,
			       (unsigned long long)sorted[k]);
	EXPECT_EQ(h->id[ROOT], got[order == BPF_CGROUP_ITER_DESCENDANTS_PRE ? 0 : n - 1])
		TH_LOG("iteration %d: the root is not where the order puts it", iter);
	for (k = 0; k < n; k++)
		if (got[k] == h->id[sub[0]])
			at = k;
	ASSERT_GE(at, 0) TH_LOG("iteration %d: %s not walked", iter, node_path[sub[0]]);
	ASSERT_LE(at + 4, n) TH_LOG("iteration %d: kconform/ cut short", iter);
	for (k = 0; k < 4; k++)
		EXPECT_EQ(h->id[sub[k]], got[at + k])
			TH_LOG("iteration %d: want %s at %d", iter, node_path[sub[k]], at + k);
}

/*
 * Random bpf_iter_link_info for the cgroup iterator: orders valid and
 * not, a start fd (a cgroup, /dev/null, a cgroup file, a closed fd, -1),
 * a start id (a cgroup, a removed cgroup, a cgroup file, a random
 * number), both or neither, and link_info_len short, exact, long with a
 * zero or non-zero tail, and past a page. Each link_create() fails with
 * exactly the errno bpf_iter_link_attach() and bpf_iter_attach_cgroup()
 * give in 6.1.192, in their order (EINVAL for a length without a
 * pointer, E2BIG for a non-zero tail or more than a page, EINVAL for the
 * order or both starts, EBADF for the fd, ENOENT for the id), or makes a
 * link whose walk, read in chunks of a random size, is the one
 * /sys/fs/cgroup shows from the start cgroup, cut where a read()
 * session ends (EOPNOTSUPP: a cgroup walk cannot resume) or whole (EOF).
 * A walk of the whole hierarchy (from the root cgroup) is read whole and
 * checked for what is ours in it (root_walk_check()). No cgroup below
 * kconform/ is dying while it runs (settle_dying()), so every draw
 * decides the same way on every kernel, with 0306 or without.
 */
static void cg_fuzz(struct __test_metadata *_metadata, struct hier *h,
		    const struct cg_view *v, const char *name, int iters)
{
	static const __u32 bad_orders[] = { BPF_CGROUP_ITER_ORDER_UNSPEC, 5,
					    255, 0x80000000u, 0xffffffffu };
	static const __u32 lens[] = { 0, 4, 8, 12, 15, 17, 20, 24, 64, 4096, 4097 };
	static __u64 want[WALK_MAX], got[WALK_MAX];
	static unsigned char info[8192];
	int i, k, null_fd, procs_fd, err, n, w, chunk;
	__u64 procs_id, gone_id, id;
	long taint = kc_tainted();
	struct iter_end end;
	enum node start;
	struct kc_rng r;
	__u32 order, len, fd;
	bool tail;
	char procs[PATH_MAX];

	kc_rng_init(&r, name);
	libbpf_set_print(NULL);	/* no line per refused link */
	null_fd = open("/dev/null", O_RDONLY);
	ASSERT_GE(null_fd, 0);
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", node_path[A]);
	procs_fd = open(procs, O_RDONLY);
	ASSERT_GE(procs_fd, 0);
	procs_id = path_id(procs);
	ASSERT_EQ(mkdir(TOP "/gone", 0755), 0);
	gone_id = path_id(TOP "/gone");
	ASSERT_EQ(rmdir(TOP "/gone"), 0);
	/* gone, and the previous cases' cgroups, released: none is walked */
	ASSERT_EQ(0, settle_dying(30000))
		TH_LOG("cgroups below %s still dying after 30 s", TOP);

	for (i = 0; i < iters; i++) {
		memset(info, 0, sizeof(info));
		order = kc_chance(&r, 85) ? 1 + kc_below(&r, 4) :
					    kc_pick(&r, bad_orders);
		start = kc_below(&r, NODES);
		fd = 0;
		id = 0;
		err = 0;
		switch (kc_below(&r, 8)) {		/* the fd */
		case 0:
			fd = h->fd[start];
			break;
		case 1:
			fd = kc_pick(&r, ((__u32[]){ null_fd, procs_fd, 4000, 0xffffffffu }));
			err = -EBADF;
			break;
		}
		switch (kc_below(&r, 8)) {		/* the id */
		case 0:
			id = h->id[start];
			err = fd ? -EINVAL : v->path[start] ? 0 : -ENOENT;
			break;
		case 1:
			id = kc_pick(&r, ((__u64[]){ procs_id, gone_id,
					  kc_next(&r) | (1ULL << 62) }));
			err = fd ? -EINVAL : -ENOENT;
			break;
		}
		if (!fd && !id)
			start = v->root;
		len = kc_chance(&r, 70) ? 16 : kc_pick(&r, lens);
		tail = len > 16 && kc_chance(&r, 50);
		/* A short length cuts the fields: order @0, fd @4, id @8. */
		memcpy(info, &order, 4);
		memcpy(info + 4, &fd, 4);
		memcpy(info + 8, &id, 8);
		if (len < 16)
			memset(info + len, 0, 16 - len);
		if (tail)
			info[16 + kc_below(&r, len - 16)] = 1 + kc_below(&r, 255);
		if (len < 16) {
			/* what the kernel sees */
			memcpy(&order, info, 4);
			memcpy(&fd, info + 4, 4);
			memcpy(&id, info + 8, 8);
			err = 0;
			if (fd && id)
				err = -EINVAL;
			else if (fd)
				err = fd == h->fd[start] ? 0 : -EBADF;
			else if (id)
				err = id == h->id[start] && v->path[start] ? 0 : -ENOENT;
			else
				start = v->root;
		}
		if (!len)
			err = -EINVAL;		/* a pointer without a length */
		else if (len > 4096 || tail)
			err = -E2BIG;
		else if (order < 1 || order > 4)
			err = -EINVAL;

		{
			LIBBPF_OPTS(bpf_iter_attach_opts, opts,
				    .link_info = (void *)info, .link_info_len = len);

			h->link = bpf_program__attach_iter(h->skel->progs.dump_cgroup, &opts);
		}
		if (err) {
			EXPECT_EQ(NULL, h->link)
				TH_LOG("iteration %d: order %u fd %u id %llu len %u tail %d",
				       i, order, fd, (unsigned long long)id, len, tail);
			EXPECT_EQ(-err, errno)
				TH_LOG("iteration %d: order %u fd %u id %llu len %u tail %d: %s",
				       i, order, fd, (unsigned long long)id, len, tail,
				       strerror(errno));
		} else {
			ASSERT_NE(NULL, h->link)
				TH_LOG("iteration %d: order %u fd %u id %llu len %u: %s",
				       i, order, fd, (unsigned long long)id, len,
				       strerror(errno));
			if (start == ROOT &&
			    (order == BPF_CGROUP_ITER_DESCENDANTS_PRE ||
			     order == BPF_CGROUP_ITER_DESCENDANTS_POST)) {
				n = iter_read(h->link, got, sizeof(got), sizeof(got), &end);
				ASSERT_GE(n, 0);
				EXPECT_EQ(0, end.err) TH_LOG("iteration %d: %s", i,
							     strerror(-end.err));
				root_walk_check(_metadata, h, order, got, n / 8, i);
				goto next;
			}
			w = expected_walk(v, start, order, want);
			ASSERT_LT(w, WALK_MAX);
			chunk = 1 + kc_below(&r, 8 * w + 16);
			n = iter_read(h->link, got, sizeof(got), chunk, &end);
			ASSERT_GE(n, 0);
			if (chunk > 8 * (w - 1)) {
				EXPECT_EQ(8 * w, n) TH_LOG("iteration %d, chunk %d", i, chunk);
				EXPECT_EQ(0, end.err) TH_LOG("iteration %d, chunk %d", i, chunk);
			} else {
				EXPECT_EQ(8 * ((chunk + 7) / 8), n)
					TH_LOG("iteration %d, chunk %d", i, chunk);
				EXPECT_EQ(-EOPNOTSUPP, end.err);
			}
			n /= 8;
			if (order == BPF_CGROUP_ITER_DESCENDANTS_PRE)
				EXPECT_EQ(h->id[start], got[0]);
			if (order == BPF_CGROUP_ITER_DESCENDANTS_POST && n == w)
				EXPECT_EQ(h->id[start], got[n - 1]);
			if (order == BPF_CGROUP_ITER_SELF_ONLY ||
			    order == BPF_CGROUP_ITER_ANCESTORS_UP) {
				for (k = 0; k < n; k++)
					EXPECT_EQ(want[k], got[k])
						TH_LOG("iteration %d, visit %d", i, k);
			} else {
				for (k = 0; k < n; k++)
					EXPECT_NE(NULL, bsearch(&got[k], want, w,
								sizeof(*want), cmp_u64))
						TH_LOG("iteration %d: visit %d not below the start",
						       i, k);
				if (n == w) {
					qsort(got, n, sizeof(*got), cmp_u64);
					EXPECT_EQ(0, memcmp(got, want, n * sizeof(*got)))
						TH_LOG("iteration %d: not every cgroup once", i);
				}
			}
next:
			bpf_link__destroy(h->link);
		}
		h->link = NULL;
		ASSERT_EQ(taint, kc_tainted()) TH_LOG("tainted at iteration %d", i);
		if (!kc_passed(_metadata))
			break;
	}
	close(null_fd);
	close(procs_fd);
}

TEST_F_TIMEOUT(param, seeded_bad_link_info, 300)
{
	cg_fuzz(_metadata, &self->h, &host_view,
		"bpf_iter_params.cgroup.seeded_bad_link_info", CG_FUZZ_ITERS);
}

/*
 * The same from inside the two nested cgroup namespaces of
 * nested_cgroup_namespaces_walk_from_their_root (rooted at a, then at
 * a1, each with its own cgroup2 mount, cgns_enter()): ids of cgroups
 * outside the namespace are ENOENT, fds opened before are taken, a link
 * given no start walks from the namespace's root, and every walk is what
 * that mount shows. CGNS_FUZZ_ITERS per level.
 */
#define CGNS_FUZZ_ITERS	150

TEST_F_TIMEOUT(param, seeded_link_info_in_nested_cgroup_namespaces, 300)
{
	struct cg_view v[2] = {
		{ .path = { NULL, NULL, CGNS_MNT "1", CGNS_MNT "1/a1", NULL }, .root = A },
		{ .path = { NULL, NULL, NULL, CGNS_MNT "2", NULL }, .root = A1 },
	};
	char name[96];
	int level, st;
	pid_t child;

	child = fork();
	ASSERT_GE(child, 0);
	if (!child) {
		for (level = 1; level <= 2 && kc_passed(_metadata); level++) {
			if (cgns_enter(level))
				_exit(10 + level);
			snprintf(name, sizeof(name),
				 "bpf_iter_params.cgroup.seeded.level%d", level);
			cg_fuzz(_metadata, &self->h, &v[level - 1], name, CGNS_FUZZ_ITERS);
		}
		_exit(kc_passed(_metadata) ? 0 : 1);
	}
	ASSERT_EQ(waitpid(child, &st, 0), child);
	ASSERT_TRUE(WIFEXITED(st));
	EXPECT_EQ(WEXITSTATUS(st), 0) TH_LOG("the namespace's checks failed (see above)");
}

/*
 * Link creation, the iterator's creation and its first read() of a
 * DESCENDANTS_PRE walk of kconform/ with the n-th slab allocation
 * failing (fail-nth), for every n until the three make fewer than n:
 * each step fails with ENOMEM (bpf(2), read(2)) or the read gives the
 * four cgroups, and afterwards a fresh link walks them again.
 */
TEST_F_TIMEOUT(param, link_create_and_read_fault_injection, 300)
{
	struct iter_fault f = {
		.prog = self->h.skel->progs.dump_cgroup,
		.link = &self->h.link,
		.size = sizeof(__u64[8]),
		.want_len = 4 * 8,
		.first_size = sizeof(__u64),
		.want_first = self->h.id[KCG],
	};
	int ret;

	ret = kc_failslab_setup();
	if (ret)
		SKIP(return, "no failslab in debugfs: %s", strerror(-ret));
	f.linfo.cgroup.order = BPF_CGROUP_ITER_DESCENDANTS_PRE;
	f.linfo.cgroup.cgroup_fd = self->h.fd[KCG];
	iter_fault_injection(_metadata, &f);
	ASSERT_EQ(0, hier_link(_metadata, &self->h, BPF_CGROUP_ITER_DESCENDANTS_PRE,
			       KCG, BY_FD));
	EXPECT_EQ(4, hier_walk(&self->h, sizeof(self->h.out)));
}

/*
 * The link's fdinfo read with the n-th slab allocation failing
 * (fail-nth), for every n until the read makes fewer than n: read()
 * fails with ENOMEM, or the text is whole with the walk's order, its
 * cgroup_path "<unknown>" where the path's buffer could not be had
 * (bpf_iter_cgroup_show_fdinfo()) and the start's path otherwise.
 */
struct fdinfo_fault {
	int fd;
	char path[64];		/* the cgroup_path line expected */
	char text[4096];
	ssize_t len;
	int unknown;
};

static int fdinfo_fault_call(void *arg)
{
	struct fdinfo_fault *f = arg;

	f->len = pread(f->fd, f->text, sizeof(f->text) - 1, 0);
	return f->len < 0 ? -errno : 0;
}

static void fdinfo_fault_check(struct __test_metadata *_metadata, void *arg,
			       int n, int ret, long left)
{
	struct fdinfo_fault *f = arg;

	if (ret) {
		EXPECT_EQ(-ENOMEM, ret) TH_LOG("n = %d", n);
		EXPECT_EQ(0, left);
		return;
	}
	f->text[f->len] = '\0';
	EXPECT_NE(NULL, strstr(f->text, "\norder: descendants_pre\n"))
		TH_LOG("n = %d: %s", n, f->text);
	if (strstr(f->text, "\ncgroup_path:\t<unknown>\n")) {
		EXPECT_EQ(0, left) TH_LOG("n = %d: <unknown> with no fault", n);
		f->unknown++;
	} else {
		EXPECT_NE(NULL, strstr(f->text, f->path)) TH_LOG("n = %d: %s", n, f->text);
	}
}

TEST_F_TIMEOUT(param, fdinfo_fault_injection, 120)
{
	struct fdinfo_fault f;
	char name[64];
	int ret;

	ret = kc_failslab_setup();
	if (ret)
		SKIP(return, "no failslab in debugfs: %s", strerror(-ret));
	ASSERT_EQ(0, hier_link(_metadata, &self->h, BPF_CGROUP_ITER_DESCENDANTS_PRE,
			       KCG, BY_FD));
	snprintf(f.path, sizeof(f.path), "\ncgroup_path:\t%s\n", TOP + strlen(CG2));
	snprintf(name, sizeof(name), "/proc/self/fdinfo/%d",
		 bpf_link__fd(self->h.link));
	f.unknown = 0;
	f.fd = open(name, O_RDONLY);
	ASSERT_GE(f.fd, 0);
	ASSERT_EQ(0, fdinfo_fault_call(&f));
	f.text[f.len] = '\0';
	ASSERT_NE(NULL, strstr(f.text, f.path)) TH_LOG("%s", f.text);
	kc_fail_nth_loop(_metadata, 200, fdinfo_fault_call, fdinfo_fault_check, &f);
	close(f.fd);
	EXPECT_GT(f.unknown, 0);
}

TEST_HARNESS_MAIN
