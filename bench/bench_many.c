/* SPDX-License-Identifier: MIT */
/*
 * fastsha-bench --many: aggregate throughput of batches. The same n
 * messages are hashed four ways, alternating in one process:
 *
 *   many     fastsha_many(): one call for the whole batch, on the lanes;
 *   loop     our one-shot (fastsha256() ...) called once per message: the
 *            single-stream speed a caller without batches gets;
 *   OpenSSL  SHA256_Init/Update/Final per message (OpenSSL's fastest path
 *            on this CPU; the comparison the targets use);
 *   SHA256() OpenSSL's one-shot per message (in OpenSSL 3 it goes through
 *            EVP and fetches the digest each call: slower on short inputs).
 *
 * SHA3-224..512 too (-a sha3-256 ...): OpenSSL's side is then EVP on one
 * reused context per message (--sha3's way), and its one-shot
 * EVP_Digest() in the SHA*() column. The batch sizes at which a Keccak
 * lane row pays (its min_lanes, min_batch) come from these runs.
 *
 * What it measures is throughput: independent messages back to back, the
 * time for the whole batch divided into its bytes. It says nothing about
 * the latency of one message (fastsha-bench without --many does that).
 *
 * Batches: n messages of one size, or "mixed" (lengths drawn uniformly
 * from 1 B..16 KiB with a fixed seed, the same for every contender), back
 * to back in one buffer, so most start at odd addresses. Large batches of
 * large messages (1024 x 64 KiB = 64 MiB) do not fit in cache: memory
 * bandwidth is part of those figures, for every contender alike.
 *
 * A sample is a loop of whole batches calibrated to --sample-ms of thread
 * CPU time; each repetition times the four in a rotating order; figures are
 * medians over --reps, ratios medians of the per-repetition ratios.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fastsha/fastsha.h"

#include "bench_loops.h"
#include "bench_many.h"
#include "bench_util.h"

#define MAX_LIST 16
#define MIXED 0               /* the size value that means mixed lengths */
#define MIXED_MAX (16 << 10)  /* mixed lengths are 1..MIXED_MAX bytes */
#define MAX_N 65536

#define NC BENCH_CONTENDERS
static const char *const cname[NC] = { "many", "loop", "openssl", "openssl_oneshot" };

struct mopts {
	fastsha_alg algs[MAX_LIST];
	size_t nalgs;
	size_t ns[MAX_LIST], nn;
	size_t sizes[MAX_LIST], nsizes; /* MIXED for mixed lengths */
	unsigned reps;
	double sample_s;
	int json;
};

static void usage(FILE *f)
{
	fprintf(f, "usage: fastsha-bench --many [options]\n"
		   "  -a, --alg LIST      sha1, sha224, sha256, sha384, sha512, sha1dc,\n"
		   "                      sha3-224, sha3-256, sha3-384, sha3-512\n"
		   "                      (default sha1,sha256,sha512; sha1dc against\n"
		   "                      OpenSSL's plain SHA-1)\n"
		   "  --n LIST            batch sizes (default 1,2,8,64,1024)\n"
		   "  --sizes LIST        message sizes, 'mixed' for 1 B..16 KiB drawn at\n"
		   "                      random (default 64,256,1K,4K,16K,64K,mixed)\n"
		   "  --reps N            repetitions per point (default 9; quick 5)\n"
		   "  --sample-ms MS      one sample (default 20; quick 5)\n"
		   "  --quick             n 8,1024; sizes 64,4K,mixed\n"
		   "  --json              machine-readable (bench/plot.py draws it)\n");
}

static void parse_list(const char *s, size_t *out, size_t *count, int sizes)
{
	*count = 0;
	for (const char *p = s; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
		if (*count == MAX_LIST)
			die("too many values in '%s'", s);
		if (sizes && strncmp(p, "mixed", 5) == 0 && (p[5] == ',' || !p[5])) {
			out[(*count)++] = MIXED;
			continue;
		}
		size_t v = parse_size(p);
		if (!sizes && v > MAX_N)
			die("batch size too large in '%s' (at most 65536)", s);
		out[(*count)++] = v;
	}
}

