/* SPDX-License-Identifier: MIT */
/*
 * SHA1DC over a batch on a lane row that keeps records (fastsha1dc_many(),
 * sha1dc_many.c, picks it; the lanes' bookkeeping is sha1dc_many.h's): the
 * kernel steps, the window of their blocks that one filter call takes, the
 * jobs of the flagged blocks (sha1dc_jobs.h) and the decision on them.
 *
 * The rows: SHA-NI x2, x4; avx2_x8 and avx512_x16, whose records are
 * word-major, struct fsha1dc_recw. The other way round from the rows
 * without records: the kernel runs every live lane over its next blocks (up
 * to DC_REC_CHUNK, and no more than the window holds: 8 for 8 lanes, 4 for
 * 16) keeping their records, the filter runs on the blocks of as many such
 * steps as fit one call (struct dc_win), and each flagged block's DVs wait
 * as jobs (struct fsha1dc_pending) with those of the steps after it, until
 * FSHA1DC_PEND are full or the batch ends: rechecked 8 at a time (AVX2)
 * when many wait, instead of a vector of two or three jobs each step (it
 * was half the recheck's time). So the lanes go on past a block before it
 * is decided; a message with a block whose partner collides (only colliding
 * inputs: never seen on random data) is then hashed again on its own,
 * fastsha1dc() from the start, which writes its digest and flag whether its
 * lane still carries it (the lane drops it) or finished it before.
 */
#include <string.h>

#include "sha1dc_jobs.h"
#include "sha1dc_many.h"

#define DC_REC_CHUNK 16
#define DC_REC_MAXL 16
/* A step of more blocks than the window holds is cut (fsha1dc_batch_rec()). */
_Static_assert(DC_REC_MAXL <= FSHA1DC_NAR_STRIDE, "a step of one block a lane fits nar");

/* Lane @l to its next block, or its message done and the next started:
 * returns 0 when no message is left for it. */
static int dc_rec_next(struct fsha1dc_batch *B, unsigned l, size_t n, size_t *next)
{
	struct fsha1dc_lane *ln = &B->ln[l];
	while (ln->left == 0) {
		if (!ln->in_tail) {
			fsha1dc_batch_to_tail(B, l, 0);
			continue;
		}
		if (!ln->redone)
			fsha1dc_batch_done(B, l);
		if (*next >= n)
			return 0;
		fsha1dc_batch_start(B, l, (*next)++);
	}
	return 1;
}

/*
 * The blocks of the last kernel steps, not yet filtered: steps are gathered
 * until the window's FSHA1DC_NAR_STRIDE blocks are full (a step is cut to
 * fill it), then filtered in one call (dc_win_flush()). A step of one or
 * two blocks a lane (a short message, a padding block) would otherwise pay
 * a whole SIMD run for 4 or 8 blocks: 1024 x 64 B messages ran 2.3x
 * slower that way. Step s's block j of lane l is entry step[s].at + j * L +
 * l of the records; per step and lane the window keeps what a job of its
 * blocks would need: where the blocks are (padded tails copied into the
 * window, since a lane's tail buffer is reused by its next message), the
 * message (SIZE_MAX: an idle lane's rerun), and the chaining value after
 * its last block (the others' is the next block's record). Per step, not
 * per block: the bookkeeping of every block cost 2.5% of a 4 KiB batch.
 */
/* Steps of at least 2 lanes x 1 block would fill the window in
 * FSHA1DC_NAR_STRIDE / 2; it is flushed after this many instead (a step of
 * one block a lane is a short message or a padding block, whose kernel call
 * costs more than its share of the filter's). */
#define DC_WIN_STEPS 32
struct dc_win {
	size_t n, nsteps, ntail;
	struct {
		size_t at, m;
		const uint8_t *ptr[DC_REC_MAXL];
		size_t msg[DC_REC_MAXL];
		uint32_t out[DC_REC_MAXL][5];
	} step[DC_WIN_STEPS];
	union { /* the row's records: lanes_rec's, or lanes_recw's (8 or 16 lanes) */
		struct fsha1dc_rec rec[FSHA1DC_NAR_STRIDE];
		struct fsha1dc_recw recw[FSHA1DC_NAR_STRIDE / 8];
	};
	union { /* what the filter reads: narrowed bytes, or lanes_words' words */
		uint64_t nar[9 * FSHA1DC_NAR_STRIDE];
		struct fsha1dc_words words[FSHA1DC_NAR_STRIDE / FSHA1DC_RECW_L];
	};
	int use_words; /* dc_words() of the row */
	uint32_t masks[FSHA1DC_NAR_STRIDE];
	_Alignas(64) uint8_t tail[FSHA1DC_NAR_STRIDE][64];
};

/*
 * The waiting jobs of a batch rechecked; each message with a job whose
 * partner collides hashed again on its own, once: its later jobs in P and
 * its blocks still in the window @W are dropped (message SIZE_MAX), and a
 * lane of the @L that still carries it drops it (left 0, redone set: its
 * digest is not written again), so nothing of it comes back.
 */
