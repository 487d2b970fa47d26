/* SPDX-License-Identifier: MIT */
/*
 * reference: Keccak-p[1600, n] as FIPS 202 section 3 writes it, step by
 * step, with no table typed in: theta, rho (offsets walked from (1, 0) as
 * Algorithm 2 does), pi, chi, and iota with the round constants built bit
 * by bit from the LFSR rc(t) of Algorithm 5 (once, on first use: walking
 * the LFSR in every round made each permutation cost some 24,000 LFSR
 * steps). Lanes are w = 64-bit words (3.1.2), z the bit within a lane.
 * Slow on purpose and never chosen automatically: the oracle the other
 * backends are tested against. Portable C, any CPU.
 */
#include <stdatomic.h>
#include <string.h>

#include "keccak_impl.h"

/* A[x][y] is lane x + 5y of the contract's array. */
#define A(x, y) a[(x) + 5 * (y)]

static uint64_t rotl(uint64_t v, unsigned n)
{
	n %= 64;
	return n ? (v << n) | (v >> (64 - n)) : v;
}

/* Algorithm 5: rc(t), one bit of an LFSR over GF(2) with polynomial
 * x^8 + x^6 + x^5 + x^4 + 1. */
static unsigned rc(unsigned t)
{
	if (t % 255 == 0)
		return 1;
	unsigned r = 0x80; /* R = 10000000, R[0] is the leftmost bit */
	for (unsigned i = 1; i <= t % 255; i++) {
		/* R = 0 || R; R[0] ^= R[8]; R[4] ^= R[8]; R[5] ^= R[8];
		 * R[6] ^= R[8]; R = Trunc8(R). Bit k of the string is bit
		 * 7 - k of r, so prepending 0 is a right shift. */
		unsigned r8 = r & 1;
		r >>= 1;
		if (r8)
			r ^= 0x80 | 0x08 | 0x04 | 0x02; /* R[0], R[4], R[5], R[6] */
	}
	return r >> 7; /* R[0] */
}

/* RC[ir], bit 2^j - 1 = rc(j + 7 ir), j = 0..6, for ir = 0..23: worked
 * out by the first caller; racing first callers store the same values. */
static _Atomic uint64_t rc_table[24];
static atomic_int rc_ready;

static uint64_t round_constant(unsigned ir)
{
	if (!atomic_load_explicit(&rc_ready, memory_order_acquire)) {
		for (unsigned i = 0; i < 24; i++) {
			uint64_t k = 0;
			for (unsigned j = 0; j <= 6; j++)
				k |= (uint64_t)rc(j + 7 * i) << ((1u << j) - 1);
			atomic_store_explicit(&rc_table[i], k, memory_order_relaxed);
		}
		atomic_store_explicit(&rc_ready, 1, memory_order_release);
	}
	return atomic_load_explicit(&rc_table[ir], memory_order_relaxed);
}

static void round_(uint64_t *a, unsigned ir)
{
	uint64_t c[5], d[5], b[25];
	/* theta: C[x] = A[x,0] ^ .. ^ A[x,4]; D[x] = C[x-1] ^ rot(C[x+1], 1) */
	for (unsigned x = 0; x < 5; x++)
		c[x] = A(x, 0) ^ A(x, 1) ^ A(x, 2) ^ A(x, 3) ^ A(x, 4);
	for (unsigned x = 0; x < 5; x++)
		d[x] = c[(x + 4) % 5] ^ rotl(c[(x + 1) % 5], 1);
	for (unsigned x = 0; x < 5; x++)
		for (unsigned y = 0; y < 5; y++)
			A(x, y) ^= d[x];
	/* rho: (x, y) = (1, 0); for t = 0..23 rotate A[x, y] by
	 * (t + 1)(t + 2)/2 and step (x, y) = (y, (2x + 3y) mod 5). */
	unsigned x = 1, y = 0;
	for (unsigned t = 0; t < 24; t++) {
		A(x, y) = rotl(A(x, y), (t + 1) * (t + 2) / 2);
		unsigned nx = y, ny = (2 * x + 3 * y) % 5;
		x = nx, y = ny;
	}
	/* pi: A'[x, y] = A[(x + 3y) mod 5, x] */
	memcpy(b, a, sizeof(b));
	for (x = 0; x < 5; x++)
		for (y = 0; y < 5; y++)
			A(x, y) = b[(x + 3 * y) % 5 + 5 * x];
	/* chi: A'[x, y] = A[x, y] ^ (~A[x + 1, y] & A[x + 2, y]) */
	memcpy(b, a, sizeof(b));
	for (x = 0; x < 5; x++)
		for (y = 0; y < 5; y++)
			A(x, y) = b[x + 5 * y] ^ (~b[(x + 1) % 5 + 5 * y] & b[(x + 2) % 5 + 5 * y]);
	/* iota */
	A(0, 0) ^= round_constant(ir);
}

static void permute(uint64_t st[25], unsigned rounds)
{
	/* Keccak-p[1600, n]: rounds ir = 12 + 2l - n .. 12 + 2l - 1, l = 6 */
	for (unsigned ir = 24 - rounds; ir < 24; ir++)
		round_(st, ir);
}

static void absorb(uint64_t st[25], const uint8_t *data, size_t nblocks, size_t rate,
		   unsigned rounds)
{
	for (size_t b = 0; b < nblocks; b++, data += rate) {
		fsha_keccak_xor_block(st, data, rate);
		permute(st, rounds);
	}
}

const struct fsha_keccak_backend fsha_keccak_backend_reference = {
	{ "reference", 0, 1, 0, 0, 0 }, permute, absorb, NULL, NULL };
