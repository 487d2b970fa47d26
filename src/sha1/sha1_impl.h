/* SPDX-License-Identifier: MIT */
#ifndef FSHA1_IMPL_H
#define FSHA1_IMPL_H

/*
 * The SHA-1 backend contract. A backend compresses whole blocks and nothing
 * else:
 *
 *   static void blocks(uint32_t state[5], const uint8_t *data, size_t nblocks)
 *
 * - state is H0..H4 as host-order words, the same layout for every backend,
 *   so a computation may move between backends at any block boundary;
 * - nblocks >= 1 full 64-byte blocks, data at any alignment;
 * - it never reads a byte outside [data, data + 64*nblocks);
 * - no padding, no buffering, no length counting (src/core/md.h does that).
 *
 * Each backend file keeps its functions static and ends with its row,
 *
 *   const struct fsha1_backend fsha1_backend_<name> = {
 *       { "<name>", <FSHA_CPU_* bits>, 1, 1 }, blocks, NULL, <dc filter or NULL> };
 *
 * which src/sha1/sha1_backends.c puts in order. A multi-buffer backend also
 * provides a lanes kernel taking one state and one data pointer per lane,
 * each lane advancing by nblocks. SHA1DC (sha1dc_impl.h) runs on the same
 * rows: a row may name a SIMD filter its CPU bits guarantee; NULL means the
 * scalar path of sha1dc.c.
 */

#include <stddef.h>
#include <stdint.h>

#include "../core/backend.h"
#include "../core/bytes.h"
#include "../cpu/cpu.h"

typedef void (*fsha1_blocks_fn)(uint32_t state[5], const uint8_t *data, size_t nblocks);
typedef void (*fsha1_lanes_fn)(uint32_t (*state)[5], const uint8_t *const *data, size_t nblocks);
/* SHA1DC's filter over @n blocks (the contract is in sha1dc_impl.h). */
typedef void (*fsha1dc_filter_fn)(const uint8_t *data, size_t n, uint32_t *masks);

struct fsha1_backend {
	struct fsha_backend_info info; /* first: the resolver sees only this */
	fsha1_blocks_fn blocks;
	fsha1_lanes_fn lanes;          /* NULL for single-stream rows */
	fsha1dc_filter_fn dc_filter;   /* NULL: SHA1DC takes the scalar path */
};

/* SHA1DC's SIMD filters (sha1dc_simd.h), for the rows' dc_filter: NULL
 * when the build left one out. */
#ifdef FSHA_HAVE_SHA1_PART_DC_SSE2
void fsha1dc_filter_sse2(const uint8_t *data, size_t n, uint32_t *masks);
#define FSHA1DC_FILTER_SSE2 fsha1dc_filter_sse2
/* SSE2's, or AVX2's on a CPU that has it: for the rows that need no AVX2
 * but usually run where it is (SHA-NI). */
void fsha1dc_filter_x86(const uint8_t *data, size_t n, uint32_t *masks);
#define FSHA1DC_FILTER_X86 fsha1dc_filter_x86
#else
#define FSHA1DC_FILTER_SSE2 NULL
#define FSHA1DC_FILTER_X86 NULL
#endif
#ifdef FSHA_HAVE_SHA1_PART_DC_AVX2
void fsha1dc_filter_avx2(const uint8_t *data, size_t n, uint32_t *masks);
#define FSHA1DC_FILTER_AVX2 fsha1dc_filter_avx2
#else
#define FSHA1DC_FILTER_AVX2 NULL
#endif
#ifdef FSHA_HAVE_SHA1_PART_DC_NEON
void fsha1dc_filter_neon(const uint8_t *data, size_t n, uint32_t *masks);
#define FSHA1DC_FILTER_NEON fsha1dc_filter_neon
#else
#define FSHA1DC_FILTER_NEON NULL
#endif

extern const struct fsha_family fsha1_family;

static inline const struct fsha1_backend *fsha1_active(void)
{
	return (const struct fsha1_backend *)fsha_active(&fsha1_family);
}

#endif
