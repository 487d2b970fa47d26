/* SPDX-License-Identifier: MIT */
#ifndef FSHA1DC_SIMD_H
#define FSHA1DC_SIMD_H

/*
 * SHA1DC's filter on SIMD vectors, written once in GCC/Clang vector
 * extensions and compiled by each SIMD file with its own flags and width:
 * define FSHA1DC_VBYTES (16 for SSE2 and NEON, 32 for AVX2) and include this
 * in one .c file, which then wraps fsha1dc_simd_filter() (and
 * fsha1dc_simd_filter_rec()) as its filter functions (contract:
 * sha1dc_impl.h).
 *
 * One block per lane. The generated filter (dc/ubc_filter.inc) reads only
 * bytes 0 and 3 of each expanded-message word, so it runs on 16-bit lanes:
 * twice as many blocks per vector as 32-bit lanes, for the same ~790
 * operations. Its input comes either from the blocks themselves (the
 * expanded message worked out in 32-bit lanes, FSHA1DC_VBYTES / 4 blocks a
 * vector, two such groups narrowed into one) or from the records a
 * compression kept (struct fsha1dc_rec: W[32..67] as SHA-NI computed them),
 * which saves the schedule. A file may bring faster loaders of its own
 * (FSHA1DC_HAVE_EXPAND, FSHA1DC_HAVE_LOAD_REC, FSHA1DC_HAVE_NARROW), e.g.
 * loads transposed with shuffles; the ones here gather word by word.
 */

#include <string.h>

#include "sha1dc_impl.h"

#ifndef FSHA1DC_VBYTES
#error "define FSHA1DC_VBYTES (the vector size in bytes) before including sha1dc_simd.h"
#endif

#define FSHA1DC_L32 (FSHA1DC_VBYTES / 4) /* blocks per 32-bit group */
#define FSHA1DC_L16 (FSHA1DC_VBYTES / 2) /* blocks per filter run */

typedef uint32_t fsha1dc_v32 __attribute__((vector_size(FSHA1DC_VBYTES)));
typedef uint16_t fsha1dc_v16 __attribute__((vector_size(FSHA1DC_VBYTES)));

#define FSHA1DC_SIMD_INLINE static inline __attribute__((always_inline))

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

/* A word narrowed to the 16 bits the filter reads: bytes 0 and 3. */
static inline uint16_t fsha1dc_narrow1(uint32_t x)
{
	return (uint16_t)((x & 0xff) | ((x >> 16) & 0xff00));
}

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

/* Two groups' words (blocks 0..L32-1 in @a, the next L32 in @b) narrowed
 * into one vector of 16-bit lanes, lane i holding block i. */
FSHA1DC_SIMD_INLINE fsha1dc_v16 fsha1dc_simd_narrow(fsha1dc_v32 a, fsha1dc_v32 b);
#ifndef FSHA1DC_HAVE_NARROW
#if FSHA1DC_VBYTES == 16
#define FSHA1DC_EVEN(a, b) __builtin_shufflevector(a, b, 0, 2, 4, 6, 8, 10, 12, 14)
#elif FSHA1DC_VBYTES == 32
#define FSHA1DC_EVEN(a, b)                                                                    \
	__builtin_shufflevector(a, b, 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30)
#else
#error "FSHA1DC_VBYTES must be 16 or 32"
#endif
FSHA1DC_SIMD_INLINE fsha1dc_v16 fsha1dc_simd_narrow(fsha1dc_v32 a, fsha1dc_v32 b)
{
	a = (a & 0xff) | ((a >> 16) & 0xff00);
	b = (b & 0xff) | ((b >> 16) & 0xff00);
	return FSHA1DC_EVEN((fsha1dc_v16)a, (fsha1dc_v16)b);
}
#endif

/* W[35..64] of the L16 records at r[0..L16), narrowed, into w[35..64]. */
FSHA1DC_SIMD_INLINE void fsha1dc_simd_load_rec(const struct fsha1dc_rec *const *r,
					       fsha1dc_v16 *w);
