// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the optional per-netns TCP established hash table.
 *
 * When a network namespace is created, tcp_set_hashinfo() reads the
 * creator's net.ipv4.tcp_child_ehash_entries and hands it to
 * tcp_set_hashinfo_entries(), which:
 *
 *  - keeps the global tcp_hashinfo when the value is 0,
 *  - otherwise rounds it up to a power of two and allocates a table of
 *    that size, falling back to the global table (with a warning) when
 *    the allocation fails,
 *  - sets tcp_max_tw_buckets to entries / 2 and tcp_max_syn_backlog to
 *    max(128, entries / 128) for the size it ended up with.
 *
 * tcp_sk_exit_batch() later passes every netns's table to
 * inet_pernet_hashinfo_free(), which must only free tables that
 * inet_pernet_hashinfo_alloc() created.
 *
 * The cases drive the helper with a zeroed struct net that is not
 * init_net, and either the real allocator or a fake one that records
 * the requested size, so nothing here creates a real namespace.
 * Expected values come from Documentation/networking/ip-sysctl.rst
 * (tcp_child_ehash_entries, tcp_ehash_entries) and from the commit that
 * introduced the feature, d1e5e6408b30 ("tcp: Introduce optional
 * per-netns ehash.").
 */

#include <kunit/test.h>
#include <linux/bits.h>
#include <linux/list_nulls.h>
#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <net/inet_hashtables.h>
#include <net/net_namespace.h>
#include <net/tcp.h>

/* The largest value net.ipv4.tcp_child_ehash_entries accepts: 16Mi. */
#define TCP_EHASH_TEST_MAX_ENTRIES	BIT(24)

/*
 * What the fake allocators saw.  KUnit runs the cases of a suite one at a
 * time, and .init resets this before each case.
 */
static struct {
	unsigned int calls;
	unsigned int last_entries;
	struct inet_hashinfo *last_global;
	struct inet_hashinfo stub;
} tcp_ehash_spy;

/*
 * Record the request and hand back a stub table that claims the requested
 * size, without allocating any buckets.  Only the helper's arithmetic is
 * under test when this is used.
 */
static struct inet_hashinfo *tcp_ehash_spy_alloc(struct inet_hashinfo *hashinfo,
						 unsigned int ehash_entries)
{
	tcp_ehash_spy.calls++;
	tcp_ehash_spy.last_entries = ehash_entries;
	tcp_ehash_spy.last_global = hashinfo;

	tcp_ehash_spy.stub = *hashinfo;
	tcp_ehash_spy.stub.ehash = NULL;
	tcp_ehash_spy.stub.ehash_locks = NULL;
	tcp_ehash_spy.stub.ehash_mask = ehash_entries - 1;
	tcp_ehash_spy.stub.pernet = true;
	return &tcp_ehash_spy.stub;
}

/* Record the request and fail it, as a vmalloc() under pressure would. */
static struct inet_hashinfo *tcp_ehash_failing_alloc(struct inet_hashinfo *hashinfo,
						     unsigned int ehash_entries)
{
	tcp_ehash_spy.calls++;
	tcp_ehash_spy.last_entries = ehash_entries;
	tcp_ehash_spy.last_global = hashinfo;
	return NULL;
}

static unsigned int tcp_ehash_global_entries(void)
{
	return tcp_hashinfo.ehash_mask + 1;
}

static int tcp_ehash_test_init(struct kunit *test)
{
	struct net *net;

	memset(&tcp_ehash_spy, 0, sizeof(tcp_ehash_spy));

	/*
	 * A zeroed struct net is enough: the helper only compares it with
	 * init_net and writes three fields.  Poison those fields so that a
	 * helper which forgets to write one is caught.
	 */
	net = kunit_kzalloc(test, sizeof(*net), GFP_KERNEL);
	if (!net)
		return -ENOMEM;
	net->ipv4.tcp_death_row.hashinfo = ERR_PTR(-EINVAL);
	net->ipv4.tcp_death_row.sysctl_max_tw_buckets = -1;
	net->ipv4.sysctl_max_syn_backlog = -1;

	test->priv = net;
	return 0;
}

static void tcp_ehash_test_exit(struct kunit *test)
{
	struct net *net = test->priv;
	struct inet_hashinfo *hinfo;

	/* A case may have stopped between allocating and freeing. */
	if (!net)
		return;
	hinfo = net->ipv4.tcp_death_row.hashinfo;
	if (IS_ERR_OR_NULL(hinfo) || hinfo == &tcp_hashinfo ||
	    hinfo == &tcp_ehash_spy.stub)
		return;
	inet_pernet_hashinfo_free(hinfo);
}

/*
 * One row per value written to net.ipv4.tcp_child_ehash_entries before
 * the namespace is created.  @global means "expect the global table";
 * otherwise @entries is the size ip-sysctl.rst promises (the value
 * rounded up to 2^n), and @tw_buckets / @syn_backlog are the defaults the
 * commit message gives: entries / 2 and max(128, entries / 128).
 */
struct tcp_ehash_size_case {
	const char *name;
	unsigned int child_entries;
	bool global;
	unsigned int entries;
	int tw_buckets;
	int syn_backlog;
};

static const struct tcp_ehash_size_case tcp_ehash_size_cases[] = {
	{ "0 shares the global table", 0, true, 0, 0, 0 },
	{ "1 stays 1", 1, false, 1, 0, 128 },
	{ "2 stays 2", 2, false, 2, 1, 128 },
	{ "3 rounds up to 4", 3, false, 4, 2, 128 },
	{ "100 rounds up to 128", 100, false, 128, 64, 128 },
	{ "16384 gives the 128 backlog floor", 16384, false, 16384, 8192, 128 },
	{ "16385 rounds up to 32768", 16385, false, 32768, 16384, 256 },
	{ "2^24 stays 2^24", TCP_EHASH_TEST_MAX_ENTRIES, false,
	  TCP_EHASH_TEST_MAX_ENTRIES, 1 << 23, 1 << 17 },
};

static void tcp_ehash_size_case_desc(const struct tcp_ehash_size_case *c,
				     char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s (child_entries=%u)",
		 c->name, c->child_entries);
}

