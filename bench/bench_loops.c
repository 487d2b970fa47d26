/* SPDX-License-Identifier: MIT */
/*
 * The timed loops of fastsha-bench (bench_loops.h): one message many
 * times, and one pass over a batch, for us and for OpenSSL. Moved here
 * unchanged from bench.c and bench_many.c so that the first-screen report
 * (bench_quick.c) times exactly what the detailed runs time.
 */

#include "fastsha/fastsha.h"
#include "fastsha/sha1.h"
#include "fastsha/sha256.h"
#include "fastsha/sha512.h"
#include "fastsha/sha1dc.h"
#include "fastsha/sha3.h"
#include "fastsha/mac.h"

#include "bench_loops.h"
#include "bench_util.h"

#ifdef FASTSHA_BENCH_OPENSSL /* after bench_util.h, which keeps SHA1_Init() declared */
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/params.h>
#endif

/*
 * The timed loops: iters messages of n bytes, the last digest left in out.
 * The algorithm is switched on outside the loop and each loop written out
 * (no function pointer), so both sides pay only their own calls; each
 * digest's first byte is folded into the sink so no call can be dropped.
 */
#define TIMED_LOOP(...)                                                                            \
	do {                                                                                       \
		double t0 = now_s();                                                               \
		for (uint64_t i = 0; i < iters; i++) {                                             \
			__VA_ARGS__;                                                               \
			acc ^= out[0];                                                             \
		}                                                                                  \
		t = now_s() - t0;                                                                  \
	} while (0)

double bench_one_ours(fastsha_alg alg, const uint8_t *buf, size_t n, uint64_t iters,
		      uint8_t *out)
{
	uint8_t acc = 0;
	double t = 0;
	switch (alg) {
	case FASTSHA_SHA1:
		TIMED_LOOP(fastsha1(buf, n, out));
		break;
	case FASTSHA_SHA224:
		TIMED_LOOP(fastsha224(buf, n, out));
		break;
	case FASTSHA_SHA256:
		TIMED_LOOP(fastsha256(buf, n, out));
		break;
	case FASTSHA_SHA384:
		TIMED_LOOP(fastsha384(buf, n, out));
		break;
	case FASTSHA_SHA512:
		TIMED_LOOP(fastsha512(buf, n, out));
		break;
	case FASTSHA_SHA1DC:
		TIMED_LOOP(fastsha1dc(buf, n, out));
		break;
	case FASTSHA_SHA3_224:
		TIMED_LOOP(fastsha3_224(buf, n, out));
		break;
	case FASTSHA_SHA3_256:
		TIMED_LOOP(fastsha3_256(buf, n, out));
		break;
	case FASTSHA_SHA3_384:
		TIMED_LOOP(fastsha3_384(buf, n, out));
		break;
	case FASTSHA_SHA3_512:
		TIMED_LOOP(fastsha3_512(buf, n, out));
		break;
	case FASTSHA_KECCAK256:
		TIMED_LOOP(fastkeccak256(buf, n, out));
		break;
	case FASTSHA_SHAKE128:
		TIMED_LOOP(fastshake128(buf, n, out, 32));
		break;
	case FASTSHA_SHAKE256:
		TIMED_LOOP(fastshake256(buf, n, out, 64));
		break;
	case FASTSHA_K12:
		TIMED_LOOP(fastsha_k12(buf, n, NULL, 0, out, 32));
		break;
	case FASTSHA_TURBOSHAKE128:
	case FASTSHA_TURBOSHAKE256:
		TIMED_LOOP(fastsha_xof(alg, buf, n, out, fastsha_alg_digest_size(alg)));
		break;
	default:
		die("no timed loop for %s", fastsha_alg_name(alg));
	}
	sink ^= acc;
	return t;
}

