/* SPDX-License-Identifier: MIT */
#ifndef FSHA512_IMPL_H
#define FSHA512_IMPL_H

/*
 * The SHA-512 backend contract (SHA-384, SHA-512/224 and SHA-512/256 run on
 * the same backends). A backend compresses whole blocks and nothing else:
 *
 *   static void blocks(uint64_t state[8], const uint8_t *data, size_t nblocks)
 *
 * - state is H0..H7 (A..H) as host-order 64-bit words, the same layout for
 *   every backend;
 * - nblocks >= 1 full 128-byte blocks, data at any alignment;
 * - it never reads a byte outside [data, data + 128*nblocks);
 * - no padding, no buffering, no length counting (src/core/md.h does that).
 *
 * Each backend file keeps its functions static and ends with its row:
 *
 *   const struct fsha512_backend fsha512_backend_<name> = {
 *       { "<name>", <FSHA_CPU_* bits>, 1, 1 }, blocks, NULL };
 */

#include <stddef.h>
#include <stdint.h>

#include "../core/backend.h"
#include "../core/bytes.h"
#include "../cpu/cpu.h"

typedef void (*fsha512_blocks_fn)(uint64_t state[8], const uint8_t *data, size_t nblocks);
typedef void (*fsha512_lanes_fn)(uint64_t (*state)[8], const uint8_t *const *data, size_t nblocks);

/* The avx2 row's PBKDF2 chain kernels, for one chain and two
 * (fsha_chain_fn, x86/sha512_avx2_chain.c); _vl: the same with the
 * schedule on AVX-512VL, for CPUs that have it. */
void fsha512_avx2_chain_x1(struct fsha_chain *c, uint64_t iters);
void fsha512_avx2_chain_x2(struct fsha_chain *c, uint64_t iters);
void fsha512_avx2_chain_x1_vl(struct fsha_chain *c, uint64_t iters);
void fsha512_avx2_chain_x2_vl(struct fsha_chain *c, uint64_t iters);

struct fsha512_backend {
	struct fsha_backend_info info; /* first: the resolver sees only this */
	fsha512_blocks_fn blocks;
	fsha512_lanes_fn lanes;        /* NULL for single-stream rows */
};

/* The 80 round constants K0..K79 of FIPS 180-4 4.2.3, defined once. */
extern const uint64_t fsha512_k[80];

extern const struct fsha_family fsha512_family;

static inline const struct fsha512_backend *fsha512_active(void)
{
	return (const struct fsha512_backend *)fsha_active(&fsha512_family);
}

#endif
