// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the BPF cgroup iterator (kernel/bpf/cgroup_iter.c).
 *
 * A cgroup iterator link walks the cgroup hierarchy from a start cgroup
 * in one of four orders (include/uapi/linux/bpf.h, enum
 * bpf_cgroup_iter_order):
 *
 *  - BPF_CGROUP_ITER_DESCENDANTS_PRE:  the start and its descendants,
 *    parents before children;
 *  - BPF_CGROUP_ITER_DESCENDANTS_POST: the same set, children first;
 *  - BPF_CGROUP_ITER_ANCESTORS_UP:     the start, its parent, and so on
 *    up to and including the root of the hierarchy;
 *  - BPF_CGROUP_ITER_SELF_ONLY:        the start alone.
 *
 * The program runs once per live cgroup; a cgroup that has been removed
 * but is still referenced is skipped.  If the program returns 1 the walk
 * ends after that cgroup.  After the last cgroup the program is called
 * once more with a NULL cgroup (the epilogue).  Only one read session is
 * supported: a walk that stopped before visiting everything (because
 * user space's buffer filled up) makes the next read fail with
 * -EOPNOTSUPP, and a finished walk makes it return end of file.  All of
 * this is documented in the comment at the top of cgroup_iter.c and in
 * the commit that added the iterator, d4ccaf58a847 ("bpf: Introduce
 * cgroup iter").
 *
 * How the suite gets there without BTF or user space:
 *
 *  - suite_init mounts the cgroup2 hierarchy inside the kernel, and
 *    every case's .init creates this tree with vfs_mkdir() (the same
 *    path a mkdir(2) takes), and .exit removes it again:
 *
 *	kcgit
 *	|-- a
 *	|   |-- a1
 *	|   `-- a2
 *	`-- b
 *	    `-- b1
 *
 *  - The cases take cgroup_iter_seq_info (made visible for KUnit by the
 *    series), set up the iterator's private state with its
 *    init_seq_private() exactly as a link would, and call
 *    start/show/next/stop in the order bpf_seq_read() does.
 *
 *  - show() asks bpf_iter_get_info() for the program, which returns NULL
 *    for a seq_file that is not a real BPF iterator.  A kretprobe on
 *    bpf_iter_get_info() replaces that NULL, for this suite's seq_files
 *    only, with a hand-built struct bpf_prog whose bpf_func is
 *    cgit_prog_run() below.  That stand-in records every cgroup it is
 *    given and returns 1 when the case asks it to, so show() itself
 *    decides what the "program" sees, as it would with a real one.
 *
 * Lifecycle: suite_init (mount, kretprobe, program) -> (init: build the
 * tree -> case -> exit: remove the tree)* -> suite_exit.
 */

#include <kunit/test.h>
#include <linux/bpf.h>
#include <linux/cgroup.h>
#include <linux/err.h>
#include <linux/filter.h>
#include <linux/fs.h>
#include <linux/kprobes.h>
#include <linux/mount.h>
#include <linux/namei.h>
#include <linux/ptrace.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/user_namespace.h>

#include "../cgroup/cgroup-internal.h"	/* cgroup_is_dead() */

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/* The test hierarchy, parents before children. */
enum cgit_node { CG_R, CG_A, CG_A1, CG_A2, CG_B, CG_B1, CG_NR };

static const struct {
	const char *name;
	const char *path;	/* from the root of the cgroup2 hierarchy */
	int parent;		/* -1: directly under the root */
} cgit_nodes[CG_NR] = {
	[CG_R]  = { "kcgit", "/kcgit",       -1 },
	[CG_A]  = { "a",     "/kcgit/a",     CG_R },
	[CG_A1] = { "a1",    "/kcgit/a/a1",  CG_A },
	[CG_A2] = { "a2",    "/kcgit/a/a2",  CG_A },
	[CG_B]  = { "b",     "/kcgit/b",     CG_R },
	[CG_B1] = { "b1",    "/kcgit/b/b1",  CG_B },
};

/* Longest walk of the tree is 6 cgroups, ancestors_up from a leaf is 4. */
#define CGIT_MAX_SEEN	16
/* Bound on show/next rounds, so a walk that never ends fails instead. */
#define CGIT_MAX_STEPS	32

/* The program's view of its context: struct bpf_iter__cgroup. */
struct cgit_prog_ctx {
	__bpf_md_ptr(struct bpf_iter_meta *, meta);
	__bpf_md_ptr(struct cgroup *, cgroup);
};

/*
 * Suite-wide state.  KUnit runs one case at a time, and .init resets the
 * per-case part.
 */
static struct {
	struct vfsmount *mnt;
	struct bpf_prog *prog;
	bool probed;
	/* seq->file of every walk; f_op is NULL, so it is no BPF iterator */
	struct file file;

	/* what the stand-in program saw in this case */
	struct cgroup *seen[CGIT_MAX_SEEN];
	unsigned int nseen;
	unsigned int nepilogue;
	unsigned int epilogue_after;	/* nseen at the (last) epilogue */
	/* return 1 for the cgroup with this 1-based index, 0 = never */
	unsigned int stop_at;
} cgit;

/* Per case: the tree, held as positive dentries and cgroup references. */
struct cgit_fixture {
	struct dentry *dentry[CG_NR];
	struct cgroup *cgrp[CG_NR];
	/* an iterator whose private state still needs fini_seq_private() */
	void *open_priv;
};

static unsigned int cgit_prog_run(const void *ctx, const struct bpf_insn *insn)
{
	const struct cgit_prog_ctx *c = ctx;

	if (!c->cgroup) {
		cgit.nepilogue++;
		cgit.epilogue_after = cgit.nseen;
		return 0;
	}
	if (cgit.nseen < CGIT_MAX_SEEN)
		cgit.seen[cgit.nseen] = c->cgroup;
	cgit.nseen++;
	return cgit.stop_at && cgit.nseen == cgit.stop_at;
}

/* Only probe the calls made for this suite's seq_files. */
static int cgit_get_info_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct bpf_iter_meta *meta = (void *)regs_get_kernel_argument(regs, 0);

	return meta->seq->file == &cgit.file ? 0 : 1;
}

static int cgit_get_info_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	regs_set_return_value(regs, (unsigned long)cgit.prog);
	return 0;
}

/*
 * A kretprobe is registered from a fresh copy each time: registering
 * fills in .kp.addr, and a kprobe with both an address and a symbol
 * name is -EINVAL, so the suite run again in one boot (mutate
 * --schemata's loop, or the module loaded again) failed its suite_init.
 */
static const struct kretprobe cgit_probe_template = {
	.kp.symbol_name	= "bpf_iter_get_info",
	.entry_handler	= cgit_get_info_entry,
	.handler	= cgit_get_info_ret,
};

static struct kretprobe cgit_probe;

static int cgit_suite_init(struct kunit_suite *suite)
{
	struct file_system_type *fs;
	int err;

	fs = get_fs_type("cgroup2");
	if (!fs)
		return -ENODEV;
	cgit.mnt = kern_mount(fs);
	put_filesystem(fs);
	if (IS_ERR(cgit.mnt)) {
		err = PTR_ERR(cgit.mnt);
		cgit.mnt = NULL;
		return err;
	}

	cgit.prog = bpf_prog_alloc(bpf_prog_size(1), 0);
	if (!cgit.prog)
		return -ENOMEM;
	cgit.prog->len = 1;
	cgit.prog->bpf_func = cgit_prog_run;

	cgit_probe = cgit_probe_template;
	err = register_kretprobe(&cgit_probe);
	if (err)
		return err;
	cgit.probed = true;
	return 0;
}

static void cgit_suite_exit(struct kunit_suite *suite)
{
	if (cgit.probed)
		unregister_kretprobe(&cgit_probe);
	cgit.probed = false;
	if (cgit.prog)
		bpf_prog_free(cgit.prog);
	cgit.prog = NULL;
	if (cgit.mnt)
		kern_unmount(cgit.mnt);
	cgit.mnt = NULL;
}

static struct dentry *cgit_parent_dentry(struct cgit_fixture *fx, int node)
{
	int parent = cgit_nodes[node].parent;

	return parent < 0 ? cgit.mnt->mnt_root : fx->dentry[parent];
}

/* mkdir the node and return its (positive) dentry. */
static struct dentry *cgit_mkdir(struct dentry *parent, const char *name)
{
	struct inode *dir = d_inode(parent);
	struct dentry *d;
	int err;

	inode_lock_nested(dir, I_MUTEX_PARENT);
	d = lookup_one_len(name, parent, strlen(name));
	if (IS_ERR(d))
		goto out;
	err = vfs_mkdir(&init_user_ns, dir, d, 0755);
	/* kernfs leaves the dentry negative; look it up again */
	dput(d);
	d = err ? ERR_PTR(err) : lookup_one_len(name, parent, strlen(name));
	if (!IS_ERR(d) && d_really_is_negative(d)) {
		dput(d);
		d = ERR_PTR(-ENOENT);
	}
out:
	inode_unlock(dir);
	return d;
}

static int cgit_rmdir(struct cgit_fixture *fx, int node)
{
	struct dentry *parent = cgit_parent_dentry(fx, node);
	struct dentry *d = fx->dentry[node];
	int err;

	if (!d)
		return 0;
	inode_lock_nested(d_inode(parent), I_MUTEX_PARENT);
	err = vfs_rmdir(&init_user_ns, d_inode(parent), d);
	inode_unlock(d_inode(parent));
	dput(d);
	fx->dentry[node] = NULL;
	return err;
}

static int cgit_init(struct kunit *test)
{
	struct cgit_fixture *fx;
	int i;

	memset(cgit.seen, 0, sizeof(cgit.seen));
	cgit.nseen = 0;
	cgit.nepilogue = 0;
	cgit.epilogue_after = 0;
	cgit.stop_at = 0;

	fx = kunit_kzalloc(test, sizeof(*fx), GFP_KERNEL);
	if (!fx)
		return -ENOMEM;
	test->priv = fx;

	for (i = 0; i < CG_NR; i++) {
		struct dentry *d = cgit_mkdir(cgit_parent_dentry(fx, i),
					      cgit_nodes[i].name);
		struct cgroup *cgrp;

		if (IS_ERR(d)) {
			kunit_err(test, "mkdir %s: %ld\n", cgit_nodes[i].path,
				  PTR_ERR(d));
			return PTR_ERR(d);
		}
		fx->dentry[i] = d;

		cgrp = cgroup_get_from_path(cgit_nodes[i].path);
		if (IS_ERR(cgrp)) {
			kunit_err(test, "cgroup_get_from_path %s: %ld\n",
				  cgit_nodes[i].path, PTR_ERR(cgrp));
			return PTR_ERR(cgrp);
		}
		fx->cgrp[i] = cgrp;
	}
	return 0;
}

/* Runs after a failed or partial init too: undo whatever exists. */
static void cgit_exit(struct kunit *test)
{
	struct cgit_fixture *fx = test->priv;
	int i;

	if (!fx)
		return;
	if (fx->open_priv)
		cgroup_iter_seq_info.fini_seq_private(fx->open_priv);
	fx->open_priv = NULL;
	for (i = CG_NR - 1; i >= 0; i--) {
		cgit_rmdir(fx, i);
		if (fx->cgrp[i])
			cgroup_put(fx->cgrp[i]);
		fx->cgrp[i] = NULL;
	}
}

/* Set up an iterator the way bpf_iter_link_attach() + open would. */
static struct seq_file *cgit_open(struct kunit *test, struct cgroup *start,
				  enum bpf_cgroup_iter_order order)
{
	const struct bpf_iter_seq_info *info = &cgroup_iter_seq_info;
	struct cgit_fixture *fx = test->priv;
	struct bpf_iter_aux_info aux = {};
	struct seq_file *seq;
	void *priv;

	seq = kunit_kzalloc(test, sizeof(*seq), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, seq);
	priv = kunit_kzalloc(test, info->seq_priv_size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, priv);

	aux.cgroup.start = start;
	aux.cgroup.order = order;
	KUNIT_ASSERT_EQ(test, info->init_seq_private(priv, &aux), 0);
	fx->open_priv = priv;

	seq->private = priv;
	seq->file = &cgit.file;
	return seq;
}

static void cgit_close(struct kunit *test, struct seq_file *seq)
{
	struct cgit_fixture *fx = test->priv;

	cgroup_iter_seq_info.fini_seq_private(seq->private);
	fx->open_priv = NULL;
}

/*
 * One read() session, as bpf_seq_read() runs it: start, then show and
 * next until the walk ends, then stop.  With @max_shown > 0 the session
 * instead stops with the element after the @max_shown-th still pending,
 * which is what happens when user space's buffer is full.  Returns the
 * error start() gave, or 0.
 */
static int cgit_read(struct kunit *test, struct seq_file *seq,
		     unsigned int max_shown)
{
	const struct seq_operations *ops = cgroup_iter_seq_info.seq_ops;
	unsigned int shown = 0;
	void *v;

	v = ops->start(seq, &seq->index);
	if (IS_ERR(v)) {
		ops->stop(seq, v);
		return PTR_ERR(v);
	}
	while (v) {
		KUNIT_EXPECT_EQ(test, ops->show(seq, v), 0);
		v = ops->next(seq, v, &seq->index);
		if (IS_ERR(v)) {
			KUNIT_FAIL(test, "next() returned %ld", PTR_ERR(v));
			break;
		}
		if (++shown == max_shown)
			break;
		if (shown > CGIT_MAX_STEPS) {
			KUNIT_FAIL(test, "walk did not end after %u cgroups",
				   CGIT_MAX_STEPS);
			break;
		}
	}
	ops->stop(seq, v);
	return 0;
}

/* The program saw exactly @want (@n cgroups), then one epilogue. */
static void cgit_expect_seen(struct kunit *test, struct cgroup * const *want,
			     unsigned int n)
{
	unsigned int i;

	KUNIT_EXPECT_EQ(test, cgit.nseen, n);
	for (i = 0; i < min(n, cgit.nseen); i++)
		KUNIT_EXPECT_PTR_EQ_MSG(test, cgit.seen[i], want[i],
					"visit %u", i);
	KUNIT_EXPECT_EQ_MSG(test, cgit.nepilogue, 1,
			    "one call with a NULL cgroup after the walk");
	KUNIT_EXPECT_EQ_MSG(test, cgit.epilogue_after, n,
			    "the NULL call comes after every cgroup");
}

/*
 * Walk orders.  The expected sequences follow from the order definitions
 * in include/uapi/linux/bpf.h and the walk helpers cgroup_iter.c uses
 * (css_next_descendant_pre/post, css->parent); siblings are visited in
 * creation order.  CG_NR in a sequence stands for the hierarchy's root.
 */
struct cgit_order_case {
	const char *desc;
	enum bpf_cgroup_iter_order order;
	int start;
	int want[CGIT_MAX_SEEN];
	unsigned int n;
};

static const struct cgit_order_case cgit_order_cases[] = {
	{ "descendants_pre from kcgit", BPF_CGROUP_ITER_DESCENDANTS_PRE, CG_R,
	  { CG_R, CG_A, CG_A1, CG_A2, CG_B, CG_B1 }, 6 },
	{ "descendants_pre from a", BPF_CGROUP_ITER_DESCENDANTS_PRE, CG_A,
	  { CG_A, CG_A1, CG_A2 }, 3 },
	{ "descendants_post from kcgit", BPF_CGROUP_ITER_DESCENDANTS_POST, CG_R,
	  { CG_A1, CG_A2, CG_A, CG_B1, CG_B, CG_R }, 6 },
	{ "descendants_post from a leaf", BPF_CGROUP_ITER_DESCENDANTS_POST, CG_B1,
	  { CG_B1 }, 1 },
	{ "ancestors_up from a2 to the root", BPF_CGROUP_ITER_ANCESTORS_UP, CG_A2,
	  { CG_A2, CG_A, CG_R, CG_NR }, 4 },
	{ "self_only of a", BPF_CGROUP_ITER_SELF_ONLY, CG_A,
	  { CG_A }, 1 },
};

static void cgit_order_desc(const struct cgit_order_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

/* Creates cgit_order_gen_params(). */
KUNIT_ARRAY_PARAM(cgit_order, cgit_order_cases, cgit_order_desc);

/* Each order visits exactly its cgroups, in its order, then the epilogue. */
static void bpf_cgroup_iter_test_order(struct kunit *test)
{
	const struct cgit_order_case *c = test->param_value;
	struct cgit_fixture *fx = test->priv;
	struct cgroup *want[CGIT_MAX_SEEN];
	struct cgroup *root = cgroup_parent(fx->cgrp[CG_R]);
	struct seq_file *seq;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, root);
	for (i = 0; i < c->n; i++)
		want[i] = c->want[i] == CG_NR ? root : fx->cgrp[c->want[i]];

	seq = cgit_open(test, fx->cgrp[c->start], c->order);
	KUNIT_EXPECT_EQ(test, cgit_read(test, seq, 0), 0);
	cgit_close(test, seq);

	cgit_expect_seen(test, want, c->n);
}

/* ancestors_up stops on its own at the root, which has no parent. */
static void bpf_cgroup_iter_test_ancestors_up_ends_at_root(struct kunit *test)
{
	struct cgit_fixture *fx = test->priv;
	struct seq_file *seq;

	seq = cgit_open(test, fx->cgrp[CG_B1], BPF_CGROUP_ITER_ANCESTORS_UP);
	KUNIT_EXPECT_EQ(test, cgit_read(test, seq, 0), 0);
	cgit_close(test, seq);

	KUNIT_ASSERT_EQ(test, cgit.nseen, 4);
	KUNIT_EXPECT_PTR_EQ(test, cgit.seen[3], &cgrp_dfl_root.cgrp);
	KUNIT_EXPECT_NULL(test, cgroup_parent(cgit.seen[3]));
	KUNIT_EXPECT_EQ(test, cgit.nepilogue, 1);
}

/* A program returning 1 ends the walk after that cgroup, epilogue still runs. */
static void bpf_cgroup_iter_test_early_termination(struct kunit *test)
{
	struct cgit_fixture *fx = test->priv;
	struct cgroup *want[] = { fx->cgrp[CG_R], fx->cgrp[CG_A] };
	struct seq_file *seq;

	cgit.stop_at = 2;
	seq = cgit_open(test, fx->cgrp[CG_R], BPF_CGROUP_ITER_DESCENDANTS_PRE);
	KUNIT_EXPECT_EQ(test, cgit_read(test, seq, 0), 0);
	cgit_expect_seen(test, want, ARRAY_SIZE(want));

	/* the terminated walk counts as complete: the next read is EOF */
	KUNIT_EXPECT_EQ(test, cgit_read(test, seq, 0), 0);
	cgit_close(test, seq);
	KUNIT_EXPECT_EQ(test, cgit.nseen, 2);
}

/* After a complete walk, another read session gives EOF, not an error. */
static void bpf_cgroup_iter_test_eof_after_walk(struct kunit *test)
{
	const struct seq_operations *ops = cgroup_iter_seq_info.seq_ops;
	struct cgit_fixture *fx = test->priv;
	struct seq_file *seq;
	void *v;

	seq = cgit_open(test, fx->cgrp[CG_A], BPF_CGROUP_ITER_DESCENDANTS_POST);
	KUNIT_EXPECT_EQ(test, cgit_read(test, seq, 0), 0);
	KUNIT_EXPECT_EQ(test, cgit.nseen, 3);

	v = ops->start(seq, &seq->index);
	KUNIT_EXPECT_NULL(test, v);
	ops->stop(seq, v);
	cgit_close(test, seq);
	KUNIT_EXPECT_EQ(test, cgit.nseen, 3);
}

/*
 * A walk interrupted by a full buffer cannot resume in a new session:
 * cgroup_mutex was dropped in between, so start() says -EOPNOTSUPP.
 */
static void bpf_cgroup_iter_test_resume_eopnotsupp(struct kunit *test)
{
	struct cgit_fixture *fx = test->priv;
	struct seq_file *seq;

	seq = cgit_open(test, fx->cgrp[CG_R], BPF_CGROUP_ITER_DESCENDANTS_PRE);
	KUNIT_EXPECT_EQ(test, cgit_read(test, seq, 2), 0);
	KUNIT_EXPECT_EQ(test, cgit.nseen, 2);
	KUNIT_EXPECT_EQ(test, cgit.nepilogue, 0);

	KUNIT_EXPECT_EQ(test, cgit_read(test, seq, 0), -EOPNOTSUPP);
	/* and it stays that way */
	KUNIT_EXPECT_EQ(test, cgit_read(test, seq, 0), -EOPNOTSUPP);
	cgit_close(test, seq);

	KUNIT_EXPECT_EQ(test, cgit.nseen, 2);
	KUNIT_EXPECT_EQ(test, cgit.nepilogue, 0);
}

/*
 * A session that stops on its first cgroup, before any next(): what
 * bpf_seq_read() does when that cgroup's output alone overflows the
 * buffer (read() fails with E2BIG).  The walk was cut short all the
 * same, so the next session says -EOPNOTSUPP; it does not walk again.
 */
static void bpf_cgroup_iter_test_stop_on_first_no_restart(struct kunit *test)
{
	const struct seq_operations *ops = cgroup_iter_seq_info.seq_ops;
	struct cgit_fixture *fx = test->priv;
	struct seq_file *seq;
	void *v;

	seq = cgit_open(test, fx->cgrp[CG_A], BPF_CGROUP_ITER_SELF_ONLY);
	v = ops->start(seq, &seq->index);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, v);
	KUNIT_EXPECT_EQ(test, ops->show(seq, v), 0);
	ops->stop(seq, v);

	KUNIT_EXPECT_EQ(test, cgit_read(test, seq, 0), -EOPNOTSUPP);
	cgit_close(test, seq);
	KUNIT_EXPECT_EQ(test, cgit.nseen, 1);
	KUNIT_EXPECT_EQ(test, cgit.nepilogue, 0);
}

/* A removed cgroup that is still referenced is walked but not shown. */
static void bpf_cgroup_iter_test_dead_descendant_skipped(struct kunit *test)
{
	struct cgit_fixture *fx = test->priv;
	struct cgroup *want[] = { fx->cgrp[CG_R], fx->cgrp[CG_A], fx->cgrp[CG_A1],
				  fx->cgrp[CG_B], fx->cgrp[CG_B1] };
	struct seq_file *seq;

	/* fx->cgrp[CG_A2] keeps a2 on its parent's children list */
	KUNIT_ASSERT_EQ(test, cgit_rmdir(fx, CG_A2), 0);
	KUNIT_ASSERT_TRUE(test, cgroup_is_dead(fx->cgrp[CG_A2]));

	seq = cgit_open(test, fx->cgrp[CG_R], BPF_CGROUP_ITER_DESCENDANTS_PRE);
	KUNIT_EXPECT_EQ(test, cgit_read(test, seq, 0), 0);
	cgit_close(test, seq);

	cgit_expect_seen(test, want, ARRAY_SIZE(want));
}

/*
 * A session that ends because user space's buffer is full right after
 * the last live cgroup, with only a removed one left in the walk: the
 * walk is complete (epilogue, then EOF), not cut short (-EOPNOTSUPP).
 * 6.1.192 without 0306 steps onto the dead b1, so the session stops on
 * it: no epilogue, and the next read says -EOPNOTSUPP.
 */
static void bpf_cgroup_iter_test_dead_last_ends_walk(struct kunit *test)
{
	struct cgit_fixture *fx = test->priv;
	struct cgroup *want[] = { fx->cgrp[CG_R], fx->cgrp[CG_A], fx->cgrp[CG_A1],
				  fx->cgrp[CG_A2], fx->cgrp[CG_B] };
	struct seq_file *seq;

	/* fx->cgrp[CG_B1] keeps b1 on its parent's children list */
	KUNIT_ASSERT_EQ(test, cgit_rmdir(fx, CG_B1), 0);

	seq = cgit_open(test, fx->cgrp[CG_R], BPF_CGROUP_ITER_DESCENDANTS_PRE);
	KUNIT_EXPECT_EQ(test, cgit_read(test, seq, ARRAY_SIZE(want)), 0);
	cgit_expect_seen(test, want, ARRAY_SIZE(want));

	KUNIT_EXPECT_EQ(test, cgit_read(test, seq, 0), 0);
	cgit_close(test, seq);
	KUNIT_EXPECT_EQ(test, cgit.nseen, ARRAY_SIZE(want));
}

/* self_only on a removed start cgroup shows nothing but the epilogue. */
static void bpf_cgroup_iter_test_dead_self_only(struct kunit *test)
{
	struct cgit_fixture *fx = test->priv;
	struct seq_file *seq;

	seq = cgit_open(test, fx->cgrp[CG_B1], BPF_CGROUP_ITER_SELF_ONLY);
	/* the iterator holds its own reference from init_seq_private() */
	KUNIT_ASSERT_EQ(test, cgit_rmdir(fx, CG_B1), 0);
	cgroup_put(fx->cgrp[CG_B1]);
	fx->cgrp[CG_B1] = NULL;

	KUNIT_EXPECT_EQ(test, cgit_read(test, seq, 0), 0);
	cgit_close(test, seq);

	cgit_expect_seen(test, NULL, 0);
}

static struct kunit_case bpf_cgroup_iter_cases[] = {
	KUNIT_CASE_PARAM(bpf_cgroup_iter_test_order, cgit_order_gen_params),
	KUNIT_CASE(bpf_cgroup_iter_test_ancestors_up_ends_at_root),
	KUNIT_CASE(bpf_cgroup_iter_test_early_termination),
	KUNIT_CASE(bpf_cgroup_iter_test_eof_after_walk),
	KUNIT_CASE(bpf_cgroup_iter_test_resume_eopnotsupp),
	KUNIT_CASE(bpf_cgroup_iter_test_stop_on_first_no_restart),
	KUNIT_CASE(bpf_cgroup_iter_test_dead_descendant_skipped),
	KUNIT_CASE(bpf_cgroup_iter_test_dead_self_only),
	KUNIT_CASE(bpf_cgroup_iter_test_dead_last_ends_walk),
	{}
};

static struct kunit_suite bpf_cgroup_iter_suite = {
	.name = "bpf_cgroup_iter",
	.suite_init = cgit_suite_init,
	.suite_exit = cgit_suite_exit,
	.init = cgit_init,
	.exit = cgit_exit,
	.test_cases = bpf_cgroup_iter_cases,
};

kunit_test_suite(bpf_cgroup_iter_suite);

MODULE_DESCRIPTION("KUnit tests for the BPF cgroup iterator");
MODULE_LICENSE("GPL");
