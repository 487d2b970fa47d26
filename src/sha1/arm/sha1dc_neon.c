/* SPDX-License-Identifier: MIT */
/*
 * SHA1DC's filter with AArch64 NEON (Advanced SIMD): 8 blocks a run, in
 * 16-bit lanes of 128-bit registers (sha1dc_simd.h). Every AArch64 CPU has
 * NEON; the armv8 rows name it as their dc_filter. Contract:
 * fsha1dc_filter_fn in sha1dc_impl.h.
 */
#define FSHA1DC_VBYTES 16
#include "../sha1dc_simd.h"

void fsha1dc_filter_neon(const uint8_t *data, size_t n, uint32_t *masks)
{
	fsha1dc_simd_filter(data, n, masks);
}
