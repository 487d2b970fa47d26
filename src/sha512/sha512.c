/* SPDX-License-Identifier: MIT */
/*
 * SHA-384, SHA-512, SHA-512/224 and SHA-512/256 on the one engine
 * (src/core/md.h): their IVs (FIPS 180-4 5.3.4-5.3.6), the family's shape
 * and the public functions. Each variant is SHA-512 with its own IV and the
 * digest cut short; the 16-byte length field comes from md.h.
 */
#include <stddef.h>

#include "fastsha/sha512.h"
#include "../core/family.h"
#include "../core/md.h"
#include "sha512_impl.h"

static const uint64_t iv384[8] = {
	0xcbbb9d5dc1059ed8, 0x629a292a367cd507, 0x9159015a3070dd17, 0x152fecd8f70e5939,
	0x67332667ffc00b31, 0x8eb44a8768581511, 0xdb0c2e0d64f98fa7, 0x47b5481dbefa4fa4 };
static const uint64_t iv512[8] = {
	0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b, 0xa54ff53a5f1d36f1,
	0x510e527fade682d1, 0x9b05688c2b3e6c1f, 0x1f83d9abfb41bd6b, 0x5be0cd19137e2179 };
static const uint64_t iv512_224[8] = {
	0x8c3d37c819544da2, 0x73e1996689dcd4d6, 0x1dfab7ae32ff9c82, 0x679dd514582f9fcf,
	0x0f6d2b697bd44da8, 0x77e36f7304c48942, 0x3f9d85a86a1d36c8, 0x1112e6ad91d692a1 };
static const uint64_t iv512_256[8] = {
	0x22312194fc2bf72c, 0x9f555fa3c84c64c2, 0x2393b86b6f53b151, 0x963877195940eabd,
	0x96283ee2a88effe3, 0xbe5e1e2553863992, 0x2b0199fc2c85b8aa, 0x0eb72ddc81c52ca2 };

/* The backend's blocks, at most FSHA_CALL_BLOCKS a call (core/backend.h). */
FSHA_CAPPED_COMPRESS(compress, struct fsha512_backend, fsha512_active, 128)

static const struct fsha_md_shape shape = FSHA_MD_SHAPE(struct fastsha512_state, 128, 16, 8, 8, compress);

FSHA_VARIANT(384, fastsha384_ctx, FSHA_STATE_INNER, shape, fsha512_family, iv384, 48)
FSHA_VARIANT(512, fastsha512_ctx, FSHA_STATE_INNER, shape, fsha512_family, iv512, 64)
FSHA_VARIANT(512_224, fastsha512_224_ctx, FSHA_STATE_INNER, shape, fsha512_family, iv512_224, 28)
FSHA_VARIANT(512_256, fastsha512_256_ctx, FSHA_STATE_INNER, shape, fsha512_family, iv512_256, 32)
