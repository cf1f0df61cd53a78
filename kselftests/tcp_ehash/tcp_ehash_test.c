// SPDX-License-Identifier: GPL-2.0
/*
 * Conformance tests for the optional per-netns TCP established hash table
 * (net.ipv4.tcp_child_ehash_entries / net.ipv4.tcp_ehash_entries), as
 * documented in Documentation/networking/ip-sysctl.rst and introduced by
 * d1e5e6408b30 ("tcp: Introduce optional per-netns ehash.").
 *
 * Needs root (CAP_SYS_ADMIN for unshare()/setns(), CAP_NET_ADMIN for the
 * sysctls).  Every test runs in its own forked process, so the network
 * and mount namespaces it enters die with it.  The only global state
 * touched is the initial netns's tcp_child_ehash_entries, which the
 * fixture saves and restores, and a memory cgroup that is removed again.
 *
 * Where a test only needs "some parent with tcp_child_ehash_entries = N"
 * it first unshares into a throw-away netns and sets the knob there, so
 * a crashed test cannot leave the initial netns misconfigured.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "../kconform_fuzz.h"

#define CHILD_KNOB	"/proc/sys/net/ipv4/tcp_child_ehash_entries"
#define EHASH_KNOB	"/proc/sys/net/ipv4/tcp_ehash_entries"
#define TW_KNOB		"/proc/sys/net/ipv4/tcp_max_tw_buckets"
#define SYN_KNOB	"/proc/sys/net/ipv4/tcp_max_syn_backlog"

/* Upper bound of tcp_child_ehash_entries: 16Mi. */
#define EHASH_MAX	16777216L

/* tcp_set_hashinfo()'s pr_warn() for a 2^24 request (after "TCP: "). */
#define FALLBACK_MSG_2_24 \
	"Failed to allocate TCP ehash (entries: 16777216) for a netns, fallback to the global one"

/* Bytes per bucket: one struct hlist_nulls_head, i.e. one pointer. */
#define BUCKET_BYTES	((long)sizeof(void *))

static int read_fd_long(int fd, long *val)
{
	char buf[64];
	ssize_t len;
	char *end;

	len = pread(fd, buf, sizeof(buf) - 1, 0);
	if (len < 0)
		return -errno;
	buf[len] = '\0';
	errno = 0;
	*val = strtol(buf, &end, 10);
	if (errno || end == buf)
		return -EINVAL;
	return 0;
}

/* Read a sysctl as seen from the calling task's current netns. */
static int read_long(const char *path, long *val)
{
	int fd, ret;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	ret = read_fd_long(fd, val);
	close(fd);
	return ret;
}

/* Returns 0 or -errno of the failing open() or write(). */
static int write_fd_str(int fd, const char *s)
{
	ssize_t len = strlen(s);

	if (pwrite(fd, s, len, 0) != len)
		return -errno;
	return 0;
}

static int write_str(const char *path, const char *s)
{
	int fd, ret;

	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	ret = write_fd_str(fd, s);
	close(fd);
	return ret;
}

static int write_long(const char *path, long val)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%ld\n", val);
	return write_str(path, buf);
}

static long read_ok(struct __test_metadata *_metadata, const char *path)
{
	long val = 0;

	ASSERT_EQ(read_long(path, &val), 0) TH_LOG("reading %s", path);
	return val;
}

static void enter_new_netns(struct __test_metadata *_metadata)
{
	ASSERT_EQ(unshare(CLONE_NEWNET), 0) TH_LOG("unshare: %s", strerror(errno));
}

/*
 * Enter a new netns created by a parent netns whose
 * tcp_child_ehash_entries is @entries.  The parent is itself a fresh
 * netns, so nothing outside this process is changed.
 */
static void enter_netns_from_parent_with(struct __test_metadata *_metadata,
					 long entries)
{
	enter_new_netns(_metadata);
	ASSERT_EQ(write_long(CHILD_KNOB, entries), 0);
	enter_new_netns(_metadata);
}

