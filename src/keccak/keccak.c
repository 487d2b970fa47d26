/* SPDX-License-Identifier: MIT */
/*
 * The Keccak-family algorithms on the one sponge engine (src/core/sponge.h):
 * their parameters (FIPS 202 6.1, 6.2; RFC 9861 for TurboSHAKE), the typed
 * public functions of fastsha/sha3.h, and the generic context's operations
 * for src/alg.c. A variant is data: SHA3-256 and Keccak-256 differ only in
 * the domain byte, SHAKE128 and TurboSHAKE128 in the rounds.
 */
#include <string.h>

#include "fastsha/sha3.h"
#include "../core/sponge.h"
#include "keccak_family.h"

/*                                                      rate  domain rounds outlen xof k12 */
const struct fsha_sponge_variant fsha_sponge_sha3_224 = { 144, 0x06, 24, 28, 0, 0 };
const struct fsha_sponge_variant fsha_sponge_sha3_256 = { 136, 0x06, 24, 32, 0, 0 };
const struct fsha_sponge_variant fsha_sponge_sha3_384 = { 104, 0x06, 24, 48, 0, 0 };
const struct fsha_sponge_variant fsha_sponge_sha3_512 = { 72, 0x06, 24, 64, 0, 0 };
const struct fsha_sponge_variant fsha_sponge_keccak256 = { 136, 0x01, 24, 32, 0, 0 };
/* XOFs: the default output is twice the security level (the collision
 * resistance FIPS 202 table 4 gives SHAKE128 for 256 output bits). */
const struct fsha_sponge_variant fsha_sponge_shake128 = { 168, 0x1f, 24, 32, 1, 0 };
const struct fsha_sponge_variant fsha_sponge_shake256 = { 136, 0x1f, 24, 64, 1, 0 };
/* TurboSHAKE through the descriptor takes RFC 9861's default domain 0x1f. */
const struct fsha_sponge_variant fsha_sponge_turboshake128 = { 168, 0x1f, 12, 32, 1, 0 };
const struct fsha_sponge_variant fsha_sponge_turboshake256 = { 136, 0x1f, 12, 64, 1, 0 };
const struct fsha_sponge_variant fsha_sponge_k12 = { 168, 0x07, 12, 32, 1, 1 };

_Static_assert(sizeof(struct fsha_k12_state) <= sizeof(((fastsha_ctx *)0)->u.bytes),
	       "fastsha_ctx too small for the KangarooTwelve state");

void fsha_sponge_v_init(const struct fsha_sponge_variant *v, void *st)
{
	if (v->k12) {
		fsha_k12_init(st);
		return;
	}
	struct fastsha3_state *s = st;
	fsha_sponge_init(s, v->rate, v->domain, v->rounds);
	s->outlen = v->xof ? 0 : v->outlen;
}

void fsha_k12_v_update(void *st, const void *data, size_t len)
{
	struct fsha_k12_state *k = st;
	if (!k->node.squeezing) /* the input ended at the first squeeze (sha3.h) */
		fsha_k12_update(k, data, len);
}

void fsha_sponge_v_update(const struct fsha_sponge_variant *v, void *st, const void *data,
			  size_t len)
{
	if (v->k12) {
		fsha_k12_v_update(st, data, len);
		return;
	}
	struct fastsha3_state *s = st;
	if (!s->squeezing) /* the input ended at the first squeeze (sha3.h) */
		fsha_sponge_absorb(s, data, len);
}

void fsha_sponge_v_final(const struct fsha_sponge_variant *v, const void *st, uint8_t last,
			 unsigned nbits, uint8_t *out, size_t n)
{
	if (v->k12) {
		struct fsha_k12_state k = *(const struct fsha_k12_state *)st;
		if (!k.node.squeezing)
			fsha_k12_finish(&k, NULL, 0);
		fsha_sponge_squeeze(&k.node, out, n);
		fsha_wipe(&k, sizeof(k));
		return;
	}
	const struct fastsha3_state *s = st;
	if (s->squeezing) { /* a context being squeezed: its next bytes */
		struct fastsha3_state t = *s;
		fsha_sponge_squeeze(&t, out, n);
		fsha_wipe(&t, sizeof(t));
		return;
	}
	fsha_sponge_final(s, last, nbits, out, n);
}

void fsha_sponge_v_squeeze(const struct fsha_sponge_variant *v, void *st, uint8_t *out, size_t n)
{
	if (v->k12) {
		struct fsha_k12_state *k = st;
		if (!k->node.squeezing)
			fsha_k12_finish(k, NULL, 0);
		fsha_sponge_squeeze(&k->node, out, n);
		return;
	}
	struct fastsha3_state *s = st;
	if (!s->squeezing)
		fsha_sponge_pad(s, 0, 0);
	fsha_sponge_squeeze(s, out, n);
}

void fsha_sponge_v_oneshot(const struct fsha_sponge_variant *v, const void *data, size_t len,
			   uint8_t last, unsigned nbits, uint8_t *out, size_t n)
{
	if (v->k12) {
		fsha_k12_oneshot(data, len, NULL, 0, out, n);
		return;
	}
	struct fastsha3_state s;
	fsha_sponge_init(&s, v->rate, v->domain, v->rounds);
	fsha_sponge_absorb(&s, data, len);
	fsha_sponge_pad(&s, last, nbits);
	fsha_sponge_squeeze(&s, out, n);
}

