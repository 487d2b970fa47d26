/* SPDX-License-Identifier: MIT */
#ifndef FSHA256_X86_SHANI_CHAIN_H
#define FSHA256_X86_SHANI_CHAIN_H
/*
 * PBKDF2-HMAC-SHA256's chains on the x86 SHA extensions: the chain kernels
 * (core/backend.h, fsha_chain_fn) of the shani row (sha256_shani_chain.c)
 * and of shani_avx512 (sha256_shani_avx512_chain.c: this code on that
 * row's schedule, sha256_shani.h's FSHA256_NI_VL), one chain (x1), two
 * side by side (x2) and three (x3: per chain no faster than x2, 51.8
 * against 52.2 ns an iteration, but 3 chains run 1.15x faster on it than
 * on x2 and x1, for an odd count of chains; see lanes.c's figures). Needs
 * what the row needs (built with its flags, x86-64 only: the wider kernels' registers do not
 * fit i686's eight). SHA-256 only: SHA-224's digest is not its whole state.
 *
 * Contract: c[0..k) (k = 1, 2 or 3) each hold the inner and outer chaining
 * words (H0..H7, host order), U's block (U's 32 digest bytes, then the
 * padding of a 96-byte message) and the XOR of the U so far as chaining
 * words; @iters more iterations (0: none) of U = HMAC(P, U), XOR += U. U's
 * digest bytes and the XOR are written back at the end; nothing else of
 * the chains is written, nothing outside them read, no memory of ours
 * keeps a keyed word beyond the compiler's spills (which PBKDF2 clears
 * with the rest of its stack, src/mac/kdf.c). No branch on data.
 *
 * Technique: the next message's words are the last digest's (the digest
 * is the chaining words, big-endian, and the rounds take big-endian
 * words), so U stays in registers: W[0..3] = A, B, C, D and W[4..7] = E,
 * F, G, H are one shufps each of the ABEF and CDGH registers the rounds
 * leave (fsha256_ni_store_state()'s shuffles, without the store), and
 * W[8..15] are constants. Per iteration: two blocks through the rounds of
 * sha256_shani.h (FSHA256_NI_ROUNDS), two adds and two shufps each, two
 * XORs. What this replaces (lanes.c, chain_single()) wrote the digest
 * bytes into the block and the state into memory and read both back
 * through an indirect call each compression.
 */
#include "sha256_shani.h"
#include "../../core/family.h"

/* Lane count of the widest kernel here, the size of the per-chain arrays. */
#define CHAIN_MAX FSHA256_NI_CHAIN_MAX

FSHA256_NI_INLINE void chain_run(const int L, struct fsha_chain *c, uint64_t iters)
{
	const __m128i bswap32 = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
	__m128i iabef[CHAIN_MAX], icdgh[CHAIN_MAX], oabef[CHAIN_MAX], ocdgh[CHAIN_MAX],
		u0[CHAIN_MAX], u1[CHAIN_MAX], x0[CHAIN_MAX], x1[CHAIN_MAX];

	FSHA256_NI_EACH(l, L)
	{
		/* (vector loads only: no word is read through the pointer) */
		fsha256_ni_load_state((const uint32_t *)(const void *)c[l].inner, &iabef[l], &icdgh[l]);
		fsha256_ni_load_state((const uint32_t *)(const void *)c[l].outer, &oabef[l], &ocdgh[l]);
		u0[l] = fsha256_ni_load_w(c[l].u, 0);
		u1[l] = fsha256_ni_load_w(c[l].u, 1);
		/* the XOR as host words H0..H7, the layout of u0, u1 */
		x0[l] = _mm_loadu_si128((const __m128i *)c[l].acc);
		x1[l] = _mm_loadu_si128((const __m128i *)(c[l].acc + 16));
	}
	for (; iters; iters--) {
		fsha256_ni_hash_u(L, iabef, icdgh, u0, u1);
		fsha256_ni_hash_u(L, oabef, ocdgh, u0, u1);
		FSHA256_NI_EACH(l, L)
		{
			x0[l] = _mm_xor_si128(x0[l], u0[l]);
			x1[l] = _mm_xor_si128(x1[l], u1[l]);
		}
	}
	FSHA256_NI_EACH(l, L)
	{
		_mm_storeu_si128((__m128i *)c[l].u, _mm_shuffle_epi8(u0[l], bswap32));
		_mm_storeu_si128((__m128i *)(c[l].u + 16), _mm_shuffle_epi8(u1[l], bswap32));
		_mm_storeu_si128((__m128i *)c[l].acc, x0[l]);
		_mm_storeu_si128((__m128i *)(c[l].acc + 16), x1[l]);
	}
}

/* The x1, x2 and x3 kernels, named PREFIX_x1 .. PREFIX_x3. */
#define FSHA256_NI_CHAIN_KERNELS(prefix)                          \
	void prefix##_x1(struct fsha_chain *c, uint64_t iters)    \
	{                                                         \
		chain_run(1, c, iters);                           \
	}                                                         \
	void prefix##_x2(struct fsha_chain *c, uint64_t iters)    \
	{                                                         \
		chain_run(2, c, iters);                           \
	}                                                         \
	void prefix##_x3(struct fsha_chain *c, uint64_t iters)    \
	{                                                         \
		chain_run(3, c, iters);                           \
	}

#endif
