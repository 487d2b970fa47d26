/* SPDX-License-Identifier: MIT */
/*
 * ssse3: SHA-1 with the message schedule on 128-bit SSSE3 vectors and the
 * rounds in scalar code.
 * CPU features: SSSE3 (pshufb for the byte swap, palignr in the schedule).
 * Contract: src/sha1/sha1_impl.h (whole blocks, nblocks >= 1, any alignment,
 * reads only [data, data + 64*nblocks)).
 *
 * Technique: sha1_x86_sched.h. W16..31 four at a time with dean gaudet's
 * fix-up of the fourth word (seed 001); W32..79 by Locktyukhin's
 * W[t] = rol2(W[t-6] ^ W[t-16] ^ W[t-28] ^ W[t-32]) (seed 000); W+K stored
 * ahead of the rounds, sixteen rounds ahead, the next block's first sixteen
 * during this block's last sixteen rounds.
 */
#include "sha1_x86_sched.h"

static void blocks(uint32_t state[5], const uint8_t *data, size_t nblocks)
{
	fsha1_x86_blocks128(state, data, nblocks);
}

FSHA1_X86_128_DC_OPS;

const struct fsha1_backend fsha1_backend_ssse3 = { { "ssse3", FSHA_CPU_SSSE3, 1, 1, 0, 0 }, blocks, NULL, FSHA1_X86_128_DC_OPS_PTR, NULL };
