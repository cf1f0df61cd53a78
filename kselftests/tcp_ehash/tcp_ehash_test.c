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
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <linux/net_tstamp.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/tcp.h>
#include <poll.h>
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
#include "../kconform_util.h"

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

/* MemTotal of /proc/meminfo, in KiB (0 when unreadable). */
static long mem_total_kib(void)
{
	char line[128];
	long kib = 0;
	FILE *f;

	f = fopen("/proc/meminfo", "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemTotal: %ld kB", &kib) == 1)
			break;
	fclose(f);
	return kib;
}

/*
 * tcp_init() sizes tcp_max_orphans from the global table it made: half
 * its buckets, as tcp_max_tw_buckets is for a netns's own table.
 */
TEST_F(ehash, max_orphans_is_half_the_global_table)
{
	if (self->skip)
		SKIP(return, "%s", self->skip);

	EXPECT_EQ(read_ok(_metadata, "/proc/sys/net/ipv4/tcp_max_orphans"), self->global / 2);
}

/* A sysctl's text as read, without its newline ("" when unreadable). */
static void read_text(const char *path, char *buf, size_t size)
{
	ssize_t len = -1;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd >= 0) {
		len = read(fd, buf, size - 1);
		close(fd);
	}
	buf[len > 0 ? len : 0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
}

/*
 * The defaults tcp_sk_init() gives every netns (the function the
 * per-netns ehash commit changed), as ip-sysctl.rst documents them, read
 * from /proc/sys/net/ipv4/ of a new netns: what `sysctl net.ipv4` shows
 * a container before anyone tunes it.  The *_jiffies knobs show seconds
 * or milliseconds whatever HZ is.
 */
static const struct {
	const char *name;
	const char *value;
	const char *config;	/* the option the knob needs, if any */
} tcp_netns_defaults[] = {
	{ "tcp_ecn", "2" },
	{ "tcp_ecn_fallback", "1" },
	{ "tcp_base_mss", "1024" },
	{ "tcp_min_snd_mss", "48" },
	{ "tcp_probe_threshold", "8" },
	{ "tcp_probe_interval", "600" },
	{ "tcp_mtu_probe_floor", "48" },
	{ "tcp_keepalive_time", "7200" },
	{ "tcp_keepalive_probes", "9" },
	{ "tcp_keepalive_intvl", "75" },
	{ "tcp_syn_retries", "6" },
	{ "tcp_synack_retries", "5" },
	{ "tcp_syncookies", "1", "CONFIG_SYN_COOKIES" },
	{ "tcp_reordering", "3" },
	{ "tcp_retries1", "3" },
	{ "tcp_retries2", "15" },
	/*
	 * ip-sysctl.rst says "Default value 8": the knob reads 0, which
	 * tcp_orphan_retries() turns into 8 for a live peer.
	 */
	{ "tcp_orphan_retries", "0" },
	{ "tcp_fin_timeout", "60" },
	{ "tcp_notsent_lowat", "4294967295" },	/* UINT_MAX */
	{ "tcp_tw_reuse", "2" },
	{ "tcp_no_ssthresh_metrics_save", "1" },
	{ "tcp_sack", "1" },
	{ "tcp_window_scaling", "1" },
	{ "tcp_timestamps", "1" },
	{ "tcp_early_retrans", "3" },
	{ "tcp_recovery", "1" },		/* RACK loss detection */
	{ "tcp_slow_start_after_idle", "1" },
	{ "tcp_retrans_collapse", "1" },
	{ "tcp_max_reordering", "300" },
	{ "tcp_dsack", "1" },
	{ "tcp_app_win", "31" },
	{ "tcp_adv_win_scale", "1" },
	{ "tcp_frto", "2" },
	{ "tcp_moderate_rcvbuf", "1" },
	{ "tcp_tso_win_divisor", "3" },
	{ "tcp_limit_output_bytes", "1048576" },
	{ "tcp_challenge_ack_limit", "2147483647" },	/* INT_MAX: off */
	{ "tcp_min_tso_segs", "2" },
	{ "tcp_tso_rtt_log", "9" },
	{ "tcp_min_rtt_wlen", "300" },
	{ "tcp_autocorking", "1" },
	{ "tcp_invalid_ratelimit", "500" },
	{ "tcp_pacing_ss_ratio", "200" },
	{ "tcp_pacing_ca_ratio", "120" },
	{ "tcp_comp_sack_delay_ns", "1000000" },
	{ "tcp_comp_sack_slack_ns", "100000" },
	{ "tcp_comp_sack_nr", "44" },
	{ "tcp_fastopen", "1" },
	{ "tcp_fastopen_blackhole_timeout_sec", "0" },
};

/*
 * A new netns starts from the defaults above, whatever its creator set,
 * and takes the initial netns's tcp_rmem, tcp_wmem and congestion
 * control, not its creator's (tcp_sk_init() copies init_net's).
 */
