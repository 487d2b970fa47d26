/* SPDX-License-Identifier: MIT */
/*
 * SHA1DC on one message: the engine's thunk, fsha1dc_compress(), and its
 * paths through the row in use. The scalar path (rows without SHA1DC
 * parts) filters and checks each block in plain C; the record path (rows
 * that keep records), the pipelined path (a row with a dc pipe: SHA-NI)
 * and the filtered path (other rows with a filter) leave the blocks the
 * filter let through as jobs (sha1dc_jobs.h), rechecked together, and take
 * the message up again after a block whose safe hash changed the chaining
 * value.
 */
#include <string.h>

#include "sha1dc_jobs.h"

/* The scalar path: each block expanded once, for the filter and the check. */
static void blocks_scalar(fsha1dc_state *st, const uint8_t *data, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint32_t W[80];
		fsha1dc_expand(data + 64 * i, W);
		fsha1dc_check_w(st, W, fsha1dc_ubc_portable(W));
	}
}

/* How many blocks a SIMD filter takes per call: a multiple of every
 * filter's width (32 blocks for AVX2), small enough for the stack. */
#define FILTER_CHUNK 64

/*
 * The masks of @n blocks through @filter. A SIMD run costs the same for 1
 * block as for a full one (16 or 32 blocks, schedules included), and that
 * is still less than the scalar filter's 2,350 instructions for one block
 * (callgrind: its 800 operations on 32-bit registers spill), so even a
 * message's one-block tail takes the SIMD filter; the AVX2 one takes up to
 * 8 blocks one at a time with the DVs in its lanes (x86/sha1dc_avx2.c).
 */
static inline void filter_n(fsha1dc_filter_fn filter, const uint8_t *data, size_t n,
			    uint32_t *masks)
{
	const uint8_t *p[FILTER_CHUNK];
	for (size_t i = 0; i < n; i++)
		p[i] = data + 64 * i;
	filter(p, n, masks);
}

/* The record path's chunks: FSHA1DC_REC_CHUNK blocks, or twice as many
 * (sha1dc_impl.h). */
_Static_assert(2 * FSHA1DC_REC_CHUNK <= FSHA1DC_NAR_STRIDE, "a chunk's records fit nar");

/*
 * The jobs of @n consecutive blocks whose records are @rec and bytes
 * @blocks, the first numbered @first: each block that @flagged names (bit
 * i: masks[i] is not 0), from its record; @next_h is the chaining value
 * after the last (the others' is the next block's record). Waiting jobs
 * are rechecked first where they would not fit; returns what
 * fsha1dc_flush_pending() did then (0, or where to start again). For a chunk
 * of the pipeline and for the short path's chunks alike.
 */
static uint64_t pend_run(fsha1dc_state *st, const struct fsha1dc_ops *ops,
			 struct fsha1dc_pending *P, const struct fsha1dc_rec *rec,
			 const uint8_t *blocks, uint64_t first, size_t n, const uint32_t *masks,
			 uint64_t flagged, const uint32_t next_h[5])
{
	for (; flagged; flagged &= flagged - 1) {
		const size_t i = (size_t)__builtin_ctzll(flagged);
		if (P->n + fsha1dc_njobs(masks[i]) > FSHA1DC_PEND) { /* room for its jobs */
			const uint64_t redo = fsha1dc_flush_pending(st, ops, P);
			if (redo)
				return redo;
		}
		uint32_t out[5];
		if (i + 1 < n)
			fsha1dc_h_of_in(rec[i + 1].in, out);
		else
			memcpy(out, next_h, sizeof(out));
		fsha1dc_pend_block(P, blocks + 64 * i, first + i, 0, masks[i], &rec[i], out);
	}
	return 0;
}

/*
 * @fn hashes the @k blocks at @data into @st (the next ones, numbered from
 * st->blocks), leaving jobs in @P for its flagged blocks, and returns 0, or
 * one more than a flagged block's number where a detection with the safe
 * hash on changed the chaining value (fsha1dc_flush_pending()).
 */
typedef uint64_t (*dc_chunk_fn)(fsha1dc_state *st, const struct fsha1_backend *row,
				struct fsha1dc_pending *P, const uint8_t *data, size_t k);

