/* SPDX-License-Identifier: MIT */
/*
 * fastsha-bench. With no option (or --quick, what `make` runs) it prints
 * the first screen, bench_quick.c: a line per algorithm, the backend this
 * CPU uses against OpenSSL's default code. This file is --all: every
 * single-message backend this CPU runs for SHA-1, SHA-256 and SHA-512 (and
 * SHA-224/384, SHA1DC on request), each next to OpenSSL's matching code
 * path, and every lane backend as batches (run_lanes()). Public API only:
 * the backends are found at run time (fastsha_backend_count/name/
 * supported/lanes) and chosen with fastsha_use_backend(), so a new backend
 * needs no change here.
 *
 * How a figure is made (docs/benchmarks.md says how to read them):
 * - ours is the one-shot call users make (fastsha1(), fastsha256(), ...);
 *   OpenSSL is its low-level SHA1_Init/Update/Final (SHA256_*, SHA512_*).
 *   Not SHA1() or EVP: in OpenSSL 3 those go through the provider layer,
 *   ~4x slower on small inputs, and beating that would prove nothing.
 * - libcrypto picks its code once, at init, from OPENSSL_ia32cap. So each
 *   (algorithm, OpenSSL path) is measured in a child process (this program
 *   run again with --child and the variable set), which also times the
 *   backends paired with that path: each ratio comes from one process.
 *   Backends with no OpenSSL counterpart (reference) are timed alone.
 * - In a child, ours and OpenSSL hash the same buffer alternately (who goes
 *   first flips every repetition); a sample is a loop calibrated to
 *   --sample-ms. We quote medians over --reps samples; the ratio is the
 *   median of the per-repetition ratios, its spread their interquartile range.
 * - Cycles/byte use a clock estimated once from a chain of dependent adds
 *   (one cycle each): this machine has no cycle counters we may read.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fastsha/fastsha.h"

#include "bench_dirty.h"
#include "bench_jobs.h"
#include "bench_many.h"
#include "bench_loops.h"
#include "bench_quick.h"
#include "bench_util.h"

#define MAX_SIZES 32
#define MAX_BACKENDS 64
#define MAX_ALGS 8
#define MB 1e6 /* MB/s means 10^6 bytes per second, as OpenSSL's speed does */

/*
 * OpenSSL's code paths and the OPENSSL_ia32cap that selects each, per
 * family. "~X" clears the bits of X; give both words: OpenSSL 3.0 zeroes
 * the second word when the value has no ':' (which would also turn AVX2
 * off). An empty value would clear everything, so "unset" (NULL) is how we
 * ask for the native choice.
 */
struct ossl_path {
	const char *name;
	const char *cap;       /* OPENSSL_ia32cap for the child; NULL: unset */
	const char *not_intel; /* what OpenSSL runs instead off Intel, or NULL */
	int forced;            /* cap given by --openssl-cap */
};

#if defined(__x86_64__) || defined(_M_X64)
/*
 * sha1-x86_64.pl and the SHA-256 half of sha512-x86_64.pl dispatch alike,
 * on OPENSSL_ia32cap_P: SHA (word 1 bit 29) -> SHA-NI; AVX2+BMI1+BMI2
 * (word 1 bits 5, 3, 8) -> AVX2; AVX (word 0 bit 60) with the "Intel CPU"
 * bit (word 0 bit 30) -> AVX; SSSE3 (word 0 bit 41) -> SSSE3; else scalar.
 * Checked on OpenSSL 3.0.19 by single-stepping SHA256_Update in gdb under
 * each value below (docs/benchmarks.md).
 */
static struct ossl_path paths_sha1[] = {
	{ "SHA-NI", NULL, NULL, 0 },
	{ "AVX2", ":~0x20000000", NULL, 0 },
	{ "AVX", ":~0x20000020", "SSSE3", 0 },
	{ "SSSE3", "~0x1000000000000000:~0x20000020", NULL, 0 },
	{ "scalar", "~0x20000000000:~0x20000020", NULL, 0 }, /* the default: last */
};
static struct ossl_path paths_sha256[] = {
	{ "SHA-NI", NULL, NULL, 0 },
	{ "AVX2", ":~0x20000000", NULL, 0 },
	{ "AVX", ":~0x20000020", "SSSE3", 0 },
	{ "SSSE3", "~0x1000000000000000:~0x20000020", NULL, 0 },
	{ "scalar", "~0x20000000000:~0x20000020", NULL, 0 },
};
/*
 * SHA-512 (sha512-x86_64.pl, same checks): XOP (word 0 bit 43, AMD before
 * Zen) -> XOP; AVX2+BMI1+BMI2 -> AVX2; AVX with SSSE3 and the "Intel CPU"
 * bit -> AVX; else scalar (there is no SSSE3 or SHA-NI SHA-512 code). XOP
 * is cleared everywhere so that no path turns into the XOP one.
 */
static struct ossl_path paths_sha512[] = {
	{ "AVX2", "~0x80000000000:~0x20000000", NULL, 0 },
	{ "AVX", "~0x80000000000:~0x20000020", "scalar", 0 },
	{ "scalar", "~0xa0000000000:~0x20000020", NULL, 0 },
};
#else
/* Elsewhere OPENSSL_ia32cap means nothing: compare with whatever libcrypto
 * picks natively. */
static struct ossl_path paths_sha1[] = { { "native", NULL, NULL, 0 } };
static struct ossl_path paths_sha256[] = { { "native", NULL, NULL, 0 } };
static struct ossl_path paths_sha512[] = { { "native", NULL, NULL, 0 } };
#endif
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/*
 * Which OpenSSL path each of our single-message backends is measured
 * against, by name in every family; a path the family lacks, or a backend
 * not listed (a new one, armv8), goes with the family's last path (scalar,
 * or native). reference has no counterpart: it is timed alone. Lane
 * backends pair with no path: they run batches (run_lanes()).
 */
static const struct {
	const char *backend, *path;
} pairing[] = {
	{ "shani", "SHA-NI" }, { "shani_avx512", "SHA-NI" }, { "avx2", "AVX2" }, { "avx2_vl", "AVX2" }, { "avx", "AVX" },
	{ "ssse3", "SSSE3" },  { "portable", "scalar" }, { "reference", NULL },
};

/* The algorithms we time: ours and OpenSSL's calls, and OpenSSL's paths. */
struct algo {
	fastsha_alg alg;
	const char *label, *ours, *theirs;
	struct ossl_path *paths;
	size_t npaths;
};

