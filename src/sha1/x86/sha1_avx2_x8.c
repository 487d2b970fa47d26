/* SPDX-License-Identifier: MIT */
/*
 * avx2_x8: SHA-1 of eight independent messages at once, one message per
 * 32-bit element of the ymm registers. Needs AVX2 only (-mavx2 on this
 * file; no BMI, every rotate is a vector one). Builds for 32-bit x86 too
 * (arch x86), where only 8 ymm registers exist and more of it spills.
 *
 * Contract (a lane kernel, the row's lanes = 8): lanes(state, data,
 * nblocks) advances the 8 state rows (H0..H4 as host-order words, the
 * layout of every single-stream backend) by the same nblocks >= 1; lane l
 * reads exactly data[l][0 .. 64*nblocks), at any alignment (unaligned
 * loads only), and nothing else; the pointers may be equal. No padding,
 * no heap, no globals written. blocks() runs the kernel with all eight
 * lanes on the one message, so every per-backend test exercises it; as a
 * single-message backend that is 0.44x the avx2 row, and the row is never
 * chosen for single messages (FSHA_AUTO_MANY only).
 *
 * Technique: the "transposed" multi-buffer layout of Intel's multi-buffer
 * hashing work (isa-l_crypto's mb_sha1 AVX2 kernels use it; this is
 * written from the algorithm, not from their code): register j holds word
 * j of all eight lanes, so the rounds and the message schedule are the
 * scalar algorithm with each 32-bit operation replaced by its 8-wide AVX2
 * form, rotates as two shifts and an OR (AVX2 has no vector rotate). A
 * block's words come from two unaligned 32-byte loads per lane, an 8 x 8
 * transpose of 32-bit words (unpacks, then 128-bit permutes) and vpshufb
 * for the byte order. The state is transposed in and out once per call.
 *
 * What decides the speed on Zen 3: about 1400 vector operations per step
 * of eight lane-blocks against four vector ALU pipes (about 350 cycles),
 * and a loop-carried chain of shift, OR and add per round (about 3.4
 * cycles, 270 a step): the bounds are close, so both count. Measured in
 * a private harness (the kernel alone, 64-block calls, eight distinct
 * unaligned inputs, 201 interleaved 1 ms samples, three runs; cycles per
 * lane-block at a nominal 3.06 GHz, medians):
 *
 *   this file                                            53.2
 *   without the empty asm in R() (see there)             61.7  +16%
 *   with it, but the schedule computed at its round      58.5  +10%
 *   rol 1 with a shift instead of x + x                  53.9  +1.3%
 *   loads by vpgatherqd (two a word: lane pointers can   72.3  +36%
 *     be too far apart for vpgatherdd's 32-bit offsets)
 *   the 80 W+K first, then the rounds                    78.6  +48%
 *     (the rounds alone are then latency-bound)
 *   128-bit loads with 4 x 4 transposes; vpmulld and     53.2-53.5, not kept
 *     vpcmpgtd in place of shifts (the shift pipes are
 *     not the limit); the next block loaded during
 *     rounds 64..79
 *   the same source built by clang 14                    51.5  -3%
 *
 * Through the public API (fastsha1_many with the row pinned, as
 * FASTSHA_BACKEND does, against OpenSSL 3.0 in the same process; AMD
 * EPYC Zen 3, 2 vCPUs shared with other work but quiet at the time, GCC
 * 12 -O3; medians of 5 runs of 7 interleaved 20 ms samples each; cycles
 * per 64 bytes of message data at 3.06 GHz, and speed relative to
 * OpenSSL's SHA1() loop over the same messages):
 *
 *                                     1024 x 4 KiB     1024 x 64 B
 *   OpenSSL SHA1()                    136.4  1.00      1287   1.00
 *   OpenSSL SHA1_Init/Update/Final    118.8  1.15       241   5.34
 *   avx2 (single stream)              191.7  0.71       471   2.73
 *   shani (single stream)             120.4  1.14       297   4.33
 *   shani_x4                           50.8  2.69       164   7.86
 *   avx2_x8                            56.4  2.42       178   7.23
 *
 * (SHA1() in OpenSSL 3 fetches an EVP method per call, hence its 64-byte
 * figure.) avx2_x8 is 3.40x the avx2 row on 4 KiB messages and 0.90x
 * shani_x4, so it sits after the SHA-NI lane rows and is the batch choice
 * on AVX2 CPUs without SHA-NI.
 *
 * min_lanes = 3: n live 4 KiB messages (fastsha1_many, same method), all
 * of n's data in cycles per 64 bytes, against the avx2 row:
 *
 *   n          1     2     3     4     5     6     7     8
 *   avx2_x8  434   217   145   109    87    73    63    55
 *   avx2     191   191   190   190   190   190   190   190
 *
 * (n = 2 measured with min_lanes 2; 0.88x the single stream, 1.31x at 3.)
 *
 * On AMD Zen 2 this row takes SHA-1 batches ahead of shani_x4 and
 * shani_x2, which yield to it there and follow it as narrower steps
 * (sha1_backends.c; figures in sha1_shani_x4.c). min_batch = 7, which
 * matters only there (no narrower row follows it elsewhere): batches of
 * n messages through fastsha_many(), MB/s, this row first with min_batch
 * 0 against shani_x4 first (fastsha-bench --many --reps 5, one run each,
 * 2026-12-05):
 *
 *   n              4     5     6     7     8     16    1024
 *   64 B   x8     800   615   711   818   896   909   1114
 *          x4     787   793   868   790   876   925    902
 *   4 KiB  x8    2347  1845  2183  2571  2926  2916   2879
 *          x4    2348  2132  2358  2044  2331  2370   2310
 *
 * Five or six messages on eight lanes lose to four lanes taking them in
 * turns; from seven, eight lanes win (n = 4 and below run on the SHA-NI
 * rows either way).
 */
