/* SPDX-License-Identifier: MIT */
#ifndef FASTSHA_SHA512_H
#define FASTSHA_SHA512_H

/*
 * SHA-384, SHA-512, SHA-512/224 and SHA-512/256 (FIPS 180-4). All four run
 * on the same compression backends (each variant is SHA-512 with its own
 * initial value and its digest cut short); each has its own context type.
 *
 * FIPS 180-4 allows these up to 2^128-1 bits; fastsha takes messages of
 * up to 2^64-1 bytes, more than a size_t API can deliver, and writes the
 * 128-bit length field exactly for all of them.
 */

#include <stddef.h>
#include <stdint.h>

#include "fastsha.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FASTSHA384_DIGEST_SIZE 48
#define FASTSHA512_DIGEST_SIZE 64
#define FASTSHA512_224_DIGEST_SIZE 28
#define FASTSHA512_256_DIGEST_SIZE 32
#define FASTSHA384_BLOCK_SIZE 128
#define FASTSHA512_BLOCK_SIZE 128
#define FASTSHA512_224_BLOCK_SIZE 128
#define FASTSHA512_256_BLOCK_SIZE 128

/* The state all four contexts hold; at file scope, so that C++ sees one
 * type (nested in a struct it would be fastsha512_ctx::fastsha512_state). */
struct fastsha512_state {
	uint64_t h[8];      /* chaining state H0..H7 */
	uint32_t buflen;    /* bytes waiting in buf, 0..127 */
	uint64_t nbytes;    /* message bytes so far */
	uint8_t buf[128];   /* a partial block */
};

/**
 * struct fastsha512_ctx - a SHA-512 computation in progress.
 *
 * The fields are private: use only the functions below. The struct holds no
 * pointers, so it may live on the stack, and copying it by assignment forks
 * the computation.
 */
typedef struct fastsha512_ctx {
	struct fastsha512_state s;
} fastsha512_ctx;

/** struct fastsha384_ctx - SHA-384 in progress; private, pointer-free, copyable. */
typedef struct fastsha384_ctx {
	struct fastsha512_state s;
} fastsha384_ctx;

/** struct fastsha512_224_ctx - SHA-512/224 in progress; private, pointer-free, copyable. */
typedef struct fastsha512_224_ctx {
	struct fastsha512_state s;
} fastsha512_224_ctx;

/** struct fastsha512_256_ctx - SHA-512/256 in progress; private, pointer-free, copyable. */
typedef struct fastsha512_256_ctx {
	struct fastsha512_state s;
} fastsha512_256_ctx;

/**
 * fastsha384_init() - start a new SHA-384 computation.
 * @ctx: the context to (re)initialise; any previous content is discarded.
 *
 * Thread-safe for distinct contexts.
 */
FASTSHA_API void fastsha384_init(fastsha384_ctx *ctx);

/**
 * fastsha384_update() - add bytes to the message.
 * @ctx:  an initialised context; it changes.
 * @data: the bytes; may be NULL when @len is 0. Any alignment.
 * @len:  how many bytes; any size_t, 4 GiB and more included.
 *
 * Messages may be up to 2^64-1 bits long; the total is kept in a
 * 64-bit byte counter. Thread-safe for distinct contexts.
 */
FASTSHA_API void fastsha384_update(fastsha384_ctx *ctx, const void *data, size_t len);

/**
 * fastsha384_final() - the digest of everything added so far.
 * @ctx: the context; it is not changed, so more data may be added and
 *       fastsha384_final() called again (a running digest).
 * @out: 48 bytes of digest, big-endian as printed by the *sum tools.
 *
 * Thread-safe for distinct contexts, and for one context read by several
 * threads at once.
 */
FASTSHA_API void fastsha384_final(const fastsha384_ctx *ctx, uint8_t out[FASTSHA384_DIGEST_SIZE]);

/**
 * fastsha384_final_bits() - the digest of a message whose length in bits is
 * not a multiple of 8.
 * @ctx:   the context holding the whole bytes of the message; not changed.
 * @last:  the trailing bits, in its most significant bits (FIPS 180-4 bit
 *         order); the low 8-@nbits bits are ignored.
 * @nbits: how many bits of @last belong to the message, 0..7 (0 gives the
 *         same digest as fastsha384_final()); larger values are taken mod 8.
 * @out:   48 bytes of digest.
 *
 * Thread-safe as fastsha384_final().
 */
FASTSHA_API void fastsha384_final_bits(const fastsha384_ctx *ctx, uint8_t last, unsigned nbits,
                                       uint8_t out[FASTSHA384_DIGEST_SIZE]);

/**
 * fastsha384() - the SHA-384 digest of one buffer.
 * @data: the message; may be NULL when @len is 0. Any alignment.
 * @len:  its length in bytes.
 * @out:  48 bytes of digest.
 *
 * The same as init, update, final, without the copy through a context
 * buffer. Thread-safe.
 */
