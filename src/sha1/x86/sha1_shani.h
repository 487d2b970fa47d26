/* SPDX-License-Identifier: MIT */
/*
 * The SHA-NI SHA-1 rounds, shared by sha1_shani.c (one stream) and the
 * lane kernels (sha1_shani_x2.c, sha1_shani_x4.c), which interleave
 * independent messages to fill the gaps of the sha1rnds4 chain. Everything
 * here is a macro or an always_inline function, compiled inside each file
 * with that file's -msha -msse4.1 -mssse3, so the round sequence is written
 * once: fsha1_ni_block() takes the number of lanes L as a constant and
 * issues each schedule step and each four-round step for every lane in
 * turn; L = 1 is the single-stream loop.
 *
 * Technique: the instruction sequence of SHA-Intrinsics (seed 003, after
 * Intel's and Sean Gulley's code): ABCD in one register with A in the top
 * lane, E riding in the top lane of the "E + W" operand, each sha1rnds4
 * doing four rounds, sha1nexte deriving the next E (rol 30 of the A that
 * entered the step before) and adding it to the next four W, and
 * sha1msg1 / xor / sha1msg2 producing W[t..t+3] from the four previous
 * groups.
 */
#ifndef FSHA1_X86_SHANI_H
#define FSHA1_X86_SHANI_H

#include <immintrin.h>

#include "../sha1_impl.h"

#define FSHA1_NI_INLINE static inline __attribute__((always_inline))

/* The widest lane kernel: the size of the per-lane arrays below, of which
 * a kernel uses its first L (constant) entries, held in registers. */
#define FSHA1_NI_MAX_LANES 4

/* For each lane l < L, fully unrolled (L is a constant at every use).
 * Clang takes "GCC unroll" too, but then unrolls only partly. */
#if defined(__clang__)
#define FSHA1_NI_EACH(l, L) _Pragma("unroll") for (int l = 0; l < (L); l++)
#else
#define FSHA1_NI_EACH(l, L) _Pragma("GCC unroll 4") for (int l = 0; l < (L); l++)
#endif

/*
 * An empty volatile asm: a scheduling barrier for the compiler only (GCC
 * and Clang move nothing across it; it emits no instruction). Without one
 * after each step GCC 12 -O2 interleaves the steps its own way and the
 * single-stream loop runs at 123.6 cycles per block instead of 121.2 on
 * Zen 3 (see sha1_shani.c).
 */
#define FSHA1_NI_BARRIER() __asm__ volatile("")

/*
 * Keeps @x in its stack slot: the empty asm claims to change it there, so
 * the compiler stores it once and reloads it where it is next used, and it
 * emits no instruction. For the chaining values saved at the top of a
 * block and added back at its end: with 2 to 4 lanes the 16 xmm registers
 * are short, and left to itself GCC kept the saves in registers and spilled
 * the schedule instead (x2 66.7 -> 63.9, x4 51.3 -> 49.3 cycles per block
 * per lane on Zen 3 with this; the single stream is unchanged).
 */
#define FSHA1_NI_TO_MEMORY(x) __asm__("" : "+m"(x))

/* The widest PBKDF2 chain kernel (sha1_shani_chain.h), the size of
 * fsha1_ni_hash_u()'s arrays. */
#define FSHA1_NI_CHAIN_MAX 2

/* H0..H4 to ABCD (A in the top lane) and E (top lane, the rest zero). */
FSHA1_NI_INLINE void fsha1_ni_load_state(const uint32_t state[5], __m128i *abcd, __m128i *e0)
{
	*abcd = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)state), 0x1b);
	*e0 = _mm_set_epi32((int)state[4], 0, 0, 0);
}

/* The inverse of fsha1_ni_load_state. */
FSHA1_NI_INLINE void fsha1_ni_store_state(uint32_t state[5], __m128i abcd, __m128i e0)
{
	_mm_storeu_si128((__m128i *)state, _mm_shuffle_epi32(abcd, 0x1b));
	state[4] = (uint32_t)_mm_extract_epi32(e0, 3);
}

