/* SPDX-License-Identifier: MIT */
#ifndef FSHA_MAC_IMPL_H
#define FSHA_MAC_IMPL_H

/*
 * What HMAC (hmac.c), PBKDF2 and HKDF (kdf.c) share: the algorithms they
 * take, the prepared key's two chaining values, and the keyed hash of a
 * message from one of them. All on the family engine (src/core/md.h) and
 * its lane rows (src/core/lanes.c): no second copy of SHA.
 */

#include <stddef.h>
#include <stdint.h>

#include "fastsha/mac.h"
#include "../core/family.h"

/* A key's words are checked against this (with the algorithm mixed in)
 * before use: a wiped or never-prepared key or context is refused. */
#define FSHA_MAC_MAGIC(alg) (0x4d414331u ^ (uint32_t)(alg))

/* The variant HMAC runs on for @alg, or NULL: out of range, or SHA1DC. */
const struct fsha_variant *fsha_mac_variant(int alg);

/* The chaining-state size of @v's family in bytes (20, 32 or 64). */
static inline size_t fsha_mac_ssize(const struct fsha_variant *v)
{
	return v->shape->words * v->shape->wsize;
}

/*
 * RFC 2104's prepared key: the chaining words after the block of @key
 * XOR ipad (@inner) and XOR opad (@outer), @key first hashed when longer
 * than a block. The two blocks go through fsha_two_blocks() together.
 * The padded blocks and the hashed key are wiped.
 */
void fsha_mac_prepare(const struct fsha_variant *v, const void *key, size_t keylen,
		      uint8_t *inner, uint8_t *outer);

/* The tag from the inner digest @ib: the outer hash from @outer words. */
static inline void fsha_mac_outer(const struct fsha_variant *v, const uint8_t *outer,
				  const uint8_t *ib, uint8_t *out)
{
	fsha_md_digest_from(v->shape, outer, v->shape->bsize, ib, v->outlen, out, v->outlen);
}

/* Set up @c for prepared words @inner and @outer of @v's algorithm @alg. */
void fsha_mac_ctx_init(fastsha_hmac_ctx *c, int alg, const struct fsha_variant *v,
		       const uint8_t *inner, const uint8_t *outer);

#endif