FASTSHA_API void fastsha384(const void *data, size_t len, uint8_t out[FASTSHA384_DIGEST_SIZE]);

/**
 * fastsha384_bits() - the SHA-384 digest of a message given as a bit count.
 * @data:  ceil(@nbits / 8) bytes; the last byte's bits are taken from the
 *         most significant end, as in the NIST test vectors. May be NULL
 *         when @nbits is 0.
 * @nbits: the length of the message in bits.
 * @out:   48 bytes of digest.
 *
 * Thread-safe.
 */
FASTSHA_API void fastsha384_bits(const void *data, uint64_t nbits, uint8_t out[FASTSHA384_DIGEST_SIZE]);

/**
 * fastsha384_many() - the digests of @n messages at once (see fastsha_many()).
 * @msgs: the messages.
 * @n:    how many.
 * @out:  @n digests, in input order.
 *
 * Thread-safe.
 */
FASTSHA_API void fastsha384_many(const fastsha_msg *msgs, size_t n, uint8_t (*out)[FASTSHA384_DIGEST_SIZE]);

/**
 * fastsha384_chunks() - the digest of every @chunk-byte piece of a buffer
 * (see fastsha_chunks()).
 * @data:  the buffer; may be NULL when @len is 0.
 * @len:   its length.
 * @chunk: the piece size.
 * @out:   ceil(@len / @chunk) digests.
 *
 * Return: the number of pieces (0 when @len or @chunk is 0, or when the
 * digests would pass SIZE_MAX bytes). Thread-safe.
 */
FASTSHA_API size_t fastsha384_chunks(const void *data, size_t len, size_t chunk, uint8_t (*out)[FASTSHA384_DIGEST_SIZE]);

/**
 * fastsha512_init() - start a new SHA-512 computation.
 * @ctx: the context to (re)initialise; any previous content is discarded.
 *
 * Thread-safe for distinct contexts.
 */
FASTSHA_API void fastsha512_init(fastsha512_ctx *ctx);

/**
 * fastsha512_update() - add bytes to the message.
 * @ctx:  an initialised context; it changes.
 * @data: the bytes; may be NULL when @len is 0. Any alignment.
 * @len:  how many bytes; any size_t, 4 GiB and more included.
 *
 * Messages may be up to 2^64-1 bits long; the total is kept in a
 * 64-bit byte counter. Thread-safe for distinct contexts.
 */
FASTSHA_API void fastsha512_update(fastsha512_ctx *ctx, const void *data, size_t len);

/**
 * fastsha512_final() - the digest of everything added so far.
 * @ctx: the context; it is not changed, so more data may be added and
 *       fastsha512_final() called again (a running digest).
 * @out: 64 bytes of digest, big-endian as printed by the *sum tools.
 *
 * Thread-safe for distinct contexts, and for one context read by several
 * threads at once.
 */
FASTSHA_API void fastsha512_final(const fastsha512_ctx *ctx, uint8_t out[FASTSHA512_DIGEST_SIZE]);

/**
 * fastsha512_final_bits() - the digest of a message whose length in bits is
 * not a multiple of 8.
 * @ctx:   the context holding the whole bytes of the message; not changed.
 * @last:  the trailing bits, in its most significant bits (FIPS 180-4 bit
 *         order); the low 8-@nbits bits are ignored.
 * @nbits: how many bits of @last belong to the message, 0..7 (0 gives the
 *         same digest as fastsha512_final()); larger values are taken mod 8.
 * @out:   64 bytes of digest.
 *
 * Thread-safe as fastsha512_final().
 */
FASTSHA_API void fastsha512_final_bits(const fastsha512_ctx *ctx, uint8_t last, unsigned nbits,
                                       uint8_t out[FASTSHA512_DIGEST_SIZE]);

/**
 * fastsha512() - the SHA-512 digest of one buffer.
 * @data: the message; may be NULL when @len is 0. Any alignment.
 * @len:  its length in bytes.
 * @out:  64 bytes of digest.
 *
 * The same as init, update, final, without the copy through a context
 * buffer. Thread-safe.
 */
FASTSHA_API void fastsha512(const void *data, size_t len, uint8_t out[FASTSHA512_DIGEST_SIZE]);

/**
 * fastsha512_bits() - the SHA-512 digest of a message given as a bit count.
 * @data:  ceil(@nbits / 8) bytes; the last byte's bits are taken from the
 *         most significant end, as in the NIST test vectors. May be NULL
 *         when @nbits is 0.
 * @nbits: the length of the message in bits.
 * @out:   64 bytes of digest.
 *
 * Thread-safe.
 */
FASTSHA_API void fastsha512_bits(const void *data, uint64_t nbits, uint8_t out[FASTSHA512_DIGEST_SIZE]);

