/* SPDX-License-Identifier: MIT */
/*
 * Shared by the SIMD-schedule backends sha1_ssse3.c, sha1_avx.c and
 * sha1_avx2.c: the scalar rounds (all three) and the 128-bit message
 * schedule (ssse3 and avx). Everything here is a macro or an always_inline
 * function, so it is compiled inside each backend file with that file's ISA
 * flags: the same source becomes SSSE3 code in one and VEX code in another.
 *
 * Technique: the message schedule W[t] runs on the SIMD unit four words per
 * operation, W+K is stored to a small stack array ahead of use, and the
 * scalar rounds read W+K from there (dean gaudet, seed 001; Locktyukhin,
 * seed 000). The SIMD work hides under the scalar rounds' dependency chain,
 * which is the real limit: a' = rol(a,5) + (e + W+K + f(b,c,d)) costs one
 * rotate and one add per round, 160 cycles per block at best.
 */
#ifndef FSHA1_X86_SCHED_H
#define FSHA1_X86_SCHED_H

#include <immintrin.h>

#include "../sha1_impl.h"

/* The f-functions as in sha1_portable.c: Ch without a NOT, and Maj as a sum
 * of two terms with no common bit, so the + joins the chain into e. */
#define FSHA1_F1(b, c, d) ((d) ^ ((b) & ((c) ^ (d))))
#define FSHA1_F2(b, c, d) ((b) ^ (c) ^ (d))
#define FSHA1_F3(b, c, d) (((b) & (c)) + ((d) & ((b) ^ (c))))

/*
 * One round. Written left to right so rol(a,5), which depends on the
 * previous round, is added last: everything else is ready earlier and the
 * loop-carried path is one rotate plus one add.
 */
#define FSHA1_R(a, b, c, d, e, F, i)                                          \
	do {                                                                  \
		e = e + FSHA1_WK(i) + F(b, c, d) + fsha1_rol32(a, 5);         \
		b = fsha1_rol32(b, 30);                                       \
	} while (0)

/*
 * Twenty rounds t0..t0+19 (t0 a multiple of 20, so the variables are back in
 * place at the end), calling the includer's FSHA1_HOOK(r) before every four
 * rounds: that is where the schedule for later rounds is interleaved.
 */
#define FSHA1_20(F, t0)                                     \
	FSHA1_HOOK((t0));                                   \
	FSHA1_R(a, b, c, d, e, F, (t0));                    \
	FSHA1_R(e, a, b, c, d, F, (t0) + 1);                \
	FSHA1_R(d, e, a, b, c, F, (t0) + 2);                \
	FSHA1_R(c, d, e, a, b, F, (t0) + 3);                \
	FSHA1_HOOK((t0) + 4);                               \
	FSHA1_R(b, c, d, e, a, F, (t0) + 4);                \
	FSHA1_R(a, b, c, d, e, F, (t0) + 5);                \
	FSHA1_R(e, a, b, c, d, F, (t0) + 6);                \
	FSHA1_R(d, e, a, b, c, F, (t0) + 7);                \
	FSHA1_HOOK((t0) + 8);                               \
	FSHA1_R(c, d, e, a, b, F, (t0) + 8);                \
	FSHA1_R(b, c, d, e, a, F, (t0) + 9);                \
	FSHA1_R(a, b, c, d, e, F, (t0) + 10);               \
	FSHA1_R(e, a, b, c, d, F, (t0) + 11);               \
	FSHA1_HOOK((t0) + 12);                              \
	FSHA1_R(d, e, a, b, c, F, (t0) + 12);               \
	FSHA1_R(c, d, e, a, b, F, (t0) + 13);               \
	FSHA1_R(b, c, d, e, a, F, (t0) + 14);               \
	FSHA1_R(a, b, c, d, e, F, (t0) + 15);               \
	FSHA1_HOOK((t0) + 16);                              \
	FSHA1_R(e, a, b, c, d, F, (t0) + 16);               \
	FSHA1_R(d, e, a, b, c, F, (t0) + 17);               \
	FSHA1_R(c, d, e, a, b, F, (t0) + 18);               \
	FSHA1_R(b, c, d, e, a, F, (t0) + 19)

/* One block's 80 rounds on state[], reading W+K through FSHA1_WK(i). */
#define FSHA1_80(state)                                     \
	do {                                                \
		uint32_t a = (state)[0], b = (state)[1], c = (state)[2]; \
		uint32_t d = (state)[3], e = (state)[4];    \
		FSHA1_20(FSHA1_F1, 0);                      \
		FSHA1_20(FSHA1_F2, 20);                     \
		FSHA1_20(FSHA1_F3, 40);                     \
		FSHA1_20(FSHA1_F2, 60);                     \
		(state)[0] += a;                            \
		(state)[1] += b;                            \
		(state)[2] += c;                            \
		(state)[3] += d;                            \
		(state)[4] += e;                            \
	} while (0)

/* K for the four vectors of 20 rounds each, and pshufb's byte swap of each
 * 32-bit word, repeated for the 256-bit forms. */
