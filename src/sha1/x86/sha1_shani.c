/* SPDX-License-Identifier: MIT */
/*
 * shani: SHA-1 with the x86 SHA extensions, in C intrinsics.
 * Needs SHA (sha1rnds4, sha1nexte, sha1msg1, sha1msg2), SSSE3 (pshufb for
 * the byte swap) and SSE4.1 (pextrd for E). Built with -msha -msse4.1
 * -mssse3 on this file only; the dispatch row asks for exactly those bits.
 *
 * Contract (sha1_impl.h): nblocks >= 1 whole 64-byte blocks at any
 * alignment (loadu only), nothing read outside them, state as H0..H4.
 *
 * Technique: the instruction sequence of SHA-Intrinsics (seed 003, after
 * Intel's and Sean Gulley's code): ABCD in one register with A in the top
 * lane, E riding in the top lane of the "E + W" operand, each sha1rnds4
 * doing four rounds, sha1nexte deriving the next E (rol 30 of the A that
 * entered the step before) and adding it to the next four W, and
 * sha1msg1 / xor / sha1msg2 producing W[t..t+3] from the four previous
 * groups. The sequence is written once, in sha1_shani.h, which the lane
 * kernels (sha1_shani_x2.c, sha1_shani_x4.c) share; this file runs it with
 * one lane. Moved there unchanged: 121.4 cycles per block in 64-block calls
 * and 132.9 in 1-block calls before and after, in the same runs.
 */
#include "sha1_shani.h"

/*
 * Speed (AMD EPYC, Zen 3, measured with a private harness timing 256-block
 * calls against a chain of dependent sha1rnds4 in the same run):
 *
 * - sha1rnds4 has a latency of 6 cycles from either operand (all four
 *   round functions) and issues every 2 cycles; sha1nexte and sha1msg2
 *   take about 1 cycle, sha1msg1 2. The
 *   20 sha1rnds4 of a block form one dependency chain (ABCD) and the block
 *   ends with the paddd of the saved ABCD, so 20 * 6 + 1 = 121 cycles per
 *   block (1.89 cycles/byte) is the floor for one message on this core,
 *   whatever the code around the chain does. This loop runs at that floor,
 *   121.2, as does OpenSSL 3's own SHA-NI loop.
 * - Everything else (loads, pshufb, the msg1/xor/msg2 schedule, nexte)
 *   hangs off the chain and the out-of-order core runs it in the gaps, as
 *   long as it comes early enough in program order: the schedule is
 *   computed one step before its W is added (each SCHED sits in front of
 *   the step before the one that uses it). Placed just in time, or left to
 *   GCC's scheduler, it cost 0.5 to 2.5 cycles per block. Since the loop
 *   is at the floor, unrolling two blocks or loading the next block early
 *   has nothing left to win for long messages (the next block's loads do
 *   not depend on the chain and already run early); a hand-scheduled
 *   inline-asm version of the whole loop measured the same 121.2 cycles and
 *   no better on 64-byte messages, so the intrinsics stay.
 * - Short messages are bound by the code around the calls, not by this
 *   loop: see finish() in sha1.c for how the padding block is written so
 *   that these 16-byte loads can forward from the store buffer.
 *
 * Testing: qemu-user 7.2 (TCG) does not emulate the SHA extensions, so
 * this runs only on real hardware; under qemu the tests report it skipped.
 */
static void blocks(uint32_t state[5], const uint8_t *data, size_t nblocks)
{
	fsha1_ni_blocks(state, data, nblocks);
}

/*
 * SHA1DC on this row: the loop above keeps what the filter and the check
 * need of each block (the schedule words sha1msg2 made, the states around
 * steps 58 and 65), so the filter runs on those records instead of
 * expanding each block again, and a block that passes it is checked from
 * the kept states instead of being compressed again in scalar code.
 */
#ifdef FSHA_HAVE_SHA1_PART_DC_SSE2
static void blocks_rec(uint32_t state[5], const uint8_t *data, size_t nblocks,
		       struct fsha1dc_rec *rec, uint64_t *nar)
{
	fsha1_ni_blocks_rec(state, data, nblocks, rec, nar);
}

/*
 * SHA1DC's pipeline (fsha1dc_pipe_fn, sha1_impl.h). The loop above is
 * bound by its chain of sha1rnds4 (121 cycles a block on Zen 3) and leaves
 * most of the core idle; the filter's work on earlier chunks has no
 * dependency on that chain, so it is put between the blocks in program
 * order and the out-of-order core runs it in the gaps. Measured with a
 * private harness on Zen 3: a filter piece of two DVs after each block cost
 * 2 to 3 ns a block, the same pieces after the chunk's 16 blocks 12 to 15
 * (of 40). The filter runs on 16 blocks in 16-byte vectors, legacy SSE
 * like the rounds (no VEX-encoded code may run here: the loop must not
 * depend on AVX).
 */
typedef uint16_t pipe_v __attribute__((vector_size(16), may_alias));
#define FSHA1DC_BIT(b) ((uint16_t)(0x0101u << (b)))
#include "../dc/ubc_slices.inc"
#include "sha1dc_pairs.h"

/*
 * Group @g of W[32..67] of the chunk's 16 blocks, as nar[g][0..16) keeps
 * it, into the planes b0[t], b3[t]: each 16-byte load holds two blocks'
 * eight bytes; a shuffle pairs the two blocks' copies of each byte, and an
 * 8 x 8 transpose of those 16-bit pairs gives each byte's 16 blocks in
 * order.
 */
