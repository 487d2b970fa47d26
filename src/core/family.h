/* SPDX-License-Identifier: MIT */
#ifndef FSHA_CORE_FAMILY_H
#define FSHA_CORE_FAMILY_H

/*
 * What a family (SHA-1; SHA-224/256; the SHA-512 four) gives the layers
 * above it: per algorithm, its engine shape, its backend table, its IV and
 * its digest length, all data (a variant is data, not code). src/alg.c
 * reaches every algorithm through these rows; each family's typed public
 * functions are stamped from the same row by FSHA_VARIANT.
 */

#include <stddef.h>
#include <stdint.h>

#include "backend.h"
#include "md.h"

struct fastsha_msg;

struct fsha_variant {
	const struct fsha_md_shape *shape;
	const struct fsha_family *backends;
	const void *iv;
	size_t outlen;
	/* The typed one-shot (fastsha256() ...): the engine specialised for
	 * this shape, for batches too small for the lanes. */
	void (*oneshot)(const void *data, size_t len, uint8_t *out);
	/* An algorithm that detects collision attacks (SHA1DC), else NULL:
	 * the final of streaming state @st returning 1 when detected, and
	 * the batch returning how many were (@detected: n flags or NULL). */
	int (*final_detect)(const void *st, uint8_t last, unsigned nbits, uint8_t *out);
	size_t (*many_detect)(const struct fastsha_msg *msgs, size_t n, uint8_t *out,
			      uint8_t *detected);
	/*
	 * The typed update (fastsha256_update() ...) on a streaming state
	 * @st: the engine specialised for this shape. fastsha_update() and
	 * fastsha_hmac_update() call it instead of running the engine on the
	 * shape as run-time data, which cost 22 more instructions an update
	 * than the typed call (13-byte pieces of SHA-256, callgrind): a frame
	 * of six saved registers on every call (the sponge path's too), a
	 * libc memcpy for every partial block and a 64-bit div by the block
	 * size for whole blocks, and the compression through a pointer.
	 */
	void (*absorb)(void *st, const void *data, size_t len);
};

extern const struct fsha_variant fsha_variant_1, fsha_variant_224, fsha_variant_256,
	fsha_variant_384, fsha_variant_512, fsha_variant_512_224, fsha_variant_512_256,
	fsha_variant_1dc;

/* src/alg.c: the variant of algorithm @alg (a fastsha_alg), NULL when out
 * of range. */
const struct fsha_variant *fsha_variant_of(int alg);

/*
 * Where the messages of a batch start: chaining words @iv that have taken
 * @prefix bytes already (a plain hash: the variant's IV and 0; HMAC: a
 * keyed state and one block). With @wipe the scheduler clears its scratch
 * (states, copied message bytes) before it returns: keyed batches. With
 * @outer (HMAC's outer words, else NULL) each result is then hashed once
 * more from @outer after a block's prefix, in the same lane: the outer
 * hash of a digest is one fixed-shape block.
 */
struct fsha_from {
	const void *iv;
	uint64_t prefix;
	int wipe;
	const void *outer;
};

/* src/core/lanes.c: the digests of @n messages into @out (n * outlen
 * bytes, in input order), and of every @chunk-byte piece of one buffer. */
void fsha_many(const struct fsha_variant *v, const struct fastsha_msg *msgs, size_t n,
	       uint8_t *out);
/* fsha_many() with every message hashed on from @f (not for SHA1DC). */
void fsha_many_from(const struct fsha_variant *v, const struct fsha_from *f,
		    const struct fastsha_msg *msgs, size_t n, uint8_t *out);
/* Compress one block @b0 into state @s0 and one @b1 into @s1, side by side
 * on a lane row where the family has one that pays for two (lanes.c). */
void fsha_two_blocks(const struct fsha_variant *v, uint8_t *s0, const uint8_t *b0, uint8_t *s1,
		     const uint8_t *b1);

/*
 * One PBKDF2 chain (RFC 8018's F for one output block): the keyed inner and
 * outer chaining words, the block that holds U (its first digest-size
 * bytes, then the padding of a message one block and one digest long,
 * which both of HMAC's hashes in an iteration are), and the XOR of the U
 * so far, as chaining words.
 */
struct fsha_chain {
	_Alignas(64) uint8_t u[FSHA_MAX_BLOCK];
	uint8_t acc[64];
	const uint8_t *inner, *outer;
};

/* Run @iters more iterations of each of @n chains: side by side on the
 * family's lane rows where it has them (lanes.c). */
void fsha_chains(const struct fsha_variant *v, struct fsha_chain *c, size_t n, uint64_t iters);

/* Every @chunk-byte piece of @data through @batch (called with @arg, a
 * group of pieces and where their @dlen-byte results go), in order; the
 * number of pieces (lanes.c). */
typedef void (*fsha_batch_fn)(const void *arg, const struct fastsha_msg *m, size_t n,
			      uint8_t *out);
size_t fsha_pieces(const void *data, size_t len, size_t chunk, size_t dlen, uint8_t *out,
		   fsha_batch_fn batch, const void *arg);
size_t fsha_chunks(const struct fsha_variant *v, const void *data, size_t len, size_t chunk,
		   uint8_t *out);
/* The lane rows a batch on batch row @row may use, widest first, into
 * @out (room for FSHA_MAX_LANES); returns how many (lanes.c). */
