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
