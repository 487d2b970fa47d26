/* SPDX-License-Identifier: MIT */
/*
 * fastsha-bench --mac and --sha3: jobs timed against OpenSSL 3's calls for
 * the same job, each pair alternating in one process on the same inputs.
 *
 * --mac, keyed hashing and key derivation (fastsha/mac.h):
 *
 *   pbkdf2      one password, 100,000 iterations, a digest of output:
 *               fastsha_pbkdf2() / PKCS5_PBKDF2_HMAC(). Latency of one
 *               chain: every iteration waits for the one before.
 *   wpa2        PBKDF2-HMAC-SHA1, 4,096 iterations, 32 bytes (two chains).
 *   pbkdf2x16   16 passwords x 10,000 iterations: fastsha_pbkdf2_many() /
 *               PKCS5_PBKDF2_HMAC() one password after another. Throughput.
 *   hmac64      HMAC of 64 bytes from the raw key: fastsha_hmac() / HMAC().
 *   hmac64k     the same with a prepared key: fastsha_hmac_init/update/final
 *               / EVP_MAC_init(ctx, NULL, 0, NULL) again on a keyed
 *               context, update, final (OpenSSL 3's fastest way).
 *   hmac16k     16 KiB with a prepared key, the same two: bound by the hash.
 *   hmacx1024   1,024 messages of 64 bytes under one key: fastsha_hmac_many()
 *               / the keyed-context loop above. Throughput.
 *   hkdf        HKDF-SHA-256 (the job's algorithm), 42 bytes from 22 of IKM,
 *               13 of salt and 10 of info: fastsha_hkdf() / EVP_KDF_derive()
 *               on one context whose digest is set once, the key, salt
 *               and info given each time (OpenSSL's fastest way; before
 *               0.3.4 a new context per derivation, a third slower).
 *
 * --sha3, the Keccak family (fastsha/sha3.h), against OpenSSL's EVP
 * digests on a reused context, one message at a time:
 *
 *   sha3-16k    SHA3-256 of one 16 KiB message, and sha3-1m of 1 MiB.
 *   sha3x1024   1,024 messages of 4 KiB: fastsha_many() / an EVP loop.
 *   shakex1024  1,024 SHAKE128 outputs of 504 bytes from 34-byte inputs
 *               (a post-quantum matrix's rows): fastsha_many_xof() / an
 *               EVP_DigestFinalXOF() loop.
 *   k12-1m      KangarooTwelve of 1 MiB, 32 bytes out, against OpenSSL's
 *               SHA3-256 of the same bytes (OpenSSL has no K12; the job it
 *               would replace), and k12/sha256 against our own SHA-256.
 *   keccakx1024 1,024 Keccak-256 digests of 64 bytes (Ethereum's trie
 *               nodes) against EVP SHA3-256 (the same sponge; OpenSSL 3.0
 *               has no Keccak-256).
 *
 * Each row ends with the target for the job on this CPU class
 * (target_of(): issue 28 for --mac, 29 for --sha3, the AVX-512 figure
 * where this CPU runs an AVX-512 row) and whether the median met it; "-"
 * where the issue sets none (SHA-224, SHA-384, the reference rows).
 *
 * A sample is a loop of the job calibrated to --sample-ms of thread CPU
 * time; each repetition times ours and OpenSSL's in alternating order;
 * figures are medians over --reps, the ratio the median of per-repetition
 * ratios (OpenSSL's time / ours: above 1, we are faster).
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fastsha/fastsha.h"
#include "fastsha/mac.h"
#include "fastsha/sha256.h"
#include "fastsha/sha3.h"

#include "bench_jobs.h"
#include "bench_loops.h"
#include "bench_util.h"

#ifdef FASTSHA_BENCH_OPENSSL
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/kdf.h>
#include <openssl/params.h>
#endif

#define MAXJ 64

struct job;
typedef void (*run_fn)(const struct job *j, int theirs);

struct job {
	const char *name;
	fastsha_alg alg;
	run_fn run;
	size_t len;   /* message bytes, or output bytes for the KDFs */
	uint32_t n;   /* iterations (PBKDF2) or messages (batches) */
	int other;    /* the other side computes another function: not compared */
};

