/* SPDX-License-Identifier: MIT */
/*
 * SHA1DC over a batch of messages, fastsha1dc_many(): which lane row takes
 * the batch, the lanes' bookkeeping (sha1dc_many.h), and the batch on a
 * lane row without records; rows that keep records take
 * sha1dc_many_rec.c's.
 */
#include <string.h>

#include "../core/family.h"
#include "sha1dc_many.h"

static const uint8_t *msg_bytes(const fastsha_msg *m)
{
	static const uint8_t none[1];
	return m->len ? m->data : none;
}

void fsha1dc_batch_to_tail(struct fsha1dc_batch *B, unsigned l, size_t whole)
{
	struct fsha1dc_lane *ln = &B->ln[l];
	const fastsha_msg *m = &B->msgs[ln->msg];
	const uint8_t *d = msg_bytes(m);
	const size_t body = m->len / 64 * 64;
	if (whole)
		memcpy(ln->tail, d + body - 64, 64);
	ln->left = whole + fsha_md_pad(ln->tail + 64 * whole, d + body, m->len - body, m->len, 0, 0,
				       64, 8);
	ln->in_tail = 1;
	ln->mpos = ln->mn = 0;
	B->ptr[l] = ln->tail;
}

void fsha1dc_batch_finish(struct fsha1dc_batch *B, unsigned l)
{
	struct fsha1dc_lane *ln = &B->ln[l];
	memcpy(ln->ds.h, B->h[l], sizeof(ln->ds.h));
	if (ln->left)
		fsha1dc_compress(&ln->ds, B->ptr[l], ln->left);
	if (!ln->in_tail) {
		fsha1dc_batch_to_tail(B, l, 0);
		fsha1dc_compress(&ln->ds, B->ptr[l], ln->left);
	}
	memcpy(B->h[l], ln->ds.h, sizeof(ln->ds.h));
	fsha1dc_batch_done(B, l);
}

/*
 * SHA1DC over a batch on a lane row without records (armv8_x2, the portable
 * test row; the record path, sha1dc_many_rec.c, is faster): the row's
 * ordinary SHA-1 lane kernel advances every lane over blocks its filter let
 * through, and a block that passed the filter is checked on its own
 * (fsha1dc_block()) in that lane before the lanes go on. Each lane filters
 * its message a chunk of blocks ahead (FSHA1DC_BATCH_CHUNK), so a kernel
 * call runs all lanes up to the first flagged block of any of them (on
 * random data a block in twenty is flagged: with 4 lanes a call advances
 * about 5 blocks). This is the general lane scheduler's scheme
 * (src/core/lanes.c) cut down to what SHA1DC needs (sha1dc_many.h).
 */

/* dc_settle()'s answer for a lane whose next blocks have no masks yet. */
#define DC_NEED SIZE_MAX

/*
 * Bring lane @l to a block the filter let through: check flagged blocks on
 * their own, move from body to tail, finish the message. Returns the
 * number of blocks from there that the lane kernel may run (all passed the
 * filter), 0 when the message is done (its digest written), or DC_NEED
 * when the lane's next blocks are still to be filtered (dc_filter_lanes()).
 */
static size_t dc_settle(struct fsha1dc_batch *B, unsigned l)
{
	struct fsha1dc_lane *ln = &B->ln[l];
	for (;;) {
		if (ln->left == 0) {
			if (ln->in_tail) {
				fsha1dc_batch_done(B, l);
				return 0;
			}
			fsha1dc_batch_to_tail(B, l, 0);
			continue;
		}
		if (ln->mpos == ln->mn)
			return DC_NEED;
		if (ln->mk[ln->mpos] == 0)
			break;
		memcpy(ln->ds.h, B->h[l], sizeof(ln->ds.h));
		fsha1dc_block(&ln->ds, B->ptr[l], ln->mk[ln->mpos]);
		memcpy(B->h[l], ln->ds.h, sizeof(ln->ds.h));
		B->ptr[l] += 64;
		ln->left--;
		ln->mpos++;
	}
	size_t run = 1;
	while (ln->mpos + run < ln->mn && ln->mk[ln->mpos + run] == 0)
		run++;
	return run;
}

/*
 * The masks of the next blocks (at most FSHA1DC_BATCH_CHUNK, within the
 * segment) of every lane in need[0..nneed), in one call of the filter: the
 * one- or two-block tails of short messages in several lanes share a SIMD
 * run instead of paying one each (a run costs the same for 1 block as for a
 * full one).
 */
