/* SPDX-License-Identifier: MIT */
/*
 * armv8: Keccak-p[1600, n] on one state with the ARMv8.2 SHA3 instructions
 * (AArch64): the kernel of keccak_armv8.h, which holds two states, with
 * this one in element 0 of each vector and element 1 unused.
 *
 * Needs: FEAT_SHA3 (Linux hwcap HWCAP_SHA3, FSHA_CPU_ARM_SHA3) and NEON;
 * built with -march=armv8.2-a+sha3, this file only. Contract:
 * src/keccak/keccak_impl.h (permute, and absorb of whole blocks at any
 * alignment, reading exactly rate * nblocks bytes with 8-byte vld1_u8).
 *
 * Why the vector kernel with half of every register idle, not scalar
 * code: EOR3, RAX1, XAR and BCAX exist only on vector registers, so a
 * scalar row would be portable's C again. One round's loop, counted with
 * objdump (GCC 12.2 -O3, as built by the aarch64 preset):
 *
 *   this row   75 instructions: 64 SHA3 (10 EOR3, 5 RAX1, 24 XAR,
 *              25 BCAX), 2 EOR, 1 LD1R, 6 spill loads and stores,
 *              compare and branch (clang 14: no spill, 6 moves);
 *   portable  151 instructions: 125 integer (76 EOR, 5 of them with a
 *              rotated operand, 25 BIC, 24 ROR), 24 loads and stores (the
 *              25 lanes and their temporaries do not fit 31 registers),
 *              compare and branch.
 *
 * Half the instructions; whether half the time depends on how many pipes
 * take the SHA3 instructions. Lower bounds a round from the instruction
 * tables of Arm's Software Optimization Guides (throughput only, no
 * latency or front end; arithmetic on published figures, not measured):
 * - Cortex-X4: SHA3 ops latency 2, 4 a cycle on all four V pipes: 66 / 4
 *   = 16.5 cycles. Scalar: logical (shifted or not) and EXTR (ROR) 8 a
 *   cycle: 125 / 8 = 15.6. Even.
 * - Cortex-A720: SHA3 ops 2 a cycle (both V pipes): 33. Scalar: logical
 *   4 a cycle: 31 (taking ROR to issue alike). Even.
 * - Neoverse V2 (AWS Graviton4): SHA3 ops 1 a cycle, V0 only: 64.
 *   Scalar: logical and EXTR 6 a cycle: 21. This row about 3x slower than
 *   portable. A transcription of the Cortex-A715 guide (not checked at
 *   its source) gives the same SHA3 line: latency 2, 1 a cycle, V0.
 * - Cortex-A520 (in order): RAX1 latency 9, one every 9 cycles on the
 *   VMC pipe a core pair shares: at least 45 cycles a round from the 5
 *   RAX1 alone; EOR3 and BCAX latency 3, XAR 4. Scalar: 2 ALUs, at least
 *   63. Unclear.
 * - Apple M1 (Dougall Johnson's measurements): XAR is one micro-op of
 *   latency 2; EOR with a shifted register is two. No throughput for the
 *   SHA3 ops was found; if all four SIMD pipes take them this row wins
 *   (66 / 4 = 16.5 cycles against 130 micro-ops on six integer pipes, 22).
 * The row is not chosen automatically (only by name: FASTSHA_BACKEND,
 * fastsha_use_backend()): the tables say one state gains nothing on the
 * Arm-designed cores checked and costs about 3x where the SHA3
 * instructions have one pipe (Neoverse V2, Graviton 4; A715), so portable
 * stays the default until a measurement says otherwise. The two-state row
 * (keccak_armv8_x2.c) is automatic for batches: two states per
 * instruction pay on cores with two or more SHA3 pipes. Choosing by core
 * would need CPU identification (MIDR_EL1), which src/cpu/ lacks.
 *
 * Speed: not measured. There is no AArch64 hardware here; the tests run
 * under qemu-aarch64 (make test-arm), whose timings say nothing about a
 * core. To measure (fastsha-bench has no Keccak algorithms yet): time
 * fastsha_digest() of SHA3-256 and SHAKE128 on 16 KiB messages with
 * fastsha_use_backend() set to armv8, then portable, on a Neoverse V1 or
 * V2 (Graviton 3 or 4), a Cortex-X or A7xx phone core and Apple silicon
 * under Linux; make the row FSHA_AUTO_SINGLE where it wins.
 */
#include "keccak_armv8.h"

static void permute(uint64_t st[25], unsigned rounds)
{
	fsha_ka8_permute1(st, rounds);
}

static void absorb(uint64_t st[25], const uint8_t *data, size_t nblocks, size_t rate,
		   unsigned rounds)
{
	fsha_ka8_absorb1(st, data, nblocks, rate, rounds);
}

const struct fsha_keccak_backend fsha_keccak_backend_armv8 = {
	{ "armv8", FSHA_CPU_ARM_SHA3 | FSHA_CPU_NEON, 1, 0, 0, 0 }, permute, absorb,
	NULL, NULL };
