/* SPDX-License-Identifier: MIT */
/*
 * ssse3: SHA-256 with the message schedule on 128-bit SSSE3 vectors and the
 * rounds in scalar code.
 * CPU features: SSSE3 (pshufb for the byte swap and for placing the sigma1
 * results, palignr for the unaligned word windows W[t-15..], W[t-7..]).
 * Contract: src/sha256/sha256_impl.h (whole blocks, nblocks >= 1, any
 * alignment, reads only [data, data + 64*nblocks)).
 *
 * Technique: sha256_x86_sched.h, after Gulley et al., "Fast SHA-256
 * Implementations on Intel Architecture Processors" (Intel, 2012): the
 * schedule four words per vector, sigma1 two words at a time on 64-bit
 * lanes, W+K stored sixteen rounds ahead of the scalar rounds, the next
 * block's first sixteen words during this block's last sixteen rounds.
 *
 * Measured on the project's machine (AMD EPYC, Zen 3, family 25 model 1,
 * 2 vCPUs under KVM, about 3.0 GHz; GCC 12.2 -O2): 16 KiB messages hashed
 * alternately with OpenSSL 3.0.19's SHA256_Init/Update/Final on the same
 * buffer, 41 rounds of 100 messages each, thread CPU time, 5 runs;
 * "ratio" is the median of the per-round ratios.
 * ssse3: 402 MB/s against 406 for OpenSSL's SSSE3 path, ratio 1.00
 * (0.99-1.01 over the runs).
 */
#include "sha256_x86_sched.h"

static void blocks(uint32_t state[8], const uint8_t *data, size_t nblocks)
{
	fsha256_x86_blocks128(state, data, nblocks);
}

const struct fsha256_backend fsha256_backend_ssse3 = { { "ssse3", FSHA_CPU_SSSE3, 1, 1, 0, 0 }, blocks, NULL, NULL };
