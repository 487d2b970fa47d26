/* SPDX-License-Identifier: MIT */
/*
 * avx2_x4: Keccak-p[1600, n] on four states at once, one state per 64-bit
 * lane of a ymm register. Needs AVX2 only (-mavx2 on this file: 256-bit
 * logic, 64-bit shifts and adds, vpshufb, vpunpck*qdq and vperm2i128 for
 * the transposes). Builds for 32-bit x86 too (compiled there, not timed:
 * that mode has 8 ymm registers, not 16).
 *
 * Contract (src/keccak/keccak_impl.h, a lane row with L = 4):
 * permute_lanes() and absorb_lanes() advance the four states st[0..3]
 * (the contract's layout, lane (x, y) at st[l][x + 5y]) by the same
 * rounds and blocks; lane l reads exactly data[l][0 .. rate * nblocks), at
 * any alignment (unaligned loads only, none crossing its block's end); the
 * pointers may be equal; every state is read and written; stack only.
 * The row's single-state permute() and absorb() run this kernel with all
 * four lanes on the one state (three on scratch copies), as the SHA-2
 * x4/x8 rows do, so that every single-message test of the row (test_sha3's
 * NIST and RFC 9861 answers, squeezes, splits) runs the kernel; pinned,
 * one message costs 1.2x bmi2 (below). Never chosen for single messages.
 *
 * Technique: ymm register j holds lane j of the four states, the "several
 * instances in parallel, one per SIMD lane" arrangement of the Keccak
 * team's implementation overview (G. Bertoni, J. Daemen, M. Peeters,
 * G. Van Assche, R. Van Keer, "Keccak implementation overview", v3.2,
 * 2012) that XKCP's KeccakP-1600-times4 uses on AVX2: every step of FIPS
 * 202 3.2 is one vector op for four states and nothing crosses lanes in
 * the rounds. The round is written plane by plane (the overview's
 * plane-per-plane processing): theta's D from the column parities, then
 * for each output plane the five lanes pi brings there are XORed with D,
 * rotated (rho) and put through chi and iota at once, into a second
 * array (the two alternate, two rounds per loop iteration), so only one
 * plane's lanes are live beside D; and the column parities of the next
 * round are XORed together as chi writes its lanes instead of re-reading
 * all 25. AVX2 has no 64-bit rotate (vprolq is AVX-512): a rotate is two
 * shifts and an or, by 1 an add and a shift, and by 8 and 56 (whole bytes)
 * one vpshufb. States go in and out through six 4 x 4 transposes of
 * 64-bit words (src/core/lanes_avx2.h) and lane 24 by hand; a block's
 * words through 32-byte loads per lane and a 4 x 4 transpose per four
 * words, 16-byte loads and an unpack for two (rate 144), 8-byte loads for
 * the last one.
 *
 * Measured on the project's machine (AMD EPYC Zen 3, family 25 model 1,
 * 2 vCPUs under KVM, shared; ~3.2 GHz by a dependent-add clock; GCC 12.2
 * -O3), 2026-12-04. A private kernel harness calls each row's entries in a
 * loop on one state (for this row four, figures divided by four), thread
 * CPU time, 21 alternating samples each the best of 3, medians; every
 * run under flock and nice -20; three runs agreed within 1% (permute_lanes,
 * which transposes the states in and out per call: 2.5%). Cycles per
 * permutation of one state (absorb: per block of one state):
 *
 *                                        24 rounds   12 rounds
 *   portable                               1382         729
 *   bmi2 (single-state choice)             1126         603
 *   avx2_x4 permute_lanes                   353         194
 *   avx2_x4 absorb_lanes, rate 136          341          -
 *   avx2_x4 absorb_lanes, rate 168          342         180
 *
 * 3.3x bmi2 per state. Through the library: SHA3-256 of 16 KiB is 8.3
 * cycles a byte on bmi2, 10.0 with this row pinned (one message, four
 * lanes' work), against OpenSSL 3.0.19's 7.5 (EVP, its scalar x86-64 code);
 * four messages on this kernel make 2.5 a byte each.
 * - The op count bounds it: a round is 185 vector ops for the four states
 *   (77 xor, 25 andn, 48 shifts, 27 or, 6 add, 2 vpshufb), 46 cycles at
 *   Zen 3's four vector pipes; it runs at about 57 (25 lanes, 5 parities
 *   and 5 D do not fit in 16 ymm registers, so lanes go through memory).
 * - Variants (absorb, rate 136, time relative to this file): the round in
 *   place through a 25-lane temporary, not plane by plane, 1.10; plane by
 *   plane but the parities re-read from the lanes 1.03; four rounds a loop
 *   iteration 1.01 (not kept); block words by vpgatherqq (one gather per
 *   word, the other lanes' pointers as offsets from lane 0's) instead of
 *   the transposes 1.07 at rate 136 and 1.09 at 168.
 * - min_lanes = 2: a kernel call costs the same whichever lanes are live,
 *   4 x 341 = 1364 cycles a block, against 1128 a block and message on
 *   bmi2 (its absorb, rate 136): one live message 0.83x, two 1.65x, three
 *   2.48x, four 3.31x (12 rounds: 0.84x, 1.67x). A lone message finishes
 *   single-stream. Kernel figures: the Keccak batch scheduler was not in
 *   the tree yet; to check with fastsha-bench --many once it is.
 * - min_batch 0: there is no narrower Keccak lane row.
 * - Batch choice (FSHA_AUTO_MANY) on any AVX2 CPU but AMD Zen 2, which
 *   runs avx2_x4s, this kernel with fewer shifts (FSHA_X4_FEW_SHIFTS;
 *   keccak_avx2_x4s.c); on Intel Haswell to Skylake the vector shifts
 *   have two ports, not measured there.
 */
