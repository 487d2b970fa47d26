/* SPDX-License-Identifier: MIT */
#ifndef FSHA_CORE_LANES_AVX2_H
#define FSHA_CORE_LANES_AVX2_H

/*
 * The transposed lane layout of the AVX2 lane kernels, for every family:
 * eight lanes of 32-bit words (src/sha1/x86/sha1_avx2_x8.c,
 * src/sha256/x86/sha256_avx2_x8.c), ymm register j holding word j of lanes
 * 0..7, and four lanes of 64-bit words for SHA-512 (fsha_x4q_*, below).
 * Only for files built with -mavx2 (cmake/backends.cmake gives the flag
 * to those files alone).
 */

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* 8 x 8 transpose of 32-bit words: r[i] word j <-> r[j] word i. Its own
 * inverse, so it moves a state in and out as well as the message. */
static inline __attribute__((always_inline)) void fsha_x8_transpose(__m256i r[8])
{
	__m256i t0 = _mm256_unpacklo_epi32(r[0], r[1]), t1 = _mm256_unpackhi_epi32(r[0], r[1]);
	__m256i t2 = _mm256_unpacklo_epi32(r[2], r[3]), t3 = _mm256_unpackhi_epi32(r[2], r[3]);
	__m256i t4 = _mm256_unpacklo_epi32(r[4], r[5]), t5 = _mm256_unpackhi_epi32(r[4], r[5]);
	__m256i t6 = _mm256_unpacklo_epi32(r[6], r[7]), t7 = _mm256_unpackhi_epi32(r[6], r[7]);
	/* u0: words 0 (low half) and 4 (high half) of rows 0..3; u1: 1 and 5; ... */
	__m256i u0 = _mm256_unpacklo_epi64(t0, t2), u1 = _mm256_unpackhi_epi64(t0, t2);
	__m256i u2 = _mm256_unpacklo_epi64(t1, t3), u3 = _mm256_unpackhi_epi64(t1, t3);
	__m256i u4 = _mm256_unpacklo_epi64(t4, t6), u5 = _mm256_unpackhi_epi64(t4, t6);
	__m256i u6 = _mm256_unpacklo_epi64(t5, t7), u7 = _mm256_unpackhi_epi64(t5, t7);

	r[0] = _mm256_permute2x128_si256(u0, u4, 0x20);
	r[1] = _mm256_permute2x128_si256(u1, u5, 0x20);
	r[2] = _mm256_permute2x128_si256(u2, u6, 0x20);
	r[3] = _mm256_permute2x128_si256(u3, u7, 0x20);
	r[4] = _mm256_permute2x128_si256(u0, u4, 0x31);
	r[5] = _mm256_permute2x128_si256(u1, u5, 0x31);
	r[6] = _mm256_permute2x128_si256(u2, u6, 0x31);
	r[7] = _mm256_permute2x128_si256(u3, u7, 0x31);
}

/*
 * The 32 bytes at data[l] + @off of each lane l, as big-endian words, into
 * w[0..8): w[j] holds word j of every lane. One unaligned load per lane,
 * inside its block; a byte swap; the transpose.
 */
static inline __attribute__((always_inline)) void fsha_x8_load_half(__m256i w[8],
								     const uint8_t *const *data,
								     size_t off)
{
	const __m256i bswap = _mm256_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12,
					       3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12);
	for (int l = 0; l < 8; l++)
		w[l] = _mm256_shuffle_epi8(_mm256_loadu_si256((const __m256i *)(data[l] + off)), bswap);
	fsha_x8_transpose(w);
}

/*
 * Defines the row's single-message blocks(): the file's own lanes() with
 * all eight lanes on the same data and lanes 1..7 hashing into scratch
 * copies, so that every single-message test of the row (vectors,
 * streaming, guard pages, > 4 GiB, threads) runs the kernel itself. Eight
 * times the work of one stream; the row is never chosen for single
 * messages. @W: the state's 32-bit words (5 for SHA-1, 8 for SHA-256).
 */
#define FSHA_X8_BLOCKS(W)                                                                    \
	static void blocks(uint32_t state[W], const uint8_t *data, size_t nblocks)          \
	{                                                                                    \
		uint32_t st[8][W];                                                           \
		const uint8_t *p[8];                                                         \
		for (int l = 0; l < 8; l++) {                                                \
			memcpy(st[l], state, sizeof(st[l]));                                 \
			p[l] = data;                                                         \
		}                                                                            \
		lanes(st, p, nblocks);                                                       \
		memcpy(state, st[0], sizeof(st[0]));                                         \
	}

/*
 * The four-lane layout of the 64-bit families (src/sha512/x86/sha512_avx2_x4.c):
 * ymm register j holds 64-bit word j of lanes 0..3.
 *
 * 4 x 4 transpose of 64-bit words: r[i] word j <-> r[j] word i; its own
 * inverse (unpack 64 within 128-bit halves, then vperm2i128 across them).
 */
static inline __attribute__((always_inline)) void fsha_x4q_transpose(__m256i r[4])
{
	__m256i t0 = _mm256_unpacklo_epi64(r[0], r[1]), t1 = _mm256_unpackhi_epi64(r[0], r[1]);
	__m256i t2 = _mm256_unpacklo_epi64(r[2], r[3]), t3 = _mm256_unpackhi_epi64(r[2], r[3]);

	r[0] = _mm256_permute2x128_si256(t0, t2, 0x20);
	r[1] = _mm256_permute2x128_si256(t1, t3, 0x20);
	r[2] = _mm256_permute2x128_si256(t0, t2, 0x31);
	r[3] = _mm256_permute2x128_si256(t1, t3, 0x31);
}

/*
 * The 32 bytes at data[l] + @off of each lane l, as big-endian 64-bit
 * words, into w[0..4): w[j] holds word j of every lane. One unaligned load
 * per lane, inside its block; a byte swap; the transpose.
 */
static inline __attribute__((always_inline)) void fsha_x4q_load_quarter(__m256i w[4],
									 const uint8_t *const *data,
									 size_t off)
{
	const __m256i bswap = _mm256_setr_epi8(7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8,
					       7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8);
	for (int l = 0; l < 4; l++)
		w[l] = _mm256_shuffle_epi8(_mm256_loadu_si256((const __m256i *)(data[l] + off)), bswap);
	fsha_x4q_transpose(w);
}

#endif
