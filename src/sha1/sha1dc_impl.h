/* SPDX-License-Identifier: MIT */
#ifndef FSHA1DC_IMPL_H
#define FSHA1DC_IMPL_H

/*
 * SHA1DC inside the SHA-1 family: the state the engine carries, the filter
 * contract the backends implement, and the shared scalar parts
 * (sha1dc_check.c) that check a block the filter let through.
 *
 * The method is Stevens' counter-cryptanalysis (CRYPTO 2013) as Stevens and
 * Shumow's sha1collisiondetection implements it (USENIX Security 2017); the
 * filter's relations are its data (dc/PROVENANCE.md), and the SHA1DC files
 * are written from the papers and ../shared/design/sha1dc/README.md:
 *
 *   sha1dc.c           the public one-message functions, the descriptor's hooks
 *   sha1dc_driver.c    one message's paths through the row: the engine's thunk
 *   sha1dc_check.c     the DVs, the scalar compression, the check of a block
 *   sha1dc_portable.c  the filter in plain C (the generated dc/ubc_filter.inc)
 *   sha1dc_jobs.[ch]   deferred rechecks: jobs made, rechecked, decided in order
 *   sha1dc_many.[ch]   batches: the lanes' bookkeeping, rows without records
 *   sha1dc_many_rec.c  batches on the lane rows that keep records
 *   sha1dc_simd.h      the SIMD filter, compiled by the backends' files
 *
 * How a block is hashed (sha1dc_driver.c, fsha1dc_compress(), the engine's
 * thunk):
 * 1. Filter: which of the 32 disturbance vectors (DVs) could have built the
 *    block: a 32-bit mask (bit d: DV d of dvs.tsv), 0 for about 95% of
 *    random blocks. It depends on the block's message words only, not on the
 *    chaining state, so a backend filters many blocks at once, one block per
 *    SIMD byte lane (fsha1dc_filter_fn on blocks, or fsha1dc_filter_rec_fn
 *    on the bytes of the schedule a compression kept).
 * 2. Compress. Rows that keep records (struct fsha1dc_rec; the SHA-NI
 *    rows) compress blocks straight through, keeping bytes 0 and 3 of each
 *    block's schedule words W[32..67] and the states around steps 58 and
 *    65. Where the row has a pipeline (struct fsha1dc_pipe, sha1_impl.h:
 *    the single-stream SHA-NI row) and the run is at least two chunks of 32
 *    blocks, the filter of chunk c-1 runs in pieces between the blocks of
 *    chunk c, in the gaps of the sha1rnds4 chain; otherwise the filter runs
 *    on the kept bytes after each chunk. Other rows filter first and send
 *    runs of blocks whose mask is 0 to their ordinary blocks(): their
 *    SHA1DC is SHA-1.
 * 3. Check: for a block with a mask, each surviving DV's partner block is
 *    recompressed from the state before step 58 or 65 (from the block's
 *    record, or got by compressing it again in scalar code); the first DV
 *    whose partner collides flags the block, and with the safe hash on the
 *    block is compressed twice more. One message's paths and the SHA-NI
 *    lanes defer these recompressions as jobs (struct fsha1dc_job) and
 *    have them done together, 8 or 16 at a time with AVX2 or AVX-512, jobs
 *    of both test steps in one vector (fsha1dc_recheck_fn),
 *    deciding in block order afterwards; a detection with the safe hash on
 *    makes the run start again after that block, and in a batch hashes
 *    that message again on its own (only colliding files do either). The
 *    other lane rows check a block at once (fsha1dc_block()).
 * Rows without SHA1DC parts (dc NULL) hash every block the scalar way.
 */

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "fastsha/sha1dc.h"
#include "../core/md.h"
#include "sha1_impl.h"

/* The compression state the engine copies and passes to the thunk: the
 * chaining value, options and detection record (fastsha1dc_ctx.s). */
typedef struct fastsha1dc_state_ fsha1dc_state;