static const struct algo algos[] = {
	{ FASTSHA_SHA1, "SHA-1", "fastsha1()", "SHA1_Init/SHA1_Update/SHA1_Final", paths_sha1,
	  COUNT(paths_sha1) },
	{ FASTSHA_SHA224, "SHA-224", "fastsha224()", "SHA224_Init/SHA224_Update/SHA224_Final",
	  paths_sha256, COUNT(paths_sha256) },
	{ FASTSHA_SHA256, "SHA-256", "fastsha256()", "SHA256_Init/SHA256_Update/SHA256_Final",
	  paths_sha256, COUNT(paths_sha256) },
	{ FASTSHA_SHA384, "SHA-384", "fastsha384()", "SHA384_Init/SHA384_Update/SHA384_Final",
	  paths_sha512, COUNT(paths_sha512) },
	{ FASTSHA_SHA512, "SHA-512", "fastsha512()", "SHA512_Init/SHA512_Update/SHA512_Final",
	  paths_sha512, COUNT(paths_sha512) },
	/* OpenSSL has no SHA1DC: it is set against OpenSSL's plain SHA-1, which
	 * is what a user of SHA1DC gives up (-a sha1,sha1dc shows both). */
	{ FASTSHA_SHA1DC, "SHA1DC", "fastsha1dc()",
	  "SHA1_Init/SHA1_Update/SHA1_Final (plain SHA-1: OpenSSL has no SHA1DC)", paths_sha1,
	  COUNT(paths_sha1) },
};
static const fastsha_alg default_algs[] = { FASTSHA_SHA1, FASTSHA_SHA256, FASTSHA_SHA512 };

struct opts {
	const struct algo *algs[MAX_ALGS]; /* in the order asked for */
	size_t nalgs;
	const char *backends; /* comma list, or NULL for all this CPU runs */
	size_t sizes[MAX_SIZES];
	size_t nsizes;
	unsigned reps;
	double sample_s;
	int json, quick, list, rank;
	int detail;             /* --all, or an option only the tables take */
	unsigned reps_given;    /* --reps as given, 0 if not (for the report) */
	double sample_given;    /* --sample-ms as given, in seconds, or 0 */
	size_t batch_sizes[MAX_SIZES]; /* --all's lane rows: 1024 messages of each */
	size_t nbatch;
	const char *child_path; /* --child: we are a measuring child */
};

/* One measured point: seconds per message (medians) and the paired ratio. */
struct point {
	int done;
	double ours_s, ours_q1, ours_q3;
	double theirs_s;
	double ratio, ratio_q1, ratio_q3;
};

static const size_t default_sizes[] = { 16, 64, 256, 1024, 8192, 16384, 1048576 };
/* --all --quick: three sizes keep it to seconds a family. */
static const size_t quick_sizes[] = { 64, 1024, 16384 };
/* Lane rows run batches of this many messages, of the summary's sizes
 * (docs/benchmarks.md), or of the --sizes given up to LANE_MAX_SIZE. */
#define LANE_N 1024
#define LANE_MAX_SIZE 16384
static const size_t lane_sizes[] = { 64, 4096 };

/* How many messages make one sample of about target seconds. */
static uint64_t calibrate(bench_one_fn f, fastsha_alg alg, const uint8_t *buf, size_t n,
			  double target)
{
	uint8_t out[FASTSHA_MAX_DIGEST_SIZE];
	uint64_t iters = 1;
	for (;;) {
		double t = f(alg, buf, n, iters, out);
		if (t >= target / 8 || iters >= (UINT64_C(1) << 40)) {
			double k = target / (t > 1e-9 ? t : 1e-9);
			double want = (double)iters * k;
			return want < 1 ? 1 : (uint64_t)want;
		}
		iters *= 4;
	}
}

/*
 * A check on that estimate: a 64-bit imul has a 3-cycle latency on current
 * x86-64 cores (Intel since Nehalem, AMD Zen), so a chain of them should
 * take 3.0 estimated cycles each. Were the adds fused or eliminated, it
 * would read 6 or more. 0 when not measured.
 */
static double imul_cycles(double hz)
{
#if defined(__GNUC__) && defined(__x86_64__)
#define MUL1 __asm__ volatile("imul %0, %0" : "+r"(y));
#define MUL8 MUL1 MUL1 MUL1 MUL1 MUL1 MUL1 MUL1 MUL1
	double c[7];
	if (hz <= 0)
		return 0;
	for (int r = 0; r < 7; r++) {
		uint64_t y = 3, n = 200000;
		double t0 = now_s();
		for (uint64_t i = 0; i < n; i++) {
			MUL8 MUL8
		}
		c[r] = (now_s() - t0) * hz / (16.0 * (double)n);
		sink ^= (uint8_t)y;
	}
	return quantile(c, 7, 0.5); /* median, as for the clock itself */
#else
	(void)hz;
	return 0;
#endif
}

/* The OpenSSL path backend is measured against under A, or NULL: alone. */
static const struct ossl_path *path_of(const struct algo *A, const char *backend)
{
	for (size_t i = 0; i < COUNT(pairing); i++) {
		if (strcmp(pairing[i].backend, backend) != 0)
			continue;
		if (!pairing[i].path)
			return NULL;
		for (size_t p = 0; p < A->npaths; p++)
			if (strcmp(A->paths[p].name, pairing[i].path) == 0)
				return &A->paths[p];
	}
	return &A->paths[A->npaths - 1];
}

/* Whether path p runs other code than its name says on this CPU (vendor). */
static int path_differs(const struct ossl_path *p, const char *vendor)
{
	return p && p->not_intel && !p->forced && strcmp(vendor, "GenuineIntel") != 0;
}

static const struct algo *algo_of(fastsha_alg alg)
{
	for (size_t i = 0; i < COUNT(algos); i++)
		if (algos[i].alg == alg)
			return &algos[i];
	return NULL;
}

static void parse_sizes(struct opts *o, const char *s)
{
	o->nsizes = 0;
	for (;;) {
		if (o->nsizes == MAX_SIZES)
			die("too many sizes in '%s'", s);
		o->sizes[o->nsizes++] = parse_size(s);
		s = strchr(s, ',');
		if (!s)
			break;
		s++;
	}
}

/* -a sha256,sha512: names as fastsha_alg_from_name() takes them. */
static void parse_algs(struct opts *o, const char *s)
{
	o->nalgs = 0;
	for (const char *p = s; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
		char name[32];
		size_t len = strcspn(p, ",");
		if (len >= sizeof(name))
			die("unknown algorithm in '%s'", s);
		memcpy(name, p, len);
		name[len] = '\0';
		int alg = fastsha_alg_from_name(name);
		if (alg == FASTSHA_SHA512_224 || alg == FASTSHA_SHA512_256)
			die("%s: same compression as sha512 and OpenSSL has no low-level API "
			    "for it; time sha512", name);
		const struct algo *A = alg < 0 ? NULL : algo_of((fastsha_alg)alg);
		if (!A)
			die("unknown algorithm '%s' (sha1, sha224, sha256, sha384, sha512, sha1dc)", name);
		int dup = 0;
		for (size_t i = 0; i < o->nalgs; i++)
			dup |= o->algs[i] == A;
		if (!dup && o->nalgs < MAX_ALGS)
			o->algs[o->nalgs++] = A;
	}
}

