// SPDX-License-Identifier: GPL-2.0
/*
 * The key kfuncs of 6.1 (66d6a4bf94f4, "Merge branch 'bpf: Add kfuncs
 * for PKCS#7 signature verification'"; kernel/trace/bpf_trace.c):
 *
 *   - bpf_lookup_user_key(serial, flags): a key by serial or special id,
 *     flags only KEY_LOOKUP_CREATE | KEY_LOOKUP_PARTIAL, else NULL; the
 *     permission check is deferred to the use of the key;
 *   - bpf_lookup_system_key(id): 0 (builtin), VERIFY_USE_SECONDARY_KEYRING,
 *     VERIFY_USE_PLATFORM_KEYRING, else NULL;
 *   - bpf_key_put(): one reference back;
 *   - bpf_verify_pkcs7_signature(): key_validate() of a user key (the
 *     deferred check), then verify_pkcs7_signature(); the return values
 *     are pinned to what 6.1.192 returns for each case;
 *   - the verifier's rules for them: references, KF_SLEEPABLE, KF_RET_NULL;
 *   - which program types may call them: a tracepoint and a perf_event
 *     program refused on 6.1, taken since v6.12 (the system_key_from
 *     cases, progs/key_tracing.bpf.c);
 *   - which dynptrs bpf_verify_pkcs7_signature() takes (a ring buffer
 *     record, a user ring buffer callback's: progs/key_dynptr.bpf.c),
 *     each pinned for 6.1 and for the releases since upstream changed it
 *     (the *_since_6_N cases); one at a variable stack offset, to it and
 *     to a helper, is refused (the variable_offset cases, the guards of
 *     the series' fix 0405).
 *
 * The program (progs/key_kfuncs.bpf.c) is a sleepable BPF LSM program on
 * bpf(): it runs when this process calls BPF_PROG_GET_NEXT_ID. The
 * fixture joins a new session keyring holding a keyring "kconform" with
 * user_a's certificate; data.user_a.p7s is data signed by user_a,
 * data.user_b.p7s by a key in no keyring, data.builtin.p7s by the key
 * whose certificate the kernel's build put in the builtin trusted keys.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/keyctl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <linux/bpf.h>
#include <linux/perf_event.h>
#include <bpf/libbpf.h>

#include "../kselftest_harness.h"
#include "../kconform_util.h"
#include "verifier_log.h"
#include "progs/key_req.h"
#include "key_kfuncs.skel.h"
#include "key_bad.skel.h"
#include "key_dynptr.skel.h"
#include "key_tracing.skel.h"

/* include/linux/key.h and include/linux/verification.h, not uapi */
#define KEY_LOOKUP_CREATE	0x01
#define KEY_LOOKUP_PARTIAL	0x02
#define VERIFY_USE_SECONDARY_KEYRING	1
#define VERIFY_USE_PLATFORM_KEYRING	2
/* key permissions (include/linux/key.h; keyutils.h, which is not used) */
#define KEY_POS_VIEW	0x01000000
#define KEY_POS_READ	0x02000000
#define KEY_POS_WRITE	0x04000000
#define KEY_POS_SETATTR	0x20000000
/* a serial keyctl(KEYCTL_DESCRIBE) is asked about first: no such key */
#define NO_SUCH_SERIAL	0x7ffffff0
#define LEAK_RUNS	10000

static long add_key(const char *type, const char *desc, const void *payload,
		    size_t len, __s32 ring)
{
	return syscall(__NR_add_key, type, desc, payload, len, ring);
}

static long keyctl(int cmd, unsigned long a2, unsigned long a3,
		   unsigned long a4, unsigned long a5)
{
	return syscall(__NR_keyctl, cmd, a2, a3, a4, a5);
}

/* The whole file installed next to the test, in @buf; its length or -1. */
static ssize_t slurp(const char *name, void *buf, size_t size)
{
	ssize_t len;
	int fd;

	fd = open(here(name), O_RDONLY);
	if (fd < 0)
		return -1;
	len = read(fd, buf, size);
	close(fd);
	return len;
}