/* W[4i..4i+3] of the block at @p, reversed: big-endian words, W[4i] in
 * the top lane. */
FSHA1_NI_INLINE __m128i fsha1_ni_load_w(const uint8_t *p, int i)
{
	const __m128i bswap = _mm_set_epi64x(0x0001020304050607LL, 0x08090a0b0c0d0e0fLL);

	return _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16 * i)), bswap);
}

#if defined(FSHA1_NI_VL)
#if !defined(__AVX512F__) || !defined(__AVX512VL__)
#error "FSHA1_NI_VL needs a file built with -mavx512f -mavx512vl"
#endif
/*
 * The rounds' helpers for the rows built with AVX-512VL (FSHA1_NI_VL,
 * sha1_shani_avx512.c), where no SHA instruction but sha1rnds4 stays in
 * the loop. Why: on the Intel Xeon of the Emerald Rapids line (KVM
 * family 6 model 167) sha1rnds4 has a latency of 4 cycles and holds the
 * SHA unit for 3, and sha1nexte, sha1msg1 and sha1msg2 (the last 5-6
 * cycles deep, one every 4) queue for that unit between the rounds; a
 * block took 118 cycles against the 80 of the sha1rnds4 chain, and
 * OpenSSL's loop the same. Measured there (private harness, 2026-12-06):
 * the rounds alone, the schedule precomputed, 89-98 cycles a block with
 * sha1nexte, 80-85 with FSHA1_NI_NEXTE below; the whole loop in
 * fastsha-bench --all, MB/s against shani in the same run: the schedule
 * below in place of sha1msg2 with sha1nexte kept 1.05x, with
 * FSHA1_NI_NEXTE too 1.08x; that with sha1msg1 for the first XOR 1.15x,
 * with vpalignr (below) the same within the noise; a form of the step
 * three operations deep but eleven long 1.05x, one four deep and nine
 * long 1.07x (the vector ports, shared with sha1rnds4, are the limit);
 * computed three steps ahead of its use instead of one, 1.16x.
 *
 * The schedule step: W[t..t+3] from W[t-16..t-13] (g4), W[t-12..t-9]
 * (g3), W[t-8..t-5] (g2) and W[t-4..t-1] (g1), W[t] in the top lane. With
 * y = W[t+i-16] ^ W[t+i-14] ^ W[t+i-8] ^ W[t+i-3] (lane by lane: g4,
 * sha1msg1's middle words g4:g3 by vpalignr, g2, and g1 moved up a lane,
 * W[t] not yet known in the bottom lane), W[t+i] = rol1(y[i]) for the top
 * three, and the bottom one, W[t+3] = rol1(y ^ W[t]), is rol1(y) ^
 * rol2(y of the top lane).
 */
FSHA1_NI_INLINE __m128i fsha1_ni_sched_vl(__m128i g4, __m128i g3, __m128i g2, __m128i g1)
{
	const __m128i x = _mm_xor_si128(g4, _mm_alignr_epi8(g4, g3, 8));
	const __m128i y = _mm_ternarylogic_epi32(x, g2, _mm_bslli_si128(g1, 4), 0x96);
	return _mm_xor_si128(_mm_rol_epi32(y, 1),
			     _mm_maskz_shuffle_epi32(0x1, _mm_rol_epi32(y, 2), 0xff));
}

#define FSHA1_NI_SCHED(L, a, b, c, d)                                                      \
	do {                                                                               \
		FSHA1_NI_EACH(l_, L)                                                       \
		w[l_][a] = fsha1_ni_sched_vl(w[l_][a], w[l_][b], w[l_][c], w[l_][d]);      \
	} while (0)

