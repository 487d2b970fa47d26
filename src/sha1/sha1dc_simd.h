/* SPDX-License-Identifier: MIT */
#ifndef FSHA1DC_SIMD_H
#define FSHA1DC_SIMD_H

/*
 * SHA1DC's filter on SIMD vectors, written once in GCC/Clang vector
 * extensions and compiled by each SIMD file with its own flags and width:
 * define FSHA1DC_VBYTES (16 for SSE2 and NEON, 32 for AVX2) and include this
 * in one .c file, which then wraps fsha1dc_simd_filter() as its filter
 * function (contract: sha1dc_impl.h), and may run fsha1dc_simd_masks() on
 * planes it loads itself (the x86 files' filters on the bytes SHA-NI kept,
 * sha1_impl.h nar).
 *
 * One block per byte lane. The generated filter (dc/ubc_filter.inc) reads
 * only bytes 0 and 3 of each expanded-message word, and only bits within a
 * byte, so each of those bytes is a plane of its own (b0[t], b3[t]) with
 * one block per byte: FSHA1DC_VBYTES blocks a run for the same ~780
 * operations (an earlier version kept both bytes in one 16-bit lane: half
 * the blocks a run). The input here comes from the blocks themselves: the
 * expanded message worked out in 32-bit lanes, FSHA1DC_VBYTES / 4 blocks a
 * vector, four such groups narrowed into the two planes. A file may bring
 * faster loaders of its own (FSHA1DC_HAVE_EXPAND, FSHA1DC_HAVE_NARROW),
 * e.g. loads transposed with shuffles; the ones here gather word by word.
 * A loader may put the blocks in the byte lanes in any fixed order;
 * FSHA1DC_LANE_BLOCK(i) names the block in lane i (default: block i).
 * A file that filters only bytes it loads itself (x86/sha1dc_avx512.c)
 * defines FSHA1DC_MASKS_ONLY and gets fsha1dc_simd_masks() alone.
 */

#include <string.h>

#include "sha1dc_impl.h"

#ifndef FSHA1DC_VBYTES
#error "define FSHA1DC_VBYTES (the vector size in bytes) before including sha1dc_simd.h"
#endif

#define FSHA1DC_L32 (FSHA1DC_VBYTES / 4) /* blocks per 32-bit group */
#define FSHA1DC_LB FSHA1DC_VBYTES       /* blocks per filter run: one a byte */

typedef uint32_t fsha1dc_v32 __attribute__((vector_size(FSHA1DC_VBYTES)));
/* The filter's type: bytes shifted as 16-bit lanes (SSE2 and AVX2 have no
 * byte shifts; the filter reads no bit that crosses a byte, see the
 * generator). */
typedef uint16_t fsha1dc_v16 __attribute__((vector_size(FSHA1DC_VBYTES)));
typedef uint8_t fsha1dc_v8 __attribute__((vector_size(FSHA1DC_VBYTES)));

#ifndef FSHA1DC_LANE_BLOCK
#define FSHA1DC_LANE_BLOCK(i) (i)
#endif

#ifndef FSHA1DC_SIMD_INLINE
#define FSHA1DC_SIMD_INLINE static inline __attribute__((always_inline))
#endif

/* From x[0..15], the message words, the schedule up to W[64], kept from
 * W[35] on in w[]: written out step by step (a loop over t left GCC
 * indexing the window through memory). */
#define FSHA1DC_SIMD_STEP(x, w, t)                                                             \
	do {                                                                                   \
		fsha1dc_v32 y_ = x[((t) - 3) & 15] ^ x[((t) - 8) & 15] ^ x[((t) - 14) & 15] ^     \
				 x[(t) & 15];                                                  \
		x[(t) & 15] = (y_ << 1) | (y_ >> 31);                                          \
		if ((t) >= 35)                                                                 \
			w[t] = x[(t) & 15];                                                    \
	} while (0)
#define FSHA1DC_SIMD_STEP4(x, w, t)                                                            \
	FSHA1DC_SIMD_STEP(x, w, t);                                                            \
	FSHA1DC_SIMD_STEP(x, w, (t) + 1);                                                      \
	FSHA1DC_SIMD_STEP(x, w, (t) + 2);                                                      \
	FSHA1DC_SIMD_STEP(x, w, (t) + 3)