/* Whether backend name is in the comma list (NULL list: yes). */
static int in_list(const char *list, const char *name)
{
	if (!list)
		return 1;
	size_t len = strlen(name);
	for (const char *p = list; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (strncmp(p, name, len) == 0 && (p[len] == ',' || p[len] == '\0'))
			return 1;
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: fastsha-bench [options]\n"
		"With no option: one line per algorithm, the backend this CPU uses against\n"
		"OpenSSL's default code, for one message (64 B, 1 KiB, 16 KiB) and for\n"
		"batches of 1024 (64 B, 4 KiB). The per-backend tables are --all's.\n"
		"  --quick             fewer, shorter samples (what `make` runs): 5 reps of\n"
		"                      ~3 ms; with --all also sizes 64,1K,16K\n"
		"  --reps N            samples per point (default 11, --all 15; quick 5)\n"
		"  --sample-ms MS      length of one sample (default 10, --all 20; quick 3)\n"
		"  --all               every backend this CPU runs, one message against\n"
		"                      OpenSSL's matching path; lane backends as batches of\n"
		"                      1024 against OpenSSL's default code. The options below\n"
		"                      are the tables' and imply --all:\n"
		"  -a, --alg LIST      algorithms, comma-separated: sha1, sha224, sha256,\n"
		"                      sha384, sha512, sha1dc (default sha1,sha256,sha512;\n"
		"                      sha1dc against OpenSSL's plain SHA-1)\n"
		"  --sizes LIST        message sizes, e.g. 16,64,1K,1M\n"
		"                      (default 16,64,256,1024,8192,16384,1M; lane rows:\n"
		"                      the sizes up to 16K, default 64,4K)\n"
		"  --backend LIST      only these backends (comma-separated, any algorithm)\n"
		"  --openssl-cap [FAMILY:]PATH=VALUE\n"
		"                      use OPENSSL_ia32cap=VALUE for OpenSSL path PATH (of\n"
		"                      family sha1, sha256 or sha512; default: all of them)\n"
		"  --json              machine-readable output (for bench/plot.py)\n"
		"  --list              backends, whether this CPU runs them, OpenSSL path\n"
		"  --rank              our single-message backends against each other,\n"
		"                      round-robin in one process (checks the library's\n"
		"                      preference order)\n"
		"  --many [OPTIONS]    batches: fastsha_many() against one message at a time\n"
		"                      (ours and OpenSSL's); --many --help lists its options\n"
		"  --dirty [OPTIONS]   calls after the caller left the ymm upper halves dirty,\n"
		"                      against clean; --dirty --help lists its options\n");
}

/* --openssl-cap [FAMILY:]PATH=VALUE */
static void parse_cap(const char *v)
{
	const char *eq = strchr(v, '=');
	const char *colon = memchr(v, ':', eq ? (size_t)(eq - v) : 0);
	const char *pname = colon ? colon + 1 : v;
	const struct algo *only = NULL;
	if (colon) {
		char fam[32];
		size_t len = (size_t)(colon - v);
		int alg = -1;
		if (len < sizeof(fam)) {
			memcpy(fam, v, len);
			fam[len] = '\0';
			alg = fastsha_alg_from_name(fam);
		}
		only = alg < 0 ? NULL : algo_of((fastsha_alg)alg);
		if (!only)
			die("--openssl-cap: unknown family in '%s' (sha1, sha256, sha512)", v);
	}
	int found = 0;
	for (size_t a = 0; eq && eq[1] && a < COUNT(algos); a++) {
		if (only && algos[a].paths != only->paths)
			continue;
		for (size_t k = 0; k < algos[a].npaths; k++) {
			struct ossl_path *p = &algos[a].paths[k];
			if (strlen(p->name) == (size_t)(eq - pname) &&
			    strncmp(p->name, pname, (size_t)(eq - pname)) == 0) {
				p->cap = eq + 1;
				p->forced = 1;
				found = 1;
			}
		}
	}
	if (!found)
		die("--openssl-cap wants [FAMILY:]PATH=VALUE with a known path and a "
		    "non-empty value, not '%s' (--list shows the paths)", v);
}

static void parse_args(struct opts *o, int argc, char **argv)
{
	memset(o, 0, sizeof(*o));
	int reps_set = 0, sample_set = 0, sizes_set = 0;
	for (size_t i = 0; i < COUNT(default_algs); i++)
		o->algs[o->nalgs++] = algo_of(default_algs[i]);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define NEED_VALUE() do { if (!v) die("%s needs a value", a); i++; } while (0)
		/* Every option but --quick, --reps and --sample-ms belongs to
		 * the per-backend tables: it implies --all. */
		o->detail |= strcmp(a, "--quick") != 0 && strcmp(a, "--reps") != 0 &&
			     strcmp(a, "--sample-ms") != 0;
		if (strcmp(a, "--quick") == 0) {
			o->quick = 1;
		} else if (strcmp(a, "--all") == 0) {
			/* the tables: o->detail is set */
		} else if (strcmp(a, "--json") == 0) {
			o->json = 1;
		} else if (strcmp(a, "--list") == 0) {
			o->list = 1;
		} else if (strcmp(a, "--rank") == 0) {
			o->rank = 1;
		} else if (strcmp(a, "-a") == 0 || strcmp(a, "--alg") == 0) {
			NEED_VALUE();
			parse_algs(o, v);
		} else if (strcmp(a, "--reps") == 0) {
			NEED_VALUE();
			char *end;
			long r = strtol(v, &end, 10);
			if (*end || r < 1 || r > 100000)
				die("bad --reps '%s'", v);
			o->reps = o->reps_given = (unsigned)r;
			reps_set = 1;
		} else if (strcmp(a, "--sample-ms") == 0) {
			NEED_VALUE();
			char *end;
			double ms = strtod(v, &end);
			if (*end || !(ms > 0 && ms <= 10000))
				die("bad --sample-ms '%s'", v);
			o->sample_s = o->sample_given = ms * 1e-3;
			sample_set = 1;
		} else if (strcmp(a, "--sizes") == 0) {
			NEED_VALUE();
			parse_sizes(o, v);
			sizes_set = 1;
		} else if (strcmp(a, "--backend") == 0) {
			NEED_VALUE();
			o->backends = v;
		} else if (strcmp(a, "--openssl-cap") == 0) {
			NEED_VALUE();
			parse_cap(v);
		} else if (strcmp(a, "--child") == 0) {
			NEED_VALUE();
			o->child_path = v;
		} else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			usage(stdout);
			exit(0);
		} else {
			usage(stderr);
			die("unknown option '%s'", a);
		}
