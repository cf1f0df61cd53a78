// SPDX-License-Identifier: GPL-2.0
/*
 * A BPF LSM program that compares the creator's comm with a constant
 * string with bpf_strncmp() (v5.17), on the userns_create hook
 * (progs/lsm_strncmp.bpf.c). The helper's description in
 * include/uapi/linux/bpf.h: "**s2** must be a read-only string".
 *  - the string in .rodata: the program loads, and while it is
 *    attached a child named DENIED_COMM is refused a new user namespace
 *    with EPERM, another child is not;
 *  - the same string in .data, which the program may write: refused at
 *    load with EACCES, "R3 does not point to a readonly map'" (the quote
 *    the kernel's).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <bpf/libbpf.h>

#include "../kselftest_harness.h"
#include "progs/lsm_strncmp.h"
#include "lsm_strncmp.skel.h"

/* unshare(CLONE_NEWUSER) in a child named @comm: 0 or its errno. */
static int new_userns_named(const char *comm)
{
	int st;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		if (prctl(PR_SET_NAME, comm, 0, 0, 0))
			_exit(255);
		_exit(unshare(CLONE_NEWUSER) ? errno : 0);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

TEST(rodata_string_denies_by_comm)
{
	static char log[1 << 20];
	struct lsm_strncmp *skel;
	struct bpf_link *link;

	skel = lsm_strncmp__open();
	ASSERT_NE(NULL, skel);
	ASSERT_EQ(0, bpf_program__set_autoload(skel->progs.deny_comm, true));
	ASSERT_EQ(0, bpf_program__set_log_buf(skel->progs.deny_comm, log,
					      sizeof(log)));
	ASSERT_EQ(0, bpf_program__set_log_level(skel->progs.deny_comm, 1));
	ASSERT_EQ(0, lsm_strncmp__load(skel)) TH_LOG("verifier said: %.2000s", log);
	skel->bss->parent_tgid = getpid();
	link = bpf_program__attach_lsm(skel->progs.deny_comm);
	ASSERT_NE(NULL, link);
	EXPECT_EQ(EPERM, new_userns_named(DENIED_COMM));
	EXPECT_EQ(0, new_userns_named("kc_userns_ok"));
	EXPECT_EQ(2, skel->bss->calls);
	bpf_link__destroy(link);
	EXPECT_EQ(0, new_userns_named(DENIED_COMM));
	lsm_strncmp__destroy(skel);
}

TEST(writable_string_refused_eacces)
{
	static char log[1 << 20];
	struct lsm_strncmp *skel;
	int err;

	skel = lsm_strncmp__open();
	ASSERT_NE(NULL, skel);
	ASSERT_EQ(0, bpf_program__set_autoload(skel->progs.deny_comm_rw, true));
	ASSERT_EQ(0, bpf_program__set_log_buf(skel->progs.deny_comm_rw, log,
					      sizeof(log)));
	ASSERT_EQ(0, bpf_program__set_log_level(skel->progs.deny_comm_rw, 1));
	libbpf_set_print(quiet);	/* the refusal is expected */
	err = lsm_strncmp__load(skel);
	lsm_strncmp__destroy(skel);
	EXPECT_EQ(-EACCES, err);
	EXPECT_NE(NULL, strstr(log, "R3 does not point to a readonly map'"))
		TH_LOG("verifier said: %.2000s", log);
}

TEST_HARNESS_MAIN
