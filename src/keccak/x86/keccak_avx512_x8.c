/* SPDX-License-Identifier: MIT */
/*
 * avx512_x8: Keccak-p[1600, n] on eight states at once, one state per
 * 64-bit lane of a zmm register. Needs AVX512F only (-mavx512f on this
 * file: vprolq, vpternlogq, masked loads, vpunpck*qdq and vshufi32x4 for
 * the transposes); x86_64 only (32 zmm registers).
 *
 * Written on an AMD Zen 2 without AVX-512 and checked there only through
 * SIMDe (tools/simde-check compares every entry with the portable row:
 * every rate 8..168, 1..4 blocks, 8 data alignments, 24 and 12 rounds,
 * distinct, equal and pairwise-equal data pointers, under ASan/UBSan and
 * a bounds tracker on every load). It has run natively since 2026-12-05,
 * on an Intel Xeon of the Emerald Rapids line (KVM's family 6 model 167),
 * where every test of the suite passes on it and the figures below were
 * measured; first among the lane rows since.
 *
 * Contract (src/keccak/keccak_impl.h, a lane row with L = 8):
 * permute_lanes() and absorb_lanes() advance the eight states st[0..7]
 * (the contract's layout, lane (x, y) at st[l][x + 5y]) by the same
 * rounds (24 or 12: the last rounds of the 24) and blocks; lane l reads
 * exactly data[l][0 .. rate * nblocks), at any alignment (unaligned and
 * masked loads only, none reaching past its block's end); the pointers
 * may be equal; every state is read and written; stack only. The row's
 * single-state permute() and absorb() run this kernel with all eight
 * lanes on the one state (seven on scratch copies), as avx2_x4 does, so
 * every single-message test of the row runs the kernel; never chosen for
 * single messages.
 *
 * Technique: zmm register j holds lane j of the eight states, the
 * "several instances in parallel, one per SIMD lane" arrangement of the
 * Keccak team's implementation overview (G. Bertoni, J. Daemen, M.
 * Peeters, G. Van Assche, R. Van Keer, "Keccak implementation overview",
 * v3.2, 2012), the layout of keccak_avx2_x4.c on registers twice as wide,
 * and the round plane by plane as there (the overview's plane-per-plane
 * processing: for each output plane the five lanes pi brings there go
 * through theta, rho, chi and iota at once, into a second array; the two
 * alternate, two rounds per loop iteration). AVX-512 removes most of the
 * AVX2 round's work:
 * - rotates are one vprolq each (AVX2 needed two shifts and an or);
 * - a column parity is two vpternlogq (imm 0x96, a ^ b ^ c) instead of
 *   four xors, recomputed from the lanes each round (cheaper than
 *   carrying it through chi as avx2_x4 does: 10 ops against 20);
 * - theta's D is never formed: each lane takes a ^ C[x-1] ^ rol(C[x+1], 1)
 *   in one vpternlogq from the five rotated parities (5 rotates and 25
 *   ternlogs, against 10 ops for D and 25 xors);
 * - chi's a ^ (~b & c) is one vpternlogq (imm 0xD2).
 * A round is then 90 vector ops for the eight states: 10 ternlogs
 * (parities) + 5 rotates (rol C by 1) + 25 ternlogs (theta) + 24 rotates
 * (rho; lane (0, 0) has offset 0) + 25 ternlogs (chi) + 1 xor (iota,
 * the round constant broadcast): 60 vpternlogq, 29 vprolq, 1 vpxorq.
 * avx2_x4's round is 185 ops for four states: per state about 4.1x fewer.
 * The 25 lanes, 5 parities and 5 rotated parities fit in the 32 zmm
 * registers beside the plane being built only with some spilling (the
 * compiler's choice; not examined).
 *
 * States go in and out through three 8 x 8 transposes of 64-bit words
 * (fsha_x8q_transpose, src/core/lanes_avx512.h, AVX512F only; that
 * header's byte-swapping loads need AVX512BW and are not used) for lanes
 * 0..23 and lane 24 by hand (eight scalar loads and stores). A block's
 * words through a 64-byte load per lane and an 8 x 8 transpose per eight
 * words, and the last rate/8 mod 8 words (rates 72, 104, 136, 144, 168
 * and the others not a multiple of 64) by masked loads of exactly those
 * words (vmovdqu64 with a zeroing mask, which does not fault on masked-off
 * words) and the same transpose; the rows past the words are zero and are
 * XORed anyway (at most seven xors a block, no branch, every register
 * index a constant so the lanes can stay in registers).
 *
 * Speed, estimated when written: vpternlogq at 2 zmm ops a cycle and
 * vprolq at 1 (sha512_avx512_x8.c's port test on Zen 4) make 90 ops at
 * least 45 cycles a round, 1,080 for 24 rounds of eight states, about 135
 * a state. Measured on the Xeon (fastsha-bench, 2026-12-05, OpenSSL
 * 3.0.19's EVP one message at a time in the same runs):
 * - --sha3, two runs: SHA3-256 of 1,024 x 4 KiB 5.81x and 5.82x, SHAKE128
 *   of 1,024 x 34 B to 504 B 5.96x and 6.12x, KangarooTwelve of 1 MiB
 *   11.54x and 11.63x OpenSSL's SHA3-256 (3.38x our SHA-256), Keccak-256
 *   of 1,024 x 64 B 8.08x and 8.17x;
 * - 1,024 x 4 KiB at 3,092 MB/s is 44 ns a state's permutation, about 178
 *   cycles at the 4.06 GHz the dependent adds give: 76% of the 135-cycle
 *   bound. Two interleaved groups (an x16 row) could hide some latency,
 *   at most the remaining 24%; not written.
 * - min_lanes 2, min_batch 0 (--many -a sha3-256 --n 1..8,16,1024 --sizes
 *   64,4K): up to four live messages the scheduler steps down to avx2_x4
 *   already (the narrowest row with enough lanes), which gave the same
 *   1.24x/2.47x (4 KiB, n = 2/4) as avx2_x4 pinned; at n = 5 this row
 *   gives 3.69x against avx2_x4's 1.55x (a fifth message in turns), 5.82x
 *   at n = 8. Starting small batches lower would only lose.
 */