#define FSHA1DC_SIMD_SCHEDULE(x, w)                                                            \
	do {                                                                                   \
		FSHA1DC_SIMD_STEP4(x, w, 16);                                                  \
		FSHA1DC_SIMD_STEP4(x, w, 20);                                                  \
		FSHA1DC_SIMD_STEP4(x, w, 24);                                                  \
		FSHA1DC_SIMD_STEP4(x, w, 28);                                                  \
		FSHA1DC_SIMD_STEP4(x, w, 32);                                                  \
		FSHA1DC_SIMD_STEP4(x, w, 36);                                                  \
		FSHA1DC_SIMD_STEP4(x, w, 40);                                                  \
		FSHA1DC_SIMD_STEP4(x, w, 44);                                                  \
		FSHA1DC_SIMD_STEP4(x, w, 48);                                                  \
		FSHA1DC_SIMD_STEP4(x, w, 52);                                                  \
		FSHA1DC_SIMD_STEP4(x, w, 56);                                                  \
		FSHA1DC_SIMD_STEP4(x, w, 60);                                                  \
		FSHA1DC_SIMD_STEP(x, w, 64);                                                   \
	} while (0)

#ifndef FSHA1DC_MASKS_ONLY
/* W[35..64] of the blocks at p[0..L32) into w[35..64] (32-bit lanes). */
FSHA1DC_SIMD_INLINE void fsha1dc_simd_expand(const uint8_t *const *p, fsha1dc_v32 *w);
#ifndef FSHA1DC_HAVE_EXPAND
FSHA1DC_SIMD_INLINE void fsha1dc_simd_expand(const uint8_t *const *p, fsha1dc_v32 *w)
{
	fsha1dc_v32 x[16];
	for (int t = 0; t < 16; t++) {
		union {
			fsha1dc_v32 v;
			uint32_t u[FSHA1DC_L32];
		} in;
		for (int l = 0; l < FSHA1DC_L32; l++)
			in.u[l] = fsha_load_be32(p[l] + 4 * t);
		x[t] = in.v;
	}
	FSHA1DC_SIMD_SCHEDULE(x, w);
}
#endif

/* Four groups' words (blocks 0..L32-1 in @a, the next L32 in @b, then @c,
 * @d) narrowed to their bytes 0 (*b0) and 3 (*b3), one block a byte lane,
 * lanes in FSHA1DC_LANE_BLOCK order. */
FSHA1DC_SIMD_INLINE void fsha1dc_simd_narrow(fsha1dc_v32 a, fsha1dc_v32 b, fsha1dc_v32 c,
					     fsha1dc_v32 d, fsha1dc_v16 *b0, fsha1dc_v16 *b3);
#ifndef FSHA1DC_HAVE_NARROW
#if FSHA1DC_VBYTES == 16
#define FSHA1DC_BYTES_OF(x, y, o) __builtin_shufflevector(x, y, o, o + 4, o + 8, o + 12, \
							  o + 16, o + 20, o + 24, o + 28)