static void dc_filter_lanes(struct fsha1dc_batch *B, const unsigned *need, unsigned nneed)
{
	const uint8_t *p[FSHA1DC_BATCH_MAXL * FSHA1DC_BATCH_CHUNK];
	uint32_t m[FSHA1DC_BATCH_MAXL * FSHA1DC_BATCH_CHUNK];
	size_t n = 0;
	for (unsigned i = 0; i < nneed; i++) {
		struct fsha1dc_lane *ln = &B->ln[need[i]];
		size_t k = ln->left < FSHA1DC_BATCH_CHUNK ? ln->left : FSHA1DC_BATCH_CHUNK;
		for (size_t j = 0; j < k; j++)
			p[n + j] = B->ptr[need[i]] + 64 * j;
		ln->mpos = 0;
		ln->mn = k;
		n += k;
	}
	B->filter(p, n, m);
	n = 0;
	for (unsigned i = 0; i < nneed; i++) {
		struct fsha1dc_lane *ln = &B->ln[need[i]];
		memcpy(ln->mk, m + n, ln->mn * sizeof(m[0]));
		n += ln->mn;
	}
}

static size_t dc_batch(const struct fsha1_backend *row, const fastsha_msg *msgs, size_t n,
		       uint8_t (*out)[20], uint8_t *detected)
{
	struct fsha1dc_batch B;
	const unsigned L = row->info.lanes;
	const unsigned min = row->info.min_lanes ? row->info.min_lanes : 2;
	size_t run[FSHA1DC_BATCH_MAXL], next = 0;
	int live[FSHA1DC_BATCH_MAXL];
	fsha1dc_batch_init(&B, row, msgs, out, detected);
	for (unsigned l = 0; l < L; l++) {
		live[l] = next < n;
		run[l] = DC_NEED;
		if (live[l])
			fsha1dc_batch_start(&B, l, next++);
	}
	for (;;) {
		/* Every live lane to a runnable block: filter those that need it,
		 * all together, until none does. */
		for (;;) {
			unsigned need[FSHA1DC_BATCH_MAXL], nneed = 0;
			for (unsigned l = 0; l < L; l++)
				if (live[l] && run[l] == DC_NEED)
					need[nneed++] = l;
			if (!nneed)
				break;
			dc_filter_lanes(&B, need, nneed);
			for (unsigned i = 0; i < nneed; i++) {
				unsigned l = need[i];
				while ((run[l] = dc_settle(&B, l)) == 0 && next < n)
					fsha1dc_batch_start(&B, l, next++);
				live[l] = run[l] != 0;
			}
		}
		unsigned nlive = 0, first = 0;
		size_t m = SIZE_MAX;
		for (unsigned l = 0; l < L; l++)
			if (live[l]) {
				if (!nlive++)
					first = l;
				if (run[l] < m)
					m = run[l];
			}
		if (nlive < min)
			break;
		for (unsigned l = 0; l < L; l++) /* an idle lane reruns a live lane's data */
			if (!live[l])
				B.ptr[l] = B.ptr[first];
		row->lanes(B.h, B.ptr, m);
		for (unsigned l = 0; l < L; l++) {
			if (!live[l])
				continue;
			B.ptr[l] += 64 * m;
			B.ln[l].left -= m;
			B.ln[l].mpos += m;
			while ((run[l] = dc_settle(&B, l)) == 0 && next < n)
				fsha1dc_batch_start(&B, l, next++);
			live[l] = run[l] != 0;
		}
	}
	for (unsigned l = 0; l < L; l++)
		if (live[l])
			fsha1dc_batch_finish(&B, l);
	return B.hits;
}

size_t fastsha1dc_many(const fastsha_msg *msgs, size_t n, uint8_t (*out)[20], uint8_t *detected)
{
	msgs = fsha_cpu_clean_upper(msgs); /* before any SSE instruction: see cpu.h */
	const struct fsha_backend_info *rows[FSHA_MAX_LANES];
	const struct fsha1_backend *row = NULL;
	/* The widest of the batch's lane rows (the scheduler's, lanes.c) with
	 * no more lanes than messages: fewer messages than lanes would run idle
	 * lanes (2 x 4 KiB messages on shani_x4 ran 0.75x the one-shot loop,
	 * fastsha-bench --many --n 2), so 4..15 messages take shani_x4 where
	 * the batch row is avx512_x16, and fewer than any row's lanes go one
	 * at a time. */
	if (n >= 2) {
		const size_t k = fsha_lane_rows(&fsha1_family, fsha_active_many(&fsha1_family), rows);
		for (size_t i = 0; i < k && !row; i++)
			if (rows[i]->lanes >= 2 && rows[i]->lanes <= n &&
			    (i + 1 == k || n >= rows[i]->min_batch))
				row = (const struct fsha1_backend *)rows[i];
	}
	if (row && fsha1dc_keeps_records(row)) {
		struct fsha1dc_redo redo;
		redo.n = 0;
		size_t hits = fsha1dc_batch_rec(row, msgs, n, out, detected, &redo);
		for (size_t i = 0; i < redo.n; i++) /* see struct fsha1dc_redo */
			hits += fsha1dc_batch_alone(msgs, redo.msg[i], out, detected);
		return hits;
	}
	if (row && row->lanes && row->info.lanes <= FSHA1DC_BATCH_MAXL)
		return dc_batch(row, msgs, n, out, detected);
	size_t hits = 0;
	for (size_t i = 0; i < n; i++)
		hits += fsha1dc_batch_alone(msgs, i, out, detected);
	return hits;
}
