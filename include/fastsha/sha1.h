/* SPDX-License-Identifier: MIT */
#ifndef FASTSHA_SHA1_H
#define FASTSHA_SHA1_H

/*
 * SHA-1 (FIPS 180-4).
 *
 * SHA-1 is broken for collision resistance: practical collisions have been
 * published (SHAttered, 2017; chosen-prefix, 2020). Use it to check data
 * against accidental damage or to interoperate with formats that name it
 * (git, BitTorrent, existing manifests), not for signatures or anything an
 * attacker may shape. Prefer SHA-256 for new designs.
 */

#include <stddef.h>
#include <stdint.h>

#include "fastsha.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FASTSHA1_DIGEST_SIZE 20
#define FASTSHA1_BLOCK_SIZE 64

/**
 * struct fastsha1_ctx - a SHA-1 computation in progress.
 *
 * The fields are private: use only the functions below. The struct holds no
 * pointers, so it may live on the stack, and copying it by assignment forks
 * the computation (hash a common prefix once, then finish several ways).
 */
typedef struct fastsha1_ctx {
	uint32_t h[5];      /* chaining state H0..H4 */
	uint32_t buflen;    /* bytes waiting in buf, 0..63 */
	uint64_t nbytes;    /* message bytes so far, never wraps below 2^64 */
	uint8_t buf[64];    /* a partial block */
} fastsha1_ctx;

/**
 * fastsha1_init() - start a new SHA-1 computation.
 * @ctx: the context to (re)initialise; any previous content is discarded.
 *
 * Thread-safe for distinct contexts.
 */
FASTSHA_API void fastsha1_init(fastsha1_ctx *ctx);

/**
 * fastsha1_update() - add bytes to the message.
 * @ctx:  an initialised context; it changes.
 * @data: the bytes; may be NULL when @len is 0. Any alignment.
 * @len:  how many bytes; any size_t, 4 GiB and more included.
 *
 * Messages may be up to 2^64-1 bits long (FIPS 180-4); the total is kept in a
 * 64-bit byte counter, so it does not wrap at 2^29 or 2^32 bytes. Thread-safe
 * for distinct contexts.
 */
FASTSHA_API void fastsha1_update(fastsha1_ctx *ctx, const void *data, size_t len);

/**
 * fastsha1_final() - the digest of everything added so far.
 * @ctx: the context; it is not changed, so more data may be added and
 *       fastsha1_final() called again (a running digest).
 * @out: 20 bytes of digest, big-endian as printed by sha1sum.
 *
 * Thread-safe for distinct contexts, and for one context read by several
 * threads at once.
 */
FASTSHA_API void fastsha1_final(const fastsha1_ctx *ctx, uint8_t out[FASTSHA1_DIGEST_SIZE]);

/**
 * fastsha1_final_bits() - the digest of a message whose length in bits is
 * not a multiple of 8.
 * @ctx:   the context holding the whole bytes of the message; not changed.
 * @last:  the trailing bits, in its most significant bits (FIPS 180-4 bit
 *         order: the message's next bit is bit 7 of @last); the low
 *         8-@nbits bits are ignored.
 * @nbits: how many bits of @last belong to the message, 0..7 (0 gives the
 *         same digest as fastsha1_final()); larger values are taken mod 8.
 * @out:   20 bytes of digest.
 *
 * Thread-safe as fastsha1_final().
 */
FASTSHA_API void fastsha1_final_bits(const fastsha1_ctx *ctx, uint8_t last, unsigned nbits,
				     uint8_t out[FASTSHA1_DIGEST_SIZE]);

/**
 * fastsha1() - the SHA-1 digest of one buffer.
 * @data: the message; may be NULL when @len is 0. Any alignment.
 * @len:  its length in bytes.
 * @out:  20 bytes of digest.
 *
 * The same as init, update, final, without the copy through a context buffer.
 * Thread-safe.
 */
FASTSHA_API void fastsha1(const void *data, size_t len, uint8_t out[FASTSHA1_DIGEST_SIZE]);

/**
 * fastsha1_bits() - the SHA-1 digest of a message given as a bit count.
 * @data:  ceil(@nbits / 8) bytes; the last byte's bits are taken from the
 *         most significant end, as in the NIST test vectors. May be NULL
 *         when @nbits is 0.
 * @nbits: the length of the message in bits.
 * @out:   20 bytes of digest.
 *
 * Thread-safe.
 */
FASTSHA_API void fastsha1_bits(const void *data, uint64_t nbits, uint8_t out[FASTSHA1_DIGEST_SIZE]);

/**
 * fastsha1_many() - the digests of @n messages at once (see fastsha_many()).
 * @msgs: the messages.
 * @n:    how many.
 * @out:  @n digests, in input order.
 *
 * Thread-safe.
 */
FASTSHA_API void fastsha1_many(const fastsha_msg *msgs, size_t n, uint8_t (*out)[FASTSHA1_DIGEST_SIZE]);

/**
 * fastsha1_chunks() - the digest of every @chunk-byte piece of a buffer
 * (see fastsha_chunks()).
 * @data:  the buffer; may be NULL when @len is 0.
 * @len:   its length.
 * @chunk: the piece size.
 * @out:   ceil(@len / @chunk) digests.
 *
 * Return: the number of pieces (0 when @len or @chunk is 0, or when the
 * digests would pass SIZE_MAX bytes). Thread-safe.
 */
FASTSHA_API size_t fastsha1_chunks(const void *data, size_t len, size_t chunk, uint8_t (*out)[FASTSHA1_DIGEST_SIZE]);

#ifdef __cplusplus
}
#endif

#endif
