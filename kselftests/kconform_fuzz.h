/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What kconform's seeded bad-input and fault-injection kselftests share:
 * one seeded PRNG, the guest-sanity check, and failslab driven by
 * /proc/thread-self/fail-nth.
 *
 * Seeds. A bad-input test prints "# seed: N" before anything else and
 * draws every input from N. N is KCONFORM_SEED from the environment, else
 * kconform.seed=N on the kernel command line (the runner adds it when
 * KCONFORM_SEED is set on the host), else KC_DEFAULT_SEED: a fixed default,
 * so that CI gives the same verdict on every run of the same code, and a
 * failure seen once is seen again. Exploring other inputs is a matter of
 * setting KCONFORM_SEED; the seed a failure printed reproduces it exactly.
 * Each test mixes its own name into the seed, so that the tests of one
 * program draw different streams and each reproduces alone.
 *
 * Fault injection. fail-nth (Documentation/fault-injection/
 * fault-injection.rst) fails the n-th failslab check of the calling thread
 * only; kc_failslab_setup() makes every slab allocation count (no cache
 * filter, GFP_KERNEL included, no report per failure). The guest has
 * CONFIG_FAILSLAB but not CONFIG_FAIL_PAGE_ALLOC, so page allocations
 * (a vmalloc()'s pages, a large kmalloc()) never fail here.
 */
#ifndef KCONFORM_FUZZ_H
#define KCONFORM_FUZZ_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>
#include <linux/types.h>

#include "kselftest_harness.h"

/* 6.1's merge window opened on 2022-10-03. */
#define KC_DEFAULT_SEED		20221003ULL

#define KC_FAILSLAB		"/sys/kernel/debug/failslab/"
#define KC_FAIL_NTH		"/proc/thread-self/fail-nth"
#define KC_TAINTED		"/proc/sys/kernel/tainted"

/*
 * Whether a case's checks so far passed (a seeded loop stops at the
 * first input that failed). 6.1's kselftest_harness.h keeps
 * _metadata->passed; the harness of later trees (6.12) keeps an exit
 * code and gives __test_passed(). Its XFAIL_ADD came with that change.
 */
#ifdef XFAIL_ADD
#define kc_passed(metadata)	__test_passed(metadata)
#else
#define kc_passed(metadata)	((metadata)->passed)
#endif

struct kc_rng {
	__u64 s;
};

static inline unsigned long long kc_seed(void)
{
	static char line[4096];
	const char *env = getenv("KCONFORM_SEED");
	char *p;
	FILE *f;

	if (env && *env)
		return strtoull(env, NULL, 0);
	f = fopen("/proc/cmdline", "r");
	if (f) {
		if (!fgets(line, sizeof(line), f))
			line[0] = '\0';
		fclose(f);
		for (p = strtok(line, "\n "); p; p = strtok(NULL, "\n "))
			if (!strncmp(p, "kconform.seed=", 14))
				return strtoull(p + 14, NULL, 0);
	}
	return KC_DEFAULT_SEED;
}

/* splitmix64 */
static inline __u64 kc_next(struct kc_rng *r)
{
	__u64 z = (r->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/*
 * Seeds @r for the test @name and prints the seed first. Prints
 * "# seed: N" even when KCONFORM_SEED was given, so a log always says.
 */
static inline void kc_rng_init(struct kc_rng *r, const char *name)
{
	unsigned long long seed = kc_seed();
	__u64 h = 0xcbf29ce484222325ULL;	/* FNV-1a of the name */

	while (*name)
		h = (h ^ (unsigned char)*name++) * 0x100000001b3ULL;
	printf("# seed: %llu (KCONFORM_SEED=%llu reproduces)\n", seed, seed);
	fflush(stdout);
	r->s = seed ^ h;
	kc_next(r);
}

/* Uniform in [0, n), n > 0. */
static inline __u64 kc_below(struct kc_rng *r, __u64 n)
{
	return kc_next(r) % n;
}

/* True with probability @pct percent. */
static inline int kc_chance(struct kc_rng *r, unsigned int pct)
{
	return kc_below(r, 100) < pct;
}

#define kc_pick(r, arr) ((arr)[kc_below((r), sizeof(arr) / sizeof((arr)[0]))])

/*
 * The bits of /proc/sys/kernel/tainted that say the kernel found trouble
 * (Documentation/admin-guide/tainted-kernels.rst): M machine check, B bad
 * page, D died (oops, BUG), W warning, L soft lockup. The others say what
 * was loaded (O, E: a test module another target loads meanwhile).
 */
#define KC_TAINT_TROUBLE	((1L << 4) | (1L << 5) | (1L << 7) | (1L << 9) | \
				 (1L << 14))

/* The trouble bits of /proc/sys/kernel/tainted, or -1. */
static inline long kc_tainted(void)
{
	char buf[32] = "";
	long val = -1;
	int fd;

	fd = open(KC_TAINTED, O_RDONLY);
	if (fd >= 0) {
		if (read(fd, buf, sizeof(buf) - 1) > 0)
			val = strtol(buf, NULL, 10) & KC_TAINT_TROUBLE;
		close(fd);
	}
	return val;
}

static inline int kc_write_file(const char *path, const char *s)
{
	ssize_t len = strlen(s);
	int fd, ret = 0;

	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	if (write(fd, s, len) != len)
		ret = -errno;
	close(fd);
	return ret;
}

/*
 * failslab's attributes are global, and the runner runs targets side by
 * side (lanes). kc_failslab_setup() sets the same ones for every test,
 * holding this lock on the failslab directory shared, and
 * kc_fail_nth_loop() holds it shared during each attempt; a test that
 * sets other attributes (rust_samples: cache-filter) holds it
 * exclusively while they are set, so it waits for one attempt at most.
 * @how is LOCK_SH or LOCK_EX. Returns the descriptor that holds the lock
 * (closing it, or the process's exit, lets it go) or -errno.
 */
static inline int kc_failslab_lock(int how)
{
	int fd, err;

	fd = open(KC_FAILSLAB, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (flock(fd, how)) {
		err = -errno;
		close(fd);
		return err;
	}
	return fd;
}

/*
 * Every slab allocation counts for fail-nth: no cache filter (the
 * rust_samples target sets one while it holds kc_failslab_lock()),
 * GFP_KERNEL too, and no stack dump per injected failure. Returns 0 or
 * -errno (no failslab in debugfs).
 */
static inline int kc_failslab_setup(void)
{
	int lock, ret;

	if (access(KC_FAILSLAB, F_OK))
		return -ENOENT;
	lock = kc_failslab_lock(LOCK_SH);
	if (lock < 0)
		return lock;
	ret = kc_write_file(KC_FAILSLAB "cache-filter", "N");
	if (!ret)
		ret = kc_write_file(KC_FAILSLAB "ignore-gfp-wait", "N");
	if (!ret)
		ret = kc_write_file(KC_FAILSLAB "verbose", "0");
	close(lock);
	return ret;
}

/*
 * fail-nth is opened once, before the call under test: opening it while
 * armed would itself count (and might be the allocation that fails).
 */
static inline int kc_fail_nth_open(void)
{
	return open(KC_FAIL_NTH, O_RDWR);
}

/* Fail the @n-th slab allocation of this thread from now on (n > 0). */
static inline int kc_fail_nth_arm(int fd, unsigned int n)
{
	char buf[16];
	int len;

	len = snprintf(buf, sizeof(buf), "%u", n);
	return pwrite(fd, buf, len, 0) == len ? 0 : -errno;
}

/*
 * Disarms fail-nth; returns how many checks were still to go (0: the
 * failure was injected), or -1 on error.
 */
static inline long kc_fail_nth_disarm(int fd)
{
	char buf[16] = "";
	long left = -1;
	ssize_t len;

	len = pread(fd, buf, sizeof(buf) - 1, 0);
	if (len > 0)
		left = strtol(buf, NULL, 10);
	if (pwrite(fd, "0", 1, 0) != 1)
		left = -1;
	return left;
}

/*
 * fail-nth over one call: for n = 1, 2, ... below @max, @call with the
 * n-th slab allocation of this thread failing, then @check with fail-nth
 * disarmed again, until an attempt goes through having made fewer than
 * n allocations (fail-nth still pending: each one has failed once). That
 * must come before @max. Returns the number of attempts.
 *
 * @call makes the call under test and nothing else (every allocation
 * counts) and returns 0 or -errno, errno taken right after the call.
 * @check looks at what the attempt left: @ret is what @call returned,
 * @left how many checks fail-nth had still to go (0: the n-th failed).
 */
static inline int kc_fail_nth_loop(struct __test_metadata *_metadata, int max,
				   int (*call)(void *arg),
				   void (*check)(struct __test_metadata *_metadata,
						 void *arg, int n, int ret,
						 long left),
				   void *arg)
{
	int fd, lock, n, ret;
	long left;

	fd = kc_fail_nth_open();
	ASSERT_GE(fd, 0);
	lock = kc_failslab_lock(LOCK_SH);
	ASSERT_GE(lock, 0) TH_LOG("failslab's lock: %s", strerror(-lock));
	for (n = 1; n < max; n++) {
		ASSERT_EQ(n > 1 ? flock(lock, LOCK_SH) : 0, 0);
		ASSERT_EQ(0, kc_fail_nth_arm(fd, n));
		ret = call(arg);
		left = kc_fail_nth_disarm(fd);
		ASSERT_EQ(flock(lock, LOCK_UN), 0);
		ASSERT_GE(left, 0);
		check(_metadata, arg, n, ret, left);
		if (!ret && left)
			break;
	}
	close(lock);
	close(fd);
	EXPECT_LT(n, max);
	return n;
}

#endif