/* sha1nexte(prev, w): rol30 of prev's top lane added to w's top lane. */
#define FSHA1_NI_NEXTE(prev, w) _mm_mask_add_epi32((w), 0x8, (w), _mm_rol_epi32((prev), 30))
#else
#define FSHA1_NI_NEXTE(prev, w) _mm_sha1nexte_epu32((prev), (w))
/* In fsha1_ni_block(): every lane's W[t..t+3] into w[l][a], which held
 * W[t-16..t-13]; b, c, d index the next three groups. */
#define FSHA1_NI_SCHED(L, a, b, c, d)                                                      \
	do {                                                                               \
		FSHA1_NI_EACH(l_, L)                                                       \
		w[l_][a] = _mm_sha1msg2_epu32(                                             \
			_mm_xor_si128(_mm_sha1msg1_epu32(w[l_][a], w[l_][b]), w[l_][c]),   \
			w[l_][d]);                                                         \
	} while (0)
#endif

/* In fsha1_ni_block(): every lane's rounds 4k..4k+3 from the W in
 * w[l][j], E from the A that entered the previous step. */
#define FSHA1_NI_STEP(L, k, j)                                                          \
	do {                                                                            \
		FSHA1_NI_EACH(l_, L)                                                    \
		{                                                                       \
			__m128i e_ = FSHA1_NI_NEXTE(prev[l_], w[l_][j]);                \
			prev[l_] = abcd[l_];                                            \
			abcd[l_] = _mm_sha1rnds4_epu32(abcd[l_], e_, (k) / 5);          \
		}                                                                       \
		FSHA1_NI_BARRIER();                                                     \
	} while (0)

/*
 * In fsha1_ni_block() and the PBKDF2 chain kernels (sha1_shani_chain.h):
 * the 80 rounds of one block in each of L lanes, from lane l's ABCD in
 * abcd[l], E in e0[l] (top lane, the rest zero) and W[0..15] in w[l][0..3]
 * (W[4i] in the top lane of w[l][i]), which become the schedule. Leaves
 * ABCD before the chaining value is added back in abcd[l] and the A that
 * entered step 19 in prev[l] (E is rol30 of it: sha1nexte). It also
 * names rec, nar, nstride and narrow, for FSHA1_NI_KEEP_W/_S below (a
 * caller that keeps nothing sets rec and nar NULL). A macro over the
 * caller's names, as the steps are, rather than a function taking the
 * arrays: moved into an always_inline function, the same sequence compiled
 * to other register allocations and spills in shani_x4's and the SHA1DC
 * loops (GCC 12), measured kernels that this leaves as they were.
 */
/* The first step of FSHA1_NI_ROUNDS: its E is the chaining E itself, no
 * rotate. */
#define FSHA1_NI_STEP0(L)                                                                   \
	do {                                                                                \
		FSHA1_NI_EACH(l, L)                                                         \
		{                                                                           \
			prev[l] = abcd[l];                                                  \
			abcd[l] = _mm_sha1rnds4_epu32(abcd[l], _mm_add_epi32(e0[l], w[l][0]), 0); \
		}                                                                           \
		FSHA1_NI_BARRIER();                                                         \
	} while (0)

