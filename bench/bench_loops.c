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

#include "bench_loops.h"
#include "bench_util.h"

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
	default:
		die("no timed loop for %s", fastsha_alg_name(alg));
	}
	sink ^= acc;
	return t;
}

#ifdef FASTSHA_BENCH_OPENSSL
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
	default:
		die("no timed loop for %s", fastsha_alg_name(alg));
	}
	sink ^= acc;
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
		default: break;
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
		default: break;
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
		default: break;
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
