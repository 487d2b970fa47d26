/* SPDX-License-Identifier: MIT */
/*
 * SHA1DC's filter with AVX2: 32 blocks a run, one a byte lane of ymm
 * registers (sha1dc_simd.h), on message blocks or on the bytes SHA-NI
 * kept of their schedules; a few blocks one at a time instead, the 32 DVs
 * in the byte lanes (bydv_mask() below). Also the deferred rechecks, 8 jobs
 * a vector. Needs AVX2; built with -mavx2 on this file only. Contract:
 * fsha1dc_filter_fn and fsha1dc_filter_rec_fn in sha1_impl.h. The rows
 * whose CPU bits include AVX2 (avx2, avx2_x8) name these functions in their
 * own SHA1DC parts, beside their loops that keep records; the other x86
 * rows reach them through sha1dc_sse2.c's dispatch on CPUs that have AVX2.
 * Every function here returns with the upper halves of the ymm registers
 * cleared (GCC's vzeroupper at the exit of a function that used them), so
 * the legacy-SSE SHA-NI code that runs next is not slowed.
 *
 * Words reach the lanes by whole-block loads and the 8 x 8
 * transpose of 32-bit words the AVX2 lane kernels use (core/lanes_avx2.h),
 * instead of the generic code's word-by-word gather, whose narrow stores
 * the vector loads could not take from the store buffer; four groups of 8
 * blocks are narrowed to the byte planes by a byte shuffle each and four
 * unpacks, which leave the blocks in the lanes in the order
 * FSHA1DC_LANE_BLOCK gives.
 */
#include <immintrin.h>
#include <stddef.h>

#define FSHA1DC_VBYTES 32
#define FSHA1DC_HAVE_EXPAND 1
#define FSHA1DC_HAVE_NARROW 1
/* Byte lane i holds block 8 * (i % 16 / 4) + 4 * (i / 16) + i % 4: the
 * low 128-bit half has blocks 0..3 of each group of 8, the high half 4..7
 * (fsha1dc_simd_narrow() below). */
#define FSHA1DC_HAVE_STORE 1
#define FSHA1DC_LANE_BLOCK(i) (8 * ((i) % 16 / 4) + 4 * ((i) / 16) + (i) % 4)
#include "../sha1dc_simd.h"
#include "../../core/lanes_avx2.h"
#include "sha1dc_pairs.h"

FSHA1DC_SIMD_INLINE void fsha1dc_simd_expand(const uint8_t *const *p, fsha1dc_v32 *w)
{
	fsha1dc_v32 x[16];
	for (int half = 0; half < 2; half++) {
		__m256i c[8];
		fsha_x8_load_half(c, p, 32 * (size_t)half); /* the lane kernels' loader */
		for (int j = 0; j < 8; j++)
			x[8 * half + j] = (fsha1dc_v32)c[j];
	}
	FSHA1DC_SIMD_SCHEDULE(x, w);
}

FSHA1DC_SIMD_INLINE void fsha1dc_simd_narrow(fsha1dc_v32 a, fsha1dc_v32 b, fsha1dc_v32 c,
					     fsha1dc_v32 d, fsha1dc_v16 *b0, fsha1dc_v16 *b3)
{
	/* In each 128-bit half: bytes 0 of its four words to bytes 0..3,
	 * bytes 3 to bytes 4..7. Then per half: a:b interleaved by words,
	 * c:d likewise, and the two by quadwords: a's four blocks' bytes 0,
	 * b's, c's, d's (b0), and the same of bytes 3 (b3). */
	const __m256i pick = _mm256_set_epi8(-1, -1, -1, -1, -1, -1, -1, -1, 15, 11, 7, 3, 12, 8, 4, 0,
					     -1, -1, -1, -1, -1, -1, -1, -1, 15, 11, 7, 3, 12, 8, 4, 0);
	const __m256i ab = _mm256_unpacklo_epi32(_mm256_shuffle_epi8((__m256i)a, pick),
						 _mm256_shuffle_epi8((__m256i)b, pick));
	const __m256i cd = _mm256_unpacklo_epi32(_mm256_shuffle_epi8((__m256i)c, pick),
						 _mm256_shuffle_epi8((__m256i)d, pick));
	*b0 = (fsha1dc_v16)_mm256_unpacklo_epi64(ab, cd);
	*b3 = (fsha1dc_v16)_mm256_unpackhi_epi64(ab, cd);
}

