/* SPDX-License-Identifier: MIT */
/*
 * bmi2: Keccak-p[1600, n] for x86-64 CPUs with BMI1 and BMI2: the portable
 * round (keccak_portable.h) compiled with -mbmi -mbmi2, where chi's
 * ~a & b is one andn and a rotate one rorx that leaves its source intact
 * (no copy before it). 64-bit only: the 25 lanes and the temporaries need
 * x86-64's 16 registers to stay mostly out of memory.
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
