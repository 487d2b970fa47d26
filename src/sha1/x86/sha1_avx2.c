/* SPDX-License-Identifier: MIT */
/*
 * avx2: SHA-1 with the message schedules of two consecutive blocks computed
 * together, one block per 128-bit half of a ymm register, and the rounds in
 * scalar code.
 * CPU features: AVX2 (256-bit integer ops; vpshufb, vpalignr and the byte
 * shifts work per 128-bit lane, which is exactly one block per lane), BMI1
 * and BMI2 (andn and rorx in the scalar rounds, as in sha1_avx.c). Its row
 * requires all three (Intel and AMD CPUs with AVX2 have both BMI sets; a
 * VM that hides BMI gets the ssse3 backend).
 * Contract: src/sha1/sha1_impl.h (whole blocks, nblocks >= 1, any alignment,
 * reads only [data, data + 64*nblocks)).
 *
 * Technique: the schedule of sha1_x86_sched.h (gaudet's fix-up for W16..31,
 * seed 001; Locktyukhin's rol-2 recurrence for W32..79, seed 000) on ymm
 * registers, which halves the SIMD work per block; this is the answer to the
 * "can ymm registers be used" question at the end of seed 000. During block
 * A's rounds the schedule of both blocks runs sixteen rounds ahead of A's
 * use, storing W+K for A (low lane) and B (high lane) into one stack array;
 * block B's rounds then read their half ready-made, and its last sixteen
 * rounds load and byte-swap the next pair's first sixteen words. Each block
 * is loaded with its own 128-bit load; a missing second block (odd count) or
 * a missing next pair reuses a block already in the input, so no load ever
 * crosses the end. A call for one block takes the 128-bit kernel instead.
 */
#include "sha1_x86_sched.h"

#define FSHA1_ROL256(x, n) \
	_mm256_or_si256(_mm256_slli_epi32((x), (n)), _mm256_srli_epi32((x), 32 - (n)))

/*
 * Step v 0..19 of a pair's schedule: W[4v..4v+3] of block A (low lane) and
 * block B (high lane) into w[v & 7], W+K into wk[8v..8v+7] (A's four words,
 * then B's). The recurrences are those of FSHA1_SCHED128.
 */
#define FSHA1_SCHED256(v, pa, pb)                                                              \
	do {                                                                                   \
		__m256i x_;                                                                    \
		if ((v) < 4) {                                                                 \
			x_ = _mm256_inserti128_si256(                                          \
				_mm256_castsi128_si256(                                        \
					_mm_loadu_si128((const __m128i *)((pa) + 16 * (v)))),  \
				_mm_loadu_si128((const __m128i *)((pb) + 16 * (v))), 1);       \
			x_ = _mm256_shuffle_epi8(x_, _mm256_load_si256((const __m256i *)fsha1_x86_bswap)); \
		} else if ((v) >= 8) {                                                         \
			x_ = _mm256_xor_si256(w[(v) & 7], w[((v) - 7) & 7]);                   \
			x_ = _mm256_xor_si256(x_, w[((v) - 4) & 7]);                           \
			x_ = _mm256_xor_si256(                                                 \
				x_, _mm256_alignr_epi8(w[((v) - 1) & 7], w[((v) - 2) & 7], 8)); \
			x_ = FSHA1_ROL256(x_, 2);                                              \
		} else {                                                                       \
			__m256i f_;                                                            \
			x_ = _mm256_xor_si256(w[((v) - 4) & 7], w[((v) - 2) & 7]);             \
			x_ = _mm256_xor_si256(                                                 \
				x_, _mm256_alignr_epi8(w[((v) - 3) & 7], w[((v) - 4) & 7], 8)); \
			x_ = _mm256_xor_si256(x_, _mm256_srli_si256(w[((v) - 1) & 7], 4));    \
			f_ = _mm256_slli_si256(x_, 12);                                        \
			x_ = _mm256_xor_si256(FSHA1_ROL256(x_, 1), FSHA1_ROL256(f_, 2));       \
		}                                                                              \
		w[(v) & 7] = x_;                                                               \
		_mm256_store_si256((__m256i *)&wk[8 * (v)],                                    \
				   _mm256_add_epi32(x_, _mm256_load_si256(                     \
							(const __m256i *)FSHA1_KV(v))));     \
		FSHA1_OPAQUE(wk);                                                              \
	} while (0)

/* W+K of round i of block A (low lane) and B (high lane). */
#define FSHA1_WK_A(i) (wk[8 * ((i) / 4) + (i) % 4])
#define FSHA1_WK_B(i) (wk[8 * ((i) / 4) + 4 + (i) % 4])
/*
 * Block A's rounds 0..63 compute steps 4..19, each sixteen rounds before A
 * reads it (B reads it later still). Block B's rounds 64..79 load the next
 * pair into steps 0..3, whose slots B read in its rounds 0..15.
 */
#define FSHA1_HOOK_A(r)                                       \
	do {                                                  \
		if ((r) < 64)                                 \
			FSHA1_SCHED256((r) / 4 + 4, data, data); \
	} while (0)
#define FSHA1_HOOK_B(r)                                        \
	do {                                                   \
		if ((r) >= 64)                                 \
			FSHA1_SCHED256(((r) - 64) / 4, na, nb); \
	} while (0)

static void blocks(uint32_t state[5], const uint8_t *data, size_t nblocks)
{
	__m256i w[8];
	uint32_t wk[160] __attribute__((aligned(32)));
	const uint8_t *na, *nb;
	uint32_t a = state[0], b = state[1], c = state[2], d = state[3], e = state[4];
	uint32_t h[5] = { a, b, c, d, e };

	/*
	 * One block (short messages, a streamed block, a final block): the
	 * pair kernel would load and schedule a second lane for nothing; the
	 * 128-bit kernel does just this block. At 64-byte messages this took
	 * the backend from 0.82x to ~1.04x OpenSSL's AVX2 path.
	 */
	if (nblocks == 1) {
		fsha1_x86_blocks128(state, data, 1);
		return;
	}

	FSHA1_SCHED256(0, data, data + 64);
	FSHA1_SCHED256(1, data, data + 64);
	FSHA1_SCHED256(2, data, data + 64);
	FSHA1_SCHED256(3, data, data + 64);
	for (;;) {
		FSHA1_80(FSHA1_WK_A, FSHA1_HOOK_A);
		if (nblocks == 1)
			break;
		/* The next pair, or blocks of this one standing in for it. */
		na = nblocks > 2 ? data + 128 : data;
		nb = nblocks > 3 ? data + 192 : na;
		FSHA1_80(FSHA1_WK_B, FSHA1_HOOK_B);
		if (nblocks == 2)
			break;
		nblocks -= 2;
		data += 128;
	}
	state[0] = a;
	state[1] = b;
	state[2] = c;
	state[3] = d;
	state[4] = e;
}

const struct fsha1_backend fsha1_backend_avx2 = { { "avx2", FSHA_CPU_AVX2 | FSHA_CPU_BMI1 | FSHA_CPU_BMI2, 1, 1, 0 }, blocks, NULL, FSHA1DC_OPS_AVX2 };
