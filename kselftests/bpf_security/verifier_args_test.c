// SPDX-License-Identifier: GPL-2.0
/*
 * The verifier's checks of a call's arguments in 6.1.192: a helper's
 * (check_func_arg() and check_func_arg_reg_off(), kernel/bpf/verifier.c)
 * and a kfunc's (btf_check_func_arg_match(), kernel/bpf/btf.c). Each
 * variant is a small program, loaded with bpf_prog_load() and a log
 * buffer, that the verifier must accept, or refuse with the errno and the
 * words that 6.1.192 prints last (a check whose words are in the log but
 * whose error was dropped has not refused it). The words are the code's,
 * read in those functions and in check_helper_mem_access(),
 * check_mem_size_reg(), check_stack_range_initialized() and
 * __check_ptr_off_reg().
 *
 * The programs are raw instructions (the tree's tools/include/linux/
 * filter.h), so that each holds exactly the register a check judges: a
 * size register that is zero, negative or unbounded, a pointer with a
 * fixed offset, a dynptr at a misaligned slot. A map is named by its
 * index in enum kc_map and a kfunc by its index in the variant's
 * kfuncs[]; the test puts in the fds and BTF ids before the load.
 * A program ends at its last non-zero instruction (its exit).
 *
 * Most are SCHED_CLS programs: tc's helpers, and net/bpf/test_run.c's
 * bpf_kfunc_call_test* kfuncs, which 6.1 registers for SCHED_CLS
 * (acquire/release, KF_TRUSTED_ARGS, mem + __sz pairs, rdwr_buf_size,
 * the program's context). The key kfuncs' dynptr arguments are judged
 * in a sleepable BPF LSM program on bpf(), as progs/key_kfuncs.bpf.c.
 *
 * 6.1's Documentation/bpf/kfuncs.rst agrees where it speaks: a void *
 * needs a size argument named *__sz, a KF_TRUSTED_ARGS kfunc takes an
 * object pointer unmodified and memory at an offset. It does not say
 * that a KF_RELEASE argument must be unmodified too, nor how a refusal
 * reads. Upstream rewrote these checks in v6.2 (00b85860feb8, "bpf:
 * Rewrite kfunc argument handling"), with other words: these are 6.1's.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <linux/capability.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "linux/filter.h"

#include "../kselftest_harness.h"
#include "verifier_log.h"
#include "verifier_args.skel.h"

enum kc_map {
	M_HASH,		/* hash, key 8 bytes, value 16 */
	M_RO,		/* array, value 16 "abc", frozen, read-only to programs */
	M_RO_NOTERM,	/* array, value 8 "abcdefgh" (no NUL), frozen, read-only */
	M_RW,		/* array, value 16 "abc", writable */
	M_RB,		/* ring buffer, 4096 bytes */
	M_RO_HASH,	/* hash, key 8, value 16 "abc" at key 0, frozen, read-only */
	M_KPTR,		/* array, key int, value struct holder (kc_btf()) */
	M_SK,		/* socket storage, key int, value int (kc_btf()) */
	NR_MAPS,
};

#define KCALL(i)	BPF_RAW_INSN(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_KFUNC_CALL, 0, i)
#define CALL(f)		BPF_EMIT_CALL(BPF_FUNC_##f)
#define ZERO_DW(off)	BPF_ST_MEM(BPF_DW, BPF_REG_10, off, 0)
#define SKB(r, src, f)	BPF_LDX_MEM(BPF_W, r, src, offsetof(struct __sk_buff, f))
#define PROG(...)	.insns = { __VA_ARGS__ }
#define MAX_INSNS	40

/*
 * The instructions are written out, as test_verifier.c's are (a macro of
 * several would need the commas checkpatch refuses). Sequences that recur:
 * - "return 0": r0 = 0, exit;
 * - a stack pointer: rN = r10, rN += off;
 * - the kfunc programs' reference: bpf_kfunc_call_test_acquire(&zero)
 *   into r6, a NULL return jumping past the rest of the program to its
 *   "return 0";
 * - a dynptr at fp+off over M_RW's first 8 bytes:
 *   bpf_dynptr_from_mem(value, 8, 0, fp + off) (6.1's takes a map value
 *   only).
 */

#define ACQ		"bpf_kfunc_call_test_acquire"
#define REL		"bpf_kfunc_call_test_release"

FIXTURE(args) {
	int map[NR_MAPS];
	int btf;
	struct btf *vmlinux;
};

FIXTURE_VARIANT(args) {
	/* up to the last exit, zeros after it (as test_verifier.c's) */
	struct bpf_insn insns[MAX_INSNS];
	/* a sleepable BPF LSM program on bpf(), else SCHED_CLS */
	bool lsm;
	/* loaded without CAP_PERFMON and CAP_SYS_ADMIN: no pointer leaks */
	bool no_perfmon;
	const char *kfuncs[3];
	/* a per-CPU variable's name, for BPF_PSEUDO_BTF_ID */
	const char *ksym;
	/* 0: accepted; else the load's error and the verifier's words */
	int err;
	const char *msg;
};

/* -- helpers: the map key and value (ARG_CONST_MAP_PTR, ARG_PTR_TO_MAP_*) */

