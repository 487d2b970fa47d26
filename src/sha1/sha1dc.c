/* SPDX-License-Identifier: MIT */
/*
 * SHA-1 with collision detection (SHA1DC) on the one engine: its state, the
 * disturbance vectors, the scalar check of a block (compression keeping W
 * and the states at steps 58 and 65, recompression of each surviving DV's
 * partner, safe hash), the driver that filters blocks with the row's SIMD
 * filter and sends the rest to the row's ordinary SHA-1 code, and the
 * public functions. How it fits together: sha1dc_impl.h.
 *
 * The method is Stevens' counter-cryptanalysis (CRYPTO 2013) as Stevens and
 * Shumow's sha1collisiondetection implements it (USENIX Security 2017); the
 * filter's relations are its data (dc/PROVENANCE.md), everything here is
 * written from the papers and ../shared/design/sha1dc/README.md.
 */
#include <stdatomic.h>
#include <string.h>

#include "fastsha/sha1dc.h"
#include "../core/family.h"
#include "../core/md.h"
#include "sha1dc_impl.h"

const struct fsha1dc_dv fsha1dc_dvs[32] = {
#include "dc/ubc_dvs.inc"
};

#define ROL fsha_rol32

/* ---- the disturbance vectors' message differences ------------------------ */

/*
 * DV @d's message difference (design note, "dm(DV)"): the DV's 16 words
 * DV[K..K+15] (all 0 but DV[K+15] = rol(1, b), and for type II DV[K+1] =
 * DV[K+3] = rol(2^31, b)) extended both ways with the message recurrence to
 * t = -5..79, then dm[t] = DV[t] ^ rol5(DV[t-1]) ^ DV[t-2] ^ rol30(DV[t-3])
 * ^ rol30(DV[t-4]) ^ rol30(DV[t-5]): the differences the DV's local
 * collisions put on the message words.
 */
void fsha1dc_dm(unsigned d, uint32_t dm[80])
{
	const struct fsha1dc_dv *v = &fsha1dc_dvs[d];
	uint32_t dv[85]; /* dv[t + 5] = DV[t], t = -5..79 */
#define DV(t) dv[(t) + 5]
	const int K = v->k;
	memset(dv, 0, sizeof(dv));
	DV(K + 15) = ROL(1, v->b); /* fsha_rol32 takes a count of 0 too */
	if (v->type == 2)
		DV(K + 1) = DV(K + 3) = ROL(0x80000000u, v->b);
	/* Backwards: DV[t-16] = ror1(DV[t]) ^ DV[t-3] ^ DV[t-8] ^ DV[t-14]. */
	for (int t = K + 15; t - 16 >= -5; t--)
		DV(t - 16) = fsha_ror32(DV(t), 1) ^ DV(t - 3) ^ DV(t - 8) ^ DV(t - 14);
	for (int t = K + 16; t < 80; t++)
		DV(t) = ROL(DV(t - 3) ^ DV(t - 8) ^ DV(t - 14) ^ DV(t - 16), 1);
	for (int t = 0; t < 80; t++)
		dm[t] = DV(t) ^ ROL(DV(t - 1), 5) ^ DV(t - 2) ^ ROL(DV(t - 3), 30) ^
			ROL(DV(t - 4), 30) ^ ROL(DV(t - 5), 30);
#undef DV
}

/*
 * All 32 differences, worked out once on first use. A thread that finds the
 * table not ready works out the one it needs on its own stack; the thread
 * that claims the table fills it and publishes it, so nobody waits.
 */
static uint32_t dm_table[32][80];
static atomic_int dm_state; /* 0 empty, 1 being filled, 2 ready */

static const uint32_t *dm_of(unsigned d, uint32_t scratch[80])
{
	if (atomic_load_explicit(&dm_state, memory_order_acquire) == 2)
		return dm_table[d];
	int expect = 0;
	if (atomic_compare_exchange_strong(&dm_state, &expect, 1)) {
		for (unsigned i = 0; i < 32; i++)
			fsha1dc_dm(i, dm_table[i]);
		atomic_store_explicit(&dm_state, 2, memory_order_release);
		return dm_table[d];
	}
	fsha1dc_dm(d, scratch);
	return scratch;
}

/* ---- the scalar compression, its states, and the recompression ----------- */

#define K1 FSHA1DC_K1
#define K2 FSHA1DC_K2
#define K3 FSHA1DC_K3
#define K4 FSHA1DC_K4

static inline uint32_t f_of(int t, uint32_t b, uint32_t c, uint32_t d)
{
	if (t < 20)
		return d ^ (b & (c ^ d));
	if (t < 40 || t >= 60)
		return b ^ c ^ d;
	return (b & c) | (d & (b | c));
}

static inline uint32_t k_of(int t)
{
	return t < 20 ? K1 : t < 40 ? K2 : t < 60 ? K3 : K4;
}

/*
 * W[16..79] from W[0..15]. The empty asm keeps GCC's vectorizer off the
 * loop: GCC 12 at -O2 did it two words at a time (W[t - 3] is the nearest
 * dependence), and each pair's 8-byte load straddled the two 4-byte stores
 * before it, which cannot be forwarded: the scalar recheck of a job ran at
 * half speed (380 ns against 194 on Zen 3).
 */
static inline void expand_rest(uint32_t W[80])
{
	for (int t = 16; t < 80; t++) {
		uint32_t x = W[t - 3] ^ W[t - 8] ^ W[t - 14] ^ W[t - 16];
		__asm__("" : "+r"(x));
		W[t] = ROL(x, 1);
	}
}

/* The expanded message W[0..79] of the block at @p. */
static void expand(const uint8_t *p, uint32_t W[80])
{
	for (int t = 0; t < 16; t++)
		W[t] = fsha_load_be32(p + 4 * t);
	expand_rest(W);
}

#define ROUND_FWD(s, t, w, F, K) FSHA1DC_ROUND_FWD(s, t, w, F, K, ROL)
#define ROUND_BWD(s, t, w, F, K) FSHA1DC_ROUND_BWD(s, t, w, F, K, ROL)