size_t fsha_lane_rows(const struct fsha_family *fam, const struct fsha_backend_info *row,
		      const struct fsha_backend_info **out);
#define FSHA_MAX_LANES 16
/* Of lane rows @rows[0..nrows) (fsha_lane_rows()), the one for @live
 * messages: the narrowest that holds them, or NULL when they are fewer
 * than its min_lanes and should finish single-stream (lanes.c). */
const struct fsha_backend_info *fsha_row_for(const struct fsha_backend_info *const *rows,
					     size_t nrows, size_t live);

/*
 * Whether @n results of @size bytes each, a batch's output, fit in a
 * size_t. The batch calls refuse one that does not: no buffer holds it
 * (the caller's own n * size wrapped), and result i's offset i * size
 * would wrap too, writing somewhere else.
 */
static inline int fsha_fits(size_t n, size_t size)
{
	return size == 0 || n <= SIZE_MAX / size;
}

/* The one-shot of @len bytes; @data may be NULL when @len is 0. */
static inline void fsha_oneshot_bytes(const struct fsha_md_shape *S, const void *iv,
				      const void *data, size_t len, uint8_t *out, size_t outlen)
{
	/* A NULL pointer must not reach pointer arithmetic, even with 0. */
	static const uint8_t none[1];
	fsha_md_digest(S, iv, len ? data : none, len, 0, 0, out, outlen);
}

/* The one-shot of @nbits bits, the last byte's from its top (NIST order). */
static inline void fsha_oneshot_bits(const struct fsha_md_shape *S, const void *iv,
				     const void *data, uint64_t nbits, uint8_t *out, size_t outlen)
{
	static const uint8_t none[1];
	const uint8_t *p = nbits ? data : none;
	size_t len = (size_t)(nbits / 8);
	unsigned rem = (unsigned)(nbits % 8);
	fsha_md_digest(S, iv, p, len, rem ? p[len] : 0, rem, out, outlen);
}

/* A shape with only the sizes, constants once the function it is passed to
 * is inlined: the copies, padding and byte swaps then compile to fixed
 * moves instead of library calls over run-time sizes (lanes.c, src/mac/). */
#define FSHA_SIZES(B, LS, W, WS)                                                                   \
	(&(const struct fsha_md_shape){ .bsize = B, .lsize = LS, .words = W, .wsize = WS })

/* How a variant's context reaches its family state. */
#define FSHA_STATE_SELF(ctx) (ctx)
#define FSHA_STATE_INNER(ctx) (&(ctx)->s)

/*
 * Variant fastsha<p>: its row for src/alg.c (fsha_variant_<p>) and its six
 * public functions, thin calls into the engine with the family's @shape
 * (a static const, so each call is specialised) and the variant's @iv and
 * @outlen. They only forward; the logic is in md.h.
 */
#define FSHA_VARIANT(p, ctx_t, STATE, shape, family, iv, outlen)                            \
	static void absorb_##p(void *st, const void *data, size_t len)                      \
	{                                                                                   \
		fsha_md_absorb(&(shape), st, data, len);                                    \
	}                                                                                   \
	const struct fsha_variant fsha_variant_##p = { &(shape), &(family), (iv), (outlen),   \
						       fastsha##p, NULL, NULL, absorb_##p }; \
	void fastsha##p##_init(ctx_t *ctx)                                                  \
	{                                                                                   \
		fsha_md_init(&(shape), STATE(ctx), (iv));                                   \
	}                                                                                   \
	void fastsha##p##_update(ctx_t *ctx, const void *data, size_t len)                  \
	{                                                                                   \
		fsha_md_absorb(&(shape), STATE(ctx), data, len);                            \
	}                                                                                   \
	void fastsha##p##_final_bits(const ctx_t *ctx, uint8_t last, unsigned nbits,        \
				     uint8_t out[outlen])                                   \
	{                                                                                   \
		fsha_md_final(&(shape), STATE(ctx), last, nbits & 7, out, (outlen));        \
	}                                                                                   \
	void fastsha##p##_final(const ctx_t *ctx, uint8_t out[outlen])                      \
	{                                                                                   \
		fsha_md_final(&(shape), STATE(ctx), 0, 0, out, (outlen));                   \
	}                                                                                   \
	void fastsha##p(const void *data, size_t len, uint8_t out[outlen])                  \
	{                                                                                   \
		fsha_oneshot_bytes(&(shape), (iv), data, len, out, (outlen));               \
	}                                                                                   \
	void fastsha##p##_bits(const void *data, uint64_t nbits, uint8_t out[outlen])       \
	{                                                                                   \
		fsha_oneshot_bits(&(shape), (iv), data, nbits, out, (outlen));              \
	}                                                                                   \
	void fastsha##p##_many(const fastsha_msg *msgs, size_t n, uint8_t (*out)[outlen])   \
	{                                                                                   \
		fsha_many(&fsha_variant_##p, msgs, n, (uint8_t *)out);                      \
	}                                                                                   \
	size_t fastsha##p##_chunks(const void *data, size_t len, size_t chunk,              \
				   uint8_t (*out)[outlen])                                  \
	{                                                                                   \
		return fsha_chunks(&fsha_variant_##p, data, len, chunk, (uint8_t *)out);    \
	}

#endif
