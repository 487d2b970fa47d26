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
 * The lane kernels (sha256_shani_x2.c, sha256_shani_x3.c) run
 * fsha256_ni_block() below, which keeps abef, cdgh and w0..w3 per stream
 * and issues each schedule step and each quad for every stream in turn; the
 * K loads are the same address and the compiler shares them. On Zen 3 one
 * stream is bound by the chain (4-cycle sha256rnds2, 129 cycles a block,
 * see sha256_shani.c), while sha256rnds2 issues every cycle, so up to four
 * streams fit in its latency; sha256msg2 issues only every 2 cycles (12 a
 * block, 24 cycles per stream-block), sha256msg1 faster than one a cycle.
 * But the schedule instructions hold up the unit sha256rnds2 needs: an
 * inline-asm x4 experiment (this sequence, no compiler spills) ran 58
 * cycles per block of each stream; leaving out the 12 sha256msg2 of a
 * block made it 45.7, the 12 sha256msg1 51.2, both 42.4, and the rounds
 * alone with W+K loaded from memory instead of split with pshufd ran 35.5.
 * So no width of this sequence gets much under 58 on Zen 3: x3 measures
 * 58.8 and x4 60.9 (sha256_shani_x3.c).
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
#if defined(FSHA256_NI_VL)
#if !defined(__AVX512F__) || !defined(__AVX512VL__)
#error "FSHA256_NI_VL needs a file built with -mavx512f -mavx512vl"
#endif
/*
 * The schedule step of the rows built with AVX-512VL (FSHA256_NI_VL,
 * sha256_shani_avx512.c): sha256msg1's part, W[t-16..t-13] plus sigma0 of
 * W[t-15..t-12], as vpalignr, two vprord, a shift and a vpternlogd, so
 * that of the SHA instructions only sha256rnds2 and sha256msg2 remain.
 * On the Intel Xeon of the Emerald Rapids line sha256rnds2 holds the SHA
 * unit for 3 cycles of its 4 and sha256msg1 (5 cycles deep) queues for it
 * there; in PBKDF2's chain, where each block's schedule starts only when
 * the block before ends, one password's iteration took 70.0 ns with this
 * against 72.2 (fastsha-bench --mac --quick -a sha256 --jobs pbkdf2, three
 * alternating runs each, 2026-12-06). sha256msg2 as vector code too (sigma1
 * in two halves, eight operations deep a step) took 94.6.
 */
FSHA256_NI_INLINE __m128i fsha256_ni_sched_vl(__m128i a, __m128i b, __m128i c, __m128i d)
{
	const __m128i s = _mm_alignr_epi8(b, a, 4);
	const __m128i sig0 = _mm_ternarylogic_epi32(_mm_ror_epi32(s, 7), _mm_ror_epi32(s, 18),
						    _mm_srli_epi32(s, 3), 0x96);
	return _mm_sha256msg2_epu32(_mm_add_epi32(_mm_add_epi32(a, sig0), _mm_alignr_epi8(d, c, 4)), d);
}
#define FSHA256_NI_SCHED(a, b, c, d) ((a) = fsha256_ni_sched_vl((a), (b), (c), (d)))
#else
#define FSHA256_NI_SCHED(a, b, c, d)                                                  \
	((a) = _mm_sha256msg2_epu32(                                                  \
		 _mm_add_epi32(_mm_sha256msg1_epu32((a), (b)), _mm_alignr_epi8((d), (c), 4)), \
		 (d)))
#endif

/*
 * The widest lane kernel: the size of the per-lane arrays below, of which
 * a kernel uses its first L (constant) entries, held in registers.
 */
#define FSHA256_NI_MAX_LANES 4
/* The widest PBKDF2 chain kernel (sha256_shani_chain.h), the size of
 * fsha256_ni_hash_u()'s arrays. */
#define FSHA256_NI_CHAIN_MAX 3

/* For each lane l < L, fully unrolled (L is a constant at every use).
 * Clang takes "GCC unroll" too, but then unrolls only partly. */
