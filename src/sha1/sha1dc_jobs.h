/* SPDX-License-Identifier: MIT */
#ifndef FSHA1DC_JOBS_H
#define FSHA1DC_JOBS_H

/*
 * SHA1DC's deferred rechecks. One message's paths (sha1dc_driver.c) and the
 * batches on rows that keep records (sha1dc_many_rec.c) defer the
 * recompressions of the blocks the filter let through, one job a surviving
 * DV (struct fsha1dc_job), and have them done together (ops->recheck: 8 at
 * a time with AVX2, at about the cost of one scalar one), in block order: a
 * block is flagged at the first of its DVs whose partner collides, as the
 * scalar check does (sha1dc_check.c). Up to FSHA1DC_PEND jobs wait; about
 * one block in twenty adds one.
 *
 * The making of jobs is inline here: it runs in those files' hot loops, and
 * was inlined there when one file held them all. The rest, and the scalar
 * recheck, are in sha1dc_jobs.c.
 */

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "sha1dc_impl.h"

#define FSHA1DC_PEND 96

struct fsha1dc_pend {
	const uint8_t *block;
	uint64_t blockno; /* its number in the message (st->blocks numbering) */
	unsigned d;
	size_t msg;       /* batches: the message it belongs to (SIZE_MAX: dropped) */
	struct fsha1dc_job job;
};

struct fsha1dc_pending {
	size_t n;
	struct fsha1dc_pend e[FSHA1DC_PEND];
};

/* A record's chaining value in (ABCD vector, E in word 7) as H0..H4. */
static inline void fsha1dc_h_of_in(const uint32_t n[8], uint32_t h[5])
{
	h[0] = n[3], h[1] = n[2], h[2] = n[1], h[3] = n[0], h[4] = n[7];
}

/* How many jobs a block with filter mask @m makes: its bits, counted
 * without __builtin_popcount, which is a libgcc call on x86-64's baseline
 * (perf showed it in batches). */
