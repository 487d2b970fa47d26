/* SPDX-License-Identifier: MIT */
/*
 * The SHA-NI SHA-256 round helpers, shared by sha256_shani.c (one stream)
 * and the lane kernels that interleave two or four independent streams to
 * fill the gaps of the sha256rnds2 chain. Everything here is a macro or an
 * always_inline function, compiled inside each kernel with that file's
 * -msha -mssse3, so the round sequence is written once.
 *
 * Technique: SHA-Intrinsics (seed 003, after Intel's and Sean Gulley's
 * code). sha256rnds2 does two rounds on a state split in two registers,
 * ABEF and CDGH (A and C in the top lanes); its output is the new ABEF and
 * the ABEF that went in is the new CDGH, so two calls with the operands
 * swapped make four rounds and leave the roles as they were. W+K for the
 * two rounds rides in the low two lanes of the implicit xmm0 operand.
 * sha256msg1 adds sigma0 of W[t-15..t-12] to W[t-16..t-13], the alignr
 * supplies W[t-7..t-4], and sha256msg2 adds sigma1 of W[t-2], W[t-1]
 * (finishing W[t], W[t+1] first, then W[t+2], W[t+3] from them).
 *
 * A lane kernel keeps abef, cdgh and w0..w3 per stream and issues each
 * quad (and schedule step) for every stream in turn; the K loads are the
 * same address and the compiler shares them. On Zen 3 one stream is bound
 * by the chain (4-cycle sha256rnds2, 129 cycles a block, see
 * sha256_shani.c), while sha256rnds2 issues every cycle, so up to four
 * streams fit in its latency; sha256msg2 issues only every 2 cycles (12 a
 * block, 24 cycles per stream-block), sha256msg1 faster than one a cycle.
 */
#ifndef FSHA256_X86_SHANI_H
#define FSHA256_X86_SHANI_H

#include <immintrin.h>

#include "../sha256_impl.h"

#define FSHA256_NI_INLINE static inline __attribute__((always_inline))

/*
 * H0..H7 to the ABEF and CDGH operands (lanes 0..3: F E B A and H G D C).
 * shufps takes two lanes from each source, so each operand is one
 * instruction on the chain instead of pshufd then palignr or pblendw.
 */
FSHA256_NI_INLINE void fsha256_ni_load_state(const uint32_t state[8], __m128i *abef, __m128i *cdgh)
{
	__m128 abcd = _mm_loadu_ps((const float *)state), efgh = _mm_loadu_ps((const float *)(state + 4));

	*abef = _mm_castps_si128(_mm_shuffle_ps(efgh, abcd, _MM_SHUFFLE(0, 1, 0, 1)));
	*cdgh = _mm_castps_si128(_mm_shuffle_ps(efgh, abcd, _MM_SHUFFLE(2, 3, 2, 3)));
}

/* The inverse of fsha256_ni_load_state. */
FSHA256_NI_INLINE void fsha256_ni_store_state(uint32_t state[8], __m128i abef, __m128i cdgh)
{
	__m128 x = _mm_castsi128_ps(abef), y = _mm_castsi128_ps(cdgh);

	_mm_storeu_ps((float *)state, _mm_shuffle_ps(x, y, _MM_SHUFFLE(2, 3, 2, 3)));
	_mm_storeu_ps((float *)(state + 4), _mm_shuffle_ps(x, y, _MM_SHUFFLE(0, 1, 0, 1)));
}

/* W[4i..4i+3] of the block at @p, W[4i] in lane 0 (big-endian words). */
FSHA256_NI_INLINE __m128i fsha256_ni_load_w(const uint8_t *p, int i)
{
	const __m128i bswap32 = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);

	return _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16 * i)), bswap32);
}

/*
 * Rounds 4i..4i+3 from W[4i..4i+3] in @w. loadu because fsha256_k carries
 * no alignment promise; the load and the add hang off the chain.
 */
#define FSHA256_NI_QUAD(abef, cdgh, w, i)                                                   \
	do {                                                                                \
		__m128i wk_ = _mm_add_epi32(                                                \
			(w), _mm_loadu_si128((const __m128i *)(fsha256_k + 4 * (i))));      \
		(cdgh) = _mm_sha256rnds2_epu32((cdgh), (abef), wk_);                        \
		(abef) = _mm_sha256rnds2_epu32((abef), (cdgh), _mm_shuffle_epi32(wk_, 0x0e)); \
	} while (0)

/*
 * W[t..t+3] into @a, which held W[t-16..t-13]; @b, @c, @d hold the next
 * three groups.
 */
#define FSHA256_NI_SCHED(a, b, c, d)                                                  \
	((a) = _mm_sha256msg2_epu32(                                                  \
		 _mm_add_epi32(_mm_sha256msg1_epu32((a), (b)), _mm_alignr_epi8((d), (c), 4)), \
		 (d)))

#endif