FIXTURE_VARIANT_ADD(args, map_key_on_stack) {
	PROG(ZERO_DW(-8), BPF_MOV64_REG(BPF_REG_2, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_2, -8), BPF_LD_MAP_FD(BPF_REG_1, M_HASH),
	     CALL(map_lookup_elem), BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
};

/* uninitialised stack: read by root (bpf_allow_uninit_stack()), else refused */
FIXTURE_VARIANT_ADD(args, map_key_uninit_perfmon) {
	PROG(BPF_MOV64_REG(BPF_REG_2, BPF_REG_10), BPF_ALU64_IMM(BPF_ADD, BPF_REG_2, -8),
	     BPF_LD_MAP_FD(BPF_REG_1, M_HASH), CALL(map_lookup_elem),
	     BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
};

FIXTURE_VARIANT_ADD(args, map_key_uninit) {
	PROG(BPF_MOV64_REG(BPF_REG_2, BPF_REG_10), BPF_ALU64_IMM(BPF_ADD, BPF_REG_2, -8),
	     BPF_LD_MAP_FD(BPF_REG_1, M_HASH), CALL(map_lookup_elem),
	     BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
	.no_perfmon = true,
	.err = -EACCES, .msg = "invalid indirect read from stack R2 off -8+0 size 8",
};

/* the 8-byte key would run past the frame */
FIXTURE_VARIANT_ADD(args, map_key_past_frame) {
	PROG(BPF_ST_MEM(BPF_W, BPF_REG_10, -4, 0), BPF_MOV64_REG(BPF_REG_2, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_2, -4), BPF_LD_MAP_FD(BPF_REG_1, M_HASH),
	     CALL(map_lookup_elem), BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
	.err = -EINVAL, .msg = "invalid indirect access to stack R2 off=-4 size=8",
};

FIXTURE_VARIANT_ADD(args, map_key_null) {
	PROG(BPF_LD_MAP_FD(BPF_REG_1, M_HASH), BPF_MOV64_IMM(BPF_REG_2, 0),
	     CALL(map_lookup_elem), BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
	.err = -EACCES,
	.msg = "R2 type=scalar expected=fp, pkt, pkt_meta, map_key, map_value\n",
};

FIXTURE_VARIANT_ADD(args, map_ptr_is_stack) {
	PROG(ZERO_DW(-8), BPF_MOV64_REG(BPF_REG_2, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_2, -8), BPF_MOV64_REG(BPF_REG_1, BPF_REG_10),
	     CALL(map_lookup_elem), BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
	.err = -EACCES, .msg = "R1 type=fp expected=map_ptr\n",
};

FIXTURE_VARIANT_ADD(args, map_value_on_stack) {
	PROG(ZERO_DW(-8), ZERO_DW(-24), ZERO_DW(-16), BPF_MOV64_REG(BPF_REG_2, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_2, -8), BPF_MOV64_REG(BPF_REG_3, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_3, -24), BPF_MOV64_IMM(BPF_REG_4, 0),
	     BPF_LD_MAP_FD(BPF_REG_1, M_HASH), CALL(map_update_elem),
	     BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
};

/* 16 bytes of value from fp-8 */
FIXTURE_VARIANT_ADD(args, map_value_past_frame) {
	PROG(ZERO_DW(-8), BPF_MOV64_REG(BPF_REG_2, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_2, -8), BPF_MOV64_REG(BPF_REG_3, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_3, -8), BPF_MOV64_IMM(BPF_REG_4, 0),
	     BPF_LD_MAP_FD(BPF_REG_1, M_HASH), CALL(map_update_elem),
	     BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
	.err = -EINVAL, .msg = "invalid indirect access to stack R3 off=-8 size=16",
};

FIXTURE_VARIANT_ADD(args, map_value_uninit) {
	PROG(ZERO_DW(-8), BPF_MOV64_REG(BPF_REG_2, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_2, -8), BPF_MOV64_REG(BPF_REG_3, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_3, -24), BPF_MOV64_IMM(BPF_REG_4, 0),
	     BPF_LD_MAP_FD(BPF_REG_1, M_HASH), CALL(map_update_elem),
	     BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
	.no_perfmon = true,
	.err = -EACCES, .msg = "invalid indirect read from stack R3 off -24+0 size 16",
};

/* -- helpers: ARG_ANYTHING, a pointer to it leaks (when not perfmon_capable()) */

FIXTURE_VARIANT_ADD(args, anything_is_pointer) {
	PROG(BPF_MOV64_REG(BPF_REG_2, BPF_REG_10), BPF_MOV64_REG(BPF_REG_3, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_3, -8), BPF_MOV64_IMM(BPF_REG_4, 8),
	     CALL(skb_load_bytes), BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
	.no_perfmon = true,
	.err = -EACCES, .msg = "R2 leaks addr into helper function\n",
};

/* root may (bpf_allow_ptr_leaks()) */
FIXTURE_VARIANT_ADD(args, anything_is_pointer_perfmon) {
	PROG(BPF_MOV64_REG(BPF_REG_2, BPF_REG_10), BPF_MOV64_REG(BPF_REG_3, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_3, -8), BPF_MOV64_IMM(BPF_REG_4, 8),
	     CALL(skb_load_bytes), BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
};

/* -- helpers: ARG_PTR_TO_BTF_ID (bpf_task_pt_regs()'s task_struct) */

FIXTURE_VARIANT_ADD(args, btf_id_task) {
	PROG(CALL(get_current_task_btf), BPF_MOV64_REG(BPF_REG_1, BPF_REG_0),
	     CALL(task_pt_regs), BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
	.lsm = true,
};

/* bpf()'s union bpf_attr *attr, the hook's second argument */
FIXTURE_VARIANT_ADD(args, btf_id_other_type) {
	PROG(BPF_LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_1, 8), CALL(task_pt_regs),
	     BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
	.lsm = true,
	.err = -EACCES, .msg = "R1 is of type bpf_attr but task_struct is expected\n",
};

/* -- helpers: ARG_CONST_SIZE (bpf_skb_load_bytes()'s len, into fp-8) */

FIXTURE_VARIANT_ADD(args, size_fits) {
	PROG(BPF_MOV64_IMM(BPF_REG_2, 0), BPF_MOV64_REG(BPF_REG_3, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_3, -8), BPF_MOV64_IMM(BPF_REG_4, 8),
	     CALL(skb_load_bytes), BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
};

/* len in [1, 8]: a variable size needs initialised memory */
FIXTURE_VARIANT_ADD(args, size_bounded) {
	PROG(ZERO_DW(-8), SKB(BPF_REG_4, BPF_REG_1, len), BPF_ALU64_IMM(BPF_AND, BPF_REG_4, 7),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_4, 1), BPF_MOV64_IMM(BPF_REG_2, 0),
	     BPF_MOV64_REG(BPF_REG_3, BPF_REG_10), BPF_ALU64_IMM(BPF_ADD, BPF_REG_3, -8),
	     CALL(skb_load_bytes), BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
};

FIXTURE_VARIANT_ADD(args, size_zero) {
	PROG(BPF_MOV64_IMM(BPF_REG_2, 0), BPF_MOV64_REG(BPF_REG_3, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_3, -8), BPF_MOV64_IMM(BPF_REG_4, 0),
	     CALL(skb_load_bytes), BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
	.err = -EACCES, .msg = "invalid zero-sized read\n",
};

FIXTURE_VARIANT_ADD(args, size_negative) {
	PROG(BPF_MOV64_IMM(BPF_REG_2, 0), BPF_MOV64_REG(BPF_REG_3, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_3, -8), BPF_MOV64_IMM(BPF_REG_4, -1),
	     CALL(skb_load_bytes), BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
	.err = -EACCES,
	.msg = "R4 min value is negative, either use unsigned or 'var &= const'\n",
};

/* skb->len | 1: at least 1, at most U32_MAX */
FIXTURE_VARIANT_ADD(args, size_unbounded) {
	PROG(SKB(BPF_REG_4, BPF_REG_1, len), BPF_ALU64_IMM(BPF_OR, BPF_REG_4, 1),
	     BPF_MOV64_IMM(BPF_REG_2, 0), BPF_MOV64_REG(BPF_REG_3, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_3, -8), CALL(skb_load_bytes),
	     BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
	.err = -EACCES,
	.msg = "R4 unbounded memory access, use 'var &= const' or 'if (var < const)'\n",
};

FIXTURE_VARIANT_ADD(args, size_past_buffer) {
	PROG(BPF_MOV64_IMM(BPF_REG_2, 0), BPF_MOV64_REG(BPF_REG_3, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_3, -8), BPF_MOV64_IMM(BPF_REG_4, 16),
	     CALL(skb_load_bytes), BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
	.err = -EINVAL, .msg = "invalid indirect access to stack R3 off=-8 size=16",
};

/* the helper writes its buffer (MEM_WRITE): not into a read-only map */
FIXTURE_VARIANT_ADD(args, size_write_rdonly_map) {
	PROG(BPF_MOV64_IMM(BPF_REG_2, 0), BPF_LD_MAP_VALUE(BPF_REG_3, M_RO, 0),
	     BPF_MOV64_IMM(BPF_REG_4, 4), CALL(skb_load_bytes), BPF_MOV64_IMM(BPF_REG_0, 0),
	     BPF_EXIT_INSN()),
	.err = -EACCES, .msg = "write into map forbidden, value_size=16 off=0 size=4\n",
};

/* -- helpers: ARG_CONST_SIZE_OR_ZERO (bpf_csum_diff(), bpf_probe_read_kernel()) */

/* a NULL buffer (PTR_MAYBE_NULL) of size 0 */
FIXTURE_VARIANT_ADD(args, size_or_zero_null) {
	PROG(BPF_MOV64_IMM(BPF_REG_1, 0), BPF_MOV64_IMM(BPF_REG_2, 0),
	     BPF_MOV64_IMM(BPF_REG_3, 0), BPF_MOV64_IMM(BPF_REG_4, 0),
	     BPF_MOV64_IMM(BPF_REG_5, 0), CALL(csum_diff), BPF_MOV64_IMM(BPF_REG_0, 0),
	     BPF_EXIT_INSN()),
};

FIXTURE_VARIANT_ADD(args, size_or_zero_null_of_size_4) {
	PROG(BPF_MOV64_IMM(BPF_REG_1, 0), BPF_MOV64_IMM(BPF_REG_2, 4),
	     BPF_MOV64_IMM(BPF_REG_3, 0), BPF_MOV64_IMM(BPF_REG_4, 0),
	     BPF_MOV64_IMM(BPF_REG_5, 0), CALL(csum_diff), BPF_MOV64_IMM(BPF_REG_0, 0),
	     BPF_EXIT_INSN()),
	.err = -EACCES, .msg = "R1 type=scalar expected=fp\n",
};

/* a read-only map is read (MEM_RDONLY) */
FIXTURE_VARIANT_ADD(args, size_or_zero_read_rdonly_map) {
	PROG(BPF_LD_MAP_VALUE(BPF_REG_1, M_RO, 0), BPF_MOV64_IMM(BPF_REG_2, 4),
	     BPF_MOV64_IMM(BPF_REG_3, 0), BPF_MOV64_IMM(BPF_REG_4, 0),
	     BPF_MOV64_IMM(BPF_REG_5, 0), CALL(csum_diff), BPF_MOV64_IMM(BPF_REG_0, 0),
	     BPF_EXIT_INSN()),
};

FIXTURE_VARIANT_ADD(args, size_or_zero_write_rdonly_map) {
	PROG(BPF_LD_MAP_VALUE(BPF_REG_1, M_RO, 0), BPF_MOV64_IMM(BPF_REG_2, 4),
	     BPF_MOV64_IMM(BPF_REG_3, 0), CALL(probe_read_kernel), BPF_MOV64_IMM(BPF_REG_0, 0),
	     BPF_EXIT_INSN()),
	.err = -EACCES, .msg = "write into map forbidden, value_size=16 off=0 size=4\n",
};

/* -- helpers: packet pointers, only to a helper with .pkt_access */

FIXTURE_VARIANT_ADD(args, packet_to_pkt_access_helper) {
	PROG(SKB(BPF_REG_2, BPF_REG_1, data), SKB(BPF_REG_3, BPF_REG_1, data_end),
	     BPF_MOV64_REG(BPF_REG_1, BPF_REG_2), BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, 8),
	     BPF_JMP_REG(BPF_JGT, BPF_REG_1, BPF_REG_3, 6), BPF_MOV64_REG(BPF_REG_1, BPF_REG_2),
	     BPF_MOV64_IMM(BPF_REG_2, 8), BPF_MOV64_IMM(BPF_REG_3, 0),
	     BPF_MOV64_IMM(BPF_REG_4, 0), BPF_MOV64_IMM(BPF_REG_5, 0), CALL(csum_diff),
	     BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
};

FIXTURE_VARIANT_ADD(args, packet_to_other_helper) {
	PROG(SKB(BPF_REG_2, BPF_REG_1, data), SKB(BPF_REG_3, BPF_REG_1, data_end),
	     BPF_MOV64_REG(BPF_REG_1, BPF_REG_2), BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, 8),
	     BPF_JMP_REG(BPF_JGT, BPF_REG_1, BPF_REG_3, 4), BPF_MOV64_REG(BPF_REG_1, BPF_REG_2),
	     BPF_MOV64_IMM(BPF_REG_2, 8), BPF_MOV64_IMM(BPF_REG_3, 0), CALL(probe_read_kernel),
	     BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
	.err = -EACCES, .msg = "helper access to the packet is not allowed\n",
};

/* -- helpers: ARG_PTR_TO_CTX, no offset (check_func_arg_reg_off()) */

FIXTURE_VARIANT_ADD(args, ctx_modified) {
	PROG(BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, 8), BPF_MOV64_IMM(BPF_REG_2, 0),
	     BPF_MOV64_REG(BPF_REG_3, BPF_REG_10), BPF_ALU64_IMM(BPF_ADD, BPF_REG_3, -8),
	     BPF_MOV64_IMM(BPF_REG_4, 8), CALL(skb_load_bytes), BPF_MOV64_IMM(BPF_REG_0, 0),
	     BPF_EXIT_INSN()),
	.err = -EACCES, .msg = "dereference of modified ctx ptr R1 off=8 disallowed\n",
};

FIXTURE_VARIANT_ADD(args, ctx_is_stack) {
	PROG(BPF_MOV64_REG(BPF_REG_1, BPF_REG_10), BPF_MOV64_IMM(BPF_REG_2, 0),
	     BPF_MOV64_REG(BPF_REG_3, BPF_REG_10), BPF_ALU64_IMM(BPF_ADD, BPF_REG_3, -8),
	     BPF_MOV64_IMM(BPF_REG_4, 8), CALL(skb_load_bytes), BPF_MOV64_IMM(BPF_REG_0, 0),
	     BPF_EXIT_INSN()),
	.err = -EACCES, .msg = "R1 type=fp expected=ctx\n",
};

/* -- helpers: a fixed-size aligned buffer (bpf_check_mtu()'s u32 *mtu_len) */

FIXTURE_VARIANT_ADD(args, fixed_size_aligned) {
	PROG(BPF_MOV64_IMM(BPF_REG_2, 0), BPF_MOV64_REG(BPF_REG_3, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_3, -8), BPF_MOV64_IMM(BPF_REG_4, 0),
	     BPF_MOV64_IMM(BPF_REG_5, 0), CALL(check_mtu), BPF_MOV64_IMM(BPF_REG_0, 0),
	     BPF_EXIT_INSN()),
};

FIXTURE_VARIANT_ADD(args, fixed_size_misaligned) {
	PROG(BPF_MOV64_IMM(BPF_REG_2, 0), BPF_MOV64_REG(BPF_REG_3, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_3, -6), BPF_MOV64_IMM(BPF_REG_4, 0),
	     BPF_MOV64_IMM(BPF_REG_5, 0), CALL(check_mtu), BPF_MOV64_IMM(BPF_REG_0, 0),
	     BPF_EXIT_INSN()),
	.err = -EACCES, .msg = "misaligned stack access off (0x0; 0x0)+-6+0 size 4\n",
};

FIXTURE_VARIANT_ADD(args, fixed_size_past_frame) {
	PROG(BPF_MOV64_IMM(BPF_REG_2, 0), BPF_MOV64_REG(BPF_REG_3, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_3, -2), BPF_MOV64_IMM(BPF_REG_4, 0),
	     BPF_MOV64_IMM(BPF_REG_5, 0), CALL(check_mtu), BPF_MOV64_IMM(BPF_REG_0, 0),
	     BPF_EXIT_INSN()),
	.err = -EINVAL, .msg = "invalid indirect access to stack R3 off=-2 size=4\n",
};

FIXTURE_VARIANT_ADD(args, fixed_size_write_rdonly_map) {
	PROG(BPF_MOV64_IMM(BPF_REG_2, 0), BPF_LD_MAP_VALUE(BPF_REG_3, M_RO, 0),
	     BPF_MOV64_IMM(BPF_REG_4, 0), BPF_MOV64_IMM(BPF_REG_5, 0), CALL(check_mtu),
	     BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
	.err = -EACCES, .msg = "write into map forbidden, value_size=16 off=0 size=4\n",
};

/* -- helpers: ring buffer records (ARG_CONST_ALLOC_SIZE_OR_ZERO, ARG_PTR_TO_ALLOC_MEM) */

FIXTURE_VARIANT_ADD(args, ringbuf_submit) {
	PROG(BPF_LD_MAP_FD(BPF_REG_1, M_RB), BPF_MOV64_IMM(BPF_REG_2, 8),
	     BPF_MOV64_IMM(BPF_REG_3, 0), CALL(ringbuf_reserve),
	     BPF_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 3), BPF_MOV64_REG(BPF_REG_1, BPF_REG_0),
	     BPF_MOV64_IMM(BPF_REG_2, 0), CALL(ringbuf_submit), BPF_MOV64_IMM(BPF_REG_0, 0),
	     BPF_EXIT_INSN()),
};

/* the release argument takes the record's start only */
FIXTURE_VARIANT_ADD(args, ringbuf_submit_at_offset) {
	PROG(BPF_LD_MAP_FD(BPF_REG_1, M_RB), BPF_MOV64_IMM(BPF_REG_2, 8),
	     BPF_MOV64_IMM(BPF_REG_3, 0), CALL(ringbuf_reserve),
	     BPF_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 4), BPF_MOV64_REG(BPF_REG_1, BPF_REG_0),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, 4), BPF_MOV64_IMM(BPF_REG_2, 0),
	     CALL(ringbuf_submit), BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
	.err = -EACCES, .msg = "dereference of modified alloc_mem ptr R1 off=4 disallowed\n",
};

/* other helpers take memory at an offset: the record's second half */
FIXTURE_VARIANT_ADD(args, ringbuf_record_at_offset_to_helper) {
	PROG(BPF_LD_MAP_FD(BPF_REG_1, M_RB), BPF_MOV64_IMM(BPF_REG_2, 8),
	     BPF_MOV64_IMM(BPF_REG_3, 0), CALL(ringbuf_reserve),
	     BPF_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 11), BPF_MOV64_REG(BPF_REG_6, BPF_REG_0),
	     BPF_MOV64_REG(BPF_REG_1, BPF_REG_0), BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, 4),
	     BPF_MOV64_IMM(BPF_REG_2, 4), BPF_MOV64_IMM(BPF_REG_3, 0),
	     BPF_MOV64_IMM(BPF_REG_4, 0), BPF_MOV64_IMM(BPF_REG_5, 0), CALL(csum_diff),
	     BPF_MOV64_REG(BPF_REG_1, BPF_REG_6), BPF_MOV64_IMM(BPF_REG_2, 0),
	     CALL(ringbuf_submit), BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
};

FIXTURE_VARIANT_ADD(args, ringbuf_reserve_variable_size) {
	PROG(BPF_MOV64_REG(BPF_REG_6, BPF_REG_1), BPF_LD_MAP_FD(BPF_REG_1, M_RB),
	     SKB(BPF_REG_2, BPF_REG_6, len), BPF_MOV64_IMM(BPF_REG_3, 0), CALL(ringbuf_reserve),
	     BPF_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 3), BPF_MOV64_REG(BPF_REG_1, BPF_REG_0),
	     BPF_MOV64_IMM(BPF_REG_2, 0), CALL(ringbuf_submit), BPF_MOV64_IMM(BPF_REG_0, 0),
	     BPF_EXIT_INSN()),
	.err = -EACCES, .msg = "R2 is not a known constant'\n",
};

/* -- helpers: socket references (OBJ_RELEASE) */

FIXTURE_VARIANT_ADD(args, sk_lookup_and_release) {
	PROG(ZERO_DW(-16), ZERO_DW(-8), BPF_MOV64_REG(BPF_REG_2, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_2, -16), BPF_MOV64_IMM(BPF_REG_3, 12),
	     BPF_MOV64_IMM(BPF_REG_4, -1), BPF_MOV64_IMM(BPF_REG_5, 0), CALL(sk_lookup_tcp),
	     BPF_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 2), BPF_MOV64_REG(BPF_REG_1, BPF_REG_0),
	     CALL(sk_release), BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
};

/* skb->sk is no reference of the program's */
FIXTURE_VARIANT_ADD(args, sk_release_unreferenced) {
	PROG(BPF_LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_1, offsetof(struct __sk_buff, sk)),
	     BPF_JMP_IMM(BPF_JEQ, BPF_REG_1, 0, 1), CALL(sk_release),
	     BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
	.err = -EINVAL, .msg = "R1 must be referenced when passed to release function\n",
};

/* -- helpers: dynptrs (ARG_PTR_TO_DYNPTR), at fp-24 */

FIXTURE_VARIANT_ADD(args, dynptr_local) {
	PROG(ZERO_DW(-8), BPF_LD_MAP_VALUE(BPF_REG_1, M_RW, 0), BPF_MOV64_IMM(BPF_REG_2, 8),
	     BPF_MOV64_IMM(BPF_REG_3, 0), BPF_MOV64_REG(BPF_REG_4, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_4, -24), CALL(dynptr_from_mem),
	     BPF_MOV64_REG(BPF_REG_1, BPF_REG_10), BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, -8),
	     BPF_MOV64_IMM(BPF_REG_2, 8), BPF_MOV64_REG(BPF_REG_3, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_3, -24), BPF_MOV64_IMM(BPF_REG_4, 0),
	     BPF_MOV64_IMM(BPF_REG_5, 0), CALL(dynptr_read), BPF_MOV64_IMM(BPF_REG_0, 0),
	     BPF_EXIT_INSN()),
};

FIXTURE_VARIANT_ADD(args, dynptr_initialized_twice) {
	PROG(ZERO_DW(-8), BPF_LD_MAP_VALUE(BPF_REG_1, M_RW, 0), BPF_MOV64_IMM(BPF_REG_2, 8),
	     BPF_MOV64_IMM(BPF_REG_3, 0), BPF_MOV64_REG(BPF_REG_4, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_4, -24), CALL(dynptr_from_mem),
	     BPF_LD_MAP_VALUE(BPF_REG_1, M_RW, 0), BPF_MOV64_IMM(BPF_REG_2, 8),
	     BPF_MOV64_IMM(BPF_REG_3, 0), BPF_MOV64_REG(BPF_REG_4, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_4, -24), CALL(dynptr_from_mem),
	     BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
	.err = -EINVAL, .msg = "Dynptr has to be an uninitialized dynptr\n",
};

FIXTURE_VARIANT_ADD(args, dynptr_read_uninit) {
	PROG(ZERO_DW(-8), BPF_MOV64_REG(BPF_REG_1, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, -8), BPF_MOV64_IMM(BPF_REG_2, 8),
	     BPF_MOV64_REG(BPF_REG_3, BPF_REG_10), BPF_ALU64_IMM(BPF_ADD, BPF_REG_3, -24),
	     BPF_MOV64_IMM(BPF_REG_4, 0), BPF_MOV64_IMM(BPF_REG_5, 0), CALL(dynptr_read),
	     BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
	.err = -EINVAL, .msg = "Expected an initialized dynptr as arg #3\n",
};

FIXTURE_VARIANT_ADD(args, dynptr_misaligned) {
	PROG(ZERO_DW(-8), BPF_LD_MAP_VALUE(BPF_REG_1, M_RW, 0), BPF_MOV64_IMM(BPF_REG_2, 8),
	     BPF_MOV64_IMM(BPF_REG_3, 0), BPF_MOV64_REG(BPF_REG_4, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_4, -20), CALL(dynptr_from_mem),
	     BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
	.err = -EINVAL, .msg = "cannot pass in dynptr at an offset\n",
};

/* a local dynptr is no ring buffer record: there is nothing to submit */
FIXTURE_VARIANT_ADD(args, dynptr_submit_local) {
	PROG(ZERO_DW(-8), BPF_LD_MAP_VALUE(BPF_REG_1, M_RW, 0), BPF_MOV64_IMM(BPF_REG_2, 8),
	     BPF_MOV64_IMM(BPF_REG_3, 0), BPF_MOV64_REG(BPF_REG_4, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_4, -24), CALL(dynptr_from_mem),
	     BPF_MOV64_REG(BPF_REG_1, BPF_REG_10), BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, -24),
	     BPF_MOV64_IMM(BPF_REG_2, 0), CALL(ringbuf_submit_dynptr),
	     BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
	.err = -EINVAL, .msg = "arg 1 is an unacquired reference\n",
};

FIXTURE_VARIANT_ADD(args, dynptr_ringbuf) {
	PROG(BPF_LD_MAP_FD(BPF_REG_1, M_RB), BPF_MOV64_IMM(BPF_REG_2, 8),
	     BPF_MOV64_IMM(BPF_REG_3, 0), BPF_MOV64_REG(BPF_REG_4, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_4, -16), CALL(ringbuf_reserve_dynptr),
	     BPF_MOV64_REG(BPF_REG_1, BPF_REG_10), BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, -16),
	     BPF_MOV64_IMM(BPF_REG_2, 0), CALL(ringbuf_submit_dynptr),
	     BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
};

/* -- helpers: ARG_PTR_TO_CONST_STR (bpf_strncmp()'s s2) */

FIXTURE_VARIANT_ADD(args, const_str) {
	PROG(ZERO_DW(-8), BPF_MOV64_REG(BPF_REG_1, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, -8), BPF_MOV64_IMM(BPF_REG_2, 8),
	     BPF_LD_MAP_VALUE(BPF_REG_3, M_RO, 0), CALL(strncmp), BPF_MOV64_IMM(BPF_REG_0, 0),
	     BPF_EXIT_INSN()),
};

FIXTURE_VARIANT_ADD(args, const_str_writable_map) {
	PROG(ZERO_DW(-8), BPF_MOV64_REG(BPF_REG_1, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, -8), BPF_MOV64_IMM(BPF_REG_2, 8),
	     BPF_LD_MAP_VALUE(BPF_REG_3, M_RW, 0), CALL(strncmp), BPF_MOV64_IMM(BPF_REG_0, 0),
	     BPF_EXIT_INSN()),
	.err = -EACCES, .msg = "R3 does not point to a readonly map'\n",
};

FIXTURE_VARIANT_ADD(args, const_str_variable_offset) {
	PROG(BPF_MOV64_REG(BPF_REG_6, BPF_REG_1), ZERO_DW(-8),
	     BPF_MOV64_REG(BPF_REG_1, BPF_REG_10), BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, -8),
	     BPF_MOV64_IMM(BPF_REG_2, 8), BPF_LD_MAP_VALUE(BPF_REG_3, M_RO, 0),
	     SKB(BPF_REG_0, BPF_REG_6, len), BPF_ALU64_IMM(BPF_AND, BPF_REG_0, 1),
	     BPF_ALU64_REG(BPF_ADD, BPF_REG_3, BPF_REG_0), CALL(strncmp),
	     BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
	.err = -EACCES, .msg = "R3 is not a constant address'\n",
};

FIXTURE_VARIANT_ADD(args, const_str_unterminated) {
	PROG(ZERO_DW(-8), BPF_MOV64_REG(BPF_REG_1, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, -8), BPF_MOV64_IMM(BPF_REG_2, 8),
	     BPF_LD_MAP_VALUE(BPF_REG_3, M_RO_NOTERM, 0), CALL(strncmp),
	     BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
	.err = -EINVAL, .msg = "string is not zero-terminated\n",
};

/* a read-only hash map's value: hash maps have no map_direct_value_addr */
FIXTURE_VARIANT_ADD(args, const_str_hash_map) {
	PROG(ZERO_DW(-8), BPF_MOV64_REG(BPF_REG_2, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_2, -8), BPF_LD_MAP_FD(BPF_REG_1, M_RO_HASH),
	     CALL(map_lookup_elem), BPF_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 5),
	     BPF_MOV64_REG(BPF_REG_3, BPF_REG_0), BPF_MOV64_REG(BPF_REG_1, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, -8), BPF_MOV64_IMM(BPF_REG_2, 8), CALL(strncmp),
	     BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
	.err = -EACCES, .msg = "no direct value access support for this map type\n",
};

/* the terminating NUL must be inside the value */
FIXTURE_VARIANT_ADD(args, const_str_past_value) {
	PROG(ZERO_DW(-8), BPF_MOV64_REG(BPF_REG_1, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, -8), BPF_MOV64_IMM(BPF_REG_2, 8),
	     BPF_LD_MAP_VALUE(BPF_REG_3, M_RO, 0), BPF_ALU64_IMM(BPF_ADD, BPF_REG_3, 16),
	     CALL(strncmp), BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
	.err = -EACCES,
	.msg = "invalid access to map value, value_size=16 off=16 size=0\n"
	       "R3 min value is outside of the allowed memory range\n",
};

/*
 * -- helpers: ARG_PTR_TO_PERCPU_BTF_ID (bpf_this_cpu_ptr(&runqueues)). A
 * per-CPU variable (BPF_PSEUDO_BTF_ID) has its address from kallsyms,
 * which holds variables with CONFIG_KALLSYMS_ALL (this target's config;
 * Debian's has it too).
 */

FIXTURE_VARIANT_ADD(args, percpu_var) {
	PROG(BPF_LD_IMM64_RAW(BPF_REG_1, BPF_PSEUDO_BTF_ID, 0), CALL(this_cpu_ptr),
	     BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
	.ksym = "runqueues",
};

FIXTURE_VARIANT_ADD(args, percpu_var_is_stack) {
	PROG(BPF_MOV64_REG(BPF_REG_1, BPF_REG_10), CALL(this_cpu_ptr),
	     BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
	.err = -EACCES, .msg = "R1 type=fp expected=percpu_ptr_\n",
};

/* -- helpers: ARG_PTR_TO_MAP_VALUE_OR_NULL (bpf_sk_storage_get()'s value) */

FIXTURE_VARIANT_ADD(args, map_value_null) {
	PROG(BPF_LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_1, offsetof(struct __sk_buff, sk)),
	     BPF_JMP_IMM(BPF_JEQ, BPF_REG_1, 0, 6), BPF_MOV64_REG(BPF_REG_2, BPF_REG_1),
	     BPF_LD_MAP_FD(BPF_REG_1, M_SK), BPF_MOV64_IMM(BPF_REG_3, 0),
	     BPF_MOV64_IMM(BPF_REG_4, 0), CALL(sk_storage_get), BPF_MOV64_IMM(BPF_REG_0, 0),
	     BPF_EXIT_INSN()),
};

/*
 * -- helpers: ARG_PTR_TO_FUNC (bpf_loop()'s callback; a raw program's callback
 * needs BTF func_info in 6.1: c_args.sample_read takes one)
 */

FIXTURE_VARIANT_ADD(args, loop_callback_is_stack) {
	PROG(BPF_MOV64_IMM(BPF_REG_1, 1), BPF_MOV64_REG(BPF_REG_2, BPF_REG_10),
	     BPF_MOV64_IMM(BPF_REG_3, 0), BPF_MOV64_IMM(BPF_REG_4, 0), CALL(loop),
	     BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
	.err = -EACCES, .msg = "R2 type=fp expected=func\n",
};

/* -- kfuncs: references (KF_ACQUIRE, KF_RELEASE, KF_TRUSTED_ARGS) */

FIXTURE_VARIANT_ADD(args, kfunc_acquire_release) {
	PROG(ZERO_DW(-8), BPF_MOV64_REG(BPF_REG_1, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, -8), KCALL(0),
	     BPF_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 3), BPF_MOV64_REG(BPF_REG_6, BPF_REG_0),
	     BPF_MOV64_REG(BPF_REG_1, BPF_REG_6), KCALL(1), BPF_MOV64_IMM(BPF_REG_0, 0),
	     BPF_EXIT_INSN()),
	.kfuncs = { ACQ, REL },
};

/* prog_test_ref_kfunc.memb, 8 bytes in: a release takes the start only */
FIXTURE_VARIANT_ADD(args, kfunc_release_at_offset) {
	PROG(ZERO_DW(-8), BPF_MOV64_REG(BPF_REG_1, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, -8), KCALL(0),
	     BPF_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 4), BPF_MOV64_REG(BPF_REG_6, BPF_REG_0),
	     BPF_MOV64_REG(BPF_REG_1, BPF_REG_6), BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, 8),
	     KCALL(1), BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
	.kfuncs = { ACQ, REL },
	.err = -EINVAL, .msg = "R1 must have zero offset when passed to release func\n",
};

FIXTURE_VARIANT_ADD(args, kfunc_member_release_at_offset) {
	PROG(ZERO_DW(-8), BPF_MOV64_REG(BPF_REG_1, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, -8), KCALL(0),
	     BPF_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 4), BPF_MOV64_REG(BPF_REG_6, BPF_REG_0),
	     BPF_MOV64_REG(BPF_REG_1, BPF_REG_6), BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, 8),
	     KCALL(1), BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
	.kfuncs = { ACQ, "bpf_kfunc_call_memb_release" },
	.err = -EINVAL, .msg = "R1 must have zero offset when passed to release func\n",
};

/* prog_test_ref_kfunc.next, read from the reference: not one itself */
FIXTURE_VARIANT_ADD(args, kfunc_release_unreferenced) {
	PROG(ZERO_DW(-8), BPF_MOV64_REG(BPF_REG_1, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, -8), KCALL(0),
	     BPF_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 3), BPF_MOV64_REG(BPF_REG_6, BPF_REG_0),
	     BPF_LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_6, 16), KCALL(1),
	     BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
	.kfuncs = { ACQ, REL },
	.err = -EINVAL,
	.msg =
	"release kernel function bpf_kfunc_call_test_release expects refcounted PTR_TO_BTF_ID\n",
};

FIXTURE_VARIANT_ADD(args, kfunc_release_wrong_struct) {
	PROG(KCALL(0), BPF_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 2),
	     BPF_MOV64_REG(BPF_REG_1, BPF_REG_0), KCALL(1), BPF_MOV64_IMM(BPF_REG_0, 0),
	     BPF_EXIT_INSN()),
	.kfuncs = { "bpf_kfunc_call_memb_acquire", REL },
	.err = -EINVAL,
	.msg =
	"kernel function bpf_kfunc_call_test_release args#0 expected pointer to STRUCT prog_test_ref_kfunc but R1 has a pointer to STRUCT prog_test_member\n",
};

/* a release kfunc takes its own struct, not one that begins with it */
FIXTURE_VARIANT_ADD(args, kfunc_release_of_the_first_member) {
	PROG(KCALL(0), BPF_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 2),
	     BPF_MOV64_REG(BPF_REG_1, BPF_REG_0), KCALL(1), BPF_MOV64_IMM(BPF_REG_0, 0),
	     BPF_EXIT_INSN()),
	.kfuncs = { "bpf_kfunc_call_memb_acquire", "bpf_kfunc_call_memb1_release" },
	.err = -EINVAL,
	.msg =
	"kernel function bpf_kfunc_call_memb1_release args#0 expected pointer to STRUCT prog_test_member1 but R1 has a pointer to STRUCT prog_test_member\n",
};

FIXTURE_VARIANT_ADD(args, kfunc_trusted_arg) {
	PROG(ZERO_DW(-8), BPF_MOV64_REG(BPF_REG_1, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, -8), KCALL(0),
	     BPF_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 5), BPF_MOV64_REG(BPF_REG_6, BPF_REG_0),
	     BPF_MOV64_REG(BPF_REG_1, BPF_REG_6), KCALL(1), BPF_MOV64_REG(BPF_REG_1, BPF_REG_6),
	     KCALL(2), BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
	.kfuncs = { ACQ, "bpf_kfunc_call_test_ref", REL },
};

FIXTURE_VARIANT_ADD(args, kfunc_trusted_arg_unreferenced) {
	PROG(ZERO_DW(-8), BPF_MOV64_REG(BPF_REG_1, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, -8), KCALL(0),
	     BPF_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 3), BPF_MOV64_REG(BPF_REG_6, BPF_REG_0),
	     BPF_LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_6, 16), KCALL(1),
	     BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
	.kfuncs = { ACQ, "bpf_kfunc_call_test_ref" },
	.err = -EINVAL, .msg = "R1 must be referenced\n",
};

/* KF_TRUSTED_ARGS: the offset rule of a release argument */
FIXTURE_VARIANT_ADD(args, kfunc_trusted_arg_at_offset) {
	PROG(ZERO_DW(-8), BPF_MOV64_REG(BPF_REG_1, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, -8), KCALL(0),
	     BPF_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 4), BPF_MOV64_REG(BPF_REG_6, BPF_REG_0),
	     BPF_MOV64_REG(BPF_REG_1, BPF_REG_6), BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, 8),
	     KCALL(1), BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
	.kfuncs = { ACQ, "bpf_kfunc_call_test_ref" },
	.err = -EINVAL, .msg = "R1 must have zero offset when passed to release func\n",
};

/* -- kfuncs: a socket (reg2btf_ids) for a struct sock * */

FIXTURE_VARIANT_ADD(args, kfunc_socket) {
	PROG(ZERO_DW(-16), ZERO_DW(-8), BPF_MOV64_REG(BPF_REG_2, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_2, -16), BPF_MOV64_IMM(BPF_REG_3, 12),
	     BPF_MOV64_IMM(BPF_REG_4, -1), BPF_MOV64_IMM(BPF_REG_5, 0), CALL(sk_lookup_tcp),
	     BPF_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 9), BPF_MOV64_REG(BPF_REG_6, BPF_REG_0),
	     BPF_MOV64_REG(BPF_REG_1, BPF_REG_6), BPF_MOV64_IMM(BPF_REG_2, 1),
	     BPF_MOV64_IMM(BPF_REG_3, 2), BPF_MOV64_IMM(BPF_REG_4, 3),
	     BPF_MOV64_IMM(BPF_REG_5, 4), KCALL(0), BPF_MOV64_REG(BPF_REG_1, BPF_REG_6),
	     CALL(sk_release), BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
	.kfuncs = { "bpf_kfunc_call_test1" },
};

FIXTURE_VARIANT_ADD(args, kfunc_sock_common) {
	PROG(BPF_LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_1, offsetof(struct __sk_buff, sk)),
	     BPF_JMP_IMM(BPF_JEQ, BPF_REG_1, 0, 5), BPF_MOV64_IMM(BPF_REG_2, 1),
	     BPF_MOV64_IMM(BPF_REG_3, 2), BPF_MOV64_IMM(BPF_REG_4, 3),
	     BPF_MOV64_IMM(BPF_REG_5, 4), KCALL(0), BPF_MOV64_IMM(BPF_REG_0, 0),
	     BPF_EXIT_INSN()),
	.kfuncs = { "bpf_kfunc_call_test1" },
	.err = -EINVAL,
	.msg =
	"kernel function bpf_kfunc_call_test1 args#0 expected pointer to STRUCT sock but R1 has a pointer to STRUCT sock_common\n",
};

/* -- kfuncs: scalars, rdwr_buf_size (bpf_kfunc_call_test_get_rdwr_mem()) */

FIXTURE_VARIANT_ADD(args, kfunc_buf_size) {
	PROG(ZERO_DW(-8), BPF_MOV64_REG(BPF_REG_1, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, -8), KCALL(0),
	     BPF_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 6), BPF_MOV64_REG(BPF_REG_6, BPF_REG_0),
	     BPF_MOV64_REG(BPF_REG_1, BPF_REG_6), BPF_MOV64_IMM(BPF_REG_2, 8), KCALL(1),
	     BPF_MOV64_REG(BPF_REG_1, BPF_REG_6), KCALL(2), BPF_MOV64_IMM(BPF_REG_0, 0),
	     BPF_EXIT_INSN()),
	.kfuncs = { ACQ, "bpf_kfunc_call_test_get_rdwr_mem", REL },
};

/* the memory is the object's: gone with its reference */
FIXTURE_VARIANT_ADD(args, kfunc_buf_after_release) {
	PROG(ZERO_DW(-8), BPF_MOV64_REG(BPF_REG_1, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, -8), KCALL(0),
	     BPF_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 9), BPF_MOV64_REG(BPF_REG_6, BPF_REG_0),
	     BPF_MOV64_REG(BPF_REG_1, BPF_REG_6), BPF_MOV64_IMM(BPF_REG_2, 8), KCALL(1),
	     BPF_MOV64_REG(BPF_REG_7, BPF_REG_0), BPF_MOV64_REG(BPF_REG_1, BPF_REG_6), KCALL(2),
	     BPF_JMP_IMM(BPF_JEQ, BPF_REG_7, 0, 1), BPF_LDX_MEM(BPF_W, BPF_REG_0, BPF_REG_7, 0),
	     BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
	.kfuncs = { ACQ, "bpf_kfunc_call_test_get_rdwr_mem", REL },
	.err = -EACCES, .msg = "R7 invalid mem access 'scalar'\n",
};

FIXTURE_VARIANT_ADD(args, kfunc_scalar_is_pointer) {
	PROG(ZERO_DW(-8), BPF_MOV64_REG(BPF_REG_1, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, -8), KCALL(0),
	     BPF_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 4), BPF_MOV64_REG(BPF_REG_6, BPF_REG_0),
	     BPF_MOV64_REG(BPF_REG_1, BPF_REG_6), BPF_MOV64_REG(BPF_REG_2, BPF_REG_10),
	     KCALL(1), BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
	.kfuncs = { ACQ, "bpf_kfunc_call_test_get_rdwr_mem" },
	.err = -EINVAL, .msg = "R2 is not a scalar\n",
};

FIXTURE_VARIANT_ADD(args, kfunc_buf_size_variable) {
	PROG(BPF_MOV64_REG(BPF_REG_7, BPF_REG_1), ZERO_DW(-8),
	     BPF_MOV64_REG(BPF_REG_1, BPF_REG_10), BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, -8),
	     KCALL(0), BPF_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 4),
	     BPF_MOV64_REG(BPF_REG_6, BPF_REG_0), BPF_MOV64_REG(BPF_REG_1, BPF_REG_6),
	     SKB(BPF_REG_2, BPF_REG_7, len), KCALL(1), BPF_MOV64_IMM(BPF_REG_0, 0),
	     BPF_EXIT_INSN()),
	.kfuncs = { ACQ, "bpf_kfunc_call_test_get_rdwr_mem" },
	.err = -EINVAL, .msg = "R2 is not a const\n",
};

FIXTURE_VARIANT_ADD(args, kfunc_buf_size_over_u32) {
	PROG(ZERO_DW(-8), BPF_MOV64_REG(BPF_REG_1, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, -8), KCALL(0),
	     BPF_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 5), BPF_MOV64_REG(BPF_REG_6, BPF_REG_0),
	     BPF_MOV64_REG(BPF_REG_1, BPF_REG_6), BPF_LD_IMM64(BPF_REG_2, 1ULL << 32), KCALL(1),
	     BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
	.kfuncs = { ACQ, "bpf_kfunc_call_test_get_rdwr_mem" },
	.err = -EINVAL, .msg = "R2 rdonly/rdwr_buf_size exceeds u32 max\n",
};

/* U32_MAX itself is a size */
FIXTURE_VARIANT_ADD(args, kfunc_buf_size_u32_max) {
	PROG(ZERO_DW(-8), BPF_MOV64_REG(BPF_REG_1, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, -8), KCALL(0),
	     BPF_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 7), BPF_MOV64_REG(BPF_REG_6, BPF_REG_0),
	     BPF_MOV64_REG(BPF_REG_1, BPF_REG_6), BPF_LD_IMM64(BPF_REG_2, 0xffffffffULL),
	     KCALL(1), BPF_MOV64_REG(BPF_REG_1, BPF_REG_6), KCALL(2),
	     BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
	.kfuncs = { ACQ, "bpf_kfunc_call_test_get_rdwr_mem", REL },
};

/* read-only memory (rdonly_buf_size) at an offset, to a helper that reads */
FIXTURE_VARIANT_ADD(args, kfunc_rdonly_mem_at_offset_to_helper) {
	PROG(ZERO_DW(-8), BPF_MOV64_REG(BPF_REG_1, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, -8), KCALL(0),
	     BPF_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 14), BPF_MOV64_REG(BPF_REG_6, BPF_REG_0),
	     BPF_MOV64_REG(BPF_REG_1, BPF_REG_6), BPF_MOV64_IMM(BPF_REG_2, 8), KCALL(1),
	     BPF_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 7), BPF_MOV64_REG(BPF_REG_1, BPF_REG_0),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, 4), BPF_MOV64_IMM(BPF_REG_2, 4),
	     BPF_MOV64_IMM(BPF_REG_3, 0), BPF_MOV64_IMM(BPF_REG_4, 0),
	     BPF_MOV64_IMM(BPF_REG_5, 0), CALL(csum_diff), BPF_MOV64_REG(BPF_REG_1, BPF_REG_6),
	     KCALL(2), BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
	.kfuncs = { ACQ, "bpf_kfunc_call_test_get_rdonly_mem", REL },
};

/* a kernel object where the kfunc wants memory (void *mem, int mem__sz) */
FIXTURE_VARIANT_ADD(args, kfunc_object_for_mem) {
	PROG(ZERO_DW(-8), BPF_MOV64_REG(BPF_REG_1, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, -8), KCALL(0),
	     BPF_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 4), BPF_MOV64_REG(BPF_REG_6, BPF_REG_0),
	     BPF_MOV64_REG(BPF_REG_1, BPF_REG_6), BPF_MOV64_IMM(BPF_REG_2, 8), KCALL(1),
	     BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
	.kfuncs = { ACQ, "bpf_kfunc_call_test_mem_len_pass1" },
	.err = -EINVAL,
	.msg =
	"kernel function bpf_kfunc_call_test_mem_len_pass1 args#0 pointer type UNKNOWN  is not supported\n",
};

/* -- kfuncs: memory and its size (a scalar argument named *__sz) */

FIXTURE_VARIANT_ADD(args, kfunc_mem_size) {
	PROG(ZERO_DW(-8), BPF_MOV64_REG(BPF_REG_1, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, -8), BPF_MOV64_IMM(BPF_REG_2, 8), KCALL(0),
	     BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
	.kfuncs = { "bpf_kfunc_call_test_mem_len_pass1" },
};

FIXTURE_VARIANT_ADD(args, kfunc_mem_size_null_zero) {
	PROG(BPF_MOV64_IMM(BPF_REG_1, 0), BPF_MOV64_IMM(BPF_REG_2, 0), KCALL(0),
	     BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
	.kfuncs = { "bpf_kfunc_call_test_mem_len_pass1" },
};

FIXTURE_VARIANT_ADD(args, kfunc_mem_size_past_buffer) {
	PROG(ZERO_DW(-8), BPF_MOV64_REG(BPF_REG_1, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, -8), BPF_MOV64_IMM(BPF_REG_2, 16), KCALL(0),
	     BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
	.kfuncs = { "bpf_kfunc_call_test_mem_len_pass1" },
	.err = -EINVAL, .msg = "arg#0 arg#1 memory, len pair leads to invalid memory access\n",
};

FIXTURE_VARIANT_ADD(args, kfunc_mem_size_negative) {
	PROG(ZERO_DW(-8), BPF_MOV64_REG(BPF_REG_1, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, -8), BPF_MOV64_IMM(BPF_REG_2, -1), KCALL(0),
	     BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
	.kfuncs = { "bpf_kfunc_call_test_mem_len_pass1" },
	.err = -EINVAL, .msg = "arg#0 arg#1 memory, len pair leads to invalid memory access\n",
};

/* void *mem, int len: no __sz, so no size for the void */
FIXTURE_VARIANT_ADD(args, kfunc_mem_without_sz) {
	PROG(ZERO_DW(-8), BPF_MOV64_REG(BPF_REG_1, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, -8), BPF_MOV64_IMM(BPF_REG_2, 8), KCALL(0),
	     BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
	.kfuncs = { "bpf_kfunc_call_test_mem_len_fail1" },
	.err = -EINVAL,
	.msg = "arg#0 pointer type UNKNOWN  must point to scalar, or struct with scalar\n",
};

/* u64 *mem: the size of a u64 */
FIXTURE_VARIANT_ADD(args, kfunc_scalar_pointer) {
	PROG(ZERO_DW(-8), BPF_MOV64_REG(BPF_REG_1, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, -8), BPF_MOV64_IMM(BPF_REG_2, 8), KCALL(0),
	     BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
	.kfuncs = { "bpf_kfunc_call_test_mem_len_fail2" },
};

FIXTURE_VARIANT_ADD(args, kfunc_scalar_pointer_past_frame) {
	PROG(BPF_ST_MEM(BPF_W, BPF_REG_10, -4, 0), BPF_MOV64_REG(BPF_REG_1, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, -4), BPF_MOV64_IMM(BPF_REG_2, 8), KCALL(0),
	     BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
	.kfuncs = { "bpf_kfunc_call_test_mem_len_fail2" },
	.err = -EINVAL, .msg = "invalid indirect access to stack R1 off=-4 size=8\n",
};

/* struct prog_test_pass1: nested structs of ints, 16 bytes */
FIXTURE_VARIANT_ADD(args, kfunc_struct_of_scalars) {
	PROG(ZERO_DW(-16), ZERO_DW(-8), BPF_MOV64_REG(BPF_REG_1, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, -16), KCALL(0), BPF_MOV64_IMM(BPF_REG_0, 0),
	     BPF_EXIT_INSN()),
	.kfuncs = { "bpf_kfunc_call_test_pass1" },
};

FIXTURE_VARIANT_ADD(args, kfunc_struct_of_scalars_too_small) {
	PROG(ZERO_DW(-8), BPF_MOV64_REG(BPF_REG_1, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, -8), KCALL(0), BPF_MOV64_IMM(BPF_REG_0, 0),
	     BPF_EXIT_INSN()),
	.kfuncs = { "bpf_kfunc_call_test_pass1" },
	.err = -EINVAL, .msg = "invalid indirect access to stack R1 off=-8 size=16\n",
};

/* struct prog_test_fail1 holds a pointer */
FIXTURE_VARIANT_ADD(args, kfunc_struct_with_pointer) {
	PROG(ZERO_DW(-16), ZERO_DW(-8), BPF_MOV64_REG(BPF_REG_1, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, -16), KCALL(0), BPF_MOV64_IMM(BPF_REG_0, 0),
	     BPF_EXIT_INSN()),
	.kfuncs = { "bpf_kfunc_call_test_fail1" },
	.err = -EINVAL,
	.msg =
	"arg#0 pointer type STRUCT prog_test_fail1 must point to scalar, or struct with scalar\n",
};

/* -- kfuncs: the program's context (struct __sk_buff *) */

FIXTURE_VARIANT_ADD(args, kfunc_ctx) {
	PROG(KCALL(0), BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
	.kfuncs = { "bpf_kfunc_call_test_pass_ctx" },
};

FIXTURE_VARIANT_ADD(args, kfunc_ctx_is_stack) {
	PROG(ZERO_DW(-8), BPF_MOV64_REG(BPF_REG_1, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, -8), KCALL(0), BPF_MOV64_IMM(BPF_REG_0, 0),
	     BPF_EXIT_INSN()),
	.kfuncs = { "bpf_kfunc_call_test_pass_ctx" },
	.err = -EINVAL, .msg = "arg#0 expected pointer to ctx, but got PTR\n",
};

FIXTURE_VARIANT_ADD(args, kfunc_ctx_modified) {
	PROG(BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, 8), KCALL(0), BPF_MOV64_IMM(BPF_REG_0, 0),
	     BPF_EXIT_INSN()),
	.kfuncs = { "bpf_kfunc_call_test_pass_ctx" },
	.err = -EACCES, .msg = "dereference of modified ctx ptr R1 off=8 disallowed\n",
};

/*
 * -- kfuncs: dynptrs (bpf_verify_pkcs7_signature(&data, &sig, key), the
 * builtin keyring's key): 6.1 takes initialised local dynptrs on the stack.
 * Data at fp-24, signature at fp-40, both over M_RW's first 8 bytes;
 * then key = bpf_lookup_system_key(0) (NULL jumps to "return 0"),
 * bpf_verify_pkcs7_signature(&data, &sig, key), bpf_key_put(key).
 */
#define KEY_KFUNCS	{ "bpf_lookup_system_key", "bpf_verify_pkcs7_signature", \
			  "bpf_key_put" }

FIXTURE_VARIANT_ADD(args, kfunc_dynptrs) {
	PROG(ZERO_DW(-8), BPF_LD_MAP_VALUE(BPF_REG_1, M_RW, 0), BPF_MOV64_IMM(BPF_REG_2, 8),
	     BPF_MOV64_IMM(BPF_REG_3, 0), BPF_MOV64_REG(BPF_REG_4, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_4, -24), CALL(dynptr_from_mem),
	     BPF_LD_MAP_VALUE(BPF_REG_1, M_RW, 0), BPF_MOV64_IMM(BPF_REG_2, 8),
	     BPF_MOV64_IMM(BPF_REG_3, 0), BPF_MOV64_REG(BPF_REG_4, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_4, -40), CALL(dynptr_from_mem),
	     BPF_MOV64_IMM(BPF_REG_1, 0), KCALL(0), BPF_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 9),
	     BPF_MOV64_REG(BPF_REG_6, BPF_REG_0), BPF_MOV64_REG(BPF_REG_1, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, -24), BPF_MOV64_REG(BPF_REG_2, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_2, -40), BPF_MOV64_REG(BPF_REG_3, BPF_REG_6),
	     KCALL(1), BPF_MOV64_REG(BPF_REG_1, BPF_REG_6), KCALL(2),
	     BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
	.lsm = true, .kfuncs = KEY_KFUNCS,
};

FIXTURE_VARIANT_ADD(args, kfunc_dynptr_uninit) {
	PROG(ZERO_DW(-8), BPF_LD_MAP_VALUE(BPF_REG_1, M_RW, 0), BPF_MOV64_IMM(BPF_REG_2, 8),
	     BPF_MOV64_IMM(BPF_REG_3, 0), BPF_MOV64_REG(BPF_REG_4, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_4, -40), CALL(dynptr_from_mem),
	     BPF_MOV64_IMM(BPF_REG_1, 0), KCALL(0), BPF_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 9),
	     BPF_MOV64_REG(BPF_REG_6, BPF_REG_0), BPF_MOV64_REG(BPF_REG_1, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, -24), BPF_MOV64_REG(BPF_REG_2, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_2, -40), BPF_MOV64_REG(BPF_REG_3, BPF_REG_6),
	     KCALL(1), BPF_MOV64_REG(BPF_REG_1, BPF_REG_6), KCALL(2),
	     BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
	.lsm = true, .kfuncs = KEY_KFUNCS,
	.err = -EINVAL,
	.msg = "arg#0 pointer type STRUCT bpf_dynptr_kern must be valid and initialized\n",
};

FIXTURE_VARIANT_ADD(args, kfunc_second_dynptr_uninit) {
	PROG(ZERO_DW(-8), BPF_LD_MAP_VALUE(BPF_REG_1, M_RW, 0), BPF_MOV64_IMM(BPF_REG_2, 8),
	     BPF_MOV64_IMM(BPF_REG_3, 0), BPF_MOV64_REG(BPF_REG_4, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_4, -24), CALL(dynptr_from_mem),
	     BPF_MOV64_IMM(BPF_REG_1, 0), KCALL(0), BPF_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 9),
	     BPF_MOV64_REG(BPF_REG_6, BPF_REG_0), BPF_MOV64_REG(BPF_REG_1, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, -24), BPF_MOV64_REG(BPF_REG_2, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_2, -40), BPF_MOV64_REG(BPF_REG_3, BPF_REG_6),
	     KCALL(1), BPF_MOV64_REG(BPF_REG_1, BPF_REG_6), KCALL(2),
	     BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
	.lsm = true, .kfuncs = KEY_KFUNCS,
	.err = -EINVAL,
	.msg = "arg#1 pointer type STRUCT bpf_dynptr_kern must be valid and initialized\n",
};

/*
 * -- kptrs in a map value, struct holder { struct prog_test_ref_kfunc
 * __kptr_ref *ref; ... __kptr *unref; int n; struct prog_test_member
 * __kptr_ref *memb; }: bpf_kptr_xchg()
 * (ARG_PTR_TO_KPTR) and the KF_KPTR_GET kfunc bpf_kfunc_call_test_kptr_get().
 * M_KPTR's value 0 is looked up; NULL jumps on, to "return 0".
 */
#define KPTR_GET	"bpf_kfunc_call_test_kptr_get"

FIXTURE_VARIANT_ADD(args, kptr_xchg) {
	PROG(BPF_ST_MEM(BPF_W, BPF_REG_10, -8, 0), BPF_MOV64_REG(BPF_REG_2, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_2, -8), BPF_LD_MAP_FD(BPF_REG_1, M_KPTR),
	     CALL(map_lookup_elem), BPF_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 6),
	     BPF_MOV64_REG(BPF_REG_1, BPF_REG_0), BPF_MOV64_IMM(BPF_REG_2, 0), CALL(kptr_xchg),
	     BPF_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 2), BPF_MOV64_REG(BPF_REG_1, BPF_REG_0),
	     KCALL(0), BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
	.kfuncs = { REL },
};

FIXTURE_VARIANT_ADD(args, kptr_xchg_unreferenced) {
	PROG(BPF_ST_MEM(BPF_W, BPF_REG_10, -8, 0), BPF_MOV64_REG(BPF_REG_2, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_2, -8), BPF_LD_MAP_FD(BPF_REG_1, M_KPTR),
	     CALL(map_lookup_elem), BPF_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 4),
	     BPF_MOV64_REG(BPF_REG_1, BPF_REG_0), BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, 8),
	     BPF_MOV64_IMM(BPF_REG_2, 0), CALL(kptr_xchg), BPF_MOV64_IMM(BPF_REG_0, 0),
	     BPF_EXIT_INSN()),
	.err = -EACCES, .msg = "off=8 kptr isn't referenced kptr\n",
};

FIXTURE_VARIANT_ADD(args, kptr_xchg_not_kptr) {
	PROG(BPF_ST_MEM(BPF_W, BPF_REG_10, -8, 0), BPF_MOV64_REG(BPF_REG_2, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_2, -8), BPF_LD_MAP_FD(BPF_REG_1, M_KPTR),
	     CALL(map_lookup_elem), BPF_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 4),
	     BPF_MOV64_REG(BPF_REG_1, BPF_REG_0), BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, 16),
	     BPF_MOV64_IMM(BPF_REG_2, 0), CALL(kptr_xchg), BPF_MOV64_IMM(BPF_REG_0, 0),
	     BPF_EXIT_INSN()),
	.err = -EACCES, .msg = "off=16 doesn't point to kptr\n",
};

FIXTURE_VARIANT_ADD(args, kptr_get) {
	PROG(BPF_ST_MEM(BPF_W, BPF_REG_10, -8, 0), BPF_MOV64_REG(BPF_REG_2, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_2, -8), BPF_LD_MAP_FD(BPF_REG_1, M_KPTR),
	     CALL(map_lookup_elem), BPF_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 7),
	     BPF_MOV64_REG(BPF_REG_1, BPF_REG_0), BPF_MOV64_IMM(BPF_REG_2, 0),
	     BPF_MOV64_IMM(BPF_REG_3, 0), KCALL(0), BPF_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 2),
	     BPF_MOV64_REG(BPF_REG_1, BPF_REG_0), KCALL(1), BPF_MOV64_IMM(BPF_REG_0, 0),
	     BPF_EXIT_INSN()),
	.kfuncs = { KPTR_GET, REL },
};

FIXTURE_VARIANT_ADD(args, kptr_get_from_stack) {
	PROG(ZERO_DW(-8), BPF_MOV64_REG(BPF_REG_1, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, -8), BPF_MOV64_IMM(BPF_REG_2, 0),
	     BPF_MOV64_IMM(BPF_REG_3, 0), KCALL(0), BPF_MOV64_IMM(BPF_REG_0, 0),
	     BPF_EXIT_INSN()),
	.kfuncs = { KPTR_GET },
	.err = -EINVAL, .msg = "arg#0 expected pointer to map value\n",
};

FIXTURE_VARIANT_ADD(args, kptr_get_unreferenced) {
	PROG(BPF_ST_MEM(BPF_W, BPF_REG_10, -8, 0), BPF_MOV64_REG(BPF_REG_2, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_2, -8), BPF_LD_MAP_FD(BPF_REG_1, M_KPTR),
	     CALL(map_lookup_elem), BPF_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 5),
	     BPF_MOV64_REG(BPF_REG_1, BPF_REG_0), BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, 8),
	     BPF_MOV64_IMM(BPF_REG_2, 0), BPF_MOV64_IMM(BPF_REG_3, 0), KCALL(0),
	     BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
	.kfuncs = { KPTR_GET },
	.err = -EINVAL, .msg = "arg#0 no referenced kptr at map value offset=8\n",
};

FIXTURE_VARIANT_ADD(args, kptr_get_not_kptr) {
	PROG(BPF_ST_MEM(BPF_W, BPF_REG_10, -8, 0), BPF_MOV64_REG(BPF_REG_2, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_2, -8), BPF_LD_MAP_FD(BPF_REG_1, M_KPTR),
	     CALL(map_lookup_elem), BPF_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 5),
	     BPF_MOV64_REG(BPF_REG_1, BPF_REG_0), BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, 16),
	     BPF_MOV64_IMM(BPF_REG_2, 0), BPF_MOV64_IMM(BPF_REG_3, 0), KCALL(0),
	     BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
	.kfuncs = { KPTR_GET },
	.err = -EINVAL, .msg = "arg#0 no referenced kptr at map value offset=16\n",
};

/* a referenced kptr, of struct prog_test_member */
FIXTURE_VARIANT_ADD(args, kptr_get_other_struct) {
	PROG(BPF_ST_MEM(BPF_W, BPF_REG_10, -8, 0), BPF_MOV64_REG(BPF_REG_2, BPF_REG_10),
	     BPF_ALU64_IMM(BPF_ADD, BPF_REG_2, -8), BPF_LD_MAP_FD(BPF_REG_1, M_KPTR),
	     CALL(map_lookup_elem), BPF_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 5),
	     BPF_MOV64_REG(BPF_REG_1, BPF_REG_0), BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, 24),
	     BPF_MOV64_IMM(BPF_REG_2, 0), BPF_MOV64_IMM(BPF_REG_3, 0), KCALL(0),
	     BPF_MOV64_IMM(BPF_REG_0, 0), BPF_EXIT_INSN()),
	.kfuncs = { KPTR_GET },
	.err = -EINVAL,
	.msg =
	"kernel function bpf_kfunc_call_test_kptr_get args#0 expected pointer to STRUCT prog_test_ref_kfunc\n",
};

