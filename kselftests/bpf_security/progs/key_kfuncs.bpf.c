// SPDX-License-Identifier: GPL-2.0
/*
 * A sleepable BPF LSM program on the bpf() syscall: when the test's
 * process calls BPF_PROG_GET_NEXT_ID, it looks up the key that req
 * names, and verifies data_buf against sig_buf with it when asked.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "key_req.h"

#include "key_kfuncs.h"

char _license[] SEC("license") = "GPL";

__u32 monitored_pid;
struct key_req req;
__u8 data_buf[MAX_DATA];
__u8 sig_buf[MAX_SIG];
/* results: runs of the program, the last lookup's, the last verification's */
__u32 runs;
__u32 found;
__s32 verify_ret;

SEC("lsm.s/bpf")
int BPF_PROG(key_kfuncs, int cmd, union bpf_attr *attr, unsigned int size)
{
	struct bpf_dynptr data_ptr, sig_ptr;
	struct bpf_key *key;
	__u32 data_len, sig_len;

	if (cmd != BPF_PROG_GET_NEXT_ID ||
	    bpf_get_current_pid_tgid() >> 32 != monitored_pid)
		return 0;
	runs++;
	if (req.system)
		key = bpf_lookup_system_key(req.id);
	else
		key = bpf_lookup_user_key(req.serial, req.flags);
	if (!key) {
		found = 0;
		return 0;
	}
	found = 1;
	if (req.verify) {
		data_len = req.data_len;
		sig_len = req.sig_len;
		if (data_len <= MAX_DATA && sig_len <= MAX_SIG) {
			bpf_dynptr_from_mem(data_buf, data_len, 0, &data_ptr);
			bpf_dynptr_from_mem(sig_buf, sig_len, 0, &sig_ptr);
			verify_ret = bpf_verify_pkcs7_signature(&data_ptr,
								&sig_ptr, key);
		}
	}
	bpf_key_put(key);
	return 0;
}