#ifndef FSHA1DC_HAVE_LOAD_REC
FSHA1DC_SIMD_INLINE void fsha1dc_simd_load_rec(const struct fsha1dc_rec *const *r,
					       fsha1dc_v16 *w)
{
	for (int t = 35; t < 65; t++) {
		union {
			fsha1dc_v16 v;
			uint16_t u[FSHA1DC_L16];
		} x;
		/* group (t - 32) / 4 holds W[t] at word 3 - t % 4 */
		for (int l = 0; l < FSHA1DC_L16; l++)
			x.u[l] = fsha1dc_narrow1(r[l]->w[((t - 32) & ~3) + 3 - (t & 3)]);
		w[t] = x.v;
	}
}
#endif

/* The generated filter on w[35..64] into m[0..L16). */
FSHA1DC_SIMD_INLINE void fsha1dc_simd_masks(const fsha1dc_v16 *w, uint32_t *m)
{
	fsha1dc_v16 lo, hi;
#define FSHA1DC_V fsha1dc_v16
#include "dc/ubc_filter.inc"
#undef FSHA1DC_V
	union {
		fsha1dc_v16 v;
		uint16_t u[FSHA1DC_L16];
	} l, h;
	l.v = lo;
	h.v = hi;
	for (int i = 0; i < FSHA1DC_L16; i++)
		m[i] = l.u[i] | (uint32_t)h.u[i] << 16;
}

/* The masks of the L16 blocks at p[0..L16) into m[0..L16). */
FSHA1DC_SIMD_INLINE void fsha1dc_simd_run(const uint8_t *const *p, uint32_t *m)
{
	fsha1dc_v32 a[65], b[65];
	fsha1dc_v16 w[65];
	fsha1dc_simd_expand(p, a);
	fsha1dc_simd_expand(p + FSHA1DC_L32, b);
	for (int t = 35; t < 65; t++)
		w[t] = fsha1dc_simd_narrow(a[t], b[t]);
	fsha1dc_simd_masks(w, m);
}

/* The filter over the @n blocks at blocks[0..n) (fsha1dc_filter_fn). A
 * last group of fewer than L16 blocks fills its idle lanes with its first
 * block. */
FSHA1DC_SIMD_INLINE void fsha1dc_simd_filter(const uint8_t *const *blocks, size_t n,
					     uint32_t *masks)
{
	const uint8_t *p[FSHA1DC_L16];
	for (size_t i = 0; i < n; i += FSHA1DC_L16) {
		size_t k = n - i < FSHA1DC_L16 ? n - i : FSHA1DC_L16;
		uint32_t m[FSHA1DC_L16];
		for (size_t l = 0; l < FSHA1DC_L16; l++)
			p[l] = blocks[i + (l < k ? l : 0)];
		fsha1dc_simd_run(p, m);
		memcpy(masks + i, m, k * sizeof(m[0]));
	}
}

/* The filter over @n records (fsha1dc_filter_rec_fn), likewise. */
FSHA1DC_SIMD_INLINE void fsha1dc_simd_filter_rec(const struct fsha1dc_rec *rec, size_t n,
						 uint32_t *masks)
{
	const struct fsha1dc_rec *r[FSHA1DC_L16];
	for (size_t i = 0; i < n; i += FSHA1DC_L16) {
		size_t k = n - i < FSHA1DC_L16 ? n - i : FSHA1DC_L16;
		uint32_t m[FSHA1DC_L16];
		fsha1dc_v16 w[65];
		for (size_t l = 0; l < FSHA1DC_L16; l++)
			r[l] = rec + i + (l < k ? l : 0);
		fsha1dc_simd_load_rec(r, w);
		fsha1dc_simd_masks(w, m);
		memcpy(masks + i, m, k * sizeof(m[0]));
	}
}

#endif