static long max_long(long a, long b)
{
	return a > b ? a : b;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* ---- /dev/kmsg ---------------------------------------------------------- */

/* Open /dev/kmsg positioned after every record logged so far. */
static int kmsg_open_at_end(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);

	if (fd >= 0 && lseek(fd, 0, SEEK_END) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Does any record logged since kmsg_open_at_end() contain @needle? */
static bool kmsg_contains(int fd, const char *needle)
{
	static char rec[8192];
	bool found = false;
	ssize_t len;

	for (;;) {
		len = read(fd, rec, sizeof(rec) - 1);
		if (len < 0 && errno == EPIPE)
			continue;	/* records were overwritten; go on */
		if (len <= 0)
			break;
		rec[len] = '\0';
		if (strstr(rec, needle))
			found = true;
	}
	return found;
}

/* ---- loopback TCP ----------------------------------------------------- */

static void lo_up(struct __test_metadata *_metadata)
{
	struct ifreq ifr = {};
	int fd;

	strcpy(ifr.ifr_name, "lo");
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(ioctl(fd, SIOCGIFFLAGS, &ifr), 0);
	ifr.ifr_flags |= IFF_UP;
	ASSERT_EQ(ioctl(fd, SIOCSIFFLAGS, &ifr), 0);
	close(fd);
}

/*
 * Run one short connection over 127.0.0.1 and close it from the client
 * first, so that the client end is left in TIME_WAIT.  Returns the
 * client's local port.
 */
static int tcp_connection_to_time_wait(struct __test_metadata *_metadata)
{
	struct sockaddr_in addr = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	socklen_t alen = sizeof(addr);
	int lfd, cfd, sfd;
	char c = 'x';

	lfd = socket(AF_INET, SOCK_STREAM, 0);
	ASSERT_GE(lfd, 0);
	ASSERT_EQ(bind(lfd, (struct sockaddr *)&addr, sizeof(addr)), 0);
	ASSERT_EQ(listen(lfd, 1), 0);
	ASSERT_EQ(getsockname(lfd, (struct sockaddr *)&addr, &alen), 0);

	cfd = socket(AF_INET, SOCK_STREAM, 0);
	ASSERT_GE(cfd, 0);
	ASSERT_EQ(connect(cfd, (struct sockaddr *)&addr, sizeof(addr)), 0)
		TH_LOG("connect: %s", strerror(errno));
	sfd = accept(lfd, NULL, NULL);
	ASSERT_GE(sfd, 0);

	/* Data flows both ways through the netns's own table. */
	ASSERT_EQ(send(cfd, &c, 1, 0), 1);
	ASSERT_EQ(recv(sfd, &c, 1, 0), 1);
	ASSERT_EQ(send(sfd, &c, 1, 0), 1);
	ASSERT_EQ(recv(cfd, &c, 1, 0), 1);

	alen = sizeof(addr);
	ASSERT_EQ(getsockname(cfd, (struct sockaddr *)&addr, &alen), 0);

	/* Active close on the client, then the server sees EOF and closes. */
	ASSERT_EQ(close(cfd), 0);
	ASSERT_EQ(recv(sfd, &c, 1, 0), 0);
	ASSERT_EQ(close(sfd), 0);
	ASSERT_EQ(close(lfd), 0);

	return ntohs(addr.sin_port);
}

/* The "tw" field of /proc/net/sockstat: tw_refcount - 1 of this netns. */
static int sockstat_tw(void)
{
	char line[256];
	int tw = -1;
	FILE *f;

	f = fopen("/proc/net/sockstat", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "TCP: inuse %*d orphan %*d tw %d", &tw) == 1)
			break;
	fclose(f);
	return tw;
}

/* Number of /proc/net/tcp rows in TIME_WAIT (st 06) with local @port. */
static int proc_net_tcp_time_wait(int port)
{
	unsigned int lport, st;
	char line[512];
	int n = 0;
	FILE *f;

	f = fopen("/proc/net/tcp", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, " %*d: %*x:%x %*x:%*x %x", &lport, &st) == 2 &&
		    st == 0x06 && lport == (unsigned int)port)
			n++;
	fclose(f);
	return n;
}

/* ---- cgroup v2 -------------------------------------------------------- */

static int cg_write(const char *dir, const char *file, const char *val)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	return write_str(path, val);
}

/* Value of "@key N" in a flat-keyed file such as memory.stat. */
static int cg_read_key(const char *dir, const char *file, const char *key,
		       long *val)
{
	char path[PATH_MAX], name[64];
	int ret = -ENOENT;
	long v;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	while (fscanf(f, "%63s %ld", name, &v) == 2) {
		if (!strcmp(name, key)) {
			*val = v;
			ret = 0;
			break;
		}
	}
	fclose(f);
	return ret;
}

/* Find a cgroup2 mount, or mount one in a private mount namespace. */
static const char *cg_find_root(char *buf, size_t size)
{
	char dev[64], dir[PATH_MAX], type[64];
	const char *ret = NULL;
	FILE *f;

	f = fopen("/proc/self/mounts", "r");
	if (f) {
		while (fscanf(f, "%63s %4095s %63s %*[^\n]", dev, dir, type) == 3) {
			if (!strcmp(type, "cgroup2") &&
			    snprintf(buf, size, "%s", dir) < (int)size) {
				ret = buf;
				break;
			}
		}
		fclose(f);
	}
	if (ret)
		return ret;

	/* The guest may not mount cgroup2; do it only for this process. */
	if (unshare(CLONE_NEWNS))
		return NULL;
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return NULL;
	if (mount("cgroup2", "/sys/fs/cgroup", "cgroup2", 0, NULL))
		return NULL;
	snprintf(buf, size, "/sys/fs/cgroup");
	return buf;
}

/* ---- fixture ---------------------------------------------------------- */

FIXTURE(ehash) {
	int init_netns;		/* the initial netns, for setns() */
	int init_knob;		/* its tcp_child_ehash_entries, opened there */
	long saved_knob;
	long global;		/* size of the global ehash */
	const char *skip;	/* 6.1: SKIP() in setup does not stop the body */
	char cg_root[256];	/* cgroup2 mount point */
	char cg_dir[512];	/* our memory cgroup below it */
};

FIXTURE_SETUP(ehash)
{
	self->init_netns = -1;
	self->init_knob = -1;

	if (geteuid()) {
		self->skip = "needs root";
		return;
	}
	self->init_knob = open(CHILD_KNOB, O_RDWR);
	if (self->init_knob < 0) {
		self->skip = "no " CHILD_KNOB " (kernel without per-netns ehash)";
		return;
	}
	ASSERT_EQ(read_fd_long(self->init_knob, &self->saved_knob), 0);
	self->init_netns = open("/proc/self/ns/net", O_RDONLY);
	ASSERT_GE(self->init_netns, 0);

	self->global = read_ok(_metadata, EHASH_KNOB);
	ASSERT_GT(self->global, 0);

	/*
	 * Tests assume a new netns created from here shares the global
	 * table.  Nothing below may fail: teardown only runs once setup
	 * has returned.
	 */
	if (write_fd_str(self->init_knob, "0\n"))
		self->skip = "cannot write " CHILD_KNOB;
}

