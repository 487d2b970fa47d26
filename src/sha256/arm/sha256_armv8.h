/* SPDX-License-Identifier: MIT */
/*
 * The ARMv8 crypto-extension SHA-256 rounds, shared by sha256_armv8.c (one
 * stream) and sha256_armv8_x2.c (two independent streams interleaved to
 * fill the latency of the sha256h/sha256h2 chain). Everything here is a
 * macro or an always_inline function, compiled inside each file with that
 * file's -march=armv8-a+crypto, so the round sequence is written once:
 * fsha256_a8_block() takes the number of lanes L as a constant and issues
 * each schedule step and each four-round group for every lane in turn;
 * L = 1 is the single-stream loop.
 *
 * Technique (seed 003, SHA-Intrinsics, after ARM's and mbedTLS's code):
 * the state lives in two vectors, ABCD and EFGH, and four rounds are one
 * sha256h (new ABCD) plus one sha256h2 (new EFGH), both fed the old ABCD
 * and EFGH and the same four W+K words. The schedule runs four words at a
 * time with sha256su0 + sha256su1: W[4g..4g+3] from groups g-4..g-1, in a
 * ring of four vectors. Groups are unrolled by the macros below so every
 * register index and K offset is a compile-time constant.
 *
 * Registers: a lane holds ABCD, EFGH, their saved copies and four W
 * vectors (8 of the 32 vector registers), so two lanes plus the W+K
 * temporaries and K stay in registers without the stack tricks of the x86
 * kernels (sha256_shani.h), which have only 16.
 */
#ifndef FSHA256_ARM_ARMV8_H
#define FSHA256_ARM_ARMV8_H

#include <arm_neon.h>

#include "../sha256_impl.h"

#define FSHA256_A8_INLINE static inline __attribute__((always_inline))

/* The widest lane kernel: the size of the per-lane arrays below, of which
 * a kernel uses its first L (constant) entries. Raise it with a wider
 * kernel. */
#define FSHA256_A8_MAX_LANES 2

/* For each lane l < L, fully unrolled (L is a constant at every use).
 * Clang takes "GCC unroll" too, but then unrolls only partly. */
#if defined(__clang__)
#define FSHA256_A8_EACH(l, L) _Pragma("unroll") for (int l = 0; l < (L); l++)
#else
#define FSHA256_A8_EACH(l, L) _Pragma("GCC unroll 4") for (int l = 0; l < (L); l++)
#endif

/* W[4i..4i+3] of the block at @p in host order: vld1q_u8 has no alignment
 * requirement, rev32 undoes the big-endian words. */
FSHA256_A8_INLINE uint32x4_t fsha256_a8_load_w(const uint8_t *p, int i)
{
	return vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(p + 16 * i)));
}

/* In fsha256_a8_block(): every lane's group g (rounds 4g..4g+3) gets its W
 * in w[l][g % 4], which held group g-4. */
#define FSHA256_A8_SCHED(L, g)                                                              \
	do {                                                                                \
		FSHA256_A8_EACH(l_, L)                                                      \
		w[l_][(g) % 4] = vsha256su1q_u32(                                           \
			vsha256su0q_u32(w[l_][(g) % 4], w[l_][((g) + 1) % 4]),              \
			w[l_][((g) + 2) % 4], w[l_][((g) + 3) % 4]);                        \
	} while (0)

/* In fsha256_a8_block(): every lane's rounds 4g..4g+3. sha256h2 needs the
 * ABCD from before sha256h updated it. The K load is the same address for
 * every lane and the compiler shares it. */
#define FSHA256_A8_GROUP(L, g)                                                              \
	do {                                                                                \
		FSHA256_A8_EACH(l_, L)                                                      \
		{                                                                           \
			uint32x4_t wk_ = vaddq_u32(w[l_][(g) % 4], vld1q_u32(&fsha256_k[4 * (g)])); \
			uint32x4_t abcd0_ = abcd[l_];                                       \
			abcd[l_] = vsha256hq_u32(abcd[l_], efgh[l_], wk_);                  \
			efgh[l_] = vsha256h2q_u32(efgh[l_], abcd0_, wk_);                   \
		}                                                                           \
	} while (0)