#ifdef FASTSHA_BENCH_OPENSSL
const EVP_MD *bench_evp_of(fastsha_alg alg)
{
	switch (alg) {
	case FASTSHA_SHA3_224: return EVP_sha3_224();
	case FASTSHA_SHA3_384: return EVP_sha3_384();
	case FASTSHA_SHA3_512: return EVP_sha3_512();
	case FASTSHA_SHAKE128: return EVP_shake128();
	case FASTSHA_SHAKE256: return EVP_shake256();
	/* SHA3-256 itself, and what it stands for where OpenSSL has no
	 * counterpart: Keccak-256 (the same sponge but its padding byte),
	 * TurboSHAKE and KangarooTwelve (the same permutation at 12 rounds). */
	case FASTSHA_SHA3_256:
	case FASTSHA_KECCAK256:
	case FASTSHA_K12:
	case FASTSHA_TURBOSHAKE128:
	case FASTSHA_TURBOSHAKE256:
		return EVP_sha3_256();
	default: return NULL;
	}
}

/* One EVP digest of @n bytes into @out (the algorithm's default output for
 * an XOF), on the reused context @c, as a program hashing many does. */
void bench_evp_digest(EVP_MD_CTX *c, const EVP_MD *md, fastsha_alg alg, const void *buf,
		      size_t n, uint8_t *out)
{
	unsigned ol;
	EVP_DigestInit_ex(c, md, NULL);
	EVP_DigestUpdate(c, buf, n);
	if (alg == FASTSHA_SHAKE128 || alg == FASTSHA_SHAKE256)
		EVP_DigestFinalXOF(c, out, fastsha_alg_digest_size(alg));
	else
		EVP_DigestFinal_ex(c, out, &ol);
}
/* OpenSSL's three calls on a stack context, as a program using them would. */
#define OSSL_LOOP(CTX, INIT, UPDATE, FINAL) TIMED_LOOP(CTX c; INIT(&c); UPDATE(&c, buf, n); FINAL(out, &c))

double bench_one_openssl(fastsha_alg alg, const uint8_t *buf, size_t n, uint64_t iters,
			 uint8_t *out)
{
	uint8_t acc = 0;
	double t = 0;
	switch (alg) {
	case FASTSHA_SHA1:
		OSSL_LOOP(SHA_CTX, SHA1_Init, SHA1_Update, SHA1_Final);
		break;
	case FASTSHA_SHA224:
		OSSL_LOOP(SHA256_CTX, SHA224_Init, SHA224_Update, SHA224_Final);
		break;
	case FASTSHA_SHA256:
		OSSL_LOOP(SHA256_CTX, SHA256_Init, SHA256_Update, SHA256_Final);
		break;
	case FASTSHA_SHA384:
		OSSL_LOOP(SHA512_CTX, SHA384_Init, SHA384_Update, SHA384_Final);
		break;
	case FASTSHA_SHA512:
		OSSL_LOOP(SHA512_CTX, SHA512_Init, SHA512_Update, SHA512_Final);
		break;
	case FASTSHA_SHA1DC:
		OSSL_LOOP(SHA_CTX, SHA1_Init, SHA1_Update, SHA1_Final);
		break;
	default: {
		const EVP_MD *md = bench_evp_of(alg);
		if (!md)
			die("no timed loop for %s", fastsha_alg_name(alg));
		EVP_MD_CTX *c = EVP_MD_CTX_new();
		TIMED_LOOP(bench_evp_digest(c, md, alg, buf, n, out));
		EVP_MD_CTX_free(c);
	}
	}
	sink ^= acc;
	return t;
}
#endif

/*
 * HMAC-SHA-256 (the first screen's keyed line): one message from a raw
 * 32-byte key, ours fastsha_hmac() against OpenSSL's HMAC(); a batch under
 * one prepared key, fastsha_hmac_many() against EVP_MAC_init() again on
 * a keyed context for each message (OpenSSL 3's fastest way). @alg says
 * which SHA.
 */
static const uint8_t hmac_key[32] = { 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b,
				       0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b };

