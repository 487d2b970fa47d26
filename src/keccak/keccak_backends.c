/* SPDX-License-Identifier: MIT */
/*
 * The Keccak backend table: which backends exist and which is preferred,
 * nothing else (each row is defined in its backend's file; the choice
 * among rows is src/core/dispatch.c's). Best first; the first row the CPU
 * can run is chosen. FSHA_HAVE_KECCAK_* come from cmake/backends.cmake.
 */
#include "keccak_impl.h"

extern const struct fsha_keccak_backend fsha_keccak_backend_avx2_x4, fsha_keccak_backend_avx2_x4s,
	fsha_keccak_backend_bmi2,
	fsha_keccak_backend_portable, fsha_keccak_backend_portable_x4, fsha_keccak_backend_reference;
/* AVX-512 (x86/). */
extern const struct fsha_keccak_backend fsha_keccak_backend_avx512_x8, fsha_keccak_backend_avx512;
/* AArch64 with the SHA3 instructions (arm/). */
extern const struct fsha_keccak_backend fsha_keccak_backend_armv8_x2, fsha_keccak_backend_armv8;

static const struct fsha_backend_info *const rows[] = {
	/* Lane rows (FSHA_AUTO_MANY only): the batch choice takes the first. */
#ifdef FSHA_HAVE_KECCAK_AVX512_X8
	&fsha_keccak_backend_avx512_x8.info,
#endif
#ifdef FSHA_HAVE_KECCAK_AVX2_X4
	&fsha_keccak_backend_avx2_x4.info,
#endif
	/* The same kernel with fewer vector shifts: what Zen 2 runs
	 * (avx2_x4 yields to it there, below); keccak_avx2_x4s.c says why. */
#ifdef FSHA_HAVE_KECCAK_AVX2_X4S
	&fsha_keccak_backend_avx2_x4s.info,
#endif
#ifdef FSHA_HAVE_KECCAK_BMI2
	&fsha_keccak_backend_bmi2.info,
#endif
	/* By name only: slower than bmi2 where measured (keccak_avx512.c). */
#ifdef FSHA_HAVE_KECCAK_AVX512
	&fsha_keccak_backend_avx512.info,
#endif
	/* AArch64: the lane row (FSHA_AUTO_MANY only, for batches) before the
	 * single-stream rows, as in the other families' tables. */
#ifdef FSHA_HAVE_KECCAK_ARMV8_X2
	&fsha_keccak_backend_armv8_x2.info,
#endif
	&fsha_keccak_backend_portable.info,
	/* After portable: chosen only by name (keccak_armv8.c says why). */
#ifdef FSHA_HAVE_KECCAK_ARMV8
	&fsha_keccak_backend_armv8.info,
#endif
	&fsha_keccak_backend_portable_x4.info,
	&fsha_keccak_backend_reference.info,
};

/* AMD Zen 2: batches on avx2_x4s (keccak_avx2_x4s.c has the figures). */
static const struct fsha_yield yields[] = {
#ifdef FSHA_HAVE_KECCAK_AVX2_X4
	{ &fsha_keccak_backend_avx2_x4.info, FSHA_CPU_TUNE_ZEN2, 0 },
#endif
	{ NULL, 0, 0 }, /* no row: keeps the array non-empty in every build */
};

static _Atomic(const struct fsha_backend_info *) slot, many_slot;
static struct fsha_lane_plan plan;

/* The MD scheduler's hooks are NULL: the Keccak lanes have their own
 * entries (struct fsha_keccak_backend) and sponge batches their own loop. */
const struct fsha_family fsha_keccak_family = {
	"keccak", rows, sizeof(rows) / sizeof(rows[0]), &slot, &many_slot,
	NULL, NULL, NULL, NULL, &plan, yields, sizeof(yields) / sizeof(yields[0]), NULL,
};