static inline __attribute__((always_inline)) void pipe_transpose(const uint64_t *nar, int g,
								 uint8_t (*b0)[16],
								 uint8_t (*b3)[16])
{
	const __m128i pair = _mm_set_epi8(15, 7, 14, 6, 13, 5, 12, 4, 11, 3, 10, 2, 9, 1, 8, 0);
	__m128i x[8];
	for (int j = 0; j < 8; j++)
		x[j] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(nar + 16 * g + 2 * j)),
					pair);
#define PIPE_OUT(k, v)                                                                         \
	do {                                                                                   \
		const int w_ = FSHA1DC_PAIR_WORD(g, k);                                        \
		if (w_ >= 35 && w_ <= 64)                                                      \
			_mm_store_si128((__m128i *)((k) < 4 ? b0[w_] : b3[w_]), v);            \
	} while (0)
	FSHA1DC_PAIR_TRANSPOSE(__m128i, _mm, x, PIPE_OUT);
#undef PIPE_OUT
}

/* After block i of the chunk: the transpose of chunk c-1's group i (i < 9),
 * the filter's piece i on chunk c-2. */
#define PIPE_SLOT(i)                                                                           \
	do {                                                                                   \
		if (data)                                                                      \
			fsha1_ni_block(1, &abcd, &e0, &p, rec + (i), nar + (i), FSHA1DC_PIPE_B); \
		if ((i) < 9 && c >= 1)                                                         \
			pipe_transpose(tn, (i) < 9 ? (i) : 0, tb0, tb3);                       \
		if (c >= 2)                                                                    \
			FSHA1DC_SLICE_##i(fb0, fb3, m);                                        \
		FSHA1_NI_BARRIER();                                                            \
	} while (0)

static void pipe(uint32_t state[5], const uint8_t *data, struct fsha1dc_pipe *pp, size_t c)
{
	__m128i abcd = _mm_setzero_si128(), e0 = _mm_setzero_si128();
	const uint8_t *p = data;
	struct fsha1dc_rec *rec = pp->rec[c % 3];
	uint64_t *nar = &pp->nar[c % 2][0][0];
	const uint64_t *tn = &pp->nar[(c + 1) % 2][0][0];
	uint8_t(*tb0)[16] = pp->b0[(c + 1) % 2], (*tb3)[16] = pp->b3[(c + 1) % 2];
	const pipe_v *fb0 = (const pipe_v *)pp->b0[c % 2], *fb3 = (const pipe_v *)pp->b3[c % 2];
	pipe_v m[4] = { 0 };

	if (data)
		fsha1_ni_load_state(state, &abcd, &e0);
	PIPE_SLOT(0);
	PIPE_SLOT(1);
	PIPE_SLOT(2);
	PIPE_SLOT(3);
	PIPE_SLOT(4);
	PIPE_SLOT(5);
	PIPE_SLOT(6);
	PIPE_SLOT(7);
	PIPE_SLOT(8);
	PIPE_SLOT(9);
	PIPE_SLOT(10);
	PIPE_SLOT(11);
	PIPE_SLOT(12);
	PIPE_SLOT(13);
	PIPE_SLOT(14);
	PIPE_SLOT(15);
	if (data)
		fsha1_ni_store_state(state, abcd, e0);
	if (c >= 2) {
		/* byte i of m[j]: DVs 8j..8j+7 of block i; to 32-bit masks in order */
		const __m128i m0 = (__m128i)m[0], m1 = (__m128i)m[1], m2 = (__m128i)m[2],
			      m3 = (__m128i)m[3];
		const __m128i lo01 = _mm_unpacklo_epi8(m0, m1), hi01 = _mm_unpackhi_epi8(m0, m1);
		const __m128i lo23 = _mm_unpacklo_epi8(m2, m3), hi23 = _mm_unpackhi_epi8(m2, m3);
		const __m128i v[4] = { _mm_unpacklo_epi16(lo01, lo23), _mm_unpackhi_epi16(lo01, lo23),
				       _mm_unpacklo_epi16(hi01, hi23), _mm_unpackhi_epi16(hi01, hi23) };
		unsigned zero = 0;
		for (int j = 0; j < 4; j++) {
			_mm_storeu_si128((__m128i *)(pp->masks + 4 * j), v[j]);
			zero |= (unsigned)_mm_movemask_ps(_mm_castsi128_ps(
					_mm_cmpeq_epi32(v[j], _mm_setzero_si128())))
				<< (4 * j);
		}
		/* Which blocks to look at, as one word: the caller reads masks[]
		 * only there (four-byte loads from the 16-byte stores above
		 * stalled on store forwarding, one a block, perf said). */
		pp->flagged = ~zero & 0xffffu;
	}
}

static const struct fsha1dc_ops dc_ops = { fsha1dc_filter_x86, blocks_rec,
					   fsha1dc_filter_rec_x86, NULL, pipe, fsha1dc_recheck_x86 };
#define DC_OPS (&dc_ops)
#else
#define DC_OPS NULL
#endif

const struct fsha1_backend fsha1_backend_shani = { { "shani", FSHA_CPU_SHA | FSHA_CPU_SSE41 | FSHA_CPU_SSSE3, 1, 1, 0 }, blocks, NULL, DC_OPS };