#include <immintrin.h>
#include <string.h>

#include "../../core/lanes_avx2.h"
#include "../keccak_impl.h"

#define X4_INLINE static inline __attribute__((always_inline))

#define XOR(x, y) _mm256_xor_si256((x), (y))

#ifdef FSHA_X4_FEW_SHIFTS
/* avx2_x4s (keccak_avx2_x4s.c): vpshufb masks that rotate each 64-bit
 * lane left by k bytes (byte j from byte (j - k) % 8), read from a table:
 * as constant vectors, GCC 12 moved two shuffles a loop in front of the
 * XORs that feed them, 2-5% slower on Zen 2. */
#define X4_B(k, o, j) (uint8_t)((o) + (((j) - (k)) & 7))
#define X4_Q(k, o)                                                                                 \
	X4_B(k, o, 0), X4_B(k, o, 1), X4_B(k, o, 2), X4_B(k, o, 3), X4_B(k, o, 4), X4_B(k, o, 5),  \
		X4_B(k, o, 6), X4_B(k, o, 7)
#define X4_MASK(k) { X4_Q(k, 0), X4_Q(k, 8), X4_Q(k, 0), X4_Q(k, 8) }
static const uint8_t x4_rol_bytes[8][32] = { X4_MASK(0), X4_MASK(1), X4_MASK(2), X4_MASK(3),
					     X4_MASK(4), X4_MASK(5), X4_MASK(6), X4_MASK(7) };

/* Rotate left by n = 8k + r, r <= 3: a byte rotate by k (none when k is
 * 0), then by r, whose left shift is r doublings (vpaddq): one shift. */
X4_INLINE __m256i rol_few_shifts(__m256i x, int n)
{
	const int k = n / 8, r = n % 8;
	const __m256i y =
		k ? _mm256_shuffle_epi8(x, _mm256_loadu_si256((const __m256i *)x4_rol_bytes[k])) : x;
	if (r == 0)
		return y;
	__m256i l = y;
	for (int i = 0; i < r; i++)
		l = _mm256_add_epi64(l, l);
	return _mm256_or_si256(l, _mm256_srli_epi64(y, 64 - r));
}
#endif

/* Rotate each 64-bit lane left by @n (a constant once inlined). */
X4_INLINE __m256i rol(__m256i x, int n)
{
#ifdef FSHA_X4_FEW_SHIFTS
	if (n != 1 && n % 8 <= 3)
		return rol_few_shifts(x, n);
#endif
	/* byte k of each lane from byte (k - 1) % 8 (by 8) or (k + 1) % 8 (by 56) */
	const __m256i r8 = _mm256_setr_epi8(7, 0, 1, 2, 3, 4, 5, 6, 15, 8, 9, 10, 11, 12, 13, 14, 7,
					    0, 1, 2, 3, 4, 5, 6, 15, 8, 9, 10, 11, 12, 13, 14);
	const __m256i r56 = _mm256_setr_epi8(1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8,
					     1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8);
	if (n == 8)
		return _mm256_shuffle_epi8(x, r8);
	if (n == 56)
		return _mm256_shuffle_epi8(x, r56);
	if (n == 1)
		return _mm256_or_si256(_mm256_add_epi64(x, x), _mm256_srli_epi64(x, 63));
	return _mm256_or_si256(_mm256_slli_epi64(x, n), _mm256_srli_epi64(x, 64 - n));
}

