/* SPDX-License-Identifier: MIT */
/*
 * portable: Keccak-p[1600, n] in portable 64-bit C (keccak_portable.h),
 * any CPU. The fallback every other row is checked against besides the
 * spec-literal reference.
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

const struct fsha_keccak_backend fsha_keccak_backend_portable = {
	{ "portable", 0, 1, FSHA_AUTO_SINGLE, 0, 0 }, permute, absorb, NULL, NULL };

/*
 * portable_x4: four states side by side in portable C, one after another:
 * no faster than portable, never chosen automatically. It exists so that
 * the lane paths (batches, KangarooTwelve's leaves) are exercised on every
 * machine, also those without a vector lane row (tests pin it by name).
 */
static void permute_lanes(uint64_t (*st)[25], unsigned rounds)
{
	for (int l = 0; l < 4; l++)
		fsha_kp_permute(st[l], rounds);
}

static void absorb_lanes(uint64_t (*st)[25], const uint8_t *const *data, size_t nblocks,
			 size_t rate, unsigned rounds)
{
	for (int l = 0; l < 4; l++)
		fsha_kp_absorb(st[l], data[l], nblocks, rate, rounds);
}

const struct fsha_keccak_backend fsha_keccak_backend_portable_x4 = {
	{ "portable_x4", 0, 4, 0, 0, 0 }, permute, absorb, permute_lanes, absorb_lanes };
