/* SPDX-License-Identifier: MIT */
/*
 * Messages past 2^32 bytes, for one family's own algorithm (SHA-1,
 * SHA-256, SHA-512; the variants share its engine and compression) under
 * one backend: one update of 4 GiB + 3
 * bytes (a size_t length above 32 bits, a bit count above 2^32 and 2^35);
 * under the backend the library picks (or FASTSHA_TEST_LARGE_ONESHOT's: a
 * run that keeps only some rows can name one of them),
 * also that context continued in uneven pieces to 5 GiB + 1 and the
 * one-shot API past 4 GiB. The input
 * is a read-only anonymous mapping, which the kernel backs with its one
 * zero page, so no memory is used. The answers were made by GNU sha1sum,
 * sha256sum and sha512sum (tests/vectors/zeros.txt).
 *
 * usage: test_large FAMILY BACKEND VECTOR_DIR
 */
#include <sys/mman.h>

#include "testutil.h"

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
	size_t ds = DS();
	if (strcmp(argv[2], "reference") == 0) {
		printf("SKIP: the >4 GiB paths are the engine's, the same under every backend and\n"
		       "checked under the others; the spec-literal oracle would take minutes\n");
		return TEST_SKIP;
	}
	fastsha_alg fam_alg = test_family(argv[1])->algs[0];
	for (size_t i = 0; i < fastsha_backend_count(fam_alg); i++)
		if (strcmp(fastsha_backend_name(fam_alg, i), argv[2]) == 0 &&
		    fastsha_backend_lanes(fam_alg, i) > 1) {
			printf("SKIP: %s is a lane row, whose one-message path runs its kernel on all\n"
			       "%u lanes (that many times the work: a minute or more here); the >4 GiB\n"
			       "paths are the engine's, checked under every single-stream row, and the\n"
			       "kernel is checked by test_vectors, test_stream, test_guard and test_many\n",
			       argv[2], fastsha_backend_lanes(fam_alg, i));
			return TEST_SKIP;
		}
	if (sizeof(size_t) < 8) {
		printf("SKIP: size_t is %zu bytes; no single buffer past 4 GiB here\n", sizeof(size_t));
		return TEST_SKIP;
	}
	char path[4096];
	snprintf(path, sizeof(path), "%s/zeros.txt", argv[3]);
	FILE *f = fopen(path, "r");
	if (!f) {
		perror(path);
		return 1;
	}
	uint64_t lens[2];
	uint8_t want[2][DMAX];
	int n = 0;
	char line[256];
	while (n < 2 && fgets(line, sizeof(line), f)) {
		unsigned long long l;
		char alg[16], hex[2 * DMAX + 2];
		if (line[0] == '#' || sscanf(line, "%15s %llu %129s", alg, &l, hex) != 3 ||
		    fastsha_alg_from_name(alg) != (int)test_alg)
			continue;
		lens[n] = l;
		if (strlen(hex) != 2 * ds || from_hex(hex, ds, want[n]))
			return 1;
		n++;
	}
	fclose(f);
	if (n != 2) {
		fprintf(stderr, "%s: expected two %s entries\n", path, fastsha_alg_name(test_alg));
		return 1;
	}
	size_t maplen = (size_t)lens[1];
	const uint8_t *zero = mmap(NULL, maplen, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (zero == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	uint8_t got[DMAX];
	char hg[2 * DMAX + 1], hw[2 * DMAX + 1];

	/* One update of more than 4 GiB, checked: the backend's own part, one
	 * compression call of 2^26+ blocks. */
	fastsha_ctx ctx;
	fastsha_init(&ctx, test_alg);
	fastsha_update(&ctx, zero, (size_t)lens[0]);
	fastsha_final(&ctx, got);
	to_hex(got, ds, hg);
	to_hex(want[0], ds, hw);
	CHECK(memcmp(got, want[0], ds) == 0, "one update of %llu bytes: got %s want %s",
	      (unsigned long long)lens[0], hg, hw);
	/* The same context goes on in uneven pieces to 5 GiB + 1 (final leaves
	 * it usable): the engine's buffering and counters, the same under every
	 * backend, so under the one the library picks (as the one-shot below). */
	if (strcmp(argv[2], chosen) == 0) {
		static const size_t pieces[] = { 1, 63, 1000000, 536870913, 64 };
		uint64_t total = lens[0];
		for (size_t i = 0; i < sizeof(pieces) / sizeof(pieces[0]); i++) {
			fastsha_update(&ctx, zero + total, pieces[i]);
			total += pieces[i];
		}
		fastsha_update(&ctx, zero + total, (size_t)(lens[1] - total));
		fastsha_final(&ctx, got);
		to_hex(got, ds, hg);
		to_hex(want[1], ds, hw);
		CHECK(memcmp(got, want[1], ds) == 0, "%llu bytes streamed: got %s want %s",
		      (unsigned long long)lens[1], hg, hw);
	} else {
		printf("%llu bytes streamed: checked under %s (same engine path)\n",
		       (unsigned long long)lens[1], chosen);
	}

	/* The one-shot path with a length past 32 bits: the engine's code, the
	 * same for every backend (the backend's own part, one call of 2^26+
	 * blocks, was checked through update), so once, under the backend
	 * the library picks on this CPU (under portable it cost 4 GiB of the
	 * slowest hashing: about 15 s a family in CI). */
	if (strcmp(argv[2], chosen) == 0) {
		fastsha_digest(test_alg, zero, (size_t)lens[0], got);
		CHECK(memcmp(got, want[0], ds) == 0, "one-shot of %llu bytes",
		      (unsigned long long)lens[0]);
	} else {
		printf("one-shot of %llu bytes: checked under %s (same engine path)\n",
		       (unsigned long long)lens[0], chosen);
	}
	munmap((void *)zero, maplen);
	return test_finish("large");
}
