/* SPDX-License-Identifier: MIT */
/*
 * PBKDF2-HMAC-SHA512's chains on the avx2 row's code: the chain kernels
 * (core/backend.h, fsha_chain_fn) of the avx2 row, one chain (x1) and two
 * side by side (x2). Needs what sha512_avx2.c needs (AVX2, BMI1, BMI2;
 * built with the same flags, x86-64 only: the rounds are sha512_avx2.h's
 * inline assembly). SHA-512 only: SHA-384's and SHA-512/t's digests are
 * not their whole state.
 *
 * Contract: c[0..k) (k = 1 or 2) each hold the inner and outer chaining
 * words (H0..H7, host order), U's block (U's 64 digest bytes, then the
 * padding of a 192-byte message) and the XOR of the U so far as chaining
 * words; @iters more iterations (0: none) of U = HMAC(P, U), XOR += U. U's
 * digest bytes and the XOR are written back at the end; nothing else of
 * the chains is written, nothing outside them read. The W+K array is
 * cleared before returning; the compiler's spills are cleared with the
 * rest of PBKDF2's stack (src/mac/kdf.c). No branch on data.
 *
 * Technique: the next message's words W[0..7] are the last digest's
 * chaining words (big-endian digest, big-endian message words), so U stays
 * in registers: the row's message registers w[0..3] (two words of block A
 * in the low 128-bit lane, two of block B in the high one; here block A is
 * chain 0 and block B chain 1, or nothing for x1) are built from the
 * round variables with vmovq/vpinsrq, and w[4..7] = W[8..15] are the
 * padding's constants (0x80.., zeros, the length (128 + 64) * 8 bits), so
 * their W+K for rounds 8..15 is stored once per call. Per compression:
 * four stores of U + K, block A's 80 rounds with the pair's schedule
 * (sha512_avx2.h, U2S then U2: the row's code), for x2 block B's 80 rounds
 * on the W+K A's rounds left, the chaining words added from the key's
 * state. What this replaces (lanes.c, chain_single()) copied the chaining
 * words into a buffer, went through the family thunk, byte-swapped the
 * block in and the digest out through memory, and XORed 4 bytes at a time.
 *
 * Measured (Intel Xeon, Emerald Rapids line, KVM family 6 model 167, 2
 * vCPUs; GCC 12; fastsha_pbkdf2() of k 64-byte blocks, 10,000
 * iterations, ns per chain and iteration, medians of 9): one chain on
 * chain_single() 387.2, on x1 354.6, on x1_vl 320.6 (about 580 cycles a
 * compression at ~3.6 GHz, against ~690 before); two chains on x2_vl
 * 313.5 a chain: block B's rounds run after A's, and the ALU ports, not
 * the round chain's latency, are the limit, so pairing gains little.
 * fastsha-bench --mac -a sha512 --jobs pbkdf2 (100,000 iterations),
 * medians of 3: 37.8 ms (1.56x OpenSSL) before, 31.3 ms (1.83x) with
 * x1_vl. Not tried: a scalar BMI2 schedule, or the schedule's constant
 * terms (W[8..15] make parts of steps 8 and 12..14 constant) folded in.
 */
#include <string.h>

#include "sha512_avx2.h"
#include "../sha512_impl.h"
#include "../../core/family.h"
#include "../../core/wipe.h"

#define CHAIN_INLINE static inline __attribute__((always_inline))

CHAIN_INLINE uint64_t word(const uint8_t *st, int i)
{
	uint64_t x;
	memcpy(&x, st + 8 * i, 8);
	return x;
}

/*
 * Block A's rounds (the schedule of both lanes with them) or block B's
 * (@second: on the W+K at wk + 2), from chaining words @st; the new chaining
 * words, as the message words of the next block, in out[0..3] (W[2v],
 * W[2v+1] in out[v]).
 */
CHAIN_INLINE void rounds(const int vl, const int second, const uint8_t *st, __m256i w[8], uint64_t *wk,
			 __m128i out[4])
{
	uint64_t a = word(st, 0), b = word(st, 1), c = word(st, 2), d = word(st, 3);
	uint64_t e = word(st, 4), f = word(st, 5), g = word(st, 6), h = word(st, 7);
	uint64_t bc = b ^ c;
	uint64_t *q;
	const uint64_t *kq;
	if (!second) {
		for (q = wk, kq = fsha512_k; q < wk + 128; q += 32, kq += 16)
			if (vl)
				A16(U2V);
			else
				A16(U2S);
		q = wk + 128;
		A16(U2);
	} else {
		for (q = wk + 2; q < wk + 160; q += 32)
			A16(U2);
	}
	a += word(st, 0);
	b += word(st, 1);
	c += word(st, 2);
	d += word(st, 3);
	e += word(st, 4);
	f += word(st, 5);
	g += word(st, 6);
	h += word(st, 7);
	out[0] = _mm_set_epi64x((long long)b, (long long)a);
	out[1] = _mm_set_epi64x((long long)d, (long long)c);
	out[2] = _mm_set_epi64x((long long)f, (long long)e);
	out[3] = _mm_set_epi64x((long long)h, (long long)g);
}

