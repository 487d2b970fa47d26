/* SPDX-License-Identifier: MIT */
/*
 * Shared by the SIMD-schedule backends sha256_ssse3.c, sha256_avx.c and
 * sha256_avx2.c: the scalar rounds (all three, though avx2 uses its own
 * asm round on x86_64) and the 128-bit message schedule (ssse3 and avx).
 * Everything here is a macro or an always_inline function, so it is
 * compiled inside each backend file with that file's ISA flags: SSE code
 * in sha256_ssse3.c, VEX code in sha256_avx.c, VEX code with BMI1/BMI2
 * (andn, rorx) in sha256_avx2.c.
 *
 * Technique (Gulley et al., "Fast SHA-256 Implementations on Intel
 * Architecture Processors", Intel, 2012; OpenSSL's sha512-x86_64.pl follows
 * the same plan): the message schedule runs on the SIMD unit four words per
 * vector, W+K is stored to a stack array sixteen rounds ahead of use, and
 * the scalar rounds read W+K from there as a memory operand of an add.
 *
 * Unlike SHA-1, the rounds and not the schedule are the work. A round is 22
 * integer operations (Sigma0 and Sigma1 five each, Ch two or three, Maj
 * three, six or seven adds) plus two register copies, against Zen 3's four
 * ALUs, of which only two rotate (6 rotates a round); the loop-carried paths
 * e -> Sigma1 -> T1 -> e' and a -> Sigma0 -> a' are 5 cycles each. GCC 12
 * turns this into about 6.5 cycles a round. The schedule, 8 vector
 * operations a round at 128 bits, runs in the FP units beside it and costs
 * 4-5% (measured by leaving it out).
 *
 * Variants measured and not kept (pure rounds, median time ratio on Zen 3):
 * shortening the e path to 4 cycles as e' = ((d + h + W+K) + Ch) + Sigma1
 * with T1 = e' - d or with Ch added twice (1.05x, 1.10x the time: one or
 * two more operations a round outweigh the shorter path); Maj as
 * (a & (b ^ c)) + (b & c) with b & c carried, for a 4-cycle a path
 * (1.06x); adding Sigma0 last, or deferring it to the next round as
 * OpenSSL's AVX2 code does (1.00x to 1.02x).
 */
#ifndef FSHA256_X86_SCHED_H
#define FSHA256_X86_SCHED_H

#include <immintrin.h>

#include "../sha256_impl.h"

#define FSHA256_ROR fsha_ror32

/*
 * Sigma1 and Sigma0 as three rotates of the input. With BMI2 each is a rorx
 * into a fresh register. Without, each is a mov + ror; the nested form
 * ror(e ^ ror(e ^ ror(e, 14), 5), 6) saves two copies, but its 5-cycle
 * chain lengthens both loop-carried paths to 7 cycles: in the ssse3 build
 * (then fully unrolled) it measured 372 MB/s against 426 for this form,
 * best of 300 (OpenSSL's SSSE3 path, which uses the nested form, 422 in
 * the same run).
 */
#define FSHA256_S1(e) (FSHA256_ROR(e, 6) ^ FSHA256_ROR(e, 11) ^ FSHA256_ROR(e, 25))
#define FSHA256_S0(a) (FSHA256_ROR(a, 2) ^ FSHA256_ROR(a, 13) ^ FSHA256_ROR(a, 22))

/*
 * Ch(e, f, g). With BMI1's andn it is (e & f) + (~e & g): the terms share no
 * bit, so + is |, and both adds fold into the T1 sum. Otherwise
 * g ^ (e & (f ^ g)), three operations and no NOT.
 */
#ifdef __BMI__
#define FSHA256_CH(e, f, g) (((e) & (f)) + (~(e) & (g)))
#else
#define FSHA256_CH(e, f, g) ((g) ^ ((e) & ((f) ^ (g))))
#endif

/* After storing to arr, tell the compiler arr may have changed, so the
 * rounds read W+K with a plain load folded into an add (as in
 * sha1_x86_sched.h, where GCC otherwise extracted lanes with vpextrd). */
