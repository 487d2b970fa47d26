/* SPDX-License-Identifier: MIT */
/*
 * reference: SHA-512 written out as FIPS 180-4 section 6.4.2 states it (the
 * 64-word schedule W, the eight working variables, T1 and T2), with the
 * functions of section 4.1.3. Slow on purpose and never chosen on its own:
 * it is what the tests hold every other backend to.
 * CPU features: none. Contract: sha512_impl.h.
 */
#include "sha512_impl.h"

static uint64_t rotr(uint64_t x, unsigned n)
{
	return (x >> n) | (x << (64 - n));
}

static uint64_t ch(uint64_t x, uint64_t y, uint64_t z)
{
	return (x & y) ^ (~x & z);
}

static uint64_t maj(uint64_t x, uint64_t y, uint64_t z)
{
	return (x & y) ^ (x & z) ^ (y & z);
}

static uint64_t bsig0(uint64_t x)
{
	return rotr(x, 28) ^ rotr(x, 34) ^ rotr(x, 39);
}

static uint64_t bsig1(uint64_t x)
{
	return rotr(x, 14) ^ rotr(x, 18) ^ rotr(x, 41);
}

static uint64_t ssig0(uint64_t x)
{
	return rotr(x, 1) ^ rotr(x, 8) ^ (x >> 7);
}

static uint64_t ssig1(uint64_t x)
{
	return rotr(x, 19) ^ rotr(x, 61) ^ (x >> 6);
}

static void blocks(uint64_t state[8], const uint8_t *data, size_t nblocks)
{
	for (; nblocks; nblocks--, data += 128) {
		uint64_t W[80];
		for (unsigned t = 0; t < 16; t++)
			W[t] = 0;
		for (unsigned t = 0; t < 16; t++)
			for (unsigned i = 0; i < 8; i++)
				W[t] = W[t] << 8 | data[8 * t + i];
		for (unsigned t = 16; t < 80; t++)
			W[t] = ssig1(W[t - 2]) + W[t - 7] + ssig0(W[t - 15]) + W[t - 16];

		uint64_t a = state[0], b = state[1], c = state[2], d = state[3];
		uint64_t e = state[4], f = state[5], g = state[6], h = state[7];
		for (unsigned t = 0; t < 80; t++) {
			uint64_t T1 = h + bsig1(e) + ch(e, f, g) + fsha512_k[t] + W[t];
			uint64_t T2 = bsig0(a) + maj(a, b, c);
			h = g;
			g = f;
			f = e;
			e = d + T1;
			d = c;
			c = b;
			b = a;
			a = T1 + T2;
		}
		state[0] += a;
		state[1] += b;
		state[2] += c;
		state[3] += d;
		state[4] += e;
		state[5] += f;
		state[6] += g;
		state[7] += h;
	}
}

const struct fsha512_backend fsha512_backend_reference = { { "reference", 0, 1, 0 }, blocks, NULL };
