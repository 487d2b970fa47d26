/* SPDX-License-Identifier: MIT */
/*
 * avx: the ssse3 backend's algorithm compiled to VEX three-operand forms.
 * CPU features: AVX (the FSHA_CPU_AVX bit includes the OS saving ymm state).
 * Contract: src/sha256/sha256_impl.h (whole blocks, nblocks >= 1, any
 * alignment, reads only [data, data + 64*nblocks)).
 *
 * Technique: sha256_x86_sched.h, the same source as sha256_ssse3.c (Gulley
 * et al., Intel 2012): the schedule four words per vector, W+K stored
 * sixteen rounds ahead of the scalar rounds. VEX forms need no register
 * copies before the destructive SSE operations, which shortens the
 * instruction stream the rounds share the front end with.
 *
 * No BMI here, on purpose: every CPU with AVX and BMI2 also has AVX2 and
 * runs the avx2 backend; the CPUs that pick this one (Sandy Bridge, Ivy
 * Bridge, AMD Bulldozer/Piledriver) have AVX without BMI2.
 *
 * Measured on the project's machine (AMD EPYC, Zen 3, family 25 model 1,
 * 2 vCPUs under KVM, about 3.0 GHz; GCC 12.2 -O2): 16 KiB messages hashed
 * alternately with OpenSSL 3.0.19's SHA256_Init/Update/Final on the same
 * buffer, 41 rounds of 100 messages each, thread CPU time, 5 runs;
 * "ratio" is the median of the per-round ratios.
 * avx: 405 MB/s against 206 for OpenSSL's AVX path, ratio 1.97. That path
 * rotates with shrd, which is slow on AMD; OpenSSL itself takes it only on
 * Intel CPUs (here forced with OPENSSL_ia32cap). Against OpenSSL's SSSE3
 * path, which it picks on an AMD CPU without AVX2, 1.02.
 */
#include "sha256_x86_sched.h"

static void blocks(uint32_t state[8], const uint8_t *data, size_t nblocks)
{
	fsha256_x86_blocks128(state, data, nblocks);
}

const struct fsha256_backend fsha256_backend_avx = { { "avx", FSHA_CPU_AVX, 1, 1, 0, 0 }, blocks, NULL, NULL };