/* Step t forwards on the message W (t a constant where it is unrolled). */
#define STEP(t, s, W) ROUND_FWD(s, t, (W)[t], f_of, k_of(t))

/*
 * The loops over steps are unrolled whole, so that each step's round
 * function and constant are known where it is compiled: rolled up, the
 * scalar path ran at a few hundred MB/s, and every block that passes the
 * filter (one in twenty) goes through it.
 */
#if defined(__clang__)
#define UNROLL _Pragma("unroll")
#else
#define UNROLL _Pragma("GCC unroll 80")
#endif

/* Compress W into @h, keeping the states before steps 58 and 65. */
static void compress_w(uint32_t h[5], const uint32_t W[80], uint32_t s58[5], uint32_t s65[5])
{
	uint32_t s[5] = { h[0], h[1], h[2], h[3], h[4] };
	UNROLL for (int t = 0; t < 58; t++)
		STEP(t, s, W);
	memcpy(s58, s, sizeof(s));
	UNROLL for (int t = 58; t < 65; t++)
		STEP(t, s, W);
	memcpy(s65, s, sizeof(s));
	UNROLL for (int t = 65; t < 80; t++)
		STEP(t, s, W);
	for (int i = 0; i < 5; i++)
		h[i] += s[i];
}

/* Plain compression of W into @h (the safe hash's extra rounds). */
static void compress_plain(uint32_t h[5], const uint32_t W[80])
{
	uint32_t s[5] = { h[0], h[1], h[2], h[3], h[4] };
	UNROLL for (int t = 0; t < 80; t++)
		STEP(t, s, W);
	for (int i = 0; i < 5; i++)
		h[i] += s[i];
}

/*
 * The partner block's compression, recomputed from the state @at before
 * step @testt that it shares with the block: backwards to its input
 * chaining value @in, forwards to its output @out. The partner's message is
 * W ^ dm, formed word by word as the steps need it (FSHA1DC_RECOMPRESS,
 * sha1dc_impl.h, which the SIMD rechecks share).
 */
static void recompress(int testt, const uint32_t at[5], const uint32_t W[80], const uint32_t dm[80],
		       uint32_t in[5], uint32_t out[5])
{
	uint32_t b[5], f[5];
	memcpy(b, at, sizeof(b));
	memcpy(f, at, sizeof(f));
#define WP(t) (W[t] ^ dm[t])
	FSHA1DC_RECOMPRESS(testt, b, f, WP, ROL);
#undef WP
	for (int i = 0; i < 5; i++) {
		in[i] = b[i];
		out[i] = b[i] + f[i];
	}
}

/* Record a flag on block st->blocks by DV @d. */
static void flag(fsha1dc_state *st, unsigned d)
{
	if (st->hits++ == 0) {
		st->hit_block = st->blocks;
		st->hit_dv = d;
	}
}

/*
 * The DVs of @mask on the block with expanded message @W, chaining value
 * @in, output @h and states @s58, @s65 before steps 58 and 65: flags the
 * block (st->blocks is its number) at the first DV whose partner collides,
 * and with the safe hash on compresses @h twice more. Returns 1 when it
 * changed @h.
 */
static int check_dvs(fsha1dc_state *st, const uint32_t W[80], uint32_t mask, const uint32_t in[5],
		     const uint32_t s58[5], const uint32_t s65[5], uint32_t h[5])
{
	for (; mask; mask &= mask - 1) {
		unsigned d = (unsigned)__builtin_ctz(mask);
		const struct fsha1dc_dv *v = &fsha1dc_dvs[d];
		uint32_t scratch[80], pin[5], pout[5];
		const uint32_t *dm = dm_of(d, scratch);
		recompress(v->testt, v->testt == 58 ? s58 : s65, W, dm, pin, pout);
		uint32_t dout = 0, din = 0;
		for (int i = 0; i < 5; i++) {
			dout |= pout[i] ^ h[i];
			din |= pin[i] ^ in[i];
		}
		if (dout == 0 || ((st->options & FASTSHA1DC_REDUCED_ROUND) && din == 0)) {
			flag(st, d);
			if (!(st->options & FASTSHA1DC_SAFE_HASH))
				return 0;
			compress_plain(h, W);
			compress_plain(h, W);
			return 1; /* the first DV that hits decides, as in the reference */
		}
	}
	return 0;
}

/* fsha1dc_block() on the block's expanded message @W. */
static void check_w(fsha1dc_state *st, const uint32_t W[80], uint32_t mask)
{
	uint32_t s58[5], s65[5], in[5];
	memcpy(in, st->h, sizeof(in));
	compress_w(st->h, W, s58, s65);
	if (mask)
		check_dvs(st, W, mask, in, s58, s65, st->h);
	st->blocks++;
}

/* A state (a, b, c, d, e) from a record's ABCD vector @v and the vector
 * four steps before it @p (e = rol30 of its A). */
static void state_of(const uint32_t v[4], const uint32_t p[4], uint32_t s[5])
{
	s[0] = v[3];
	s[1] = v[2];
	s[2] = v[1];
	s[3] = v[0];
	s[4] = ROL(p[3], 30);
}

/* A record's chaining value in (ABCD vector, E in word 7) as H0..H4. */
static void h_of_in(const uint32_t n[8], uint32_t h[5])
{
	h[0] = n[3], h[1] = n[2], h[2] = n[1], h[3] = n[0], h[4] = n[7];
}

void fsha1dc_block(fsha1dc_state *st, const uint8_t *block, uint32_t mask)
{
	uint32_t W[80];
	expand(block, W);
	check_w(st, W, mask);
}

/* ---- deferred rechecks ------------------------------------------------------ */