FIXTURE_TEARDOWN(ehash)
{
	char buf[32];

	if (self->init_knob >= 0) {
		snprintf(buf, sizeof(buf), "%ld\n", self->saved_knob);
		EXPECT_EQ(write_fd_str(self->init_knob, buf), 0);
		close(self->init_knob);
	}
	if (self->cg_dir[0]) {
		/* Leave the test cgroup so that it can be removed. */
		snprintf(buf, sizeof(buf), "%d\n", getpid());
		cg_write(self->cg_root, "cgroup.procs", buf);
		EXPECT_EQ(rmdir(self->cg_dir), 0)
			TH_LOG("rmdir %s: %s", self->cg_dir, strerror(errno));
	}
	if (self->init_netns >= 0)
		close(self->init_netns);
}

/* FIXTURE_DATA(ehash) spelled out: checkpatch misreads the macro form. */
static void back_to_init_netns(struct __test_metadata *_metadata,
			       struct _test_data_ehash *self)
{
	ASSERT_EQ(setns(self->init_netns, CLONE_NEWNET), 0);
}

/*
 * Create a memory cgroup and move this process into it.  Returns false
 * (and leaves the reason in self->skip) if the memory controller is not
 * available.
 */
static bool memcg_enter(struct __test_metadata *_metadata,
			struct _test_data_ehash *self, const char *max)
{
	char controllers[256] = "";
	char path[PATH_MAX];
	char pid[32];
	FILE *f;

	if (!cg_find_root(self->cg_root, sizeof(self->cg_root))) {
		self->skip = "cannot mount cgroup2";
		return false;
	}
	snprintf(path, sizeof(path), "%s/cgroup.controllers", self->cg_root);
	f = fopen(path, "r");
	if (f) {
		if (!fgets(controllers, sizeof(controllers), f))
			controllers[0] = '\0';
		fclose(f);
	}
	if (!strstr(controllers, "memory")) {
		self->skip = "no memory controller (CONFIG_MEMCG, cgroup v2)";
		return false;
	}
	/* Root may already have it enabled; EBUSY etc. is not fatal here. */
	cg_write(self->cg_root, "cgroup.subtree_control", "+memory");

	snprintf(self->cg_dir, sizeof(self->cg_dir), "%s/kconform_tcp_ehash.%d",
		 self->cg_root, getpid());
	if (mkdir(self->cg_dir, 0755)) {
		self->cg_dir[0] = '\0';
		ASSERT_TRUE(false) TH_LOG("mkdir: %s", strerror(errno));
	}
	snprintf(path, sizeof(path), "%s/memory.max", self->cg_dir);
	if (access(path, F_OK)) {
		self->skip = "memory controller not enabled for child cgroups";
		return false;
	}
	ASSERT_EQ(cg_write(self->cg_dir, "memory.max", max), 0);
	snprintf(pid, sizeof(pid), "%d\n", getpid());
	ASSERT_EQ(cg_write(self->cg_dir, "cgroup.procs", pid), 0);
	return true;
}

/* ---- tests ------------------------------------------------------------ */

/*
 * ip-sysctl.rst: "Default: 0".  A new netns starts with 0 even when the
 * netns that created it has a non-zero value; only the table size, not
 * the knob, is inherited.
 */
TEST_F(ehash, child_knob_defaults_to_zero)
{
	if (self->skip)
		SKIP(return, "%s", self->skip);

	enter_netns_from_parent_with(_metadata, 1024);
	EXPECT_EQ(read_ok(_metadata, CHILD_KNOB), 0);
	/* It did use the parent's value for its own table. */
	EXPECT_EQ(read_ok(_metadata, EHASH_KNOB), 1024);
}

/*
 * The global table's size as the boot set it: thash_entries=N on the
 * command line (suites.toml gives the guest one), or 0 if there is none.
 */
static long boot_thash_entries(struct __test_metadata *_metadata)
{
	char line[4096], *p;
	unsigned long n;
	FILE *f;

	f = fopen("/proc/cmdline", "r");
	ASSERT_NE(NULL, f);
	ASSERT_NE(NULL, fgets(line, sizeof(line), f));
	fclose(f);
	line[strcspn(line, "\n")] = '\0';
	for (p = strtok(line, " "); p; p = strtok(NULL, " ")) {
		if (strncmp(p, "thash_entries=", 14))
			continue;
		errno = 0;
		n = strtoul(p + 14, NULL, 0);	/* kstrtoul(str, 0, ...) */
		ASSERT_EQ(0, errno);
		return n;
	}
	return 0;
}

static long roundup_pow2(long n)
{
	long r = 1;

	while (r < n)
		r <<= 1;
	return r;
}

/*
 * ip-sysctl.rst: tcp_ehash_entries shows "the number of hash buckets for
 * TCP sockets in the current networking namespace"; in the initial netns
 * that is the global table, so the value is its size, positive.  The
 * fixture only checked that it is positive.  The size is known without
 * the sysctl when the boot sets it: with thash_entries=N, tcp_init()
 * passes no limits and alloc_large_system_hash() allocates
 * roundup_pow_of_two(N) buckets (mm/page_alloc.c), which the boot log
 * also reports as "TCP established hash table entries: ...".
 */