static void parse_args(struct mopts *o, int argc, char **argv)
{
	static const size_t ns[] = { 1, 2, 8, 64, 1024 };
	static const size_t sizes[] = { 64, 256, 1024, 4096, 16384, 65536, MIXED };
	memset(o, 0, sizeof(*o));
	o->algs[0] = FASTSHA_SHA1, o->algs[1] = FASTSHA_SHA256, o->algs[2] = FASTSHA_SHA512;
	o->nalgs = 3;
	memcpy(o->ns, ns, sizeof(ns)), o->nn = sizeof(ns) / sizeof(ns[0]);
	memcpy(o->sizes, sizes, sizeof(sizes)), o->nsizes = sizeof(sizes) / sizeof(sizes[0]);
	o->reps = 9;
	o->sample_s = 20e-3;
	int reps_set = 0, ms_set = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			usage(stdout);
			exit(0);
		} else if (strcmp(a, "--json") == 0) {
			o->json = 1;
		} else if (strcmp(a, "--quick") == 0) {
			o->ns[0] = 8, o->ns[1] = 1024, o->nn = 2;
			o->sizes[0] = 64, o->sizes[1] = 4096, o->sizes[2] = MIXED, o->nsizes = 3;
			if (!reps_set)
				o->reps = 5;
			if (!ms_set)
				o->sample_s = 5e-3;
		} else if (!v) {
			die("%s: unknown option or missing value (try --many --help)", a);
		} else if (strcmp(a, "-a") == 0 || strcmp(a, "--alg") == 0) {
			o->nalgs = 0;
			for (const char *p = v; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
				char name[32];
				size_t len = strcspn(p, ",");
				int alg = -1;
				if (len < sizeof(name)) {
					memcpy(name, p, len);
					name[len] = '\0';
					alg = fastsha_alg_from_name(name);
				}
				/* fixed-size digests OpenSSL 3.0 has too */
				if (alg < 0 || alg == FASTSHA_SHA512_224 ||
				    alg == FASTSHA_SHA512_256 ||
				    (alg > FASTSHA_SHA1DC && alg != FASTSHA_SHA3_224 &&
				     alg != FASTSHA_SHA3_256 && alg != FASTSHA_SHA3_384 &&
				     alg != FASTSHA_SHA3_512))
					die("unknown algorithm in '%s' (sha1, sha224, sha256, sha384, "
					    "sha512, sha1dc, sha3-224, sha3-256, sha3-384, sha3-512)",
					    v);
				if (o->nalgs < MAX_LIST)
					o->algs[o->nalgs++] = (fastsha_alg)alg;
			}
			i++;
		} else if (strcmp(a, "--n") == 0) {
			parse_list(v, o->ns, &o->nn, 0);
			i++;
		} else if (strcmp(a, "--sizes") == 0) {
			parse_list(v, o->sizes, &o->nsizes, 1);
			i++;
		} else if (strcmp(a, "--reps") == 0) {
			o->reps = (unsigned)strtoul(v, NULL, 10);
			if (o->reps < 1 || o->reps > 1000)
				die("bad --reps '%s' (1..1000)", v);
			reps_set = 1;
			i++;
		} else if (strcmp(a, "--sample-ms") == 0) {
			o->sample_s = strtod(v, NULL) * 1e-3;
			if (!(o->sample_s > 0 && o->sample_s <= 10))
				die("bad --sample-ms '%s'", v);
			ms_set = 1;
			i++;
		} else {
			die("unknown option '%s' (try --many --help)", a);
		}
	}
}

static uint64_t calibrate(int who, fastsha_alg alg, const fastsha_msg *m, size_t n, uint8_t *out,
			  double target)
{
	uint64_t iters = 1;
	for (;;) {
		double t = bench_batch_time(who, alg, m, n, iters, out);
		if (t >= target / 8 || iters >= (UINT64_C(1) << 32)) {
			double want = (double)iters * target / (t > 1e-9 ? t : 1e-9);
			return want < 1 ? 1 : (uint64_t)want;
		}
		iters *= 4;
	}
}

/* xorshift64*: the mixed lengths and the data, the same in every run. */
static uint64_t rng(uint64_t *s)
{
	*s ^= *s >> 12, *s ^= *s << 25, *s ^= *s >> 27;
	return *s * UINT64_C(2685821657736338717);
}

struct result {
	size_t n, size, bytes;
	double mbps[NC];
	double ratio_ossl, ratio_ossl_q1, ratio_ossl_q3, ratio_loop, ratio_oneshot;
};

/* Quantile @q of many's speed over @who's, per repetition (@s: seconds per
 * pass, contender-major; @r: scratch). */
static double ratio(const double *s, double *r, unsigned reps, int who, double q)
{
	for (unsigned rep = 0; rep < reps; rep++)
		r[rep] = s[who * reps + rep] / s[BENCH_MANY * reps + rep];
	return quantile(r, reps, q);
}

