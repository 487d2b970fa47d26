/* SPDX-License-Identifier: MIT */
#ifndef FSHA_KECCAK_PORTABLE_H
#define FSHA_KECCAK_PORTABLE_H

/*
 * Keccak-p[1600, n] in portable 64-bit C, shared by the portable backend
 * and the x86-64 scalar one (the same code built with BMI1/BMI2, where
 * ~a & b is one andn and a rotate one rorx that keeps its source).
 *
 * The 25 lanes are named variables, two sets that trade places each
 * round, so no array is copied and the compiler allocates them freely;
 * FIPS 202's steps are fused per output row (theta's D, rho, pi and chi of
 * five lanes at a time), and the next round's column parities are summed
 * as the rows come out, so theta never reads the state a second time. The
 * first shape (a round over an array, all 25 of rho-pi's outputs live
 * before chi) ran SHA3-256 at 0.90x OpenSSL 3.0's assembly on 16 KiB
 * messages (Zen 3, bmi2); this one: see keccak_bmi2.c.
 */

#include "keccak_impl.h"

#define FSHA_KP_INLINE static inline __attribute__((always_inline))

FSHA_KP_INLINE uint64_t fsha_kp_rol(uint64_t v, unsigned n)
{
	return (v << n) | (v >> ((64 - n) & 63));
}

/*
 * One round from lanes A0..A24 to E0..E24 (name prefixes), the column
 * parities of A in c0..c4 on entry and of E on exit, round constant @rc.
 * Each output row y is chi of five lanes that rho and pi bring there:
 * lane x + 5y' of the output row takes A[(y - 3x) * 3 mod 5 + 5x], XORed
 * with theta's D of its column and rotated by its rho offset (FIPS 202
 * table 2). Working a row at a time keeps five such lanes live, not 25.
 */
