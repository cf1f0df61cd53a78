// SPDX-License-Identifier: GPL-2.0
/*
 * What samples/rust promises, line by line (commit e4fc6580b079,
 * "samples: add first Rust examples"):
 *
 *   - rust_minimal built in prints "Rust minimal sample (init)" and then
 *     "Am I built-in? true" at boot;
 *   - the same source as a module prints the init line and "Am I
 *     built-in? false" on insmod, and "My numbers are [72, 108, 200]"
 *     and then "Rust minimal sample (exit)" on rmmod; its .modinfo
 *     carries the author, description and license of the module! block;
 *   - when the allocation in init fails, init fails with ENOMEM, the
 *     module is not loaded, Drop does not run and nothing leaks;
 *   - the host program `single` prints "Hello world!" and "The number
 *     is 42.".
 *
 * The guest kernel has CONFIG_SAMPLE_RUST_MINIMAL=y; rust_minimal.ko
 * next to this program is samples/rust/rust_minimal.rs built again as
 * an external module of the same kernel (see the Makefile).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "../kconform_fuzz.h"
#include "../kconform_util.h"

#define PREFIX "rust_minimal: "
#define TAINT_LINE "loading out-of-tree module taints kernel."
/* CONFIG_MODULE_SIG (bpf_security's config) without a signed module */
#define UNSIGNED_LINE "module verification failed: signature and/or " \
	"required key missing - tainting kernel"
#define MAX_LINES 16
#define KMEMLEAK "/sys/kernel/debug/kmemleak"
#define SLAB_FLAG "/sys/kernel/slab/kmalloc-16/failslab"
/* Far more kmalloc-16 allocations than one finit_module() of it makes. */
#define MAX_NTH 20000

struct lines {
	int n;
	char line[MAX_LINES][256];
};

/* Where a boot ends: init/main.c's run_init_process() logs "Run %s as init process". */
static bool is_init_record(const char *text)
{
	return !strncmp(text, "Run ", 4) && strstr(text, " as init process");
}

/*
 * Collect the messages of rust_minimal from /dev/kmsg, from @fd's
 * position on: one record per read(), "level,seq,time,flags;text".
 * With @boot, stop at the record that ends the boot, and set
 * @first_seq to the sequence number of the first record read (-1 if
 * there was none) and @ended to whether that record was seen.
 */
static void read_kmsg(int fd, struct lines *out, bool boot,
		      long long *first_seq, bool *ended)
{
	static char rec[8192];	/* CONSOLE_EXT_LOG_MAX: a record never reads EINVAL */
	long long seq;
	ssize_t len;
	char *text;

	out->n = 0;
	if (boot) {
		*first_seq = -1;
		*ended = false;
	}
	for (;;) {
		len = read(fd, rec, sizeof(rec) - 1);
		if (len < 0 && errno == EPIPE)
			continue;	/* overwritten records; go on */
		if (len <= 0)
			break;
		rec[len] = '\0';
		text = strchr(rec, ';');
		if (!text)
			continue;
		text++;
		text[strcspn(text, "\n")] = '\0';
		if (boot && *first_seq < 0 && sscanf(rec, "%*u,%lld,", &seq) == 1)
			*first_seq = seq;
		if (boot && is_init_record(text)) {
			*ended = true;
			break;
		}
		if (strncmp(text, PREFIX, strlen(PREFIX)) || out->n == MAX_LINES)
			continue;
		/* The module loader's own lines, on the first external module. */
		if (!strcmp(text + strlen(PREFIX), TAINT_LINE) ||
		    !strcmp(text + strlen(PREFIX), UNSIGNED_LINE))
			continue;
		snprintf(out->line[out->n++], sizeof(out->line[0]), "%s",
			 text + strlen(PREFIX));
	}
}

static void read_lines(int fd, struct lines *out)
{
	read_kmsg(fd, out, false, NULL, NULL);
}

static void expect_lines(struct __test_metadata *_metadata,
			 const struct lines *got, const char *const *want,
			 int nwant)
{
	int i;

	EXPECT_EQ(got->n, nwant);
	for (i = 0; i < got->n || i < nwant; i++) {
		const char *g = i < got->n ? got->line[i] : "(nothing)";
		const char *w = i < nwant ? want[i] : "(nothing)";

		EXPECT_STREQ(g, w) TH_LOG("line %d of rust_minimal", i + 1);
	}
}

static int is_loaded(void)
{
	char line[256];
	int found = 0;
	FILE *f;

	f = fopen("/proc/modules", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "rust_minimal ", 13))
			found = 1;
	fclose(f);
	return found;
}

/* The first character of a one-line file, or 0. */
static char read_first(const char *path)
{
	char c = 0;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd >= 0) {
		if (read(fd, &c, 1) != 1)
			c = 0;
		close(fd);
	}
	return c;
}

/*
 * Every line rust_minimal printed during the boot, once each, and
 * nothing else: the records from the first the kernel logged (sequence
 * number 0) up to the one that ends the boot, so a later insmod of the
 * module cannot count, and a line printed twice cannot hide.  In 6.1
 * rust_minimal is the only built-in Rust sample (samples/rust).  The
 * boot's records must still be in the log buffer when this runs, after
 * the other targets' reports: suites.toml gives the guest a log buffer
 * far larger than a whole run logs, and the test checks that nothing
 * was lost rather than trust it.
 */
