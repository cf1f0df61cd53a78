// SPDX-License-Identifier: GPL-2.0
/*
 * Conformance tests for BPF_MAP_TYPE_USER_RINGBUF, the bpf_user_ringbuf_drain()
 * helper and libbpf's user_ring_buffer API, as promised by the series merged
 * in c12a03766788 ("Merge branch 'bpf: Add user-space-publisher ring buffer
 * map type'"), by the helper's description in include/uapi/linux/bpf.h and by
 * the comments of user_ring_buffer__*() in libbpf.h.  Pinned to
 * linux-source-6.1 (6.1.192) and Debian's libbpf 1.1.2.
 *
 * What is tested:
 *  - map creation: the exact errno for each bad attribute
 *    (ringbuf_map_alloc()), and ENOTSUPP for the element operations;
 *  - mmap: the consumer page is read-only for user space, the producer page
 *    and the (double-mapped) data pages are writable (ringbuf_map_mmap_user());
 *  - libbpf: the wrong map type, 8-byte aligned reservations, E2BIG for a
 *    sample that never fits, ENOSPC when full, submit/discard as seen by the
 *    drain, FIFO order across the wrap of the data area;
 *  - the drain: flags, the return value (discards not counted, a callback
 *    returning 1 stops it, an error wins over a partial count), the
 *    BPF_MAX_USER_RINGBUF_SAMPLES cap, -EBUSY for a nested drain, and that a
 *    sample still being written (busy) holds back every later sample;
 *  - the verifier: a callback may not re-initialise its dynptr, nor return
 *    anything but 0 or 1 (the words of that refusal, 6.1's and 6.8's); a
 *    callback's bpf_snprintf() format loads from .rodata and is refused
 *    (EACCES) from writable .data;
 *  - reserve_blocking(): bad timeout, timeout 0, a timeout that expires, and
 *    blocking until a consumer frees space; epoll wake-ups for the default,
 *    BPF_RB_NO_WAKEUP and BPF_RB_FORCE_WAKEUP;
 *  - headers written by hand through the mapping (bad producer position,
 *    length larger than advertised, larger than the ring or than a dynptr):
 *    the drain returns the kernel's errno and the ring stays usable.
 *
 * The kernel side is progs/user_ringbuf.bpf.c, BPF_PROG_TYPE_SYSCALL
 * programs run with BPF_PROG_TEST_RUN, so nothing is attached anywhere.
 * Needs CAP_BPF (root in the kconform guest).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "../kselftest_harness.h"
#include "../kconform_fuzz.h"
#include "../kconform_util.h"

#include "progs/user_ringbuf.h"
#include "user_ringbuf.skel.h"

/* The kernel's internal ENOTSUPP (include/linux/errno.h), seen as is. */
#define UR_ENOTSUPP		524
/* BPF_MAX_USER_RINGBUF_SAMPLES in include/linux/bpf.h (6.1). */
#define UR_MAX_SAMPLES		(128 * 1024)
/* DYNPTR_MAX_SIZE in include/linux/bpf.h (6.1): a dynptr's size is 24 bits. */
#define UR_DYNPTR_MAX		((1u << 24) - 1)
/* A ring larger than a dynptr, to reach bpf_dynptr_check_size(). */
#define UR_BIG_RING		(32u << 20)

struct ur_hdr {
	__u32 len;
	__u32 pg_off;
};

static __u32 ur_rec_size(__u32 size)
{
	return (size + BPF_RINGBUF_HDR_SZ + 7) / 8 * 8;
}

static __u64 now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (__u64)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Fill a sample of @size bytes: seq first, then (seq + i) & 0xff. */
static void ur_fill(void *p, __u32 size, __u64 seq)
{
	__u8 *b = p;
	__u32 i;

	if (size >= sizeof(seq))
		memcpy(b, &seq, sizeof(seq));
	for (i = sizeof(seq); i < size; i++)
		b[i] = (__u8)(seq + i);
}

/*
 * One user ring buffer of @size bytes, seen three ways: through libbpf
 * (rb), through our own read-only mapping of the consumer page (cons) and
 * through our own read-write mapping of the producer page and the data
 * pages (prod, data), for the tests that write headers by hand.
 */
struct ur {
	struct user_ringbuf *skel;
	struct user_ring_buffer *rb;
	int map_fd;
	int drain_fd;
	long page;
	__u32 size;
	unsigned long *cons;
	unsigned long *prod;
	__u8 *data;
	size_t prod_len;
};

static void ur_init(struct ur *u)
{
	memset(u, 0, sizeof(*u));
	u->map_fd = -1;
	u->drain_fd = -1;
	u->cons = MAP_FAILED;
	u->prod = MAP_FAILED;
	u->page = sysconf(_SC_PAGESIZE);
}

/*
 * Open and load the skeleton with a ring of @size bytes (0: a page) and,
 * besides drain, the program named @also (NULL: none), whose verifier
 * log a failed load prints.
 */
static void ur_open(struct __test_metadata *_metadata, struct ur *u,
		    __u32 size, const char *also)
{
	static char log[1 << 20];
	struct bpf_program *prog;
	void *p;

	u->size = size ? size : u->page;
	u->skel = user_ringbuf__open();
	ASSERT_NE(NULL, u->skel);
	ASSERT_EQ(0, bpf_map__set_max_entries(u->skel->maps.user_ringbuf,
					      u->size));
	log[0] = '\0';
	if (also) {
		prog = bpf_object__find_program_by_name(u->skel->obj, also);
		ASSERT_NE(NULL, prog);
		ASSERT_EQ(0, bpf_program__set_autoload(prog, true));
		ASSERT_EQ(0, bpf_program__set_log_buf(prog, log, sizeof(log)));
		ASSERT_EQ(0, bpf_program__set_log_level(prog, 1));
	}
	ASSERT_EQ(0, user_ringbuf__load(u->skel))
		TH_LOG("skeleton load failed; %s: %.2000s", also ? also : "drain", log);
	u->map_fd = bpf_map__fd(u->skel->maps.user_ringbuf);
	u->drain_fd = bpf_program__fd(u->skel->progs.drain);

	u->rb = user_ring_buffer__new(u->map_fd, NULL);
	ASSERT_NE(NULL, u->rb) TH_LOG("user_ring_buffer__new: %s", strerror(errno));

	p = mmap(NULL, u->page, PROT_READ, MAP_SHARED, u->map_fd, 0);
	ASSERT_NE(MAP_FAILED, p) TH_LOG("mmap consumer page: %s", strerror(errno));
	u->cons = p;

	u->prod_len = u->page + 2 * (size_t)u->size;
	p = mmap(NULL, u->prod_len, PROT_READ | PROT_WRITE, MAP_SHARED,
		 u->map_fd, u->page);
	ASSERT_NE(MAP_FAILED, p) TH_LOG("mmap producer/data: %s", strerror(errno));
	u->prod = p;
	u->data = (__u8 *)p + u->page;
}

static void ur_close(struct ur *u)
{
	if (u->prod != MAP_FAILED)
		munmap(u->prod, u->prod_len);
	if (u->cons != MAP_FAILED)
		munmap(u->cons, u->page);
	user_ring_buffer__free(u->rb);
	user_ringbuf__destroy(u->skel);
}

/* The positions, as the kernel publishes them (smp_store_release()). */
static unsigned long ur_cons(struct ur *u)
{
	return __atomic_load_n(u->cons, __ATOMIC_ACQUIRE);
}

static unsigned long ur_prod(struct ur *u)
{
	return __atomic_load_n(u->prod, __ATOMIC_ACQUIRE);
}

/*
 * Run the drain program once with @flags; return what the helper
 * returned. The samples' contents are not checked.
 */
static long ur_drain_any(struct __test_metadata *_metadata, struct ur *u,
			 __u64 flags)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);

	u->skel->bss->drain_flags = flags;
	u->skel->bss->nr_cb = 0;
	u->skel->bss->drain_err = 0;
	u->skel->bss->drain_ret = -12345;
	EXPECT_EQ(0, bpf_prog_test_run_opts(u->drain_fd, &opts))
		TH_LOG("test_run: %s", strerror(errno));
	return u->skel->bss->drain_ret;
}

/* The same, and every sample drained must carry ur_fill()'s pattern. */
static long ur_drain(struct __test_metadata *_metadata, struct ur *u,
		     __u64 flags)
{
	long ret = ur_drain_any(_metadata, u, flags);

	EXPECT_EQ(0, u->skel->bss->drain_err);
	return ret;
}

