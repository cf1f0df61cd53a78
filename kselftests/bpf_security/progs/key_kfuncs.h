/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The key kfuncs of kernel/trace/bpf_trace.c, for the BPF programs:
 * declarations (extern, as functions are) that libbpf resolves as __ksym.
 */
#ifndef KEY_KFUNCS_H
#define KEY_KFUNCS_H

struct bpf_key *bpf_lookup_user_key(__u32 serial, __u64 flags) __ksym;
struct bpf_key *bpf_lookup_system_key(__u64 id) __ksym;
void bpf_key_put(struct bpf_key *key) __ksym;
int bpf_verify_pkcs7_signature(struct bpf_dynptr *data_ptr,
			       struct bpf_dynptr *sig_ptr,
			       struct bpf_key *trusted_keyring) __ksym;

#endif
