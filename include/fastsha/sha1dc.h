/* SPDX-License-Identifier: MIT */
#ifndef FASTSHA_SHA1DC_H
#define FASTSHA_SHA1DC_H

/*
 * SHA-1 with collision detection (SHA1DC; Stevens, "Counter-cryptanalysis",
 * CRYPTO 2013; Stevens and Shumow, USENIX Security 2017): the SHA-1 that git
 * hashes objects with. Each 64-byte block is checked for the traces of the
 * known collision attacks (SHAttered, SHA-mbles): a filter on the expanded
 * message says which of 32 disturbance vectors could have built the block,
 * and for each such vector the block's partner is computed from the state
 * at step 58 or 65 and compared. A message that is one half of such a
 * collision is "detected"; the chance that an ordinary message is flagged
 * is below 2^-90.
 *
 * An undetected message gets the plain SHA-1 digest, bit for bit. With the
 * safe hash on (the default, as in the reference library), a flagged block
 * is compressed three times instead of once, so the two halves of a
 * collision get different digests; git turns the safe hash off and refuses
 * the content instead. SHA-1 stays broken for collision resistance: this
 * detects the known attacks, it does not make SHA-1 strong.
 *
 * The algorithm is also FASTSHA_SHA1DC in fastsha.h's descriptor; it runs
 * on the SHA-1 backends (fastsha_backend(FASTSHA_SHA1DC) names the one in
 * use).
 */

#include <stddef.h>
#include <stdint.h>

#include "fastsha.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FASTSHA1DC_DIGEST_SIZE 20
#define FASTSHA1DC_BLOCK_SIZE 64

/* Options, or-ed together (fastsha1dc_init_opts(), fastsha1dc_opts()). */
/* A flagged block is compressed three times (default: on). */
#define FASTSHA1DC_SAFE_HASH 1u
/* Also detect collisions of reduced-round SHA-1 (the partner's input state
 * equal to the block's): off by default, as in the reference library. */
#define FASTSHA1DC_REDUCED_ROUND 2u
/* What fastsha1dc_init() and fastsha1dc() use. */
#define FASTSHA1DC_DEFAULT FASTSHA1DC_SAFE_HASH

/**
 * struct fastsha1dc_ctx - a collision-detecting SHA-1 computation.
 *
 * The fields are private. Like fastsha1_ctx it holds no pointers: it may live
 * on the stack, and copying it by assignment forks the computation.
 */
typedef struct fastsha1dc_ctx {
	struct fastsha1dc_state_ {
		uint32_t h[5];      /* chaining state */
		uint32_t options;   /* FASTSHA1DC_* */
		uint64_t blocks;    /* 64-byte blocks compressed */
		uint64_t hit_block; /* the first flagged block, when hits > 0 */
		uint32_t hit_dv;    /* its disturbance vector (0..31) */
		uint32_t hits;      /* blocks flagged so far */
	} s;
	uint32_t buflen;    /* bytes waiting in buf, 0..63 */
	uint32_t reserved;
	uint64_t nbytes;    /* message bytes so far */
	uint8_t buf[64];    /* a partial block */
} fastsha1dc_ctx;

/**
 * struct fastsha1dc_result - what the detection found, for diagnostics.
 * @detected: 1 when a collision attack was detected, else 0 (and the other
 *            fields are 0).
 * @flagged:  how many blocks were flagged (usually 1 per colliding pair).
 * @block:    the first flagged block: bytes 64*@block .. 64*@block+63 of the
 *            message (counting the padding blocks after the message's end).
 * @dv_type:  its disturbance vector, type I or II (1 or 2) ...
 * @dv_k:     ... its K ...
 * @dv_b:     ... and b, as the papers write it: II(52,0) for SHAttered.
 * @dv_index: its index in the reference's order, 0..31.
 */
typedef struct fastsha1dc_result {
	int detected;
	uint32_t flagged;
	uint64_t block;
	unsigned dv_type, dv_k, dv_b, dv_index;
} fastsha1dc_result;

/**
 * fastsha1dc_init() - start a computation with the default options
 * (FASTSHA1DC_DEFAULT: safe hash on, reduced-round detection off).
 * @ctx: the context to (re)initialise.
 *
 * Thread-safe for distinct contexts.
 */
FASTSHA_API void fastsha1dc_init(fastsha1dc_ctx *ctx);

/**
 * fastsha1dc_init_opts() - start a computation with @options.
 * @ctx:     the context to (re)initialise.
 * @options: FASTSHA1DC_SAFE_HASH and FASTSHA1DC_REDUCED_ROUND, or-ed; other
 *           bits are ignored.
 *
 * Thread-safe for distinct contexts.
 */
