/* SPDX-License-Identifier: MIT */
/*
 * Long messages, for one family's own algorithm (SHA-1, SHA-256, SHA-512;
 * the variants share its engine and compression) under one backend.
 *
 * The engine hands a backend at most FSHA_CALL_BLOCKS (2^20) blocks a
 * call (src/core/backend.h), so what a row itself can get wrong with a
 * long run is one piece and the step to the next: under every row, one
 * update of 2^20 + 1 blocks + 3 bytes. Past 4 GiB only the engine's code
 * is involved (the pieces, a size_t length above 32 bits, a bit count
 * above 2^32 and 2^35), the same under every backend, so under the
 * backend the library picks (or FASTSHA_TEST_LARGE_ONESHOT's: a run that
 * keeps only some rows can name one of them): one update of 4 GiB + 3
 * bytes, that context continued in uneven pieces to 5 GiB + 1, and the
 * one-shot API past 4 GiB. (Up to 0.3.0 each row took the 4 GiB update
 * itself: 2-8 s a row, most of a minute of CI, for the same check.)
 *
 * The input is a read-only anonymous mapping, which the kernel backs
 * with its one zero page, so no memory is used. The answers were made by
 * GNU sha1sum, sha256sum and sha512sum (tests/vectors/zeros.txt).
 *
 * usage: test_large FAMILY BACKEND VECTOR_DIR
 */
#include <sys/mman.h>

#include "testutil.h"
#include "../src/core/backend.h" /* FSHA_CALL_BLOCKS */

/* @got against @want, digests of test_alg, both shown when they differ. */
static void expect(const uint8_t *got, const uint8_t *want, const char *what, uint64_t len)
{
	char hg[2 * DMAX + 1], hw[2 * DMAX + 1];
	to_hex(got, DS(), hg);
	to_hex(want, DS(), hw);
	CHECK(memcmp(got, want, DS()) == 0, "%s of %llu bytes: got %s want %s", what,
	      (unsigned long long)len, hg, hw);
}

/* @len zero bytes in one update on a fresh @ctx, finished (final leaves it
 * usable) and checked against @want. */
static void check_update(fastsha_ctx *ctx, const uint8_t *zero, uint64_t len, const uint8_t *want)
{
	uint8_t got[DMAX];
	fastsha_init(ctx, test_alg);
	fastsha_update(ctx, zero, (size_t)len);
	fastsha_final(ctx, got);
	expect(got, want, "one update", len);
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: %s FAMILY BACKEND VECTOR_DIR\n", argv[0]);
		return 2;
	}
	/* the backend the library picks by itself on this CPU, before the test
	 * chooses one */
	char chosen[64];
	const char *env = getenv("FASTSHA_TEST_LARGE_ONESHOT"); /* a preset's choice */
	snprintf(chosen, sizeof(chosen), "%s",
		 env && *env ? env : fastsha_backend(test_family(argv[1])->algs[0]));
	test_use_backend(argv[1], argv[2]);
	char path[4096];
	snprintf(path, sizeof(path), "%s/zeros.txt", argv[3]);
	FILE *f = fopen(path, "r");
	if (!f) {
		perror(path);
		return 1;
	}
	uint64_t lens[3];
	uint8_t want[3][DMAX];
	int n = 0;
	char line[256];
	while (n < 3 && fgets(line, sizeof(line), f)) {
		unsigned long long l;
		char alg[16], hex[2 * DMAX + 2];
		if (line[0] == '#' || sscanf(line, "%15s %llu %129s", alg, &l, hex) != 3 ||
		    fastsha_alg_from_name(alg) != (int)test_alg)
			continue;
		lens[n] = l;
		if (strlen(hex) != 2 * DS() || from_hex(hex, DS(), want[n]))
			return 1;
		n++;
	}
	fclose(f);
	const size_t crossing = (FSHA_CALL_BLOCKS + 1) * BS() + 3;
	if (n != 3 || lens[0] != crossing) {
		fprintf(stderr, "%s: expected three %s entries, the first of %zu bytes\n", path,
			fastsha_alg_name(test_alg), crossing);
		return 1;
	}
	/* 32-bit: the row's part only (no buffer past 4 GiB there) */
	const int past4g = sizeof(size_t) >= 8;
	size_t maplen = past4g ? (size_t)lens[2] : (size_t)lens[0];
	const uint8_t *zero = mmap(NULL, maplen, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (zero == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	/* The row's own part: one update that the engine must split, its first
	 * call the longest a backend is ever given. */
	fastsha_ctx ctx;
	check_update(&ctx, zero, lens[0], want[0]);
	if (!past4g || strcmp(argv[2], chosen) != 0) {
		if (past4g)
			printf("past 4 GiB (one update, streaming to 5 GiB, one-shot): the "
			       "engine's code, checked under %s\n", chosen);
		else
			printf("past 4 GiB: no buffer that long with a %zu-byte size_t\n",
			       sizeof(size_t));
		munmap((void *)zero, maplen);
		return test_finish("large");
	}

	/* One update of more than 4 GiB: 64 calls of the backend (32 of
	 * SHA-512's) and the 3-byte tail. */
	check_update(&ctx, zero, lens[1], want[1]);
	/* The same context goes on in uneven pieces to 5 GiB + 1: the engine's
	 * buffering and counters. */
	static const size_t pieces[] = { 1, 63, 1000000, 536870913, 64 };
	uint64_t total = lens[1];
	for (size_t i = 0; i < sizeof(pieces) / sizeof(pieces[0]); i++) {
		fastsha_update(&ctx, zero + total, pieces[i]);
		total += pieces[i];
	}
	fastsha_update(&ctx, zero + total, (size_t)(lens[2] - total));
	uint8_t got[DMAX];
	fastsha_final(&ctx, got);
	expect(got, want[2], "streaming", lens[2]);
	/* The one-shot path with a length past 32 bits. */
	fastsha_digest(test_alg, zero, (size_t)lens[1], got);
	expect(got, want[1], "one-shot", lens[1]);
	munmap((void *)zero, maplen);
	return test_finish("large");
}