/* &v->ref or &v->unref, by the packet's length */
FIXTURE_VARIANT_ADD(args, kptr_get_variable_offset) {
	PROG(BPF_MOV64_REG(BPF_REG_6, BPF_REG_1), BPF_ST_MEM(BPF_W, BPF_REG_10, -8, 0),
	     BPF_MOV64_REG(BPF_REG_2, BPF_REG_10), BPF_ALU64_IMM(BPF_ADD, BPF_REG_2, -8),
	     BPF_LD_MAP_FD(BPF_REG_1, M_KPTR), CALL(map_lookup_elem),
	     BPF_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 7), BPF_MOV64_REG(BPF_REG_1, BPF_REG_0),
	     SKB(BPF_REG_2, BPF_REG_6, len), BPF_ALU64_IMM(BPF_AND, BPF_REG_2, 8),
	     BPF_ALU64_REG(BPF_ADD, BPF_REG_1, BPF_REG_2), BPF_MOV64_IMM(BPF_REG_2, 0),
	     BPF_MOV64_IMM(BPF_REG_3, 0), KCALL(0), BPF_MOV64_IMM(BPF_REG_0, 0),
	     BPF_EXIT_INSN()),
	.kfuncs = { KPTR_GET },
	.err = -EINVAL, .msg = "arg#0 must have constant offset\n",
};