/*
 * A backend's filter (fsha1dc_filter_fn, sha1_impl.h): for @n >= 1 whole
 * 64-byte blocks, block i at blocks[i] (any alignment, nothing read outside
 * them; the blocks of one message or of many), masks[i] = block i's mask of
 * surviving DVs. The result must equal fsha1dc_filter_portable()'s for
 * every block; a backend's file states how it computes it. Taking pointers
 * lets a batch fill one SIMD run with the short tails of many messages.
 */

/* One disturbance vector: its type (1, 2), K, b and the step whose state
 * the partner is recomputed from (58 or 65). */
struct fsha1dc_dv {
	uint8_t type, k, b, testt;
};
extern const struct fsha1dc_dv fsha1dc_dvs[32];

/* DV @d's message difference dm[0..79], derived from its definition
 * (sha1dc_check.c); the partner of a block with expanded message W is W ^ dm. */
void fsha1dc_dm(unsigned d, uint32_t dm[80]);

/*
 * All 32 differences, worked out once on first use. A thread that finds the
 * table not ready works out the one it needs on its own stack; the thread
 * that claims the table fills it and publishes it, so nobody waits. Inline,
 * with the table hidden (a direct PC-relative access, not through the GOT),
 * as it was when one file held the checks and the jobs that use it.
 */
extern __attribute__((visibility("hidden"))) uint32_t fsha1dc_dm_table[32][80];
/* 0 empty, 1 being filled, 2 ready */
extern __attribute__((visibility("hidden"))) atomic_int fsha1dc_dm_state;

static inline const uint32_t *fsha1dc_dm_of(unsigned d, uint32_t scratch[80])
{
	if (atomic_load_explicit(&fsha1dc_dm_state, memory_order_acquire) == 2)
		return fsha1dc_dm_table[d];
	int expect = 0;
	if (atomic_compare_exchange_strong(&fsha1dc_dm_state, &expect, 1)) {
		for (unsigned i = 0; i < 32; i++)
			fsha1dc_dm(i, fsha1dc_dm_table[i]);
		atomic_store_explicit(&fsha1dc_dm_state, 2, memory_order_release);
		return fsha1dc_dm_table[d];
	}
	fsha1dc_dm(d, scratch);
	return scratch;
}

/* The filter in plain C, one block: W[0..79] is its expanded message. */
uint32_t fsha1dc_ubc_portable(const uint32_t W[80]);

/* The portable filter on @n consecutive blocks at @data. */
void fsha1dc_filter_portable(const uint8_t *data, size_t n, uint32_t *masks);
/* The same as a fsha1dc_filter_fn (blocks anywhere). */
void fsha1dc_filter_portable_ptrs(const uint8_t *const *blocks, size_t n, uint32_t *masks);

/*
 * W[16..79] from W[0..15]. The empty asm keeps GCC's vectorizer off the
 * loop: GCC 12 at -O2 did it two words at a time (W[t - 3] is the nearest
 * dependence), and each pair's 8-byte load straddled the two 4-byte stores
 * before it, which cannot be forwarded: the scalar recheck of a job ran at
 * half speed (380 ns against 194 on Zen 3).
 */
static inline void fsha1dc_expand_rest(uint32_t W[80])
{
	for (int t = 16; t < 80; t++) {
		uint32_t x = W[t - 3] ^ W[t - 8] ^ W[t - 14] ^ W[t - 16];
		__asm__("" : "+r"(x));
		W[t] = fsha_rol32(x, 1);
	}
}

/* The expanded message W[0..79] of the block at @p. */
void fsha1dc_expand(const uint8_t *p, uint32_t W[80]);

/* Compress W into @h, keeping the states before steps 58 and 65 in @s58
 * and @s65. */
void fsha1dc_compress_w(uint32_t h[5], const uint32_t W[80], uint32_t s58[5], uint32_t s65[5]);

/* Plain compression of W into @h (the safe hash's extra rounds). */
void fsha1dc_compress_plain(uint32_t h[5], const uint32_t W[80]);

/* Record a flag on block st->blocks by DV @d. */
static inline void fsha1dc_flag(fsha1dc_state *st, unsigned d)
{
	if (st->hits++ == 0) {
		st->hit_block = st->blocks;
		st->hit_dv = d;
	}
}