/*
 * One round from a[25] into e[25] (lane j of the four states in a[j]),
 * round constant @rc, one output plane (row y) at a time, so that only
 * that plane's five lanes are live beside D and the parities: D from the
 * parities c[5] of a; for each plane the five lanes pi brings there, each
 * XORed with its D and rotated (rho); chi and iota on them, and c
 * becomes the parities of e as the lanes are written. Output lane (X, Y)
 * comes from input lane ((X + 3Y) % 5, X) (pi inverted), with that
 * lane's rho offset (FIPS 202 table 2); ROW lists the five source lanes
 * and offsets of plane Y.
 */
#define CHI(Y, X, p, q, r)                                                                         \
	do {                                                                                       \
		__m256i o_ = XOR(p, _mm256_andnot_si256(q, r));                                    \
		e[5 * (Y) + (X)] = o_;                                                             \
		c[X] = (Y) == 0 ? o_ : XOR(c[X], o_);                                              \
	} while (0)
#define ROW(Y, s0, r0, s1, r1, s2, r2, s3, r3, s4, r4)                                             \
	do {                                                                                       \
		__m256i b0 = rol(XOR(a[s0], d[(s0) % 5]), r0);                                     \
		__m256i b1 = rol(XOR(a[s1], d[(s1) % 5]), r1);                                     \
		__m256i b2 = rol(XOR(a[s2], d[(s2) % 5]), r2);                                     \
		__m256i b3 = rol(XOR(a[s3], d[(s3) % 5]), r3);                                     \
		__m256i b4 = rol(XOR(a[s4], d[(s4) % 5]), r4);                                     \
		CHI(Y, 0, b0, b1, b2);                                                             \
		CHI(Y, 1, b1, b2, b3);                                                             \
		CHI(Y, 2, b2, b3, b4);                                                             \
		CHI(Y, 3, b3, b4, b0);                                                             \
		CHI(Y, 4, b4, b0, b1);                                                             \
	} while (0)

X4_INLINE void round4(const __m256i a[25], __m256i e[25], __m256i c[5], uint64_t rc)
{
	__m256i d[5];
	for (int x = 0; x < 5; x++)
		d[x] = XOR(c[(x + 4) % 5], rol(c[(x + 1) % 5], 1));
	ROW(0, 0, 0, 6, 44, 12, 43, 18, 21, 24, 14);
	ROW(1, 3, 28, 9, 20, 10, 3, 16, 45, 22, 61);
	ROW(2, 1, 1, 7, 6, 13, 25, 19, 8, 20, 18);
	ROW(3, 4, 27, 5, 36, 11, 10, 17, 15, 23, 56);
	ROW(4, 2, 62, 8, 55, 14, 39, 15, 41, 21, 2);
	const __m256i k = _mm256_set1_epi64x((long long)rc);
	e[0] = XOR(e[0], k);
	c[0] = XOR(c[0], k);
}

/* The last @rounds rounds on s (an even number: 24 or 12), two at a time,
 * s to t and back. */
X4_INLINE void rounds4(__m256i s[25], unsigned rounds)
{
	__m256i t[25], c[5];
	for (int x = 0; x < 5; x++)
		c[x] = XOR(XOR(XOR(s[x], s[x + 5]), XOR(s[x + 10], s[x + 15])), s[x + 20]);
	for (unsigned i = 24 - rounds; i < 24; i += 2) {
		round4(s, t, c, fsha_keccak_rc[i]);
		round4(t, s, c, fsha_keccak_rc[i + 1]);
	}
}

/* The four states into s[j] = lane j of states 0..3: six 4 x 4 transposes
 * and lane 24 gathered by hand. */
