/* SPDX-License-Identifier: MIT */
/*
 * The SHA-256 (and SHA-224) backend table: which backends exist and which is preferred,
 * nothing else (each row is defined in its backend's file; the choice
 * among rows is src/core/dispatch.c's).
 *
 * Best first. The order is measured on this project's machine (see
 * docs/benchmarks.md); the first row the CPU can run is chosen.
 * FSHA_HAVE_SHA256_* come from cmake/backends.cmake for the backends built.
 */
#include "sha256_impl.h"

extern const struct fsha256_backend fsha256_backend_shani_x3, fsha256_backend_shani_x2, fsha256_backend_avx512_x16,
	fsha256_backend_avx2_x8,
	fsha256_backend_armv8_x2, fsha256_backend_shani_avx512, fsha256_backend_shani, fsha256_backend_avx2, fsha256_backend_avx,
	fsha256_backend_ssse3, fsha256_backend_armv8, fsha256_backend_power8, fsha256_backend_portable,
	fsha256_backend_portable_x4,
	fsha256_backend_reference;

static const struct fsha_backend_info *const rows[] = {
	/* Lane rows (FSHA_AUTO_MANY only): the batch choice takes the first. */
#ifdef FSHA_HAVE_SHA256_SHANI_X3
	&fsha256_backend_shani_x3.info,
#endif
#ifdef FSHA_HAVE_SHA256_SHANI_X2
	&fsha256_backend_shani_x2.info,
#endif
#ifdef FSHA_HAVE_SHA256_AVX512_X16
	&fsha256_backend_avx512_x16.info,
#endif
#ifdef FSHA_HAVE_SHA256_AVX2_X8
	&fsha256_backend_avx2_x8.info,
#endif
#ifdef FSHA_HAVE_SHA256_ARMV8_X2
	&fsha256_backend_armv8_x2.info,
#endif
#ifdef FSHA_HAVE_SHA256_SHANI_AVX512
	&fsha256_backend_shani_avx512.info,
#endif
#ifdef FSHA_HAVE_SHA256_SHANI
	&fsha256_backend_shani.info,
#endif
#ifdef FSHA_HAVE_SHA256_AVX2
	&fsha256_backend_avx2.info,
#endif
#ifdef FSHA_HAVE_SHA256_AVX
	&fsha256_backend_avx.info,
#endif
#ifdef FSHA_HAVE_SHA256_SSSE3
	&fsha256_backend_ssse3.info,
#endif
#ifdef FSHA_HAVE_SHA256_ARMV8
	&fsha256_backend_armv8.info,
#endif
#ifdef FSHA_HAVE_SHA256_POWER8
	&fsha256_backend_power8.info,
#endif
	&fsha256_backend_portable.info,
	&fsha256_backend_portable_x4.info,
	&fsha256_backend_reference.info,
};

/*
 * Intel with AVX-512 (FSHA_CPU_TUNE_INTEL_AVX512): batches on avx512_x16
 * rather than the SHA-NI lane rows, which stay its narrower steps. On the
 * Xeon it was measured on (KVM's family 6 model 167, Sapphire/Emerald
 * Rapids line), a SHA-NI block costs about 134 cycles on one stream and
 * interleaving gains only 1.36x (shani_x3 and shani_x2 alike), while the
 * sixteen 512-bit lanes run a block in about 80 cycles a lane: figures
 * in docs/benchmarks.md (Intel Xeon with AVX-512). One message goes to
 * shani_avx512 there, and to shani elsewhere: as SHA-1's shani_avx512
 * (sha1_backends.c), measured on that Xeon only (sha256_shani.h,
 * FSHA256_NI_VL).
 */
static const struct fsha_yield yields[] = {
#ifdef FSHA_HAVE_SHA256_SHANI_X3
	{ &fsha256_backend_shani_x3.info, FSHA_CPU_TUNE_INTEL_AVX512, 0 },
#endif
#ifdef FSHA_HAVE_SHA256_SHANI_X2
	{ &fsha256_backend_shani_x2.info, FSHA_CPU_TUNE_INTEL_AVX512, 0 },
#endif
#ifdef FSHA_HAVE_SHA256_SHANI_AVX512
	{ &fsha256_backend_shani_avx512.info, 0, FSHA_CPU_TUNE_INTEL_AVX512 },
#endif
	{ NULL, 0, 0 }, /* no row: keeps the array non-empty in every build */
};