#undef NEED_VALUE
	}
	if (!reps_set)
		o->reps = o->quick ? 5 : 15;
	if (!sample_set)
		o->sample_s = o->quick ? 3e-3 : 20e-3;
	if (!sizes_set) {
		const size_t *s = o->quick ? quick_sizes : default_sizes;
		o->nsizes = o->quick ? COUNT(quick_sizes) : COUNT(default_sizes);
		memcpy(o->sizes, s, o->nsizes * sizeof(*s));
	}
	if (!sizes_set) {
		o->nbatch = COUNT(lane_sizes);
		memcpy(o->batch_sizes, lane_sizes, sizeof(lane_sizes));
	}
	for (size_t k = 0; sizes_set && k < o->nsizes; k++)
		if (o->sizes[k] <= LANE_MAX_SIZE)
			o->batch_sizes[o->nbatch++] = o->sizes[k];
}

/* A buffer of the largest size, filled with xorshift noise (and so paged in). */
static uint8_t *make_buffer(const struct opts *o)
{
	size_t max = 0;
	for (size_t i = 0; i < o->nsizes; i++)
		if (o->sizes[i] > max)
			max = o->sizes[i];
	uint8_t *buf = malloc(max);
	if (!buf)
		die("out of memory for a %s buffer", "message");
	uint64_t s = 0x9e3779b97f4a7c15u;
	for (size_t i = 0; i < max; i++) {
		s ^= s << 13, s ^= s >> 7, s ^= s << 17;
		buf[i] = (uint8_t)(s >> 24);
	}
	return buf;
}

/*
 * Time each listed backend of algorithm A, against the OpenSSL path this
 * process was started with when with_ossl (--child mode), else alone, and
 * write one "row" line per backend and size to out.
 */
static int measure(const struct opts *o, const struct algo *A, int with_ossl, FILE *out)
{
	const fastsha_alg alg = A->alg;
	const size_t dlen = fastsha_alg_digest_size(alg);
	uint8_t *buf = make_buffer(o);
	double *ours = malloc(o->reps * sizeof(double));
	double *theirs = malloc(o->reps * sizeof(double));
	double *ratio = malloc(o->reps * sizeof(double));
	if (!ours || !theirs || !ratio)
		die("out of memory for %s", "samples");
#ifndef FASTSHA_BENCH_OPENSSL
	(void)with_ossl;
#endif

	for (size_t b = 0; b < fastsha_backend_count(alg); b++) {
		const char *name = fastsha_backend_name(alg, b);
		if (!in_list(o->backends, name))
			continue;
		if (fastsha_use_backend(alg, name) != FASTSHA_SELECT_OK)
			die("backend %s cannot run here", name);

		/* A fast wrong answer proves nothing: check every size first,
		 * against the spec-literal backend (portable if it was left out),
		 * and OpenSSL's answer from the very calls we time. */
		for (size_t k = 0; k < o->nsizes; k++) {
			uint8_t want[FASTSHA_MAX_DIGEST_SIZE], got[FASTSHA_MAX_DIGEST_SIZE];
			if (fastsha_use_backend(alg, "reference") != FASTSHA_SELECT_OK)
				fastsha_use_backend(alg, "portable");
			bench_one_ours(alg, buf, o->sizes[k], 1, want);
			fastsha_use_backend(alg, name);
			bench_one_ours(alg, buf, o->sizes[k], 1, got);
			if (memcmp(want, got, dlen) != 0)
				die("backend %s gives a wrong digest; not timing it", name);
#ifdef FASTSHA_BENCH_OPENSSL
			if (with_ossl) {
				bench_one_openssl(alg, buf, o->sizes[k], 1, got);
				if (memcmp(want, got, dlen) != 0)
					die("OpenSSL and the reference backend disagree (%s)",
					    A->label);
			}
#endif
		}

		uint64_t it_ours[MAX_SIZES];
#ifdef FASTSHA_BENCH_OPENSSL
		uint64_t it_theirs[MAX_SIZES] = { 0 };
#endif
		for (size_t k = 0; k < o->nsizes; k++) {
			it_ours[k] = calibrate(bench_one_ours, alg, buf, o->sizes[k], o->sample_s);
#ifdef FASTSHA_BENCH_OPENSSL
			if (with_ossl)
				it_theirs[k] =
					calibrate(bench_one_openssl, alg, buf, o->sizes[k], o->sample_s);
#endif
		}

		/* Repetitions outermost, so a burst of noise from the shared
		 * machine spreads over all sizes instead of spoiling one. */
		double *s_ours = malloc(o->nsizes * o->reps * sizeof(double));
		double *s_theirs = malloc(o->nsizes * o->reps * sizeof(double));
		if (!s_ours || !s_theirs)
			die("out of memory for %s", "samples");
		for (unsigned r = 0; r < o->reps; r++) {
			for (size_t k = 0; k < o->nsizes; k++) {
				uint8_t d[FASTSHA_MAX_DIGEST_SIZE];
				size_t n = o->sizes[k];
				double to, tt = 0;
#ifdef FASTSHA_BENCH_OPENSSL
				if (with_ossl && (r & 1)) {
					tt = bench_one_openssl(alg, buf, n, it_theirs[k], d);
					to = bench_one_ours(alg, buf, n, it_ours[k], d);
				} else if (with_ossl) {
					to = bench_one_ours(alg, buf, n, it_ours[k], d);
					tt = bench_one_openssl(alg, buf, n, it_theirs[k], d);
				} else {
					to = bench_one_ours(alg, buf, n, it_ours[k], d);
				}
				if (with_ossl)
					tt /= (double)it_theirs[k];
#else
				to = bench_one_ours(alg, buf, n, it_ours[k], d);
#endif
				s_ours[k * o->reps + r] = to / (double)it_ours[k];
				s_theirs[k * o->reps + r] = tt;
			}
		}

		for (size_t k = 0; k < o->nsizes; k++) {
			for (unsigned r = 0; r < o->reps; r++) {
				ours[r] = s_ours[k * o->reps + r];
				theirs[r] = s_theirs[k * o->reps + r];
				ratio[r] = ours[r] > 0 ? theirs[r] / ours[r] : 0;
			}
			double rm = quantile(ratio, o->reps, 0.5);
			double r1 = quantile(ratio, o->reps, 0.25);
			double r3 = quantile(ratio, o->reps, 0.75);
			double om = quantile(ours, o->reps, 0.5);
			double o1 = quantile(ours, o->reps, 0.25);
			double o3 = quantile(ours, o->reps, 0.75);
			double tm = quantile(theirs, o->reps, 0.5);
			fprintf(out, "row %s %zu %.6e %.6e %.6e %.6e %.6e %.6e %.6e\n", name,
				o->sizes[k], om, o1, o3, tm, rm, r1, r3);
		}
		free(s_ours);
		free(s_theirs);
	}
	fflush(out);
	free(buf);
	free(ours);
	free(theirs);
	free(ratio);
	return 0;
}

