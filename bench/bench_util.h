/* SPDX-License-Identifier: MIT */
/*
 * What fastsha-bench's modes share, defined in bench_util.c: the clock,
 * statistics, the machine's description. The modes are bench_quick.c (the
 * first screen), bench.c (--all: every backend against OpenSSL's matching
 * path), bench_many.c (--many: batches) and bench_dirty.c (--dirty); what
 * they time is in bench_loops.c, and bench.c's main hands the others over.
 */
#ifndef FASTSHA_BENCH_UTIL_H
#define FASTSHA_BENCH_UTIL_H

#include <stddef.h>
#include <stdint.h>

#ifdef FASTSHA_BENCH_OPENSSL
/* SHA1_Init/Update/Final and their SHA-2 siblings are deprecated in
 * OpenSSL 3 but are exactly the unwrapped block code we want to compare
 * with; these keep them declared and silence the deprecation attribute. */
#define OPENSSL_API_COMPAT 0x10100000L
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/crypto.h>
#include <openssl/sha.h>
#endif

/* Picks the clock now_s() reads: this thread's CPU time, or wall time
 * where that is missing. Call once, first thing in main. */
void bench_clock_init(void);
/* "thread CPU time" or "wall time", for the report. */
const char *bench_clock_name(void);
/* Seconds on the clock bench_clock_init() picked. */
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
/* libcrypto's version string, or NULL when built without it. */
const char *bench_openssl_version(void);
/* Folds digests in so that no timed call can be dropped. */
extern volatile uint8_t sink;

#endif