static const uint32_t fsha1_x86_k[4][8] __attribute__((aligned(32))) = {
	{ 0x5a827999u, 0x5a827999u, 0x5a827999u, 0x5a827999u,
	  0x5a827999u, 0x5a827999u, 0x5a827999u, 0x5a827999u },
	{ 0x6ed9eba1u, 0x6ed9eba1u, 0x6ed9eba1u, 0x6ed9eba1u,
	  0x6ed9eba1u, 0x6ed9eba1u, 0x6ed9eba1u, 0x6ed9eba1u },
	{ 0x8f1bbcdcu, 0x8f1bbcdcu, 0x8f1bbcdcu, 0x8f1bbcdcu,
	  0x8f1bbcdcu, 0x8f1bbcdcu, 0x8f1bbcdcu, 0x8f1bbcdcu },
	{ 0xca62c1d6u, 0xca62c1d6u, 0xca62c1d6u, 0xca62c1d6u,
	  0xca62c1d6u, 0xca62c1d6u, 0xca62c1d6u, 0xca62c1d6u },
};
static const uint8_t fsha1_x86_bswap[32] __attribute__((aligned(32))) = {
	3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12,
	3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12,
};

/* K for the vector holding W[4v..4v+3]; v 20..23 is the next block's 0..3. */
#define FSHA1_KV(v) (fsha1_x86_k[((v) / 5) & 3])

/*
 * The 128-bit schedule. w[8] holds W[4v..4v+3] in w[v & 7], a window of the
 * last 32 words; with constant indices the compiler keeps it in registers.
 * Step v computes W[4v..4v+3] and stores W+K to wk[4v..]:
 *
 * - v 4..7 (W16..31): W[t] = rol1(W[t-3] ^ W[t-8] ^ W[t-14] ^ W[t-16]) four
 *   words at once. W[t+3] needs W[t] from the same vector, so it is computed
 *   with 0 in its place and fixed up by xoring in rol1(W[t]) = rol2 of lane
 *   0 before its rotate (gaudet, seed 001).
 * - v 8..19 (W32..79): W[t] = rol2(W[t-6] ^ W[t-16] ^ W[t-28] ^ W[t-32]),
 *   which has no dependency inside a vector (Locktyukhin, seed 000).
 * - v 20..23: the next block's W0..15, byte-swapped by pshufb, into w[0..3].
 */
#define FSHA1_ROL128(x, n) _mm_or_si128(_mm_slli_epi32((x), (n)), _mm_srli_epi32((x), 32 - (n)))

#define FSHA1_SCHED128(v, next)                                                                \
	do {                                                                                   \
		__m128i x_;                                                                    \
		if ((v) >= 20) {                                                               \
			x_ = _mm_loadu_si128((const __m128i *)((next) + 16 * ((v) - 20)));     \
			x_ = _mm_shuffle_epi8(x_, _mm_load_si128((const __m128i *)fsha1_x86_bswap)); \
		} else if ((v) >= 8) {                                                         \
			x_ = _mm_xor_si128(w[(v) & 7], w[((v) - 7) & 7]);                      \
			x_ = _mm_xor_si128(x_, w[((v) - 4) & 7]);                              \
			x_ = _mm_xor_si128(x_, _mm_alignr_epi8(w[((v) - 1) & 7], w[((v) - 2) & 7], 8)); \
			x_ = FSHA1_ROL128(x_, 2);                                              \
		} else {                                                                       \
			__m128i f_;                                                            \
			x_ = _mm_xor_si128(w[((v) - 4) & 7], w[((v) - 2) & 7]);                \
			x_ = _mm_xor_si128(x_, _mm_alignr_epi8(w[((v) - 3) & 7], w[((v) - 4) & 7], 8)); \
			x_ = _mm_xor_si128(x_, _mm_srli_si128(w[((v) - 1) & 7], 4));           \
			f_ = _mm_slli_si128(x_, 12);                                           \
			x_ = _mm_xor_si128(FSHA1_ROL128(x_, 1), FSHA1_ROL128(f_, 2));          \
		}                                                                              \
		w[((v) % 20) & 7] = x_;                                                        \
		_mm_store_si128((__m128i *)&wk[4 * ((v) % 20)],                                \
				_mm_add_epi32(x_, _mm_load_si128((const __m128i *)FSHA1_KV(v)))); \
	} while (0)

/*
 * The ssse3 and avx backends: the schedule for W[t..t+3] is computed during
 * rounds t-16..t-13, and the next block's first sixteen W+K during this
 * block's last sixteen rounds. On the last block "next" is this block again,
 * so nothing outside the input is read and the loop needs no branch.
 */
static inline __attribute__((always_inline)) void
fsha1_x86_blocks128(uint32_t state[5], const uint8_t *data, size_t nblocks)
{
	__m128i w[8];
	uint32_t wk[80] __attribute__((aligned(16)));
	const uint8_t *next = data;

	FSHA1_SCHED128(20, next);
	FSHA1_SCHED128(21, next);
	FSHA1_SCHED128(22, next);
	FSHA1_SCHED128(23, next);
	do {
		next = nblocks > 1 ? data + 64 : data;
#define FSHA1_WK(i) wk[i]
#define FSHA1_HOOK(r) FSHA1_SCHED128((r) / 4 + 4, next)
		FSHA1_80(state);
#undef FSHA1_HOOK
#undef FSHA1_WK
		data += 64;
	} while (--nblocks);
}

#endif