#define FSHA1DC_CAT(x, y) \
	__builtin_shufflevector(x, y, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
#elif FSHA1DC_VBYTES == 32
#define FSHA1DC_BYTES_OF(x, y, o)                                                           \
	__builtin_shufflevector(x, y, o, o + 4, o + 8, o + 12, o + 16, o + 20, o + 24, o + 28, \
				o + 32, o + 36, o + 40, o + 44, o + 48, o + 52, o + 56, o + 60)
#define FSHA1DC_CAT(x, y)                                                                   \
	__builtin_shufflevector(x, y, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,   \
				16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31)
#else
#error "FSHA1DC_VBYTES must be 16 or 32"
#endif
FSHA1DC_SIMD_INLINE void fsha1dc_simd_narrow(fsha1dc_v32 a, fsha1dc_v32 b, fsha1dc_v32 c,
					     fsha1dc_v32 d, fsha1dc_v16 *b0, fsha1dc_v16 *b3)
{
	const fsha1dc_v8 a8 = (fsha1dc_v8)a, b8 = (fsha1dc_v8)b, c8 = (fsha1dc_v8)c,
			 d8 = (fsha1dc_v8)d;
	*b0 = (fsha1dc_v16)FSHA1DC_CAT(FSHA1DC_BYTES_OF(a8, b8, 0), FSHA1DC_BYTES_OF(c8, d8, 0));
	*b3 = (fsha1dc_v16)FSHA1DC_CAT(FSHA1DC_BYTES_OF(a8, b8, 3), FSHA1DC_BYTES_OF(c8, d8, 3));
}
#endif

#endif /* FSHA1DC_MASKS_ONLY */

/* The generated filter on the planes b0, b3 [35..64]: m[0..3] as the
 * generator leaves them (byte lane j of m[d / 8], bit d % 8: DV d on the
 * block in lane j). */
FSHA1DC_SIMD_INLINE void fsha1dc_simd_masks(const fsha1dc_v16 *b0, const fsha1dc_v16 *b3,
					    fsha1dc_v16 m[4])
{
#define FSHA1DC_V fsha1dc_v16
#define FSHA1DC_BIT(b) ((uint16_t)(0x0101u << (b)))
#include "dc/ubc_filter.inc"
#undef FSHA1DC_BIT
#undef FSHA1DC_V
}

#ifndef FSHA1DC_MASKS_ONLY
/* A run's m[0..3] to block masks: masks[b] for its first @k blocks. */
FSHA1DC_SIMD_INLINE void fsha1dc_simd_store(const fsha1dc_v16 m[4], size_t k, uint32_t *masks);
#ifndef FSHA1DC_HAVE_STORE
FSHA1DC_SIMD_INLINE void fsha1dc_simd_store(const fsha1dc_v16 m[4], size_t k, uint32_t *masks)
{
	union {
		fsha1dc_v16 v;
		uint8_t u[FSHA1DC_LB];
	} m0, m1, m2, m3;
	m0.v = m[0];
	m1.v = m[1];
	m2.v = m[2];
	m3.v = m[3];
	for (int i = 0; i < FSHA1DC_LB; i++)
		if ((size_t)FSHA1DC_LANE_BLOCK(i) < k)
			masks[FSHA1DC_LANE_BLOCK(i)] = m0.u[i] | (uint32_t)m1.u[i] << 8 |
						       (uint32_t)m2.u[i] << 16 |
						       (uint32_t)m3.u[i] << 24;
}
#endif

/* The filter on the LB blocks at p[0..LB) (fsha1dc_simd_masks()). */
FSHA1DC_SIMD_INLINE void fsha1dc_simd_run(const uint8_t *const *p, fsha1dc_v16 m[4])
{
	fsha1dc_v32 g[4][65];
	fsha1dc_v16 b0[65], b3[65];
	for (int q = 0; q < 4; q++)
		fsha1dc_simd_expand(p + q * FSHA1DC_L32, g[q]);
	for (int t = 35; t < 65; t++)
		fsha1dc_simd_narrow(g[0][t], g[1][t], g[2][t], g[3][t], &b0[t], &b3[t]);
	fsha1dc_simd_masks(b0, b3, m);
}

/* The filter over the @n blocks at blocks[0..n) (fsha1dc_filter_fn). A
 * last run of fewer than LB blocks fills its idle lanes with its first
 * block. */
FSHA1DC_SIMD_INLINE void fsha1dc_simd_filter(const uint8_t *const *blocks, size_t n,
					     uint32_t *masks)
{
	const uint8_t *p[FSHA1DC_LB];
	for (size_t i = 0; i < n; i += FSHA1DC_LB) {
		size_t k = n - i < FSHA1DC_LB ? n - i : FSHA1DC_LB;
		fsha1dc_v16 m[4];
		for (size_t l = 0; l < FSHA1DC_LB; l++)
			p[l] = blocks[i + (l < k ? l : 0)];
		fsha1dc_simd_run(p, m);
		fsha1dc_simd_store(m, k, masks + i);
	}
}

#endif /* FSHA1DC_MASKS_ONLY */

#endif
