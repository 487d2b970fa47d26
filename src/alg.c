/* SPDX-License-Identifier: MIT */
/*
 * The algorithm descriptor: the one table of the seven algorithms (name,
 * sizes, family), the generic context and one-shot on top of it, and the
 * per-algorithm backend queries. The only place that maps an algorithm to
 * its family; it reaches each family through its struct fsha_variant. The
 * generic functions run the same inline engine as the typed ones, with the
 * shape as run-time data instead of constants.
 */
#include <ctype.h>
#include <string.h>

#include "fastsha/fastsha.h"
#include "fastsha/sha1.h"
#include "fastsha/sha256.h"
#include "fastsha/sha512.h"
#include "fastsha/sha1dc.h"
#include "core/family.h"

static const struct alg {
	const char *name;
	const struct fsha_variant *v;
	size_t block;
} algs[FASTSHA_ALG_COUNT] = {
	[FASTSHA_SHA1] = { "sha1", &fsha_variant_1, 64 },
	[FASTSHA_SHA224] = { "sha224", &fsha_variant_224, 64 },
	[FASTSHA_SHA256] = { "sha256", &fsha_variant_256, 64 },
	[FASTSHA_SHA384] = { "sha384", &fsha_variant_384, 128 },
	[FASTSHA_SHA512] = { "sha512", &fsha_variant_512, 128 },
	[FASTSHA_SHA512_224] = { "sha512_224", &fsha_variant_512_224, 128 },
	[FASTSHA_SHA512_256] = { "sha512_256", &fsha_variant_512_256, 128 },
	[FASTSHA_SHA1DC] = { "sha1dc", &fsha_variant_1dc, 64 },
};

/* The generic context holds any family's state. */
_Static_assert(sizeof(fastsha512_ctx) <= sizeof(((fastsha_ctx *)0)->u.bytes),
	       "fastsha_ctx too small for the SHA-512 state");
_Static_assert(sizeof(fastsha256_ctx) <= sizeof(((fastsha_ctx *)0)->u.bytes),
	       "fastsha_ctx too small for the SHA-256 state");
_Static_assert(sizeof(fastsha1_ctx) <= sizeof(((fastsha_ctx *)0)->u.bytes),
	       "fastsha_ctx too small for the SHA-1 state");
_Static_assert(sizeof(fastsha1dc_ctx) <= sizeof(((fastsha_ctx *)0)->u.bytes),
	       "fastsha_ctx too small for the SHA1DC state");

static const struct alg *get(fastsha_alg a)
{
	return (unsigned)a < FASTSHA_ALG_COUNT ? &algs[a] : NULL;
}

const struct fsha_variant *fsha_variant_of(int alg)
{
	const struct alg *a = get((fastsha_alg)alg);
	return a ? a->v : NULL;
}

/* @a and @b equal ignoring case and the separators '-', '_' and '/'. */
static int same_name(const char *a, const char *b)
{
	for (;;) {
		while (*a == '-' || *a == '_' || *a == '/')
			a++;
		while (*b == '-' || *b == '_' || *b == '/')
			b++;
		if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
			return 0;
		if (!*a)
			return 1;
		a++;
		b++;
	}
}

int fastsha_alg_from_name(const char *name)
{
	for (int i = 0; name && i < FASTSHA_ALG_COUNT; i++)
		if (same_name(name, algs[i].name))
			return i;
	return -1;
}

const char *fastsha_alg_name(fastsha_alg alg)
{
	const struct alg *a = get(alg);
	return a ? a->name : NULL;
}

size_t fastsha_alg_digest_size(fastsha_alg alg)
{
	const struct alg *a = get(alg);
	return a ? a->v->outlen : 0;
}

size_t fastsha_alg_block_size(fastsha_alg alg)
{
	const struct alg *a = get(alg);
	return a ? a->block : 0;
}

int fastsha_init(fastsha_ctx *ctx, fastsha_alg alg)
{
	const struct alg *a = get(alg);
	if (!a)
		return -1;
	ctx->alg = (uint32_t)alg;
	ctx->reserved = 0;
	fsha_md_init(a->v->shape, ctx->u.bytes, a->v->iv);
	return 0;
}

void fastsha_update(fastsha_ctx *ctx, const void *data, size_t len)
{
	fsha_md_absorb(algs[ctx->alg].v->shape, ctx->u.bytes, data, len);
}

void fastsha_final_bits(const fastsha_ctx *ctx, uint8_t last, unsigned nbits, uint8_t *out)
{
	const struct fsha_variant *v = algs[ctx->alg].v;
	fsha_md_final(v->shape, ctx->u.bytes, last, nbits & 7, out, v->outlen);
}

void fastsha_final(const fastsha_ctx *ctx, uint8_t *out)
{
	fastsha_final_bits(ctx, 0, 0, out);
}

int fastsha_digest(fastsha_alg alg, const void *data, size_t len, uint8_t *out)
{
	const struct alg *a = get(alg);
	if (!a)
		return -1;
	fsha_oneshot_bytes(a->v->shape, a->v->iv, data, len, out, a->v->outlen);
	return 0;
}

