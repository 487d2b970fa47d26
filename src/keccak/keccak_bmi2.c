/* SPDX-License-Identifier: MIT */
/*
 * bmi2: Keccak-p[1600, n] for x86-64 CPUs with BMI1 and BMI2: the portable
 * round (keccak_portable.h) compiled with -mbmi -mbmi2, where chi's
 * ~a & b is one andn and a rotate one rorx that leaves its source intact
 * (no copy before it). 64-bit only: the 25 lanes and the temporaries need
 * x86-64's 16 registers to stay mostly out of memory.
 *
 * No AVX2 single-state row beats it on the project's Zen 3 (family 25
 * model 1, KVM, GCC 12.2 -O3), so there is none. One was written and
 * measured, 2026-12-04, in the harness of x86/keccak_avx2_x4.c: the state
 * in seven ymm (lane (0, 0) broadcast; rows 0..4 at columns 1..4, one
 * register each, so theta's parities are four XORs; column 0, rows 1..4,
 * in the seventh), pi turning the rows into columns so that chi needs
 * shuffles for row 0 only, a 4 x 4 transpose back. 1267 cycles per 24-round permutation
 * (647 for 12) against this row's 1126 (603): 0.89x; with clang 14 1277.
 * A round is one dependency chain through cross-lane shuffles, and on
 * this CPU vpermq has 6.5 cycles of latency and vperm2i128 3.5 (measured
 * in a chain), so a round took about 53 cycles to this row's 47. (OpenSSL
 * 3.0.19's scalar x86-64 code: 1010 cycles, 0.90x this row's time.)
 *
 * Nor did another scalar shape, 2026-12-04 (same machine, busy; GCC 12.2
 * -O3; a scratch harness calling each candidate's entries and this row's in
 * alternating pairs, 151 pairs, thread CPU time, flock and nice -20). This
 * row: 880-930 cycles per 24 rounds at the minimum, 2.6 to 3.1 GHz by
 * dependent adds; its loop is 199 instructions a round (131 ALU, 35 loads,
 * 20 stores, 11 register moves). Candidates, time against this row's:
 * - the state in two stack arrays, a row at a time (five lanes XOR D,
 *   rorx, chi with andn, stored), parities summed in registers: 188-200
 *   instructions a round, 0.99-1.04x;
 * - the same with D in memory (memory operands, 11 live values): 195,
 *   1.21x, every lane waiting on D's store-to-load forwarding;
 * - parities re-read from memory each round (OpenSSL's shape): 187, 1.05-
 *   1.10x, a round waiting on the last row's stores;
 * - the next row's lanes before this row's chi: 214, 1.03-1.05x; four
 *   rounds an iteration: 1.00x; clang 14 (190 a round): 0.98-1.00x; GCC's
 *   -fschedule-insns -fsched-pressure -mtune=znver3: 1.05-1.10x.
 * Why: a round is 130 ALU operations (theta 20 + 10 + 25, rho 24, chi 50,
 * iota 1), each of the next round's waits on all of them through theta,
 * and Zen 3 has four ALUs (rotates on two in LLVM 14's model): 32.5
 * cycles of ALU work plus theta's chain at each end of a round. Dropping
 * 18 of the parity XORs a round (a wrong result, as a probe) saved 4.5
 * cycles a round, a quarter cycle each: the round is ALU-bound, and spills
 * or their absence do not change its time. Through EVP (SHA3-256, 70 KB
 * calls, the same day and harness) OpenSSL took 940-1000 cycles a 136-byte
 * block to this row's 890-930: not the 0.90x above; fastsha-bench --sha3
 * --jobs sha3-16k --reps 21, three runs: 1.07, 1.07, 1.03 (IQR 0.15).
 *
 * On AMD EPYC Zen 2 (family 23 model 49, KVM, 2026-12-05; GCC 12.2 -O3
 * -fPIC; the same kind of harness, 31 samples, medians, flock and nice
 * -20) this row takes 43-44 cycles a round, 1035-1060 a block, and
 * fastsha-bench --sha3 --jobs sha3-16k --reps 21 gave 1.08 in three runs
 * (OpenSSL 3.0.22). Its loop is 196 instructions a round: 130 ALU, 34
 * loads, 18 stores, 10 register moves (which Zen 2 eliminates: a chain of
 * dependent movs ran five a cycle, measured). Probes, each added to every
 * output row (20 a round): 20 nops cost 3.2 cycles, 20 loads (cmp with
 * memory) 7.8, 20 register cmps 8.3. An ALU op costs more than the
 * quarter cycle of four ALUs: on this CPU each ALU has its own queue,
 * filled at dispatch, so a round's ops wait behind theta's chain at each
 * end. Nothing tried beat this loop:
 * - all 120 orders of the five output rows: within 2% of it, either way;
 * - 40 random statement orders (dependencies kept, at most two rows
 *   interleaved): 0.98-1.00x;
 * - -mtune=znver2, -falign-loops=32 or 64, -O2, clang 14: level;
 *   -fno-schedule-insns2 0.97x;
 * - theta's parities updated from the block's words instead of re-summed
 *   per block, and the absorb built for a constant rate: level;
 * - hand-written assembly with the state in two stack arrays, D in memory,
 *   lanes 12, 18 and 24 kept in registers (177 ops a round, 46 loads of
 *   them, most folded into xors): 0.76x; with 20 of its loads removed as a
 *   probe, 0.83x. Loads, not ops, bind that shape here;
 * - a five-state lane row, avx2_x4s's kernel with this round beside it in
 *   one loop (its vector shifts bind avx2_x4s, and the ALUs sit idle
 *   there): interleaved a round at a time, 0.70x of running the two
 *   apart; a row at a time, 485 cycles a block and state against
 *   avx2_x4s's 430, 0.89x its throughput. The scalar ops took the vector
 *   row's dispatch slots and stores.
 */
#include "keccak_portable.h"

static void permute(uint64_t st[25], unsigned rounds)
{
	fsha_kp_permute(st, rounds);
}

static void absorb(uint64_t st[25], const uint8_t *data, size_t nblocks, size_t rate,
		   unsigned rounds)
{
	fsha_kp_absorb(st, data, nblocks, rate, rounds);
}

const struct fsha_keccak_backend fsha_keccak_backend_bmi2 = {
	{ "bmi2", FSHA_CPU_BMI1 | FSHA_CPU_BMI2, 1, FSHA_AUTO_SINGLE, 0, 0 }, permute, absorb, NULL,
	NULL };
