// SPDX-License-Identifier: GPL-2.0
/*
 * The switch of kconform's mutant schemata (include/linux/kconform_mutant.h):
 * the active mutant's number, from the command line (kconform.mutant=N)
 * and at run time in /sys/module/kconform/parameters/mutant (the guest's
 * loop over mutants, tools/testing/guest/mutants). Exported, so that a
 * switched file built as a module sees it too.
 *
 * With KUnit built in, writing suite globs (comma-separated) to
 * /sys/kernel/debug/kconform_kunit runs the built-in suites that match
 * again, with the active mutant, as one KTAP document on the console:
 * 6.1 runs built-in suites only at boot, so without it each mutant of a
 * KUnit suite would need a boot of its own.
 */
#include <linux/kconform_mutant.h>
#include <linux/module.h>

#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "kconform."

int kconform_mutant;
EXPORT_SYMBOL(kconform_mutant);
module_param_named(mutant, kconform_mutant, int, 0644);
MODULE_PARM_DESC(mutant, "the active mutant of the schemata (0: none)");

#if IS_BUILTIN(CONFIG_KUNIT) && IS_ENABLED(CONFIG_DEBUG_FS)
#include <kunit/test.h>
#include <linux/debugfs.h>
#include <linux/glob.h>
#include <linux/slab.h>
#include <linux/string.h>

extern struct kunit_suite * const __kunit_suites_start[];
extern struct kunit_suite * const __kunit_suites_end[];

/*
 * The built-in suites: the linker's table is init data, freed after
 * boot, so it is copied at init (the suites themselves stay).
 */
static struct kunit_suite **kc_suites;
static int kc_nsuites;

static bool kc_kunit_match(char *globs, const char *name)
{
	char *rest = globs, *glob;
	bool hit = false;

	/* strsep() cuts the list: put the commas back for the next name */
	while ((glob = strsep(&rest, ",")) != NULL) {
		hit |= *glob && glob_match(glob, name);
		if (rest)
			rest[-1] = ',';
	}
	return hit;
}

static ssize_t kc_kunit_write(struct file *file, const char __user *buf,
			      size_t len, loff_t *ppos)
{
	char *globs, *list;
	int i, n = 0;

	globs = memdup_user_nul(buf, len);
	if (IS_ERR(globs))
		return PTR_ERR(globs);
	list = strim(globs);
	for (i = 0; i < kc_nsuites; i++)
		n += kc_kunit_match(list, kc_suites[i]->name);
	pr_info("KTAP version 1\n");
	pr_info("1..%d\n", n);
	/* with no suites, only numbers the next suite 1 again */
	__kunit_test_suites_exit(NULL, 0);
	for (i = 0; i < kc_nsuites; i++) {
		if (!kc_kunit_match(list, kc_suites[i]->name))
			continue;
		kc_suites[i]->status_comment[0] = '\0';
		kc_suites[i]->suite_init_err = 0;
		kunit_run_tests(kc_suites[i]);
	}
	kfree(globs);
	return len;
}

static const struct file_operations kc_kunit_fops = {
	.write = kc_kunit_write,
	.llseek = noop_llseek,
};

static int __init kc_kunit_init(void)
{
	int n = __kunit_suites_end - __kunit_suites_start;

	kc_suites = kmemdup(__kunit_suites_start, n * sizeof(*kc_suites), GFP_KERNEL);
	if (!kc_suites)
		return -ENOMEM;
	kc_nsuites = n;
	debugfs_create_file("kconform_kunit", 0200, NULL, NULL, &kc_kunit_fops);
	return 0;
}
late_initcall(kc_kunit_init);
#endif