TEST_F(ehash, new_netns_gets_documented_defaults)
{
	char path[128], got[128], rmem[128], wmem[128], cc[64];
	size_t i;

	if (self->skip)
		SKIP(return, "%s", self->skip);

	read_text("/proc/sys/net/ipv4/tcp_rmem", rmem, sizeof(rmem));
	read_text("/proc/sys/net/ipv4/tcp_wmem", wmem, sizeof(wmem));
	read_text("/proc/sys/net/ipv4/tcp_congestion_control", cc, sizeof(cc));
	/* A creator that tuned its own knobs passes none of them on. */
	enter_new_netns(_metadata);
	ASSERT_EQ(write_str("/proc/sys/net/ipv4/tcp_keepalive_time", "30\n"), 0);
	ASSERT_EQ(write_str("/proc/sys/net/ipv4/tcp_rmem", "8192 65536 1048576\n"), 0);
	enter_new_netns(_metadata);

	for (i = 0; i < ARRAY_SIZE(tcp_netns_defaults); i++) {
		snprintf(path, sizeof(path), "/proc/sys/net/ipv4/%s", tcp_netns_defaults[i].name);
		if (tcp_netns_defaults[i].config && access(path, F_OK)) {
			TH_LOG("%s: not in this kernel (%s is not set)", path,
			       tcp_netns_defaults[i].config);
			continue;
		}
		read_text(path, got, sizeof(got));
		EXPECT_STREQ(tcp_netns_defaults[i].value, got) TH_LOG("%s", path);
	}
	/*
	 * ip-sysctl.rst: min 4K and default 131072 (tcp_rmem), 4K and 16K
	 * (tcp_wmem); the max "between 131072 and 6MB" and "between 64K and
	 * 4MB, depending on RAM size": tcp_init() takes the least of that and
	 * 1/128 of the free buffer pages, so a guest of 1 GiB or more (the
	 * runner's has 2) gets the 6MB and 4MB.
	 */
	if (mem_total_kib() >= 1024 * 1024) {
		EXPECT_STREQ("4096\t131072\t6291456", rmem);
		EXPECT_STREQ("4096\t16384\t4194304", wmem);
	} else {
		EXPECT_EQ(0, strncmp(rmem, "4096\t131072\t", 12)) TH_LOG("tcp_rmem: %s", rmem);
		EXPECT_EQ(0, strncmp(wmem, "4096\t16384\t", 11)) TH_LOG("tcp_wmem: %s", wmem);
	}
	read_text("/proc/sys/net/ipv4/tcp_rmem", got, sizeof(got));
	EXPECT_STREQ(rmem, got);
	read_text("/proc/sys/net/ipv4/tcp_wmem", got, sizeof(got));
	EXPECT_STREQ(wmem, got);
	read_text("/proc/sys/net/ipv4/tcp_congestion_control", got, sizeof(got));
	EXPECT_STREQ(cc, got);
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
 * EAFNOSUPPORT and ENODEV (control sockets and the loopback device),
 * EINVAL, and ENFILE, which unshare(2) does not document either:
 * __sock_create() (net/socket.c) returns -ENFILE when sock_alloc() fails
 * (its inode, from sock_inode_cache), and with CONFIG_IPV6 every new
 * netns makes four control sockets through inet_ctl_sock_create() ->
 * sock_create_kern(): ndisc_net_init(), igmp6_net_init() (two) and
 * tcpv6_net_init() (seen at n = 230, 232 and 236 on the debug variant).
 * Anything else fails the case.
 */
static bool unshare_alloc_errno(int err)
{
	return err == ENOMEM || err == EEXIST || err == ENOBUFS ||
	       err == EAFNOSUPPORT || err == ENODEV || err == EINVAL ||
	       err == ENFILE;
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
	printf("# ENOMEM %d, EEXIST %d, ENOBUFS %d, EAFNOSUPPORT %d,",
	       nf.per_errno[ENOMEM], nf.per_errno[EEXIST], nf.per_errno[ENOBUFS],
	       nf.per_errno[EAFNOSUPPORT]);
	printf(" ENODEV %d, EINVAL %d, ENFILE %d\n", nf.per_errno[ENODEV],
	       nf.per_errno[EINVAL], nf.per_errno[ENFILE]);
	fflush(stdout);
	EXPECT_GE(nf.fallbacks, 1);

	/* Still usable: the next netns owns its table. */
	enter_new_netns(_metadata);
	EXPECT_EQ(read_ok(_metadata, EHASH_KNOB), FAULT_ENTRIES);
	close(nf.kmsg);
	close(nf.parent);
}

/* ---- what 6.1's stable updates changed ------------------------------- */

/*
 * Behaviours that upstream stable commits changed between Debian's
 * 6.1.170-3 and 6.1.192-3 in the code this target covers. Each case
 * asserts 6.1.192's values, names the stable commit and the first
 * Debian release that has it, and says what 6.1.170-3 does instead
 * (patches/fixes.toml lists the fixes among them, so the runner reports
 * a release without one as carrying its bug). Each case runs in a netns
 * of its own.
 */

#define REORDERING	"/proc/sys/net/ipv4/tcp_reordering"
#define MAX_REORDERING	"/proc/sys/net/ipv4/tcp_max_reordering"
#define RMEM		"/proc/sys/net/ipv4/tcp_rmem"

/* include/net/tcp.h: the smallest MSS TCP advertises */
#define TCP_MIN_MSS	88

FIXTURE(stable) {
	const char *skip;
};

FIXTURE_SETUP(stable)
{
	if (geteuid()) {
		self->skip = "needs root";
		return;
	}
	enter_new_netns(_metadata);
	lo_up(_metadata);
}

FIXTURE_TEARDOWN(stable)
{
}

/*
 * "net: ipv4: bound TCP reordering sysctl writes and MTU probe sizes"
 * (6.1.178; Debian 6.1.180-1): tcp_reordering is bounded by [1,
 * tcp_max_reordering] and tcp_max_reordering by [1, INT_MAX], and a
 * netns's tcp_reordering by that netns's own tcp_max_reordering (the
 * netns copy of the table points extra2 at its own field). 6.1.170-3
 * takes any int for both: 0, and a tcp_reordering above the maximum.
 */
TEST_F(stable, tcp_reordering_bounded_by_own_netns_max)
{
	long init_max;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	init_max = read_ok(_metadata, MAX_REORDERING);
	EXPECT_EQ(init_max, 300);
	EXPECT_EQ(read_ok(_metadata, REORDERING), 3);

	EXPECT_EQ(write_long(REORDERING, 0), -EINVAL);
	EXPECT_EQ(write_long(MAX_REORDERING, 0), -EINVAL);
	EXPECT_EQ(write_long(REORDERING, -1), -EINVAL);
	EXPECT_EQ(write_long(REORDERING, init_max + 1), -EINVAL);
	EXPECT_EQ(read_ok(_metadata, REORDERING), 3);
	EXPECT_EQ(read_ok(_metadata, MAX_REORDERING), init_max);
	EXPECT_EQ(write_long(REORDERING, init_max), 0);
	EXPECT_EQ(write_long(REORDERING, 1), 0);

	/* this netns's maximum, not the initial netns's 300 */
	ASSERT_EQ(write_long(MAX_REORDERING, 10), 0);
	EXPECT_EQ(write_long(REORDERING, 11), -EINVAL);
	EXPECT_EQ(write_long(REORDERING, 10), 0);
	ASSERT_EQ(write_long(MAX_REORDERING, 1000), 0);
	EXPECT_EQ(write_long(REORDERING, 301), 0);
	EXPECT_EQ(read_ok(_metadata, REORDERING), 301);
}

/*
 * "tcp: do not let tcp_rmem be set below 4096" (6.1.189; Debian
 * 6.1.190-1): each of tcp_rmem's three values is at least 4096 (it was
 * at least 1); a refused write leaves the values as they were.
 * 6.1.170-3 takes "1 131072 6291456" and reads back 1.
 */
TEST_F(stable, tcp_rmem_minimum_is_4096)
{
	char before[128], after[128], buf[128];
	long min = 0, def = 0, max = 0;
	int fd, n;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	fd = open(RMEM, O_RDWR);
	ASSERT_GE(fd, 0);
	memset(before, 0, sizeof(before));
	ASSERT_GT(pread(fd, before, sizeof(before) - 1, 0), 0);
	n = sscanf(before, "%ld %ld %ld", &min, &def, &max);
	ASSERT_EQ(n, 3);
	EXPECT_EQ(min, 4096);

	snprintf(buf, sizeof(buf), "1 %ld %ld\n", def, max);
	EXPECT_EQ(write_fd_str(fd, buf), -EINVAL);
	snprintf(buf, sizeof(buf), "4095 %ld %ld\n", def, max);
	EXPECT_EQ(write_fd_str(fd, buf), -EINVAL);
	memset(after, 0, sizeof(after));
	ASSERT_GT(pread(fd, after, sizeof(after) - 1, 0), 0);
	EXPECT_STREQ(after, before);

	snprintf(buf, sizeof(buf), "4096 65536 %ld\n", max);
	EXPECT_EQ(write_fd_str(fd, buf), 0);
	memset(after, 0, sizeof(after));
	ASSERT_GT(pread(fd, after, sizeof(after) - 1, 0), 0);
	snprintf(buf, sizeof(buf), "4096\t65536\t%ld\n", max);
	EXPECT_STREQ(after, buf);
	close(fd);
}

/* A listener on @addr:0 (its port in @sa) and @n clients connected to it
 * from @addr, each accepted: @c[i] the client, @a[i] its accepted end.
 */
static void loopback_pairs(struct __test_metadata *_metadata, in_addr_t addr,
			   int n, int *c, int *a)
{
	struct sockaddr_in sa = { .sin_family = AF_INET,
				  .sin_addr.s_addr = addr };
	socklen_t alen = sizeof(sa);
	int lfd, i;

	lfd = socket(AF_INET, SOCK_STREAM, 0);
	ASSERT_GE(lfd, 0);
	ASSERT_EQ(bind(lfd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	ASSERT_EQ(listen(lfd, n), 0);
	ASSERT_EQ(getsockname(lfd, (struct sockaddr *)&sa, &alen), 0);
	for (i = 0; i < n; i++) {
		struct sockaddr_in src = { .sin_family = AF_INET,
					   .sin_addr.s_addr = addr };

		c[i] = socket(AF_INET, SOCK_STREAM, 0);
		ASSERT_GE(c[i], 0);
		ASSERT_EQ(bind(c[i], (struct sockaddr *)&src, sizeof(src)), 0);
		ASSERT_EQ(connect(c[i], (struct sockaddr *)&sa, sizeof(sa)), 0)
			TH_LOG("connect: %s", strerror(errno));
		a[i] = accept(lfd, NULL, NULL);
		ASSERT_GE(a[i], 0);
	}
	close(lfd);
}

static __u32 tcp_timestamp(struct __test_metadata *_metadata, int fd)
{
	socklen_t len = sizeof(__u32);
	__u32 ts;

	ASSERT_EQ(getsockopt(fd, IPPROTO_TCP, TCP_TIMESTAMP, &ts, &len), 0);
	return ts;
}

/* |@a - @b| in ms on the 32-bit TCP timestamp clock */
static __u32 ts_distance(__u32 a, __u32 b)
{
	__s32 d = (__s32)(a - b);

	return d < 0 ? -(__u32)d : (__u32)d;
}

#define TS_PAIRS	4
/* two reads of one clock a moment apart differ by less than this (ms) */
#define TS_NEAR		2000

/*
 * "tcp: secure_seq: add back ports to TS offset" (6.1.191; Debian
 * 6.1.192-1): a connection's TCP timestamp offset is a hash of its
 * 4-tuple, ports included, so two connections between the same
 * addresses from different source ports have unrelated offsets, on the
 * connecting side (tcp_v4_connect()) and on the accepted one (the
 * request's). Not a fix: a behaviour, pinned on both sides (6.12.118
 * has the ports too). Before 6.1.191 (6.1.170-3 ... 6.1.190-1) the hash
 * is of the addresses only: every connection 127.0.0.1 -> 127.0.0.1 of
 * a netns has the same offset, and TCP_TIMESTAMP of two of them read a
 * moment apart differ by the milliseconds between the reads. Since,
 * each of TS_PAIRS pairs must differ by TS_NEAR ms or more (two random
 * 32-bit offsets come that near with p = 2 * TS_NEAR / 2^32, 1e-6);
 * before, none may.
 */
TEST_F(stable, ts_offset_depends_on_ports)
{
	int since = kernel_since_stable(6, 1, 191);
	int c[2], a[2], i, j, far_c = 0, far_a = 0;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	ASSERT_NE(since, -1) TH_LOG("no version in /proc/version");
	ASSERT_EQ(read_ok(_metadata, "/proc/sys/net/ipv4/tcp_timestamps"), 1);
	for (i = 0; i < TS_PAIRS; i++) {
		__u32 tc[2], ta[2];

		loopback_pairs(_metadata, htonl(INADDR_LOOPBACK), 2, c, a);
		for (j = 0; j < 2; j++) {
			tc[j] = tcp_timestamp(_metadata, c[j]);
			ta[j] = tcp_timestamp(_metadata, a[j]);
		}
		TH_LOG("pair %d: clients %u %u, accepted %u %u", i,
		       tc[0], tc[1], ta[0], ta[1]);
		far_c += ts_distance(tc[0], tc[1]) >= TS_NEAR;
		far_a += ts_distance(ta[0], ta[1]) >= TS_NEAR;
		for (j = 0; j < 2; j++) {
			close(c[j]);
			close(a[j]);
		}
	}
	EXPECT_EQ(far_c, since ? TS_PAIRS : 0);
	EXPECT_EQ(far_a, since ? TS_PAIRS : 0);
}

/* ---- rtnetlink: a route through lo ------------------------------------ */

struct route_req {
	struct nlmsghdr nh;
	struct rtmsg rt;
	char attrs[128];
};

static void route_attr(struct route_req *r, __u16 type, const void *data,
		       size_t len)
{
	struct rtattr *a = (struct rtattr *)((char *)r +
					     NLMSG_ALIGN(r->nh.nlmsg_len));

	a->rta_type = type;
	a->rta_len = RTA_LENGTH(len);
	memcpy(RTA_DATA(a), data, len);
	r->nh.nlmsg_len = NLMSG_ALIGN(r->nh.nlmsg_len) + RTA_ALIGN(a->rta_len);
}

/*
 * Add the route of @type to @dst/32 through lo in @table, with the
 * metric advmss @advmss unless 0: the error of the kernel's ACK.
 */
static int route_add(in_addr_t dst, __u8 table, __u8 type, __u32 advmss)
{
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	struct route_req r = {};
	struct {
		struct nlmsghdr nh;
		struct nlmsgerr err;
	} ack;
	int fd, oif = if_nametoindex("lo"), ret = -EIO;

	r.nh.nlmsg_len = NLMSG_LENGTH(sizeof(r.rt));
	r.nh.nlmsg_type = RTM_NEWROUTE;
	r.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE |
			   NLM_F_EXCL;
	r.rt.rtm_family = AF_INET;
	r.rt.rtm_dst_len = 32;
	r.rt.rtm_table = table;
	r.rt.rtm_protocol = RTPROT_BOOT;
	r.rt.rtm_scope = type == RTN_LOCAL ? RT_SCOPE_HOST : RT_SCOPE_LINK;
	r.rt.rtm_type = type;
	route_attr(&r, RTA_DST, &dst, sizeof(dst));
	route_attr(&r, RTA_OIF, &oif, sizeof(oif));
	if (advmss) {
		struct {
			struct rtattr hdr;
			struct rtattr a;
			__u32 v;
		} m = {
			.hdr = { .rta_len = sizeof(m), .rta_type = RTA_METRICS },
			.a = { .rta_len = RTA_LENGTH(4), .rta_type = RTAX_ADVMSS },
			.v = advmss,
		};

		memcpy((char *)&r + NLMSG_ALIGN(r.nh.nlmsg_len), &m, sizeof(m));
		r.nh.nlmsg_len = NLMSG_ALIGN(r.nh.nlmsg_len) + sizeof(m);
	}
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0)
		return -errno;
	if (sendto(fd, &r, r.nh.nlmsg_len, 0, (struct sockaddr *)&kernel,
		   sizeof(kernel)) == r.nh.nlmsg_len &&
	    recv(fd, &ack, sizeof(ack), 0) >= (ssize_t)sizeof(ack) &&
	    ack.nh.nlmsg_type == NLMSG_ERROR)
		ret = ack.err.error;
	close(fd);
	return ret;
}

static __u32 tcp_advmss(struct __test_metadata *_metadata, int fd)
{
	struct tcp_info ti = {};
	socklen_t len = sizeof(ti);

	ASSERT_EQ(getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len), 0);
	return ti.tcpi_advmss;
}

/*
 * "tcp: clamp route advmss to TCP_MIN_MSS" (6.1.191; Debian 6.1.192-1):
 * a route's advmss below TCP_MIN_MSS (88) is raised to 88, for the
 * connecting socket (tcp_connect_init()), the SYN-ACK and the accepted
 * socket (tcp_v4_syn_recv_sock()). 6.1.170-3 uses the route's 40 as is
 * on both ends. A route's advmss of 1000 is taken as is by both. The
 * netns has timestamps off: with them both ends take 12 bytes (the
 * option) off advmss once the handshake has agreed on them.
 */
TEST_F(stable, route_advmss_clamped_to_min_mss)
{
	static const struct {
		in_addr_t addr;
		__u32 advmss, want;
	} rows[] = {
		{ 0x7f000002, 40, TCP_MIN_MSS },
		{ 0x7f000003, 1000, 1000 },
	};
	unsigned int i;
	int c, a;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	ASSERT_EQ(write_long("/proc/sys/net/ipv4/tcp_timestamps", 0), 0);
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		ASSERT_EQ(route_add(htonl(rows[i].addr), RT_TABLE_LOCAL,
				    RTN_LOCAL, rows[i].advmss), 0);
		loopback_pairs(_metadata, htonl(rows[i].addr), 1, &c, &a);
		EXPECT_EQ(tcp_advmss(_metadata, c), rows[i].want)
			TH_LOG("route advmss %u, connecting end", rows[i].advmss);
		EXPECT_EQ(tcp_advmss(_metadata, a), rows[i].want)
			TH_LOG("route advmss %u, accepted end", rows[i].advmss);
		close(c);
		close(a);
	}
}

