/* SPDX-License-Identifier: MIT */
/*
 * armv8: SHA-1 with the ARMv8 cryptographic extension (AArch64).
 *
 * Needs: the SHA1 instructions (Linux hwcap HWCAP_SHA1), NEON.
 * Contract: src/sha1/sha1_impl.h (whole blocks, any alignment, reads exactly
 * 64*nblocks bytes).
 * Technique (seed 003, SHA-Intrinsics): four rounds per instruction,
 * sha1c/sha1p/sha1m for the Ch/Parity/Maj quarters; sha1h gives the E of four
 * rounds ahead (a rol 30); the schedule four words at a time with
 * sha1su0 + sha1su1, W[4g..4g+3] from groups g-4..g-1. Groups are fully
 * unrolled by the macros below so each picks its instruction and constant
 * at compile time.
 */
#include <arm_neon.h>

#include "../sha1_impl.h"

/* Group g (rounds 4g..4g+3): W for it is w[g % 4], which held group g-4. */
#define SCHED(g)                                                                         \
	w[(g) % 4] = vsha1su1q_u32(vsha1su0q_u32(w[(g) % 4], w[((g) + 1) % 4], w[((g) + 2) % 4]), \
				   w[((g) + 3) % 4])

#define GROUP(g, OP, K)                                                  \
	do {                                                             \
		uint32x4_t wk = vaddq_u32(w[(g) % 4], vdupq_n_u32(K));   \
		uint32_t e_next = vsha1h_u32(vgetq_lane_u32(abcd, 0));  \
		abcd = OP(abcd, e, wk);                                  \
		e = e_next;                                              \
	} while (0)

#define G(g, OP, K)           \
	do {                  \
		SCHED(g);     \
		GROUP(g, OP, K); \
	} while (0)

static void blocks(uint32_t state[5], const uint8_t *data, size_t nblocks)
{
	uint32x4_t abcd = vld1q_u32(state);
	uint32_t e0 = state[4];
	do {
		uint32x4_t w[4], abcd_in = abcd;
		uint32_t e = e0;
		for (int i = 0; i < 4; i++)
			w[i] = vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(data + 16 * i)));

		GROUP(0, vsha1cq_u32, 0x5a827999u);
		GROUP(1, vsha1cq_u32, 0x5a827999u);
		GROUP(2, vsha1cq_u32, 0x5a827999u);
		GROUP(3, vsha1cq_u32, 0x5a827999u);
		G(4, vsha1cq_u32, 0x5a827999u);
		G(5, vsha1pq_u32, 0x6ed9eba1u);
		G(6, vsha1pq_u32, 0x6ed9eba1u);
		G(7, vsha1pq_u32, 0x6ed9eba1u);
		G(8, vsha1pq_u32, 0x6ed9eba1u);
		G(9, vsha1pq_u32, 0x6ed9eba1u);
		G(10, vsha1mq_u32, 0x8f1bbcdcu);
		G(11, vsha1mq_u32, 0x8f1bbcdcu);
		G(12, vsha1mq_u32, 0x8f1bbcdcu);
		G(13, vsha1mq_u32, 0x8f1bbcdcu);
		G(14, vsha1mq_u32, 0x8f1bbcdcu);
		G(15, vsha1pq_u32, 0xca62c1d6u);
		G(16, vsha1pq_u32, 0xca62c1d6u);
		G(17, vsha1pq_u32, 0xca62c1d6u);
		G(18, vsha1pq_u32, 0xca62c1d6u);
		G(19, vsha1pq_u32, 0xca62c1d6u);

		abcd = vaddq_u32(abcd, abcd_in);
		e0 += e;
		data += 64;
	} while (--nblocks);
	vst1q_u32(state, abcd);
	state[4] = e0;
}

const struct fsha1_backend fsha1_backend_armv8 = { { "armv8", FSHA_CPU_ARM_SHA1, 1, 1, 0 }, blocks, NULL };