#if defined(__clang__)
#define FSHA256_NI_EACH(l, L) _Pragma("unroll") for (int l = 0; l < (L); l++)
#else
#define FSHA256_NI_EACH(l, L) _Pragma("GCC unroll 4") for (int l = 0; l < (L); l++)
#endif

/*
 * Keeps @x in its stack slot: the empty asm claims to change it there, so
 * the compiler stores it once and reloads it where it is next used, and it
 * emits no instruction. For the chaining values saved at the top of a
 * block and added back at its end, so that with several lanes the 16 xmm
 * registers go to the schedule (x2 4%, x3 2%, x4 5% faster on Zen 3).
 */
#define FSHA256_NI_TO_MEMORY(x) __asm__("" : "+m"(x))

/* In fsha256_ni_block(): every lane's quad i from its group w[l][j], and
 * every lane's schedule step into w[l][a]. */
#define FSHA256_NI_QUADS(L, j, i) \
	do { FSHA256_NI_EACH(l_, L) FSHA256_NI_QUAD(abef[l_], cdgh[l_], w[l_][j], i); } while (0)
#define FSHA256_NI_SCHEDS(L, a, b, c, d) \
	do { FSHA256_NI_EACH(l_, L) FSHA256_NI_SCHED(w[l_][a], w[l_][b], w[l_][c], w[l_][d]); } while (0)

/*
 * In fsha256_ni_block() and the PBKDF2 chain kernels
 * (sha256_shani_chain.h): the 64 rounds of one block in each of L lanes,
 * from lane l's state in abef[l] and cdgh[l] and its W[0..15] in
 * w[l][0..3] (W[4i] in lane 0 of w[l][i]), which become the schedule; the
 * chaining value is not added back. A macro over the caller's names, as
 * FSHA256_NI_QUADS is, so that fsha256_ni_block() compiles to the same
 * instructions as before the chain kernels shared the sequence (an
 * always_inline function taking the arrays moved shani_x3's spills).
 */
#if !defined(FSHA256_NI_VL)
#define FSHA256_NI_ROUNDS(L)                                                                    \
	do {                                                                                    \
		FSHA256_NI_QUADS(L, 0, 0);                                                      \
		FSHA256_NI_QUADS(L, 1, 1);                                                      \
		FSHA256_NI_SCHEDS(L, 0, 1, 2, 3); FSHA256_NI_QUADS(L, 2, 2); /* W[16..19] */    \
		FSHA256_NI_SCHEDS(L, 1, 2, 3, 0); FSHA256_NI_QUADS(L, 3, 3);                    \
		FSHA256_NI_SCHEDS(L, 2, 3, 0, 1); FSHA256_NI_QUADS(L, 0, 4);                    \
		FSHA256_NI_SCHEDS(L, 3, 0, 1, 2); FSHA256_NI_QUADS(L, 1, 5);                    \
		FSHA256_NI_SCHEDS(L, 0, 1, 2, 3); FSHA256_NI_QUADS(L, 2, 6);                    \
		FSHA256_NI_SCHEDS(L, 1, 2, 3, 0); FSHA256_NI_QUADS(L, 3, 7);                    \
		FSHA256_NI_SCHEDS(L, 2, 3, 0, 1); FSHA256_NI_QUADS(L, 0, 8);                    \
		FSHA256_NI_SCHEDS(L, 3, 0, 1, 2); FSHA256_NI_QUADS(L, 1, 9);                    \
		FSHA256_NI_SCHEDS(L, 0, 1, 2, 3); FSHA256_NI_QUADS(L, 2, 10);                   \
		FSHA256_NI_SCHEDS(L, 1, 2, 3, 0); FSHA256_NI_QUADS(L, 3, 11);                   \
		FSHA256_NI_SCHEDS(L, 2, 3, 0, 1); FSHA256_NI_QUADS(L, 0, 12);                   \
		FSHA256_NI_SCHEDS(L, 3, 0, 1, 2); FSHA256_NI_QUADS(L, 1, 13); /* W[60..63] */   \
		FSHA256_NI_QUADS(L, 2, 14);                                                     \
		FSHA256_NI_QUADS(L, 3, 15);                                                     \
	} while (0)
