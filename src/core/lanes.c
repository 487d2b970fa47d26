/* SPDX-License-Identifier: MIT */
/*
 * The one multi-buffer scheduler, for every family: the only place that
 * knows about lanes. It hashes a batch of independent messages on a lane
 * row (a kernel that advances L messages' states by the same number of
 * blocks in one call), each result equal to the one-shot digest.
 *
 * Each message is two segments of whole blocks: its body, read in place
 * from the caller's memory, and its padded tail (1 or 2 blocks), built in
 * the lane's scratch when the body is done. A message whose body is at most
 * FSHA_COPY_BLOCKS blocks is one segment instead: body and padding copied
 * into the scratch together, which saves a kernel call per short message
 * (64-byte SHA-256 messages: one 2-block call instead of two 1-block calls).
 * Every kernel call advances all live lanes by the shortest remaining
 * segment; a lane whose tail ends writes its digest and takes the next
 * message, in input order. An idle lane points at a live lane's data (valid
 * for that many blocks) and its state row is ignored, so kernels need no
 * masks.
 *
 * When the input is used up the live lanes thin out. Each call then runs on
 * the narrowest lane row that holds them (shani_x4 steps down to shani_x2:
 * see fsha_lane_rows()), and below that row's min_lanes they finish from their
 * current state on the family's single-message backend (every backend keeps
 * the same state layout, so a message may change backend at any block).
 * Batches too small for any lane row, and single-lane rows, go through the
 * one-shot path message by message. The widths and thresholds are measured
 * (docs/benchmarks.md, "Batches").
 *
 * No allocation: scratch is on the stack (16 lanes x 512-byte tails plus
 * the states, about 9 KiB). Nothing is read outside any message.
 */
#include <stdint.h>
#include <string.h>

#include "fastsha/fastsha.h"
#include "family.h"

/* Messages whose body is at most this many blocks run as one segment: body
 * and padding copied into the lane's scratch, one kernel call fewer. */
#define FSHA_COPY_BLOCKS 2

/* A lane. The address of its current segment is kept in batch_on()'s ptr[],
 * the array the kernel takes (see there). */
struct lane {
	size_t msg;       /* which message this lane carries */
	size_t left;      /* whole blocks left in its current segment */
	int in_tail;      /* the segment: 0 the body, 1 the padded tail, 2 the
			   * outer hash's one block (HMAC: fsha_from.outer) */
	uint8_t *tail;    /* this lane's scratch for the tail */
	/* The scratch already holds the padding block of a whole-block
	 * message of @padded bytes (SIZE_MAX: none) after @padcopy copied
	 * blocks: such padding holds no message byte, so a batch of equal
	 * lengths builds it once per lane (64-byte batches about 1.5% faster). */
	size_t padded, padcopy;
};

/* The bytes of message @m; a NULL pointer with length 0 reads nothing. */
static const uint8_t *bytes_of(const fastsha_msg *m)
{
	static const uint8_t none[1];
	return m->len ? m->data : none;
}

/* Point @ln (its segment pointer at @p) at message @m's padded tail, built in
 * its scratch after the last @copy whole blocks of its body (0 when the body
 * was read in place). */
static inline __attribute__((always_inline)) void
to_tail(struct lane *ln, const uint8_t **p, const fastsha_msg *m, size_t copy,
	const struct fsha_md_shape *S, uint64_t prefix)
{
	size_t body = m->len / S->bsize * S->bsize, from = body - copy * S->bsize;
	/* Fixed-size pieces: inline moves, no library call per message. */
	for (size_t k = 0; k < copy * S->bsize; k += 64) /* copy > 0: m->data is real */
		memcpy(ln->tail + k, (const uint8_t *)m->data + from + k, 64);
	if (m->len == body && ln->padded == m->len && ln->padcopy == copy) {
		ln->left = copy + 1; /* a whole-block message pads with one block */
	} else {
		ln->left = copy + fsha_md_pad(ln->tail + copy * S->bsize, bytes_of(m) + body,
					      m->len - body, prefix + m->len, 0, 0, S->bsize,
					      S->lsize);
		ln->padded = m->len == body ? m->len : SIZE_MAX;
		ln->padcopy = copy;
	}
	*p = ln->tail;
	ln->in_tail = 1;
}

/* Lane @ln (segment pointer at @p), its inner hash done in @st, on to HMAC's
 * outer hash: the block of the inner digest, from the outer words. The
 * tail scratch then holds no padding worth keeping. */
static inline __attribute__((always_inline)) void
to_outer(struct lane *ln, const uint8_t **p, uint8_t *st, const struct fsha_from *f,
	 const struct fsha_md_shape *S, const size_t dlen)
{
	fsha_md_digest_block(S, st, ln->tail, dlen);
	memcpy(st, f->outer, S->words * S->wsize);
	*p = ln->tail;
	ln->left = 1;
	ln->in_tail = 2;
	ln->padded = SIZE_MAX;
}

/* Start message @i in lane @ln (segment pointer at @p) with chaining state @st
 * from @f. */
