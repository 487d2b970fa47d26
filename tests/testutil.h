/* SPDX-License-Identifier: MIT */
/*
 * Small helpers shared by the C tests: the family and backend under test
 * (exit 77, which ctest reports as skipped, when this CPU cannot run it),
 * the algorithm being checked, hex, a seeded PRNG.
 *
 * Every correctness test takes FAMILY BACKEND as its first arguments and
 * checks each algorithm of that family in turn through the generic API
 * (fastsha.h), so one test file serves every algorithm.
 */
#ifndef FASTSHA_TESTUTIL_H
#define FASTSHA_TESTUTIL_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/mman.h>
#include <unistd.h>

#include "fastsha/fastsha.h"

#define TEST_SKIP 77

#if defined(__linux__) && defined(__GLIBC__)
#include <errno.h>

/*
 * FASTSHA_TEST_EMULATOR=qemu-x86_64 in the environment (make test-qemu, with
 * QEMU_CPU naming the emulated CPU): the test program runs itself again
 * under that emulator before main, so the release build's own tests run on
 * emulated older CPUs without a second build (ctest 3.25 has no test
 * launcher). glibc passes argc and argv to constructors.
 */
__attribute__((constructor)) static void test_emulate(int argc, char **argv)
{
	const char *emu = getenv("FASTSHA_TEST_EMULATOR");
	if (!emu || !*emu || getenv("FASTSHA_TEST_EMULATED"))
		return;
	/* The emulator opens the program by name: /proc/self/exe would then be
	 * the emulator itself. */
	static char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char **args = calloc((size_t)argc + 2, sizeof(*args));
	if (n <= 0 || !args) {
		perror("test_emulate");
		exit(1);
	}
	self[n] = 0;
	args[0] = (char *)emu;
	args[1] = self;
	for (int i = 1; i < argc; i++)
		args[i + 1] = argv[i];
	setenv("FASTSHA_TEST_EMULATED", emu, 1);
	execvp(emu, args);
	fprintf(stderr, "cannot run %s: %s\n", emu, strerror(errno));
	exit(1);
}
#endif

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

/* The families and their algorithms; the first is the family's own. */
static const struct test_family {
	const char *name;
	fastsha_alg algs[10];
	size_t nalgs;
} test_families[] = {
	{ "sha1", { FASTSHA_SHA1 }, 1 },
	{ "sha256", { FASTSHA_SHA256, FASTSHA_SHA224 }, 2 },
	{ "sha512", { FASTSHA_SHA512, FASTSHA_SHA384, FASTSHA_SHA512_224, FASTSHA_SHA512_256 }, 4 },
	{ "keccak",
	  { FASTSHA_SHA3_256, FASTSHA_SHA3_224, FASTSHA_SHA3_384, FASTSHA_SHA3_512, FASTSHA_SHAKE128,
	    FASTSHA_SHAKE256, FASTSHA_KECCAK256, FASTSHA_TURBOSHAKE128, FASTSHA_TURBOSHAKE256,
	    FASTSHA_K12 },
	  10 },
};

static const struct test_family *test_fam; /* the family under test */
static fastsha_alg test_alg;               /* the algorithm being checked now */

/* The digest and block sizes of the algorithm being checked. */
#define DS() fastsha_alg_digest_size(test_alg)
#define BS() fastsha_alg_block_size(test_alg)
#define DMAX FASTSHA_MAX_DIGEST_SIZE

/* Whether the algorithm being checked is its family's own (SHA-1, SHA-256,
 * SHA-512): the variants share its compression and engine code, so the
 * costliest loops run for it and lighter ones for the variants. */
static inline int test_primary(void)
{
	return test_alg == test_fam->algs[0];
}

/* The family called @name, or exit 2. */
static inline const struct test_family *test_family(const char *name)
{
	for (size_t i = 0; i < sizeof(test_families) / sizeof(test_families[0]); i++)
		if (strcmp(test_families[i].name, name) == 0)
			return &test_families[i];
	fprintf(stderr, "unknown family '%s' (sha1, sha256, sha512, keccak)\n", name);
	exit(2);
}

/* Select backend @name of family @family for the whole test, or exit 77
 * saying why. */