#else
/* FSHA256_NI_ROUNDS in the AVX-512VL rows: each schedule step one quad
 * ahead of the quad that reads it, not two (PBKDF2's iteration 70.0 ns
 * against 71.1, the same runs; three ahead, 71.7). */
#define FSHA256_NI_ROUNDS(L)                                                                        \
	do {                                                                                        \
		FSHA256_NI_QUADS(L, 0, 0);                                                          \
		FSHA256_NI_QUADS(L, 1, 1);                                                          \
		FSHA256_NI_QUADS(L, 2, 2);                                                          \
		FSHA256_NI_SCHEDS(L, 0, 1, 2, 3); FSHA256_NI_QUADS(L, 3, 3);                        \
		FSHA256_NI_SCHEDS(L, 1, 2, 3, 0); FSHA256_NI_QUADS(L, 0, 4);                        \
		FSHA256_NI_SCHEDS(L, 2, 3, 0, 1); FSHA256_NI_QUADS(L, 1, 5);                        \
		FSHA256_NI_SCHEDS(L, 3, 0, 1, 2); FSHA256_NI_QUADS(L, 2, 6);                        \
		FSHA256_NI_SCHEDS(L, 0, 1, 2, 3); FSHA256_NI_QUADS(L, 3, 7);                        \
		FSHA256_NI_SCHEDS(L, 1, 2, 3, 0); FSHA256_NI_QUADS(L, 0, 8);                        \
		FSHA256_NI_SCHEDS(L, 2, 3, 0, 1); FSHA256_NI_QUADS(L, 1, 9);                        \
		FSHA256_NI_SCHEDS(L, 3, 0, 1, 2); FSHA256_NI_QUADS(L, 2, 10);                       \
		FSHA256_NI_SCHEDS(L, 0, 1, 2, 3); FSHA256_NI_QUADS(L, 3, 11);                       \
		FSHA256_NI_SCHEDS(L, 1, 2, 3, 0); FSHA256_NI_QUADS(L, 0, 12);                       \
		FSHA256_NI_SCHEDS(L, 2, 3, 0, 1); FSHA256_NI_QUADS(L, 1, 13);                       \
		FSHA256_NI_SCHEDS(L, 3, 0, 1, 2); FSHA256_NI_QUADS(L, 2, 14);                       \
		FSHA256_NI_QUADS(L, 3, 15);                                                         \
	} while (0)
#endif

/*
 * One block in each of L lanes: lane l's state in abef[l] and cdgh[l], its
 * block at p[l], which moves on by 64 bytes. The sequence of sha256_shani.c
 * with each step issued for every lane in turn. A scheduling barrier
 * between quads (as sha1_shani.h has) measured 1% (x3) and 4% (x4)
 * slower.
 */
FSHA256_NI_INLINE void fsha256_ni_block(const int L, __m128i abef[], __m128i cdgh[], const uint8_t *p[])
{
	__m128i w[FSHA256_NI_MAX_LANES][4];
	__m128i abef_save[FSHA256_NI_MAX_LANES], cdgh_save[FSHA256_NI_MAX_LANES];

	FSHA256_NI_EACH(l, L)
	{
		abef_save[l] = abef[l];
		cdgh_save[l] = cdgh[l];
		FSHA256_NI_TO_MEMORY(abef_save[l]);
		FSHA256_NI_TO_MEMORY(cdgh_save[l]);
		w[l][0] = fsha256_ni_load_w(p[l], 0);
		w[l][1] = fsha256_ni_load_w(p[l], 1);
		w[l][2] = fsha256_ni_load_w(p[l], 2);
		w[l][3] = fsha256_ni_load_w(p[l], 3);
	}
	FSHA256_NI_ROUNDS(L);

	FSHA256_NI_EACH(l, L)
	{
		abef[l] = _mm_add_epi32(abef[l], abef_save[l]);
		cdgh[l] = _mm_add_epi32(cdgh[l], cdgh_save[l]);
		p[l] += 64;
	}
}

