// SPDX-License-Identifier: GPL-2.0
/*
 * Documentation/userspace-api/netlink/intro.rst, section by section,
 * against a family of our own: lib/test_genetlink.c (series patch 0501,
 * CONFIG_TEST_GENETLINK=m), which this test loads with modprobe and, for
 * the controller's notifications, unloads and loads again. The family
 * shows on demand what no real family of a small kernel does: a dump
 * that a command interrupts, policies with ranges, a nest with a
 * required attribute, a string that must be terminated, a warning on
 * success and its own multicast group.
 *
 *   - "Resolving the Family ID": GETFAMILY returns the id, version, max
 *     attribute, ops with their flags and groups with their ids; the
 *     reply's nlmsg_flags are 0 and its nlmsg_pid is our port id; one
 *     socket talks to nlctrl and to the family.
 *   - "Dump consistency": the handbook's dump flags, NLM_F_DUMP_INTR on
 *     the parts after a change (and on NLMSG_DONE), and a dump whose
 *     socket is closed half way still ends (its done callback runs and
 *     the module's reference is dropped).
 *   - "Introspection": CTRL_CMD_GETPOLICY reports each op's policy and
 *     each attribute's type and range exactly.
 *   - "Extended ACK": no TLVs without NETLINK_EXT_ACK; OFFS and POLICY
 *     for a value out of range; MISS_TYPE, and MISS_NEST inside a nest;
 *     a message on success (a warning).
 *   - "Multicast notifications": nlctrl's "notify" group tells of the
 *     module's unload and load (seq 0, pid 0, the same attributes as the
 *     GETFAMILY reply); the family's group delivers its events until the
 *     socket leaves; an overrun listener gets ENOBUFS and goes on.
 *   - NLMSG_ERROR: success ACKs are NLM_F_CAPPED; NETLINK_CAP_ACK keeps
 *     the extended ACK of an error.
 *   - Bad input: each is answered or dropped as 6.1.192 does, and the
 *     socket and the kernel go on.
 *   - A real client: Debian's iproute2 `genl ctrl get` and `genl ctrl
 *     list` (copied next to the test) print what the raw requests found.
 *
 * Where 6.1.192 differs from the handbook, the case says so.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "../kconform_util.h"
#include "../kconform_fuzz.h"
#include "nl_util.h"

/* lib/test_genetlink.c's names and numbers */
#define FAMILY		"test_genetlink"
#define MODULE		"test_genetlink"
enum {
	CMD_ECHO = 1, CMD_ADD, CMD_DEL, CMD_LIST, CMD_NOTIFY, CMD_STATS,
};

enum {
	A_ID = 1, A_LEVEL, A_OFFSET, A_NAME, A_NEST, A_WARN, A_COUNT,
	A_STARTED, A_DONE,
	A_MAX = A_DONE,
};

enum { NEST_A_KEY = 1, NEST_A_VALUE };

#define DUMP_BATCH	4

struct family {
	__u16 id;
	__u32 grp;	/* "events" */
};

/* GETFAMILY @name on @fd: the reply in @buf, 0 or -errno/-1. */
static int getfamily(int fd, const char *name, char *buf, size_t size)
{
	struct nlmsghdr *nh = (struct nlmsghdr *)buf;
	struct req r;

	if (ctrl_send(fd, &r, CTRL_CMD_GETFAMILY, 0, name))
		return -1;
	if (nl_recv(fd, buf, size, 0) <= 0)
		return -1;
	if (nh->nlmsg_type == NLMSG_ERROR)
		return ((struct nlmsgerr *)NLMSG_DATA(nh))->error;
	return nh->nlmsg_type == GENL_ID_CTRL ? 0 : -1;
}

/* The id of the group @grp in a family message, or 0. */
static __u32 group_id(struct nlmsghdr *nh, const char *grp)
{
	struct nlattr *grps = genl_attr(nh, CTRL_ATTR_MCAST_GROUPS), *g;

	if (!grps)
		return 0;
	for (g = ATTR_DATA(grps);
	     (char *)g + NLA_HDRLEN <= (char *)grps + grps->nla_len;
	     g = (struct nlattr *)((char *)g + NLA_ALIGN(g->nla_len))) {
		struct nlattr *n = nest_attr(g, CTRL_ATTR_MCAST_GRP_NAME);
		struct nlattr *id = nest_attr(g, CTRL_ATTR_MCAST_GRP_ID);

		if (n && id && !strcmp(ATTR_DATA(n), grp))
			return ATTR_U32(id);
	}
	return 0;
}

static int module_loaded(void)
{
	return !access("/sys/module/" MODULE, F_OK);
}

/* Load (@load) or unload the module with modprobe: its exit status. */
static int module_load(int load)
{
	char out[1024];

	return capture(load ? "modprobe " MODULE " 2>&1" :
		       "modprobe -r " MODULE " 2>&1", out, sizeof(out));
}

static int resolve(int fd, struct family *f)
{
	char buf[BUF_SIZE];
	struct nlattr *a;

	if (getfamily(fd, FAMILY, buf, sizeof(buf)))
		return -1;
	a = genl_attr((struct nlmsghdr *)buf, CTRL_ATTR_FAMILY_ID);
	if (!a)
		return -1;
	f->id = *(__u16 *)ATTR_DATA(a);
	f->grp = group_id((struct nlmsghdr *)buf, "events");
	return f->grp ? 0 : -1;
}

/*
 * Send @r and read until its NLMSG_ERROR: the error (0 for an ACK), or
 * 1 if a reply came and no ACK was asked for; the last message is in @buf.
 */
static int transact(int fd, struct req *r, char *buf, size_t size)
{
	struct nlmsghdr *nh = (struct nlmsghdr *)buf;
	ssize_t n;

	if (nl_send(fd, r))
		return -1000;
	for (;;) {
		n = nl_recv(fd, buf, size, 0);
		if (n <= 0)
			return -1000;
		if (nh->nlmsg_type == NLMSG_ERROR)
			return ((struct nlmsgerr *)NLMSG_DATA(nh))->error;
		if (!(r->nh.nlmsg_flags & NLM_F_ACK))
			return 1;
	}
}

/* ADD or DEL the id @id: the error of the ACK. */
static int list_op(int fd, const struct family *f, __u8 cmd, __u32 id)
{
	char buf[4096];
	struct req r;

	genl_req_to(&r, f->id, cmd, NLM_F_ACK);
	req_attr(&r, A_ID, &id, sizeof(id));
	return transact(fd, &r, buf, sizeof(buf));
}

/*
 * What a dump of the list brought: the ids, the datagrams before
 * NLMSG_DONE (parts), the messages with NLM_F_DUMP_INTR and the index of
 * the first, DONE's flag and error, messages without NLM_F_MULTI.
 */
struct dump_result {
	int n;
	__u32 ids[64];
	int parts;
	int n_intr, first_intr;
	int done_intr;
	int done_error;
	int multi_missing;
};

/*
 * Read a started dump into @d until NLMSG_DONE (0), an error (<0), or
 * (1) after @max_parts more datagrams if @max_parts > 0.
 */
static int dump_read_parts(int fd, struct dump_result *d, int max_parts)
{
	static char buf[BUF_SIZE];
	int i;

	for (i = 0; max_parts <= 0 || i < max_parts; i++) {
		ssize_t n = nl_recv(fd, buf, sizeof(buf), 0);
		struct nlmsghdr *nh;

		if (n <= 0)
			return -1;
		for (nh = (struct nlmsghdr *)buf; NLMSG_OK(nh, n);
		     nh = NLMSG_NEXT(nh, n)) {
			struct nlattr *a;

			if (!(nh->nlmsg_flags & NLM_F_MULTI))
				d->multi_missing++;
			if (nh->nlmsg_type == NLMSG_DONE) {
				d->done_intr = !!(nh->nlmsg_flags &
						  NLM_F_DUMP_INTR);
				d->done_error = *(int *)NLMSG_DATA(nh);
				return 0;
			}
			if (nh->nlmsg_type == NLMSG_ERROR)
				return ((struct nlmsgerr *)NLMSG_DATA(nh))->error;
			if ((nh->nlmsg_flags & NLM_F_DUMP_INTR) &&
			    !d->n_intr++)
				d->first_intr = d->n;
			a = genl_attr(nh, A_ID);
			if (a && d->n < 64)
				d->ids[d->n++] = ATTR_U32(a);
		}
		d->parts++;
	}
	return 1;
}

static int dump_read(int fd, struct dump_result *d)
{
	return dump_read_parts(fd, d, 0);
}

/* Empty the module's list (ids 1..1000 it may hold from earlier cases). */
static int list_clear(int fd, const struct family *f)
{
	struct dump_result d = {};
	struct req r;
	int i;

	genl_req_to(&r, f->id, CMD_LIST, NLM_F_DUMP);
	if (nl_send(fd, &r) || dump_read(fd, &d))
		return -1;
	for (i = 0; i < d.n; i++)
		if (list_op(fd, f, CMD_DEL, d.ids[i]))
			return -1;
	return d.n == 64 ? list_clear(fd, f) : 0;
}

/* STATS: dumps started and ended so far. */
static int stats(int fd, const struct family *f, __u32 *started,
		 __u32 *done)
{
	char buf[4096];
	struct nlmsghdr *nh = (struct nlmsghdr *)buf;
	struct nlattr *s, *d;
	struct req r;

	genl_req_to(&r, f->id, CMD_STATS, 0);
	if (transact(fd, &r, buf, sizeof(buf)) != 1)
		return -1;
	s = genl_attr(nh, A_STARTED);
	d = genl_attr(nh, A_DONE);
	if (!s || !d)
		return -1;
	*started = ATTR_U32(s);
	*done = ATTR_U32(d);
	return 0;
}