/* Creates tcp_ehash_size_gen_params() */
KUNIT_ARRAY_PARAM(tcp_ehash_size, tcp_ehash_size_cases, tcp_ehash_size_case_desc);

/*
 * The size the helper asks the allocator for is the sysctl value rounded
 * up to a power of two, and 0 never reaches the allocator at all.
 */
static void tcp_ehash_test_size_rounding(struct kunit *test)
{
	const struct tcp_ehash_size_case *c = test->param_value;
	struct net *net = test->priv;
	struct inet_hashinfo *hinfo;

	tcp_set_hashinfo_entries(net, c->child_entries, tcp_ehash_spy_alloc);
	hinfo = net->ipv4.tcp_death_row.hashinfo;

	if (c->global) {
		KUNIT_EXPECT_EQ(test, tcp_ehash_spy.calls, 0U);
		KUNIT_EXPECT_PTR_EQ(test, hinfo, &tcp_hashinfo);
		return;
	}

	KUNIT_EXPECT_EQ(test, tcp_ehash_spy.calls, 1U);
	KUNIT_EXPECT_EQ(test, tcp_ehash_spy.last_entries, c->entries);
	/* The per-netns table is cloned from the global one. */
	KUNIT_EXPECT_PTR_EQ(test, tcp_ehash_spy.last_global, &tcp_hashinfo);
	KUNIT_EXPECT_PTR_EQ(test, hinfo, &tcp_ehash_spy.stub);
}

/*
 * tcp_max_tw_buckets and tcp_max_syn_backlog follow the size of the table
 * the namespace ended up with, including the global one.
 */