#if !defined(FSHA1_NI_VL)
#define FSHA1_NI_ROUNDS(L)                                                                          \
	do {                                                                                        \
		FSHA1_NI_STEP0(L);                                                                  \
		FSHA1_NI_STEP(L, 1, 1);                                                             \
		FSHA1_NI_STEP(L, 2, 2);                                                             \
		FSHA1_NI_SCHED(L, 0, 1, 2, 3); FSHA1_NI_STEP(L, 3, 3);   /* W[16..19] */            \
		FSHA1_NI_SCHED(L, 1, 2, 3, 0); FSHA1_NI_STEP(L, 4, 0);                              \
		FSHA1_NI_SCHED(L, 2, 3, 0, 1); FSHA1_NI_STEP(L, 5, 1);                              \
		FSHA1_NI_SCHED(L, 3, 0, 1, 2); FSHA1_NI_STEP(L, 6, 2);                              \
		FSHA1_NI_SCHED(L, 0, 1, 2, 3); FSHA1_NI_KEEP_W(8); FSHA1_NI_STEP(L, 7, 3);          \
		FSHA1_NI_SCHED(L, 1, 2, 3, 0); FSHA1_NI_KEEP_W(9); FSHA1_NI_STEP(L, 8, 0);          \
		FSHA1_NI_SCHED(L, 2, 3, 0, 1); FSHA1_NI_KEEP_W(10); FSHA1_NI_STEP(L, 9, 1);         \
		FSHA1_NI_SCHED(L, 3, 0, 1, 2); FSHA1_NI_KEEP_W(11); FSHA1_NI_STEP(L, 10, 2);        \
		FSHA1_NI_SCHED(L, 0, 1, 2, 3); FSHA1_NI_KEEP_W(12); FSHA1_NI_STEP(L, 11, 3);        \
		FSHA1_NI_SCHED(L, 1, 2, 3, 0); FSHA1_NI_KEEP_W(13); FSHA1_NI_STEP(L, 12, 0);        \
		FSHA1_NI_SCHED(L, 2, 3, 0, 1); FSHA1_NI_KEEP_W(14); FSHA1_NI_STEP(L, 13, 1);        \
		FSHA1_NI_KEEP_S(s56);                                                               \
		FSHA1_NI_SCHED(L, 3, 0, 1, 2); FSHA1_NI_KEEP_W(15); FSHA1_NI_STEP(L, 14, 2);        \
		FSHA1_NI_SCHED(L, 0, 1, 2, 3); FSHA1_NI_KEEP_W(16); FSHA1_NI_STEP(L, 15, 3);        \
		FSHA1_NI_KEEP_S(s64);                                                               \
		FSHA1_NI_SCHED(L, 1, 2, 3, 0); FSHA1_NI_STEP(L, 16, 0);                             \
		FSHA1_NI_SCHED(L, 2, 3, 0, 1); FSHA1_NI_STEP(L, 17, 1);                             \
		FSHA1_NI_SCHED(L, 3, 0, 1, 2); FSHA1_NI_STEP(L, 18, 2);  /* W[76..79] */            \
		FSHA1_NI_STEP(L, 19, 3);                                                            \
	} while (0)
#else
/*
 * FSHA1_NI_ROUNDS in the AVX-512VL rows (same contract, SHA1DC's record
 * included): each schedule step three steps ahead of the step that adds
 * its W, the earliest its register is free; a group's record right after
 * it is computed, the states after the same steps as above.
 */