static long module_refcnt(void)
{
	char buf[32] = "";
	FILE *f = fopen("/sys/module/" MODULE "/refcnt", "r");

	if (!f)
		return -1;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	return buf[0] ? strtol(buf, NULL, 10) : -1;
}

/* -------- Fault injection -------- */

/*
 * Defined first, so it runs first (the harness runs the cases in their
 * order here). On the coverage variant, the failing allocation can be
 * one of gcov's own at the module's load (llvm_gcda_emit_function()):
 * that load's data set then misses a function, and gcov discards every
 * count saved from the earlier loads as "incompatible version"
 * (kernel/gcov/fs.c, add_info()). Run before the fam cases, it loses
 * nothing they count.
 */

FIXTURE(reg) {
	int fd;
	int ko;
};

FIXTURE_SETUP(reg)
{
	char path[1024];

	self->fd = nl_open(NETLINK_GENERIC);
	ASSERT_GE(self->fd, 0);
	ASSERT_EQ(capture("find /lib/modules -name " MODULE ".ko | head -1", path,
			  sizeof(path)), 0);
	path[strcspn(path, "\n")] = '\0';
	self->ko = open(path, O_RDONLY);
	ASSERT_GE(self->ko, 0) TH_LOG("%s: %s", path, strerror(errno));
}

FIXTURE_TEARDOWN(reg)
{
	/* leave the module loaded, as the other cases expect */
	if (!module_loaded())
		module_load(1);
	close(self->ko);
	close(self->fd);
}

/* An attempt of the load: the module's file and what the attempts gave. */
struct reg_fault {
	int fd;
	int ko;
	int enomem;
	int absorbed;
};

static int reg_fault_call(void *arg)
{
	struct reg_fault *rf = arg;

	return syscall(__NR_finit_module, rf->ko, "", 0) ? -errno : 0;
}

static void reg_fault_check(struct __test_metadata *_metadata, void *arg,
			    int n, int ret, long left)
{
	struct reg_fault *rf = arg;
	char buf[BUF_SIZE];
	struct family f;
	int err = -ret;

	if (ret) {
		EXPECT_EQ(ENOMEM, err) TH_LOG("n = %d: %s", n, strerror(err));
		EXPECT_EQ(0, left);
		EXPECT_FALSE(module_loaded()) TH_LOG("n = %d", n);
		EXPECT_EQ(-ENOENT, getfamily(rf->fd, FAMILY, buf, sizeof(buf)))
			TH_LOG("n = %d: a family after a failed load", n);
		rf->enomem++;
		return;
	}
	if (!left)
		rf->absorbed++;
	EXPECT_EQ(0, resolve(rf->fd, &f)) TH_LOG("n = %d", n);
	ASSERT_EQ(0, syscall(__NR_delete_module, MODULE, O_NONBLOCK))
		TH_LOG("n = %d: %s", n, strerror(errno));
}

/*
 * Loading the module, whose init registers the family
 * (genl_register_family()), with the n-th slab allocation failing
 * (fail-nth), for every n until the load makes fewer than n: each
 * attempt fails with ENOMEM (init_module(2)), and then neither the
 * module nor the family exists (GETFAMILY: ENOENT), or it loads and the
 * family resolves whole (id, ops, the "events" group) and unloads.
 * Afterwards modprobe loads it and it resolves.  Leaks are kmemleak's,
 * on the debug variant.
 */
TEST_F_TIMEOUT(reg, family_registration_fault_injection, 300)
{
	struct reg_fault rf = { .fd = self->fd, .ko = self->ko };
	struct family f;
	int n, ret;

	ret = kc_failslab_setup();
	if (ret)
		SKIP(return, "no failslab in debugfs: %s", strerror(-ret));
	if (module_loaded())
		ASSERT_EQ(module_load(0), 0);
	n = kc_fail_nth_loop(_metadata, 20000, reg_fault_call, reg_fault_check,
			     &rf);
	printf("# %d attempts: %d ENOMEM, %d absorbed\n", n, rf.enomem,
	       rf.absorbed);
	fflush(stdout);
	EXPECT_GT(rf.enomem, 0);
	ASSERT_EQ(0, module_load(1));
	EXPECT_EQ(0, resolve(self->fd, &f));
}

FIXTURE(fam) {
	int fd;
	struct family f;
	char buf[BUF_SIZE];
	struct req r;
};

FIXTURE_SETUP(fam)
{
	self->fd = -1;
	if (!module_loaded())
		ASSERT_EQ(module_load(1), 0) TH_LOG("modprobe " MODULE);
	self->fd = nl_open(NETLINK_GENERIC);
	ASSERT_GE(self->fd, 0);
	ASSERT_EQ(resolve(self->fd, &self->f), 0);
	ASSERT_EQ(list_clear(self->fd, &self->f), 0);
}

FIXTURE_TEARDOWN(fam)
{
	if (self->fd >= 0)
		close(self->fd);
}

/* -------- Resolving the Family ID -------- */

/*
 * GETFAMILY by name: id, version 2, header size 0, max attribute
 * A_MAX, six ops with exactly these flags, the group "events". The
 * reply's flags are 0 and its pid is our port id. Known difference:
 * intro.rst's example reply says cmd CTRL_CMD_GETFAMILY; 6.1.192
 * answers CTRL_CMD_NEWFAMILY (ctrl_getfamily()).
 */
TEST_F(fam, getfamily_describes_family_reply_cmd_is_newfamily)
{
	static const __u32 want[] = {
		[CMD_ECHO] = GENL_CMD_CAP_DO | GENL_CMD_CAP_HASPOL,
		[CMD_ADD] = GENL_ADMIN_PERM | GENL_CMD_CAP_DO |
			    GENL_CMD_CAP_HASPOL,
		[CMD_DEL] = GENL_ADMIN_PERM | GENL_CMD_CAP_DO |
			    GENL_CMD_CAP_HASPOL,
		[CMD_LIST] = GENL_CMD_CAP_DUMP | GENL_CMD_CAP_HASPOL,
		[CMD_NOTIFY] = GENL_CMD_CAP_DO | GENL_CMD_CAP_HASPOL,
		[CMD_STATS] = GENL_CMD_CAP_DO | GENL_CMD_CAP_HASPOL,
	};
	struct nlmsghdr *nh = (struct nlmsghdr *)self->buf;
	struct genlmsghdr *g = NLMSG_DATA(nh);
	struct sockaddr_nl sa;
	socklen_t len = sizeof(sa);
	struct nlattr *a, *ops, *op;
	__u32 seen[ARRAY_SIZE(want)] = {};
	int n_ops = 0, n_grps = 0;
	unsigned int i;

	ASSERT_EQ(getsockname(self->fd, (struct sockaddr *)&sa, &len), 0);
	ASSERT_EQ(getfamily(self->fd, FAMILY, self->buf, sizeof(self->buf)),
		  0);
	EXPECT_EQ(nh->nlmsg_flags, 0);
	EXPECT_EQ(nh->nlmsg_pid, sa.nl_pid);
	EXPECT_EQ(nh->nlmsg_seq, SEQ);
	EXPECT_EQ(g->cmd, CTRL_CMD_NEWFAMILY);
	EXPECT_EQ(g->version, 2);
	a = genl_attr(nh, CTRL_ATTR_FAMILY_ID);
	ASSERT_NE(a, NULL);
	EXPECT_GT(*(__u16 *)ATTR_DATA(a), GENL_ID_PMCRAID);
	a = genl_attr(nh, CTRL_ATTR_FAMILY_NAME);
	ASSERT_NE(a, NULL);
	EXPECT_STREQ((char *)ATTR_DATA(a), FAMILY);
	a = genl_attr(nh, CTRL_ATTR_VERSION);
	ASSERT_NE(a, NULL);
	EXPECT_EQ(ATTR_U32(a), 2);
	a = genl_attr(nh, CTRL_ATTR_HDRSIZE);
	ASSERT_NE(a, NULL);
	EXPECT_EQ(ATTR_U32(a), 0);
	a = genl_attr(nh, CTRL_ATTR_MAXATTR);
	ASSERT_NE(a, NULL);
	EXPECT_EQ(ATTR_U32(a), A_MAX);

	ops = genl_attr(nh, CTRL_ATTR_OPS);
	ASSERT_NE(ops, NULL);
	for (op = ATTR_DATA(ops);
	     (char *)op + NLA_HDRLEN <= (char *)ops + ops->nla_len;
	     op = (struct nlattr *)((char *)op + NLA_ALIGN(op->nla_len))) {
		struct nlattr *id = nest_attr(op, CTRL_ATTR_OP_ID);
		struct nlattr *fl = nest_attr(op, CTRL_ATTR_OP_FLAGS);

		ASSERT_NE(id, NULL);
		ASSERT_NE(fl, NULL);
		ASSERT_LT(ATTR_U32(id), ARRAY_SIZE(want));
		seen[ATTR_U32(id)] = ATTR_U32(fl);
		n_ops++;
	}
	EXPECT_EQ(n_ops, 6);
	for (i = 1; i < ARRAY_SIZE(want); i++)
		EXPECT_EQ(seen[i], want[i]) TH_LOG("op %u", i);

	a = genl_attr(nh, CTRL_ATTR_MCAST_GROUPS);
	ASSERT_NE(a, NULL);
	for (op = ATTR_DATA(a);
	     (char *)op + NLA_HDRLEN <= (char *)a + a->nla_len;
	     op = (struct nlattr *)((char *)op + NLA_ALIGN(op->nla_len)))
		n_grps++;
	EXPECT_EQ(n_grps, 1);
	EXPECT_EQ(group_id(nh, "events"), self->f.grp);
	/* group ids are numbered apart from family ids; 0x10 is "notify" */
	EXPECT_NE(self->f.grp, GENL_ID_CTRL);
}