/**
 * fastsha512_many() - the digests of @n messages at once (see fastsha_many()).
 * @msgs: the messages.
 * @n:    how many.
 * @out:  @n digests, in input order.
 *
 * Thread-safe.
 */
FASTSHA_API void fastsha512_many(const fastsha_msg *msgs, size_t n, uint8_t (*out)[FASTSHA512_DIGEST_SIZE]);

/**
 * fastsha512_chunks() - the digest of every @chunk-byte piece of a buffer
 * (see fastsha_chunks()).
 * @data:  the buffer; may be NULL when @len is 0.
 * @len:   its length.
 * @chunk: the piece size.
 * @out:   ceil(@len / @chunk) digests.
 *
 * Return: the number of pieces (0 when @len or @chunk is 0, or when the
 * digests would pass SIZE_MAX bytes). Thread-safe.
 */
FASTSHA_API size_t fastsha512_chunks(const void *data, size_t len, size_t chunk, uint8_t (*out)[FASTSHA512_DIGEST_SIZE]);

/**
 * fastsha512_224_init() - start a new SHA-512/224 computation.
 * @ctx: the context to (re)initialise; any previous content is discarded.
 *
 * Thread-safe for distinct contexts.
 */
FASTSHA_API void fastsha512_224_init(fastsha512_224_ctx *ctx);

/**
 * fastsha512_224_update() - add bytes to the message.
 * @ctx:  an initialised context; it changes.
 * @data: the bytes; may be NULL when @len is 0. Any alignment.
 * @len:  how many bytes; any size_t, 4 GiB and more included.
 *
 * Messages may be up to 2^64-1 bits long; the total is kept in a
 * 64-bit byte counter. Thread-safe for distinct contexts.
 */
FASTSHA_API void fastsha512_224_update(fastsha512_224_ctx *ctx, const void *data, size_t len);

/**
 * fastsha512_224_final() - the digest of everything added so far.
 * @ctx: the context; it is not changed, so more data may be added and
 *       fastsha512_224_final() called again (a running digest).
 * @out: 28 bytes of digest, big-endian as printed by the *sum tools.
 *
 * Thread-safe for distinct contexts, and for one context read by several
 * threads at once.
 */
FASTSHA_API void fastsha512_224_final(const fastsha512_224_ctx *ctx, uint8_t out[FASTSHA512_224_DIGEST_SIZE]);

/**
 * fastsha512_224_final_bits() - the digest of a message whose length in bits is
 * not a multiple of 8.
 * @ctx:   the context holding the whole bytes of the message; not changed.
 * @last:  the trailing bits, in its most significant bits (FIPS 180-4 bit
 *         order); the low 8-@nbits bits are ignored.
 * @nbits: how many bits of @last belong to the message, 0..7 (0 gives the
 *         same digest as fastsha512_224_final()); larger values are taken mod 8.
 * @out:   28 bytes of digest.
 *
 * Thread-safe as fastsha512_224_final().
 */
FASTSHA_API void fastsha512_224_final_bits(const fastsha512_224_ctx *ctx, uint8_t last, unsigned nbits,
                                           uint8_t out[FASTSHA512_224_DIGEST_SIZE]);

/**
 * fastsha512_224() - the SHA-512/224 digest of one buffer.
 * @data: the message; may be NULL when @len is 0. Any alignment.
 * @len:  its length in bytes.
 * @out:  28 bytes of digest.
 *
 * The same as init, update, final, without the copy through a context
 * buffer. Thread-safe.
 */
FASTSHA_API void fastsha512_224(const void *data, size_t len, uint8_t out[FASTSHA512_224_DIGEST_SIZE]);

/**
 * fastsha512_224_bits() - the SHA-512/224 digest of a message given as a bit count.
 * @data:  ceil(@nbits / 8) bytes; the last byte's bits are taken from the
 *         most significant end, as in the NIST test vectors. May be NULL
 *         when @nbits is 0.
 * @nbits: the length of the message in bits.
 * @out:   28 bytes of digest.
 *
 * Thread-safe.
 */
FASTSHA_API void fastsha512_224_bits(const void *data, uint64_t nbits, uint8_t out[FASTSHA512_224_DIGEST_SIZE]);

/**
 * fastsha512_224_many() - the digests of @n messages at once (see fastsha_many()).
 * @msgs: the messages.
 * @n:    how many.
 * @out:  @n digests, in input order.
 *
 * Thread-safe.
 */
FASTSHA_API void fastsha512_224_many(const fastsha_msg *msgs, size_t n, uint8_t (*out)[FASTSHA512_224_DIGEST_SIZE]);

