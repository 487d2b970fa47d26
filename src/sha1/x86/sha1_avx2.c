/* SPDX-License-Identifier: MIT */
/*
 * avx2: SHA-1 with the message schedules of two consecutive blocks computed
 * together, one block per 128-bit half of a ymm register, and the rounds in
 * scalar code.
 * CPU features: AVX2 (256-bit integer ops; vpshufb, vpalignr and the byte
 * shifts work per 128-bit lane, which is exactly one block per lane), BMI1
 * and BMI2 (andn and rorx in the scalar rounds, as in sha1_avx.c). Its row
 * requires all three (Intel and AMD CPUs with AVX2 have both BMI sets; a
 * VM that hides BMI gets the ssse3 backend).
 * Contract: src/sha1/sha1_impl.h (whole blocks, nblocks >= 1, any alignment,
 * reads only [data, data + 64*nblocks)).
 *
 * Technique: the schedule of sha1_x86_sched.h (gaudet's fix-up for W16..31,
 * seed 001; Locktyukhin's rol-2 recurrence for W32..79, seed 000) on ymm
 * registers, which halves the SIMD work per block; this is the answer to the
 * "can ymm registers be used" question at the end of seed 000. During block
 * A's rounds the schedule of both blocks runs sixteen rounds ahead of A's
 * use, storing W+K for A (low lane) and B (high lane) into one stack array;
 * block B's rounds then read their half ready-made, and its last sixteen
 * rounds load and byte-swap the next pair's first sixteen words. Each block
 * is loaded with its own 128-bit load; a missing second block (odd count) or
 * a missing next pair reuses a block already in the input, so no load ever
 * crosses the end. A call for one block takes the 128-bit kernel instead.
 */
#include "sha1_x86_sched.h"

#define FSHA1_ROL256(x, n) \
	_mm256_or_si256(_mm256_slli_epi32((x), (n)), _mm256_srli_epi32((x), 32 - (n)))

/*
 * Step v 0..19 of a pair's schedule: W[4v..4v+3] of block A (low lane) and
 * block B (high lane) into w[v & 7], W+K into wk[8v..8v+7] (A's four words,
 * then B's). The recurrences are those of FSHA1_SCHED128.
 */
#define FSHA1_SCHED256(v, pa, pb)                                                              \
	do {                                                                                   \
		__m256i x_;                                                                    \
		if ((v) < 4) {                                                                 \
			x_ = _mm256_inserti128_si256(                                          \
				_mm256_castsi128_si256(                                        \
					_mm_loadu_si128((const __m128i *)((pa) + 16 * (v)))),  \
				_mm_loadu_si128((const __m128i *)((pb) + 16 * (v))), 1);       \
			x_ = _mm256_shuffle_epi8(x_, _mm256_load_si256((const __m256i *)fsha1_x86_bswap)); \
		} else if ((v) >= 8) {                                                         \
			x_ = _mm256_xor_si256(w[(v) & 7], w[((v) - 7) & 7]);                   \
			x_ = _mm256_xor_si256(x_, w[((v) - 4) & 7]);                           \
			x_ = _mm256_xor_si256(                                                 \
				x_, _mm256_alignr_epi8(w[((v) - 1) & 7], w[((v) - 2) & 7], 8)); \
			x_ = FSHA1_ROL256(x_, 2);                                              \
		} else {                                                                       \
			__m256i f_;                                                            \
			x_ = _mm256_xor_si256(w[((v) - 4) & 7], w[((v) - 2) & 7]);             \
			x_ = _mm256_xor_si256(                                                 \
				x_, _mm256_alignr_epi8(w[((v) - 3) & 7], w[((v) - 4) & 7], 8)); \
			x_ = _mm256_xor_si256(x_, _mm256_srli_si256(w[((v) - 1) & 7], 4));    \
			f_ = _mm256_slli_si256(x_, 12);                                        \
			x_ = _mm256_xor_si256(FSHA1_ROL256(x_, 1), FSHA1_ROL256(f_, 2));       \
		}                                                                              \
		w[(v) & 7] = x_;                                                               \
		_mm256_store_si256((__m256i *)&wk[8 * (v)],                                    \
				   _mm256_add_epi32(x_, _mm256_load_si256(                     \
							(const __m256i *)FSHA1_KV(v))));     \
		FSHA1_OPAQUE(wk);                                                              \
	} while (0)

/* W+K of round i of block A (low lane) and B (high lane). */
#define FSHA1_WK_A(i) (wk[8 * ((i) / 4) + (i) % 4])
#define FSHA1_WK_B(i) (wk[8 * ((i) / 4) + 4 + (i) % 4])

/*
 * SHA1DC's records (blocks_rec() below; the captures are sha1_x86_sched.h's
 * FSHA1_DC_*). NAR(v): bytes 0 and 3 of W[4v..4v+3] (v 8..16, group v - 8)
 * of block A, and of B when the pair has one, by one vpshufb of the step's
 * vector.
 */
#define NAR(v)                                                                                 \
	do {                                                                                   \
		if (nar && (v) >= 8 && (v) <= 16) {                                            \
			const __m256i n_ = _mm256_shuffle_epi8(w[(v) & 7], narrow);            \
			_mm_storel_epi64((__m128i *)(nar + FSHA1DC_NAR_STRIDE * ((v) - 8)),    \
					 _mm256_castsi256_si128(n_));                          \
			if (has_b)                                                             \
				_mm_storel_epi64(                                              \
					(__m128i *)(nar + FSHA1DC_NAR_STRIDE * ((v) - 8) + 1), \
					_mm256_extracti128_si256(n_, 1));                      \
		}                                                                              \
	} while (0)

