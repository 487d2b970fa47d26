/* SPDX-License-Identifier: MIT */
/*
 * armv8_x2: SHA-1 of two independent messages at once with the ARMv8
 * cryptographic extension (AArch64). Needs the SHA1 instructions (Linux
 * hwcap HWCAP_SHA1) and NEON, like sha1_armv8.c (-march=armv8-a+crypto on
 * this file only).
 *
 * Contract (a lane kernel, the row's lanes = 2):
 *
 *   static void lanes(uint32_t (*state)[5], const uint8_t *const *data, size_t nblocks)
 *
 * - exactly 2 lanes, both processed on every call; nblocks >= 1 and each
 *   lane advances by the same nblocks;
 * - state[i] is lane i's H0..H4 as host-order words, the layout of every
 *   single-stream backend (sha1_impl.h); the two rows are distinct;
 * - lane i reads exactly data[i][0 .. 64*nblocks), at any alignment
 *   (vld1q_u8 only), and nothing else: no lookahead past the end; the
 *   pointers may be equal or overlap;
 * - no padding or length, no heap, no globals written; stack only.
 * blocks() is the single-stream loop of sha1_armv8.c (the same helpers),
 * so that pinning this row still hashes one message at a time.
 *
 * Technique: the sha1_armv8.h rounds, each schedule step and each
 * four-round group issued for both lanes in turn (fsha1_a8_block with
 * L = 2), as the x86 SHA-NI lane kernels (sha1_shani_x2.c) do. One
 * message is one chain of 20 dependent sha1c/sha1p/sha1m a block (each
 * takes the ABCD the previous one made; sha1h, the schedule and the W+K
 * adds hang off it). Where those take longer than the interval at which
 * the crypto pipe accepts them, a second, independent chain fills the
 * gaps.
 *
 * Why that should pay, from the vendors' published instruction tables
 * (Arm's software optimization guides, as recalled; LLVM's scheduling
 * models for Cortex-A57/A72 and Neoverse N1 give the same hash-op figures)
 * and arithmetic on them, not measurements:
 * - Cortex-A72 Software Optimization Guide: sha1c/sha1p/sha1m have a
 *   latency of 6 cycles and issue every 2 on the one crypto pipe (F0);
 *   sha1h and sha1su1 hold it 1 cycle each, sha1su0 may run on either FP
 *   pipe. One stream: about 20 x 6 = 120 cycles a block, with F0 busy at
 *   least 76 of them (40 hash, 20 sha1h, 16 sha1su1); two streams are
 *   bound by F0: up to about 1.5x the single stream, less as the adds and
 *   sha1su0 crowd F0.
 * - Neoverse N1 Software Optimization Guide (Cortex-A76 has the same
 *   figures): the hash ops have a latency of 4 cycles and issue every cycle
 *   on pipe V0, where sha1h, sha1su0 and sha1su1 also go, one a cycle. One
 *   stream: about 80 cycles a block with V0 busy about 72 (20 hash, 20
 *   sha1h, 32 schedule); two streams can gain at most about 1.1x there,
 *   much less than on A72 or than x2 gains on x86 (sha1_shani_x2.c).
 * The dispatcher takes this row for batches wherever the SHA1 hwcap is
 * set, in-order cores (Cortex-A53/A55) included; the interleave exposes
 * two chains in program order, which is what an in-order core needs most,
 * but no public table for those was checked.
 *
 * Speed: not measured. There is no AArch64 hardware here; the tests run
 * under qemu-aarch64 (make test-arm), whose timings say nothing about a
 * real core. Someone with ARM hardware should time fastsha1_many pinned to
 * armv8_x2 against armv8 before trusting the figures above, and move or
 * drop the row if it does not win.
 */
#include "sha1_armv8.h"

static void blocks(uint32_t state[5], const uint8_t *data, size_t nblocks)
{
	fsha1_a8_blocks(state, data, nblocks);
}

static void lanes(uint32_t (*state)[5], const uint8_t *const *data, size_t nblocks)
{
	fsha1_a8_lanes(2, state, data, nblocks);
}

const struct fsha1_backend fsha1_backend_armv8_x2 = {
	{ "armv8_x2", FSHA_CPU_ARM_SHA1, 2, FSHA_AUTO_MANY, 0, 0 }, blocks, lanes, FSHA1DC_OPS_NEON, NULL };