/* Inputs shared by every job: a key, a salt, messages. */
static uint8_t key[32], salt[16], *msgs;
static uint8_t out[1024 * 512]; /* 1,024 outputs of 504 bytes at most */
static fastsha_hmac_key pkey;
static fastsha_msg batch[1024];

#ifdef FASTSHA_BENCH_OPENSSL
static const EVP_MD *md_of(fastsha_alg a)
{
	switch (a) {
	case FASTSHA_SHA1: return EVP_sha1();
	case FASTSHA_SHA224: return EVP_sha224();
	case FASTSHA_SHA256: return EVP_sha256();
	case FASTSHA_SHA384: return EVP_sha384();
	case FASTSHA_SHA512: return EVP_sha512();
	default: return NULL;
	}
}

static EVP_MAC *mac;
static EVP_MAC_CTX *mctx;
static EVP_KDF *kdf;
static EVP_KDF_CTX *kctx;

/* Algorithm @a's OpenSSL contexts, made before its jobs are timed: the
 * keyed EVP_MAC context the prepared-key jobs re-initialise, and the HKDF
 * context with its digest set, which run_hkdf() gives the key, salt and
 * info each time. */
static void ossl_key(fastsha_alg a)
{
	OSSL_PARAM p[2];
	p[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST,
						(char *)EVP_MD_get0_name(md_of(a)), 0);
	p[1] = OSSL_PARAM_construct_end();
	if (!mac)
		mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
	EVP_MAC_CTX_free(mctx);
	mctx = EVP_MAC_CTX_new(mac);
	if (!mctx || !EVP_MAC_init(mctx, key, sizeof(key), p))
		die("EVP_MAC_init failed%s", "");
	/* OSSL_KDF_PARAM_DIGEST is OSSL_MAC_PARAM_DIGEST's name, "digest" */
	EVP_KDF_CTX_free(kctx);
	kctx = EVP_KDF_CTX_new(kdf);
	if (!kctx || !EVP_KDF_CTX_set_params(kctx, p))
		die("EVP_KDF_CTX_set_params failed%s", "");
}

/* One keyed MAC of @len bytes at @m by re-initialising the keyed context. */
static void ossl_mac(const uint8_t *m, size_t len, uint8_t *o)
{
	size_t ol;
	EVP_MAC_init(mctx, NULL, 0, NULL);
	EVP_MAC_update(mctx, m, len);
	EVP_MAC_final(mctx, o, &ol, 64);
}
#endif

static void run_pbkdf2(const struct job *j, int theirs)
{
	size_t d = j->len;
	if (!theirs) {
		fastsha_pbkdf2(j->alg, key, 12, salt, sizeof(salt), j->n, out, d);
		return;
	}
#ifdef FASTSHA_BENCH_OPENSSL
	PKCS5_PBKDF2_HMAC((const char *)key, 12, salt, sizeof(salt), (int)j->n, md_of(j->alg),
			  (int)d, out);
#endif
}

enum { NPW = 16 };
static fastsha_msg pws[NPW], salts[NPW];

static void run_pbkdf2_many(const struct job *j, int theirs)
{
	size_t d = j->len;
	if (!theirs) {
		fastsha_pbkdf2_many(j->alg, pws, salts, NPW, j->n, out, d);
		return;
	}
#ifdef FASTSHA_BENCH_OPENSSL
	for (size_t i = 0; i < NPW; i++)
		PKCS5_PBKDF2_HMAC(pws[i].data, (int)pws[i].len, salts[i].data, (int)salts[i].len,
				  (int)j->n, md_of(j->alg), (int)d, out + i * d);
#endif
}

static void run_hmac_raw(const struct job *j, int theirs)
{
	if (!theirs) {
		fastsha_hmac(j->alg, key, sizeof(key), msgs, j->len, out);
		return;
	}
#ifdef FASTSHA_BENCH_OPENSSL
	unsigned ol;
	HMAC(md_of(j->alg), key, sizeof(key), msgs, j->len, out, &ol);
#endif
}