/* The usage column of @serial's line in /proc/keys, or -1. */
static int key_usage(__s32 serial)
{
	char line[512];
	unsigned int id;
	int usage = -1, u;
	FILE *f;

	f = fopen("/proc/keys", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%x %*s %d", &id, &u) == 2 &&
		    id == (__u32)serial)
			usage = u;
	fclose(f);
	return usage;
}

FIXTURE(keys) {
	struct key_kfuncs *skel;
	__s32 session;
	__s32 ring;
	__s32 cert;
};

FIXTURE_SETUP(keys)
{
	char der[4096];
	ssize_t len;

	self->skel = NULL;
	self->session = keyctl(KEYCTL_JOIN_SESSION_KEYRING, 0, 0, 0, 0);
	ASSERT_GT(self->session, 0) TH_LOG("join session: %s", strerror(errno));
	self->ring = add_key("keyring", "kconform", NULL, 0,
			     KEY_SPEC_SESSION_KEYRING);
	ASSERT_GT(self->ring, 0) TH_LOG("add keyring: %s", strerror(errno));
	len = slurp("user_a.der", der, sizeof(der));
	ASSERT_GT(len, 0) TH_LOG("%s: %s", here("user_a.der"), strerror(errno));
	self->cert = add_key("asymmetric", NULL, der, len, self->ring);
	ASSERT_GT(self->cert, 0) TH_LOG("add user_a: %s", strerror(errno));

	self->skel = key_kfuncs__open_and_load();
	ASSERT_NE(self->skel, NULL);
	self->skel->bss->monitored_pid = getpid();
	ASSERT_EQ(key_kfuncs__attach(self->skel), 0);
}

FIXTURE_TEARDOWN(keys)
{
	key_kfuncs__destroy(self->skel);
}

/* One run of the program, for what req says: 1 if the key was found. */
static int run(struct __test_metadata *_metadata, struct key_kfuncs *skel)
{
	union bpf_attr attr = {};
	__u32 runs = skel->bss->runs;

	syscall(__NR_bpf, BPF_PROG_GET_NEXT_ID, &attr, sizeof(attr));
	ASSERT_EQ(skel->bss->runs, runs + 1);
	return skel->bss->found;
}

static int lookup_user(struct __test_metadata *_metadata,
		       struct key_kfuncs *skel, __s32 serial, __u64 flags)
{
	skel->bss->req = (struct key_req){ .serial = serial, .flags = flags };
	return run(_metadata, skel);
}

static int lookup_system(struct __test_metadata *_metadata,
			 struct key_kfuncs *skel, __u64 id)
{
	skel->bss->req = (struct key_req){ .system = 1, .id = id };
	return run(_metadata, skel);
}

/* data and @sig into the program's buffers, to be verified. */
static void load_blobs(struct __test_metadata *_metadata,
		       struct key_kfuncs *skel, const char *sig)
{
	ssize_t data_len, sig_len;

	data_len = slurp("data", skel->bss->data_buf, MAX_DATA);
	ASSERT_GT(data_len, 0) TH_LOG("%s: %s", here("data"), strerror(errno));
	sig_len = slurp(sig, skel->bss->sig_buf, MAX_SIG);
	ASSERT_GT(sig_len, 0) TH_LOG("%s: %s", here(sig), strerror(errno));
	skel->bss->req.data_len = data_len;
	skel->bss->req.sig_len = sig_len;
}

/* The verification's return value; the key must have been found. */
static int verify(struct __test_metadata *_metadata, struct key_kfuncs *skel,
		  int system, __u64 key)
{
	skel->bss->req.verify = 1;
	skel->bss->req.system = system;
	if (system)
		skel->bss->req.id = key;
	else
		skel->bss->req.serial = key;
	skel->bss->verify_ret = 1;
	ASSERT_EQ(run(_metadata, skel), 1);
	return skel->bss->verify_ret;
}

TEST_F(keys, lookup_session_keyring)
{
	EXPECT_EQ(lookup_user(_metadata, self->skel, KEY_SPEC_SESSION_KEYRING, 0), 1);
	EXPECT_EQ(lookup_user(_metadata, self->skel, self->session, 0), 1);
}

TEST_F(keys, lookup_user_keyring)
{
	EXPECT_EQ(lookup_user(_metadata, self->skel, KEY_SPEC_USER_KEYRING, 0), 1);
}

