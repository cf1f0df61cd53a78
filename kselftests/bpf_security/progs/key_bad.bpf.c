// SPDX-License-Identifier: GPL-2.0
/*
 * Programs the verifier must reject, one loaded at a time (the "?"
 * keeps libbpf from loading them all): the key kfuncs' reference and
 * sleepability rules.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "key_kfuncs.h"

char _license[] SEC("license") = "GPL";

__u32 serial;

/* The key is looked up, checked and never put. */
SEC("?lsm.s/bpf")
int BPF_PROG(leak, int cmd, union bpf_attr *attr, unsigned int size)
{
	struct bpf_key *key;

	key = bpf_lookup_user_key(serial, 0);
	if (!key)
		return 0;
	return 0;
}

/* bpf_lookup_user_key() is KF_SLEEPABLE; this program is not. */
SEC("?lsm/bpf")
int BPF_PROG(not_sleepable, int cmd, union bpf_attr *attr, unsigned int size)
{
	struct bpf_key *key;

	key = bpf_lookup_user_key(serial, 0);
	if (!key)
		return 0;
	bpf_key_put(key);
	return 0;
}

SEC("?lsm.s/bpf")
int BPF_PROG(put_twice, int cmd, union bpf_attr *attr, unsigned int size)
{
	struct bpf_key *key;

	key = bpf_lookup_user_key(serial, 0);
	if (!key)
		return 0;
	bpf_key_put(key);
	bpf_key_put(key);
	return 0;
}

/* KF_RET_NULL: the key may be NULL until checked. */
SEC("?lsm.s/bpf")
int BPF_PROG(no_null_check, int cmd, union bpf_attr *attr, unsigned int size)
{
	struct bpf_key *key;

	key = bpf_lookup_user_key(serial, 0);
	bpf_key_put(key);
	return 0;
}
