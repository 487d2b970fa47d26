/* SPDX-License-Identifier: MIT */
#ifndef FSHA_CORE_LANES_AVX512_H
#define FSHA_CORE_LANES_AVX512_H

/*
 * The transposed lane layout of the AVX-512 lane kernels, for every family:
 * sixteen lanes of 32-bit words (SHA-1, SHA-256: zmm register j holds word j
 * of lanes 0..15) and eight lanes of 64-bit words (SHA-512: zmm register j
 * holds 64-bit word j of lanes 0..7). The zmm form of core/lanes_avx2.h.
 * Only for files built with -mavx512f -mavx512bw (cmake/backends.cmake
 * gives the flags to those files alone; vpshufb on zmm is AVX512BW).
 *
 * The transposes are unpacks within 128-bit chunks, then a 4 x 4
 * transpose of the chunks by vshufi32x4/vshufi64x2: 64 shuffles for 16 x
 * 16 words, 24 for 8 x 8 quadwords, a few per lane-block against the
 * hundreds of operations of its rounds.
 */

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define FSHA_X16_INLINE static inline __attribute__((always_inline))

/*
 * 4 x 4 transpose of the 128-bit chunks of a, b, c, d: on return a holds
 * chunk 0 of a, b, c, d (in that order), b chunk 1 of each, c chunk 2, d
 * chunk 3.
 */
FSHA_X16_INLINE void fsha_x16_chunks4(__m512i *a, __m512i *b, __m512i *c, __m512i *d)
{
	__m512i v0 = _mm512_shuffle_i32x4(*a, *b, 0x44); /* a0 a1 b0 b1 */
	__m512i v1 = _mm512_shuffle_i32x4(*a, *b, 0xee); /* a2 a3 b2 b3 */
	__m512i v2 = _mm512_shuffle_i32x4(*c, *d, 0x44); /* c0 c1 d0 d1 */
	__m512i v3 = _mm512_shuffle_i32x4(*c, *d, 0xee); /* c2 c3 d2 d3 */
	*a = _mm512_shuffle_i32x4(v0, v2, 0x88);         /* a0 b0 c0 d0 */
	*b = _mm512_shuffle_i32x4(v0, v2, 0xdd);         /* a1 b1 c1 d1 */
	*c = _mm512_shuffle_i32x4(v1, v3, 0x88);         /* a2 b2 c2 d2 */
	*d = _mm512_shuffle_i32x4(v1, v3, 0xdd);         /* a3 b3 c3 d3 */
}

/* 16 x 16 transpose of 32-bit words: r[i] word j <-> r[j] word i. Its own
 * inverse, so it moves a state in and out as well as the message. */
FSHA_X16_INLINE void fsha_x16_transpose(__m512i r[16])
{
	__m512i t[16], u[16];
	for (int i = 0; i < 16; i += 2) {
		t[i] = _mm512_unpacklo_epi32(r[i], r[i + 1]);
		t[i + 1] = _mm512_unpackhi_epi32(r[i], r[i + 1]);
	}
	/* u[4k + j], chunk c: word 4c + j of rows 4k..4k+3 */
	for (int k = 0; k < 16; k += 4) {
		u[k] = _mm512_unpacklo_epi64(t[k], t[k + 2]);
		u[k + 1] = _mm512_unpackhi_epi64(t[k], t[k + 2]);
		u[k + 2] = _mm512_unpacklo_epi64(t[k + 1], t[k + 3]);
		u[k + 3] = _mm512_unpackhi_epi64(t[k + 1], t[k + 3]);
	}
	for (int j = 0; j < 4; j++) {
		fsha_x16_chunks4(&u[j], &u[4 + j], &u[8 + j], &u[12 + j]);
		/* now u[4c + j] holds word 4c + j of rows 0..15 */
	}
	for (int i = 0; i < 16; i++)
		r[i] = u[i];
}

/*
 * The 64 bytes at data[l] + @off of each lane l, as big-endian words, into
 * w[0..16): w[j] holds word j of every lane. One unaligned load per lane,
 * inside its block; a byte swap; the transpose.
 */
FSHA_X16_INLINE void fsha_x16_load_block(__m512i w[16], const uint8_t *const *data, size_t off)
{
	const __m512i bswap = _mm512_broadcast_i32x4(
		_mm_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12));
	for (int l = 0; l < 16; l++)
		w[l] = _mm512_shuffle_epi8(_mm512_loadu_si512((const void *)(data[l] + off)), bswap);
	fsha_x16_transpose(w);
}

/*
 * 8 x 8 transpose of 64-bit words: r[i] word j <-> r[j] word i; its own
 * inverse. Unpacks leave t[2p + j], chunk c, holding word 2c + j of rows
 * 2p, 2p + 1; the chunk transpose does the rest.
 */
FSHA_X16_INLINE void fsha_x8q_transpose(__m512i r[8])
{
	__m512i t[8];
	for (int i = 0; i < 8; i += 2) {
		t[i] = _mm512_unpacklo_epi64(r[i], r[i + 1]);
		t[i + 1] = _mm512_unpackhi_epi64(r[i], r[i + 1]);
	}
	for (int j = 0; j < 2; j++)
		fsha_x16_chunks4(&t[j], &t[2 + j], &t[4 + j], &t[6 + j]);
	for (int i = 0; i < 8; i++)
		r[i] = t[i];
}

/*
 * The 64 bytes at data[l] + @off of each lane l, as big-endian 64-bit
 * words, into w[0..8): w[j] holds word j of every lane. One unaligned
 * load per lane, inside its block; a byte swap; the transpose.
 */