void fsha1dc_job_partner(const struct fsha1dc_job *j, uint32_t in[5], uint32_t out[5])
{
	uint32_t W[80], b[5], f[5];
	memcpy(W, j->mp, sizeof(j->mp));
	expand_rest(W);
	memcpy(b, j->at, sizeof(b));
	memcpy(f, j->at, sizeof(f));
#define WP(t) (W[t])
	FSHA1DC_RECOMPRESS((int)j->testt, b, f, WP, ROL);
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

/*
 * The pipelined path defers the recompressions of the blocks the filter let
 * through and has them done together (ops->recheck: 8 at a time with
 * AVX2, at about the cost of one scalar one), in block order: a block is
 * flagged at the first of its DVs whose partner collides, as check_dvs()
 * does. Up to DC_PEND jobs wait; about one block in twenty adds one.
 */
#define DC_PEND 96

struct dc_pend {
	const uint8_t *block;
	uint64_t blockno; /* its number in the message (st->blocks numbering) */
	unsigned d;
	size_t msg;       /* batches: the message it belongs to (SIZE_MAX: dropped) */
	struct fsha1dc_job job;
};

struct dc_pending {
	size_t n;
	struct dc_pend e[DC_PEND];
};

/* How many jobs a block with filter mask @m makes: its bits, counted
 * without __builtin_popcount, which is a libgcc call on x86-64's baseline
 * (perf showed it in batches). */
static inline size_t njobs(uint32_t m)
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
static inline void pend_dvs(struct dc_pending *P, const uint8_t *block, uint64_t blockno,
			    size_t msg, uint32_t mask, const fsha1dc_u32x4 W[4],
			    const uint32_t at58[5], const uint32_t at65[5], const uint32_t in[5],
			    const uint32_t out[5])
{
	for (; mask; mask &= mask - 1) {
		const unsigned d = (unsigned)__builtin_ctz(mask);
		const struct fsha1dc_dv *v = &fsha1dc_dvs[d];
		uint32_t scratch[80];
		const uint32_t *dm = dm_of(d, scratch);
		struct dc_pend *e = &P->e[P->n++];
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
static inline unsigned need_of(uint32_t mask)
{
	unsigned need = 0;
	for (; mask; mask &= mask - 1)
		need |= fsha1dc_dvs[__builtin_ctz(mask)].testt == 58 ? 1u : 2u;
	return need;
}

/*
 * The jobs of a flagged block from what its compression kept (a record):
 * @s58 the state before step 56 and @s65 before step 64, each set only
 * where @need asks (need_of()), taken on to steps 58 and 65 here by two and
 * one scalar steps with W[56], W[57] and W[64]; the rest as pend_dvs().
 * Worked out in locals and only where a DV of the mask needs them: on
 * arrays in memory, both each time, they were 40% of a job's 35 ns.
 */
static inline void pend_from(struct dc_pending *P, const uint8_t *block, uint64_t blockno,
			     size_t msg, uint32_t mask, unsigned need, uint32_t s58[5], uint32_t w56,
			     uint32_t w57, uint32_t s65[5], uint32_t w64, const uint32_t in[5],
			     const uint32_t out[5])
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
	if (need & 1) {
		ROUND_FWD(s58, 56, w56, f_of, K3);
		ROUND_FWD(s58, 57, w57, f_of, K3);
	}
	if (need & 2)
		ROUND_FWD(s65, 64, w64, f_of, K4);
	pend_dvs(P, block, blockno, msg, mask, W, s58, s65, in, out);
}

/* Block @block (number @blockno; in a batch, of message @msg), its record
 * @rec (SHA-NI's layout), output @out and filter mask @mask: one job a DV
 * of the mask. The caller has made room. The states before steps 56 and 64
 * are the record's after 56 and 64 (W[56], W[57], W[64] are in its groups,
 * each reversed). */
static void pend_block(struct dc_pending *P, const uint8_t *block, uint64_t blockno, size_t msg,
		       uint32_t mask, const struct fsha1dc_rec *rec, const uint32_t out[5])
{
	uint32_t s58[5] = { 0 }, s65[5] = { 0 }, in[5];
	const unsigned need = need_of(mask);
	h_of_in(rec->in, in);
	if (need & 1)
		state_of(rec->s56, rec->s56 + 4, s58);
	if (need & 2)
		state_of(rec->s64, rec->s64 + 4, s65);
	pend_from(P, block, blockno, msg, mask, need, s58, rec->w56[3], rec->w56[2], s65,
		  rec->w64[3], in, out);
}

/* The same from lane @l of a word-major record @r (struct fsha1dc_recw). */
static void pend_blockw(struct dc_pending *P, const uint8_t *block, size_t msg, uint32_t mask,
			const struct fsha1dc_recw *r, unsigned l, const uint32_t out[5])
{
	uint32_t s58[5], s65[5], in[5];
	for (int k = 0; k < 5; k++) {
		in[k] = r->in[k][l];
		s58[k] = r->s56[k][l];
		s65[k] = r->s64[k][l];
	}
	pend_from(P, block, 0, msg, mask, need_of(mask), s58, r->w56[l], r->w57[l], s65,
		  r->w64[l], in, out);
}

/*
 * The jobs of a flagged block on the filtered path (rows that keep no
 * records): the block is compressed into @st here, keeping the states
 * before steps 58 and 65 that its DVs' partners start from, and the
 * partners wait to be rechecked with the others (flush_pending()), where
 * the scalar check did one at a time (about 220 ns each; the AVX2 recheck
 * takes 8 in about 250). The caller made room for them.
 */
static void pend_w(struct dc_pending *P, fsha1dc_state *st, const uint8_t *block, uint32_t mask)
{
	uint32_t W[80], s58[5], s65[5], in[5];
	expand(block, W);
	memcpy(in, st->h, sizeof(in));
	compress_w(st->h, W, s58, s65);
	fsha1dc_u32x4 Wv[4];
	memcpy(Wv, W, sizeof(Wv));
	pend_dvs(P, block, st->blocks, 0, mask, Wv, s58, s65, in, st->h);
	st->blocks++;
}

/* The waiting jobs' eq, by the row's recheck (which takes both test steps
 * at once, in one vector: sha1dc_impl.h FSHA1DC_RECHECK_LANES). */
static void recheck_pending(const struct fsha1dc_ops *ops, struct dc_pending *P)
{
	struct fsha1dc_job *all[DC_PEND];
	for (size_t i = 0; i < P->n; i++)
		all[i] = &P->e[i].job;
	const fsha1dc_recheck_fn recheck = ops->recheck ? ops->recheck : fsha1dc_recheck_portable;
	if (P->n)
		recheck(all, P->n);
}

/* Whether job @e's partner collides under @options. */
static int job_hit(const struct dc_pend *e, unsigned options)
{
	return (e->job.eq & 1) || ((options & FASTSHA1DC_REDUCED_ROUND) && (e->job.eq & 2));
}

/* The safe hash of a flagged block: its output compressed twice more. */
static void safe_hash(const struct dc_pend *e, uint32_t h[5])
{
	uint32_t W[80];
	expand(e->block, W);
	memcpy(h, e->job.out, 5 * sizeof(uint32_t));
	compress_plain(h, W);
	compress_plain(h, W);
}

/*
 * The waiting jobs rechecked and their blocks flagged in order. Returns 0,
 * or, where the safe hash changed a flagged block's output (now in st->h),
 * one more than that block's number: the caller starts again after it (the
 * jobs of later blocks are dropped with the work they belonged to).
 */
static uint64_t flush_pending(fsha1dc_state *st, const struct fsha1dc_ops *ops,
			      struct dc_pending *P)
{
	recheck_pending(ops, P);
	const size_t n = P->n;
	const uint64_t saved = st->blocks;
	uint64_t last = UINT64_MAX;
	P->n = 0;
	for (size_t i = 0; i < n; i++) {
		const struct dc_pend *e = &P->e[i];
		if (!job_hit(e, st->options) || e->blockno == last)
			continue;
		last = e->blockno;
		st->blocks = e->blockno;
		flag(st, e->d);
		if (st->options & FASTSHA1DC_SAFE_HASH) {
			safe_hash(e, st->h);
			return e->blockno + 1;
		}
	}
	st->blocks = saved;
	return 0;
}

/* ---- the filter in plain C ------------------------------------------------ */

uint32_t fsha1dc_ubc_portable(const uint32_t W[80])
{
	uint32_t b0[65], b3[65], m[4];
	for (int t = 35; t < 65; t++) { /* bytes 0 and 3: the bits the filter reads */
		b0[t] = W[t] & 0xff;
		b3[t] = W[t] >> 24;
	}
#define FSHA1DC_V uint32_t
#define FSHA1DC_BIT(b) (1u << (b))
#include "dc/ubc_filter.inc"
#undef FSHA1DC_BIT
#undef FSHA1DC_V
	return m[0] | m[1] << 8 | m[2] << 16 | m[3] << 24;
}

void fsha1dc_filter_portable(const uint8_t *data, size_t n, uint32_t *masks)
{
	for (size_t i = 0; i < n; i++) {
		uint32_t W[80];
		expand(data + 64 * i, W);
		masks[i] = fsha1dc_ubc_portable(W);
	}
}

void fsha1dc_filter_portable_ptrs(const uint8_t *const *blocks, size_t n, uint32_t *masks)
{
	for (size_t i = 0; i < n; i++)
		fsha1dc_filter_portable(blocks[i], 1, masks + i);
}

/* ---- the driver ------------------------------------------------------------ */

/* The scalar path: each block expanded once, for the filter and the check. */
static void blocks_scalar(fsha1dc_state *st, const uint8_t *data, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint32_t W[80];
		expand(data + 64 * i, W);
		check_w(st, W, fsha1dc_ubc_portable(W));
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

/* How many blocks the record path keeps at a time (a record is 128 bytes,
 * with 72 narrowed bytes); twice as many on rows without a pipeline
 * (AVX2), whose long messages take this path: the filter's second run
 * of 32 follows the first while its code is still warm (1.02-1.03x at 4
 * KiB to 1 MiB on the avx2 row). The SHA-NI rows keep 32 (64 measured
 * 0.94x on 2,200-byte messages). */
#define REC_CHUNK 32
_Static_assert(2 * REC_CHUNK <= FSHA1DC_NAR_STRIDE, "a chunk's records fit nar");

/*
 * The jobs of @n consecutive blocks whose records are @rec and bytes
 * @blocks, the first numbered @first: each block that @flagged names (bit
 * i: masks[i] is not 0), from its record; @next_h is the chaining value
 * after the last (the others' is the next block's record). Waiting jobs
 * are rechecked first where they would not fit; returns what
 * flush_pending() did then (0, or where to start again). For a chunk of
 * the pipeline and for the short path's chunks alike.
 */
static uint64_t pend_run(fsha1dc_state *st, const struct fsha1dc_ops *ops, struct dc_pending *P,
			 const struct fsha1dc_rec *rec, const uint8_t *blocks, uint64_t first,
			 size_t n, const uint32_t *masks, uint64_t flagged, const uint32_t next_h[5])
{
	for (; flagged; flagged &= flagged - 1) {
		const size_t i = (size_t)__builtin_ctzll(flagged);
		if (P->n + njobs(masks[i]) > DC_PEND) { /* room for its jobs */
			const uint64_t redo = flush_pending(st, ops, P);
			if (redo)
				return redo;
		}
		uint32_t out[5];
		if (i + 1 < n)
			h_of_in(rec[i + 1].in, out);
		else
			memcpy(out, next_h, sizeof(out));
		pend_block(P, blocks + 64 * i, first + i, 0, masks[i], &rec[i], out);
	}
	return 0;
}

/*
 * @fn hashes the @k blocks at @data into @st (the next ones, numbered from
 * st->blocks), leaving jobs in @P for its flagged blocks, and returns 0, or
 * one more than a flagged block's number where a detection with the safe
 * hash on changed the chaining value (flush_pending()).
 */
typedef uint64_t (*dc_chunk_fn)(fsha1dc_state *st, const struct fsha1_backend *row,
				struct dc_pending *P, const uint8_t *data, size_t k);

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
	struct dc_pending P;
	const uint8_t *const data0 = data;
	const uint64_t first = st->blocks;
	const size_t total = nblocks;
	P.n = 0;
	while (nblocks) {
		const size_t k = nblocks < chunk ? nblocks : chunk;
		uint64_t redo = fn(st, row, &P, data, k);
		if (!redo && k == nblocks)
			redo = flush_pending(st, row->dc, &P);
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
 * (flush_pending()) or sooner when too many wait: per chunk, two or three
 * jobs would each take a recheck of 8 to themselves (a long message on
 * the AVX2 row ran no faster with records than without, flushing per
 * chunk). A detection with the safe hash on changes the chaining value,
 * and the blocks are then taken up again after that block (only colliding
 * files do that): dc_chunks(). rec_chunk() is one chunk.
 */
static uint64_t rec_chunk(fsha1dc_state *st, const struct fsha1_backend *row,
			  struct dc_pending *P, const uint8_t *data, size_t k)
{
	const struct fsha1dc_ops *ops = row->dc;
	struct fsha1dc_rec rec[2 * REC_CHUNK];
	uint64_t nar[9 * FSHA1DC_NAR_STRIDE];
	uint32_t masks[2 * REC_CHUNK];
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
	dc_chunks(st, row, data, nblocks, row->dc->pipe ? REC_CHUNK : 2 * REC_CHUNK, rec_chunk);
}

/*
 * The pipelined path (rows with a dc pipe, SHA-NI): whole chunks of
 * FSHA1DC_PIPE_B blocks through ops->pipe, which filters chunk c-1 while it
 * compresses chunk c; the last chunk is filtered by one more call with no
 * blocks. The blocks the filter let through wait as
 * jobs (struct dc_pending) and are rechecked together at the end, or
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
	struct dc_pending P;
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
				h_of_in(pp.rec[c % 2][0].in, next);
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
			redo = flush_pending(st, ops, &P);
		P.n = 0;
		const size_t adv = redo ? (size_t)(redo - first) : B * nch;
		st->blocks = first + adv;
		done += adv;
	}
}

/*
 * The filtered path (rows that keep no records): the row's filter on a
 * chunk, its blocks() over each run of blocks no DV survived, the others
 * compressed here with their jobs waiting (pend_w()). The jobs are
 * rechecked together at the end (or sooner when too many wait: a recheck
 * of 8 costs about what one of 1 does), and where a detection changed the
 * chaining value (safe hash) the blocks are taken up again after that
 * block (dc_chunks()). Its own function: compress() keeps no waiting list
 * of its own (16 KB) on the stack for the other paths. filtered_chunk() is
 * one chunk.
 */
static uint64_t filtered_chunk(fsha1dc_state *st, const struct fsha1_backend *row,
			       struct dc_pending *P, const uint8_t *data, size_t k)
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
			if (P->n + njobs(masks[j]) > DC_PEND)
				redo = flush_pending(st, row->dc, P);
			if (!redo)
				pend_w(P, st, data + 64 * j, masks[j]);
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
 * The engine's thunk: @nblocks blocks into the state, through the row in
 * use: its pipeline, its record path, or its filter with its ordinary
 * blocks() over each run of blocks no DV survived (rows without SHA1DC
 * parts: the scalar path).
 */
static void compress(void *state, const uint8_t *data, size_t nblocks)
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

/* ---- the public functions -------------------------------------------------- */

static const struct fsha_md_shape shape =
	FSHA_MD_SHAPE_S(fastsha1dc_ctx, 64, 8, 5, 4, sizeof(fsha1dc_state), compress);

/* The initial state: SHA-1's IV, the default options, nothing found. */
static const fsha1dc_state iv = {
	{ 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0 },
	FASTSHA1DC_DEFAULT, 0, 0, 0, 0
};

size_t fsha1dc_pipe_masks(const struct fsha1dc_ops *ops, const uint8_t *data, size_t nblocks,
			  uint32_t *masks, uint32_t h[5])
{
	fsha1dc_state st = iv;
	const size_t done = blocks_pipe(&st, ops, data, nblocks, masks);
	memcpy(h, st.h, sizeof(st.h));
	return done;
}

_Static_assert(sizeof(fsha1dc_state) <= 64, "the engine copies at most 64 bytes of state");

static int result(const fsha1dc_state *st, fastsha1dc_result *res)
{
	if (res) {
		memset(res, 0, sizeof(*res));
		if (st->hits) {
			const struct fsha1dc_dv *v = &fsha1dc_dvs[st->hit_dv];
			res->detected = 1;
			res->flagged = st->hits;
			res->block = st->hit_block;
			res->dv_type = v->type;
			res->dv_k = v->k;
			res->dv_b = v->b;
			res->dv_index = st->hit_dv;
		}
	}
	return st->hits != 0;
}

void fastsha1dc_init(fastsha1dc_ctx *ctx)
{
	fsha_md_init(&shape, ctx, &iv);
}

void fastsha1dc_init_opts(fastsha1dc_ctx *ctx, unsigned options)
{
	fsha_md_init(&shape, ctx, &iv);
	ctx->s.options = options & (FASTSHA1DC_SAFE_HASH | FASTSHA1DC_REDUCED_ROUND);
}

void fastsha1dc_update(fastsha1dc_ctx *ctx, const void *data, size_t len)
{
	fsha_md_absorb(&shape, ctx, data, len);
}

/* The digest of streaming state @st plus @nbits bits of @last; the detection
 * result of the whole message. */
static int final_of(const void *st, uint8_t last, unsigned nbits, uint8_t *out,
		    fastsha1dc_result *res)
{
	const uint8_t *b = fsha_cpu_clean_upper(st); /* before any SSE instruction: cpu.h */
	fsha1dc_state s;
	memcpy(&s, b, sizeof(s));
	fsha_md_finish(&s, b + shape.off_buf, *(const uint32_t *)(b + shape.off_buflen),
		       *(const uint64_t *)(b + shape.off_nbytes), last, nbits & 7, 64, 8, compress);
	fsha_md_output(&shape, s.h, out, 20);
	return result(&s, res);
}

int fastsha1dc_final_result(const fastsha1dc_ctx *ctx, uint8_t out[20], fastsha1dc_result *res)
{
	return final_of(ctx, 0, 0, out, res);
}

int fastsha1dc_final(const fastsha1dc_ctx *ctx, uint8_t out[20])
{
	return final_of(ctx, 0, 0, out, NULL);
}

int fastsha1dc_final_bits(const fastsha1dc_ctx *ctx, uint8_t last, unsigned nbits, uint8_t out[20])
{
	return final_of(ctx, last, nbits, out, NULL);
}

int fastsha1dc_opts(const void *data, size_t len, unsigned options, uint8_t out[20],
		    fastsha1dc_result *res)
{
	static const uint8_t none[1];
	const fsha1dc_state *v = fsha_cpu_clean_upper(&iv); /* before any SSE: cpu.h */
	fsha1dc_state s = *v;
	s.options = options & (FASTSHA1DC_SAFE_HASH | FASTSHA1DC_REDUCED_ROUND);
	/*
	 * The message's last blocks are copied with its padding and hashed in
	 * one call, those before them (whole runs of REC_CHUNK blocks) straight
	 * from @data: one filter run for the last at most 32 blocks, padding
	 * included, where hashing the body and then the padded tail took one
	 * run for the body's last partial run and one for the tail (a run costs
	 * about the same for 1 block as for 32; with AVX2, up to 10 blocks take
	 * a filter per block instead). A short message is all tail.
	 */
	_Alignas(64) uint8_t buf[(REC_CHUNK + 2) * 64];
	const uint8_t *p = data;
	const size_t nfull = len / 64, tail = len % 64;
	const size_t npad = fsha_md_pad_blocks(tail, 64, 8);
	size_t front = (nfull + npad - 1) / REC_CHUNK * REC_CHUNK;
	if (front > nfull)
		front = nfull;
	if (front)
		compress(&s, p, front);
	const size_t body = 64 * (nfull - front);
	if (body)
		memcpy(buf, p + 64 * front, body);
	const size_t k = fsha_md_pad(buf + body, len ? p + 64 * nfull : none, tail, len, 0, 0, 64, 8);
	compress(&s, buf, nfull - front + k);
	fsha_md_output(&shape, s.h, out, 20);
	return result(&s, res);
}

int fastsha1dc(const void *data, size_t len, uint8_t out[20])
{
	return fastsha1dc_opts(data, len, FASTSHA1DC_DEFAULT, out, NULL);
}

/* ---- batches on the lane rows ---------------------------------------------- */

static const uint8_t *msg_bytes(const fastsha_msg *m)
{
	static const uint8_t none[1];
	return m->len ? m->data : none;
}

/*
 * SHA1DC over a batch on a lane row without records (armv8_x2, the portable
 * test row; the record path below is faster): the row's ordinary SHA-1
 * lane kernel advances every lane over blocks its filter let through, and a
 * block that passed the filter is checked on its own (fsha1dc_block()) in
 * that lane before the lanes go on. Each lane filters its message a chunk of blocks
 * ahead (DC_CHUNK), so a kernel call runs all lanes up to the first flagged
 * block of any of them (on random data a block in twenty is flagged: with 4
 * lanes a call advances about 5 blocks). This is the general lane
 * scheduler's scheme (src/core/lanes.c) cut down to what SHA1DC needs: each
 * message is its body read in place, then its padded tail; a lane whose
 * message ends takes the next; with fewer live messages than the row's
 * min_lanes (at least 2) the rest finish on the single-message path.
 */
#define DC_MAXL 16
#define DC_CHUNK 32

struct dc_lane {
	size_t msg;      /* the message it carries */
	size_t left;     /* whole blocks left in its segment (body, then tail) */
	int in_tail;
	int redone;      /* dc_batch_rec(): hashed again on its own, dropped here */
	size_t mpos, mn; /* masks of its next blocks: mk[mpos..mn) */
	uint32_t mk[DC_CHUNK];
	fsha1dc_state ds; /* the detection record; h is in the kernel's rows */
	/* its last blocks, padded: at most 2 (fsha_md_pad() writes up to 2
	 * blocks from where it starts, one block in when dc_to_tail() copies
	 * a whole block in front) */
	_Alignas(64) uint8_t tail[192];
};

/*
 * Messages of a batch found to collide, to be hashed again on their own
 * after the batch returns (fastsha1dc_many()): hashed from inside it, the
 * one-message path (blocks_rec() or blocks_pipe(), 34 KB, and a filter's 15
 * KB; GCC 12 -fstack-usage) came on top of the batch's 86 KB, about 135 KB
 * of stack at the deepest, over musl's 128 KB default for threads; now the
 * batch's deepest is its window flush's filter call, about 100 KB. A batch
 * with more than DC_REDO of them hashes the rest at once, as before.
 */
#define DC_REDO 32
struct dc_redo {
	size_t n;
	size_t msg[DC_REDO];
};

/* Message @i of @msgs hashed on its own into out[@i], its flag into
 * detected[@i] (if any): 1 when it was detected. */
static size_t dc_alone(const fastsha_msg *msgs, size_t i, uint8_t (*out)[20], uint8_t *detected)
{
	const int d = fastsha1dc(msgs[i].data, msgs[i].len, out[i]);
	if (detected)
		detected[i] = (uint8_t)d;
	return (size_t)d;
}

struct dc_batch {
	struct dc_redo *redo; /* NULL: hash them again at once */
	fsha1dc_filter_fn filter;
	const fastsha_msg *msgs;
	uint8_t (*out)[20];
	uint8_t *detected;
	size_t hits;
	struct dc_lane ln[DC_MAXL];
	_Alignas(64) uint32_t h[DC_MAXL][5];
	const uint8_t *ptr[DC_MAXL];
};


static void dc_init(struct dc_batch *B, const struct fsha1_backend *row, const fastsha_msg *msgs,
		    uint8_t (*out)[20], uint8_t *detected)
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
static void dc_to_tail(struct dc_batch *B, unsigned l, size_t whole)
{
	struct dc_lane *ln = &B->ln[l];
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

/* Message @i's digest and flag from lane @l's state. */
static void dc_done(struct dc_batch *B, unsigned l)
{
	struct dc_lane *ln = &B->ln[l];
	fsha_md_output(&shape, B->h[l], B->out[ln->msg], 20);
	if (B->detected)
		B->detected[ln->msg] = ln->ds.hits != 0;
	B->hits += ln->ds.hits != 0;
}

/* Start message @i in lane @l; its masks are still to come. */
static void dc_start(struct dc_batch *B, unsigned l, size_t i)
{
	struct dc_lane *ln = &B->ln[l];
	ln->msg = i;
	ln->redone = 0;
	ln->ds = iv;
	memcpy(B->h[l], iv.h, sizeof(iv.h));
	const size_t len = B->msgs[i].len;
	if (len < 64) {
		dc_to_tail(B, l, 0);
	} else if (len < 128 && fsha_md_pad_blocks(len % 64, 64, 8) == 1) {
		/* One block and the padded rest are 2 blocks: both in the
		 * tail, one kernel step of 2 blocks for the message instead of
		 * two of 1. */
		dc_to_tail(B, l, 1);
	} else {
		ln->left = len / 64;
		ln->in_tail = 0;
		ln->mpos = ln->mn = 0;
		B->ptr[l] = B->msgs[i].data;
	}
}

/* dc_settle()'s answer for a lane whose next blocks have no masks yet. */
#define DC_NEED SIZE_MAX

/*
 * Bring lane @l to a block the filter let through: check flagged blocks on
 * their own, move from body to tail, finish the message. Returns the
 * number of blocks from there that the lane kernel may run (all passed the
 * filter), 0 when the message is done (its digest written), or DC_NEED
 * when the lane's next blocks are still to be filtered (dc_filter_lanes()).
 */
static size_t dc_settle(struct dc_batch *B, unsigned l)
{
	struct dc_lane *ln = &B->ln[l];
	for (;;) {
		if (ln->left == 0) {
			if (ln->in_tail) {
				dc_done(B, l);
				return 0;
			}
			dc_to_tail(B, l, 0);
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
 * The masks of the next blocks (at most DC_CHUNK, within the segment) of
 * every lane in need[0..nneed), in one call of the filter: the one- or
 * two-block tails of short messages in several lanes share a SIMD run
 * instead of paying one each (a run costs the same for 1 block as for a full one).
 */
static void dc_filter_lanes(struct dc_batch *B, const unsigned *need, unsigned nneed)
{
	const uint8_t *p[DC_MAXL * DC_CHUNK];
	uint32_t m[DC_MAXL * DC_CHUNK];
	size_t n = 0;
	for (unsigned i = 0; i < nneed; i++) {
		struct dc_lane *ln = &B->ln[need[i]];
		size_t k = ln->left < DC_CHUNK ? ln->left : DC_CHUNK;
		for (size_t j = 0; j < k; j++)
			p[n + j] = B->ptr[need[i]] + 64 * j;
		ln->mpos = 0;
		ln->mn = k;
		n += k;
	}
	B->filter(p, n, m);
	n = 0;
	for (unsigned i = 0; i < nneed; i++) {
		struct dc_lane *ln = &B->ln[need[i]];
		memcpy(ln->mk, m + n, ln->mn * sizeof(m[0]));
		n += ln->mn;
	}
}

/* Finish lane @l's message on the single-message path. */
static void dc_finish_single(struct dc_batch *B, unsigned l)
{
	struct dc_lane *ln = &B->ln[l];
	memcpy(ln->ds.h, B->h[l], sizeof(ln->ds.h));
	if (ln->left)
		compress(&ln->ds, B->ptr[l], ln->left);
	if (!ln->in_tail) {
		dc_to_tail(B, l, 0);
		compress(&ln->ds, B->ptr[l], ln->left);
	}
	memcpy(B->h[l], ln->ds.h, sizeof(ln->ds.h));
	dc_done(B, l);
}

static size_t dc_batch(const struct fsha1_backend *row, const fastsha_msg *msgs, size_t n,
		       uint8_t (*out)[20], uint8_t *detected)
{
	struct dc_batch B;
	const unsigned L = row->info.lanes;
	const unsigned min = row->info.min_lanes ? row->info.min_lanes : 2;
	size_t run[DC_MAXL], next = 0;
	int live[DC_MAXL];
	dc_init(&B, row, msgs, out, detected);
	for (unsigned l = 0; l < L; l++) {
		live[l] = next < n;
		run[l] = DC_NEED;
		if (live[l])
			dc_start(&B, l, next++);
	}
	for (;;) {
		/* Every live lane to a runnable block: filter those that need it,
		 * all together, until none does. */
		for (;;) {
			unsigned need[DC_MAXL], nneed = 0;
			for (unsigned l = 0; l < L; l++)
				if (live[l] && run[l] == DC_NEED)
					need[nneed++] = l;
			if (!nneed)
				break;
			dc_filter_lanes(&B, need, nneed);
			for (unsigned i = 0; i < nneed; i++) {
				unsigned l = need[i];
				while ((run[l] = dc_settle(&B, l)) == 0 && next < n)
					dc_start(&B, l, next++);
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
				dc_start(&B, l, next++);
			live[l] = run[l] != 0;
		}
	}
	for (unsigned l = 0; l < L; l++)
		if (live[l])
			dc_finish_single(&B, l);
	return B.hits;
}

/*
 * The batch on a lane row that keeps records (SHA-NI x2, x4; avx2_x8 and
 * avx512_x16, whose records are word-major, struct fsha1dc_recw): the other
 * way round. The kernel runs every live lane over its next blocks (up to
 * DC_REC_CHUNK, and no more than the window holds: 8 for 8 lanes, 4 for
 * 16) keeping their records, the
 * filter runs on the blocks of as many such steps as fit one call (struct
 * dc_win), and each flagged block's DVs wait as jobs (struct dc_pending)
 * with those of the steps after it, until DC_PEND are full or
 * the batch ends: rechecked 8 at a time (AVX2) when many wait, instead of a
 * vector of two or three jobs each step (it was half the recheck's time).
 * So the lanes go on past a block before it is decided; a message with a
 * block whose partner collides (only colliding inputs: never seen on
 * random data) is then hashed again on its own, fastsha1dc() from the
 * start, which writes its digest and flag whether its lane still carries
 * it (the lane drops it) or finished it before.
 */
#define DC_REC_CHUNK 16
#define DC_REC_MAXL 16
/* A step of more blocks than the window holds is cut (dc_batch_rec()). */
_Static_assert(DC_REC_MAXL <= FSHA1DC_NAR_STRIDE, "a step of one block a lane fits nar");

/* Lane @l to its next block, or its message done and the next started:
 * returns 0 when no message is left for it. */
static int dc_rec_next(struct dc_batch *B, unsigned l, size_t n, size_t *next)
{
	struct dc_lane *ln = &B->ln[l];
	while (ln->left == 0) {
		if (!ln->in_tail) {
			dc_to_tail(B, l, 0);
			continue;
		}
		if (!ln->redone)
			dc_done(B, l);
		if (*next >= n)
			return 0;
		dc_start(B, l, (*next)++);
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
static void dc_batch_decide(struct dc_batch *B, const struct fsha1dc_ops *ops,
			    struct dc_pending *P, unsigned L, struct dc_win *W)
{
	recheck_pending(ops, P);
	for (size_t i = 0; i < P->n; i++) {
		const size_t msg = P->e[i].msg;
		if (msg == SIZE_MAX || !job_hit(&P->e[i], iv.options))
			continue;
		if (B->redo && B->redo->n < DC_REDO) {
			B->redo->msg[B->redo->n++] = msg;
		} else {
			B->hits += dc_alone(B->msgs, msg, B->out, B->detected);
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
static void dc_win_add(struct dc_win *W, const struct dc_batch *B, const int *live, unsigned L,
		       size_t m)
{
	const size_t s = W->nsteps++;
	W->step[s].at = W->n;
	W->step[s].m = m;
	for (unsigned l = 0; l < L; l++) {
		const struct dc_lane *ln = &B->ln[l];
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
static void dc_win_flush(struct dc_batch *B, const struct fsha1dc_ops *ops, struct dc_win *W,
			 struct dc_pending *P, unsigned L)
{
	if (!W->n)
		return;
	/* L is a power of two (keeps_records()): shifts, where divisions by
	 * it were 2 or 3 64-bit divides a job */
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
			if (P->n + njobs(W->masks[b]) > DC_PEND) /* room for its jobs */
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
				pend_blockw(P, block, msg, W->masks[b], &W->recw[b >> lsh], l, o);
			} else {
				if (!last)
					h_of_in(W->rec[b + L].in, o);
				pend_block(P, block, 0, msg, W->masks[b], &W->rec[b], o);
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

/* Not inlined: its frame must be gone when the messages in @redo are
 * hashed again (fastsha1dc_many()). */
static __attribute__((noinline)) size_t dc_batch_rec(const struct fsha1_backend *row,
						     const fastsha_msg *msgs, size_t n,
						     uint8_t (*out)[20], uint8_t *detected,
						     struct dc_redo *redo)
{
	struct dc_pending P;
	struct dc_win W;
	struct dc_batch B;
	const unsigned L = row->info.lanes;
	const unsigned min = row->info.min_lanes ? row->info.min_lanes : 2;
	size_t next = 0;
	int live[DC_REC_MAXL];
	dc_init(&B, row, msgs, out, detected);
	B.redo = redo;
	P.n = 0;
	W.n = W.nsteps = W.ntail = 0;
	W.use_words = dc_words(row);
	for (unsigned l = 0; l < L; l++) {
		live[l] = next < n;
		if (live[l]) {
			dc_start(&B, l, next++);
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
			dc_finish_single(&B, l);
	dc_win_flush(&B, row->dc, &W, &P, L);
	dc_batch_decide(&B, row->dc, &P, L, &W);
	return B.hits;
}

/* Whether lane row @r has a loop that keeps records the batch can take (of
 * a power of two lanes: dc_win_flush() shifts). */
static int keeps_records(const struct fsha1_backend *r)
{
	return r->lanes && r->dc && (r->info.lanes & (r->info.lanes - 1)) == 0 &&
	       (r->dc->lanes_rec ? r->info.lanes <= DC_REC_MAXL
				 : (r->dc->lanes_recw || dc_words(r)) && r->info.lanes >= 8 &&
					   r->info.lanes <= FSHA1DC_RECW_L);
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
	if (row && keeps_records(row)) {
		struct dc_redo redo;
		redo.n = 0;
		size_t hits = dc_batch_rec(row, msgs, n, out, detected, &redo);
		for (size_t i = 0; i < redo.n; i++) /* see struct dc_redo */
			hits += dc_alone(msgs, redo.msg[i], out, detected);
		return hits;
	}
	if (row && row->lanes && row->info.lanes <= DC_MAXL)
		return dc_batch(row, msgs, n, out, detected);
	size_t hits = 0;
	for (size_t i = 0; i < n; i++)
		hits += dc_alone(msgs, i, out, detected);
	return hits;
}

/* The descriptor's hooks (src/alg.c): the generic context's final, and a
 * one-shot with the digest only. */
static int final_detect(const void *st, uint8_t last, unsigned nbits, uint8_t *out)
{
	return final_of(st, last, nbits, out, NULL);
}

static void oneshot(const void *data, size_t len, uint8_t *out)
{
	fastsha1dc(data, len, out);
}

static size_t many_detect(const fastsha_msg *msgs, size_t n, uint8_t *out, uint8_t *detected)
{
	return fastsha1dc_many(msgs, n, (uint8_t(*)[20])out, detected);
}

const struct fsha_variant fsha_variant_1dc = { &shape, &fsha1_family, &iv, 20, oneshot,
					       final_detect, many_detect };