/* The single-stream loop (the sha256_impl.h contract) on fsha256_ni_block:
 * the lane kernels' own blocks function. It runs sha256_shani.c's speed in
 * long calls (129.4 cycles per block) and 0.6% slower in 1-block calls
 * (142.8 against 142.0), same runs. */
FSHA256_NI_INLINE void fsha256_ni_blocks(uint32_t state[8], const uint8_t *data, size_t nblocks)
{
	__m128i abef, cdgh;

	fsha256_ni_load_state(state, &abef, &cdgh);
	do
		fsha256_ni_block(1, &abef, &cdgh, &data);
	while (--nblocks);
	fsha256_ni_store_state(state, abef, cdgh);
}

/* The lane loop: L state rows and L pointers, each lane advancing nblocks
 * (the contract in sha256_shani_x2.c). */
FSHA256_NI_INLINE void fsha256_ni_lanes(const int L, uint32_t (*state)[8], const uint8_t *const *data,
					size_t nblocks)
{
	__m128i abef[FSHA256_NI_MAX_LANES], cdgh[FSHA256_NI_MAX_LANES];
	const uint8_t *p[FSHA256_NI_MAX_LANES];

	FSHA256_NI_EACH(l, L)
	{
		fsha256_ni_load_state(state[l], &abef[l], &cdgh[l]);
		p[l] = data[l];
	}
	do
		fsha256_ni_block(L, abef, cdgh, p);
	while (--nblocks);
	FSHA256_NI_EACH(l, L)
	fsha256_ni_store_state(state[l], abef[l], cdgh[l]);
}

/*
 * One hash in each of L lanes of a message one block and one digest long
 * whose digest U is in registers (HMAC's outer hash; both hashes of a
 * PBKDF2 iteration), from chaining words (abef_h[l], cdgh_h[l]): U, as
 * W[0..3] in u0[l] and W[4..7] in u1[l] (host-order words: the digest is
 * the chaining words, big-endian, and the rounds take big-endian words),
 * becomes the new digest the same way. W[8..15] are the padding's
 * constants, and each digest word is one shufps of the ABEF and CDGH
 * registers the rounds leave (fsha256_ni_store_state()'s shuffles,
 * without the store).
 */
FSHA256_NI_INLINE void fsha256_ni_hash_u(const int L, const __m128i abef_h[], const __m128i cdgh_h[],
					 __m128i u0[], __m128i u1[])
{
	/* W[8] the padding's first word, W[9..14] 0, W[15] the length of a
	 * block and a digest in bits (W[4i] in lane 0) */
	const __m128i w2 = _mm_set_epi32(0, 0, 0, (int)0x80000000);
	const __m128i w3 = _mm_set_epi32((64 + 32) * 8, 0, 0, 0);
	__m128i abef[FSHA256_NI_CHAIN_MAX], cdgh[FSHA256_NI_CHAIN_MAX], w[FSHA256_NI_CHAIN_MAX][4];

	FSHA256_NI_EACH(l, L)
	{
		abef[l] = abef_h[l];
		cdgh[l] = cdgh_h[l];
		w[l][0] = u0[l];
		w[l][1] = u1[l];
		w[l][2] = w2;
		w[l][3] = w3;
	}
	FSHA256_NI_ROUNDS(L);
	FSHA256_NI_EACH(l, L)
	{
		__m128 x = _mm_castsi128_ps(_mm_add_epi32(abef[l], abef_h[l]));
		__m128 y = _mm_castsi128_ps(_mm_add_epi32(cdgh[l], cdgh_h[l]));
		u0[l] = _mm_castps_si128(_mm_shuffle_ps(x, y, _MM_SHUFFLE(2, 3, 2, 3))); /* A B C D */
		u1[l] = _mm_castps_si128(_mm_shuffle_ps(x, y, _MM_SHUFFLE(0, 1, 0, 1))); /* E F G H */
	}
}