static void dc_batch_decide(struct fsha1dc_batch *B, const struct fsha1dc_ops *ops,
			    struct fsha1dc_pending *P, unsigned L, struct dc_win *W)
{
	fsha1dc_recheck_pending(ops, P);
	for (size_t i = 0; i < P->n; i++) {
		const size_t msg = P->e[i].msg;
		if (msg == SIZE_MAX || !fsha1dc_job_hit(&P->e[i], fsha1dc_iv.options))
			continue;
		if (B->redo && B->redo->n < FSHA1DC_REDO) {
			B->redo->msg[B->redo->n++] = msg;
		} else {
			B->hits += fsha1dc_batch_alone(B->msgs, msg, B->out, B->detected);
		}
		for (size_t k = i + 1; k < P->n; k++)
			if (P->e[k].msg == msg)
				P->e[k].msg = SIZE_MAX;
		for (size_t st = 0; st < W->nsteps; st++)
			for (unsigned l = 0; l < L; l++)
				if (W->step[st].msg[l] == msg)
					W->step[st].msg[l] = SIZE_MAX;
		for (unsigned l = 0; l < L; l++)
			if (B->ln[l].msg == msg && !B->ln[l].redone) {
				B->ln[l].redone = 1;
				B->ln[l].left = 0;
				B->ln[l].in_tail = 1;
			}
	}
	P->n = 0;
}

/* Step @m blocks a lane just run into the window at entry W->n. */
static void dc_win_add(struct dc_win *W, const struct fsha1dc_batch *B, const int *live, unsigned L,
		       size_t m)
{
	const size_t s = W->nsteps++;
	W->step[s].at = W->n;
	W->step[s].m = m;
	for (unsigned l = 0; l < L; l++) {
		const struct fsha1dc_lane *ln = &B->ln[l];
		W->step[s].msg[l] = live[l] ? ln->msg : SIZE_MAX;
		W->step[s].ptr[l] = B->ptr[l];
		if (live[l] && ln->in_tail) {
			/* a block at a time, a constant size: vector moves, where
			 * memcpy of 64 * m bytes was a rep movsq, 6% of batches of
			 * 64-byte messages (perf) */
			for (size_t j = 0; j < m; j++)
				memcpy(W->tail[W->ntail + j], B->ptr[l] + 64 * j, 64);
			W->step[s].ptr[l] = W->tail[W->ntail];
			W->ntail += m;
		}
		memcpy(W->step[s].out[l], B->h[l], sizeof(W->step[s].out[l]));
	}
	W->n += m * L;
}

/* The window's blocks filtered and the flagged ones' DVs made jobs (rechecked
 * and decided as P fills); blocks of messages already hashed again on
 * their own (message SIZE_MAX, dc_batch_decide()) are skipped. */
static void dc_win_flush(struct fsha1dc_batch *B, const struct fsha1dc_ops *ops, struct dc_win *W,
			 struct fsha1dc_pending *P, unsigned L)
{
	if (!W->n)
		return;
	/* L is a power of two (fsha1dc_keeps_records()): shifts, where
	 * divisions by it were 2 or 3 64-bit divides a job */
	const unsigned lsh = (unsigned)__builtin_ctz(L);
	size_t s = 0;
	for (size_t at = 0; at < W->n; at += FSHA1DC_FILTER_MAX) {
		const size_t cnt = W->n - at < FSHA1DC_FILTER_MAX ? W->n - at : FSHA1DC_FILTER_MAX;
		uint64_t flagged =
			W->use_words ? ops->filter_words(W->words + at / FSHA1DC_RECW_L, cnt,
							 W->masks + at)
				     : ops->filter_rec(W->nar + at, cnt, W->masks + at);
		for (; flagged; flagged &= flagged - 1) {
			const size_t b = at + (size_t)__builtin_ctzll(flagged);
			while (b >= W->step[s].at + W->step[s].m * L)
				s++;
			const size_t j = (b - W->step[s].at) >> lsh;
			const unsigned l = (unsigned)((b - W->step[s].at) & (L - 1));
			if (P->n + fsha1dc_njobs(W->masks[b]) > FSHA1DC_PEND) /* room for them */
				dc_batch_decide(B, ops, P, L, W);
			const size_t msg = W->step[s].msg[l]; /* after the decision, which may drop it */
			if (msg == SIZE_MAX)
				continue;
			/* the chaining value after the block: the step's out after its
			 * last block, else the next block's record's in */
			const uint8_t *block = W->step[s].ptr[l] + 64 * j;
			const int last = j + 1 == W->step[s].m;
			uint32_t o[5];
			if (last)
				memcpy(o, W->step[s].out[l], sizeof(o));
			if (ops->lanes_recw || W->use_words) {
				for (int k = 0; k < 5 && !last; k++)
					o[k] = W->recw[(b >> lsh) + 1].in[k][l];
				fsha1dc_pend_blockw(P, block, msg, W->masks[b],
						    &W->recw[b >> lsh], l, o);
			} else {
				if (!last)
					fsha1dc_h_of_in(W->rec[b + L].in, o);
				fsha1dc_pend_block(P, block, 0, msg, W->masks[b], &W->rec[b], o);
			}
		}
	}
	W->n = W->nsteps = W->ntail = 0;
}

