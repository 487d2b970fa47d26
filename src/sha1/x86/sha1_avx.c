/* SPDX-License-Identifier: MIT */
/*
 * avx: the ssse3 backend's algorithm compiled to VEX three-operand forms.
 * CPU features: AVX (VEX encoding; the OS must save ymm state, which the
 * FSHA_CPU_AVX bit already says).
 * Contract: src/sha1/sha1_impl.h (whole blocks, nblocks >= 1, any alignment,
 * reads only [data, data + 64*nblocks)).
 *
 * Technique: sha1_x86_sched.h, the same source as sha1_ssse3.c. VEX forms
 * need no register copies before destructive SSE ops (Locktyukhin's AVX
 * version, seed 000), which shortens the instruction stream the scalar
 * rounds share the front end with.
 */
#include "sha1_x86_sched.h"

void fsha1_blocks_avx(uint32_t state[5], const uint8_t *data, size_t nblocks)
{
	fsha1_x86_blocks128(state, data, nblocks);
}
