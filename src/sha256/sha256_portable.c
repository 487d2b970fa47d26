/* SPDX-License-Identifier: MIT */
/*
 * portable: SHA-256 in plain C for any CPU, the automatic choice where no
 * SIMD or SHA instructions are there. CPU features: none. Contract:
 * sha256_impl.h. Technique: src/sha2/sha2_portable.h, with SHA-256's
 * words and functions (FIPS 180-4 4.1.2).
 */
#include "sha256_impl.h"

#define SHA2_WORD uint32_t
#define SHA2_ROUNDS 64
#define SHA2_K fsha256_k
#define SHA2_LOAD fsha_load_be32
#define ROR fsha_ror32
#define SHA2_BSIG0(x) (ROR(x, 2) ^ ROR(x, 13) ^ ROR(x, 22))
#define SHA2_BSIG1(x) (ROR(x, 6) ^ ROR(x, 11) ^ ROR(x, 25))
#define SHA2_SSIG0(x) (ROR(x, 7) ^ ROR(x, 18) ^ ((x) >> 3))
#define SHA2_SSIG1(x) (ROR(x, 17) ^ ROR(x, 19) ^ ((x) >> 10))
#include "../sha2/sha2_portable.h"

const struct fsha256_backend fsha256_backend_portable = { { "portable", 0, 1, 1, 0 }, blocks, NULL };
const struct fsha256_backend fsha256_backend_portable_x4 = { { "portable_x4", 0, 4, 0, 3 }, blocks,
								lanes4 };