FSHA1DC_SIMD_INLINE void fsha1dc_simd_store(const fsha1dc_v16 m[4], size_t k, uint32_t *masks)
{
	/* Bytes to 32-bit masks by unpacks, which stay within 128-bit halves:
	 * the low half's lanes 0..3 and the high half's 16..19 land in one
	 * vector, and they hold blocks 0..7 (FSHA1DC_LANE_BLOCK), and so on:
	 * the four vectors are the 32 masks in block order. */
	const __m256i m0 = (__m256i)m[0], m1 = (__m256i)m[1], m2 = (__m256i)m[2], m3 = (__m256i)m[3];
	const __m256i lo01 = _mm256_unpacklo_epi8(m0, m1), hi01 = _mm256_unpackhi_epi8(m0, m1);
	const __m256i lo23 = _mm256_unpacklo_epi8(m2, m3), hi23 = _mm256_unpackhi_epi8(m2, m3);
	__m256i v[4] = { _mm256_unpacklo_epi16(lo01, lo23), _mm256_unpackhi_epi16(lo01, lo23),
			 _mm256_unpacklo_epi16(hi01, hi23), _mm256_unpackhi_epi16(hi01, hi23) };
	if (k >= 32) {
		for (int j = 0; j < 4; j++)
			_mm256_storeu_si256((__m256i *)(masks + 8 * j), v[j]);
	} else {
		memcpy(masks, v, k * sizeof(uint32_t));
	}
}

/*
 * The filter for one block at a time, with the 32 DVs in the byte lanes of
 * a vector (dc/ubc_bydv.inc): about 230 instructions a block from its
 * narrowed bytes, where a run of the filter below costs the same for 1
 * block as for 32 (from records ~1,200 instructions, 165-170 ns on Zen 3;
 * from blocks, schedules included, several times that). So a few blocks (a
 * short message, the padding after a long one, a stream's block-at-a-time
 * updates) take this one.
 */
typedef uint8_t bydv_v __attribute__((vector_size(32)));
#define FSHA1DC_BYDV_T bydv_v
#include "../dc/ubc_bydv.inc"
#undef FSHA1DC_BYDV_T

/* The masks from the block's narrowed bytes as five tables T[t], the
 * qwords 2t and 2t + 1 of the nine (sha1_impl.h, nar) in both 128-bit
 * halves (byte shuffles look up within a half). */
FSHA1DC_SIMD_INLINE uint32_t bydv_mask(bydv_v T[5])
{
	bydv_v a_, b_, f = { 0 };
#define FSHA1DC_PICK(t, r) ((bydv_v)_mm256_shuffle_epi8((__m256i)T[t], (__m256i)fsha1dc_bydv_k[r]))
#define FSHA1DC_TEST(x, m, e) ((bydv_v)(((x) & fsha1dc_bydv_k[m]) == fsha1dc_bydv_k[e]))
#define FSHA1DC_TESTZ(x, m) ((bydv_v)(((x) & fsha1dc_bydv_k[m]) == 0))
	/* After each slot, the tables "change" as a function of f, which
	 * holds the slot's result: so no lookup moves above the slots before
	 * it (GCC hoisted all 72 to the top and spilled most of them). */
#define FSHA1DC_BYDV_FENCE()                                                                   \
	__asm__("" : "+x"(T[0]), "+x"(T[1]), "+x"(T[2]), "+x"(T[3]), "+x"(T[4]), "+x"(f))
	FSHA1DC_BYDV_FAIL(f);
#undef FSHA1DC_BYDV_FENCE
#undef FSHA1DC_PICK
#undef FSHA1DC_TEST
#undef FSHA1DC_TESTZ
	return ~(uint32_t)_mm256_movemask_epi8((__m256i)f);
}

