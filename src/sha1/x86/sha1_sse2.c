/* SPDX-License-Identifier: MIT */
/*
 * sse2: SHA-1 with the message schedule on 128-bit SSE2 vectors and the
 * rounds in scalar code, for x86 CPUs without SSSE3 (K8-era and early
 * Pentium 4/Athlon 64 parts, qemu64); where SSSE3 exists the ssse3 row,
 * the same method with pshufb and palignr, comes first.
 * CPU features: SSE2 only, which every x86-64 CPU has. No pshufb, no palignr.
 * Contract: src/sha1/sha1_impl.h (whole blocks, nblocks >= 1, any alignment,
 * reads only [data, data + 64*nblocks)).
 *
 * Technique: dean gaudet's SSE2 SHA-1 (seed 001). The schedule runs on the
 * SIMD unit four words per operation, sixteen rounds ahead of the scalar
 * rounds, which read W+K from a stack array; the next block's W0..15 are
 * loaded and swapped during this block's last sixteen rounds (on the last
 * block "next" is this block again, so nothing past the input is read).
 * W16..31 use W[t] = rol1(W[t-3] ^ W[t-8] ^ W[t-14] ^ W[t-16]) with
 * gaudet's fix-up of the fourth word; W32..79 the equivalent
 * W[t] = rol2(W[t-6] ^ W[t-16] ^ W[t-28] ^ W[t-32]) (Locktyukhin, seed 000),
 * which needs no fix-up: 7 vector operations a step instead of 13. The
 * rounds are sha1_x86_sched.h's FSHA1_80, shared with ssse3, avx and avx2;
 * the schedule is written here because the header's uses SSSE3.
 *
 * Measured at 16 KiB on AMD EPYC (Zen 3, 2 vCPUs shared with other builds,
 * load 3.5-5.7), gcc 12.2 -O3, OpenSSL 3.0.19; medians of five runs of
 * 101 samples of ~5 ms, the backends alternating in one process:
 *
 *   fastsha-bench -a sha1 --rank          sse2 880 MB/s (3.3 c/B), portable
 *                                         676 (4.3 c/B): x1.30; ssse3 897
 *   fastsha-bench -a sha1, each paired    sse2 919 against OpenSSL scalar 714:
 *   with OpenSSL's scalar code (*)        x1.29; portable 695 against 707: x0.98
 *
 * (*) OPENSSL_ia32cap="~0x1000020000000000:~0x20000128" (no SSSE3, AVX,
 * AVX2, BMI, SHA). blocks() timed directly against portable's, per-sample
 * ratios, four runs: this file x1.32, ssse3 x1.34, rol-1 for all of
 * W16..79 x1.28, punpck for shufpd x1.32 (0.5% below, within noise).
 */
#include "sha1_x86_sched.h"

/* The byte swap of each 32-bit word without pshufb: swap the 16-bit halves
 * (pshuflw, pshufhw), then the bytes of each half (psllw, psrlw, por). Five
 * operations for pshufb's one, 20 a block, where ssse3 spends 4 (and
 * ssse3 measured 1.5% faster). */
static inline __attribute__((always_inline)) __m128i bswap32x4(__m128i x)
{
	x = _mm_shufflehi_epi16(_mm_shufflelo_epi16(x, 0xb1), 0xb1);
	return _mm_or_si128(_mm_slli_epi16(x, 8), _mm_srli_epi16(x, 8));
}

/* palignr's (hi:lo) >> 64 without SSSE3: the upper half of lo, then the
 * lower half of hi, in one shufpd (an FP-domain shuffle on integer data; the
 * integer form, punpckhqdq + punpcklqdq, is one operation more and measured
 * no faster). */
static inline __attribute__((always_inline)) __m128i mid64(__m128i lo, __m128i hi)
{
	return _mm_castpd_si128(_mm_shuffle_pd(_mm_castsi128_pd(lo), _mm_castsi128_pd(hi), 1));
}

/*
 * Step v computes W[4v..4v+3] into w[v & 7] (a window of the last 32 words,
 * kept in registers) and stores W+K to wk[4v..]:
 *
 * - v 4..7 (W16..31), rol-1: lanes 0..2 take W[t-3] from the previous
 *   vector shifted down a word; lane 3's W[t-3] is W[t] of this vector, so
 *   it is computed with 0 there and then xored with rol1(W[t]), which is
 *   rol2 of lane 0 before its rotate, moved up to lane 3 (gaudet).
 * - v 8..19 (W32..79), rol-2: no dependency inside a vector. Using rol-1
 *   here too measured 3.5% slower (x1.28 portable against x1.32).
 * - v 20..23: the next block's W0..15, unaligned loads, byte-swapped.
 */
#define SCHED(v, next)                                                                         \
	do {                                                                                   \
		__m128i x_;                                                                    \
		if ((v) >= 20) {                                                               \
			x_ = bswap32x4(_mm_loadu_si128((const __m128i *)((next) + 16 * ((v) - 20)))); \
		} else if ((v) >= 8) {                                                         \
			x_ = _mm_xor_si128(w[(v) & 7], w[((v) - 7) & 7]);                      \
			x_ = _mm_xor_si128(x_, w[((v) - 4) & 7]);                              \
			x_ = _mm_xor_si128(x_, mid64(w[((v) - 2) & 7], w[((v) - 1) & 7]));    \
			x_ = FSHA1_ROL128(x_, 2);                                              \
		} else {                                                                       \
			__m128i f_;                                                            \
			x_ = _mm_xor_si128(w[((v) - 4) & 7], w[((v) - 2) & 7]);                \
			x_ = _mm_xor_si128(x_, mid64(w[((v) - 4) & 7], w[((v) - 3) & 7]));    \
			x_ = _mm_xor_si128(x_, _mm_srli_si128(w[((v) - 1) & 7], 4));           \
			f_ = _mm_slli_si128(x_, 12);                                           \
			x_ = _mm_xor_si128(FSHA1_ROL128(x_, 1), FSHA1_ROL128(f_, 2));          \
		}                                                                              \
		w[((v) % 20) & 7] = x_;                                                        \
		_mm_store_si128((__m128i *)&wk[4 * ((v) % 20)],                                \
				_mm_add_epi32(x_, _mm_load_si128((const __m128i *)FSHA1_KV(v)))); \
		FSHA1_OPAQUE(wk);                                                              \
	} while (0)

#define WK(i) wk[i]
#define HOOK(r) SCHED((r) / 4 + 4, next)

static void blocks(uint32_t state[5], const uint8_t *data, size_t nblocks)
{
	__m128i w[8];
	uint32_t wk[80] __attribute__((aligned(16)));
	const uint8_t *next = data;
	uint32_t a = state[0], b = state[1], c = state[2], d = state[3], e = state[4];
	uint32_t h[5] = { a, b, c, d, e };

	SCHED(20, next);
	SCHED(21, next);
	SCHED(22, next);
	SCHED(23, next);
	do {
		next = nblocks > 1 ? data + 64 : data;
		FSHA1_80(WK, HOOK);
		data += 64;
	} while (--nblocks);
	state[0] = a;
	state[1] = b;
	state[2] = c;
	state[3] = d;
	state[4] = e;
}

const struct fsha1_backend fsha1_backend_sse2 = { { "sse2", FSHA_CPU_SSE2, 1, 1, 0, 0 }, blocks, NULL, FSHA1DC_OPS_SSE2, NULL };
