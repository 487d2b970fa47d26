/* SPDX-License-Identifier: MIT */
/*
 * SHA1DC's scalar parts (declared in sha1dc_impl.h): the disturbance
 * vectors and their message differences, the compression that keeps the
 * states before steps 58 and 65, the recompression of a surviving DV's
 * partner from there, and the check of a block that flags it and applies
 * the safe hash. The scalar path checks every block here; the other paths
 * leave the partners as jobs (sha1dc_jobs.h) and use the compressions here
 * for the blocks they decide on.
 */
#include <stdatomic.h>
#include <string.h>

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

/* The 32 differences, filled on first use (fsha1dc_dm_of()). */
uint32_t fsha1dc_dm_table[32][80];
atomic_int fsha1dc_dm_state;

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

void fsha1dc_expand(const uint8_t *p, uint32_t W[80])
{
	for (int t = 0; t < 16; t++)
		W[t] = fsha_load_be32(p + 4 * t);
	fsha1dc_expand_rest(W);
}

#define ROUND_FWD(s, t, w, F, K) FSHA1DC_ROUND_FWD(s, t, w, F, K, ROL)

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

void fsha1dc_compress_w(uint32_t h[5], const uint32_t W[80], uint32_t s58[5], uint32_t s65[5])
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

void fsha1dc_compress_plain(uint32_t h[5], const uint32_t W[80])
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
		const uint32_t *dm = fsha1dc_dm_of(d, scratch);
		recompress(v->testt, v->testt == 58 ? s58 : s65, W, dm, pin, pout);
		uint32_t dout = 0, din = 0;
		for (int i = 0; i < 5; i++) {
			dout |= pout[i] ^ h[i];
			din |= pin[i] ^ in[i];
		}
		if (dout == 0 || ((st->options & FASTSHA1DC_REDUCED_ROUND) && din == 0)) {
			fsha1dc_flag(st, d);
			if (!(st->options & FASTSHA1DC_SAFE_HASH))
				return 0;
			fsha1dc_compress_plain(h, W);
			fsha1dc_compress_plain(h, W);
			return 1; /* the first DV that hits decides, as in the reference */
		}
	}
	return 0;
}

void fsha1dc_check_w(fsha1dc_state *st, const uint32_t W[80], uint32_t mask)
{
	uint32_t s58[5], s65[5], in[5];
	memcpy(in, st->h, sizeof(in));
	fsha1dc_compress_w(st->h, W, s58, s65);
	if (mask)
		check_dvs(st, W, mask, in, s58, s65, st->h);
	st->blocks++;
}