static inline __attribute__((always_inline)) void
start(struct lane *ln, const uint8_t **p, uint8_t *st, size_t i, const fastsha_msg *msgs,
      const struct fsha_from *f, const struct fsha_md_shape *S)
{
	size_t nb = msgs[i].len / S->bsize;
	ln->msg = i;
	memcpy(st, f->iv, S->words * S->wsize);
	if (nb <= FSHA_COPY_BLOCKS) {
		to_tail(ln, p, &msgs[i], nb, S, f->prefix);
	} else {
		ln->left = nb;
		*p = bytes_of(&msgs[i]);
		ln->in_tail = 0;
	}
}

/* Whether a row after row @i of @fam, of the same width, is an automatic
 * batch row this CPU runs that does not yield here. */
static int replaced_here(const struct fsha_family *fam, size_t i)
{
	for (size_t j = i + 1; j < fam->nrows; j++) {
		const struct fsha_backend_info *q = fam->rows[j];
		if (q->lanes == fam->rows[i]->lanes && (q->automatic & FSHA_AUTO_MANY) &&
		    fsha_supported(q) && !fsha_yields(fam, q))
			return 1;
	}
	return 0;
}

/*
 * The lane rows a batch may use, widest first: the row chosen for batches,
 * then narrower automatic batch rows this CPU runs, each narrower than the
 * one before it. With @live messages left the narrowest row of at least
 * @live lanes runs them; below that row's min_lanes they finish
 * single-stream. Which narrower rows: when the batch row was chosen
 * automatically, the table's automatic batch rows in its order (best
 * first), whatever code they are (avx512_x16 steps down to shani_x4, then
 * shani_x2: a batch's last 4 messages on 16 lanes would leave three
 * quarters of each kernel call idle); those before the chosen row are the
 * ones it passed over because they yield on this CPU (the others there it
 * cannot run: SHA-1 on Zen 2 takes avx2_x8, then shani_x4 and shani_x2);
 * when a row was pinned (FASTSHA_BACKEND, fastsha_use_backend:
 * then the single-message slot holds the same row), only rows that need no
 * CPU feature it does not (shani_x4 still steps down to shani_x2), so a
 * pinned row's batch never runs another kind of code. A row that yields
 * here is a step only when no later row of its width takes its place (one
 * this CPU runs that does not yield): the Keccak table's avx2_x4 yields to
 * avx2_x4s on Zen 2, the same kernel in another form, so a wider row there
 * steps down to avx2_x4s, while SHA-1's shani_x4 has no such twin and is
 * avx2_x8's step. Returns the count.
 */
size_t fsha_lane_rows(const struct fsha_family *fam, const struct fsha_backend_info *row,
		      const struct fsha_backend_info **out)
{
	size_t k = 0;
	out[k++] = row;
	if (!(row->automatic & FSHA_AUTO_MANY))
		return k;
	const int pinned = fsha_active(fam) == row;
	/* The automatic row's list, kept from the first batch: worked out
	 * again each call it cost 2-4% of batches of two 64-byte messages.
	 * Kept only for that row and used only for it: while
	 * fastsha_use_backend() is between its two stores, @row can be the
	 * old pinned row with the single-message slot already changed, so
	 * not "pinned" here; its list, kept, would have run every later
	 * automatic batch on it (and racing keepers of two lists could mix
	 * them). */
	struct fsha_lane_plan *pl = pinned ? NULL : fam->plan;
	_Static_assert(sizeof(pl->rows) / sizeof(pl->rows[0]) >= FSHA_MAX_LANES, "a plan holds every row");
	if (pl && atomic_load_explicit(&pl->ready, memory_order_acquire) &&
	    atomic_load_explicit(&pl->rows[0], memory_order_relaxed) == row) {
		k = atomic_load_explicit(&pl->n, memory_order_relaxed);
		for (size_t j = 0; j < k; j++)
			out[j] = atomic_load_explicit(&pl->rows[j], memory_order_relaxed);
		return k;
	}
	/* From the top of the table either way: the rows an automatic choice
	 * did not take before its row are ones this CPU cannot run (skipped
	 * here too) or ones that yield on it (wanted here: narrower steps). */
	for (size_t i = 0; i < fam->nrows && k < FSHA_MAX_LANES; i++) {
		const struct fsha_backend_info *r = fam->rows[i];
		if ((r->automatic & FSHA_AUTO_MANY) && r->lanes >= 2 && r->lanes < out[k - 1]->lanes &&
		    (!pinned || !(r->cpu & ~row->cpu)) && fsha_supported(r) &&
		    !(fsha_yields(fam, r) && replaced_here(fam, i)))
			out[k++] = r;
	}
	if (pl && row == fsha_auto_many(fam)) {
		for (size_t j = 0; j < k; j++)
			atomic_store_explicit(&pl->rows[j], out[j], memory_order_relaxed);
		atomic_store_explicit(&pl->n, k, memory_order_relaxed);
		atomic_store_explicit(&pl->ready, 1, memory_order_release);
	}
	return k;
}

