/* SPDX-License-Identifier: MIT */
#ifndef FSHA2_REFERENCE_H
#define FSHA2_REFERENCE_H

/*
 * The spec-literal SHA-2 compression, once for SHA-256 and SHA-512: FIPS
 * 180-4 sections 6.2.2 and 6.4.2 are one algorithm over w-bit words whose
 * rotation and shift amounts (4.1.2, 4.1.3), round count and constants
 * differ. Each family's reference backend passes its column of those
 * tables as data. Arithmetic is in 64 bits, reduced mod 2^w after every
 * operation, as the spec's addition modulo 2^w reads. Slow on purpose and
 * never chosen on its own: it is what the tests hold every other backend to.
 */

#include <stddef.h>
#include <stdint.h>

struct fsha2_spec {
	unsigned w;           /* word size in bits: 32 or 64 */
	unsigned rounds;      /* 64 or 80 */
	unsigned bsig0[3];    /* SIGMA0: ROTR amounts */
	unsigned bsig1[3];    /* SIGMA1: ROTR amounts */
	unsigned ssig0[3];    /* sigma0: two ROTR amounts, then SHR */
	unsigned ssig1[3];    /* sigma1: two ROTR amounts, then SHR */
	const void *k;        /* K0..K{rounds-1}, uint32_t or uint64_t */
};

static inline uint64_t fsha2_ref_mask(const struct fsha2_spec *S, uint64_t x)
{
	return S->w == 64 ? x : x & 0xffffffffu;
}

static inline uint64_t fsha2_ref_rotr(const struct fsha2_spec *S, uint64_t x, unsigned n)
{
	return fsha2_ref_mask(S, (x >> n) | (x << (S->w - n)));
}

static inline uint64_t fsha2_ref_word(const struct fsha2_spec *S, const void *a, unsigned i)
{
	return S->w == 64 ? ((const uint64_t *)a)[i] : ((const uint32_t *)a)[i];
}

static inline void fsha2_reference_blocks(const struct fsha2_spec *S, void *state,
					  const uint8_t *data, size_t nblocks)
{
	const unsigned bytes = S->w / 8;
	for (; nblocks; nblocks--, data += 16 * bytes) {
		uint64_t W[80], v[8];
		for (unsigned t = 0; t < 16; t++) {
			W[t] = 0;
			for (unsigned i = 0; i < bytes; i++)
				W[t] = W[t] << 8 | data[bytes * t + i];
		}
		for (unsigned t = 16; t < S->rounds; t++) {
			uint64_t x = W[t - 15], y = W[t - 2];
			uint64_t s0 = fsha2_ref_rotr(S, x, S->ssig0[0]) ^
				      fsha2_ref_rotr(S, x, S->ssig0[1]) ^ (x >> S->ssig0[2]);
			uint64_t s1 = fsha2_ref_rotr(S, y, S->ssig1[0]) ^
				      fsha2_ref_rotr(S, y, S->ssig1[1]) ^ (y >> S->ssig1[2]);
			W[t] = fsha2_ref_mask(S, s1 + W[t - 7] + s0 + W[t - 16]);
		}
		for (unsigned i = 0; i < 8; i++)
			v[i] = fsha2_ref_word(S, state, i);
		uint64_t a = v[0], b = v[1], c = v[2], d = v[3], e = v[4], f = v[5], g = v[6], h = v[7];
		for (unsigned t = 0; t < S->rounds; t++) {
			uint64_t S1 = fsha2_ref_rotr(S, e, S->bsig1[0]) ^
				      fsha2_ref_rotr(S, e, S->bsig1[1]) ^ fsha2_ref_rotr(S, e, S->bsig1[2]);
			uint64_t ch = (e & f) ^ (fsha2_ref_mask(S, ~e) & g);
			uint64_t T1 = fsha2_ref_mask(S, h + S1 + ch + fsha2_ref_word(S, S->k, t) + W[t]);
			uint64_t S0 = fsha2_ref_rotr(S, a, S->bsig0[0]) ^
				      fsha2_ref_rotr(S, a, S->bsig0[1]) ^ fsha2_ref_rotr(S, a, S->bsig0[2]);
			uint64_t maj = (a & b) ^ (a & c) ^ (b & c);
			uint64_t T2 = fsha2_ref_mask(S, S0 + maj);
			h = g;
			g = f;
			f = e;
			e = fsha2_ref_mask(S, d + T1);
			d = c;
			c = b;
			b = a;
			a = fsha2_ref_mask(S, T1 + T2);
		}
		uint64_t out[8] = { a, b, c, d, e, f, g, h };
		for (unsigned i = 0; i < 8; i++) {
			uint64_t sum = fsha2_ref_mask(S, v[i] + out[i]);
			if (S->w == 64)
				((uint64_t *)state)[i] = sum;
			else
				((uint32_t *)state)[i] = (uint32_t)sum;
		}
	}
}

#endif
