/* SPDX-License-Identifier: MIT */
#ifndef FSHA_KECCAK_PORTABLE_H
#define FSHA_KECCAK_PORTABLE_H

/*
 * Keccak-p[1600, n] in portable 64-bit C, shared by the portable backend
 * and the x86-64 scalar one (the same code built with BMI1/BMI2, where
 * ~a & b is one andn and a rotate one rorx). The round is FIPS 202's
 * steps fused per lane, in the order of the Keccak team's reference
 * "KeccakP-1600 reference and optimized" notes: theta's column parities
 * and D, then each lane XORed with D, rotated (rho) and written to its pi
 * position, then chi row by row and iota. The 25 lanes are named
 * variables so the compiler can keep most of them in registers; the rho
 * offsets and pi positions are constants (FIPS 202 table 2).
 */

#include "keccak_impl.h"

#define FSHA_KP_INLINE static inline __attribute__((always_inline))

FSHA_KP_INLINE uint64_t fsha_kp_rol(uint64_t v, unsigned n)
{
	return (v << n) | (v >> ((64 - n) & 63));
}

/* One round on lanes a[25], round constant @rc. */
#define FSHA_KP_ROUND(a, rc)                                                                       \
	do {                                                                                       \
		uint64_t c0 = a[0] ^ a[5] ^ a[10] ^ a[15] ^ a[20];                                 \
		uint64_t c1 = a[1] ^ a[6] ^ a[11] ^ a[16] ^ a[21];                                 \
		uint64_t c2 = a[2] ^ a[7] ^ a[12] ^ a[17] ^ a[22];                                 \
		uint64_t c3 = a[3] ^ a[8] ^ a[13] ^ a[18] ^ a[23];                                 \
		uint64_t c4 = a[4] ^ a[9] ^ a[14] ^ a[19] ^ a[24];                                 \
		uint64_t d0 = c4 ^ fsha_kp_rol(c1, 1), d1 = c0 ^ fsha_kp_rol(c2, 1);              \
		uint64_t d2 = c1 ^ fsha_kp_rol(c3, 1), d3 = c2 ^ fsha_kp_rol(c4, 1);              \
		uint64_t d4 = c3 ^ fsha_kp_rol(c0, 1);                                            \
		/* b[y + 5 * ((2x + 3y) % 5)] = rol(a[x + 5y] ^ d[x], r[x][y]) */                 \
		uint64_t b0 = a[0] ^ d0;                                                           \
		uint64_t b10 = fsha_kp_rol(a[1] ^ d1, 1);                                          \
		uint64_t b20 = fsha_kp_rol(a[2] ^ d2, 62);                                         \
		uint64_t b5 = fsha_kp_rol(a[3] ^ d3, 28);                                          \
		uint64_t b15 = fsha_kp_rol(a[4] ^ d4, 27);                                         \
		uint64_t b16 = fsha_kp_rol(a[5] ^ d0, 36);                                         \
		uint64_t b1 = fsha_kp_rol(a[6] ^ d1, 44);                                          \
		uint64_t b11 = fsha_kp_rol(a[7] ^ d2, 6);                                          \
		uint64_t b21 = fsha_kp_rol(a[8] ^ d3, 55);                                         \
		uint64_t b6 = fsha_kp_rol(a[9] ^ d4, 20);                                          \
		uint64_t b7 = fsha_kp_rol(a[10] ^ d0, 3);                                          \
		uint64_t b17 = fsha_kp_rol(a[11] ^ d1, 10);                                        \
		uint64_t b2 = fsha_kp_rol(a[12] ^ d2, 43);                                         \
		uint64_t b12 = fsha_kp_rol(a[13] ^ d3, 25);                                        \
		uint64_t b22 = fsha_kp_rol(a[14] ^ d4, 39);                                        \
		uint64_t b23 = fsha_kp_rol(a[15] ^ d0, 41);                                        \
		uint64_t b8 = fsha_kp_rol(a[16] ^ d1, 45);                                         \
		uint64_t b18 = fsha_kp_rol(a[17] ^ d2, 15);                                        \
		uint64_t b3 = fsha_kp_rol(a[18] ^ d3, 21);                                         \
		uint64_t b13 = fsha_kp_rol(a[19] ^ d4, 8);                                         \
		uint64_t b14 = fsha_kp_rol(a[20] ^ d0, 18);                                        \
		uint64_t b24 = fsha_kp_rol(a[21] ^ d1, 2);                                         \
		uint64_t b9 = fsha_kp_rol(a[22] ^ d2, 61);                                         \
		uint64_t b19 = fsha_kp_rol(a[23] ^ d3, 56);                                        \
		uint64_t b4 = fsha_kp_rol(a[24] ^ d4, 14);                                         \
		/* chi per row y: a[x + 5y] = b[x] ^ (~b[x + 1] & b[x + 2]) */                     \
		a[0] = b0 ^ (~b1 & b2) ^ (rc);                                                     \
		a[1] = b1 ^ (~b2 & b3);                                                            \
		a[2] = b2 ^ (~b3 & b4);                                                            \
		a[3] = b3 ^ (~b4 & b0);                                                            \
		a[4] = b4 ^ (~b0 & b1);                                                            \
		a[5] = b5 ^ (~b6 & b7);                                                            \
		a[6] = b6 ^ (~b7 & b8);                                                            \
		a[7] = b7 ^ (~b8 & b9);                                                            \
		a[8] = b8 ^ (~b9 & b5);                                                            \
		a[9] = b9 ^ (~b5 & b6);                                                            \
		a[10] = b10 ^ (~b11 & b12);                                                        \
		a[11] = b11 ^ (~b12 & b13);                                                        \
		a[12] = b12 ^ (~b13 & b14);                                                        \
		a[13] = b13 ^ (~b14 & b10);                                                        \
		a[14] = b14 ^ (~b10 & b11);                                                        \
		a[15] = b15 ^ (~b16 & b17);                                                        \
		a[16] = b16 ^ (~b17 & b18);                                                        \
		a[17] = b17 ^ (~b18 & b19);                                                        \
		a[18] = b18 ^ (~b19 & b15);                                                        \
		a[19] = b19 ^ (~b15 & b16);                                                        \
		a[20] = b20 ^ (~b21 & b22);                                                        \
		a[21] = b21 ^ (~b22 & b23);                                                        \
		a[22] = b22 ^ (~b23 & b24);                                                        \
		a[23] = b23 ^ (~b24 & b20);                                                        \
		a[24] = b24 ^ (~b20 & b21);                                                        \
	} while (0)

/* Keccak-p[1600, @rounds] on @st: the rounds 24 - rounds .. 23. */
FSHA_KP_INLINE void fsha_kp_permute(uint64_t st[25], unsigned rounds)
{
	uint64_t a[25];
	memcpy(a, st, sizeof(a));
	for (unsigned i = 24 - rounds; i < 24; i++)
		FSHA_KP_ROUND(a, fsha_keccak_rc[i]);
	memcpy(st, a, sizeof(a));
}

/* The contract's absorb on fsha_kp_permute(). */
FSHA_KP_INLINE void fsha_kp_absorb(uint64_t st[25], const uint8_t *data, size_t nblocks,
				   size_t rate, unsigned rounds)
{
	uint64_t a[25];
	memcpy(a, st, sizeof(a));
	for (size_t b = 0; b < nblocks; b++, data += rate) {
		fsha_keccak_xor_block(a, data, rate);
		for (unsigned i = 24 - rounds; i < 24; i++)
			FSHA_KP_ROUND(a, fsha_keccak_rc[i]);
	}
	memcpy(st, a, sizeof(a));
}

#endif