/* A family id is as good as its name; an unknown id is ENOENT. */
TEST_F(fam, getfamily_by_id_and_unknown_id)
{
	struct nlmsghdr *nh = (struct nlmsghdr *)self->buf;
	__u16 id = self->f.id, none = 0xfff0;
	struct nlattr *a;

	genl_req(&self->r, CTRL_CMD_GETFAMILY, 0);
	req_attr(&self->r, CTRL_ATTR_FAMILY_ID, &id, sizeof(id));
	ASSERT_EQ(transact(self->fd, &self->r, self->buf, sizeof(self->buf)),
		  1);
	a = genl_attr(nh, CTRL_ATTR_FAMILY_NAME);
	ASSERT_NE(a, NULL);
	EXPECT_STREQ((char *)ATTR_DATA(a), FAMILY);

	genl_req(&self->r, CTRL_CMD_GETFAMILY, 0);
	req_attr(&self->r, CTRL_ATTR_FAMILY_ID, &none, sizeof(none));
	EXPECT_EQ(transact(self->fd, &self->r, self->buf, sizeof(self->buf)),
		  -ENOENT);
}

/* Generic netlink sockets are not bound to a family: one talks to both. */
TEST_F(fam, one_socket_talks_to_nlctrl_and_the_family)
{
	struct nlmsghdr *nh = (struct nlmsghdr *)self->buf;
	struct genlmsghdr *g = NLMSG_DATA(nh);
	__u32 id = 7;
	int i;

	for (i = 0; i < 2; i++) {
		ASSERT_EQ(getfamily(self->fd, "nlctrl", self->buf,
				    sizeof(self->buf)), 0);
		EXPECT_EQ(g->cmd, CTRL_CMD_NEWFAMILY);
		genl_req_to(&self->r, self->f.id, CMD_ECHO, NLM_F_ACK);
		req_attr(&self->r, A_ID, &id, sizeof(id));
		ASSERT_EQ(nl_send(self->fd, &self->r), 0);
		ASSERT_GT(nl_recv(self->fd, self->buf, sizeof(self->buf), 0),
			  0);
		EXPECT_EQ(nh->nlmsg_type, self->f.id);
		EXPECT_EQ(g->cmd, CMD_ECHO);
		ASSERT_NE(genl_attr(nh, A_ID), NULL);
		EXPECT_EQ(ATTR_U32(genl_attr(nh, A_ID)), id);
		ASSERT_GT(nl_recv(self->fd, self->buf, sizeof(self->buf), 0),
			  0);
		EXPECT_EQ(nh->nlmsg_type, NLMSG_ERROR);
		EXPECT_EQ(((struct nlmsgerr *)NLMSG_DATA(nh))->error, 0);
	}
}

/* -------- Dumps and dump consistency -------- */

/*
 * Ids @step, 2 * @step, ... 10 * @step in the list, then a dump of it
 * requested with the handbook's flags.
 */
static void start_dump(struct __test_metadata *_metadata, int fd,
		       const struct family *f, struct req *r, __u32 step)
{
	__u32 id;

	for (id = 1; id <= 10; id++)
		ASSERT_EQ(list_op(fd, f, CMD_ADD, id * step), 0);
	genl_req_to(r, f->id, CMD_LIST, NLM_F_ACK | NLM_F_DUMP);
	ASSERT_EQ(nl_send(fd, r), 0);
}

/*
 * With the handbook's NLM_F_REQUEST | NLM_F_ACK | NLM_F_DUMP: every id in
 * order, DUMP_BATCH per part, each message NLM_F_MULTI, NLMSG_DONE with
 * 0, no NLM_F_DUMP_INTR. 6.1.192 sends no ACK after NLMSG_DONE
 * (__netlink_dump_start() drops it): DONE is the dump's answer.
 */
TEST_F(fam, dump_with_recommended_flags_lists_all_then_done)
{
	struct dump_result d = {};
	int i;

	start_dump(_metadata, self->fd, &self->f, &self->r, 3);
	ASSERT_EQ(dump_read(self->fd, &d), 0);
	ASSERT_EQ(d.n, 10);
	for (i = 0; i < 10; i++)
		EXPECT_EQ(d.ids[i], (i + 1) * 3);
	EXPECT_EQ(d.parts, 3);
	EXPECT_EQ(d.n_intr, 0);
	EXPECT_EQ(d.done_intr, 0);
	EXPECT_EQ(d.done_error, 0);
	EXPECT_EQ(d.multi_missing, 0);
	EXPECT_EQ(nl_recv(self->fd, self->buf, sizeof(self->buf),
			  MSG_DONTWAIT), -EAGAIN);
}

/*
 * The dump answers one part ahead: the first part is queued by the
 * request itself, each recv() makes the next. An ADD after the first
 * part was made: the first message made after the change, the second
 * part's first, carries NLM_F_DUMP_INTR (cb->seq changed since the last
 * message, genl_dump_check_consistent()), the ones after it and NLMSG_DONE
 * do not (6.1.192 compares with the previous message only, so user
 * space must remember the flag); a dump without a change has none (the
 * case above).
 */
TEST_F(fam, change_after_a_part_sets_dump_intr_on_the_next)
{
	struct dump_result d = {};
	int other = nl_open(NETLINK_GENERIC);

	ASSERT_GE(other, 0);
	start_dump(_metadata, self->fd, &self->f, &self->r, 1);
	ASSERT_EQ(list_op(other, &self->f, CMD_ADD, 500), 0);
	ASSERT_EQ(dump_read(self->fd, &d), 0);
	close(other);
	EXPECT_EQ(d.n, 11);
	EXPECT_EQ(d.parts, 3);
	EXPECT_EQ(d.n_intr, 1);
	EXPECT_EQ(d.first_intr, DUMP_BATCH);
	EXPECT_EQ(d.done_intr, 0);
	EXPECT_EQ(d.done_error, 0);
}

/*
 * A change after the last part was made and before NLMSG_DONE is: DONE
 * carries NLM_F_DUMP_INTR (intro.rst: "including the NLMSG_DONE
 * message"), no other message does.
 */
TEST_F(fam, change_before_done_sets_dump_intr_on_done)
{
	struct dump_result d = {};
	int other = nl_open(NETLINK_GENERIC);

	ASSERT_GE(other, 0);
	start_dump(_metadata, self->fd, &self->f, &self->r, 1);
	/*
	 * two parts read: the third (the last ids) is made already; DEL of
	 * an id dumped already changes the list and adds nothing to dump
	 */
	ASSERT_EQ(dump_read_parts(self->fd, &d, 2), 1);
	ASSERT_EQ(list_op(other, &self->f, CMD_DEL, 1), 0);
	ASSERT_EQ(dump_read(self->fd, &d), 0);
	close(other);
	EXPECT_EQ(d.n, 10);
	EXPECT_EQ(d.parts, 3);
	EXPECT_EQ(d.n_intr, 0);
	EXPECT_EQ(d.done_intr, 1);
	EXPECT_EQ(d.done_error, 0);
}

/*
 * Closing the socket after the first part: the dump ends all the same
 * (the family's done callback runs) and the dump's reference on the
 * module is dropped.
 */
TEST_F(fam, close_in_the_middle_of_a_dump_is_clean)
{
	__u32 started, done, started2 = 0, done2 = 0;
	int fd = nl_open(NETLINK_GENERIC), i;
	__u32 id;

	ASSERT_GE(fd, 0);
	for (id = 1; id <= 10; id++)
		ASSERT_EQ(list_op(self->fd, &self->f, CMD_ADD, id), 0);
	ASSERT_EQ(stats(self->fd, &self->f, &started, &done), 0);
	EXPECT_EQ(started, done);
	EXPECT_EQ(module_refcnt(), 0);
	genl_req_to(&self->r, self->f.id, CMD_LIST, NLM_F_ACK | NLM_F_DUMP);
	ASSERT_EQ(nl_send(fd, &self->r), 0);
	ASSERT_GT(nl_recv(fd, self->buf, sizeof(self->buf), 0), 0);
	EXPECT_EQ(module_refcnt(), 1) TH_LOG("the running dump holds it");
	close(fd);
	/* the socket is freed after an RCU grace period */
	for (i = 0; i < 100; i++) {
		ASSERT_EQ(stats(self->fd, &self->f, &started2, &done2), 0);
		if (done2 == done + 1)
			break;
		usleep(10000);
	}
	EXPECT_EQ(started2, started + 1);
	EXPECT_EQ(done2, done + 1);
	EXPECT_EQ(module_refcnt(), 0);
}

/* -------- Introspection: CTRL_CMD_GETPOLICY -------- */

/*
 * The family's ops and policies, exactly (lib/test_genetlink.c): ECHO's
 * policy, the nest's, the id policy shared by ADD, DEL, LIST (dump
 * only) and STATS, NOTIFY's; an attribute with no type in a policy
 * (NLA_UNSPEC) is not reported.
 */