FASTSHA_API void fastsha1dc_init_opts(fastsha1dc_ctx *ctx, unsigned options);

/**
 * fastsha1dc_update() - add @len bytes at @data to the message.
 * @ctx:  an initialised context; it changes.
 * @data: the bytes; may be NULL when @len is 0. Any alignment.
 * @len:  how many bytes; any size_t.
 *
 * Thread-safe for distinct contexts.
 */
FASTSHA_API void fastsha1dc_update(fastsha1dc_ctx *ctx, const void *data, size_t len);

/**
 * fastsha1dc_final() - the digest of everything added so far.
 * @ctx: the context; not changed, so it may go on.
 * @out: 20 bytes: plain SHA-1 when nothing was detected; with the safe
 *       hash on, a detected message's digest differs from its SHA-1.
 *
 * The padding blocks are checked too. Thread-safe for distinct contexts and
 * for concurrent readers of one.
 *
 * Return: 1 when a collision attack was detected, else 0.
 */
FASTSHA_API int fastsha1dc_final(const fastsha1dc_ctx *ctx, uint8_t out[FASTSHA1DC_DIGEST_SIZE]);

/**
 * fastsha1dc_final_result() - fastsha1dc_final() with the details.
 * @ctx: the context; not changed.
 * @out: 20 bytes of digest.
 * @res: where the details go (see struct fastsha1dc_result); may be NULL.
 *
 * Return: 1 when a collision attack was detected, else 0. Thread-safe as
 * fastsha1dc_final().
 */
FASTSHA_API int fastsha1dc_final_result(const fastsha1dc_ctx *ctx,
					uint8_t out[FASTSHA1DC_DIGEST_SIZE],
					fastsha1dc_result *res);

/**
 * fastsha1dc_final_bits() - the digest of a message ending in a partial byte.
 * @ctx:   the context holding the whole bytes; not changed.
 * @last:  the trailing bits, in its most significant bits.
 * @nbits: how many bits of @last belong to the message, 0..7 (mod 8).
 * @out:   20 bytes of digest.
 *
 * Return: 1 when a collision attack was detected, else 0. Thread-safe as
 * fastsha1dc_final().
 */
FASTSHA_API int fastsha1dc_final_bits(const fastsha1dc_ctx *ctx, uint8_t last, unsigned nbits,
				      uint8_t out[FASTSHA1DC_DIGEST_SIZE]);

/**
 * fastsha1dc() - the collision-detecting SHA-1 of one buffer, default options.
 * @data: the message; may be NULL when @len is 0. Any alignment.
 * @len:  its length in bytes.
 * @out:  20 bytes of digest.
 *
 * Return: 1 when a collision attack was detected, else 0. Thread-safe.
 */
FASTSHA_API int fastsha1dc(const void *data, size_t len, uint8_t out[FASTSHA1DC_DIGEST_SIZE]);

/**
 * fastsha1dc_opts() - fastsha1dc() with @options and the details.
 * @data:    the message; may be NULL when @len is 0.
 * @len:     its length in bytes.
 * @options: as fastsha1dc_init_opts().
 * @out:     20 bytes of digest.
 * @res:     the details, or NULL.
 *
 * Return: 1 when a collision attack was detected, else 0. Thread-safe.
 */
FASTSHA_API int fastsha1dc_opts(const void *data, size_t len, unsigned options,
				uint8_t out[FASTSHA1DC_DIGEST_SIZE], fastsha1dc_result *res);

/**
 * fastsha1dc_many() - the digests of @n messages, default options.
 * @msgs:     the messages (see fastsha_many()).
 * @n:        how many; 0 does nothing.
 * @out:      @n digests, in input order.
 * @detected: @n bytes, 1 where that message was detected, else 0; may be
 *            NULL.
 *
 * Each result equals fastsha1dc() of that message. Thread-safe. No
 * allocation: the batch keeps its records on the stack, about 100 KB (with
 * GCC 12 on x86-64), so a thread that calls it (or fastsha_many() of
 * FASTSHA_SHA1DC) needs that much stack; one-message calls need about 50 KB.
 *
 * Return: how many messages were detected.
 */
FASTSHA_API size_t fastsha1dc_many(const fastsha_msg *msgs, size_t n,
				   uint8_t (*out)[FASTSHA1DC_DIGEST_SIZE], uint8_t *detected);

#ifdef __cplusplus
}
#endif

#endif
