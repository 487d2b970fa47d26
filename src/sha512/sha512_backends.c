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

extern const struct fsha512_backend fsha512_backend_avx512_x16, fsha512_backend_avx512_x8, fsha512_backend_avx2_x4, fsha512_backend_avx2, fsha512_backend_armv8, fsha512_backend_power8,
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

static _Atomic(const struct fsha_backend_info *) slot, many_slot;
static struct fsha_lane_plan plan;

/* The scheduler's way into a lane row's typed kernel. */
static void run_lanes(const struct fsha_backend_info *row, void *states, const uint8_t *const *data,
		      size_t nblocks)
{
	((const struct fsha512_backend *)row)->lanes(states, data, nblocks);
}

/* The single-message rows with PBKDF2 chain kernels (backend.h,
 * chain_kernel), for one and two chains, and the same kernels for CPUs
 * with the features @vl_cpu names (0: none); a NULL row ends the list. */
static const struct {
	const struct fsha512_backend *row;
	fsha_chain_fn x[2];
	uint32_t vl_cpu;
	fsha_chain_fn vl[2];
} chain_rows[] = {
#if defined(FSHA_HAVE_SHA512_AVX2) && defined(FSHA_HAVE_SHA512_PART_AVX2_CHAIN)
	/* the avx2 row's; with AVX-512VL its schedule runs on vprorq and
	 * vpternlogq (sha512_avx2_chain.c). Not in the SIMDe development
	 * build, which reports AVX-512 on CPUs without it: the _vl kernels
	 * are real EVEX instructions (inline assembly), not emulated. */
	{ &fsha512_backend_avx2,
	  { fsha512_avx2_chain_x1, fsha512_avx2_chain_x2 },
#if !defined(FSHA_SIMDE_AVX512)
	  FSHA_CPU_AVX512F | FSHA_CPU_AVX512VL,
#else
	  0,
#endif
	  { fsha512_avx2_chain_x1_vl, fsha512_avx2_chain_x2_vl } },
#endif
	{ NULL, { NULL, NULL }, 0, { NULL, NULL } },
};

static fsha_chain_fn chain_kernel(const struct fsha_backend_info *row, size_t k)
{
	for (size_t i = 0; chain_rows[i].row; i++) {
		if (&chain_rows[i].row->info != row || k < 1 || k > 2)
			continue;
		const uint32_t vl = chain_rows[i].vl_cpu;
		if (vl && (fsha_cpu_features() & vl) == vl)
			return chain_rows[i].vl[k - 1];
		return chain_rows[i].x[k - 1];
	}
	return NULL;
}

const struct fsha_family fsha512_family = { "sha512", rows, sizeof(rows) / sizeof(rows[0]), &slot,
					      &many_slot, run_lanes, NULL, NULL, NULL, &plan, NULL, 0,
					      chain_kernel, NULL };