TEST_F(keys, lookup_test_keyring_and_key)
{
	EXPECT_EQ(lookup_user(_metadata, self->skel, self->ring, 0), 1);
	EXPECT_EQ(lookup_user(_metadata, self->skel, self->cert, 0), 1);
}

/* No thread keyring until KEY_LOOKUP_CREATE makes one. */
TEST_F(keys, lookup_create)
{
	EXPECT_EQ(lookup_user(_metadata, self->skel, KEY_SPEC_THREAD_KEYRING, 0), 0);
	EXPECT_EQ(lookup_user(_metadata, self->skel, KEY_SPEC_THREAD_KEYRING,
			      KEY_LOOKUP_CREATE), 1);
	EXPECT_EQ(lookup_user(_metadata, self->skel, KEY_SPEC_THREAD_KEYRING, 0), 1);
}

TEST_F(keys, lookup_partial)
{
	EXPECT_EQ(lookup_user(_metadata, self->skel, self->ring,
			      KEY_LOOKUP_PARTIAL), 1);
	EXPECT_EQ(lookup_user(_metadata, self->skel, KEY_SPEC_PROCESS_KEYRING,
			      KEY_LOOKUP_CREATE | KEY_LOOKUP_PARTIAL), 1);
}

/* Only KEY_LOOKUP_CREATE | KEY_LOOKUP_PARTIAL: any other bit is NULL. */
TEST_F(keys, lookup_unknown_flags)
{
	EXPECT_EQ(lookup_user(_metadata, self->skel, self->ring, 0x4), 0);
	EXPECT_EQ(lookup_user(_metadata, self->skel, self->ring,
			      KEY_LOOKUP_CREATE | 0x4), 0);
	EXPECT_EQ(lookup_user(_metadata, self->skel, self->ring, 1ULL << 32), 0);
	EXPECT_EQ(lookup_user(_metadata, self->skel, self->ring, UINT64_MAX), 0);
}

TEST_F(keys, lookup_no_such_serial)
{
	char desc[256];

	ASSERT_EQ(keyctl(KEYCTL_DESCRIBE, NO_SUCH_SERIAL, (unsigned long)desc,
			 sizeof(desc), 0), -1);
	ASSERT_EQ(errno, ENOKEY);
	EXPECT_EQ(lookup_user(_metadata, self->skel, NO_SUCH_SERIAL, 0), 0);
}

/* system_keyring_id_check(): 0, secondary and platform only. */
TEST_F(keys, lookup_system_ids)
{
	EXPECT_EQ(lookup_system(_metadata, self->skel, 0), 1);
	EXPECT_EQ(lookup_system(_metadata, self->skel,
				VERIFY_USE_SECONDARY_KEYRING), 1);
	EXPECT_EQ(lookup_system(_metadata, self->skel,
				VERIFY_USE_PLATFORM_KEYRING), 1);
	EXPECT_EQ(lookup_system(_metadata, self->skel, 3), 0);
	EXPECT_EQ(lookup_system(_metadata, self->skel, 1ULL << 32), 0);
	EXPECT_EQ(lookup_system(_metadata, self->skel, UINT64_MAX), 0);
}

TEST_F(keys, verify_user_keyring)
{
	load_blobs(_metadata, self->skel, "data.user_a.p7s");
	EXPECT_EQ(verify(_metadata, self->skel, 0, self->ring), 0);
}

/* The search goes down from the session keyring into "kconform". */
TEST_F(keys, verify_session_keyring)
{
	load_blobs(_metadata, self->skel, "data.user_a.p7s");
	EXPECT_EQ(verify(_metadata, self->skel, 0, KEY_SPEC_SESSION_KEYRING), 0);
}

/* The build's signing key is in the builtin trusted keys. */
TEST_F(keys, verify_builtin_key)
{
	load_blobs(_metadata, self->skel, "data.builtin.p7s");
	EXPECT_EQ(verify(_metadata, self->skel, 1, 0), 0);
	EXPECT_EQ(verify(_metadata, self->skel, 1,
			 VERIFY_USE_SECONDARY_KEYRING), 0);
}