/* Reserve, fill and submit one sample of @size bytes with @seq. */
static void ur_post(struct __test_metadata *_metadata, struct ur *u,
		    __u32 size, __u64 seq)
{
	void *p = user_ring_buffer__reserve(u->rb, size);

	ASSERT_NE(NULL, p) TH_LOG("reserve(%u): %s", size, strerror(errno));
	ur_fill(p, size, seq);
	user_ring_buffer__submit(u->rb, p);
}

/* Fill the ring completely with one sample of size - header. */
static void ur_fill_ring(struct __test_metadata *_metadata, struct ur *u)
{
	ur_post(_metadata, u, u->size - BPF_RINGBUF_HDR_SZ, 0);
	ASSERT_EQ((unsigned long)u->size, ur_prod(u) - ur_cons(u));
}

/*
 * Write a header by hand at ring offset @off, and the first bytes of its
 * payload as ur_fill() would, with seq = 1000 + @off.
 */
static void ur_hand_hdr(struct ur *u, __u32 off, __u32 len)
{
	__u32 size = len & ~(BPF_RINGBUF_BUSY_BIT | BPF_RINGBUF_DISCARD_BIT);
	__u8 *rec = u->data + (off & (u->size - 1));
	struct ur_hdr *h = (struct ur_hdr *)rec;

	ur_fill(rec + BPF_RINGBUF_HDR_SZ, size < UR_MAX_CHECK ? size : UR_MAX_CHECK,
		1000 + off);
	h->len = len;
	h->pg_off = 0;
}

static void ur_publish(struct ur *u, unsigned long prod)
{
	__atomic_store_n(u->prod, prod, __ATOMIC_RELEASE);
}

/* ---------------------------------------------------------------------- */
/*
 * Map creation: ringbuf_map_alloc() takes max_entries (the data size in
 * bytes) that is a power of two and a multiple of the page size, no key or
 * value, and no flag but BPF_F_NUMA_NODE; anything else is EINVAL.  The
 * E2BIG limit (RINGBUF_MAX_DATA_SZ, ~64 GiB with 4 KiB pages) is above any
 * u32 max_entries on 64-bit, so it cannot be reached here.
 */
FIXTURE(create) {
	int fd;
};

FIXTURE_VARIANT(create) {
	__u32 key_size;
	__u32 value_size;
	__u32 pages;		/* max_entries in pages, if not 0 */
	__u32 bytes;		/* else max_entries in bytes */
	__u32 flags;
	int err;		/* expected errno, 0 for success */
};

FIXTURE_VARIANT_ADD(create, one_page) { .pages = 1 };

FIXTURE_VARIANT_ADD(create, sixteen_pages) { .pages = 16 };

FIXTURE_VARIANT_ADD(create, numa_node_flag) {
	.pages = 1, .flags = BPF_F_NUMA_NODE,
};

FIXTURE_VARIANT_ADD(create, three_pages) { .pages = 3, .err = EINVAL };

FIXTURE_VARIANT_ADD(create, half_page) { .bytes = 2048, .err = EINVAL };

FIXTURE_VARIANT_ADD(create, page_plus_8) { .bytes = 4096 + 8, .err = EINVAL };

FIXTURE_VARIANT_ADD(create, zero) { .bytes = 0, .err = EINVAL };

FIXTURE_VARIANT_ADD(create, key_size_4) {
	.pages = 1, .key_size = 4, .err = EINVAL,
};

FIXTURE_VARIANT_ADD(create, value_size_8) {
	.pages = 1, .value_size = 8, .err = EINVAL,
};

FIXTURE_VARIANT_ADD(create, no_prealloc_flag) {
	.pages = 1, .flags = BPF_F_NO_PREALLOC, .err = EINVAL,
};

FIXTURE_VARIANT_ADD(create, mmapable_flag) {
	.pages = 1, .flags = BPF_F_MMAPABLE, .err = EINVAL,
};

FIXTURE_SETUP(create)
{
	self->fd = -1;
}

FIXTURE_TEARDOWN(create)
{
	if (self->fd >= 0)
		close(self->fd);
}

TEST_F(create, map_create)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = variant->flags);
	__u32 max = variant->pages ? variant->pages * sysconf(_SC_PAGESIZE) :
				     variant->bytes;

	errno = 0;
	self->fd = bpf_map_create(BPF_MAP_TYPE_USER_RINGBUF, "ur_create",
				  variant->key_size, variant->value_size, max,
				  &opts);
	if (!variant->err) {
		ASSERT_LE(0, self->fd) TH_LOG("create: %s", strerror(errno));
	} else {
		/* libbpf 1.x returns -errno and sets errno. */
		EXPECT_EQ(-variant->err, self->fd);
		EXPECT_EQ(variant->err, errno) TH_LOG("got %s", strerror(errno));
	}
}

/* fdinfo's "memlock:" of a map fd, or -1. */
static long memlock_of(int fd)
{
	char path[64], line[128];
	long val = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "memlock: %ld", &val) == 1)
			break;
	fclose(f);
	return val;
}

/*
 * What fdinfo (and `bpftool map show`) says a user ring buffer takes.
 * 6.1 counts (key + value) * max_entries, 0 for a ring buffer. Since
 * 2f7e4ab2caa9 ("bpf: ringbuf memory usage", v6.4) it counts the map,
 * the meta and data pages and the page array, in which the data pages
 * are mapped twice: a data page more is 4096 + 2 * 8 bytes more.
 */
TEST(memlock_counts_pages_since_6_4)
{
	int since = kernel_since(6, 4), one, two;
	long page = sysconf(_SC_PAGESIZE);

	ASSERT_NE(-1, since);
	one = bpf_map_create(BPF_MAP_TYPE_USER_RINGBUF, NULL, 0, 0, page, NULL);
	ASSERT_LE(0, one);
	two = bpf_map_create(BPF_MAP_TYPE_USER_RINGBUF, NULL, 0, 0, 2 * page, NULL);
	ASSERT_LE(0, two);
	if (since) {
		EXPECT_EQ(page + 2 * (long)sizeof(void *), memlock_of(two) - memlock_of(one));
		EXPECT_LT(4 * page, memlock_of(one)) TH_LOG("a data page and 3 meta pages");
	} else {
		EXPECT_EQ(0, memlock_of(one));
		EXPECT_EQ(0, memlock_of(two));
	}
	close(two);
	close(one);
}

/* The map has no elements: every element operation is -ENOTSUPP. */
TEST(element_ops_not_supported)
{
	__u32 key = 0;
	int fd;

	fd = bpf_map_create(BPF_MAP_TYPE_USER_RINGBUF, NULL, 0, 0,
			    sysconf(_SC_PAGESIZE), NULL);
	ASSERT_LE(0, fd);
	EXPECT_EQ(-UR_ENOTSUPP, bpf_map_lookup_elem(fd, NULL, NULL));
	EXPECT_EQ(UR_ENOTSUPP, errno);
	EXPECT_EQ(-UR_ENOTSUPP, bpf_map_update_elem(fd, NULL, NULL, 0));
	EXPECT_EQ(UR_ENOTSUPP, errno);
	EXPECT_EQ(-UR_ENOTSUPP, bpf_map_delete_elem(fd, NULL));
	EXPECT_EQ(UR_ENOTSUPP, errno);
	EXPECT_EQ(-UR_ENOTSUPP, bpf_map_get_next_key(fd, NULL, &key));
	EXPECT_EQ(UR_ENOTSUPP, errno);
	close(fd);
}

/* ---------------------------------------------------------------------- */
FIXTURE(urb) {
	struct ur u;
};

FIXTURE_SETUP(urb)
{
	ur_init(&self->u);
	ur_open(_metadata, &self->u, 0, NULL);
}

FIXTURE_TEARDOWN(urb)
{
	ur_close(&self->u);
}

/*
 * mmap, ringbuf_map_mmap_user(): a writable mapping that starts at the
 * consumer page is EPERM, a read-only one can never become writable
 * (EACCES from mprotect()), and a store to it faults.
 */
TEST_F(urb, mmap_consumer_page_read_only)
{
	struct ur *u = &self->u;
	void *p;

	p = mmap(NULL, u->page, PROT_READ | PROT_WRITE, MAP_SHARED, u->map_fd, 0);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EPERM, errno);

	/* The whole area, writable from page 0: still EPERM. */
	p = mmap(NULL, 2 * u->page + 2 * u->size, PROT_READ | PROT_WRITE,
		 MAP_SHARED, u->map_fd, 0);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EPERM, errno);

	p = mmap(NULL, u->page, PROT_WRITE, MAP_SHARED, u->map_fd, 0);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EPERM, errno);

	p = mmap(NULL, u->page, PROT_READ, MAP_SHARED, u->map_fd, 0);
	ASSERT_NE(MAP_FAILED, p);
	EXPECT_EQ(-1, mprotect(p, u->page, PROT_READ | PROT_WRITE));
	EXPECT_EQ(EACCES, errno);
	EXPECT_EQ(-1, mprotect(p, u->page, PROT_READ | PROT_EXEC));
	EXPECT_EQ(EACCES, errno);
	munmap(p, u->page);
}

