/* SPDX-License-Identifier: MIT */
/*
 * SHA1DC's filter with SSE2: 16 blocks a run, one a byte lane of xmm
 * registers (sha1dc_simd.h). Needs SSE2 (every x86_64 CPU; built with
 * -msse2 on this file for i686). Contract: the filter functions in
 * sha1_impl.h. The SSE2-only rows name fsha1dc_ops_sse2; the SHA-NI rows
 * name fsha1dc_ops_x86, which takes the AVX2 filter on CPUs that have it.
 */
#include <emmintrin.h>

#define FSHA1DC_VBYTES 16
#include "../sha1dc_simd.h"
#include "sha1dc_pairs.h"

void fsha1dc_filter_sse2(const uint8_t *const *blocks, size_t n, uint32_t *masks);

void fsha1dc_filter_sse2(const uint8_t *const *blocks, size_t n, uint32_t *masks)
{
	fsha1dc_simd_filter(blocks, n, masks);
}

/*
 * From the bytes SHA-NI kept (sha1_impl.h nar), 16 blocks a run: per group
 * of four words, 8 loads of two blocks' eight bytes, an unpack that pairs
 * each byte of the two (SSE2 has no byte shuffle), and the 8 x 8 transpose
 * of those pairs (sha1dc_pairs.h), which leaves block i in byte lane i.
 */
uint64_t fsha1dc_filter_rec_sse2(const uint64_t *nar, size_t n, uint32_t *masks)
{
	uint64_t flagged = 0;
	for (size_t i0 = 0; i0 < n; i0 += 16) {
		fsha1dc_v16 b0[65], b3[65], m[4];
		const size_t left = n - i0;
		for (int g = 0; g < 9; g++) {
			const uint64_t *p = nar + FSHA1DC_NAR_STRIDE * g + i0;
			__m128i x[8];
			for (int j = 0; j < 8; j++) {
				/* The run's last loads: only entries below n
				 * (sha1_impl.h), the lanes past them zero. */
				const size_t have = left > 2 * (size_t)j ? left - 2 * (size_t)j : 0;
				const __m128i v =
					have >= 2 ? _mm_loadu_si128((const __m128i *)(p + 2 * j))
					: have	  ? _mm_loadl_epi64((const __m128i *)(p + 2 * j))
						  : _mm_setzero_si128();
				x[j] = _mm_unpacklo_epi8(v, _mm_unpackhi_epi64(v, v));
			}
#define NAR_OUT(k, v)                                                                          \
	do {                                                                                   \
		const int w_ = FSHA1DC_PAIR_WORD(g, k);                                        \
		if (w_ >= 35 && w_ <= 64)                                                      \
			*((k) < 4 ? &b0[w_] : &b3[w_]) = (fsha1dc_v16)(v);                     \
	} while (0)
			FSHA1DC_PAIR_TRANSPOSE(__m128i, _mm, x, NAR_OUT);
#undef NAR_OUT
		}
		fsha1dc_simd_masks(b0, b3, m);
		const __m128i mv[4] = { (__m128i)m[0], (__m128i)m[1], (__m128i)m[2], (__m128i)m[3] };
		const size_t k = n - i0 < 16 ? n - i0 : 16;
		flagged |= (uint64_t)fsha1dc_pair_masks_128(mv, k, masks + i0) << i0;
	}
	return flagged;
}

const struct fsha1dc_ops fsha1dc_ops_sse2 = { fsha1dc_filter_sse2, NULL, NULL, NULL, NULL,
					      fsha1dc_recheck_x86, NULL, NULL, NULL, 0 };

/*
 * The SHA-NI rows' filters. They need no AVX2, but nearly every CPU with
 * SHA-NI has it (Intel Goldmont and its successors are the exception), and
 * the AVX2 filter takes well under half the time per block (16 blocks a
 * run against 8, and loads transposed with shuffles). The AVX2 functions
 * return with the upper halves cleared, so the legacy-SSE SHA-NI code that
 * runs next is not slowed.
 */
void fsha1dc_filter_x86(const uint8_t *const *blocks, size_t n, uint32_t *masks)
{
#ifdef FSHA_HAVE_SHA1_PART_DC_AVX2
	if (fsha_cpu_features() & FSHA_CPU_AVX2) {
		fsha1dc_filter_avx2(blocks, n, masks);
		return;
	}
#endif
	fsha1dc_simd_filter(blocks, n, masks);
}

/* AVX-512's filter on records and recheck where the CPU has F and BW
 * (x86/sha1dc_avx512.c; on Zen 4 1.1-1.2x and 1.4-1.5x AVX2's, scratch
 * loops of 64 records and 16 jobs). */
#define DC_AVX512 (FSHA_CPU_AVX512F | FSHA_CPU_AVX512BW)

uint64_t fsha1dc_filter_rec_x86(const uint64_t *nar, size_t n, uint32_t *masks)
{
#ifdef FSHA_HAVE_SHA1_PART_DC_AVX512
	if ((fsha_cpu_features() & DC_AVX512) == DC_AVX512)
		return fsha1dc_filter_rec_avx512(nar, n, masks);
#endif
#ifdef FSHA_HAVE_SHA1_PART_DC_AVX2
	if (fsha_cpu_features() & FSHA_CPU_AVX2)
		return fsha1dc_filter_rec_avx2(nar, n, masks);
#endif
	return fsha1dc_filter_rec_sse2(nar, n, masks);
}

void fsha1dc_recheck_x86(struct fsha1dc_job *const *jobs, size_t n)
{
#ifdef FSHA_HAVE_SHA1_PART_DC_AVX512
	if ((fsha_cpu_features() & DC_AVX512) == DC_AVX512) {
		fsha1dc_recheck_avx512(jobs, n);
		return;
	}
#endif
#ifdef FSHA_HAVE_SHA1_PART_DC_AVX2
	if (fsha_cpu_features() & FSHA_CPU_AVX2) {
		fsha1dc_recheck_avx2(jobs, n);
		return;
	}
#endif
	fsha1dc_recheck_portable(jobs, n);
}

/* The filters for rows that add no record-keeping loop of their own. */
const struct fsha1dc_ops fsha1dc_ops_x86 = { fsha1dc_filter_x86, NULL, NULL, NULL, NULL,
					     fsha1dc_recheck_x86, NULL, NULL, NULL, 0 };