#include <immintrin.h>
#include <string.h>

#include "../../core/lanes_avx512.h"
#include "../keccak_impl.h"

#define X8_INLINE static inline __attribute__((always_inline))

/* a ^ b ^ c (vpternlogq's truth table, bit a * 4 + b * 2 + c, is 0x96 for
 * odd parity) and a ^ (~b & c) (0xD2). */
#define XOR3(a, b, c) _mm512_ternarylogic_epi64((a), (b), (c), 0x96)
#define CHI3(a, b, c) _mm512_ternarylogic_epi64((a), (b), (c), 0xD2)

/* Rotate each lane left by @n, a literal (vprolq takes an immediate, so
 * this is a macro, not a function; Clang rejects a non-constant count
 * even after inlining). Offset 0 (lane (0, 0)) costs nothing. */
#define ROL(x, n) ((n) == 0 ? (x) : _mm512_rol_epi64((x), (n)))

/*
 * One round from a[25] into e[25], round constant @rc, one output plane
 * (row Y) at a time. Output lane (X, Y) comes from input lane
 * s = ((X + 3Y) % 5, X) (pi inverted) with that lane's rho offset (FIPS
 * 202 table 2); ROW lists the five source lanes and offsets of plane Y.
 * theta on source lane s (column s % 5) is a[s] ^ C[s % 5 - 1] ^
 * rol(C[s % 5 + 1], 1): c[] holds the parities, r[] the rotated ones.
 */
#define THETA(s) XOR3(a[s], c[((s) + 4) % 5], r[((s) + 1) % 5])
#define ROW(Y, s0, r0, s1, r1, s2, r2, s3, r3, s4, r4)                                             \
	do {                                                                                       \
		__m512i b0 = ROL(THETA(s0), r0);                                                   \
		__m512i b1 = ROL(THETA(s1), r1);                                                   \
		__m512i b2 = ROL(THETA(s2), r2);                                                   \
		__m512i b3 = ROL(THETA(s3), r3);                                                   \
		__m512i b4 = ROL(THETA(s4), r4);                                                   \
		e[5 * (Y) + 0] = CHI3(b0, b1, b2);                                                 \
		e[5 * (Y) + 1] = CHI3(b1, b2, b3);                                                 \
		e[5 * (Y) + 2] = CHI3(b2, b3, b4);                                                 \
		e[5 * (Y) + 3] = CHI3(b3, b4, b0);                                                 \
		e[5 * (Y) + 4] = CHI3(b4, b0, b1);                                                 \
	} while (0)

X8_INLINE void round8(const __m512i a[25], __m512i e[25], uint64_t rc)
{
	/* Written out, not as loops over x: GCC 12 -O2 kept those loops
	 * rolled and c[] and r[] in memory. */
#define PARITY(x) XOR3(XOR3(a[x], a[(x) + 5], a[(x) + 10]), a[(x) + 15], a[(x) + 20])
	const __m512i c[5] = { PARITY(0), PARITY(1), PARITY(2), PARITY(3), PARITY(4) };
#undef PARITY
	const __m512i r[5] = { _mm512_rol_epi64(c[0], 1), _mm512_rol_epi64(c[1], 1),
			       _mm512_rol_epi64(c[2], 1), _mm512_rol_epi64(c[3], 1),
			       _mm512_rol_epi64(c[4], 1) };
	ROW(0, 0, 0, 6, 44, 12, 43, 18, 21, 24, 14);
	ROW(1, 3, 28, 9, 20, 10, 3, 16, 45, 22, 61);
	ROW(2, 1, 1, 7, 6, 13, 25, 19, 8, 20, 18);
	ROW(3, 4, 27, 5, 36, 11, 10, 17, 15, 23, 56);
	ROW(4, 2, 62, 8, 55, 14, 39, 15, 41, 21, 2);
	e[0] = _mm512_xor_si512(e[0], _mm512_set1_epi64((long long)rc));
}

