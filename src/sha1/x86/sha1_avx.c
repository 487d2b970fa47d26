/* SPDX-License-Identifier: MIT */
/*
 * avx: the ssse3 backend's algorithm compiled to VEX three-operand forms.
 * CPU features: AVX (the FSHA_CPU_AVX bit includes the OS saving ymm state).
 * Contract: src/sha1/sha1_impl.h (whole blocks, nblocks >= 1, any alignment,
 * reads only [data, data + 64*nblocks)).
 *
 * Technique: sha1_x86_sched.h, the same source as sha1_ssse3.c: the schedule
 * four words per vector (gaudet's fix-up for W16..31, seed 001; Locktyukhin's
 * rol-2 recurrence for W32..79 and the AVX forms, seed 000), W+K stored
 * sixteen rounds ahead. VEX forms need no register copies before the
 * destructive SSE operations, which shortens the instruction stream the
 * scalar rounds share the front end with.
 *
 * No BMI here, on purpose. With -mbmi -mbmi2 (andn, rorx in the rounds) this
 * file measured 1.04x instead of 1.02x OpenSSL's SSSE3 path on the project's
 * Zen 3, but every CPU with AVX and BMI2 also has AVX2 and runs the avx2
 * backend; the CPUs that actually pick this one (Sandy Bridge, Ivy Bridge,
 * AMD Bulldozer/Piledriver) have AVX without BMI2.
 */
#include "sha1_x86_sched.h"

static void blocks(uint32_t state[5], const uint8_t *data, size_t nblocks)
{
	fsha1_x86_blocks128(state, data, nblocks);
}

FSHA1_X86_128_DC_OPS;

const struct fsha1_backend fsha1_backend_avx = { { "avx", FSHA_CPU_AVX, 1, 1, 0, 0 }, blocks, NULL, FSHA1_X86_128_DC_OPS_PTR, NULL };
