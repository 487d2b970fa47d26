/* SPDX-License-Identifier: MIT */
#ifndef FASTSHA_MAC_H
#define FASTSHA_MAC_H

/*
 * Keyed hashing and key derivation on the SHA-1 and SHA-2 engine: HMAC
 * (RFC 2104, FIPS 198-1), HKDF (RFC 5869) and PBKDF2 (RFC 8018, with HMAC
 * as its pseudorandom function), one at a time or many at once.
 *
 * Algorithms: every SHA-1 and SHA-2 algorithm of the descriptor
 * (fastsha.h): FASTSHA_SHA1, SHA224, SHA256, SHA384, SHA512, SHA512_224,
 * SHA512_256. FASTSHA_SHA1DC is refused (-1): collision detection guards a
 * digest that stands for content, which an HMAC tag does not; HMAC-SHA1
 * with a secret key is not weakened by SHA-1's known collisions.
 *
 * Common rules:
 * - 0 on success, -1 on bad input with nothing written: an algorithm out
 *   of range or FASTSHA_SHA1DC, 0 iterations, an output length of 0 or
 *   past what the function can give (PBKDF2: (2^32 - 1) digest lengths;
 *   HKDF: 255 digest lengths), a PRK shorter than the digest, a batch
 *   whose output (@n results) would pass SIZE_MAX bytes. The two inits
 *   are the exception: refused, they leave their key or context refused
 *   rather than as it was (see each).
 * - A pointer may be NULL wherever its length is 0; a NULL pointer with a
 *   length, or a NULL key, context or output, is the caller's error and
 *   is not checked.
 * - Secrets are wiped: keys, the padded key blocks, the keyed chaining
 *   values and every intermediate value are cleared from each context and
 *   stack buffer this library owns when it is done with them, by stores
 *   the compiler may not drop. The compiler and the compression kernels
 *   also keep keyed words in spill slots and saved registers no code can
 *   name, below the caller's frame. fastsha_pbkdf2() and
 *   fastsha_pbkdf2_many() clear 32 KiB of that stack before they return.
 *   The HMAC and HKDF calls do so only in a library built with the CMake
 *   option FASTSHA_WIPE_STACK (off by default: about 0.1 us a call, which
 *   a 64-byte HMAC of 0.23 us would feel), and then clear: fastsha_hmac(),
 *   fastsha_hmac_key_init() and fastsha_hkdf_extract() 6 KiB, fastsha_hkdf() and
 *   fastsha_hkdf_expand() 8 KiB, fastsha_hmac_final() and
 *   fastsha_hmac_many() of one message 4 KiB, of more 16 KiB (the
 *   deepest use measured on x86-64, GCC 12, is 4.8, 5.9, 3.1 and 14 KiB;
 *   PBKDF2's 19 KiB).
 *   fastsha_hmac_update() clears none: it leaves the inner hash's running
 *   state, which the context holds anyway. Not cleared: the CPU's
 *   registers (the vector registers may hold keyed words after any of
 *   these calls, as after OpenSSL's, BearSSL's and libsodium's), stack
 *   deeper than those figures (a compiler or kernel that used more), and
 *   the caller's own copies, contexts and prepared keys (see
 *   fastsha_wipe(), fastsha_hmac_key_wipe()).
 * - The work and the memory touched depend on the lengths only, never on
 *   the bytes of a key, password or message.
 * - No allocation. Thread-safe: distinct contexts may be used at once, and
 *   one prepared key (fastsha_hmac_key) may be read by many threads.
 * - Lengths are size_t: keys, messages and salts of any size.
 */

#include <stddef.h>
#include <stdint.h>