TEST_F(urb, mmap_consumer_page_write_faults)
{
	struct ur *u = &self->u;
	int status;
	pid_t pid;

	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		/* Must raise SIGSEGV. */
		__atomic_store_n(u->cons, 4096, __ATOMIC_RELEASE);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFSIGNALED(status)) TH_LOG("child status %#x", status);
	if (WIFSIGNALED(status))
		EXPECT_EQ(SIGSEGV, WTERMSIG(status));
	EXPECT_EQ(0, ur_cons(u));
}

/*
 * The producer page and the data pages map read-write (the fixture already
 * did so), and the data pages are mapped twice in a row, so a store at
 * data[i] is seen at data[size + i] and the other way round.
 */
TEST_F(urb, mmap_producer_and_data_writable)
{
	struct ur *u = &self->u;
	void *p;

	u->data[0] = 0xa5;
	EXPECT_EQ(0xa5, u->data[u->size]);
	u->data[2 * u->size - 1] = 0x5a;
	EXPECT_EQ(0x5a, u->data[u->size - 1]);
	u->data[0] = 0;
	u->data[u->size - 1] = 0;

	/* Data pages alone, write-only, from page 2. */
	p = mmap(NULL, u->page, PROT_WRITE, MAP_SHARED, u->map_fd, 2 * u->page);
	ASSERT_NE(MAP_FAILED, p) TH_LOG("%s", strerror(errno));
	/* No mapping of the map may become executable. */
	EXPECT_EQ(-1, mprotect(p, u->page, PROT_WRITE | PROT_EXEC));
	EXPECT_EQ(EACCES, errno);
	munmap(p, u->page);
}

/* Only shared mappings, and only within consumer + producer + 2 x data. */
TEST_F(urb, mmap_private_or_too_long_einval)
{
	struct ur *u = &self->u;
	void *p;

	p = mmap(NULL, u->page, PROT_READ, MAP_PRIVATE, u->map_fd, 0);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);

	p = mmap(NULL, u->prod_len + u->page, PROT_READ | PROT_WRITE,
		 MAP_SHARED, u->map_fd, u->page);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);

	p = mmap(NULL, u->page, PROT_READ, MAP_SHARED, u->map_fd,
		 2 * u->page + 2 * u->size);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);
}

/* libbpf refuses any map but BPF_MAP_TYPE_USER_RINGBUF with EINVAL. */
TEST_F(urb, new_wrong_map_type)
{
	struct user_ring_buffer *rb;
	int fd;

	errno = 0;
	rb = user_ring_buffer__new(bpf_map__fd(self->u.skel->maps.kernel_ringbuf),
				   NULL);
	EXPECT_EQ(NULL, rb);
	EXPECT_EQ(EINVAL, errno);

	fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, NULL, 4, 8, 1, NULL);
	ASSERT_LE(0, fd);
	errno = 0;
	rb = user_ring_buffer__new(fd, NULL);
	EXPECT_EQ(NULL, rb);
	EXPECT_EQ(EINVAL, errno);
	close(fd);

	/* BPF_OBJ_GET_INFO_BY_FD says EBADFD, not EBADF, for a bad fd (6.1). */
	errno = 0;
	rb = user_ring_buffer__new(-1, NULL);
	EXPECT_EQ(NULL, rb);
	EXPECT_EQ(EBADFD, errno);
}

/*
 * Every reservation is 8-byte aligned and takes round_up(size + 8, 8) bytes
 * of the ring, but the header keeps the exact size, which is what the drain
 * callback's dynptr covers.
 */
TEST_F(urb, reserve_aligned_exact_size)
{
	static const __u32 sizes[] = { 0, 1, 7, 8, 9, 15, 16, 17, 31, 33 };
	struct ur *u = &self->u;
	unsigned long want = 0;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		unsigned long before = ur_prod(u);
		void *p = user_ring_buffer__reserve(u->rb, sizes[i]);

		ASSERT_NE(NULL, p);
		EXPECT_EQ(0, (uintptr_t)p % 8) TH_LOG("size %u at %p", sizes[i], p);
		EXPECT_EQ(ur_rec_size(sizes[i]), ur_prod(u) - before);
		ur_fill(p, sizes[i], 100 + i);
		user_ring_buffer__submit(u->rb, p);
		want += ur_rec_size(sizes[i]);
	}
	EXPECT_EQ(want, ur_prod(u));

	EXPECT_EQ((long)ARRAY_SIZE(sizes), ur_drain(_metadata, u, 0));
	EXPECT_EQ(ARRAY_SIZE(sizes), u->skel->bss->nr_cb);
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		EXPECT_EQ(sizes[i], u->skel->bss->rec_len[i]);
		if (sizes[i] >= 8)
			EXPECT_EQ(100 + i, u->skel->bss->rec_seq[i]);
	}
	EXPECT_EQ(want, ur_cons(u));
}

/* A sample that cannot fit even in an empty ring is E2BIG, not ENOSPC. */
TEST_F(urb, reserve_too_big_e2big)
{
	static const __u32 bad[] = { 1u << 31, 1u << 30, UINT32_MAX };
	struct ur *u = &self->u;
	unsigned int i;
	void *p;

	errno = 0;
	EXPECT_EQ(NULL, user_ring_buffer__reserve(u->rb, u->size - 7));
	EXPECT_EQ(E2BIG, errno);
	errno = 0;
	EXPECT_EQ(NULL, user_ring_buffer__reserve(u->rb, u->size));
	EXPECT_EQ(E2BIG, errno);
	/* The top two bits of the length are the busy and discard bits. */
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		errno = 0;
		EXPECT_EQ(NULL, user_ring_buffer__reserve(u->rb, bad[i]));
		EXPECT_EQ(E2BIG, errno) TH_LOG("size %#x", bad[i]);
	}
	EXPECT_EQ(0, ur_prod(u));

	/* The largest sample that fits: the whole ring. */
	p = user_ring_buffer__reserve(u->rb, u->size - 8);
	ASSERT_NE(NULL, p);
	ur_fill(p, u->size - 8, 7);
	user_ring_buffer__submit(u->rb, p);
	EXPECT_EQ(1, ur_drain(_metadata, u, 0));
	EXPECT_EQ(7, u->skel->bss->rec_seq[0]);
	EXPECT_EQ(UR_MAX_PROBE, u->skel->bss->rec_len[0]);
}

/*
 * ENOSPC once the free space is smaller than the record; poll() reports
 * EPOLLOUT|EPOLLWRNORM while the ring is not completely full
 * (ringbuf_map_poll_user()), and nothing once it is.
 */
TEST_F(urb, reserve_full_enospc)
{
	struct ur *u = &self->u;
	struct pollfd pfd = { .fd = u->map_fd, .events = POLLOUT | POLLWRNORM };
	__u32 n = 0, want = u->size / ur_rec_size(16);
	void *p;

	ASSERT_EQ(1, poll(&pfd, 1, 0));
	EXPECT_EQ(POLLOUT | POLLWRNORM, pfd.revents);

	while ((p = user_ring_buffer__reserve(u->rb, 16))) {
		ur_fill(p, 16, n++);
		user_ring_buffer__submit(u->rb, p);
	}
	EXPECT_EQ(ENOSPC, errno);
	EXPECT_EQ(want, n);
	/* What is left is exactly size % 24: one record of that size fits. */
	p = user_ring_buffer__reserve(u->rb, u->size % ur_rec_size(16) - 8);
	ASSERT_NE(NULL, p);
	user_ring_buffer__submit(u->rb, p);
	EXPECT_EQ((unsigned long)u->size, ur_prod(u));
	errno = 0;
	EXPECT_EQ(NULL, user_ring_buffer__reserve(u->rb, 0));
	EXPECT_EQ(ENOSPC, errno);
	pfd.revents = 0;
	EXPECT_EQ(0, poll(&pfd, 1, 0));

	EXPECT_EQ((long)want + 1, ur_drain(_metadata, u, 0));
	EXPECT_EQ(ur_prod(u), ur_cons(u));
	ASSERT_EQ(1, poll(&pfd, 1, 0));
	EXPECT_EQ(POLLOUT | POLLWRNORM, pfd.revents);
	EXPECT_NE(NULL, user_ring_buffer__reserve(u->rb, 0));
}

/*
 * Discarded samples are consumed but never passed to the callback, and the
 * drain's return value counts only the samples it passed on.
 */
