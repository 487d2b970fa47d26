/* SPDX-License-Identifier: MIT */
/*
 * SHA-224 and SHA-256 on the one engine (src/core/md.h): their IVs
 * (FIPS 180-4 5.3.2, 5.3.3), the family's shape and the public functions.
 * SHA-224 is SHA-256 with its own IV and the digest cut to 28 bytes.
 */
#include <stddef.h>

#include "fastsha/sha256.h"
#include "../core/family.h"
#include "../core/md.h"
#include "sha256_impl.h"

static const uint32_t iv224[8] = { 0xc1059ed8, 0x367cd507, 0x3070dd17, 0xf70e5939,
				   0xffc00b31, 0x68581511, 0x64f98fa7, 0xbefa4fa4 };
static const uint32_t iv256[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
				   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };

/* The backend's blocks, at most FSHA_CALL_BLOCKS a call (core/backend.h). */
FSHA_CAPPED_COMPRESS(compress, struct fsha256_backend, fsha256_active, 64)

/* The active backend's fused HMAC end (struct fsha_md_shape), if it has one. */
static fsha_mac_end_fn mac_end(void)
{
	return fsha256_active()->mac_end;
}

static const struct fsha_md_shape shape =
	FSHA_MD_SHAPE_M(struct fastsha256_state, 64, 8, 8, 4, 8 * 4, compress, mac_end);

FSHA_VARIANT(224, fastsha224_ctx, FSHA_STATE_INNER, shape, fsha256_family, iv224, 28)
FSHA_VARIANT(256, fastsha256_ctx, FSHA_STATE_INNER, shape, fsha256_family, iv256, 32)
