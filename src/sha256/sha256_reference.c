/* SPDX-License-Identifier: MIT */
/*
 * reference: SHA-256 written out as FIPS 180-4 section 6.2.2 states it (the
 * 64-word schedule W, the eight working variables, T1 and T2), with the
 * functions of section 4.1.2. Slow on purpose and never chosen on its own:
 * it is what the tests hold every other backend to.
 * CPU features: none. Contract: sha256_impl.h.
 */
#include "sha256_impl.h"

static uint32_t rotr(uint32_t x, unsigned n)
{
	return (x >> n) | (x << (32 - n));
}

static uint32_t ch(uint32_t x, uint32_t y, uint32_t z)
{
	return (x & y) ^ (~x & z);
}

static uint32_t maj(uint32_t x, uint32_t y, uint32_t z)
{
	return (x & y) ^ (x & z) ^ (y & z);
}

static uint32_t bsig0(uint32_t x)
{
	return rotr(x, 2) ^ rotr(x, 13) ^ rotr(x, 22);
}

static uint32_t bsig1(uint32_t x)
{
	return rotr(x, 6) ^ rotr(x, 11) ^ rotr(x, 25);
}

static uint32_t ssig0(uint32_t x)
{
	return rotr(x, 7) ^ rotr(x, 18) ^ (x >> 3);
}

static uint32_t ssig1(uint32_t x)
{
	return rotr(x, 17) ^ rotr(x, 19) ^ (x >> 10);
}

static void blocks(uint32_t state[8], const uint8_t *data, size_t nblocks)
{
	for (; nblocks; nblocks--, data += 64) {
		uint32_t W[64];
		for (unsigned t = 0; t < 16; t++)
			W[t] = (uint32_t)data[4 * t] << 24 | (uint32_t)data[4 * t + 1] << 16 |
			       (uint32_t)data[4 * t + 2] << 8 | data[4 * t + 3];
		for (unsigned t = 16; t < 64; t++)
			W[t] = ssig1(W[t - 2]) + W[t - 7] + ssig0(W[t - 15]) + W[t - 16];

		uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
		uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
		for (unsigned t = 0; t < 64; t++) {
			uint32_t T1 = h + bsig1(e) + ch(e, f, g) + fsha256_k[t] + W[t];
			uint32_t T2 = bsig0(a) + maj(a, b, c);
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

const struct fsha256_backend fsha256_backend_reference = { { "reference", 0, 1, 0 }, blocks, NULL };
