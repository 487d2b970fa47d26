/* SPDX-License-Identifier: MIT */
/*
 * Shared by the SIMD-schedule backends sha1_ssse3.c, sha1_avx.c,
 * sha1_avx2.c and sha1_sse2.c: the scalar rounds (all four) and the 128-bit
 * message schedule (ssse3 and avx; sse2 has its own, without pshufb). Everything here is a macro or an always_inline
 * function, so it is compiled inside each backend file with that file's ISA
 * flags: the same source becomes SSSE3 code in sha1_ssse3.c, VEX code in
 * sha1_avx.c and VEX code with BMI1/BMI2 (andn, rorx) in sha1_avx2.c. It
 * exists so that the rounds, the part that decides the speed, are written
 * once.
 *
 * Technique: the message schedule W[t] runs on the SIMD unit four words per
 * operation, W+K is stored to a small stack array ahead of use, and the
 * scalar rounds read W+K from there (dean gaudet, seed 001; Locktyukhin,
 * seed 000). The SIMD work hides under the scalar rounds, which are the
 * limit: a' = rol(a,5) + (e + W+K + f) is one rotate and one add per round
 * on the loop-carried path (160 cycles a block at best), and each round
 * needs about eight integer ALU operations (2 rotates, 3 adds, the f-function)
 * against four ALUs, so the integer units are nearly saturated too.
 */
#ifndef FSHA1_X86_SCHED_H
#define FSHA1_X86_SCHED_H

#include <immintrin.h>

#include "../sha1_impl.h"

/*
 * The f-functions. Ch is (b & c) + (~b & d) when BMI1's andn makes ~b & d
 * one instruction (the two terms share no bit, so + is |), else
 * d ^ (b & (c ^ d)), three instructions with no NOT. Maj is
 * (b & (c ^ d)) + (c & d), again two terms with no common bit; of the
 * forms tried it measured best (vs (b & c) + (d & (b ^ c)) and
 * ((b ^ c) & (c ^ d)) ^ c, the latter about 6% slower).
 */
#ifdef __BMI__
#define FSHA1_F1(b, c, d) (((b) & (c)) + (~(b) & (d)))
#else
#define FSHA1_F1(b, c, d) ((d) ^ ((b) & ((c) ^ (d))))
#endif
#define FSHA1_F2(b, c, d) ((b) ^ (c) ^ (d))
#define FSHA1_F3(b, c, d) (((b) & ((c) ^ (d))) + ((c) & (d)))

/*
 * After storing to arr, tell the compiler arr may have changed. Without this
 * GCC 12 forwards the W+K vector it just stored to the rounds' scalar reads
 * with vpextrd (two uops each) instead of folding a plain load into the
 * round's add: measured about 10% slower.
 */
#define FSHA1_OPAQUE(arr) __asm__("" : "+m"(arr))

/*
 * One round, the f-function of the next round computed in this one, as
 * OpenSSL's AVX2 SHA-1 does: f for round i+1 needs only a, the rotated b and
 * c of round i, so it is computed while a' is still being summed. The sum
 * is written left to right so rol(a,5), the only term that waits for the
 * previous round, is added last.
 *
 * With BMI2 the variable a is rotated by 30 in the round that consumes it
 * (rorx copies for free) and the next f may then overwrite the unrotated
 * value: that removed a third of the register copies GCC emitted and
 * measured about 3% faster (FSHA1_PRE/POST convert b at the block's
 * edges). Without rorx a rotate is a mov plus rol, so the ssse3 and avx
 * builds rotate b in place one round later, the classic order.
 */
#ifdef __BMI2__
#define FSHA1_R(a, b, c, d, e, Fn, WK, i)                      \
	do {                                                   \
		uint32_t r_;                                   \
		e = e + WK(i) + f + fsha_rol32(a, 5);         \
		r_ = fsha_rol32(a, 30);                       \
		f = Fn(a, b, c);                               \
		a = r_;                                        \
	} while (0)
