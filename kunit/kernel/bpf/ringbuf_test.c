// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the kernel consumer of BPF_MAP_TYPE_USER_RINGBUF.
 *
 * A user-space producer writes 8-byte record headers ({ u32 len;
 * u32 pg_off; }, the top two bits of len being BPF_RINGBUF_BUSY_BIT and
 * BPF_RINGBUF_DISCARD_BIT) and the sample after each one into the data
 * area, then publishes them by advancing producer_pos.  The kernel side
 * trusts none of it:
 *
 *  - __bpf_user_ringbuf_peek() validates the record at consumer_pos and
 *    returns its address and length, skips it (-EAGAIN) if discarded,
 *    or refuses it with -EINVAL, -E2BIG or -ENODATA;
 *  - __bpf_user_ringbuf_sample_release() moves consumer_pos past it;
 *  - bpf_user_ringbuf_drain() takes the ring's busy bit, runs the two
 *    for up to BPF_MAX_USER_RINGBUF_SAMPLES records, hands each sample
 *    to a callback as a dynptr and queues the wake-up irq_work as its
 *    flags say.
 *
 * Every case allocates a real map through user_ringbuf_map_ops, the
 * ops the bpf() syscall uses, and plays the producer by writing the
 * headers and positions of its struct bpf_ringbuf directly.  The drain
 * helper is called through bpf_user_ringbuf_drain_proto.func, the
 * address a BPF program's call instruction is patched to, with a C
 * callback of the bpf_callback_t signature standing in for the
 * program's callback subprogram.  Wake-ups are counted by a wait queue
 * entry on the ring's waitq, after irq_work_sync().
 *
 * Lifecycle: .init allocates the per-case state (test->priv); a case
 * allocates its ring with bpf_user_ringbuf_test_ring(); .exit frees the
 * ring, if any.
 *
 * Expected values are those of 6.1.192's kernel/bpf/ringbuf.c, as
 * documented for bpf_user_ringbuf_drain() in include/uapi/linux/bpf.h
 * and in the series merged as c12a03766788 ("Merge branch 'bpf: Add
 * user-space-publisher ring buffer map type'").
 */

#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/bpf.h>
#include <linux/irq_work.h>
#include <linux/math.h>
#include <linux/mm.h>
#include <linux/sizes.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include <linux/wait.h>

#include "ringbuf.h"

/* From kernel/bpf/helpers.c: the dynptr type sits at bit 28 of ->size. */
#define RB_TEST_DYNPTR_TYPE_SHIFT	28
#define RB_TEST_DYNPTR_MAX_SIZE		(BIT(24) - 1)

/* Record length as the kernel accounts it: header + sample, 8-aligned. */
#define RB_TEST_REC_LEN(len)	round_up((len) + BPF_RINGBUF_HDR_SZ, 8)

/* Most cases use a one-page data area. */
#define RB_P			PAGE_SIZE

/* The dynptr size limit is only reachable above 16 MiB of data area. */
#define RB_TEST_BIG_SZ		SZ_32M

/* Sentinels the peek must leave alone when it fails. */
#define RB_TEST_NO_SAMPLE	((void *)0x5a5a5a5a5a5a5a5aUL)
#define RB_TEST_NO_SIZE		0xa5a5a5a5U

/* How many callback invocations a drain records in detail. */
#define RB_TEST_MAX_SEEN	8

struct bpf_user_ringbuf_test {
	struct bpf_map *map;
	struct bpf_ringbuf *rb;
	struct wait_queue_entry waiter;
	atomic_t wakeups;
};

/* What the drain callback saw, and how it should answer. */
struct bpf_user_ringbuf_test_cb {
	unsigned long calls;
	unsigned long stop_at;		/* return 1 on this call (1-based) */
	struct bpf_map *map;		/* if set, drain it from the callback */
	struct bpf_user_ringbuf_test_cb *inner;	/* ... with this context */
	long nested_ret;
	void *data[RB_TEST_MAX_SEEN];
	u32 size[RB_TEST_MAX_SEEN];
	u32 offset[RB_TEST_MAX_SEEN];
};

static int bpf_user_ringbuf_test_wake(struct wait_queue_entry *wq_entry,
				      unsigned int mode, int sync, void *key)
{
	struct bpf_user_ringbuf_test *t;

	t = container_of(wq_entry, struct bpf_user_ringbuf_test, waiter);
	atomic_inc(&t->wakeups);
	return 0;
}

static void bpf_user_ringbuf_test_free(struct bpf_user_ringbuf_test *t)
{
	if (!t->map)
		return;
	remove_wait_queue(&t->rb->waitq, &t->waiter);
	user_ringbuf_map_ops.map_free(t->map);
	t->map = NULL;
	t->rb = NULL;
}

/* Allocate a user ring buffer map with a @data_sz byte data area. */
static struct bpf_ringbuf *bpf_user_ringbuf_test_ring(struct kunit *test, u32 data_sz)
{
	struct bpf_user_ringbuf_test *t = test->priv;
	union bpf_attr attr = {
		.map_type = BPF_MAP_TYPE_USER_RINGBUF,
		.max_entries = data_sz,
	};
	struct bpf_map *map;

	bpf_user_ringbuf_test_free(t);

	map = user_ringbuf_map_ops.map_alloc(&attr);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, map);
	map->ops = &user_ringbuf_map_ops;

	t->map = map;
	t->rb = container_of(map, struct bpf_ringbuf_map, map)->rb;
	atomic_set(&t->wakeups, 0);
	init_waitqueue_func_entry(&t->waiter, bpf_user_ringbuf_test_wake);
	add_wait_queue(&t->rb->waitq, &t->waiter);

	KUNIT_ASSERT_EQ(test, t->rb->mask, (u64)data_sz - 1);
	return t->rb;
}