/* No CONFIG_INTEGRITY_PLATFORM_KEYRING: no platform keyring. */
TEST_F(keys, verify_platform_keyring)
{
	load_blobs(_metadata, self->skel, "data.builtin.p7s");
	EXPECT_EQ(verify(_metadata, self->skel, 1, VERIFY_USE_PLATFORM_KEYRING),
		  -ENOKEY);
}

TEST_F(keys, verify_signer_not_in_keyring)
{
	load_blobs(_metadata, self->skel, "data.user_b.p7s");
	EXPECT_EQ(verify(_metadata, self->skel, 0, self->ring), -ENOKEY);
	load_blobs(_metadata, self->skel, "data.user_a.p7s");
	EXPECT_EQ(verify(_metadata, self->skel, 1, 0), -ENOKEY);
	load_blobs(_metadata, self->skel, "data.builtin.p7s");
	EXPECT_EQ(verify(_metadata, self->skel, 0, self->ring), -ENOKEY);
}

TEST_F(keys, verify_altered_data)
{
	load_blobs(_metadata, self->skel, "data.user_a.p7s");
	self->skel->bss->data_buf[0] ^= 1;
	EXPECT_EQ(verify(_metadata, self->skel, 0, self->ring), -EKEYREJECTED);
}

/* The last byte is the RSA signature's: it no longer matches. */
TEST_F(keys, verify_altered_signature)
{
	load_blobs(_metadata, self->skel, "data.user_a.p7s");
	self->skel->bss->sig_buf[self->skel->bss->req.sig_len - 1] ^= 1;
	EXPECT_EQ(verify(_metadata, self->skel, 0, self->ring), -EKEYREJECTED);
}

TEST_F(keys, verify_empty_data)
{
	load_blobs(_metadata, self->skel, "data.user_a.p7s");
	self->skel->bss->req.data_len = 0;
	EXPECT_EQ(verify(_metadata, self->skel, 0, self->ring), -EKEYREJECTED);
}

TEST_F(keys, verify_empty_signature)
{
	load_blobs(_metadata, self->skel, "data.user_a.p7s");
	self->skel->bss->req.sig_len = 0;
	EXPECT_EQ(verify(_metadata, self->skel, 0, self->ring), -EBADMSG);
}

/* Found (the check is deferred), refused by key_validate(). */
TEST_F(keys, verify_expired_keyring)
{
	load_blobs(_metadata, self->skel, "data.user_a.p7s");
	ASSERT_EQ(keyctl(KEYCTL_SET_TIMEOUT, self->ring, 1, 0, 0), 0);
	sleep(2);
	EXPECT_EQ(verify(_metadata, self->skel, 0, self->ring), -EKEYEXPIRED);
}

TEST_F(keys, verify_revoked_keyring)
{
	load_blobs(_metadata, self->skel, "data.user_a.p7s");
	ASSERT_EQ(keyctl(KEYCTL_REVOKE, self->ring, 0, 0, 0), 0);
	EXPECT_EQ(verify(_metadata, self->skel, 0, self->ring), -EKEYREVOKED);
}

/*
 * Without Search permission the lookup still finds the keyring (the
 * check is deferred to the use); the keyring search in the verification
 * is refused, and find_asymmetric_key() hides that -EACCES as -ENOKEY.
 * (The keyring is no longer possessed either: its perms stay as set.)
 */
TEST_F(keys, verify_keyring_without_search_permission)
{
	load_blobs(_metadata, self->skel, "data.user_a.p7s");
	ASSERT_EQ(keyctl(KEYCTL_SETPERM, self->ring,
			 KEY_POS_VIEW | KEY_POS_READ | KEY_POS_WRITE |
			 KEY_POS_SETATTR, 0, 0), 0);
	EXPECT_EQ(verify(_metadata, self->skel, 0, self->ring), -ENOKEY);
}

/* Every lookup's reference is put: the keyring's usage is unchanged. */
TEST_F(keys, no_reference_leak)
{
	int before, i;

	before = key_usage(self->ring);
	ASSERT_GT(before, 0);
	for (i = 0; i < LEAK_RUNS; i++)
		ASSERT_EQ(lookup_user(_metadata, self->skel, self->ring, 0), 1);
	EXPECT_EQ(self->skel->bss->runs, LEAK_RUNS);
	EXPECT_EQ(key_usage(self->ring), before);
}

