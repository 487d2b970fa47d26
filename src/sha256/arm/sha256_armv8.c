/* SPDX-License-Identifier: MIT */
/*
 * armv8: SHA-256 (and SHA-224) with the ARMv8 cryptographic extension
 * (AArch64).
 *
 * Needs: the SHA256 instructions (Linux hwcap HWCAP_SHA2), NEON.
 * Contract: src/sha256/sha256_impl.h (whole 64-byte blocks, any alignment,
 * reads exactly 64*nblocks bytes).
 * Technique (seed 003, SHA-Intrinsics, after ARM's and mbedTLS's code):
 * the state lives in two vectors, ABCD and EFGH, and four rounds are one
 * sha256h (new ABCD) plus one sha256h2 (new EFGH), both fed the old ABCD
 * and EFGH and the same four W+K words; the schedule runs four words at a
 * time with sha256su0 + sha256su1. The sequence is written once, in
 * sha256_armv8.h, which the lane kernel sha256_armv8_x2.c shares; this file
 * runs it with one lane. Moved there unchanged: GCC 12 -O3 emits the same
 * 116 instructions in the same order for this file before and after
 * (objdump; 12 adds name their two sources the other way round).
 * Speed: not measured (no AArch64 hardware here; the tests run under
 * qemu-aarch64, which says nothing about speed).
 */
#include "sha256_armv8.h"

static void blocks(uint32_t state[8], const uint8_t *data, size_t nblocks)
{
	fsha256_a8_blocks(state, data, nblocks);
}

const struct fsha256_backend fsha256_backend_armv8 = { { "armv8", FSHA_CPU_ARM_SHA2, 1, 1, 0, 0 }, blocks, NULL, NULL };