#include <immintrin.h>

#include "../../core/lanes_avx2.h"
#include "../sha1_impl.h"

#define ADD(x, y) _mm256_add_epi32((x), (y))
#define XOR(x, y) _mm256_xor_si256((x), (y))
#define AND(x, y) _mm256_and_si256((x), (y))
#define OR(x, y) _mm256_or_si256((x), (y))
#define ROL(x, n) OR(_mm256_slli_epi32((x), (n)), _mm256_srli_epi32((x), 32 - (n)))
/* x << 1 as x + x: one op fewer for the two shift pipes, any ALU pipe. */
#define ROL1(x) OR(ADD((x), (x)), _mm256_srli_epi32((x), 31))

#define FSHA1_X8_INLINE static inline __attribute__((always_inline))

/* The f-function and constant of round @t (a constant after unrolling). */
FSHA1_X8_INLINE __m256i f_of(int t, __m256i b, __m256i c, __m256i d)
{
	if (t < 20)
		return XOR(d, AND(b, XOR(c, d)));
	if (t < 40 || t >= 60)
		return XOR(XOR(b, c), d);
	return OR(AND(b, c), AND(d, OR(b, c)));
}

FSHA1_X8_INLINE __m256i k_of(int t)
{
	return _mm256_set1_epi32(t < 20 ? 0x5a827999 : t < 40 ? 0x6ed9eba1
						 : t < 60 ? (int)0x8f1bbcdc : (int)0xca62c1d6);
}

/* r[l] word j -> r[j] word l, for 4 x 4 words in each 128-bit half. */
FSHA1_X8_INLINE void transpose4(__m256i r[4])
{
	__m256i t0 = _mm256_unpacklo_epi32(r[0], r[1]), t1 = _mm256_unpackhi_epi32(r[0], r[1]);
	__m256i t2 = _mm256_unpacklo_epi32(r[2], r[3]), t3 = _mm256_unpackhi_epi32(r[2], r[3]);
	r[0] = _mm256_unpacklo_epi64(t0, t2);
	r[1] = _mm256_unpackhi_epi64(t0, t2);
	r[2] = _mm256_unpacklo_epi64(t1, t3);
	r[3] = _mm256_unpackhi_epi64(t1, t3);
}

/*
 * W[s] into the slot of W[s - 16], for 16 <= s < 80. Round t computes
 * W[t + 4]: four rounds of slack between the schedule and its use.
 */
#define SCHED(s)                                                                              \
	do {                                                                                  \
		if ((s) >= 16 && (s) < 80)                                                    \
			w[(s) & 15] = ROL1(XOR(XOR(w[((s) - 3) & 15], w[((s) - 8) & 15]),      \
					       XOR(w[((s) - 14) & 15], w[(s) & 15])));         \
	} while (0)

/*
 * SHA1DC's narrowed bytes of group @g (bytes 0 and 3 of W[32+4g..35+4g],
 * the layout of FSHA1DC_NAR_STRIDE) from the four words in the ring, for
 * the eight lanes: each word's bytes 0 and 3 go to two bytes of each lane
 * by vpshufb, two words ORed make (b0, b0', b3, b3') a lane (W[35+4g]
 * then W[34+4g], W[33+4g] then W[32+4g]), and 16-bit
 * unpacks of the two pairs give each lane's eight bytes, lanes 0, 1, 4, 5
 * and 2, 3, 6, 7; 128-bit permutes put them in lane order. 12 operations a
 * group, placed by the caller right after the group's last word is made.
 */