X4_INLINE void load_states(__m256i s[25], uint64_t (*st)[25])
{
	for (int g = 0; g < 24; g += 4) {
		for (int l = 0; l < 4; l++)
			s[g + l] = _mm256_loadu_si256((const __m256i *)&st[l][g]);
		fsha_x4q_transpose(s + g);
	}
	s[24] = _mm256_set_epi64x((long long)st[3][24], (long long)st[2][24],
				  (long long)st[1][24], (long long)st[0][24]);
}

X4_INLINE void store_states(uint64_t (*st)[25], __m256i s[25])
{
	for (int g = 0; g < 24; g += 4) {
		__m256i r[4] = { s[g], s[g + 1], s[g + 2], s[g + 3] };
		fsha_x4q_transpose(r);
		for (int l = 0; l < 4; l++)
			_mm256_storeu_si256((__m256i *)&st[l][g], r[l]);
	}
	uint64_t last[4];
	_mm256_storeu_si256((__m256i *)last, s[24]);
	for (int l = 0; l < 4; l++)
		st[l][24] = last[l];
}

/*
 * XOR one block of @rate bytes of each lane (data[l] + @off) into s:
 * 32 bytes a lane and a 4 x 4 transpose per four words, then two words
 * (rate 144) by 16-byte loads, then one word by 8-byte loads, every load
 * inside the block.
 */
X4_INLINE void xor_block(__m256i s[25], const uint8_t *const *data, size_t off, size_t rate)
{
	size_t w = rate / 8, i = 0;
	for (; i + 4 <= w; i += 4) {
		__m256i r[4];
		for (int l = 0; l < 4; l++)
			r[l] = _mm256_loadu_si256((const __m256i *)(data[l] + off + 8 * i));
		fsha_x4q_transpose(r);
		for (int j = 0; j < 4; j++)
			s[i + j] = XOR(s[i + j], r[j]);
	}
	if (i + 2 <= w) {
		/* lanes 0 and 2 in one register, 1 and 3 in another: unpack
		 * gives word i of lanes 0..3 and word i + 1 */
		const size_t o = off + 8 * i;
		__m256i a = _mm256_setr_m128i(_mm_loadu_si128((const __m128i *)(data[0] + o)),
					      _mm_loadu_si128((const __m128i *)(data[2] + o)));
		__m256i b = _mm256_setr_m128i(_mm_loadu_si128((const __m128i *)(data[1] + o)),
					      _mm_loadu_si128((const __m128i *)(data[3] + o)));
		s[i] = XOR(s[i], _mm256_unpacklo_epi64(a, b));
		s[i + 1] = XOR(s[i + 1], _mm256_unpackhi_epi64(a, b));
		i += 2;
	}
	if (i < w) {
		uint64_t v[4];
		for (int l = 0; l < 4; l++)
			memcpy(&v[l], data[l] + off + 8 * i, 8);
		s[i] = XOR(s[i], _mm256_loadu_si256((const __m256i *)v));
	}
}

static void permute_lanes(uint64_t (*st)[25], unsigned rounds)
{
	__m256i s[25];
	load_states(s, st);
	rounds4(s, rounds);
	store_states(st, s);
}

static void absorb_lanes(uint64_t (*st)[25], const uint8_t *const *data, size_t nblocks,
			 size_t rate, unsigned rounds)
{
	__m256i s[25];
	load_states(s, st);
	for (size_t blk = 0; blk < nblocks; blk++) {
		xor_block(s, data, blk * rate, rate);
		rounds4(s, rounds);
	}
	store_states(st, s);
}

/* The row's single-state entries: the kernel itself with all four lanes
 * on the one state (three of them on scratch copies), so that every
 * single-message test of the row runs the kernel (see the head comment). */
FSHA_KECCAK_LANES_SINGLE(4)

#ifdef FSHA_X4_FEW_SHIFTS
const struct fsha_keccak_backend fsha_keccak_backend_avx2_x4s = {
	{ "avx2_x4s", FSHA_CPU_AVX2, 4, FSHA_AUTO_MANY, 2, 0 }, permute, absorb, permute_lanes,
	absorb_lanes };
#else
const struct fsha_keccak_backend fsha_keccak_backend_avx2_x4 = {
	{ "avx2_x4", FSHA_CPU_AVX2, 4, FSHA_AUTO_MANY, 2, 0 }, permute, absorb, permute_lanes,
	absorb_lanes };
#endif