/*
 * --rank: our backends of one algorithm against each other, in this one
 * process, taking turns sample by sample (the first to go rotates), so the
 * order they come out in is not an artefact of one process getting a
 * quieter moment than another. This is what the table's order should follow.
 */
static int rank_main(const struct opts *o, const struct algo *A, const char **names, size_t nb,
		     double hz)
{
	const fastsha_alg alg = A->alg;
	uint8_t *buf = make_buffer(o), d[FASTSHA_MAX_DIGEST_SIZE];
	double *samples = malloc(nb * o->nsizes * o->reps * sizeof(double));
	double *med = malloc(nb * o->nsizes * sizeof(double));
	uint64_t *iters = malloc(nb * o->nsizes * sizeof(uint64_t));
	if (!samples || !med || !iters)
		die("out of memory for %s", "samples");
	for (size_t b = 0; b < nb; b++) {
		fastsha_use_backend(alg, names[b]);
		for (size_t k = 0; k < o->nsizes; k++)
			iters[b * o->nsizes + k] =
				calibrate(bench_one_ours, alg, buf, o->sizes[k], o->sample_s);
	}
	for (unsigned r = 0; r < o->reps; r++)
		for (size_t k = 0; k < o->nsizes; k++)
			for (size_t j = 0; j < nb; j++) {
				size_t b = (j + r) % nb, i = b * o->nsizes + k;
				fastsha_use_backend(alg, names[b]);
				double t = bench_one_ours(alg, buf, o->sizes[k], iters[i], d);
				samples[i * o->reps + r] = t / (double)iters[i];
			}
	fastsha_use_backend(alg, NULL);
	for (size_t i = 0; i < nb * o->nsizes; i++)
		med[i] = quantile(samples + i * o->reps, o->reps, 0.5);

	printf("\n%s: our backends round-robin in one process, median MB/s (c/B); "
	       "library order: ",
	       fastsha_alg_name(alg));
	for (size_t b = 0; b < nb; b++)
		printf("%s%s", b ? " > " : "", names[b]);
	printf("\n%9s", "bytes");
	for (size_t b = 0; b < nb; b++)
		printf(" %16s", names[b]);
	printf("   measured order\n");
	for (size_t k = 0; k < o->nsizes; k++) {
		double n = (double)o->sizes[k];
		printf("%9zu", o->sizes[k]);
		for (size_t b = 0; b < nb; b++) {
			double t = med[b * o->nsizes + k];
			printf(" %8.1f (%5.2f)", n / t / MB, t * hz / n);
		}
		/* Selection sort of the indices by time: nb is small. */
		size_t order[MAX_BACKENDS];
		for (size_t b = 0; b < nb; b++)
			order[b] = b;
		for (size_t a = 0; a < nb; a++)
			for (size_t c = a + 1; c < nb; c++)
				if (med[order[c] * o->nsizes + k] < med[order[a] * o->nsizes + k]) {
					size_t x = order[a];
					order[a] = order[c];
					order[c] = x;
				}
		printf("   ");
		for (size_t b = 0; b < nb; b++)
			printf("%s%s", b ? " > " : "", names[order[b]]);
		putchar('\n');
	}
	free(buf);
	free(samples);
	free(med);
	free(iters);
	return 0;
}

/* One algorithm's table: its backends, their OpenSSL paths, the results. */
struct table {
	const struct algo *A;
	const struct opts *o;
	size_t nb;
	const char *names[MAX_BACKENDS];
	const struct ossl_path *path[MAX_BACKENDS]; /* NULL: timed alone */
	struct point *pt;                           /* nb * nsizes */
	/* Lane rows: timed as batches only (run_lanes()), never as one
	 * message, which would set all their lanes on it. */
	size_t nl;
	const char *lane_names[MAX_BACKENDS];
	unsigned lanes[MAX_BACKENDS];
	struct bench_pair *lp; /* nl * nbatch */
	char skipped[512];
	char note[256]; /* why a path runs other code than its name, or "" */
};

/* The comma list of the backends measured against path p (NULL: alone). */
static int paired_list(const struct table *T, const struct ossl_path *p, char *list, size_t cap)
{
	*list = '\0';
	for (size_t b = 0; b < T->nb; b++) {
		if (T->path[b] != p)
			continue;
		if (strlen(list) + strlen(T->names[b]) + 2 > cap)
			die("too many backends for path %s", p ? p->name : "-");
		if (*list)
			strcat(list, ",");
		strcat(list, T->names[b]);
	}
	return *list != '\0';
}

/* Read the "row" lines of measure() into the results table. */
static void read_rows(struct table *T, FILE *in)
{
	char line[512], name[128];
	while (fgets(line, sizeof(line), in)) {
		size_t n;
		struct point q = { 1, 0, 0, 0, 0, 0, 0, 0 };
		if (sscanf(line, "row %127s %zu %le %le %le %le %le %le %le", name, &n, &q.ours_s,
			   &q.ours_q1, &q.ours_q3, &q.theirs_s, &q.ratio, &q.ratio_q1,
			   &q.ratio_q3) != 9)
			continue;
		for (size_t b = 0; b < T->nb; b++)
			for (size_t k = 0; k < T->o->nsizes; k++)
				if (strcmp(T->names[b], name) == 0 && T->o->sizes[k] == n)
					T->pt[b * T->o->nsizes + k] = q;
	}
}

