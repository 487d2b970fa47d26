/* SPDX-License-Identifier: MIT */
/*
 * shani_x3: SHA-256 (and SHA-224) of three independent messages at once
 * with the x86 SHA extensions, in C intrinsics. Needs SHA and SSSE3 like
 * sha256_shani.c (-msha -mssse3 on this file only).
 *
 * Contract: that of sha256_shani_x2.c with 3 lanes: lanes(state, data,
 * nblocks) advances the 3 distinct state rows (H0..H7, host order) by the
 * same nblocks >= 1, lane i reading exactly data[i][0 .. 64*nblocks) at
 * any alignment and nothing else; pointers may be equal; no padding, no
 * heap, no globals written. blocks() is the single-stream loop on the same
 * helpers.
 *
 * Technique: the sha256_shani.h rounds with every step issued for the three
 * lanes in turn (fsha256_ni_block with L = 3). Four chains would fill the
 * 4-cycle sha256rnds2 latency at one a cycle, but on Zen 3 sha256msg1 and
 * sha256msg2 hold up the same unit (sha256_shani.h), which caps every width
 * near 58 cycles a block; three lanes reach that and a fourth only adds
 * register pressure: x4 (the same code with L = 4, not kept) was slower
 * than x3 by a median 3% per run (4 KiB messages: in all 22 runs; 1-block
 * calls: 1%). An inline-asm x4 with no compiler spills ran 58 to 60, no
 * better than this C.
 *
 * Speed (AMD EPYC, Zen 3, 2 vCPUs under KVM, about 3.1 GHz, GCC 12.2 -O3;
 * a private harness timing the kernels against OpenSSL 3.0's SHA256() in
 * the same runs, cycles from a dependent-add loop, best of 120 samples per
 * run, medians of 22 runs in two batches; aggregate cycles per 64-byte
 * block of message data, all lanes together; in brackets the best run:
 * the throughput-bound kernels lose a few % while the machine's other vCPU
 * is busy, the latency-bound single stream does not):
 *
 *                  4 KiB msg      64-block calls  1-block calls
 *   shani          131.5          129.5           142.0
 *   shani_x2        66.4 (65.8)    65.3 (64.8)     73.3 (72.3)
 *   shani_x3        58.8 (57.7)    60.1 (57.0)     65.2 (62.1)
 *   shani_x4        60.9 (59.4)    60.1 (58.7)     67.2 (62.8)   not kept
 *   OpenSSL SHA256() 152.3 (149.6) on the same 4 KiB messages
 *
 * "4 KiB msg" is a 64-block call plus the padding block as a 1-block
 * call, what the scheduler does for a 4 KiB message, against OpenSSL's
 * whole SHA256(). x3 (medians of the per-run ratios): 2.24x the single
 * stream, 2.56x OpenSSL's SHA256() loop, 2.24x its
 * SHA256_Init/Update/Final (132.6); 3.3 GB/s against 1.5. The 3x over
 * SHA256() that the feature aims at means about 51 cycles a block, under
 * the cap of this instruction sequence: it would take moving the message
 * schedule off the SHA unit (vector shifts, as sha256_avx2.c computes it;
 * the rounds alone with W+K from memory ran 35.5 in an x4 experiment),
 * not another width.
 */
#include "sha256_shani.h"

static void blocks(uint32_t state[8], const uint8_t *data, size_t nblocks)
{
	fsha256_ni_blocks(state, data, nblocks);
}

static void lanes(uint32_t (*state)[8], const uint8_t *const *data, size_t nblocks)
{
	fsha256_ni_lanes(3, state, data, nblocks);
}

/* The shared-block entry (sha256_backends.c lists it with this row). */
void fsha256_shani_x3_lanes_wk(uint32_t (*state)[8], const uint8_t *const *data, size_t nblocks,
			       const uint32_t wk[64])
{
	fsha256_ni_lanes_wk(3, state, data, nblocks, wk);
}

const struct fsha256_backend fsha256_backend_shani_x3 = {
	{ "shani_x3", FSHA_CPU_SHA | FSHA_CPU_SSSE3, 3, FSHA_AUTO_MANY, 0, 0 }, blocks, lanes, NULL };
