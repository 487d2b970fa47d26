/* SPDX-License-Identifier: MIT */
/*
 * SHA1DC's filter with SSE2: 8 blocks a run, in 16-bit lanes of xmm
 * registers (sha1dc_simd.h). Needs SSE2 (every x86_64 CPU; built with
 * -msse2 on this file for i686); the SHA-NI rows name it as their
 * dc_filter, since SHA-NI CPUs have SSE2 but not always AVX2.
 * Contract: fsha1dc_filter_fn in sha1dc_impl.h.
 */
#define FSHA1DC_VBYTES 16
#include "../sha1dc_simd.h"

void fsha1dc_filter_sse2(const uint8_t *data, size_t n, uint32_t *masks)
{
	fsha1dc_simd_filter(data, n, masks);
}

/*
 * The SHA-NI rows' filter. They need no AVX2, but nearly every CPU with
 * SHA-NI has it (Intel Goldmont and its successors are the exception), and
 * the AVX2 filter takes less than half the time per block (16 blocks a run
 * against 8, and its loads transposed with shuffles). Its function returns
 * with the upper halves cleared (vzeroupper), so the legacy-SSE SHA-NI code
 * that runs next is not slowed.
 */
void fsha1dc_filter_x86(const uint8_t *data, size_t n, uint32_t *masks)
{
#ifdef FSHA_HAVE_SHA1_PART_DC_AVX2
	if (fsha_cpu_features() & FSHA_CPU_AVX2) {
		fsha1dc_filter_avx2(data, n, masks);
		return;
	}
#endif
	fsha1dc_simd_filter(data, n, masks);
}
