/* SPDX-License-Identifier: MIT */
/*
 * PBKDF2-HMAC-SHA1's chains on avx512_x16's sixteen lanes: the lane chain
 * kernel (core/backend.h, fsha_lane_chain_fn) of that row. Needs what
 * sha1_avx512_x16.c needs (AVX512F, AVX512BW; built with the same flags,
 * x86-64 only).
 *
 * Contract: c[0..k) (1 <= k <= 16) each hold the inner and outer chaining
 * words (H0..H4, host order), U's block (U's 20 digest bytes, then the
 * padding of an 84-byte message) and the XOR of the U so far as chaining
 * words; @iters more iterations (0: none) of U = HMAC(P, U), XOR += U.
 * Lanes k..15 rerun chain 0 and are never written back. Each chain's U
 * digest bytes (20) and XOR (20) are written back at the end by masked
 * stores, so the padding after them is untouched; the loads are masked
 * too, 20 bytes of inner, outer, u and acc each. Nothing else of the
 * chains is written or read, no memory of ours keeps a keyed word beyond
 * the compiler's spills (which PBKDF2 clears with the rest of its stack,
 * src/mac/kdf.c). No branch on data.
 *
 * Technique: as sha256_avx512_x16_chain.c: the rounds of
 * sha1_avx512_x16.c (sha1_lanes_avx512.h) on words transposed once per
 * call, U's five words the next message's W[0..4] and W[5..15] the
 * constant padding (0x80000000, zeros, 672 bits), the XOR kept transposed.
 *
 * Measured on an Intel Xeon (Emerald Rapids line, 2 vCPUs under KVM; GCC
 * 12, OpenSSL 3.0.19), fastsha-bench --mac -a sha1 --jobs pbkdf2x16,
 * medians of 3 runs under the bench lock: 3.55 ms, 11.04x OpenSSL, on the
 * lane path; 2.06 ms, 18.66x, with this kernel (1.72x). The lane path
 * spent more of its time outside the rounds than SHA-256's did: SHA-1's
 * blocks have half the rounds' work, and the 5-word rows cost the same
 * transposes and formatting.
 */
#include <immintrin.h>

#include "../../core/family.h"
#include "../../core/lanes_avx512.h"
#include "../sha1_impl.h"
#include "sha1_lanes_avx512.h"

#define R(a, b, c, d, e, t)                                          \
	do {                                                         \
		SCHED((t) + 2);                                      \
		FSHA1_X16_ROUND(a, b, c, d, e, t);                   \
	} while (0)
#define R5(t)                            \
	R(a, b, c, d, e, (t));           \
	R(e, a, b, c, d, (t) + 1);       \
	R(d, e, a, b, c, (t) + 2);       \
	R(c, d, e, a, b, (t) + 3);       \
	R(b, c, d, e, a, (t) + 4)
#define R20(t) R5(t); R5((t) + 5); R5((t) + 10); R5((t) + 15)

/* One hash of the sixteen U (u[0..4], word j of every lane in u[j]) from
 * chaining words @s: U becomes the digest, in the same layout. */
FSHA1_X16_INLINE void chain_hash(const __m512i s[5], __m512i u[5])
{
	__m512i w[16];
	__m512i a = s[0], b = s[1], c = s[2], d = s[3], e = s[4];

	for (int j = 0; j < 5; j++)
		w[j] = u[j];
	/* the padding of a block and a digest: 0x80000000, zeros, the length
	 * in bits */
	w[5] = _mm512_set1_epi32((int)0x80000000);
	for (int j = 6; j < 15; j++)
		w[j] = _mm512_setzero_si512();
	w[15] = _mm512_set1_epi32((64 + 20) * 8);
	R20(0);
	R20(20);
	R20(40);
	R20(60);
	u[0] = ADD(s[0], a);
	u[1] = ADD(s[1], b);
	u[2] = ADD(s[2], c);
	u[3] = ADD(s[3], d);
	u[4] = ADD(s[4], e);
}

void fsha1_avx512_x16_chain(struct fsha_chain *c, size_t k, uint64_t iters)
{
	FSHA_X16_CHAIN_RUN(c, k, iters, 5, chain_hash);
}
