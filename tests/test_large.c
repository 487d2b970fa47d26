/* SPDX-License-Identifier: MIT */
/*
 * Messages past 2^32 bytes, under one backend: one update of 4 GiB + 3
 * bytes (a size_t length above 32 bits, a bit count above 2^32 and 2^35),
 * continued in uneven pieces to 5 GiB + 1, and the one-shot API past 4 GiB. The input
 * is a read-only anonymous mapping, which the kernel backs with its one
 * zero page, so no memory is used. The answers were made by GNU sha1sum
 * (tests/vectors/sha1_zeros.txt).
 *
 * usage: test_large BACKEND VECTOR_DIR
 */
#include <sys/mman.h>

#include "testutil.h"

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: %s BACKEND VECTOR_DIR\n", argv[0]);
		return 2;
	}
	test_use_backend(argv[1]);
	if (sizeof(size_t) < 8) {
		printf("SKIP: size_t is %zu bytes; no single buffer past 4 GiB here\n", sizeof(size_t));
		return TEST_SKIP;
	}
	char path[4096];
	snprintf(path, sizeof(path), "%s/sha1_zeros.txt", argv[2]);
	FILE *f = fopen(path, "r");
	if (!f) {
		perror(path);
		return 1;
	}
	uint64_t lens[2];
	uint8_t want[2][20];
	int n = 0;
	char line[256];
	while (n < 2 && fgets(line, sizeof(line), f)) {
		unsigned long long l;
		char hex[41];
		if (line[0] == '#' || sscanf(line, "%llu %40s", &l, hex) != 2)
			continue;
		lens[n] = l;
		if (from_hex(hex, 20, want[n]))
			return 1;
		n++;
	}
	fclose(f);
	if (n != 2) {
		fprintf(stderr, "%s: expected two entries\n", path);
		return 1;
	}
	size_t maplen = (size_t)lens[1];
	const uint8_t *zero = mmap(NULL, maplen, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (zero == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	uint8_t got[20];
	char hg[41], hw[41];

	/* One update of more than 4 GiB, checked; then the same context goes on
	 * in uneven pieces to 5 GiB + 1 (final leaves it usable). */
	fastsha1_ctx ctx;
	fastsha1_init(&ctx);
	fastsha1_update(&ctx, zero, (size_t)lens[0]);
	fastsha1_final(&ctx, got);
	to_hex(got, 20, hg);
	to_hex(want[0], 20, hw);
	CHECK(memcmp(got, want[0], 20) == 0, "one update of %llu bytes: got %s want %s",
	      (unsigned long long)lens[0], hg, hw);
	static const size_t pieces[] = { 1, 63, 1000000, 536870913, 64 };
	uint64_t total = lens[0];
	for (size_t i = 0; i < sizeof(pieces) / sizeof(pieces[0]); i++) {
		fastsha1_update(&ctx, zero + total, pieces[i]);
		total += pieces[i];
	}
	fastsha1_update(&ctx, zero + total, (size_t)(lens[1] - total));
	fastsha1_final(&ctx, got);
	to_hex(got, 20, hg);
	to_hex(want[1], 20, hw);
	CHECK(memcmp(got, want[1], 20) == 0, "%llu bytes streamed: got %s want %s",
	      (unsigned long long)lens[1], hg, hw);

	/* The one-shot path with a length past 32 bits. It is sha1.c's code, the
	 * same for every backend, so the slow spec-literal oracle skips it. */
	if (strcmp(argv[1], "reference") != 0) {
		fastsha1(zero, (size_t)lens[0], got);
		CHECK(memcmp(got, want[0], 20) == 0, "fastsha1() of %llu bytes", (unsigned long long)lens[0]);
	} else {
		printf("one-shot part skipped for reference (same sha1.c path, checked under the others)\n");
	}
	munmap((void *)zero, maplen);
	return test_finish("large");
}