const struct fsha_backend_info *fsha_row_for(const struct fsha_backend_info *const *rows,
					     size_t nrows, size_t live)
{
	size_t i = 0;
	while (i + 1 < nrows && rows[i + 1]->lanes >= live)
		i++;
	unsigned min = rows[i]->min_lanes ? rows[i]->min_lanes : 2;
	return live >= min ? rows[i] : NULL;
}

/*
 * Clear the first @rows rows of the tail scratch, @bytes of each: what a
 * keyed batch wrote there. Not the whole array: its rows are sized for
 * 128-byte blocks and 16 lanes, so for SHA-1 and SHA-256 on avx2_x8 the
 * whole of it was 4 KiB cleared where 2 KiB at most were written: 551 of
 * HMAC-SHA1's 6,495 instructions for 8 empty messages (callgrind).
 */
static inline __attribute__((always_inline)) void
wipe_tails(uint8_t (*tails)[(FSHA_COPY_BLOCKS + 2) * FSHA_MAX_BLOCK], size_t rows, size_t bytes)
{
	for (size_t l = 0; l < rows; l++)
		fsha_wipe(tails[l], bytes);
}

/* The batch on lane rows @rows[0..nrows) (see fsha_lane_rows()), for a family
 * whose sizes are in @S (see run_batch()), each message hashed on from @f. */
static inline __attribute__((always_inline)) void
batch_on(const struct fsha_variant *v, const struct fsha_from *f, const fastsha_msg *msgs,
	 size_t n, uint8_t *out, const struct fsha_backend_info *const *rows, size_t nrows,
	 const struct fsha_md_shape *S, const size_t dlen)
{
	const struct fsha_family *fam = v->backends;
	const struct fsha_backend_info *row = rows[0];
	const size_t L = row->lanes, B = S->bsize, ssz = S->words * S->wsize;
	_Alignas(64) uint8_t st[FSHA_MAX_LANES * 64];
	_Alignas(64) uint8_t tails[FSHA_MAX_LANES][(FSHA_COPY_BLOCKS + 2) * FSHA_MAX_BLOCK];
	struct lane ln[FSHA_MAX_LANES];
	/* Each lane's segment pointer lives here, where the kernel reads it.
	 * Gathering the pointers from the lanes before each call (GCC turns
	 * the copy into 16-byte loads of fields just written by 8-byte stores,
	 * which cannot be forwarded) cost about a tenth of 64-byte batches. */
	const uint8_t *ptr[FSHA_MAX_LANES];
	size_t next = 0, live = 0;

	/*
	 * Equal whole-block lengths on a row with a shared-block entry: each
	 * body is read in place and the one padding block, the same for all,
	 * has its schedule worked out once (backend.h, run_lanes_shared). A
	 * last group of fewer than L messages reruns the first one in the
	 * idle lanes. Working out the schedule costs about what a few
	 * messages save: SHA-256 on shani_x3 at 64 bytes, against the general
	 * path, n = 3 1.68x -> 1.25x OpenSSL, 6 1.76 -> 1.63, 12 1.82 -> 1.92,
	 * 24 1.84 -> 2.10, 1024 1.89 -> 2.31 (4 KiB: 2.19 -> 2.21); hence from
	 * 4 L messages on.
	 */
	if (fam->has_shared && n >= 4 * L && msgs[0].len % B == 0 && fam->has_shared(row)) {
		const size_t len = msgs[0].len, nb = len / B;
		size_t same = 1;
		while (same < n && msgs[same].len == len)
			same++;
		if (same == n) {
			_Alignas(64) uint8_t pad[2 * FSHA_MAX_BLOCK];
			uint64_t sched[FSHA_SHARED_WORDS];
			/* tlen 0: the tail pointer is not read */
			fsha_md_pad(pad, bytes_of(&msgs[0]), 0, f->prefix + len, 0, 0, B, S->lsize);
			fam->shared_sched(pad, sched);
			for (size_t i = 0; i < n; i += L) {
				size_t k = n - i < L ? n - i : L;
				for (size_t l = 0; l < L; l++) {
					memcpy(st + l * ssz, f->iv, ssz);
					ptr[l] = bytes_of(&msgs[i + (l < k ? l : 0)]);
				}
				fam->run_lanes_shared(row, st, ptr, nb, sched);
				if (f->outer) { /* HMAC: the outer hashes, one block each */
					for (size_t l = 0; l < L; l++) {
						fsha_md_digest_block(S, st + l * ssz, tails[l], dlen);
						memcpy(st + l * ssz, f->outer, ssz);
						ptr[l] = tails[l];
					}
					fam->run_lanes(row, st, ptr, 1);
				}
				for (size_t l = 0; l < k; l++)
					fsha_md_output(S, st + l * ssz, out + (i + l) * dlen, dlen);
			}
			if (f->wipe) {
				/* The outer hashes wrote one block, an inner
				 * digest's, in every lane's row (n >= 4 L here). */
				fsha_wipe(st, L * ssz);
				wipe_tails(tails, f->outer ? L : 0, B);
			}
			return;
		}
	}
	for (; live < L && next < n; live++) {
		ln[live].tail = tails[live];
		ln[live].padded = SIZE_MAX;
		start(&ln[live], &ptr[live], st + live * ssz, next++, msgs, f, S);
	}
	/* Lanes no message fills (n < L) still run, on lane 0's data: give
	 * them lane 0's state too. Their results are never read, but the
	 * kernels would otherwise compute on this frame's uninitialised bytes
	 * (MemorySanitizer stops test_many on shani_x4 and avx2_x8 there). A
	 * retired lane keeps its last, defined, state. */
	for (size_t l = live; l < L; l++)
		memcpy(st + l * ssz, st, ssz);
	for (;;) {
		/* Lanes are refilled while input lasts, so only the end of the
		 * batch runs with fewer live messages than the row has lanes. */
		const struct fsha_backend_info *r = next < n ? row : fsha_row_for(rows, nrows, live);
		if (!r)
			break;
		size_t m = ln[0].left;
		for (size_t l = 1; l < live; l++)
			if (ln[l].left < m)
				m = ln[l].left;
		for (size_t l = live; l < r->lanes; l++) /* idle lanes rerun lane 0's data */
			ptr[l] = ptr[0];
		fam->run_lanes(r, st, ptr, m);
		for (size_t l = 0; l < live;) {
			ptr[l] += m * B;
			ln[l].left -= m;
			if (ln[l].left) {
				l++;
			} else if (!ln[l].in_tail) {
				to_tail(&ln[l], &ptr[l], &msgs[ln[l].msg], 0, S, f->prefix);
				l++;
			} else if (f->outer && ln[l].in_tail == 1) {
				to_outer(&ln[l], &ptr[l], st + l * ssz, f, S, dlen);
				l++;
			} else {
				fsha_md_output(S, st + l * ssz, out + ln[l].msg * dlen, dlen);
				if (next < n) {
					start(&ln[l], &ptr[l], st + l * ssz, next++, msgs, f, S);
					l++;
					continue;
				}
				/* Retire (the input is used up, so no slot is started
				 * again): the last live lane, not yet advanced, moves
				 * here with its tail scratch. */
				live--;
				if (l != live) {
					uint8_t *t = ln[l].tail;
					ln[l] = ln[live];
					ptr[l] = ptr[live];
					ln[live].tail = t;
					ln[live].padded = SIZE_MAX;
					memcpy(st + l * ssz, st + live * ssz, ssz);
				}
			}
		}
	}
	/* Too few left to fill the lanes: finish them one at a time. */
	for (size_t l = 0; l < live; l++) {
		uint8_t *s = st + l * ssz;
		for (;;) {
			v->shape->compress(s, ptr[l], ln[l].left);
			if (!ln[l].in_tail)
				to_tail(&ln[l], &ptr[l], &msgs[ln[l].msg], 0, S, f->prefix);
			else if (f->outer && ln[l].in_tail == 1)
				to_outer(&ln[l], &ptr[l], s, f, S, dlen);
			else
				break;
		}
		fsha_md_output(S, s, out + ln[l].msg * dlen, dlen);
	}
	if (f->wipe) { /* keyed states, and message bytes copied into the tails */
		fsha_wipe(st, L * ssz);
		/* The first min(n, L) lanes' rows (a retiring lane hands its
		 * row to another of those, never to one past them; idle lanes
		 * read lane 0's), each body copies and padding. */
		wipe_tails(tails, n < L ? n : L, (FSHA_COPY_BLOCKS + 2) * B);
	}
}