TEST_F(fam, getpolicy_reports_each_op_policy_exactly)
{
	struct policies *p = malloc(sizeof(*p));
	struct pol_attr *e, *n, *id, *nt;
	int pe, pn, pi, pnt;

	ASSERT_NE(p, NULL);
	ASSERT_EQ(getpolicy(self->fd, self->f.id, p), 0);
	pe = p->do_idx[CMD_ECHO];
	pi = p->do_idx[CMD_ADD];
	pnt = p->do_idx[CMD_NOTIFY];
	ASSERT_GE(pe, 0);
	ASSERT_GE(pi, 0);
	ASSERT_GE(pnt, 0);
	EXPECT_EQ(p->dump_idx[CMD_ECHO], -1);
	EXPECT_EQ(p->do_idx[CMD_DEL], pi);
	EXPECT_EQ(p->do_idx[CMD_STATS], pi);
	EXPECT_EQ(p->do_idx[CMD_LIST], -1);
	EXPECT_EQ(p->dump_idx[CMD_LIST], pi);
	EXPECT_NE(pe, pi);
	EXPECT_NE(pnt, pi);

	e = p->attr[pe];
	EXPECT_EQ(p->n_attrs[pe], 6);
	EXPECT_EQ(e[A_ID].type, NL_ATTR_TYPE_U32);
	EXPECT_TRUE(e[A_ID].has_u);
	EXPECT_EQ(e[A_ID].min_u, 1);
	EXPECT_EQ(e[A_ID].max_u, 1000);
	EXPECT_EQ(e[A_LEVEL].type, NL_ATTR_TYPE_U8);
	EXPECT_EQ(e[A_LEVEL].min_u, 10);
	EXPECT_EQ(e[A_LEVEL].max_u, 20);
	EXPECT_EQ(e[A_OFFSET].type, NL_ATTR_TYPE_S16);
	EXPECT_TRUE(e[A_OFFSET].has_s);
	EXPECT_EQ(e[A_OFFSET].min_s, -100);
	EXPECT_EQ(e[A_OFFSET].max_s, 100);
	EXPECT_EQ(e[A_NAME].type, NL_ATTR_TYPE_NUL_STRING);
	EXPECT_TRUE(e[A_NAME].has_len);
	EXPECT_EQ(e[A_NAME].max_len, 15);
	EXPECT_EQ(e[A_NEST].type, NL_ATTR_TYPE_NESTED);
	EXPECT_TRUE(e[A_NEST].has_idx);
	EXPECT_EQ(e[A_NEST].maxtype, NEST_A_VALUE);
	EXPECT_EQ(e[A_WARN].type, NL_ATTR_TYPE_FLAG);
	EXPECT_EQ(e[A_COUNT].type, 0);

	pn = e[A_NEST].idx;
	ASSERT_LT(pn, N_POL);
	n = p->attr[pn];
	EXPECT_EQ(p->n_attrs[pn], 2);
	EXPECT_EQ(n[NEST_A_KEY].type, NL_ATTR_TYPE_U32);
	EXPECT_EQ(n[NEST_A_KEY].min_u, 0);
	EXPECT_EQ(n[NEST_A_KEY].max_u, UINT32_MAX);
	EXPECT_EQ(n[NEST_A_VALUE].type, NL_ATTR_TYPE_U16);
	EXPECT_EQ(n[NEST_A_VALUE].min_u, 0);
	EXPECT_EQ(n[NEST_A_VALUE].max_u, 512);

	id = p->attr[pi];
	EXPECT_EQ(p->n_attrs[pi], 1);
	EXPECT_EQ(id[A_ID].type, NL_ATTR_TYPE_U32);
	EXPECT_EQ(id[A_ID].min_u, 1);
	EXPECT_EQ(id[A_ID].max_u, 1000);

	nt = p->attr[pnt];
	EXPECT_EQ(p->n_attrs[pnt], 1);
	EXPECT_EQ(nt[A_COUNT].type, NL_ATTR_TYPE_U32);
	EXPECT_EQ(nt[A_COUNT].min_u, 1);
	EXPECT_EQ(nt[A_COUNT].max_u, 1000);
	free(p);
}

/*
 * Read the dump that @fd answers until NLMSG_DONE, which must carry 0;
 * every other message must be nlctrl's and goes to @each with @arg.
 */
static void ctrl_dump_each(struct __test_metadata *_metadata, int fd,
			   char *buf, size_t size,
			   void (*each)(struct __test_metadata *_metadata,
					struct nlmsghdr *nh, void *arg),
			   void *arg)
{
	struct nlmsghdr *nh;
	int done = 0;
	ssize_t n;

	while (!done) {
		n = nl_recv(fd, buf, size, 0);
		ASSERT_GT(n, 0);
		for (nh = (struct nlmsghdr *)buf; NLMSG_OK(nh, n);
		     nh = NLMSG_NEXT(nh, n)) {
			if (nh->nlmsg_type == NLMSG_DONE) {
				EXPECT_EQ(*(int *)NLMSG_DATA(nh), 0);
				done = 1;
				break;
			}
			ASSERT_EQ(nh->nlmsg_type, GENL_ID_CTRL);
			each(_metadata, nh, arg);
		}
	}
}

/* What getpolicy_for_one_op counted: [0] ops, [1] attributes. */
static void one_op_policy(struct __test_metadata *_metadata,
			  struct nlmsghdr *nh, void *arg)
{
	int *count = arg;
	struct nlattr *a;

	a = genl_attr(nh, CTRL_ATTR_OP_POLICY);
	if (a) {
		a = ATTR_DATA(a);
		count[0]++;
		EXPECT_EQ(a->nla_type & NLA_TYPE_MASK, CMD_NOTIFY);
		a = nest_attr(a, CTRL_ATTR_POLICY_DO);
		ASSERT_NE(a, NULL);
		EXPECT_EQ(ATTR_U32(a), 0);
		return;
	}
	a = genl_attr(nh, CTRL_ATTR_POLICY);
	ASSERT_NE(a, NULL);
	a = ATTR_DATA(a);
	EXPECT_EQ(a->nla_type & NLA_TYPE_MASK, 0);
	a = ATTR_DATA(a);
	EXPECT_EQ(a->nla_type & NLA_TYPE_MASK, A_COUNT);
	count[1]++;
}

/*
 * One op only (CTRL_ATTR_OP = NOTIFY): that op with policy 0 and that
 * policy's one attribute, nothing of the other ops.
 */
TEST_F(fam, getpolicy_for_one_op)
{
	__u32 op = CMD_NOTIFY;
	__u16 fam = self->f.id;
	int count[2] = {};

	genl_req(&self->r, CTRL_CMD_GETPOLICY, NLM_F_ACK | NLM_F_DUMP);
	req_attr(&self->r, CTRL_ATTR_FAMILY_ID, &fam, sizeof(fam));
	req_attr(&self->r, CTRL_ATTR_OP, &op, sizeof(op));
	ASSERT_EQ(nl_send(self->fd, &self->r), 0);
	ctrl_dump_each(_metadata, self->fd, self->buf, sizeof(self->buf),
		       one_op_policy, count);
	EXPECT_EQ(count[0], 1);
	EXPECT_EQ(count[1], 1);
}

/* Counts the messages of a GETPOLICY dump that give an op's policies. */
static void count_op_policies(struct __test_metadata *_metadata,
			      struct nlmsghdr *nh, void *arg)
{
	if (genl_attr(nh, CTRL_ATTR_OP_POLICY))
		(*(int *)arg)++;
}

/*
 * "genetlink: pin family module during policy dump" (6.1.191; Debian
 * 6.1.192-1): a CTRL_CMD_GETPOLICY dump of a family holds the family's
 * module from its start until it ends, so the module cannot go while
 * the dump still walks its policies. A dump not yet read: refcnt 1 and
 * delete_module(O_NONBLOCK) EWOULDBLOCK; read to NLMSG_DONE (six
 * ops): 0 again. A start that fails (an op the family lacks, ENOENT)
 * leaves it at 0. 6.1.170-3 takes no reference (nlctrl's own module,
 * built in, is the dump's): refcnt stays 0 and the module unloads
 * under the dump, whose next part then reads freed policies; the case
 * closes the socket unread then (the done callback frees only the
 * dump's own state) and the next case loads the module again.
 */
TEST_F(fam, getpolicy_dump_pins_the_family_module)
{
	int fd = nl_open(NETLINK_GENERIC), msgs = 0, ret;
	__u32 op = 99;

	ASSERT_GE(fd, 0);
	EXPECT_EQ(module_refcnt(), 0);
	genl_req(&self->r, CTRL_CMD_GETPOLICY, NLM_F_DUMP);
	req_attr(&self->r, CTRL_ATTR_FAMILY_ID, &self->f.id,
		 sizeof(self->f.id));
	ASSERT_EQ(nl_send(fd, &self->r), 0);
	EXPECT_EQ(module_refcnt(), 1) TH_LOG("the policy dump holds it");
	ret = syscall(__NR_delete_module, MODULE, O_NONBLOCK);
	EXPECT_EQ(ret, -1);
	if (!ret) {
		close(fd);
		return;
	}
	EXPECT_EQ(errno, EWOULDBLOCK);
	ctrl_dump_each(_metadata, fd, self->buf, sizeof(self->buf),
		       count_op_policies, &msgs);
	EXPECT_EQ(msgs, 6);
	EXPECT_EQ(module_refcnt(), 0);

	genl_req(&self->r, CTRL_CMD_GETPOLICY, NLM_F_DUMP);
	req_attr(&self->r, CTRL_ATTR_FAMILY_ID, &self->f.id,
		 sizeof(self->f.id));
	req_attr(&self->r, CTRL_ATTR_OP, &op, sizeof(op));
	EXPECT_EQ(transact(fd, &self->r, self->buf, sizeof(self->buf)),
		  -ENOENT);
	EXPECT_EQ(module_refcnt(), 0);
	close(fd);
}

/*
 * GETPOLICY's start: a family by name works as by id; no family is
 * EINVAL, an unknown name or id ENOENT, an op the family lacks ENOENT.
 * These are answered by NLMSG_ERROR, not NLMSG_DONE: the dump never
 * starts. Pinned to 6.1.192: the unknown op's error has no extended
 * ACK (no OFFS), although ctrl_dumppolicy_start() marks CTRL_ATTR_OP
 * with NL_SET_BAD_ATTR(): cb->extack is NULL while a dump's start
 * runs (__netlink_dump_start() clears the callback, netlink_dump() sets
 * cb->extack only around the dump itself).
 */
