// SPDX-License-Identifier: GPL-2.0
/*
 * The userns_create LSM hook (7cd4c5c2101c, 6.1;
 * security_create_user_ns() in create_user_ns()) through the BPF LSM
 * (progs/userns.bpf.c): while the program is attached, a new user
 * namespace is refused with its -EPERM, except for the creator uid it
 * allows; once its link is gone, unshare(CLONE_NEWUSER) works again.
 * The program judges only the children of this test's process.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <string.h>
#include <sys/wait.h>
#include <bpf/libbpf.h>

#include "../kselftest_harness.h"
#include "../kconform_util.h"
#include "userns.skel.h"

#define ALLOWED	1000
#define OTHER	1001

/* unshare(CLONE_NEWUSER) in a child running as @uid: 0 or its errno. */
static int new_userns_as(uid_t uid)
{
	int st;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		if (uid && (setresgid(uid, uid, uid) || setresuid(uid, uid, uid)))
			_exit(255);
		_exit(unshare(CLONE_NEWUSER) ? errno : 0);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

FIXTURE(userns) {
	struct userns *skel;
};

FIXTURE_SETUP(userns)
{
	/* The guest allows unprivileged user namespaces without the hook. */
	ASSERT_EQ(new_userns_as(0), 0);
	ASSERT_EQ(new_userns_as(ALLOWED), 0);
	self->skel = userns__open_and_load();
	ASSERT_NE(self->skel, NULL);
	self->skel->bss->parent_tgid = getpid();
}

FIXTURE_TEARDOWN(userns)
{
	userns__destroy(self->skel);
}

TEST_F(userns, refused_with_eperm)
{
	ASSERT_EQ(userns__attach(self->skel), 0);
	EXPECT_EQ(new_userns_as(0), EPERM);
	EXPECT_EQ(new_userns_as(ALLOWED), EPERM);
	EXPECT_EQ(self->skel->bss->calls, 2);
}

TEST_F(userns, works_again_after_link_destroyed)
{
	ASSERT_EQ(userns__attach(self->skel), 0);
	EXPECT_EQ(new_userns_as(0), EPERM);
	userns__detach(self->skel);
	EXPECT_EQ(new_userns_as(0), 0);
	EXPECT_EQ(new_userns_as(ALLOWED), 0);
	EXPECT_EQ(self->skel->bss->calls, 1);
}

TEST_F(userns, only_allowed_uid_through)
{
	self->skel->data->allowed_uid = ALLOWED;
	ASSERT_EQ(userns__attach(self->skel), 0);
	EXPECT_EQ(new_userns_as(ALLOWED), 0);
	EXPECT_EQ(new_userns_as(OTHER), EPERM);
	EXPECT_EQ(new_userns_as(0), EPERM);
	EXPECT_EQ(self->skel->bss->calls, 3);
}

/*
 * A program's verdict above 0: create_user_ns() fails only on a negative
 * one. 6.1 loads such a program and the namespace is made, as without
 * it; since 5d99e198be27 ("bpf, lsm: Add check for BPF LSM return
 * value", v6.12; CVE-2024-47703, for hooks whose positive value crashes
 * their caller) the verifier refuses it with EINVAL and these words.
 */
#define LATER "At program exit the register R0 has smin=1 smax=1 should have been in [-4095, 0]"

TEST(positive_verdict_refused_since_6_12)
{
	static char log[1 << 20];
	int since = kernel_since(6, 12);
	struct bpf_link *link;
	struct userns *skel;
	int err;

	ASSERT_NE(-1, since);
	skel = userns__open();
	ASSERT_NE(NULL, skel);
	ASSERT_EQ(0, bpf_program__set_autoload(skel->progs.userns_positive, true));
	ASSERT_EQ(0, bpf_program__set_log_buf(skel->progs.userns_positive, log,
					      sizeof(log)));
	ASSERT_EQ(0, bpf_program__set_log_level(skel->progs.userns_positive, 1));
	err = userns__load(skel);
	if (since) {
		EXPECT_EQ(-EINVAL, err);
		EXPECT_NE(NULL, strstr(log, LATER))
			TH_LOG("verifier said: %.2000s", log);
	} else {
		ASSERT_EQ(0, err) TH_LOG("verifier said: %.2000s", log);
		skel->bss->parent_tgid = getpid();
		link = bpf_program__attach_lsm(skel->progs.userns_positive);
		ASSERT_NE(NULL, link);
		EXPECT_EQ(new_userns_as(0), 0);
		EXPECT_EQ(new_userns_as(ALLOWED), 0);
		EXPECT_EQ(skel->bss->calls, 2);
		bpf_link__destroy(link);
	}
	userns__destroy(skel);
}

TEST_HARNESS_MAIN
