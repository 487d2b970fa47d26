/* SPDX-License-Identifier: MIT */
/*
 * avx: the ssse3 backend's algorithm compiled to VEX three-operand forms,
 * with BMI1/BMI2 in the scalar rounds.
 * CPU features: AVX (the FSHA_CPU_AVX bit includes the OS saving ymm state),
 * BMI1 (andn in Ch) and BMI2 (rorx: rotates into a fresh register, so no
 * copies before rol 5 and rol 30). Its row requires all three. CPUs with AVX
 * but without BMI2 (Sandy Bridge, Ivy Bridge, AMD Bulldozer/Piledriver) run
 * the ssse3 backend, which is this same source in two-operand forms.
 * Contract: src/sha1/sha1_impl.h (whole blocks, nblocks >= 1, any alignment,
 * reads only [data, data + 64*nblocks)).
 *
 * Technique: sha1_x86_sched.h, the same source as sha1_ssse3.c: the schedule
 * four words per vector (gaudet's fix-up for W16..31, seed 001; Locktyukhin's
 * rol-2 recurrence for W32..79 and the AVX forms, seed 000), W+K stored
 * sixteen rounds ahead. On an AMD Zen 3, BMI made this backend about 6%
 * faster than plain AVX: the rounds are limited by integer issue, and rorx
 * and andn remove register copies from them.
 */
#include "sha1_x86_sched.h"

void fsha1_blocks_avx(uint32_t state[5], const uint8_t *data, size_t nblocks)
{
	fsha1_x86_blocks128(state, data, nblocks);
}