/* Write a record header at position @pos, as the producer would. */
static void bpf_user_ringbuf_test_hdr(struct bpf_ringbuf *rb, u64 pos, u32 len)
{
	struct bpf_ringbuf_hdr *hdr = (void *)rb->data + (pos & rb->mask);

	hdr->pg_off = 0;
	/* Pairs with smp_load_acquire(hdr) in __bpf_user_ringbuf_peek(). */
	smp_store_release(&hdr->len, len);
}

/*
 * Append a record of @len bytes with header flags @flags at the producer
 * position and publish it, as libbpf's user_ring_buffer__submit() does.
 * The sample is filled with the low byte of its position.
 */
static void bpf_user_ringbuf_test_push(struct bpf_ringbuf *rb, u32 len, u32 flags)
{
	u64 pos = rb->producer_pos;
	u32 i;

	for (i = 0; i < len; i++)
		rb->data[(pos + BPF_RINGBUF_HDR_SZ + i) & rb->mask] = (u8)(pos + i);
	bpf_user_ringbuf_test_hdr(rb, pos, len | flags);
	/* Pairs with smp_load_acquire(&rb->producer_pos) in the peek. */
	smp_store_release(&rb->producer_pos, pos + RB_TEST_REC_LEN(len));
}

static void bpf_user_ringbuf_test_set_pos(struct bpf_ringbuf *rb, u64 cons, u64 prod)
{
	/* Both pair with the smp_load_acquire()s in the peek. */
	smp_store_release(&rb->consumer_pos, cons);
	/* As above. */
	smp_store_release(&rb->producer_pos, prod);
}

/* Wait for a queued wake-up irq_work to finish; return the count so far. */
static int bpf_user_ringbuf_test_wakeups(struct bpf_user_ringbuf_test *t)
{
	irq_work_sync(&t->rb->work);
	return atomic_read(&t->wakeups);
}

static u64 bpf_user_ringbuf_test_cb(u64 dynptr, u64 ctx, u64 r3, u64 r4, u64 r5);

/* Call bpf_user_ringbuf_drain() the way a BPF program's call insn does. */
static long bpf_user_ringbuf_test_drain(struct bpf_map *map,
					struct bpf_user_ringbuf_test_cb *cb, u64 flags)
{
	return (long)bpf_user_ringbuf_drain_proto.func((u64)(uintptr_t)map,
						       (u64)(uintptr_t)bpf_user_ringbuf_test_cb,
						       (u64)(uintptr_t)cb, flags, 0);
}

static u64 bpf_user_ringbuf_test_cb(u64 dynptr, u64 ctx, u64 r3, u64 r4, u64 r5)
{
	struct bpf_dynptr_kern *ptr = (struct bpf_dynptr_kern *)(uintptr_t)dynptr;
	struct bpf_user_ringbuf_test_cb *cb = (void *)(uintptr_t)ctx;

	if (cb->calls < RB_TEST_MAX_SEEN) {
		cb->data[cb->calls] = ptr->data;
		cb->size[cb->calls] = ptr->size;
		cb->offset[cb->calls] = ptr->offset;
	}
	cb->calls++;

	if (cb->map)
		cb->nested_ret = bpf_user_ringbuf_test_drain(cb->map, cb->inner, 0);

	return cb->stop_at && cb->calls == cb->stop_at;
}

static int bpf_user_ringbuf_test_init(struct kunit *test)
{
	struct bpf_user_ringbuf_test *t;

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	test->priv = t;
	return 0;
}

static void bpf_user_ringbuf_test_exit(struct kunit *test)
{
	struct bpf_user_ringbuf_test *t = test->priv;

	if (t)
		bpf_user_ringbuf_test_free(t);
}

/*
 * The positions and the data area each start a page, in this order:
 * user space maps them at fixed page offsets (ringbuf_map_mmap_user(),
 * RINGBUF_PGOFF), and the data pages follow the producer page twice.
 */
static void bpf_user_ringbuf_test_layout(struct kunit *test)
{
	struct bpf_ringbuf *rb = bpf_user_ringbuf_test_ring(test, 2 * RB_P);
	size_t cons = offsetof(struct bpf_ringbuf, consumer_pos);

	KUNIT_EXPECT_EQ(test, cons % PAGE_SIZE, 0UL);
	KUNIT_EXPECT_EQ(test, offsetof(struct bpf_ringbuf, producer_pos), cons + PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, offsetof(struct bpf_ringbuf, data), cons + 2 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, rb->consumer_pos, 0UL);
	KUNIT_EXPECT_EQ(test, rb->producer_pos, 0UL);
	KUNIT_EXPECT_EQ(test, atomic_read(&rb->busy), 0);
	KUNIT_EXPECT_PTR_EQ(test, vmalloc_to_page(rb->data + 2 * RB_P),
			    vmalloc_to_page(rb->data));
	KUNIT_EXPECT_PTR_EQ(test, vmalloc_to_page(rb->data + 3 * RB_P),
			    vmalloc_to_page(rb->data + RB_P));
	KUNIT_EXPECT_PTR_NE(test, vmalloc_to_page(rb->data + RB_P),
			    vmalloc_to_page(rb->data));
}