/*
 * The batch, kept out of fsha_many() so that small batches do not pay for
 * this frame's scratch. One copy of the loop per family shape and usual
 * digest size, each with its block, length, state and digest sizes as
 * constants: the IV copy, the tail's padding and the digest's byte swaps
 * then compile to fixed moves instead of library calls and loops over
 * run-time sizes. That took the scheduler's own work on a 64-byte SHA-1
 * message from about 240 instructions to about 140 (callgrind) and 64-byte
 * batches from 1.52x to about 1.9x OpenSSL (docs/benchmarks.md, "Batches").
 */
static __attribute__((noinline)) void run_batch(const struct fsha_variant *v,
						const struct fsha_from *f, const fastsha_msg *msgs,
						size_t n, uint8_t *out,
						const struct fsha_backend_info *const *rows,
						size_t nrows)
{
	const struct fsha_md_shape *S = v->shape;
	const size_t d = v->outlen;
	const int s64 = S->bsize == 64 && S->lsize == 8 && S->wsize == 4;
	const int s128 = S->bsize == 128 && S->lsize == 16 && S->wsize == 8 && S->words == 8;
	if (s64 && S->words == 5 && d == 20)
		batch_on(v, f, msgs, n, out, rows, nrows, FSHA_SIZES(64, 8, 5, 4), 20); /* SHA-1 */
	else if (s64 && S->words == 8 && d == 32)
		batch_on(v, f, msgs, n, out, rows, nrows, FSHA_SIZES(64, 8, 8, 4), 32); /* SHA-256 */
	else if (s64 && S->words == 8)
		batch_on(v, f, msgs, n, out, rows, nrows, FSHA_SIZES(64, 8, 8, 4), d); /* SHA-224 */
	else if (s128 && d == 64)
		batch_on(v, f, msgs, n, out, rows, nrows, FSHA_SIZES(128, 16, 8, 8), 64); /* SHA-512 */
	else if (s128)
		batch_on(v, f, msgs, n, out, rows, nrows, FSHA_SIZES(128, 16, 8, 8), d); /* its cuts */
	else
		batch_on(v, f, msgs, n, out, rows, nrows, S, d); /* any other shape, at run-time sizes */
}