TEST_F(ehash, ehash_entries_positive_in_init_netns)
{
	long thash;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	thash = boot_thash_entries(_metadata);
	if (!thash)
		SKIP(return, "no thash_entries= on the command line: the global size is not known");

	EXPECT_EQ(roundup_pow2(thash), self->global) TH_LOG("thash_entries=%ld", thash);
}

/*
 * A netns created while tcp_child_ehash_entries is 0 shares the global
 * table and reports its size negated.
 */
TEST_F(ehash, ehash_entries_negative_when_shared)
{
	if (self->skip)
		SKIP(return, "%s", self->skip);

	enter_new_netns(_metadata);
	EXPECT_EQ(read_ok(_metadata, EHASH_KNOB), -self->global);
}

/*
 * The example from the commit message: write 100 in the initial netns,
 * create a netns, and it owns 2^7 = 128 buckets.  The knob itself reads
 * back unrounded.
 */
TEST_F(ehash, child_table_rounded_up_to_power_of_two)
{
	static const struct {
		long written;
		long entries;
	} rows[] = {
		{ 1, 1 },
		{ 3, 4 },
		{ 100, 128 },
		{ 4096, 4096 },
		{ 4097, 8192 },
	};
	char buf[32];
	size_t i;

	if (self->skip)
		SKIP(return, "%s", self->skip);

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		back_to_init_netns(_metadata, self);
		snprintf(buf, sizeof(buf), "%ld\n", rows[i].written);
		ASSERT_EQ(write_fd_str(self->init_knob, buf), 0);
		EXPECT_EQ(read_ok(_metadata, CHILD_KNOB), rows[i].written);

		enter_new_netns(_metadata);
		EXPECT_EQ(read_ok(_metadata, EHASH_KNOB), rows[i].entries)
			TH_LOG("tcp_child_ehash_entries=%ld", rows[i].written);
	}
}

/*
 * The size comes from the knob of the netns the creating task is in at
 * unshare() time, not from the initial netns or from the creator's
 * original netns:
 *
 *   init (0) -> A (256) -> B (32) -> C        C owns 32
 *               A       -> D                  D owns 256 (setns back to A)
 *   init     -> E                             E shares the global table
 */
TEST_F(ehash, size_comes_from_current_netns)
{
	int a;

	if (self->skip)
		SKIP(return, "%s", self->skip);

	enter_new_netns(_metadata);			/* A */
	a = open("/proc/self/ns/net", O_RDONLY);
	ASSERT_GE(a, 0);
	EXPECT_EQ(read_ok(_metadata, EHASH_KNOB), -self->global);
	ASSERT_EQ(write_long(CHILD_KNOB, 256), 0);

	enter_new_netns(_metadata);			/* B */
	EXPECT_EQ(read_ok(_metadata, EHASH_KNOB), 256);
	ASSERT_EQ(write_long(CHILD_KNOB, 32), 0);

	enter_new_netns(_metadata);			/* C */
	EXPECT_EQ(read_ok(_metadata, EHASH_KNOB), 32);

	ASSERT_EQ(setns(a, CLONE_NEWNET), 0);
	enter_new_netns(_metadata);			/* D */
	EXPECT_EQ(read_ok(_metadata, EHASH_KNOB), 256);

	back_to_init_netns(_metadata, self);
	enter_new_netns(_metadata);			/* E */
	EXPECT_EQ(read_ok(_metadata, EHASH_KNOB), -self->global);
	close(a);
}

/*
 * tcp_ehash_entries is mode 0444.  proc_sys_permission() never lets
 * capabilities override a sysctl's mode (net_ctl_permissions() only
 * copies the owner bits to group/other for CAP_NET_ADMIN), so even root
 * gets EACCES from open(O_WRONLY), in the initial netns and in a child.
 */
TEST_F(ehash, ehash_entries_is_read_only)
{
	if (self->skip)
		SKIP(return, "%s", self->skip);

	EXPECT_EQ(open(EHASH_KNOB, O_WRONLY), -1);
	EXPECT_EQ(errno, EACCES);
	EXPECT_EQ(read_ok(_metadata, EHASH_KNOB), self->global);

	enter_netns_from_parent_with(_metadata, 64);
	EXPECT_EQ(open(EHASH_KNOB, O_WRONLY), -1);
	EXPECT_EQ(errno, EACCES);
	EXPECT_EQ(read_ok(_metadata, EHASH_KNOB), 64);
}

/*
 * proc_douintvec_minmax() with [0, 2^24]: an out-of-range or negative
 * value fails the write() with EINVAL and leaves the old value.
 */
TEST_F(ehash, child_knob_range)
{
	if (self->skip)
		SKIP(return, "%s", self->skip);

	/* In a throw-away netns; the range check is the same table entry. */
	enter_new_netns(_metadata);
	ASSERT_EQ(write_long(CHILD_KNOB, 7), 0);

	EXPECT_EQ(write_long(CHILD_KNOB, EHASH_MAX + 1), -EINVAL);
	EXPECT_EQ(read_ok(_metadata, CHILD_KNOB), 7);

	EXPECT_EQ(write_long(CHILD_KNOB, -1), -EINVAL);
	EXPECT_EQ(read_ok(_metadata, CHILD_KNOB), 7);

	EXPECT_EQ(write_long(CHILD_KNOB, EHASH_MAX), 0);
	EXPECT_EQ(read_ok(_metadata, CHILD_KNOB), EHASH_MAX);

	/* Do not create anything from this netns with 2^24 set. */
	EXPECT_EQ(write_long(CHILD_KNOB, 0), 0);
}

