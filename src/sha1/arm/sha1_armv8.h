/* SPDX-License-Identifier: MIT */
/*
 * The ARMv8 crypto-extension SHA-1 rounds, shared by sha1_armv8.c (one
 * stream) and sha1_armv8_x2.c (two independent streams interleaved to fill
 * the latency of the sha1c/sha1p/sha1m chain). Everything here is a macro
 * or an always_inline function, compiled inside each file with that file's
 * -march=armv8-a+crypto, so the round sequence is written once:
 * fsha1_a8_block() takes the number of lanes L as a constant and issues
 * each schedule step and each four-round group for every lane in turn;
 * L = 1 is the single-stream loop.
 *
 * Technique (seed 003, SHA-Intrinsics): four rounds per instruction,
 * sha1c/sha1p/sha1m for the Ch/Parity/Maj quarters; sha1h gives the E of
 * four rounds ahead (a rol 30 of the A going into the group); the schedule
 * four words at a time with sha1su0 + sha1su1, W[4g..4g+3] from groups
 * g-4..g-1. Groups are fully unrolled by the macros below so each picks its
 * instruction and constant at compile time.
 *
 * Registers: a lane holds ABCD, its saved copy and four W vectors, and E
 * in the low lane of another (sha1h and the hash ops take it as an S
 * register), so two lanes fit the 32 vector registers with room to spare.
 */
#ifndef FSHA1_ARM_ARMV8_H
#define FSHA1_ARM_ARMV8_H

#include <arm_neon.h>

#include "../sha1_impl.h"

#define FSHA1_A8_INLINE static inline __attribute__((always_inline))

/* The widest lane kernel: the size of the per-lane arrays below, of which
 * a kernel uses its first L (constant) entries. Raise it with a wider
 * kernel. */
#define FSHA1_A8_MAX_LANES 2

/* For each lane l < L, fully unrolled (L is a constant at every use).
 * Clang takes "GCC unroll" too, but then unrolls only partly. */
#if defined(__clang__)
#define FSHA1_A8_EACH(l, L) _Pragma("unroll") for (int l = 0; l < (L); l++)
#else
#define FSHA1_A8_EACH(l, L) _Pragma("GCC unroll 4") for (int l = 0; l < (L); l++)
#endif

/* W[4i..4i+3] of the block at @p in host order: vld1q_u8 has no alignment
 * requirement, rev32 undoes the big-endian words. */
FSHA1_A8_INLINE uint32x4_t fsha1_a8_load_w(const uint8_t *p, int i)
{
	return vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(p + 16 * i)));
}

/* In fsha1_a8_block(): every lane's group g (rounds 4g..4g+3) gets its W
 * in w[l][g % 4], which held group g-4. */
#define FSHA1_A8_SCHED(L, g)                                                                  \
	do {                                                                                  \
		FSHA1_A8_EACH(l_, L)                                                          \
		w[l_][(g) % 4] = vsha1su1q_u32(                                               \
			vsha1su0q_u32(w[l_][(g) % 4], w[l_][((g) + 1) % 4], w[l_][((g) + 2) % 4]), \
			w[l_][((g) + 3) % 4]);                                                \
	} while (0)

/* In fsha1_a8_block(): every lane's rounds 4g..4g+3 with hash op OP and
 * round constant K; e[l] is this group's E, and the next group's is sha1h
 * of the A going in. */
#define FSHA1_A8_GROUP(L, g, OP, K)                                                  \
	do {                                                                         \
		FSHA1_A8_EACH(l_, L)                                                 \
		{                                                                    \
			uint32x4_t wk_ = vaddq_u32(w[l_][(g) % 4], vdupq_n_u32(K));  \
			uint32_t e_next_ = vsha1h_u32(vgetq_lane_u32(abcd[l_], 0)); \
			abcd[l_] = OP(abcd[l_], e[l_], wk_);                         \
			e[l_] = e_next_;                                             \
		}                                                                    \
	} while (0)

#define FSHA1_A8_G(L, g, OP, K)                 \
	do {                                    \
		FSHA1_A8_SCHED(L, g);           \
		FSHA1_A8_GROUP(L, g, OP, K);    \
	} while (0)

/*
 * One block in each of L lanes: lane l's ABCD in abcd[l] and E in e0[l],
 * its block at p[l], which moves on by 64 bytes. The sequence of the
 * original single-stream file with each step issued for every lane in turn.
 */