/* Message @m hashed on from @f alone (and its outer hash, when @f has one). */
static void one_from(const struct fsha_variant *v, const struct fsha_from *f,
		     const fastsha_msg *m, uint8_t *out)
{
	fsha_md_digest_from(v->shape, f->iv, f->prefix, bytes_of(m), m->len, out, v->outlen);
	if (f->outer)
		fsha_md_digest_from(v->shape, f->outer, v->shape->bsize, out, v->outlen, out,
				    v->outlen);
}

/* fsha_many() for n != 1, each message hashed on from @f. */
static __attribute__((noinline)) void many(const struct fsha_variant *v, const struct fsha_from *f,
					   const fastsha_msg *msgs, size_t n, uint8_t *out)
{
	const struct fsha_backend_info *rows[FSHA_MAX_LANES];
	const struct fsha_backend_info *row = n >= 2 ? fsha_active_many(v->backends) : NULL;
	const size_t L = row ? row->lanes : 1;
	size_t nrows = 0;

	/* Every lane row needs two messages at least (min_lanes >= 2). */
	if (L >= 2 && L <= FSHA_MAX_LANES)
		nrows = fsha_lane_rows(v->backends, row, rows);
	/* A wide row whose idle lanes would cost more than a narrower row's
	 * turns (avx512_x16 against shani_x4 for 5..8 SHA-1 messages) leaves
	 * the batch to that row. */
	size_t top = 0;
	while (top + 1 < nrows && n < rows[top]->min_batch)
		top++;
	if (nrows && fsha_row_for(rows + top, nrows - top, n < rows[top]->lanes ? n : rows[top]->lanes)) {
		run_batch(v, f, msgs, n, out, rows + top, nrows - top);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		if (f->prefix || f->wipe) /* keyed: not the typed one-shot's IV */
			one_from(v, f, &msgs[i], out + i * v->outlen);
		else
			v->oneshot(msgs[i].data, msgs[i].len, out + i * v->outlen);
	}
}

void fsha_many(const struct fsha_variant *v, const fastsha_msg *msgs, size_t n, uint8_t *out)
{
	msgs = fsha_cpu_clean_upper(msgs); /* before any SSE instruction: see cpu.h */
	/* One message: a tail call to the one-shot, with no frame of ours in
	 * between (through many()'s frame and loop it measured 0.88x the
	 * one-shot loop at 64 bytes, fastsha-bench --many --n 1). Two go to
	 * the lanes whatever their size: until commit a661e93 made the
	 * scheduler cheaper, a pair of messages of at most two blocks went to
	 * the one-shot (x2 lanes were 0.85-0.88x of it at 64 bytes); now the
	 * lanes are 0.98-1.29x of the one-shot pair from 16 to 119 bytes and
	 * the one-shot path 0.95-0.99x (fastsha-bench --many --n 2). */
	if (v->many_detect) /* SHA1DC: its own batch, which detects */
		v->many_detect(msgs, n, out, NULL);
	else if (n == 1)
		v->oneshot(msgs[0].data, msgs[0].len, out);
	else
		many(v, &(const struct fsha_from){ v->iv, 0, 0, NULL }, msgs, n, out);
}

void fsha_many_from(const struct fsha_variant *v, const struct fsha_from *f,
		    const fastsha_msg *msgs, size_t n, uint8_t *out)
{
	msgs = fsha_cpu_clean_upper(msgs); /* before any SSE instruction: see cpu.h */
	if (n == 1)
		one_from(v, f, &msgs[0], out);
	else if (n)
		many(v, f, msgs, n, out);
}

size_t fsha_pieces(const void *data, size_t len, size_t chunk, size_t dlen, uint8_t *out,
		   fsha_batch_fn batch, const void *arg)
{
	/* The pieces go to the batch in groups of this many descriptors. */
	enum { BATCH = 64 };
	fastsha_msg m[BATCH];
	const uint8_t *p = data;
	size_t pieces = chunk ? len / chunk + (len % chunk != 0) : 0;
	if (!fsha_fits(pieces, dlen)) /* 32-bit: 1-byte pieces of 64 MiB and more */
		return 0;
	for (size_t done = 0; done < pieces;) {
		size_t k = 0;
		for (; k < BATCH && done + k < pieces; k++) {
			size_t off = (done + k) * chunk;
			m[k].data = p + off;
			m[k].len = len - off < chunk ? len - off : chunk;
		}
		batch(arg, m, k, out + done * dlen);
		done += k;
	}
	return pieces;
}

