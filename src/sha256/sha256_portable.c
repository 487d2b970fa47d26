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
/* Nested (sha2_portable.h says why): ror 2 ^ ror 13 ^ ror 22, ror 6 ^ ror 11
 * ^ ror 25, ror 7 ^ ror 18 ^ shr 3, ror 17 ^ ror 19 ^ shr 10. */
#define SHA2_BSIG0(x) ROR(ROR(ROR(x, 9) ^ (x), 11) ^ (x), 2)
#define SHA2_BSIG1(x) ROR(ROR(ROR(x, 14) ^ (x), 5) ^ (x), 6)
#define SHA2_SSIG0(x) (ROR(ROR(x, 11) ^ (x), 7) ^ ((x) >> 3))
#define SHA2_SSIG1(x) (ROR(ROR(x, 2) ^ (x), 17) ^ ((x) >> 10))
#include "../sha2/sha2_portable.h"

const struct fsha256_backend fsha256_backend_portable = { { "portable", 0, 1, 1, 0, 0 }, blocks, NULL, NULL };
const struct fsha256_backend fsha256_backend_portable_x4 = { { "portable_x4", 0, 4, 0, 3, 0 }, blocks,
								lanes4, NULL };

/* W[t] + K[t] of @block for t = 0..63 (the lane kernels' shared block,
 * backend.h run_lanes_shared). The whole schedule in one array, not
 * sha2_portable.h's 16-word window (LOAD/SCHED): on that window batches of
 * 12 64-byte messages ran 1.70x OpenSSL against 1.89x (fastsha-bench, Zen 3). */
void fsha256_block_wk(const uint8_t *block, uint32_t wk[64])
{
	uint32_t w[64];
	for (int t = 0; t < 16; t++)
		w[t] = fsha_load_be32(block + 4 * t);
	for (int t = 16; t < 64; t++)
		w[t] = SHA2_SSIG1(w[t - 2]) + w[t - 7] + SHA2_SSIG0(w[t - 15]) + w[t - 16];
	for (int t = 0; t < 64; t++)
		wk[t] = w[t] + fsha256_k[t];
}