int fastsha_digest_bits(fastsha_alg alg, const void *data, uint64_t nbits, uint8_t *out)
{
	const struct alg *a = get(alg);
	if (!a)
		return -1;
	fsha_oneshot_bits(a->v->shape, a->v->iv, data, nbits, out, a->v->outlen);
	return 0;
}

int fastsha_alg_detects(fastsha_alg alg)
{
	const struct alg *a = get(alg);
	return a && a->v->final_detect;
}

int fastsha_final_detect(const fastsha_ctx *ctx, uint8_t *out)
{
	const struct fsha_variant *v = algs[ctx->alg].v;
	if (v->final_detect)
		return v->final_detect(ctx->u.bytes, 0, 0, out);
	fsha_md_final(v->shape, ctx->u.bytes, 0, 0, out, v->outlen);
	return 0;
}

int fastsha_digest_detect(fastsha_alg alg, const void *data, size_t len, uint8_t *out)
{
	const struct alg *a = get(alg);
	if (!a)
		return -1;
	if (a->v->many_detect) {
		fastsha_msg m = { data, len };
		return (int)a->v->many_detect(&m, 1, out, NULL);
	}
	fsha_oneshot_bytes(a->v->shape, a->v->iv, data, len, out, a->v->outlen);
	return 0;
}

long fastsha_many_detect(fastsha_alg alg, const fastsha_msg *msgs, size_t n, uint8_t *out,
			 uint8_t *detected)
{
	const struct alg *a = get(alg);
	if (!a)
		return -1;
	if (a->v->many_detect)
		return (long)a->v->many_detect(msgs, n, out, detected);
	fsha_many(a->v, msgs, n, out);
	if (detected && n)
		memset(detected, 0, n);
	return 0;
}

int fastsha_many(fastsha_alg alg, const fastsha_msg *msgs, size_t n, uint8_t *out)
{
	const struct alg *a = get(alg);
	if (!a)
		return -1;
	fsha_many(a->v, msgs, n, out);
	return 0;
}

size_t fastsha_chunks(fastsha_alg alg, const void *data, size_t len, size_t chunk, uint8_t *out)
{
	const struct alg *a = get(alg);
	return a ? fsha_chunks(a->v, data, len, chunk, out) : 0;
}

unsigned fastsha_many_lanes(fastsha_alg alg)
{
	const struct alg *a = get(alg);
	return a ? fsha_active_many(a->v->backends)->lanes : 0;
}

const char *fastsha_many_backend(fastsha_alg alg)
{
	const struct alg *a = get(alg);
	return a ? fsha_active_many(a->v->backends)->name : NULL;
}

/* The backend table of @alg's family, or NULL. */
static const struct fsha_family *family(fastsha_alg alg)
{
	const struct alg *a = get(alg);
	return a ? a->v->backends : NULL;
}

const char *fastsha_backend(fastsha_alg alg)
{
	const struct fsha_family *f = family(alg);
	return f ? fsha_active(f)->name : NULL;
}

size_t fastsha_backend_count(fastsha_alg alg)
{
	const struct fsha_family *f = family(alg);
	return f ? f->nrows : 0;
}

/* Row @i of @alg's table, or NULL. */
static const struct fsha_backend_info *row(fastsha_alg alg, size_t i)
{
	const struct fsha_family *f = family(alg);
	return f && i < f->nrows ? f->rows[i] : NULL;
}

const char *fastsha_backend_name(fastsha_alg alg, size_t i)
{
	const struct fsha_backend_info *b = row(alg, i);
	return b ? b->name : NULL;
}

int fastsha_backend_supported(fastsha_alg alg, size_t i)
{
	const struct fsha_backend_info *b = row(alg, i);
	return b && fsha_supported(b);
}

unsigned fastsha_backend_lanes(fastsha_alg alg, size_t i)
{
	const struct fsha_backend_info *b = row(alg, i);
	return b ? b->lanes : 0;
}

int fastsha_use_backend(fastsha_alg alg, const char *name)
{
	const struct fsha_family *f = family(alg);
	return f ? fsha_use(f, name) : FASTSHA_SELECT_UNKNOWN;
}

/* The SHA-1 queries of version 0.1, kept as they were. */
const char *fastsha1_backend(void)
{
	return fastsha_backend(FASTSHA_SHA1);
}

size_t fastsha1_backend_count(void)
{
	return fastsha_backend_count(FASTSHA_SHA1);
}

const char *fastsha1_backend_name(size_t i)
{
	return fastsha_backend_name(FASTSHA_SHA1, i);
}

int fastsha1_backend_supported(size_t i)
{
	return fastsha_backend_supported(FASTSHA_SHA1, i);
}

unsigned fastsha1_backend_lanes(size_t i)
{
	return fastsha_backend_lanes(FASTSHA_SHA1, i);
}

int fastsha1_use_backend(const char *name)
{
	return fastsha_use_backend(FASTSHA_SHA1, name);
}

const char *fastsha_version(void)
{
	return FASTSHA_VERSION_STRING;
}