static inline void test_use_backend(const char *family, const char *name)
{
	test_fam = test_family(family);
	test_alg = test_fam->algs[0];
	int r = fastsha_use_backend(test_alg, name);
	if (r == FASTSHA_SELECT_UNSUPPORTED) {
		printf("SKIP: this CPU cannot run %s backend '%s'\n", family, name);
		exit(TEST_SKIP);
	}
	if (r != FASTSHA_SELECT_OK) {
		fprintf(stderr, "FAIL: backend '%s' is not in the library's %s table\n", name, family);
		exit(1);
	}
	if (strcmp(fastsha_backend(test_alg), name) != 0) {
		fprintf(stderr, "FAIL: asked for '%s', library uses '%s'\n", name,
			fastsha_backend(test_alg));
		exit(1);
	}
}

static inline int test_finish(const char *what)
{
	if (test_failures) {
		fprintf(stderr, "%s: %d failure(s) under %s backend %s\n", what, test_failures,
			test_fam->name, fastsha_backend(test_fam->algs[0]));
		return 1;
	}
	printf("%s: ok under %s backend %s\n", what, test_fam->name,
	       fastsha_backend(test_fam->algs[0]));
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

/* A preset's sampling knob, FASTSHA_TEST_<what>_SAMPLE=N (one case in N of
 * a long suite, under the sanitizers or an emulator): N, or 0 when @name is
 * unset or empty (every case). */
static inline unsigned test_env_sample(const char *name)
{
	const char *s = getenv(name);
	return s && *s ? (unsigned)strtoul(s, NULL, 10) : 0;
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

/*
 * A guarded region for the no-over-read tests: span bytes from lo to hi,
 * whole pages, readable and writable, with a PROT_NONE page just below lo
 * and one at hi. A load one byte before lo or at hi faults. The page size
 * is the system's: 4 KiB is not every machine's (AArch64 and POWER kernels
 * may use 16 or 64 KiB, where mprotect at a 4 KiB offset fails).
 */
struct test_guard {
	uint8_t *map, *lo, *hi;
	size_t span, page;
};

/* Map a region of at least @bytes (at least one page); exits on failure. */
static inline void test_guard_map(struct test_guard *g, size_t bytes)
{
	g->page = (size_t)sysconf(_SC_PAGESIZE);
	g->span = bytes ? (bytes + g->page - 1) / g->page * g->page : g->page;
	g->map = mmap(NULL, g->span + 2 * g->page, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (g->map == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	g->lo = g->map + g->page;
	g->hi = g->lo + g->span;
	if (mprotect(g->map, g->page, PROT_NONE) || mprotect(g->hi, g->page, PROT_NONE)) {
		perror("mprotect");
		exit(1);
	}
}

static inline void test_guard_unmap(struct test_guard *g)
{
	munmap(g->map, g->span + 2 * g->page);
	g->map = g->lo = g->hi = NULL;
}

/* The digest of @msg under the algorithm being checked and the
 * spec-literal reference backend, leaving the backend under test selected
 * afterwards. */
static inline void reference_digest(const uint8_t *msg, size_t len, uint8_t *out)
{
	char cur[64];
	snprintf(cur, sizeof(cur), "%s", fastsha_backend(test_alg));
	fastsha_use_backend(test_alg, "reference");
	fastsha_digest(test_alg, msg, len, out);
	fastsha_use_backend(test_alg, cur);
}

/*
 * The digest of @msg under a trusted backend other than the one under test:
 * portable, itself held to the reference and NIST's vectors by every other
 * test, and many times faster than the spec-literal oracle; the reference
 * when portable is the one under test. For tests whose point is not the
 * arithmetic (reads past the end) and that hash a great many messages.
 */
static inline void oracle_digest(const uint8_t *msg, size_t len, uint8_t *out)
{
	char cur[64];
	snprintf(cur, sizeof(cur), "%s", fastsha_backend(test_alg));
	fastsha_use_backend(test_alg, strcmp(cur, "portable") == 0 ? "reference" : "portable");
	fastsha_digest(test_alg, msg, len, out);
	fastsha_use_backend(test_alg, cur);
}

/* The digest of @msg streamed in pieces of successive prng() sizes up to
 * @maxpiece. */
static inline void streamed_random(const uint8_t *msg, size_t len, size_t maxpiece, uint8_t *out)
{
	fastsha_ctx ctx;
	fastsha_init(&ctx, test_alg);
	size_t off = 0;
	while (off < len) {
		size_t n = (size_t)(prng() % (maxpiece + 1));
		if (n > len - off)
			n = len - off;
		fastsha_update(&ctx, msg + off, n);
		off += n;
	}
	fastsha_final(&ctx, out);
}

#endif
