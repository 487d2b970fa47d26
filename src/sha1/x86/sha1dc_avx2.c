/* SPDX-License-Identifier: MIT */
/*
 * SHA1DC's filter with AVX2: 16 blocks a run, in 16-bit lanes of ymm
 * registers (sha1dc_simd.h), on message blocks or on the records SHA-NI
 * kept. Needs AVX2; built with -mavx2 on this file only. Contract:
 * fsha1dc_filter_fn and fsha1dc_filter_rec_fn in sha1_impl.h. The rows
 * whose CPU bits include AVX2 name fsha1dc_ops_avx2; the SHA-NI rows reach
 * these functions through sha1dc_sse2.c's dispatch on CPUs that have AVX2.
 * Every function here returns with the upper halves of the ymm registers
 * cleared (GCC's vzeroupper at the exit of a function that used them), so
 * the legacy-SSE SHA-NI code that runs next is not slowed.
 *
 * Words reach the lanes by whole-block (or whole-record) loads and the 8 x 8
 * transpose of 32-bit words the AVX2 lane kernels use (core/lanes_avx2.h),
 * instead of the generic code's word-by-word gather, whose narrow stores
 * the vector loads could not take from the store buffer; two groups of 8
 * blocks are narrowed to 16-bit lanes by one byte shuffle each.
 */
#include <immintrin.h>

#define FSHA1DC_VBYTES 32
#define FSHA1DC_HAVE_EXPAND 1
#define FSHA1DC_HAVE_NARROW 1
#define FSHA1DC_HAVE_LOAD_REC 1
#include "../sha1dc_simd.h"
#include "../../core/lanes_avx2.h"

FSHA1DC_SIMD_INLINE void fsha1dc_simd_expand(const uint8_t *const *p, fsha1dc_v32 *w)
{
	fsha1dc_v32 x[16];
	for (int half = 0; half < 2; half++) {
		__m256i c[8];
		fsha_x8_load_half(c, p, 32 * (size_t)half); /* the lane kernels' loader */
		for (int j = 0; j < 8; j++)
			x[8 * half + j] = (fsha1dc_v32)c[j];
	}
	FSHA1DC_SIMD_SCHEDULE(x, w);
}

FSHA1DC_SIMD_INLINE fsha1dc_v16 fsha1dc_simd_narrow(fsha1dc_v32 a, fsha1dc_v32 b)
{
	/* Bytes 0 and 3 of each word: @a's to the low 8 bytes of each 128-bit
	 * half, @b's to the high 8, then the 64-bit quarters put in block
	 * order (a0-3 a4-7 b0-3 b4-7). */
	const __m256i pa = _mm256_set_epi8(-1, -1, -1, -1, -1, -1, -1, -1, 15, 12, 11, 8, 7, 4, 3, 0,
					   -1, -1, -1, -1, -1, -1, -1, -1, 15, 12, 11, 8, 7, 4, 3, 0);
	const __m256i pb = _mm256_set_epi8(15, 12, 11, 8, 7, 4, 3, 0, -1, -1, -1, -1, -1, -1, -1, -1,
					   15, 12, 11, 8, 7, 4, 3, 0, -1, -1, -1, -1, -1, -1, -1, -1);
	__m256i v = _mm256_or_si256(_mm256_shuffle_epi8((__m256i)a, pa),
				    _mm256_shuffle_epi8((__m256i)b, pb));
	return (fsha1dc_v16)_mm256_permute4x64_epi64(v, 0xd8);
}

FSHA1DC_SIMD_INLINE void fsha1dc_simd_load_rec(const struct fsha1dc_rec *const *r, fsha1dc_v16 *w)
{
	fsha1dc_v32 g[2][68];
	for (int half = 0; half < 2; half++) {
		/* Pairs of groups, W[32+8q .. 39+8q], each group reversed; the
		 * last load (q = 4) runs on into s56, which is in the record. */
		for (int q = 0; q < 5; q++) {
			__m256i c[8];
			for (int l = 0; l < 8; l++)
				c[l] = _mm256_loadu_si256((const __m256i *)(r[8 * half + l]->w + 8 * q));
			fsha_x8_transpose(c);
			for (int j = 0; j < 8; j++) {
				int t = 32 + 8 * q + (j & 4) + 3 - (j & 3);
				if (t < 68)
					g[half][t] = (fsha1dc_v32)c[j];
			}
		}
	}
	for (int t = 35; t < 65; t++)
		w[t] = fsha1dc_simd_narrow(g[0][t], g[1][t]);
}

void fsha1dc_filter_avx2(const uint8_t *const *blocks, size_t n, uint32_t *masks)
{
	fsha1dc_simd_filter(blocks, n, masks);
}

void fsha1dc_filter_rec_avx2(const struct fsha1dc_rec *rec, size_t n, uint32_t *masks)
{
	fsha1dc_simd_filter_rec(rec, n, masks);
}

const struct fsha1dc_ops fsha1dc_ops_avx2 = { fsha1dc_filter_avx2, NULL, NULL, NULL };