static int no_print(enum libbpf_print_level level, const char *fmt,
		    va_list args)
{
	return 0;
}

/*
 * Which dynptrs bpf_verify_pkcs7_signature() takes changed upstream
 * (progs/key_dynptr.bpf.c, a program each): 6.1's check of a kfunc's
 * struct bpf_dynptr_kern argument (btf_check_func_arg_match()) wants an
 * initialised local dynptr on the stack. Each _since_ case pins both
 * sides, by the running kernel's version.
 */
struct dynptr_run {
	struct key_dynptr *skel;
	struct bpf_link *link;
	char *log;
	size_t size;
};

/*
 * Loads only @name of key_dynptr.bpf.c, for user_a's signature of data
 * to be verified with the keyring @ring: the load's error, the verifier's
 * log in @r->log. The test's process is the one it acts for.
 */
static int load_dynptr_prog(struct __test_metadata *_metadata,
			    struct dynptr_run *r, const char *name, __s32 ring)
{
	struct bpf_program *prog;
	ssize_t data_len, sig_len;

	libbpf_set_print(no_print);
	r->log[0] = '\0';
	r->link = NULL;
	r->skel = key_dynptr__open();
	ASSERT_NE(NULL, r->skel);
	prog = bpf_object__find_program_by_name(r->skel->obj, name);
	ASSERT_NE(NULL, prog);
	ASSERT_EQ(0, bpf_program__set_autoload(prog, true));
	ASSERT_EQ(0, bpf_program__set_log_buf(prog, r->log, r->size));
	ASSERT_EQ(0, bpf_program__set_log_level(prog, 1));

	data_len = slurp("data", r->skel->bss->data_buf, MAX_DATA);
	ASSERT_GT(data_len, 0) TH_LOG("%s: %s", here("data"), strerror(errno));
	sig_len = slurp("data.user_a.p7s", r->skel->bss->sig_buf, MAX_SIG);
	ASSERT_GT(sig_len, 0) TH_LOG("%s: %s", here("data.user_a.p7s"),
				     strerror(errno));
	r->skel->bss->data_len = data_len;
	r->skel->bss->sig_len = sig_len;
	r->skel->bss->serial = ring;
	r->skel->bss->monitored_pid = getpid();
	return key_dynptr__load(r->skel);
}

/* Attaches @name (loaded) and runs it once. */
static void run_dynptr_prog(struct __test_metadata *_metadata,
			    struct dynptr_run *r, const char *name)
{
	struct bpf_program *prog;
	union bpf_attr attr = {};

	prog = bpf_object__find_program_by_name(r->skel->obj, name);
	ASSERT_NE(NULL, prog);
	r->link = bpf_program__attach_lsm(prog);
	ASSERT_NE(NULL, r->link);
	syscall(__NR_bpf, BPF_PROG_GET_NEXT_ID, &attr, sizeof(attr));
	ASSERT_EQ(1, r->skel->bss->runs);
}

static void put_dynptr_run(struct dynptr_run *r)
{
	bpf_link__destroy(r->link);
	key_dynptr__destroy(r->skel);
}

/*
 * A ring buffer record (bpf_ringbuf_reserve_dynptr()) holding the
 * signed data. 6.1 takes a local dynptr only; since 6b75bd3d0367 ("bpf:
 * Refactor ARG_PTR_TO_DYNPTR checks into process_dynptr_func", v6.2,
 * which lifted the kfuncs' DYNPTR_TYPE_LOCAL constraint) any initialised
 * one: the record is verified as data_buf is.
 */
#define RINGBUF_V61 \
	"arg#0 pointer type STRUCT bpf_dynptr_kern points to unsupported dynamic pointer type"

TEST_F(keys, verify_ringbuf_record_since_6_2)
{
	static char log[1 << 20];
	struct dynptr_run r = { .log = log, .size = sizeof(log) };
	int since = kernel_since(6, 2), err;

	ASSERT_NE(-1, since);
	err = load_dynptr_prog(_metadata, &r, "verify_ringbuf_record", self->ring);
	if (since) {
		ASSERT_EQ(0, err) TH_LOG("verifier said: %.2000s", log);
		run_dynptr_prog(_metadata, &r, "verify_ringbuf_record");
		EXPECT_EQ(0, r.skel->data->verify_ret);
	} else {
		EXPECT_EQ(-EINVAL, err);
		EXPECT_NE(NULL, strstr(log, RINGBUF_V61))
			TH_LOG("verifier said: %.2000s", log);
	}
	put_dynptr_run(&r);
}

