/* SPDX-License-Identifier: MIT */
/*
 * SHA1DC's filter on narrowed bytes and its deferred rechecks with
 * AVX-512 (F and BW; built with -mavx512f -mavx512bw on this file only):
 * the zmm forms of sha1dc_avx2.c's fsha1dc_filter_rec_avx2() and
 * fsha1dc_recheck_avx2(). Contracts: fsha1dc_filter_rec_fn and
 * fsha1dc_recheck_fn in sha1_impl.h. The avx512_x16 row names them in its
 * SHA1DC parts; the SHA-NI rows reach them through sha1dc_sse2.c's
 * dispatch on CPUs that have AVX-512. Every function here returns with the
 * upper register halves cleared (GCC's vzeroupper at the exit of a
 * function that used them), so the legacy-SSE SHA-NI code that runs next
 * is not slowed.
 *
 * The filter runs 64 records a run, one a byte lane of zmm registers,
 * where the AVX2 filter runs 32: the same generated code
 * (sha1dc_simd.h) at twice the width, with the planes filled from the
 * records as the AVX2 filter fills them (8 records a load, their bytes
 * paired, an 8 x 8 transpose of the pairs within each 128-bit chunk). The
 * recheck runs 16 jobs a vector, where AVX2's runs 8, and each rotate is
 * one vprold where AVX2 needs two shifts and an OR: the recheck's chain is
 * bound by those rotates (docs/benchmarks.md, "AVX-512 lane rows").
 */
#include <immintrin.h>
#include <stddef.h>
#include <string.h>

#define FSHA1DC_VBYTES 64
#define FSHA1DC_MASKS_ONLY 1
#include "../sha1dc_simd.h"
#include "../../core/lanes_avx512.h"
#include "sha1dc_pairs.h"

/*
 * A run's m[0..3] as 32-bit masks. Byte lane i of the planes, in 128-bit
 * chunk c = i / 16 at place p = i % 16, holds record 8 (p / 2) + 2 c + p %
 * 2 (the loads below); the unpacks then leave dword q of chunk c of v[j]
 * on record 16 j + 8 (q / 2) + 2 c + q % 2, which one permute puts in
 * order. The first @k masks to @masks; returns the nonzero ones' bits.
 */
static inline __attribute__((always_inline)) uint64_t pair_masks_512(const __m512i m[4], size_t k,
								     uint32_t *masks)
{
	const __m512i order =
		_mm512_setr_epi32(0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15);
	const __m512i lo01 = _mm512_unpacklo_epi8(m[0], m[1]), hi01 = _mm512_unpackhi_epi8(m[0], m[1]);
	const __m512i lo23 = _mm512_unpacklo_epi8(m[2], m[3]), hi23 = _mm512_unpackhi_epi8(m[2], m[3]);
	__m512i v[4] = { _mm512_unpacklo_epi16(lo01, lo23), _mm512_unpackhi_epi16(lo01, lo23),
			 _mm512_unpacklo_epi16(hi01, hi23), _mm512_unpackhi_epi16(hi01, hi23) };
	uint64_t nonzero = 0;
	for (int j = 0; j < 4; j++) {
		v[j] = _mm512_permutexvar_epi32(order, v[j]);
		nonzero |= (uint64_t)_mm512_test_epi32_mask(v[j], v[j]) << (16 * j);
	}
	if (k == 64) {
		for (int j = 0; j < 4; j++)
			_mm512_storeu_si512((void *)(masks + 16 * j), v[j]);
	} else {
		/* the first k only: the caller's masks[] may end there */
		const __mmask16 all = 0xffff;
		for (int j = 0; j < 4 && 16 * (size_t)j < k; j++) {
			const size_t left = k - 16 * (size_t)j;
			_mm512_mask_storeu_epi32(masks + 16 * j,
						 left >= 16 ? all : (__mmask16)((1u << left) - 1), v[j]);
		}
		nonzero &= UINT64_MAX >> (64 - k);
	}
	return nonzero;
}

/*
 * The filter from the narrowed bytes (nar, sha1_impl.h) of @n records. Up to
 * 32 go to the AVX2 filter (one run of 32, or one block at a time for a
 * few), whose cost does not fall with fewer lanes either; more run here,
 * 64 a run.
 */
