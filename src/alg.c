/* SPDX-License-Identifier: MIT */
/*
 * The algorithm descriptor: the one table of the algorithms (name, sizes,
 * family), the generic context and one-shot on top of it, and the
 * per-algorithm backend queries. The only place that maps an algorithm to
 * its family; it reaches each SHA-1/SHA-2 family through its struct
 * fsha_variant (the Merkle-Damgard engine, core/md.h) and each Keccak
 * algorithm through its struct fsha_sponge_variant (the sponge engine,
 * core/sponge.h). The generic functions run the same inline engines as the
 * typed ones, with the shape as run-time data instead of constants.
 */
#include <ctype.h>
#include <string.h>

#include "fastsha/fastsha.h"
#include "fastsha/sha1.h"
#include "fastsha/sha256.h"
#include "fastsha/sha512.h"
#include "fastsha/sha1dc.h"
#include "fastsha/sha3.h"
#include "core/family.h"
#include "keccak/keccak_family.h"
#include "keccak/keccak_impl.h"

/* One algorithm: @v for the SHA-1/SHA-2 families, @sv for the Keccak one. */
static const struct alg {
	const char *name;
	const struct fsha_variant *v;
	size_t block;
	const struct fsha_sponge_variant *sv;
} algs[FASTSHA_ALG_COUNT] = {
	[FASTSHA_SHA1] = { "sha1", &fsha_variant_1, 64, NULL },
	[FASTSHA_SHA224] = { "sha224", &fsha_variant_224, 64, NULL },
	[FASTSHA_SHA256] = { "sha256", &fsha_variant_256, 64, NULL },
	[FASTSHA_SHA384] = { "sha384", &fsha_variant_384, 128, NULL },
	[FASTSHA_SHA512] = { "sha512", &fsha_variant_512, 128, NULL },
	[FASTSHA_SHA512_224] = { "sha512_224", &fsha_variant_512_224, 128, NULL },
	[FASTSHA_SHA512_256] = { "sha512_256", &fsha_variant_512_256, 128, NULL },
	[FASTSHA_SHA1DC] = { "sha1dc", &fsha_variant_1dc, 64, NULL },
	[FASTSHA_SHA3_224] = { "sha3_224", NULL, 144, &fsha_sponge_sha3_224 },
	[FASTSHA_SHA3_256] = { "sha3_256", NULL, 136, &fsha_sponge_sha3_256 },
	[FASTSHA_SHA3_384] = { "sha3_384", NULL, 104, &fsha_sponge_sha3_384 },
	[FASTSHA_SHA3_512] = { "sha3_512", NULL, 72, &fsha_sponge_sha3_512 },
	[FASTSHA_SHAKE128] = { "shake_128", NULL, 168, &fsha_sponge_shake128 },
	[FASTSHA_SHAKE256] = { "shake_256", NULL, 136, &fsha_sponge_shake256 },
	[FASTSHA_KECCAK256] = { "keccak256", NULL, 136, &fsha_sponge_keccak256 },
	[FASTSHA_TURBOSHAKE128] = { "turboshake128", NULL, 168, &fsha_sponge_turboshake128 },
	[FASTSHA_TURBOSHAKE256] = { "turboshake256", NULL, 136, &fsha_sponge_turboshake256 },
	[FASTSHA_K12] = { "k12", NULL, 168, &fsha_sponge_k12 },
};

/*
 * Other names an algorithm answers to: RFC 9861 calls K12 "KT128"; OpenSSL
 * 3 names SHA-2 "SHA2-256" and so on, and SHA-1 "SSL3-SHA1" too (`openssl
 * list -digest-algorithms`, "Provided", 3.0.22). Its other names for what
 * fastsha has are the table's with separators ("SHA-512/224", "SHA512-224",
 * "SHAKE-128", 3.2's "KECCAK-256"), which same_name() finds already. Not
 * taken: the legacy signature names ("RSA-SHA256", "sha256WithRSAEncryption":
 * a signature, not a digest), the OIDs, and KMAC's "KECCAK-KMAC-128" (not
 * Keccak-256). Separators are ignored, so each row must stay unique once
 * they are gone: "sha2-512/256" is "sha2512256", which no other row is.
 */
