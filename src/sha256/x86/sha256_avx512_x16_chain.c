/* SPDX-License-Identifier: MIT */
/*
 * PBKDF2-HMAC-SHA256's chains on avx512_x16's sixteen lanes: the lane
 * chain kernel (core/backend.h, fsha_lane_chain_fn) of that row. Needs
 * what sha256_avx512_x16.c needs (AVX512F, AVX512BW; built with the same
 * flags, x86-64 only). SHA-256 only: SHA-224's digest is not its whole
 * state.
 *
 * Contract: c[0..k) (1 <= k <= 16) each hold the inner and outer chaining
 * words (H0..H7, host order), U's block (U's 32 digest bytes, then the
 * padding of a 96-byte message) and the XOR of the U so far as chaining
 * words; @iters more iterations (0: none) of U = HMAC(P, U), XOR += U.
 * Lanes k..15 rerun chain 0 and are never written back. Each chain's U
 * digest bytes (32) and XOR (32) are written back at the end; nothing else
 * of the chains is written, nothing outside them read (32 bytes of inner,
 * outer, u and acc each), no memory of ours keeps a keyed word beyond the
 * compiler's spills (which PBKDF2 clears with the rest of its stack,
 * src/mac/kdf.c). No branch on data.
 *
 * Technique: sha256_avx512_x16.c's transposed layout and rounds (zmm j
 * holds word j of the sixteen lanes), with the transposes done once per
 * call instead of four times an iteration: the inner and outer chaining
 * words, U and the XOR are transposed in at the start and U and the XOR
 * out at the end. U's digest words are the next message's W[0..7] as they
 * stand (the rounds take big-endian words and the digest is the chaining
 * words written big-endian), and W[8..15] are the padding of a 96-byte
 * message, broadcast constants (0x80000000, six zeros, 768). What this
 * replaces (lanes.c, chain_lanes()) copied the states into memory, and
 * each kernel call transposed them in and out and loaded, byte-swapped and
 * transposed sixteen blocks, then formatted each lane's digest into its
 * block: about 400 shuffles and 100 memory moves a block next to the
 * rounds' 1,616 zmm operations.
 *
 * Measured on an Intel Xeon (Emerald Rapids line, family 6 model 167,
 * 2 vCPUs under KVM; GCC 12, OpenSSL 3.0.19), fastsha-bench --mac -a
 * sha256 --jobs pbkdf2x16 (16 passwords x 10,000 iterations against
 * OpenSSL one at a time), medians of 3 runs under the bench lock: 6.59 ms,
 * 5.75x, on the lane path; 4.59 ms, 8.13x, with this kernel (1.43x). An
 * iteration of 16 chains takes about 455 ns, 810 cycles a block of all 16
 * lanes at 3.56 GHz: about two zmm operations a cycle (the block's 1,616
 * of sha256_avx512_x16.c less some 60 the constant words save), which is
 * what the two 512-bit ports allow; not checked with counters.
 */
#include <immintrin.h>

#include "../../core/family.h"
#include "../../core/lanes_avx512.h"
#include "../sha256_impl.h"

#define ADD(x, y) _mm512_add_epi32((x), (y))
#define ROR(x, n) _mm512_ror_epi32((x), (n))
#define SHR(x, n) _mm512_srli_epi32((x), (n))
#define TERN(x, y, z, imm) _mm512_ternarylogic_epi32((x), (y), (z), (imm))
#define KB(t) _mm512_set1_epi32((int)fsha256_k[t])
#define FSHA2_BS0 2, 13, 22
#define FSHA2_BS1 6, 11, 25
#define FSHA2_SS0 7, 18, 3
#define FSHA2_SS1 17, 19, 10
#include "../../sha2/sha2_lanes_avx512.h"
#include "../../sha2/sha2_lanes_avx2.h"

#define CHAIN_INLINE static inline __attribute__((always_inline))