/*
 * One record at consumer_pos, checked by __bpf_user_ringbuf_peek().
 * Rows follow the order of the checks in 6.1.192's kernel/bpf/ringbuf.c
 * and the errnos documented for bpf_user_ringbuf_drain() in
 * include/uapi/linux/bpf.h: producer_pos not 8-aligned -EINVAL; nothing
 * published -ENODATA; a record longer than producer_pos - consumer_pos
 * -EINVAL; longer than the data area, or a sample over the dynptr limit
 * (2^24 - 1, kernel/bpf/helpers.c) -E2BIG; then a discarded record is
 * skipped with -EAGAIN and a busy one is not consumed (-ENODATA).
 * Positions are free-running: only their low bits index the data area.
 */
struct bpf_user_ringbuf_test_peek_case {
	const char *name;
	u32 data_sz;
	u64 cons;
	u64 prod;
	u32 hdr;
	int err;
	u64 cons_after;
	u32 off;	/* success: sample offset in the data area */
};

static const struct bpf_user_ringbuf_test_peek_case bpf_user_ringbuf_test_peek_cases[] = {
	{ "empty", RB_P, 0, 0, 8, -ENODATA, 0 },
	{ "empty_after_laps", RB_P, 3 * RB_P, 3 * RB_P, 8, -ENODATA, 3 * RB_P },
	{ "producer_behind_consumer", RB_P, 64, 32, 8, -ENODATA, 64 },
	{ "producer_pos_plus_1", RB_P, 0, 17, 8, -EINVAL, 0 },
	{ "producer_pos_plus_4", RB_P, 0, 20, 8, -EINVAL, 0 },
	{ "unaligned_before_empty", RB_P, 32, 12, 8, -EINVAL, 32 },
	{ "header_only", RB_P, 0, 8, 0, 0, 0, 8 },
	{ "sample_fills_region", RB_P, 0, 16, 8, 0, 0, 8 },
	{ "sample_one_past_region", RB_P, 0, 16, 9, -EINVAL, 0 },
	{ "header_past_region", RB_P, 0, 8, 1, -EINVAL, 0 },
	{ "sample_fills_data_area", RB_P, 0, RB_P, RB_P - 8, 0, 0, 8 },
	{ "sample_past_data_area", RB_P, 0, 2 * RB_P, RB_P - 7, -E2BIG, 0 },
	{ "sample_at_dynptr_limit", RB_TEST_BIG_SZ, 0, RB_TEST_BIG_SZ,
	  RB_TEST_DYNPTR_MAX_SIZE, 0, 0, 8 },
	{ "sample_past_dynptr_limit", RB_TEST_BIG_SZ, 0, RB_TEST_BIG_SZ,
	  RB_TEST_DYNPTR_MAX_SIZE + 1, -E2BIG, 0 },
	{ "busy", RB_P, 0, 16, 8 | BPF_RINGBUF_BUSY_BIT, -ENODATA, 0 },
	{ "busy_past_region", RB_P, 0, 16, 9 | BPF_RINGBUF_BUSY_BIT, -EINVAL, 0 },
	{ "discard", RB_P, 0, 32, 8 | BPF_RINGBUF_DISCARD_BIT, -EAGAIN, 16 },
	{ "discard_rounded_up", RB_P, 0, 32, 9 | BPF_RINGBUF_DISCARD_BIT, -EAGAIN, 24 },
	{ "discard_empty_sample", RB_P, 40, 48, BPF_RINGBUF_DISCARD_BIT, -EAGAIN, 48 },
	{ "discard_wins_over_busy", RB_P, 0, 16,
	  8 | BPF_RINGBUF_BUSY_BIT | BPF_RINGBUF_DISCARD_BIT, -EAGAIN, 16 },
	{ "discard_past_region", RB_P, 0, 16, 9 | BPF_RINGBUF_DISCARD_BIT, -EINVAL, 0 },
	{ "discard_past_data_area", RB_P, 0, 2 * RB_P,
	  RB_P | BPF_RINGBUF_DISCARD_BIT, -E2BIG, 0 },
	{ "masked_by_data_size", RB_P, 5 * RB_P + 8, 5 * RB_P + 32, 8,
	  0, 5 * RB_P + 8, 16 },
	{ "header_in_last_8_bytes", RB_P, 2 * RB_P - 8, 2 * RB_P + 8, 8,
	  0, 2 * RB_P - 8, 0 },
};