#define NARG(s)                                                                               \
	do {                                                                                  \
		if (nar && (s) >= 35 && (s) <= 67 && ((s) - 35) % 4 == 0) {                   \
			const __m256i x_ = _mm256_or_si256(                                   \
				_mm256_shuffle_epi8(w[(s) & 15], nar_1st),                    \
				_mm256_shuffle_epi8(w[((s) - 1) & 15], nar_2nd));             \
			const __m256i y_ = _mm256_or_si256(                                   \
				_mm256_shuffle_epi8(w[((s) - 2) & 15], nar_1st),              \
				_mm256_shuffle_epi8(w[((s) - 3) & 15], nar_2nd));             \
			const __m256i l_ = _mm256_unpacklo_epi16(x_, y_);                     \
			const __m256i h_ = _mm256_unpackhi_epi16(x_, y_);                     \
			uint64_t *o_ = nar + FSHA1DC_NAR_STRIDE * (((s) - 35) / 4);           \
			_mm256_storeu_si256((__m256i *)o_, _mm256_permute2x128_si256(l_, h_, 0x20)); \
			_mm256_storeu_si256((__m256i *)(o_ + 4),                              \
					    _mm256_permute2x128_si256(l_, h_, 0x31));          \
		}                                                                             \
	} while (0)

/*
 * One round. The empty asm makes the sum of the terms that do not wait for
 * the previous round opaque, so that rol(a, 5) is added last: without it
 * GCC 12 reassociates the four additions and puts two of them after the
 * rotate, five operations on the loop-carried path instead of three.
 */
#define R(a, b, c, d, e, t)                                          \
	do {                                                         \
		SCHED((t) + 4);                                      \
		NARG((t) + 4);                                       \
		e = ADD(e, ADD(w[(t) & 15], k_of(t)));               \
		e = ADD(e, f_of((t), b, c, d));                      \
		__asm__("" : "+x"(e));                               \
		e = ADD(e, ROL(a, 5));                               \
		b = ROL(b, 30);                                      \
	} while (0)

#define R5(t)                            \
	R(a, b, c, d, e, (t));           \
	R(e, a, b, c, d, (t) + 1);       \
	R(d, e, a, b, c, (t) + 2);       \
	R(c, d, e, a, b, (t) + 3);       \
	R(b, c, d, e, a, (t) + 4)
#define R20(t) R5(t); R5((t) + 5); R5((t) + 10); R5((t) + 15)

/* SHA1DC's record: the state (A, B, C, D, E) in the registers named here,
 * to recw->s (all of it off the rounds' chain: stores). */
#define CAP(s, A, B, C, D, E)                                                \
	do {                                                                 \
		if (recw) {                                                  \
			_mm256_storeu_si256((__m256i *)recw->s[0], A);       \
			_mm256_storeu_si256((__m256i *)recw->s[1], B);       \
			_mm256_storeu_si256((__m256i *)recw->s[2], C);       \
			_mm256_storeu_si256((__m256i *)recw->s[3], D);       \
			_mm256_storeu_si256((__m256i *)recw->s[4], E);       \
		}                                                            \
	} while (0)
#define CAPW(f, t)                                                              \
	do {                                                                    \
		if (recw)                                                       \
			_mm256_storeu_si256((__m256i *)recw->f, w[(t) & 15]);   \
	} while (0)

/*
 * The loop of lanes() and, with @recw and @nar, of SHA1DC's lanes_recw():
 * inlined into each, so the plain kernel carries none of the records' code.
 * Rounds 55..63 are spelled out for the states before steps 56 and 64
 * (the names rotate a place a round).
 */