#define FSHA1_NI_SCHED_G(L, g) FSHA1_NI_SCHED(L, (g) & 3, ((g) + 1) & 3, ((g) + 2) & 3, ((g) + 3) & 3)
#define FSHA1_NI_ROUNDS(L)                                                                          \
	do {                                                                                        \
		FSHA1_NI_STEP0(L);                                                                  \
		FSHA1_NI_SCHED_G(L, 4); FSHA1_NI_STEP(L, 1, 1);                                     \
		FSHA1_NI_SCHED_G(L, 5); FSHA1_NI_STEP(L, 2, 2);                                     \
		FSHA1_NI_SCHED_G(L, 6); FSHA1_NI_STEP(L, 3, 3);                                     \
		FSHA1_NI_SCHED_G(L, 7); FSHA1_NI_STEP(L, 4, 0);                                     \
		FSHA1_NI_SCHED_G(L, 8); FSHA1_NI_KEEP_W(8); FSHA1_NI_STEP(L, 5, 1);                 \
		FSHA1_NI_SCHED_G(L, 9); FSHA1_NI_KEEP_W(9); FSHA1_NI_STEP(L, 6, 2);                 \
		FSHA1_NI_SCHED_G(L, 10); FSHA1_NI_KEEP_W(10); FSHA1_NI_STEP(L, 7, 3);               \
		FSHA1_NI_SCHED_G(L, 11); FSHA1_NI_KEEP_W(11); FSHA1_NI_STEP(L, 8, 0);               \
		FSHA1_NI_SCHED_G(L, 12); FSHA1_NI_KEEP_W(12); FSHA1_NI_STEP(L, 9, 1);               \
		FSHA1_NI_SCHED_G(L, 13); FSHA1_NI_KEEP_W(13); FSHA1_NI_STEP(L, 10, 2);              \
		FSHA1_NI_SCHED_G(L, 14); FSHA1_NI_KEEP_W(14); FSHA1_NI_STEP(L, 11, 3);              \
		FSHA1_NI_SCHED_G(L, 15); FSHA1_NI_KEEP_W(15); FSHA1_NI_STEP(L, 12, 0);              \
		FSHA1_NI_SCHED_G(L, 16); FSHA1_NI_KEEP_W(16); FSHA1_NI_STEP(L, 13, 1);              \
		FSHA1_NI_KEEP_S(s56);                                                               \
		FSHA1_NI_SCHED_G(L, 17); FSHA1_NI_STEP(L, 14, 2);                                   \
		FSHA1_NI_SCHED_G(L, 18); FSHA1_NI_STEP(L, 15, 3);                                   \
		FSHA1_NI_KEEP_S(s64);                                                               \
		FSHA1_NI_SCHED_G(L, 19); FSHA1_NI_STEP(L, 16, 0);                                   \
		FSHA1_NI_STEP(L, 17, 1);                                                            \
		FSHA1_NI_STEP(L, 18, 2);                                                            \
		FSHA1_NI_STEP(L, 19, 3);                                                            \
	} while (0)
#endif


/*
 * One block in each of L lanes: lane l's ABCD and E in abcd[l] and e0[l],
 * its block at p[l], which moves on by 64 bytes.
 *
 * The schedule is computed one step before its W is added (each SCHED sits
 * in front of the step before the one that uses it): placed just in time,
 * or left to GCC's scheduler, it cost the single stream 0.5 to 2.5 cycles
 * per block. For the lane kernels, issuing all lanes' schedule steps and
 * then all lanes' round steps measured 2% (x2) and 5% (x4) faster than
 * alternating the two lane by lane (x3, not kept, was 4% faster that way).
 */
/*
 * @rec (NULL but for SHA1DC, where the compiler drops the stores when it
 * is NULL): lane l's record of this block goes to rec[l] (struct
 * fsha1dc_rec: the chaining value in, W[56..59] and W[64..67] as sha1msg2
 * left them, the states after steps 52, 56, 60 and 64). A store a group,
 * off the sha1rnds4 chain. @nar (NULL but for SHA1DC): lane l's bytes 0
 * and 3 of each group of W[32..67] go to nar[nstride * group + l] (the
 * layout of FSHA1DC_NAR_STRIDE, or of struct fsha1dc_pipe's nar).
 */
#define FSHA1_NI_KEEP_W(g)                                                                     \
	do {                                                                                   \
		if (rec && ((g) == 14 || (g) == 16))                                           \
			FSHA1_NI_EACH(l_, L)                                                   \
		_mm_storeu_si128((__m128i *)((g) == 14 ? rec[l_].w56 : rec[l_].w64),           \
				 w[l_][(g) & 3]);                                              \
		if (nar)                                                                       \
			FSHA1_NI_EACH(l_, L)                                                   \
		_mm_storel_epi64((__m128i *)(nar + nstride * ((g) - 8) + l_),                  \
				 _mm_shuffle_epi8(w[l_][(g) & 3], narrow));                    \
	} while (0)
#define FSHA1_NI_KEEP_S(field)                                                                 \
	do {                                                                                   \
		if (rec)                                                                       \
			FSHA1_NI_EACH(l_, L)                                                   \
			{                                                                      \
				_mm_storeu_si128((__m128i *)rec[l_].field, abcd[l_]);          \
				_mm_storeu_si128((__m128i *)(rec[l_].field + 4), prev[l_]);    \
			}                                                                      \
	} while (0)

