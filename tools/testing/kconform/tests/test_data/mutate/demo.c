// SPDX-License-Identifier: GPL-2.0
/* A made-up file in kernel style: what the mutation operators read. */
#include <linux/slab.h>
#define DEMO_MAX(a, b) ((a) > (b) ? (a) : (b))

static const struct demo_ops demo_ops = {
	.check = demo_check,
};

static int demo_check(struct demo *d, u32 lo, u32 hi)
{
	u32 span;
	char *p;

	if (!d || lo > hi)	/* "lo > hi" in a comment stays */
		return -EINVAL;
	span = hi - lo;
	p = kmalloc(16, GFP_KERNEL | __GFP_NOWARN);
	d->flags |= DEMO_ACTIVE;
	d->mask = DEMO_READ | DEMO_WRITE;
	demo_set(d, lo, hi);
	pr_info("if (x == 1) %d\n", span);
	kfree(p);
	return span >= 0x1F && d->count != 1;
}

BPF_CALL_2(demo_helper, struct demo *, d, u64, flags)
{
	while (d->count < 3)
		d->count++;
	demo_put(d);
	return 0;
}

static inline struct demo *DEMO_OF(struct inode *inode)
{
	return inode->i_private;
}