static _Atomic(const struct fsha_backend_info *) slot, many_slot;
static struct fsha_lane_plan plan;

/* The scheduler's way into a lane row's typed kernel. */
static void run_lanes(const struct fsha_backend_info *row, void *states, const uint8_t *const *data,
		      size_t nblocks)
{
	((const struct fsha256_backend *)row)->lanes(states, data, nblocks);
}

/* The lane rows with a shared-block entry (backend.h, run_lanes_shared),
 * and that entry; a NULL row ends the list. */
static const struct {
	const struct fsha256_backend *row;
	fsha256_lanes_wk_fn lanes_wk;
} shared_rows[] = {
#ifdef FSHA_HAVE_SHA256_SHANI_X3
	{ &fsha256_backend_shani_x3, fsha256_shani_x3_lanes_wk },
#endif
#ifdef FSHA_HAVE_SHA256_AVX512_X16
	{ &fsha256_backend_avx512_x16, fsha256_avx512_x16_lanes_wk },
#endif
#ifdef FSHA_HAVE_SHA256_AVX2_X8
	{ &fsha256_backend_avx2_x8, fsha256_avx2_x8_lanes_wk },
#endif
	{ NULL, NULL },
};

static fsha256_lanes_wk_fn lanes_wk_of(const struct fsha_backend_info *row)
{
	for (size_t i = 0; shared_rows[i].row; i++)
		if (&shared_rows[i].row->info == row)
			return shared_rows[i].lanes_wk;
	return NULL;
}

static int has_shared(const struct fsha_backend_info *row)
{
	return lanes_wk_of(row) != NULL;
}

static void run_lanes_shared(const struct fsha_backend_info *row, void *states,
			     const uint8_t *const *data, size_t nblocks, const void *sched)
{
	lanes_wk_of(row)(states, data, nblocks, sched);
}

static void shared_sched(const uint8_t *block, void *sched)
{
	fsha256_block_wk(block, sched);
}

/*
 * The rows' PBKDF2 chain kernels (backend.h, struct fsha_chain_row): the
 * shani row's for one, two and three chains, and avx512_x16's lane chain
 * kernel, its sixteen chains in registers. From 9 chains on that beats
 * the shani row's x3, x2 and x1 kernels: Intel Xeon (Emerald Rapids
 * line), fastsha_pbkdf2_many() of n one-block passwords, 10,000
 * iterations, best of 5, ns an iteration of all n: the lane kernel 447-463
 * for any n from 6 to 16; the shani kernels 52.3-53.7 a chain (107 at
 * n = 2, 264 at 5), so about 424 at 8 and 477 at 9.
 */
static const struct fsha_chain_row chain_rows[] = {
#if defined(FSHA_HAVE_SHA256_SHANI_AVX512) && defined(FSHA_HAVE_SHA256_PART_SHANI_AVX512_CHAIN)
	{ &fsha256_backend_shani_avx512.info, 0,
	  { fsha256_shani_avx512_chain_x1, fsha256_shani_avx512_chain_x2,
	    fsha256_shani_avx512_chain_x3 },
	  NULL, 0 },
#endif
#if defined(FSHA_HAVE_SHA256_SHANI) && defined(FSHA_HAVE_SHA256_PART_SHANI_CHAIN)
	{ &fsha256_backend_shani.info, 0,
	  { fsha256_shani_chain_x1, fsha256_shani_chain_x2, fsha256_shani_chain_x3 }, NULL, 0 },
#endif
#if defined(FSHA_HAVE_SHA256_AVX512_X16) && defined(FSHA_HAVE_SHA256_PART_AVX512_X16_CHAIN)
	{ &fsha256_backend_avx512_x16.info, 0, { NULL, NULL, NULL }, fsha256_avx512_x16_chain, 9 },
#endif
	{ NULL, 0, { NULL, NULL, NULL }, NULL, 0 },
};

const struct fsha_family fsha256_family = { "sha256", rows, sizeof(rows) / sizeof(rows[0]), &slot,
					      &many_slot, run_lanes, run_lanes_shared,
					      shared_sched, has_shared, &plan, yields,
					      sizeof(yields) / sizeof(yields[0]), chain_rows };