/*
 * "tcp: take care of zero tp->window_clamp in tcp_set_rcvlowat()"
 * (21b29e74ffe5, 6.12.54; Fixes: d1361840f8c5, 4.19): SO_RCVLOWAT on a
 * listener before accept(), as tcp_mmap does, leaves the listener's
 * window clamp 0, so each request picks its window scale from the
 * largest buffer it may grow to, max(tcp_rmem[2], rmem_max) (RFC 7323
 * 2.3: ilog2 of it - 15, at most 14: 7 for 6291456), as without the
 * hint. 6.1.192 sets
 * the listener's clamp to the hint's window (100000) and every accepted
 * connection gets scale 1: its window never passes 131070 bytes. The
 * series' fix 0003 is the backport.
 */
TEST_F(stable, rcvlowat_on_listener_keeps_window_scale)
{
	struct sockaddr_in sa = { .sin_family = AF_INET,
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int lowat = 100000, clamp = -1, lfd, c, a, wscale;
	socklen_t alen = sizeof(sa), len = sizeof(clamp);
	struct tcp_info ti;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	/* 2^22 + 2^21: scale ilog2() - 15 = 7; net.core.rmem_max (the
	 * initial netns's only; 212992 unless raised, and nothing in the
	 * guest raises it) is below it
	 */
	ASSERT_EQ(write_str(RMEM, "4096 131072 6291456"), 0);

	lfd = socket(AF_INET, SOCK_STREAM, 0);
	ASSERT_GE(lfd, 0);
	ASSERT_EQ(bind(lfd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	ASSERT_EQ(listen(lfd, 1), 0);
	ASSERT_EQ(getsockname(lfd, (struct sockaddr *)&sa, &alen), 0);
	ASSERT_EQ(setsockopt(lfd, SOL_SOCKET, SO_RCVLOWAT, &lowat, sizeof(lowat)), 0);
	ASSERT_EQ(getsockopt(lfd, IPPROTO_TCP, TCP_WINDOW_CLAMP, &clamp, &len), 0);
	EXPECT_EQ(clamp, 0) TH_LOG("the listener's window clamp after SO_RCVLOWAT");

	c = socket(AF_INET, SOCK_STREAM, 0);
	ASSERT_GE(c, 0);
	ASSERT_EQ(connect(c, (struct sockaddr *)&sa, sizeof(sa)), 0);
	a = accept(lfd, NULL, NULL);
	ASSERT_GE(a, 0);
	len = sizeof(ti);
	ASSERT_EQ(getsockopt(a, IPPROTO_TCP, TCP_INFO, &ti, &len), 0);
	wscale = ti.tcpi_rcv_wscale;
	EXPECT_EQ(wscale, 7) TH_LOG("accepted end");
	len = sizeof(ti);
	ASSERT_EQ(getsockopt(c, IPPROTO_TCP, TCP_INFO, &ti, &len), 0);
	wscale = ti.tcpi_snd_wscale;
	EXPECT_EQ(wscale, 7) TH_LOG("connecting end");
	close(a);
	close(c);
	close(lfd);
}

/* ---- a TCP peer played by hand ----------------------------------------- */

/*
 * The peer is 10.99.0.2, routed through lo: what the listener sends it
 * loops back with the output route attached, whose input is
 * dst_discard(), so no TCP of this netns answers it (127.0.0.0/8 would
 * be local, and its RST would reset the request first). An AF_PACKET
 * socket on lo sees those segments leave; the peer's own are sent on
 * an IPPROTO_RAW socket.
 */
#define PEER_ADDR	0x0a630002
#define PEER_PORT	40000
#define PEER_ISN	1000

struct peer {
	int raw, pkt;
	struct sockaddr_in listener;
};

struct segment {
	struct iphdr ip;
	struct tcphdr tcp;
	__u8 opt[40];
};

static void peer_open(struct __test_metadata *_metadata, struct peer *p,
		      int lfd)
{
	struct sockaddr_ll ll = { .sll_family = AF_PACKET,
				  .sll_protocol = htons(ETH_P_ALL) };
	socklen_t alen = sizeof(p->listener);

	ASSERT_EQ(route_add(htonl(PEER_ADDR), RT_TABLE_MAIN, RTN_UNICAST, 0), 0);
	ASSERT_EQ(getsockname(lfd, (struct sockaddr *)&p->listener, &alen), 0);
	p->raw = socket(AF_INET, SOCK_RAW, IPPROTO_RAW);
	ASSERT_GE(p->raw, 0);
	/* only ETH_P_ALL sockets see what leaves (dev_queue_xmit_nit()) */
	p->pkt = socket(AF_PACKET, SOCK_DGRAM, htons(ETH_P_ALL));
	ASSERT_GE(p->pkt, 0);
	ll.sll_ifindex = if_nametoindex("lo");
	ASSERT_EQ(bind(p->pkt, (struct sockaddr *)&ll, sizeof(ll)), 0);
}

/*
 * Send the peer's segment from port @sport with @flags (TH_*), @seq,
 * @ack and the @optlen bytes of TCP options at @opt (a multiple of 4).
 */
static void peer_send_opt(struct __test_metadata *_metadata, struct peer *p,
			  __u16 sport, __u8 flags, __u32 seq, __u32 ack,
			  const __u8 *opt, int optlen)
{
	int tcplen = sizeof(struct tcphdr) + optlen;
	int len = sizeof(struct iphdr) + tcplen;
	struct segment s = {};
	unsigned short ph[6];
	unsigned int sum = 0;
	int k;

	ASSERT_TRUE(optlen % 4 == 0 && optlen <= (int)sizeof(s.opt));
	s.ip.version = 4;
	s.ip.ihl = 5;
	s.ip.ttl = 64;
	s.ip.protocol = IPPROTO_TCP;
	s.ip.tot_len = htons(len);
	s.ip.saddr = htonl(PEER_ADDR);
	s.ip.daddr = p->listener.sin_addr.s_addr;
	s.tcp.source = htons(sport);
	s.tcp.dest = p->listener.sin_port;
	s.tcp.seq = htonl(seq);
	s.tcp.ack_seq = htonl(ack);
	s.tcp.doff = tcplen / 4;
	s.tcp.syn = !!(flags & TH_SYN);
	s.tcp.rst = !!(flags & TH_RST);
	s.tcp.ack = !!(flags & TH_ACK);
	s.tcp.window = htons(65535);
	if (optlen)
		memcpy(s.opt, opt, optlen);
	memcpy(&ph[0], &s.ip.saddr, 4);
	memcpy(&ph[2], &s.ip.daddr, 4);
	ph[4] = htons(IPPROTO_TCP);
	ph[5] = htons(tcplen);
	for (k = 0; k < 6; k++)
		sum += ph[k];
	s.tcp.check = kc_inet_csum(&s.tcp, tcplen, sum);
	ASSERT_EQ(sendto(p->raw, &s, len, 0,
			 (struct sockaddr *)&p->listener,
			 sizeof(p->listener)), len);
}

/* Send the peer's segment with @flags (TH_*), @seq and @ack. */
static void peer_send(struct __test_metadata *_metadata, struct peer *p,
		      __u8 flags, __u32 seq, __u32 ack)
{
	peer_send_opt(_metadata, p, PEER_PORT, flags, seq, ack, NULL, 0);
}

/*
 * The next segment the netns sent the peer, to any of its ports,
 * waiting up to @ms: 1 with its TCP header in @t, 0 if none came.
 */
static int peer_next(struct peer *p, struct tcphdr *t, int ms)
{
	struct pollfd pfd = { .fd = p->pkt, .events = POLLIN };
	struct segment s;
	struct sockaddr_ll ll;
	socklen_t alen;

	while (poll(&pfd, 1, ms) == 1) {
		alen = sizeof(ll);
		if (recvfrom(p->pkt, &s, sizeof(s), 0, (struct sockaddr *)&ll,
			     &alen) < (ssize_t)(sizeof(s.ip) + sizeof(s.tcp)))
			continue;
		if (ll.sll_pkttype != PACKET_OUTGOING ||
		    ll.sll_protocol != htons(ETH_P_IP) ||
		    s.ip.protocol != IPPROTO_TCP ||
		    s.ip.daddr != htonl(PEER_ADDR))
			continue;
		*t = s.tcp;
		return 1;
	}
	return 0;
}

/*
 * The next segment the listener sent the peer's PEER_PORT with SYN set
 * as @syn says (a SYN-ACK retransmitted meanwhile is not the answer
 * looked for), waiting up to @ms: 1 with it in @t, 0 if none came.
 */
static int peer_recv(struct peer *p, struct tcphdr *t, bool syn, int ms)
{
	while (peer_next(p, t, ms))
		if (t->dest == htons(PEER_PORT) && t->syn == syn)
			return 1;
	return 0;
}

static long netstat_count(const char *name)
{
	static char keys[16384], vals[16384];
	char *k, *v, *ks, *vs;
	FILE *f = fopen("/proc/net/netstat", "r");
	long ret = -1;

	if (!f)
		return -1;
	while (fgets(keys, sizeof(keys), f) && fgets(vals, sizeof(vals), f)) {
		if (strncmp(keys, "TcpExt:", 7))
			continue;
		for (k = strtok_r(keys, "\n ", &ks), v = strtok_r(vals, "\n ", &vs);
		     k && v;
		     k = strtok_r(NULL, "\n ", &ks), v = strtok_r(NULL, "\n ", &vs))
			if (!strcmp(k, name))
				ret = strtol(v, NULL, 10);
	}
	fclose(f);
	return ret;
}

/*
 * "tcp: challenge ACK for non-exact RST in SYN-RECEIVED" (6.1.191;
 * Debian 6.1.192-1): RFC 5961 3.2 (RFC 9293 3.10.7.4) in SYN-RECEIVED.
 * An RST inside the window whose sequence number is not exactly
 * rcv_nxt gets a challenge ACK (seq = ISN + 1, ack = rcv_nxt,
 * TCPChallengeACK + 1) and the request stays: the handshake's ACK then
 * completes it and accept() returns the connection. 6.1.170-3 resets
 * the request on any RST in the window: no answer to it, and the final
 * ACK finds only the listener, which answers with an RST.
 */
TEST_F(stable, syn_recv_non_exact_rst_gets_challenge_ack)
{
	struct sockaddr_in sa = { .sin_family = AF_INET,
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct pollfd pfd = { .events = POLLIN };
	struct tcphdr t;
	struct peer p;
	long challenges;
	__u32 isn;
	int lfd, cfd;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	lfd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
	ASSERT_GE(lfd, 0);
	ASSERT_EQ(bind(lfd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	ASSERT_EQ(listen(lfd, 4), 0);
	pfd.fd = lfd;
	peer_open(_metadata, &p, lfd);
	challenges = netstat_count("TCPChallengeACK");
	ASSERT_GE(challenges, 0);

	peer_send(_metadata, &p, TH_SYN, PEER_ISN, 0);
	ASSERT_EQ(peer_recv(&p, &t, true, 2000), 1) TH_LOG("no SYN-ACK");
	ASSERT_TRUE(t.syn && t.ack);
	ASSERT_EQ(ntohl(t.ack_seq), PEER_ISN + 1);
	isn = ntohl(t.seq);

	/* in the window, one past rcv_nxt */
	peer_send(_metadata, &p, TH_RST, PEER_ISN + 2, 0);
	EXPECT_EQ(peer_recv(&p, &t, false, 1000), 1) TH_LOG("no challenge ACK");
	EXPECT_TRUE(t.ack && !t.syn && !t.rst);
	EXPECT_EQ(ntohl(t.seq), isn + 1);
	EXPECT_EQ(ntohl(t.ack_seq), PEER_ISN + 1);
	EXPECT_EQ(netstat_count("TCPChallengeACK"), challenges + 1);

	peer_send(_metadata, &p, TH_ACK, PEER_ISN + 1, isn + 1);
	poll(&pfd, 1, 1000);
	cfd = accept(lfd, NULL, NULL);
	EXPECT_GE(cfd, 0) TH_LOG("accept: %s", strerror(errno));
	EXPECT_EQ(peer_recv(&p, &t, false, 200), 0)
		TH_LOG("the final ACK was answered (rst %d)", t.rst);
	if (cfd >= 0)
		close(cfd);
	close(p.raw);
	close(p.pkt);
	close(lfd);
}

/* ---- what 6.12 changed in code both trees share ------------------------ */

/*
 * Behaviours of the covered TCP code that mainline changed between 6.1
 * and 6.12 (kselftests/README.md, "What 6.12 changed in code both trees
 * share"). Each case names the upstream commit, picks the side by the
 * running kernel's version and asserts the exact values of both: the
 * lead runs them on 6.1.192 and 6.12.118.
 */

#define ADV_WIN_SCALE	"/proc/sys/net/ipv4/tcp_adv_win_scale"
#define TSO_RTT_LOG	"/proc/sys/net/ipv4/tcp_tso_rtt_log"

/* include/uapi/linux/tcp.h of 6.10 and 6.7; 6.1's headers lack them */
#ifndef TCP_IS_MPTCP
#define TCP_IS_MPTCP	43
#endif
#ifndef TCP_AO_REPAIR
#define TCP_AO_REPAIR	42
#endif
#ifndef TCP_AO_INFO
#define TCP_AO_INFO	40
#endif
/* the TCP_NLA_* enum of 6.2's include/uapi/linux/tcp.h: after TCP_NLA_TTL */
#define KC_TCP_NLA_EDT		25
#define KC_TCP_NLA_REHASH	27
#ifndef SCM_TIMESTAMPING_OPT_STATS
#define SCM_TIMESTAMPING_OPT_STATS	54
#endif
#ifndef TCP_REPAIR_ON
#define TCP_REPAIR_ON	1
#endif

/*
 * Offsets in struct tcp_info (6.12's include/uapi/linux/tcp.h): the
 * fields 6.2 and 6.7 appended after tcpi_snd_wnd, and its sizes.
 */
#define TI_SND_WND		228
#define TI_RCV_WND		232
#define TI_REHASH		236
#define TI_TOTAL_RTO		240
#define TI_TOTAL_RTO_RECOVERIES	242
#define TI_TOTAL_RTO_TIME	244
#define TI_SIZE_6_1		232
#define TI_SIZE_6_2		240
#define TI_SIZE_6_7		248

static __u32 ti_u32(const unsigned char *ti, int off)
{
	__u32 v;

	memcpy(&v, ti + off, sizeof(v));
	return v;
}

static __u16 ti_u16(const unsigned char *ti, int off)
{
	__u16 v;

	memcpy(&v, ti + off, sizeof(v));
	return v;
}

static int tcp_int_opt(struct __test_metadata *_metadata, int fd, int opt)
{
	socklen_t len = sizeof(int);
	int val = -1;

	EXPECT_EQ(getsockopt(fd, IPPROTO_TCP, opt, &val, &len), 0)
		TH_LOG("getsockopt(IPPROTO_TCP, %d): %s", opt, strerror(errno));
	return val;
}

/*
 * The window clamp of both ends of a connection over 127.0.0.1, made
 * after tcp_adv_win_scale is set to @scale. TCP_INFO on the accepted
 * end first: it takes the socket's lock, so the handshake's last ACK
 * has been processed (tcp_init_buffer_space()) when the clamp is read.
 */
static void window_clamps(struct __test_metadata *_metadata, int scale,
			  int *client, int *accepted)
{
	unsigned char ti[512];
	socklen_t len = sizeof(ti);
	int c, a;

	ASSERT_EQ(write_long(ADV_WIN_SCALE, scale), 0);
	loopback_pairs(_metadata, htonl(INADDR_LOOPBACK), 1, &c, &a);
	ASSERT_EQ(getsockopt(a, IPPROTO_TCP, TCP_INFO, ti, &len), 0);
	*client = tcp_int_opt(_metadata, c, TCP_WINDOW_CLAMP);
	*accepted = tcp_int_opt(_metadata, a, TCP_WINDOW_CLAMP);
	close(c);
	close(a);
}

/*
 * "tcp: get rid of sysctl_tcp_adv_win_scale" (dfa2f0483360, 6.6): the
 * receive window a buffer gives is sk_rcvbuf * scaling_ratio / 256,
 * the ratio measured from the received skbs (128, 50%, before any data
 * since "tcp: increase the default TCP scaling ratio", 697a6c8cec03,
 * 6.10); net.ipv4.tcp_adv_win_scale is still there, takes [-31, 31] and
 * does nothing. 6.1.192 gives sk_rcvbuf - (sk_rcvbuf >> tcp_adv_win_scale).
 * A fresh connection's window clamp is that window of tcp_rmem[1]
 * (tcp_init_buffer_space(); lo's advmss of 65483 keeps the 2 * advmss
 * and 4 * advmss adjustments out): 131072 with scale 2 is 98304 on 6.1
 * and 65536 since; the default scale 1 gives 65536 on both. Only 6.1
 * and 6.12 are run: 6.6 to 6.9 ignore the knob too, with another ratio.
 */
TEST_F(stable, adv_win_scale_ignored_since_6_6)
{
	int since = kernel_since(6, 6);
	int c2, a2, c1, a1;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	ASSERT_NE(since, -1) TH_LOG("no version in uname");
	ASSERT_EQ(write_str(RMEM, "4096 131072 6291456"), 0);
	ASSERT_EQ(read_ok(_metadata, ADV_WIN_SCALE), 1);

	window_clamps(_metadata, 2, &c2, &a2);
	window_clamps(_metadata, 1, &c1, &a1);
	EXPECT_EQ(c1, 65536);
	EXPECT_EQ(a1, 65536);
	EXPECT_EQ(c2, since ? 65536 : 98304) TH_LOG("tcp_adv_win_scale 2, connecting end");
	EXPECT_EQ(a2, since ? 65536 : 98304) TH_LOG("tcp_adv_win_scale 2, accepted end");
	/* both take the knob's bounds */
	EXPECT_EQ(write_long(ADV_WIN_SCALE, 32), -EINVAL);
	EXPECT_EQ(write_long(ADV_WIN_SCALE, -31), 0);
	EXPECT_EQ(write_long(ADV_WIN_SCALE, 1), 0);
}

static int sol_int_opt(int fd, int opt, int *val)
{
	socklen_t len = sizeof(*val);

	return getsockopt(fd, SOL_SOCKET, opt, val, &len) ? -errno : 0;
}

/*
 * "tcp: add support for SO_PEEK_OFF socket option" (05ea491641d3, 6.9;
 * IPv6 in "tcp: add SO_PEEK_OFF socket option tor TCPv6", 6.12): a TCP
 * socket takes SO_PEEK_OFF (-1 until set: off); with an offset set
 * each MSG_PEEK reads from copied_seq + offset and advances it, a read
 * takes what it consumed off it, a disconnect sets it back to -1. 6.1
 * refuses it both ways with EOPNOTSUPP (inet_stream_ops has no
 * set_peek_off) and every MSG_PEEK reads from the first unread byte.
 */
TEST_F(stable, so_peek_off_since_6_9)
{
	struct sockaddr sa = { .sa_family = AF_UNSPEC };
	int since = kernel_since(6, 9);
	int c, a, off = 0, val;
	char buf[16];

	if (self->skip)
		SKIP(return, "%s", self->skip);
	ASSERT_NE(since, -1) TH_LOG("no version in uname");
	loopback_pairs(_metadata, htonl(INADDR_LOOPBACK), 1, &c, &a);
	ASSERT_EQ(send(c, "abcdef", 6, 0), 6);

	if (!since) {
		EXPECT_EQ(setsockopt(a, SOL_SOCKET, SO_PEEK_OFF, &off, sizeof(off)), -1);
		EXPECT_EQ(errno, EOPNOTSUPP);
		EXPECT_EQ(sol_int_opt(a, SO_PEEK_OFF, &val), -EOPNOTSUPP);
		/* one segment: the first byte there is all six there */
		ASSERT_EQ(recv(a, buf, 3, MSG_PEEK), 3);
		EXPECT_EQ(memcmp(buf, "abc", 3), 0);
		ASSERT_EQ(recv(a, buf, 3, MSG_PEEK), 3);
		EXPECT_EQ(memcmp(buf, "abc", 3), 0) TH_LOG("a second peek reads from the start");
		goto out;
	}
	EXPECT_EQ(sol_int_opt(a, SO_PEEK_OFF, &val), 0);
	EXPECT_EQ(val, -1);
	ASSERT_EQ(setsockopt(a, SOL_SOCKET, SO_PEEK_OFF, &off, sizeof(off)), 0);
	ASSERT_EQ(recv(a, buf, 3, MSG_PEEK), 3);
	EXPECT_EQ(memcmp(buf, "abc", 3), 0);
	ASSERT_EQ(recv(a, buf, 3, MSG_PEEK), 3);
	EXPECT_EQ(memcmp(buf, "def", 3), 0);
	EXPECT_EQ(sol_int_opt(a, SO_PEEK_OFF, &val), 0);
	EXPECT_EQ(val, 6);
	ASSERT_EQ(recv(a, buf, 2, 0), 2);
	EXPECT_EQ(memcmp(buf, "ab", 2), 0);
	EXPECT_EQ(sol_int_opt(a, SO_PEEK_OFF, &val), 0);
	EXPECT_EQ(val, 4);
	/* the offset is past the last byte received */
	EXPECT_EQ(recv(a, buf, sizeof(buf), MSG_PEEK | MSG_DONTWAIT), -1);
	EXPECT_EQ(errno, EAGAIN);
	off = 1;
	ASSERT_EQ(setsockopt(a, SOL_SOCKET, SO_PEEK_OFF, &off, sizeof(off)), 0);
	ASSERT_EQ(recv(a, buf, sizeof(buf), MSG_PEEK), 3);
	EXPECT_EQ(memcmp(buf, "def", 3), 0);
	EXPECT_EQ(sol_int_opt(a, SO_PEEK_OFF, &val), 0);
	EXPECT_EQ(val, 4);
	/* connect(AF_UNSPEC): tcp_disconnect() */
	EXPECT_EQ(connect(a, &sa, sizeof(sa)), 0);
	EXPECT_EQ(sol_int_opt(a, SO_PEEK_OFF, &val), 0);
	EXPECT_EQ(val, -1);
out:
	close(c);
	close(a);
}

/*
 * "tcp: limit tcp_tso_rtt_log to a valid shift count" (850a7225bc61;
 * 6.12.117, Debian 6.12.117-1): net.ipv4.tcp_tso_rtt_log takes [0, 31];
 * 32 to 255 made tcp_tso_autosize() shift a u32 by 32 or more
 * (undefined; UBSAN's shift-out-of-bounds). 6.1-stable lacks it: 6.1.192
 * takes 32 and 255 and reads them back. The series' fix 0004 is the
 * backport, so this asserts 6.12's side on every kernel. 256 is EINVAL
 * on both (a u8).
 */
TEST_F(stable, tso_rtt_log_at_most_31)
{
	if (self->skip)
		SKIP(return, "%s", self->skip);
	EXPECT_EQ(read_ok(_metadata, TSO_RTT_LOG), 9);
	EXPECT_EQ(write_long(TSO_RTT_LOG, 31), 0);
	EXPECT_EQ(read_ok(_metadata, TSO_RTT_LOG), 31);
	EXPECT_EQ(write_long(TSO_RTT_LOG, 32), -EINVAL);
	EXPECT_EQ(read_ok(_metadata, TSO_RTT_LOG), 31);
	EXPECT_EQ(write_long(TSO_RTT_LOG, 255), -EINVAL);
	EXPECT_EQ(read_ok(_metadata, TSO_RTT_LOG), 31);
	EXPECT_EQ(write_long(TSO_RTT_LOG, 256), -EINVAL);
	EXPECT_EQ(write_long(TSO_RTT_LOG, 0), 0);
	EXPECT_EQ(read_ok(_metadata, TSO_RTT_LOG), 0);
	EXPECT_EQ(write_long(TSO_RTT_LOG, 9), 0);
	EXPECT_EQ(read_ok(_metadata, TSO_RTT_LOG), 9);
}

/*
 * struct tcp_info grew twice: "tcp: add rcv_wnd and plb_rehash to
 * TCP_INFO" (71fc704768f6, 6.2: tcpi_rcv_wnd, tcpi_rehash, 240 bytes)
 * and "tcp: new TCP_INFO stats for RTO events" (3868ab0f1925, 6.7:
 * tcpi_total_rto, _recoveries, _time, 248 bytes). getsockopt(TCP_INFO)
 * copies min(optlen, its size): 232 bytes on 6.1, the rest of the
 * buffer untouched; 248 on 6.12. There, on a connection that has sent
 * nothing since the handshake, the accepted end's tcpi_rcv_wnd is the
 * window of its SYN-ACK (rsk_rcv_wnd, below 65535 on lo), which the
 * connecting end holds as tcpi_snd_wnd; no rehash, no RTO.
 */
TEST_F(stable, tcp_info_grows_since_6_7)
{
	int since_6_7 = kernel_since(6, 7), since_6_2 = kernel_since(6, 2);
	unsigned char ta[512], tc[512];
	socklen_t la = sizeof(ta), lc = sizeof(tc);
	int c, a, want, i, untouched = 0;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	ASSERT_NE(since_6_7, -1) TH_LOG("no version in uname");
	/* tcp_rmem[1]'s window (65536) is what bounds the SYN-ACK's */
	ASSERT_EQ(write_str(RMEM, "4096 131072 6291456"), 0);
	want = since_6_7 ? TI_SIZE_6_7 : since_6_2 ? TI_SIZE_6_2 : TI_SIZE_6_1;
	loopback_pairs(_metadata, htonl(INADDR_LOOPBACK), 1, &c, &a);
	memset(ta, 0xa5, sizeof(ta));
	memset(tc, 0xa5, sizeof(tc));
	ASSERT_EQ(getsockopt(a, IPPROTO_TCP, TCP_INFO, ta, &la), 0);
	ASSERT_EQ(getsockopt(c, IPPROTO_TCP, TCP_INFO, tc, &lc), 0);
	EXPECT_EQ(la, want);
	EXPECT_EQ(lc, want);
	for (i = want; i < (int)sizeof(ta); i++)
		untouched += ta[i] == 0xa5;
	EXPECT_EQ(untouched, (int)sizeof(ta) - want);
	if (since_6_2) {
		EXPECT_EQ(ti_u32(ta, TI_RCV_WND), ti_u32(tc, TI_SND_WND));
		EXPECT_GT(ti_u32(ta, TI_RCV_WND), 0);
		EXPECT_LT(ti_u32(ta, TI_RCV_WND), 65535);
		EXPECT_EQ(ti_u32(ta, TI_REHASH), 0);
	}
	if (since_6_7) {
		EXPECT_EQ(ti_u16(ta, TI_TOTAL_RTO), 0);
		EXPECT_EQ(ti_u16(ta, TI_TOTAL_RTO_RECOVERIES), 0);
		EXPECT_EQ(ti_u32(ta, TI_TOTAL_RTO_TIME), 0);
	}
	close(c);
	close(a);
}

/*
 * "tcp: add u32 counter in tcp_sock and an SNMP counter for PLB"
 * (29c1c44646ae, 6.2): SCM_TIMESTAMPING_OPT_STATS ends with
 * TCP_NLA_REHASH (27, a u32: PLB and timeout rehashes). The stats of a
 * send timestamp (no ACK: no TCP_NLA_TTL) end with TCP_NLA_EDT (25) on
 * 6.1, with TCP_NLA_REHASH 0 on 6.12 (no rehash on lo).
 */
TEST_F(stable, opt_stats_rehash_since_6_2)
{
	int flags = SOF_TIMESTAMPING_TX_SOFTWARE | SOF_TIMESTAMPING_SOFTWARE |
		    SOF_TIMESTAMPING_OPT_TSONLY | SOF_TIMESTAMPING_OPT_STATS;
	int since = kernel_since(6, 2);
	struct pollfd pfd = { .events = 0 };
	char ctrl[2048], data[64];
	struct iovec iov = { .iov_base = data, .iov_len = sizeof(data) };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_control = ctrl,
			      .msg_controllen = sizeof(ctrl) };
	struct cmsghdr *cm;
	int c, a, stats = 0, last = -1, rehash = -1, nattrs = 0;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	ASSERT_NE(since, -1) TH_LOG("no version in uname");
	loopback_pairs(_metadata, htonl(INADDR_LOOPBACK), 1, &c, &a);
	ASSERT_EQ(setsockopt(c, SOL_SOCKET, SO_TIMESTAMPING, &flags, sizeof(flags)), 0);
	ASSERT_EQ(send(c, "x", 1, 0), 1);
	/* lo's xmit queues the timestamp: POLLERR until it is read */
	pfd.fd = c;
	ASSERT_EQ(poll(&pfd, 1, 5000), 1);
	ASSERT_GE(recvmsg(c, &msg, MSG_ERRQUEUE), 0) TH_LOG("%s", strerror(errno));
	for (cm = CMSG_FIRSTHDR(&msg); cm; cm = CMSG_NXTHDR(&msg, cm)) {
		const unsigned char *p = CMSG_DATA(cm);
		int len = cm->cmsg_len - CMSG_LEN(0);

		if (cm->cmsg_level != SOL_SOCKET ||
		    cm->cmsg_type != SCM_TIMESTAMPING_OPT_STATS)
			continue;
		stats++;
		while (len >= NLA_HDRLEN) {
			struct nlattr na;

			memcpy(&na, p, sizeof(na));
			if (na.nla_len < NLA_HDRLEN || na.nla_len > len)
				break;
			last = na.nla_type;
			nattrs++;
			if (na.nla_type == KC_TCP_NLA_REHASH &&
			    na.nla_len == NLA_HDRLEN + sizeof(__u32))
				rehash = ti_u32(p, NLA_HDRLEN);
			p += NLA_ALIGN(na.nla_len);
			len -= NLA_ALIGN(na.nla_len);
		}
	}
	EXPECT_EQ(stats, 1);
	EXPECT_GT(nattrs, 20);
	EXPECT_EQ(last, since ? KC_TCP_NLA_REHASH : KC_TCP_NLA_EDT);
	EXPECT_EQ(rehash, since ? 0 : -1);
	close(c);
	close(a);
}

/*
 * "tcp: socket option to check for MPTCP fallback to TCP" (c084ebd77a00,
 * 6.10): getsockopt(IPPROTO_TCP, TCP_IS_MPTCP = 43) on a TCP socket is
 * 0 (an MPTCP socket says 1); 6.1 knows no option 43: ENOPROTOOPT.
 */
TEST_F(stable, tcp_is_mptcp_since_6_10)
{
	int since = kernel_since(6, 10);
	socklen_t len = sizeof(int);
	int fd, val = -1;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	ASSERT_NE(since, -1) TH_LOG("no version in uname");
	fd = socket(AF_INET, SOCK_STREAM, 0);
	ASSERT_GE(fd, 0);
	if (since) {
		EXPECT_EQ(getsockopt(fd, IPPROTO_TCP, TCP_IS_MPTCP, &val, &len), 0);
		EXPECT_EQ(val, 0);
		EXPECT_EQ(len, sizeof(int));
	} else {
		EXPECT_EQ(getsockopt(fd, IPPROTO_TCP, TCP_IS_MPTCP, &val, &len), -1);
		EXPECT_EQ(errno, ENOPROTOOPT);
		EXPECT_EQ(val, -1);
	}
	close(fd);
}

/*
 * "net/tcp: Add TCP_AO_REPAIR" (faadfaba5e01, 6.7) with "net/tcp: Limit
 * TCP_AO_REPAIR to non-listen sockets" (6.7): TCP_AO_REPAIR (42), set or
 * get, on a listener is EPERM whether or not the kernel has TCP-AO
 * (tcp_can_repair_sock() first); 6.1 knows no option 42: ENOPROTOOPT.
 */
TEST_F(stable, ao_repair_on_listener_eperm_since_6_7)
{
	struct sockaddr_in sa = { .sin_family = AF_INET,
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int since = kernel_since(6, 7), err = since ? EPERM : ENOPROTOOPT;
	unsigned char buf[64] = {};
	socklen_t len = sizeof(buf);
	int fd;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	ASSERT_NE(since, -1) TH_LOG("no version in uname");
	fd = socket(AF_INET, SOCK_STREAM, 0);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	ASSERT_EQ(listen(fd, 1), 0);
	EXPECT_EQ(setsockopt(fd, IPPROTO_TCP, TCP_AO_REPAIR, buf, sizeof(buf)), -1);
	EXPECT_EQ(errno, err);
	EXPECT_EQ(getsockopt(fd, IPPROTO_TCP, TCP_AO_REPAIR, buf, &len), -1);
	EXPECT_EQ(errno, err);
	close(fd);
}

/*
 * Whether the kernel has TCP-MD5 (CONFIG_TCP_MD5SIG) or TCP-AO
 * (CONFIG_TCP_AO): deleting an MD5 key no socket has is ENOENT with the
 * first, and reading TCP_AO_INFO of a socket without TCP-AO is ENOENT
 * with the second; ENOPROTOOPT without them.
 */
static bool tcp_auth_built_in(struct __test_metadata *_metadata)
{
	struct tcp_md5sig md5 = {};
	unsigned char ao[64] = {};
	socklen_t len = sizeof(ao);
	int fd, md5_err, ao_err;

	md5.tcpm_addr.ss_family = AF_INET;
	fd = socket(AF_INET, SOCK_STREAM, 0);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(setsockopt(fd, IPPROTO_TCP, TCP_MD5SIG, &md5, sizeof(md5)), -1);
	md5_err = errno;
	ASSERT_EQ(getsockopt(fd, IPPROTO_TCP, TCP_AO_INFO, ao, &len), -1);
	ao_err = errno;
	close(fd);
	TH_LOG("TCP-MD5: %s, TCP-AO: %s", strerror(md5_err), strerror(ao_err));
	return md5_err != ENOPROTOOPT || ao_err != ENOPROTOOPT;
}

/*
 * "net/tcp: Verify inbound TCP-AO signed segments" (0a3a809089eb, 6.7):
 * with CONFIG_TCP_MD5SIG or CONFIG_TCP_AO (Debian's 6.1 kernel has the
 * first; so does this suite's config), tcp_v4_rcv() checks the options
 * of every segment to a socket with tcp_inbound_hash(), and drops one
 * with a malformed option (a length below 2 or past the header, met
 * while 18 bytes of options or more are left, 5 with TCP-AO) without an
 * answer: a SYN to a listener whose options start with option 99 of
 * length 1 gets no SYN-ACK. 6.1's tcp_inbound_md5_hash() only looks for
 * an MD5 option and tcp_parse_options() stops at the malformed one: the
 * SYN is answered. A SYN with option 99 of length 2 (well-formed) is
 * answered on both, and 6.7+ without either option answers both.
 *
 * The malformed SYN goes first, the control SYN after it, both from one
 * CPU through lo (no RPS): its backlog takes them in that order, and
 * each is answered before the next is read, so once the control's
 * SYN-ACK is seen, an answer to the malformed SYN would already have
 * been seen before it.
 */
TEST_F(stable, malformed_option_dropped_since_6_7)
{
	struct sockaddr_in sa = { .sin_family = AF_INET,
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int since = kernel_since(6, 7), bad_synack = 0, bad_other = 0;
	__u16 bad_port = PEER_PORT, good_port = PEER_PORT + 1;
	__u8 bad[20], good[20];
	bool drop, control = false;
	struct tcphdr t;
	struct peer p;
	cpu_set_t cpu;
	int lfd, this_cpu;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	ASSERT_NE(since, -1) TH_LOG("no version in uname");
	drop = since && tcp_auth_built_in(_metadata);
	this_cpu = sched_getcpu();
	ASSERT_GE(this_cpu, 0);
	CPU_ZERO(&cpu);
	CPU_SET(this_cpu, &cpu);
	ASSERT_EQ(sched_setaffinity(0, sizeof(cpu), &cpu), 0);
	/* option 99 (unassigned) of length 1, or 2; NOPs to 20 bytes */
	memset(bad, TCPOPT_NOP, sizeof(bad));
	bad[0] = 99;
	bad[1] = 1;
	memcpy(good, bad, sizeof(good));
	good[1] = 2;

	lfd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
	ASSERT_GE(lfd, 0);
	ASSERT_EQ(bind(lfd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	ASSERT_EQ(listen(lfd, 4), 0);
	peer_open(_metadata, &p, lfd);

	peer_send_opt(_metadata, &p, bad_port, TH_SYN, PEER_ISN, 0,
		      bad, sizeof(bad));
	peer_send_opt(_metadata, &p, good_port, TH_SYN, PEER_ISN, 0,
		      good, sizeof(good));
	while (!control && peer_next(&p, &t, 2000)) {
		if (t.dest == htons(bad_port)) {
			if (t.syn && t.ack)
				bad_synack++;
			else
				bad_other++;
		} else if (t.dest == htons(good_port) && t.syn && t.ack) {
			control = true;
			EXPECT_EQ(ntohl(t.ack_seq), PEER_ISN + 1);
		}
	}
	ASSERT_TRUE(control) TH_LOG("no SYN-ACK to the well-formed SYN");
	EXPECT_EQ(bad_synack, drop ? 0 : 1)
		TH_LOG("kernel %s 6.7, %s the option check",
		       since ? "since" : "before", drop ? "with" : "without");
	EXPECT_EQ(bad_other, 0);
	close(p.raw);
	close(p.pkt);
	close(lfd);
}

static __s64 mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/*
 * "tcp: add support for usec resolution in TCP TS values" (614e8316aa4c,
 * 6.7): the low bit of TCP_TIMESTAMP says the socket's clock. In repair
 * mode an odd value switches it to microseconds (tcp_clock_us()), an
 * even one keeps milliseconds; getsockopt() sets the bit for the first,
 * clears it for the second. 6.1 has only the millisecond clock and
 * returns clock + offset as is. Both clocks are CLOCK_MONOTONIC, so two
 * reads bracketed by the test's own reads of it, 3 ms apart, differ by
 * the bracket's length in the socket's unit: about 3000 on 6.12, about
 * 3 on 6.1 (the bounds are the brackets, in that unit, +/- 2 for the
 * flooring and the low bit).
 */
TEST_F(stable, repair_timestamp_low_bit_is_usec_since_6_7)
{
	struct timespec pause = { .tv_nsec = 3000000 };
	int since = kernel_since(6, 7), on = TCP_REPAIR_ON;
	__u32 set_odd = 1001, set_even = 1000, r1, r2, re;
	__s64 t0, ta, tb, tc, td, unit;
	int fd, fe;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	ASSERT_NE(since, -1) TH_LOG("no version in uname");
	unit = since ? 1000 : 1000000;
	fd = socket(AF_INET, SOCK_STREAM, 0);
	ASSERT_GE(fd, 0);
	fe = socket(AF_INET, SOCK_STREAM, 0);
	ASSERT_GE(fe, 0);
	ASSERT_EQ(setsockopt(fd, IPPROTO_TCP, TCP_REPAIR, &on, sizeof(on)), 0);
	ASSERT_EQ(setsockopt(fe, IPPROTO_TCP, TCP_REPAIR, &on, sizeof(on)), 0);

	t0 = mono_ns();
	ASSERT_EQ(setsockopt(fd, IPPROTO_TCP, TCP_TIMESTAMP, &set_odd, sizeof(set_odd)), 0);
	ta = mono_ns();
	r1 = tcp_timestamp(_metadata, fd);
	tb = mono_ns();
	nanosleep(&pause, NULL);
	tc = mono_ns();
	r2 = tcp_timestamp(_metadata, fd);
	td = mono_ns();
	TH_LOG("reads %u %u, brackets %lld %lld ns", r1, r2,
	       (long long)(tc - tb), (long long)(td - ta));
	/* the first read: the value set plus the time since, in the unit */
	EXPECT_GE((__s64)r1, set_odd - 1);
	EXPECT_LE((__s64)r1, set_odd + (tb - t0) / unit + 2);
	EXPECT_GE((__s64)(r2 - r1), (tc - tb) / unit - 2);
	EXPECT_LE((__s64)(r2 - r1), (td - ta) / unit + 2);
	if (since) {
		EXPECT_EQ(r1 & 1, 1);
		EXPECT_EQ(r2 & 1, 1);
	}

	/* an even value: milliseconds on both, the low bit clear on 6.12 */
	t0 = mono_ns();
	ASSERT_EQ(setsockopt(fe, IPPROTO_TCP, TCP_TIMESTAMP, &set_even, sizeof(set_even)), 0);
	re = tcp_timestamp(_metadata, fe);
	ta = mono_ns();
	EXPECT_GE((__s64)re, set_even - 1);
	EXPECT_LE((__s64)re, set_even + (ta - t0) / 1000000 + 2);
	if (since)
		EXPECT_EQ(re & 1, 0);
	close(fd);
	close(fe);
}

/* ::ffff:0.0.0.0 and ::ffff:127.0.0.1 */
static const struct in6_addr v4mapped_any = {
	.s6_addr = { [10] = 0xff, [11] = 0xff },
};

static const struct in6_addr v4mapped_loopback = {
	.s6_addr = { [10] = 0xff, [11] = 0xff, [12] = 127, [15] = 1 },
};

/*
 * A TCP socket of @family in *@fd bound to @addr:*@port (an AF_INET
 * socket to the IPv4 address @addr maps); a port of 0 is replaced by
 * the one bound. Returns bind()'s 0 or -errno.
 */
static int tcp_bind_mapped(struct __test_metadata *_metadata, int family,
			   const struct in6_addr *addr, unsigned short *port,
			   int *fd)
{
	struct sockaddr_in6 s6 = { .sin6_family = AF_INET6,
				   .sin6_port = htons(*port),
				   .sin6_addr = *addr };
	struct sockaddr_in s4 = { .sin_family = AF_INET,
				  .sin_port = htons(*port),
				  .sin_addr.s_addr = addr->s6_addr32[3] };
	struct sockaddr *sa = family == AF_INET6 ? (struct sockaddr *)&s6 :
						   (struct sockaddr *)&s4;
	socklen_t len = family == AF_INET6 ? sizeof(s6) : sizeof(s4);

	*fd = socket(family, SOCK_STREAM, 0);
	ASSERT_GE(*fd, 0);
	if (bind(*fd, sa, len))
		return -errno;
	ASSERT_EQ(getsockname(*fd, sa, &len), 0);
	*port = ntohs(family == AF_INET6 ? s6.sin6_port : s4.sin_port);
	return 0;
}

/*
 * "tcp: Save v4 address as v4-mapped-v6 in inet_bind2_bucket.v6_rcv_saddr."
 * (06a8c04f8994, 6.8): an IPv6 socket bound to the v4-mapped wildcard
 * [::ffff:0.0.0.0]:P holds P for every IPv4 address, as 0.0.0.0 does,
 * so another IPv6 socket's bind() to [::ffff:127.0.0.1]:P is EADDRINUSE.
 * 6.1.192 has 5e07e672412b ("tcp: Use bhash2 for v4-mapped-v6
 * non-wildcard address.", 6.8, in 6.1-stable), which checks that bind()
 * against the wildcard buckets only (inet_bhash2_addr_any_conflict()),
 * but not this one: its inet_bind2_bucket_match_addr_any() takes an IPv6
 * socket's IPv6 bucket for a wildcard only if it is [::], so the second
 * bind() succeeds, and the wildcard socket's listen() then fails with
 * EADDRINUSE (a wildcard checks every owner of the port, bhash). The
 * other orders conflict on both: 127.0.0.1:P from an AF_INET socket
 * (aa99e5f87bd5 matches ::ffff:0.0.0.0 for AF_INET, in 6.1-stable), and
 * [::ffff:0.0.0.0]:Q after [::ffff:127.0.0.1]:Q (inet_rcv_saddr_equal()).
 */
TEST_F(stable, v4mapped_any_holds_mapped_port_since_6_8)
{
	unsigned short port = 0, port2 = 0;
	int since = kernel_since(6, 8);
	int any, local, v4, local2, any2;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	ASSERT_NE(since, -1) TH_LOG("no version in uname");
	ASSERT_EQ(tcp_bind_mapped(_metadata, AF_INET6, &v4mapped_any, &port, &any), 0);
	EXPECT_EQ(tcp_bind_mapped(_metadata, AF_INET6, &v4mapped_loopback, &port, &local),
		  since ? -EADDRINUSE : 0) TH_LOG("[::ffff:127.0.0.1]:%u", port);
	EXPECT_EQ(tcp_bind_mapped(_metadata, AF_INET, &v4mapped_loopback, &port, &v4),
		  -EADDRINUSE) TH_LOG("127.0.0.1:%u", port);
	EXPECT_EQ(listen(any, 1), since ? 0 : -1) TH_LOG("the wildcard's listen()");
	if (!since)
		EXPECT_EQ(errno, EADDRINUSE);

	ASSERT_EQ(tcp_bind_mapped(_metadata, AF_INET6, &v4mapped_loopback, &port2, &local2), 0);
	EXPECT_EQ(tcp_bind_mapped(_metadata, AF_INET6, &v4mapped_any, &port2, &any2),
		  -EADDRINUSE) TH_LOG("[::ffff:0.0.0.0]:%u second", port2);
	close(any);
	close(local);
	close(v4);
	close(local2);
	close(any2);
}

TEST_HARNESS_MAIN