/* fsha1dc_block() on the block's expanded message @W. */
void fsha1dc_check_w(fsha1dc_state *st, const uint32_t W[80], uint32_t mask);

/*
 * Hash one block at @block into @st the scalar way, filtering with @mask
 * (the filter's result for it: the block is checked against those DVs
 * only), checking, flagging and applying the safe hash. st->blocks counts
 * it. Inline: the lane batch's loop (sha1dc_many.c) calls the expansion
 * and the check straight, as when one file held both.
 */
static inline void fsha1dc_block(fsha1dc_state *st, const uint8_t *block, uint32_t mask)
{
	uint32_t W[80];
	fsha1dc_expand(block, W);
	fsha1dc_check_w(st, W, mask);
}

/* The partner's chaining value in and out for job @j (struct fsha1dc_job,
 * sha1_impl.h), as the scalar recheck works them out. */
void fsha1dc_job_partner(const struct fsha1dc_job *j, uint32_t in[5], uint32_t out[5]);

/* Tests: the masks the pipelined path (a row's dc->pipe, sha1dc_driver.c
 * blocks_pipe()) gives the @nblocks (at least 2 * FSHA1DC_PIPE_B) blocks at
 * @data: its whole chunks' masks into masks[0..), as it hashes them; the
 * chaining value after them from SHA-1's IV into @h. Returns how many
 * blocks it hashed. */
size_t fsha1dc_pipe_masks(const struct fsha1dc_ops *ops, const uint8_t *data, size_t nblocks,
			  uint32_t *masks, uint32_t h[5]);

/* ---- SHA1DC on the engine (core/md.h) --------------------------------------- */

/* The engine's thunk (sha1dc_driver.c): @nblocks blocks at @data into the
 * fsha1dc_state @state, through the row in use. */
void fsha1dc_compress(void *state, const uint8_t *data, size_t nblocks);

/*
 * The engine's shape of fastsha1dc_ctx, and the initial state: SHA-1's IV,
 * the default options, nothing found. Static here rather than defined in one
 * file, so that each file's uses fold to constants as when one file held
 * them all (a batch's fsha_md_output() five stores, not a loop over the
 * shape's words).
 */
static const struct fsha_md_shape fsha1dc_shape =
	FSHA_MD_SHAPE_S(fastsha1dc_ctx, 64, 8, 5, 4, sizeof(fsha1dc_state), fsha1dc_compress);
static const fsha1dc_state fsha1dc_iv = {
	{ 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0 },
	FASTSHA1DC_DEFAULT, 0, 0, 0, 0
};
_Static_assert(sizeof(fsha1dc_state) <= 64, "the engine copies at most 64 bytes of state");

/* How many blocks the record path keeps at a time (a record is 128 bytes,
 * with 72 narrowed bytes); twice as many on rows without a pipeline
 * (AVX2), whose long messages take this path: the filter's second run
 * of 32 follows the first while its code is still warm (1.02-1.03x at 4
 * KiB to 1 MiB on the avx2 row). The SHA-NI rows keep 32 (64 measured
 * 0.94x on 2,200-byte messages). The one-shot (sha1dc.c) hashes a
 * message's last such run with its padding in one call. */
#define FSHA1DC_REC_CHUNK 32

/* ---- SHA-1 steps, for scalars and vectors alike ---------------------------- */

#define FSHA1DC_K1 0x5a827999u
#define FSHA1DC_K2 0x6ed9eba1u
#define FSHA1DC_K3 0x8f1bbcdcu
#define FSHA1DC_K4 0xca62c1d6u
#define FSHA1DC_F_CH(t, b, c, d) ((d) ^ ((b) & ((c) ^ (d))))
#define FSHA1DC_F_PAR(t, b, c, d) ((b) ^ (c) ^ (d))
#define FSHA1DC_F_MAJ(t, b, c, d) (((b) & (c)) | ((d) & ((b) | (c))))

