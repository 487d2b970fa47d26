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

#ifdef FSHA_HAVE_SHA1_PART_DC_SSE2
/* SHA1DC on this row (fsha1dc_rec_fn): the loop above keeping each block's
 * record and narrowed bytes, so the filter runs on those bytes and a
 * flagged block is checked from its record instead of being compressed
 * again (sha1dc.c's record path). */
static void blocks_rec(uint32_t state[5], const uint8_t *data, size_t nblocks,
		       struct fsha1dc_rec *rec, uint64_t *nar)
{
	fsha1_x86_run128(state, data, nblocks, rec, nar);
}

static const struct fsha1dc_ops dc_ops = { fsha1dc_filter_x86,  blocks_rec, fsha1dc_filter_rec_x86,
					   NULL, NULL, fsha1dc_recheck_x86, NULL };
#define DC_OPS (&dc_ops)
#else
#define DC_OPS NULL
#endif

const struct fsha1_backend fsha1_backend_ssse3 = { { "ssse3", FSHA_CPU_SSSE3, 1, 1, 0 }, blocks, NULL, DC_OPS };
