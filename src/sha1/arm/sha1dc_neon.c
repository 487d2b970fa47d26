/* SPDX-License-Identifier: MIT */
/*
 * SHA1DC's filter with AArch64 NEON (Advanced SIMD): 16 blocks a run,
 * one a byte lane of 128-bit registers (sha1dc_simd.h). Every AArch64 CPU has
 * NEON; the armv8 rows name fsha1dc_ops_neon. Contract: the filter
 * functions in sha1_impl.h.
 */
#define FSHA1DC_VBYTES 16
#include "../sha1dc_simd.h"

static void filter(const uint8_t *const *blocks, size_t n, uint32_t *masks)
{
	fsha1dc_simd_filter(blocks, n, masks);
}

const struct fsha1dc_ops fsha1dc_ops_neon = { filter, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0 };