static void run_hmac_key(const struct job *j, int theirs)
{
	if (!theirs) {
		fastsha_hmac_ctx c;
		fastsha_hmac_init(&c, &pkey);
		fastsha_hmac_update(&c, msgs, j->len);
		fastsha_hmac_final(&c, out);
		return;
	}
#ifdef FASTSHA_BENCH_OPENSSL
	ossl_mac(msgs, j->len, out);
#endif
}

static void run_hmac_many(const struct job *j, int theirs)
{
	if (!theirs) {
		fastsha_hmac_many(&pkey, batch, j->n, out);
		return;
	}
#ifdef FASTSHA_BENCH_OPENSSL
	size_t d = fastsha_alg_digest_size(j->alg);
	for (size_t i = 0; i < j->n; i++)
		ossl_mac(batch[i].data, batch[i].len, out + i * d);
#endif
}

static const uint8_t hkdf_info[10] = { 0xf0, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8, 0xf9 };

static void run_hkdf(const struct job *j, int theirs)
{
	if (!theirs) {
		fastsha_hkdf(j->alg, salt, 13, key, 22, hkdf_info, sizeof(hkdf_info), out, j->len);
		return;
	}
#ifdef FASTSHA_BENCH_OPENSSL
	/* OpenSSL's fastest way to derive one key after another: one context,
	 * its digest set once by ossl_key() (setting it by name fetches the
	 * digest, and a new context costs as much again: a third of OpenSSL's
	 * time here), then each derivation's key, salt and info, which
	 * fastsha_hkdf() also takes on every call. */
	OSSL_PARAM p[4];
	p[0] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, key, 22);
	p[1] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, salt, 13);
	p[2] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, (void *)hkdf_info,
						 sizeof(hkdf_info));
	p[3] = OSSL_PARAM_construct_end();
	EVP_KDF_derive(kctx, out, j->len, p);
#endif
}

/* The Keccak jobs. @j->len is the message size, @j->n the batch size. */
static void run_sha3_one(const struct job *j, int theirs)
{
	if (!theirs) {
		if (j->alg == FASTSHA_K12)
			fastsha_k12(msgs, j->len, NULL, 0, out, 32);
		else
			fastsha_digest(j->alg, msgs, j->len, out);
		return;
	}
#ifdef FASTSHA_BENCH_OPENSSL
	static EVP_MD_CTX *c;
	if (!c)
		c = EVP_MD_CTX_new();
	bench_evp_digest(c, bench_evp_of(j->alg), j->alg, msgs, j->len, out);
#endif
}

/* KangarooTwelve against our own SHA-256 of the same bytes. */
static void run_k12_sha256(const struct job *j, int theirs)
{
	if (!theirs)
		fastsha_k12(msgs, j->len, NULL, 0, out, 32);
	else
		fastsha256(msgs, j->len, out);
}

enum { XOF_OUT = 504 }; /* SHAKE128 output of the shakex1024 job: 3 blocks */

static void run_sha3_many(const struct job *j, int theirs)
{
	const int xof = j->alg == FASTSHA_SHAKE128;
	const size_t ol = xof ? XOF_OUT : fastsha_alg_digest_size(j->alg);
	for (size_t i = 0; i < j->n; i++)
		batch[i] = (fastsha_msg){ msgs + i * j->len, j->len };
	if (!theirs) {
		if (xof)
			fastsha_many_xof(j->alg, batch, j->n, out, ol);
		else
			fastsha_many(j->alg, batch, j->n, out);
		return;
	}
#ifdef FASTSHA_BENCH_OPENSSL
	static EVP_MD_CTX *c;
	if (!c)
		c = EVP_MD_CTX_new();
	const EVP_MD *md = bench_evp_of(j->alg);
	for (size_t i = 0; i < j->n; i++) {
		EVP_DigestInit_ex(c, md, NULL);
		EVP_DigestUpdate(c, batch[i].data, batch[i].len);
		if (xof) {
			EVP_DigestFinalXOF(c, out + i * ol, ol);
		} else {
			unsigned n;
			EVP_DigestFinal_ex(c, out + i * ol, &n);
		}
	}
#endif
}