#define FSHA256_OPAQUE(arr) __asm__("" : "+m"(arr))

/*
 * One round with the variables in their places for round i. T1 accumulates
 * into h, which becomes the new a. Maj(a, b, c) is b ^ ((a ^ b) & bc),
 * where bc = b ^ c is the previous round's a ^ b: two operations and the
 * xor that the next round reuses. The empty asm hides where bc came from:
 * GCC otherwise sees b ^ ((a ^ b) & (b ^ c)), recognises a bit select and
 * rebuilds it as (m & c) | (~m & b) with andn, one operation more.
 */
#define FSHA256_R(a, b, c, d, e, f, g, h, WK, i)                        \
	do {                                                            \
		uint32_t ab_;                                           \
		h += WK(i) + FSHA256_CH(e, f, g) + FSHA256_S1(e);       \
		d += h;                                                 \
		ab_ = (a) ^ (b);                                        \
		h += FSHA256_S0(a) + ((b) ^ (ab_ & bc));                \
		bc = ab_;                                               \
		__asm__("" : "+r"(bc));                                 \
	} while (0)

/*
 * Sixteen rounds, WK(0..15) their W+K; the variables are back in place at
 * the end. HOOK(r) runs before rounds r = 0, 2, 4, ..., 14: that is where
 * the includer interleaves the schedule of later rounds.
 */
#define FSHA256_16(WK, HOOK)                                    \
	do {                                                    \
		FSHA256_8(0, WK, HOOK);                         \
		FSHA256_8(8, WK, HOOK);                         \
	} while (0)
#define FSHA256_8(t0, WK, HOOK)                                 \
	HOOK((t0));                                             \
	FSHA256_R(a, b, c, d, e, f, g, h, WK, (t0));            \
	FSHA256_R(h, a, b, c, d, e, f, g, WK, (t0) + 1);        \
	HOOK((t0) + 2);                                         \
	FSHA256_R(g, h, a, b, c, d, e, f, WK, (t0) + 2);        \
	FSHA256_R(f, g, h, a, b, c, d, e, WK, (t0) + 3);        \
	HOOK((t0) + 4);                                         \
	FSHA256_R(e, f, g, h, a, b, c, d, WK, (t0) + 4);        \
	FSHA256_R(d, e, f, g, h, a, b, c, WK, (t0) + 5);        \
	HOOK((t0) + 6);                                         \
	FSHA256_R(c, d, e, f, g, h, a, b, WK, (t0) + 6);        \
	FSHA256_R(b, c, d, e, f, g, h, a, WK, (t0) + 7)
#define FSHA256_NOHOOK(r) ((void)0)

/*
 * The end of a block: add the chaining value. It is kept in hs[], a stack
 * array hidden from the optimiser, which leaves the registers to the rounds
 * (eight variables, bc and the temporaries fill the sixteen GPRs).
 */
#define FSHA256_FINISH()                                        \
	do {                                                    \
		a += hs[0];                                     \
		b += hs[1];                                     \
		c += hs[2];                                     \
		d += hs[3];                                     \
		e += hs[4];                                     \
		f += hs[5];                                     \
		g += hs[6];                                     \
		h += hs[7];                                     \
		hs[0] = a;                                      \
		hs[1] = b;                                      \
		hs[2] = c;                                      \
		hs[3] = d;                                      \
		hs[4] = e;                                      \
		hs[5] = f;                                      \
		hs[6] = g;                                      \
		hs[7] = h;                                      \
		FSHA256_OPAQUE(hs);                             \
	} while (0)

/*
 * pshufb masks: the byte swap of each 32-bit word, and the placement of
 * the two sigma1 results (dwords 0 and 2 of a 64-bit-lane computation) into
 * dwords 0,1 (rest zeroed) or 2,3. Repeated for the 256-bit forms.
 */