double bench_one_hmac_ours(fastsha_alg alg, const uint8_t *buf, size_t n, uint64_t iters,
			   uint8_t *out)
{
	uint8_t acc = 0;
	double t = 0;
	TIMED_LOOP(fastsha_hmac(alg, hmac_key, sizeof(hmac_key), buf, n, out));
	sink ^= acc;
	return t;
}

double bench_batch_hmac_many(fastsha_alg alg, const fastsha_msg *m, size_t count, uint64_t iters,
			     uint8_t *out)
{
	fastsha_hmac_key k;
	fastsha_hmac_key_init(&k, alg, hmac_key, sizeof(hmac_key));
	double t0 = now_s();
	for (uint64_t i = 0; i < iters; i++) {
		fastsha_hmac_many(&k, m, count, out);
		sink ^= out[0];
	}
	double t = now_s() - t0;
	fastsha_hmac_key_wipe(&k);
	return t;
}

#ifdef FASTSHA_BENCH_OPENSSL
double bench_one_hmac_openssl(fastsha_alg alg, const uint8_t *buf, size_t n, uint64_t iters,
			      uint8_t *out)
{
	uint8_t acc = 0;
	double t = 0;
	const EVP_MD *md = alg == FASTSHA_SHA1	   ? EVP_sha1()
			   : alg == FASTSHA_SHA512 ? EVP_sha512()
						   : EVP_sha256();
	unsigned ol;
	TIMED_LOOP(HMAC(md, hmac_key, sizeof(hmac_key), buf, n, out, &ol));
	sink ^= acc;
	return t;
}

double bench_batch_hmac_openssl(fastsha_alg alg, const fastsha_msg *m, size_t count,
				uint64_t iters, uint8_t *out)
{
	const size_t ds = fastsha_alg_digest_size(alg);
	EVP_MAC *mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
	EVP_MAC_CTX *c = EVP_MAC_CTX_new(mac);
	OSSL_PARAM p[2];
	p[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST,
						alg == FASTSHA_SHA1	  ? "SHA1"
						: alg == FASTSHA_SHA512 ? "SHA512"
									: "SHA256",
						0);
	p[1] = OSSL_PARAM_construct_end();
	if (!c || !EVP_MAC_init(c, hmac_key, sizeof(hmac_key), p))
		die("EVP_MAC_init failed for %s", fastsha_alg_name(alg));
	double t0 = now_s();
	for (uint64_t k = 0; k < iters; k++) {
		for (size_t i = 0; i < count; i++) {
			size_t ol;
			EVP_MAC_init(c, NULL, 0, NULL);
			EVP_MAC_update(c, m[i].data, m[i].len);
			EVP_MAC_final(c, out + i * ds, &ol, ds);
		}
		sink ^= out[0];
	}
	double t = now_s() - t0;
	EVP_MAC_CTX_free(c);
	EVP_MAC_free(mac);
	return t;
}
#endif