uint64_t fsha1dc_filter_rec_avx512(const uint64_t *nar, size_t n, uint32_t *masks)
{
	if (n <= 32)
		return fsha1dc_filter_rec_avx2(nar, n, masks);
	uint64_t flagged = 0;
	const __m512i pair = _mm512_broadcast_i32x4(
		_mm_setr_epi8(0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15));
	for (size_t i0 = 0; i0 < n; i0 += 64) {
		fsha1dc_v16 b0[65], b3[65], m[4];
		/* The run's last loads take only the entries below n
		 * (sha1_impl.h): masked, the lanes past them zero. */
		__mmask8 k8[8];
		for (int j = 0; j < 8; j++) {
			const size_t have = n - i0 > 8 * (size_t)j ? n - i0 - 8 * (size_t)j : 0;
			k8[j] = (__mmask8)(have >= 8 ? 0xff : (1u << have) - 1);
		}
		for (int g = 0; g < 9; g++) {
			const uint64_t *p = nar + FSHA1DC_NAR_STRIDE * g + i0;
			__m512i x[8];
			for (int j = 0; j < 8; j++)
				x[j] = _mm512_shuffle_epi8(
					_mm512_maskz_loadu_epi64(k8[j], (const void *)(p + 8 * j)), pair);
#define NAR_OUT(k, v)                                                                          \
	do {                                                                                   \
		const int w_ = FSHA1DC_PAIR_WORD(g, k);                                        \
		if (w_ >= 35 && w_ <= 64)                                                      \
			*((k) < 4 ? &b0[w_] : &b3[w_]) = (fsha1dc_v16)(v);                     \
	} while (0)
			FSHA1DC_PAIR_TRANSPOSE(__m512i, _mm512, x, NAR_OUT);
#undef NAR_OUT
		}
		fsha1dc_simd_masks(b0, b3, m);
		const __m512i mv[4] = { (__m512i)m[0], (__m512i)m[1], (__m512i)m[2], (__m512i)m[3] };
		const size_t k = n - i0 < 64 ? n - i0 : 64;
		flagged |= pair_masks_512(mv, k, masks + i0) << i0;
	}
	return flagged;
}

/*
 * The deferred recompressions (fsha1dc_recheck_fn), 16 jobs at a time, one
 * a 32-bit lane: as fsha1dc_recheck_avx2(), with the jobs' words 0..31
 * moved in by two 16 x 16 transposes. A last 8 or fewer go to the AVX2
 * one (8 a vector).
 */
typedef uint32_t recheck_v __attribute__((vector_size(64)));
#define RECHECK_ROL(x, n) ((recheck_v)_mm512_rol_epi32((__m512i)(x), (n)))

_Static_assert(offsetof(struct fsha1dc_job, mp) == 64 && offsetof(struct fsha1dc_job, eq) == 128,
	       "the loads below take a job's words 0..31 as two rows of 16");

void fsha1dc_recheck_avx512(struct fsha1dc_job *const *jobs, size_t n)
{
	for (size_t i = 0; i < n; i += 16) {
		const size_t k = n - i < 16 ? n - i : 16;
		if (k <= 8) { /* the rest fits AVX2's vector, which costs less */
			fsha1dc_recheck_avx2(jobs + i, k);
			return;
		}
		struct fsha1dc_job *j[16];
		recheck_v v[2][16];
		for (size_t l = 0; l < 16; l++)
			j[l] = jobs[i + (l < k ? l : 0)];
		for (int q = 0; q < 2; q++) { /* words 16q..16q+15 of the 16 jobs, transposed */
			__m512i c[16];
			for (int l = 0; l < 16; l++)
				c[l] = _mm512_loadu_si512((const void *)((const uint32_t *)j[l] + 16 * q));
			fsha_x16_transpose(c);
			for (int w = 0; w < 16; w++)
				v[q][w] = (recheck_v)c[w];
		}
		recheck_v din = { 0 }, dout = { 0 };
#define RECHECK_J(k) (v[(k) / 16][(k) % 16])
		const __mmask16 m58 =
			_mm512_cmpeq_epi32_mask((__m512i)RECHECK_J(15), _mm512_set1_epi32(58));
#define RECHECK_SEL(x, y) ((recheck_v)_mm512_mask_mov_epi32((__m512i)(y), m58, (__m512i)(x)))
		FSHA1DC_RECHECK_LANES(recheck_v, RECHECK_J, RECHECK_ROL, m58 != 0, RECHECK_SEL, din,
				      dout);
#undef RECHECK_SEL
#undef RECHECK_J
		for (size_t l = 0; l < k; l++)
			j[l]->eq = (dout[l] == 0 ? 1u : 0u) | (din[l] == 0 ? 2u : 0u);
	}
}