/* fsha_pieces()'s batch for a SHA-1/SHA-2 variant. */
static void md_batch(const void *arg, const fastsha_msg *m, size_t n, uint8_t *out)
{
	fsha_many(arg, m, n, out);
}

size_t fsha_chunks(const struct fsha_variant *v, const void *data, size_t len, size_t chunk,
		   uint8_t *out)
{
	return fsha_pieces(data, len, chunk, v->outlen, out, md_batch, v);
}

/*
 * Keyed hashing's fixed-shape work on the lane rows (src/mac/): the two key
 * blocks of HMAC, and PBKDF2's iterations. Independent one-block
 * compressions are what a lane kernel is for: with SHA-NI a single SHA-256
 * block is latency-bound (about 140 cycles on Zen 3, shani_x3's head
 * comment) and two lanes take about 73 cycles a block each.
 */

/* The lane rows of @v's family for batches (fsha_lane_rows()), or 0 when
 * batches run single-stream (a single-stream row pinned, or none). */
static size_t lane_rows_of(const struct fsha_variant *v, const struct fsha_backend_info **rows)
{
	const struct fsha_backend_info *row = fsha_active_many(v->backends);
	if (row->lanes < 2 || row->lanes > FSHA_MAX_LANES)
		return 0;
	return fsha_lane_rows(v->backends, row, rows);
}

/* The lanes' minimum of live messages (backend.h: 0 means 2). */
static unsigned min_of(const struct fsha_backend_info *r)
{
	return r->min_lanes ? r->min_lanes : 2;
}

void fsha_two_blocks(const struct fsha_variant *v, uint8_t *s0, const uint8_t *b0, uint8_t *s1,
		     const uint8_t *b1)
{
	const struct fsha_backend_info *rows[FSHA_MAX_LANES];
	size_t nrows = lane_rows_of(v, rows);
	const struct fsha_backend_info *r = nrows ? rows[nrows - 1] : NULL; /* the narrowest */
	const size_t ssz = v->shape->words * v->shape->wsize;
	if (!r || min_of(r) > 2) {
		v->shape->compress(s0, b0, 1);
		v->shape->compress(s1, b1, 1);
		return;
	}
	_Alignas(64) uint8_t st[FSHA_MAX_LANES * 64];
	const uint8_t *ptr[FSHA_MAX_LANES];
	for (size_t l = 0; l < r->lanes; l++) { /* idle lanes rerun lane 0 */
		memcpy(st + l * ssz, l == 1 ? s1 : s0, ssz);
		ptr[l] = l == 1 ? b1 : b0;
	}
	v->backends->run_lanes(r, st, ptr, 1);
	memcpy(s0, st, ssz);
	memcpy(s1, st + ssz, ssz);
	fsha_wipe(st, r->lanes * ssz);
}

/* @acc ^= @h, @n bytes of chaining words (a multiple of 4). */
static inline void xor_words(uint8_t *acc, const uint8_t *h, size_t n)
{
	for (size_t i = 0; i < n; i += 4) {
		uint32_t a, b;
		memcpy(&a, acc + i, 4);
		memcpy(&b, h + i, 4);
		a ^= b;
		memcpy(acc + i, &a, 4);
	}
}

/*
 * One chain on the family's single-message backend: each iteration is the
 * inner compression of U's block from the inner words, U' written back
 * into the block's first @dlen bytes (the padding after them never
 * changes: every such message is one block plus a digest long), then the
 * same from the outer words, and U XORed into the sum. No length
 * bookkeeping, no context copies: what OpenSSL's PKCS5_PBKDF2_HMAC spends
 * most of its time on (../shared/design/keyed-and-sponge.md).
 */
static inline __attribute__((always_inline)) void
chain_single(const struct fsha_md_shape *S, fsha_compress_fn compress, struct fsha_chain *c,
	     uint64_t iters, const size_t dlen)
{
	const size_t ssz = S->words * S->wsize;
	_Alignas(64) uint8_t h[64];
	for (uint64_t i = 0; i < iters; i++) {
		memcpy(h, c->inner, ssz);
		compress(h, c->u, 1);
		fsha_md_digest_block(S, h, c->u, dlen);
		memcpy(h, c->outer, ssz);
		compress(h, c->u, 1);
		fsha_md_digest_block(S, h, c->u, dlen);
		xor_words(c->acc, h, ssz);
	}
	fsha_wipe(h, sizeof(h));
}

