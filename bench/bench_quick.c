/* SPDX-License-Identifier: MIT */
/*
 * The first screen of fastsha-bench, and the end of `make`: a line per job
 * with the backend this CPU uses against OpenSSL's default code,
 *   one message    64 B, 1 KiB, 16 KiB: the latency of one call, where
 *                  per-call costs show;
 *   1024 messages  64 B, 4 KiB: throughput, fastsha_many() on the lane
 *                  backend against OpenSSL hashing the same messages one
 *                  after another.
 * These are the points of docs/benchmarks.md's summary, so this machine
 * can be read beside the CPUs there. The per-backend tables are --all's.
 *
 * OpenSSL's side is its SHA*_Init/Update/Final (bench_loops.c) in this
 * process, on the code libcrypto picks for this CPU: OPENSSL_ia32cap is
 * left as the environment has it, and the report says when it is set.
 * The two sides take turns, the one going first swapping every
 * repetition; repetitions are the outer loop over all of a job's points,
 * so a burst of noise is spread over them; a ratio is the median of the
 * per-repetition ratios. Both sides' digests are compared before timing.
 *
 * A new line (keyed hashing, SHA-3) is one row of jobs[] below, with its
 * timed loops beside the others in bench_loops.c (both sides computing the
 * same digest).
 */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fastsha/fastsha.h"

#include "bench_loops.h"
#include "bench_quick.h"
#include "bench_util.h"

#ifdef FASTSHA_BENCH_OPENSSL
#define OSSL(f) f
#else
#define OSSL(f) NULL
#endif

/* One line of the report. */
struct quick_job {
	const char *name;          /* the line's label */
	fastsha_alg alg;           /* what is hashed: its backends are named */
	bench_one_fn ours, theirs; /* one message; theirs NULL: no OpenSSL */
	bench_batch_fn many, loop; /* a batch (many NULL: none); loop is OpenSSL's */
	const char *note;          /* a footnote, when OpenSSL's side is another thing */
	int other;                 /* OpenSSL's side computes another function: no
				    * digest comparison (K12 against SHA3-256) */
};

