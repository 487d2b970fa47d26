/* SPDX-License-Identifier: MIT */
/*
 * Batches of Keccak-family messages (fastsha_many(), fastsha_many_xof(),
 * KangarooTwelve's leaves) on the Keccak lane rows: the sponge's
 * counterpart of src/core/lanes.c's scheduler, with the same rules for
 * choosing rows (fsha_lane_rows(), fsha_row_for()).
 *
 * Each message is three kinds of segment of whole blocks at the rate: its
 * body, read in place; its padded tail (the last partial block with the
 * domain byte and the final 0x80, built in the lane's scratch), one block;
 * then, for outputs longer than the rate, one block of zeros per further
 * output block, whose absorption is just the permutation between two
 * squeezes (the kernel XORs zeros: 21 XORs against a permutation of some
 * 2,000 operations). Every kernel call advances the live lanes by the
 * shortest remaining segment; a lane whose segment ends squeezes what it
 * owes, takes its next segment or the next message. An idle lane reruns a
 * live lane's data into a state nobody reads. When too few messages are
 * left for the narrowest row's min_lanes, they finish on the single-state
 * backend from where they are (every backend keeps the same state).
 *
 * Post-quantum matrices are this shape: ML-KEM expands its matrix from
 * SHAKE128 of 34-byte seeds, three output blocks each. No allocation:
 * scratch is on the stack (16 lanes of 200-byte states and 168-byte
 * blocks). Nothing is read outside any message.
 */
#include <string.h>

#include "../core/family.h"
#include "../core/sponge.h"
#include "keccak_family.h"

/* A zero block: the squeeze steps' input. */
static const uint8_t zeros[FSHA_KECCAK_MAX_RATE];

struct klane {
	size_t msg;       /* the message it carries */
	size_t left;      /* whole blocks left in its segment */
	size_t outdone;   /* output bytes written */
	int phase;        /* 0 body, 1 padded tail, 2 squeezing */
	uint8_t *tail;    /* its scratch block */
};

/* The bytes of message @m; a NULL pointer with length 0 reads nothing. */
static const uint8_t *bytes_of(const fastsha_msg *m)
{
	static const uint8_t none[1];
	return m->len ? m->data : none;
}

/* Lane @ln (segment pointer @p) on to message @i's padded tail. */
static void to_tail(struct klane *ln, const uint8_t **p, const fastsha_msg *m, size_t rate,
		    uint8_t domain)
{
	size_t body = m->len / rate * rate, t = m->len - body;
	memset(ln->tail, 0, rate);
	if (t)
		memcpy(ln->tail, bytes_of(m) + body, t);
	ln->tail[t] ^= domain;
	ln->tail[rate - 1] ^= 0x80;
	ln->phase = 1;
	ln->left = 1;
	*p = ln->tail;
}

/* Start message @i in lane @ln with a zero state @st. */
static void start(struct klane *ln, const uint8_t **p, uint64_t *st, size_t i,
		  const fastsha_msg *msgs, size_t rate, uint8_t domain)
{
	memset(st, 0, 200);
	ln->msg = i;
	ln->outdone = 0;
	if (msgs[i].len >= rate) {
		ln->phase = 0;
		ln->left = msgs[i].len / rate;
		*p = bytes_of(&msgs[i]);
	} else {
		to_tail(ln, p, &msgs[i], rate, domain);
	}
}

/*
 * Lane @ln's segment ended. Returns 1 when its message is complete, 0 when
 * it has another segment (set up here).
 */
static int segment_done(struct klane *ln, const uint8_t **p, const uint64_t *st,
			const fastsha_msg *msgs, size_t rate, uint8_t domain, uint8_t *out,
			size_t n)
{
	if (ln->phase == 0) {
		to_tail(ln, p, &msgs[ln->msg], rate, domain);
		return 0;
	}
	/* After the tail or a squeeze step: the next output block. */
	size_t take = n - ln->outdone < rate ? n - ln->outdone : rate;
	fsha_sponge_extract(st, 0, out + ln->msg * n + ln->outdone, take);
	ln->outdone += take;
	if (ln->outdone == n)
		return 1;
	ln->phase = 2;
	ln->left = 1;
	*p = zeros;
	return 0;
}