/*
 * The BTF of M_KPTR's and M_SK's values, as clang 15 would write it for
 *	struct holder {
 *		struct prog_test_ref_kfunc __kptr_ref *ref;
 *		struct prog_test_ref_kfunc __kptr *unref;
 *		int n;
 *		struct prog_test_member __kptr_ref *memb;
 *	};
 * (the kernel finds the structs by name in its own BTF, and their
 * destructors, test_run.c's): the BTF's fd, the ids of int and of struct
 * holder in @int_id and @holder.
 */
static int kc_btf(struct __test_metadata *_metadata, __u32 *int_id, __u32 *holder)
{
	struct btf *btf = btf__new_empty();
	int s, m, ref, unref, memb, fd;

	ASSERT_NE(NULL, btf);
	*int_id = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	s = btf__add_struct(btf, "prog_test_ref_kfunc", 0);
	m = btf__add_struct(btf, "prog_test_member", 0);
	ref = btf__add_ptr(btf, btf__add_type_tag(btf, "kptr_ref", s));
	unref = btf__add_ptr(btf, btf__add_type_tag(btf, "kptr", s));
	memb = btf__add_ptr(btf, btf__add_type_tag(btf, "kptr_ref", m));
	*holder = btf__add_struct(btf, "holder", 32);
	ASSERT_EQ(0, btf__add_field(btf, "ref", ref, 0, 0));
	ASSERT_EQ(0, btf__add_field(btf, "unref", unref, 64, 0));
	ASSERT_EQ(0, btf__add_field(btf, "n", *int_id, 128, 0));
	ASSERT_EQ(0, btf__add_field(btf, "memb", memb, 192, 0));
	ASSERT_EQ(0, btf__load_into_kernel(btf)) TH_LOG("BTF: %s", strerror(errno));
	fd = dup(btf__fd(btf));
	btf__free(btf);
	return fd;
}