#define FSHA_KP_ROUND(A, E, rc)                                                                     \
	do {                                                                                       \
		const uint64_t d0 = c4 ^ fsha_kp_rol(c1, 1), d1 = c0 ^ fsha_kp_rol(c2, 1);            \
		const uint64_t d2 = c1 ^ fsha_kp_rol(c3, 1), d3 = c2 ^ fsha_kp_rol(c4, 1);            \
		const uint64_t d4 = c3 ^ fsha_kp_rol(c0, 1);                                          \
		uint64_t b0, b1, b2, b3, b4;                                                           \
		b0 = A##0 ^ d0;                                                                               \
		b1 = fsha_kp_rol(A##6 ^ d1, 44);                                                              \
		b2 = fsha_kp_rol(A##12 ^ d2, 43);                                                             \
		b3 = fsha_kp_rol(A##18 ^ d3, 21);                                                             \
		b4 = fsha_kp_rol(A##24 ^ d4, 14);                                                             \
		E##0 = b0 ^ (~b1 & b2) ^ (rc);                                                                \
		E##1 = b1 ^ (~b2 & b3);                                                                       \
		E##2 = b2 ^ (~b3 & b4);                                                                       \
		E##3 = b3 ^ (~b4 & b0);                                                                       \
		E##4 = b4 ^ (~b0 & b1);                                                                       \
		c0 = E##0, c1 = E##1, c2 = E##2, c3 = E##3, c4 = E##4;                                        \
		b0 = fsha_kp_rol(A##3 ^ d3, 28);                                                              \
		b1 = fsha_kp_rol(A##9 ^ d4, 20);                                                              \
		b2 = fsha_kp_rol(A##10 ^ d0, 3);                                                              \
		b3 = fsha_kp_rol(A##16 ^ d1, 45);                                                             \
		b4 = fsha_kp_rol(A##22 ^ d2, 61);                                                             \
		E##5 = b0 ^ (~b1 & b2);                                                                       \
		E##6 = b1 ^ (~b2 & b3);                                                                       \
		E##7 = b2 ^ (~b3 & b4);                                                                       \
		E##8 = b3 ^ (~b4 & b0);                                                                       \
		E##9 = b4 ^ (~b0 & b1);                                                                       \
		c0 ^= E##5, c1 ^= E##6, c2 ^= E##7, c3 ^= E##8, c4 ^= E##9;                                   \
		b0 = fsha_kp_rol(A##1 ^ d1, 1);                                                               \
		b1 = fsha_kp_rol(A##7 ^ d2, 6);                                                               \
		b2 = fsha_kp_rol(A##13 ^ d3, 25);                                                             \
		b3 = fsha_kp_rol(A##19 ^ d4, 8);                                                              \
		b4 = fsha_kp_rol(A##20 ^ d0, 18);                                                             \
		E##10 = b0 ^ (~b1 & b2);                                                                      \
		E##11 = b1 ^ (~b2 & b3);                                                                      \
		E##12 = b2 ^ (~b3 & b4);                                                                      \
		E##13 = b3 ^ (~b4 & b0);                                                                      \
		E##14 = b4 ^ (~b0 & b1);                                                                      \
		c0 ^= E##10, c1 ^= E##11, c2 ^= E##12, c3 ^= E##13, c4 ^= E##14;                              \
		b0 = fsha_kp_rol(A##4 ^ d4, 27);                                                              \
		b1 = fsha_kp_rol(A##5 ^ d0, 36);                                                              \
		b2 = fsha_kp_rol(A##11 ^ d1, 10);                                                             \
		b3 = fsha_kp_rol(A##17 ^ d2, 15);                                                             \
		b4 = fsha_kp_rol(A##23 ^ d3, 56);                                                             \
		E##15 = b0 ^ (~b1 & b2);                                                                      \
		E##16 = b1 ^ (~b2 & b3);                                                                      \
		E##17 = b2 ^ (~b3 & b4);                                                                      \
		E##18 = b3 ^ (~b4 & b0);                                                                      \
		E##19 = b4 ^ (~b0 & b1);                                                                      \
		c0 ^= E##15, c1 ^= E##16, c2 ^= E##17, c3 ^= E##18, c4 ^= E##19;                              \
		b0 = fsha_kp_rol(A##2 ^ d2, 62);                                                              \
		b1 = fsha_kp_rol(A##8 ^ d3, 55);                                                              \
		b2 = fsha_kp_rol(A##14 ^ d4, 39);                                                             \
		b3 = fsha_kp_rol(A##15 ^ d0, 41);                                                             \
		b4 = fsha_kp_rol(A##21 ^ d1, 2);                                                              \
		E##20 = b0 ^ (~b1 & b2);                                                                      \
		E##21 = b1 ^ (~b2 & b3);                                                                      \
		E##22 = b2 ^ (~b3 & b4);                                                                      \
		E##23 = b3 ^ (~b4 & b0);                                                                      \
		E##24 = b4 ^ (~b0 & b1);                                                                      \
		c0 ^= E##20, c1 ^= E##21, c2 ^= E##22, c3 ^= E##23, c4 ^= E##24;                              \
	} while (0)

/* The lanes of @st into a0..a24. */
#define FSHA_KP_LOAD(st)                                                                           \
	do {                                                                                       \
		a0 = (st)[0];                                                                                 \
		a1 = (st)[1];                                                                                 \
		a2 = (st)[2];                                                                                 \
		a3 = (st)[3];                                                                                 \
		a4 = (st)[4];                                                                                 \
		a5 = (st)[5];                                                                                 \
		a6 = (st)[6];                                                                                 \
		a7 = (st)[7];                                                                                 \
		a8 = (st)[8];                                                                                 \
		a9 = (st)[9];                                                                                 \
		a10 = (st)[10];                                                                               \
		a11 = (st)[11];                                                                               \
		a12 = (st)[12];                                                                               \
		a13 = (st)[13];                                                                               \
		a14 = (st)[14];                                                                               \
		a15 = (st)[15];                                                                               \
		a16 = (st)[16];                                                                               \
		a17 = (st)[17];                                                                               \
		a18 = (st)[18];                                                                               \
		a19 = (st)[19];                                                                               \
		a20 = (st)[20];                                                                               \
		a21 = (st)[21];                                                                               \
		a22 = (st)[22];                                                                               \
		a23 = (st)[23];                                                                               \
		a24 = (st)[24];                                                                               \
	} while (0)

/* theta's column parities of a0..a24 into c0..c4. */
#define FSHA_KP_PARITY()                                                                           \
	do {                                                                                       \
		c0 = a0 ^ a5 ^ a10 ^ a15 ^ a20;                                                    \
		c1 = a1 ^ a6 ^ a11 ^ a16 ^ a21;                                                    \
		c2 = a2 ^ a7 ^ a12 ^ a17 ^ a22;                                                    \
		c3 = a3 ^ a8 ^ a13 ^ a18 ^ a23;                                                    \
		c4 = a4 ^ a9 ^ a14 ^ a19 ^ a24;                                                    \
	} while (0)

/* XOR a block of @w words (1..21: the contract allows any rate that is a
 * multiple of 8; the algorithms' take 9..21) at @p into a0..a20. */
#define FSHA_KP_XOR_BLOCK(p, w)                                                                    \
	do {                                                                                       \
		a0 ^= fsha_load_le64(p);                                                           \
		if ((w) > 1)                                                                       \
			a1 ^= fsha_load_le64((p) + 8);                                             \
		if ((w) > 2)                                                                       \
			a2 ^= fsha_load_le64((p) + 16);                                            \
		if ((w) > 3)                                                                       \
			a3 ^= fsha_load_le64((p) + 24);                                            \
		if ((w) > 4)                                                                       \
			a4 ^= fsha_load_le64((p) + 32);                                            \
		if ((w) > 5)                                                                       \
			a5 ^= fsha_load_le64((p) + 40);                                            \
		if ((w) > 6)                                                                       \
			a6 ^= fsha_load_le64((p) + 48);                                            \
		if ((w) > 7)                                                                       \
			a7 ^= fsha_load_le64((p) + 56);                                            \
		if ((w) > 8)                                                                       \
			a8 ^= fsha_load_le64((p) + 64);                                            \
		if ((w) > 9)                                                                       \
			a9 ^= fsha_load_le64((p) + 72);                                            \
		if ((w) > 10)                                                                      \
			a10 ^= fsha_load_le64((p) + 80);                                           \
		if ((w) > 11)                                                                      \
			a11 ^= fsha_load_le64((p) + 88);                                           \
		if ((w) > 12)                                                                      \
			a12 ^= fsha_load_le64((p) + 96);                                           \
		if ((w) > 13)                                                                      \
			a13 ^= fsha_load_le64((p) + 104);                                          \
		if ((w) > 14)                                                                      \
			a14 ^= fsha_load_le64((p) + 112);                                          \
		if ((w) > 15)                                                                      \
			a15 ^= fsha_load_le64((p) + 120);                                          \
		if ((w) > 16)                                                                      \
			a16 ^= fsha_load_le64((p) + 128);                                          \
		if ((w) > 17)                                                                      \
			a17 ^= fsha_load_le64((p) + 136);                                          \
		if ((w) > 18)                                                                      \
			a18 ^= fsha_load_le64((p) + 144);                                          \
		if ((w) > 19)                                                                      \
			a19 ^= fsha_load_le64((p) + 152);                                          \
		if ((w) > 20)                                                                      \
			a20 ^= fsha_load_le64((p) + 160);                                          \
	} while (0)

/* @rounds (even: 24 or 12) rounds on a0..a24, two a turn: a into e, e back. */
#define FSHA_KP_ROUNDS(rounds)                                                                     \
	for (unsigned i_ = 24 - (rounds); i_ < 24; i_ += 2) {                                      \
		FSHA_KP_ROUND(a, e, fsha_keccak_rc[i_]);                                           \
		FSHA_KP_ROUND(e, a, fsha_keccak_rc[i_ + 1]);                                       \
	}

#define FSHA_KP_STORE(st)                                                                          \
	do {                                                                                       \
		(st)[0] = a0;                                                                                 \
		(st)[1] = a1;                                                                                 \
		(st)[2] = a2;                                                                                 \
		(st)[3] = a3;                                                                                 \
		(st)[4] = a4;                                                                                 \
		(st)[5] = a5;                                                                                 \
		(st)[6] = a6;                                                                                 \
		(st)[7] = a7;                                                                                 \
		(st)[8] = a8;                                                                                 \
		(st)[9] = a9;                                                                                 \
		(st)[10] = a10;                                                                               \
		(st)[11] = a11;                                                                               \
		(st)[12] = a12;                                                                               \
		(st)[13] = a13;                                                                               \
		(st)[14] = a14;                                                                               \
		(st)[15] = a15;                                                                               \
		(st)[16] = a16;                                                                               \
		(st)[17] = a17;                                                                               \
		(st)[18] = a18;                                                                               \
		(st)[19] = a19;                                                                               \
		(st)[20] = a20;                                                                               \
		(st)[21] = a21;                                                                               \
		(st)[22] = a22;                                                                               \
		(st)[23] = a23;                                                                               \
		(st)[24] = a24;                                                                               \
	} while (0)

/* Keccak-p[1600, @rounds] on @st: the rounds 24 - rounds .. 23. */
FSHA_KP_INLINE void fsha_kp_permute(uint64_t st[25], unsigned rounds)
{
	uint64_t a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19, a20, a21, a22, a23, a24;
	uint64_t e0, e1, e2, e3, e4, e5, e6, e7, e8, e9, e10, e11, e12, e13, e14, e15, e16, e17, e18, e19, e20, e21, e22, e23, e24;
	uint64_t c0, c1, c2, c3, c4;
	FSHA_KP_LOAD(st);
	FSHA_KP_PARITY();
	FSHA_KP_ROUNDS(rounds);
	FSHA_KP_STORE(st);
}

/* The contract's absorb: each block XORed into the lanes, then permuted,
 * the state in the named lanes throughout. */
FSHA_KP_INLINE void fsha_kp_absorb(uint64_t st[25], const uint8_t *data, size_t nblocks,
				   size_t rate, unsigned rounds)
{
	uint64_t a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19, a20, a21, a22, a23, a24;
	uint64_t e0, e1, e2, e3, e4, e5, e6, e7, e8, e9, e10, e11, e12, e13, e14, e15, e16, e17, e18, e19, e20, e21, e22, e23, e24;
	uint64_t c0, c1, c2, c3, c4;
	const size_t w = rate / 8;
	FSHA_KP_LOAD(st);
	for (size_t b = 0; b < nblocks; b++, data += rate) {
		FSHA_KP_XOR_BLOCK(data, w);
		FSHA_KP_PARITY();
		FSHA_KP_ROUNDS(rounds);
	}
	FSHA_KP_STORE(st);
}

#endif