static const struct quick_job jobs[] = {
	{ "sha1", FASTSHA_SHA1, bench_one_ours, OSSL(bench_one_openssl), bench_batch_many,
	  OSSL(bench_batch_openssl), NULL, 0 },
	{ "sha256", FASTSHA_SHA256, bench_one_ours, OSSL(bench_one_openssl), bench_batch_many,
	  OSSL(bench_batch_openssl), NULL, 0 },
	{ "sha512", FASTSHA_SHA512, bench_one_ours, OSSL(bench_one_openssl), bench_batch_many,
	  OSSL(bench_batch_openssl), NULL, 0 },
	{ "sha1dc", FASTSHA_SHA1DC, bench_one_ours, OSSL(bench_one_openssl), bench_batch_many,
	  OSSL(bench_batch_openssl), "sha1dc: against OpenSSL's plain SHA-1 (OpenSSL has no SHA1DC)",
	  0 },
	{ "hmac-sha256", FASTSHA_SHA256, bench_one_hmac_ours, OSSL(bench_one_hmac_openssl),
	  bench_batch_hmac_many, OSSL(bench_batch_hmac_openssl),
	  "hmac-sha256: one message from the raw key against HMAC(); 1024 under one key against "
	  "EVP_MAC re-initialised", 0 },
	{ "sha3-256", FASTSHA_SHA3_256, bench_one_ours, OSSL(bench_one_openssl), bench_batch_many,
	  OSSL(bench_batch_openssl), NULL, 0 },
	{ "k12", FASTSHA_K12, bench_one_ours, OSSL(bench_one_openssl), bench_batch_many,
	  OSSL(bench_batch_openssl), "k12: against OpenSSL's SHA3-256 (OpenSSL has no KangarooTwelve); past 8 KiB a message's "
	  "leaves run in lanes, on the batch column's row",
	  1 },
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define BATCH_N 1024
static const size_t one_sizes[] = { 64, 1024, 16384 };
static const size_t batch_sizes[] = { 64, 4096 };
#define NPOINTS (COUNT(one_sizes) + COUNT(batch_sizes))

/* One contender at one point: its timed loop and what that hashes. */
struct side {
	bench_one_fn one;     /* one message of n bytes at buf, iters times; or */
	bench_batch_fn batch; /* passes over m[0..count) */
	fastsha_alg alg;
	const uint8_t *buf;
	size_t n;
	const fastsha_msg *m;
	size_t count;
	uint8_t *out;   /* its digests: count of them for a batch */
	uint64_t iters; /* calls (passes) a sample */
};

static int present(const struct side *s)
{
	return s->one || s->batch;
}

static double run(const struct side *s, uint64_t iters)
{
	return s->one ? s->one(s->alg, s->buf, s->n, iters, s->out)
		      : s->batch(s->alg, s->m, s->count, iters, s->out);
}

/* How many calls make one sample of about @target seconds. */
static uint64_t calibrate(const struct side *s, double target)
{
	uint64_t iters = 1;
	for (;;) {
		double t = run(s, iters);
		if (t >= target / 8 || iters >= (UINT64_C(1) << 40)) {
			double want = (double)iters * target / (t > 1e-9 ? t : 1e-9);
			return want < 1 ? 1 : (uint64_t)want;
		}
		iters *= 4;
	}
}

/* A fast wrong answer proves nothing: both sides' digests first. Without
 * OpenSSL a batch is checked against our one-shot (@one: the job's, which
 * for HMAC is keyed), message by message.
 * (Not for a job whose OpenSSL side computes another function.) */
static void check(const struct side *ours, const struct side *theirs, bench_one_fn one,
		  const char *what)
{
	const size_t ds = fastsha_alg_digest_size(ours->alg);
	const size_t len = ds * (ours->one ? 1 : ours->count);
	uint8_t *want = malloc(len);
	if (!want)
		die("out of memory for %s", "digests");
	run(ours, 1);
	if (present(theirs)) {
		run(theirs, 1);
		memcpy(want, theirs->out, len);
	} else if (ours->batch) {
		for (size_t i = 0; i < ours->count; i++)
			one(ours->alg, ours->m[i].data, ours->m[i].len, 1, want + i * ds);
	} else {
		memcpy(want, ours->out, len);
	}
	if (memcmp(want, ours->out, len) != 0)
		die("%s: fastsha's digests differ from the other side's; not timing it", what);
	free(want);
}

/*
 * Time the pairs ours[k] and theirs[k] (theirs[k] absent: ours alone),
 * k < np, into res[k]. Calibrated first; then each repetition takes one
 * sample of every pair, the side going first swapping every repetition.
 */
static void time_pairs(struct side *ours, struct side *theirs, size_t np, unsigned reps,
		       double sample_s, struct bench_pair *res)
{
	double *so = malloc(np * reps * sizeof(double));
	double *st = malloc(np * reps * sizeof(double));
	double *v = malloc(reps * sizeof(double));
	if (!so || !st || !v)
		die("out of memory for %s", "samples");
	for (size_t k = 0; k < np; k++) {
		ours[k].iters = calibrate(&ours[k], sample_s);
		if (present(&theirs[k]))
			theirs[k].iters = calibrate(&theirs[k], sample_s);
	}
	for (unsigned r = 0; r < reps; r++) {
		for (size_t k = 0; k < np; k++) {
			const struct side *a = &ours[k], *b = &theirs[k];
			double to, tt = 0;
			if (present(b) && (r & 1)) {
				tt = run(b, b->iters) / (double)b->iters;
				to = run(a, a->iters) / (double)a->iters;
			} else {
				to = run(a, a->iters) / (double)a->iters;
				if (present(b))
					tt = run(b, b->iters) / (double)b->iters;
			}
			so[k * reps + r] = to;
			st[k * reps + r] = tt;
		}
	}
	for (size_t k = 0; k < np; k++) {
		struct bench_pair *p = &res[k];
		memset(p, 0, sizeof(*p));
		memcpy(v, so + k * reps, reps * sizeof(double));
		p->ours_s = quantile(v, reps, 0.5);
		p->ours_q1 = quantile(v, reps, 0.25);
		p->ours_q3 = quantile(v, reps, 0.75);
		if (!present(&theirs[k]))
			continue;
		memcpy(v, st + k * reps, reps * sizeof(double));
		p->theirs_s = quantile(v, reps, 0.5);
		for (unsigned r = 0; r < reps; r++)
			v[r] = so[k * reps + r] > 0 ? st[k * reps + r] / so[k * reps + r] : 0;
		p->ratio = quantile(v, reps, 0.5);
		p->ratio_q1 = quantile(v, reps, 0.25);
		p->ratio_q3 = quantile(v, reps, 0.75);
	}
	free(so);
	free(st);
	free(v);
}

/* @len bytes of xorshift noise, touched once (so paged in). */
static uint8_t *noise(size_t len)
{
	uint8_t *buf = malloc(len ? len : 1);
	uint64_t s = 0x9e3779b97f4a7c15u;
	if (!buf)
		die("out of memory for a %s buffer", "message");
	for (size_t i = 0; i < len; i++) {
		s ^= s << 13, s ^= s >> 7, s ^= s << 17;
		buf[i] = (uint8_t)(s >> 24);
	}
	return buf;
}

/* @count messages of @size bytes, back to back from @buf. */
static void batch_of(fastsha_msg *m, const uint8_t *buf, size_t count, size_t size)
{
	for (size_t i = 0; i < count; i++) {
		m[i].data = buf + i * size;
		m[i].len = size;
	}
}

static uint8_t *digests(size_t count)
{
	uint8_t *out = malloc(count * FASTSHA_MAX_DIGEST_SIZE);
	if (!out)
		die("out of memory for %s", "digests");
	return out;
}

void bench_batch_point(fastsha_alg alg, size_t count, size_t size, unsigned reps,
		       double sample_s, struct bench_pair *r)
{
	uint8_t *buf = noise(count * size);
	fastsha_msg *m = malloc((count ? count : 1) * sizeof(*m));
	if (!m)
		die("out of memory for %s", "messages");
	batch_of(m, buf, count, size);
	struct side ours = { NULL, bench_batch_many, alg, NULL, 0, m, count, digests(count), 0 };
	struct side theirs = { NULL, OSSL(bench_batch_openssl), alg, NULL, 0, m, count,
			       digests(count), 0 };
	check(&ours, &theirs, bench_one_ours, fastsha_many_backend(alg));
	time_pairs(&ours, &theirs, 1, reps, sample_s, r);
	free(ours.out);
	free(theirs.out);
	free(m);
	free(buf);
}

static void size_label(size_t n, char *out, size_t cap)
{
	if (n >= 1024 && n % 1024 == 0)
		snprintf(out, cap, "%zu KiB", n >> 10);
	else
		snprintf(out, cap, "%zu B", n);
}

/* A cell: the ratio, or fastsha's MB/s when there is no OpenSSL. */
static void cell(const struct bench_pair *p, double bytes, int have_ossl)
{
	if (have_ossl && p->ratio > 0)
		printf(" %6.2f", p->ratio);
	else if (!have_ossl && p->ours_s > 0)
		printf(" %6.0f", bytes / p->ours_s / 1e6);
	else
		printf(" %6s", "-");
}

/* One job measured and printed: its name column is @w wide. */
static void run_job(const struct quick_job *J, int w, const uint8_t *buf, fastsha_msg *batches,
		    uint8_t *outs, unsigned reps, double sample_s, int have_ossl)
{
	struct side ours[NPOINTS], theirs[NPOINTS];
	struct bench_pair res[NPOINTS];
	size_t np = 0;
	const size_t nb = J->many ? COUNT(batch_sizes) : 0;
	uint8_t *o = outs;

	memset(ours, 0, sizeof(ours));
	memset(theirs, 0, sizeof(theirs));
	for (size_t k = 0; k < COUNT(one_sizes); k++, np++) {
		ours[np] = (struct side){ J->ours, NULL, J->alg, buf, one_sizes[k], NULL, 0, o, 0 };
		theirs[np] = (struct side){ J->theirs, NULL, J->alg, buf, one_sizes[k], NULL, 0,
					    o + FASTSHA_MAX_DIGEST_SIZE, 0 };
		o += 2 * FASTSHA_MAX_DIGEST_SIZE;
		if (!J->other)
			check(&ours[np], &theirs[np], J->ours, J->name);
	}
	for (size_t k = 0; k < nb; k++, np++) {
		const fastsha_msg *m = batches + k * BATCH_N;
		ours[np] = (struct side){ NULL, J->many, J->alg, NULL, 0, m, BATCH_N, o, 0 };
		o += BATCH_N * FASTSHA_MAX_DIGEST_SIZE;
		theirs[np] = (struct side){ NULL, J->loop, J->alg, NULL, 0, m, BATCH_N, o, 0 };
		o += BATCH_N * FASTSHA_MAX_DIGEST_SIZE;
		if (!J->other)
			check(&ours[np], &theirs[np], J->ours, J->name);
	}
	time_pairs(ours, theirs, np, reps, sample_s, res);

	char name[64];
	snprintf(name, sizeof(name), "%s%s", J->name, J->note && have_ossl ? "*" : "");
	printf("%-*s %-12s", w, name, fastsha_backend(J->alg));
	for (size_t k = 0; k < COUNT(one_sizes); k++)
		cell(&res[k], (double)one_sizes[k], have_ossl);
	if (have_ossl)
		printf(" %6.0f", (double)one_sizes[COUNT(one_sizes) - 1] /
					 res[COUNT(one_sizes) - 1].ours_s / 1e6);
	if (nb) {
		printf("   %-11s", fastsha_many_backend(J->alg));
		for (size_t k = 0; k < nb; k++)
			cell(&res[COUNT(one_sizes) + k], (double)(BATCH_N * batch_sizes[k]),
			     have_ossl);
		if (have_ossl)
			printf(" %6.0f", (double)(BATCH_N * batch_sizes[nb - 1]) /
						 res[np - 1].ours_s / 1e6);
	}
	putchar('\n');
	fflush(stdout);
}

int bench_quick_main(int quick, unsigned reps, double sample_s)
{
#ifdef FASTSHA_BENCH_OPENSSL
	const int have_ossl = 1;
#else
	const int have_ossl = 0;
#endif
	if (!reps)
		reps = quick ? 5 : 11;
	if (!(sample_s > 0))
		sample_s = quick ? 3e-3 : 10e-3;

	char model[256], date[32], load[64], ossl[64] = "";
	cpuinfo("model name", model, sizeof(model), "unknown CPU");
	run_stamp(date, sizeof(date), load, sizeof(load));
	const char *v = bench_openssl_version();
	if (v) { /* "OpenSSL 3.0.19 27 Jan 2026": its name and number */
		const char *sp = strchr(v, ' ');
		sp = sp ? strchr(sp + 1, ' ') : NULL;
		snprintf(ossl, sizeof(ossl), "%.*s", sp ? (int)(sp - v) : (int)strlen(v), v);
	}
	const char *cap = getenv("OPENSSL_ia32cap");

	int w = 7;
	for (size_t j = 0; j < COUNT(jobs); j++) {
		int len = (int)strlen(jobs[j].name) + (jobs[j].note != NULL);
		w = len > w ? len : w;
	}
	char one_head[64] = "", batch_head[64] = "";
	for (size_t k = 0; k < COUNT(one_sizes); k++) {
		char l[32];
		size_label(one_sizes[k], l, sizeof(l));
		snprintf(one_head + strlen(one_head), sizeof(one_head) - strlen(one_head), " %6s", l);
	}
	for (size_t k = 0; k < COUNT(batch_sizes); k++) {
		char l[32];
		size_label(batch_sizes[k], l, sizeof(l));
		snprintf(batch_head + strlen(batch_head), sizeof(batch_head) - strlen(batch_head),
			 " %6s", l);
	}

	printf("fastsha-bench %s%s: %s, %ld CPUs, load %.*s\n", fastsha_version(),
	       quick ? " --quick" : "", model, sysconf(_SC_NPROCESSORS_ONLN),
	       (int)strcspn(load, " "), load);
	if (have_ossl)
		printf("ratio = fastsha's speed / %s's here; above 1: fastsha is faster\n",
		       ossl);
	else
		printf("MB/s of fastsha (10^6 bytes/s): OpenSSL was not found at configure time\n");
	if (cap)
		printf("OPENSSL_ia32cap=%s is set: OpenSSL runs the code that selects\n", cap);
	printf("\n%*s %-*s   %s\n", w, "", have_ossl ? 37 : 30, "one message (latency)",
	       "1024 messages (throughput)");
	printf("%*s %-12s%s%s   %-11s%s%s\n", w, "", "backend", one_head, have_ossl ? "   MB/s" : "",
	       "backend", batch_head, have_ossl ? "   MB/s" : "");
	fflush(stdout);

	size_t maxb = batch_sizes[COUNT(batch_sizes) - 1];
	size_t bytes = BATCH_N * maxb > one_sizes[COUNT(one_sizes) - 1]
			       ? BATCH_N * maxb
			       : one_sizes[COUNT(one_sizes) - 1];
	uint8_t *buf = noise(bytes);
	fastsha_msg *batches = malloc(COUNT(batch_sizes) * BATCH_N * sizeof(*batches));
	uint8_t *outs = malloc((2 * COUNT(one_sizes) + 2 * BATCH_N * COUNT(batch_sizes)) *
			       FASTSHA_MAX_DIGEST_SIZE);
	if (!batches || !outs)
		die("out of memory for %s", "batches");
	for (size_t k = 0; k < COUNT(batch_sizes); k++)
		batch_of(batches + k * BATCH_N, buf, BATCH_N, batch_sizes[k]);
	for (size_t j = 0; j < COUNT(jobs); j++)
		run_job(&jobs[j], w, buf, batches, outs, reps, sample_s, have_ossl);

	if (have_ossl)
		printf("OpenSSL: SHA*_Init/Update/Final (SHA-3: EVP) on the code it picks for this\n"
		       "CPU, one message at a time. MB/s: fastsha's at 16 KiB and at 4 KiB. Medians\n"
		       "of %u paired runs. All backends: --all; keyed hashing: --mac; method, other\n"
		       "CPUs: docs/benchmarks.md\n",
		       reps);
	else
		printf("Medians of %u runs. All backends: --all; method, other CPUs: "
		       "docs/benchmarks.md\n",
		       reps);
	for (size_t j = 0; have_ossl && j < COUNT(jobs); j++)
		if (jobs[j].note)
			printf("* %s\n", jobs[j].note);
	free(buf);
	free(batches);
	free(outs);
	return 0;
}