TEST_F(fam, getpolicy_errors)
{
	struct nlmsghdr *nh = (struct nlmsghdr *)self->buf;
	__u16 none = 0xfff0;
	__u32 op = 99;
	int msgs = 0;

	ASSERT_EQ(set_opt(self->fd, NETLINK_EXT_ACK, 1), 0);

	/* by name: the same ops as by id (getpolicy_reports_...) */
	ASSERT_EQ(ctrl_send(self->fd, &self->r, CTRL_CMD_GETPOLICY,
			    NLM_F_DUMP, FAMILY), 0);
	ctrl_dump_each(_metadata, self->fd, self->buf, sizeof(self->buf),
		       count_op_policies, &msgs);
	EXPECT_EQ(msgs, 6) TH_LOG("one message per op");

	genl_req(&self->r, CTRL_CMD_GETPOLICY, NLM_F_DUMP);
	EXPECT_EQ(transact(self->fd, &self->r, self->buf, sizeof(self->buf)),
		  -EINVAL);
	ASSERT_EQ(ctrl_send(self->fd, &self->r, CTRL_CMD_GETPOLICY,
			    NLM_F_DUMP, "kconform-none"), 0);
	ASSERT_GT(nl_recv(self->fd, self->buf, sizeof(self->buf), 0), 0);
	ASSERT_EQ(nh->nlmsg_type, NLMSG_ERROR);
	EXPECT_EQ(((struct nlmsgerr *)NLMSG_DATA(nh))->error, -ENOENT);
	genl_req(&self->r, CTRL_CMD_GETPOLICY, NLM_F_DUMP);
	req_attr(&self->r, CTRL_ATTR_FAMILY_ID, &none, sizeof(none));
	EXPECT_EQ(transact(self->fd, &self->r, self->buf, sizeof(self->buf)),
		  -ENOENT);

	genl_req(&self->r, CTRL_CMD_GETPOLICY, NLM_F_DUMP);
	req_attr(&self->r, CTRL_ATTR_FAMILY_ID, &self->f.id,
		 sizeof(self->f.id));
	req_attr(&self->r, CTRL_ATTR_OP, &op, sizeof(op));
	ASSERT_EQ(transact(self->fd, &self->r, self->buf, sizeof(self->buf)),
		  -ENOENT);
	EXPECT_EQ(nh->nlmsg_flags & NLM_F_ACK_TLVS, 0);
	EXPECT_EQ(ack_tlv(nh, NLMSGERR_ATTR_OFFS), NULL);
}

/*
 * A family without netnsok (test_genetlink, as every family that does
 * not set it) exists in the initial network namespace only: in another
 * one GETFAMILY by name or id is ENOENT and a dump leaves it out, while
 * nlctrl (netnsok) is there.
 */
TEST_F(fam, family_without_netnsok_is_absent_in_other_netns)
{
	struct nlmsghdr *nh = (struct nlmsghdr *)self->buf;
	int fd, ours = 0, ctrl = 0, done = 0;
	struct nlattr *a;
	ssize_t n;

	ASSERT_EQ(unshare(CLONE_NEWNET), 0);
	fd = nl_open(NETLINK_GENERIC);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(getfamily(fd, FAMILY, self->buf, sizeof(self->buf)),
		  -ENOENT);
	genl_req(&self->r, CTRL_CMD_GETFAMILY, 0);
	req_attr(&self->r, CTRL_ATTR_FAMILY_ID, &self->f.id,
		 sizeof(self->f.id));
	EXPECT_EQ(transact(fd, &self->r, self->buf, sizeof(self->buf)),
		  -ENOENT);
	EXPECT_EQ(getfamily(fd, "nlctrl", self->buf, sizeof(self->buf)), 0);

	genl_req(&self->r, CTRL_CMD_GETFAMILY, NLM_F_DUMP);
	ASSERT_EQ(nl_send(fd, &self->r), 0);
	while (!done) {
		n = nl_recv(fd, self->buf, sizeof(self->buf), 0);
		ASSERT_GT(n, 0);
		for (nh = (struct nlmsghdr *)self->buf; NLMSG_OK(nh, n);
		     nh = NLMSG_NEXT(nh, n)) {
			if (nh->nlmsg_type == NLMSG_DONE) {
				done = 1;
				break;
			}
			a = genl_attr(nh, CTRL_ATTR_FAMILY_NAME);
			ASSERT_NE(a, NULL);
			ours += !strcmp(ATTR_DATA(a), FAMILY);
			ctrl += !strcmp(ATTR_DATA(a), "nlctrl");
		}
	}
	EXPECT_EQ(ours, 0);
	EXPECT_EQ(ctrl, 1);
	close(fd);
}

/* -------- Extended ACK -------- */

/* An ECHO with @id; returns the offset of A_ID. */
static int echo_req(struct req *r, __u16 fam, __u16 flags, __u32 id)
{
	genl_req_to(r, fam, CMD_ECHO, flags);
	return req_attr(r, A_ID, &id, sizeof(id));
}

/* Without NETLINK_EXT_ACK: the error and the echoed request, no TLVs. */
TEST_F(fam, no_ext_ack_no_tlvs)
{
	struct nlmsghdr *nh = (struct nlmsghdr *)self->buf;
	struct nlmsgerr *e = NLMSG_DATA(nh);

	echo_req(&self->r, self->f.id, NLM_F_ACK, 1001);
	ASSERT_EQ(transact(self->fd, &self->r, self->buf, sizeof(self->buf)),
		  -ERANGE);
	EXPECT_EQ(nh->nlmsg_flags & NLM_F_ACK_TLVS, 0);
	EXPECT_EQ(nh->nlmsg_len, NLMSG_HDRLEN + sizeof(*e) - sizeof(e->msg) +
		  NLMSG_ALIGN(self->r.nh.nlmsg_len));
}

/*
 * A value out of range, unsigned and signed: -ERANGE, the message,
 * NLMSGERR_ATTR_OFFS at the attribute and NLMSGERR_ATTR_POLICY with its
 * type and range.
 */
/* The extended ACK of @nh says @msg and points at the attribute at @offs. */
static void expect_ext_ack(struct __test_metadata *_metadata,
			   struct nlmsghdr *nh, const char *msg, __u32 offs)
{
	struct nlattr *a = ack_tlv(nh, NLMSGERR_ATTR_MSG);

	ASSERT_NE(a, NULL);
	EXPECT_STREQ((char *)ATTR_DATA(a), msg);
	a = ack_tlv(nh, NLMSGERR_ATTR_OFFS);
	ASSERT_NE(a, NULL);
	EXPECT_EQ(ATTR_U32(a), offs);
}

TEST_F(fam, range_violation_names_attribute_and_policy)
{
	struct nlmsghdr *nh = (struct nlmsghdr *)self->buf;
	struct nlattr *a, *pol;
	__s16 off = -101;
	int at;

	ASSERT_EQ(set_opt(self->fd, NETLINK_EXT_ACK, 1), 0);
	at = echo_req(&self->r, self->f.id, NLM_F_ACK, 1001);
	ASSERT_EQ(transact(self->fd, &self->r, self->buf, sizeof(self->buf)),
		  -ERANGE);
	EXPECT_EQ(nh->nlmsg_flags & NLM_F_ACK_TLVS, NLM_F_ACK_TLVS);
	expect_ext_ack(_metadata, nh, "integer out of range", at);
	pol = ack_tlv(nh, NLMSGERR_ATTR_POLICY);
	ASSERT_NE(pol, NULL);
	a = nest_attr(pol, NL_POLICY_TYPE_ATTR_TYPE);
	ASSERT_NE(a, NULL);
	EXPECT_EQ(ATTR_U32(a), NL_ATTR_TYPE_U32);
	a = nest_attr(pol, NL_POLICY_TYPE_ATTR_MIN_VALUE_U);
	ASSERT_NE(a, NULL);
	EXPECT_EQ(*(__u64 *)ATTR_DATA(a), 1);
	a = nest_attr(pol, NL_POLICY_TYPE_ATTR_MAX_VALUE_U);
	ASSERT_NE(a, NULL);
	EXPECT_EQ(*(__u64 *)ATTR_DATA(a), 1000);
	EXPECT_EQ(ack_tlv(nh, NLMSGERR_ATTR_MISS_TYPE), NULL);

	echo_req(&self->r, self->f.id, NLM_F_ACK, 1);
	at = req_attr(&self->r, A_OFFSET, &off, sizeof(off));
	ASSERT_EQ(transact(self->fd, &self->r, self->buf, sizeof(self->buf)),
		  -ERANGE);
	a = ack_tlv(nh, NLMSGERR_ATTR_OFFS);
	ASSERT_NE(a, NULL);
	EXPECT_EQ(ATTR_U32(a), at);
	pol = ack_tlv(nh, NLMSGERR_ATTR_POLICY);
	ASSERT_NE(pol, NULL);
	EXPECT_EQ(ATTR_U32(nest_attr(pol, NL_POLICY_TYPE_ATTR_TYPE)),
		  NL_ATTR_TYPE_S16);
	a = nest_attr(pol, NL_POLICY_TYPE_ATTR_MIN_VALUE_S);
	ASSERT_NE(a, NULL);
	EXPECT_EQ(*(__s64 *)ATTR_DATA(a), -100);
	a = nest_attr(pol, NL_POLICY_TYPE_ATTR_MAX_VALUE_S);
	ASSERT_NE(a, NULL);
	EXPECT_EQ(*(__s64 *)ATTR_DATA(a), 100);
}

