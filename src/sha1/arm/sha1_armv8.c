/* SPDX-License-Identifier: MIT */
/*
 * armv8: SHA-1 with the ARMv8 cryptographic extension (AArch64).
 *
 * Needs: the SHA1 instructions (Linux hwcap HWCAP_SHA1), NEON.
 * Contract: src/sha1/sha1_impl.h (whole blocks, any alignment, reads exactly
 * 64*nblocks bytes).
 * Technique (seed 003, SHA-Intrinsics): four rounds per instruction,
 * sha1c/sha1p/sha1m for the Ch/Parity/Maj quarters; sha1h gives the E of four
 * rounds ahead (a rol 30); the schedule four words at a time with
 * sha1su0 + sha1su1, W[4g..4g+3] from groups g-4..g-1. The sequence is
 * written once, in sha1_armv8.h, which the lane kernel sha1_armv8_x2.c
 * shares; this file runs it with one lane. Moved there unchanged: GCC 12
 * -O3 emits the same 116 instructions for this file before and after
 * (objdump).
 * Speed: not measured (no AArch64 hardware here; the tests run under
 * qemu-aarch64, which says nothing about speed).
 */
#include "sha1_armv8.h"

static void blocks(uint32_t state[5], const uint8_t *data, size_t nblocks)
{
	fsha1_a8_blocks(state, data, nblocks);
}

const struct fsha1_backend fsha1_backend_armv8 = { { "armv8", FSHA_CPU_ARM_SHA1, 1, 1, 0, 0 }, blocks, NULL, FSHA1DC_OPS_NEON, NULL };
