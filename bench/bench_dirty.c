/* SPDX-License-Identifier: MIT */
/*
 * fastsha-bench --dirty: how fast our calls run when the caller left the
 * upper halves of the ymm registers dirty (256-bit AVX code with no
 * vzeroupper after it), against the same calls from a clean state.
 *
 * Before every timed call the loop calls upper_dirty() (bench/upper_dirty.h:
 * one VEX.256 write, and on AVX-512 CPUs an EVEX.512 write to every zmm
 * register, no vzeroupper) or upper_clean() (the same writes, then
 * vzeroupper); the two loops alternate, in a rotating order, so that only
 * the register state differs. On this project's Zen 3 under KVM each
 * legacy-SSE SHA-NI instruction issued in the dirty state cost about
 * 260-330 cycles (docs/adding-a-backend.md), so a SHA-NI entry point that
 * did not clean the state itself would run many times slower dirty.
 *
 * Points, per algorithm: one-shot 64 B and 16 KiB (fastsha1(), fastsha256()
 * ...: the single-message backend) and a batch of 64 x 4 KiB (fastsha_many(): the
 * lane row). A sample is a loop calibrated to --sample-ms of thread CPU
 * time; figures are medians over --reps, the ratio the median of the
 * per-repetition ratios, dirty speed over clean (1.00: no penalty).
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fastsha/fastsha.h"
#include "fastsha/sha1.h"
#include "fastsha/sha256.h"
#include "fastsha/sha512.h"

#include "bench_util.h"
#include "bench_dirty.h"
#include "upper_dirty.h"

#define BATCH_N 64
#define BATCH_SIZE 4096
#define ONESHOT_BIG 16384
#define ONESHOT_SMALL 64
#define MAX_ALGS 8
#define MAX_REPS 1000

enum { P_SMALL, P_BIG, P_BATCH, NP };

static void usage(FILE *f)
{
	fprintf(f, "usage: fastsha-bench --dirty [options]\n"
		   "  -a, --alg LIST      sha1, sha224, sha256, sha384, sha512 (default\n"
		   "                      sha1,sha256,sha512)\n"
		   "  --reps N            repetitions per point (default 9)\n"
		   "  --sample-ms MS      one sample (default 10)\n"
		   "FASTSHA_BACKEND pins the backends as usual.\n");
}

#ifdef FSHA_HAVE_UPPER_DIRTY
/* Inside the #ifdef with its one reader: where upper_dirty.h has no x86
 * code (s390x, POWER, AArch64) it is unused and -Werror stops the build. */
static const char *const pname[NP] = { "one-shot 64 B", "one-shot 16 KiB", "64 x 4 KiB batch" };

/* One call of point @p; the state is set just before it. */
static void call(int dirty, int p, fastsha_alg alg, const uint8_t *buf, const fastsha_msg *m,
		 uint8_t *out)
{
	if (dirty)
		upper_dirty();
	else
		upper_clean();
	if (p == P_BATCH) {
		fastsha_many(alg, m, BATCH_N, out);
	} else {
		size_t len = p == P_SMALL ? ONESHOT_SMALL : ONESHOT_BIG;
		/* The typed one-shots: fastsha_digest() happens to reach glibc's
		 * memcpy, whose AVX2 code ends in vzeroupper, before any SSE
		 * instruction, and so hid the penalty. */
		switch (alg) {
		case FASTSHA_SHA1: fastsha1(buf, len, out); break;
		case FASTSHA_SHA224: fastsha224(buf, len, out); break;
		case FASTSHA_SHA256: fastsha256(buf, len, out); break;
		case FASTSHA_SHA384: fastsha384(buf, len, out); break;
		case FASTSHA_SHA512: fastsha512(buf, len, out); break;
		default: fastsha_digest(alg, buf, len, out); break;
		}
	}
	sink ^= out[0];
}

static double timed(int dirty, int p, fastsha_alg alg, const uint8_t *buf, const fastsha_msg *m,
		    uint8_t *out, uint64_t iters)
{
	double t0 = now_s();
	for (uint64_t k = 0; k < iters; k++)
		call(dirty, p, alg, buf, m, out);
	return now_s() - t0;
}
#endif