/* Run one child for OpenSSL path p over the backends paired with it. */
static void run_child(struct table *T, const char *self, const struct ossl_path *p)
{
	char list[1024], sizes[MAX_SIZES * 12] = "", reps[16], ms[32];
	const struct opts *o = T->o;
	if (!paired_list(T, p, list, sizeof(list)))
		return;
	for (size_t k = 0; k < o->nsizes; k++)
		snprintf(sizes + strlen(sizes), sizeof(sizes) - strlen(sizes), "%s%zu",
			 k ? "," : "", o->sizes[k]);
	snprintf(reps, sizeof(reps), "%u", o->reps);
	snprintf(ms, sizeof(ms), "%.6g", o->sample_s * 1e3);

	int fd[2];
	if (pipe(fd) != 0)
		die("pipe: %s", strerror(errno));
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (pid == 0) {
		dup2(fd[1], 1);
		close(fd[0]);
		close(fd[1]);
		if (p->cap)
			setenv("OPENSSL_ia32cap", p->cap, 1);
		else
			unsetenv("OPENSSL_ia32cap");
		char *args[] = { (char *)self, "--child", (char *)p->name,
				 "-a", (char *)fastsha_alg_name(T->A->alg),
				 "--backend", list, "--sizes", sizes, "--reps", reps,
				 "--sample-ms", ms, NULL };
		execv(self, args);
		fprintf(stderr, "fastsha-bench: cannot run %s: %s\n", self, strerror(errno));
		_exit(127);
	}
	close(fd[1]);
	FILE *in = fdopen(fd[0], "r");
	if (!in)
		die("fdopen: %s", strerror(errno));
	read_rows(T, in);
	fclose(in);
	int st;
	if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
		die("the measuring child for OpenSSL path %s failed", p->name);
}

/*
 * Backends with no OpenSSL counterpart, or all of them when the bench has
 * no OpenSSL, have no capability variable to set, so no child: time them
 * in this process (which also lets the bench run under qemu-user or
 * valgrind, where re-executing ourselves would escape the emulator).
 */
static void run_here(struct table *T)
{
	char list[1024];
	if (!paired_list(T, NULL, list, sizeof(list)))
		return;
	FILE *tmp = tmpfile();
	if (!tmp)
		die("tmpfile: %s", strerror(errno));
	struct opts o = *T->o;
	o.backends = list;
	measure(&o, T->A, 0, tmp);
	rewind(tmp);
	read_rows(T, tmp);
	fclose(tmp);
}

static void json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

static void json_num(double v)
{
	if (isfinite(v) && v > 0)
		printf("%.6g", v);
	else
		printf("null");
}

/* The backends of A this run times, their paths, and a note for the AVX
 * path where OpenSSL runs other code on this CPU. */
static void plan_table(struct table *T, int have_ossl, const char *vendor)
{
	const fastsha_alg alg = T->A->alg;
	for (size_t b = 0; b < fastsha_backend_count(alg) && T->nb < MAX_BACKENDS; b++) {
		const char *name = fastsha_backend_name(alg, b);
		if (!in_list(T->o->backends, name))
			continue;
		if (!fastsha_backend_supported(alg, b)) {
			snprintf(T->skipped + strlen(T->skipped),
				 sizeof(T->skipped) - strlen(T->skipped), "%s%s",
				 *T->skipped ? ", " : "", name);
			continue;
		}
		if (fastsha_backend_lanes(alg, b) > 1) {
			T->lanes[T->nl] = fastsha_backend_lanes(alg, b);
			T->lane_names[T->nl++] = name;
			continue;
		}
		T->names[T->nb] = name;
		T->path[T->nb] = have_ossl ? path_of(T->A, name) : NULL;
		if (path_differs(T->path[T->nb], vendor) && !*T->note)
			snprintf(T->note, sizeof(T->note),
				 "OpenSSL runs its %s %s code only on Intel CPUs; on this CPU its "
				 "\"%s\" path is its %s code",
				 T->path[T->nb]->name, T->A->label, T->path[T->nb]->name,
				 T->path[T->nb]->not_intel);
		T->nb++;
	}
	T->pt = calloc(T->nb * T->o->nsizes + 1, sizeof(struct point));
	T->lp = calloc(T->nl * T->o->nbatch + 1, sizeof(struct bench_pair));
	if (!T->pt || !T->lp)
		die("out of memory for %s", "results");
}

/*
 * The lane rows, in this process: each chosen in turn for the family
 * (fastsha_use_backend()), batches of LANE_N messages through
 * fastsha_many() against OpenSSL's *_Init/Update/Final once per message on
 * the code it picks here (bench_quick.c, bench_batch_point()).
 */
static void run_lanes(struct table *T)
{
	const fastsha_alg alg = T->A->alg;
	const struct opts *o = T->o;
	for (size_t l = 0; l < T->nl; l++) {
		if (fastsha_use_backend(alg, T->lane_names[l]) != FASTSHA_SELECT_OK)
			die("backend %s cannot run here", T->lane_names[l]);
		for (size_t k = 0; k < o->nbatch; k++)
			bench_batch_point(alg, LANE_N, o->batch_sizes[k], o->reps, o->sample_s,
					  &T->lp[l * o->nbatch + k]);
	}
	fastsha_use_backend(alg, NULL);
}

/* --backend: every name is built for some chosen algorithm and runs here. */
static void check_backends(const struct opts *o)
{
	if (!o->backends)
		return;
	for (const char *p = o->backends; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
		size_t len = strcspn(p, ",");
		int known = 0;
		for (size_t a = 0; a < o->nalgs; a++) {
			fastsha_alg alg = o->algs[a]->alg;
			for (size_t b = 0; b < fastsha_backend_count(alg); b++) {
				const char *name = fastsha_backend_name(alg, b);
				if (strlen(name) != len || strncmp(name, p, len) != 0)
					continue;
				known = 1;
				if (!fastsha_backend_supported(alg, b))
					die("this CPU cannot run a backend in '%s' (--list shows "
					    "which)",
					    o->backends);
			}
		}
		if (!known)
			die("unknown backend in '%s' (--list shows them)", o->backends);
	}
}