static const uint8_t fsha256_x86_bswap[32] __attribute__((aligned(32))) = {
	3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12,
	3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12,
};
static const uint8_t fsha256_x86_lo[32] __attribute__((aligned(32))) = {
	0, 1, 2, 3, 8, 9, 10, 11, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
	0, 1, 2, 3, 8, 9, 10, 11, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
};
static const uint8_t fsha256_x86_hi[32] __attribute__((aligned(32))) = {
	0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0, 1, 2, 3, 8, 9, 10, 11,
	0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0, 1, 2, 3, 8, 9, 10, 11,
};

/*
 * The schedule, W[t] = sigma1(W[t-2]) + W[t-7] + sigma0(W[t-15]) + W[t-16],
 * four words per 128-bit vector. sha256_avx2.c has the same functions on
 * 256-bit vectors (every operation here works within 128-bit lanes, so
 * there they run two blocks at once).
 *
 * sigma0(x) = ror7 ^ ror18 ^ shr3 on 32-bit lanes, as
 * (x >> 3) ^ (x >> 7) ^ (x << 25) ^ (x >> 18) ^ (x << 14), where x >> 18
 * and x << 25 come from x >> 7 and x << 14 by one more shift each.
 */
static inline __attribute__((always_inline)) __m128i fsha256_x86_sig0_128(__m128i x)
{
	__m128i r7 = _mm_srli_epi32(x, 7), l14 = _mm_slli_epi32(x, 14);
	__m128i s = _mm_xor_si128(_mm_srli_epi32(x, 3), r7);

	s = _mm_xor_si128(s, l14);
	s = _mm_xor_si128(s, _mm_srli_epi32(r7, 11));
	return _mm_xor_si128(s, _mm_slli_epi32(l14, 11));
}

/*
 * sigma1 is needed two words at a time (W[t+2], W[t+3] depend on W[t],
 * W[t+1] of the same vector). y holds each of the two words twice, in both
 * halves of a 64-bit lane (pshufd), which makes a 64-bit shift right by n a
 * 32-bit rotate in the low dword: ror17 ^ ror19 ^ shr10 is then two 64-bit
 * shifts, one 32-bit shift and two xors, valid in dwords 0 and 2, and one
 * pshufb moves them into place with zeros beside them (Gulley et al.).
 */
static inline __attribute__((always_inline)) __m128i fsha256_x86_sig1_128(__m128i y)
{
	__m128i s = _mm_xor_si128(_mm_srli_epi64(y, 17), _mm_srli_epi64(y, 19));

	return _mm_xor_si128(s, _mm_srli_epi32(y, 10));
}

/*
 * W[t..t+3] in two halves, from x0 = W[t-16..t-13], x1, x2 and
 * x3 = W[t-4..t-1]. The first returns W[t], W[t+1] complete and W[t+2],
 * W[t+3] still without their sigma1 terms; the second adds those, which
 * need the first two words. The includer runs the halves two rounds apart:
 * the whole step in one place (33 vector instructions in a burst) measured
 * 1.6% slower in the avx2 backend.
 */
static inline __attribute__((always_inline)) __m128i
fsha256_x86_part1_128(__m128i x0, __m128i x1, __m128i x2, __m128i x3)
{
	const __m128i lo = _mm_load_si128((const __m128i *)fsha256_x86_lo);
	__m128i t = _mm_add_epi32(x0, _mm_alignr_epi8(x3, x2, 4)); /* + W[t-7..t-4] */

	t = _mm_add_epi32(t, fsha256_x86_sig0_128(_mm_alignr_epi8(x1, x0, 4)));
	return _mm_add_epi32(t, _mm_shuffle_epi8(fsha256_x86_sig1_128(_mm_shuffle_epi32(x3, 0xfa)), lo));
}

static inline __attribute__((always_inline)) __m128i fsha256_x86_part2_128(__m128i t)
{
	const __m128i hi = _mm_load_si128((const __m128i *)fsha256_x86_hi);

	return _mm_add_epi32(t, _mm_shuffle_epi8(fsha256_x86_sig1_128(_mm_shuffle_epi32(t, 0x50)), hi));
}