/*
 * HMAC-SHA256's end (fsha256_mac_end_fn, sha256_impl.h): @n >= 1 blocks of
 * the inner hash on chaining words @w, then the outer hash of its digest
 * from @outer, all in registers: the inner state never goes to memory,
 * and the digest needs no bytes (fsha256_ni_hash_u()). @w becomes the
 * outer hash's chaining words.
 */
FSHA256_NI_INLINE void fsha256_ni_mac_end(uint32_t w[8], const uint8_t *blocks, size_t n,
					  const uint32_t outer[8])
{
	__m128i abef, cdgh, oabef, ocdgh, u0, u1;

	fsha256_ni_load_state(w, &abef, &cdgh);
	fsha256_ni_load_state(outer, &oabef, &ocdgh);
	do
		fsha256_ni_block(1, &abef, &cdgh, &blocks);
	while (--n);
	__m128 x = _mm_castsi128_ps(abef), y = _mm_castsi128_ps(cdgh);
	u0 = _mm_castps_si128(_mm_shuffle_ps(x, y, _MM_SHUFFLE(2, 3, 2, 3))); /* A B C D */
	u1 = _mm_castps_si128(_mm_shuffle_ps(x, y, _MM_SHUFFLE(0, 1, 0, 1))); /* E F G H */
	fsha256_ni_hash_u(1, &oabef, &ocdgh, &u0, &u1);
	_mm_storeu_si128((__m128i *)w, u0);
	_mm_storeu_si128((__m128i *)(w + 4), u1);
}

/*
 * One block shared by every lane, given as its W[t]+K[t] (@wk): the rounds
 * only, no schedule instructions on the SHA unit (they are what caps the
 * lanes near 58 cycles a block; the rounds alone ran 35.5 in the x4
 * experiment above). For the padding block of equal whole-block lengths.
 */
FSHA256_NI_INLINE void fsha256_ni_shared_block(const int L, __m128i abef[], __m128i cdgh[],
					       const uint32_t wk[64])
{
	__m128i abef_save[FSHA256_NI_MAX_LANES], cdgh_save[FSHA256_NI_MAX_LANES];

	FSHA256_NI_EACH(l, L)
	{
		abef_save[l] = abef[l];
		cdgh_save[l] = cdgh[l];
	}
	/* Every lane's first two rounds, then every lane's next two: issued
	 * lane by lane as FSHA256_NI_QUAD pairs them, 64-byte batches ran
	 * about 2% slower (fastsha-bench --many, Zen 3). */
	for (int i = 0; i < 16; i++) {
		__m128i lo = _mm_loadu_si128((const __m128i *)(wk + 4 * i));
		__m128i hi = _mm_shuffle_epi32(lo, 0x0e);
		FSHA256_NI_EACH(l, L)
		cdgh[l] = _mm_sha256rnds2_epu32(cdgh[l], abef[l], lo);
		FSHA256_NI_EACH(l, L)
		abef[l] = _mm_sha256rnds2_epu32(abef[l], cdgh[l], hi);
	}
	FSHA256_NI_EACH(l, L)
	{
		abef[l] = _mm_add_epi32(abef[l], abef_save[l]);
		cdgh[l] = _mm_add_epi32(cdgh[l], cdgh_save[l]);
	}
}

/* fsha256_ni_lanes() (@nblocks may be 0 here), then the shared block. */
FSHA256_NI_INLINE void fsha256_ni_lanes_wk(const int L, uint32_t (*state)[8],
					   const uint8_t *const *data, size_t nblocks,
					   const uint32_t wk[64])
{
	__m128i abef[FSHA256_NI_MAX_LANES], cdgh[FSHA256_NI_MAX_LANES];
	const uint8_t *p[FSHA256_NI_MAX_LANES];

	FSHA256_NI_EACH(l, L)
	{
		fsha256_ni_load_state(state[l], &abef[l], &cdgh[l]);
		p[l] = data[l];
	}
	for (; nblocks; nblocks--)
		fsha256_ni_block(L, abef, cdgh, p);
	fsha256_ni_shared_block(L, abef, cdgh, wk);
	FSHA256_NI_EACH(l, L)
	fsha256_ni_store_state(state[l], abef[l], cdgh[l]);
}

#endif