/*
 * tcp_max_tw_buckets = entries / 2 and tcp_max_syn_backlog =
 * max(128, entries / 128), for the table the netns ended up with.
 */
TEST_F(ehash, defaults_follow_table_size)
{
	static const long sizes[] = { 128, 16384, 65536 };
	size_t i;

	if (self->skip)
		SKIP(return, "%s", self->skip);

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		back_to_init_netns(_metadata, self);
		enter_netns_from_parent_with(_metadata, sizes[i]);
		ASSERT_EQ(read_ok(_metadata, EHASH_KNOB), sizes[i]);
		EXPECT_EQ(read_ok(_metadata, TW_KNOB), sizes[i] / 2);
		EXPECT_EQ(read_ok(_metadata, SYN_KNOB), max_long(128, sizes[i] / 128))
			TH_LOG("entries=%ld", sizes[i]);
	}

	/* A sharing netns derives both from the global size. */
	back_to_init_netns(_metadata, self);
	enter_new_netns(_metadata);
	EXPECT_EQ(read_ok(_metadata, TW_KNOB), self->global / 2);
	EXPECT_EQ(read_ok(_metadata, SYN_KNOB), max_long(128, self->global / 128));
}

/*
 * TCP works in a netns with its own table, its TIME_WAIT socket is
 * visible there, and destroying the netns purges it.
 *
 * A dead netns cannot be inspected, so the purge is observed through two
 * kernel-side facts: tcp_sk_exit_batch() calls tcp_twsk_purge() and then
 * frees the per-netns table, and it WARNs if tw_refcount is not back to 1
 * (that is, if any TIME_WAIT socket survived).  The table's buckets are
 * vmalloc()ed with GFP_KERNEL_ACCOUNT (inet_pernet_hashinfo_alloc()), so
 * they show up as "vmalloc" in the creator's memory.stat; the counter
 * dropping by the table size tells us the exit path ran, and /dev/kmsg
 * must then hold no tcp_sk_exit_batch warning.  (The WARN is _ONCE: an
 * earlier occurrence in the same boot would hide a new one.)
 */
TEST_F_TIMEOUT(ehash, time_wait_purged_with_netns, 120)
{
	const long entries = 65536;
	const long table = entries * BUCKET_BYTES;
	long before = 0, with = 0, after = 0;
	int kmsg, port, i;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	if (!memcg_enter(_metadata, self, "max"))
		SKIP(return, "%s", self->skip);
	kmsg = kmsg_open_at_end();
	ASSERT_GE(kmsg, 0);

	/* memory.stat is flushed lazily (up to ~2s); poll it. */
	ASSERT_EQ(cg_read_key(self->cg_dir, "memory.stat", "vmalloc", &before), 0);
	enter_netns_from_parent_with(_metadata, entries);
	ASSERT_EQ(read_ok(_metadata, EHASH_KNOB), entries);
	for (i = 0; i < 100; i++) {
		ASSERT_EQ(cg_read_key(self->cg_dir, "memory.stat", "vmalloc", &with), 0);
		if (with - before >= table)
			break;
		sleep_ms(100);
	}
	ASSERT_GE(with - before, table)
		TH_LOG("per-netns ehash not charged to the memcg (cgroup.memory=nokmem?)");

	lo_up(_metadata);
	port = tcp_connection_to_time_wait(_metadata);
	/*
	 * The orphaned client first becomes a timewait socket in FIN_WAIT2
	 * (st 05) and moves to TIME_WAIT (06) when the server's FIN lands.
	 */
	for (i = 0; i < 200; i++) {
		if (sockstat_tw() == 1 && proc_net_tcp_time_wait(port) == 1)
			break;
		sleep_ms(10);
	}
	EXPECT_EQ(sockstat_tw(), 1);
	EXPECT_EQ(proc_net_tcp_time_wait(port), 1);

	/* Drop the last reference to the netns (and its throw-away parent). */
	back_to_init_netns(_metadata, self);
	for (i = 0; i < 300; i++) {
		ASSERT_EQ(cg_read_key(self->cg_dir, "memory.stat", "vmalloc", &after), 0);
		if (with - after >= table)
			break;
		sleep_ms(100);
	}
	ASSERT_GE(with - after, table) TH_LOG("netns was not destroyed within 30s");

	sleep_ms(200);
	EXPECT_FALSE(kmsg_contains(kmsg, "tcp_sk_exit_batch"));
	close(kmsg);
}

/*
 * The fallback on allocation failure, for real: the creator sits in a
 * memory cgroup limited to 16 MiB and asks for 2^24 buckets (128 MiB).
 * Only the bucket array is charged (vmalloc_huge(GFP_KERNEL_ACCOUNT));
 * the kmemdup()ed hashinfo and the lock array are not, so they are not
 * what fails here.
 *
 * A charge failure in a GFP_KERNEL context first runs the memcg OOM
 * killer.  This process is the only member of the cgroup and sets
 * oom_score_adj to -1000, so the killer finds no victim, the charge
 * fails with -ENOMEM, vmalloc() fails and tcp_set_hashinfo() falls back
 * to the global table with "Failed to allocate TCP ehash".  The OOM
 * report and a "vmalloc error" warning in the log are expected.
 */