static void tcp_ehash_test_derived_defaults(struct kunit *test)
{
	const struct tcp_ehash_size_case *c = test->param_value;
	struct net *net = test->priv;
	unsigned int entries = c->entries;
	int tw_buckets = c->tw_buckets;
	int syn_backlog = c->syn_backlog;

	if (c->global) {
		entries = tcp_ehash_global_entries();
		tw_buckets = entries / 2;
		syn_backlog = max(128U, entries / 128);
	}

	tcp_set_hashinfo_entries(net, c->child_entries, tcp_ehash_spy_alloc);

	KUNIT_EXPECT_EQ_MSG(test, net->ipv4.tcp_death_row.sysctl_max_tw_buckets,
			    tw_buckets, "entries=%u", entries);
	KUNIT_EXPECT_EQ_MSG(test, net->ipv4.sysctl_max_syn_backlog,
			    syn_backlog, "entries=%u", entries);
}

/*
 * A table from the real allocator is flagged per-netns and sized as
 * requested; the global table never is.
 */
static void tcp_ehash_test_pernet_flag(struct kunit *test)
{
	struct net *net = test->priv;
	struct inet_hashinfo *hinfo;

	tcp_set_hashinfo_entries(net, 100, inet_pernet_hashinfo_alloc);
	hinfo = net->ipv4.tcp_death_row.hashinfo;
	KUNIT_ASSERT_PTR_NE_MSG(test, hinfo, &tcp_hashinfo,
				"allocating 128 buckets should not fail");

	KUNIT_EXPECT_TRUE(test, hinfo->pernet);
	KUNIT_EXPECT_EQ(test, hinfo->ehash_mask, 127U);
	KUNIT_EXPECT_FALSE(test, tcp_hashinfo.pernet);
}

/*
 * A namespace that shares the global table is not flagged per-netns, so
 * inet_pernet_hashinfo_free() leaves tcp_hashinfo alone when that
 * namespace dies.  (The free is not called on tcp_hashinfo here: on a
 * broken kernel that would corrupt memory, not fail an expectation.)
 */
static void tcp_ehash_test_pernet_flag_clear_when_shared(struct kunit *test)
{
	struct net *net = test->priv;
	struct inet_hashinfo *hinfo;

	tcp_set_hashinfo_entries(net, 0, inet_pernet_hashinfo_alloc);
	hinfo = net->ipv4.tcp_death_row.hashinfo;

	KUNIT_EXPECT_PTR_EQ(test, hinfo, &tcp_hashinfo);
	KUNIT_EXPECT_FALSE(test, hinfo->pernet);
}

/*
 * The real per-netns table is usable: each chain ends in a nulls marker
 * carrying its own bucket index (lookups rely on it to detect a socket
 * moving between chains), there are no more locks than buckets, and only
 * the ehash is private; the bind and listener tables stay shared.
 */
static void tcp_ehash_test_pernet_table_layout(struct kunit *test)
{
	struct net *net = test->priv;
	struct inet_hashinfo *hinfo;
	unsigned int i, bad = 0;

	tcp_set_hashinfo_entries(net, 100, inet_pernet_hashinfo_alloc);
	hinfo = net->ipv4.tcp_death_row.hashinfo;
	KUNIT_ASSERT_PTR_NE(test, hinfo, &tcp_hashinfo);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hinfo->ehash);
	KUNIT_ASSERT_EQ(test, hinfo->ehash_mask, 127U);

	for (i = 0; i <= hinfo->ehash_mask; i++) {
		struct hlist_nulls_node *first = hinfo->ehash[i].chain.first;

		if (!is_a_nulls(first) || get_nulls_value(first) != i)
			bad++;
	}
	KUNIT_EXPECT_EQ_MSG(test, bad, 0U, "chains without their nulls index");

	KUNIT_EXPECT_PTR_NE(test, hinfo->ehash, tcp_hashinfo.ehash);
	if (sizeof(spinlock_t) == 0) {
		/* !SMP && !DEBUG_SPINLOCK: inet_ehash_locks_alloc() skips it. */
		KUNIT_EXPECT_PTR_EQ(test, hinfo->ehash_locks, NULL);
		KUNIT_EXPECT_EQ(test, hinfo->ehash_locks_mask, 0U);
	} else {
		KUNIT_EXPECT_NOT_ERR_OR_NULL(test, hinfo->ehash_locks);
		KUNIT_EXPECT_PTR_NE(test, hinfo->ehash_locks, tcp_hashinfo.ehash_locks);
		KUNIT_EXPECT_LE(test, hinfo->ehash_locks_mask, hinfo->ehash_mask);
		KUNIT_EXPECT_TRUE(test, is_power_of_2(hinfo->ehash_locks_mask + 1));
	}

	KUNIT_EXPECT_PTR_EQ(test, hinfo->bhash, tcp_hashinfo.bhash);
	KUNIT_EXPECT_PTR_EQ(test, hinfo->bhash2, tcp_hashinfo.bhash2);
	KUNIT_EXPECT_EQ(test, hinfo->bhash_size, tcp_hashinfo.bhash_size);
	KUNIT_EXPECT_PTR_EQ(test, hinfo->lhash2, tcp_hashinfo.lhash2);
	KUNIT_EXPECT_EQ(test, hinfo->lhash2_mask, tcp_hashinfo.lhash2_mask);
}