static const struct {
	const char *name;
	fastsha_alg alg;
} aliases[] = {
	{ "kt128", FASTSHA_K12 },
	{ "kangarootwelve", FASTSHA_K12 },
	{ "ssl3-sha1", FASTSHA_SHA1 },
	{ "sha2-224", FASTSHA_SHA224 },
	{ "sha2-256", FASTSHA_SHA256 },
	{ "sha2-384", FASTSHA_SHA384 },
	{ "sha2-512", FASTSHA_SHA512 },
	{ "sha2-512/224", FASTSHA_SHA512_224 },
	{ "sha2-512/256", FASTSHA_SHA512_256 },
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
	for (size_t i = 0; name && i < sizeof(aliases) / sizeof(aliases[0]); i++)
		if (same_name(name, aliases[i].name))
			return (int)aliases[i].alg;
	return -1;
}

const char *fastsha_alg_name(fastsha_alg alg)
{
	const struct alg *a = get(alg);
	return a ? a->name : NULL;
}

/* The default output length of @a. */
static size_t outlen_of(const struct alg *a)
{
	return a->sv ? a->sv->outlen : a->v->outlen;
}

size_t fastsha_alg_digest_size(fastsha_alg alg)
{
	const struct alg *a = get(alg);
	return a ? outlen_of(a) : 0;
}

int fastsha_alg_is_xof(fastsha_alg alg)
{
	const struct alg *a = get(alg);
	return a && a->sv && a->sv->xof;
}

size_t fastsha_alg_block_size(fastsha_alg alg)
{
	const struct alg *a = get(alg);
	return a ? a->block : 0;
}

/*
 * The alg of a context that fastsha_init() refused: past the table on
 * purpose, so that the calls on a context, which index the table by it,
 * refuse it with the one compare (ctx->alg < FASTSHA_ALG_COUNT) that also
 * keeps a garbage alg from reading outside the table.
 */
#define REFUSED UINT32_MAX

int fastsha_init(fastsha_ctx *ctx, fastsha_alg alg)
{
	const struct alg *a = get(alg);
	if (!a) {
		/* A caller that ignores the -1 must not go on hashing the
		 * context's previous computation (or garbage) under its old
		 * algorithm: the calls on it now refuse it. */
		ctx->alg = REFUSED;
		ctx->reserved = 0;
		return -1;
	}
	ctx->alg = (uint32_t)alg;
	ctx->reserved = 0;
	if (a->sv)
		fsha_sponge_v_init(a->sv, ctx->u.bytes);
	else
		fsha_md_init(a->v->shape, ctx->u.bytes, a->v->iv);
	return 0;
}

void fastsha_update(fastsha_ctx *ctx, const void *data, size_t len)
{
	if (ctx->alg >= FASTSHA_ALG_COUNT) /* refused (fastsha_init() failed) or garbage */
		return;
	const struct alg *a = &algs[ctx->alg];
	if (a->sv && a->sv->k12)
		fsha_k12_v_update(ctx->u.bytes, data, len); /* keccak_family.h: why not below */
	else if (a->sv)
		fsha_sponge_v_update(a->sv, ctx->u.bytes, data, len);
	else
		a->v->absorb(ctx->u.bytes, data, len); /* the typed update's engine (family.h) */
}

void fastsha_final_bits(const fastsha_ctx *ctx, uint8_t last, unsigned nbits, uint8_t *out)
{
	if (ctx->alg >= FASTSHA_ALG_COUNT) /* refused: nothing written (fastsha.h) */
		return;
	const struct alg *a = &algs[ctx->alg];
	if (a->sv) {
		fsha_sponge_v_final(a->sv, ctx->u.bytes, last, a->sv->k12 ? 0 : nbits & 7, out,
				    a->sv->outlen);
		return;
	}
	const struct fsha_variant *v = a->v;
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
	if (a->sv)
		fsha_sponge_v_oneshot(a->sv, data, len, 0, 0, out, a->sv->outlen);
	else
		fsha_oneshot_bytes(a->v->shape, a->v->iv, data, len, out, a->v->outlen);
	return 0;
}

int fastsha_digest_bits(fastsha_alg alg, const void *data, uint64_t nbits, uint8_t *out)
{
	const struct alg *a = get(alg);
	/* A 32-bit size_t cannot hold nbits / 8 from 2^35 bits on: no buffer
	 * is that long, and a cast would hash a shorter message. */
	if (!a || (a->sv && a->sv->k12 && nbits % 8) || nbits / 8 > SIZE_MAX)
		return -1;
	if (a->sv) {
		const uint8_t *p = data;
		size_t len = (size_t)(nbits / 8);
		unsigned rem = (unsigned)(nbits % 8);
		fsha_sponge_v_oneshot(a->sv, p, len, rem ? p[len] : 0, rem, out, a->sv->outlen);
		return 0;
	}
	fsha_oneshot_bits(a->v->shape, a->v->iv, data, nbits, out, a->v->outlen);
	return 0;
}

