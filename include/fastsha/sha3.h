/* SPDX-License-Identifier: MIT */
#ifndef FASTSHA_SHA3_H
#define FASTSHA_SHA3_H

/*
 * The Keccak family: SHA3-224, SHA3-256, SHA3-384, SHA3-512 and the
 * extendable-output SHAKE128 and SHAKE256 (FIPS 202), Keccak-256 (the
 * original Keccak padding, as Ethereum uses it), TurboSHAKE128/256 (RFC
 * 9861: 12 rounds, a domain byte of the caller's). KangarooTwelve, which
 * needs a larger state, is reached through the descriptor (fastsha.h:
 * FASTSHA_K12, fastsha_k12()). All run on the Keccak backends ("keccak" in
 * FASTSHA_BACKEND).
 *
 * Contexts hold no pointers: they may live on the stack, and copying one
 * by assignment forks the computation. Thread-safe for distinct contexts.
 */

#include <stddef.h>
#include <stdint.h>

#include "fastsha.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FASTSHA3_224_DIGEST_SIZE 28
#define FASTSHA3_256_DIGEST_SIZE 32
#define FASTSHA3_384_DIGEST_SIZE 48
#define FASTSHA3_512_DIGEST_SIZE 64
#define FASTKECCAK256_DIGEST_SIZE 32

/**
 * struct fastsha3_ctx - a Keccak-family computation in progress.
 *
 * The fields are private: use only the functions below.
 */
typedef struct fastsha3_ctx {
	struct fastsha3_state {
		uint64_t a[25];     /* the state's lanes, host order */
		uint32_t pos;       /* bytes of the block absorbed (or squeezed) */
		uint16_t rate;      /* the block in bytes */
		uint8_t domain;     /* suffix bits and the first padding bit */
		uint8_t rounds;     /* 24, or 12 for TurboSHAKE */
		uint8_t squeezing;  /* output has begun */
		uint8_t outlen;     /* the digest length; 0 for an XOF */
		uint8_t reserved[6];
	} s;
} fastsha3_ctx;

/*
 * SHA3-224/256/384/512 and Keccak-256: for each NAME in sha3_224, sha3_256,
 * sha3_384, sha3_512, keccak256 the same four functions:
 *
 *   void fast<NAME>_init(fastsha3_ctx *ctx);
 *   void fast<NAME>_update(fastsha3_ctx *ctx, const void *data, size_t len);
 *   void fast<NAME>_final(const fastsha3_ctx *ctx, uint8_t *out);
 *   void fast<NAME>(const void *data, size_t len, uint8_t *out);
 *
 * init starts a computation; update adds @len bytes (@data may be NULL
 * when @len is 0; any size); final writes the digest of everything added
 * and leaves @ctx unchanged, so it may go on (a running digest); the last
 * is the one-shot. A context must be finished by the final of the
 * algorithm that started it.
 */
#define FASTSHA3_DECLARE(name, outlen)                                                             \
	FASTSHA_API void fast##name##_init(fastsha3_ctx *ctx);                                     \
	FASTSHA_API void fast##name##_update(fastsha3_ctx *ctx, const void *data, size_t len);     \
	FASTSHA_API void fast##name##_final(const fastsha3_ctx *ctx, uint8_t out[outlen]);         \
	FASTSHA_API void fast##name(const void *data, size_t len, uint8_t out[outlen]);
FASTSHA3_DECLARE(sha3_224, 28)
FASTSHA3_DECLARE(sha3_256, 32)
FASTSHA3_DECLARE(sha3_384, 48)
FASTSHA3_DECLARE(sha3_512, 64)
FASTSHA3_DECLARE(keccak256, 32)
#undef FASTSHA3_DECLARE

/*
 * SHAKE128 and SHAKE256 (FIPS 202) and TurboSHAKE128/256 (RFC 9861):
 * extendable output. For NAME in shake128, shake256:
 *
 *   void fast<NAME>_init(fastsha3_ctx *ctx);
 *   void fast<NAME>_update(fastsha3_ctx *ctx, const void *data, size_t len);
 *   void fast<NAME>_squeeze(fastsha3_ctx *ctx, uint8_t *out, size_t outlen);
 *   void fast<NAME>(const void *data, size_t len, uint8_t *out, size_t outlen);
 *
 * squeeze writes the next @outlen bytes of output and may be called again
 * for more (calls of any sizes give the same bytes as one long call); the
 * first call ends the input: update after it is ignored. TurboSHAKE's init
 * and one-shot also take its domain byte @domain, 0x01..0x7f (RFC 9861;
 * 0x1f when the caller has no use for it).
 */
FASTSHA_API void fastshake128_init(fastsha3_ctx *ctx);
FASTSHA_API void fastshake128_update(fastsha3_ctx *ctx, const void *data, size_t len);
FASTSHA_API void fastshake128_squeeze(fastsha3_ctx *ctx, uint8_t *out, size_t outlen);
FASTSHA_API void fastshake128(const void *data, size_t len, uint8_t *out, size_t outlen);
FASTSHA_API void fastshake256_init(fastsha3_ctx *ctx);
FASTSHA_API void fastshake256_update(fastsha3_ctx *ctx, const void *data, size_t len);
FASTSHA_API void fastshake256_squeeze(fastsha3_ctx *ctx, uint8_t *out, size_t outlen);
FASTSHA_API void fastshake256(const void *data, size_t len, uint8_t *out, size_t outlen);

/**
 * fastturboshake128_init() - start TurboSHAKE128 with domain byte @domain.
 * @ctx:    the context.
 * @domain: 0x01..0x7f (RFC 9861).
 *
 * Return: 0, or -1 when @domain is out of range: @ctx is then refused
 * until initialised again (whatever it held before is gone; the updates
 * leave it as it is, the squeezes write nothing).
 */
FASTSHA_API int fastturboshake128_init(fastsha3_ctx *ctx, uint8_t domain);
/** fastturboshake256_init() - as fastturboshake128_init(), TurboSHAKE256. */
FASTSHA_API int fastturboshake256_init(fastsha3_ctx *ctx, uint8_t domain);
/**
 * fastturboshake_update() - add bytes to a TurboSHAKE128/256 context.
 * @ctx: the context; @data, @len as for the other updates.
 */
FASTSHA_API void fastturboshake_update(fastsha3_ctx *ctx, const void *data, size_t len);
/** fastturboshake_squeeze() - the next @outlen bytes, as the SHAKE squeezes. */
FASTSHA_API void fastturboshake_squeeze(fastsha3_ctx *ctx, uint8_t *out, size_t outlen);
/**
 * fastturboshake128() - TurboSHAKE128 of one buffer.
 * @data:   the message; may be NULL when @len is 0.
 * @len:    its length.
 * @domain: 0x01..0x7f.
 * @out:    @outlen bytes.
 * @outlen: any length.
 *
 * Return: 0, or -1 (nothing written) when @domain is out of range.
 */
FASTSHA_API int fastturboshake128(const void *data, size_t len, uint8_t domain, uint8_t *out,
				  size_t outlen);
/** fastturboshake256() - as fastturboshake128(), TurboSHAKE256. */
FASTSHA_API int fastturboshake256(const void *data, size_t len, uint8_t domain, uint8_t *out,
				  size_t outlen);

#ifdef __cplusplus
}
#endif

#endif