TEST_F_TIMEOUT(ehash, memcg_limit_falls_back_to_global, 120)
{
	long max_before = 0, max_after = 0;
	int kmsg;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	if (!memcg_enter(_metadata, self, "16777216"))
		SKIP(return, "%s", self->skip);
	ASSERT_EQ(write_str("/proc/self/oom_score_adj", "-1000\n"), 0);

	/* The limit leaves room for an ordinary per-netns table. */
	enter_netns_from_parent_with(_metadata, 1024);
	EXPECT_EQ(read_ok(_metadata, EHASH_KNOB), 1024);
	back_to_init_netns(_metadata, self);

	kmsg = kmsg_open_at_end();
	ASSERT_GE(kmsg, 0);
	ASSERT_EQ(cg_read_key(self->cg_dir, "memory.events", "max", &max_before), 0);

	enter_netns_from_parent_with(_metadata, EHASH_MAX);

	EXPECT_EQ(read_ok(_metadata, EHASH_KNOB), -self->global);
	EXPECT_EQ(read_ok(_metadata, TW_KNOB), self->global / 2);
	EXPECT_EQ(read_ok(_metadata, SYN_KNOB), max_long(128, self->global / 128));

	/* The limit, not global memory, is what refused the table. */
	ASSERT_EQ(cg_read_key(self->cg_dir, "memory.events", "max", &max_after), 0);
	EXPECT_GT(max_after, max_before);

	EXPECT_TRUE(kmsg_contains(kmsg, FALLBACK_MSG_2_24));
	close(kmsg);
}

/* ---- seeded bad input ------------------------------------------------- */

/* The kernel's isspace() (lib/ctype.c): Latin-1's NBSP (0xa0) is one. */
static bool k_isspace(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r') || c == 0xa0;
}

/* A digit of _parse_integer(): 0-9, and a-f/A-F (c | 0x20). */
static int k_digit(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
		return (c | 0x20) - 'a' + 10;
	return 99;
}

/*
 * What a write() of @len bytes at file offset @off does to
 * tcp_child_ehash_entries: proc_douintvec_minmax() with [0, 2^24], as
 * 6.1.192's do_proc_douintvec_w() and proc_get_long() parse it.  Returns
 * 1 and the new value in @val, 0 if the write succeeds and changes
 * nothing (an empty write; a write past offset 0, ignored under the
 * default kernel.sysctl_writes_strict = 1), or -EINVAL.
 */
static int knob_model(const unsigned char *buf, size_t len, long off,
		      unsigned long *val)
{
	size_t left = len, n, used;
	unsigned long long res = 0;
	unsigned char tmp[22];
	unsigned int base = 10;
	const unsigned char *p = buf, *q;
	int d;

	if (!len || off)
		return 0;
	if (left > 4095)
		left = 4095;	/* PAGE_SIZE - 1 */
	while (left && k_isspace(*p)) {
		p++;
		left--;
	}
	if (!left)
		return -EINVAL;
	n = left > 21 ? 21 : left;	/* TMPBUFLEN - 1 */
	memcpy(tmp, p, n);
	tmp[n] = '\0';
	q = tmp;
	if (*q == '-' || *q < '0' || *q > '9')
		return -EINVAL;		/* negative, or not a digit */
	if (q[0] == '0') {
		base = 8;
		if ((q[1] | 0x20) == 'x' && k_digit(q[2]) < 16) {
			base = 16;
			q += 2;
		}
	}
	for (; (d = k_digit(*q)) < (int)base; q++)
		if (__builtin_mul_overflow(res, base, &res) ||
		    __builtin_add_overflow(res, d, &res))
			return -EINVAL;
	used = q - tmp;
	if (used == 21)
		return -EINVAL;
	if (used < left && *q != ' ' && *q != '\t' && *q != '\n')
		return -EINVAL;
	if (res > EHASH_MAX)
		return -EINVAL;
	*val = res;
	return 1;
}

/* One random write for tcp_child_ehash_entries: returns its length. */
static size_t knob_input(struct kc_rng *r, unsigned char *buf, size_t size)
{
	static const char *const tails[] = {
		"", "\n", " ", "\t", "\r", "x", "\n7", " 9", "\0", "0", "\v",
	};
	static const char *const heads[] = {
		"", " ", "\t", "\n\n", "\xa0", "-", "+", "0x", "0X", "0", "00",
	};
	static const unsigned long long nums[] = {
		0, 1, 2, 3, 7, 100, 128, 4095, 4096, 4097, 65536,
		EHASH_MAX - 1, EHASH_MAX, EHASH_MAX + 1, 0xffffffffULL,
		0x100000000ULL, 0x7fffffffffffffffULL, 0xffffffffffffffffULL,
	};
	unsigned long long v;
	size_t len, i;

	switch (kc_below(r, 6)) {
	case 0:		/* random bytes */
		len = kc_below(r, 24);
		for (i = 0; i < len; i++)
			buf[i] = kc_below(r, 256);
		return len;
	case 1:		/* a long run of spaces, then a number */
		len = 4090 + kc_below(r, 12);
		if (len > size - 16)
			len = size - 16;
		memset(buf, ' ', len);
		return len + snprintf((char *)buf + len, 16, "%u", (unsigned int)kc_below(r, 99));
	case 2:		/* zero padding up to and past 21 digits */
		len = 15 + kc_below(r, 10);
		memset(buf, '0', len);
		return len + snprintf((char *)buf + len, 16, "%u", (unsigned int)kc_below(r, 999));
	default:	/* head, number in some base, tail */
		v = kc_chance(r, 50) ? kc_pick(r, nums) + kc_below(r, 3) - 1 :
				       kc_below(r, EHASH_MAX * 2);
		len = snprintf((char *)buf, size, "%s", kc_pick(r, heads));
		switch (kc_below(r, 3)) {
		case 0:
			len += snprintf((char *)buf + len, size - len, "%llu", v);
			break;
		case 1:
			len += snprintf((char *)buf + len, size - len, "%llx", v);
			break;
		default:
			len += snprintf((char *)buf + len, size - len, "%llo", v);
		}
		i = kc_below(r, ARRAY_SIZE(tails));
		/* "\0" is one byte long */
		memcpy(buf + len, tails[i], strlen(tails[i]) + !*tails[i]);
		return len + (*tails[i] ? strlen(tails[i]) : kc_below(r, 2));
	}
}

