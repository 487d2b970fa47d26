/* SPDX-License-Identifier: MIT */
/*
 * What every mode of fastsha-bench uses (bench_util.h): the clock and its
 * estimate, statistics, the machine's description, size parsing, errors
 * and libcrypto's version.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"

volatile uint8_t sink; /* keeps every digest alive */

void die(const char *fmt, const char *arg)
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

void bench_clock_init(void)
{
	struct timespec probe;
	if (clock_gettime(bench_clock, &probe) != 0)
		bench_clock = CLOCK_MONOTONIC;
}

const char *bench_clock_name(void)
{
	return bench_clock == CLOCK_MONOTONIC ? "wall time" : "thread CPU time";
}

double now_s(void)
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
double quantile(double *v, size_t n, double q)
{
	qsort(v, n, sizeof(*v), cmp_double);
	double pos = q * (double)(n - 1);
	size_t i = (size_t)pos;
	if (i + 1 >= n)
		return v[n - 1];
	return v[i] + (pos - (double)i) * (v[i + 1] - v[i]);
}

/*
 * Clock estimate: a chain of dependent adds runs at one add per cycle on
 * every out-of-order x86 and AArch64 core we know, and the empty asm after
 * each add stops the compiler from merging them. The addend is a register
 * the compiler cannot see into, not an immediate: Intel's cores since
 * Golden Cove fold chains of add-immediate in the renamer, and this loop
 * with `x += 1` read 24 GHz on a Xeon of that line (Emerald Rapids, family
 * 6 model 167 under KVM). Median of 7 runs of ~10 ms.
 */
#if defined(__GNUC__)
#define ADD1 x += y; __asm__ volatile("" : "+r"(x));
#define ADD8 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1
#define ADD64 ADD8 ADD8 ADD8 ADD8 ADD8 ADD8 ADD8 ADD8
static double add_chain(uint64_t n)
{
	uint64_t x = 0, y = 1;
	__asm__ volatile("" : "+r"(y)); /* y's value unknown to the compiler */
	double t0 = now_s();
	for (uint64_t i = 0; i < n; i++) {
		ADD64
	}
	double t = now_s() - t0;
	sink ^= (uint8_t)x;
	return t;
}

double estimate_hz(void)
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
double estimate_hz(void)
{
	return 0; /* unknown: cycles/byte are left out */
}
#endif

/* 64, 4K, 1M (1024-based); a comma may follow (lists). */
size_t parse_size(const char *s)
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

/* When the run starts (UTC, ISO 8601) and the load averages before it. */
void run_stamp(char *date, size_t dcap, char *load, size_t lcap)
{
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(date, dcap, "%Y-%m-%dT%H:%M:%SZ", &tm);
	snprintf(load, lcap, "unknown");
	FILE *lf = fopen("/proc/loadavg", "r");
	if (lf) {
		float l1, l5, l15;
		if (fscanf(lf, "%f %f %f", &l1, &l5, &l15) == 3)
			snprintf(load, lcap, "%.2f %.2f %.2f", l1, l5, l15);
		fclose(lf);
	}
}

/* The value of "key : value" from /proc/cpuinfo, or fallback. */
void cpuinfo(const char *key, char *out, size_t cap, const char *fallback)
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

const char *bench_openssl_version(void)
{
#ifdef FASTSHA_BENCH_OPENSSL
	return OpenSSL_version(OPENSSL_VERSION);
#else
	return NULL;
#endif
}
