/* SPDX-License-Identifier: MIT */
/*
 * fastsha-bench: SHA-1 throughput of every backend this CPU runs, each next
 * to OpenSSL's matching code path. Public API only: the backends are found
 * at run time (fastsha1_backend_count/name/supported) and chosen with
 * fastsha1_use_backend(), so a new backend needs no change here.
 *
 * How a figure is made (docs/benchmarks.md says how to read them):
 * - ours is one-shot fastsha1(), which is what users call; OpenSSL is its
 *   low-level SHA1_Init/Update/Final. Not SHA1() or EVP: in OpenSSL 3 those
 *   go through the provider layer, ~4x slower on small inputs, and beating
 *   that would prove nothing.
 * - libcrypto picks its SHA-1 code once, at init, from OPENSSL_ia32cap. So
 *   each OpenSSL path is measured in a child process (this program run again
 *   with --child and the variable set), which also times the backends paired
 *   with that path: each ratio comes from one process.
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
#include "fastsha/sha1.h"

#ifdef FASTSHA_BENCH_OPENSSL
/* SHA1_Init/Update/Final are deprecated in OpenSSL 3 but are exactly the
 * unwrapped block code we want to compare with; these keep them declared
 * and silence the deprecation attribute. */
#define OPENSSL_API_COMPAT 0x10100000L
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/crypto.h>
#include <openssl/sha.h>
#endif

#define MAX_SIZES 32
#define MAX_BACKENDS 64
#define MB 1e6 /* MB/s means 10^6 bytes per second, as OpenSSL's speed does */

/*
 * OpenSSL's x86-64 SHA-1 entry (crypto/sha/asm/sha1-x86_64.pl) reads
 * OPENSSL_ia32cap_P: no SSSE3 (word 0 bit 41 = CPUID.1:ECX[9]) -> scalar;
 * SHA (word 1 bit 29) -> SHA-NI; AVX2+BMI1+BMI2 (word 1 bits 5, 3, 8) ->
 * AVX2; AVX (word 0 bit 60) and the "Intel CPU" bit (word 0 bit 30) -> AVX;
 * else SSSE3. "~X" clears the bits of X; an empty value would clear
 * everything, so "unset" (NULL) is how we ask for the native choice.
 */
struct ossl_path {
	const char *name;
	const char *cap; /* OPENSSL_ia32cap for the child; NULL: unset */
};

#if defined(__x86_64__) || defined(_M_X64)
static struct ossl_path paths[] = {
	{ "SHA-NI", NULL },
	{ "AVX2", ":~0x20000000" },
	{ "AVX", ":~0x20000020" },
	{ "SSSE3", "~0x1000000000000000:~0x20000020" },
	{ "scalar", "~0x20000000000:~0x20000020" },
};
#define DEFAULT_PATH "scalar"
#else
/* Elsewhere OPENSSL_ia32cap means nothing: compare with whatever libcrypto
 * picks natively. */
static struct ossl_path paths[] = { { "native", NULL } };
#define DEFAULT_PATH "native"
#endif
#define NPATHS (sizeof(paths) / sizeof(paths[0]))

/* Which OpenSSL path each of our backends is measured against; backends
 * not listed (new ones, portable variants) go with DEFAULT_PATH. */
static const struct {
	const char *backend, *path;
} pairing[] = {
	{ "shani", "SHA-NI" },  { "avx2", "AVX2" },       { "avx", "AVX" },
	{ "ssse3", "SSSE3" },   { "portable", "scalar" }, { "reference", "scalar" },
};

