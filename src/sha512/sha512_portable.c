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
/* Nested (sha2_portable.h says why): ror 28 ^ ror 34 ^ ror 39, ror 14 ^
 * ror 18 ^ ror 41, ror 1 ^ ror 8 ^ shr 7, ror 19 ^ ror 61 ^ shr 6. */
#define SHA2_BSIG0(x) ROR(ROR(ROR(x, 5) ^ (x), 6) ^ (x), 28)
#define SHA2_BSIG1(x) ROR(ROR(ROR(x, 23) ^ (x), 4) ^ (x), 14)
#define SHA2_SSIG0(x) (ROR(ROR(x, 7) ^ (x), 1) ^ ((x) >> 7))
#define SHA2_SSIG1(x) (ROR(ROR(x, 42) ^ (x), 19) ^ ((x) >> 6))
#include "../sha2/sha2_portable.h"

const struct fsha512_backend fsha512_backend_portable = { { "portable", 0, 1, 1, 0, 0 }, blocks, NULL };
const struct fsha512_backend fsha512_backend_portable_x4 = { { "portable_x4", 0, 4, 0, 3, 0 }, blocks,
								lanes4 };
