/* SPDX-License-Identifier: MIT */
/*
 * Small helpers shared by the C tests: choosing the backend under test
 * (exit 77, which ctest reports as skipped, when this CPU cannot run it),
 * hex, a seeded PRNG, and reading NIST .rsp files.
 */
#ifndef FASTSHA_TESTUTIL_H
#define FASTSHA_TESTUTIL_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fastsha/sha1.h"

#define TEST_SKIP 77

static int test_failures;

#define CHECK(cond, ...)                                                   \
	do {                                                               \
		if (!(cond)) {                                             \
			fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
			fprintf(stderr, __VA_ARGS__);                      \
			fputc('\n', stderr);                               \
			if (++test_failures > 20) {                        \
				fprintf(stderr, "too many failures\n");    \
				exit(1);                                   \
			}                                                  \
		}                                                          \
	} while (0)

/* Select backend @name for the whole test, or exit 77 saying why. */
static inline void test_use_backend(const char *name)
{
	int r = fastsha1_use_backend(name);
	if (r == FASTSHA_SELECT_UNSUPPORTED) {
		printf("SKIP: this CPU cannot run backend '%s'\n", name);
		exit(TEST_SKIP);
	}
	if (r != FASTSHA_SELECT_OK) {
		fprintf(stderr, "FAIL: backend '%s' is not in the library's table\n", name);
		exit(1);
	}
	if (strcmp(fastsha1_backend(), name) != 0) {
		fprintf(stderr, "FAIL: asked for '%s', library uses '%s'\n", name, fastsha1_backend());
		exit(1);
	}
}

static inline int test_finish(const char *what)
{
	if (test_failures) {
		fprintf(stderr, "%s: %d failure(s) under backend %s\n", what, test_failures,
			fastsha1_backend());
		return 1;
	}
	printf("%s: ok under backend %s\n", what, fastsha1_backend());
	return 0;
}

static inline void to_hex(const uint8_t *p, size_t n, char *out)
{
	static const char d[] = "0123456789abcdef";
	for (size_t i = 0; i < n; i++) {
		out[2 * i] = d[p[i] >> 4];
		out[2 * i + 1] = d[p[i] & 15];
	}
	out[2 * n] = 0;
}

static inline int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Decode @n bytes of hex at @s into @out; 0 on success. */
static inline int from_hex(const char *s, size_t n, uint8_t *out)
{
	for (size_t i = 0; i < n; i++) {
		int hi = hexval((unsigned char)s[2 * i]), lo = hexval((unsigned char)s[2 * i + 1]);
		if (hi < 0 || lo < 0)
			return -1;
		out[i] = (uint8_t)(hi << 4 | lo);
	}
	return 0;
}

/* xoshiro-style PRNG: splitmix64, seeded from FASTSHA_TEST_SEED or a constant. */
static uint64_t prng_state;

static inline void prng_seed(uint64_t fallback)
{
	const char *s = getenv("FASTSHA_TEST_SEED");
	prng_state = s ? strtoull(s, NULL, 0) : fallback;
	printf("random seed %llu (set FASTSHA_TEST_SEED to repeat)\n",
	       (unsigned long long)prng_state);
}

static inline uint64_t prng(void)
{
	uint64_t z = (prng_state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline void prng_fill(uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)prng();
}

/* The digest of @msg under the spec-literal reference backend, leaving
 * the backend under test selected afterwards. */
static inline void reference_digest(const uint8_t *msg, size_t len, uint8_t out[20])
{
	char cur[64];
	snprintf(cur, sizeof(cur), "%s", fastsha1_backend());
	fastsha1_use_backend("reference");
	fastsha1(msg, len, out);
	fastsha1_use_backend(cur);
}

#endif