/* A word in every lane; sigma0 and sigma1 of a constant, folded. */
#define C(x) _mm512_set1_epi32((int)(uint32_t)(x))
CHAIN_INLINE uint32_t ror32(uint32_t x, int n)
{
	return x >> n | x << (32 - n);
}
CHAIN_INLINE uint32_t sig0(uint32_t x)
{
	return ror32(x, 7) ^ ror32(x, 18) ^ x >> 3;
}
CHAIN_INLINE uint32_t sig1(uint32_t x)
{
	return ror32(x, 17) ^ ror32(x, 19) ^ x >> 10;
}

/* One hash of the sixteen U (u[0..7], word j of every lane in u[j]) from
 * chaining words @s: U becomes the digest, in the same layout. */
CHAIN_INLINE void chain_hash(const __m512i s[8], __m512i u[8])
{
	__m512i w[16];
	__m512i a = s[0], b = s[1], c = s[2], d = s[3], e = s[4], f = s[5], g = s[6], h = s[7];

	for (int j = 0; j < 8; j++)
		w[j] = u[j];
	/* the padding of a block and a digest: 0x80000000, zeros, the length
	 * in bits (768, also spelt out in W[17..31] below) */
	w[8] = C(0x80000000);
	for (int j = 9; j < 15; j++)
		w[j] = _mm512_setzero_si512();
	w[15] = C((64 + 32) * 8);
	ROUNDS8(0, 0);
	ROUNDS8(8, 8); /* W + K a constant: GCC folds the broadcasts */
	/* W[16..31] (SCHED: W[t] = W[t-16] + sigma0(W[t-15]) + W[t-7] +
	 * sigma1(W[t-2])) with the terms of W[8..15] worked out: ten sigmas
	 * fewer an iteration than SROUNDS8, 30 of the block's 672 rotates and
	 * shifts, the port this kernel is bound by (sha256_avx512_x16.c). */
	w[0] = ADD(w[0], ssig0(w[1]));                                   /* W16 */
	w[1] = ADD(ADD(w[1], ssig0(w[2])), C(sig1(768)));                /* W17 */
	w[2] = ADD(ADD(w[2], ssig0(w[3])), ssig1(w[0]));                 /* W18 */
	w[3] = ADD(ADD(w[3], ssig0(w[4])), ssig1(w[1]));                 /* W19 */
	w[4] = ADD(ADD(w[4], ssig0(w[5])), ssig1(w[2]));                 /* W20 */
	w[5] = ADD(ADD(w[5], ssig0(w[6])), ssig1(w[3]));                 /* W21 */
	w[6] = ADD(ADD(w[6], ssig0(w[7])), ADD(ssig1(w[4]), C(768)));    /* W22 */
	w[7] = ADD(ADD(w[7], C(sig0(0x80000000))), ADD(ssig1(w[5]), w[0])); /* W23 */
	w[8] = ADD(C(0x80000000), ADD(ssig1(w[6]), w[1]));               /* W24 */
	w[9] = ADD(ssig1(w[7]), w[2]);                                   /* W25 */
	w[10] = ADD(ssig1(w[8]), w[3]);                                  /* W26 */
	w[11] = ADD(ssig1(w[9]), w[4]);                                  /* W27 */
	w[12] = ADD(ssig1(w[10]), w[5]);                                 /* W28 */
	w[13] = ADD(ssig1(w[11]), w[6]);                                 /* W29 */
	w[14] = ADD(ADD(C(sig0(768)), ssig1(w[12])), w[7]);              /* W30 */
	w[15] = ADD(ADD(C(768), ssig0(w[0])), ADD(ssig1(w[13]), w[8]));  /* W31 */
	ROUNDS8(16, 0);
	ROUNDS8(24, 8);
	for (int t = 32; t < 64; t += 16) {
		SROUNDS8(t, 0);
		SROUNDS8(t + 8, 8);
	}
	u[0] = ADD(s[0], a);
	u[1] = ADD(s[1], b);
	u[2] = ADD(s[2], c);
	u[3] = ADD(s[3], d);
	u[4] = ADD(s[4], e);
	u[5] = ADD(s[5], f);
	u[6] = ADD(s[6], g);
	u[7] = ADD(s[7], h);
}

void fsha256_avx512_x16_chain(struct fsha_chain *c, size_t k, uint64_t iters)
{
	FSHA_X16_CHAIN_RUN(c, k, iters, 8, chain_hash);
}