/*
 * The dynptr a user ring buffer callback is given (the sample): 6.1
 * wants the kfunc's dynptr on the program's stack; since 270605317366
 * ("bpf: Rework process_dynptr_func", v6.2, CONST_PTR_TO_DYNPTR) the
 * callback's own is taken, and a sample holding the signed data is
 * verified.
 */
#define CALLBACK_V61 "arg#0 pointer type STRUCT bpf_dynptr_kern not to stack"

TEST_F(keys, verify_user_ringbuf_sample_since_6_2)
{
	static char log[1 << 20];
	struct dynptr_run r = { .log = log, .size = sizeof(log) };
	int since = kernel_since(6, 2), err;
	struct user_ring_buffer *urb;
	void *sample;

	ASSERT_NE(-1, since);
	err = load_dynptr_prog(_metadata, &r, "verify_user_ringbuf_sample",
			       self->ring);
	if (since) {
		ASSERT_EQ(0, err) TH_LOG("verifier said: %.2000s", log);
		urb = user_ring_buffer__new(bpf_map__fd(r.skel->maps.samples), NULL);
		ASSERT_NE(NULL, urb);
		sample = user_ring_buffer__reserve(urb, r.skel->bss->data_len);
		ASSERT_NE(NULL, sample);
		memcpy(sample, r.skel->bss->data_buf, r.skel->bss->data_len);
		user_ring_buffer__submit(urb, sample);
		run_dynptr_prog(_metadata, &r, "verify_user_ringbuf_sample");
		EXPECT_EQ(1, r.skel->bss->drained);
		EXPECT_EQ(0, r.skel->data->verify_ret);
		user_ring_buffer__free(urb);
	} else {
		EXPECT_EQ(-EINVAL, err);
		EXPECT_NE(NULL, strstr(log, CALLBACK_V61))
			TH_LOG("verifier said: %.2000s", log);
	}
	put_dynptr_run(&r);
}

/*
 * bpf_lookup_system_key() and bpf_key_put() from a tracepoint and from a
 * perf_event program (progs/key_tracing.bpf.c, one a variant). The key
 * kfuncs' set is registered for BPF_PROG_TYPE_TRACING, whose kfunc hook
 * 6.1's bpf_prog_type_to_kfunc_hook() gives tracing and LSM programs
 * only: the verifier refuses the call, EACCES with these words. Since
 * bc638d8cb5be ("bpf: allow kfuncs within tracepoint and perf event
 * programs", v6.12) both types map to that hook: the program loads, and
 * each of its runs for the test's process finds the builtin keyring's
 * key (id 0) and puts it back. The sleepable key kfuncs
 * (bpf_lookup_user_key(), bpf_verify_pkcs7_signature()) stay out of
 * reach on both: neither type can be sleepable.
 */
#define TRACING_V61 "calling kernel function bpf_lookup_system_key is not allowed"

FIXTURE(system_key_from) {
	struct key_tracing *skel;
	struct bpf_link *link;
};

FIXTURE_VARIANT(system_key_from) {
	const char *prog;
	bool perf_event;
};

FIXTURE_VARIANT_ADD(system_key_from, tracepoint) {
	.prog = "system_key_tracepoint",
};

FIXTURE_VARIANT_ADD(system_key_from, perf_event) {
	.prog = "system_key_perf_event",
	.perf_event = true,
};

FIXTURE_SETUP(system_key_from)
{
	self->skel = NULL;
	self->link = NULL;
}

FIXTURE_TEARDOWN(system_key_from)
{
	bpf_link__destroy(self->link);
	key_tracing__destroy(self->skel);
}

/* task_newtask, in this process: one fork, one run. */
static void run_on_fork(struct __test_metadata *_metadata,
			struct bpf_program *prog, struct bpf_link **link)
{
	pid_t pid;

	*link = bpf_program__attach(prog);
	ASSERT_NE(NULL, *link);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid)
		_exit(0);
	ASSERT_EQ(pid, waitpid(pid, NULL, 0));
}