/**
 * fastsha512_224_chunks() - the digest of every @chunk-byte piece of a buffer
 * (see fastsha_chunks()).
 * @data:  the buffer; may be NULL when @len is 0.
 * @len:   its length.
 * @chunk: the piece size.
 * @out:   ceil(@len / @chunk) digests.
 *
 * Return: the number of pieces (0 when @len or @chunk is 0, or when the
 * digests would pass SIZE_MAX bytes). Thread-safe.
 */
FASTSHA_API size_t fastsha512_224_chunks(const void *data, size_t len, size_t chunk, uint8_t (*out)[FASTSHA512_224_DIGEST_SIZE]);

/**
 * fastsha512_256_init() - start a new SHA-512/256 computation.
 * @ctx: the context to (re)initialise; any previous content is discarded.
 *
 * Thread-safe for distinct contexts.
 */
FASTSHA_API void fastsha512_256_init(fastsha512_256_ctx *ctx);

/**
 * fastsha512_256_update() - add bytes to the message.
 * @ctx:  an initialised context; it changes.
 * @data: the bytes; may be NULL when @len is 0. Any alignment.
 * @len:  how many bytes; any size_t, 4 GiB and more included.
 *
 * Messages may be up to 2^64-1 bits long; the total is kept in a
 * 64-bit byte counter. Thread-safe for distinct contexts.
 */
FASTSHA_API void fastsha512_256_update(fastsha512_256_ctx *ctx, const void *data, size_t len);

/**
 * fastsha512_256_final() - the digest of everything added so far.
 * @ctx: the context; it is not changed, so more data may be added and
 *       fastsha512_256_final() called again (a running digest).
 * @out: 32 bytes of digest, big-endian as printed by the *sum tools.
 *
 * Thread-safe for distinct contexts, and for one context read by several
 * threads at once.
 */
FASTSHA_API void fastsha512_256_final(const fastsha512_256_ctx *ctx, uint8_t out[FASTSHA512_256_DIGEST_SIZE]);

/**
 * fastsha512_256_final_bits() - the digest of a message whose length in bits is
 * not a multiple of 8.
 * @ctx:   the context holding the whole bytes of the message; not changed.
 * @last:  the trailing bits, in its most significant bits (FIPS 180-4 bit
 *         order); the low 8-@nbits bits are ignored.
 * @nbits: how many bits of @last belong to the message, 0..7 (0 gives the
 *         same digest as fastsha512_256_final()); larger values are taken mod 8.
 * @out:   32 bytes of digest.
 *
 * Thread-safe as fastsha512_256_final().
 */
FASTSHA_API void fastsha512_256_final_bits(const fastsha512_256_ctx *ctx, uint8_t last, unsigned nbits,
                                           uint8_t out[FASTSHA512_256_DIGEST_SIZE]);

/**
 * fastsha512_256() - the SHA-512/256 digest of one buffer.
 * @data: the message; may be NULL when @len is 0. Any alignment.
 * @len:  its length in bytes.
 * @out:  32 bytes of digest.
 *
 * The same as init, update, final, without the copy through a context
 * buffer. Thread-safe.
 */
FASTSHA_API void fastsha512_256(const void *data, size_t len, uint8_t out[FASTSHA512_256_DIGEST_SIZE]);

/**
 * fastsha512_256_bits() - the SHA-512/256 digest of a message given as a bit count.
 * @data:  ceil(@nbits / 8) bytes; the last byte's bits are taken from the
 *         most significant end, as in the NIST test vectors. May be NULL
 *         when @nbits is 0.
 * @nbits: the length of the message in bits.
 * @out:   32 bytes of digest.
 *
 * Thread-safe.
 */
FASTSHA_API void fastsha512_256_bits(const void *data, uint64_t nbits, uint8_t out[FASTSHA512_256_DIGEST_SIZE]);

/**
 * fastsha512_256_many() - the digests of @n messages at once (see fastsha_many()).
 * @msgs: the messages.
 * @n:    how many.
 * @out:  @n digests, in input order.
 *
 * Thread-safe.
 */
FASTSHA_API void fastsha512_256_many(const fastsha_msg *msgs, size_t n, uint8_t (*out)[FASTSHA512_256_DIGEST_SIZE]);

/**
 * fastsha512_256_chunks() - the digest of every @chunk-byte piece of a buffer
 * (see fastsha_chunks()).
 * @data:  the buffer; may be NULL when @len is 0.
 * @len:   its length.
 * @chunk: the piece size.
 * @out:   ceil(@len / @chunk) digests.
 *
 * Return: the number of pieces (0 when @len or @chunk is 0, or when the
 * digests would pass SIZE_MAX bytes). Thread-safe.
 */
FASTSHA_API size_t fastsha512_256_chunks(const void *data, size_t len, size_t chunk, uint8_t (*out)[FASTSHA512_256_DIGEST_SIZE]);

#ifdef __cplusplus
}
#endif

#endif