static int array_map(struct __test_metadata *_metadata, __u32 value_size,
		     const char *value, __u32 flags)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = flags);
	char buf[16] = {};
	__u32 key = 0;
	int fd;

	fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, NULL, sizeof(key), value_size, 1, &opts);
	EXPECT_LE(0, fd) TH_LOG("array map: %s", strerror(errno));
	memcpy(buf, value, strnlen(value, value_size));
	EXPECT_EQ(0, bpf_map_update_elem(fd, &key, buf, 0));
	if (flags & BPF_F_RDONLY_PROG)
		EXPECT_EQ(0, bpf_map_freeze(fd));
	return fd;
}

FIXTURE_SETUP(args)
{
	LIBBPF_OPTS(bpf_map_create_opts, ro, .map_flags = BPF_F_RDONLY_PROG);
	LIBBPF_OPTS(bpf_map_create_opts, kptr);
	LIBBPF_OPTS(bpf_map_create_opts, sk, .map_flags = BPF_F_NO_PREALLOC);
	char abc[16] = "abc";
	__u64 key = 0;
	int i;

	for (i = 0; i < NR_MAPS; i++)
		self->map[i] = -1;
	self->btf = -1;
	self->vmlinux = btf__load_vmlinux_btf();
	ASSERT_NE(NULL, self->vmlinux) TH_LOG("vmlinux BTF: %s", strerror(errno));
	self->map[M_HASH] = bpf_map_create(BPF_MAP_TYPE_HASH, NULL, 8, 16, 1, NULL);
	self->map[M_RO] = array_map(_metadata, 16, "abc", BPF_F_RDONLY_PROG);
	self->map[M_RO_NOTERM] = array_map(_metadata, 8, "abcdefgh", BPF_F_RDONLY_PROG);
	self->map[M_RW] = array_map(_metadata, 16, "abc", 0);
	self->map[M_RB] = bpf_map_create(BPF_MAP_TYPE_RINGBUF, NULL, 0, 0, 4096, NULL);
	self->map[M_RO_HASH] = bpf_map_create(BPF_MAP_TYPE_HASH, NULL, 8, 16, 1, &ro);
	ASSERT_EQ(0, bpf_map_update_elem(self->map[M_RO_HASH], &key, abc, 0));
	ASSERT_EQ(0, bpf_map_freeze(self->map[M_RO_HASH]));
	self->btf = kc_btf(_metadata, &kptr.btf_key_type_id, &kptr.btf_value_type_id);
	kptr.btf_fd = self->btf;
	self->map[M_KPTR] = bpf_map_create(BPF_MAP_TYPE_ARRAY, NULL, 4, 32, 1, &kptr);
	sk.btf_fd = self->btf;
	sk.btf_key_type_id = kptr.btf_key_type_id;
	sk.btf_value_type_id = kptr.btf_key_type_id;
	self->map[M_SK] = bpf_map_create(BPF_MAP_TYPE_SK_STORAGE, NULL, 4, 4, 0, &sk);
	for (i = 0; i < NR_MAPS; i++)
		ASSERT_LE(0, self->map[i]) TH_LOG("map %d: %s", i, strerror(errno));
}