void fsha_sponge_many(size_t rate, uint8_t domain, unsigned rounds, const fastsha_msg *msgs,
		      size_t count, uint8_t *out, size_t n)
{
	const struct fsha_family *fam = &fsha_keccak_family;
	(void)fsha_cpu_clean_upper(NULL); /* before any SSE instruction: see cpu.h */
	const struct fsha_backend_info *rows[FSHA_MAX_LANES];
	const struct fsha_backend_info *row = count >= 2 ? fsha_active_many(fam) : NULL;
	size_t nrows = row && row->lanes >= 2 && row->lanes <= FSHA_MAX_LANES
			       ? fsha_lane_rows(fam, row, rows)
			       : 0;
	const size_t first = count < (nrows ? rows[0]->lanes : 0) ? count : (nrows ? rows[0]->lanes : 0);
	if (!nrows || !fsha_row_for(rows, nrows, first)) {
		for (size_t i = 0; i < count; i++) {
			struct fastsha3_state s;
			fsha_sponge_init(&s, rate, domain, rounds);
			fsha_sponge_absorb(&s, msgs[i].data, msgs[i].len);
			fsha_sponge_pad(&s, 0, 0);
			fsha_sponge_squeeze(&s, out + i * n, n);
		}
		return;
	}
	const size_t L = rows[0]->lanes;
	_Alignas(64) uint64_t st[FSHA_MAX_LANES][25];
	_Alignas(64) uint8_t tails[FSHA_MAX_LANES][FSHA_KECCAK_MAX_RATE];
	struct klane ln[FSHA_MAX_LANES];
	const uint8_t *ptr[FSHA_MAX_LANES];
	size_t next = 0, live = 0;
	memset(st, 0, L * sizeof(st[0])); /* idle lanes' states: read, never used */
	for (; live < L && next < count; live++) {
		ln[live].tail = tails[live];
		start(&ln[live], &ptr[live], st[live], next++, msgs, rate, domain);
	}
	for (;;) {
		const struct fsha_backend_info *r = next < count ? rows[0]
								 : fsha_row_for(rows, nrows, live);
		if (!r)
			break;
		size_t m = ln[0].left;
		for (size_t l = 1; l < live; l++)
			if (ln[l].left < m)
				m = ln[l].left;
		for (size_t l = live; l < r->lanes; l++) /* idle lanes rerun lane 0's data */
			ptr[l] = ptr[0];
		((const struct fsha_keccak_backend *)r)->absorb_lanes(st, ptr, m, rate, rounds);
		for (size_t l = 0; l < live;) {
			ptr[l] += m * rate;
			ln[l].left -= m;
			if (ln[l].left || !segment_done(&ln[l], &ptr[l], st[l], msgs, rate, domain, out,
							 n)) {
				l++;
				continue;
			}
			if (next < count) {
				start(&ln[l], &ptr[l], st[l], next++, msgs, rate, domain);
				l++;
				continue;
			}
			/* Retire (the input is used up): the last live lane, not
			 * yet advanced, moves here with its scratch. */
			live--;
			if (l != live) {
				uint8_t *t = ln[l].tail;
				ln[l] = ln[live];
				ptr[l] = ptr[live];
				ln[live].tail = t;
				memcpy(st[l], st[live], sizeof(st[l]));
			}
		}
	}
	/* Too few left for the lanes: finish them one at a time. */
	const struct fsha_keccak_backend *b = fsha_keccak_active();
	for (size_t l = 0; l < live; l++) {
		for (;;) {
			b->absorb(st[l], ptr[l], ln[l].left, rate, rounds);
			ptr[l] += ln[l].left * rate;
			ln[l].left = 0;
			if (segment_done(&ln[l], &ptr[l], st[l], msgs, rate, domain, out, n))
				break;
		}
	}
}

void fsha_sponge_v_many(const struct fsha_sponge_variant *v, const fastsha_msg *msgs,
			size_t count, uint8_t *out, size_t n)
{
	if (v->k12) { /* each message a tree; its leaves use the lanes */
		for (size_t i = 0; i < count; i++)
			fsha_k12_oneshot(msgs[i].data, msgs[i].len, NULL, 0, out + i * n, n);
		return;
	}
	fsha_sponge_many(v->rate, v->domain, v->rounds, msgs, count, out, n);
}
