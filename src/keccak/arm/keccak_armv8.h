/* SPDX-License-Identifier: MIT */
#ifndef FSHA_KECCAK_ARMV8_H
#define FSHA_KECCAK_ARMV8_H

/*
 * Keccak-p[1600, n] on NEON registers with the ARMv8.2 SHA3 instructions,
 * shared by keccak_armv8.c (one state) and keccak_armv8_x2.c (two). Both
 * files are built with -march=armv8.2-a+sha3 and their rows need
 * FSHA_CPU_ARM_SHA3 (Linux hwcap HWCAP_SHA3); the contract is
 * src/keccak/keccak_impl.h's.
 *
 * The state is 25 uint64x2_t, lane (x, y) in a[x + 5y], element e of
 * every vector belonging to state e: every operation below acts on each
 * 64-bit element on its own, so two states run side by side and never
 * mix. One state uses element 0; element 1 starts as a copy, runs the
 * same rounds without the message and is never stored. A round is FIPS 202's five steps,
 * with each SHA3 instruction doing the work of two or three plain ones:
 *
 *   theta  C[x] = a[x] ^ a[x+5] ^ a[x+10] ^ a[x+15] ^ a[x+20]:  2 EOR3 each
 *          D[x] = C[x-1] ^ rol(C[x+1], 1):                     1 RAX1 each
 *   rho+pi B[pi(x, y)] = rol(a[x + 5y] ^ D[x], r[x][y]):       1 XAR each
 *          (XAR rotates right, by 64 - r; lane (0, 0), r = 0, is one EOR)
 *   chi    a[x + 5y] = B[x] ^ (~B[x+1] & B[x+2]):              1 BCAX each
 *   iota   a[0] ^= RC[i], broadcast by LD1R:                   1 EOR
 *
 * 10 EOR3 + 5 RAX1 + 24 XAR + 25 BCAX + 2 EOR = 66 vector instructions and
 * one load a round, for one state or two (the round constants, rho
 * offsets and pi positions are FIPS 202's 3.2.5, table 2 and 3.2.3). The
 * 25 lanes, five D and the round constant take 31 of the 32 vector
 * registers. Every array here is indexed by constants only, so the
 * compiler can keep the state in registers across the round loop: GCC
 * 12.2 -O3 does, but for three vectors it spills and reloads each round
 * (75 instructions in the loop, counted with objdump); clang 14 spills
 * none. Writing each D next to the lanes that use it, or two rounds a
 * loop, made GCC spill more, not less.
 */
#include <arm_neon.h>

#include "../keccak_impl.h"

#if FSHA_BIG_ENDIAN
#error "keccak_armv8.h reads message lanes with vld1_u8 as little-endian words"
#endif

#define FSHA_KA8_INLINE static inline __attribute__((always_inline))

/* rol(a ^ d, r) with XAR, which rotates right. */
#define FSHA_KA8_XR(a, d, r) vxarq_u64((a), (d), (64 - (r)) & 63)

/* M(i) for each lane index, 0..24; and for lanes 1..20, those a block
 * can have after its first (a rate is at most 168 bytes, 21 lanes). */
#define FSHA_KA8_EACH25(M)                                                                  \
	M(0) M(1) M(2) M(3) M(4) M(5) M(6) M(7) M(8) M(9) M(10) M(11) M(12) M(13) M(14)    \
	M(15) M(16) M(17) M(18) M(19) M(20) M(21) M(22) M(23) M(24)
#define FSHA_KA8_EACH_RATE(M)                                                               \
	M(1) M(2) M(3) M(4) M(5) M(6) M(7) M(8) M(9) M(10) M(11) M(12) M(13) M(14) M(15)   \
	M(16) M(17) M(18) M(19) M(20)

