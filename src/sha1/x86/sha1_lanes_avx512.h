/* SPDX-License-Identifier: MIT */
#ifndef FSHA1_LANES_AVX512_H
#define FSHA1_LANES_AVX512_H

/*
 * The rounds of the SHA-1 AVX-512 lane kernels (sixteen lanes, zmm
 * register j holds word j of every lane): avx512_x16's block loop
 * (sha1_avx512_x16.c, whose head comment has the measurements behind
 * them) and PBKDF2's chain kernel of that row (sha1_avx512_x16_chain.c).
 * Only for files built with -mavx512f -mavx512bw. SCHED and the round
 * name the caller's window w[16].
 */

#include <immintrin.h>

#define ADD(x, y) _mm512_add_epi32((x), (y))
#define ROL(x, n) _mm512_rol_epi32((x), (n))

#define FSHA1_X16_INLINE static inline __attribute__((always_inline))

/* The f-function and constant of round @t (a constant after unrolling). */
FSHA1_X16_INLINE __m512i f_of(int t, __m512i b, __m512i c, __m512i d)
{
	if (t < 20)
		return _mm512_ternarylogic_epi32(b, c, d, 0xca); /* b ? c : d */
	if (t < 40 || t >= 60)
		return _mm512_ternarylogic_epi32(b, c, d, 0x96); /* b ^ c ^ d */
	return _mm512_ternarylogic_epi32(b, c, d, 0xe8);         /* majority */
}

FSHA1_X16_INLINE __m512i k_of(int t)
{
	return _mm512_set1_epi32(t < 20 ? 0x5a827999 : t < 40 ? 0x6ed9eba1
						 : t < 60 ? (int)0x8f1bbcdc : (int)0xca62c1d6);
}

/*
 * W[s] into the slot of W[s - 16], for 16 <= s < 80. Round t computes
 * W[t + 2]: two rounds of slack between the schedule and its use (3%
 * faster than four there, see sha1_avx512_x16.c's head comment).
 */
#define SCHED(s)                                                                              \
	do {                                                                                  \
		if ((s) >= 16 && (s) < 80)                                                    \
			w[(s) & 15] = ROL(_mm512_xor_si512(                                   \
						  _mm512_ternarylogic_epi32(w[((s) - 3) & 15],  \
									    w[((s) - 8) & 15],  \
									    w[((s) - 14) & 15], \
									    0x96),              \
						  w[(s) & 15]),                                 \
					  1);                                                   \
	} while (0)

/*
 * In a round (FSHA1_X16_ROUND), the empty asm makes the sum of the terms that do not wait for
 * the previous round opaque, so that rol(a, 5) is added last (see
 * sha1_avx2_x8.c: GCC 12 otherwise reassociates the additions onto the
 * loop-carried path).
 */
#ifndef FSHA_SIMDE_AVX512
#define OPAQUE(x) __asm__("" : "+v"(x))
#else
/* The SIMDe check (cmake/simde/immintrin.h): there e is SIMDe's 64-byte
 * vector on a CPU without zmm registers, which "+v" cannot name; the
 * barrier goes through memory instead (only that build's speed changes). */
#define OPAQUE(x) __asm__("" : "+m"(x))
#endif

/* Round @t's work on the state after its message word is in w[t & 15]. */
#define FSHA1_X16_ROUND(a, b, c, d, e, t)                            \
	do {                                                         \
		e = ADD(e, ADD(w[(t) & 15], k_of(t)));               \
		e = ADD(e, f_of((t), b, c, d));                      \
		OPAQUE(e);                                           \
		e = ADD(e, ROL(a, 5));                               \
		b = ROL(b, 30);                                      \
	} while (0)

#endif
