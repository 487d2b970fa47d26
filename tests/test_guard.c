/* SPDX-License-Identifier: MIT */
/*
 * No read outside the message, under one backend. Data lies between two
 * PROT_NONE pages; a read past either end faults. For every length up to
 * 4 blocks + 1 and every k in 0..63:
 * - the message ends exactly at the upper guard, after k bytes were
 *   already buffered from elsewhere (k moves where the backend's run of
 *   whole blocks starts and ends inside the message);
 * - the message starts exactly at the lower guard, the same way;
 * - the message starts at an address = k (mod 64), as close to the upper
 *   guard as that allows, hashed one-shot.
 * Every digest must equal the reference backend's.
 *
 * usage: test_guard BACKEND
 */
#include <sys/mman.h>
#include <unistd.h>

#include "testutil.h"

#define MAXLEN (4 * 64 + 1)

static uint8_t joined[64 + MAXLEN];

static void check(const uint8_t *prefix, size_t k, const uint8_t *m, size_t len, const char *what)
{
	uint8_t ref[20], got[20];
	memcpy(joined, prefix, k);
	memcpy(joined + k, m, len);
	reference_digest(joined, k + len, ref);
	fastsha1_ctx ctx;
	fastsha1_init(&ctx);
	fastsha1_update(&ctx, prefix, k);
	fastsha1_update(&ctx, m, len);
	fastsha1_final(&ctx, got);
	CHECK(memcmp(got, ref, 20) == 0, "%s: len %zu, %zu bytes buffered first", what, len, k);
	if (k == 0) {
		fastsha1(m, len, got);
		CHECK(memcmp(got, ref, 20) == 0, "%s one-shot: len %zu", what, len);
	}
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s BACKEND\n", argv[0]);
		return 2;
	}
	test_use_backend(argv[1]);
	prng_seed(7);
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t span = ((MAXLEN + 128 + page - 1) / page) * page;
	uint8_t *map = mmap(NULL, span + 2 * page, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	uint8_t *lo = map + page, *hi = map + page + span;
	if (mprotect(map, page, PROT_NONE) || mprotect(hi, page, PROT_NONE)) {
		perror("mprotect");
		return 1;
	}
	prng_fill(lo, span);
	uint8_t prefix[64];
	prng_fill(prefix, sizeof(prefix));

	for (size_t len = 0; len <= MAXLEN; len++) {
		for (size_t k = 0; k < 64; k++) {
			check(prefix, k, hi - len, len, "ends at guard");
			check(prefix, k, lo, len, "starts at guard");
			/* Highest start = k (mod 64) that still ends at or before hi. */
			uintptr_t start = (uintptr_t)(hi - len);
			start -= (start - k) % 64;
			check(prefix, 0, (const uint8_t *)start, len, "aligned near guard");
		}
	}
	munmap(map, span + 2 * page);
	return test_finish("guard");
}
