/* SPDX-License-Identifier: MIT */
/*
 * shani_x2: SHA-256 (and SHA-224) of two independent messages at once with
 * the x86 SHA extensions, in C intrinsics. Needs SHA and SSSE3 like
 * sha256_shani.c (-msha -mssse3 on this file only).
 *
 * Contract (a lane kernel, the row's lanes = 2):
 *
 *   static void lanes(uint32_t (*state)[8], const uint8_t *const *data, size_t nblocks)
 *
 * - exactly 2 lanes, both processed on every call; nblocks >= 1 and each
 *   lane advances by the same nblocks;
 * - state[i] is lane i's H0..H7 as host-order words, the layout of every
 *   single-stream backend (sha256_impl.h); the two rows are distinct;
 * - lane i reads exactly data[i][0 .. 64*nblocks), at any alignment (loadu
 *   only), and nothing else: no lookahead past the end; the pointers may be
 *   equal or overlap;
 * - no padding or length, no heap, no globals written; stack only.
 * blocks() is the single-stream loop on the same helpers (as fast as
 * sha256_shani.c), so that pinning this row still hashes one message at a
 * time.
 *
 * Technique: the sha256_shani.h rounds, each schedule step and each quad
 * issued for both lanes in turn (fsha256_ni_block with L = 2). One message
 * is one chain of 32 dependent sha256rnds2 a block, 4 cycles each on
 * Zen 3, while the SHA unit takes one every cycle: a second chain fills a
 * quarter of the gaps.
 *
 * Speed: see the table in sha256_shani_x3.c. x2 runs at 65.3 cycles per
 * block (both lanes together) in 64-block calls (1.99x the single stream,
 * 2.3x OpenSSL's SHA256() loop on 4 KiB messages), close to the 64.5 of
 * two 129-cycle chains. With two messages live it is the faster kernel;
 * x3 spends about 88 cycles a block on two with one idle lane.
 */
#include "sha256_shani.h"

static void blocks(uint32_t state[8], const uint8_t *data, size_t nblocks)
{
	fsha256_ni_blocks(state, data, nblocks);
}

static void lanes(uint32_t (*state)[8], const uint8_t *const *data, size_t nblocks)
{
	fsha256_ni_lanes(2, state, data, nblocks);
}

const struct fsha256_backend fsha256_backend_shani_x2 = {
	{ "shani_x2", FSHA_CPU_SHA | FSHA_CPU_SSSE3, 2, FSHA_AUTO_MANY, 0, 0 }, blocks, lanes, NULL };