/*
 * The record path's and the filtered path's loop: @nblocks blocks through
 * @fn in chunks of at most @chunk, their jobs rechecked together at the end
 * (or sooner, by @fn, when too many wait); where a detection changed the
 * chaining value, the blocks are taken up again after that block (the
 * jobs of later blocks are dropped with the work they belonged to). Inlined
 * into each path with its own @fn.
 */
static inline __attribute__((always_inline)) void
dc_chunks(fsha1dc_state *st, const struct fsha1_backend *row, const uint8_t *data, size_t nblocks,
	  size_t chunk, dc_chunk_fn fn)
{
	struct fsha1dc_pending P;
	const uint8_t *const data0 = data;
	const uint64_t first = st->blocks;
	const size_t total = nblocks;
	P.n = 0;
	while (nblocks) {
		const size_t k = nblocks < chunk ? nblocks : chunk;
		uint64_t redo = fn(st, row, &P, data, k);
		if (!redo && k == nblocks)
			redo = fsha1dc_flush_pending(st, row->dc, &P);
		if (redo) { /* again from the block after the one detected */
			const size_t done = (size_t)(redo - first);
			st->blocks = redo;
			data = data0 + 64 * done;
			nblocks = total - done;
			P.n = 0;
			continue;
		}
		data += 64 * k;
		nblocks -= k;
	}
}

/*
 * The fast path of rows that keep records (SHA-NI for what the pipeline
 * does not take, AVX2): the row compresses a chunk of blocks straight
 * through, keeping each block's record; the filter runs on the records;
 * each flagged block's DVs wait as jobs (made from its record, which is
 * then no longer needed), rechecked together at the end of the call
 * (fsha1dc_flush_pending()) or sooner when too many wait: per chunk, two or
 * three jobs would each take a recheck of 8 to themselves (a long message
 * on the AVX2 row ran no faster with records than without, flushing per
 * chunk). A detection with the safe hash on changes the chaining value,
 * and the blocks are then taken up again after that block (only colliding
 * files do that): dc_chunks(). rec_chunk() is one chunk.
 */
static uint64_t rec_chunk(fsha1dc_state *st, const struct fsha1_backend *row,
			  struct fsha1dc_pending *P, const uint8_t *data, size_t k)
{
	const struct fsha1dc_ops *ops = row->dc;
	struct fsha1dc_rec rec[2 * FSHA1DC_REC_CHUNK];
	uint64_t nar[9 * FSHA1DC_NAR_STRIDE];
	uint32_t masks[2 * FSHA1DC_REC_CHUNK];
	const uint64_t base = st->blocks;
	ops->rec(st->h, data, k, rec, nar);
	const uint64_t flagged = ops->filter_rec(nar, k, masks);
	const uint64_t redo = pend_run(st, ops, P, rec, data, base, k, masks, flagged, st->h);
	st->blocks = base + k;
	return redo;
}

static void blocks_rec(fsha1dc_state *st, const struct fsha1_backend *row, const uint8_t *data,
		       size_t nblocks)
{
	dc_chunks(st, row, data, nblocks,
		  row->dc->pipe ? FSHA1DC_REC_CHUNK : 2 * FSHA1DC_REC_CHUNK, rec_chunk);
}

/*
 * The pipelined path (rows with a dc pipe, SHA-NI): whole chunks of
 * FSHA1DC_PIPE_B blocks through ops->pipe, which filters chunk c-1 while it
 * compresses chunk c; the last chunk is filtered by one more call with no
 * blocks. The blocks the filter let through wait as
 * jobs (struct fsha1dc_pending) and are rechecked together at the end, or
 * sooner when too many wait. Takes runs of at least two chunks; returns
 * how many blocks it hashed (whole chunks, fewer where a detection with the
 * safe hash on made it start again after the flagged block). @test_masks
 * (tests only, else NULL) receives the masks of every block, when no
 * detection changed the chaining value.
 */
