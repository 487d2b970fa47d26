/* SPDX-License-Identifier: MIT */
#ifndef FSHA256_IMPL_H
#define FSHA256_IMPL_H

/*
 * The SHA-256 backend contract (SHA-224 runs on the same backends). A
 * backend compresses whole blocks and nothing else:
 *
 *   static void blocks(uint32_t state[8], const uint8_t *data, size_t nblocks)
 *
 * - state is H0..H7 (A..H) as host-order words, the same layout for every
 *   backend, so a computation may move between backends at any block;
 * - nblocks >= 1 full 64-byte blocks, data at any alignment;
 * - it never reads a byte outside [data, data + 64*nblocks);
 * - no padding, no buffering, no length counting (src/core/md.h does that).
 *
 * Each backend file keeps its functions static and ends with its row:
 *
 *   const struct fsha256_backend fsha256_backend_<name> = {
 *       { "<name>", <FSHA_CPU_* bits>, 1, 1 }, blocks, NULL, NULL };
 *
 * (the last two: the lane kernel of a lane row, and HMAC-SHA256's fused
 * end, core/backend.h fsha_mac_end_fn, of a row that has one).
 *
 * src/sha256/sha256_backends.c puts the rows in order; cmake/backends.cmake
 * builds the file with its ISA flags.
 */

#include <stddef.h>
#include <stdint.h>

#include "../core/backend.h"
#include "../core/bytes.h"
#include "../cpu/cpu.h"

typedef void (*fsha256_blocks_fn)(uint32_t state[8], const uint8_t *data, size_t nblocks);
/* Lane kernels (multi-buffer): one state and one data pointer per lane,
 * every lane advancing nblocks. */
typedef void (*fsha256_lanes_fn)(uint32_t (*state)[8], const uint8_t *const *data, size_t nblocks);
/* A lane kernel's shared-block entry (backend.h, run_lanes_shared): as
 * fsha256_lanes_fn, then one more block whose W[t]+K[t], t = 0..63, are
 * @wk, the same for every lane. */
typedef void (*fsha256_lanes_wk_fn)(uint32_t (*state)[8], const uint8_t *const *data,
				    size_t nblocks, const uint32_t wk[64]);
/* The shani row's PBKDF2 chain kernels, for one, two and three chains
 * (fsha_chain_fn, x86/sha256_shani_chain.c). */
void fsha256_shani_chain_x1(struct fsha_chain *c, uint64_t iters);
void fsha256_shani_chain_x2(struct fsha_chain *c, uint64_t iters);
void fsha256_shani_chain_x3(struct fsha_chain *c, uint64_t iters);
/* The same on shani_avx512's schedule (x86/sha256_shani_avx512_chain.c). */
void fsha256_shani_avx512_chain_x1(struct fsha_chain *c, uint64_t iters);
void fsha256_shani_avx512_chain_x2(struct fsha_chain *c, uint64_t iters);
void fsha256_shani_avx512_chain_x3(struct fsha_chain *c, uint64_t iters);
/* avx512_x16's PBKDF2 lane chain kernel, 1..16 chains (fsha_lane_chain_fn,
 * x86/sha256_avx512_x16_chain.c). */
void fsha256_avx512_x16_chain(struct fsha_chain *c, size_t k, uint64_t iters);
void fsha256_shani_x3_lanes_wk(uint32_t (*state)[8], const uint8_t *const *data, size_t nblocks,
			       const uint32_t wk[64]);
void fsha256_avx512_x16_lanes_wk(uint32_t (*state)[8], const uint8_t *const *data, size_t nblocks,
				 const uint32_t wk[64]);
void fsha256_avx2_x8_lanes_wk(uint32_t (*state)[8], const uint8_t *const *data, size_t nblocks,
			      const uint32_t wk[64]);

struct fsha256_backend {
	struct fsha_backend_info info; /* first: the resolver sees only this */
	fsha256_blocks_fn blocks;
	fsha256_lanes_fn lanes;        /* NULL for single-stream rows */
	fsha_mac_end_fn mac_end;       /* HMAC-SHA256's fused end (core/backend.h), or NULL */
};

/* The 64 round constants K0..K63 of FIPS 180-4 4.2.2, defined once. */
extern const uint32_t fsha256_k[64];

/* W[t] + K[t] of @block, t = 0..63 (sha256_portable.c). */
void fsha256_block_wk(const uint8_t *block, uint32_t wk[64]);

extern const struct fsha_family fsha256_family;

static inline const struct fsha256_backend *fsha256_active(void)
{
	return (const struct fsha256_backend *)fsha_active(&fsha256_family);
}

#endif