/* Seconds per call of @j by @theirs, from a loop of about @sample_s. */
static double time_job(const struct job *j, int theirs, double sample_s, unsigned *calls)
{
	if (!*calls) { /* calibrate once per contender */
		unsigned k = 1;
		for (;;) {
			double t0 = now_s();
			for (unsigned i = 0; i < k; i++)
				j->run(j, theirs);
			double t = now_s() - t0;
			if (t > sample_s / 4 || k > (1u << 28)) {
				*calls = (unsigned)(k * (sample_s / (t > 0 ? t : 1e-9)));
				if (*calls < 1)
					*calls = 1;
				break;
			}
			k *= 4;
		}
	}
	double t0 = now_s();
	for (unsigned i = 0; i < *calls; i++)
		j->run(j, theirs);
	sink ^= out[0];
	return (now_s() - t0) / *calls;
}

/* Check that ours and OpenSSL's give the same bytes before timing. */
static int agree(const struct job *j)
{
	if (j->other)
		return 1;
#ifdef FASTSHA_BENCH_OPENSSL
	size_t n = j->run == run_pbkdf2_many ? NPW * j->len
		   : j->run == run_hmac_many ? j->n * fastsha_alg_digest_size(j->alg)
		   : j->run == run_sha3_many
			   ? j->n * (j->alg == FASTSHA_SHAKE128 ? XOF_OUT : fastsha_alg_digest_size(j->alg))
		   : j->run == run_pbkdf2 || j->run == run_hkdf ? j->len
							       : fastsha_alg_digest_size(j->alg);
	static uint8_t a[sizeof(out)];
	j->run(j, 0);
	memcpy(a, out, n);
	/* Both sides write @out: cleared between them, so that an OpenSSL call
	 * that fails and writes nothing (no provider, a FIPS configuration)
	 * fails the check instead of leaving our bytes to compare with. */
	memset(out, 0xa5, n);
	j->run(j, 1);
	return memcmp(a, out, n) == 0;
#else
	(void)j;
	return 1;
#endif
}

/* Whether this CPU runs an AVX-512 row (the issues' targets differ):
 * SHA-1's avx512_x16, through the public backend list. Set by setup(). */
static int avx512_cpu;

static int runs_avx512(void)
{
	for (size_t i = 0; i < fastsha_backend_count(FASTSHA_SHA1); i++)
		if (strncmp(fastsha_backend_name(FASTSHA_SHA1, i), "avx512", 6) == 0 &&
		    fastsha_backend_supported(FASTSHA_SHA1, i))
			return 1;
	return 0;
}

/*
 * The issues' target ratio for job @name of @alg on a CPU that runs
 * AVX-512 (@avx512) or not, 0 for none. Issue 28 (keyed hashing) set its
 * targets on an AVX-512 CPU, with separate ones for PBKDF2 batches on
 * SHA-NI CPUs without it; issue 29 (Keccak) gives AVX2-only CPUs their
 * own for batches and KangarooTwelve. The Python targets are
 * python_bench.py's.
 */
static double target_of(const char *name, fastsha_alg alg, int avx512)
{
	const int s1 = alg == FASTSHA_SHA1, s256 = alg == FASTSHA_SHA256,
		  s512 = alg == FASTSHA_SHA512;
	if (!strcmp(name, "pbkdf2"))
		return s1 || s256 ? 3.0 : s512 ? 1.8 : 0;
	if (!strcmp(name, "wpa2"))
		return 5.0;
	if (!strcmp(name, "pbkdf2x16"))
		return s1 ? (avx512 ? 10 : 6) : s256 ? 6 : s512 ? (avx512 ? 5 : 3) : 0;
	if (!strcmp(name, "hmac64"))
		return s1 || s256 ? 5.0 : s512 ? 4.0 : 0;
	if (!strcmp(name, "hmac64k"))
		return s1 || s256 || s512 ? 1.8 : 0;
	if (!strcmp(name, "hmac16k"))
		return s1 || s256 || s512 ? 1.0 : 0;
	if (!strcmp(name, "hmacx1024"))
		return s1 || s256 || s512 ? 4.0 : 0;
	if (!strcmp(name, "hkdf"))
		return s256 ? 5.0 : 0;
	if (!strcmp(name, "sha3-16k"))
		return 1.10;
	if (!strcmp(name, "sha3x1024"))
		return avx512 ? 4.0 : 2.2;
	if (!strcmp(name, "shakex1024"))
		return avx512 ? 3.0 : 2.0;
	if (!strcmp(name, "k12-1m"))
		return avx512 ? 10.0 : 3.8;
	return 0;
}

