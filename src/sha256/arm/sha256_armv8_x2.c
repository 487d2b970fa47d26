/* SPDX-License-Identifier: MIT */
/*
 * armv8_x2: SHA-256 (and SHA-224) of two independent messages at once with
 * the ARMv8 cryptographic extension (AArch64). Needs the SHA256
 * instructions (Linux hwcap HWCAP_SHA2) and NEON, like sha256_armv8.c
 * (-march=armv8-a+crypto on this file only).
 *
 * Contract (a lane kernel, the row's lanes = 2):
 *
 *   static void lanes(uint32_t (*state)[8], const uint8_t *const *data, size_t nblocks)
 *
 * - exactly 2 lanes, both processed on every call; nblocks >= 1 and each
 *   lane advances by the same nblocks;
 * - state[i] is lane i's H0..H7 as host-order words, the layout of every
 *   single-stream backend (sha256_impl.h); the two rows are distinct;
 * - lane i reads exactly data[i][0 .. 64*nblocks), at any alignment
 *   (vld1q_u8 only), and nothing else: no lookahead past the end; the
 *   pointers may be equal or overlap;
 * - no padding or length, no heap, no globals written; stack only.
 * blocks() is the single-stream loop of sha256_armv8.c (the same helpers),
 * so that pinning this row still hashes one message at a time.
 *
 * Technique: the sha256_armv8.h rounds, each schedule step and each
 * sha256h/sha256h2 pair issued for both lanes in turn
 * (fsha256_a8_block with L = 2), as the x86 SHA-NI lane kernels
 * (sha256_shani_x2.c) do. One message is one dependency chain: each
 * group's sha256h and sha256h2 need the ABCD and EFGH the previous group
 * made, 16 groups a block. Where the hash instructions take longer than
 * the interval at which the crypto pipe accepts them, a second,
 * independent chain fills the gaps.
 *
 * Why that should pay, from the vendors' published instruction tables
 * (Arm's software optimization guides, as recalled; LLVM's scheduling
 * models for Cortex-A57/A72 and Neoverse N1 give the same hash-op figures)
 * and arithmetic on them, not measurements:
 * - Cortex-A72 Software Optimization Guide: sha256h and sha256h2 have a
 *   latency of 6 cycles and issue every 2 on the one crypto pipe (F0);
 *   sha256su0 1 per cycle, sha256su1 every 2. One stream: sha256h2 issues 2
 *   cycles after sha256h, so a group's new EFGH is ready about 8 cycles
 *   after it starts, about 128 cycles a block; the pipe is busy about 100
 *   of them (32 hash ops x 2 + 12 sha256su1 x 2 + 12 sha256su0). Two
 *   streams are then bound by the pipe, about 200 cycles for their two
 *   blocks: up to 1.28x the single stream.
 * - Neoverse N1 Software Optimization Guide (Cortex-A76 has the same
 *   figures): sha256h and sha256h2 have a latency of 4 cycles and issue
 *   every cycle on pipe V0, the schedule ops likewise at one a cycle. One
 *   stream: 5 cycles a group (sha256h2 one cycle behind sha256h), about 80
 *   a block, with V0 busy about 56; two streams are bound by V0, about
 *   112 cycles for their two blocks: up to 1.43x.
 * The dispatcher takes this row for batches wherever the SHA256 hwcap is
 * set, in-order cores (Cortex-A53/A55) included; the interleave exposes
 * two chains in program order, which is what an in-order core needs most,
 * but no public table for those was checked.
 *
 * Speed: not measured. There is no AArch64 hardware here; the tests run
 * under qemu-aarch64 (make test-arm), whose timings say nothing about a
 * real core. Someone with ARM hardware should time fastsha256_many pinned
 * to armv8_x2 against armv8 before trusting the figures above, and move
 * or drop the row if it does not win.
 */
#include "sha256_armv8.h"

static void blocks(uint32_t state[8], const uint8_t *data, size_t nblocks)
{
	fsha256_a8_blocks(state, data, nblocks);
}

static void lanes(uint32_t (*state)[8], const uint8_t *const *data, size_t nblocks)
{
	fsha256_a8_lanes(2, state, data, nblocks);
}

const struct fsha256_backend fsha256_backend_armv8_x2 = {
	{ "armv8_x2", FSHA_CPU_ARM_SHA2, 2, FSHA_AUTO_MANY, 0, 0 }, blocks, lanes, NULL };
