/* SPDX-License-Identifier: MIT */
#ifndef FSHA1_X86_SHANI_CHAIN_H
#define FSHA1_X86_SHANI_CHAIN_H
/*
 * PBKDF2-HMAC-SHA1's chains on the x86 SHA extensions: the chain kernels
 * (core/backend.h, fsha_chain_fn) of the shani row (sha1_shani_chain.c)
 * and of shani_avx512 (sha1_shani_avx512_chain.c, the same code on that
 * row's rounds: sha1_shani.h, FSHA1_NI_VL), one chain (x1) and two side
 * by side (x2); chain_run(L, ...) here is both. Needs what the row needs,
 * with the same flags, x86-64 only: the x2 kernel's registers do not fit
 * i686's eight.
 *
 * Contract: c[0..k) (k = 1 or 2) each hold the inner and outer chaining
 * words (H0..H4, host order), U's block (U's 20 digest bytes, then the
 * padding of a 84-byte message) and the XOR of the U so far as chaining
 * words; @iters more iterations (0: none) of U = HMAC(P, U), XOR += U. U's
 * digest bytes and the XOR are written back at the end; nothing else of
 * the chains is written, nothing outside them read, no memory of ours
 * keeps a keyed word beyond the compiler's spills (which PBKDF2 clears
 * with the rest of its stack, src/mac/kdf.c). No branch on data.
 *
 * Technique: the next message's words are the last digest's (SHA-1's
 * digest is its chaining words, big-endian, and the rounds take big-endian
 * words), so U stays in the registers the rounds left it in: W[0..3] is
 * the ABCD register itself (A in the top lane, as W[0] is), W[4..7] is E
 * with the first padding word beside it, which sha1nexte writes in one
 * instruction from a copy of the chaining E that carries that word, and
 * W[8..15] are constants. Per iteration: two blocks through the rounds of
 * sha1_shani.h (FSHA1_NI_ROUNDS), an add and a sha1nexte each, two XORs.
 * What this replaces (lanes.c, chain_single()) wrote the digest bytes into
 * the block and the state into memory and read both back through an
 * indirect call each compression, about 166 cycles a compression here
 * against the 122 of the rounds' chain.
 */
#include <string.h>

#include "sha1_shani.h"
#include "../../core/family.h"

/* Lane count of the widest kernel here, the size of the per-chain arrays. */
#define CHAIN_MAX FSHA1_NI_CHAIN_MAX

/* The big-endian word at @p. */
static inline uint32_t be32(const uint8_t *p)
{
	return fsha_load_be32(p);
}

FSHA1_NI_INLINE void chain_run(const int L, struct fsha_chain *c, uint64_t iters)
{
	/* the whole 16 bytes reversed: bytes to words with W[0] on top, and back */
	const __m128i rev = _mm_set_epi64x(0x0001020304050607LL, 0x08090a0b0c0d0e0fLL);
	const __m128i pad = _mm_set_epi32(0, (int)0x80000000, 0, 0);
	__m128i ia[CHAIN_MAX], ie[CHAIN_MAX], iep[CHAIN_MAX], oa[CHAIN_MAX], oe[CHAIN_MAX],
		oep[CHAIN_MAX], u0[CHAIN_MAX], u1[CHAIN_MAX], x0[CHAIN_MAX], x1[CHAIN_MAX];

	FSHA1_NI_EACH(l, L)
	{
		uint32_t w;
		ia[l] = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)c[l].inner), 0x1b);
		memcpy(&w, c[l].inner + 16, 4);
		ie[l] = _mm_set_epi32((int)w, 0, 0, 0);
		iep[l] = _mm_or_si128(ie[l], pad);
		oa[l] = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)c[l].outer), 0x1b);
		memcpy(&w, c[l].outer + 16, 4);
		oe[l] = _mm_set_epi32((int)w, 0, 0, 0);
		oep[l] = _mm_or_si128(oe[l], pad);
		u0[l] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)c[l].u), rev);
		u1[l] = _mm_or_si128(_mm_set_epi32((int)be32(c[l].u + 16), 0, 0, 0), pad);
		x0[l] = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)c[l].acc), 0x1b);
		memcpy(&w, c[l].acc + 16, 4);
		x1[l] = _mm_set_epi32((int)w, 0, 0, 0);
	}
	for (; iters; iters--) {
		fsha1_ni_hash_u(L, ia, ie, iep, u0, u1);
		fsha1_ni_hash_u(L, oa, oe, oep, u0, u1);
		FSHA1_NI_EACH(l, L)
		{
			x0[l] = _mm_xor_si128(x0[l], u0[l]);
			x1[l] = _mm_xor_si128(x1[l], u1[l]); /* lane 3 is read, the others not */
		}
	}
	FSHA1_NI_EACH(l, L)
	{
		uint32_t w = (uint32_t)_mm_extract_epi32(x1[l], 3);
		_mm_storeu_si128((__m128i *)c[l].u, _mm_shuffle_epi8(u0[l], rev));
		fsha_store_be32(c[l].u + 16, (uint32_t)_mm_extract_epi32(u1[l], 3));
		_mm_storeu_si128((__m128i *)c[l].acc, _mm_shuffle_epi32(x0[l], 0x1b));
		memcpy(c[l].acc + 16, &w, 4);
	}
}

#endif
