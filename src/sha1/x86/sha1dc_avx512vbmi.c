/* SPDX-License-Identifier: MIT */
/*
 * SHA1DC's filter on the schedule words a 16-lane kernel keeps (struct
 * fsha1dc_words, sha1_impl.h; the avx512_x16 row), with AVX-512 F, BW and
 * VBMI (-mavx512f -mavx512bw -mavx512vbmi on this file only: VBMI is
 * what vpermt2b needs, and the other AVX-512 files must run without it).
 * Contract: fsha1dc_filter_words_fn.
 *
 * The filter (sha1dc_simd.h at 64-byte width) wants, for each of W[35..64],
 * byte 0 of 64 records in one vector and byte 3 in another. Four blocks of
 * 16 lanes hold those 64 records' W[t] in four vectors of 16 words; one
 * vpermt2b takes bytes 0 and 3 of the 32 words of two of them, a second
 * those of the other two, and two 256-bit half moves (vshufi64x2) make the
 * two planes: 4 shuffles a word, where the nar path spent 8 in the kernel
 * (vpshufb, unpacks, permutes) and 9.6 more in its filter's transpose.
 * Record r is byte r of the planes, so the masks come out in order.
 */
#include <immintrin.h>
#include <stddef.h>
#include <string.h>

#define FSHA1DC_VBYTES 64
#define FSHA1DC_MASKS_ONLY 1
#include "../sha1dc_simd.h"

_Static_assert(FSHA1DC_RECW_L == 16, "four blocks of words fill a 64-byte plane");

/*
 * The 32-bit masks of records 0..63 from the filter's m[0..3] (byte r of
 * m[q]: DVs 8q..8q+7 of record r): for records 16j..16j+15, one vpermt2b
 * puts byte r of m[0] and m[1] at bytes 0, 1 (and 2, 3) of dword r - 16j,
 * another those of m[2] and m[3] at bytes 0, 1, 2, 3, and a blend keeps
 * the first's bytes 0, 1 and the second's 2, 3. The first @k masks to
 * @masks; returns the nonzero ones' bits.
 */
static inline __attribute__((always_inline)) uint64_t masks_of(const fsha1dc_v16 m[4], size_t k,
							      uint32_t *masks)
{
	/* bytes 4q and 4q + 2 from record q of the first table, 4q + 1 and
	 * 4q + 3 from record q of the second (index + 64) */
	uint8_t ix[64];
	for (int b = 0; b < 64; b++)
		ix[b] = (uint8_t)(b / 4 + (b & 1) * 64);
	const __m512i idx0 = _mm512_loadu_si512((const void *)ix);
	const __m512i m0 = (__m512i)m[0], m1 = (__m512i)m[1], m2 = (__m512i)m[2],
		      m3 = (__m512i)m[3];
	uint64_t nonzero = 0;
	for (int j = 0; j < 4 && 16 * (size_t)j < k; j++) {
		const __m512i idx = _mm512_add_epi8(idx0, _mm512_set1_epi8((char)(16 * j)));
		const __m512i v = _mm512_mask_blend_epi8(
			(__mmask64)0xccccccccccccccccull, _mm512_permutex2var_epi8(m0, idx, m1),
			_mm512_permutex2var_epi8(m2, idx, m3));
		nonzero |= (uint64_t)_mm512_test_epi32_mask(v, v) << (16 * j);
		/* @k is a multiple of 16: whole vectors */
		_mm512_storeu_si512((void *)(masks + 16 * j), v);
	}
	return nonzero;
}

uint64_t fsha1dc_filter_words_avx512vbmi(const struct fsha1dc_words *words, size_t n,
					 uint32_t *masks)
{
	/* Bytes 0 (0..31) and 3 (32..63) of the 32 words of (x, y): x's lane
	 * l is table byte 4 l, y's 64 + 4 l. */
	uint8_t ix[64];
	for (int b = 0; b < 64; b++)
		ix[b] = (uint8_t)((b & 16) * 4 + (b & 15) * 4 + (b >= 32 ? 3 : 0));
	const __m512i idx = _mm512_loadu_si512((const void *)ix);
	/* a call of fewer than 64 records reads its first block again for
	 * the missing ones (their masks are not stored) */
	const struct fsha1dc_words *e[4];
	for (size_t q = 0; q < 4; q++)
		e[q] = words + (16 * q < n ? q : 0);
	fsha1dc_v16 b0[65], b3[65], m[4];
	for (int t = FSHA1DC_WORDS_T0; t < FSHA1DC_WORDS_T0 + FSHA1DC_WORDS_N; t++) {
		const int i = t - FSHA1DC_WORDS_T0;
		const __m512i x01 = _mm512_permutex2var_epi8(
			_mm512_loadu_si512((const void *)e[0]->w[i]), idx,
			_mm512_loadu_si512((const void *)e[1]->w[i]));
		const __m512i x23 = _mm512_permutex2var_epi8(
			_mm512_loadu_si512((const void *)e[2]->w[i]), idx,
			_mm512_loadu_si512((const void *)e[3]->w[i]));
		b0[t] = (fsha1dc_v16)_mm512_shuffle_i64x2(x01, x23, 0x44); /* low halves */
		b3[t] = (fsha1dc_v16)_mm512_shuffle_i64x2(x01, x23, 0xee); /* high halves */
	}
	fsha1dc_simd_masks(b0, b3, m);
	return masks_of(m, n, masks);
}