#define FSHA1_PRE() (b = fsha_rol32(b, 30))
#define FSHA1_POST() (b = fsha_rol32(b, 2))
#else
#define FSHA1_R(a, b, c, d, e, Fn, WK, i)                      \
	do {                                                   \
		e = e + WK(i) + f + fsha_rol32(a, 5);         \
		b = fsha_rol32(b, 30);                        \
		f = Fn(a, b, c);                               \
	} while (0)
#define FSHA1_PRE() ((void)0)
#define FSHA1_POST() ((void)0)
#endif

/*
 * Twenty rounds t0..t0+19 (t0 a multiple of 20, so the variables are back in
 * place at the end) with f-function F, Fn being that of round t0+20. W+K is
 * read through WK(i), and HOOK(r) is called before every four rounds: that
 * is where the includer interleaves the schedule of later rounds.
 */
#define FSHA1_20(F, Fn, t0, WK, HOOK)                                         \
	HOOK((t0));                                                     \
	FSHA1_R(a, b, c, d, e, F, WK, (t0));                            \
	FSHA1_R(e, a, b, c, d, F, WK, (t0) + 1);                        \
	FSHA1_R(d, e, a, b, c, F, WK, (t0) + 2);                        \
	FSHA1_R(c, d, e, a, b, F, WK, (t0) + 3);                        \
	HOOK((t0) + 4);                                                 \
	FSHA1_R(b, c, d, e, a, F, WK, (t0) + 4);                        \
	FSHA1_R(a, b, c, d, e, F, WK, (t0) + 5);                        \
	FSHA1_R(e, a, b, c, d, F, WK, (t0) + 6);                        \
	FSHA1_R(d, e, a, b, c, F, WK, (t0) + 7);                        \
	HOOK((t0) + 8);                                                 \
	FSHA1_R(c, d, e, a, b, F, WK, (t0) + 8);                        \
	FSHA1_R(b, c, d, e, a, F, WK, (t0) + 9);                        \
	FSHA1_R(a, b, c, d, e, F, WK, (t0) + 10);                       \
	FSHA1_R(e, a, b, c, d, F, WK, (t0) + 11);                       \
	HOOK((t0) + 12);                                                \
	FSHA1_R(d, e, a, b, c, F, WK, (t0) + 12);                       \
	FSHA1_R(c, d, e, a, b, F, WK, (t0) + 13);                       \
	FSHA1_R(b, c, d, e, a, F, WK, (t0) + 14);                       \
	FSHA1_R(a, b, c, d, e, F, WK, (t0) + 15);                       \
	HOOK((t0) + 16);                                                \
	FSHA1_R(e, a, b, c, d, F, WK, (t0) + 16);                       \
	FSHA1_R(d, e, a, b, c, F, WK, (t0) + 17);                       \
	FSHA1_R(c, d, e, a, b, F, WK, (t0) + 18);                       \
	FSHA1_R(b, c, d, e, a, Fn, WK, (t0) + 19)

/*
 * One block's 80 rounds. a..e enter as the chaining value and leave as the
 * next one, so a block starts straight from the registers the previous one
 * ended in. The chaining value to add at the end is kept in h[], a stack
 * array hidden from the optimiser: read once per block, it costs nothing,
 * and keeps five registers free for the rounds (in registers, ssse3 and
 * avx measured 1-3% slower, and an earlier avx2 layout spilled inside the
 * rounds). Going through state[] let GCC pack the five sums into one
 * vector store that the next block's scalar loads then waited for.
 */
#define FSHA1_80(WK, HOOK)                                          \
	do {                                                        \
		uint32_t f = FSHA1_F1(b, c, d);                     \
		FSHA1_PRE();                                        \
		FSHA1_20(FSHA1_F1, FSHA1_F2, 0, WK, HOOK);          \
		FSHA1_20(FSHA1_F2, FSHA1_F3, 20, WK, HOOK);         \
		FSHA1_20(FSHA1_F3, FSHA1_F2, 40, WK, HOOK);         \
		FSHA1_20(FSHA1_F2, FSHA1_F2, 60, WK, HOOK);         \
		(void)f; /* round 79's "next f" */                  \
		FSHA1_POST();                                       \
		a += h[0];                                          \
		b += h[1];                                          \
		c += h[2];                                          \
		d += h[3];                                          \
		e += h[4];                                          \
		h[0] = a;                                           \
		h[1] = b;                                           \
		h[2] = c;                                           \
		h[3] = d;                                           \
		h[4] = e;                                           \
		FSHA1_OPAQUE(h);                                    \
	} while (0)