TEST_F(urb, submit_and_discard)
{
	struct ur *u = &self->u;
	void *p[4];
	int i;

	for (i = 0; i < 4; i++) {
		p[i] = user_ring_buffer__reserve(u->rb, 16);
		ASSERT_NE(NULL, p[i]);
		ur_fill(p[i], 16, i);
	}
	user_ring_buffer__submit(u->rb, p[0]);
	user_ring_buffer__discard(u->rb, p[1]);
	user_ring_buffer__submit(u->rb, p[2]);
	user_ring_buffer__discard(u->rb, p[3]);

	EXPECT_EQ(2, ur_drain(_metadata, u, 0));
	EXPECT_EQ(2, u->skel->bss->nr_cb);
	EXPECT_EQ(0, u->skel->bss->rec_seq[0]);
	EXPECT_EQ(2, u->skel->bss->rec_seq[1]);
	EXPECT_EQ(4 * ur_rec_size(16), ur_cons(u));

	/* Only discarded samples: consumed, and the drain returns 0. */
	p[0] = user_ring_buffer__reserve(u->rb, 16);
	ASSERT_NE(NULL, p[0]);
	user_ring_buffer__discard(u->rb, p[0]);
	EXPECT_EQ(0, ur_drain(_metadata, u, 0));
	EXPECT_EQ(0, u->skel->bss->nr_cb);
	EXPECT_EQ(5 * ur_rec_size(16), ur_cons(u));
}

TEST_F(urb, drain_empty_returns_0)
{
	EXPECT_EQ(0, ur_drain(_metadata, &self->u, 0));
	EXPECT_EQ(0, self->u.skel->bss->nr_cb);
	EXPECT_EQ(0, ur_cons(&self->u));
}

/* Flags other than BPF_RB_NO_WAKEUP/BPF_RB_FORCE_WAKEUP: -EINVAL, no-op. */
TEST_F(urb, drain_bad_flags_einval)
{
	struct ur *u = &self->u;

	ur_post(_metadata, u, 16, 1);
	EXPECT_EQ(-EINVAL, ur_drain(_metadata, u, 4));
	EXPECT_EQ(-EINVAL, ur_drain(_metadata, u, 1ULL << 63));
	EXPECT_EQ(0, u->skel->bss->nr_cb);
	EXPECT_EQ(0, ur_cons(u));
	EXPECT_EQ(1, ur_drain(_metadata, u, 0));
}

/* A callback returning 1 stops the drain; that sample counts. */
TEST_F(urb, callback_returns_1_stops)
{
	struct ur *u = &self->u;
	int i;

	for (i = 0; i < 5; i++)
		ur_post(_metadata, u, 16, i);
	u->skel->bss->stop_after = 2;
	EXPECT_EQ(2, ur_drain(_metadata, u, 0));
	EXPECT_EQ(2, u->skel->bss->nr_cb);
	EXPECT_EQ(2 * ur_rec_size(16), ur_cons(u));
	u->skel->bss->stop_after = 0;
	EXPECT_EQ(3, ur_drain(_metadata, u, 0));
	EXPECT_EQ(2, u->skel->bss->rec_seq[0]);
	EXPECT_EQ(4, u->skel->bss->rec_seq[2]);
}

/*
 * FIFO order and intact contents across many wraps of the data area:
 * 37-byte samples (48-byte records) in a 4 KiB ring, so records also
 * straddle the end of the area, which the double mapping makes contiguous
 * on both sides.
 */
TEST_F(urb, fifo_across_wrap)
{
	struct ur *u = &self->u;
	__u64 seq = 0, first;
	int round, i, straddled = 0;

	for (round = 0; round < 40; round++) {
		first = seq;
		for (i = 0; i < 50; i++) {
			unsigned long off = ur_prod(u) & (u->size - 1);

			if (off + ur_rec_size(37) > u->size)
				straddled++;
			ur_post(_metadata, u, 37, seq++);
		}
		ASSERT_EQ(50, ur_drain(_metadata, u, 0)) TH_LOG("round %d", round);
		for (i = 0; i < 50; i++) {
			ASSERT_EQ(first + i, u->skel->bss->rec_seq[i])
				TH_LOG("round %d sample %d", round, i);
			ASSERT_EQ(37, u->skel->bss->rec_len[i]);
		}
	}
	EXPECT_EQ(40 * 50 * ur_rec_size(37), ur_cons(u));
	EXPECT_LT(8 * u->size, ur_cons(u));
	EXPECT_LT(0, straddled);
}

/*
 * A reserved sample that is neither submitted nor discarded (busy bit set)
 * holds back every later sample, submitted or not: the drain returns 0.
 */
TEST_F(urb, busy_sample_blocks_later_submit)
{
	struct ur *u = &self->u;
	void *a, *b;

	a = user_ring_buffer__reserve(u->rb, 16);
	ASSERT_NE(NULL, a);
	ur_fill(a, 16, 1);
	ur_post(_metadata, u, 16, 2);

	EXPECT_EQ(0, ur_drain(_metadata, u, 0));
	EXPECT_EQ(0, u->skel->bss->nr_cb);
	EXPECT_EQ(0, ur_cons(u));

	user_ring_buffer__submit(u->rb, a);
	EXPECT_EQ(2, ur_drain(_metadata, u, 0));
	EXPECT_EQ(1, u->skel->bss->rec_seq[0]);
	EXPECT_EQ(2, u->skel->bss->rec_seq[1]);

	/* The same with a discard releasing the later sample. */
	a = user_ring_buffer__reserve(u->rb, 16);
	ASSERT_NE(NULL, a);
	b = user_ring_buffer__reserve(u->rb, 16);
	ASSERT_NE(NULL, b);
	ur_fill(b, 16, 4);
	user_ring_buffer__submit(u->rb, b);
	EXPECT_EQ(0, ur_drain(_metadata, u, 0));
	user_ring_buffer__discard(u->rb, a);
	EXPECT_EQ(1, ur_drain(_metadata, u, 0));
	EXPECT_EQ(4, u->skel->bss->rec_seq[0]);
	EXPECT_EQ(ur_prod(u), ur_cons(u));
}

/* ---------------------------------------------------------------------- */
/* Hand-written headers through the read-write mapping. */

/*
 * producer_pos not a multiple of 8: -EINVAL, nothing consumed, even though
 * the record (an empty sample, 8 bytes) fits below it.
 */
TEST_F(urb, hand_producer_pos_misaligned)
{
	struct ur *u = &self->u;

	ur_hand_hdr(u, 0, 0);
	ur_publish(u, 12);
	EXPECT_EQ(-EINVAL, ur_drain(_metadata, u, 0));
	EXPECT_EQ(0, u->skel->bss->nr_cb);
	EXPECT_EQ(0, ur_cons(u));

	/* Fixed up, the same sample drains. */
	ur_publish(u, 8);
	EXPECT_EQ(1, ur_drain(_metadata, u, 0));
	EXPECT_EQ(0, u->skel->bss->rec_len[0]);
	EXPECT_EQ(8, ur_cons(u));
}

/* A length larger than the producer position advertises: -EINVAL. */
TEST_F(urb, hand_len_beyond_producer_pos)
{
	struct ur *u = &self->u;

	ur_hand_hdr(u, 0, 64);
	ur_publish(u, 16);
	EXPECT_EQ(-EINVAL, ur_drain(_metadata, u, 0));
	EXPECT_EQ(0, ur_cons(u));

	/* 65 bytes need an 80-byte record: more than the advertised 72. */
	ur_hand_hdr(u, 0, 65);
	ur_publish(u, 72);
	EXPECT_EQ(-EINVAL, ur_drain(_metadata, u, 0));
	EXPECT_EQ(0, ur_cons(u));

	ur_hand_hdr(u, 0, 64);
	EXPECT_EQ(1, ur_drain(_metadata, u, 0));
	EXPECT_EQ(72, ur_cons(u));
}

/*
 * A record larger than the ring, even with a producer position that
 * advertises it: -E2BIG.  size - 8 is the largest length that fits.
 */
TEST_F(urb, hand_len_larger_than_ring)
{
	struct ur *u = &self->u;

	ur_hand_hdr(u, 0, u->size - 7);
	ur_publish(u, 2 * (unsigned long)u->size);
	EXPECT_EQ(-E2BIG, ur_drain(_metadata, u, 0));
	EXPECT_EQ(0, ur_cons(u));

	ur_hand_hdr(u, 0, u->size);
	EXPECT_EQ(-E2BIG, ur_drain(_metadata, u, 0));
	EXPECT_EQ(0, ur_cons(u));

	ur_hand_hdr(u, 0, u->size - 8);
	ur_publish(u, u->size);
	EXPECT_EQ(1, ur_drain(_metadata, u, 0));
	EXPECT_EQ((unsigned long)u->size, ur_cons(u));
}

