/* SPDX-License-Identifier: MIT */
/*
 * reference: SHA-256 as FIPS 180-4 section 6.2.2 states it, through the
 * one spec-literal SHA-2 loop (src/sha2/sha2_reference.h) with SHA-256's
 * column of the spec's tables. Never chosen on its own: the tests' oracle.
 * CPU features: none. Contract: sha256_impl.h.
 */
#include "sha256_impl.h"
#include "../sha2/sha2_reference.h"

/* FIPS 180-4 4.1.2: the rotations of SIGMA0/1 and sigma0/1 (last: SHR). */
static const struct fsha2_spec spec = {
	32, 64, { 2, 13, 22 }, { 6, 11, 25 }, { 7, 18, 3 }, { 17, 19, 10 }, fsha256_k,
};

static void blocks(uint32_t state[8], const uint8_t *data, size_t nblocks)
{
	fsha2_reference_blocks(&spec, state, data, nblocks);
}

const struct fsha256_backend fsha256_backend_reference = { { "reference", 0, 1, 0, 0, 0 }, blocks, NULL, NULL };
