/* SPDX-License-Identifier: MIT */
/*
 * The SHA-512 (and SHA-384, SHA-512/224, SHA-512/256) backend table: which backends exist and which is preferred,
 * nothing else (each row is defined in its backend's file; the choice
 * among rows is src/core/dispatch.c's).
 *
 * Best first. The order is measured on this project's machine (see
 * docs/benchmarks.md); the first row the CPU can run is chosen.
 * FSHA_HAVE_SHA512_* come from cmake/backends.cmake for the backends built.
 */
#include "sha512_impl.h"

extern const struct fsha512_backend fsha512_backend_avx512_x16, fsha512_backend_avx512_x8, fsha512_backend_avx2_x4, fsha512_backend_avx2_vl, fsha512_backend_avx2, fsha512_backend_armv8, fsha512_backend_power8,
	fsha512_backend_portable, fsha512_backend_portable_x4, fsha512_backend_reference;

static const struct fsha_backend_info *const rows[] = {
	/* Lane rows (FSHA_AUTO_MANY only): the batch choice takes the first. */
#ifdef FSHA_HAVE_SHA512_AVX512_X16
	&fsha512_backend_avx512_x16.info,
#endif
#ifdef FSHA_HAVE_SHA512_AVX512_X8
	&fsha512_backend_avx512_x8.info,
#endif
#ifdef FSHA_HAVE_SHA512_AVX2_X4
	&fsha512_backend_avx2_x4.info,
#endif
#ifdef FSHA_HAVE_SHA512_AVX2_VL
	&fsha512_backend_avx2_vl.info,
#endif
#ifdef FSHA_HAVE_SHA512_AVX2
	&fsha512_backend_avx2.info,
#endif
#ifdef FSHA_HAVE_SHA512_ARMV8
	&fsha512_backend_armv8.info,
#endif
#ifdef FSHA_HAVE_SHA512_POWER8
	&fsha512_backend_power8.info,
#endif
	&fsha512_backend_portable.info,
	&fsha512_backend_portable_x4.info,
	&fsha512_backend_reference.info,
};

/*
 * avx2_vl is chosen only on Intel with AVX-512, where it was measured (as
 * SHA-1's and SHA-256's shani_avx512: sha1_backends.c); AMD's Zen 4 keeps
 * avx2 until measured.
 */
static const struct fsha_yield yields[] = {
#ifdef FSHA_HAVE_SHA512_AVX2_VL
	{ &fsha512_backend_avx2_vl.info, 0, FSHA_CPU_TUNE_INTEL_AVX512 },
#endif
	{ NULL, 0, 0 }, /* no row: keeps the array non-empty in every build */
};

static _Atomic(const struct fsha_backend_info *) slot, many_slot;
static struct fsha_lane_plan plan;

/* The scheduler's way into a lane row's typed kernel. */
static void run_lanes(const struct fsha_backend_info *row, void *states, const uint8_t *const *data,
		      size_t nblocks)
{
	((const struct fsha512_backend *)row)->lanes(states, data, nblocks);
}

/*
 * The rows' PBKDF2 chain kernels (backend.h, struct fsha_chain_row): the
 * avx2 row's for one and two chains, first with its schedule on
 * AVX-512VL's vprorq and vpternlogq for CPUs that have it, then on AVX2
 * (sha512_avx2_chain.c); the avx2_vl row's, the _vl ones. No _vl entry in the SIMDe development build,
 * which reports AVX-512 on CPUs without it: those kernels are real EVEX
 * instructions (inline assembly), not emulated.
 */
static const struct fsha_chain_row chain_rows[] = {
#if defined(FSHA_HAVE_SHA512_AVX2_VL) && defined(FSHA_HAVE_SHA512_PART_AVX2_CHAIN)
	{ &fsha512_backend_avx2_vl.info, 0, { fsha512_avx2_chain_x1_vl, fsha512_avx2_chain_x2_vl, NULL },
	  NULL, 0 },
#endif
#if defined(FSHA_HAVE_SHA512_AVX2) && defined(FSHA_HAVE_SHA512_PART_AVX2_CHAIN)
#if !defined(FSHA_SIMDE_AVX512)
	{ &fsha512_backend_avx2.info, FSHA_CPU_AVX512F | FSHA_CPU_AVX512VL,
	  { fsha512_avx2_chain_x1_vl, fsha512_avx2_chain_x2_vl, NULL }, NULL, 0 },
#endif
	{ &fsha512_backend_avx2.info, 0, { fsha512_avx2_chain_x1, fsha512_avx2_chain_x2, NULL },
	  NULL, 0 },
#endif
	{ NULL, 0, { NULL, NULL, NULL }, NULL, 0 },
};

const struct fsha_family fsha512_family = { "sha512", rows, sizeof(rows) / sizeof(rows[0]), &slot,
					      &many_slot, run_lanes, NULL, NULL, NULL, &plan, yields,
					      sizeof(yields) / sizeof(yields[0]),
					      chain_rows };