/*
 * An error after some samples were passed on: the drain returns the error,
 * not the count, and the good samples stay consumed.
 */
TEST_F(urb, hand_error_after_partial_drain)
{
	struct ur *u = &self->u;

	ur_hand_hdr(u, 0, 8);
	ur_hand_hdr(u, 16, 1000);
	ur_publish(u, 32);
	EXPECT_EQ(-EINVAL, ur_drain(_metadata, u, 0));
	EXPECT_EQ(1, u->skel->bss->nr_cb);
	EXPECT_EQ(1000, u->skel->bss->rec_seq[0]);
	EXPECT_EQ(16, ur_cons(u));
}

/*
 * The discard bit wins over the busy bit: such a record is skipped
 * (6.1.192 checks BPF_RINGBUF_DISCARD_BIT first).
 */
TEST_F(urb, hand_discard_and_busy_bits)
{
	struct ur *u = &self->u;

	ur_hand_hdr(u, 0, 8 | BPF_RINGBUF_DISCARD_BIT | BPF_RINGBUF_BUSY_BIT);
	ur_hand_hdr(u, 16, 8);
	ur_publish(u, 32);
	EXPECT_EQ(1, ur_drain(_metadata, u, 0));
	EXPECT_EQ(1, u->skel->bss->nr_cb);
	EXPECT_EQ(1016, u->skel->bss->rec_seq[0]);
	EXPECT_EQ(32, ur_cons(u));
}

/* ---------------------------------------------------------------------- */
/* A ring larger than a dynptr can describe (32 MiB). */
FIXTURE(urb_big) {
	struct ur u;
};

FIXTURE_SETUP(urb_big)
{
	ur_init(&self->u);
	ur_open(_metadata, &self->u, UR_BIG_RING, NULL);
}

FIXTURE_TEARDOWN(urb_big)
{
	ur_close(&self->u);
}

/* A sample that fits the ring but not a dynptr (24-bit size): -E2BIG. */
TEST_F(urb_big, hand_len_larger_than_dynptr)
{
	struct ur *u = &self->u;

	ur_hand_hdr(u, 0, UR_DYNPTR_MAX + 1);
	ur_publish(u, ur_rec_size(UR_DYNPTR_MAX + 1));
	EXPECT_EQ(-E2BIG, ur_drain(_metadata, u, 0));
	EXPECT_EQ(0, ur_cons(u));

	ur_hand_hdr(u, 0, UR_DYNPTR_MAX);
	ur_publish(u, ur_rec_size(UR_DYNPTR_MAX));
	EXPECT_EQ(1, ur_drain(_metadata, u, 0));
	EXPECT_EQ(ur_rec_size(UR_DYNPTR_MAX), ur_cons(u));
}

/*
 * One drain passes on at most BPF_MAX_USER_RINGBUF_SAMPLES (128Ki) records;
 * discarded records count against that cap but not in the return value.
 */
TEST_F(urb_big, drain_sample_cap)
{
	struct ur *u = &self->u;
	int i;

	for (i = 0; i < UR_MAX_SAMPLES + 5; i++) {
		void *p = user_ring_buffer__reserve(u->rb, 0);

		ASSERT_NE(NULL, p) TH_LOG("reserve %d: %s", i, strerror(errno));
		if (i < 10)
			user_ring_buffer__discard(u->rb, p);
		else
			user_ring_buffer__submit(u->rb, p);
	}
	EXPECT_EQ(UR_MAX_SAMPLES - 10, ur_drain(_metadata, u, 0));
	EXPECT_EQ(UR_MAX_SAMPLES - 10, u->skel->bss->nr_cb);
	EXPECT_EQ(UR_MAX_SAMPLES * 8UL, ur_cons(u));
	EXPECT_EQ(5, ur_drain(_metadata, u, 0));
	EXPECT_EQ(ur_prod(u), ur_cons(u));
}

/* ---------------------------------------------------------------------- */
/* A drain from inside a drain's callback finds the ring busy: -EBUSY. */
TEST(nested_drain_ebusy)
{
	struct ur u;

	ur_init(&u);
	ur_open(_metadata, &u, 0, "drain_nested");
	ur_post(_metadata, &u, 16, 1);
	ur_post(_metadata, &u, 16, 2);
	u.drain_fd = bpf_program__fd(u.skel->progs.drain_nested);
	EXPECT_EQ(2, ur_drain(_metadata, &u, 0));
	EXPECT_EQ(-EBUSY, u.skel->bss->nested_ret);
	EXPECT_EQ(0, u.skel->bss->nr_cb);
	EXPECT_EQ(2 * ur_rec_size(16), ur_cons(&u));
	ur_close(&u);
}

/* ---------------------------------------------------------------------- */
/*
 * A callback's dynptr is initialised (it points at the sample): a helper
 * that initialises a dynptr must not be given it. 6.1.192 loads such a
 * program; a record bpf_ringbuf_reserve_dynptr() reserves so is never
 * submitted, and the kernel ring buffer's consumer stops at it for good.
 * Upstream refuses it since 270605317366 (v6.2) with these words; so
 * does the series' fix 0404.
 */
FIXTURE(reinit) {
	int unused;
};

FIXTURE_VARIANT(reinit) {
	const char *prog;
};

FIXTURE_VARIANT_ADD(reinit, from_mem) { .prog = "drain_reinit_mem" };

FIXTURE_VARIANT_ADD(reinit, ringbuf_reserve) { .prog = "drain_reinit_ringbuf" };

FIXTURE_SETUP(reinit)
{
}

FIXTURE_TEARDOWN(reinit)
{
}

static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

TEST_F(reinit, callback_dynptr_refused)
{
	static char log[1 << 20];
	struct user_ringbuf *skel;
	struct bpf_program *prog;
	int err;

	skel = user_ringbuf__open();
	ASSERT_NE(NULL, skel);
	prog = bpf_object__find_program_by_name(skel->obj, variant->prog);
	ASSERT_NE(NULL, prog);
	ASSERT_EQ(0, bpf_program__set_autoload(prog, true));
	ASSERT_EQ(0, bpf_program__set_log_buf(prog, log, sizeof(log)));
	ASSERT_EQ(0, bpf_program__set_log_level(prog, 1));
	libbpf_set_print(quiet);	/* the refusal is expected */
	err = user_ringbuf__load(skel);
	user_ringbuf__destroy(skel);
	EXPECT_EQ(-EINVAL, err) TH_LOG("%s loaded", variant->prog);
	EXPECT_NE(NULL, strstr(log, "Dynptr has to be an uninitialized dynptr"))
		TH_LOG("%s: verifier said: %.2000s", variant->prog, log);
}

/*
 * A callback returning 2 (only 0 and 1 are allowed) is refused at load
 * with EINVAL by both releases; the verifier's words for it changed in
 * c871d0e00f0e ("bpf: enforce precise retval range on program exit",
 * v6.8), which prints the register's signed bounds and the range as
 * [min, max] where 6.1 prints tnums (value; mask).
 */
#define RET2_V61 \
	"At callback return the register R0 has value (0x2; 0x0) should have been in (0x0; 0x1)"
#define RET2_LATER \
	"At callback return the register R0 has smin=2 smax=2 should have been in [0, 1]"

TEST(callback_return_2_log_since_6_8)
{
	static char log[1 << 20];
	int since = kernel_since(6, 8), err;
	struct user_ringbuf *skel;

	ASSERT_NE(-1, since);
	skel = user_ringbuf__open();
	ASSERT_NE(NULL, skel);
	ASSERT_EQ(0, bpf_program__set_autoload(skel->progs.drain_return_2, true));
	ASSERT_EQ(0, bpf_program__set_log_buf(skel->progs.drain_return_2, log,
					      sizeof(log)));
	ASSERT_EQ(0, bpf_program__set_log_level(skel->progs.drain_return_2, 1));
	libbpf_set_print(quiet);	/* the refusal is expected */
	err = user_ringbuf__load(skel);
	user_ringbuf__destroy(skel);
	EXPECT_EQ(-EINVAL, err);
	EXPECT_NE(NULL, strstr(log, since ? RET2_LATER : RET2_V61))
		TH_LOG("verifier said: %.2000s", log);
}

/* ---------------------------------------------------------------------- */
/*
 * A callback that formats its sample with bpf_snprintf(), the format in
 * .rodata: it loads, and each call writes "seq <seq> call <n>" and
 * returns its length with the NUL, as the helper's description in
 * include/uapi/linux/bpf.h promises ("The strictly positive length of
 * the formatted string, including the trailing zero character").
 */
