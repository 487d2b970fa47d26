/* SPDX-License-Identifier: MIT */
/*
 * armv8: SHA-256 (and SHA-224) with the ARMv8 cryptographic extension
 * (AArch64).
 *
 * Needs: the SHA256 instructions (Linux hwcap HWCAP_SHA2), NEON.
 * Contract: src/sha256/sha256_impl.h (whole 64-byte blocks, any alignment,
 * reads exactly 64*nblocks bytes).
 * Technique (seed 003, SHA-Intrinsics, after ARM's and mbedTLS's code):
 * the state lives in two vectors, ABCD and EFGH, and four rounds are one
 * sha256h (new ABCD) plus one sha256h2 (new EFGH), both fed the old ABCD
 * and EFGH and the same four W+K words. The schedule runs four words at a
 * time with sha256su0 + sha256su1: W[4g..4g+3] from groups g-4..g-1, in a
 * ring of four vectors. Groups are unrolled by the macros below so every
 * register index and K offset is a compile-time constant.
 * Speed: not measured (no AArch64 hardware here; the tests run under
 * qemu-aarch64, which says nothing about speed).
 */
#include <arm_neon.h>

#include "../sha256_impl.h"

/* Group g (rounds 4g..4g+3): its W is w[g % 4], which held group g-4. */
#define SCHED(g)                                                                     \
	(w[(g) % 4] = vsha256su1q_u32(vsha256su0q_u32(w[(g) % 4], w[((g) + 1) % 4]), \
				      w[((g) + 2) % 4], w[((g) + 3) % 4]))

/* sha256h2 needs the ABCD from before sha256h updated it. */
#define GROUP(g)                                                            \
	do {                                                                \
		uint32x4_t wk_ = vaddq_u32(w[(g) % 4], vld1q_u32(&fsha256_k[4 * (g)])); \
		uint32x4_t abcd0_ = abcd;                                   \
		abcd = vsha256hq_u32(abcd, efgh, wk_);                      \
		efgh = vsha256h2q_u32(efgh, abcd0_, wk_);                   \
	} while (0)

#define G(g)               \
	do {               \
		SCHED(g);  \
		GROUP(g);  \
	} while (0)

static void blocks(uint32_t state[8], const uint8_t *data, size_t nblocks)
{
	uint32x4_t abcd = vld1q_u32(state), efgh = vld1q_u32(state + 4);

	do {
		uint32x4_t w[4], abcd_in = abcd, efgh_in = efgh;

		/* vld1q_u8 has no alignment requirement; rev32 makes the
		 * big-endian words host order. */
		for (int i = 0; i < 4; i++)
			w[i] = vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(data + 16 * i)));

		GROUP(0);
		GROUP(1);
		GROUP(2);
		GROUP(3);
		G(4);
		G(5);
		G(6);
		G(7);
		G(8);
		G(9);
		G(10);
		G(11);
		G(12);
		G(13);
		G(14);
		G(15);

		abcd = vaddq_u32(abcd, abcd_in);
		efgh = vaddq_u32(efgh, efgh_in);
		data += 64;
	} while (--nblocks);
	vst1q_u32(state, abcd);
	vst1q_u32(state + 4, efgh);
}

const struct fsha256_backend fsha256_backend_armv8 = { { "armv8", FSHA_CPU_ARM_SHA2, 1, 1, 0 }, blocks, NULL };