static void usage(FILE *f, int sha3)
{
	if (sha3)
		fprintf(f, "usage: fastsha-bench --sha3 [options]\n"
			   "  --jobs LIST         sha3-16k, sha3-1m, sha3x1024, shakex1024, k12-1m,\n"
			   "                      k12/sha256, keccakx1024 (default all)\n");
	else
		fprintf(f, "usage: fastsha-bench --mac [options]\n"
			   "  -a, --alg LIST      sha1, sha224, sha256, sha384, sha512 (default\n"
			   "                      sha1,sha256,sha512)\n"
			   "  --jobs LIST         pbkdf2, wpa2, pbkdf2x16, hmac64, hmac64k, hmac16k,\n"
			   "                      hmacx1024, hkdf (default all)\n");
	fprintf(f, "  --reps N            repetitions per job (default 9)\n"
		   "  --sample-ms MS      one sample (default 50)\n"
		   "  --quick             5 reps of 20 ms%s\n",
		sha3 ? "" : "; pbkdf2 at 10,000 iterations");
}

/* Whether @name is in the comma-separated @list (NULL: everything). */
static int listed(const char *list, const char *name)
{
	if (!list)
		return 1;
	size_t n = strlen(name);
	for (const char *p = list; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (strncmp(p, name, n) == 0 && (p[n] == ',' || !p[n]))
			return 1;
	return 0;
}

/* Options both modes take. */
struct jopts {
	fastsha_alg algs[8];
	size_t nalgs;
	const char *jobs;
	unsigned reps;
	double sample_s;
	int quick;
};

static void parse(struct jopts *o, int argc, char **argv, int sha3)
{
	const char *mode = sha3 ? "--sha3" : "--mac";
	memset(o, 0, sizeof(*o));
	o->algs[0] = FASTSHA_SHA1, o->algs[1] = FASTSHA_SHA256, o->algs[2] = FASTSHA_SHA512;
	o->nalgs = 3;
	o->reps = 9;
	o->sample_s = 50e-3;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			usage(stdout, sha3);
			exit(0);
		} else if (strcmp(a, "--quick") == 0) {
			o->reps = 5, o->sample_s = 20e-3, o->quick = 1;
		} else if (!v) {
			fprintf(stderr, "fastsha-bench %s: %s: unknown option or missing value\n", mode, a);
			usage(stderr, sha3);
			exit(2);
		} else if (!sha3 && (strcmp(a, "-a") == 0 || strcmp(a, "--alg") == 0)) {
			o->nalgs = 0;
			for (const char *p = v; p && o->nalgs < 8;
			     p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
				char name[32];
				size_t len = strcspn(p, ",");
				int alg = -1;
				if (len < sizeof(name)) {
					memcpy(name, p, len);
					name[len] = 0;
					alg = fastsha_alg_from_name(name);
				}
				if (alg < 0 || alg > FASTSHA_SHA512)
					die("unknown algorithm in '%s' (sha1, sha224, sha256, sha384, sha512)", v);
				o->algs[o->nalgs++] = (fastsha_alg)alg;
			}
			i++;
		} else if (strcmp(a, "--jobs") == 0) {
			o->jobs = v;
			i++;
		} else if (strcmp(a, "--reps") == 0) {
			o->reps = (unsigned)strtoul(v, NULL, 10);
			if (o->reps < 1 || o->reps > 1000)
				die("bad --reps '%s' (1..1000)", v);
			i++;
		} else if (strcmp(a, "--sample-ms") == 0) {
			o->sample_s = strtod(v, NULL) * 1e-3;
			if (!(o->sample_s > 0 && o->sample_s <= 10))
				die("bad --sample-ms '%s'", v);
			i++;
		} else {
			fprintf(stderr, "fastsha-bench %s: unknown option '%s'\n", mode, a);
			usage(stderr, sha3);
			exit(2);
		}
	}
}

