/* SPDX-License-Identifier: MIT */
/*
 * The SHA-1 backend table: which backends exist and which is preferred,
 * nothing else (each row is defined in its backend's file; the choice
 * among rows is src/core/dispatch.c's).
 *
 * Best first. The order is measured on this project's machine (see
 * docs/benchmarks.md); the first row the CPU can run is chosen.
 * FSHA_HAVE_SHA1_* come from cmake/backends.cmake for the backends built.
 */
#include "sha1_impl.h"

extern const struct fsha1_backend fsha1_backend_avx512_x16, fsha1_backend_shani_x4, fsha1_backend_shani_x2,
	fsha1_backend_avx2_x8, fsha1_backend_armv8_x2, fsha1_backend_shani_avx512, fsha1_backend_shani, fsha1_backend_avx2,
	fsha1_backend_avx, fsha1_backend_ssse3, fsha1_backend_sse2, fsha1_backend_armv8,
	fsha1_backend_portable, fsha1_backend_portable_x4, fsha1_backend_reference;

static const struct fsha_backend_info *const rows[] = {
	/* Lane rows (FSHA_AUTO_MANY only): the batch choice takes the first. */
#ifdef FSHA_HAVE_SHA1_AVX512_X16
	&fsha1_backend_avx512_x16.info,
#endif
#ifdef FSHA_HAVE_SHA1_SHANI_X4
	&fsha1_backend_shani_x4.info,
#endif
#ifdef FSHA_HAVE_SHA1_SHANI_X2
	&fsha1_backend_shani_x2.info,
#endif
#ifdef FSHA_HAVE_SHA1_AVX2_X8
	&fsha1_backend_avx2_x8.info,
#endif
#ifdef FSHA_HAVE_SHA1_ARMV8_X2
	&fsha1_backend_armv8_x2.info,
#endif
#ifdef FSHA_HAVE_SHA1_SHANI_AVX512
	&fsha1_backend_shani_avx512.info,
#endif
#ifdef FSHA_HAVE_SHA1_SHANI
	&fsha1_backend_shani.info,
#endif
#ifdef FSHA_HAVE_SHA1_AVX2
	&fsha1_backend_avx2.info,
#endif
#ifdef FSHA_HAVE_SHA1_AVX
	&fsha1_backend_avx.info,
#endif
#ifdef FSHA_HAVE_SHA1_SSSE3
	&fsha1_backend_ssse3.info,
#endif
#ifdef FSHA_HAVE_SHA1_SSE2
	&fsha1_backend_sse2.info,
#endif
#ifdef FSHA_HAVE_SHA1_ARMV8
	&fsha1_backend_armv8.info,
#endif
	&fsha1_backend_portable.info,
	&fsha1_backend_portable_x4.info,
	&fsha1_backend_reference.info,
};

/*
 * AMD Zen 2: batches on avx2_x8 rather than the SHA-NI lane rows, which
 * stay its narrower steps (1.24-1.30x at 1-16 KiB, 1.06x at 64 B; the
 * figures in sha1_shani_x4.c). One message stays on shani.
 *
 * shani_avx512 is chosen only on Intel with AVX-512, where it was
 * measured: it takes sha1msg2 and sha1nexte off a SHA unit that Intel's
 * sha1rnds4 holds for 3 cycles of its 4 (sha1_shani.h, FSHA1_NI_VL), one
 * message 1.15x shani and PBKDF2's two WPA2 chains 1.35x (Intel Xeon,
 * Emerald Rapids line, 2026-12-06; figures in docs/benchmarks.md). AMD's
 * Zen 3 runs sha1rnds4 at 6 cycles a step, which the shani row already
 * reaches (sha1_shani.c), and Zen 4 with AVX-512 is not measured: shani.
 */
static const struct fsha_yield yields[] = {
#ifdef FSHA_HAVE_SHA1_SHANI_X4
	{ &fsha1_backend_shani_x4.info, FSHA_CPU_TUNE_ZEN2, 0 },
#endif
#ifdef FSHA_HAVE_SHA1_SHANI_X2
	{ &fsha1_backend_shani_x2.info, FSHA_CPU_TUNE_ZEN2, 0 },
#endif
#ifdef FSHA_HAVE_SHA1_SHANI_AVX512
	{ &fsha1_backend_shani_avx512.info, 0, FSHA_CPU_TUNE_INTEL_AVX512 },
#endif
	{ NULL, 0, 0 }, /* no row: keeps the array non-empty in every build */
};

static _Atomic(const struct fsha_backend_info *) slot, many_slot;
static struct fsha_lane_plan plan;

/* The scheduler's way into a lane row's typed kernel. */
static void run_lanes(const struct fsha_backend_info *row, void *states, const uint8_t *const *data,
		      size_t nblocks)
{
	((const struct fsha1_backend *)row)->lanes(states, data, nblocks);
}

/*
 * The rows' PBKDF2 chain kernels (backend.h, struct fsha_chain_row): the
 * shani and shani_avx512 rows' for one and two chains, and avx512_x16's
 * lane chain kernel, its sixteen chains in registers. From 5 chains on
 * that beats shani_avx512's x2 and x1 kernels, the single-message row of
 * Intel with AVX-512; from 4 chains shani's (the entry for the other CPUs
 * with AVX-512, AMD's Zen 4, where it was not measured): Intel Xeon
 * (Emerald Rapids line),
 * fastsha_pbkdf2_many() of n one-block passwords, 10,000 iterations, best
 * of 5, ns an iteration of all n: the lane kernel 186-199 for any n from
 * 4 to 8 (204-210 from 6 to 16 in an earlier session); shani_avx512's
 * kernels 82 (n = 2), 140 (3), 164 (4), 223 (5); shani's, before that
 * row, 114 (2), 188 (3), 227 (4), 302 (5), when this was 4 (2026-12-06).
 * Below 5 chains only with this kernel: the row's min_lanes of 5 is for
 * its lanes.
 */
static const struct fsha_chain_row chain_rows[] = {
#if defined(FSHA_HAVE_SHA1_SHANI_AVX512) && defined(FSHA_HAVE_SHA1_PART_SHANI_AVX512_CHAIN)
	{ &fsha1_backend_shani_avx512.info, 0,
	  { fsha1_shani_avx512_chain_x1, fsha1_shani_avx512_chain_x2, NULL }, NULL, 0 },
#endif
#if defined(FSHA_HAVE_SHA1_SHANI) && defined(FSHA_HAVE_SHA1_PART_SHANI_CHAIN)
	{ &fsha1_backend_shani.info, 0, { fsha1_shani_chain_x1, fsha1_shani_chain_x2, NULL }, NULL, 0 },
#endif
#if defined(FSHA_HAVE_SHA1_AVX512_X16) && defined(FSHA_HAVE_SHA1_PART_AVX512_X16_CHAIN)
#ifdef FSHA_HAVE_SHA1_SHANI_AVX512
	{ &fsha1_backend_avx512_x16.info, FSHA_CPU_TUNE_INTEL_AVX512, { NULL, NULL, NULL },
	  fsha1_avx512_x16_chain, 5 },
#endif
	{ &fsha1_backend_avx512_x16.info, 0, { NULL, NULL, NULL }, fsha1_avx512_x16_chain, 4 },
#endif
	{ NULL, 0, { NULL, NULL, NULL }, NULL, 0 },
};

const struct fsha_family fsha1_family = { "sha1", rows, sizeof(rows) / sizeof(rows[0]), &slot,
					      &many_slot, run_lanes, NULL, NULL, NULL, &plan,
					      yields, sizeof(yields) / sizeof(yields[0]), chain_rows };