/*
 * SHA1DC's records (struct fsha1dc_rec in sha1_impl.h, the SHA-NI
 * registers' layout) from these rounds, for the loops that keep them
 * (sha1_avx2.c's pair loop, fsha1_x86_run128() below): their hooks before
 * rounds 56 and 64, where FSHA1_20 has the state in (e, a, b, c, d) and
 * (b, c, d, e, a). FSHA1_DC_CAP(r, t, WK, sa..se): the state before step t
 * (56 or 64) into record @r, E as the A four steps earlier (rol 2, as the
 * SHA-NI rounds keep it), and W[56], W[57] (t 56) or W[64] (t 64) from W+K
 * read through WK; with BMI2 the rounds keep B rotated by 30
 * (FSHA1_PRE). FSHA1_DC_CAP_IN(r): the chaining value in (a..e before the
 * rounds). FSHA1_DC_NARROW_BYTES: the vpshufb pattern that takes bytes 0 and 3 of the
 * four words of a 128-bit lane, W[4v+3] first, as SHA-NI's layout has
 * them (the narrowed bytes the filter reads).
 */
#ifdef __BMI2__
#define FSHA1_DC_B_OF(x) fsha_rol32((x), 2)
#else
#define FSHA1_DC_B_OF(x) (x)
#endif
#define FSHA1_DC_CAP(r, t, WK, sa, sb, sc, sd, se)                                             \
	do {                                                                                   \
		uint32_t *s_ = (t) == 56 ? (r)->s56 : (r)->s64;                                \
		s_[0] = (sd);                                                                  \
		s_[1] = (sc);                                                                  \
		s_[2] = FSHA1_DC_B_OF(sb);                                                     \
		s_[3] = (sa);                                                                  \
		s_[7] = fsha_rol32((se), 2);                                                   \
		if ((t) == 56) {                                                               \
			(r)->w56[3] = WK(56) - fsha1_x86_k[2][0];                              \
			(r)->w56[2] = WK(57) - fsha1_x86_k[2][0];                              \
		} else {                                                                       \
			(r)->w64[3] = WK(64) - fsha1_x86_k[3][0];                              \
		}                                                                              \
	} while (0)
#define FSHA1_DC_CAP_IN(r)                                                                     \
	do {                                                                                   \
		(r)->in[0] = d;                                                                \
		(r)->in[1] = c;                                                                \
		(r)->in[2] = b;                                                                \
		(r)->in[3] = a;                                                                \
		(r)->in[7] = e;                                                                \
	} while (0)
/* Both hooks' captures for record @r, at hook @h (a round number). */
#define FSHA1_DC_HOOK_CAP(r, h, WK)                                                            \
	do {                                                                                   \
		if ((h) == 56)                                                                 \
			FSHA1_DC_CAP((r), 56, WK, e, a, b, c, d);                              \
		if ((h) == 64)                                                                 \
			FSHA1_DC_CAP((r), 64, WK, b, c, d, e, a);                              \
	} while (0)
#define FSHA1_DC_NARROW_BYTES -1, -1, -1, -1, -1, -1, -1, -1, 3, 7, 11, 15, 0, 4, 8, 12

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
		FSHA1_OPAQUE(wk);                                                              \
	} while (0)

/*
 * The ssse3 and avx backends: the schedule for W[t..t+3] is computed during
 * rounds t-16..t-13, and the next block's first sixteen W+K during this
 * block's last sixteen rounds. On the last block "next" is this block again,
 * so nothing outside the input is read and the loop needs no branch.
 */