/* Whether 16-lane row @r keeps words (lanes_words) on this CPU. */
static int dc_words(const struct fsha1_backend *r)
{
	const struct fsha1dc_ops *o = r->dc;
	return o && o->lanes_words && o->filter_words && r->info.lanes == FSHA1DC_RECW_L &&
	       (fsha_cpu_features() & o->words_cpu) == o->words_cpu;
}

/* Not inlined, should the files ever be built as one (LTO): its frame must
 * be gone when the messages in @redo are hashed again (fastsha1dc_many()). */
__attribute__((noinline)) size_t fsha1dc_batch_rec(const struct fsha1_backend *row,
						   const fastsha_msg *msgs, size_t n,
						   uint8_t (*out)[20], uint8_t *detected,
						   struct fsha1dc_redo *redo)
{
	struct fsha1dc_pending P;
	struct dc_win W;
	struct fsha1dc_batch B;
	const unsigned L = row->info.lanes;
	const unsigned min = row->info.min_lanes ? row->info.min_lanes : 2;
	size_t next = 0;
	int live[DC_REC_MAXL];
	fsha1dc_batch_init(&B, row, msgs, out, detected);
	B.redo = redo;
	P.n = 0;
	W.n = W.nsteps = W.ntail = 0;
	W.use_words = dc_words(row);
	for (unsigned l = 0; l < L; l++) {
		live[l] = next < n;
		if (live[l]) {
			fsha1dc_batch_start(&B, l, next++);
			live[l] = dc_rec_next(&B, l, n, &next);
		}
	}
	for (;;) {
		unsigned nlive = 0, first = 0;
		size_t m = DC_REC_CHUNK;
		for (unsigned l = 0; l < L; l++)
			if (live[l]) {
				if (!nlive++)
					first = l;
				if (B.ln[l].left < m)
					m = B.ln[l].left;
			}
		if (nlive < min)
			break;
		/* A step that would overrun the window is cut to fill it, so each
		 * filter call but the last has the full 64 blocks (two AVX2 runs). */
		if (W.n + m * L > FSHA1DC_NAR_STRIDE && W.n + L <= FSHA1DC_NAR_STRIDE)
			m = (FSHA1DC_NAR_STRIDE - W.n) / L;
		if (W.n + m * L > FSHA1DC_NAR_STRIDE || W.nsteps == DC_WIN_STEPS) {
			/* A message hashed again on its own leaves its lane, which
			 * takes the next one; then the step is worked out anew. */
			dc_win_flush(&B, row->dc, &W, &P, L);
			for (unsigned l = 0; l < L; l++)
				if (live[l] && B.ln[l].redone)
					live[l] = dc_rec_next(&B, l, n, &next);
			continue;
		}
		for (unsigned l = 0; l < L; l++) /* an idle lane reruns a live lane's data */
			if (!live[l])
				B.ptr[l] = B.ptr[first];
		if (W.use_words)
			row->dc->lanes_words(B.h, B.ptr, m, W.recw + W.n / L, W.words + W.n / L);
		else if (row->dc->lanes_recw)
			row->dc->lanes_recw(B.h, B.ptr, m, W.recw + W.n / L, W.nar + W.n);
		else
			row->dc->lanes_rec(B.h, B.ptr, m, W.rec + W.n, W.nar + W.n);
		dc_win_add(&W, &B, live, L, m);
		for (unsigned l = 0; l < L; l++) {
			if (!live[l])
				continue;
			B.ptr[l] += 64 * m;
			B.ln[l].left -= m;
			live[l] = dc_rec_next(&B, l, n, &next);
		}
	}
	for (unsigned l = 0; l < L; l++)
		if (live[l])
			fsha1dc_batch_finish(&B, l);
	dc_win_flush(&B, row->dc, &W, &P, L);
	dc_batch_decide(&B, row->dc, &P, L, &W);
	return B.hits;
}

/* Of a power of two lanes: dc_win_flush() shifts. */
int fsha1dc_keeps_records(const struct fsha1_backend *r)
{
	return r->lanes && r->dc && (r->info.lanes & (r->info.lanes - 1)) == 0 &&
	       (r->dc->lanes_rec ? r->info.lanes <= DC_REC_MAXL
				 : (r->dc->lanes_recw || dc_words(r)) && r->info.lanes >= 8 &&
					   r->info.lanes <= FSHA1DC_RECW_L);
}
