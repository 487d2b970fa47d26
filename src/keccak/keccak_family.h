/* SPDX-License-Identifier: MIT */
#ifndef FSHA_KECCAK_FAMILY_H
#define FSHA_KECCAK_FAMILY_H

/*
 * What the Keccak family gives the layers above it (src/alg.c), as
 * src/core/family.h does for SHA-1 and SHA-2: per algorithm its sponge
 * parameters (a variant is data: SHA3-256 and Keccak-256 differ in one
 * byte), and the generic context's operations on them. KangarooTwelve is
 * a variant whose context is a tree of sponges (k12.c).
 */

#include <stddef.h>
#include <stdint.h>

#include "fastsha/fastsha.h"
#include "fastsha/sha3.h"

struct fsha_sponge_variant {
	uint16_t rate;    /* bytes */
	uint8_t domain;   /* see src/core/sponge.h */
	uint8_t rounds;   /* 24 or 12 */
	uint8_t outlen;   /* the digest, or an XOF's default output length */
	uint8_t xof;      /* extendable output: fastsha_xof(), fastsha_squeeze() */
	uint8_t k12;      /* KangarooTwelve (k12.c) */
};

extern const struct fsha_sponge_variant fsha_sponge_sha3_224, fsha_sponge_sha3_256,
	fsha_sponge_sha3_384, fsha_sponge_sha3_512, fsha_sponge_shake128, fsha_sponge_shake256,
	fsha_sponge_keccak256, fsha_sponge_turboshake128, fsha_sponge_turboshake256,
	fsha_sponge_k12;

/* The generic context's bytes (fastsha_ctx.u.bytes) for variant @v. */
void fsha_sponge_v_init(const struct fsha_sponge_variant *v, void *st);
void fsha_sponge_v_update(const struct fsha_sponge_variant *v, void *st, const void *data,
			  size_t len);
/* fsha_sponge_v_update() for K12, which fastsha_update() calls straight:
 * through fsha_sponge_v_update() every K12 update also paid the sponge
 * path's frame of six saved registers, which GCC sets up before the test
 * of v->k12 (26 instructions an update of 13-byte pieces there; see the
 * commit for the counts after). */
void fsha_k12_v_update(void *st, const void *data, size_t len);
/* The first @n output bytes, @st unchanged; @nbits (0..7) message bits
 * from the top of @last first (not for K12: nbits must be 0). */
void fsha_sponge_v_final(const struct fsha_sponge_variant *v, const void *st, uint8_t last,
			 unsigned nbits, uint8_t *out, size_t n);
/* The next @n output bytes; the input ends at the first call. */
void fsha_sponge_v_squeeze(const struct fsha_sponge_variant *v, void *st, uint8_t *out, size_t n);
/* One buffer, @n output bytes; @nbits trailing bits as above. */
void fsha_sponge_v_oneshot(const struct fsha_sponge_variant *v, const void *data, size_t len,
			   uint8_t last, unsigned nbits, uint8_t *out, size_t n);
/* The sponge outputs (@n bytes each) of @count messages at @rate with
 * @domain and @rounds, on the Keccak lane rows where the CPU has them
 * (keccak_many.c). */
void fsha_sponge_many(size_t rate, uint8_t domain, unsigned rounds, const fastsha_msg *msgs,
		      size_t count, uint8_t *out, size_t n);
/* @count messages, @n output bytes each (keccak_many.c). */
void fsha_sponge_v_many(const struct fsha_sponge_variant *v, const fastsha_msg *msgs,
			size_t count, uint8_t *out, size_t n);

/* KangarooTwelve (k12.c): the streaming state, and the whole of one
 * message with a customisation string. */
struct fsha_k12_state {
	struct fastsha3_state node; /* the final node (S_0, then the chaining values) */
	struct fastsha3_state leaf; /* the leaf being absorbed */
	uint64_t nbytes;            /* bytes of S (message, then C and its length) so far */
	uint64_t nleaves;           /* leaves whose chaining value the node has taken */
};
void fsha_k12_init(struct fsha_k12_state *k);
void fsha_k12_update(struct fsha_k12_state *k, const void *data, size_t len);
/* Append the customisation string and its length, pad: ready to squeeze. */
void fsha_k12_finish(struct fsha_k12_state *k, const void *custom, size_t customlen);
void fsha_k12_oneshot(const void *data, size_t len, const void *custom, size_t customlen,
		      uint8_t *out, size_t outlen);

#endif