FIXTURE_TEARDOWN(args)
{
	int i;

	for (i = 0; i < NR_MAPS; i++)
		if (self->map[i] >= 0)
			close(self->map[i]);
	if (self->btf >= 0)
		close(self->btf);
	btf__free(self->vmlinux);
}

/* The BTF id of the kernel function @name, or a failed assertion. */
static __s32 func_id(struct __test_metadata *_metadata, struct btf *btf,
		     const char *name)
{
	__s32 id = btf__find_by_name_kind(btf, name, BTF_KIND_FUNC);

	EXPECT_LT(0, id) TH_LOG("%s: not in vmlinux BTF", name);
	return id;
}

/*
 * This process (the test's child) without CAP_SYS_ADMIN and CAP_PERFMON,
 * with CAP_BPF and CAP_NET_ADMIN: a tc program, no pointer leaks.
 */
static void drop_perfmon(struct __test_metadata *_metadata)
{
	struct __user_cap_header_struct head = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2];

	ASSERT_EQ(0, syscall(__NR_capget, &head, data));
	data[CAP_TO_INDEX(CAP_SYS_ADMIN)].effective &= ~CAP_TO_MASK(CAP_SYS_ADMIN);
	data[CAP_TO_INDEX(CAP_PERFMON)].effective &= ~CAP_TO_MASK(CAP_PERFMON);
	ASSERT_EQ(0, syscall(__NR_capset, &head, data));
}

