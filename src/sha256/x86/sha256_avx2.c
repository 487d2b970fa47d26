/* SPDX-License-Identifier: MIT */
/*
 * avx2: SHA-256 with the message schedules of two consecutive blocks
 * computed together, one block per 128-bit half of a ymm register, and the
 * rounds in scalar code with BMI1/BMI2.
 * CPU features: AVX2 (256-bit integer ops; vpshufb, vpalignr, vpshufd and
 * the shifts work per 128-bit lane, which is exactly one block per lane),
 * BMI1 (andn for Ch) and BMI2 (rorx: each Sigma is three rotates into fresh
 * registers). Its row requires all three.
 * Contract: src/sha256/sha256_impl.h (whole blocks, nblocks >= 1, any
 * alignment, reads only [data, data + 64*nblocks)).
 *
 * Technique: Gulley et al., "Fast SHA-256 Implementations on Intel
 * Architecture Processors" (Intel, 2012), the AVX2/rorx variant that
 * OpenSSL's sha512-x86_64.pl also uses: the schedule of sha256_x86_sched.h
 * on ymm registers, which halves the SIMD work per block. During block A's
 * rounds 0..47 the schedule of both blocks runs sixteen rounds ahead of A,
 * storing W+K for A (low lane) and B (high lane) into one stack array;
 * block B's rounds then read their half ready-made, and its last sixteen
 * rounds load and byte-swap the next pair's first sixteen words. Each block
 * is loaded with its own 128-bit load; a missing second block (odd count)
 * or a missing next pair reuses a block already in the input, so no load
 * ever crosses the end. A call for one block takes the 128-bit kernel.
 *
 * Measured on the project's machine (AMD EPYC, Zen 3, family 25 model 1,
 * 2 vCPUs under KVM, about 3.0 GHz; GCC 12.2 -O2): 16 KiB messages hashed
 * alternately with OpenSSL 3.0.19's SHA256_Init/Update/Final on the same
 * buffer, 41 rounds of 100 messages each, thread CPU time, 5 runs;
 * "ratio" is the median of the per-round ratios.
 * avx2: ratio 0.93 (0.930-0.936 over the runs) to OpenSSL's AVX2+BMI path,
 * short of parity; in quiet moments 420 against 450 MB/s. The SIMD work is
 * not what is missing: with the schedule left out this file ran 0.98. The
 * rounds are: they are the same operations as OpenSSL's (22 and two
 * copies a round) in GCC's order, and in an inline-asm experiment the
 * same rounds in a hand-made order (Sigma1's rotates first, Sigma0 added
 * at the start of the next round) ran 1.00 where this C ran 0.95 in the
 * same A/B run. Kept in C, the project's first choice; that ordering is
 * where the last 5-7% are. On Zen 3 this file is only 1-5% faster than
 * the ssse3 one: the ymm schedule halves work that was already hidden.
 */
#include "sha256_x86_sched.h"

/* The 128-bit schedule functions of sha256_x86_sched.h on 256-bit vectors:
 * low lane block A, high lane block B. */
static inline __attribute__((always_inline)) __m256i fsha256_x86_sig0_256(__m256i x)
{
	__m256i r7 = _mm256_srli_epi32(x, 7), l14 = _mm256_slli_epi32(x, 14);
	__m256i s = _mm256_xor_si256(_mm256_srli_epi32(x, 3), r7);

	s = _mm256_xor_si256(s, l14);
	s = _mm256_xor_si256(s, _mm256_srli_epi32(r7, 11));
	return _mm256_xor_si256(s, _mm256_slli_epi32(l14, 11));
}

static inline __attribute__((always_inline)) __m256i fsha256_x86_sig1_256(__m256i y)
{
	__m256i s = _mm256_xor_si256(_mm256_srli_epi64(y, 17), _mm256_srli_epi64(y, 19));

	return _mm256_xor_si256(s, _mm256_srli_epi32(y, 10));
}

static inline __attribute__((always_inline)) __m256i
fsha256_x86_part1_256(__m256i x0, __m256i x1, __m256i x2, __m256i x3)
{
	const __m256i lo = _mm256_load_si256((const __m256i *)fsha256_x86_lo);
	__m256i t = _mm256_add_epi32(x0, _mm256_alignr_epi8(x3, x2, 4));

	t = _mm256_add_epi32(t, fsha256_x86_sig0_256(_mm256_alignr_epi8(x1, x0, 4)));
	return _mm256_add_epi32(t, _mm256_shuffle_epi8(fsha256_x86_sig1_256(_mm256_shuffle_epi32(x3, 0xfa)), lo));
}

static inline __attribute__((always_inline)) __m256i fsha256_x86_part2_256(__m256i t)
{
	const __m256i hi = _mm256_load_si256((const __m256i *)fsha256_x86_hi);

	return _mm256_add_epi32(t, _mm256_shuffle_epi8(fsha256_x86_sig1_256(_mm256_shuffle_epi32(t, 0x50)), hi));
}

