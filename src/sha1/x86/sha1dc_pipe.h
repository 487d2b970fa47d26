/* SPDX-License-Identifier: MIT */
/*
 * SHA1DC's pipeline (fsha1dc_pipe_fn, sha1_impl.h), written once and
 * compiled twice: define FSHA1DC_PIPE_VB (the filter's vector size in
 * bytes) and FSHA1DC_PIPE_FN (the function's name), then include this in
 * a file built with the SHA extensions:
 *
 *   16  sha1_shani.c, legacy SSE like the rounds (-msha -msse4.1 -mssse3):
 *       each 32-block chunk filtered as two halves of 16 blocks;
 *   32  sha1dc_pipe_avx2.c (-msha -mavx2): one 32-block run in ymm
 *       registers, half the filter's instructions a block, and the rounds'
 *       loads, shuffles and xors VEX-encoded (three operands: fewer
 *       register copies).
 *
 * The single-stream SHA-NI loop is bound by its chain of sha1rnds4 (121
 * cycles a block on Zen 3) and leaves most of the core idle; the filter's
 * work on the chunk before has no dependency on that chain, so it is put
 * between the blocks in program order and the out-of-order core runs it in
 * the gaps. The call for chunk c compresses its 32 blocks, keeping their
 * records and narrowed bytes; after blocks 0..8 it moves group 0..8 of
 * chunk c-1's narrowed bytes into byte planes (sha1dc_pairs.h), after
 * blocks 16..31 it runs the filter's piece 0..15 (ubc_slices.inc, two DVs
 * each) on them, so chunk c-1's masks are ready when the call returns.
 * Blocks 9..15 carry no extra work: the planes of a group are stored a few
 * blocks before the pieces load them.
 *
 * Mixing: the SHA instructions have only legacy-SSE encodings, and a
 * legacy-SSE instruction that runs while some ymm register has dirty upper
 * bits is slow on Intel (Skylake and later add a merge to each, which would
 * lengthen the sha1rnds4 chain) and on Zen 3 alike: a scratch x4 loop
 * whose pointer updates GCC had vectorized into one ymm register, left
 * dirty for the whole loop, ran 5x slower there. So after each piece of
 * 256-bit work the AVX2 build clears the upper halves (vzeroupper) before
 * the next rounds in program order; its object code has no sha1*
 * instruction between a ymm write and the next vzeroupper (checked on the
 * GCC 12 -O3 output with a scratch script).
 */
#ifndef FSHA1DC_PIPE_VB
#error "define FSHA1DC_PIPE_VB (16 or 32) and FSHA1DC_PIPE_FN before including sha1dc_pipe.h"
#endif

#include "sha1_shani.h"
#include "sha1dc_pairs.h"

#define FSHA1DC_PIPE_HALVES (FSHA1DC_PIPE_B / FSHA1DC_PIPE_VB)

typedef uint16_t fsha1dc_pipe_v __attribute__((vector_size(FSHA1DC_PIPE_VB), may_alias));
#define FSHA1DC_BIT(b) ((uint16_t)(0x0101u << (b)))
#include "../dc/ubc_slices.inc"

#if FSHA1DC_PIPE_VB == 32
typedef __m256i fsha1dc_pipe_t;
#define FSHA1DC_PIPE_LOAD(p) _mm256_loadu_si256((const __m256i *)(p))
#define FSHA1DC_PIPE_CLEAN() _mm256_zeroupper()
#define FSHA1DC_PIPE_TRANSPOSE(x, OUT) FSHA1DC_PAIR_TRANSPOSE(__m256i, _mm256, x, OUT)
#define FSHA1DC_PIPE_MASKS fsha1dc_pair_masks_256
#elif FSHA1DC_PIPE_VB == 16
typedef __m128i fsha1dc_pipe_t;
#define FSHA1DC_PIPE_LOAD(p) _mm_loadu_si128((const __m128i *)(p))
#define FSHA1DC_PIPE_CLEAN() ((void)0)
#define FSHA1DC_PIPE_TRANSPOSE(x, OUT) FSHA1DC_PAIR_TRANSPOSE(__m128i, _mm, x, OUT)
#define FSHA1DC_PIPE_MASKS fsha1dc_pair_masks_128
#else
#error "FSHA1DC_PIPE_VB must be 16 or 32"
#endif