/* The same for @k chains side by side on lane row @r (k <= its lanes). */
static inline __attribute__((always_inline)) void
chain_lanes(const struct fsha_variant *v, const struct fsha_md_shape *S,
	    const struct fsha_backend_info *r, struct fsha_chain *c, size_t k, uint64_t iters,
	    const size_t dlen)
{
	const size_t ssz = S->words * S->wsize, L = r->lanes;
	/* One row more than the lanes: fsha_md_digest_block() reads whole
	 * 16-byte pieces of a row, past the last SHA-1 row's 20 bytes. */
	_Alignas(64) uint8_t st[(FSHA_MAX_LANES + 1) * 64];
	const uint8_t *ptr[FSHA_MAX_LANES];
	for (size_t l = 0; l < L; l++) { /* idle lanes rerun chain 0 */
		ptr[l] = c[l < k ? l : 0].u;
		memcpy(st + l * ssz, c[0].inner, ssz);
	}
	for (uint64_t i = 0; i < iters; i++) {
		for (size_t l = 0; l < k; l++)
			memcpy(st + l * ssz, c[l].inner, ssz);
		v->backends->run_lanes(r, st, ptr, 1);
		for (size_t l = 0; l < k; l++) {
			fsha_md_digest_block(S, st + l * ssz, c[l].u, dlen);
			memcpy(st + l * ssz, c[l].outer, ssz);
		}
		v->backends->run_lanes(r, st, ptr, 1);
		for (size_t l = 0; l < k; l++) {
			fsha_md_digest_block(S, st + l * ssz, c[l].u, dlen);
			xor_words(c[l].acc, st + l * ssz, ssz);
		}
	}
	fsha_wipe(st, L * ssz);
}

/*
 * Where the family's single-message row has chain kernels (backend.h,
 * chain_rows: U and the XOR kept in registers, no bytes formatted
 * between iterations), the lane rows narrower than this many lanes take no
 * chains: the kernels run them faster. Intel Xeon (Emerald Rapids line,
 * family 6 model 167, 2 vCPUs under KVM), fastsha_pbkdf2() of k output
 * blocks (k chains), 20,000 iterations, ns per chain and iteration,
 * medians of 9, the lane path against the kernels in the same runs:
 *
 *   SHA-1    k = 2: shani_x2 64.0, x2 58.0; 3: shani_x2 + x1 67.8,
 *            x2 + x1 63.7; 4: shani_x4 69.4, 2 x2 59.8; 8: shani_x4 64.3,
 *            x2 55.5; 16: avx512_x16 21.4, x2 59.3
 *   SHA-256  k = 2: shani_x2 58.6, x2 52.4; 3: shani_x3 53.2, x2 + x1
 *            60.9 (x3 per chain as x2: 51.8 and 52.2); 4: shani_x3 + x1
 *            60.4, 2 x2 53.1; 16: shani_x3 57.5, x2 49.9
 *
 * (one chain: chain_single() 86.0 and 96.1, the x1 kernels 72.1 and
 * 80.5). The SHA-NI lane rows lose because each of their calls formats
 * the digests into blocks in memory and reads them back; a 16-lane
 * AVX-512 row keeps its lead.
 */
#define FSHA_CHAIN_WIDE 8

/*
 * With chain kernels, fewer chains than this run on them rather than on a
 * wide row with idle lanes, when that row has no lane chain kernel (one
 * that has says how many in its min_chains: SHA-1 5 (4 on AMD), SHA-256 9 on
 * avx512_x16, measured in src/<family>/<family>_backends.c). Measured
 * before those kernels: SHA-1, avx512_x16's iteration of any number
 * of chains costs about what three x2 kernel calls do. Same CPU and
 * method, 10,000 iterations, ns per chain and iteration, kernels against
 * avx512_x16: k = 5 58.3 against about 60; 6: 55.6 and 50.7; 7: 59.9 and
 * 44.7; 8: 57.7 and 39.4; 12: 54.2 and 26.6 (the lane path before the
 * kernels took 12 chains on shani_x4, 64.7).
 */
#define FSHA_CHAIN_KERNELS_UPTO 6

/* Row @r's chain kernels (backend.h, struct fsha_chain_row) on this CPU,
 * or NULL: none, or a digest that is not the whole state (SHA-224, whose
 * U is not its chaining words). */
static inline __attribute__((always_inline)) const struct fsha_chain_row *
chain_row_of(const struct fsha_family *fam, const struct fsha_backend_info *r,
	     const struct fsha_md_shape *S, const size_t dlen)
{
	if (!fam->chain_rows || dlen != S->words * S->wsize)
		return NULL;
	for (const struct fsha_chain_row *e = fam->chain_rows; e->row; e++)
		if (e->row == r && (fsha_cpu_features() & e->cpu) == e->cpu)
			return e;
	return NULL;
}

/*
 * SHA-512 (the avx2 row's kernels, sha512_avx2_chain.c) differs on both
 * counts. Its lane rows beat the kernels per chain: same CPU and method,
 * 10,000 iterations, ns per chain and iteration, k = 4: avx2_x4 228.6
 * against 2 x2 322.7 (AVX-512VL kernels; AVX2 ones 336.4), so avx2_x4
 * keeps its chains unless a row of FSHA_CHAIN_WIDE lanes is there to take
 * them; and avx512_x8's iteration costs about 730 ns whatever its idle
 * lanes (k = 6: 121.3 a chain, k = 8: 92.9), against 313.5 a chain on x2
 * and 320.6 on x1, so the kernels take only one or two chains.
 */
