/* SPDX-License-Identifier: MIT */
/*
 * SHA1DC's filter with AVX2: 16 blocks a run, in 16-bit lanes of ymm
 * registers (sha1dc_simd.h). Needs AVX2; built with -mavx2 on this file
 * only. Contract: fsha1dc_filter_fn in sha1dc_impl.h. The SHA-1 rows whose
 * CPU bits include AVX2 name it, and the SHA-NI rows reach it through
 * fsha1dc_filter_x86() below on CPUs that have AVX2.
 *
 * The message words reach the lanes by whole-block loads and an 8 x 8
 * transpose of 32-bit words (unpack 32, unpack 64, swap 128-bit halves),
 * instead of the generic code's word-by-word gather, whose narrow stores
 * the vector loads could not take from the store buffer.
 */
#include <immintrin.h>

#define FSHA1DC_VBYTES 32
#define FSHA1DC_HAVE_EXPAND 1
#include "../sha1dc_simd.h"

/* Words 0..7 of the 8 rows r[] (one block each) into lanes: out[j] holds
 * word j of every block, block l in lane l. */
static inline __attribute__((always_inline)) void transpose8(const __m256i r[8], __m256i out[8])
{
	__m256i a0 = _mm256_unpacklo_epi32(r[0], r[1]), a1 = _mm256_unpackhi_epi32(r[0], r[1]);
	__m256i a2 = _mm256_unpacklo_epi32(r[2], r[3]), a3 = _mm256_unpackhi_epi32(r[2], r[3]);
	__m256i a4 = _mm256_unpacklo_epi32(r[4], r[5]), a5 = _mm256_unpackhi_epi32(r[4], r[5]);
	__m256i a6 = _mm256_unpacklo_epi32(r[6], r[7]), a7 = _mm256_unpackhi_epi32(r[6], r[7]);
	__m256i b0 = _mm256_unpacklo_epi64(a0, a2), b1 = _mm256_unpackhi_epi64(a0, a2);
	__m256i b2 = _mm256_unpacklo_epi64(a1, a3), b3 = _mm256_unpackhi_epi64(a1, a3);
	__m256i b4 = _mm256_unpacklo_epi64(a4, a6), b5 = _mm256_unpackhi_epi64(a4, a6);
	__m256i b6 = _mm256_unpacklo_epi64(a5, a7), b7 = _mm256_unpackhi_epi64(a5, a7);
	out[0] = _mm256_permute2x128_si256(b0, b4, 0x20);
	out[1] = _mm256_permute2x128_si256(b1, b5, 0x20);
	out[2] = _mm256_permute2x128_si256(b2, b6, 0x20);
	out[3] = _mm256_permute2x128_si256(b3, b7, 0x20);
	out[4] = _mm256_permute2x128_si256(b0, b4, 0x31);
	out[5] = _mm256_permute2x128_si256(b1, b5, 0x31);
	out[6] = _mm256_permute2x128_si256(b2, b6, 0x31);
	out[7] = _mm256_permute2x128_si256(b3, b7, 0x31);
}

static inline __attribute__((always_inline)) void
fsha1dc_simd_expand(const uint8_t *const *p, fsha1dc_v32 *w)
{
	/* Byte swap of each 32-bit word and the rotation left by 4. */
	const __m256i bswap = _mm256_set_epi8(12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3,
					      12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3);
	fsha1dc_v32 x[16];
	for (int half = 0; half < 2; half++) {
		__m256i r[8], c[8];
		for (int l = 0; l < 8; l++)
			r[l] = _mm256_shuffle_epi8(
				_mm256_loadu_si256((const __m256i *)(p[l] + 32 * half)), bswap);
		transpose8(r, c);
		for (int j = 0; j < 8; j++) {
			fsha1dc_v32 v = (fsha1dc_v32)c[j];
			x[8 * half + j] = (v << 4) | (v >> 28);
		}
	}
	FSHA1DC_SIMD_SCHEDULE(x, w);
}

void fsha1dc_filter_avx2(const uint8_t *data, size_t n, uint32_t *masks)
{
	fsha1dc_simd_filter(data, n, masks);
}
