/* SPDX-License-Identifier: MIT */
#ifndef FSHA1DC_X86_PAIRS_H
#define FSHA1DC_X86_PAIRS_H

/*
 * SHA1DC's narrowed bytes into byte planes (sha1_impl.h, nar): each
 * 128-bit lane of x[0..7] holds two records' eight bytes, already shuffled
 * so that byte k of both sits in 16-bit pair k. The 8 x 8 transpose of
 * those pairs within each 128-bit lane gives, for each k, one vector of
 * byte k of all the records, handed to OUT(k, v). T is the vector type and
 * P the intrinsics' prefix (__m128i and _mm for the SSE pipeline in
 * sha1_shani.c, __m256i and _mm256 for the AVX2 filter in sha1dc_avx2.c),
 * so the sequence is written once for both widths.
 */
#define FSHA1DC_PAIR_TRANSPOSE(T, P, x, OUT)                                                   \
	do {                                                                                   \
		T t_[8], u_[8];                                                                \
		for (int j_ = 0; j_ < 4; j_++) {                                               \
			t_[2 * j_] = P##_unpacklo_epi16(x[2 * j_], x[2 * j_ + 1]);              \
			t_[2 * j_ + 1] = P##_unpackhi_epi16(x[2 * j_], x[2 * j_ + 1]);          \
		}                                                                              \
		for (int j_ = 0; j_ < 2; j_++) {                                               \
			u_[4 * j_] = P##_unpacklo_epi32(t_[4 * j_], t_[4 * j_ + 2]);            \
			u_[4 * j_ + 1] = P##_unpackhi_epi32(t_[4 * j_], t_[4 * j_ + 2]);        \
			u_[4 * j_ + 2] = P##_unpacklo_epi32(t_[4 * j_ + 1], t_[4 * j_ + 3]);    \
			u_[4 * j_ + 3] = P##_unpackhi_epi32(t_[4 * j_ + 1], t_[4 * j_ + 3]);    \
		}                                                                              \
		for (int k_ = 0; k_ < 8; k_++)                                                 \
			OUT(k_, ((k_ & 1) ? P##_unpackhi_epi64(u_[k_ >> 1], u_[4 + (k_ >> 1)])   \
					  : P##_unpacklo_epi64(u_[k_ >> 1], u_[4 + (k_ >> 1)]))); \
	} while (0)

/* The word whose byte 0 (k < 4) or byte 3 (k >= 4) is byte k of group g's
 * eight (sha1_impl.h, nar): W[35 + 4g - k % 4]. */
#define FSHA1DC_PAIR_WORD(g, k) (35 + 4 * (g) - ((k) & 3))

#endif
