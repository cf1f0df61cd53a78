// SPDX-License-Identifier: GPL-2.0
/*
 * Dynptrs handed to bpf_verify_pkcs7_signature() that 6.1's verifier
 * judges otherwise than later releases' (key_kfuncs_test.c, the
 * *_since_6_N cases), and dynptrs at a variable stack offset, which the
 * series' fix 0405 and upstream since 6.3 refuse (the variable_offset
 * cases): one program each, loaded one at a time (the "?"), a sleepable
 * BPF LSM program on bpf() that runs when the test's process calls
 * BPF_PROG_GET_NEXT_ID. Each verifies data_buf (or a copy of it) against
 * sig_buf with the user key @serial and puts the result in verify_ret,
 * but read_variable_offset, which reads data_buf's first bytes through a
 * helper.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "key_req.h"

#include "key_kfuncs.h"

char _license[] SEC("license") = "GPL";

/* A data area a record of MAX_DATA bytes fits in, header included. */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 2 * MAX_DATA);
} records SEC(".maps");

/* The test writes data_buf's bytes into it as one sample. */
struct {
	__uint(type, BPF_MAP_TYPE_USER_RINGBUF);
	__uint(max_entries, 2 * MAX_DATA);
} samples SEC(".maps");

__u32 monitored_pid;
__u32 serial;
__u32 data_len;
__u32 sig_len;
__u8 data_buf[MAX_DATA];
__u8 sig_buf[MAX_SIG];
/* results: runs of the program, the verification's, the drain's, the read's */
__u32 runs;
__s32 verify_ret = 1;
long drained;
long read_ret = 1;

static bool for_us(int cmd)
{
	return cmd == BPF_PROG_GET_NEXT_ID &&
	       bpf_get_current_pid_tgid() >> 32 == monitored_pid;
}

/* A ring buffer record holding data_buf's bytes is the data. */
SEC("?lsm.s/bpf")
int BPF_PROG(verify_ringbuf_record, int cmd, union bpf_attr *attr,
	     unsigned int size)
{
	struct bpf_dynptr data, sig;
	__u32 dlen = data_len, slen = sig_len;
	struct bpf_key *key;

	if (!for_us(cmd))
		return 0;
	runs++;
	if (dlen > MAX_DATA || slen > MAX_SIG)
		return 0;
	key = bpf_lookup_user_key(serial, 0);
	if (!key)
		return 0;
	bpf_ringbuf_reserve_dynptr(&records, dlen, 0, &data);
	bpf_dynptr_write(&data, 0, data_buf, dlen, 0);
	bpf_dynptr_from_mem(sig_buf, slen, 0, &sig);
	verify_ret = bpf_verify_pkcs7_signature(&data, &sig, key);
	bpf_ringbuf_discard_dynptr(&data, 0);
	bpf_key_put(key);
	return 0;
}

/* The user ring buffer callback's own dynptr (the sample) is the data. */
static long verify_sample(struct bpf_dynptr *sample, void *ctx)
{
	__u32 slen = sig_len;
	struct bpf_dynptr sig;
	struct bpf_key *key;

	if (slen > MAX_SIG)
		return 1;
	key = bpf_lookup_user_key(serial, 0);
	if (!key)
		return 1;
	bpf_dynptr_from_mem(sig_buf, slen, 0, &sig);
	verify_ret = bpf_verify_pkcs7_signature(sample, &sig, key);
	bpf_key_put(key);
	return 0;
}

SEC("?lsm.s/bpf")
int BPF_PROG(verify_user_ringbuf_sample, int cmd, union bpf_attr *attr,
	     unsigned int size)
{
	if (!for_us(cmd))
		return 0;
	runs++;
	drained = bpf_user_ringbuf_drain(&samples, verify_sample, NULL, 0);
	return 0;
}

/*
 * Two dynptrs over data_buf, the data one of them picked at run time:
 * its stack offset is not a constant.
 */
SEC("?lsm.s/bpf")
int BPF_PROG(verify_variable_offset, int cmd, union bpf_attr *attr,
	     unsigned int size)
{
	__u32 dlen = data_len, slen = sig_len, idx;
	struct bpf_dynptr data[2], sig;
	struct bpf_key *key;

	if (!for_us(cmd))
		return 0;
	runs++;
	if (dlen > MAX_DATA || slen > MAX_SIG)
		return 0;
	key = bpf_lookup_user_key(serial, 0);
	if (!key)
		return 0;
	bpf_dynptr_from_mem(data_buf, dlen, 0, &data[0]);
	bpf_dynptr_from_mem(data_buf, dlen, 0, &data[1]);
	bpf_dynptr_from_mem(sig_buf, slen, 0, &sig);
	idx = bpf_get_prandom_u32() & 1;
	verify_ret = bpf_verify_pkcs7_signature(&data[idx], &sig, key);
	bpf_key_put(key);
	return 0;
}

/*
 * The same pick, data[idx], handed to a helper: bpf_dynptr_read() of
 * data_buf's first bytes.
 */
SEC("?lsm.s/bpf")
int BPF_PROG(read_variable_offset, int cmd, union bpf_attr *attr,
	     unsigned int size)
{
	__u32 dlen = data_len, idx;
	struct bpf_dynptr data[2];
	__u8 head[8];

	if (!for_us(cmd))
		return 0;
	runs++;
	if (dlen > MAX_DATA)
		return 0;
	bpf_dynptr_from_mem(data_buf, dlen, 0, &data[0]);
	bpf_dynptr_from_mem(data_buf, dlen, 0, &data[1]);
	idx = bpf_get_prandom_u32() & 1;
	read_ret = bpf_dynptr_read(head, sizeof(head), &data[idx], 0, 0);
	return 0;
}