TEST(callback_snprintf_rodata_format)
{
	char want[UR_FMT_OUT];
	struct ur u;
	int i;

	ur_init(&u);
	ur_open(_metadata, &u, 0, "drain_format_ro");
	u.drain_fd = bpf_program__fd(u.skel->progs.drain_format_ro);
	for (i = 0; i < 2; i++)
		ur_post(_metadata, &u, 16, 7 + i);
	EXPECT_EQ(2, ur_drain_any(_metadata, &u, 0));
	EXPECT_EQ(2, u.skel->bss->nr_cb);
	snprintf(want, sizeof(want), UR_FMT, 8ULL, 1);
	EXPECT_STREQ(want, u.skel->bss->fmt_out);
	EXPECT_EQ((long)strlen(want) + 1, u.skel->bss->fmt_ret);
	ur_close(&u);
}

/*
 * The same format in .data, which the program may write: the verifier
 * refuses bpf_snprintf()'s format there with EACCES, since it checks
 * the string once, at load (ARG_PTR_TO_CONST_STR: "R3 does not point
 * to a readonly map'", the quote the kernel's).
 */
TEST(callback_snprintf_writable_format_eacces)
{
	static char log[1 << 20];
	struct user_ringbuf *skel;
	int err;

	skel = user_ringbuf__open();
	ASSERT_NE(NULL, skel);
	ASSERT_EQ(0, bpf_program__set_autoload(skel->progs.drain_format_rw, true));
	ASSERT_EQ(0, bpf_program__set_log_buf(skel->progs.drain_format_rw, log,
					      sizeof(log)));
	ASSERT_EQ(0, bpf_program__set_log_level(skel->progs.drain_format_rw, 1));
	libbpf_set_print(quiet);	/* the refusal is expected */
	err = user_ringbuf__load(skel);
	user_ringbuf__destroy(skel);
	EXPECT_EQ(-EACCES, err);
	EXPECT_NE(NULL, strstr(log, "R3 does not point to a readonly map'"))
		TH_LOG("verifier said: %.2000s", log);
}

/* ---------------------------------------------------------------------- */
/* user_ring_buffer__reserve_blocking() */

struct consumer {
	struct ur *u;
	unsigned int delay_ms;
	pid_t sleeper;		/* instead of the delay: drain once it sleeps */
	bool slept;		/* sleeper was seen asleep in epoll_wait() */
	__u64 done_ms;		/* when the drain returned */
	__u64 flags;
	long ret;
	int run_err;
};

/* Is thread @tid of this process blocked in a system call of epoll_wait()'s? */
static bool in_epoll_wait(pid_t tid)
{
	char path[64], buf[512], *state;
	bool in_call = false;
	long nr;
	FILE *f;

	/* "NR args... sp pc" while blocked in a system call, else "running" */
	snprintf(path, sizeof(path), "/proc/self/task/%d/syscall", tid);
	f = fopen(path, "r");
	if (!f)
		return false;
	if (fscanf(f, "%ld", &nr) == 1)
		in_call = nr == __NR_epoll_wait || nr == __NR_epoll_pwait;
	fclose(f);
	if (!in_call)
		return false;

	/* ... and asleep in it (S), not on the way in or out */
	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
	f = fopen(path, "r");
	if (!f)
		return false;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	state = strrchr(buf, ')');
	return state && state[1] == ' ' && state[2] == 'S';
}

static void *consumer_fn(void *arg)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);
	struct consumer *c = arg;
	int i;

	if (c->sleeper) {
		/* 10 s at most: the sleeper's own timeout is far shorter */
		for (i = 0; i < 10000 && !c->slept; i++) {
			c->slept = in_epoll_wait(c->sleeper);
			if (!c->slept)
				usleep(1000);
		}
	} else {
		usleep(c->delay_ms * 1000);
	}
	c->u->skel->bss->drain_flags = c->flags;
	c->run_err = bpf_prog_test_run_opts(c->u->drain_fd, &opts);
	c->ret = c->u->skel->bss->drain_ret;
	c->done_ms = now_ms();
	return NULL;
}

/* Only -1 or a non-negative timeout: EINVAL, even with room to spare. */
TEST_F(urb, blocking_bad_timeout_einval)
{
	errno = 0;
	EXPECT_EQ(NULL, user_ring_buffer__reserve_blocking(self->u.rb, 8, -2));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(0, ur_prod(&self->u));
}

/* Timeout 0 on a full ring: ENOSPC without blocking. */
TEST_F(urb, blocking_timeout_0_enospc)
{
	__u64 t0;

	ur_fill_ring(_metadata, &self->u);
	t0 = now_ms();
	errno = 0;
	EXPECT_EQ(NULL, user_ring_buffer__reserve_blocking(self->u.rb, 8, 0));
	EXPECT_EQ(ENOSPC, errno);
	EXPECT_GT(1000, now_ms() - t0);
}

/*
 * Nobody drains: ENOSPC after at least the timeout.  libbpf.h promises
 * no more than that; the upper bound only tells a timeout that is not
 * honoured (one that never ends is the harness's timeout) from a slow
 * guest.  The call sleeps in epoll_wait() for the 300 ms and tries once
 * more; under TCG on a loaded host a sleep can overrun by seconds, so
 * the bound is 20 s, over 60 times the timeout, and the harness waits
 * 60 s, so that such a wait still ends with this message.
 */
TEST_F_TIMEOUT(urb, blocking_timeout_expires_enospc, 60)
{
	__u64 t0, dt;

	ur_fill_ring(_metadata, &self->u);
	t0 = now_ms();
	errno = 0;
	EXPECT_EQ(NULL, user_ring_buffer__reserve_blocking(self->u.rb, 8, 300));
	dt = now_ms() - t0;
	EXPECT_EQ(ENOSPC, errno);
	EXPECT_LE(300, dt);
	EXPECT_GT(20000, dt);
	/* A sample that never fits is E2BIG at once, whatever the timeout. */
	errno = 0;
	EXPECT_EQ(NULL, user_ring_buffer__reserve_blocking(self->u.rb,
							   self->u.size, -1));
	EXPECT_EQ(E2BIG, errno);
}

/*
 * Fill the ring, start @c's consumer in @th and reserve @size bytes,
 * blocking up to @timeout_ms; *@t0 is when the consumer was started.
 */
static void *reserve_while_draining(struct __test_metadata *_metadata,
				    struct ur *u, struct consumer *c,
				    pthread_t *th, __u32 size, int timeout_ms,
				    __u64 *t0)
{
	ur_fill_ring(_metadata, u);
	*t0 = now_ms();
	ASSERT_EQ(0, pthread_create(th, NULL, consumer_fn, c));
	errno = 0;
	return user_ring_buffer__reserve_blocking(u->rb, size, timeout_ms);
}

/*
 * Timeout -1 blocks until a consumer (another thread running the drain
 * program) frees space, and the drain's wake-up ends the wait.
 */
TEST_F_TIMEOUT(urb, blocking_forever_woken_by_drain, 30)
{
	struct consumer c = { .u = &self->u, .delay_ms = 200 };
	pthread_t th;
	__u64 t0;
	void *p;

	p = reserve_while_draining(_metadata, &self->u, &c, &th, 8, -1, &t0);
	EXPECT_NE(NULL, p) TH_LOG("%s", strerror(errno));
	EXPECT_LE(200, now_ms() - t0);
	pthread_join(th, NULL);
	EXPECT_EQ(0, c.run_err);
	EXPECT_EQ(1, c.ret);
}

/*
 * Timeout -1 with some free space, but less than the sample needs.  libbpf
 * documents that the call blocks until the sample fits; the drain frees
 * the space after 200 ms.  Debian's libbpf 1.1.2 returns NULL/ENOSPC at
 * once instead: the map fd is EPOLLOUT whenever the ring is not completely
 * full (ringbuf_map_poll_user()), so epoll_wait() returns at once, and the
 * "continue" for timeout -1 in reserve_blocking()'s do/while loop jumps to
 * the "while (ms_remaining > 0)" test with ms_remaining == -1, which ends
 * the loop after a single wait.  Listed in known-issues.toml.
 */
TEST_F_TIMEOUT(urb, blocking_forever_partial_space, 30)
{
	struct consumer c = { .u = &self->u, .delay_ms = 200 };
	struct ur *u = &self->u;
	pthread_t th;
	__u64 t0;
	void *p;
	int n = 0;

	while ((p = user_ring_buffer__reserve(u->rb, 16))) {
		ur_fill(p, 16, n++);
		user_ring_buffer__submit(u->rb, p);
	}
	ASSERT_EQ(u->size % ur_rec_size(16), u->size - (ur_prod(u) - ur_cons(u)));
	ASSERT_GT(ur_rec_size(16), u->size % ur_rec_size(16));

	t0 = now_ms();
	ASSERT_EQ(0, pthread_create(&th, NULL, consumer_fn, &c));
	errno = 0;
	p = user_ring_buffer__reserve_blocking(u->rb, 16, -1);
	EXPECT_NE(NULL, p) TH_LOG("after %llu ms: %s",
				  (unsigned long long)(now_ms() - t0),
				  strerror(errno));
	pthread_join(th, NULL);
	EXPECT_EQ(n, c.ret);
	if (p)
		EXPECT_LE(200, now_ms() - t0);
}