int fastsha_xof(fastsha_alg alg, const void *data, size_t len, uint8_t *out, size_t outlen)
{
	const struct alg *a = get(alg);
	if (!a || !a->sv || !a->sv->xof)
		return -1;
	fsha_sponge_v_oneshot(a->sv, data, len, 0, 0, out, outlen);
	return 0;
}

int fastsha_squeeze(fastsha_ctx *ctx, uint8_t *out, size_t outlen)
{
	const struct alg *a = get((fastsha_alg)ctx->alg);
	if (!a || !a->sv || !a->sv->xof)
		return -1;
	fsha_sponge_v_squeeze(a->sv, ctx->u.bytes, out, outlen);
	return 0;
}

void fastsha_k12(const void *data, size_t len, const void *custom, size_t customlen,
		 uint8_t *out, size_t outlen)
{
	fsha_k12_oneshot(data, len, custom, customlen, out, outlen);
}

int fastsha_many_xof(fastsha_alg alg, const fastsha_msg *msgs, size_t n, uint8_t *out,
		     size_t outlen)
{
	const struct alg *a = get(alg);
	if (!a || !a->sv || !a->sv->xof || !fsha_fits(n, outlen))
		return -1;
	if (outlen)
		fsha_sponge_v_many(a->sv, msgs, n, out, outlen);
	return 0;
}

int fastsha_alg_detects(fastsha_alg alg)
{
	const struct alg *a = get(alg);
	return a && a->v && a->v->final_detect;
}

int fastsha_final_detect(const fastsha_ctx *ctx, uint8_t *out)
{
	const struct alg *a = get((fastsha_alg)ctx->alg);
	if (!a) /* refused (fastsha_init() failed) or garbage */
		return -1;
	if (a->sv) {
		fastsha_final(ctx, out);
		return 0;
	}
	const struct fsha_variant *v = a->v;
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
	if (a->v && a->v->many_detect) {
		fastsha_msg m = { data, len };
		return (int)a->v->many_detect(&m, 1, out, NULL);
	}
	return fastsha_digest(alg, data, len, out);
}

long fastsha_many_detect(fastsha_alg alg, const fastsha_msg *msgs, size_t n, uint8_t *out,
			 uint8_t *detected)
{
	const struct alg *a = get(alg);
	if (!a || !fsha_fits(n, outlen_of(a)))
		return -1;
	if (a->v && a->v->many_detect)
		return (long)a->v->many_detect(msgs, n, out, detected);
	fastsha_many(alg, msgs, n, out);
	if (detected && n)
		memset(detected, 0, n);
	return 0;
}

int fastsha_many(fastsha_alg alg, const fastsha_msg *msgs, size_t n, uint8_t *out)
{
	const struct alg *a = get(alg);
	if (!a || !fsha_fits(n, outlen_of(a)))
		return -1;
	if (a->sv)
		fsha_sponge_v_many(a->sv, msgs, n, out, a->sv->outlen);
	else
		fsha_many(a->v, msgs, n, out);
	return 0;
}

/* fsha_pieces()'s batch for a Keccak-family variant: its default output. */
static void sponge_batch(const void *arg, const fastsha_msg *m, size_t n, uint8_t *out)
{
	const struct fsha_sponge_variant *sv = arg;
	fsha_sponge_v_many(sv, m, n, out, sv->outlen);
}

size_t fastsha_chunks(fastsha_alg alg, const void *data, size_t len, size_t chunk, uint8_t *out)
{
	const struct alg *a = get(alg);
	if (!a)
		return 0;
	if (!a->sv)
		return fsha_chunks(a->v, data, len, chunk, out);
	return fsha_pieces(data, len, chunk, a->sv->outlen, out, sponge_batch, a->sv);
}

/* The backend table of @alg's family, or NULL. */
static const struct fsha_family *family(fastsha_alg alg)
{
	const struct alg *a = get(alg);
	return a ? (a->sv ? &fsha_keccak_family : a->v->backends) : NULL;
}

unsigned fastsha_many_lanes(fastsha_alg alg)
{
	const struct fsha_family *f = family(alg);
	return f ? fsha_active_many(f)->lanes : 0;
}

const char *fastsha_many_backend(fastsha_alg alg)
{
	const struct fsha_family *f = family(alg);
	return f ? fsha_active_many(f)->name : NULL;
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
