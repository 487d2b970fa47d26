/* SPDX-License-Identifier: MIT */
#ifndef FSHA1DC_IMPL_H
#define FSHA1DC_IMPL_H

/*
 * SHA1DC inside the SHA-1 family: the state the engine carries, the filter
 * contract the backends implement, and the shared scalar parts (sha1dc.c)
 * that check a block the filter let through.
 *
 * How a block is hashed (sha1dc.c, compress(), the engine's thunk):
 * 1. Filter: which of the 32 disturbance vectors (DVs) could have built the
 *    block: a 32-bit mask (bit d: DV d of dvs.tsv), 0 for about 95% of
 *    random blocks. It depends on the block's message words only, not on the
 *    chaining state, so a backend filters many blocks at once, one block per
 *    SIMD lane (fsha1dc_filter_fn, or fsha1dc_filter_rec_fn on records).
 * 2. Compress. Rows that keep records (struct fsha1dc_rec; the SHA-NI
 *    rows) compress a chunk of blocks straight through, keeping each
 *    block's schedule words and the states around steps 58 and 65, and the
 *    filter runs on those records afterwards. Other rows filter first and
 *    send runs of blocks whose mask is 0 to their ordinary blocks(): their
 *    SHA1DC is SHA-1.
 * 3. Check: for a block with a mask, the states before steps 58 and 65 are
 *    taken from its record or got by compressing it again in scalar code
 *    (fsha1dc_block()), and each surviving DV's partner block is recomputed
 *    from there; the first DV whose partner collides flags the block, and
 *    with the safe hash on the block is compressed twice more (on the
 *    record path the chunk is then taken up again after that block).
 * Rows without SHA1DC parts (dc NULL) hash every block the scalar way.
 */

#include <stddef.h>
#include <stdint.h>

#include "fastsha/sha1dc.h"
#include "sha1_impl.h"

/* The compression state the engine copies and passes to the thunk: the
 * chaining value, options and detection record (fastsha1dc_ctx.s). */
typedef struct fastsha1dc_state_ fsha1dc_state;

/*
 * A backend's filter (fsha1dc_filter_fn, sha1_impl.h): for @n >= 1 whole
 * 64-byte blocks, block i at blocks[i] (any alignment, nothing read outside
 * them; the blocks of one message or of many), masks[i] = block i's mask of
 * surviving DVs. The result must equal fsha1dc_filter_portable()'s for
 * every block; a backend's file states how it computes it. Taking pointers
 * lets a batch fill one SIMD run with the short tails of many messages.
 */

/* One disturbance vector: its type (1, 2), K, b and the step whose state
 * the partner is recomputed from (58 or 65). */
struct fsha1dc_dv {
	uint8_t type, k, b, testt;
};
extern const struct fsha1dc_dv fsha1dc_dvs[32];

/* DV @d's message difference dm[0..79], derived from its definition
 * (sha1dc.c); the partner of a block with expanded message W is W ^ dm. */
void fsha1dc_dm(unsigned d, uint32_t dm[80]);

/* The filter in plain C, one block: W[0..79] is its expanded message. */
uint32_t fsha1dc_ubc_portable(const uint32_t W[80]);

/* The portable filter on @n consecutive blocks at @data. */
void fsha1dc_filter_portable(const uint8_t *data, size_t n, uint32_t *masks);
/* The same as a fsha1dc_filter_fn (blocks anywhere). */
void fsha1dc_filter_portable_ptrs(const uint8_t *const *blocks, size_t n, uint32_t *masks);

/*
 * Hash one block at @block into @st the scalar way, filtering with @mask
 * (the filter's result for it: the block is checked against those DVs
 * only), checking, flagging and applying the safe hash. st->blocks counts
 * it.
 */
void fsha1dc_block(fsha1dc_state *st, const uint8_t *block, uint32_t mask);

/* Tests: the masks the pipelined path (a row's dc->pipe, sha1dc.c
 * blocks_pipe()) gives the @nblocks (at least 3 * FSHA1DC_PIPE_B) blocks at
 * @data: its whole chunks' masks into masks[0..), as it hashes them. */
void fsha1dc_pipe_masks(const struct fsha1dc_ops *ops, const uint8_t *data, size_t nblocks,
			uint32_t *masks);

/* The SIMD builds' filters (x86/sha1dc_*.c, arm/sha1dc_neon.c) are declared
 * in sha1_impl.h, for the rows that name them. */

#endif