static size_t blocks_pipe(fsha1dc_state *st, const struct fsha1dc_ops *ops, const uint8_t *data,
			  size_t nblocks, uint32_t *test_masks)
{
	const size_t B = FSHA1DC_PIPE_B;
	struct fsha1dc_pipe pp;
	struct fsha1dc_pending P;
	size_t done = 0;
	P.n = 0;
	for (;;) {
		const size_t nch = (nblocks - done) / B;
		if (nch < 2)
			return done;
		const uint8_t *base = data + 64 * done;
		const uint64_t first = st->blocks;
		uint64_t redo = 0; /* 0, or one more than the block to start again after */
		/* Call nch has no blocks of its own: it filters the last chunk. */
		for (size_t c = 0; c < nch + 1 && !redo; c++) {
			ops->pipe(st->h, c < nch ? base + 64 * B * c : NULL, &pp, c);
			if (c < 1)
				continue;
			uint32_t next[5]; /* the chaining value after chunk c - 1 */
			if (c < nch)
				fsha1dc_h_of_in(pp.rec[c % 2][0].in, next);
			else
				memcpy(next, st->h, sizeof(next));
			if (test_masks) /* as the checks see them: through flagged */
				for (size_t i = 0; i < B; i++)
					test_masks[B * (c - 1) + i] =
						(pp.flagged >> i & 1) ? pp.masks[i] : 0;
			redo = pend_run(st, ops, &P, pp.rec[(c - 1) % 2], base + 64 * B * (c - 1),
					first + B * (c - 1), B, pp.masks, pp.flagged, next);
		}
		if (!redo)
			redo = fsha1dc_flush_pending(st, ops, &P);
		P.n = 0;
		const size_t adv = redo ? (size_t)(redo - first) : B * nch;
		st->blocks = first + adv;
		done += adv;
	}
}

/*
 * The filtered path (rows that keep no records): the row's filter on a
 * chunk, its blocks() over each run of blocks no DV survived, the others
 * compressed here with their jobs waiting (fsha1dc_pend_w()). The jobs are
 * rechecked together at the end (or sooner when too many wait: a recheck
 * of 8 costs about what one of 1 does), and where a detection changed the
 * chaining value (safe hash) the blocks are taken up again after that
 * block (dc_chunks()). Its own function: fsha1dc_compress() keeps no
 * waiting list of its own (16 KB) on the stack for the other paths.
 * filtered_chunk() is one chunk.
 */
static uint64_t filtered_chunk(fsha1dc_state *st, const struct fsha1_backend *row,
			       struct fsha1dc_pending *P, const uint8_t *data, size_t k)
{
	uint32_t masks[FILTER_CHUNK];
	uint64_t redo = 0;
	filter_n(row->dc->filter, data, k, masks);
	for (size_t i = 0; i < k && !redo;) {
		size_t j = i;
		while (j < k && masks[j] == 0)
			j++;
		if (j > i) {
			row->blocks(st->h, data + 64 * i, j - i);
			st->blocks += j - i;
		}
		if (j < k) {
			if (P->n + fsha1dc_njobs(masks[j]) > FSHA1DC_PEND)
				redo = fsha1dc_flush_pending(st, row->dc, P);
			if (!redo)
				fsha1dc_pend_w(P, st, data + 64 * j, masks[j]);
		}
		i = j + 1;
	}
	return redo;
}

static void blocks_filtered(fsha1dc_state *st, const struct fsha1_backend *row,
			    const uint8_t *data, size_t nblocks)
{
	dc_chunks(st, row, data, nblocks, FILTER_CHUNK, filtered_chunk);
}

/*
 * The engine's thunk: through the row in use, its pipeline, its record
 * path, or its filter with its ordinary blocks() over each run of blocks no
 * DV survived (rows without SHA1DC parts: the scalar path).
 */
void fsha1dc_compress(void *state, const uint8_t *data, size_t nblocks)
{
	fsha1dc_state *st = state;
	const struct fsha1_backend *row = fsha1_active();
	const struct fsha1dc_ops *ops = row->dc;
	if (!ops) {
		blocks_scalar(st, data, nblocks);
		return;
	}
	if (ops->pipe && nblocks >= 2 * FSHA1DC_PIPE_B) {
		const size_t done = blocks_pipe(st, ops, data, nblocks, NULL);
		data += 64 * done;
		nblocks -= done;
		if (!nblocks)
			return;
	}
	if (ops->rec) { /* its filter on records costs less than on blocks, even for one */
		blocks_rec(st, row, data, nblocks);
		return;
	}
	blocks_filtered(st, row, data, nblocks);
}

size_t fsha1dc_pipe_masks(const struct fsha1dc_ops *ops, const uint8_t *data, size_t nblocks,
			  uint32_t *masks, uint32_t h[5])
{
	fsha1dc_state st = fsha1dc_iv;
	const size_t done = blocks_pipe(&st, ops, data, nblocks, masks);
	memcpy(h, st.h, sizeof(st.h));
	return done;
}
