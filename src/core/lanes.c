/* SPDX-License-Identifier: MIT */
/*
 * The one multi-buffer scheduler, for every family: the only place that
 * knows about lanes. It hashes a batch of independent messages on a lane
 * row (a kernel that advances L messages' states by the same number of
 * blocks in one call), each result equal to the one-shot digest.
 *
 * Each message is two segments of whole blocks: its body, read in place
 * from the caller's memory, and its padded tail (1 or 2 blocks), built in
 * the lane's scratch when the body is done. Every kernel call advances all
 * live lanes by the shortest remaining segment; a lane whose tail ends
 * writes its digest and takes the next message, in input order. An idle
 * lane points at a live lane's data (valid for that many blocks) and its
 * state row is ignored, so kernels need no masks. When the input is used up
 * and fewer than the row's min_lanes messages are live, they finish from
 * their current state on the family's single-message backend (every
 * backend keeps the same state layout, so a message may change backend at
 * any block). Batches smaller than min_lanes, and single-lane rows, go
 * through the one-shot path message by message.
 *
 * No allocation: scratch is on the stack (16 lanes x 256-byte tails plus
 * the states, about 5 KiB). Nothing is read outside any message.
 */
#include <string.h>

#include "fastsha/fastsha.h"
#include "family.h"

#define FSHA_MAX_LANES 16

struct lane {
	size_t msg;       /* which message this lane carries */
	const uint8_t *p; /* the current segment */
	size_t left;      /* whole blocks left in it */
	int in_tail;      /* the segment is the padded tail */
	uint8_t *tail;    /* this lane's scratch for the tail */
};

/* The bytes of message @m; a NULL pointer with length 0 reads nothing. */
static const uint8_t *bytes_of(const fastsha_msg *m)
{
	static const uint8_t none[1];
	return m->len ? m->data : none;
}

/* Point @ln at message @m's padded tail, built in its scratch. */
static void to_tail(struct lane *ln, const fastsha_msg *m, const struct fsha_md_shape *S)
{
	size_t body = m->len / S->bsize * S->bsize;
	ln->left = fsha_md_pad(ln->tail, bytes_of(m) + body, m->len - body, m->len, 0, 0,
			       S->bsize, S->lsize);
	ln->p = ln->tail;
	ln->in_tail = 1;
}

/* Start message @i in lane @ln with chaining state @st. */
static void start(struct lane *ln, uint8_t *st, size_t i, const fastsha_msg *msgs,
		  const struct fsha_variant *v)
{
	const struct fsha_md_shape *S = v->shape;
	ln->msg = i;
	memcpy(st, v->iv, S->words * S->wsize);
	ln->left = msgs[i].len / S->bsize;
	ln->p = bytes_of(&msgs[i]);
	ln->in_tail = 0;
	if (!ln->left)
		to_tail(ln, &msgs[i], S);
}

void fsha_many(const struct fsha_variant *v, const fastsha_msg *msgs, size_t n, uint8_t *out)
{
	const struct fsha_md_shape *S = v->shape;
	const struct fsha_family *fam = v->backends;
	const struct fsha_backend_info *row = fsha_active_many(fam);
	const size_t L = row->lanes, B = S->bsize, ssz = S->words * S->wsize, dlen = v->outlen;
	const size_t min = row->min_lanes ? row->min_lanes : 2;

	if (L < 2 || L > FSHA_MAX_LANES || n < min) {
		for (size_t i = 0; i < n; i++)
			fsha_oneshot_bytes(S, v->iv, msgs[i].data, msgs[i].len, out + i * dlen, dlen);
		return;
	}

	_Alignas(64) uint8_t st[FSHA_MAX_LANES * 64];
	_Alignas(64) uint8_t tails[FSHA_MAX_LANES][2 * FSHA_MAX_BLOCK];
	struct lane ln[FSHA_MAX_LANES];
	const uint8_t *ptr[FSHA_MAX_LANES];
	size_t next = 0, live = 0;

	for (; live < L && next < n; live++) {
		ln[live].tail = tails[live];
		start(&ln[live], st + live * ssz, next++, msgs, v);
	}
	while (live >= min || (live && next < n)) {
		size_t m = ln[0].left;
		for (size_t l = 1; l < live; l++)
			if (ln[l].left < m)
				m = ln[l].left;
		for (size_t l = 0; l < L; l++)
			ptr[l] = ln[l < live ? l : 0].p;
		fam->run_lanes(row, st, ptr, m);
		for (size_t l = 0; l < live;) {
			ln[l].p += m * B;
			ln[l].left -= m;
			if (ln[l].left) {
				l++;
			} else if (!ln[l].in_tail) {
				to_tail(&ln[l], &msgs[ln[l].msg], S);
				l++;
			} else {
				fsha_md_output(S, st + l * ssz, out + ln[l].msg * dlen, dlen);
				if (next < n) {
					start(&ln[l], st + l * ssz, next++, msgs, v);
					l++;
					continue;
				}
				/* Retire (the input is used up, so no slot is started
				 * again): the last live lane, not yet advanced, moves
				 * here with its tail scratch. */
				live--;
				if (l != live) {
					ln[l] = ln[live];
					memcpy(st + l * ssz, st + live * ssz, ssz);
				}
			}
		}
	}
	/* Too few left to fill the lanes: finish them one at a time. */
	for (size_t l = 0; l < live; l++) {
		uint8_t *s = st + l * ssz;
		if (!ln[l].in_tail) {
			S->compress(s, ln[l].p, ln[l].left);
			to_tail(&ln[l], &msgs[ln[l].msg], S);
		}
		S->compress(s, ln[l].p, ln[l].left);
		fsha_md_output(S, s, out + ln[l].msg * dlen, dlen);
	}
}

size_t fsha_chunks(const struct fsha_variant *v, const void *data, size_t len, size_t chunk,
		   uint8_t *out)
{
	/* The pieces go to the scheduler in batches of this many descriptors. */
	enum { BATCH = 64 };
	fastsha_msg m[BATCH];
	const uint8_t *p = data;
	size_t pieces = chunk ? len / chunk + (len % chunk != 0) : 0;
	for (size_t done = 0; done < pieces;) {
		size_t k = 0;
		for (; k < BATCH && done + k < pieces; k++) {
			size_t off = (done + k) * chunk;
			m[k].data = p + off;
			m[k].len = len - off < chunk ? len - off : chunk;
		}
		fsha_many(v, m, k, out + done * v->outlen);
		done += k;
	}
	return pieces;
}