/* A missing required attribute: NLMSGERR_ATTR_MISS_TYPE, no nest, no offset. */
TEST_F(fam, missing_attribute_gives_miss_type)
{
	struct nlmsghdr *nh = (struct nlmsghdr *)self->buf;
	struct nlattr *a;
	__u8 level = 12;

	ASSERT_EQ(set_opt(self->fd, NETLINK_EXT_ACK, 1), 0);
	genl_req_to(&self->r, self->f.id, CMD_ECHO, NLM_F_ACK);
	req_attr(&self->r, A_LEVEL, &level, sizeof(level));
	ASSERT_EQ(transact(self->fd, &self->r, self->buf, sizeof(self->buf)),
		  -EINVAL);
	EXPECT_EQ(nh->nlmsg_flags & NLM_F_ACK_TLVS, NLM_F_ACK_TLVS);
	a = ack_tlv(nh, NLMSGERR_ATTR_MISS_TYPE);
	ASSERT_NE(a, NULL);
	EXPECT_EQ(ATTR_U32(a), A_ID);
	EXPECT_EQ(ack_tlv(nh, NLMSGERR_ATTR_MISS_NEST), NULL);
	EXPECT_EQ(ack_tlv(nh, NLMSGERR_ATTR_OFFS), NULL);
}

/* Missing inside a nest: MISS_TYPE the nest's attribute, MISS_NEST its offset. */
TEST_F(fam, missing_attribute_in_nest_gives_miss_nest)
{
	struct nlmsghdr *nh = (struct nlmsghdr *)self->buf;
	struct nlattr *a;
	__u16 value = 5;
	int nest;

	ASSERT_EQ(set_opt(self->fd, NETLINK_EXT_ACK, 1), 0);
	echo_req(&self->r, self->f.id, NLM_F_ACK, 1);
	nest = req_nest_start(&self->r, A_NEST);
	req_attr(&self->r, NEST_A_VALUE, &value, sizeof(value));
	req_nest_end(&self->r, nest);
	ASSERT_EQ(transact(self->fd, &self->r, self->buf, sizeof(self->buf)),
		  -EINVAL);
	a = ack_tlv(nh, NLMSGERR_ATTR_MISS_TYPE);
	ASSERT_NE(a, NULL);
	EXPECT_EQ(ATTR_U32(a), NEST_A_KEY);
	a = ack_tlv(nh, NLMSGERR_ATTR_MISS_NEST);
	ASSERT_NE(a, NULL);
	EXPECT_EQ(ATTR_U32(a), nest);
}

/*
 * A success can carry a message, a warning: the ACK (error 0) has
 * NLM_F_ACK_TLVS and NLMSGERR_ATTR_MSG, nothing else; without
 * NETLINK_EXT_ACK the same request's ACK has none.
 */
TEST_F(fam, success_can_carry_a_warning)
{
	struct nlmsghdr *nh = (struct nlmsghdr *)self->buf;
	struct nlmsgerr *e = NLMSG_DATA(nh);
	struct nlattr *a;

	echo_req(&self->r, self->f.id, NLM_F_ACK, 1);
	req_attr(&self->r, A_WARN, NULL, 0);
	ASSERT_EQ(transact(self->fd, &self->r, self->buf, sizeof(self->buf)),
		  0);
	EXPECT_EQ(nh->nlmsg_flags & NLM_F_ACK_TLVS, 0);
	EXPECT_EQ(nh->nlmsg_len, NLMSG_HDRLEN + sizeof(*e));

	ASSERT_EQ(set_opt(self->fd, NETLINK_EXT_ACK, 1), 0);
	ASSERT_EQ(transact(self->fd, &self->r, self->buf, sizeof(self->buf)),
		  0);
	EXPECT_EQ(nh->nlmsg_flags & NLM_F_ACK_TLVS, NLM_F_ACK_TLVS);
	a = ack_tlv(nh, NLMSGERR_ATTR_MSG);
	ASSERT_NE(a, NULL);
	EXPECT_STREQ((char *)ATTR_DATA(a), "test_genetlink: a warning");
	EXPECT_EQ(ack_tlv(nh, NLMSGERR_ATTR_OFFS), NULL);
	EXPECT_EQ(ack_tlv(nh, NLMSGERR_ATTR_MISS_TYPE), NULL);
}

/* -------- NLMSG_ERROR and capped ACKs -------- */

/*
 * A success ACK never echoes the payload, so 6.1.192 marks it
 * NLM_F_CAPPED, with or without NETLINK_CAP_ACK (intro.rst's example
 * ACK shows the flag); it is the header and the request's header only.
 */
TEST_F(fam, success_ack_is_capped)
{
	struct nlmsghdr *nh = (struct nlmsghdr *)self->buf;
	struct nlmsgerr *e = NLMSG_DATA(nh);
	int cap;

	for (cap = 0; cap < 2; cap++) {
		ASSERT_EQ(set_opt(self->fd, NETLINK_CAP_ACK, cap), 0);
		echo_req(&self->r, self->f.id, NLM_F_ACK, 1);
		ASSERT_EQ(transact(self->fd, &self->r, self->buf,
				   sizeof(self->buf)), 0);
		EXPECT_EQ(nh->nlmsg_flags, NLM_F_CAPPED) TH_LOG("cap %d", cap);
		EXPECT_EQ(nh->nlmsg_len, NLMSG_HDRLEN + sizeof(*e));
		EXPECT_EQ(memcmp(&e->msg, &self->r.nh, sizeof(e->msg)), 0);
	}
}

/* NETLINK_CAP_ACK drops the echoed payload, not the extended ACK. */
TEST_F(fam, cap_ack_keeps_the_extended_ack)
{
	struct nlmsghdr *nh = (struct nlmsghdr *)self->buf;
	struct nlmsgerr *e = NLMSG_DATA(nh);
	struct nlattr *a;
	int at;

	ASSERT_EQ(set_opt(self->fd, NETLINK_CAP_ACK, 1), 0);
	ASSERT_EQ(set_opt(self->fd, NETLINK_EXT_ACK, 1), 0);
	at = echo_req(&self->r, self->f.id, NLM_F_ACK, 0);
	ASSERT_EQ(transact(self->fd, &self->r, self->buf, sizeof(self->buf)),
		  -ERANGE);
	EXPECT_EQ(nh->nlmsg_flags, NLM_F_CAPPED | NLM_F_ACK_TLVS);
	EXPECT_EQ(e->msg.nlmsg_len, self->r.nh.nlmsg_len);
	a = attr_find(e + 1, (char *)nh + nh->nlmsg_len, NLMSGERR_ATTR_OFFS);
	ASSERT_NE(a, NULL);
	EXPECT_EQ(ATTR_U32(a), at);
}

/* -------- Multicast notifications -------- */

/*
 * A socket to listen on: bound (port id chosen by the kernel). A socket
 * never bound nor used has port id 0, the port id the kernel's own
 * notifications are sent from, and netlink_broadcast() skips the
 * sender's port: it gets none (see unbound_listener_gets_nothing).
 */
static int nl_listener(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int fd = nl_open(NETLINK_GENERIC);

	if (fd >= 0 && bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		close(fd);
		return -1;
	}
	return fd;
}

/* The next message on @fd (waiting at most 2 s) into @buf, or NULL. */
static struct nlmsghdr *next_msg(int fd, char *buf, size_t size)
{
	struct timeval tv = { .tv_sec = 2 };

	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	return nl_recv(fd, buf, size, 0) > 0 ? (struct nlmsghdr *)buf : NULL;
}

/*
 * nlctrl's group "notify": unloading the module sends DELMCAST_GRP
 * ("events") then DELFAMILY; loading it, NEWFAMILY then NEWMCAST_GRP,
 * all with seq 0 and pid 0 and flags 0, and the NEWFAMILY carries the
 * same attributes as the GETFAMILY reply.
 */
TEST_F(fam, nlctrl_notifies_unload_and_load)
{
	static const __u8 want[] = {
		CTRL_CMD_DELMCAST_GRP, CTRL_CMD_DELFAMILY,
		CTRL_CMD_NEWFAMILY, CTRL_CMD_NEWMCAST_GRP,
	};
	char *reply = malloc(BUF_SIZE);
	int mon = nl_listener();
	struct nlmsghdr *nh;
	struct nlattr *a;
	__u32 notify;
	unsigned int i;

	ASSERT_NE(reply, NULL);
	ASSERT_GE(mon, 0);
	ASSERT_EQ(getfamily(self->fd, "nlctrl", self->buf, sizeof(self->buf)),
		  0);
	notify = group_id((struct nlmsghdr *)self->buf, "notify");
	ASSERT_EQ(notify, GENL_ID_CTRL);
	ASSERT_EQ(setsockopt(mon, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP,
			     &notify, sizeof(notify)), 0);
	ASSERT_EQ(module_load(0), 0);
	ASSERT_FALSE(module_loaded());
	ASSERT_EQ(module_load(1), 0);
	ASSERT_EQ(getfamily(self->fd, FAMILY, reply, BUF_SIZE), 0);
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		nh = next_msg(mon, self->buf, sizeof(self->buf));
		ASSERT_NE(nh, NULL) TH_LOG("notification %u", i);
		EXPECT_EQ(nh->nlmsg_type, GENL_ID_CTRL);
		EXPECT_EQ(nh->nlmsg_seq, 0);
		EXPECT_EQ(nh->nlmsg_pid, 0);
		EXPECT_EQ(nh->nlmsg_flags, 0);
		EXPECT_EQ(((struct genlmsghdr *)NLMSG_DATA(nh))->cmd, want[i])
			TH_LOG("notification %u", i);
		a = genl_attr(nh, CTRL_ATTR_FAMILY_NAME);
		ASSERT_NE(a, NULL);
		EXPECT_STREQ((char *)ATTR_DATA(a), FAMILY);
		if (want[i] == CTRL_CMD_NEWFAMILY) {
			struct nlmsghdr *r = (struct nlmsghdr *)reply;

			EXPECT_EQ(nh->nlmsg_len, r->nlmsg_len);
			EXPECT_EQ(memcmp(NLMSG_DATA(nh), NLMSG_DATA(r),
					 r->nlmsg_len - NLMSG_HDRLEN), 0);
		}
		if (want[i] == CTRL_CMD_NEWMCAST_GRP ||
		    want[i] == CTRL_CMD_DELMCAST_GRP) {
			a = genl_attr(nh, CTRL_ATTR_MCAST_GROUPS);
			ASSERT_NE(a, NULL);
			a = nest_attr(a, 1);
			ASSERT_NE(a, NULL);
			a = nest_attr(a, CTRL_ATTR_MCAST_GRP_NAME);
			ASSERT_NE(a, NULL);
			EXPECT_STREQ((char *)ATTR_DATA(a), "events");
		}
	}
	EXPECT_EQ(nl_recv(mon, self->buf, sizeof(self->buf), MSG_DONTWAIT),
		  -EAGAIN);
	close(mon);
	free(reply);
}