/*
 * When the per-netns table cannot be allocated the namespace gets the
 * global table, and the derived defaults follow the global size, not the
 * size that was asked for.
 *
 * The failure is injected: a vmalloc() failure under memory pressure is
 * not reproducible inside a unit test.  The kselftest provokes the real
 * one with a memory cgroup limit.
 */
static void tcp_ehash_test_fallback_on_alloc_failure(struct kunit *test)
{
	unsigned int global = tcp_ehash_global_entries();
	struct net *net = test->priv;

	tcp_set_hashinfo_entries(net, 100, tcp_ehash_failing_alloc);

	KUNIT_EXPECT_EQ(test, tcp_ehash_spy.calls, 1U);
	KUNIT_EXPECT_EQ(test, tcp_ehash_spy.last_entries, 128U);
	KUNIT_EXPECT_PTR_EQ(test, net->ipv4.tcp_death_row.hashinfo, &tcp_hashinfo);
	KUNIT_EXPECT_EQ(test, net->ipv4.tcp_death_row.sysctl_max_tw_buckets,
			(int)(global / 2));
	KUNIT_EXPECT_EQ(test, net->ipv4.sysctl_max_syn_backlog,
			(int)max(128U, global / 128));
}

/*
 * The same fallback through the real allocator: 2^30 buckets need 8 GiB,
 * more than the machine has, so vmalloc() refuses up front and
 * inet_pernet_hashinfo_alloc() must unwind and return NULL.  The sysctl
 * caps the value at 2^24, so only this direct call can ask for it.  The
 * vmalloc failure warning and the "Failed to allocate TCP ehash" line in
 * the log are expected.
 */
static void tcp_ehash_test_fallback_real_alloc(struct kunit *test)
{
	const unsigned int entries = 1U << 30;
	size_t bytes = (size_t)entries * sizeof(struct inet_ehash_bucket);
	unsigned int global = tcp_ehash_global_entries();
	struct net *net = test->priv;

	if ((bytes >> PAGE_SHIFT) <= totalram_pages())
		kunit_skip(test, "machine has at least %zu bytes of RAM", bytes);

	tcp_set_hashinfo_entries(net, entries, inet_pernet_hashinfo_alloc);

	KUNIT_EXPECT_PTR_EQ(test, net->ipv4.tcp_death_row.hashinfo, &tcp_hashinfo);
	KUNIT_EXPECT_EQ(test, net->ipv4.tcp_death_row.sysctl_max_tw_buckets,
			(int)(global / 2));
	KUNIT_EXPECT_EQ(test, net->ipv4.sysctl_max_syn_backlog,
			(int)max(128U, global / 128));
}

/*
 * inet_pernet_hashinfo_free() is called for every dying namespace,
 * including those sharing tcp_hashinfo, so it must leave a table alone
 * unless it is flagged per-netns.  Take a real per-netns table, clear
 * the flag, and check that the free is a no-op; then free it for real.
 *
 * The free clears ->ehash_locks when it runs, but the lock array is NULL
 * on !SMP kernels, so a sentinel allocation stands in for it while the
 * flag is clear.  If the check is broken the table is freed and the
 * expectation reads freed memory; that only happens on a failing kernel.
 */