/*
 * The 128-bit schedule. w[4] holds the last sixteen words, W[4v..4v+3] in
 * w[v & 3]; with constant indices the compiler keeps them in registers.
 * FSHA256_SCHED128(r) runs in the loop over rounds t..t+15 (t = 0, 16, 32)
 * before round t+r and computes W[t+16+r..+3] (r = 0, 4, 8, 12: first half
 * into wt; r + 2: second half, then W+K to wk). FSHA256_LOAD128(r) runs
 * before round 48+r and loads the next block's W[r..r+3] from next,
 * byte-swapped by pshufb, with W+K into wk[r..r+3], which rounds 0..15 have
 * finished reading. K comes from fsha256_k with unaligned loads (one table
 * for every backend; a movdqu more per four rounds in the SSE build).
 */
#define FSHA256_STORE128(dst, k, x)                                                          \
	do {                                                                                 \
		_mm_store_si128((__m128i *)(dst),                                            \
				_mm_add_epi32((x), _mm_loadu_si128((const __m128i *)(k))));  \
		FSHA256_OPAQUE(wk);                                                          \
	} while (0)
#define FSHA256_SCHED128(r)                                                                  \
	do {                                                                                 \
		if ((r) % 4 == 0) {                                                          \
			wt = fsha256_x86_part1_128(w[(r) / 4], w[((r) / 4 + 1) & 3],         \
						   w[((r) / 4 + 2) & 3], w[((r) / 4 + 3) & 3]); \
		} else {                                                                     \
			w[(r) / 4] = fsha256_x86_part2_128(wt);                              \
			FSHA256_STORE128(p + 16 + (r) - 2, kp + (r) - 2, w[(r) / 4]);        \
		}                                                                            \
	} while (0)
#define FSHA256_LOAD128(r)                                                                   \
	do {                                                                                 \
		if ((r) % 4 == 0) {                                                          \
			__m128i x_ = _mm_loadu_si128((const __m128i *)(next + 4 * (r)));     \
			x_ = _mm_shuffle_epi8(x_, _mm_load_si128((const __m128i *)fsha256_x86_bswap)); \
			w[(r) / 4] = x_;                                                     \
			FSHA256_STORE128(wk + (r), fsha256_k + (r), x_);                     \
		}                                                                            \
	} while (0)
#define FSHA256_WK128(i) p[i]

/*
 * The ssse3 and avx backends. The schedule for W[t..t+3] is computed
 * during rounds t-16..t-13 and the next block's first sixteen words
 * during this block's last sixteen rounds; on the last block
 * "next" is this block again, so nothing outside the input is read and the
 * loop needs no branch.
 *
 * Rounds 0..47 are a loop over sixteen rounds rather than unrolled: the
 * same speed as the fully unrolled block (within the noise of this shared
 * machine) in half the code (1,300 instructions instead of 2,500).
 */
static inline __attribute__((always_inline)) void
fsha256_x86_blocks128(uint32_t state[8], const uint8_t *data, size_t nblocks)
{
	__m128i w[4], wt;
	uint32_t wk[64] __attribute__((aligned(16)));
	const uint8_t *next = data;
	uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
	uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
	uint32_t hs[8] = { a, b, c, d, e, f, g, h };
	uint32_t *p;
	const uint32_t *kp;

	FSHA256_LOAD128(0);
	FSHA256_LOAD128(4);
	FSHA256_LOAD128(8);
	FSHA256_LOAD128(12);
	do {
		uint32_t bc = b ^ c;

		next = nblocks > 1 ? data + 64 : data;
		for (p = wk, kp = fsha256_k + 16; p < wk + 48; p += 16, kp += 16)
			FSHA256_16(FSHA256_WK128, FSHA256_SCHED128);
		FSHA256_16(FSHA256_WK128, FSHA256_LOAD128);
		FSHA256_FINISH();
		data += 64;
	} while (--nblocks);
	state[0] = a;
	state[1] = b;
	state[2] = c;
	state[3] = d;
	state[4] = e;
	state[5] = f;
	state[6] = g;
	state[7] = h;
}

#endif