#define FSHA_CHAIN_KERNELS_UPTO_512 3

/*
 * fsha_chains() for a family whose sizes are in @S: groups of chains on
 * the widest lane row they fill, a last group narrower than every row on
 * the narrowest that takes it, a last lone chain single-stream; with
 * chain kernels, the chains no wide row takes run on them, three (when
 * there is an x3 kernel) or two at a time, a lone last one on x1: fewer
 * than @upto left over, and the rows narrower than FSHA_CHAIN_WIDE take
 * none (with @keep_narrow, only where a row that wide is there). A lane
 * row with a lane chain kernel (backend.h) runs its groups on that, full
 * or not: the lanes' work with U and the XOR kept in registers.
 */
static inline __attribute__((always_inline)) void
chains_on(const struct fsha_variant *v, struct fsha_chain *c, size_t n, uint64_t iters,
	  const struct fsha_md_shape *S, const size_t dlen, const size_t upto,
	  const int keep_narrow)
{
	const struct fsha_backend_info *rows[FSHA_MAX_LANES];
	const struct fsha_family *fam = v->backends;
	fsha_chain_fn kern[4] = { NULL, NULL, NULL, NULL }; /* kern[k]: k chains */
	/* The single-message row's, not the batch row's: FASTSHA_BACKEND
	 * naming another row keeps its code. */
	const struct fsha_chain_row *single = chain_row_of(fam, fsha_active(fam), S, dlen);
	for (size_t k = 1; single && k <= 3; k++)
		kern[k] = single->x[k - 1];
	size_t nrows = n >= 2 ? lane_rows_of(v, rows) : 0;
	if (kern[1]) {
		size_t m = 0;
		for (size_t j = 0; j < nrows; j++)
			if (rows[j]->lanes >= FSHA_CHAIN_WIDE)
				rows[m++] = rows[j];
		if (m || !keep_narrow)
			nrows = m;
	}
	for (size_t i = 0; i < n;) {
		const size_t left = n - i;
		const struct fsha_backend_info *r = NULL;
		for (size_t j = 0; j < nrows && !r; j++)
			if (rows[j]->lanes <= left)
				r = rows[j];
		if (!r && nrows) {
			/* A narrower group: on the narrowest row from its
			 * min_lanes on; with chain kernels, from the row's lane
			 * chain kernel's min_chains on (measured against them),
			 * or @upto when it has none. */
			const struct fsha_backend_info *q = rows[nrows - 1];
			const struct fsha_chain_row *qc = chain_row_of(fam, q, S, dlen);
			size_t least = min_of(q);
			if (kern[1] && qc && qc->lanes)
				least = qc->min_chains;
			else if (kern[1] && least < upto)
				least = upto;
			if (left >= least)
				r = q;
		}
		if (r) {
			size_t k = left < r->lanes ? left : r->lanes;
			/* the row's own chain kernel, where it has one: the
			 * same lanes with U and the XOR kept in registers */
			const struct fsha_chain_row *rc = chain_row_of(fam, r, S, dlen);
			if (rc && rc->lanes)
				rc->lanes(c + i, k, iters);
			else
				chain_lanes(v, S, r, c + i, k, iters, dlen);
			i += k;
		} else if (kern[1]) {
			size_t k = left == 3 && kern[3] ? 3 : left >= 2 && kern[2] ? 2 : 1;
			kern[k](c + i, iters);
			i += k;
		} else {
			chain_single(S, v->shape->compress, c + i, iters, dlen);
			i++;
		}
	}
}

void fsha_chains(const struct fsha_variant *v, struct fsha_chain *c, size_t n, uint64_t iters)
{
	(void)fsha_cpu_clean_upper(NULL); /* before any SSE instruction: see cpu.h */
	const struct fsha_md_shape *S = v->shape;
	const size_t d = v->outlen;
	/* Constant sizes for the usual shapes, as run_batch() does. */
	if (S->bsize == 64 && S->words == 5)
		chains_on(v, c, n, iters, FSHA_SIZES(64, 8, 5, 4), 20, FSHA_CHAIN_KERNELS_UPTO,
			  0); /* SHA-1 */
	else if (S->bsize == 64 && d == 32)
		chains_on(v, c, n, iters, FSHA_SIZES(64, 8, 8, 4), 32, FSHA_CHAIN_KERNELS_UPTO,
			  0); /* SHA-256 */
	else if (S->bsize == 128 && d == 64)
		chains_on(v, c, n, iters, FSHA_SIZES(128, 16, 8, 8), 64,
			  FSHA_CHAIN_KERNELS_UPTO_512, 1); /* SHA-512 */
	else /* SHA-224, SHA-384, SHA-512/t: no kernels */
		chains_on(v, c, n, iters, S, d, FSHA_CHAIN_KERNELS_UPTO, 0);
}
