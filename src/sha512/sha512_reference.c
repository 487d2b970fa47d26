/* SPDX-License-Identifier: MIT */
/*
 * reference: SHA-512 as FIPS 180-4 section 6.4.2 states it, through the
 * one spec-literal SHA-2 loop (src/sha2/sha2_reference.h) with SHA-512's
 * column of the spec's tables. Never chosen on its own: the tests' oracle.
 * CPU features: none. Contract: sha512_impl.h.
 */
#include "sha512_impl.h"
#include "../sha2/sha2_reference.h"

/* FIPS 180-4 4.1.3: the rotations of SIGMA0/1 and sigma0/1 (last: SHR). */
static const struct fsha2_spec spec = {
	64, 80, { 28, 34, 39 }, { 14, 18, 41 }, { 1, 8, 7 }, { 19, 61, 6 }, fsha512_k,
};

static void blocks(uint64_t state[8], const uint8_t *data, size_t nblocks)
{
	fsha2_reference_blocks(&spec, state, data, nblocks);
}

const struct fsha512_backend fsha512_backend_reference = { { "reference", 0, 1, 0, 0, 0 }, blocks, NULL };