/* One round on the state @a, round constant @rc in both elements. */
FSHA_KA8_INLINE void fsha_ka8_round(uint64x2_t a[25], uint64x2_t rc)
{
	uint64x2_t c0 = veor3q_u64(veor3q_u64(a[0], a[5], a[10]), a[15], a[20]);
	uint64x2_t c1 = veor3q_u64(veor3q_u64(a[1], a[6], a[11]), a[16], a[21]);
	uint64x2_t c2 = veor3q_u64(veor3q_u64(a[2], a[7], a[12]), a[17], a[22]);
	uint64x2_t c3 = veor3q_u64(veor3q_u64(a[3], a[8], a[13]), a[18], a[23]);
	uint64x2_t c4 = veor3q_u64(veor3q_u64(a[4], a[9], a[14]), a[19], a[24]);
	uint64x2_t d0 = vrax1q_u64(c4, c1), d1 = vrax1q_u64(c0, c2), d2 = vrax1q_u64(c1, c3);
	uint64x2_t d3 = vrax1q_u64(c2, c4), d4 = vrax1q_u64(c3, c0);

	/* By destination: B[y + 5 * ((2x + 3y) mod 5)] from a[x + 5y]. */
	uint64x2_t b0 = veorq_u64(a[0], d0);
	uint64x2_t b1 = FSHA_KA8_XR(a[6], d1, 44);
	uint64x2_t b2 = FSHA_KA8_XR(a[12], d2, 43);
	uint64x2_t b3 = FSHA_KA8_XR(a[18], d3, 21);
	uint64x2_t b4 = FSHA_KA8_XR(a[24], d4, 14);
	uint64x2_t b5 = FSHA_KA8_XR(a[3], d3, 28);
	uint64x2_t b6 = FSHA_KA8_XR(a[9], d4, 20);
	uint64x2_t b7 = FSHA_KA8_XR(a[10], d0, 3);
	uint64x2_t b8 = FSHA_KA8_XR(a[16], d1, 45);
	uint64x2_t b9 = FSHA_KA8_XR(a[22], d2, 61);
	uint64x2_t b10 = FSHA_KA8_XR(a[1], d1, 1);
	uint64x2_t b11 = FSHA_KA8_XR(a[7], d2, 6);
	uint64x2_t b12 = FSHA_KA8_XR(a[13], d3, 25);
	uint64x2_t b13 = FSHA_KA8_XR(a[19], d4, 8);
	uint64x2_t b14 = FSHA_KA8_XR(a[20], d0, 18);
	uint64x2_t b15 = FSHA_KA8_XR(a[4], d4, 27);
	uint64x2_t b16 = FSHA_KA8_XR(a[5], d0, 36);
	uint64x2_t b17 = FSHA_KA8_XR(a[11], d1, 10);
	uint64x2_t b18 = FSHA_KA8_XR(a[17], d2, 15);
	uint64x2_t b19 = FSHA_KA8_XR(a[23], d3, 56);
	uint64x2_t b20 = FSHA_KA8_XR(a[2], d2, 62);
	uint64x2_t b21 = FSHA_KA8_XR(a[8], d3, 55);
	uint64x2_t b22 = FSHA_KA8_XR(a[14], d4, 39);
	uint64x2_t b23 = FSHA_KA8_XR(a[15], d0, 41);
	uint64x2_t b24 = FSHA_KA8_XR(a[21], d1, 2);

	/* vbcaxq_u64(p, q, r) = p ^ (q & ~r): chi's b[x] ^ (b[x+2] & ~b[x+1]). */
	a[0] = veorq_u64(vbcaxq_u64(b0, b2, b1), rc);
	a[1] = vbcaxq_u64(b1, b3, b2);
	a[2] = vbcaxq_u64(b2, b4, b3);
	a[3] = vbcaxq_u64(b3, b0, b4);
	a[4] = vbcaxq_u64(b4, b1, b0);
	a[5] = vbcaxq_u64(b5, b7, b6);
	a[6] = vbcaxq_u64(b6, b8, b7);
	a[7] = vbcaxq_u64(b7, b9, b8);
	a[8] = vbcaxq_u64(b8, b5, b9);
	a[9] = vbcaxq_u64(b9, b6, b5);
	a[10] = vbcaxq_u64(b10, b12, b11);
	a[11] = vbcaxq_u64(b11, b13, b12);
	a[12] = vbcaxq_u64(b12, b14, b13);
	a[13] = vbcaxq_u64(b13, b10, b14);
	a[14] = vbcaxq_u64(b14, b11, b10);
	a[15] = vbcaxq_u64(b15, b17, b16);
	a[16] = vbcaxq_u64(b16, b18, b17);
	a[17] = vbcaxq_u64(b17, b19, b18);
	a[18] = vbcaxq_u64(b18, b15, b19);
	a[19] = vbcaxq_u64(b19, b16, b15);
	a[20] = vbcaxq_u64(b20, b22, b21);
	a[21] = vbcaxq_u64(b21, b23, b22);
	a[22] = vbcaxq_u64(b22, b24, b23);
	a[23] = vbcaxq_u64(b23, b20, b24);
	a[24] = vbcaxq_u64(b24, b21, b20);
}

/* The last @rounds rounds of the 24 on @a. */
FSHA_KA8_INLINE void fsha_ka8_rounds(uint64x2_t a[25], unsigned rounds)
{
	/* A pointer, not an index: LD1R with a post-increment is one instruction
	 * (it has no register-offset form; an index made GCC load and DUP). */
	const uint64_t *rc = &fsha_keccak_rc[24 - rounds], *end = &fsha_keccak_rc[24];
	for (; rc != end; rc++)
		fsha_ka8_round(a, vld1q_dup_u64(rc));
}

/* One state in and out: element 0 (element 1 gets a copy, computes the
 * same permutation and is dropped). */
FSHA_KA8_INLINE void fsha_ka8_load1(uint64x2_t a[25], const uint64_t st[25])
{
#define FSHA_KA8_L1(i) a[i] = vld1q_dup_u64(&st[i]);
	FSHA_KA8_EACH25(FSHA_KA8_L1)
#undef FSHA_KA8_L1
}