FSHA1_X8_INLINE void run(uint32_t (*state)[5], const uint8_t *const *data, size_t nblocks,
			 struct fsha1dc_recw *recw, uint64_t *nar)
{
	const uint8_t *p[8];
	/* NARG()'s shuffles: a word's bytes 0 and 3 to bytes 0 and 2 of its
	 * lane (the first word of a pair), or to bytes 1 and 3 (the second) */
	const __m256i nar_1st = _mm256_set_epi8(-1, 15, -1, 12, -1, 11, -1, 8, -1, 7, -1, 4, -1, 3,
					       -1, 0, -1, 15, -1, 12, -1, 11, -1, 8, -1, 7, -1, 4,
					       -1, 3, -1, 0);
	const __m256i nar_2nd = _mm256_set_epi8(15, -1, 12, -1, 11, -1, 8, -1, 7, -1, 4, -1, 3, -1,
					       0, -1, 15, -1, 12, -1, 11, -1, 8, -1, 7, -1, 4, -1,
					       3, -1, 0, -1);
	for (int l = 0; l < 8; l++)
		p[l] = data[l];
	/* Lane-major to word-major: H0..H3 of lanes l and l + 4 in the two
	 * halves of r[l], a 4 x 4 transpose in each half; H4 word by word
	 * (2% faster in 1-block calls than all five words by word). */
	__m256i r[4];
	for (int l = 0; l < 4; l++)
		r[l] = _mm256_inserti128_si256(
			_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)state[l])),
			_mm_loadu_si128((const __m128i *)state[l + 4]), 1);
	transpose4(r);
	__m256i a = r[0], b = r[1], c = r[2], d = r[3];
	__m256i e = _mm256_set_epi32((int)state[7][4], (int)state[6][4], (int)state[5][4],
				     (int)state[4][4], (int)state[3][4], (int)state[2][4],
				     (int)state[1][4], (int)state[0][4]);

	for (size_t blk = 0; blk < nblocks; blk++) {
		__m256i w[16];
		const __m256i a0 = a, b0 = b, c0 = c, d0 = d, e0 = e;
		CAP(in, a, b, c, d, e);
		fsha_x8_load_half(w, p, 64 * blk);
		fsha_x8_load_half(w + 8, p, 64 * blk + 32);
		R20(0);
		R20(20);
		R5(40);
		R5(45);
		R5(50);
		R(a, b, c, d, e, 55);
		CAP(s56, e, a, b, c, d);
		CAPW(w56, 56);
		CAPW(w57, 57);
		R(e, a, b, c, d, 56);
		R(d, e, a, b, c, 57);
		R(c, d, e, a, b, 58);
		R(b, c, d, e, a, 59);
		R(a, b, c, d, e, 60);
		R(e, a, b, c, d, 61);
		R(d, e, a, b, c, 62);
		R(c, d, e, a, b, 63);
		CAP(s64, b, c, d, e, a);
		CAPW(w64, 64);
		R(b, c, d, e, a, 64);
		R5(65);
		R5(70);
		R5(75);
		a = ADD(a, a0);
		b = ADD(b, b0);
		c = ADD(c, c0);
		d = ADD(d, d0);
		e = ADD(e, e0);
		if (recw) {
			recw++;
			nar += 8;
		}
	}

	/* Back to lane-major through the stack: measured faster for 1-block
	 * calls than an 8 x 8 transpose with 16- and 4-byte stores. */
	uint32_t out[5][8] __attribute__((aligned(32)));
	_mm256_store_si256((__m256i *)out[0], a);
	_mm256_store_si256((__m256i *)out[1], b);
	_mm256_store_si256((__m256i *)out[2], c);
	_mm256_store_si256((__m256i *)out[3], d);
	_mm256_store_si256((__m256i *)out[4], e);
	for (int l = 0; l < 8; l++)
		for (int j = 0; j < 5; j++)
			state[l][j] = out[j][l];
}

static void lanes(uint32_t (*state)[5], const uint8_t *const *data, size_t nblocks)
{
	run(state, data, nblocks, NULL, NULL);
}

#ifdef FSHA_HAVE_SHA1_PART_DC_AVX2
/* SHA1DC's lane loop (fsha1dc_lanes_recw_fn): block j's records to
 * recw[j] (elements 0..7), its narrowed bytes to nar[.. + 8 j + l]. */
static void lanes_recw(uint32_t (*state)[5], const uint8_t *const *data, size_t nblocks,
		       struct fsha1dc_recw *recw, uint64_t *nar)
{
	run(state, data, nblocks, recw, nar);
}

/* The AVX2 filters and recheck with the records above: sha1dc_many_rec.c's
 * batch path defers the checks of flagged blocks as jobs, as on the SHA-NI
 * lane rows, where without records it stopped the eight lanes at each one. */
static const struct fsha1dc_ops dc_ops = { fsha1dc_filter_avx2,  NULL, fsha1dc_filter_rec_avx2,
					   NULL, NULL, fsha1dc_recheck_avx2, lanes_recw, NULL, NULL, 0 };
#define DC_OPS (&dc_ops)
#else
#define DC_OPS NULL
#endif

FSHA_X8_BLOCKS(5)

const struct fsha1_backend fsha1_backend_avx2_x8 = {
	{ "avx2_x8", FSHA_CPU_AVX2, 8, FSHA_AUTO_MANY, 3, 7 }, blocks, lanes, DC_OPS, NULL };
