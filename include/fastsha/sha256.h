/* SPDX-License-Identifier: MIT */
#ifndef FASTSHA_SHA256_H
#define FASTSHA_SHA256_H

/*
 * SHA-224 and SHA-256 (FIPS 180-4). Both run on the same compression
 * backends (SHA-224 is SHA-256 with another initial value and its digest
 * cut to 28 bytes); each has its own context type, so a SHA-224 context
 * cannot be finished as SHA-256 by mistake.
 */

#include <stddef.h>
#include <stdint.h>

#include "fastsha.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FASTSHA224_DIGEST_SIZE 28
#define FASTSHA256_DIGEST_SIZE 32
#define FASTSHA224_BLOCK_SIZE 64
#define FASTSHA256_BLOCK_SIZE 64

/* The state both contexts hold; at file scope, so that C++ sees one type
 * (nested in a struct it would be fastsha256_ctx::fastsha256_state there). */
struct fastsha256_state {
	uint32_t h[8];      /* chaining state H0..H7 */
	uint32_t buflen;    /* bytes waiting in buf, 0..63 */
	uint64_t nbytes;    /* message bytes so far */
	uint8_t buf[64];    /* a partial block */
};

/**
 * struct fastsha256_ctx - a SHA-256 computation in progress.
 *
 * The fields are private: use only the functions below. The struct holds no
 * pointers, so it may live on the stack, and copying it by assignment forks
 * the computation (hash a common prefix once, then finish several ways).
 */
typedef struct fastsha256_ctx {
	struct fastsha256_state s;
} fastsha256_ctx;

/**
 * struct fastsha224_ctx - a SHA-224 computation in progress.
 *
 * Private, pointer-free and copyable like struct fastsha256_ctx.
 */
typedef struct fastsha224_ctx {
	struct fastsha256_state s;
} fastsha224_ctx;

/**
 * fastsha224_init() - start a new SHA-224 computation.
 * @ctx: the context to (re)initialise; any previous content is discarded.
 *
 * Thread-safe for distinct contexts.
 */
FASTSHA_API void fastsha224_init(fastsha224_ctx *ctx);

/**
 * fastsha224_update() - add bytes to the message.
 * @ctx:  an initialised context; it changes.
 * @data: the bytes; may be NULL when @len is 0. Any alignment.
 * @len:  how many bytes; any size_t, 4 GiB and more included.
 *
 * Messages may be up to 2^64-1 bits long; the total is kept in a
 * 64-bit byte counter. Thread-safe for distinct contexts.
 */
FASTSHA_API void fastsha224_update(fastsha224_ctx *ctx, const void *data, size_t len);

/**
 * fastsha224_final() - the digest of everything added so far.
 * @ctx: the context; it is not changed, so more data may be added and
 *       fastsha224_final() called again (a running digest).
 * @out: 28 bytes of digest, big-endian as printed by the *sum tools.
 *
 * Thread-safe for distinct contexts, and for one context read by several
 * threads at once.
 */
FASTSHA_API void fastsha224_final(const fastsha224_ctx *ctx, uint8_t out[FASTSHA224_DIGEST_SIZE]);

/**
 * fastsha224_final_bits() - the digest of a message whose length in bits is
 * not a multiple of 8.
 * @ctx:   the context holding the whole bytes of the message; not changed.
 * @last:  the trailing bits, in its most significant bits (FIPS 180-4 bit
 *         order); the low 8-@nbits bits are ignored.
 * @nbits: how many bits of @last belong to the message, 0..7 (0 gives the
 *         same digest as fastsha224_final()); larger values are taken mod 8.
 * @out:   28 bytes of digest.
 *
 * Thread-safe as fastsha224_final().
 */
FASTSHA_API void fastsha224_final_bits(const fastsha224_ctx *ctx, uint8_t last, unsigned nbits,
                                       uint8_t out[FASTSHA224_DIGEST_SIZE]);

/**
 * fastsha224() - the SHA-224 digest of one buffer.
 * @data: the message; may be NULL when @len is 0. Any alignment.
 * @len:  its length in bytes.
 * @out:  28 bytes of digest.
 *
 * The same as init, update, final, without the copy through a context
 * buffer. Thread-safe.
 */
FASTSHA_API void fastsha224(const void *data, size_t len, uint8_t out[FASTSHA224_DIGEST_SIZE]);

/**
 * fastsha224_bits() - the SHA-224 digest of a message given as a bit count.
 * @data:  ceil(@nbits / 8) bytes; the last byte's bits are taken from the
 *         most significant end, as in the NIST test vectors. May be NULL
 *         when @nbits is 0.
 * @nbits: the length of the message in bits.
 * @out:   28 bytes of digest.
 *
 * Thread-safe.
 */
FASTSHA_API void fastsha224_bits(const void *data, uint64_t nbits, uint8_t out[FASTSHA224_DIGEST_SIZE]);

/**
 * fastsha224_many() - the digests of @n messages at once (see fastsha_many()).
 * @msgs: the messages.
 * @n:    how many.
 * @out:  @n digests, in input order.
 *
 * Thread-safe.
 */