FSHA_KA8_INLINE void fsha_ka8_store1(uint64_t st[25], const uint64x2_t a[25])
{
#define FSHA_KA8_S1(i) vst1_u64(&st[i], vget_low_u64(a[i]));
	FSHA_KA8_EACH25(FSHA_KA8_S1)
#undef FSHA_KA8_S1
}

/* Two states, st[0] in element 0 and st[1] in element 1. */
FSHA_KA8_INLINE void fsha_ka8_load2(uint64x2_t a[25], uint64_t (*st)[25])
{
#define FSHA_KA8_L2(i) a[i] = vcombine_u64(vld1_u64(&st[0][i]), vld1_u64(&st[1][i]));
	FSHA_KA8_EACH25(FSHA_KA8_L2)
#undef FSHA_KA8_L2
}

FSHA_KA8_INLINE void fsha_ka8_store2(uint64_t (*st)[25], const uint64x2_t a[25])
{
#define FSHA_KA8_S2(i)                                     \
	vst1_u64(&st[0][i], vget_low_u64(a[i]));           \
	vst1_u64(&st[1][i], vget_high_u64(a[i]));
	FSHA_KA8_EACH25(FSHA_KA8_S2)
#undef FSHA_KA8_S2
}

/* Message lane @i of the current block of each of @lanes states (1 or
 * 2): 8 bytes at p[l] + 8i, any alignment, into element l. */
FSHA_KA8_INLINE uint64x2_t fsha_ka8_data(const uint8_t *const p[2], unsigned lanes, size_t i)
{
	uint64x1_t lo = vreinterpret_u64_u8(vld1_u8(p[0] + 8 * i));
	uint64x1_t hi = lanes == 2 ? vreinterpret_u64_u8(vld1_u8(p[1] + 8 * i)) : vdup_n_u64(0);
	return vcombine_u64(lo, hi);
}

/* @nblocks blocks of @n lanes (8n bytes) from each p[l] into @a, each
 * followed by the rounds. @n is a constant after inlining (see
 * fsha_ka8_absorb), so the lane tests below fold away. */
FSHA_KA8_INLINE void fsha_ka8_absorb_n(uint64x2_t a[25], const uint8_t *p[2], unsigned lanes,
				       size_t nblocks, size_t n, unsigned rounds)
{
	for (size_t b = 0; b < nblocks; b++) {
		a[0] = veorq_u64(a[0], fsha_ka8_data(p, lanes, 0));
#define FSHA_KA8_X(i)                                                       \
	if ((i) < n)                                                        \
		a[i] = veorq_u64(a[i], fsha_ka8_data(p, lanes, (i)));
		FSHA_KA8_EACH_RATE(FSHA_KA8_X)
#undef FSHA_KA8_X
		fsha_ka8_rounds(a, rounds);
		p[0] += 8 * n;
		if (lanes == 2)
			p[1] += 8 * n;
	}
}

/* The contract's absorb on @lanes states in @a, with a copy of the loop
 * for each rate the library's algorithms use (SHAKE128, TurboSHAKE128 and
 * K12; SHA3-224; SHA3-256, SHAKE256, Keccak-256 and TurboSHAKE256;
 * SHA3-384; SHA3-512) and one for any other. */
FSHA_KA8_INLINE void fsha_ka8_absorb(uint64x2_t a[25], const uint8_t *p[2], unsigned lanes,
				     size_t nblocks, size_t rate, unsigned rounds)
{
	switch (rate) {
	case 168:
		fsha_ka8_absorb_n(a, p, lanes, nblocks, 21, rounds);
		break;
	case 144:
		fsha_ka8_absorb_n(a, p, lanes, nblocks, 18, rounds);
		break;
	case 136:
		fsha_ka8_absorb_n(a, p, lanes, nblocks, 17, rounds);
		break;
	case 104:
		fsha_ka8_absorb_n(a, p, lanes, nblocks, 13, rounds);
		break;
	case 72:
		fsha_ka8_absorb_n(a, p, lanes, nblocks, 9, rounds);
		break;
	default:
		fsha_ka8_absorb_n(a, p, lanes, nblocks, rate / 8, rounds);
		break;
	}
}

/* The contract's single-state entries on element 0. */
FSHA_KA8_INLINE void fsha_ka8_permute1(uint64_t st[25], unsigned rounds)
{
	uint64x2_t a[25];
	fsha_ka8_load1(a, st);
	fsha_ka8_rounds(a, rounds);
	fsha_ka8_store1(st, a);
}

FSHA_KA8_INLINE void fsha_ka8_absorb1(uint64_t st[25], const uint8_t *data, size_t nblocks,
				      size_t rate, unsigned rounds)
{
	uint64x2_t a[25];
	const uint8_t *p[2] = { data, NULL };
	fsha_ka8_load1(a, st);
	fsha_ka8_absorb(a, p, 1, nblocks, rate, rounds);
	fsha_ka8_store1(st, a);
}

#endif
