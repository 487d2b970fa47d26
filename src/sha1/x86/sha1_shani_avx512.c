/* SPDX-License-Identifier: MIT */
/*
 * shani_avx512: SHA-1 on the x86 SHA extensions with the message schedule
 * in AVX-512VL instructions instead of sha1msg2 (sha1_shani.h,
 * fsha1_ni_sched_vl()); the rounds are the shani row's.
 * Needs SHA, SSE4.1, SSSE3, AVX-512F and AVX-512VL (xmm registers only).
 * Contract (sha1_impl.h): as sha1_shani.c.
 */
#define FSHA1_NI_VL 1
#include "sha1_shani.h"

static void blocks(uint32_t state[5], const uint8_t *data, size_t nblocks)
{
	fsha1_ni_blocks(state, data, nblocks);
}

/*
 * SHA1DC on this row runs the shani row's parts (its record-keeping loop
 * and pipeline, on sha1msg2's schedule): without them SHA1DC took the
 * scalar path, 0.18x OpenSSL's SHA-1 against shani's 0.78x.
 */
#if defined(FSHA_HAVE_SHA1_SHANI) && defined(FSHA_HAVE_SHA1_PART_DC_SSE2)
#define DC_OPS (&fsha1dc_ops_shani)
#else
#define DC_OPS NULL
#endif

const struct fsha1_backend fsha1_backend_shani_avx512 = {
	{ "shani_avx512", FSHA_CPU_SHA | FSHA_CPU_SSE41 | FSHA_CPU_SSSE3 | FSHA_CPU_AVX512F | FSHA_CPU_AVX512VL, 1, 1, 0, 0 },
	blocks, NULL, DC_OPS
};