FSHA1_NI_INLINE void fsha1_ni_block(const int L, __m128i abcd[], __m128i e0[], const uint8_t *p[],
				    struct fsha1dc_rec *rec, uint64_t *nar, const size_t nstride)
{
	/* bytes 0 of the four words, then their bytes 3 */
	const __m128i narrow = _mm_set_epi8(-1, -1, -1, -1, -1, -1, -1, -1, 15, 11, 7, 3, 12, 8, 4, 0);
	__m128i w[FSHA1_NI_MAX_LANES][4], prev[FSHA1_NI_MAX_LANES];
	__m128i abcd_save[FSHA1_NI_MAX_LANES], e_save[FSHA1_NI_MAX_LANES];

	FSHA1_NI_EACH(l, L)
	{
		abcd_save[l] = abcd[l];
		e_save[l] = e0[l];
		FSHA1_NI_TO_MEMORY(abcd_save[l]);
		FSHA1_NI_TO_MEMORY(e_save[l]);
		w[l][0] = fsha1_ni_load_w(p[l], 0);
		w[l][1] = fsha1_ni_load_w(p[l], 1);
		w[l][2] = fsha1_ni_load_w(p[l], 2);
		w[l][3] = fsha1_ni_load_w(p[l], 3);
	}
	if (rec)
		FSHA1_NI_EACH(l, L)
		{
			_mm_storeu_si128((__m128i *)rec[l].in, abcd[l]);
			_mm_storeu_si128((__m128i *)(rec[l].in + 4), e0[l]);
		}
	FSHA1_NI_ROUNDS(L);

	FSHA1_NI_EACH(l, L)
	{
		/* E after 80 rounds is rol30 of the A that entered step 19. */
		e0[l] = _mm_sha1nexte_epu32(prev[l], e_save[l]);
		abcd[l] = _mm_add_epi32(abcd[l], abcd_save[l]);
		p[l] += 64;
	}
}

/* The single-stream loop (the sha1_impl.h contract). */
FSHA1_NI_INLINE void fsha1_ni_blocks(uint32_t state[5], const uint8_t *data, size_t nblocks)
{
	__m128i abcd, e0;

	fsha1_ni_load_state(state, &abcd, &e0);
	do
		fsha1_ni_block(1, &abcd, &e0, &data, NULL, NULL, 0);
	while (--nblocks);
	fsha1_ni_store_state(state, abcd, e0);
}

/*
 * One hash in each of L lanes of a message one block and one digest long
 * whose digest U is in registers (HMAC's outer hash; both hashes of a
 * PBKDF2 iteration), from chaining words (abcd_h[l], e0[l]: E in the top
 * lane; e_pad[l] the same with 0x80000000 in lane 2): U, as W[0..3] in
 * u0[l] and W[4..7] in u1[l], becomes the new digest the same way. SHA-1's
 * digest is its chaining words, big-endian, and the rounds take big-endian
 * words: W[0..3] is the ABCD register itself (A in the top lane, as W[0]
 * is), W[4..7] is E with the first padding word beside it, which sha1nexte
 * writes in one instruction from the copy of the chaining E that carries
 * that word, and W[8..15] are constants.
 */