_Static_assert(sizeof(((struct fsha1dc_pipe *)0)->b0) >= 65 * FSHA1DC_PIPE_B,
	       "the planes of one chunk fit");

/* Plane t of half h (h < FSHA1DC_PIPE_HALVES): VB bytes, one block each. */
#define FSHA1DC_PIPE_PLANE(base, h, t) ((base) + ((h) * 65 + (t)) * FSHA1DC_PIPE_VB)

/*
 * Group @g of W[32..67] of half @h of the chunk whose narrowed bytes are at
 * @nar (nar[g * FSHA1DC_PIPE_B + i] for block i) into the planes: each load
 * holds VB / 8 blocks' eight bytes, two to a 128-bit lane; a shuffle pairs
 * the two blocks' copies of each byte, and an 8 x 8 transpose of those
 * 16-bit pairs gives each byte's blocks. Byte lane i of half h then holds
 * block 16 h + i (VB 16), or block 4 (i / 2) + i % 2 for i < 16 and
 * 4 ((i - 16) / 2) + 2 + i % 2 for the rest (VB 32).
 */
static inline __attribute__((always_inline)) void
fsha1dc_pipe_transpose(const uint64_t *nar, int g, int h, uint8_t *b0, uint8_t *b3)
{
#if FSHA1DC_PIPE_VB == 32
	const __m256i pair = _mm256_set_epi8(15, 7, 14, 6, 13, 5, 12, 4, 11, 3, 10, 2, 9, 1, 8, 0,
					     15, 7, 14, 6, 13, 5, 12, 4, 11, 3, 10, 2, 9, 1, 8, 0);
#else
	const __m128i pair = _mm_set_epi8(15, 7, 14, 6, 13, 5, 12, 4, 11, 3, 10, 2, 9, 1, 8, 0);
#endif
	fsha1dc_pipe_t x[8];
	for (int j = 0; j < 8; j++) {
		const fsha1dc_pipe_t v = FSHA1DC_PIPE_LOAD(nar + FSHA1DC_PIPE_B * g +
							   FSHA1DC_PIPE_VB * h + FSHA1DC_PIPE_VB / 8 * j);
#if FSHA1DC_PIPE_VB == 32
		x[j] = _mm256_shuffle_epi8(v, pair);
#else
		x[j] = _mm_shuffle_epi8(v, pair);
#endif
	}
#define FSHA1DC_PIPE_OUT(k, v)                                                                 \
	do {                                                                                   \
		const int w_ = FSHA1DC_PAIR_WORD(g, k);                                        \
		if (w_ >= 35 && w_ <= 64)                                                      \
			*(fsha1dc_pipe_v *)FSHA1DC_PIPE_PLANE((k) < 4 ? b0 : b3, h, w_) =      \
				(fsha1dc_pipe_v)(v);                                           \
	} while (0)
	FSHA1DC_PIPE_TRANSPOSE(x, FSHA1DC_PIPE_OUT);
#undef FSHA1DC_PIPE_OUT
}

#define FSHA1DC_PIPE_BLOCK(i)                                                                  \
	do {                                                                                   \
		if (data)                                                                      \
			fsha1_ni_block(1, &abcd, &e0, &p, rec + (i), nar + (i), FSHA1DC_PIPE_B); \
	} while (0)
/* Group g of the chunk before into planes (after block g, g < 9). */
#define FSHA1DC_PIPE_T(g)                                                                      \
	do {                                                                                   \
		for (int h_ = 0; h_ < FSHA1DC_PIPE_HALVES; h_++)                               \
			fsha1dc_pipe_transpose(tn, (g), h_, pp->b0, pp->b3);                   \
		FSHA1DC_PIPE_CLEAN();                                                          \
	} while (0)
/* The filter's piece k on the chunk before (after block 16 + k). */
#define FSHA1DC_PIPE_S(k)                                                                      \
	do {                                                                                   \
		for (int h_ = 0; h_ < FSHA1DC_PIPE_HALVES; h_++)                               \
			FSHA1DC_SLICE_##k(                                                     \
				((const fsha1dc_pipe_v *)FSHA1DC_PIPE_PLANE(pp->b0, h_, 0)),   \
				((const fsha1dc_pipe_v *)FSHA1DC_PIPE_PLANE(pp->b3, h_, 0)), m[h_]); \
		FSHA1DC_PIPE_CLEAN();                                                          \
	} while (0)