/* The mask of the block whose narrowed bytes start at @nar (stride
 * FSHA1DC_NAR_STRIDE). */
FSHA1DC_SIMD_INLINE uint32_t bydv_mask_nar(const uint64_t *nar)
{
	const int64_t *q = (const int64_t *)nar;
	const long long S = FSHA1DC_NAR_STRIDE;
	bydv_v T[5];
	for (int t = 0; t < 4; t++)
		T[t] = (bydv_v)_mm256_blend_epi32(_mm256_set1_epi64x(q[S * 2 * t]),
						  _mm256_set1_epi64x(q[S * (2 * t + 1)]), 0xcc);
	T[4] = (bydv_v)_mm256_set1_epi64x(q[S * 8]);
	return bydv_mask(T);
}

/* The mask of the 64-byte block at @p: its schedule to W[67] four words a
 * vector, then the narrowed bytes of W[32..67] by one shuffle a vector.
 * The schedule is a chain of dependent vectors, so its latency is what
 * counts: W[16..31] by the definition (W[t + 3] waits on W[t], so that lane
 * is finished after the rest), W[32..67] by the equivalent W[t] =
 * rol2(W[t-6] ^ W[t-16] ^ W[t-28] ^ W[t-32]) (the definition applied to
 * each of its four terms), whose nearest term is 6 words back: no lane
 * waits on its own vector, half the chain. */
FSHA1DC_SIMD_INLINE uint32_t bydv_mask_block(const uint8_t *p)
{
	const __m128i bswap = _mm_set_epi8(12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3);
	const __m128i narrow = _mm_set_epi8(-1, -1, -1, -1, -1, -1, -1, -1, 3, 7, 11, 15, 0, 4, 8, 12);
	__m128i w[17], n[9]; /* w[k]: W[4k..4k+3] */
	for (int k = 0; k < 4; k++)
		w[k] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16 * k)), bswap);
	for (int k = 4; k < 8; k++) {
		const __m128i x = _mm_xor_si128(
			_mm_xor_si128(w[k - 4], _mm_alignr_epi8(w[k - 3], w[k - 4], 8)),
			_mm_xor_si128(w[k - 2], _mm_srli_si128(w[k - 1], 4)));
		const __m128i r = _mm_or_si128(_mm_slli_epi32(x, 1), _mm_srli_epi32(x, 31));
		const __m128i fix = _mm_slli_si128(r, 12); /* lane 3's missing W[t]: lane 0 */
		w[k] = _mm_xor_si128(r, _mm_or_si128(_mm_slli_epi32(fix, 1), _mm_srli_epi32(fix, 31)));
	}
	for (int k = 8; k < 17; k++) {
		const __m128i x = _mm_xor_si128(_mm_xor_si128(w[k - 8], w[k - 7]),
						_mm_xor_si128(w[k - 4], _mm_alignr_epi8(w[k - 1], w[k - 2], 8)));
		w[k] = _mm_or_si128(_mm_slli_epi32(x, 2), _mm_srli_epi32(x, 30));
	}
	for (int g = 0; g < 9; g++)
		n[g] = _mm_shuffle_epi8(w[8 + g], narrow);
	bydv_v T[5];
	for (int t = 0; t < 4; t++)
		T[t] = (bydv_v)_mm256_broadcastsi128_si256(_mm_unpacklo_epi64(n[2 * t], n[2 * t + 1]));
	T[4] = (bydv_v)_mm256_broadcastsi128_si256(n[8]);
	return bydv_mask(T);
}