FSHA1_NI_INLINE void fsha1_ni_hash_u(const int L, const __m128i abcd_h[], const __m128i e0[],
				     const __m128i e_pad[], __m128i u0[], __m128i u1[])
{
	/* FSHA1_NI_ROUNDS keeps no SHA1DC record here. */
	struct fsha1dc_rec *const rec = NULL;
	uint64_t *const nar = NULL;
	const size_t nstride = 0;
	const __m128i narrow = _mm_setzero_si128();
	/* W[8..11] are 0; W[15] is the length of a block and a digest in bits */
	const __m128i w3 = _mm_set_epi32(0, 0, 0, (64 + 20) * 8);
	__m128i abcd[FSHA1_NI_CHAIN_MAX], prev[FSHA1_NI_CHAIN_MAX], w[FSHA1_NI_CHAIN_MAX][4];

	FSHA1_NI_EACH(l, L)
	{
		abcd[l] = abcd_h[l];
		w[l][0] = u0[l];
		w[l][1] = u1[l];
		w[l][2] = _mm_setzero_si128();
		w[l][3] = w3;
	}
#if defined(FSHA1_NI_VL)
	(void)rec; /* its rounds keep no SHA1DC record either way */
	(void)nar;
	(void)nstride;
	(void)narrow;
#endif
	FSHA1_NI_ROUNDS(L);
	FSHA1_NI_EACH(l, L)
	{
		u0[l] = _mm_add_epi32(abcd[l], abcd_h[l]);
		/* E of the digest in the top lane, the padding word below */
		u1[l] = _mm_sha1nexte_epu32(prev[l], e_pad[l]);
	}
}

/*
 * HMAC-SHA1's end (fsha_mac_end_fn, core/backend.h): @n >= 1 blocks of the
 * inner hash on chaining words @w, then the outer hash of its digest from
 * @outer, all in registers (fsha1_ni_hash_u()): the inner state never goes
 * to memory, and the digest needs no bytes. @w becomes the outer hash's
 * chaining words.
 */
FSHA1_NI_INLINE void fsha1_ni_mac_end(uint32_t w[5], const uint8_t *blocks, size_t n,
				      const uint32_t outer[5])
{
	const __m128i pad = _mm_set_epi32(0, (int)0x80000000, 0, 0);
	__m128i abcd, e0, oa, oe, oep;

	fsha1_ni_load_state(w, &abcd, &e0);
	fsha1_ni_load_state(outer, &oa, &oe);
	oep = _mm_or_si128(oe, pad);
	do
		fsha1_ni_block(1, &abcd, &e0, &blocks, NULL, NULL, 0);
	while (--n);
	e0 = _mm_or_si128(e0, pad); /* W[4..7]: E, then the padding's first word */
	fsha1_ni_hash_u(1, &oa, &oe, &oep, &abcd, &e0);
	fsha1_ni_store_state(w, abcd, e0);
}

/* The single-stream loop keeping SHA1DC's record of each block
 * (fsha1dc_rec_fn). */
FSHA1_NI_INLINE void fsha1_ni_blocks_rec(uint32_t state[5], const uint8_t *data, size_t nblocks,
					 struct fsha1dc_rec *rec, uint64_t *nar)
{
	__m128i abcd, e0;

	fsha1_ni_load_state(state, &abcd, &e0);
	do
		fsha1_ni_block(1, &abcd, &e0, &data, rec++, nar++, FSHA1DC_NAR_STRIDE);
	while (--nblocks);
	fsha1_ni_store_state(state, abcd, e0);
}

/* The lane loop: L state rows and L pointers, each lane advancing nblocks
 * (the contract in sha1_shani_x2.c). */
FSHA1_NI_INLINE void fsha1_ni_lanes(const int L, uint32_t (*state)[5], const uint8_t *const *data,
				    size_t nblocks)
{
	__m128i abcd[FSHA1_NI_MAX_LANES], e0[FSHA1_NI_MAX_LANES];
	const uint8_t *p[FSHA1_NI_MAX_LANES];

	FSHA1_NI_EACH(l, L)
	{
		fsha1_ni_load_state(state[l], &abcd[l], &e0[l]);
		p[l] = data[l];
	}
	do
		fsha1_ni_block(L, abcd, e0, p, NULL, NULL, 0);
	while (--nblocks);
	FSHA1_NI_EACH(l, L)
	fsha1_ni_store_state(state[l], abcd[l], e0[l]);
}