/*
 * A software page-fault event of this process, a sample (a run) per
 * fault: a fresh anonymous page written faults at least once.
 */
static void run_on_page_fault(struct __test_metadata *_metadata,
			      struct bpf_program *prog, struct bpf_link **link)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_PAGE_FAULTS,
		.sample_period = 1,
	};
	char *page;
	int pfd;

	pfd = syscall(__NR_perf_event_open, &attr, 0, -1, -1,
		      PERF_FLAG_FD_CLOEXEC);
	ASSERT_GE(pfd, 0) TH_LOG("perf_event_open: %s", strerror(errno));
	/* the link owns pfd from here */
	*link = bpf_program__attach_perf_event(prog, pfd);
	if (!*link)
		close(pfd);
	ASSERT_NE(NULL, *link);
	page = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, page);
	/* the first write faults the page in (munmap() reads page: kept) */
	page[0] = 1;
	munmap(page, 4096);
	bpf_link__destroy(*link);
	*link = NULL;
}

TEST_F(system_key_from, loads_since_6_12)
{
	static char log[1 << 20];
	int since = kernel_since(6, 12), err;
	struct bpf_program *prog;

	ASSERT_NE(-1, since);
	libbpf_set_print(no_print);
	log[0] = '\0';
	self->skel = key_tracing__open();
	ASSERT_NE(NULL, self->skel);
	prog = bpf_object__find_program_by_name(self->skel->obj, variant->prog);
	ASSERT_NE(NULL, prog);
	ASSERT_EQ(0, bpf_program__set_autoload(prog, true));
	ASSERT_EQ(0, bpf_program__set_log_buf(prog, log, sizeof(log)));
	ASSERT_EQ(0, bpf_program__set_log_level(prog, 1));
	self->skel->bss->monitored_pid = getpid();
	err = key_tracing__load(self->skel);
	if (!since) {
		EXPECT_EQ(-EACCES, err);
		EXPECT_NE(NULL, strstr(log, TRACING_V61))
			TH_LOG("%s: verifier said: %.2000s", variant->prog, log);
		return;
	}
	ASSERT_EQ(0, err) TH_LOG("%s: verifier said: %.2000s", variant->prog, log);
	if (variant->perf_event) {
		run_on_page_fault(_metadata, prog, &self->link);
		EXPECT_LE(1, self->skel->bss->runs);
	} else {
		run_on_fork(_metadata, prog, &self->link);
		EXPECT_EQ(1, self->skel->bss->runs);
	}
	EXPECT_EQ(self->skel->bss->runs, self->skel->bss->found);
}

/*
 * &data[idx], idx 0 or 1 at run time: a dynptr at a variable stack
 * offset (root may do such pointer arithmetic), handed to a kfunc
 * (bpf_verify_pkcs7_signature()) or to a helper (bpf_dynptr_read()).
 * 6.1.192 looks at the fixed offset only (data[0]'s slots) and loads
 * both programs, while at run time the callee gets data[idx]; its fix
 * 0405 and upstream since 79168a669d81 ("bpf: Fix missing var_off check
 * for ARG_PTR_TO_DYNPTR", v6.3, and 6.2.3; not in 6.1-stable) refuse
 * them, EINVAL with these words (6.3 ends there; later releases add
 * "Expected an initialized dynptr as arg #N"). These are the fix's
 * guards: without it (--fixes omit) they fail, and the run says the
 * tree carries the bug (patches/fixes.toml).
 */
#define VAR_OFF_REFUSED "dynptr has to be at a constant offset\n"

FIXTURE(variable_offset) {
	int unused;
};

FIXTURE_VARIANT(variable_offset) {
	const char *prog;
};

FIXTURE_VARIANT_ADD(variable_offset, kfunc) { .prog = "verify_variable_offset" };

FIXTURE_VARIANT_ADD(variable_offset, helper) { .prog = "read_variable_offset" };

FIXTURE_SETUP(variable_offset)
{
}

FIXTURE_TEARDOWN(variable_offset)
{
}