static inline size_t fsha1dc_njobs(uint32_t m)
{
	m = m - ((m >> 1) & 0x55555555u);
	m = (m & 0x33333333u) + ((m >> 2) & 0x33333333u);
	return (size_t)((((m + (m >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24);
}

/* Four words, for the partner's message words (GCC and Clang vector
 * extensions: SIMD where the target has it, scalar code elsewhere). */
typedef uint32_t fsha1dc_u32x4 __attribute__((vector_size(16)));

/*
 * One job per DV of @mask for the block at @block, numbered @blockno in its
 * message (@msg: batches), whose message words are @W[0..15], chaining
 * value @in before it and @out after it: each from the state before its
 * DV's test step, @at58 or @at65. The caller made room for them.
 */
static inline void fsha1dc_pend_dvs(struct fsha1dc_pending *P, const uint8_t *block,
				    uint64_t blockno, size_t msg, uint32_t mask,
				    const fsha1dc_u32x4 W[4], const uint32_t at58[5],
				    const uint32_t at65[5], const uint32_t in[5],
				    const uint32_t out[5])
{
	for (; mask; mask &= mask - 1) {
		const unsigned d = (unsigned)__builtin_ctz(mask);
		const struct fsha1dc_dv *v = &fsha1dc_dvs[d];
		uint32_t scratch[80];
		const uint32_t *dm = fsha1dc_dm_of(d, scratch);
		struct fsha1dc_pend *e = &P->e[P->n++];
		e->block = block;
		e->blockno = blockno;
		e->d = d;
		e->msg = msg;
		memcpy(e->job.at, v->testt == 58 ? at58 : at65, sizeof(e->job.at));
		memcpy(e->job.in, in, sizeof(e->job.in));
		memcpy(e->job.out, out, sizeof(e->job.out));
		e->job.testt = v->testt;
		for (int q = 0; q < 4; q++) { /* four words at a time where there is SIMD */
			fsha1dc_u32x4 x;
			memcpy(&x, dm + 4 * q, sizeof(x));
			x ^= W[q];
			memcpy(e->job.mp + 4 * q, &x, sizeof(x));
		}
	}
}

/* Which test steps the DVs of @mask need states for: bit 0 58, bit 1 65. */
static inline unsigned fsha1dc_need_of(uint32_t mask)
{
	unsigned need = 0;
	for (; mask; mask &= mask - 1)
		need |= fsha1dc_dvs[__builtin_ctz(mask)].testt == 58 ? 1u : 2u;
	return need;
}

/*
 * The jobs of a flagged block from what its compression kept (a record):
 * @s58 the state before step 56 and @s65 before step 64, each set only
 * where @need asks (fsha1dc_need_of()), taken on to steps 58 and 65 here by
 * two and one scalar steps with W[56], W[57] and W[64]; the rest as
 * fsha1dc_pend_dvs(). Worked out in locals and only where a DV of the mask
 * needs them: on arrays in memory, both each time, they were 40% of a job's
 * 35 ns.
 */
static inline void fsha1dc_pend_from(struct fsha1dc_pending *P, const uint8_t *block,
				     uint64_t blockno, size_t msg, uint32_t mask, unsigned need,
				     uint32_t s58[5], uint32_t w56, uint32_t w57, uint32_t s65[5],
				     uint32_t w64, const uint32_t in[5], const uint32_t out[5])
{
	/* The block's words in vectors as they are loaded: scalar loads put
	 * in an array and read back as vectors stalled (no store forwarding
	 * from four stores to one load; perf put 11% of a batch's job making
	 * there). */
	fsha1dc_u32x4 W[4];
	for (int q = 0; q < 4; q++) {
		fsha1dc_u32x4 w;
		memcpy(&w, block + 16 * q, sizeof(w));
		if (!FSHA_BIG_ENDIAN) /* core/bytes.h */
			w = (w << 24) | ((w & 0xff00) << 8) | ((w >> 8) & 0xff00) | (w >> 24);
		W[q] = w;
	}
	if (need & 1) { /* steps 56 and 57 are of the third round, 64 of the fourth */
		FSHA1DC_ROUND_FWD(s58, 56, w56, FSHA1DC_F_MAJ, FSHA1DC_K3, fsha_rol32);
		FSHA1DC_ROUND_FWD(s58, 57, w57, FSHA1DC_F_MAJ, FSHA1DC_K3, fsha_rol32);
	}
	if (need & 2)
		FSHA1DC_ROUND_FWD(s65, 64, w64, FSHA1DC_F_PAR, FSHA1DC_K4, fsha_rol32);
	fsha1dc_pend_dvs(P, block, blockno, msg, mask, W, s58, s65, in, out);
}

/* Block @block (number @blockno; in a batch, of message @msg), its record
 * @rec (SHA-NI's layout), output @out and filter mask @mask: one job a DV
 * of the mask. The caller has made room. The states before steps 56 and 64
 * are the record's after 56 and 64 (W[56], W[57], W[64] are in its groups,
 * each reversed). */
void fsha1dc_pend_block(struct fsha1dc_pending *P, const uint8_t *block, uint64_t blockno,
			size_t msg, uint32_t mask, const struct fsha1dc_rec *rec,
			const uint32_t out[5]);

/* The same from lane @l of a word-major record @r (struct fsha1dc_recw). */
static inline void fsha1dc_pend_blockw(struct fsha1dc_pending *P, const uint8_t *block,
				       size_t msg, uint32_t mask, const struct fsha1dc_recw *r,
				       unsigned l, const uint32_t out[5])
{
	uint32_t s58[5], s65[5], in[5];
	for (int k = 0; k < 5; k++) {
		in[k] = r->in[k][l];
		s58[k] = r->s56[k][l];
		s65[k] = r->s64[k][l];
	}
	fsha1dc_pend_from(P, block, 0, msg, mask, fsha1dc_need_of(mask), s58, r->w56[l],
			  r->w57[l], s65, r->w64[l], in, out);
}

/*
 * The jobs of a flagged block on the filtered path (rows that keep no
 * records): the block is compressed into @st here, keeping the states
 * before steps 58 and 65 that its DVs' partners start from, and the
 * partners wait to be rechecked with the others (fsha1dc_flush_pending()),
 * where the scalar check did one at a time (about 220 ns each; the AVX2
 * recheck takes 8 in about 250). The caller made room for them.
 */
static inline void fsha1dc_pend_w(struct fsha1dc_pending *P, fsha1dc_state *st,
				  const uint8_t *block, uint32_t mask)
{
	uint32_t W[80], s58[5], s65[5], in[5];
	fsha1dc_expand(block, W);
	memcpy(in, st->h, sizeof(in));
	fsha1dc_compress_w(st->h, W, s58, s65);
	fsha1dc_u32x4 Wv[4];
	memcpy(Wv, W, sizeof(Wv));
	fsha1dc_pend_dvs(P, block, st->blocks, 0, mask, Wv, s58, s65, in, st->h);
	st->blocks++;
}

/* The waiting jobs' eq, by the row's recheck (which takes both test steps
 * at once, in one vector: sha1dc_impl.h FSHA1DC_RECHECK_LANES). */
void fsha1dc_recheck_pending(const struct fsha1dc_ops *ops, struct fsha1dc_pending *P);

/* Whether job @e's partner collides under @options. */
static inline int fsha1dc_job_hit(const struct fsha1dc_pend *e, unsigned options)
{
	return (e->job.eq & 1) || ((options & FASTSHA1DC_REDUCED_ROUND) && (e->job.eq & 2));
}

/*
 * The waiting jobs rechecked and their blocks flagged in order. Returns 0,
 * or, where the safe hash changed a flagged block's output (now in st->h),
 * one more than that block's number: the caller starts again after it (the
 * jobs of later blocks are dropped with the work they belonged to).
 */
uint64_t fsha1dc_flush_pending(fsha1dc_state *st, const struct fsha1dc_ops *ops,
			       struct fsha1dc_pending *P);

#endif