FSHA1_A8_INLINE void fsha1_a8_block(const int L, uint32x4_t abcd[], uint32_t e0[], const uint8_t *p[])
{
	uint32x4_t w[FSHA1_A8_MAX_LANES][4], abcd_in[FSHA1_A8_MAX_LANES];
	uint32_t e[FSHA1_A8_MAX_LANES];

	FSHA1_A8_EACH(l, L)
	{
		abcd_in[l] = abcd[l];
		e[l] = e0[l];
		for (int i = 0; i < 4; i++)
			w[l][i] = fsha1_a8_load_w(p[l], i);
	}
	FSHA1_A8_GROUP(L, 0, vsha1cq_u32, 0x5a827999u);
	FSHA1_A8_GROUP(L, 1, vsha1cq_u32, 0x5a827999u);
	FSHA1_A8_GROUP(L, 2, vsha1cq_u32, 0x5a827999u);
	FSHA1_A8_GROUP(L, 3, vsha1cq_u32, 0x5a827999u);
	FSHA1_A8_G(L, 4, vsha1cq_u32, 0x5a827999u);
	FSHA1_A8_G(L, 5, vsha1pq_u32, 0x6ed9eba1u);
	FSHA1_A8_G(L, 6, vsha1pq_u32, 0x6ed9eba1u);
	FSHA1_A8_G(L, 7, vsha1pq_u32, 0x6ed9eba1u);
	FSHA1_A8_G(L, 8, vsha1pq_u32, 0x6ed9eba1u);
	FSHA1_A8_G(L, 9, vsha1pq_u32, 0x6ed9eba1u);
	FSHA1_A8_G(L, 10, vsha1mq_u32, 0x8f1bbcdcu);
	FSHA1_A8_G(L, 11, vsha1mq_u32, 0x8f1bbcdcu);
	FSHA1_A8_G(L, 12, vsha1mq_u32, 0x8f1bbcdcu);
	FSHA1_A8_G(L, 13, vsha1mq_u32, 0x8f1bbcdcu);
	FSHA1_A8_G(L, 14, vsha1mq_u32, 0x8f1bbcdcu);
	FSHA1_A8_G(L, 15, vsha1pq_u32, 0xca62c1d6u);
	FSHA1_A8_G(L, 16, vsha1pq_u32, 0xca62c1d6u);
	FSHA1_A8_G(L, 17, vsha1pq_u32, 0xca62c1d6u);
	FSHA1_A8_G(L, 18, vsha1pq_u32, 0xca62c1d6u);
	FSHA1_A8_G(L, 19, vsha1pq_u32, 0xca62c1d6u);

	FSHA1_A8_EACH(l, L)
	{
		abcd[l] = vaddq_u32(abcd[l], abcd_in[l]);
		e0[l] += e[l];
		p[l] += 64;
	}
}

/* The single-stream loop (the sha1_impl.h contract): the armv8 row's
 * blocks function and the lane kernels'. */
FSHA1_A8_INLINE void fsha1_a8_blocks(uint32_t state[5], const uint8_t *data, size_t nblocks)
{
	uint32x4_t abcd = vld1q_u32(state);
	uint32_t e0 = state[4];

	do
		fsha1_a8_block(1, &abcd, &e0, &data);
	while (--nblocks);
	vst1q_u32(state, abcd);
	state[4] = e0;
}

/* The lane loop: L state rows and L pointers, each lane advancing nblocks
 * (the contract in sha1_armv8_x2.c). */
FSHA1_A8_INLINE void fsha1_a8_lanes(const int L, uint32_t (*state)[5], const uint8_t *const *data,
				    size_t nblocks)
{
	uint32x4_t abcd[FSHA1_A8_MAX_LANES];
	uint32_t e0[FSHA1_A8_MAX_LANES];
	const uint8_t *p[FSHA1_A8_MAX_LANES];

	FSHA1_A8_EACH(l, L)
	{
		abcd[l] = vld1q_u32(state[l]);
		e0[l] = state[l][4];
		p[l] = data[l];
	}
	do
		fsha1_a8_block(L, abcd, e0, p);
	while (--nblocks);
	FSHA1_A8_EACH(l, L)
	{
		vst1q_u32(state[l], abcd[l]);
		state[l][4] = e0[l];
	}
}

#endif