/*
 * The family's group: ADD and DEL arrive (seq 0, pid 0) at a member,
 * not at the requester; after NETLINK_DROP_MEMBERSHIP nothing does.
 */
TEST_F(fam, own_group_delivers_events_until_left)
{
	struct nlmsghdr *nh;
	int mon = nl_listener();

	ASSERT_GE(mon, 0);
	ASSERT_EQ(setsockopt(mon, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP,
			     &self->f.grp, sizeof(self->f.grp)), 0);
	ASSERT_EQ(list_op(self->fd, &self->f, CMD_ADD, 77), 0);
	ASSERT_EQ(list_op(self->fd, &self->f, CMD_DEL, 77), 0);
	nh = next_msg(mon, self->buf, sizeof(self->buf));
	ASSERT_NE(nh, NULL);
	EXPECT_EQ(nh->nlmsg_type, self->f.id);
	EXPECT_EQ(nh->nlmsg_seq, 0);
	EXPECT_EQ(nh->nlmsg_pid, 0);
	EXPECT_EQ(((struct genlmsghdr *)NLMSG_DATA(nh))->cmd, CMD_ADD);
	ASSERT_NE(genl_attr(nh, A_ID), NULL);
	EXPECT_EQ(ATTR_U32(genl_attr(nh, A_ID)), 77);
	nh = next_msg(mon, self->buf, sizeof(self->buf));
	ASSERT_NE(nh, NULL);
	EXPECT_EQ(((struct genlmsghdr *)NLMSG_DATA(nh))->cmd, CMD_DEL);
	EXPECT_EQ(nl_recv(self->fd, self->buf, sizeof(self->buf),
			  MSG_DONTWAIT), -EAGAIN);

	ASSERT_EQ(setsockopt(mon, SOL_NETLINK, NETLINK_DROP_MEMBERSHIP,
			     &self->f.grp, sizeof(self->f.grp)), 0);
	ASSERT_EQ(list_op(self->fd, &self->f, CMD_ADD, 78), 0);
	EXPECT_EQ(nl_recv(mon, self->buf, sizeof(self->buf), MSG_DONTWAIT),
		  -EAGAIN);
	close(mon);
}

/*
 * intro.rst's snippet joins a group with setsockopt() alone. A socket
 * that has never been bound nor sent anything has port id 0, and 6.1.192
 * delivers no notification to it (do_one_broadcast() skips the port id
 * of the sender, 0 for the kernel); bound, the same socket gets them.
 */
TEST_F(fam, unbound_listener_gets_nothing)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	socklen_t len = sizeof(sa);
	int mon = nl_open(NETLINK_GENERIC);
	struct nlmsghdr *nh;

	ASSERT_GE(mon, 0);
	ASSERT_EQ(setsockopt(mon, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP,
			     &self->f.grp, sizeof(self->f.grp)), 0);
	ASSERT_EQ(getsockname(mon, (struct sockaddr *)&sa, &len), 0);
	EXPECT_EQ(sa.nl_pid, 0);
	ASSERT_EQ(list_op(self->fd, &self->f, CMD_ADD, 79), 0);
	EXPECT_EQ(nl_recv(mon, self->buf, sizeof(self->buf), MSG_DONTWAIT),
		  -EAGAIN);
	sa.nl_pid = 0;
	ASSERT_EQ(bind(mon, (struct sockaddr *)&sa, sizeof(sa)), 0);
	ASSERT_EQ(list_op(self->fd, &self->f, CMD_DEL, 79), 0);
	nh = next_msg(mon, self->buf, sizeof(self->buf));
	ASSERT_NE(nh, NULL);
	EXPECT_EQ(((struct genlmsghdr *)NLMSG_DATA(nh))->cmd, CMD_DEL);
	close(mon);
}

/*
 * A member that does not read: 1000 events overrun its receive buffer;
 * reading gets what was queued and ENOBUFS once, and the next event
 * after that arrives whole.
 */
TEST_F(fam, overrun_gives_enobufs_and_goes_on)
{
	struct nlmsghdr *nh = (struct nlmsghdr *)self->buf;
	int mon = nl_listener(), rcvbuf = 4096, got = 0, enobufs = 0;
	__u32 count = 1000;
	ssize_t n;

	ASSERT_GE(mon, 0);
	ASSERT_EQ(setsockopt(mon, SOL_SOCKET, SO_RCVBUF, &rcvbuf,
			     sizeof(rcvbuf)), 0);
	ASSERT_EQ(setsockopt(mon, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP,
			     &self->f.grp, sizeof(self->f.grp)), 0);
	genl_req_to(&self->r, self->f.id, CMD_NOTIFY, NLM_F_ACK);
	req_attr(&self->r, A_COUNT, &count, sizeof(count));
	ASSERT_EQ(transact(self->fd, &self->r, self->buf, sizeof(self->buf)),
		  0);
	for (;;) {
		n = nl_recv(mon, self->buf, sizeof(self->buf), MSG_DONTWAIT);
		if (n == -ENOBUFS) {
			enobufs++;
			continue;
		}
		if (n < 0)
			break;
		got++;
	}
	EXPECT_EQ(n, -EAGAIN);
	EXPECT_EQ(enobufs, 1);
	EXPECT_GT(got, 0);
	EXPECT_LT(got, 1000);

	count = 1;
	genl_req_to(&self->r, self->f.id, CMD_NOTIFY, NLM_F_ACK);
	req_attr(&self->r, A_COUNT, &count, sizeof(count));
	ASSERT_EQ(transact(self->fd, &self->r, self->buf, sizeof(self->buf)),
		  0);
	nh = next_msg(mon, self->buf, sizeof(self->buf));
	ASSERT_NE(nh, NULL);
	EXPECT_EQ(((struct genlmsghdr *)NLMSG_DATA(nh))->cmd, CMD_NOTIFY);
	ASSERT_NE(genl_attr(nh, A_ID), NULL);
	EXPECT_EQ(ATTR_U32(genl_attr(nh, A_ID)), 1);
	close(mon);
}

/* -------- Bad input -------- */

/* The socket still answers: GETFAMILY of the family. */
static int still_answers(int fd)
{
	char buf[BUF_SIZE];

	return getfamily(fd, FAMILY, buf, sizeof(buf));
}

/*
 * Fewer bytes than a struct nlmsghdr, and an nlmsg_len past the end of
 * the datagram: 6.1.192's netlink_rcv_skb() drops both without an
 * answer (no NLMSG_ERROR, whatever NLM_F_ACK says; the "answered
 * with an error" is not what the kernel does), and goes on.
 */
TEST_F(fam, short_header_and_long_nlmsg_len_are_dropped)
{
	__u32 id = 1;

	echo_req(&self->r, self->f.id, NLM_F_ACK, id);
	ASSERT_EQ(send(self->fd, &self->r.nh, 8, 0), 8);
	EXPECT_EQ(nl_recv(self->fd, self->buf, sizeof(self->buf),
			  MSG_DONTWAIT), -EAGAIN);
	self->r.nh.nlmsg_len += 64;
	ASSERT_EQ(send(self->fd, &self->r.nh, self->r.nh.nlmsg_len - 64, 0),
		  self->r.nh.nlmsg_len - 64);
	EXPECT_EQ(nl_recv(self->fd, self->buf, sizeof(self->buf),
			  MSG_DONTWAIT), -EAGAIN);
	EXPECT_EQ(still_answers(self->fd), 0);
}

/*
 * Inside the nest, a complete KEY, then an attribute whose length runs
 * past the nest: the nest's parse has bytes left over, -EINVAL with that
 * message (no offset: NL_SET_ERR_MSG), where taking the KEY alone would
 * have made a valid request.
 */
TEST_F(fam, attribute_past_its_nest_is_einval)
{
	struct nlmsghdr *nh = (struct nlmsghdr *)self->buf;
	struct nlattr *last, *a;
	__u16 value = 5;
	__u32 key = 3;
	int nest;

	ASSERT_EQ(set_opt(self->fd, NETLINK_EXT_ACK, 1), 0);
	echo_req(&self->r, self->f.id, NLM_F_ACK, 1);
	nest = req_nest_start(&self->r, A_NEST);
	req_attr(&self->r, NEST_A_KEY, &key, sizeof(key));
	last = (struct nlattr *)((char *)&self->r.nh +
				 req_attr(&self->r, NEST_A_VALUE, &value,
					  sizeof(value)));
	req_nest_end(&self->r, nest);
	/* the nest's last attribute claims 8 bytes more than the nest has */
	last->nla_len += 8;
	ASSERT_EQ(transact(self->fd, &self->r, self->buf, sizeof(self->buf)),
		  -EINVAL);
	a = ack_tlv(nh, NLMSGERR_ATTR_MSG);
	ASSERT_NE(a, NULL);
	EXPECT_STREQ((char *)ATTR_DATA(a),
		     "bytes leftover after parsing attributes");
	EXPECT_EQ(ack_tlv(nh, NLMSGERR_ATTR_OFFS), NULL);
	EXPECT_EQ(still_answers(self->fd), 0);
}

