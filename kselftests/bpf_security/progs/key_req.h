/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What key_kfuncs_test.c asks of progs/key_kfuncs.bpf.c, in its .bss:
 * which key to look up (a user key by serial and flags, or a system
 * keyring by id) and, with @verify, the lengths of the data and the
 * PKCS#7 signature the test wrote into data_buf and sig_buf.
 */
#ifndef KEY_REQ_H
#define KEY_REQ_H

#define MAX_DATA	4096
#define MAX_SIG		2048

struct key_req {
	__u64 flags;
	__u64 id;
	__u32 serial;
	__u32 system;
	__u32 verify;
	__u32 data_len;
	__u32 sig_len;
};

#endif
