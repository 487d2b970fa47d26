/* SPDX-License-Identifier: MIT */
#ifndef FSHA1DC_MANY_H
#define FSHA1DC_MANY_H

/*
 * SHA1DC batches (fastsha1dc_many()): the lanes' bookkeeping that both of
 * its schedulers share, here and in sha1dc_many.c. sha1dc_many.c runs lane
 * rows without records (a block the filter let through is checked at once,
 * in its lane) and picks the row; sha1dc_many_rec.c runs the lane rows that
 * keep records (the blocks' checks wait as jobs, sha1dc_jobs.h). Each
 * message is its body read in place, then its padded tail; a lane whose
 * message ends takes the next; with fewer live messages than the row's
 * min_lanes (at least 2) the rest finish on the single-message path.
 */

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fastsha/sha1dc.h"
#include "sha1dc_impl.h"

/* The most lanes a row may have; how many blocks' masks a lane filters
 * ahead on rows without records (sha1dc_many.c). */
#define FSHA1DC_BATCH_MAXL 16
#define FSHA1DC_BATCH_CHUNK 32

struct fsha1dc_lane {
	size_t msg;      /* the message it carries */
	size_t left;     /* whole blocks left in its segment (body, then tail) */
	int in_tail;
	int redone;      /* fsha1dc_batch_rec(): hashed again on its own, dropped here */
	size_t mpos, mn; /* masks of its next blocks: mk[mpos..mn) */
	uint32_t mk[FSHA1DC_BATCH_CHUNK];
	fsha1dc_state ds; /* the detection record; h is in the kernel's rows */
	/* its last blocks, padded: at most 2 (fsha_md_pad() writes up to 2
	 * blocks from where it starts, one block in when
	 * fsha1dc_batch_to_tail() copies a whole block in front) */
	_Alignas(64) uint8_t tail[192];
};

/*
 * Messages of a batch found to collide, to be hashed again on their own
 * after the batch returns (fastsha1dc_many()): hashed from inside it, the
 * one-message path (blocks_rec() or blocks_pipe(), 34 KB, and a filter's 15
 * KB; GCC 12 -fstack-usage) came on top of the batch's 86 KB, about 135 KB
 * of stack at the deepest, over musl's 128 KB default for threads; now the
 * batch's deepest is its window flush's filter call, about 100 KB. A batch
 * with more than FSHA1DC_REDO of them hashes the rest at once, as before.
 */
#define FSHA1DC_REDO 32
struct fsha1dc_redo {
	size_t n;
	size_t msg[FSHA1DC_REDO];
};

struct fsha1dc_batch {
	struct fsha1dc_redo *redo; /* NULL: hash them again at once */
	fsha1dc_filter_fn filter;
	const fastsha_msg *msgs;
	uint8_t (*out)[20];
	uint8_t *detected;
	size_t hits;
	struct fsha1dc_lane ln[FSHA1DC_BATCH_MAXL];
	_Alignas(64) uint32_t h[FSHA1DC_BATCH_MAXL][5];
	const uint8_t *ptr[FSHA1DC_BATCH_MAXL];
};

/* Message @i of @msgs hashed on its own into out[@i], its flag into
 * detected[@i] (if any): 1 when it was detected. */
static inline size_t fsha1dc_batch_alone(const fastsha_msg *msgs, size_t i, uint8_t (*out)[20],
					 uint8_t *detected)
{
	const int d = fastsha1dc(msgs[i].data, msgs[i].len, out[i]);
	if (detected)
		detected[i] = (uint8_t)d;
	return (size_t)d;
}

/* A batch of @msgs on lane row @row, its digests into @out and flags into
 * @detected (if any): nothing found yet, no message started. */
static inline void fsha1dc_batch_init(struct fsha1dc_batch *B, const struct fsha1_backend *row,
				      const fastsha_msg *msgs, uint8_t (*out)[20],
				      uint8_t *detected)
{
	B->redo = NULL;
	B->filter = row->dc ? row->dc->filter : fsha1dc_filter_portable_ptrs;
	B->msgs = msgs;
	B->out = out;
	B->detected = detected;
	B->hits = 0;
}

/* Lane @l's padded tail, after its body, with the body's last @whole (0 or
 * 1) whole blocks copied in front of it, so that one kernel step takes them
 * all; its masks are still to come. */
void fsha1dc_batch_to_tail(struct fsha1dc_batch *B, unsigned l, size_t whole);

/*
 * The two below run once a message, and are inline here so that each batch
 * file has them where it starts and ends a message: called from one file to
 * the other, a batch of 1024 64-byte messages on shani_x4 took 87 ns a
 * message where one file holding both batches took 70 (Zen 3, thread CPU
 * time); inline, 71.
 */

/* The digest and flag of lane @l's message from its state. */
static inline void fsha1dc_batch_done(struct fsha1dc_batch *B, unsigned l)
{
	struct fsha1dc_lane *ln = &B->ln[l];
	fsha_md_output(&fsha1dc_shape, B->h[l], B->out[ln->msg], 20);
	if (B->detected)
		B->detected[ln->msg] = ln->ds.hits != 0;
	B->hits += ln->ds.hits != 0;
}

/* Start message @i in lane @l; its masks are still to come. */
static inline void fsha1dc_batch_start(struct fsha1dc_batch *B, unsigned l, size_t i)
{
	struct fsha1dc_lane *ln = &B->ln[l];
	ln->msg = i;
	ln->redone = 0;
	ln->ds = fsha1dc_iv;
	memcpy(B->h[l], fsha1dc_iv.h, sizeof(fsha1dc_iv.h));
	const size_t len = B->msgs[i].len;
	if (len < 64) {
		fsha1dc_batch_to_tail(B, l, 0);
	} else if (len < 128 && fsha_md_pad_blocks(len % 64, 64, 8) == 1) {
		/* One block and the padded rest are 2 blocks: both in the
		 * tail, one kernel step of 2 blocks for the message instead of
		 * two of 1. */
		fsha1dc_batch_to_tail(B, l, 1);
	} else {
		ln->left = len / 64;
		ln->in_tail = 0;
		ln->mpos = ln->mn = 0;
		B->ptr[l] = B->msgs[i].data;
	}
}

/* Finish lane @l's message on the single-message path. */
void fsha1dc_batch_finish(struct fsha1dc_batch *B, unsigned l);

/* Whether lane row @r has a loop that keeps records the batch can take
 * (sha1dc_many_rec.c). */
int fsha1dc_keeps_records(const struct fsha1_backend *r);

/* The batch of the @n messages at @msgs on lane row @row, which keeps
 * records (fsha1dc_keeps_records()): digests into @out, flags into
 * @detected (if any). The first FSHA1DC_REDO messages found to collide go
 * into @redo, for the caller to hash again after it returns; the rest are
 * hashed again at once. Returns how many were detected, those in @redo not
 * counted. */
size_t fsha1dc_batch_rec(const struct fsha1_backend *row, const fastsha_msg *msgs, size_t n,
			 uint8_t (*out)[20], uint8_t *detected, struct fsha1dc_redo *redo);

#endif
