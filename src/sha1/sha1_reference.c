/* SPDX-License-Identifier: MIT */
/*
 * reference: FIPS 180-4 section 6.1.2 written out literally, the oracle the
 * tests compare every other backend against. Needs no CPU feature; never
 * chosen automatically. The full 80-word schedule, the textbook f-functions
 * (Ch, Parity, Maj) and the round loop exactly as the standard states them.
 */
#include "sha1_impl.h"

static uint32_t rotl(uint32_t x, unsigned n)
{
	return (x << n) | (x >> (32 - n));
}

static uint32_t f(unsigned t, uint32_t x, uint32_t y, uint32_t z)
{
	if (t <= 19)
		return (x & y) ^ (~x & z);           /* Ch */
	if (t <= 39)
		return x ^ y ^ z;                    /* Parity */
	if (t <= 59)
		return (x & y) ^ (x & z) ^ (y & z);  /* Maj */
	return x ^ y ^ z;                            /* Parity */
}

static uint32_t k(unsigned t)
{
	if (t <= 19)
		return 0x5a827999;
	if (t <= 39)
		return 0x6ed9eba1;
	if (t <= 59)
		return 0x8f1bbcdc;
	return 0xca62c1d6;
}

static void blocks(uint32_t state[5], const uint8_t *data, size_t nblocks)
{
	for (; nblocks; nblocks--, data += 64) {
		uint32_t W[80];
		for (unsigned t = 0; t < 16; t++)
			W[t] = (uint32_t)data[4 * t] << 24 | (uint32_t)data[4 * t + 1] << 16 |
			       (uint32_t)data[4 * t + 2] << 8 | data[4 * t + 3];
		for (unsigned t = 16; t < 80; t++)
			W[t] = rotl(W[t - 3] ^ W[t - 8] ^ W[t - 14] ^ W[t - 16], 1);

		uint32_t a = state[0], b = state[1], c = state[2], d = state[3], e = state[4];
		for (unsigned t = 0; t < 80; t++) {
			uint32_t T = rotl(a, 5) + f(t, b, c, d) + e + k(t) + W[t];
			e = d;
			d = c;
			c = rotl(b, 30);
			b = a;
			a = T;
		}
		state[0] += a;
		state[1] += b;
		state[2] += c;
		state[3] += d;
		state[4] += e;
	}
}

const struct fsha1_backend fsha1_backend_reference = { { "reference", 0, 1, 0, 0, 0 }, blocks, NULL, NULL, NULL };