/*
 * The SHA1DC parts of a SHA-NI single-stream row (struct fsha1dc_ops,
 * named dc_ops): its loop keeping records on this file's rounds, the
 * x86 filters and recheck, and the pipeline PIPE (fsha1dc_pipe_fn). For
 * sha1_shani.c and sha1_shani_avx512.c, under FSHA_HAVE_SHA1_PART_DC_SSE2.
 */
#define FSHA1_NI_DC_SINGLE(PIPE)                                                               \
	static void blocks_rec(uint32_t state[5], const uint8_t *data, size_t nblocks,         \
			       struct fsha1dc_rec *rec, uint64_t *nar)                         \
	{                                                                                      \
		fsha1_ni_blocks_rec(state, data, nblocks, rec, nar);                           \
	}                                                                                      \
	static const struct fsha1dc_ops dc_ops = { fsha1dc_filter_x86, blocks_rec,             \
						   fsha1dc_filter_rec_x86, NULL, (PIPE),      \
						   fsha1dc_recheck_x86, NULL, NULL, NULL, 0 }

/*
 * The SHA1DC parts of a SHA-NI lane row of L lanes (struct fsha1dc_ops,
 * named DC_OPS, NULL when the build has no SHA1DC filter): the filters, the
 * single-stream loop and the L-lane loop keeping records. One definition
 * for sha1_shani_x2.c and sha1_shani_x4.c.
 */
#ifdef FSHA_HAVE_SHA1_PART_DC_SSE2
#define FSHA1_NI_DC_OPS(L)                                                                     \
	static void dc_blocks_rec(uint32_t state[5], const uint8_t *data, size_t nblocks,      \
				  struct fsha1dc_rec *rec, uint64_t *nar)                      \
	{                                                                                      \
		fsha1_ni_blocks_rec(state, data, nblocks, rec, nar);                           \
	}                                                                                      \
	static void dc_lanes_rec(uint32_t (*state)[5], const uint8_t *const *data,             \
				 size_t nblocks, struct fsha1dc_rec *rec, uint64_t *nar)       \
	{                                                                                      \
		fsha1_ni_lanes_rec(L, state, data, nblocks, rec, nar);                         \
	}                                                                                      \
	static const struct fsha1dc_ops dc_ops = { fsha1dc_filter_x86, dc_blocks_rec,          \
						   fsha1dc_filter_rec_x86, dc_lanes_rec, NULL,       \
						   fsha1dc_recheck_x86, NULL, NULL, NULL, 0 }
#define FSHA1_NI_DC_OPS_PTR (&dc_ops)
#else
#define FSHA1_NI_DC_OPS(L) struct fsha1_ni_no_dc_ops
#define FSHA1_NI_DC_OPS_PTR NULL
#endif

/* The lane loop keeping SHA1DC's records (fsha1dc_lanes_rec_fn): lane l's
 * record of its block j goes to rec[j * L + l], its narrowed bytes to
 * nar[.. + j * L + l]. */
FSHA1_NI_INLINE void fsha1_ni_lanes_rec(const int L, uint32_t (*state)[5],
					const uint8_t *const *data, size_t nblocks,
					struct fsha1dc_rec *rec, uint64_t *nar)
{
	__m128i abcd[FSHA1_NI_MAX_LANES], e0[FSHA1_NI_MAX_LANES];
	const uint8_t *p[FSHA1_NI_MAX_LANES];

	FSHA1_NI_EACH(l, L)
	{
		fsha1_ni_load_state(state[l], &abcd[l], &e0[l]);
		p[l] = data[l];
	}
	do {
		fsha1_ni_block(L, abcd, e0, p, rec, nar, FSHA1DC_NAR_STRIDE);
		rec += L;
		nar += L;
	} while (--nblocks);
	FSHA1_NI_EACH(l, L)
	fsha1_ni_store_state(state[l], abcd[l], e0[l]);
}

#endif
