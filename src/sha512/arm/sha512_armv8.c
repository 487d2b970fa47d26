/* SPDX-License-Identifier: MIT */
/*
 * armv8: SHA-512 (and SHA-384, SHA-512/224, SHA-512/256) with the ARMv8.2
 * SHA512 instructions (AArch64).
 *
 * Needs: FEAT_SHA512 (Linux hwcap HWCAP_SHA512), NEON. GCC 12 exposes
 * vsha512hq_u64 and friends only under the sha3 extension, so this file
 * is built with -march=armv8.2-a+sha3 (+crypto or +sha2 alone is not enough).
 * That flag would also let GCC emit SHA3 instructions (eor3, rax1, ...),
 * which a SHA512-only CPU may lack; the code here is all intrinsics and
 * the object holds none (checked with objdump, GCC 12 -O2 and -O3).
 * Contract: src/sha512/sha512_impl.h (whole 128-byte blocks, any alignment,
 * reads exactly 128*nblocks bytes).
 *
 * Technique (the instruction descriptions in the Arm Architecture
 * Reference Manual and the ACLE intrinsics reference; the same dataflow as
 * the Linux kernel's sha512-ce-core.S): the state is four vectors of two
 * words, AB, CD, EF and GH, and two rounds are one sha512h plus one
 * sha512h2:
 *
 *   sha512h(GH + KW', {F, G}, {D, E})  gives the two rounds' T1 (its high
 *       word T1 of round t, its low word that of round t+1, which it
 *       computes from the new E = D + T1 of round t internally);
 *   CD + that                          is the new EF (E = C + T1', F = D + T1);
 *   sha512h2(T1s, CD, AB)              is the new AB.
 *
 * KW' is {W+K of round t+1, W+K of round t}, the vector of W+K with its two
 * words swapped, because sha512h consumes the high word first. After the
 * two rounds the old AB is the new CD and the old EF the new GH, so the
 * four variables simply rename. {F, G} and {D, E} straddle two state
 * vectors and come from ext. The schedule is two words per step, W[t..t+1]
 * = sha512su1(sha512su0(W[t-16..], W[t-14..]), W[t-2..], W[t-7..t-6]),
 * in a ring of eight vectors, one step per two rounds.
 * Speed: not measured (no AArch64 hardware here; the tests run under
 * qemu-aarch64, which says nothing about speed).
 */
#include <arm_neon.h>

#include "../sha512_impl.h"

/* Step s (rounds 2s, 2s+1): its W is w[s % 8], which held step s-8. */
#define SCHED(s)                                                                         \
	(w[(s) % 8] = vsha512su1q_u64(vsha512su0q_u64(w[(s) % 8], w[((s) + 1) % 8]),     \
				      w[((s) + 7) % 8],                                  \
				      vextq_u64(w[((s) + 4) % 8], w[((s) + 5) % 8], 1)))

#define ROUND2(s)                                                                         \
	do {                                                                              \
		uint64x2_t kw_ = vaddq_u64(w[(s) % 8], vld1q_u64(&fsha512_k[2 * (s)]));  \
		uint64x2_t fg_ = vextq_u64(ef, gh, 1), de_ = vextq_u64(cd, ef, 1);       \
		uint64x2_t ab0_ = ab, t1_;                                                \
		kw_ = vextq_u64(kw_, kw_, 1);                                             \
		t1_ = vsha512hq_u64(vaddq_u64(gh, kw_), fg_, de_);                        \
		ab = vsha512h2q_u64(t1_, cd, ab);                                         \
		gh = ef;                                                                  \
		ef = vaddq_u64(cd, t1_);                                                  \
		cd = ab0_;                                                                \
	} while (0)

#define R2(s)                    \
	do {                     \
		SCHED(s);        \
		ROUND2(s);       \
	} while (0)

static void blocks(uint64_t state[8], const uint8_t *data, size_t nblocks)
{
	uint64x2_t ab = vld1q_u64(state), cd = vld1q_u64(state + 2);
	uint64x2_t ef = vld1q_u64(state + 4), gh = vld1q_u64(state + 6);

	do {
		uint64x2_t w[8], ab_in = ab, cd_in = cd, ef_in = ef, gh_in = gh;

		/* rev64 makes the big-endian words host order. */
		for (int i = 0; i < 8; i++)
			w[i] = vreinterpretq_u64_u8(vrev64q_u8(vld1q_u8(data + 16 * i)));

		ROUND2(0);
		ROUND2(1);
		ROUND2(2);
		ROUND2(3);
		ROUND2(4);
		ROUND2(5);
		ROUND2(6);
		ROUND2(7);
		R2(8);
		R2(9);
		R2(10);
		R2(11);
		R2(12);
		R2(13);
		R2(14);
		R2(15);
		R2(16);
		R2(17);
		R2(18);
		R2(19);
		R2(20);
		R2(21);
		R2(22);
		R2(23);
		R2(24);
		R2(25);
		R2(26);
		R2(27);
		R2(28);
		R2(29);
		R2(30);
		R2(31);
		R2(32);
		R2(33);
		R2(34);
		R2(35);
		R2(36);
		R2(37);
		R2(38);
		R2(39);

		ab = vaddq_u64(ab, ab_in);
		cd = vaddq_u64(cd, cd_in);
		ef = vaddq_u64(ef, ef_in);
		gh = vaddq_u64(gh, gh_in);
		data += 128;
	} while (--nblocks);
	vst1q_u64(state, ab);
	vst1q_u64(state + 2, cd);
	vst1q_u64(state + 4, ef);
	vst1q_u64(state + 6, gh);
}

const struct fsha512_backend fsha512_backend_armv8 = { { "armv8", FSHA_CPU_ARM_SHA512, 1, 1, 0, 0 }, blocks, NULL };