TEST(builtin_prints_init_lines_at_boot)
{
	static const char *const want[] = {
		"Rust minimal sample (init)",
		"Am I built-in? true",
	};
	long long first_seq;
	struct lines got;
	bool ended;
	int fd;

	/* A fresh open of /dev/kmsg starts at the oldest record kept. */
	fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	ASSERT_GE(fd, 0);
	read_kmsg(fd, &got, true, &first_seq, &ended);
	close(fd);
	if (first_seq != 0)
		SKIP(return, "boot records lost (oldest seq %lld): log_buf_len too small",
		     first_seq);
	ASSERT_TRUE(ended) TH_LOG("no \"Run ... as init process\" record");
	expect_lines(_metadata, &got, want, ARRAY_SIZE(want));
}

TEST(host_program_single_prints_two_lines)
{
	char cmd[PATH_MAX + 16], out[256];

	snprintf(cmd, sizeof(cmd), "%s 2>&1", here("single"));
	EXPECT_EQ(capture(cmd, out, sizeof(out)), 0);
	EXPECT_STREQ(out, "Hello world!\nThe number is 42.\n");
}

TEST(modinfo_shows_module_block)
{
	static const char *const field[][2] = {
		{ "author", "Rust for Linux Contributors\n" },
		{ "description", "Rust minimal sample\n" },
		{ "license", "GPL\n" },
	};
	char cmd[PATH_MAX + 64], out[256];
	int i;

	for (i = 0; i < 3; i++) {
		snprintf(cmd, sizeof(cmd), "modinfo -F %s %s", field[i][0],
			 here("rust_minimal.ko"));
		EXPECT_EQ(capture(cmd, out, sizeof(out)), 0);
		EXPECT_STREQ(out, field[i][1]) TH_LOG("field %s", field[i][0]);
	}
}

FIXTURE(module) {
	int ko;
	int kmsg;
};

FIXTURE_SETUP(module)
{
	struct lines drain;

	self->ko = -1;
	self->kmsg = -1;
	ASSERT_EQ(is_loaded(), 0) TH_LOG("rust_minimal is already loaded");
	self->ko = open(here("rust_minimal.ko"), O_RDONLY | O_CLOEXEC);
	ASSERT_GE(self->ko, 0) TH_LOG("%s: %s", here("rust_minimal.ko"),
				      strerror(errno));
	self->kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	ASSERT_GE(self->kmsg, 0);
	read_lines(self->kmsg, &drain);
}

FIXTURE_TEARDOWN(module)
{
	if (is_loaded() == 1)
		syscall(__NR_delete_module, "rust_minimal", O_NONBLOCK);
	if (self->ko >= 0)
		close(self->ko);
	if (self->kmsg >= 0)
		close(self->kmsg);
}

TEST_F(module, insmod_prints_init_lines)
{
	static const char *const want[] = {
		"Rust minimal sample (init)",
		"Am I built-in? false",
	};
	struct lines got;

	ASSERT_EQ(syscall(__NR_finit_module, self->ko, "", 0), 0)
		TH_LOG("finit_module: %s", strerror(errno));
	read_lines(self->kmsg, &got);
	expect_lines(_metadata, &got, want, 2);
	EXPECT_EQ(is_loaded(), 1);
}

TEST_F(module, rmmod_prints_numbers_then_exit)
{
	static const char *const want[] = {
		"My numbers are [72, 108, 200]",
		"Rust minimal sample (exit)",
	};
	struct lines got;

	ASSERT_EQ(syscall(__NR_finit_module, self->ko, "", 0), 0)
		TH_LOG("finit_module: %s", strerror(errno));
	read_lines(self->kmsg, &got);
	ASSERT_EQ(syscall(__NR_delete_module, "rust_minimal", O_NONBLOCK), 0)
		TH_LOG("delete_module: %s", strerror(errno));
	read_lines(self->kmsg, &got);
	expect_lines(_metadata, &got, want, 2);
	EXPECT_EQ(is_loaded(), 0);
}

/*
 * Fail the nth kmalloc-16 allocation of finit_module() (fail-nth and
 * failslab's cache-filter, Documentation/fault-injection/), for n = 1,
 * 2, ... until the failure lands in the module's init: the first failed
 * attempt that printed the init line. The sample's Vec<i32> takes 16
 * bytes on its first try_push(); counting only that cache keeps vmalloc's
 * and kmemleak's own allocations from shifting n between attempts.
 * Failures before init are in load_module() and print nothing; some are
 * absorbed and the module loads, so it is unloaded and n goes on. An
 * attempt that loads with fail-nth still pending made fewer than n such
 * allocations: init's was never failed. Returns the errno of the attempt
 * that failed in init, its lines in @got, or 0.
 */
