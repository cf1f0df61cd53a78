// SPDX-License-Identifier: GPL-2.0
/*
 * Throughput of the two BPF ring buffer directions, for 8 B, 64 B and 1 KiB
 * samples:
 *
 *  - user_to_kernel: BPF_MAP_TYPE_USER_RINGBUF (c12a03766788, "Merge branch
 *    'bpf: Add user-space-publisher ring buffer map type'"): user space
 *    fills the ring with user_ring_buffer__reserve() + memcpy() +
 *    __submit(), then a BPF_PROG_TYPE_SYSCALL program drains it with
 *    bpf_user_ringbuf_drain() and a callback that does nothing;
 *  - kernel_to_user: BPF_MAP_TYPE_RINGBUF: a syscall program fills the ring
 *    with bpf_loop() + bpf_ringbuf_output(), then ring_buffer__consume()
 *    empties it with a callback that does nothing.
 *
 * Each side copies the payload once and the other side only looks at the
 * header, so the two are comparable.  One thread does both halves in turn:
 * this measures the per-sample cost of the API, not concurrency.  Each
 * figure is the median of RUNS runs of about RUN_SECONDS each; MB/s counts
 * payload bytes (10^6 bytes per MB).  The ratio is user_to_kernel samples/s
 * over kernel_to_user samples/s.
 *
 * Output is TAP; a "# kconform-metric:" line belongs to the test line after
 * it.  Installed but not run by run_kselftest.sh, and it never fails on
 * speed, only when a measurement cannot be made.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "user_ringbuf_bench.skel.h"

#define RUNS		5
#define RUN_SECONDS	0.4
#define NR_SIZES	3

static const struct {
	__u32 size;
	const char *name;
} sizes[NR_SIZES] = {
	{ 8, "8B" },
	{ 64, "64B" },
	{ 1024, "1KiB" },
};

struct bench {
	struct user_ringbuf_bench *skel;
	struct user_ring_buffer *urb;
	struct ring_buffer *krb;
	int drain_fd;
	int output_fd;
	__u32 ring_size;
	char payload[1024];
};

static int test_nr;
static int failed;

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int nop_sample(void *ctx, void *data, size_t size)
{
	return 0;
}

static int run_prog(int fd)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);

	return bpf_prog_test_run_opts(fd, &opts) ? -errno : 0;
}

/* Samples per second user -> kernel, or a negative errno. */
static double user_to_kernel(struct bench *b, __u32 size, const char **why)
{
	double t0 = now_s(), dt;
	long total = 0;

	do {
		long batch = 0;
		void *p;
		int err;

		while ((p = user_ring_buffer__reserve(b->urb, size))) {
			memcpy(p, b->payload, size);
			user_ring_buffer__submit(b->urb, p);
			batch++;
		}
		if (errno != ENOSPC || !batch) {
			*why = "user_ring_buffer__reserve failed";
			return -1;
		}
		err = run_prog(b->drain_fd);
		if (err || b->skel->bss->drain_ret != batch) {
			*why = err ? "drain test_run failed" :
				     "drain returned a wrong count";
			return -1;
		}
		total += batch;
		dt = now_s() - t0;
	} while (dt < RUN_SECONDS);

	return total / dt;
}