static void print_json(struct table *tabs, size_t ntab, const char *model, const char *vendor,
		       long ncpu, const char *ossl_version, const char *load, const char *date,
		       double hz, double imul, int have_ossl, const struct opts *o)
{
	printf("{\n  \"tool\": \"fastsha-bench\",\n  \"fastsha_version\": ");
	json_str(fastsha_version());
	printf(",\n  \"cpu\": ");
	json_str(model);
	printf(",\n  \"vendor\": ");
	json_str(vendor);
	printf(",\n  \"cpus\": %ld,\n  \"openssl\": ", ncpu);
	if (ossl_version)
		json_str(ossl_version);
	else
		printf("null");
	printf(",\n  \"load\": ");
	json_str(load);
	printf(",\n  \"date\": ");
	json_str(date);
	printf(",\n  \"clock_hz\": ");
	json_num(hz);
	printf(",\n  \"clock_method\": \"dependent-add chain, 1 add per cycle, median of "
	       "7 runs of ~10 ms\",\n  \"clock_check_imul_cycles\": ");
	json_num(imul);
	printf(",\n");
	printf("  \"reps\": %u,\n  \"sample_ms\": %.6g,\n  \"quick\": %s,\n", o->reps,
	       o->sample_s * 1e3, o->quick ? "true" : "false");
	printf("  \"timer\": \"%s\",\n",
	       bench_clock_name());
	printf("  \"mb\": 1000000,\n  \"algorithms\": [");
	for (size_t t = 0; t < ntab; t++) {
		const struct table *T = &tabs[t];
		printf("%s\n    {\"alg\": ", t ? "," : "");
		json_str(fastsha_alg_name(T->A->alg));
		printf(", \"label\": ");
		json_str(T->A->label);
		printf(", \"ours_api\": \"%s one-shot\", \"openssl_api\": ", T->A->ours);
		if (have_ossl)
			json_str(T->A->theirs);
		else
			printf("null");
		printf(",\n     \"skipped_backends\": ");
		json_str(T->skipped);
		printf(", \"notes\": [");
		if (*T->note)
			json_str(T->note);
		printf("]}");
	}
	printf("\n  ],\n  \"results\": [");
	int first = 1;
	for (size_t t = 0; t < ntab; t++) {
		const struct table *T = &tabs[t];
		for (size_t b = 0; b < T->nb; b++) {
			const struct ossl_path *p = T->path[b];
			for (size_t k = 0; k < o->nsizes; k++) {
				const struct point *q = &T->pt[b * o->nsizes + k];
				double n = (double)o->sizes[k];
				if (!q->done)
					continue;
				printf("%s\n    {\"alg\": ", first ? "" : ",");
				first = 0;
				json_str(fastsha_alg_name(T->A->alg));
				printf(", \"backend\": ");
				json_str(T->names[b]);
				printf(", \"openssl_path\": ");
				if (p)
					json_str(p->name);
				else
					printf("null");
				printf(", \"openssl_cap\": ");
				if (p && p->cap)
					json_str(p->cap);
				else
					printf("null");
				printf(", \"openssl_note\": ");
				if (path_differs(p, vendor))
					printf("\"OpenSSL runs its %s code here\"", p->not_intel);
				else
					printf("null");
				printf(", \"size\": %zu,\n     \"ours_mbps\": ", o->sizes[k]);
				json_num(n / q->ours_s / MB);
				printf(", \"ours_mbps_q1\": ");
				json_num(n / q->ours_q3 / MB);
				printf(", \"ours_mbps_q3\": ");
				json_num(n / q->ours_q1 / MB);
				printf(", \"ours_cpb\": ");
				json_num(q->ours_s * hz / n);
				printf(",\n     \"openssl_mbps\": ");
				json_num(p ? n / q->theirs_s / MB : 0);
				printf(", \"openssl_cpb\": ");
				json_num(p ? q->theirs_s * hz / n : 0);
				printf(", \"ratio\": ");
				json_num(p ? q->ratio : 0);
				printf(", \"ratio_q1\": ");
				json_num(p ? q->ratio_q1 : 0);
				printf(", \"ratio_q3\": ");
				json_num(p ? q->ratio_q3 : 0);
				printf("}");
			}
		}
	}
	/* Lane rows: batches of LANE_N messages, OpenSSL once a message. */
	printf("\n  ],\n  \"batches\": [");
	first = 1;
	for (size_t t = 0; t < ntab; t++) {
		const struct table *T = &tabs[t];
		for (size_t l = 0; l < T->nl; l++) {
			for (size_t k = 0; k < o->nbatch; k++) {
				const struct bench_pair *q = &T->lp[l * o->nbatch + k];
				double bytes = (double)LANE_N * (double)o->batch_sizes[k];
				printf("%s\n    {\"alg\": ", first ? "" : ",");
				first = 0;
				json_str(fastsha_alg_name(T->A->alg));
				printf(", \"backend\": ");
				json_str(T->lane_names[l]);
				printf(", \"lanes\": %u, \"n\": %d, \"size\": %zu,\n     \"ours_mbps\": ",
				       T->lanes[l], LANE_N, o->batch_sizes[k]);
				json_num(bytes / q->ours_s / MB);
				printf(", \"openssl_mbps\": ");
				json_num(have_ossl ? bytes / q->theirs_s / MB : 0);
				printf(", \"ratio\": ");
				json_num(q->ratio);
				printf(", \"ratio_q1\": ");
				json_num(q->ratio_q1);
				printf(", \"ratio_q3\": ");
				json_num(q->ratio_q3);
				printf("}");
			}
		}
	}
	printf("\n  ]\n}\n");
}

static void print_table(const struct table *T, int have_ossl, const char *vendor, double hz)
{
	const struct opts *o = T->o;
	printf("\n%s: %s, one-shot %s vs OpenSSL %s\n", fastsha_alg_name(T->A->alg), T->A->label,
	       T->A->ours, have_ossl ? T->A->theirs : "(not built in)");
	if (*T->skipped)
		printf("skipped  %s (this CPU cannot run them)\n", T->skipped);
	if (*T->note)
		printf("note     *: %s\n", T->note);
	printf("%-12s %9s %10s %7s", "backend", "bytes", "ours MB/s", "c/B");
	if (have_ossl)
		printf("   %-7s %10s %7s %8s %7s", "OpenSSL", "MB/s", "c/B", "ratio", "spread");
	putchar('\n');
	for (size_t b = 0; b < T->nb; b++) {
		const struct ossl_path *p = T->path[b];
		for (size_t k = 0; k < o->nsizes; k++) {
			const struct point *q = &T->pt[b * o->nsizes + k];
			double n = (double)o->sizes[k];
			if (!q->done)
				continue;
			printf("%-12s %9zu %10.1f %7.2f", T->names[b], o->sizes[k],
			       n / q->ours_s / MB, q->ours_s * hz / n);
			if (p) {
				char pname[32];
				snprintf(pname, sizeof(pname), "%s%s", p->name,
					 path_differs(p, vendor) ? "*" : "");
				printf("   %-7s %10.1f %7.2f %8.3f %6.1f%%", pname,
				       n / q->theirs_s / MB, q->theirs_s * hz / n, q->ratio,
				       100 * (q->ratio_q3 - q->ratio_q1) / q->ratio);
			} else if (have_ossl) {
				printf("   -");
			}
			putchar('\n');
		}
	}
	if (!T->nl || !o->nbatch)
		return;
	printf("\n%s: lane backends, %d messages a batch through fastsha_many() on each; OpenSSL: "
	       "the same calls once a message, on its default code\n",
	       fastsha_alg_name(T->A->alg), LANE_N);
	printf("%-12s %5s %9s %10s", "backend", "lanes", "bytes", "ours MB/s");
	if (have_ossl)
		printf(" %12s %8s %7s", "OpenSSL MB/s", "ratio", "spread");
	putchar('\n');
	for (size_t l = 0; l < T->nl; l++) {
		for (size_t k = 0; k < o->nbatch; k++) {
			const struct bench_pair *q = &T->lp[l * o->nbatch + k];
			double bytes = (double)LANE_N * (double)o->batch_sizes[k];
			printf("%-12s %5u %9zu %10.1f", T->lane_names[l], T->lanes[l],
			       o->batch_sizes[k], bytes / q->ours_s / MB);
			if (have_ossl)
				printf(" %12.1f %8.3f %6.1f%%", bytes / q->theirs_s / MB, q->ratio,
				       100 * (q->ratio_q3 - q->ratio_q1) / q->ratio);
			putchar('\n');
		}
	}
}