#define FSHA256_A8_G(L, g)                 \
	do {                               \
		FSHA256_A8_SCHED(L, g);    \
		FSHA256_A8_GROUP(L, g);    \
	} while (0)

/*
 * One block in each of L lanes: lane l's state in abcd[l] and efgh[l], its
 * block at p[l], which moves on by 64 bytes. The sequence of the original
 * single-stream file with each step issued for every lane in turn.
 */
FSHA256_A8_INLINE void fsha256_a8_block(const int L, uint32x4_t abcd[], uint32x4_t efgh[],
					const uint8_t *p[])
{
	uint32x4_t w[FSHA256_A8_MAX_LANES][4];
	uint32x4_t abcd_in[FSHA256_A8_MAX_LANES], efgh_in[FSHA256_A8_MAX_LANES];

	FSHA256_A8_EACH(l, L)
	{
		abcd_in[l] = abcd[l];
		efgh_in[l] = efgh[l];
		for (int i = 0; i < 4; i++)
			w[l][i] = fsha256_a8_load_w(p[l], i);
	}
	FSHA256_A8_GROUP(L, 0);
	FSHA256_A8_GROUP(L, 1);
	FSHA256_A8_GROUP(L, 2);
	FSHA256_A8_GROUP(L, 3);
	FSHA256_A8_G(L, 4);
	FSHA256_A8_G(L, 5);
	FSHA256_A8_G(L, 6);
	FSHA256_A8_G(L, 7);
	FSHA256_A8_G(L, 8);
	FSHA256_A8_G(L, 9);
	FSHA256_A8_G(L, 10);
	FSHA256_A8_G(L, 11);
	FSHA256_A8_G(L, 12);
	FSHA256_A8_G(L, 13);
	FSHA256_A8_G(L, 14);
	FSHA256_A8_G(L, 15);

	FSHA256_A8_EACH(l, L)
	{
		abcd[l] = vaddq_u32(abcd[l], abcd_in[l]);
		efgh[l] = vaddq_u32(efgh[l], efgh_in[l]);
		p[l] += 64;
	}
}

/* The single-stream loop (the sha256_impl.h contract): the armv8 row's
 * blocks function and the lane kernels'. */
FSHA256_A8_INLINE void fsha256_a8_blocks(uint32_t state[8], const uint8_t *data, size_t nblocks)
{
	uint32x4_t abcd = vld1q_u32(state), efgh = vld1q_u32(state + 4);

	do
		fsha256_a8_block(1, &abcd, &efgh, &data);
	while (--nblocks);
	vst1q_u32(state, abcd);
	vst1q_u32(state + 4, efgh);
}

/* The lane loop: L state rows and L pointers, each lane advancing nblocks
 * (the contract in sha256_armv8_x2.c). */
FSHA256_A8_INLINE void fsha256_a8_lanes(const int L, uint32_t (*state)[8], const uint8_t *const *data,
					size_t nblocks)
{
	uint32x4_t abcd[FSHA256_A8_MAX_LANES], efgh[FSHA256_A8_MAX_LANES];
	const uint8_t *p[FSHA256_A8_MAX_LANES];

	FSHA256_A8_EACH(l, L)
	{
		abcd[l] = vld1q_u32(state[l]);
		efgh[l] = vld1q_u32(state[l] + 4);
		p[l] = data[l];
	}
	do
		fsha256_a8_block(L, abcd, efgh, p);
	while (--nblocks);
	FSHA256_A8_EACH(l, L)
	{
		vst1q_u32(state[l], abcd[l]);
		vst1q_u32(state[l] + 4, efgh[l]);
	}
}

#endif