static void measure(const struct mopts *o, fastsha_alg alg, size_t n, size_t size,
		    const uint8_t *buf, fastsha_msg *m, uint8_t *out, uint8_t *check,
		    struct result *R)
{
	uint64_t seed = UINT64_C(0x9e3779b97f4a7c15) ^ n;
	size_t off = 0;
	for (size_t i = 0; i < n; i++) {
		size_t len = size == MIXED ? 1 + (size_t)(rng(&seed) % MIXED_MAX) : size;
		m[i].data = buf + off;
		m[i].len = len;
		off += len;
	}
	int have[NC] = { 1, 1, 0, 0 };
#ifdef FASTSHA_BENCH_OPENSSL
	have[BENCH_OSSL] = have[BENCH_OSSL_ONE] = 1;
#endif
	/* Every contender must agree before any is timed. */
	const size_t ds = fastsha_alg_digest_size(alg);
	bench_batch_pass(BENCH_LOOP, alg, m, n, check);
	for (int c = 0; c < NC; c++) {
		if (!have[c] || c == BENCH_LOOP)
			continue;
		memset(out, 0, n * ds);
		bench_batch_pass(c, alg, m, n, out);
		if (memcmp(out, check, n * ds) != 0)
			die("%s: digests differ from the one-shot loop", cname[c]);
	}

	uint64_t iters[NC] = { 0 };
	for (int c = 0; c < NC; c++)
		if (have[c])
			iters[c] = calibrate(c, alg, m, n, out, o->sample_s);
	double *s = calloc((size_t)NC * o->reps, sizeof(double));
	double *r = calloc(o->reps, sizeof(double));
	if (!s || !r)
		die("%s", "out of memory");
	for (unsigned rep = 0; rep < o->reps; rep++)
		for (int k = 0; k < NC; k++) {
			int c = (int)((rep + (unsigned)k) % NC);
			if (have[c])
				s[c * o->reps + rep] = bench_batch_time(c, alg, m, n, iters[c], out) /
						       (double)iters[c];
		}
	R->n = n, R->size = size, R->bytes = off;
	for (int c = 0; c < NC; c++) {
		double t[1000];
		for (unsigned rep = 0; rep < o->reps; rep++)
			t[rep] = s[c * o->reps + rep];
		R->mbps[c] = have[c] ? (double)off / quantile(t, o->reps, 0.5) / 1e6 : 0;
	}
	/* Ratios: per repetition, then the median (a busy moment hits both). */
	R->ratio_loop = ratio(s, r, o->reps, BENCH_LOOP, 0.5);
	R->ratio_ossl = have[BENCH_OSSL] ? ratio(s, r, o->reps, BENCH_OSSL, 0.5) : 0;
	R->ratio_ossl_q1 = have[BENCH_OSSL] ? ratio(s, r, o->reps, BENCH_OSSL, 0.25) : 0;
	R->ratio_ossl_q3 = have[BENCH_OSSL] ? ratio(s, r, o->reps, BENCH_OSSL, 0.75) : 0;
	R->ratio_oneshot = have[BENCH_OSSL_ONE] ? ratio(s, r, o->reps, BENCH_OSSL_ONE, 0.5) : 0;
	free(s);
	free(r);
}

static void size_label(size_t size, char *out, size_t cap)
{
	if (size == MIXED)
		snprintf(out, cap, "mixed");
	else if (size >= 1024 && size % 1024 == 0)
		snprintf(out, cap, "%zuK", size >> 10);
	else
		snprintf(out, cap, "%zu", size);
}