static void bpf_user_ringbuf_test_peek_desc(const struct bpf_user_ringbuf_test_peek_case *c,
					    char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

/* Creates bpf_user_ringbuf_test_peek_gen_params(). */
KUNIT_ARRAY_PARAM(bpf_user_ringbuf_test_peek, bpf_user_ringbuf_test_peek_cases,
		  bpf_user_ringbuf_test_peek_desc);

/* One peek returns the documented errno, or the record's address and size. */
static void bpf_user_ringbuf_test_peek(struct kunit *test)
{
	const struct bpf_user_ringbuf_test_peek_case *c = test->param_value;
	void *sample = RB_TEST_NO_SAMPLE;
	u32 size = RB_TEST_NO_SIZE;
	struct bpf_ringbuf *rb;
	int err;

	rb = bpf_user_ringbuf_test_ring(test, c->data_sz);
	bpf_user_ringbuf_test_hdr(rb, c->cons, c->hdr);
	bpf_user_ringbuf_test_set_pos(rb, c->cons, c->prod);

	err = __bpf_user_ringbuf_peek(rb, &sample, &size);

	KUNIT_EXPECT_EQ(test, err, c->err);
	KUNIT_EXPECT_EQ(test, rb->consumer_pos, (unsigned long)c->cons_after);
	KUNIT_EXPECT_EQ(test, rb->producer_pos, (unsigned long)c->prod);
	if (c->err) {
		KUNIT_EXPECT_PTR_EQ(test, sample, RB_TEST_NO_SAMPLE);
		KUNIT_EXPECT_EQ(test, size, RB_TEST_NO_SIZE);
	} else {
		KUNIT_EXPECT_PTR_EQ(test, sample, (void *)rb->data + c->off);
		KUNIT_EXPECT_EQ(test, size, c->hdr);
	}
}

/*
 * A sample that starts 8 bytes before the end of the data area and runs
 * 8 bytes past it is returned as one contiguous pointer: the data pages
 * are mapped twice in a row (bpf_ringbuf_area_alloc()), so its tail
 * reads the first bytes of the data area.
 */
static void bpf_user_ringbuf_test_peek_wraps(struct kunit *test)
{
	u64 cons = 3 * RB_P - 16;
	u8 expect[16];
	struct bpf_ringbuf *rb;
	void *sample = NULL;
	u32 size = 0;
	int i;

	rb = bpf_user_ringbuf_test_ring(test, RB_P);
	for (i = 0; i < 8; i++) {
		rb->data[RB_P - 8 + i] = 0x10 + i;
		rb->data[i] = 0x20 + i;
	}
	for (i = 0; i < 16; i++)
		expect[i] = i < 8 ? 0x10 + i : 0x20 + i - 8;
	bpf_user_ringbuf_test_hdr(rb, cons, 16);
	bpf_user_ringbuf_test_set_pos(rb, cons, cons + 24);

	KUNIT_ASSERT_EQ(test, __bpf_user_ringbuf_peek(rb, &sample, &size), 0);
	KUNIT_EXPECT_PTR_EQ(test, sample, (void *)rb->data + RB_P - 8);
	KUNIT_EXPECT_EQ(test, size, 16U);
	KUNIT_EXPECT_EQ(test, memcmp(sample, expect, sizeof(expect)), 0);

	/* And writing the first data byte shows through the second mapping. */
	rb->data[0] = 0xee;
	KUNIT_EXPECT_EQ(test, ((u8 *)sample)[8], 0xee);
}

/*
 * __bpf_user_ringbuf_sample_release() moves consumer_pos past the header
 * and the sample, rounded up to 8 bytes (BPF_RINGBUF_HDR_SZ and the
 * 8-byte alignment the uapi documents), from a position past several
 * laps, and ignores its flags.
 */
struct bpf_user_ringbuf_test_release_case {
	const char *name;
	u32 size;
	u32 advance;
};

static const struct bpf_user_ringbuf_test_release_case bpf_user_ringbuf_test_release_cases[] = {
	{ "size_0", 0, 8 },
	{ "size_1", 1, 16 },
	{ "size_7", 7, 16 },
	{ "size_8", 8, 16 },
	{ "size_9", 9, 24 },
	{ "size_page_minus_header", RB_P - 8, RB_P },
};

static void bpf_user_ringbuf_test_release_desc(const struct bpf_user_ringbuf_test_release_case *c,
					       char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

/* Creates bpf_user_ringbuf_test_release_gen_params(). */
KUNIT_ARRAY_PARAM(bpf_user_ringbuf_test_release, bpf_user_ringbuf_test_release_cases,
		  bpf_user_ringbuf_test_release_desc);

static void bpf_user_ringbuf_test_release(struct kunit *test)
{
	const struct bpf_user_ringbuf_test_release_case *c = test->param_value;
	struct bpf_user_ringbuf_test *t = test->priv;
	u64 cons = 7 * RB_P - 8;
	struct bpf_ringbuf *rb;

	rb = bpf_user_ringbuf_test_ring(test, RB_P);
	bpf_user_ringbuf_test_set_pos(rb, cons, cons + 2 * RB_P);

	__bpf_user_ringbuf_sample_release(rb, c->size, BPF_RB_FORCE_WAKEUP);

	KUNIT_EXPECT_EQ(test, rb->consumer_pos, (unsigned long)(cons + c->advance));
	KUNIT_EXPECT_EQ(test, rb->producer_pos, (unsigned long)(cons + 2 * RB_P));
	KUNIT_EXPECT_EQ(test, bpf_user_ringbuf_test_wakeups(t), 0);
}

/* Unknown flag bits: -EINVAL before the ring is touched (uapi: flags). */
static const u64 bpf_user_ringbuf_test_bad_flags[] = {
	BIT_ULL(2),
	BIT_ULL(63),
	BPF_RB_NO_WAKEUP | BIT_ULL(3),
	BPF_RB_FORCE_WAKEUP | BIT_ULL(32),
};

static void bpf_user_ringbuf_test_bad_flags_desc(const u64 *flags, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "flags_%#llx", *flags);
}

/* Creates bpf_user_ringbuf_test_bad_flags_gen_params(). */
KUNIT_ARRAY_PARAM(bpf_user_ringbuf_test_bad_flags, bpf_user_ringbuf_test_bad_flags,
		  bpf_user_ringbuf_test_bad_flags_desc);

static void bpf_user_ringbuf_test_drain_bad_flags(struct kunit *test)
{
	const u64 *flags = test->param_value;
	struct bpf_user_ringbuf_test *t = test->priv;
	struct bpf_user_ringbuf_test_cb cb = {};
	struct bpf_ringbuf *rb;

	rb = bpf_user_ringbuf_test_ring(test, RB_P);
	bpf_user_ringbuf_test_push(rb, 8, 0);

	KUNIT_EXPECT_EQ(test, bpf_user_ringbuf_test_drain(t->map, &cb, *flags), -EINVAL);
	KUNIT_EXPECT_EQ(test, cb.calls, 0UL);
	KUNIT_EXPECT_EQ(test, rb->consumer_pos, 0UL);
	KUNIT_EXPECT_EQ(test, atomic_read(&rb->busy), 0);
	KUNIT_EXPECT_EQ(test, bpf_user_ringbuf_test_wakeups(t), 0);
}

/*
 * Another consumer holds the busy bit: -EBUSY, nothing consumed, the
 * other consumer's bit left set and no wake-up, even when forced.
 */
static void bpf_user_ringbuf_test_drain_busy(struct kunit *test)
{
	struct bpf_user_ringbuf_test *t = test->priv;
	struct bpf_user_ringbuf_test_cb cb = {};
	struct bpf_ringbuf *rb;

	rb = bpf_user_ringbuf_test_ring(test, RB_P);
	bpf_user_ringbuf_test_push(rb, 8, 0);
	atomic_set(&rb->busy, 1);

	KUNIT_EXPECT_EQ(test, bpf_user_ringbuf_test_drain(t->map, &cb, BPF_RB_FORCE_WAKEUP),
			-EBUSY);
	KUNIT_EXPECT_EQ(test, cb.calls, 0UL);
	KUNIT_EXPECT_EQ(test, rb->consumer_pos, 0UL);
	KUNIT_EXPECT_EQ(test, atomic_read(&rb->busy), 1);
	KUNIT_EXPECT_EQ(test, bpf_user_ringbuf_test_wakeups(t), 0);

	atomic_set(&rb->busy, 0);
	KUNIT_EXPECT_EQ(test, bpf_user_ringbuf_test_drain(t->map, &cb, 0), 1);
	KUNIT_EXPECT_EQ(test, cb.calls, 1UL);
}

/* A drain from inside the callback is a concurrent drain: -EBUSY. */
static void bpf_user_ringbuf_test_drain_nested(struct kunit *test)
{
	struct bpf_user_ringbuf_test *t = test->priv;
	struct bpf_user_ringbuf_test_cb inner = {};
	struct bpf_user_ringbuf_test_cb cb = { .inner = &inner };
	struct bpf_ringbuf *rb;

	rb = bpf_user_ringbuf_test_ring(test, RB_P);
	bpf_user_ringbuf_test_push(rb, 8, 0);
	bpf_user_ringbuf_test_push(rb, 8, 0);
	cb.map = t->map;

	KUNIT_EXPECT_EQ(test, bpf_user_ringbuf_test_drain(t->map, &cb, 0), 2);
	KUNIT_EXPECT_EQ(test, cb.calls, 2UL);
	KUNIT_EXPECT_EQ(test, cb.nested_ret, (long)-EBUSY);
	KUNIT_EXPECT_EQ(test, inner.calls, 0UL);
	KUNIT_EXPECT_EQ(test, rb->consumer_pos, rb->producer_pos);
	KUNIT_EXPECT_EQ(test, atomic_read(&rb->busy), 0);
}

/*
 * Samples reach the callback in order, as read-write local dynptrs over
 * the sample itself, with the caller's context; discarded records are
 * skipped and not counted in the return value.
 */
static void bpf_user_ringbuf_test_drain_counts(struct kunit *test)
{
	static const struct {
		u32 len;
		u32 flags;
	} recs[] = {
		{ 5, BPF_RINGBUF_DISCARD_BIT },
		{ 3, 0 },
		{ 16, 0 },
		{ 0, BPF_RINGBUF_DISCARD_BIT },
		{ 24, BPF_RINGBUF_DISCARD_BIT },
		{ 0, 0 },
		{ 9, BPF_RINGBUF_DISCARD_BIT },
	};
	static const u32 want_off[] = { 24, 40, 104 };
	static const u32 want_len[] = { 3, 16, 0 };
	struct bpf_user_ringbuf_test *t = test->priv;
	struct bpf_user_ringbuf_test_cb cb = {};
	struct bpf_ringbuf *rb;
	unsigned int i;

	rb = bpf_user_ringbuf_test_ring(test, RB_P);
	for (i = 0; i < ARRAY_SIZE(recs); i++)
		bpf_user_ringbuf_test_push(rb, recs[i].len, recs[i].flags);
	KUNIT_ASSERT_EQ(test, rb->producer_pos, 128UL);

	KUNIT_EXPECT_EQ(test, bpf_user_ringbuf_test_drain(t->map, &cb, 0), 3);
	KUNIT_ASSERT_EQ(test, cb.calls, 3UL);
	for (i = 0; i < ARRAY_SIZE(want_off); i++) {
		KUNIT_EXPECT_PTR_EQ(test, cb.data[i], (void *)rb->data + want_off[i]);
		KUNIT_EXPECT_EQ(test, cb.offset[i], 0U);
		KUNIT_EXPECT_EQ(test, cb.size[i],
				want_len[i] | (BPF_DYNPTR_TYPE_LOCAL << RB_TEST_DYNPTR_TYPE_SHIFT));
	}
	KUNIT_EXPECT_EQ(test, rb->consumer_pos, 128UL);
	KUNIT_EXPECT_EQ(test, atomic_read(&rb->busy), 0);

	/* Nothing left. */
	KUNIT_EXPECT_EQ(test, bpf_user_ringbuf_test_drain(t->map, &cb, 0), 0);
	KUNIT_EXPECT_EQ(test, cb.calls, 3UL);
}

/* A record still being written stops the drain; later ones wait for it. */
static void bpf_user_ringbuf_test_drain_busy_record(struct kunit *test)
{
	struct bpf_user_ringbuf_test *t = test->priv;
	struct bpf_user_ringbuf_test_cb cb = {};
	struct bpf_ringbuf *rb;

	rb = bpf_user_ringbuf_test_ring(test, RB_P);
	bpf_user_ringbuf_test_push(rb, 8, 0);
	bpf_user_ringbuf_test_push(rb, 8, BPF_RINGBUF_BUSY_BIT);
	bpf_user_ringbuf_test_push(rb, 8, 0);

	KUNIT_EXPECT_EQ(test, bpf_user_ringbuf_test_drain(t->map, &cb, 0), 1);
	KUNIT_EXPECT_EQ(test, cb.calls, 1UL);
	KUNIT_EXPECT_EQ(test, rb->consumer_pos, 16UL);

	/* Submitted: both remaining records go through. */
	bpf_user_ringbuf_test_hdr(rb, 16, 8);
	KUNIT_EXPECT_EQ(test, bpf_user_ringbuf_test_drain(t->map, &cb, 0), 2);
	KUNIT_EXPECT_EQ(test, cb.calls, 3UL);
	KUNIT_EXPECT_EQ(test, rb->consumer_pos, 48UL);
}

/*
 * The callback returns 1 on the second sample: the drain stops after
 * consuming it and counts it (uapi: "skip the rest of the samples").
 */
static void bpf_user_ringbuf_test_drain_callback_stops(struct kunit *test)
{
	struct bpf_user_ringbuf_test *t = test->priv;
	struct bpf_user_ringbuf_test_cb cb = { .stop_at = 2 };
	struct bpf_ringbuf *rb;
	int i;

	rb = bpf_user_ringbuf_test_ring(test, RB_P);
	for (i = 0; i < 4; i++)
		bpf_user_ringbuf_test_push(rb, 8, 0);

	KUNIT_EXPECT_EQ(test, bpf_user_ringbuf_test_drain(t->map, &cb, 0), 2);
	KUNIT_EXPECT_EQ(test, cb.calls, 2UL);
	KUNIT_EXPECT_EQ(test, rb->consumer_pos, 32UL);
	KUNIT_EXPECT_EQ(test, atomic_read(&rb->busy), 0);

	cb.stop_at = 0;
	KUNIT_EXPECT_EQ(test, bpf_user_ringbuf_test_drain(t->map, &cb, 0), 2);
	KUNIT_EXPECT_EQ(test, cb.calls, 4UL);
	KUNIT_EXPECT_EQ(test, rb->consumer_pos, 64UL);
}

/*
 * A bad record after good ones: the drain returns the errno, not the
 * count (uapi: "On failure, the returned value is one of ..."), keeps
 * what it consumed, releases the busy bit and still wakes the producer
 * for the space it freed.  A bad record first consumes nothing and wakes
 * no one unless forced.
 */
struct bpf_user_ringbuf_test_error_case {
	const char *name;
	unsigned int good;
	u32 bad_hdr;
	u64 prod_extra;		/* advertised beyond the bad header */
	u64 flags;
	long ret;
	int wakeups;
};

static const struct bpf_user_ringbuf_test_error_case bpf_user_ringbuf_test_error_cases[] = {
	{ "past_region_after_2", 2, 64, 8, 0, -EINVAL, 1 },
	{ "past_data_area_after_2", 2, RB_P, 2 * RB_P, 0, -E2BIG, 1 },
	{ "past_region_first", 0, 64, 8, 0, -EINVAL, 0 },
	{ "past_region_first_forced", 0, 64, 8, BPF_RB_FORCE_WAKEUP, -EINVAL, 1 },
	{ "past_region_after_2_no_wakeup", 2, 64, 8, BPF_RB_NO_WAKEUP, -EINVAL, 0 },
};

static void bpf_user_ringbuf_test_error_desc(const struct bpf_user_ringbuf_test_error_case *c,
					     char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

/* Creates bpf_user_ringbuf_test_error_gen_params(). */
KUNIT_ARRAY_PARAM(bpf_user_ringbuf_test_error, bpf_user_ringbuf_test_error_cases,
		  bpf_user_ringbuf_test_error_desc);

static void bpf_user_ringbuf_test_drain_error(struct kunit *test)
{
	const struct bpf_user_ringbuf_test_error_case *c = test->param_value;
	struct bpf_user_ringbuf_test *t = test->priv;
	struct bpf_user_ringbuf_test_cb cb = {};
	struct bpf_ringbuf *rb;
	unsigned int i;
	u64 bad;

	rb = bpf_user_ringbuf_test_ring(test, RB_P);
	for (i = 0; i < c->good; i++)
		bpf_user_ringbuf_test_push(rb, 8, 0);
	bad = rb->producer_pos;
	bpf_user_ringbuf_test_hdr(rb, bad, c->bad_hdr);
	/* Pairs with smp_load_acquire(&rb->producer_pos) in the peek. */
	smp_store_release(&rb->producer_pos, bad + c->prod_extra);

	KUNIT_EXPECT_EQ(test, bpf_user_ringbuf_test_drain(t->map, &cb, c->flags), c->ret);
	KUNIT_EXPECT_EQ(test, cb.calls, (unsigned long)c->good);
	KUNIT_EXPECT_EQ(test, rb->consumer_pos, (unsigned long)bad);
	KUNIT_EXPECT_EQ(test, atomic_read(&rb->busy), 0);
	KUNIT_EXPECT_EQ(test, bpf_user_ringbuf_test_wakeups(t), c->wakeups);
}

/*
 * When the wake-up irq_work is queued (uapi: BPF_RB_NO_WAKEUP never,
 * BPF_RB_FORCE_WAKEUP "even if no sample was drained", otherwise when
 * at least one was).  6.1.192 decides on records consumed, so a drain
 * that only skipped discarded records returns 0 and still wakes; and
 * FORCE wins when both flags are given.
 */
struct bpf_user_ringbuf_test_wakeup_case {
	const char *name;
	u64 flags;
	unsigned int samples;
	unsigned int discarded;
	int wakeups;
};

static const struct bpf_user_ringbuf_test_wakeup_case bpf_user_ringbuf_test_wakeup_cases[] = {
	{ "default_empty", 0, 0, 0, 0 },
	{ "default_2", 0, 2, 0, 1 },
	{ "default_discarded_only", 0, 0, 2, 1 },
	{ "no_wakeup_2", BPF_RB_NO_WAKEUP, 2, 0, 0 },
	{ "no_wakeup_discarded_only", BPF_RB_NO_WAKEUP, 0, 2, 0 },
	{ "force_empty", BPF_RB_FORCE_WAKEUP, 0, 0, 1 },
	{ "force_2", BPF_RB_FORCE_WAKEUP, 2, 0, 1 },
	{ "both_empty", BPF_RB_NO_WAKEUP | BPF_RB_FORCE_WAKEUP, 0, 0, 1 },
	{ "both_2", BPF_RB_NO_WAKEUP | BPF_RB_FORCE_WAKEUP, 2, 0, 1 },
};

static void bpf_user_ringbuf_test_wakeup_desc(const struct bpf_user_ringbuf_test_wakeup_case *c,
					      char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

/* Creates bpf_user_ringbuf_test_wakeup_gen_params(). */
KUNIT_ARRAY_PARAM(bpf_user_ringbuf_test_wakeup, bpf_user_ringbuf_test_wakeup_cases,
		  bpf_user_ringbuf_test_wakeup_desc);

static void bpf_user_ringbuf_test_drain_wakeup(struct kunit *test)
{
	const struct bpf_user_ringbuf_test_wakeup_case *c = test->param_value;
	struct bpf_user_ringbuf_test *t = test->priv;
	struct bpf_user_ringbuf_test_cb cb = {};
	struct bpf_ringbuf *rb;
	unsigned int i;

	rb = bpf_user_ringbuf_test_ring(test, RB_P);
	for (i = 0; i < c->discarded; i++)
		bpf_user_ringbuf_test_push(rb, 8, BPF_RINGBUF_DISCARD_BIT);
	for (i = 0; i < c->samples; i++)
		bpf_user_ringbuf_test_push(rb, 8, 0);

	KUNIT_EXPECT_EQ(test, bpf_user_ringbuf_test_drain(t->map, &cb, c->flags),
			(long)c->samples);
	KUNIT_EXPECT_EQ(test, rb->consumer_pos, rb->producer_pos);
	KUNIT_EXPECT_EQ(test, bpf_user_ringbuf_test_wakeups(t), c->wakeups);
}

/*
 * One call consumes at most BPF_MAX_USER_RINGBUF_SAMPLES records
 * (include/linux/bpf.h; uapi: "up to a maximum of ..."), discarded ones
 * included; the rest is left for the next call.
 */
static void bpf_user_ringbuf_test_drain_limit(struct kunit *test)
{
	struct bpf_user_ringbuf_test *t = test->priv;
	struct bpf_user_ringbuf_test_cb cb = {};
	struct bpf_ringbuf *rb;
	unsigned long i;

	rb = bpf_user_ringbuf_test_ring(test, SZ_2M);
	for (i = 0; i < BPF_MAX_USER_RINGBUF_SAMPLES + 3; i++)
		bpf_user_ringbuf_test_push(rb, 0, 0);

	KUNIT_EXPECT_EQ(test, bpf_user_ringbuf_test_drain(t->map, &cb, 0),
			(long)BPF_MAX_USER_RINGBUF_SAMPLES);
	KUNIT_EXPECT_EQ(test, cb.calls, (unsigned long)BPF_MAX_USER_RINGBUF_SAMPLES);
	KUNIT_EXPECT_EQ(test, rb->consumer_pos,
			(unsigned long)BPF_MAX_USER_RINGBUF_SAMPLES * BPF_RINGBUF_HDR_SZ);

	KUNIT_EXPECT_EQ(test, bpf_user_ringbuf_test_drain(t->map, &cb, 0), 3);
	KUNIT_EXPECT_EQ(test, rb->consumer_pos, rb->producer_pos);
}

static void bpf_user_ringbuf_test_drain_limit_discarded(struct kunit *test)
{
	struct bpf_user_ringbuf_test *t = test->priv;
	struct bpf_user_ringbuf_test_cb cb = {};
	struct bpf_ringbuf *rb;
	unsigned long i;

	rb = bpf_user_ringbuf_test_ring(test, SZ_2M);
	for (i = 0; i < BPF_MAX_USER_RINGBUF_SAMPLES; i++)
		bpf_user_ringbuf_test_push(rb, 0, BPF_RINGBUF_DISCARD_BIT);
	bpf_user_ringbuf_test_push(rb, 8, 0);

	KUNIT_EXPECT_EQ(test, bpf_user_ringbuf_test_drain(t->map, &cb, 0), 0);
	KUNIT_EXPECT_EQ(test, cb.calls, 0UL);
	KUNIT_EXPECT_EQ(test, rb->consumer_pos,
			(unsigned long)BPF_MAX_USER_RINGBUF_SAMPLES * BPF_RINGBUF_HDR_SZ);

	KUNIT_EXPECT_EQ(test, bpf_user_ringbuf_test_drain(t->map, &cb, 0), 1);
	KUNIT_EXPECT_EQ(test, cb.calls, 1UL);
	KUNIT_EXPECT_EQ(test, rb->consumer_pos, rb->producer_pos);
}

static struct kunit_case bpf_user_ringbuf_test_cases[] = {
	KUNIT_CASE(bpf_user_ringbuf_test_layout),
	KUNIT_CASE_PARAM(bpf_user_ringbuf_test_peek, bpf_user_ringbuf_test_peek_gen_params),
	KUNIT_CASE(bpf_user_ringbuf_test_peek_wraps),
	KUNIT_CASE_PARAM(bpf_user_ringbuf_test_release,
			 bpf_user_ringbuf_test_release_gen_params),
	KUNIT_CASE_PARAM(bpf_user_ringbuf_test_drain_bad_flags,
			 bpf_user_ringbuf_test_bad_flags_gen_params),
	KUNIT_CASE(bpf_user_ringbuf_test_drain_busy),
	KUNIT_CASE(bpf_user_ringbuf_test_drain_nested),
	KUNIT_CASE(bpf_user_ringbuf_test_drain_counts),
	KUNIT_CASE(bpf_user_ringbuf_test_drain_busy_record),
	KUNIT_CASE(bpf_user_ringbuf_test_drain_callback_stops),
	KUNIT_CASE_PARAM(bpf_user_ringbuf_test_drain_error,
			 bpf_user_ringbuf_test_error_gen_params),
	KUNIT_CASE_PARAM(bpf_user_ringbuf_test_drain_wakeup,
			 bpf_user_ringbuf_test_wakeup_gen_params),
	KUNIT_CASE(bpf_user_ringbuf_test_drain_limit),
	KUNIT_CASE(bpf_user_ringbuf_test_drain_limit_discarded),
	{}
};

static struct kunit_suite bpf_user_ringbuf_test_suite = {
	.name = "bpf_user_ringbuf",
	.init = bpf_user_ringbuf_test_init,
	.exit = bpf_user_ringbuf_test_exit,
	.test_cases = bpf_user_ringbuf_test_cases,
};

kunit_test_suite(bpf_user_ringbuf_test_suite);

MODULE_DESCRIPTION("KUnit tests for the BPF user ring buffer consumer");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
