/* SPDX-License-Identifier: MIT */
/*
 * SHA-224 and SHA-256 on the one engine (src/core/md.h): their IVs
 * (FIPS 180-4 5.3.2, 5.3.3), the family's shape and the public functions.
 * SHA-224 is SHA-256 with its own IV and the digest cut to 28 bytes.
 */
#include <string.h>

#include "fastsha/sha256.h"
#include "../core/family.h"
#include "../core/md.h"
#include "sha256_impl.h"

static const uint32_t iv224[8] = { 0xc1059ed8, 0x367cd507, 0x3070dd17, 0xf70e5939,
				   0xffc00b31, 0x68581511, 0x64f98fa7, 0xbefa4fa4 };
static const uint32_t iv256[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
				   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };

static void compress(void *state, const uint8_t *data, size_t nblocks)
{
	fsha256_active()->blocks(state, data, nblocks);
}

static const struct fsha_md_shape shape = { 64, 8, 8, 4, compress };

static void init(void *state, const void *h0)
{
	struct fastsha256_state *s = state;
	memcpy(s->h, h0, sizeof(s->h));
	s->buflen = 0;
	s->nbytes = 0;
}

static void update(void *state, const void *data, size_t len)
{
	struct fastsha256_state *s = state;
	fsha_md_update(s->h, s->buf, &s->buflen, &s->nbytes, data, len, shape.bsize, compress);
}

static void final(const void *state, uint8_t last, unsigned nbits, uint8_t *out, size_t outlen)
{
	const struct fastsha256_state *s = state;
	fsha_md_final(&shape, s->h, s->buf, s->buflen, s->nbytes, last, nbits, out, outlen);
}

static void oneshot(const void *h0, const uint8_t *p, size_t len, uint8_t last, unsigned nbits,
		    uint8_t *out, size_t outlen)
{
	fsha_md_digest(&shape, h0, p, len, last, nbits, out, outlen);
}

static const struct fsha_hash_ops ops = { &fsha256_family, init, update, final, oneshot };

FSHA_VARIANT(224, fastsha224_ctx, FSHA_STATE_INNER, ops, iv224, 28)
FSHA_VARIANT(256, fastsha256_ctx, FSHA_STATE_INNER, ops, iv256, 32)
