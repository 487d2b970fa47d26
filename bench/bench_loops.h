/* SPDX-License-Identifier: MIT */
/*
 * What fastsha-bench times, written once for every mode (bench_loops.c):
 * one message hashed iters times, by us or by OpenSSL, and one pass over a
 * batch by each contender of bench_many.c. Each loop switches on the
 * algorithm outside the loop and calls the function by name inside it, so
 * both sides pay only their own calls.
 */
#ifndef FASTSHA_BENCH_LOOPS_H
#define FASTSHA_BENCH_LOOPS_H

#include <stddef.h>
#include <stdint.h>

#include "fastsha/fastsha.h"

/* Seconds for @iters one-shot hashes of @buf[0..n); the last digest is
 * left in @out. */
typedef double (*bench_one_fn)(fastsha_alg alg, const uint8_t *buf, size_t n, uint64_t iters,
			       uint8_t *out);
/* Seconds for @iters passes over the batch @m[0..count); digest i of the
 * last pass at @out + i * digest size. */
typedef double (*bench_batch_fn)(fastsha_alg alg, const fastsha_msg *m, size_t count,
				 uint64_t iters, uint8_t *out);

/* Ours: the typed one-shot (fastsha1(), fastsha256(), ..., fastsha1dc()). */
double bench_one_ours(fastsha_alg alg, const uint8_t *buf, size_t n, uint64_t iters,
		      uint8_t *out);
/* Ours: fastsha_many() over the whole batch, once a pass. */
double bench_batch_many(fastsha_alg alg, const fastsha_msg *m, size_t count, uint64_t iters,
			uint8_t *out);

/* The contenders of a batch pass (bench_many.c names them in its tables). */
enum bench_contender {
	BENCH_MANY,      /* fastsha_many(): one call for the batch, on the lanes */
	BENCH_LOOP,      /* our one-shot, once per message */
	BENCH_OSSL,      /* OpenSSL's SHA*_Init/Update/Final, once per message */
	BENCH_OSSL_ONE,  /* OpenSSL's one-shot SHA1() ..., once per message */
	BENCH_CONTENDERS
};
/* One pass of contender @who over the batch; exits (die()) for a contender
 * this build lacks (OpenSSL's without libcrypto). */
void bench_batch_pass(int who, fastsha_alg alg, const fastsha_msg *m, size_t count,
		      uint8_t *out);
/* Seconds for @iters passes of contender @who (each pass's first digest
 * byte folded into the sink). */
double bench_batch_time(int who, fastsha_alg alg, const fastsha_msg *m, size_t count,
			uint64_t iters, uint8_t *out);

/* Ours, keyed (the first screen's HMAC line): fastsha_hmac() from a raw
 * key, and fastsha_hmac_many() under one prepared key. */
double bench_one_hmac_ours(fastsha_alg alg, const uint8_t *buf, size_t n, uint64_t iters,
			   uint8_t *out);
double bench_batch_hmac_many(fastsha_alg alg, const fastsha_msg *m, size_t count, uint64_t iters,
			     uint8_t *out);

#ifdef FASTSHA_BENCH_OPENSSL
#include "bench_util.h" /* first: it keeps OpenSSL's SHA1_Init() declared */
#include <openssl/evp.h>
/* OpenSSL's digest for @alg of the Keccak family (SHA3-256 where OpenSSL
 * has no counterpart: Keccak-256, TurboSHAKE, KangarooTwelve), or NULL. */
const EVP_MD *bench_evp_of(fastsha_alg alg);
/* One EVP digest on the reused context @c (an XOF's default length). */
void bench_evp_digest(EVP_MD_CTX *c, const EVP_MD *md, fastsha_alg alg, const void *buf,
		      size_t n, uint8_t *out);
/* OpenSSL, keyed: HMAC(), and EVP_MAC_init() again on a keyed context. */
double bench_one_hmac_openssl(fastsha_alg alg, const uint8_t *buf, size_t n, uint64_t iters,
			      uint8_t *out);
double bench_batch_hmac_openssl(fastsha_alg alg, const fastsha_msg *m, size_t count,
				uint64_t iters, uint8_t *out);
/* OpenSSL: SHA1_Init/Update/Final on a stack context (SHA256_*, SHA512_*
 * likewise; SHA1DC is set against plain SHA-1, which OpenSSL has; the
 * Keccak family through EVP). */
double bench_one_openssl(fastsha_alg alg, const uint8_t *buf, size_t n, uint64_t iters,
			 uint8_t *out);
/* OpenSSL: the same calls once per message of the batch. */
double bench_batch_openssl(fastsha_alg alg, const fastsha_msg *m, size_t count, uint64_t iters,
			   uint8_t *out);
#endif

#endif