/* One pass over the batch by contender @who; the digests land in @out. */
void bench_batch_pass(int who, fastsha_alg alg, const fastsha_msg *m, size_t n, uint8_t *out)
{
	const size_t ds = fastsha_alg_digest_size(alg);
#define EACH(...)                                                                                  \
	for (size_t i = 0; i < n; i++) {                                                           \
		__VA_ARGS__;                                                                       \
	}
	switch (who) {
	case BENCH_MANY:
		fastsha_many(alg, m, n, out);
		return;
	case BENCH_LOOP:
		switch (alg) {
		case FASTSHA_SHA1: EACH(fastsha1(m[i].data, m[i].len, out + i * ds)) return;
		case FASTSHA_SHA224: EACH(fastsha224(m[i].data, m[i].len, out + i * ds)) return;
		case FASTSHA_SHA256: EACH(fastsha256(m[i].data, m[i].len, out + i * ds)) return;
		case FASTSHA_SHA384: EACH(fastsha384(m[i].data, m[i].len, out + i * ds)) return;
		case FASTSHA_SHA512: EACH(fastsha512(m[i].data, m[i].len, out + i * ds)) return;
		case FASTSHA_SHA1DC: EACH(fastsha1dc(m[i].data, m[i].len, out + i * ds)) return;
		default: /* the Keccak family, through the descriptor */
			EACH(fastsha_digest(alg, m[i].data, m[i].len, out + i * ds)) return;
		}
		break;
#ifdef FASTSHA_BENCH_OPENSSL
#define IUF(CTX, P)                                                                                \
	EACH(CTX c; P##_Init(&c); P##_Update(&c, m[i].data, m[i].len); P##_Final(out + i * ds, &c))
	case BENCH_OSSL:
		switch (alg) {
		case FASTSHA_SHA1: IUF(SHA_CTX, SHA1) return;
		case FASTSHA_SHA224: IUF(SHA256_CTX, SHA224) return;
		case FASTSHA_SHA256: IUF(SHA256_CTX, SHA256) return;
		case FASTSHA_SHA384: IUF(SHA512_CTX, SHA384) return;
		case FASTSHA_SHA512: IUF(SHA512_CTX, SHA512) return;
		/* OpenSSL has no SHA1DC: its plain SHA-1 is what it is set against */
		case FASTSHA_SHA1DC: IUF(SHA_CTX, SHA1) return;
		default:
			if (bench_evp_of(alg)) { /* the Keccak family: EVP, one at a time */
				EVP_MD_CTX *c = EVP_MD_CTX_new();
				EACH(bench_evp_digest(c, bench_evp_of(alg), alg, m[i].data, m[i].len,
						      out + i * ds))
				EVP_MD_CTX_free(c);
				return;
			}
			break;
		}
		break;
	case BENCH_OSSL_ONE:
		switch (alg) {
		case FASTSHA_SHA1: EACH(SHA1(m[i].data, m[i].len, out + i * ds)) return;
		case FASTSHA_SHA224: EACH(SHA224(m[i].data, m[i].len, out + i * ds)) return;
		case FASTSHA_SHA256: EACH(SHA256(m[i].data, m[i].len, out + i * ds)) return;
		case FASTSHA_SHA384: EACH(SHA384(m[i].data, m[i].len, out + i * ds)) return;
		case FASTSHA_SHA512: EACH(SHA512(m[i].data, m[i].len, out + i * ds)) return;
		case FASTSHA_SHA1DC: EACH(SHA1(m[i].data, m[i].len, out + i * ds)) return;
		default:
			if (bench_evp_of(alg) && fastsha_alg_digest_size(alg) ==
							 (size_t)EVP_MD_get_size(bench_evp_of(alg))) {
				/* SHA3-224..512: EVP_Digest(), the one-shot */
				EACH(EVP_Digest(m[i].data, m[i].len, out + i * ds, NULL,
						bench_evp_of(alg), NULL))
				return;
			}
			break;
		}
		break;
#endif
	default:
		break;
	}
	die("no timed pass for %s", fastsha_alg_name(alg));
}

double bench_batch_time(int who, fastsha_alg alg, const fastsha_msg *m, size_t count,
			uint64_t iters, uint8_t *out)
{
	double t0 = now_s();
	for (uint64_t k = 0; k < iters; k++) {
		bench_batch_pass(who, alg, m, count, out);
		sink ^= out[0];
	}
	return now_s() - t0;
}

double bench_batch_many(fastsha_alg alg, const fastsha_msg *m, size_t count, uint64_t iters,
			uint8_t *out)
{
	return bench_batch_time(BENCH_MANY, alg, m, count, iters, out);
}

#ifdef FASTSHA_BENCH_OPENSSL
double bench_batch_openssl(fastsha_alg alg, const fastsha_msg *m, size_t count, uint64_t iters,
			   uint8_t *out)
{
	return bench_batch_time(BENCH_OSSL, alg, m, count, iters, out);
}
#endif