/*
 * The pair's schedule: W of block A in the low lane, of block B in the
 * high lane, W+K for W[4v..4v+3] into wk[8v..8v+7] (A's four words, then
 * B's); K is broadcast to both lanes from fsha256_k. FSHA256_SCHED256(r)
 * runs in block A's loop over rounds t..t+15 (t = 0, 16, 32) before round
 * t+r and computes W[t+16+r..+3] of both blocks, in two halves two rounds
 * apart as in sha256_x86_sched.h. FSHA256_LOAD256(r) runs before block B's
 * round 48+r and loads the next pair's W[r..r+3] from na and nb into slots
 * that B's rounds 0..15 have finished reading.
 */
#define FSHA256_STORE256(dst, k, x)                                                          \
	do {                                                                                 \
		_mm256_store_si256((__m256i *)(dst),                                         \
				   _mm256_add_epi32((x), _mm256_broadcastsi128_si256(         \
								 _mm_loadu_si128((const __m128i *)(k))))); \
		FSHA256_OPAQUE(wk);                                                          \
	} while (0)
#define FSHA256_SCHED256(r)                                                                  \
	do {                                                                                 \
		if ((r) % 4 == 0) {                                                          \
			wt = fsha256_x86_part1_256(w[(r) / 4], w[((r) / 4 + 1) & 3],         \
						   w[((r) / 4 + 2) & 3], w[((r) / 4 + 3) & 3]); \
		} else {                                                                     \
			w[(r) / 4] = fsha256_x86_part2_256(wt);                              \
			FSHA256_STORE256(p + 32 + 2 * ((r) - 2), kp + (r) - 2, w[(r) / 4]);  \
		}                                                                            \
	} while (0)
#define FSHA256_LOAD256(r)                                                                   \
	do {                                                                                 \
		if ((r) % 4 == 0) {                                                          \
			__m256i x_ = _mm256_inserti128_si256(                                \
				_mm256_castsi128_si256(                                      \
					_mm_loadu_si128((const __m128i *)(na + 4 * (r)))),   \
				_mm_loadu_si128((const __m128i *)(nb + 4 * (r))), 1);        \
			x_ = _mm256_shuffle_epi8(x_, _mm256_load_si256((const __m256i *)fsha256_x86_bswap)); \
			w[(r) / 4] = x_;                                                     \
			FSHA256_STORE256(wk + 2 * (r), fsha256_k + (r), x_);                 \
		}                                                                            \
	} while (0)

/* W+K of round t+i of block A (low lane) and B (high lane). */
#define FSHA256_WK_A(i) (p[8 * ((i) / 4) + (i) % 4])
#define FSHA256_WK_B(i) (p[8 * ((i) / 4) + 4 + (i) % 4])

/*
 * Block A's rounds 0..47 compute steps 4..15 of both blocks, each sixteen
 * rounds before A reads it (B reads it later still); block B's rounds
 * 48..63 load the next pair. Moving half of the next pair's schedule into
 * B's rounds, so that every round carries the same SIMD load, measured
 * slower (431 against 446 MB/s), so the work stays where it is needed.
 */
static void blocks(uint32_t state[8], const uint8_t *data, size_t nblocks)
{
	__m256i w[4], wt;
	uint32_t wk[128] __attribute__((aligned(32)));
	const uint8_t *na = data, *nb = data + 64;
	uint32_t a, b, c, d, e, f, g, h, bc;
	uint32_t hs[8];
	uint32_t *p;
	const uint32_t *kp;

	if (nblocks == 1) {
		fsha256_x86_blocks128(state, data, 1);
		return;
	}
	a = state[0], b = state[1], c = state[2], d = state[3];
	e = state[4], f = state[5], g = state[6], h = state[7];
	hs[0] = a, hs[1] = b, hs[2] = c, hs[3] = d;
	hs[4] = e, hs[5] = f, hs[6] = g, hs[7] = h;

	FSHA256_LOAD256(0);
	FSHA256_LOAD256(4);
	FSHA256_LOAD256(8);
	FSHA256_LOAD256(12);
	for (;;) {
		bc = b ^ c;
		for (p = wk, kp = fsha256_k + 16; p < wk + 96; p += 32, kp += 16)
			FSHA256_16(FSHA256_WK_A, FSHA256_SCHED256);
		FSHA256_16(FSHA256_WK_A, FSHA256_NOHOOK);
		FSHA256_FINISH();
		if (nblocks == 1)
			break;
		/* The next pair, or blocks of this one standing in for it. */
		na = nblocks > 2 ? data + 128 : data;
		nb = nblocks > 3 ? data + 192 : na;
		bc = b ^ c;
		for (p = wk; p < wk + 96; p += 32)
			FSHA256_16(FSHA256_WK_B, FSHA256_NOHOOK);
		FSHA256_16(FSHA256_WK_B, FSHA256_LOAD256);
		FSHA256_FINISH();
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
	state[5] = f;
	state[6] = g;
	state[7] = h;
}

const struct fsha256_backend fsha256_backend_avx2 = { { "avx2", FSHA_CPU_AVX2 | FSHA_CPU_BMI1 | FSHA_CPU_BMI2, 1, 1, 0 }, blocks, NULL };