#define BAD_INPUT_ITERS	2500
#define BAD_INPUT_DEPTH	5

/*
 * Seeded bad input: random strings and numbers written to
 * tcp_child_ehash_entries from netns at random nesting depths, with
 * netns created and destroyed in between.  Every write returns what
 * proc_douintvec_minmax() documents (the whole length, or EINVAL, per
 * knob_model()), the knob then reads the model's value, every netns
 * created owns roundup_pow_of_two(knob) buckets or shares the global
 * table for 0, and the kernel is not tainted.  Depth 0 is a throw-away
 * netns: the initial netns's knob is never written.
 */
TEST_F_TIMEOUT(ehash, child_knob_seeded_bad_input, 300)
{
	static unsigned char buf[4200];
	unsigned long knob[BAD_INPUT_DEPTH], val = 0;
	int ns[BAD_INPUT_DEPTH], depth = 0, i, fd, want;
	long taint = kc_tainted(), got, off;
	struct kc_rng r;
	ssize_t ret;
	size_t len;

	kc_rng_init(&r, "tcp_ehash.child_knob_seeded_bad_input");
	if (self->skip)
		SKIP(return, "%s", self->skip);

	enter_new_netns(_metadata);
	ns[0] = open("/proc/self/ns/net", O_RDONLY);
	ASSERT_GE(ns[0], 0);
	knob[0] = 0;

	for (i = 0; i < BAD_INPUT_ITERS; i++) {
		switch (kc_below(&r, 10)) {
		case 0:		/* a child of the current netns */
			if (depth + 1 == BAD_INPUT_DEPTH)
				break;
			if (knob[depth] > 65536) {
				/* no 128 MiB tables under TCG */
				ASSERT_EQ(write_long(CHILD_KNOB, 512), 0);
				knob[depth] = 512;
			}
			enter_new_netns(_metadata);
			ns[++depth] = open("/proc/self/ns/net", O_RDONLY);
			ASSERT_GE(ns[depth], 0);
			knob[depth] = 0;
			EXPECT_EQ(read_ok(_metadata, EHASH_KNOB),
				  knob[depth - 1] ? roundup_pow2(knob[depth - 1]) :
						    -self->global)
				TH_LOG("iteration %d, depth %d", i, depth);
			EXPECT_EQ(read_ok(_metadata, CHILD_KNOB), 0);
			break;
		case 1:		/* back to a random depth: the ones below die */
			want = kc_below(&r, depth + 1);
			ASSERT_EQ(setns(ns[want], CLONE_NEWNET), 0);
			while (depth > want)
				close(ns[depth--]);
			EXPECT_EQ(read_ok(_metadata, CHILD_KNOB), knob[depth]);
			break;
		default:	/* a random write */
			len = knob_input(&r, buf, sizeof(buf));
			off = kc_chance(&r, 5) ? 1 + kc_below(&r, 8) : 0;
			want = knob_model(buf, len, off, &val);
			fd = open(CHILD_KNOB, O_WRONLY);
			ASSERT_GE(fd, 0);
			ret = pwrite(fd, buf, len, off);
			close(fd);
			if (want < 0) {
				EXPECT_EQ(ret, -1)
					TH_LOG("iteration %d: '%.*s' (%zu bytes) accepted",
					       i, (int)(len > 40 ? 40 : len), buf, len);
				EXPECT_EQ(errno, -want);
			} else {
				EXPECT_EQ(ret, (ssize_t)len)
					TH_LOG("iteration %d: '%.*s' (%zu bytes): %s", i,
					       (int)(len > 40 ? 40 : len), buf, len,
					       strerror(errno));
				if (want)
					knob[depth] = val;
			}
			got = read_ok(_metadata, CHILD_KNOB);
			EXPECT_EQ(got, (long)knob[depth]) TH_LOG("iteration %d", i);
			knob[depth] = got;
		}
		ASSERT_EQ(kc_tainted(), taint) TH_LOG("tainted at iteration %d", i);
		if (!kc_passed(_metadata))
			break;
	}
	while (depth >= 0)
		close(ns[depth--]);
	back_to_init_netns(_metadata, self);
	/* The feature still works: a table of its own from a fresh parent. */
	enter_netns_from_parent_with(_metadata, 256);
	EXPECT_EQ(read_ok(_metadata, EHASH_KNOB), 256);
}

/* ---- fault injection -------------------------------------------------- */

#define FAULT_ENTRIES	1024
#define FAULT_MAX_NTH	20000

