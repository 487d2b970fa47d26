/* SPDX-License-Identifier: MIT */
/*
 * portable: SHA-512 in plain C for any CPU, the automatic choice where no
 * SIMD or SHA instructions are there. CPU features: none. Contract:
 * sha512_impl.h. Technique: src/sha2/sha2_portable.h, with SHA-512's
 * words and functions (FIPS 180-4 4.1.3).
 */
#include "sha512_impl.h"

#define SHA2_WORD uint64_t
#define SHA2_ROUNDS 80
#define SHA2_K fsha512_k
#define SHA2_LOAD fsha_load_be64
#define ROR fsha_ror64
#define SHA2_BSIG0(x) (ROR(x, 28) ^ ROR(x, 34) ^ ROR(x, 39))
#define SHA2_BSIG1(x) (ROR(x, 14) ^ ROR(x, 18) ^ ROR(x, 41))
#define SHA2_SSIG0(x) (ROR(x, 1) ^ ROR(x, 8) ^ ((x) >> 7))
#define SHA2_SSIG1(x) (ROR(x, 19) ^ ROR(x, 61) ^ ((x) >> 6))
#include "../sha2/sha2_portable.h"

const struct fsha512_backend fsha512_backend_portable = { { "portable", 0, 1, 1, 0 }, blocks, NULL };
const struct fsha512_backend fsha512_backend_portable_x4 = { { "portable_x4", 0, 4, 0, 3 }, blocks,
								lanes4 };