static void tcp_ehash_test_free_only_pernet(struct kunit *test)
{
	struct inet_hashinfo *hinfo;
	spinlock_t *locks;	/* the table's real lock array, put back */
	void *sentinel;

	sentinel = kvmalloc(64, GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, sentinel);
	hinfo = inet_pernet_hashinfo_alloc(&tcp_hashinfo, 1);
	if (!hinfo)
		kvfree(sentinel);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hinfo);
	KUNIT_ASSERT_TRUE(test, hinfo->pernet);

	locks = hinfo->ehash_locks;
	hinfo->ehash_locks = sentinel;
	hinfo->pernet = false;
	inet_pernet_hashinfo_free(hinfo);

	KUNIT_EXPECT_PTR_EQ(test, (void *)hinfo->ehash_locks, sentinel);
	if ((void *)hinfo->ehash_locks != sentinel)
		return;	/* freed, sentinel included */

	hinfo->ehash_locks = locks;
	hinfo->pernet = true;
	inet_pernet_hashinfo_free(hinfo);
	kvfree(sentinel);
}

/*
 * tcp_init() derives the initial netns's limits from the global table it
 * has just sized: tcp_max_orphans is half its buckets, and the largest
 * socket buffers are capped as ip-sysctl.rst says: tcp_rmem max "between
 * 131072 and 6MB", tcp_wmem max "between 64K and 4MB", depending on RAM.
 * sysctl_tcp_max_orphans is not exported, so that check needs the test
 * built in.
 */
static void tcp_ehash_test_init_net_limits(struct kunit *test)
{
	KUNIT_EXPECT_GE(test, init_net.ipv4.sysctl_tcp_rmem[2], 131072);
	KUNIT_EXPECT_LE(test, init_net.ipv4.sysctl_tcp_rmem[2], 6 * 1024 * 1024);
	KUNIT_EXPECT_GE(test, init_net.ipv4.sysctl_tcp_wmem[2], 64 * 1024);
	KUNIT_EXPECT_LE(test, init_net.ipv4.sysctl_tcp_wmem[2], 4 * 1024 * 1024);
#if IS_BUILTIN(CONFIG_TCP_EHASH_KUNIT_TEST)
	KUNIT_EXPECT_EQ(test, READ_ONCE(sysctl_tcp_max_orphans),
			(int)(tcp_ehash_global_entries() / 2));
#else
	kunit_skip(test, "tcp_max_orphans: sysctl_tcp_max_orphans is not exported");
#endif
}

static struct kunit_case tcp_ehash_test_cases[] = {
	KUNIT_CASE_PARAM(tcp_ehash_test_size_rounding, tcp_ehash_size_gen_params),
	KUNIT_CASE_PARAM(tcp_ehash_test_derived_defaults, tcp_ehash_size_gen_params),
	KUNIT_CASE(tcp_ehash_test_pernet_flag),
	KUNIT_CASE(tcp_ehash_test_pernet_flag_clear_when_shared),
	KUNIT_CASE(tcp_ehash_test_pernet_table_layout),
	KUNIT_CASE(tcp_ehash_test_fallback_on_alloc_failure),
	KUNIT_CASE(tcp_ehash_test_fallback_real_alloc),
	KUNIT_CASE(tcp_ehash_test_free_only_pernet),
	KUNIT_CASE(tcp_ehash_test_init_net_limits),
	{}
};

static struct kunit_suite tcp_ehash_test_suite = {
	.name = "tcp_ehash",
	.init = tcp_ehash_test_init,
	.exit = tcp_ehash_test_exit,
	.test_cases = tcp_ehash_test_cases,
};

kunit_test_suite(tcp_ehash_test_suite);

MODULE_DESCRIPTION("KUnit tests for the TCP per-netns ehash");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