/*
 * What a failed allocation in setup_net() makes unshare(CLONE_NEWNET)
 * return in 6.1.192.  unshare(2) documents ENOMEM; pernet init functions
 * pass on codes of their own for the same failure, and copy_net_ns()
 * returns them as they are: EEXIST (proc_net_ns_init(), when making
 * /proc/net/stat fails), ENOBUFS (sk_alloc() of a control socket),
 * EAFNOSUPPORT and ENODEV (control sockets and the loopback device), and
 * EINVAL.  Anything else fails the case.
 */
static bool unshare_alloc_errno(int err)
{
	return err == ENOMEM || err == EEXIST || err == ENOBUFS ||
	       err == EAFNOSUPPORT || err == ENODEV || err == EINVAL;
}

/* netns_alloc_fault_falls_back's attempts and what they gave. */
struct netns_fault {
	long global;	/* size of the global ehash */
	int parent;	/* the netns each attempt returns to */
	int kmsg;
	const char *msg;	/* the fallback's warning */
	long taint;
	int per_errno[256];
	int failed;
	int fallbacks;
};

static int netns_fault_call(void *arg)
{
	return unshare(CLONE_NEWNET) ? -errno : 0;
}

static void netns_fault_check(struct __test_metadata *_metadata, void *arg,
			      int n, int ret, long left)
{
	struct netns_fault *nf = arg;
	int err = -ret;
	long got;

	if (ret) {
		EXPECT_TRUE(unshare_alloc_errno(err))
			TH_LOG("n = %d: %s", n, strerror(err));
		EXPECT_EQ(left, 0);
		nf->per_errno[err & 255]++;
		nf->failed++;
		return;
	}
	got = read_ok(_metadata, EHASH_KNOB);
	if (got == -nf->global) {
		nf->fallbacks++;
		EXPECT_EQ(left, 0);
		EXPECT_EQ(read_ok(_metadata, TW_KNOB), nf->global / 2);
		EXPECT_EQ(read_ok(_metadata, SYN_KNOB),
			  max_long(128, nf->global / 128));
		EXPECT_TRUE(kmsg_contains(nf->kmsg, nf->msg)) TH_LOG("n = %d", n);
		lo_up(_metadata);
		tcp_connection_to_time_wait(_metadata);
	} else {
		EXPECT_EQ(got, FAULT_ENTRIES) TH_LOG("n = %d", n);
	}
	ASSERT_EQ(setns(nf->parent, CLONE_NEWNET), 0);
	ASSERT_EQ(kc_tainted(), nf->taint) TH_LOG("tainted at n = %d", n);
}

/*
 * Fault injection: unshare(CLONE_NEWNET) with the n-th slab
 * allocation failing (fail-nth), for every n until the call makes fewer
 * than n allocations, from a parent whose tcp_child_ehash_entries is
 * 1024.  Each attempt fails with an errno of unshare_alloc_errno(), or
 * makes a netns that either owns 1024 buckets or, when the failure hit
 * inet_pernet_hashinfo_alloc() (the kmemdup()ed hashinfo, the
 * vmalloc()'s vm_struct and vmap_area, the lock array), shares the
 * global table with the defaults derived from its size and the
 * documented "Failed to allocate TCP ehash" warning, and TCP works in
 * it.  At least one attempt must have fallen back.  Afterwards a netns
 * owns its table again.  Leaks are kmemleak's, on the debug variant.
 */
TEST_F_TIMEOUT(ehash, netns_alloc_fault_falls_back, 600)
{
	struct netns_fault nf = { .global = self->global, .taint = kc_tainted() };
	int n, ret;
	char msg[160];

	if (self->skip)
		SKIP(return, "%s", self->skip);
	ret = kc_failslab_setup();
	if (ret)
		SKIP(return, "no failslab in debugfs: %s", strerror(-ret));

	snprintf(msg, sizeof(msg), "Failed to allocate TCP ehash (entries: %d)",
		 FAULT_ENTRIES);
	nf.msg = msg;
	enter_new_netns(_metadata);
	ASSERT_EQ(write_long(CHILD_KNOB, FAULT_ENTRIES), 0);
	nf.parent = open("/proc/self/ns/net", O_RDONLY);
	ASSERT_GE(nf.parent, 0);
	nf.kmsg = kmsg_open_at_end();
	ASSERT_GE(nf.kmsg, 0);

	n = kc_fail_nth_loop(_metadata, FAULT_MAX_NTH, netns_fault_call,
			     netns_fault_check, &nf);
	printf("# %d attempts: %d failed, %d fell back\n", n, nf.failed,
	       nf.fallbacks);
	printf("# ENOMEM %d, EEXIST %d, ENOBUFS %d, EAFNOSUPPORT %d, ENODEV %d, EINVAL %d\n",
	       nf.per_errno[ENOMEM], nf.per_errno[EEXIST], nf.per_errno[ENOBUFS],
	       nf.per_errno[EAFNOSUPPORT], nf.per_errno[ENODEV],
	       nf.per_errno[EINVAL]);
	fflush(stdout);
	EXPECT_GE(nf.fallbacks, 1);

	/* Still usable: the next netns owns its table. */
	enter_new_netns(_metadata);
	EXPECT_EQ(read_ok(_metadata, EHASH_KNOB), FAULT_ENTRIES);
	close(nf.kmsg);
	close(nf.parent);
}

TEST_HARNESS_MAIN