/* The last @rounds rounds on s (an even number: 24 or 12), two at a time,
 * s to t and back. */
X8_INLINE void rounds8(__m512i s[25], unsigned rounds)
{
	__m512i t[25];
	for (unsigned i = 24 - rounds; i < 24; i += 2) {
		round8(s, t, fsha_keccak_rc[i]);
		round8(t, s, fsha_keccak_rc[i + 1]);
	}
}

/* The eight states into s[j] = lane j of states 0..7: three 8 x 8
 * transposes (st[l][g .. g + 7], inside the 25 words for g <= 16) and
 * lane 24 by hand. */
X8_INLINE void load_states(__m512i s[25], uint64_t (*st)[25])
{
	for (int g = 0; g < 24; g += 8) {
		for (int l = 0; l < 8; l++)
			s[g + l] = _mm512_loadu_si512((const void *)&st[l][g]);
		fsha_x8q_transpose(s + g);
	}
	s[24] = _mm512_set_epi64((long long)st[7][24], (long long)st[6][24], (long long)st[5][24],
				 (long long)st[4][24], (long long)st[3][24], (long long)st[2][24],
				 (long long)st[1][24], (long long)st[0][24]);
}

X8_INLINE void store_states(uint64_t (*st)[25], const __m512i s[25])
{
	for (int g = 0; g < 24; g += 8) {
		__m512i r[8];
		for (int j = 0; j < 8; j++)
			r[j] = s[g + j];
		fsha_x8q_transpose(r);
		for (int l = 0; l < 8; l++)
			_mm512_storeu_si512((void *)&st[l][g], r[l]);
	}
	uint64_t last[8];
	_mm512_storeu_si512((void *)last, s[24]);
	for (int l = 0; l < 8; l++)
		st[l][24] = last[l];
}

/*
 * XOR words g .. g + 7 of one block of each lane (data[l] + @off) into
 * s[g .. g + 7], of which the block has @n (1..8): all eight by a 64-byte
 * load per lane, fewer by a masked load of exactly n words (the masked-off
 * words are neither read nor able to fault), then the transpose. The
 * rows past n are zero; XORing them is cheaper than a branch and keeps
 * every index into s a constant.
 */
X8_INLINE void xor_words8(__m512i s[8], const uint8_t *const *data, size_t off, size_t n)
{
	__m512i r[8];
	if (n >= 8) {
		for (int l = 0; l < 8; l++)
			r[l] = _mm512_loadu_si512((const void *)(data[l] + off));
	} else {
		const __mmask8 k = (__mmask8)((1u << n) - 1);
		for (int l = 0; l < 8; l++)
			r[l] = _mm512_maskz_loadu_epi64(k, (const void *)(data[l] + off));
	}
	fsha_x8q_transpose(r);
	for (int j = 0; j < 8; j++)
		s[j] = _mm512_xor_si512(s[j], r[j]);
}

/* XOR one block of @rate bytes (rate / 8 = 1..21 words) of each lane at
 * data[l] + @off into s: words 0..7, 8..15, 16..20, as far as the rate
 * goes. */
X8_INLINE void xor_block(__m512i s[25], const uint8_t *const *data, size_t off, size_t rate)
{
	const size_t w = rate / 8;
	xor_words8(s, data, off, w);
	if (w > 8)
		xor_words8(s + 8, data, off + 64, w - 8);
	if (w > 16)
		xor_words8(s + 16, data, off + 128, w - 16);
}

static void permute_lanes(uint64_t (*st)[25], unsigned rounds)
{
	__m512i s[25];
	load_states(s, st);
	rounds8(s, rounds);
	store_states(st, s);
}

static void absorb_lanes(uint64_t (*st)[25], const uint8_t *const *data, size_t nblocks,
			 size_t rate, unsigned rounds)
{
	__m512i s[25];
	load_states(s, st);
	for (size_t blk = 0; blk < nblocks; blk++) {
		xor_block(s, data, blk * rate, rate);
		rounds8(s, rounds);
	}
	store_states(st, s);
}

/* The row's single-state entries: the kernel itself with all eight lanes
 * on the one state (seven of them on scratch copies), so that every
 * single-message test of the row runs the kernel (see the head comment). */
FSHA_KECCAK_LANES_SINGLE(8)

const struct fsha_keccak_backend fsha_keccak_backend_avx512_x8 = {
	{ "avx512_x8", FSHA_CPU_AVX512F, 8, FSHA_AUTO_MANY, 2, 0 }, permute, absorb, permute_lanes,
	absorb_lanes };