FASTSHA_API void fastsha224_many(const fastsha_msg *msgs, size_t n, uint8_t (*out)[FASTSHA224_DIGEST_SIZE]);

/**
 * fastsha224_chunks() - the digest of every @chunk-byte piece of a buffer
 * (see fastsha_chunks()).
 * @data:  the buffer; may be NULL when @len is 0.
 * @len:   its length.
 * @chunk: the piece size.
 * @out:   ceil(@len / @chunk) digests.
 *
 * Return: the number of pieces (0 when @len or @chunk is 0, or when the
 * digests would pass SIZE_MAX bytes). Thread-safe.
 */
FASTSHA_API size_t fastsha224_chunks(const void *data, size_t len, size_t chunk, uint8_t (*out)[FASTSHA224_DIGEST_SIZE]);

/**
 * fastsha256_init() - start a new SHA-256 computation.
 * @ctx: the context to (re)initialise; any previous content is discarded.
 *
 * Thread-safe for distinct contexts.
 */
FASTSHA_API void fastsha256_init(fastsha256_ctx *ctx);

/**
 * fastsha256_update() - add bytes to the message.
 * @ctx:  an initialised context; it changes.
 * @data: the bytes; may be NULL when @len is 0. Any alignment.
 * @len:  how many bytes; any size_t, 4 GiB and more included.
 *
 * Messages may be up to 2^64-1 bits long; the total is kept in a
 * 64-bit byte counter. Thread-safe for distinct contexts.
 */
FASTSHA_API void fastsha256_update(fastsha256_ctx *ctx, const void *data, size_t len);

/**
 * fastsha256_final() - the digest of everything added so far.
 * @ctx: the context; it is not changed, so more data may be added and
 *       fastsha256_final() called again (a running digest).
 * @out: 32 bytes of digest, big-endian as printed by the *sum tools.
 *
 * Thread-safe for distinct contexts, and for one context read by several
 * threads at once.
 */
FASTSHA_API void fastsha256_final(const fastsha256_ctx *ctx, uint8_t out[FASTSHA256_DIGEST_SIZE]);

/**
 * fastsha256_final_bits() - the digest of a message whose length in bits is
 * not a multiple of 8.
 * @ctx:   the context holding the whole bytes of the message; not changed.
 * @last:  the trailing bits, in its most significant bits (FIPS 180-4 bit
 *         order); the low 8-@nbits bits are ignored.
 * @nbits: how many bits of @last belong to the message, 0..7 (0 gives the
 *         same digest as fastsha256_final()); larger values are taken mod 8.
 * @out:   32 bytes of digest.
 *
 * Thread-safe as fastsha256_final().
 */
FASTSHA_API void fastsha256_final_bits(const fastsha256_ctx *ctx, uint8_t last, unsigned nbits,
                                       uint8_t out[FASTSHA256_DIGEST_SIZE]);

/**
 * fastsha256() - the SHA-256 digest of one buffer.
 * @data: the message; may be NULL when @len is 0. Any alignment.
 * @len:  its length in bytes.
 * @out:  32 bytes of digest.
 *
 * The same as init, update, final, without the copy through a context
 * buffer. Thread-safe.
 */
FASTSHA_API void fastsha256(const void *data, size_t len, uint8_t out[FASTSHA256_DIGEST_SIZE]);

/**
 * fastsha256_bits() - the SHA-256 digest of a message given as a bit count.
 * @data:  ceil(@nbits / 8) bytes; the last byte's bits are taken from the
 *         most significant end, as in the NIST test vectors. May be NULL
 *         when @nbits is 0.
 * @nbits: the length of the message in bits.
 * @out:   32 bytes of digest.
 *
 * Thread-safe.
 */
FASTSHA_API void fastsha256_bits(const void *data, uint64_t nbits, uint8_t out[FASTSHA256_DIGEST_SIZE]);

/**
 * fastsha256_many() - the digests of @n messages at once (see fastsha_many()).
 * @msgs: the messages.
 * @n:    how many.
 * @out:  @n digests, in input order.
 *
 * Thread-safe.
 */
FASTSHA_API void fastsha256_many(const fastsha_msg *msgs, size_t n, uint8_t (*out)[FASTSHA256_DIGEST_SIZE]);

/**
 * fastsha256_chunks() - the digest of every @chunk-byte piece of a buffer
 * (see fastsha_chunks()).
 * @data:  the buffer; may be NULL when @len is 0.
 * @len:   its length.
 * @chunk: the piece size.
 * @out:   ceil(@len / @chunk) digests.
 *
 * Return: the number of pieces (0 when @len or @chunk is 0, or when the
 * digests would pass SIZE_MAX bytes). Thread-safe.
 */
FASTSHA_API size_t fastsha256_chunks(const void *data, size_t len, size_t chunk, uint8_t (*out)[FASTSHA256_DIGEST_SIZE]);

#ifdef __cplusplus
}
#endif

#endif