/*
 * A nest sent without NLA_F_NESTED, and NLA_F_NESTED on a u32: strict
 * validation refuses both, -EINVAL, naming the attribute and its policy.
 */
TEST_F(fam, nest_of_wrong_type_is_einval)
{
	struct nlmsghdr *nh = (struct nlmsghdr *)self->buf;
	struct nlattr *a;
	__u32 key = 3, two = 2;
	int nest, at;

	ASSERT_EQ(set_opt(self->fd, NETLINK_EXT_ACK, 1), 0);
	echo_req(&self->r, self->f.id, NLM_F_ACK, 1);
	nest = req_attr(&self->r, A_NEST, NULL, 0);
	req_attr(&self->r, NEST_A_KEY, &key, sizeof(key));
	req_nest_end(&self->r, nest);
	ASSERT_EQ(transact(self->fd, &self->r, self->buf, sizeof(self->buf)),
		  -EINVAL);
	expect_ext_ack(_metadata, nh, "NLA_F_NESTED is missing", nest);
	a = ack_tlv(nh, NLMSGERR_ATTR_POLICY);
	ASSERT_NE(a, NULL);
	EXPECT_EQ(ATTR_U32(nest_attr(a, NL_POLICY_TYPE_ATTR_TYPE)),
		  NL_ATTR_TYPE_NESTED);

	genl_req_to(&self->r, self->f.id, CMD_ECHO, NLM_F_ACK);
	at = req_attr(&self->r, A_ID | NLA_F_NESTED, &two, sizeof(two));
	ASSERT_EQ(transact(self->fd, &self->r, self->buf, sizeof(self->buf)),
		  -EINVAL);
	expect_ext_ack(_metadata, nh, "NLA_F_NESTED not expected", at);
}

/*
 * A string the policy wants terminated (NLA_NUL_STRING), sent without
 * its NUL: -EINVAL at that attribute, with its policy (max length 15).
 * Terminated, it is echoed.
 */
TEST_F(fam, string_without_terminator_is_einval)
{
	struct nlmsghdr *nh = (struct nlmsghdr *)self->buf;
	struct nlattr *a;
	int at;

	ASSERT_EQ(set_opt(self->fd, NETLINK_EXT_ACK, 1), 0);
	echo_req(&self->r, self->f.id, NLM_F_ACK, 1);
	at = req_attr(&self->r, A_NAME, "kconform", 8);
	ASSERT_EQ(transact(self->fd, &self->r, self->buf, sizeof(self->buf)),
		  -EINVAL);
	expect_ext_ack(_metadata, nh, "Attribute failed policy validation", at);
	a = ack_tlv(nh, NLMSGERR_ATTR_POLICY);
	ASSERT_NE(a, NULL);
	EXPECT_EQ(ATTR_U32(nest_attr(a, NL_POLICY_TYPE_ATTR_TYPE)),
		  NL_ATTR_TYPE_NUL_STRING);
	ASSERT_NE(nest_attr(a, NL_POLICY_TYPE_ATTR_MAX_LENGTH), NULL);
	EXPECT_EQ(ATTR_U32(nest_attr(a, NL_POLICY_TYPE_ATTR_MAX_LENGTH)), 15);

	echo_req(&self->r, self->f.id, 0, 1);
	req_attr(&self->r, A_NAME, "kconform", 9);
	ASSERT_EQ(transact(self->fd, &self->r, self->buf, sizeof(self->buf)),
		  1);
	a = genl_attr(nh, A_NAME);
	ASSERT_NE(a, NULL);
	EXPECT_STREQ((char *)ATTR_DATA(a), "kconform");
}

static __u32 rng_state;

static __u32 rng(void)
{
	/* xorshift32: the same bytes on every run */
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 17;
	rng_state ^= rng_state << 5;
	return rng_state;
}

/*
 * 64 KiB of random bytes from a fixed seed: 64 requests to the family,
 * each a valid header (NLM_F_ACK, seq i) with a random command and 1000
 * random bytes of attributes, then one 64 KiB datagram of random bytes.
 * Each request gets exactly one NLMSG_ERROR with its seq and an error
 * the core or the family can give; the socket answers afterwards.
 */
TEST_F(fam, random_bytes_from_fixed_seed)
{
	static char dgram[65536];
	struct nlmsghdr *nh = (struct nlmsghdr *)self->buf;
	int i, j, acks = 0, errors[6] = {};

	rng_state = 0x4b434f4e;
	for (i = 0; i < 64; i++) {
		ssize_t n;
		int done = 0;

		genl_req_to(&self->r, self->f.id, rng() % 8, NLM_F_ACK);
		self->r.nh.nlmsg_seq = i;
		for (j = 0; j < 1000; j++)
			self->r.body[GENL_HDRLEN + j] = rng();
		self->r.nh.nlmsg_len = NLMSG_HDRLEN + GENL_HDRLEN + 1000;
		ASSERT_EQ(nl_send(self->fd, &self->r), 0);
		while (!done) {
			n = nl_recv(self->fd, self->buf, sizeof(self->buf), 0);
			ASSERT_GT(n, 0);
			if (nh->nlmsg_type != NLMSG_ERROR)
				continue;
			ASSERT_EQ(nh->nlmsg_seq, i);
			switch (((struct nlmsgerr *)NLMSG_DATA(nh))->error) {
			case 0:
				errors[0]++;
				break;
			case -EINVAL:
				errors[1]++;
				break;
			case -ERANGE:
				errors[2]++;
				break;
			case -EOPNOTSUPP:
				errors[3]++;
				break;
			default:
				errors[5]++;
				TH_LOG("request %d: error %d", i,
				       ((struct nlmsgerr *)NLMSG_DATA(nh))->error);
			}
			acks++;
			done = 1;
		}
	}
	EXPECT_EQ(acks, 64);
	EXPECT_EQ(errors[5], 0);
	EXPECT_EQ(errors[0] + errors[1] + errors[2] + errors[3], 64);
	EXPECT_GT(errors[1] + errors[2], 0);
	EXPECT_EQ(nl_recv(self->fd, self->buf, sizeof(self->buf),
			  MSG_DONTWAIT), -EAGAIN);

	for (i = 0; i < (int)sizeof(dgram); i++)
		dgram[i] = rng();
	ASSERT_EQ(send(self->fd, dgram, sizeof(dgram), 0), sizeof(dgram));
	while (nl_recv(self->fd, self->buf, sizeof(self->buf),
		       MSG_DONTWAIT) > 0)
		;
	EXPECT_EQ(still_answers(self->fd), 0);
}

/* -------- A real client: Debian's iproute2 genl -------- */

/*
 * `genl ctrl get name test_genetlink` prints the id, version, max
 * attribute, each op with its flags, and the group with its id, as the
 * raw GETFAMILY found them; `genl ctrl list` lists it with nlctrl.
 */
TEST_F(fam, iproute2_genl_prints_what_getfamily_found)
{
	static const int flags[] = { 0, 0xa, 0xb, 0xb, 0xc, 0xa, 0xa };
	char cmd[PATH_MAX * 2], *out = malloc(65536), want[128];
	int i;

	ASSERT_NE(out, NULL);
	snprintf(cmd, sizeof(cmd), "%s ctrl get name " FAMILY " 2>&1",
		 here("genl"));
	ASSERT_EQ(capture(cmd, out, 65536), 0) TH_LOG("%s", out);
	EXPECT_NE(strstr(out, "Name: " FAMILY "\n"), NULL) TH_LOG("%s", out);
	snprintf(want, sizeof(want),
		 "ID: 0x%x  Version: 0x2  header size: 0  max attribs: %d ",
		 self->f.id, A_MAX);
	EXPECT_NE(strstr(out, want), NULL)
		TH_LOG("want '%s' in:\n%s", want, out);
	/*
	 * iproute2 ends each op's line with a space, and prints the flags
	 * only for a family of version 2 or later (hence the module's 2)
	 */
	for (i = 1; i <= 6; i++) {
		snprintf(want, sizeof(want),
			 "#%d:  ID-0x%x %c\t\tCapabilities (0x%x):", i, i, '\n',
			 flags[i]);
		EXPECT_NE(strstr(out, want), NULL)
			TH_LOG("want '%s' in:\n%s", want, out);
	}
	EXPECT_NE(strstr(out, "requires admin permission"), NULL);
	snprintf(want, sizeof(want), "#1:  ID-0x%x  name: events", self->f.grp);
	EXPECT_NE(strstr(out, want), NULL)
		TH_LOG("want '%s' in:\n%s", want, out);

	snprintf(cmd, sizeof(cmd), "%s ctrl list 2>&1", here("genl"));
	ASSERT_EQ(capture(cmd, out, 65536), 0) TH_LOG("%s", out);
	/* nlctrl's max attribute is 0: its policies are per op */
	snprintf(want, sizeof(want),
		 "Name: nlctrl\n\tID: 0x%x  Version: 0x2  header size: 0  max attribs: %d ",
		 GENL_ID_CTRL, 0);
	EXPECT_NE(strstr(out, want), NULL)
		TH_LOG("want '%s' in:\n%s", want, out);
	snprintf(want, sizeof(want), "Name: " FAMILY "\n\tID: 0x%x  Version: 0x2",
		 self->f.id);
	EXPECT_NE(strstr(out, want), NULL)
		TH_LOG("want '%s' in:\n%s", want, out);
	free(out);
}

TEST_HARNESS_MAIN