/* The same with a long timeout: the wake-up, not the timeout, ends it. */
TEST_F_TIMEOUT(urb, blocking_timeout_woken_by_drain, 30)
{
	struct consumer c = { .u = &self->u, .delay_ms = 100 };
	pthread_t th;
	__u64 t0, dt;
	void *p;

	p = reserve_while_draining(_metadata, &self->u, &c, &th, 8, 10000, &t0);
	dt = now_ms() - t0;
	EXPECT_NE(NULL, p) TH_LOG("%s", strerror(errno));
	EXPECT_LE(100, dt);
	EXPECT_GT(10000, dt);
	pthread_join(th, NULL);
	EXPECT_EQ(1, c.ret);
}

/*
 * BPF_RB_NO_WAKEUP: the space is freed while the waiter sleeps in
 * epoll_wait(), but it is not woken, so it only finds the space with its
 * last try, at the 1 s timeout.  The drain must come after the waiter
 * has looked at the ring and gone to sleep (a waiter that only gets to
 * epoll_wait() after the drain sees the space at once, woken or not):
 * the consumer waits until /proc shows the waiter asleep in epoll_wait()
 * before it drains, instead of a head start of some milliseconds.  The
 * drain then has the rest of the second to finish, one test run of a
 * program that drains one sample.
 */
TEST_F_TIMEOUT(urb, blocking_no_wakeup_waits_timeout, 30)
{
	struct consumer c = {
		.u = &self->u, .sleeper = syscall(SYS_gettid),
		.flags = BPF_RB_NO_WAKEUP,
	};
	pthread_t th;
	__u64 t0, dt;
	void *p;

	p = reserve_while_draining(_metadata, &self->u, &c, &th, 8, 1000, &t0);
	dt = now_ms() - t0;
	pthread_join(th, NULL);
	EXPECT_TRUE(c.slept) TH_LOG("the waiter was never seen asleep in epoll_wait()");
	EXPECT_EQ(0, c.run_err);
	EXPECT_EQ(1, c.ret);
	EXPECT_NE(NULL, p) TH_LOG("after %llu ms: %s; the drain returned at %llu ms",
				  (unsigned long long)dt, strerror(errno),
				  (unsigned long long)(c.done_ms - t0));
	EXPECT_LE(1000, dt) TH_LOG("woken although the drain passed BPF_RB_NO_WAKEUP");
}

/* ---------------------------------------------------------------------- */
/*
 * Wake-ups seen through an edge-triggered epoll on the map fd: only the
 * drain's irq_work wake-up queues an event once the initial one is taken.
 * Default: a wake-up iff a sample was drained; BPF_RB_NO_WAKEUP: never;
 * BPF_RB_FORCE_WAKEUP: always, even if nothing was drained.
 */
FIXTURE(wakeup) {
	struct ur u;
	int epfd;
};

FIXTURE_VARIANT(wakeup) {
	__u64 flags;
	int samples;
	bool event;
};

FIXTURE_VARIANT_ADD(wakeup, default_one) { .samples = 1, .event = true };

FIXTURE_VARIANT_ADD(wakeup, default_none) { .samples = 0, .event = false };

FIXTURE_VARIANT_ADD(wakeup, default_discarded) {
	.samples = -1, .event = true,
};

FIXTURE_VARIANT_ADD(wakeup, no_wakeup_one) {
	.flags = BPF_RB_NO_WAKEUP, .samples = 1, .event = false,
};

FIXTURE_VARIANT_ADD(wakeup, force_wakeup_none) {
	.flags = BPF_RB_FORCE_WAKEUP, .samples = 0, .event = true,
};

FIXTURE_VARIANT_ADD(wakeup, force_wakeup_one) {
	.flags = BPF_RB_FORCE_WAKEUP, .samples = 1, .event = true,
};

/* Not documented; 6.1.192 tests BPF_RB_FORCE_WAKEUP first. */
FIXTURE_VARIANT_ADD(wakeup, both_flags_none) {
	.flags = BPF_RB_FORCE_WAKEUP | BPF_RB_NO_WAKEUP, .samples = 0,
	.event = true,
};

FIXTURE_SETUP(wakeup)
{
	ur_init(&self->u);
	self->epfd = -1;
	ur_open(_metadata, &self->u, 0, NULL);
}

FIXTURE_TEARDOWN(wakeup)
{
	if (self->epfd >= 0)
		close(self->epfd);
	ur_close(&self->u);
}

TEST_F(wakeup, epoll_event)
{
	struct epoll_event ev = { .events = EPOLLOUT | EPOLLET };
	struct ur *u = &self->u;
	long want;

	if (variant->samples > 0) {
		ur_post(_metadata, u, 16, 1);
	} else if (variant->samples < 0) {
		void *p = user_ring_buffer__reserve(u->rb, 16);

		ASSERT_NE(NULL, p);
		user_ring_buffer__discard(u->rb, p);
	}
	self->epfd = epoll_create1(0);
	ASSERT_LE(0, self->epfd);
	ASSERT_EQ(0, epoll_ctl(self->epfd, EPOLL_CTL_ADD, u->map_fd, &ev));
	/* The initial readiness, then nothing until a wake-up. */
	ASSERT_EQ(1, epoll_wait(self->epfd, &ev, 1, 0));
	ASSERT_EQ(0, epoll_wait(self->epfd, &ev, 1, 0));

	want = variant->samples > 0 ? variant->samples : 0;
	EXPECT_EQ(want, ur_drain(_metadata, u, variant->flags));
	if (variant->event) {
		ASSERT_EQ(1, epoll_wait(self->epfd, &ev, 1, 5000));
		EXPECT_EQ(EPOLLOUT, ev.events & (EPOLLOUT | EPOLLIN));
	} else {
		EXPECT_EQ(0, epoll_wait(self->epfd, &ev, 1, 500));
	}
}

/* ---------------------------------------------------------------------- */
/* Seeded bad input and fault injection. */

/* What bpf_user_ringbuf_drain() returns and leaves, per 6.1.192's code. */
struct ur_expect {
	long ret;
	__u32 nr_cb;
	unsigned long cons;
	__u32 len[UR_MAX_REC];
};

/*
 * The drain, modelled on the ring's current memory: the helper's flags
 * check, then __bpf_user_ringbuf_peek() per sample (producer position
 * not a multiple of 8: -EINVAL; nothing left: stop; a record longer than
 * the producer position advertises: -EINVAL; longer than the ring or a
 * dynptr: -E2BIG; discard bit: skipped, not counted; busy bit: stop),
 * the callback returning 1 at stop_after, and the
 * BPF_MAX_USER_RINGBUF_SAMPLES cap (which counts discarded samples).
 */
static void ur_model(struct ur *u, __u64 flags, __u32 stop_after,
		     unsigned long prod, struct ur_expect *e)
{
	unsigned long cons = ur_cons(u);
	long samples, discarded = 0, ret = 0;
	__u32 hdr, len, total;

	e->nr_cb = 0;
	e->cons = cons;
	if (flags & ~(__u64)(BPF_RB_NO_WAKEUP | BPF_RB_FORCE_WAKEUP)) {
		e->ret = -EINVAL;
		return;
	}
	for (samples = 0; samples < UR_MAX_SAMPLES && ret == 0; samples++) {
		if (prod % 8) {
			e->ret = -EINVAL;
			return;
		}
		if (cons >= prod)
			break;
		hdr = __atomic_load_n((__u32 *)(u->data + (cons & (u->size - 1))),
				      __ATOMIC_ACQUIRE);
		len = hdr & ~(BPF_RINGBUF_BUSY_BIT | BPF_RINGBUF_DISCARD_BIT);
		total = (len + BPF_RINGBUF_HDR_SZ + 7) / 8 * 8;
		if (total > prod - cons) {
			e->ret = -EINVAL;
			return;
		}
		if (total > u->size || len > UR_DYNPTR_MAX) {
			e->ret = -E2BIG;
			return;
		}
		if (hdr & BPF_RINGBUF_DISCARD_BIT) {
			e->cons = cons += total;
			discarded++;
			continue;
		}
		if (hdr & BPF_RINGBUF_BUSY_BIT)
			break;
		if (e->nr_cb < UR_MAX_REC)
			e->len[e->nr_cb] = len < UR_MAX_PROBE ? len : UR_MAX_PROBE;
		e->nr_cb++;
		ret = stop_after && e->nr_cb == stop_after;
		e->cons = cons += total;
	}
	e->ret = samples - discarded;
}