#define FSHA1_WK128(i) wk[i]
#define FSHA1_HOOK128(r)                                                                       \
	do {                                                                                   \
		FSHA1_SCHED128((r) / 4 + 4, next);                                             \
		if (nar && (r) / 4 + 4 >= 8 && (r) / 4 + 4 <= 16)                              \
			_mm_storel_epi64((__m128i *)(nar + FSHA1DC_NAR_STRIDE * ((r) / 4 - 4)), \
					 _mm_shuffle_epi8(w[((r) / 4 + 4) & 7], narrow));       \
		if (rec)                                                                       \
			FSHA1_DC_HOOK_CAP(rec, (r), FSHA1_WK128);                              \
	} while (0)

/*
 * The loop; with @rec and @nar (SHA1DC, fsha1dc_rec_fn: the ssse3 and avx
 * rows' blocks_rec) it also keeps each block's record and narrowed bytes
 * (NULL and NULL: nothing of it is compiled in).
 */
static inline __attribute__((always_inline)) void
fsha1_x86_run128(uint32_t state[5], const uint8_t *data, size_t nblocks, struct fsha1dc_rec *rec,
		 uint64_t *nar)
{
	__m128i w[8];
	uint32_t wk[80] __attribute__((aligned(16)));
	const uint8_t *next = data;
	uint32_t a = state[0], b = state[1], c = state[2], d = state[3], e = state[4];
	uint32_t h[5] = { a, b, c, d, e };
	const __m128i narrow = _mm_set_epi8(FSHA1_DC_NARROW_BYTES);
	(void)narrow;

	FSHA1_SCHED128(20, next);
	FSHA1_SCHED128(21, next);
	FSHA1_SCHED128(22, next);
	FSHA1_SCHED128(23, next);
	do {
		next = nblocks > 1 ? data + 64 : data;
		if (rec)
			FSHA1_DC_CAP_IN(rec);
		FSHA1_80(FSHA1_WK128, FSHA1_HOOK128);
		data += 64;
		if (rec) {
			rec++;
			nar++;
		}
	} while (--nblocks);
	state[0] = a;
	state[1] = b;
	state[2] = c;
	state[3] = d;
	state[4] = e;
}

static inline __attribute__((always_inline)) void
fsha1_x86_blocks128(uint32_t state[5], const uint8_t *data, size_t nblocks)
{
	fsha1_x86_run128(state, data, nblocks, NULL, NULL);
}

/*
 * The SHA1DC parts of a row built on the loop above (struct fsha1dc_ops,
 * named dc_ops; FSHA1_X86_128_DC_OPS_PTR is NULL when the build has no SHA1DC
 * filter): the loop keeping records and narrowed bytes, so the filter runs on
 * those bytes and a flagged block is checked from its record instead of being
 * compressed again (sha1dc_driver.c's record path), with the x86 dispatching
 * filters and recheck (AVX2's where the CPU has it). One definition for
 * sha1_ssse3.c and sha1_avx.c.
 */
#ifdef FSHA_HAVE_SHA1_PART_DC_SSE2
#define FSHA1_X86_128_DC_OPS                                                                   \
	static void blocks_rec(uint32_t state[5], const uint8_t *data, size_t nblocks,         \
			       struct fsha1dc_rec *rec, uint64_t *nar)                         \
	{                                                                                      \
		fsha1_x86_run128(state, data, nblocks, rec, nar);                              \
	}                                                                                      \
	static const struct fsha1dc_ops dc_ops = { fsha1dc_filter_x86,  blocks_rec,            \
						   fsha1dc_filter_rec_x86, NULL, NULL,         \
						   fsha1dc_recheck_x86, NULL, NULL, NULL, 0 }
#define FSHA1_X86_128_DC_OPS_PTR (&dc_ops)
#else
#define FSHA1_X86_128_DC_OPS struct fsha1_x86_no_dc_ops
#define FSHA1_X86_128_DC_OPS_PTR NULL
#endif

#endif