/*
 * Block A's rounds 0..63 compute steps 4..19, each sixteen rounds before A
 * reads it (B reads it later still). Block B's rounds 64..79 load the next
 * pair into steps 0..3, whose slots B read in its rounds 0..15. The
 * records' captures sit at the hooks before rounds 56 and 64, where
 * FSHA1_20 has the state in (e, a, b, c, d) and (b, c, d, e, a).
 */
#define FSHA1_HOOK_A(r)                                          \
	do {                                                     \
		if ((r) < 64) {                                  \
			FSHA1_SCHED256((r) / 4 + 4, data, data); \
			NAR((r) / 4 + 4);                        \
		}                                                \
		if (rec)                                         \
			FSHA1_DC_HOOK_CAP(rec, (r), FSHA1_WK_A); \
	} while (0)
#define FSHA1_HOOK_B(r)                                              \
	do {                                                         \
		if (rec)                                             \
			FSHA1_DC_HOOK_CAP(rec + 1, (r), FSHA1_WK_B); \
		if ((r) >= 64)                                       \
			FSHA1_SCHED256(((r) - 64) / 4, na, nb);       \
	} while (0)

/*
 * The loop of blocks() and, with @rec and @nar, of SHA1DC's blocks_rec():
 * inlined into each, so the plain loop carries none of the records' code.
 */
static inline __attribute__((always_inline)) void
run(uint32_t state[5], const uint8_t *data, size_t nblocks, struct fsha1dc_rec *rec, uint64_t *nar)
{
	__m256i w[8];
	uint32_t wk[160] __attribute__((aligned(32)));
	const uint8_t *na, *nb;
	uint32_t a = state[0], b = state[1], c = state[2], d = state[3], e = state[4];
	uint32_t h[5] = { a, b, c, d, e };
	const __m256i narrow = _mm256_set_epi8(FSHA1_DC_NARROW_BYTES, FSHA1_DC_NARROW_BYTES);
	(void)narrow;

	/* a single block (records only: blocks() takes the 128-bit kernel
	 * then) stands in for its missing partner */
	nb = nblocks > 1 ? data + 64 : data;
	FSHA1_SCHED256(0, data, nb);
	FSHA1_SCHED256(1, data, nb);
	FSHA1_SCHED256(2, data, nb);
	FSHA1_SCHED256(3, data, nb);
	for (;;) {
		const int has_b = nblocks >= 2;
		(void)has_b;
		if (rec)
			FSHA1_DC_CAP_IN(rec);
		FSHA1_80(FSHA1_WK_A, FSHA1_HOOK_A);
		if (nblocks == 1)
			break;
		/* The next pair, or blocks of this one standing in for it. */
		na = nblocks > 2 ? data + 128 : data;
		nb = nblocks > 3 ? data + 192 : na;
		if (rec)
			FSHA1_DC_CAP_IN(rec + 1);
		FSHA1_80(FSHA1_WK_B, FSHA1_HOOK_B);
		if (nblocks == 2)
			break;
		nblocks -= 2;
		data += 128;
		if (rec) {
			rec += 2;
			nar += 2;
		}
	}
	state[0] = a;
	state[1] = b;
	state[2] = c;
	state[3] = d;
	state[4] = e;
}

static void blocks(uint32_t state[5], const uint8_t *data, size_t nblocks)
{
	/*
	 * One block (short messages, a streamed block, a final block): the
	 * pair kernel would load and schedule a second lane for nothing; the
	 * 128-bit kernel does just this block. At 64-byte messages this took
	 * the backend from 0.82x to ~1.04x OpenSSL's AVX2 path.
	 */
	if (nblocks == 1) {
		fsha1_x86_blocks128(state, data, 1);
		return;
	}
	run(state, data, nblocks, NULL, NULL);
}

#ifdef FSHA_HAVE_SHA1_PART_DC_AVX2
/*
 * SHA1DC on this row (fsha1dc_rec_fn): the loop above keeping each block's
 * record and narrowed bytes, so the filter runs on those bytes (a third of
 * what it costs from blocks) and a flagged block is checked from its
 * record instead of being compressed again in scalar code, as on the
 * SHA-NI rows. One block too goes through the pair loop (its second lane
 * a copy, nothing kept of it).
 */
static void blocks_rec(uint32_t state[5], const uint8_t *data, size_t nblocks,
		       struct fsha1dc_rec *rec, uint64_t *nar)
{
	run(state, data, nblocks, rec, nar);
}

static const struct fsha1dc_ops dc_ops = { fsha1dc_filter_avx2,  blocks_rec,
					   fsha1dc_filter_rec_avx2, NULL, NULL,
					   fsha1dc_recheck_avx2, NULL, NULL, NULL, 0 };
#define DC_OPS (&dc_ops)
#else
#define DC_OPS NULL
#endif

const struct fsha1_backend fsha1_backend_avx2 = { { "avx2", FSHA_CPU_AVX2 | FSHA_CPU_BMI1 | FSHA_CPU_BMI2, 1, 1, 0, 0 }, blocks, NULL, DC_OPS, NULL };