int main(int argc, char **argv)
{
	bench_clock_init();
	if (argc > 1 && strcmp(argv[1], "--many") == 0)
		return bench_many_main(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "--dirty") == 0)
		return bench_dirty_main(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "--mac") == 0)
		return bench_mac_main(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "--sha3") == 0)
		return bench_sha3_main(argc - 1, argv + 1);
	struct opts o;
	parse_args(&o, argc, argv);
#ifdef FASTSHA_BENCH_OPENSSL
	const int have_ossl = 1;
#else
	const int have_ossl = 0;
#endif
	if (o.child_path)
		return measure(&o, o.algs[0], have_ossl, stdout);
	if (!o.detail)
		return bench_quick_main(o.quick, o.reps_given, o.sample_given);

	char model[256], vendor[64], date[32];
	cpuinfo("model name", model, sizeof(model), "unknown CPU");
	cpuinfo("vendor_id", vendor, sizeof(vendor), "unknown vendor");

	if (o.list) {
		for (size_t a = 0; a < o.nalgs; a++) {
			fastsha_alg alg = o.algs[a]->alg;
			for (size_t b = 0; b < fastsha_backend_count(alg); b++) {
				const char *name = fastsha_backend_name(alg, b);
				const unsigned lanes = fastsha_backend_lanes(alg, b);
				const struct ossl_path *p =
					have_ossl && lanes == 1 ? path_of(o.algs[a], name) : NULL;
				printf("%-7s %-12s %-11s ", fastsha_alg_name(alg), name,
				       fastsha_backend_supported(alg, b) ? "runs" : "unsupported");
				if (lanes > 1)
					printf("%u lanes: batches, against %s", lanes,
					       have_ossl ? "OpenSSL's default code" : "nothing");
				else
					printf("%s", p ? p->name : "-");
				if (path_differs(p, vendor))
					printf(" (its %s code on this CPU)", p->not_intel);
				putchar('\n');
			}
		}
		return 0;
	}
	check_backends(&o);

	struct table tabs[MAX_ALGS];
	size_t ntab = 0;
	for (size_t a = 0; a < o.nalgs; a++) {
		struct table *T = &tabs[ntab];
		memset(T, 0, sizeof(*T));
		T->A = o.algs[a];
		T->o = &o;
		plan_table(T, have_ossl, vendor);
		if (T->nb > 0 || T->nl > 0 || !o.backends) {
			ntab++; /* leave out a family none of --backend names */
		} else {
			free(T->pt);
			free(T->lp);
		}
	}

	char load[64];
	run_stamp(date, sizeof(date), load, sizeof(load));
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	const char *ossl_version = bench_openssl_version();

	double hz = estimate_hz();
	double imul = imul_cycles(hz);
	if (o.rank) {
		printf("fastsha-bench %s --rank on %s; %s; clock ~%.3f GHz (dependent adds); "
		       "load %s; %u reps of ~%.3g ms (thread CPU time)\n",
		       fastsha_version(), model, date, hz * 1e-9, load, o.reps, o.sample_s * 1e3);
		for (size_t t = 0; t < ntab; t++) {
			rank_main(&o, tabs[t].A, tabs[t].names, tabs[t].nb, hz);
			free(tabs[t].pt);
			free(tabs[t].lp);
		}
		return 0;
	}

	char self[4096];
	ssize_t sl = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (sl > 0)
		self[sl] = '\0';
	else
		snprintf(self, sizeof(self), "%s", argv[0]);

	for (size_t t = 0; t < ntab; t++) {
		for (size_t p = 0; have_ossl && p < tabs[t].A->npaths; p++)
			run_child(&tabs[t], self, &tabs[t].A->paths[p]);
		run_here(&tabs[t]);
		run_lanes(&tabs[t]);
	}

	if (o.json) {
		print_json(tabs, ntab, model, vendor, ncpu, ossl_version, load, date, hz, imul,
			   have_ossl, &o);
	} else {
		printf("fastsha-bench %s: one-shot fastsha*() vs OpenSSL's low-level "
		       "*_Init/Update/Final\n",
		       fastsha_version());
		printf("machine  %s (%s), %ld CPUs online\n", model, vendor, ncpu);
		printf("openssl  %s\n", ossl_version ? ossl_version
						     : "not built in (libcrypto not found at "
						       "configure time)");
		printf("date     %s\n", date);
		if (hz > 0)
			printf("clock    ~%.3f GHz, estimated once from a chain of dependent adds "
			       "(1 cycle each), median of 7\n",
			       hz * 1e-9);
		if (imul > 0)
			printf("check    a chain of dependent imul takes %.2f of those cycles each "
			       "(expect 3)\n",
			       imul);
		else
			printf("clock    unknown (no estimate on this compiler): no cycles/byte\n");
		printf("load     %s (1, 5, 15 min, before the run: others share this machine)\n",
		       load);
		printf("method   %u reps of ~%.3g ms (%s) per point%s; medians; MB = 10^6 bytes\n",
		       o.reps, o.sample_s * 1e3,
		       bench_clock_name(),
		       have_ossl ? ", ours and OpenSSL alternating in one process per "
				   "algorithm and OpenSSL path"
				 : "");
		if (have_ossl)
			printf("ratio    ours/OpenSSL speed, >1 = we are faster; median of per-rep "
			       "ratios, spread = their IQR; \"-\": no OpenSSL counterpart\n");
		printf("lanes    lane backends are timed as batches of %d messages (throughput), "
		       "in this process, never as one message\n", LANE_N);
		for (size_t t = 0; t < ntab; t++)
			print_table(&tabs[t], have_ossl, vendor, hz);
	}
	for (size_t t = 0; t < ntab; t++) {
		free(tabs[t].pt);
		free(tabs[t].lp);
	}
	return 0;
}