/* The shared inputs, the clock and the report's head. */
static void setup(const char *mode, unsigned reps)
{
	bench_clock_init();
	avx512_cpu = runs_avx512();
	const size_t nbytes = 1024 * 4096 + (1u << 20);
	msgs = malloc(nbytes);
	if (!msgs)
		die("out of memory for %s", "messages");
	for (size_t i = 0; i < nbytes; i++)
		msgs[i] = (uint8_t)(i * 131 + 7);
	for (size_t i = 0; i < sizeof(key); i++)
		key[i] = (uint8_t)(0x0b + i);
	for (size_t i = 0; i < sizeof(salt); i++)
		salt[i] = (uint8_t)i;
	for (size_t i = 0; i < 1024; i++)
		batch[i] = (fastsha_msg){ msgs + 64 * i, 64 };
	for (size_t i = 0; i < NPW; i++) {
		pws[i] = (fastsha_msg){ msgs + 97 * i, 8 + i };
		salts[i] = (fastsha_msg){ msgs + 4000 + 16 * i, 16 };
	}
	char model[128];
	cpuinfo("model name", model, sizeof(model), "unknown CPU");
	double hz = estimate_hz();
	printf("fastsha-bench %s: %s, about %.2f GHz (dependent adds); %s; OpenSSL %s\n", mode,
	       model, hz / 1e9, bench_clock_name(),
	       bench_openssl_version() ? bench_openssl_version() : "not built in");
	printf("ratio = the other side's time / ours (median of %u alternating repetitions)\n",
	       reps);
	printf("%-11s %-10s %-11s %14s %14s %8s %6s  %s\n", "job", "alg", "backend", "ours", "other",
	       "ratio", "IQR", avx512_cpu ? "target (AVX-512 CPU)" : "target (no AVX-512)");
}

/* Job @j timed against its other side and printed; @backend names ours. */
static void run_one(const struct job *j, const char *backend, unsigned reps, double sample_s)
{
	if (!agree(j))
		die("%s: fastsha and OpenSSL disagree", j->name);
	double ours[1000], theirs[1000], ratio[1000];
	unsigned c0 = 0, c1 = 0;
	for (unsigned r = 0; r < reps; r++) {
		int first = r & 1;
		double t[2];
		t[first] = time_job(j, first, sample_s, first ? &c1 : &c0);
		t[!first] = time_job(j, !first, sample_s, !first ? &c1 : &c0);
		ours[r] = t[0], theirs[r] = t[1], ratio[r] = t[1] / t[0];
	}
	double q1 = quantile(ratio, reps, 0.25), q3 = quantile(ratio, reps, 0.75);
	double med = quantile(ratio, reps, 0.5);
	double o = quantile(ours, reps, 0.5), th = quantile(theirs, reps, 0.5);
	const char *unit = o > 1e-3 ? "ms" : "us";
	double sc = o > 1e-3 ? 1e3 : 1e6;
	printf("%-11s %-10s %-11s %11.3f %s %11.3f %s %8.2f %6.2f", j->name,
	       fastsha_alg_name(j->alg), backend, o * sc, unit, th * sc, unit, med, q3 - q1);
	const double goal = target_of(j->name, j->alg, avx512_cpu);
	if (goal > 0)
		printf("  >=%-5.2f %s\n", goal, med >= goal ? "met" : "NOT met");
	else
		printf("  -\n");
	fflush(stdout);
}

