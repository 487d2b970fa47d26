/* SPDX-License-Identifier: MIT */
#ifndef FSHA1DC_SIMD_H
#define FSHA1DC_SIMD_H

/*
 * SHA1DC's filter on SIMD vectors, written once in GCC/Clang vector
 * extensions and compiled by each SIMD file with its own flags and width:
 * define FSHA1DC_VBYTES (16 for SSE2 and NEON, 32 for AVX2) and include this
 * in one .c file, which then wraps fsha1dc_simd_filter() as its
 * fsha1dc_filter_fn (contract: sha1dc_impl.h).
 *
 * One block per lane. The expanded message is computed in 32-bit lanes
 * (FSHA1DC_VBYTES / 4 blocks a vector), already rotated left by 4 as the
 * generated filter wants (the message recurrence commutes with rotation, so
 * only the 16 input words are rotated); then the words 35..64 of two such
 * groups are narrowed to 16-bit lanes, which keep every bit the filter reads
 * (bits 0..11 of the rotated word), and the generated filter
 * (dc/ubc_filter.inc) runs once for twice as many blocks. The filter is
 * about 790 vector operations, so a lane of 16 bits halves its cost per
 * block against 32-bit lanes.
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

/* From x[0..15], the rotated message words, the rest of the schedule up to
 * W[64], kept from W[35] on in w[]: written out step by step (a loop over
 * t left GCC indexing the window through memory). */
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

/* The even 16-bit elements of (a, b): the low halves of a's 32-bit lanes,
 * then b's. */
#if FSHA1DC_VBYTES == 16
#define FSHA1DC_EVEN(a, b) __builtin_shufflevector(a, b, 0, 2, 4, 6, 8, 10, 12, 14)
#elif FSHA1DC_VBYTES == 32
#define FSHA1DC_EVEN(a, b)                                                                    \
	__builtin_shufflevector(a, b, 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30)
#else
#error "FSHA1DC_VBYTES must be 16 or 32"
#endif

/* W[35..64], rotated left by 4, of the blocks at p[0..L32) into w[35..64].
 * A file may bring its own (FSHA1DC_HAVE_EXPAND, e.g. loads transposed with
 * shuffles); this one gathers the words lane by lane. */
static inline __attribute__((always_inline)) void
fsha1dc_simd_expand(const uint8_t *const *p, fsha1dc_v32 *w);
#ifndef FSHA1DC_HAVE_EXPAND
static inline __attribute__((always_inline)) void
fsha1dc_simd_expand(const uint8_t *const *p, fsha1dc_v32 *w)
{
	fsha1dc_v32 x[16];
	for (int t = 0; t < 16; t++) {
		union {
			fsha1dc_v32 v;
			uint32_t u[FSHA1DC_L32];
		} in;
		for (int l = 0; l < FSHA1DC_L32; l++)
			in.u[l] = fsha_load_be32(p[l] + 4 * t);
		x[t] = (in.v << 4) | (in.v >> 28);
	}
	FSHA1DC_SIMD_SCHEDULE(x, w);
}
#endif

/* The masks of the L16 blocks at p[0..L16) into m[0..L16). */
static inline __attribute__((always_inline)) void
fsha1dc_simd_run(const uint8_t *const *p, uint32_t *m)
{
	fsha1dc_v32 a[65], b[65];
	fsha1dc_v16 w[65], lo, hi;
	fsha1dc_simd_expand(p, a);
	fsha1dc_simd_expand(p + FSHA1DC_L32, b);
	for (int t = 35; t < 65; t++)
		w[t] = FSHA1DC_EVEN((fsha1dc_v16)a[t], (fsha1dc_v16)b[t]);
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

/* The filter over @n blocks at @data (fsha1dc_filter_fn). A last group of
 * fewer than L16 blocks fills its idle lanes with its first block. */
static inline __attribute__((always_inline)) void
fsha1dc_simd_filter(const uint8_t *data, size_t n, uint32_t *masks)
{
	const uint8_t *p[FSHA1DC_L16];
	for (size_t i = 0; i < n; i += FSHA1DC_L16) {
		size_t k = n - i < FSHA1DC_L16 ? n - i : FSHA1DC_L16;
		for (size_t l = 0; l < FSHA1DC_L16; l++)
			p[l] = data + 64 * (i + (l < k ? l : 0));
		if (k == FSHA1DC_L16) {
			fsha1dc_simd_run(p, masks + i);
		} else {
			uint32_t m[FSHA1DC_L16];
			fsha1dc_simd_run(p, m);
			memcpy(masks + i, m, k * sizeof(m[0]));
		}
	}
}

#endif
