/* SPDX-License-Identifier: MIT */
#ifndef FSHA2_LANES_AVX512_H
#define FSHA2_LANES_AVX512_H

/*
 * What the SHA-256 and SHA-512 AVX-512 lane kernels (sha256_avx512_x16.c,
 * sixteen lanes of 32-bit words; sha512_avx512_x8.c and _x16.c, eight a
 * group of 64-bit words) write the same way: each Sigma and sigma is three
 * rotates (or two and a shift) joined by one vpternlog (0x96, a three-way
 * xor), Ch and Maj one vpternlog each (0xCA, the bitwise select e ? f : g;
 * 0xE8, the majority), and a round adds T1 = h + Sigma1(e) + Ch + K + W to
 * d (the new e) and T1 + Sigma0(a) + Maj to h (the new a), the caller
 * renaming the registers instead of moving them. Each kernel defines, for
 * its word width, ADD, ROR, SHR, TERN(x, y, z, imm) and KB(t) (K[t] in every
 * lane), and the FIPS 180-4 rotate and shift counts FSHA2_BS0 (Sigma0),
 * FSHA2_BS1 (Sigma1), FSHA2_SS0 and FSHA2_SS1 (sigma0, sigma1: two rotates
 * and a shift), each a list of three; then includes this.
 */

#include <immintrin.h>

#define FSHA2_X_INLINE static inline __attribute__((always_inline))
#define FSHA2_TROT3_(x, r1, r2, r3) TERN(ROR(x, r1), ROR(x, r2), ROR(x, r3), 0x96)
#define FSHA2_TROT2SHR_(x, r1, r2, s) TERN(ROR(x, r1), ROR(x, r2), SHR(x, s), 0x96)
#define FSHA2_TROT3(x, c) FSHA2_TROT3_(x, c)
#define FSHA2_TROT2SHR(x, c) FSHA2_TROT2SHR_(x, c)

FSHA2_X_INLINE __m512i bsig0(__m512i a)
{
	return FSHA2_TROT3(a, FSHA2_BS0);
}

FSHA2_X_INLINE __m512i bsig1(__m512i e)
{
	return FSHA2_TROT3(e, FSHA2_BS1);
}

FSHA2_X_INLINE __m512i ssig0(__m512i x)
{
	return FSHA2_TROT2SHR(x, FSHA2_SS0);
}

FSHA2_X_INLINE __m512i ssig1(__m512i x)
{
	return FSHA2_TROT2SHR(x, FSHA2_SS1);
}

/* One round for all lanes (see above), K[t] + W[t] being @kw. */
#define ROUND_KW(a, b, c, d, e, f, g, h, kw)                                                      \
	do {                                                                                      \
		__m512i ch_ = TERN(e, f, g, 0xCA);                                                \
		__m512i mj_ = TERN(a, b, c, 0xE8);                                                \
		__m512i t1_ = ADD(ADD(h, kw), ADD(bsig1(e), ch_));                                \
		__m512i t2_ = ADD(bsig0(a), mj_);                                                 \
		d = ADD(d, t1_);                                                                  \
		h = ADD(t1_, t2_);                                                                \
	} while (0)
/* Round @t on message word @w. */
#define ROUND(a, b, c, d, e, f, g, h, t, w) ROUND_KW(a, b, c, d, e, f, g, h, ADD(w, KB(t)))

#endif