TEST_F(args, load)
{
	static char log[1 << 20];
	struct bpf_prog_load_opts opts = {
		.sz = sizeof(opts), .log_buf = log, .log_size = sizeof(log), .log_level = 1,
	};
	enum bpf_prog_type type = BPF_PROG_TYPE_SCHED_CLS;
	struct bpf_insn insns[MAX_INSNS];
	size_t i, len = MAX_INSNS;
	bool said;
	int fd;

	memcpy(insns, variant->insns, sizeof(insns));
	while (len && !insns[len - 1].code)
		len--;
	for (i = 0; i < len; i++) {
		struct bpf_insn *insn = &insns[i];

		if (insn->code == (BPF_LD | BPF_DW | BPF_IMM)) {
			if (insn->src_reg == BPF_PSEUDO_MAP_FD ||
			    insn->src_reg == BPF_PSEUDO_MAP_VALUE)
				insn->imm = self->map[insn->imm];
			if (insn->src_reg == BPF_PSEUDO_BTF_ID)
				insn->imm = btf__find_by_name_kind(self->vmlinux,
								   variant->ksym,
								   BTF_KIND_VAR);
			i++;
		} else if (insn->code == (BPF_JMP | BPF_CALL) &&
			   insn->src_reg == BPF_PSEUDO_KFUNC_CALL) {
			insn->imm = func_id(_metadata, self->vmlinux,
					    variant->kfuncs[insn->imm]);
		}
	}
	if (variant->lsm) {
		type = BPF_PROG_TYPE_LSM;
		opts.expected_attach_type = BPF_LSM_MAC;
		opts.attach_btf_id = func_id(_metadata, self->vmlinux, "bpf_lsm_bpf");
		opts.prog_flags = BPF_F_SLEEPABLE;
	}
	if (variant->no_perfmon)
		drop_perfmon(_metadata);
	log[0] = '\0';
	fd = bpf_prog_load(type, NULL, "GPL", insns, len, &opts);
	if (fd >= 0)
		close(fd);
	if (!variant->err) {
		EXPECT_LE(0, fd) TH_LOG("refused (%d): %s", fd, why_line(log));
		return;
	}
	said = variant->msg && ends_with(log, variant->msg);
	EXPECT_TRUE(fd == variant->err && said) {
		TH_LOG("load: %d, verifier said: %s", fd, why_line(log));
		TH_LOG("6.1.192 refuses with %d, \"%s\"", variant->err,
		       variant->msg);
	}
}