struct opts {
	const char *backends; /* comma list, or NULL for all this CPU runs */
	size_t sizes[MAX_SIZES];
	size_t nsizes;
	unsigned reps;
	double sample_s;
	int json, quick, list, rank;
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

static volatile uint8_t sink; /* keeps every digest alive */

static void die(const char *fmt, const char *arg)
{
	fprintf(stderr, "fastsha-bench: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	exit(2);
}

/*
 * Time this thread spent on a CPU, not wall time: the machine is shared, and
 * a sample during which the scheduler ran someone else on our core would
 * otherwise count their time as ours. (What it cannot remove: a busy SMT
 * sibling, cache pollution, clock changes; medians and alternation help.)
 */
static clockid_t bench_clock = CLOCK_THREAD_CPUTIME_ID;

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(bench_clock, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Quantile q of v[0..n-1] (sorted in place), linear between neighbours. */
static double quantile(double *v, size_t n, double q)
{
	qsort(v, n, sizeof(*v), cmp_double);
	double pos = q * (double)(n - 1);
	size_t i = (size_t)pos;
	if (i + 1 >= n)
		return v[n - 1];
	return v[i] + (pos - (double)i) * (v[i + 1] - v[i]);
}

/*
 * The two timed loops. Written out (no function pointer) so both sides pay
 * only their own call; each digest's first byte is folded into the sink so
 * no call can be dropped.
 */
static double time_ours(const uint8_t *buf, size_t n, uint64_t iters)
{
	uint8_t out[FASTSHA1_DIGEST_SIZE], acc = 0;
	double t0 = now_s();
	for (uint64_t i = 0; i < iters; i++) {
		fastsha1(buf, n, out);
		acc ^= out[0];
	}
	double t = now_s() - t0;
	sink ^= acc;
	return t;
}

#ifdef FASTSHA_BENCH_OPENSSL
static double time_theirs(const uint8_t *buf, size_t n, uint64_t iters)
{
	uint8_t out[SHA_DIGEST_LENGTH], acc = 0;
	double t0 = now_s();
	for (uint64_t i = 0; i < iters; i++) {
		SHA_CTX c;
		SHA1_Init(&c);
		SHA1_Update(&c, buf, n);
		SHA1_Final(out, &c);
		acc ^= out[0];
	}
	double t = now_s() - t0;
	sink ^= acc;
	return t;
}
#endif

typedef double (*timer_fn)(const uint8_t *buf, size_t n, uint64_t iters);

/* How many messages make one sample of about target seconds. */
static uint64_t calibrate(timer_fn f, const uint8_t *buf, size_t n, double target)
{
	uint64_t iters = 1;
	for (;;) {
		double t = f(buf, n, iters);
		if (t >= target / 8 || iters >= (UINT64_C(1) << 40)) {
			double k = target / (t > 1e-9 ? t : 1e-9);
			double want = (double)iters * k;
			return want < 1 ? 1 : (uint64_t)want;
		}
		iters *= 4;
	}
}

/*
 * Clock estimate: a chain of dependent adds runs at one add per cycle on
 * every out-of-order x86 and AArch64 core we know, and the empty asm after
 * each add stops the compiler from merging them. Median of 7 runs of ~10 ms.
 */
#if defined(__GNUC__)
#define ADD1 x += 1; __asm__ volatile("" : "+r"(x));
#define ADD8 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1
#define ADD64 ADD8 ADD8 ADD8 ADD8 ADD8 ADD8 ADD8 ADD8
static double add_chain(uint64_t n)
{
	uint64_t x = 0;
	double t0 = now_s();
	for (uint64_t i = 0; i < n; i++) {
		ADD64
	}
	double t = now_s() - t0;
	sink ^= (uint8_t)x;
	return t;
}

static double estimate_hz(void)
{
	uint64_t n = 10000;
	double t;
	while ((t = add_chain(n)) < 2e-3)
		n *= 4;
	n = (uint64_t)((double)n * 10e-3 / t) + 1;
	double hz[7];
	for (int i = 0; i < 7; i++)
		hz[i] = 64.0 * (double)n / add_chain(n);
	return quantile(hz, 7, 0.5);
}
#else
static double estimate_hz(void)
{
	return 0; /* unknown: cycles/byte are left out */
}
#endif

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

static const char *path_of(const char *backend)
{
	for (size_t i = 0; i < sizeof(pairing) / sizeof(pairing[0]); i++)
		if (strcmp(pairing[i].backend, backend) == 0) {
			for (size_t p = 0; p < NPATHS; p++)
				if (strcmp(paths[p].name, pairing[i].path) == 0)
					return paths[p].name;
		}
	return DEFAULT_PATH;
}

static struct ossl_path *find_path(const char *name)
{
	for (size_t p = 0; p < NPATHS; p++)
		if (strcmp(paths[p].name, name) == 0)
			return &paths[p];
	return NULL;
}

static size_t parse_size(const char *s)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (end == s || errno)
		die("bad size '%s'", s);
	if (*end == 'K' || *end == 'k')
		v <<= 10, end++;
	else if (*end == 'M' || *end == 'm')
		v <<= 20, end++;
	if ((*end && *end != ',') || v == 0 || v > (1ULL << 30))
		die("bad size '%s' (1 byte to 1G, K and M suffixes are 1024-based)", s);
	return (size_t)v;
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
		"  --quick             short run (5 reps of ~3 ms samples)\n"
		"  --reps N            samples per point (default 15; quick 5)\n"
		"  --sample-ms MS      length of one sample (default 20; quick 3)\n"
		"  --sizes LIST        message sizes, e.g. 16,64,1K,1M\n"
		"                      (default 16,64,256,1024,8192,16384,1M)\n"
		"  --backend LIST      only these backends (comma-separated)\n"
		"  --openssl-cap P=V   use OPENSSL_ia32cap=V for OpenSSL path P\n"
		"  --json              machine-readable output (for bench/plot.py)\n"
		"  --list              backends, whether this CPU runs them, OpenSSL path\n"
		"  --rank              our backends against each other, round-robin in one\n"
		"                      process (checks the library's preference order)\n");
}

static void parse_args(struct opts *o, int argc, char **argv)
{
	memset(o, 0, sizeof(*o));
	int reps_set = 0, sample_set = 0;
	memcpy(o->sizes, default_sizes, sizeof(default_sizes));
	o->nsizes = sizeof(default_sizes) / sizeof(default_sizes[0]);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define NEED_VALUE() do { if (!v) die("%s needs a value", a); i++; } while (0)
		if (strcmp(a, "--quick") == 0) {
			o->quick = 1;
		} else if (strcmp(a, "--json") == 0) {
			o->json = 1;
		} else if (strcmp(a, "--list") == 0) {
			o->list = 1;
		} else if (strcmp(a, "--rank") == 0) {
			o->rank = 1;
		} else if (strcmp(a, "--reps") == 0) {
			NEED_VALUE();
			char *end;
			long r = strtol(v, &end, 10);
			if (*end || r < 1 || r > 100000)
				die("bad --reps '%s'", v);
			o->reps = (unsigned)r;
			reps_set = 1;
		} else if (strcmp(a, "--sample-ms") == 0) {
			NEED_VALUE();
			char *end;
			double ms = strtod(v, &end);
			if (*end || !(ms > 0 && ms <= 10000))
				die("bad --sample-ms '%s'", v);
			o->sample_s = ms * 1e-3;
			sample_set = 1;
		} else if (strcmp(a, "--sizes") == 0) {
			NEED_VALUE();
			parse_sizes(o, v);
		} else if (strcmp(a, "--backend") == 0) {
			NEED_VALUE();
			o->backends = v;
		} else if (strcmp(a, "--openssl-cap") == 0) {
			NEED_VALUE();
			const char *eq = strchr(v, '=');
			struct ossl_path *p = NULL;
			for (size_t k = 0; eq && k < NPATHS; k++)
				if (strlen(paths[k].name) == (size_t)(eq - v) &&
				    strncmp(paths[k].name, v, (size_t)(eq - v)) == 0)
					p = &paths[k];
			if (!p || !eq[1])
				die("--openssl-cap wants PATH=VALUE with a known path and a "
				    "non-empty value, not '%s'", v);
			p->cap = eq + 1;
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
 * Time each listed backend against the OpenSSL path this process was started
 * with (--child mode), or alone without OpenSSL, and write one "row" line per
 * backend and size to out.
 */
static int measure(const struct opts *o, FILE *out)
{
	uint8_t *buf = make_buffer(o);
	double *ours = malloc(o->reps * sizeof(double));
	double *theirs = malloc(o->reps * sizeof(double));
	double *ratio = malloc(o->reps * sizeof(double));
	if (!ours || !theirs || !ratio)
		die("out of memory for %s", "samples");

	for (size_t b = 0; b < fastsha1_backend_count(); b++) {
		const char *name = fastsha1_backend_name(b);
		if (!in_list(o->backends, name))
			continue;
		if (fastsha1_use_backend(name) != FASTSHA_SELECT_OK)
			die("backend %s cannot run here", name);

		/* A fast wrong answer proves nothing: check every size first,
		 * against the spec-literal backend (portable if it was left out). */
		for (size_t k = 0; k < o->nsizes; k++) {
			uint8_t want[20], got[20];
			if (fastsha1_use_backend("reference") != FASTSHA_SELECT_OK)
				fastsha1_use_backend("portable");
			fastsha1(buf, o->sizes[k], want);
			fastsha1_use_backend(name);
			fastsha1(buf, o->sizes[k], got);
			if (memcmp(want, got, 20) != 0)
				die("backend %s gives a wrong digest; not timing it", name);
#ifdef FASTSHA_BENCH_OPENSSL
			SHA1(buf, o->sizes[k], got);
			if (memcmp(want, got, 20) != 0)
				die("OpenSSL and the reference backend disagree (%s)", name);
#endif
		}

		uint64_t it_ours[MAX_SIZES];
#ifdef FASTSHA_BENCH_OPENSSL
		uint64_t it_theirs[MAX_SIZES];
#endif
		for (size_t k = 0; k < o->nsizes; k++) {
			it_ours[k] = calibrate(time_ours, buf, o->sizes[k], o->sample_s);
#ifdef FASTSHA_BENCH_OPENSSL
			it_theirs[k] = calibrate(time_theirs, buf, o->sizes[k], o->sample_s);
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
				size_t n = o->sizes[k];
				double to, tt = 0;
#ifdef FASTSHA_BENCH_OPENSSL
				if (r & 1) {
					tt = time_theirs(buf, n, it_theirs[k]);
					to = time_ours(buf, n, it_ours[k]);
				} else {
					to = time_ours(buf, n, it_ours[k]);
					tt = time_theirs(buf, n, it_theirs[k]);
				}
				tt /= (double)it_theirs[k];
#else
				to = time_ours(buf, n, it_ours[k]);
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
				o->sizes[k],
			       om, o1, o3, tm, rm, r1, r3);
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
 * --rank: our backends against each other, in this one process, taking
 * turns sample by sample (the first to go rotates), so the order they come
 * out in is not an artefact of one process getting a quieter moment than
 * another. This is what the dispatch table's order should follow.
 */
static int rank_main(const struct opts *o, const char **names, size_t nb, double hz)
{
	uint8_t *buf = make_buffer(o);
	double *samples = malloc(nb * o->nsizes * o->reps * sizeof(double));
	double *med = malloc(nb * o->nsizes * sizeof(double));
	uint64_t *iters = malloc(nb * o->nsizes * sizeof(uint64_t));
	if (!samples || !med || !iters)
		die("out of memory for %s", "samples");
	for (size_t b = 0; b < nb; b++) {
		fastsha1_use_backend(names[b]);
		for (size_t k = 0; k < o->nsizes; k++)
			iters[b * o->nsizes + k] = calibrate(time_ours, buf, o->sizes[k], o->sample_s);
	}
	for (unsigned r = 0; r < o->reps; r++)
		for (size_t k = 0; k < o->nsizes; k++)
			for (size_t j = 0; j < nb; j++) {
				size_t b = (j + r) % nb, i = b * o->nsizes + k;
				fastsha1_use_backend(names[b]);
				double t = time_ours(buf, o->sizes[k], iters[i]);
				samples[i * o->reps + r] = t / (double)iters[i];
			}
	fastsha1_use_backend(NULL);
	for (size_t i = 0; i < nb * o->nsizes; i++)
		med[i] = quantile(samples + i * o->reps, o->reps, 0.5);

	printf("\nour backends round-robin in one process, median MB/s (c/B); "
	       "library order: ");
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

/* The value of "key : value" from /proc/cpuinfo, or fallback. */
static void cpuinfo(const char *key, char *out, size_t cap, const char *fallback)
{
	snprintf(out, cap, "%s", fallback);
	FILE *f = fopen("/proc/cpuinfo", "r");
	if (!f)
		return;
	char line[512];
	size_t klen = strlen(key);
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, key, klen) != 0 || (line[klen] != ' ' && line[klen] != '\t' &&
						       line[klen] != ':'))
			continue;
		char *c = strchr(line, ':');
		if (!c)
			continue;
		c++;
		while (*c == ' ' || *c == '\t')
			c++;
		c[strcspn(c, "\n")] = '\0';
		if (*c) {
			snprintf(out, cap, "%s", c);
			break;
		}
	}
	fclose(f);
}

struct run {
	struct opts *o;
	size_t nb;
	const char *names[MAX_BACKENDS];
	const char *path[MAX_BACKENDS];
	struct point *pt; /* nb * nsizes */
};

/* The comma list of the backends paired with OpenSSL path name, in list. */
static int paired_list(const struct run *R, const char *name, char *list, size_t cap)
{
	*list = '\0';
	for (size_t b = 0; b < R->nb; b++) {
		if (strcmp(R->path[b], name) != 0)
			continue;
		if (strlen(list) + strlen(R->names[b]) + 2 > cap)
			die("too many backends for path %s", name);
		if (*list)
			strcat(list, ",");
		strcat(list, R->names[b]);
	}
	return *list != '\0';
}

/* Read the "row" lines of measure() into the results table. */
static void read_rows(struct run *R, FILE *in)
{
	char line[512], name[128];
	while (fgets(line, sizeof(line), in)) {
		size_t n;
		struct point q = { 1, 0, 0, 0, 0, 0, 0, 0 };
		if (sscanf(line, "row %127s %zu %le %le %le %le %le %le %le", name, &n, &q.ours_s,
			   &q.ours_q1, &q.ours_q3, &q.theirs_s, &q.ratio, &q.ratio_q1,
			   &q.ratio_q3) != 9)
			continue;
		for (size_t b = 0; b < R->nb; b++)
			for (size_t k = 0; k < R->o->nsizes; k++)
				if (strcmp(R->names[b], name) == 0 && R->o->sizes[k] == n)
					R->pt[b * R->o->nsizes + k] = q;
	}
}

/* Run one child for OpenSSL path p over the backends paired with it. */
static void run_child(struct run *R, const char *self, const struct ossl_path *p)
{
	char list[1024], sizes[MAX_SIZES * 12] = "", reps[16], ms[32];
	if (!paired_list(R, p->name, list, sizeof(list)))
		return;
	for (size_t k = 0; k < R->o->nsizes; k++)
		snprintf(sizes + strlen(sizes), sizeof(sizes) - strlen(sizes), "%s%zu",
			 k ? "," : "", R->o->sizes[k]);
	snprintf(reps, sizeof(reps), "%u", R->o->reps);
	snprintf(ms, sizeof(ms), "%.6g", R->o->sample_s * 1e3);

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
		char *args[] = { (char *)self,  "--child",  (char *)p->name, "--backend", list,
				 "--sizes",     sizes,      "--reps",         reps,        "--sample-ms",
				 ms,            NULL };
		execv(self, args);
		fprintf(stderr, "fastsha-bench: cannot run %s: %s\n", self, strerror(errno));
		_exit(127);
	}
	close(fd[1]);
	FILE *in = fdopen(fd[0], "r");
	if (!in)
		die("fdopen: %s", strerror(errno));
	read_rows(R, in);
	fclose(in);
	int st;
	if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
		die("the measuring child for OpenSSL path %s failed", p->name);
}

/*
 * Without OpenSSL there is no capability variable to set, so no child: time
 * in this process (which also lets the bench run under qemu-user or
 * valgrind, where re-executing ourselves would escape the emulator).
 */
static void run_here(struct run *R)
{
	char list[1024];
	if (!paired_list(R, "-", list, sizeof(list)))
		return;
	FILE *tmp = tmpfile();
	if (!tmp)
		die("tmpfile: %s", strerror(errno));
	struct opts o = *R->o;
	o.backends = list;
	measure(&o, tmp);
	rewind(tmp);
	read_rows(R, tmp);
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

int main(int argc, char **argv)
{
	struct opts o;
	parse_args(&o, argc, argv);
	struct timespec probe;
	if (clock_gettime(bench_clock, &probe) != 0)
		bench_clock = CLOCK_MONOTONIC;
	if (o.child_path)
		return measure(&o, stdout);

#ifdef FASTSHA_BENCH_OPENSSL
	const int have_ossl = 1;
#else
	const int have_ossl = 0;
#endif

	/* Which backends: all this CPU runs, or the ones asked for. */
	struct run R = { &o, 0, { 0 }, { 0 }, NULL };
	if (o.list) {
		for (size_t b = 0; b < fastsha1_backend_count(); b++)
			printf("%-12s %-11s %s\n", fastsha1_backend_name(b),
			       fastsha1_backend_supported(b) ? "runs" : "unsupported",
			       have_ossl ? path_of(fastsha1_backend_name(b)) : "-");
		return 0;
	}
	if (o.backends) {
		for (const char *p = o.backends; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
			size_t len = strcspn(p, ",");
			size_t b;
			for (b = 0; b < fastsha1_backend_count(); b++)
				if (strlen(fastsha1_backend_name(b)) == len &&
				    strncmp(fastsha1_backend_name(b), p, len) == 0)
					break;
			if (b == fastsha1_backend_count())
				die("unknown backend in '%s' (--list shows them)", o.backends);
			if (!fastsha1_backend_supported(b))
				die("this CPU cannot run a backend in '%s' (--list shows which)",
				    o.backends);
		}
	}
	char skipped[512] = "";
	for (size_t b = 0; b < fastsha1_backend_count() && R.nb < MAX_BACKENDS; b++) {
		const char *name = fastsha1_backend_name(b);
		if (!in_list(o.backends, name))
			continue;
		if (!fastsha1_backend_supported(b)) {
			snprintf(skipped + strlen(skipped), sizeof(skipped) - strlen(skipped), "%s%s",
				 *skipped ? ", " : "", name);
			continue;
		}
		R.names[R.nb] = name;
		R.path[R.nb] = have_ossl ? path_of(name) : "-";
		R.nb++;
	}
	R.pt = calloc(R.nb * o.nsizes + 1, sizeof(struct point));
	if (!R.pt)
		die("out of memory for %s", "results");

	char model[256], vendor[64], date[32];
	cpuinfo("model name", model, sizeof(model), "unknown CPU");
	cpuinfo("vendor_id", vendor, sizeof(vendor), "unknown vendor");
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", &tm);
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	char load[64] = "unknown";
	FILE *lf = fopen("/proc/loadavg", "r");
	if (lf) {
		float l1, l5, l15;
		if (fscanf(lf, "%f %f %f", &l1, &l5, &l15) == 3)
			snprintf(load, sizeof(load), "%.2f %.2f %.2f", l1, l5, l15);
		fclose(lf);
	}
	const char *ossl_version = NULL;
#ifdef FASTSHA_BENCH_OPENSSL
	ossl_version = OpenSSL_version(OPENSSL_VERSION);
#endif
	/* OpenSSL gates its AVX SHA-1 on the "Intel CPU" bit, so elsewhere its
	 * "AVX" path is really its SSSE3 code (unless --openssl-cap forces it). */
	const char *avx_note = NULL;
	const struct ossl_path *avx = find_path("AVX");
	int avx_used = 0;
	for (size_t b = 0; b < R.nb; b++)
		avx_used |= strcmp(R.path[b], "AVX") == 0;
	if (have_ossl && avx_used && avx->cap && strcmp(avx->cap, ":~0x20000020") == 0 &&
	    strcmp(vendor, "GenuineIntel") != 0)
		avx_note = "OpenSSL runs its AVX SHA-1 code only on Intel CPUs; on this "
			   "CPU its \"AVX\" path is its SSSE3 code";

	double hz = estimate_hz();
	double imul = imul_cycles(hz);
	if (o.rank) {
		printf("fastsha-bench %s --rank on %s; %s; clock ~%.3f GHz (dependent adds); "
		       "load %s; %u reps of ~%.3g ms (thread CPU time)\n",
		       fastsha_version(), model, date, hz * 1e-9, load, o.reps, o.sample_s * 1e3);
		rank_main(&o, R.names, R.nb, hz);
		free(R.pt);
		return 0;
	}

	char self[4096];
	ssize_t sl = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (sl > 0)
		self[sl] = '\0';
	else
		snprintf(self, sizeof(self), "%s", argv[0]);

	if (have_ossl) {
		for (size_t p = 0; p < NPATHS; p++)
			run_child(&R, self, &paths[p]);
	} else {
		run_here(&R);
	}

	if (o.json) {
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
		printf(",\n  \"openssl_api\": %s,\n",
		       have_ossl ? "\"SHA1_Init/SHA1_Update/SHA1_Final\"" : "null");
		printf("  \"ours_api\": \"fastsha1() one-shot\",\n  \"load\": ");
		json_str(load);
		printf(",\n  \"date\": ");
		json_str(date);
		printf(",\n  \"clock_hz\": ");
		json_num(hz);
		printf(",\n  \"clock_method\": \"dependent-add chain, 1 add per cycle, median of "
		       "7 runs of ~10 ms\",\n  \"clock_check_imul_cycles\": ");
		json_num(imul);
		printf(",\n");
		printf("  \"reps\": %u,\n  \"sample_ms\": %.6g,\n  \"quick\": %s,\n", o.reps,
		       o.sample_s * 1e3, o.quick ? "true" : "false");
		printf("  \"timer\": \"%s\",\n",
		       bench_clock == CLOCK_MONOTONIC ? "wall time" : "thread CPU time");
		printf("  \"mb\": 1000000,\n  \"skipped_backends\": ");
		json_str(skipped);
		printf(",\n  \"notes\": [");
		if (avx_note)
			json_str(avx_note);
		printf("],\n  \"results\": [");
		int first = 1;
		for (size_t b = 0; b < R.nb; b++) {
			const struct ossl_path *p = find_path(R.path[b]);
			for (size_t k = 0; k < o.nsizes; k++) {
				const struct point *q = &R.pt[b * o.nsizes + k];
				double n = (double)o.sizes[k];
				if (!q->done)
					continue;
				printf("%s\n    {\"backend\": ", first ? "" : ",");
				first = 0;
				json_str(R.names[b]);
				printf(", \"openssl_path\": ");
				if (have_ossl)
					json_str(R.path[b]);
				else
					printf("null");
				printf(", \"openssl_cap\": ");
				if (p && p->cap)
					json_str(p->cap);
				else
					printf("null");
				printf(", \"openssl_note\": ");
				if (avx_note && p == avx)
					printf("\"OpenSSL runs its SSSE3 code here\"");
				else
					printf("null");
				printf(", \"size\": %zu,\n     \"ours_mbps\": ", o.sizes[k]);
				json_num(n / q->ours_s / MB);
				printf(", \"ours_mbps_q1\": ");
				json_num(n / q->ours_q3 / MB);
				printf(", \"ours_mbps_q3\": ");
				json_num(n / q->ours_q1 / MB);
				printf(", \"ours_cpb\": ");
				json_num(q->ours_s * hz / n);
				printf(",\n     \"openssl_mbps\": ");
				json_num(have_ossl ? n / q->theirs_s / MB : 0);
				printf(", \"openssl_cpb\": ");
				json_num(have_ossl ? q->theirs_s * hz / n : 0);
				printf(", \"ratio\": ");
				json_num(have_ossl ? q->ratio : 0);
				printf(", \"ratio_q1\": ");
				json_num(have_ossl ? q->ratio_q1 : 0);
				printf(", \"ratio_q3\": ");
				json_num(have_ossl ? q->ratio_q3 : 0);
				printf("}");
			}
		}
		printf("\n  ]\n}\n");
		free(R.pt);
		return 0;
	}

	printf("fastsha-bench %s: SHA-1, one-shot fastsha1() vs OpenSSL SHA1_Init/Update/Final\n",
	       fastsha_version());
	printf("machine  %s (%s), %ld CPUs online\n", model, vendor, ncpu);
	printf("openssl  %s\n", ossl_version ? ossl_version
					     : "not built in (libcrypto not found at configure time)");
	printf("date     %s\n", date);
	if (hz > 0)
		printf("clock    ~%.3f GHz, estimated once from a chain of dependent adds "
		       "(1 cycle each), median of 7\n", hz * 1e-9);
	if (imul > 0)
		printf("check    a chain of dependent imul takes %.2f of those cycles each "
		       "(expect 3)\n", imul);
	else
		printf("clock    unknown (no estimate on this compiler): no cycles/byte\n");
	printf("load     %s (1, 5, 15 min, before the run: others share this machine)\n", load);
	printf("method   %u reps of ~%.3g ms (%s) per point%s; medians; MB = 10^6 bytes\n",
	       o.reps, o.sample_s * 1e3,
	       bench_clock == CLOCK_MONOTONIC ? "wall time" : "thread CPU time",
	       have_ossl ? ", ours and OpenSSL alternating in one process per OpenSSL path" : "");
	if (have_ossl)
		printf("ratio    ours/OpenSSL speed, >1 = we are faster; median of per-rep "
		       "ratios, spread = their IQR\n");
	if (*skipped)
		printf("skipped  %s (this CPU cannot run them)\n", skipped);
	if (avx_note)
		printf("note     AVX*: %s\n", avx_note);
	printf("\n%-12s %9s %10s %7s", "backend", "bytes", "ours MB/s", "c/B");
	if (have_ossl)
		printf("   %-7s %10s %7s %8s %7s", "OpenSSL", "MB/s", "c/B", "ratio", "spread");
	putchar('\n');
	for (size_t b = 0; b < R.nb; b++) {
		for (size_t k = 0; k < o.nsizes; k++) {
			const struct point *q = &R.pt[b * o.nsizes + k];
			double n = (double)o.sizes[k];
			if (!q->done)
				continue;
			printf("%-12s %9zu %10.1f %7.2f", R.names[b], o.sizes[k],
			       n / q->ours_s / MB, q->ours_s * hz / n);
			if (have_ossl)
				printf("   %-7s %10.1f %7.2f %8.3f %6.1f%%",
				       avx_note && strcmp(R.path[b], "AVX") == 0 ? "AVX*" : R.path[b],
				       n / q->theirs_s / MB, q->theirs_s * hz / n, q->ratio,
				       100 * (q->ratio_q3 - q->ratio_q1) / q->ratio);
			putchar('\n');
		}
	}
	free(R.pt);
	return 0;
}