static int fail_in_init_filtered(struct __test_metadata *_metadata, int ko,
				 int kmsg, struct lines *got)
{
	char nth[16];
	ssize_t len;
	long ret;
	int n, err;

	ASSERT_EQ(read_first(SLAB_FLAG), '1')
		TH_LOG("%s is not 1: boot with slub_debug=A,kmalloc-16", SLAB_FLAG);
	ASSERT_EQ(kc_write_file(KC_FAILSLAB "cache-filter", "Y"), 0);
	ASSERT_EQ(kc_write_file(KC_FAILSLAB "ignore-gfp-wait", "N"), 0);
	ASSERT_EQ(kc_write_file(KC_FAILSLAB "verbose", "0"), 0);
	for (n = 1; n < MAX_NTH; n++) {
		int fd = open("/proc/thread-self/fail-nth", O_RDWR);

		ASSERT_GE(fd, 0);
		snprintf(nth, sizeof(nth), "%d", n);
		ASSERT_EQ(write(fd, nth, strlen(nth)), (ssize_t)strlen(nth));
		ret = syscall(__NR_finit_module, ko, "", 0);
		err = errno;
		len = pread(fd, nth, sizeof(nth) - 1, 0);
		ASSERT_EQ(write(fd, "0", 1), 1);
		close(fd);
		ASSERT_GT(len, 0);
		nth[len] = '\0';
		read_lines(kmsg, got);
		if (ret < 0 && got->n)
			return err;
		if (ret < 0)
			continue;
		if (strtol(nth, NULL, 10)) {
			TH_LOG("attempt %d loaded the module before fail-nth fired", n);
			return 0;
		}
		ASSERT_EQ(syscall(__NR_delete_module, "rust_minimal", O_NONBLOCK), 0);
		read_lines(kmsg, got);
	}
	TH_LOG("no attempt up to %d reached init", MAX_NTH);
	return 0;
}

/*
 * The cache-filter is global: the other targets' fail-nth cases, which
 * may run beside this one (lanes), would fail only kmalloc-16
 * allocations while it is set. So it is set with failslab's lock held
 * exclusively, and cleared before the lock goes.
 */
static int fail_in_init(struct __test_metadata *_metadata, int ko, int kmsg,
			struct lines *got)
{
	int lock, err;

	lock = kc_failslab_lock(LOCK_EX);
	ASSERT_GE(lock, 0) TH_LOG("failslab's lock: %s", strerror(-lock));
	err = fail_in_init_filtered(_metadata, ko, kmsg, got);
	ASSERT_EQ(kc_write_file(KC_FAILSLAB "cache-filter", "N"), 0);
	close(lock);
	return err;
}

TEST_F(module, init_fails_with_enomem)
{
	static const char *const want[] = {
		"Rust minimal sample (init)",
		"Am I built-in? false",
	};
	struct lines got;

	if (access(KC_FAILSLAB, F_OK))
		SKIP(return, "%s missing: no CONFIG_FAILSLAB or debugfs", KC_FAILSLAB);
	EXPECT_EQ(fail_in_init(_metadata, self->ko, self->kmsg, &got), ENOMEM);
	/* Init stopped at its first try_push(): no numbers, no Drop. */
	expect_lines(_metadata, &got, want, 2);
	EXPECT_EQ(is_loaded(), 0);
}

/* Counts the kmemleak reports of allocations made by process @pid. */
static int leaks_of(struct __test_metadata *_metadata, pid_t pid)
{
	char line[512], tag[32];
	int count = 0;
	FILE *f;

	/*
	 * Twice: a scan takes an object whose contents changed since the
	 * last one (a first look counts as a change) for still in use.
	 */
	ASSERT_EQ(kc_write_file(KMEMLEAK, "scan"), 0);
	ASSERT_EQ(kc_write_file(KMEMLEAK, "scan"), 0);
	f = fopen(KMEMLEAK, "r");
	ASSERT_NE(f, NULL);
	snprintf(tag, sizeof(tag), ", pid %d,", pid);
	while (fgets(line, sizeof(line), f)) {
		if (strstr(line, tag)) {
			TH_LOG("%s", line);
			count++;
		}
	}
	fclose(f);
	return count;
}

/*
 * A kmemleak scan walks all memory: on the debug variant (KASAN) under
 * TCG, after the fault-injection cases have made many objects, the two
 * scans took 28 s and went past the harness's default 30 s.
 */
TEST_F_TIMEOUT(module, init_failure_leaks_nothing, 180)
{
	struct lines got;

	if (access(KC_FAILSLAB, F_OK) || access(KMEMLEAK, F_OK))
		SKIP(return, "no failslab or kmemleak in debugfs");
	ASSERT_EQ(fail_in_init(_metadata, self->ko, self->kmsg, &got), ENOMEM);
	/*
	 * kmemleak reports only objects older than 5 s when its scan
	 * starts (jiffies_min_age); every allocation of the attempts was
	 * made before fail_in_init() returned: half a second of margin
	 * (125 ticks at HZ=250) is plenty.
	 */
	usleep(5500 * 1000);
	EXPECT_EQ(leaks_of(_metadata, getpid()), 0);
}

TEST_HARNESS_MAIN
