/* SPDX-License-Identifier: MIT */
/*
 * What fastsha-bench's two parts share: bench.c (single messages, every
 * backend against OpenSSL's matching path) and bench_many.c (batches of
 * messages through fastsha_many()). Defined in bench.c.
 */
#ifndef FASTSHA_BENCH_H
#define FASTSHA_BENCH_H

#include <stddef.h>
#include <stdint.h>

/* Seconds of this thread's CPU time (wall time where that is missing). */
double now_s(void);
/* Quantile q of v[0..n-1], which it sorts. */
double quantile(double *v, size_t n, double q);
/* The clock, from a chain of dependent adds; 0 when unknown. */
double estimate_hz(void);
/* "key : value" of /proc/cpuinfo into out, else fallback. */
void cpuinfo(const char *key, char *out, size_t cap, const char *fallback);
/* The run's start (UTC, ISO 8601) and the load averages before it. */
void run_stamp(char *date, size_t dcap, char *load, size_t lcap);
/* A size such as 64, 4K or 1M. */
size_t parse_size(const char *s);
/* Print "fastsha-bench: " and the message, exit 2. */
void die(const char *fmt, const char *arg);
/* Folds digests in so that no timed call can be dropped. */
extern volatile uint8_t sink;

/* fastsha-bench --many ...: argv[0] is "--many". */
int bench_many_main(int argc, char **argv);
/* fastsha-bench --dirty ...: argv[0] is "--dirty" (bench_dirty.c). */
int bench_dirty_main(int argc, char **argv);

#endif