/* A random sample length: small, at the ring's and a dynptr's limits, any. */
static __u32 ur_rand_len(struct kc_rng *r, __u32 size)
{
	switch (kc_below(r, 8)) {
	case 0:
		return size - 16 + kc_below(r, 24);
	case 1:
		return UR_DYNPTR_MAX - 1 + kc_below(r, 3);
	case 2:
		return kc_next(r) & ~(BPF_RINGBUF_BUSY_BIT | BPF_RINGBUF_DISCARD_BIT);
	case 3:
		return kc_below(r, size);
	default:
		return kc_below(r, 100);
	}
}

/* A random producer position relative to the consumer and @end. */
static unsigned long ur_rand_prod(struct kc_rng *r, unsigned long cons,
				  unsigned long end)
{
	switch (kc_below(r, 9)) {
	case 0:
		return cons;					/* equal */
	case 1:
		return cons >= 8 ? cons - 8 * (1 + kc_below(r, 4)) : cons; /* behind */
	case 2:
		return end + 1 + kc_below(r, 7);		/* misaligned */
	case 3:
		return cons + (1UL << (13 + kc_below(r, 50)));	/* far ahead */
	case 4:
		return kc_next(r);
	case 5:
		return end - 8;					/* short by a record tail */
	default:
		return end;					/* exactly */
	}
}

#define UR_FUZZ_ITERS	1500

/*
 * A producer writing random headers (lengths, busy and discard bits) and
 * positions (behind, equal, misaligned, exact, far ahead) by hand while
 * the BPF program drains with random flags and stops at a random sample:
 * every drain returns exactly what ur_model() derives from the ring's
 * memory (a count or one of -EINVAL, -E2BIG), calls back that often with
 * those lengths, leaves the consumer position there, and taints nothing.
 * Afterwards the ring still carries a sample through libbpf.
 */
TEST_F_TIMEOUT(urb, seeded_bad_producer, 300)
{
	struct ur *u = &self->u;
	unsigned long cons, pos, prod;
	__u32 len, stop_after, i, k, n;
	long taint = kc_tainted();
	struct ur_expect e;
	struct kc_rng r;
	__u64 flags;
	long ret;

	kc_rng_init(&r, "bpf_user_ringbuf.seeded_bad_producer");
	for (i = 0; i < UR_FUZZ_ITERS; i++) {
		cons = ur_cons(u);
		pos = cons;
		if (!kc_below(&r, 200)) {
			/* the whole ring of empty discarded records: the cap */
			for (k = 0; k < u->size; k += 8)
				ur_hand_hdr(u, k, BPF_RINGBUF_DISCARD_BIT);
			pos = cons + (1UL << 40);
		} else {
			n = 1 + kc_below(&r, 6);
			for (k = 0; k < n && pos - cons < u->size; k++) {
				len = ur_rand_len(&r, u->size);
				if (kc_chance(&r, 10))
					len |= BPF_RINGBUF_BUSY_BIT;
				if (kc_chance(&r, 15))
					len |= BPF_RINGBUF_DISCARD_BIT;
				ur_hand_hdr(u, pos, len);
				len &= ~(BPF_RINGBUF_BUSY_BIT | BPF_RINGBUF_DISCARD_BIT);
				pos += ((unsigned long)len + BPF_RINGBUF_HDR_SZ + 7) / 8 * 8;
			}
		}
		prod = ur_rand_prod(&r, cons, pos);
		ur_publish(u, prod);
		flags = kc_chance(&r, 75) ? kc_below(&r, 4) :
			kc_chance(&r, 50) ? 1ULL << kc_below(&r, 64) : kc_next(&r);
		stop_after = kc_chance(&r, 70) ? 0 : 1 + kc_below(&r, 3);

		ur_model(u, flags, stop_after, prod, &e);
		u->skel->bss->stop_after = stop_after;
		/* headers overlap payloads: the pattern is not checked */
		ret = ur_drain_any(_metadata, u, flags);
		EXPECT_EQ(e.ret, ret)
			TH_LOG("iteration %u: cons %lu prod %lu flags %#llx stop %u",
			       i, cons, prod, (unsigned long long)flags, stop_after);
		EXPECT_EQ(e.nr_cb, u->skel->bss->nr_cb) TH_LOG("iteration %u", i);
		EXPECT_EQ(e.cons, ur_cons(u)) TH_LOG("iteration %u", i);
		for (k = 0; k < e.nr_cb && k < UR_MAX_REC; k++)
			EXPECT_EQ(e.len[k], u->skel->bss->rec_len[k])
				TH_LOG("iteration %u, sample %u", i, k);
		ASSERT_EQ(taint, kc_tainted()) TH_LOG("tainted at iteration %u", i);
		if (!kc_passed(_metadata))
			break;
	}
	u->skel->bss->stop_after = 0;
	/* Nothing pending any more, and libbpf's producer still works. */
	ur_publish(u, ur_cons(u));
	ur_post(_metadata, u, 16, 7);
	EXPECT_EQ(1, ur_drain(_metadata, u, 0));
	EXPECT_EQ(7, u->skel->bss->rec_seq[0]);
}

#define UR_FAULT_MAX_NTH	5000

/*
 * Map creation with the n-th slab allocation failing (fail-nth), for
 * every n until the call makes fewer than n, for a 16-page ring: each
 * attempt fails with
 * ENOMEM (bpf(2)) or, where the failure was absorbed (the page array's
 * kmalloc() falls back to vmalloc()), gives a map that works; the drain
 * program, loaded on each such map, drains a sample posted through
 * libbpf.  Leaks are kmemleak's, on the debug variant.
 */
FIXTURE(fault) {
	int unused;
};

FIXTURE_SETUP(fault)
{
}

FIXTURE_TEARDOWN(fault)
{
}

/* An attempt: the map it made (or -1) and what the attempts gave. */
struct map_fault {
	__u32 size;
	int fd;
	int enomem;
	int absorbed;
};

static int map_fault_call(void *arg)
{
	struct map_fault *mf = arg;

	mf->fd = bpf_map_create(BPF_MAP_TYPE_USER_RINGBUF, NULL, 0, 0,
				mf->size, NULL);
	return mf->fd < 0 ? -errno : 0;
}

static void map_fault_check(struct __test_metadata *_metadata, void *arg,
			    int n, int ret, long left)
{
	struct map_fault *mf = arg;
	int fd = mf->fd, err = -ret;
	struct ur u;

	if (fd < 0) {
		EXPECT_EQ(ENOMEM, err) TH_LOG("n = %d: %s", n, strerror(err));
		EXPECT_EQ(0, left);
		mf->enomem++;
		return;
	}
	if (!left)
		mf->absorbed++;
	/* The map works: load the drain program on it, post, drain. */
	ur_init(&u);
	u.size = mf->size;
	u.skel = user_ringbuf__open();
	ASSERT_NE(NULL, u.skel);
	ASSERT_EQ(0, bpf_map__reuse_fd(u.skel->maps.user_ringbuf, fd));
	ASSERT_EQ(0, user_ringbuf__load(u.skel)) TH_LOG("n = %d", n);
	u.map_fd = fd;
	u.drain_fd = bpf_program__fd(u.skel->progs.drain);
	u.rb = user_ring_buffer__new(fd, NULL);
	ASSERT_NE(NULL, u.rb) TH_LOG("n = %d: %s", n, strerror(errno));
	ur_post(_metadata, &u, 24, n);
	EXPECT_EQ(1, ur_drain(_metadata, &u, 0)) TH_LOG("n = %d", n);
	EXPECT_EQ((__u64)n, u.skel->bss->rec_seq[0]);
	ur_close(&u);
	close(fd);
}

TEST_F_TIMEOUT(fault, map_create_fault_injection, 300)
{
	struct map_fault mf = { .size = 16 * sysconf(_SC_PAGESIZE) };
	int n, err;

	err = kc_failslab_setup();
	if (err)
		SKIP(return, "no failslab in debugfs: %s", strerror(-err));
	n = kc_fail_nth_loop(_metadata, UR_FAULT_MAX_NTH, map_fault_call,
			     map_fault_check, &mf);
	printf("# %d attempts: %d ENOMEM, %d absorbed\n", n, mf.enomem,
	       mf.absorbed);
	fflush(stdout);
	EXPECT_GT(mf.enomem, 0);
}

TEST_HARNESS_MAIN
