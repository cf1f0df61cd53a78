// SPDX-License-Identifier: GPL-2.0
/*
 * Destructive kfuncs (KF_DESTRUCTIVE, 6.1; kernel/bpf/verifier.c): a
 * program that calls one loads only if its loader has CAP_SYS_BOOT.
 * crash_kexec() is the one in the guest kernel (kernel/bpf/helpers.c,
 * CONFIG_KEXEC_CORE; since v6.9 CONFIG_CRASH_DUMP). The program is
 * loaded, never attached. Each test runs in its own child of the
 * harness, so dropping CAP_SYS_BOOT there leaves every other
 * capability, and the other tests, alone.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/capability.h>
#include <sys/syscall.h>
#include <bpf/libbpf.h>

#include "../kselftest_harness.h"
#include "destructive.skel.h"

/*
 * The verifier's refusal: 6.1 says "capabilities", kernels since v6.2
 * "capability" (00b85860feb8, "bpf: Rewrite kfunc argument handling").
 */
#define MSG_61		"destructive kfunc calls require CAP_SYS_BOOT capabilities"
#define MSG_LATER	"destructive kfunc calls require CAP_SYS_BOOT capability"

static bool refused_for_cap_sys_boot(const char *log)
{
	return strstr(log, MSG_61) || strstr(log, MSG_LATER);
}

static int no_print(enum libbpf_print_level level, const char *fmt,
		    va_list args)
{
	return 0;
}

/* Clears @cap from this process's effective and permitted sets. */
static int drop_cap(int cap)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];

	if (syscall(__NR_capget, &hdr, data))
		return -1;
	data[CAP_TO_INDEX(cap)].effective &= ~CAP_TO_MASK(cap);
	data[CAP_TO_INDEX(cap)].permitted &= ~CAP_TO_MASK(cap);
	return syscall(__NR_capset, &hdr, data);
}

static int has_cap(int cap)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];

	if (syscall(__NR_capget, &hdr, data))
		return -1;
	return !!(data[CAP_TO_INDEX(cap)].effective & CAP_TO_MASK(cap));
}

/* Loads call_crash_kexec; its error, the verifier's log in @log. */
static int load(char *log, size_t size)
{
	struct destructive *skel;
	int err;

	libbpf_set_print(no_print);
	log[0] = '\0';
	skel = destructive__open();
	if (!skel)
		return -ENOMEM;
	bpf_program__set_autoload(skel->progs.call_crash_kexec, true);
	bpf_program__set_log_buf(skel->progs.call_crash_kexec, log, size);
	bpf_program__set_log_level(skel->progs.call_crash_kexec, 1);
	err = destructive__load(skel);
	destructive__destroy(skel);
	return err;
}

static char log_buf[1 << 20];

TEST(loads_with_cap_sys_boot)
{
	ASSERT_EQ(has_cap(CAP_SYS_BOOT), 1);
	EXPECT_EQ(load(log_buf, sizeof(log_buf)), 0);
	EXPECT_FALSE(refused_for_cap_sys_boot(log_buf));
}

TEST(rejected_without_cap_sys_boot)
{
	ASSERT_EQ(drop_cap(CAP_SYS_BOOT), 0);
	ASSERT_EQ(has_cap(CAP_SYS_BOOT), 0);
	/* the rest stays: CAP_BPF and CAP_PERFMON load tracing programs */
	ASSERT_EQ(has_cap(CAP_SYS_ADMIN), 1);
	ASSERT_EQ(has_cap(CAP_BPF), 1);
	EXPECT_EQ(load(log_buf, sizeof(log_buf)), -EACCES);
	EXPECT_TRUE(refused_for_cap_sys_boot(log_buf))
		TH_LOG("verifier said: %s", log_buf);
}

TEST_HARNESS_MAIN