/* W[8..15] of U's block: the padding of a block and a digest, both lanes. */
#define PAD_W(v)                                                                              \
	((v) == 0 ? _mm256_set_epi64x(0, (long long)0x8000000000000000ULL, 0,                  \
				      (long long)0x8000000000000000ULL)                       \
	 : (v) == 3 ? _mm256_set_epi64x((128 + 64) * 8, 0, (128 + 64) * 8, 0)                \
		    : _mm256_setzero_si256())

/* One hash of each chain's U (u[0..3], the w[0..3] layout) from the
 * chaining words of @outer's side: U becomes its digest. */
CHAIN_INLINE void chain_hash(const int vl, const int L, struct fsha_chain *c, const int outer, __m256i u[4],
			     uint64_t *wk)
{
	__m256i w[8];
	__m128i ua[4], ub[4];
	for (int v = 0; v < 4; v++) {
		w[v] = u[v];
		w[v + 4] = PAD_W(v);
		_mm256_store_si256((__m256i *)(wk + 4 * v),
				   _mm256_add_epi64(u[v], _mm256_broadcastsi128_si256(_mm_loadu_si128(
							       (const __m128i *)(fsha512_k + 2 * v)))));
	}
	rounds(vl, 0, outer ? c[0].outer : c[0].inner, w, wk, ua);
	if (L == 2) {
		rounds(vl, 1, outer ? c[1].outer : c[1].inner, w, wk, ub);
		for (int v = 0; v < 4; v++)
			u[v] = _mm256_inserti128_si256(_mm256_castsi128_si256(ua[v]), ub[v], 1);
	} else {
		for (int v = 0; v < 4; v++)
			u[v] = _mm256_zextsi128_si256(ua[v]);
	}
}

CHAIN_INLINE void chain_run(const int vl, const int L, struct fsha_chain *c, uint64_t iters)
{
	const __m256i bswap64 = _mm256_set_epi64x(0x08090a0b0c0d0e0fLL, 0x0001020304050607LL,
						  0x08090a0b0c0d0e0fLL, 0x0001020304050607LL);
	uint64_t wk[160] __attribute__((aligned(32)));
	__m256i u[4], x[4];
	const struct fsha_chain *c1 = L == 2 ? &c[1] : &c[0];

	for (int v = 0; v < 4; v++) {
		/* U's words W[2v], W[2v+1] and the XOR's H[2v], H[2v+1]: chain 0
		 * low, chain 1 (or 0 again) high */
		u[v] = _mm256_shuffle_epi8(
			_mm256_loadu2_m128i((const __m128i *)(c1->u + 16 * v),
					    (const __m128i *)(c[0].u + 16 * v)),
			bswap64);
		x[v] = _mm256_loadu2_m128i((const __m128i *)(c1->acc + 16 * v),
					   (const __m128i *)(c[0].acc + 16 * v));
		/* W+K of rounds 8..15, the padding's, for both lanes */
		_mm256_store_si256((__m256i *)(wk + 16 + 4 * v),
				   _mm256_add_epi64(PAD_W(v), _mm256_broadcastsi128_si256(_mm_loadu_si128(
								      (const __m128i *)(fsha512_k + 8 + 2 * v)))));
	}
	for (; iters; iters--) {
		chain_hash(vl, L, c, 0, u, wk);
		chain_hash(vl, L, c, 1, u, wk);
		for (int v = 0; v < 4; v++)
			x[v] = _mm256_xor_si256(x[v], u[v]);
	}
	for (int v = 0; v < 4; v++) {
		const __m256i ub = _mm256_shuffle_epi8(u[v], bswap64);
		_mm_storeu_si128((__m128i *)(c[0].u + 16 * v), _mm256_castsi256_si128(ub));
		_mm_storeu_si128((__m128i *)(c[0].acc + 16 * v), _mm256_castsi256_si128(x[v]));
		if (L == 2) {
			_mm_storeu_si128((__m128i *)(c[1].u + 16 * v), _mm256_extracti128_si256(ub, 1));
			_mm_storeu_si128((__m128i *)(c[1].acc + 16 * v),
					 _mm256_extracti128_si256(x[v], 1));
		}
	}
	fsha_wipe(wk, sizeof(wk));
}

void fsha512_avx2_chain_x1(struct fsha_chain *c, uint64_t iters)
{
	chain_run(0, 1, c, iters);
}

void fsha512_avx2_chain_x2(struct fsha_chain *c, uint64_t iters)
{
	chain_run(0, 2, c, iters);
}

void fsha512_avx2_chain_x1_vl(struct fsha_chain *c, uint64_t iters)
{
	chain_run(1, 1, c, iters);
}

void fsha512_avx2_chain_x2_vl(struct fsha_chain *c, uint64_t iters)
{
	chain_run(1, 2, c, iters);
}