int bench_many_main(int argc, char **argv)
{
	struct mopts o;
	parse_args(&o, argc, argv);

	size_t maxn = 0, maxbytes = 0;
	for (size_t i = 0; i < o.nn; i++) {
		maxn = o.ns[i] > maxn ? o.ns[i] : maxn;
		for (size_t j = 0; j < o.nsizes; j++) {
			size_t each = o.sizes[j] == MIXED ? MIXED_MAX : o.sizes[j];
			maxbytes = o.ns[i] * each > maxbytes ? o.ns[i] * each : maxbytes;
		}
	}
	uint8_t *buf = malloc(maxbytes + 1);
	fastsha_msg *m = malloc(maxn * sizeof(*m));
	uint8_t *out = malloc(maxn * FASTSHA_MAX_DIGEST_SIZE);
	uint8_t *check = malloc(maxn * FASTSHA_MAX_DIGEST_SIZE);
	struct result *res = malloc(o.nn * o.nsizes * sizeof(*res));
	if (!buf || !m || !out || !check || !res)
		die("%s", "out of memory");
	uint64_t seed = 1;
	for (size_t i = 0; i < maxbytes; i++)
		buf[i] = (uint8_t)(rng(&seed) >> 56);

	char model[256], date[32], load[64];
	cpuinfo("model name", model, sizeof(model), "unknown CPU");
	run_stamp(date, sizeof(date), load, sizeof(load));
	const char *ossl = bench_openssl_version();
	if (!ossl)
		ossl = "none (built without libcrypto)";
	double hz = estimate_hz();

	if (o.json)
		printf("{\n  \"bench\": \"many\",\n  \"fastsha\": \"%s\",\n  \"cpu\": \"%s\",\n"
		       "  \"openssl\": \"%s\",\n  \"date\": \"%s\",\n  \"load\": \"%s\",\n"
		       "  \"clock_ghz\": %.3f,\n  \"reps\": %u,\n  \"sample_ms\": %.3g,\n"
		       "  \"algs\": [",
		       fastsha_version(), model, ossl, date, load, hz * 1e-9, o.reps,
		       o.sample_s * 1e3);
	else
		printf("fastsha-bench %s --many: aggregate throughput of n messages, hashed by\n"
		       "  many     fastsha_many() (one call per batch, on the lanes)\n"
		       "  loop     our one-shot, one message after another\n"
		       "  OpenSSL  *_Init/Update/Final per message   SHA*()  OpenSSL's one-shot\n"
		       "machine  %s; %s\nopenssl  %s\nclock    ~%.3f GHz (dependent adds)\n"
		       "load     %s (before the run; the machine is shared)\n"
		       "method   %u reps of ~%.3g ms thread CPU time per contender and point, "
		       "rotating order; medians;\n"
		       "         ratios = median of per-rep ratios, many's speed over the other's; "
		       "MB = 10^6 bytes\n",
		       fastsha_version(), model, date, ossl, hz * 1e-9, load, o.reps,
		       o.sample_s * 1e3);

	for (size_t a = 0; a < o.nalgs; a++) {
		fastsha_alg alg = o.algs[a];
		size_t k = 0;
		for (size_t i = 0; i < o.nn; i++)
			for (size_t j = 0; j < o.nsizes; j++, k++)
				measure(&o, alg, o.ns[i], o.sizes[j], buf, m, out, check, &res[k]);
		const char *an = fastsha_alg_name(alg);
		if (o.json) {
			printf("%s\n    {\"alg\": \"%s\", \"many_backend\": \"%s\", \"lanes\": %u, "
			       "\"single_backend\": \"%s\", \"rows\": [",
			       a ? "," : "", an, fastsha_many_backend(alg), fastsha_many_lanes(alg),
			       fastsha_backend(alg));
			for (size_t i = 0; i < k; i++) {
				const struct result *R = &res[i];
				printf("%s\n      {\"n\": %zu, \"size\": ", i ? "," : "", R->n);
				if (R->size == MIXED)
					printf("\"mixed\"");
				else
					printf("%zu", R->size);
				printf(", \"bytes\": %zu", R->bytes);
				for (int c = 0; c < NC; c++)
					printf(", \"%s_mbps\": %.1f", cname[c], R->mbps[c]);
				printf(", \"ratio_openssl\": %.4f, \"ratio_openssl_q1\": %.4f, "
				       "\"ratio_openssl_q3\": %.4f, \"ratio_loop\": %.4f, "
				       "\"ratio_openssl_oneshot\": %.4f}",
				       R->ratio_ossl, R->ratio_ossl_q1, R->ratio_ossl_q3, R->ratio_loop,
				       R->ratio_oneshot);
			}
			printf("\n    ]}");
		} else {
			printf("\n%s: batches on %s (%u lanes), one message on %s%s\n", an,
			       fastsha_many_backend(alg), fastsha_many_lanes(alg), fastsha_backend(alg),
			       fastsha_alg_detects(alg) ? "; OpenSSL's columns: its plain SHA-1"
							 " (it has no SHA1DC)" : "");
			printf("%6s %6s %10s %10s %10s %10s  %-14s %8s %8s\n", "n", "size", "many MB/s",
			       "loop MB/s", "OpenSSL", "SHA*()", "many/OpenSSL", "/loop", "/SHA*()");
			for (size_t i = 0; i < k; i++) {
				const struct result *R = &res[i];
				char sl[24], iqr[48];
				size_label(R->size, sl, sizeof(sl));
				snprintf(iqr, sizeof(iqr), "%.2f (%.2f-%.2f)", R->ratio_ossl,
					 R->ratio_ossl_q1, R->ratio_ossl_q3);
				printf("%6zu %6s %10.0f %10.0f %10.0f %10.0f  %-14s %8.2f %8.2f\n", R->n,
				       sl, R->mbps[BENCH_MANY], R->mbps[BENCH_LOOP], R->mbps[BENCH_OSSL],
				       R->mbps[BENCH_OSSL_ONE], iqr, R->ratio_loop, R->ratio_oneshot);
			}
		}
	}
	if (o.json)
		printf("\n  ]\n}\n");
	free(buf);
	free(m);
	free(out);
	free(check);
	free(res);
	return 0;
}