/* Samples per second kernel -> user, or -1. */
static double kernel_to_user(struct bench *b, __u32 size, const char **why)
{
	/*
	 * A kernel producer keeps the ring at most size - 1 bytes full
	 * (__bpf_ringbuf_reserve()), so one record less than fits.
	 */
	__u32 batch = (b->ring_size - 1) / ((size + 8 + 7) / 8 * 8);
	double t0 = now_s(), dt;
	long total = 0;

	b->skel->bss->out_size = size;
	b->skel->bss->out_count = batch;
	do {
		int n;

		if (run_prog(b->output_fd) || b->skel->bss->out_fail ||
		    b->skel->bss->loop_ret != batch) {
			*why = "bpf_ringbuf_output loop failed";
			return -1;
		}
		n = ring_buffer__consume(b->krb);
		if (n != (int)batch) {
			*why = "ring_buffer__consume returned a wrong count";
			return -1;
		}
		total += n;
		dt = now_s() - t0;
	} while (dt < RUN_SECONDS);

	return total / dt;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

typedef double (*measure_fn)(struct bench *b, __u32 size, const char **why);

/* Median of RUNS runs, or -1 with *why set. */
static double median(measure_fn fn, struct bench *b, __u32 size,
		     const char **why)
{
	double r[RUNS];
	int i;

	for (i = 0; i < RUNS; i++) {
		r[i] = fn(b, size, why);
		if (r[i] < 0)
			return -1;
	}
	qsort(r, RUNS, sizeof(r[0]), cmp_double);
	return r[RUNS / 2];
}

static void report_rate(double rate, __u32 size, const char *dir,
			const char *name, const char *why)
{
	test_nr++;
	if (rate < 0) {
		printf("not ok %d %s_%s # %s\n", test_nr, dir, name, why);
		failed++;
	} else {
		printf("# kconform-metric: samples_per_s=%.0f mb_per_s=%.1f runs=%d\n",
		       rate, rate * size / 1e6, RUNS);
		printf("ok %d %s_%s\n", test_nr, dir, name);
	}
	fflush(stdout);
}

static void report_ratio(double u2k, double k2u, const char *name)
{
	test_nr++;
	if (u2k <= 0 || k2u <= 0) {
		printf("not ok %d ratio_%s # a measurement is missing\n",
		       test_nr, name);
		failed++;
	} else {
		printf("# kconform-metric: ratio=%.2f\n", u2k / k2u);
		printf("ok %d ratio_%s\n", test_nr, name);
	}
	fflush(stdout);
}

static const char *setup(struct bench *b)
{
	static char why[96];

	memset(b, 0, sizeof(*b));
	memset(b->payload, 0x5a, sizeof(b->payload));

	b->skel = user_ringbuf_bench__open_and_load();
	if (!b->skel) {
		snprintf(why, sizeof(why), "skeleton load failed: %s",
			 strerror(errno));
		return why;
	}
	b->ring_size = bpf_map__max_entries(b->skel->maps.bench_urb);
	b->drain_fd = bpf_program__fd(b->skel->progs.bench_drain);
	b->output_fd = bpf_program__fd(b->skel->progs.bench_output);
	b->urb = user_ring_buffer__new(bpf_map__fd(b->skel->maps.bench_urb),
				       NULL);
	if (!b->urb)
		return "user_ring_buffer__new failed";
	b->krb = ring_buffer__new(bpf_map__fd(b->skel->maps.bench_krb),
				  nop_sample, NULL, NULL);
	if (!b->krb)
		return "ring_buffer__new failed";
	return NULL;
}

int main(void)
{
	const char *err, *why = NULL;
	struct bench b;
	int i;

	/* libbpf's warnings would land in the middle of the TAP document. */
	libbpf_set_print(NULL);
	printf("TAP version 13\n1..%d\n", 3 * NR_SIZES);
	fflush(stdout);

	err = setup(&b);
	for (i = 0; i < NR_SIZES; i++) {
		const char *name = sizes[i].name;
		__u32 size = sizes[i].size;
		double u2k = -1, k2u = -1;

		why = err;
		if (!err)
			u2k = median(user_to_kernel, &b, size, &why);
		report_rate(u2k, size, "user_to_kernel", name, why);
		why = err;
		if (!err)
			k2u = median(kernel_to_user, &b, size, &why);
		report_rate(k2u, size, "kernel_to_user", name, why);
		report_ratio(u2k, k2u, name);
	}

	ring_buffer__free(b.krb);
	user_ring_buffer__free(b.urb);
	user_ringbuf_bench__destroy(b.skel);
	return failed ? 1 : 0;
}