/*
 * Programs of progs/verifier_args.bpf.c, one a variant: a spin lock, a
 * timer, a user ring buffer callback (ARG_PTR_TO_FUNC) reading its
 * sample's dynptr, a global function's arguments. @err and @msg as in args.
 */
FIXTURE(c_args) {
	struct verifier_args *skel;
};

FIXTURE_VARIANT(c_args) {
	const char *prog;
	int err;
	const char *msg;
};

FIXTURE_VARIANT_ADD(c_args, lock_and_unlock) { .prog = "lock_and_unlock" };

/* process_spin_lock()'s -EINVAL is check_func_arg()'s -EACCES */
FIXTURE_VARIANT_ADD(c_args, unlock_without_lock) {
	.prog = "unlock_without_lock",
	.err = -EACCES, .msg = "bpf_spin_unlock without taking a lock\n",
};

FIXTURE_VARIANT_ADD(c_args, unlock_other_lock) {
	.prog = "unlock_other_lock",
	.err = -EACCES, .msg = "bpf_spin_unlock of different lock\n",
};

FIXTURE_VARIANT_ADD(c_args, timer_init) { .prog = "timer_init" };

/* the timer's map must be the map argument */
FIXTURE_VARIANT_ADD(c_args, timer_init_other_map) {
	.prog = "timer_init_other_map",
	.err = -EINVAL,
	.msg = "timer pointer in R1 map_uid=0 doesn't match map pointer in R2 map_uid=0\n",
};

FIXTURE_VARIANT_ADD(c_args, timer_init_no_timer) {
	.prog = "timer_init_no_timer",
	.err = -EACCES, .msg = "doesn't have 'struct bpf_timer'\n",
};

FIXTURE_VARIANT_ADD(c_args, sample_read) { .prog = "sample_read" };

FIXTURE_VARIANT_ADD(c_args, global_args) { .prog = "global_args" };

/* check_func_call()'s words after btf_check_func_arg_match()'s */
#define CALLER_PASSES	"Caller passes invalid args into func#1\n"

FIXTURE_VARIANT_ADD(c_args, global_ctx_from_stack) {
	.prog = "global_ctx_from_stack",
	.err = -EINVAL,
	.msg = "arg#0 expected pointer to ctx, but got PTR\n" CALLER_PASSES,
};

/* an int * of a global function is memory the caller must have */
FIXTURE_VARIANT_ADD(c_args, global_mem_from_ctx) {
	.prog = "global_mem_from_ctx",
	.err = -EINVAL, .msg = "R1 type=ctx expected=fp\n" CALLER_PASSES,
};

FIXTURE_VARIANT_ADD(c_args, global_scalar_from_pointer) {
	.prog = "global_scalar_from_pointer",
	.err = -EINVAL, .msg = "R1 is not a scalar\n" CALLER_PASSES,
};

FIXTURE_SETUP(c_args)
{
	self->skel = NULL;
}

FIXTURE_TEARDOWN(c_args)
{
	verifier_args__destroy(self->skel);
}

static int no_print(enum libbpf_print_level level, const char *fmt, va_list args)
{
	return 0;
}

TEST_F(c_args, load)
{
	static char log[1 << 20];
	struct bpf_program *prog;
	bool said;
	int err;

	libbpf_set_print(no_print);
	log[0] = '\0';
	self->skel = verifier_args__open();
	ASSERT_NE(NULL, self->skel);
	prog = bpf_object__find_program_by_name(self->skel->obj, variant->prog);
	ASSERT_NE(NULL, prog);
	ASSERT_EQ(0, bpf_program__set_autoload(prog, true));
	ASSERT_EQ(0, bpf_program__set_log_buf(prog, log, sizeof(log)));
	ASSERT_EQ(0, bpf_program__set_log_level(prog, 1));
	err = verifier_args__load(self->skel);
	if (!variant->err) {
		EXPECT_EQ(0, err) TH_LOG("refused (%d): %s", err, why_line(log));
		return;
	}
	said = variant->msg && ends_with(log, variant->msg);
	EXPECT_TRUE(err == variant->err && said) {
		TH_LOG("load: %d, verifier said: %s", err, why_line(log));
		TH_LOG("6.1.192 refuses with %d, \"%s\"", variant->err,
		       variant->msg);
	}
}

TEST_HARNESS_MAIN