/* Up to this many blocks take bydv_mask_nar() one by one: 22 ns a block,
 * a run of the filter on records 165-170 ns when runs follow each other
 * (Zen 3), but about 400 ns right after the SHA-NI blocks it filters (its
 * 8 KB of code fetched again, most likely), as in a one-shot: there 8-10
 * blocks one by one measured 1.17-1.19x a run, 11 and 12 blocks 1.01-1.04x. */
#define BYDV_MAX 10
/* And up to this many bydv_mask_block(): 46-48 ns a block, a run of the
 * filter on blocks 410-520 ns (one-shots of 9-14 blocks on the AVX2 row
 * measured the same either way). */
#define BYDV_MAX_BLOCKS 8

/* Out of line, so that the runs below keep the code they had before it
 * (inlined there, it changed their prologue and register use). */
__attribute__((noinline)) static uint64_t filter_rec_few(const uint64_t *nar, size_t n,
							 uint32_t *masks)
{
	uint64_t flagged = 0;
	for (size_t i = 0; i < n; i++) {
		masks[i] = bydv_mask_nar(nar + i);
		flagged |= (uint64_t)(masks[i] != 0) << i;
	}
	return flagged;
}

__attribute__((noinline)) static void filter_few(const uint8_t *const *blocks, size_t n,
						 uint32_t *masks)
{
	for (size_t i = 0; i < n; i++)
		masks[i] = bydv_mask_block(blocks[i]);
}

void fsha1dc_filter_avx2(const uint8_t *const *blocks, size_t n, uint32_t *masks)
{
	if (n <= BYDV_MAX_BLOCKS) {
		filter_few(blocks, n, masks);
		return;
	}
	fsha1dc_simd_filter(blocks, n, masks);
}

/* Entries @p[0..3] as one load, but with only the first @have (any
 * number) read and the lanes past them zero: a vector run's last loads,
 * whose entries past the records' the compression never wrote (a masked
 * load does not access the lanes its mask leaves out). */
static inline __m256i nar_load4(const uint64_t *p, size_t have)
{
	static const int64_t ramp[8] = { -1, -1, -1, -1, 0, 0, 0, 0 };
	if (have >= 4)
		return _mm256_loadu_si256((const __m256i *)p);
	if (!have)
		return _mm256_setzero_si256();
	return _mm256_maskload_epi64((const long long *)p,
				     _mm256_loadu_si256((const __m256i *)(ramp + 4 - have)));
}

/*
 * The filter from the narrowed bytes a compression kept (nar, sha1_impl.h):
 * per group of four words, 8 loads of 4 records' 8 bytes, a shuffle that
 * pairs each byte of the two records in a 128-bit half, and an 8 x 8
 * transpose of those pairs within the halves: byte lane i < 16 holds record
 * 4 (i / 2) + i % 2, lane i >= 16 record 4 ((i - 16) / 2) + 2 + i % 2. About
 * 45 instructions a group of 32 records, against the 8 x 8 word transposes
 * of whole records.
 */