TEST_F(variable_offset, dynptr_refused)
{
	static char log[1 << 20];
	struct dynptr_run r = { .log = log, .size = sizeof(log) };
	int err;

	err = load_dynptr_prog(_metadata, &r, variant->prog, 0);
	EXPECT_EQ(-EINVAL, err) TH_LOG("%s loaded", variant->prog);
	EXPECT_NE(NULL, strstr(log, VAR_OFF_REFUSED))
		TH_LOG("%s: verifier said: %.2000s", variant->prog, log);
	put_dynptr_run(&r);
}

/*
 * Loads only @name of key_bad.bpf.c; returns the load's error, the
 * verifier's log in @log.
 */
static int load_bad(const char *name, char *log, size_t size)
{
	struct bpf_program *prog;
	struct key_bad *skel;
	int err;

	libbpf_set_print(no_print);
	log[0] = '\0';
	skel = key_bad__open();
	if (!skel)
		return -ENOMEM;
	prog = bpf_object__find_program_by_name(skel->obj, name);
	if (!prog) {
		key_bad__destroy(skel);
		return -ENOENT;
	}
	bpf_program__set_autoload(prog, true);
	bpf_program__set_log_buf(prog, log, size);
	bpf_program__set_log_level(prog, 1);
	err = key_bad__load(skel);
	key_bad__destroy(skel);
	return err;
}

/* One way of saying no: the load's error and the verifier's words. */
struct refusal {
	int err;
	const char *msg;
};

static bool refused_as(int err, const char *log, const struct refusal *r)
{
	return r->msg && err == r->err && strstr(log, r->msg);
}

/* Programs of key_bad.bpf.c the verifier must refuse, one a variant. */
FIXTURE(verifier_rejects) {
	int unused;
};

/*
 * @v61 is how 6.1 refuses @prog. @later, where set, is how kernels since
 * the upstream change @since refuse it: the rejection is the promise, its
 * errno and words changed upstream.
 */
FIXTURE_VARIANT(verifier_rejects) {
	const char *prog;
	struct refusal v61;
	struct refusal later;
	const char *since;
};

FIXTURE_VARIANT_ADD(verifier_rejects, unreleased_key) {
	.prog = "leak",
	.v61 = { -EINVAL, "Unreleased reference id=" },
};

FIXTURE_VARIANT_ADD(verifier_rejects, user_key_lookup_not_sleepable) {
	.prog = "not_sleepable",
	.v61 = { -EINVAL,
		 "kernel function bpf_lookup_user_key is sleepable but the program is not" },
	.later = { -EACCES,
		   "program must be sleepable to call sleepable kfunc bpf_lookup_user_key" },
	.since = "v6.2, 00b85860feb8 (\"bpf: Rewrite kfunc argument handling\")",
};

/* 6.1's words for a bpf_key argument that is no valid reference */
#define NOT_SCALAR \
	"arg#0 pointer type STRUCT bpf_key must point to scalar, or struct with scalar"

FIXTURE_VARIANT_ADD(verifier_rejects, put_twice) {
	.prog = "put_twice",
	.v61 = { -EINVAL, NOT_SCALAR },
};

FIXTURE_VARIANT_ADD(verifier_rejects, put_without_null_check) {
	.prog = "no_null_check",
	.v61 = { -EINVAL, NOT_SCALAR },
	.later = { -EACCES, "Possibly NULL pointer passed to trusted arg0" },
	.since = "v6.4, 6c831c468412 (\"bpf: Treat KF_RELEASE kfuncs as KF_TRUSTED_ARGS\")",
};

FIXTURE_SETUP(verifier_rejects)
{
}

FIXTURE_TEARDOWN(verifier_rejects)
{
}

TEST_F(verifier_rejects, load)
{
	static char log[1 << 20];
	int err = load_bad(variant->prog, log, sizeof(log));

	EXPECT_TRUE(refused_as(err, log, &variant->v61) ||
		    refused_as(err, log, &variant->later)) {
		TH_LOG("%s: error %d, verifier said: %s", variant->prog, err,
		       why_line(log));
		TH_LOG("6.1 refuses with %d, \"%s\"", variant->v61.err,
		       variant->v61.msg);
		if (variant->since)
			TH_LOG("since %s with %d, \"%s\"", variant->since,
			       variant->later.err, variant->later.msg);
	}
}

TEST_HARNESS_MAIN
