/* SPDX-License-Identifier: MIT */
#ifndef FSHA1DC_X86_PAIRS_H
#define FSHA1DC_X86_PAIRS_H

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

/*
 * SHA1DC's narrowed bytes into byte planes (sha1_impl.h, nar): each
 * 128-bit lane of x[0..7] holds two records' eight bytes, already shuffled
 * so that byte k of both sits in 16-bit pair k. The 8 x 8 transpose of
 * those pairs within each 128-bit lane gives, for each k, one vector of
 * byte k of all the records, handed to OUT(k, v). T is the vector type and
 * P the intrinsics' prefix (__m128i and _mm for the SSE pipeline in
 * sha1_shani.c, __m256i and _mm256 for the AVX2 filter in sha1dc_avx2.c),
 * so the sequence is written once for both widths.
 */
#define FSHA1DC_PAIR_TRANSPOSE(T, P, x, OUT)                                                   \
	do {                                                                                   \
		T t_[8], u_[8];                                                                \
		for (int j_ = 0; j_ < 4; j_++) {                                               \
			t_[2 * j_] = P##_unpacklo_epi16(x[2 * j_], x[2 * j_ + 1]);              \
			t_[2 * j_ + 1] = P##_unpackhi_epi16(x[2 * j_], x[2 * j_ + 1]);          \
		}                                                                              \
		for (int j_ = 0; j_ < 2; j_++) {                                               \
			u_[4 * j_] = P##_unpacklo_epi32(t_[4 * j_], t_[4 * j_ + 2]);            \
			u_[4 * j_ + 1] = P##_unpackhi_epi32(t_[4 * j_], t_[4 * j_ + 2]);        \
			u_[4 * j_ + 2] = P##_unpacklo_epi32(t_[4 * j_ + 1], t_[4 * j_ + 3]);    \
			u_[4 * j_ + 3] = P##_unpackhi_epi32(t_[4 * j_ + 1], t_[4 * j_ + 3]);    \
		}                                                                              \
		for (int k_ = 0; k_ < 8; k_++)                                                 \
			OUT(k_, ((k_ & 1) ? P##_unpackhi_epi64(u_[k_ >> 1], u_[4 + (k_ >> 1)])   \
					  : P##_unpacklo_epi64(u_[k_ >> 1], u_[4 + (k_ >> 1)]))); \
	} while (0)

/* The word whose byte 0 (k < 4) or byte 3 (k >= 4) is byte k of group g's
 * eight (sha1_impl.h, nar): W[35 + 4g - k % 4]. */
#define FSHA1DC_PAIR_WORD(g, k) (35 + 4 * (g) - ((k) & 3))

/*
 * A filter run's result m[0..3] (byte lane i of m[d / 8], bit d % 8: DV d
 * on the block in lane i) as 32-bit masks, for planes filled from nar as
 * above: the first @k (1..lanes) masks to @masks in block order, nothing
 * past them. Returns the blocks whose mask is not 0, bit i for block i,
 * worked out in vectors (a caller that read every mask back with scalar
 * loads stalled on store forwarding). One each for the x86 filters on nar
 * and the pipelines (sha1dc_sse2.c, sha1dc_avx2.c, sha1dc_pipe.h).
 */
#include <string.h>

/* 16 lanes, lane i holding block i. SSE2 only. */
static inline __attribute__((always_inline)) uint32_t
fsha1dc_pair_masks_128(const __m128i m[4], size_t k, uint32_t *masks)
{
	const __m128i lo01 = _mm_unpacklo_epi8(m[0], m[1]), hi01 = _mm_unpackhi_epi8(m[0], m[1]);
	const __m128i lo23 = _mm_unpacklo_epi8(m[2], m[3]), hi23 = _mm_unpackhi_epi8(m[2], m[3]);
	const __m128i v[4] = { _mm_unpacklo_epi16(lo01, lo23), _mm_unpackhi_epi16(lo01, lo23),
			       _mm_unpacklo_epi16(hi01, hi23), _mm_unpackhi_epi16(hi01, hi23) };
	uint32_t zero = 0;
	for (int j = 0; j < 4; j++)
		zero |= (uint32_t)_mm_movemask_ps(
				_mm_castsi128_ps(_mm_cmpeq_epi32(v[j], _mm_setzero_si128())))
			<< (4 * j);
	if (k == 16)
		for (int j = 0; j < 4; j++)
			_mm_storeu_si128((__m128i *)(masks + 4 * j), v[j]);
	else
		memcpy(masks, v, k * sizeof(uint32_t));
	return ~zero & (0xffffu >> (16 - k));
}

#ifdef __AVX2__
/* 32 lanes, the loads of four blocks' eight bytes putting lane i < 16 on
 * block 4 (i / 2) + i % 2 and lane i >= 16 on 4 ((i - 16) / 2) + 2 + i % 2:
 * the unpacks leave dwords 0,1,4,5,2,3,6,7 of each vector in block order
 * after a permute. */
static inline __attribute__((always_inline)) uint32_t
fsha1dc_pair_masks_256(const __m256i m[4], size_t k, uint32_t *masks)
{
	const __m256i order = _mm256_set_epi32(7, 6, 3, 2, 5, 4, 1, 0);
	const __m256i lo01 = _mm256_unpacklo_epi8(m[0], m[1]), hi01 = _mm256_unpackhi_epi8(m[0], m[1]);
	const __m256i lo23 = _mm256_unpacklo_epi8(m[2], m[3]), hi23 = _mm256_unpackhi_epi8(m[2], m[3]);
	__m256i v[4] = { _mm256_unpacklo_epi16(lo01, lo23), _mm256_unpackhi_epi16(lo01, lo23),
			 _mm256_unpacklo_epi16(hi01, hi23), _mm256_unpackhi_epi16(hi01, hi23) };
	uint32_t zero = 0;
	for (int j = 0; j < 4; j++) {
		v[j] = _mm256_permutevar8x32_epi32(v[j], order);
		zero |= (uint32_t)_mm256_movemask_ps(
				_mm256_castsi256_ps(_mm256_cmpeq_epi32(v[j], _mm256_setzero_si256())))
			<< (8 * j);
	}
	if (k == 32)
		for (int j = 0; j < 4; j++)
			_mm256_storeu_si256((__m256i *)(masks + 8 * j), v[j]);
	else
		memcpy(masks, v, k * sizeof(uint32_t));
	return ~zero & (UINT32_MAX >> (32 - k));
}
#endif

#endif
