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
#include <sys/wait.h>
#include <bpf/libbpf.h>

#include "../kselftest_harness.h"
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

TEST_HARNESS_MAIN