uint64_t fsha1dc_filter_rec_avx2(const uint64_t *nar, size_t n, uint32_t *masks)
{
	if (n <= BYDV_MAX)
		return filter_rec_few(nar, n, masks);
	uint64_t flagged = 0;
	const __m256i pair = _mm256_set_epi8(15, 7, 14, 6, 13, 5, 12, 4, 11, 3, 10, 2, 9, 1, 8, 0,
					     15, 7, 14, 6, 13, 5, 12, 4, 11, 3, 10, 2, 9, 1, 8, 0);
	for (size_t i0 = 0; i0 < n; i0 += 32) {
		fsha1dc_v16 b0[65], b3[65], m[4];
		const size_t left = n - i0;
		for (int g = 0; g < 9; g++) {
			const uint64_t *p = nar + FSHA1DC_NAR_STRIDE * g + i0;
			__m256i x[8];
			if (left >= 32)
				for (int j = 0; j < 8; j++)
					x[j] = _mm256_loadu_si256((const __m256i *)(p + 4 * j));
			else
				for (size_t j = 0; j < 8; j++)
					x[j] = nar_load4(p + 4 * j, left > 4 * j ? left - 4 * j : 0);
			for (int j = 0; j < 8; j++)
				x[j] = _mm256_shuffle_epi8(x[j], pair);
#define NAR_OUT(k, v)                                                                          \
	do {                                                                                   \
		const int w_ = FSHA1DC_PAIR_WORD(g, k);                                        \
		if (w_ >= 35 && w_ <= 64)                                                      \
			*((k) < 4 ? &b0[w_] : &b3[w_]) = (fsha1dc_v16)(v);                     \
	} while (0)
			FSHA1DC_PAIR_TRANSPOSE(__m256i, _mm256, x, NAR_OUT);
#undef NAR_OUT
		}
		fsha1dc_simd_masks(b0, b3, m);
		const __m256i mv[4] = { (__m256i)m[0], (__m256i)m[1], (__m256i)m[2], (__m256i)m[3] };
		const size_t k = n - i0 < 32 ? n - i0 : 32;
		flagged |= (uint64_t)fsha1dc_pair_masks_256(mv, k, masks + i0) << i0;
	}
	return flagged;
}



/*
 * The deferred recompressions (fsha1dc_recheck_fn), 8 jobs at a time, one a
 * 32-bit lane: the partner's message expanded from its 16 words, then the
 * same steps as the scalar check (FSHA1DC_RECOMPRESS) on vectors. The
 * backward chain is bound by its latency, so 8 lanes cost about what one
 * scalar recompression does.
 */
typedef uint32_t recheck_v __attribute__((vector_size(32)));
#define RECHECK_ROL(x, n) (((x) << (n)) | ((x) >> (32 - (n))))

_Static_assert(offsetof(struct fsha1dc_job, mp) == 64 && offsetof(struct fsha1dc_job, eq) == 128,
	       "the loads below take a job's words 0..31 as four rows of 8");

void fsha1dc_recheck_avx2(struct fsha1dc_job *const *jobs, size_t n)
{
	for (size_t i = 0; i < n; i += 8) {
		const size_t k = n - i < 8 ? n - i : 8;
		if (k == 1) { /* one job: the scalar recheck costs less (Zen 4: 121 against 160 ns) */
			fsha1dc_recheck_portable(jobs + i, 1);
			return;
		}
		struct fsha1dc_job *j[8];
		recheck_v v[4][8];
		for (size_t l = 0; l < 8; l++)
			j[l] = jobs[i + (l < k ? l : 0)];
		for (int q = 0; q < 4; q++) { /* words 8q..8q+7 of the 8 jobs, transposed */
			__m256i c[8];
			for (int l = 0; l < 8; l++)
				c[l] = _mm256_loadu_si256((const __m256i *)((const uint32_t *)j[l] + 8 * q));
			fsha_x8_transpose(c);
			for (int w = 0; w < 8; w++)
				v[q][w] = (recheck_v)c[w];
		}
		recheck_v din = { 0 }, dout = { 0 };
#define RECHECK_J(k) (v[(k) / 8][(k) % 8])
		/* all ones in the lanes of test step 58 */
		const recheck_v m58 = (recheck_v)(RECHECK_J(15) == 58);
		int any58 = 0;
		for (size_t l = 0; l < k; l++)
			any58 |= j[l]->testt == 58;
#define RECHECK_SEL(x, y) ((y) ^ (((x) ^ (y)) & m58))
		FSHA1DC_RECHECK_LANES(recheck_v, RECHECK_J, RECHECK_ROL, any58, RECHECK_SEL, din, dout);
#undef RECHECK_SEL
#undef RECHECK_J
		for (size_t l = 0; l < k; l++)
			j[l]->eq = (dout[l] == 0 ? 1u : 0u) | (din[l] == 0 ? 2u : 0u);
	}
}
