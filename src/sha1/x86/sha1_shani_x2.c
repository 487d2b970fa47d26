/* SPDX-License-Identifier: MIT */
/*
 * shani_x2: SHA-1 of two independent messages at once with the x86 SHA
 * extensions, in C intrinsics. Needs SHA, SSE4.1 and SSSE3 like
 * sha1_shani.c (-msha -msse4.1 -mssse3 on this file only).
 *
 * Contract (a lane kernel, the row's lanes = 2):
 *
 *   static void lanes(uint32_t (*state)[5], const uint8_t *const *data, size_t nblocks)
 *
 * - exactly 2 lanes, both processed on every call; nblocks >= 1 and each
 *   lane advances by the same nblocks;
 * - state[i] is lane i's H0..H4 as host-order words, the layout of every
 *   single-stream backend (sha1_impl.h); the two rows are distinct;
 * - lane i reads exactly data[i][0 .. 64*nblocks), at any alignment (loadu
 *   only), and nothing else: no lookahead past the end; the pointers may be
 *   equal or overlap;
 * - no padding or length, no heap, no globals written; stack only.
 * blocks() is the single-stream loop of sha1_shani.c, so that pinning this
 * row still hashes one message at a time at that speed.
 *
 * Technique: the sha1_shani.h rounds, each step issued for both lanes in
 * turn (fsha1_ni_block with L = 2). One message is one chain of 20
 * dependent sha1rnds4 a block, 6 cycles each on Zen 3, while the SHA unit
 * takes a new sha1rnds4 every 2 cycles: a second, independent chain fills
 * a third of the gaps (sha1_shani_x4.c runs four).
 *
 * Speed: see the table in sha1_shani_x4.c. x2 runs at 63.7 cycles per
 * block (both lanes together) in 64-block calls (1.91x the single stream,
 * 2.2x OpenSSL's SHA1() loop on 4 KiB messages), 5% short of the 60.5
 * of two 121-cycle chains. sha1_shani_x4.c is the faster kernel when four
 * messages are live; with two, this one beats x4 running two idle lanes
 * (about 102 cycles a block).
 */
#include "sha1_shani.h"

static void blocks(uint32_t state[5], const uint8_t *data, size_t nblocks)
{
	fsha1_ni_blocks(state, data, nblocks);
}

static void lanes(uint32_t (*state)[5], const uint8_t *const *data, size_t nblocks)
{
	fsha1_ni_lanes(2, state, data, nblocks);
}

/*
 * SHA1DC batches on this row: the lanes keep each block's record (as
 * sha1_shani.c's single stream does), so the filter runs on the records
 * after the kernel instead of on the blocks before it (no second message
 * schedule), and a flagged block is checked from its record.
 */
FSHA1_NI_DC_OPS(2);

const struct fsha1_backend fsha1_backend_shani_x2 = {
	{ "shani_x2", FSHA_CPU_SHA | FSHA_CPU_SSE41 | FSHA_CPU_SSSE3, 2, FSHA_AUTO_MANY, 0, 0 }, blocks,
	lanes, FSHA1_NI_DC_OPS_PTR, NULL };