/*
 * One step forwards on s = (a, b, c, d, e) (32-bit words or vectors of
 * them) with message word @w, round function F(t, b, c, d), constant @K
 * and rotate ROL(x, n). The new a is summed with rol5(a) last: it is the
 * one term that waits on the previous step, so the chain from step to step
 * is a rotate and an add.
 */
#define FSHA1DC_ROUND_FWD(s, t, w, F, K, ROL)                                                  \
	do {                                                                                   \
		__typeof__(s[0]) tmp_ = (w) + (K) + s[4] + F(t, s[1], s[2], s[3]) + ROL(s[0], 5); \
		s[4] = s[3];                                                                   \
		s[3] = s[2];                                                                   \
		s[2] = ROL(s[1], 30);                                                          \
		s[1] = s[0];                                                                   \
		s[0] = tmp_;                                                                   \
	} while (0)

/* One step backwards: from the state after step t to the state before it. */
#define FSHA1DC_ROUND_BWD(s, t, w, F, K, ROL)                                                  \
	do {                                                                                   \
		__typeof__(s[0]) a_ = s[1], b_ = ROL(s[2], 2), c_ = s[3], d_ = s[4];           \
		s[4] = s[0] - (ROL(a_, 5) + F(t, b_, c_, d_) + (K) + (w));                      \
		s[0] = a_;                                                                     \
		s[1] = b_;                                                                     \
		s[2] = c_;                                                                     \
		s[3] = d_;                                                                     \
	} while (0)

/* @n steps backwards on @b from step tb down, each beside a step forwards
 * on @f from tf up (round function FF) when @fwd is 1: two independent
 * chains interleaved, so that the core overlaps them (each alone is bound
 * by its latency). WP(t) is the partner's message word t. */
#define FSHA1DC_PAIRS(n, FB, KB, fwd, FF, KF, b, f, WP, ROL)                                   \
	do {                                                                                   \
		for (int k_ = 0; k_ < (n); k_++, tb_--) {                                      \
			FSHA1DC_ROUND_BWD(b, tb_, WP(tb_), FB, KB, ROL);                       \
			if (fwd) {                                                             \
				FSHA1DC_ROUND_FWD(f, tf_, WP(tf_), FF, KF, ROL);               \
				tf_++;                                                         \
			}                                                                      \
		}                                                                              \
	} while (0)

/*
 * The partner block's compression, recomputed from the state before step
 * @testt (58 or 65) that it shares with the block, in @b and @f on entry:
 * @b goes backwards to the partner's chaining value in, @f forwards to its
 * state after step 79 (out = b + f). WP(t) is the partner's message word
 * t (the block's W[t] ^ the DV's dm[t]). Written as loops, one per round
 * function, not unrolled: unrolled for both test steps the scalar code was
 * about 20 KB and measured no faster.
 */
#define FSHA1DC_RECOMPRESS(testt, b, f, WP, ROL)                                               \
	do {                                                                                   \
		const uint32_t K1_ = FSHA1DC_K1, K2_ = FSHA1DC_K2, K3_ = FSHA1DC_K3,            \
			       K4_ = FSHA1DC_K4;                                               \
		int tb_ = (testt) - 1, tf_ = (testt);                                          \
		if ((testt) == 58) { /* forwards 58..59 MAJ, 60..79 PAR */                     \
			FSHA1DC_PAIRS(2, FSHA1DC_F_MAJ, K3_, 1, FSHA1DC_F_MAJ, K3_, b, f, WP, ROL); \
			FSHA1DC_PAIRS(16, FSHA1DC_F_MAJ, K3_, 1, FSHA1DC_F_PAR, K4_, b, f, WP, ROL); \
			FSHA1DC_PAIRS(4, FSHA1DC_F_PAR, K2_, 1, FSHA1DC_F_PAR, K4_, b, f, WP, ROL); \
			FSHA1DC_PAIRS(16, FSHA1DC_F_PAR, K2_, 0, FSHA1DC_F_PAR, 0, b, f, WP, ROL); \
		} else { /* 65: forwards 65..79 PAR */                                         \
			FSHA1DC_PAIRS(5, FSHA1DC_F_PAR, K4_, 1, FSHA1DC_F_PAR, K4_, b, f, WP, ROL); \
			FSHA1DC_PAIRS(10, FSHA1DC_F_MAJ, K3_, 1, FSHA1DC_F_PAR, K4_, b, f, WP, ROL); \
			FSHA1DC_PAIRS(10, FSHA1DC_F_MAJ, K3_, 0, FSHA1DC_F_PAR, 0, b, f, WP, ROL); \
			FSHA1DC_PAIRS(20, FSHA1DC_F_PAR, K2_, 0, FSHA1DC_F_PAR, 0, b, f, WP, ROL); \
		}                                                                              \
		FSHA1DC_PAIRS(20, FSHA1DC_F_CH, K1_, 0, FSHA1DC_F_PAR, 0, b, f, WP, ROL);      \
	} while (0)