FSHA_X16_INLINE void fsha_x8q_load_half(__m512i w[8], const uint8_t *const *data, size_t off)
{
	const __m512i bswap = _mm512_broadcast_i32x4(
		_mm_setr_epi8(7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8));
	for (int l = 0; l < 8; l++)
		w[l] = _mm512_shuffle_epi8(_mm512_loadu_si512((const void *)(data[l] + off)), bswap);
	fsha_x8q_transpose(w);
}

/*
 * Defines the row's single-message blocks(): the file's own lanes() with
 * all @L lanes on the same data and the others hashing into scratch
 * copies, so that every single-message test of the row (vectors,
 * streaming, guard pages, > 4 GiB, threads) runs the kernel itself. @L
 * times the work of one stream; the row is never chosen for single
 * messages. @T: the state word type, @W: its words (uint32_t 5 for SHA-1,
 * uint32_t 8 for SHA-256, uint64_t 8 for SHA-512).
 */
#define FSHA_LANES_BLOCKS(L, T, W)                                                            \
	static void blocks(T state[W], const uint8_t *data, size_t nblocks)                   \
	{                                                                                     \
		T st[L][W];                                                                   \
		const uint8_t *p[L];                                                          \
		for (int l = 0; l < (L); l++) {                                               \
			memcpy(st[l], state, sizeof(st[l]));                                  \
			p[l] = data;                                                          \
		}                                                                             \
		lanes(st, p, nblocks);                                                        \
		memcpy(state, st[0], sizeof(st[0]));                                          \
	}

/*
 * PBKDF2's 16-lane chain kernels (fsha_lane_chain_fn; SHA-1's and
 * SHA-256's avx512_x16_chain.c), whose chaining state is @N 32-bit words
 * (5 or 8), all of the kernel but its hash: FSHA_X16_CHAIN_RUN(c, k,
 * iters, N, HASH) loads chains c[0..k) (lanes past k rerun chain 0)
 * transposed, word j of the sixteen lanes in one vector, runs @iters
 * iterations of HASH(inner, u) then HASH(outer, u) (HASH(s, u): U becomes
 * its digest from chaining words s) and the running XOR, and stores U's
 * digest bytes and the XOR of the first k lanes back. A macro, so that
 * each family's HASH is inlined into its own loop. Needs struct
 * fsha_chain (core/family.h).
 */

/* The @n words at each lane's @p[l], byte-swapped when @swap, transposed
 * into r[0..n). */
FSHA_X16_INLINE void fsha_x16_chain_load(const uint8_t *const p[16], int n, int swap, __m512i *r)
{
	const __m512i bswap = _mm512_broadcast_i32x4(
		_mm_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12));
	__m512i t[16];
	for (int l = 0; l < 16; l++) {
		t[l] = _mm512_maskz_loadu_epi32((__mmask16)((1u << n) - 1), (const void *)p[l]);
		if (swap)
			t[l] = _mm512_shuffle_epi8(t[l], bswap);
	}
	fsha_x16_transpose(t);
	for (int j = 0; j < n; j++)
		r[j] = t[j];
}

/* The @n words of U[] (byte-swapped back into digest bytes) and X[] of
 * lanes 0..k) into c[l].u and c[l].acc: rows n..15 of the transpose are
 * zero. */
#define FSHA_X16_CHAIN_STORE(c, k, n, U, X)                                                       \
	do {                                                                                      \
		const __m512i bswap_ = _mm512_broadcast_i32x4(                                    \
			_mm_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12));     \
		__m512i tu_[16], tx_[16];                                                         \
		for (int j_ = 0; j_ < 16; j_++) {                                                 \
			tu_[j_] = j_ < (n) ? (U)[j_] : _mm512_setzero_si512();                    \
			tx_[j_] = j_ < (n) ? (X)[j_] : _mm512_setzero_si512();                    \
		}                                                                                 \
		fsha_x16_transpose(tu_);                                                          \
		fsha_x16_transpose(tx_);                                                          \
		for (size_t l_ = 0; l_ < (k); l_++) {                                             \
			const __mmask16 m_ = (__mmask16)((1u << (n)) - 1);                        \
			_mm512_mask_storeu_epi32((void *)(c)[l_].u, m_,                           \
						 _mm512_shuffle_epi8(tu_[l_], bswap_));           \
			_mm512_mask_storeu_epi32((void *)(c)[l_].acc, m_, tx_[l_]);               \
		}                                                                                 \
	} while (0)

#define FSHA_X16_CHAIN_RUN(c, k, iters, N, HASH)                                                  \
	do {                                                                                      \
		const uint8_t *pi_[16], *po_[16], *pu_[16], *pa_[16];                             \
		__m512i in_[N], out_[N], u_[N], x_[N];                                            \
		for (int l_ = 0; l_ < 16; l_++) {                                                 \
			const struct fsha_chain *q_ = &(c)[l_ < (int)(k) ? l_ : 0];               \
			pi_[l_] = q_->inner;                                                      \
			po_[l_] = q_->outer;                                                      \
			pu_[l_] = q_->u;                                                          \
			pa_[l_] = q_->acc;                                                        \
		}                                                                                 \
		fsha_x16_chain_load(pi_, (N), 0, in_);                                            \
		fsha_x16_chain_load(po_, (N), 0, out_);                                           \
		fsha_x16_chain_load(pu_, (N), 1, u_); /* digest bytes: the words themselves */   \
		fsha_x16_chain_load(pa_, (N), 0, x_);                                             \
		for (uint64_t i_ = (iters); i_; i_--) {                                           \
			HASH(in_, u_);                                                            \
			HASH(out_, u_);                                                           \
			for (int j_ = 0; j_ < (N); j_++)                                          \
				x_[j_] = _mm512_xor_si512(x_[j_], u_[j_]);                        \
		}                                                                                 \
		FSHA_X16_CHAIN_STORE(c, k, (N), u_, x_);                                          \
	} while (0)

#endif
