/* SPDX-License-Identifier: MIT */
/*
 * SHA-1 on the one engine (src/core/md.h): the IV, the family's shape and
 * its public functions. No buffering or padding here.
 */
#include <string.h>

#include "fastsha/sha1.h"
#include "../core/family.h"
#include "../core/md.h"
#include "sha1_impl.h"

static const uint32_t iv[5] = { 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0 };

static void compress(void *state, const uint8_t *data, size_t nblocks)
{
	fsha1_active()->blocks(state, data, nblocks);
}

static const struct fsha_md_shape shape = { 64, 8, 5, 4, compress };

static void init(void *state, const void *h0)
{
	fastsha1_ctx *s = state;
	memcpy(s->h, h0, sizeof(s->h));
	s->buflen = 0;
	s->nbytes = 0;
}

static void update(void *state, const void *data, size_t len)
{
	fastsha1_ctx *s = state;
	fsha_md_update(s->h, s->buf, &s->buflen, &s->nbytes, data, len, shape.bsize, compress);
}

static void final(const void *state, uint8_t last, unsigned nbits, uint8_t *out, size_t outlen)
{
	const fastsha1_ctx *s = state;
	fsha_md_final(&shape, s->h, s->buf, s->buflen, s->nbytes, last, nbits, out, outlen);
}

static void oneshot(const void *h0, const uint8_t *p, size_t len, uint8_t last, unsigned nbits,
		    uint8_t *out, size_t outlen)
{
	fsha_md_digest(&shape, h0, p, len, last, nbits, out, outlen);
}

static const struct fsha_hash_ops ops = { &fsha1_family, init, update, final, oneshot };

FSHA_VARIANT(1, fastsha1_ctx, FSHA_STATE_SELF, ops, iv, 20)
