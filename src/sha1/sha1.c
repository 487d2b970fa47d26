/* SPDX-License-Identifier: MIT */
/*
 * SHA-1 on the one engine (src/core/md.h): the IV, the family's shape and
 * its public functions. No buffering or padding here.
 */
#include <stddef.h>

#include "fastsha/sha1.h"
#include "../core/family.h"
#include "../core/md.h"
#include "sha1_impl.h"

static const uint32_t iv[5] = { 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0 };

/* The backend's blocks, at most FSHA_CALL_BLOCKS a call (core/backend.h). */
FSHA_CAPPED_COMPRESS(compress, struct fsha1_backend, fsha1_active, 64)

/* The active backend's fused HMAC end (struct fsha_md_shape), if it has one. */
static fsha_mac_end_fn mac_end(void)
{
	return fsha1_active()->mac_end;
}

static const struct fsha_md_shape shape =
	FSHA_MD_SHAPE_M(fastsha1_ctx, 64, 8, 5, 4, 5 * 4, compress, mac_end);

FSHA_VARIANT(1, fastsha1_ctx, FSHA_STATE_SELF, shape, fsha1_family, iv, 20)