int bench_mac_main(int argc, char **argv)
{
	struct jopts o;
	parse(&o, argc, argv, 0);
	setup("--mac", o.reps);
#ifdef FASTSHA_BENCH_OPENSSL
	kdf = EVP_KDF_fetch(NULL, "HKDF", NULL);
#endif
	const uint32_t pbkdf2_iters = o.quick ? 10000 : 100000;
	for (size_t ai = 0; ai < o.nalgs; ai++) {
		fastsha_alg alg = o.algs[ai];
		size_t d = fastsha_alg_digest_size(alg);
		const struct job all[] = {
			{ "pbkdf2", alg, run_pbkdf2, d, pbkdf2_iters, 0 },
			{ "wpa2", alg, run_pbkdf2, 32, 4096, 0 },
			{ "pbkdf2x16", alg, run_pbkdf2_many, d, 10000, 0 },
			{ "hmac64", alg, run_hmac_raw, 64, 1, 0 },
			{ "hmac64k", alg, run_hmac_key, 64, 1, 0 },
			{ "hmac16k", alg, run_hmac_key, 16384, 1, 0 },
			{ "hmacx1024", alg, run_hmac_many, 64, 1024, 0 },
			{ "hkdf", alg, run_hkdf, 42, 1, 0 },
		};
		fastsha_hmac_key_init(&pkey, alg, key, sizeof(key));
#ifdef FASTSHA_BENCH_OPENSSL
		ossl_key(alg);
#endif
		for (size_t k = 0; k < sizeof(all) / sizeof(all[0]); k++) {
			const struct job *j = &all[k];
			if (!listed(o.jobs, j->name))
				continue;
			if ((strcmp(j->name, "wpa2") == 0 && alg != FASTSHA_SHA1) ||
			    (strcmp(j->name, "hkdf") == 0 && alg != FASTSHA_SHA256 && o.jobs == NULL))
				continue;
			int lanes = j->run == run_pbkdf2_many || j->run == run_hmac_many ||
				    j->name[0] == 'w';
			run_one(j, lanes ? fastsha_many_backend(alg) : fastsha_backend(alg), o.reps,
				o.sample_s);
		}
		fastsha_hmac_key_wipe(&pkey);
	}
#ifdef FASTSHA_BENCH_OPENSSL
	EVP_MAC_CTX_free(mctx);
	EVP_MAC_free(mac);
	EVP_KDF_CTX_free(kctx);
	EVP_KDF_free(kdf);
#endif
	free(msgs);
	return 0;
}

int bench_sha3_main(int argc, char **argv)
{
	struct jopts o;
	parse(&o, argc, argv, 1);
	setup("--sha3", o.reps);
	const struct job all[] = {
		{ "sha3-16k", FASTSHA_SHA3_256, run_sha3_one, 16384, 1, 0 },
		{ "sha3-1m", FASTSHA_SHA3_256, run_sha3_one, 1u << 20, 1, 0 },
		{ "sha3x1024", FASTSHA_SHA3_256, run_sha3_many, 4096, 1024, 0 },
		{ "shakex1024", FASTSHA_SHAKE128, run_sha3_many, 34, 1024, 0 },
		{ "k12-1m", FASTSHA_K12, run_sha3_one, 1u << 20, 1, 1 },
		{ "k12/sha256", FASTSHA_K12, run_k12_sha256, 1u << 20, 1, 1 },
		{ "keccakx1024", FASTSHA_KECCAK256, run_sha3_many, 64, 1024, 1 },
	};
	int others = 0;
	for (size_t k = 0; k < sizeof(all) / sizeof(all[0]); k++) {
		const struct job *j = &all[k];
		if (!listed(o.jobs, j->name))
			continue;
		int lanes = j->run == run_sha3_many || j->alg == FASTSHA_K12;
		run_one(j, lanes ? fastsha_many_backend(j->alg) : fastsha_backend(j->alg), o.reps,
			o.sample_s);
		others |= j->other;
	}
	if (others) /* the footnote of the rows that ran */
		printf("k12-1m and keccakx1024 against OpenSSL's SHA3-256 (it has neither), "
		       "k12/sha256\nagainst our SHA-256 of the same megabyte\n");
	free(msgs);
	return 0;
}