void FSHA1DC_PIPE_FN(uint32_t state[5], const uint8_t *data, struct fsha1dc_pipe *pp, size_t c);
void FSHA1DC_PIPE_FN(uint32_t state[5], const uint8_t *data, struct fsha1dc_pipe *pp, size_t c)
{
	__m128i abcd = _mm_setzero_si128(), e0 = _mm_setzero_si128();
	const uint8_t *p = data;
	struct fsha1dc_rec *rec = pp->rec[c % 2];
	uint64_t *nar = &pp->nar[c % 2][0][0];
	const uint64_t *tn = &pp->nar[(c + 1) % 2][0][0];
	fsha1dc_pipe_v m[FSHA1DC_PIPE_HALVES][4];

	for (int h = 0; h < FSHA1DC_PIPE_HALVES; h++)
		m[h][0] = m[h][1] = m[h][2] = m[h][3] = (fsha1dc_pipe_v){ 0 };
	if (data)
		fsha1_ni_load_state(state, &abcd, &e0);
	for (int i = 0; i < FSHA1DC_PIPE_B; i++) {
		FSHA1DC_PIPE_BLOCK(i);
		if (c >= 1)
			switch (i) {
			case 0: FSHA1DC_PIPE_T(0); break;
			case 1: FSHA1DC_PIPE_T(1); break;
			case 2: FSHA1DC_PIPE_T(2); break;
			case 3: FSHA1DC_PIPE_T(3); break;
			case 4: FSHA1DC_PIPE_T(4); break;
			case 5: FSHA1DC_PIPE_T(5); break;
			case 6: FSHA1DC_PIPE_T(6); break;
			case 7: FSHA1DC_PIPE_T(7); break;
			case 8: FSHA1DC_PIPE_T(8); break;
			case 16: FSHA1DC_PIPE_S(0); break;
			case 17: FSHA1DC_PIPE_S(1); break;
			case 18: FSHA1DC_PIPE_S(2); break;
			case 19: FSHA1DC_PIPE_S(3); break;
			case 20: FSHA1DC_PIPE_S(4); break;
			case 21: FSHA1DC_PIPE_S(5); break;
			case 22: FSHA1DC_PIPE_S(6); break;
			case 23: FSHA1DC_PIPE_S(7); break;
			case 24: FSHA1DC_PIPE_S(8); break;
			case 25: FSHA1DC_PIPE_S(9); break;
			case 26: FSHA1DC_PIPE_S(10); break;
			case 27: FSHA1DC_PIPE_S(11); break;
			case 28: FSHA1DC_PIPE_S(12); break;
			case 29: FSHA1DC_PIPE_S(13); break;
			case 30: FSHA1DC_PIPE_S(14); break;
			case 31: FSHA1DC_PIPE_S(15); break;
			default: break;
			}
		FSHA1_NI_BARRIER();
	}
	if (data)
		fsha1_ni_store_state(state, abcd, e0);
	if (c >= 1) {
		uint32_t flagged = 0;
		for (int h = 0; h < FSHA1DC_PIPE_HALVES; h++) {
			const fsha1dc_pipe_t mv[4] = { (fsha1dc_pipe_t)m[h][0], (fsha1dc_pipe_t)m[h][1],
						       (fsha1dc_pipe_t)m[h][2], (fsha1dc_pipe_t)m[h][3] };
			flagged |= FSHA1DC_PIPE_MASKS(mv, FSHA1DC_PIPE_VB, pp->masks + FSHA1DC_PIPE_VB * h)
				   << (FSHA1DC_PIPE_VB * h);
		}
		/* Which blocks to look at, as one word: the caller reads masks[]
		 * only there (four-byte loads from the vector stores above
		 * stalled on store forwarding, one a block, perf said). */
		pp->flagged = flagged;
		FSHA1DC_PIPE_CLEAN();
	}
}

#undef FSHA1DC_PIPE_BLOCK
#undef FSHA1DC_PIPE_T
#undef FSHA1DC_PIPE_S
#undef FSHA1DC_BIT