#include "fastsha.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * struct fastsha_hmac_key - a prepared HMAC key.
 *
 * The inner and outer chaining values (the compression of the key XOR
 * ipad and XOR opad from the algorithm's IV): every HMAC under this key
 * starts from them, so the key's two blocks are hashed once, not per
 * message. The fields are private. No pointers: it may live on the
 * stack, and copying it by assignment copies the key. It holds key
 * material: wipe it with fastsha_hmac_key_wipe() when done.
 */
typedef struct fastsha_hmac_key {
	uint32_t alg;      /* the fastsha_alg; an invalid value once wiped */
	uint32_t reserved;
	union {
		uint64_t align;
		uint8_t bytes[128]; /* inner chaining words, then outer */
	} u;
} fastsha_hmac_key;

/**
 * struct fastsha_hmac_ctx - an HMAC computation in progress.
 *
 * The inner hash's streaming state (started from a key's inner chaining
 * value) and the key's outer chaining value. Private, pointer-free:
 * copying it by assignment forks the computation (Python's HMAC.copy()).
 * fastsha_hmac_final() wipes it.
 */
typedef struct fastsha_hmac_ctx {
	uint32_t alg;      /* the fastsha_alg; an invalid value once wiped */
	uint32_t reserved;
	union {
		uint64_t align;
		uint8_t bytes[208]; /* the inner hash's streaming state */
	} inner;
	union {
		uint64_t align;
		uint8_t bytes[64]; /* the outer chaining words */
	} outer;
} fastsha_hmac_ctx;

/**
 * fastsha_hmac() - the HMAC of one message under one key.
 * @alg:    the hash algorithm.
 * @key:    the key, any length (longer than a block: hashed first, as
 *          RFC 2104 says); may be NULL when @keylen is 0.
 * @keylen: its length in bytes.
 * @msg:    the message; may be NULL when @len is 0.
 * @len:    its length in bytes.
 * @out:    fastsha_alg_digest_size(@alg) bytes.
 *
 * For many messages under one key, fastsha_hmac_key_init() once and
 * fastsha_hmac_init()..final() or fastsha_hmac_many() are faster.
 *
 * Return: 0, or -1 (nothing written) when @alg cannot be used.
 */
FASTSHA_API int fastsha_hmac(fastsha_alg alg, const void *key, size_t keylen, const void *msg,
			     size_t len, uint8_t *out);

/**
 * fastsha_hmac_key_init() - prepare @key for HMAC under @alg.
 * @k:      the prepared key to fill.
 * @alg:    the hash algorithm.
 * @key:    the key, any length; may be NULL when @keylen is 0.
 * @keylen: its length in bytes.
 *
 * Hashes the key's two padded blocks once; @k may then serve any number
 * of messages and threads. The key's bytes are not kept.
 *
 * Return: 0, or -1 when @alg cannot be used: @k is then wiped and refused
 * as after fastsha_hmac_key_wipe(), not left holding an earlier key.
 */
FASTSHA_API int fastsha_hmac_key_init(fastsha_hmac_key *k, fastsha_alg alg, const void *key,
				      size_t keylen);

/**
 * fastsha_hmac_key_wipe() - clear a prepared key.
 * @k: the key; afterwards every function refuses it (-1). May be NULL.
 */
FASTSHA_API void fastsha_hmac_key_wipe(fastsha_hmac_key *k);

/**
 * fastsha_hmac_init() - start an HMAC under prepared key @k.
 * @c: the context to (re)initialise.
 * @k: a key from fastsha_hmac_key_init(); not changed.
 *
 * Return: 0, or -1 when @k is not a prepared key (wiped, or never
 * initialised with a valid algorithm): @c is then wiped and refused as a
 * finished one, not left with a computation it held before.
 */
FASTSHA_API int fastsha_hmac_init(fastsha_hmac_ctx *c, const fastsha_hmac_key *k);

/**
 * fastsha_hmac_update() - add @len bytes at @data to the message.
 * @c:    a context from fastsha_hmac_init(); it changes. A wiped context
 *        (after fastsha_hmac_final()) is left as it is.
 * @data: the bytes; may be NULL when @len is 0. Any alignment.
 * @len:  how many; any size_t.
 */
FASTSHA_API void fastsha_hmac_update(fastsha_hmac_ctx *c, const void *data, size_t len);

/**
 * fastsha_hmac_final() - the tag of everything added, then wipe @c.
 * @c:   the context; wiped afterwards, so it must be initialised again
 *       before more use (copy it first for a running tag).
 * @out: fastsha_alg_digest_size() bytes of the context's algorithm.
 *
 * Return: 0, or -1 (nothing written) when @c was not initialised or was
 * already finished.
 */
FASTSHA_API int fastsha_hmac_final(fastsha_hmac_ctx *c, uint8_t *out);

/**
 * fastsha_hmac_many() - the HMACs of @n messages under one prepared key.
 * @k:    the prepared key.
 * @msgs: the messages (struct fastsha_msg: data, len); they may overlap or
 *        repeat, @out must overlap none of them.
 * @n:    how many; 0 returns 0 and writes nothing.
 * @out:  @n * fastsha_alg_digest_size() bytes: tag i at i * digest size.
 *
 * Each tag equals fastsha_hmac() of that message; several messages
 * advance together in the lane kernels where the CPU has them (as
 * fastsha_many()).
 *
 * Return: 0, or -1 (nothing written) when @k is not a prepared key or the
 * @n tags would pass SIZE_MAX bytes.
 */
FASTSHA_API int fastsha_hmac_many(const fastsha_hmac_key *k, const fastsha_msg *msgs, size_t n,
				  uint8_t *out);

/**
 * fastsha_pbkdf2() - PBKDF2 with HMAC-@alg (RFC 8018, 5.2).
 * @alg:        the hash algorithm.
 * @pw:         the password, any length; may be NULL when @pwlen is 0.
 * @pwlen:      its length in bytes.
 * @salt:       the salt; may be NULL when @saltlen is 0.
 * @saltlen:    its length in bytes.
 * @iterations: the iteration count, at least 1.
 * @out:        @outlen bytes of derived key; must overlap neither @pw nor
 *              @salt, which are read again for later output blocks after
 *              earlier ones are written.
 * @outlen:     1 to (2^32 - 1) * digest size.
 *
 * The output blocks of one password are independent chains and run side
 * by side in lane kernels where the CPU has them (WPA2's 32-byte
 * PBKDF2-HMAC-SHA1 key is two).
 *
 * Return: 0, or -1 (nothing written) on bad input (see the top of this
 * header).
 */
FASTSHA_API int fastsha_pbkdf2(fastsha_alg alg, const void *pw, size_t pwlen, const void *salt,
			       size_t saltlen, uint32_t iterations, uint8_t *out, size_t outlen);

/**
 * fastsha_pbkdf2_many() - PBKDF2 of @n passwords, each with its own salt.
 * @alg:        the hash algorithm.
 * @pws:        the passwords.
 * @salts:      the salts, one per password (repeat one salt by pointing
 *              every entry at it).
 * @n:          how many; 0 returns 0 and writes nothing.
 * @iterations: the iteration count for all, at least 1.
 * @out:        @n * @outlen bytes: key i at i * @outlen, in input order;
 *              it must overlap none of the passwords and salts.
 * @outlen:     each key's length, as fastsha_pbkdf2().
 *
 * Each key equals fastsha_pbkdf2() of that password and salt. The chains
 * of all passwords fill the lane kernels (password cracking audits, bulk
 * migrations of stored hashes, WPA2 handshakes).
 *
 * Return: 0, or -1 (nothing written) on bad input, @n * @outlen past
 * SIZE_MAX included.
 */
FASTSHA_API int fastsha_pbkdf2_many(fastsha_alg alg, const fastsha_msg *pws,
				    const fastsha_msg *salts, size_t n, uint32_t iterations,
				    uint8_t *out, size_t outlen);

/**
 * fastsha_hkdf() - HKDF (RFC 5869): extract, then expand.
 * @alg:     the hash algorithm.
 * @salt:    the salt; NULL/0 means a digest length of zeros, as the RFC
 *           says (which gives the same result).
 * @saltlen: its length in bytes.
 * @ikm:     the input keying material; may be NULL when @ikmlen is 0.
 * @ikmlen:  its length in bytes.
 * @info:    the context and application information; may be NULL when
 *           @infolen is 0.
 * @infolen: its length in bytes.
 * @out:     @outlen bytes of output keying material; must not overlap
 *           @info, which each digest length of output hashes again.
 * @outlen:  1 to 255 * digest size.
 *
 * Return: 0, or -1 (nothing written) on bad input.
 */
FASTSHA_API int fastsha_hkdf(fastsha_alg alg, const void *salt, size_t saltlen, const void *ikm,
			     size_t ikmlen, const void *info, size_t infolen, uint8_t *out,
			     size_t outlen);

/**
 * fastsha_hkdf_extract() - HKDF-Extract: the pseudorandom key.
 * @alg:     the hash algorithm.
 * @salt:    the salt (NULL/0 as in fastsha_hkdf()).
 * @saltlen: its length.
 * @ikm:     the input keying material; may be NULL when @ikmlen is 0.
 * @ikmlen:  its length.
 * @prk:     fastsha_alg_digest_size(@alg) bytes: HMAC(salt, ikm).
 *
 * Return: 0, or -1 (nothing written) when @alg cannot be used.
 */
FASTSHA_API int fastsha_hkdf_extract(fastsha_alg alg, const void *salt, size_t saltlen,
				     const void *ikm, size_t ikmlen, uint8_t *prk);

/**
 * fastsha_hkdf_expand() - HKDF-Expand: output keying material from a PRK.
 * @alg:     the hash algorithm.
 * @prk:     the pseudorandom key: at least a digest length, any longer
 *           length allowed (RFC 5869, 2.3).
 * @prklen:  its length in bytes.
 * @info:    the information; may be NULL when @infolen is 0.
 * @infolen: its length.
 * @out:     @outlen bytes; must not overlap @info (as fastsha_hkdf()).
 * @outlen:  1 to 255 * digest size.
 *
 * Return: 0, or -1 (nothing written) on bad input, a PRK shorter than the
 * digest included.
 */
FASTSHA_API int fastsha_hkdf_expand(fastsha_alg alg, const void *prk, size_t prklen,
				    const void *info, size_t infolen, uint8_t *out, size_t outlen);

/**
 * fastsha_equal() - whether two byte strings are equal, in constant time.
 * @a:   @len bytes; may be NULL when @len is 0.
 * @b:   @len bytes; may be NULL when @len is 0.
 * @len: how many bytes to compare.
 *
 * The time taken depends on @len only, not on where the strings differ:
 * compare MAC tags with this, never with memcmp(). Thread-safe.
 *
 * Return: 1 when equal (and when @len is 0), 0 when not.
 */
FASTSHA_API int fastsha_equal(const void *a, const void *b, size_t len);

/**
 * fastsha_wipe() - clear memory with stores the compiler cannot drop.
 * @p:   @len bytes; may be NULL when @len is 0.
 * @len: how many bytes to set to zero.
 *
 * A memset() of a buffer that is never read again is a dead store, which an
 * optimising compiler may remove, leaving the secret in memory; these stores
 * stay. The library already wipes everything of its own that held a key or
 * password (contexts, prepared keys, pads, scratch; for the stack its
 * keyed work used see the top of this header); this is for the caller's
 * copies: a key read from a file, a password, a derived key once
 * used. It is what fastsha's command and Python binding use. Thread-safe.
 */
FASTSHA_API void fastsha_wipe(void *p, size_t len);

#ifdef __cplusplus
}
#endif

#endif
