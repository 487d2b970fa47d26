/* SPDX-License-Identifier: MIT */
/*
 * SHA1DC's deferred rechecks (sha1dc_jobs.h): the scalar recheck of a job
 * (the recheck of rows without a SIMD one), the jobs of a block from its
 * record, and the waiting jobs rechecked by the row and decided in block
 * order, with the safe hash of a block found to collide.
 */
#include <string.h>

#include "sha1dc_jobs.h"

void fsha1dc_job_partner(const struct fsha1dc_job *j, uint32_t in[5], uint32_t out[5])
{
	uint32_t W[80], b[5], f[5];
	memcpy(W, j->mp, sizeof(j->mp));
	fsha1dc_expand_rest(W);
	memcpy(b, j->at, sizeof(b));
	memcpy(f, j->at, sizeof(f));
#define WP(t) (W[t])
	FSHA1DC_RECOMPRESS((int)j->testt, b, f, WP, fsha_rol32);
#undef WP
	for (int w = 0; w < 5; w++) {
		in[w] = b[w];
		out[w] = b[w] + f[w];
	}
}

void fsha1dc_recheck_portable(struct fsha1dc_job *const *jobs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct fsha1dc_job *j = jobs[i];
		uint32_t in[5], out[5];
		fsha1dc_job_partner(j, in, out);
		j->eq = (memcmp(out, j->out, sizeof(out)) == 0 ? 1u : 0u) |
			(memcmp(in, j->in, sizeof(in)) == 0 ? 2u : 0u);
	}
}

/* A state (a, b, c, d, e) from a record's ABCD vector @v and the vector
 * four steps before it @p (e = rol30 of its A). */
static void state_of(const uint32_t v[4], const uint32_t p[4], uint32_t s[5])
{
	s[0] = v[3];
	s[1] = v[2];
	s[2] = v[1];
	s[3] = v[0];
	s[4] = fsha_rol32(p[3], 30);
}

void fsha1dc_pend_block(struct fsha1dc_pending *P, const uint8_t *block, uint64_t blockno,
			size_t msg, uint32_t mask, const struct fsha1dc_rec *rec,
			const uint32_t out[5])
{
	uint32_t s58[5] = { 0 }, s65[5] = { 0 }, in[5];
	const unsigned need = fsha1dc_need_of(mask);
	fsha1dc_h_of_in(rec->in, in);
	if (need & 1)
		state_of(rec->s56, rec->s56 + 4, s58);
	if (need & 2)
		state_of(rec->s64, rec->s64 + 4, s65);
	fsha1dc_pend_from(P, block, blockno, msg, mask, need, s58, rec->w56[3], rec->w56[2], s65,
			  rec->w64[3], in, out);
}

void fsha1dc_recheck_pending(const struct fsha1dc_ops *ops, struct fsha1dc_pending *P)
{
	struct fsha1dc_job *all[FSHA1DC_PEND];
	for (size_t i = 0; i < P->n; i++)
		all[i] = &P->e[i].job;
	const fsha1dc_recheck_fn recheck = ops->recheck ? ops->recheck : fsha1dc_recheck_portable;
	if (P->n)
		recheck(all, P->n);
}

/* The safe hash of a flagged block: its output compressed twice more. */
static void safe_hash(const struct fsha1dc_pend *e, uint32_t h[5])
{
	uint32_t W[80];
	fsha1dc_expand(e->block, W);
	memcpy(h, e->job.out, 5 * sizeof(uint32_t));
	fsha1dc_compress_plain(h, W);
	fsha1dc_compress_plain(h, W);
}

uint64_t fsha1dc_flush_pending(fsha1dc_state *st, const struct fsha1dc_ops *ops,
			       struct fsha1dc_pending *P)
{
	fsha1dc_recheck_pending(ops, P);
	const size_t n = P->n;
	const uint64_t saved = st->blocks;
	uint64_t last = UINT64_MAX;
	P->n = 0;
	for (size_t i = 0; i < n; i++) {
		const struct fsha1dc_pend *e = &P->e[i];
		if (!fsha1dc_job_hit(e, st->options) || e->blockno == last)
			continue;
		last = e->blockno;
		st->blocks = e->blockno;
		fsha1dc_flag(st, e->d);
		if (st->options & FASTSHA1DC_SAFE_HASH) {
			safe_hash(e, st->h);
			return e->blockno + 1;
		}
	}
	st->blocks = saved;
	return 0;
}