/*
 * The vector rechecks' common part (x86/sha1dc_avx2.c, 8 jobs a vector;
 * x86/sha1dc_avx512.c, 16): from the jobs' words, one job a lane, J(k) the
 * vector of word k of struct fsha1dc_job (at 0..4, in 5..9, out 10..14,
 * testt 15, mp 16..31), the partner's schedule W[0..79], its recompression
 * from the state at, and @din / @dout zero in the lanes whose partner's
 * chaining value in / out equals the job's. V is the vector type, ROL its
 * rotate.
 *
 * A vector takes jobs of both test steps: a job of step 58 is first taken
 * to step 65 by its partner's steps 58..64 forwards, and the recompression
 * from 65 (backwards to 0, forwards to 79) is then the same as from 58,
 * since each backward step undoes its forward step exactly. Those 7 steps
 * run where @any58 (some lane is of step 58), and SEL(x, y) keeps their
 * result x in the lanes of step 58 and y in the others. Grouped by test
 * step instead, a single message's dozen jobs of 16 KiB took two vectors
 * of AVX-512 or AVX2 where one does.
 */
#define FSHA1DC_RECHECK_LANES(V, J, ROL, any58, SEL, din, dout)                                 \
	do {                                                                                   \
		V Wr_[80], bk_[5], fw_[5];                                                        \
		for (int t_ = 0; t_ < 16; t_++)                                                \
			Wr_[t_] = J(16 + t_);                                                   \
		for (int t_ = 16; t_ < 80; t_++)                                               \
			Wr_[t_] = ROL(Wr_[t_ - 3] ^ Wr_[t_ - 8] ^ Wr_[t_ - 14] ^ Wr_[t_ - 16], 1);   \
		for (int w_ = 0; w_ < 5; w_++)                                                 \
			bk_[w_] = fw_[w_] = J(w_);                                               \
		if (any58) {                                                                   \
			FSHA1DC_ROUND_FWD(fw_, 58, Wr_[58], FSHA1DC_F_MAJ, FSHA1DC_K3, ROL);   \
			FSHA1DC_ROUND_FWD(fw_, 59, Wr_[59], FSHA1DC_F_MAJ, FSHA1DC_K3, ROL);   \
			for (int t_ = 60; t_ < 65; t_++)                                       \
				FSHA1DC_ROUND_FWD(fw_, t_, Wr_[t_], FSHA1DC_F_PAR, FSHA1DC_K4, ROL); \
			for (int w_ = 0; w_ < 5; w_++)                                         \
				bk_[w_] = fw_[w_] = SEL(fw_[w_], bk_[w_]);                      \
		}                                                                              \
		FSHA1DC_RECOMPRESS(65, bk_, fw_, FSHA1DC_RECHECK_WP_, ROL);                       \
		for (int w_ = 0; w_ < 5; w_++) {                                               \
			din |= bk_[w_] ^ J(5 + w_);                                             \
			dout |= (bk_[w_] + fw_[w_]) ^ J(10 + w_);                                \
		}                                                                              \
	} while (0)
#define FSHA1DC_RECHECK_WP_(t) (Wr_[t])

/* The SIMD builds' filters (x86/sha1dc_*.c, arm/sha1dc_neon.c) are declared
 * in sha1_impl.h, for the rows that name them. */

#endif