int bench_dirty_main(int argc, char **argv)
{
	fastsha_alg algs[MAX_ALGS] = { FASTSHA_SHA1, FASTSHA_SHA256, FASTSHA_SHA512 };
	size_t nalgs = 3;
	unsigned reps = 9;
	double sample_s = 10e-3;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			usage(stdout);
			return 0;
		} else if (!v) {
			die("%s: unknown option or missing value (try --dirty --help)", a);
		} else if (strcmp(a, "-a") == 0 || strcmp(a, "--alg") == 0) {
			nalgs = 0;
			for (const char *q = v; q; q = strchr(q, ',') ? strchr(q, ',') + 1 : NULL) {
				char name[32];
				size_t len = strcspn(q, ",");
				int alg = -1;
				if (len < sizeof(name)) {
					memcpy(name, q, len);
					name[len] = '\0';
					alg = fastsha_alg_from_name(name);
				}
				if (alg < 0)
					die("unknown algorithm in '%s'", v);
				if (nalgs < MAX_ALGS)
					algs[nalgs++] = (fastsha_alg)alg;
			}
			i++;
		} else if (strcmp(a, "--reps") == 0) {
			reps = (unsigned)strtoul(v, NULL, 10);
			if (reps < 1 || reps > MAX_REPS)
				die("bad --reps '%s' (1..1000)", v);
			i++;
		} else if (strcmp(a, "--sample-ms") == 0) {
			sample_s = strtod(v, NULL) * 1e-3;
			if (!(sample_s > 0 && sample_s <= 10))
				die("bad --sample-ms '%s'", v);
			i++;
		} else {
			die("unknown option '%s' (try --dirty --help)", a);
		}
	}
#ifndef FSHA_HAVE_UPPER_DIRTY
	(void)algs, (void)nalgs, (void)reps, (void)sample_s;
	die("%s", "--dirty: x86 only (the ymm registers' upper halves)");
	return 2;
#else
	if (!upper_avx_usable())
		die("%s", "--dirty: this CPU (or OS) has no AVX, so no upper state to dirty");
	uint8_t *buf = malloc(BATCH_N * BATCH_SIZE), *out = malloc(BATCH_N * FASTSHA_MAX_DIGEST_SIZE);
	fastsha_msg m[BATCH_N];
	if (!buf || !out)
		die("%s", "out of memory");
	for (size_t i = 0; i < BATCH_N * BATCH_SIZE; i++)
		buf[i] = (uint8_t)(i * 131 + (i >> 9));
	for (size_t i = 0; i < BATCH_N; i++)
		m[i].data = buf + i * BATCH_SIZE, m[i].len = BATCH_SIZE;
	const size_t bytes[NP] = { ONESHOT_SMALL, ONESHOT_BIG, BATCH_N * BATCH_SIZE };

	char model[256], date[32], load[64];
	cpuinfo("model name", model, sizeof(model), "unknown CPU");
	run_stamp(date, sizeof(date), load, sizeof(load));
	printf("fastsha-bench %s --dirty: each call after a VEX.256 write%s with (clean) and\n"
	       "without (dirty) vzeroupper\nmachine  %s; %s\nload     %s (before the run)\n"
	       "method   %u reps of ~%.3g ms thread CPU time per point and state, alternating;\n"
	       "         medians; dirty/clean = median of per-rep speed ratios; MB = 10^6 bytes\n\n",
	       fastsha_version(), upper_zmm_ ? " and EVEX.512 writes to zmm0-31" : "", model,
	       date, load, reps, sample_s * 1e3);
	printf("%-8s %-18s %-12s %10s %10s %12s\n", "alg", "point", "backend", "clean MB/s",
	       "dirty MB/s", "dirty/clean");
	double *s = calloc(2 * (size_t)reps, sizeof(double)), *r = calloc(reps, sizeof(double));
	if (!s || !r)
		die("%s", "out of memory");
	for (size_t a = 0; a < nalgs; a++) {
		for (int p = 0; p < NP; p++) {
			uint64_t iters = 1;
			for (;;) { /* calibrate on the clean state */
				double t = timed(0, p, algs[a], buf, m, out, iters);
				if (t >= sample_s / 8 || iters >= (UINT64_C(1) << 32)) {
					double want = (double)iters * sample_s / (t > 1e-9 ? t : 1e-9);
					iters = want < 1 ? 1 : (uint64_t)want;
					break;
				}
				iters *= 4;
			}
			for (unsigned rep = 0; rep < reps; rep++)
				for (int k = 0; k < 2; k++) {
					int dirty = (int)((rep + (unsigned)k) & 1);
					s[dirty * reps + rep] =
						timed(dirty, p, algs[a], buf, m, out, iters) / (double)iters;
				}
			for (unsigned rep = 0; rep < reps; rep++)
				r[rep] = s[rep] / s[reps + rep];
			double ratio = quantile(r, reps, 0.5);
			double tc = quantile(s, reps, 0.5), td = quantile(s + reps, reps, 0.5);
			printf("%-8s %-18s %-12s %10.0f %10.0f %12.3f\n", fastsha_alg_name(algs[a]),
			       pname[p], p == P_BATCH ? fastsha_many_backend(algs[a]) : fastsha_backend(algs[a]),
			       (double)bytes[p] / tc / 1e6, (double)bytes[p] / td / 1e6, ratio);
		}
	}
	free(s);
	free(r);
	free(buf);
	free(out);
	return 0;
#endif
}