/* The typed functions of sha3.h for a fixed-output variant. */
#define FSHA3_FIXED(name, var, dlen)                                                                   \
	void fast##name##_init(fastsha3_ctx *ctx)                                                  \
	{                                                                                          \
		fsha_sponge_v_init(&(var), &ctx->s);                                               \
	}                                                                                          \
	void fast##name##_update(fastsha3_ctx *ctx, const void *data, size_t len)                  \
	{                                                                                          \
		fsha_sponge_absorb(&ctx->s, data, len);                                            \
	}                                                                                          \
	void fast##name##_final(const fastsha3_ctx *ctx, uint8_t out[dlen])                        \
	{                                                                                          \
		fsha_sponge_final(&ctx->s, 0, 0, out, (var).outlen);                               \
	}                                                                                          \
	void fast##name(const void *data, size_t len, uint8_t out[dlen])                           \
	{                                                                                          \
		fsha_sponge_v_oneshot(&(var), data, len, 0, 0, out, (var).outlen);                 \
	}
FSHA3_FIXED(sha3_224, fsha_sponge_sha3_224, 28)
FSHA3_FIXED(sha3_256, fsha_sponge_sha3_256, 32)
FSHA3_FIXED(sha3_384, fsha_sponge_sha3_384, 48)
FSHA3_FIXED(sha3_512, fsha_sponge_sha3_512, 64)
FSHA3_FIXED(keccak256, fsha_sponge_keccak256, 32)

/* The typed functions of sha3.h for SHAKE. */
#define FSHA3_SHAKE(name, var)                                                                     \
	void fast##name##_init(fastsha3_ctx *ctx)                                                  \
	{                                                                                          \
		fsha_sponge_v_init(&(var), &ctx->s);                                               \
	}                                                                                          \
	void fast##name##_update(fastsha3_ctx *ctx, const void *data, size_t len)                  \
	{                                                                                          \
		fsha_sponge_v_update(&(var), &ctx->s, data, len);                                  \
	}                                                                                          \
	void fast##name##_squeeze(fastsha3_ctx *ctx, uint8_t *out, size_t outlen)                  \
	{                                                                                          \
		fsha_sponge_v_squeeze(&(var), &ctx->s, out, outlen);                               \
	}                                                                                          \
	void fast##name(const void *data, size_t len, uint8_t *out, size_t outlen)                 \
	{                                                                                          \
		fsha_sponge_v_oneshot(&(var), data, len, 0, 0, out, outlen);                       \
	}
FSHA3_SHAKE(shake128, fsha_sponge_shake128)
FSHA3_SHAKE(shake256, fsha_sponge_shake256)

/* TurboSHAKE at @rate bytes (168: 128, 136: 256) with domain byte @domain. */
static int turbo_init(fastsha3_ctx *ctx, size_t rate, uint8_t domain)
{
	if (domain < 0x01 || domain > 0x7f) {
		/* Refused (sha3.h), so that a caller that ignores the -1 does
		 * not go on with what @ctx held before: no rate, and squeezing,
		 * which every update leaves as it is and every squeeze answers
		 * with nothing (core/sponge.h). */
		fsha_sponge_init(&ctx->s, 0, 0, 0);
		ctx->s.squeezing = 1;
		return -1;
	}
	fsha_sponge_init(&ctx->s, rate, domain, 12);
	return 0;
}

int fastturboshake128_init(fastsha3_ctx *ctx, uint8_t domain)
{
	return turbo_init(ctx, 168, domain);
}

int fastturboshake256_init(fastsha3_ctx *ctx, uint8_t domain)
{
	return turbo_init(ctx, 136, domain);
}

void fastturboshake_update(fastsha3_ctx *ctx, const void *data, size_t len)
{
	if (!ctx->s.squeezing)
		fsha_sponge_absorb(&ctx->s, data, len);
}

void fastturboshake_squeeze(fastsha3_ctx *ctx, uint8_t *out, size_t outlen)
{
	if (!ctx->s.squeezing)
		fsha_sponge_pad(&ctx->s, 0, 0);
	fsha_sponge_squeeze(&ctx->s, out, outlen);
}

/* The TurboSHAKE one-shots: the streaming calls on a stack context. */
static int turbo(size_t rate, const void *data, size_t len, uint8_t domain, uint8_t *out,
		 size_t outlen)
{
	fastsha3_ctx c;
	if (turbo_init(&c, rate, domain) != 0)
		return -1;
	fastturboshake_update(&c, data, len);
	fastturboshake_squeeze(&c, out, outlen);
	fsha_wipe(&c, sizeof(c));
	return 0;
}

int fastturboshake128(const void *data, size_t len, uint8_t domain, uint8_t *out, size_t outlen)
{
	return turbo(168, data, len, domain, out, outlen);
}

int fastturboshake256(const void *data, size_t len, uint8_t domain, uint8_t *out, size_t outlen)
{
	return turbo(136, data, len, domain, out, outlen);
}
