/* SPDX-License-Identifier: MIT */
/*
 * fastsha-bench --mac: keyed hashing and key derivation (fastsha/mac.h)
 * against OpenSSL 3's calls for the same job, each pair alternating in one
 * process on the same inputs:
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
 *               on a fetched KDF, a new context per derivation (what a
 *               program deriving keys per connection does).
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

#include "bench_mac.h"
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
};

/* Inputs shared by every job: a key, a salt, messages. */
static uint8_t key[32], salt[16], *msgs;
static uint8_t out[1 << 16];
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

/* The keyed EVP_MAC context the prepared-key jobs re-initialise. */
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
	EVP_KDF_CTX *c = EVP_KDF_CTX_new(kdf);
	OSSL_PARAM p[5];
	p[0] = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST,
						(char *)EVP_MD_get0_name(md_of(j->alg)), 0);
	p[1] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, key, 22);
	p[2] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, salt, 13);
	p[3] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, (void *)hkdf_info,
						 sizeof(hkdf_info));
	p[4] = OSSL_PARAM_construct_end();
	EVP_KDF_derive(c, out, j->len, p);
	EVP_KDF_CTX_free(c);
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
#ifdef FASTSHA_BENCH_OPENSSL
	size_t n = j->run == run_pbkdf2_many ? NPW * j->len
		   : j->run == run_hmac_many ? j->n * fastsha_alg_digest_size(j->alg)
		   : j->run == run_pbkdf2 || j->run == run_hkdf ? j->len
							       : fastsha_alg_digest_size(j->alg);
	static uint8_t a[sizeof(out)];
	j->run(j, 0);
	memcpy(a, out, n);
	j->run(j, 1);
	return memcmp(a, out, n) == 0;
#else
	(void)j;
	return 1;
#endif
}

static void usage(FILE *f)
{
	fprintf(f, "usage: fastsha-bench --mac [options]\n"
		   "  -a, --alg LIST      sha1, sha224, sha256, sha384, sha512 (default\n"
		   "                      sha1,sha256,sha512)\n"
		   "  --jobs LIST         pbkdf2, wpa2, pbkdf2x16, hmac64, hmac64k, hmac16k,\n"
		   "                      hmacx1024, hkdf (default all)\n"
		   "  --reps N            repetitions per job (default 9)\n"
		   "  --sample-ms MS      one sample (default 50)\n"
		   "  --quick             pbkdf2 at 10,000 iterations, 5 reps of 20 ms\n");
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

int bench_mac_main(int argc, char **argv)
{
	fastsha_alg algs[8] = { FASTSHA_SHA1, FASTSHA_SHA256, FASTSHA_SHA512 };
	size_t nalgs = 3;
	const char *jobs = NULL;
	unsigned reps = 9;
	double sample_s = 50e-3;
	uint32_t pbkdf2_iters = 100000;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			usage(stdout);
			return 0;
		} else if (strcmp(a, "--quick") == 0) {
			reps = 5, sample_s = 20e-3, pbkdf2_iters = 10000;
		} else if (!v) {
			die("%s: unknown option or missing value (try --mac --help)", a);
		} else if (strcmp(a, "-a") == 0 || strcmp(a, "--alg") == 0) {
			nalgs = 0;
			for (const char *p = v; p && nalgs < 8;
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
				algs[nalgs++] = (fastsha_alg)alg;
			}
			i++;
		} else if (strcmp(a, "--jobs") == 0) {
			jobs = v;
			i++;
		} else if (strcmp(a, "--reps") == 0) {
			reps = (unsigned)strtoul(v, NULL, 10);
			if (reps < 1 || reps > 1000)
				die("bad --reps '%s' (1..1000)", v);
			i++;
		} else if (strcmp(a, "--sample-ms") == 0) {
			sample_s = strtod(v, NULL) * 1e-3;
			if (!(sample_s > 0 && sample_s <= 10))
				die("bad --sample-ms '%s'", v);
			i++;
		} else {
			die("unknown option '%s' (try --mac --help)", a);
		}
	}
	bench_clock_init();
	msgs = malloc(1024 * 64 + 16384);
	for (size_t i = 0; i < 1024 * 64 + 16384; i++)
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
#ifdef FASTSHA_BENCH_OPENSSL
	kdf = EVP_KDF_fetch(NULL, "HKDF", NULL);
#endif
	char model[128];
	cpuinfo("model name", model, sizeof(model), "unknown CPU");
	double hz = estimate_hz();
	printf("fastsha-bench --mac: %s, about %.2f GHz (dependent adds); %s; OpenSSL %s\n", model,
	       hz / 1e9, bench_clock_name(),
	       bench_openssl_version() ? bench_openssl_version() : "not built in");
	printf("ratio = OpenSSL's time / ours (median of %u alternating repetitions)\n", reps);
	printf("%-10s %-7s %-9s %14s %14s %8s %6s\n", "job", "alg", "backend", "ours", "openssl",
	       "ratio", "IQR");
	for (size_t ai = 0; ai < nalgs; ai++) {
		fastsha_alg alg = algs[ai];
		size_t d = fastsha_alg_digest_size(alg);
		const struct job all[] = {
			{ "pbkdf2", alg, run_pbkdf2, d, pbkdf2_iters },
			{ "wpa2", alg, run_pbkdf2, 32, 4096 },
			{ "pbkdf2x16", alg, run_pbkdf2_many, d, 10000 },
			{ "hmac64", alg, run_hmac_raw, 64, 1 },
			{ "hmac64k", alg, run_hmac_key, 64, 1 },
			{ "hmac16k", alg, run_hmac_key, 16384, 1 },
			{ "hmacx1024", alg, run_hmac_many, 64, 1024 },
			{ "hkdf", alg, run_hkdf, 42, 1 },
		};
		fastsha_hmac_key_init(&pkey, alg, key, sizeof(key));
#ifdef FASTSHA_BENCH_OPENSSL
		ossl_key(alg);
#endif
		for (size_t k = 0; k < sizeof(all) / sizeof(all[0]); k++) {
			const struct job *j = &all[k];
			if (!listed(jobs, j->name))
				continue;
			if ((strcmp(j->name, "wpa2") == 0 && alg != FASTSHA_SHA1) ||
			    (strcmp(j->name, "hkdf") == 0 && alg != FASTSHA_SHA256 && jobs == NULL))
				continue;
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
			printf("%-10s %-7s %-9s %11.3f %s %11.3f %s %8.2f %6.2f\n", j->name,
			       fastsha_alg_name(alg),
			       j->run == run_pbkdf2_many || j->run == run_hmac_many ||
					       j->name[0] == 'w'
				       ? fastsha_many_backend(alg)
				       : fastsha_backend(alg),
			       o * sc, unit, th * sc, unit, med, q3 - q1);
			fflush(stdout);
		}
		fastsha_hmac_key_wipe(&pkey);
	}
#ifdef FASTSHA_BENCH_OPENSSL
	EVP_MAC_CTX_free(mctx);
	EVP_MAC_free(mac);
	EVP_KDF_free(kdf);
#endif
	free(msgs);
	return 0;
}
