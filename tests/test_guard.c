/* SPDX-License-Identifier: MIT */
/*
 * No read outside the message, for each algorithm of one family under one
 * backend. Data lies between two PROT_NONE pages; a read past either end
 * faults. For every length up to 4 blocks + 1 and every k in 0..block-1
 * (every third k for the Keccak rates, whose blocks are longer than SHA's):
 * - the message ends exactly at the upper guard, after k bytes were
 *   already buffered from elsewhere (k moves where the backend's run of
 *   whole blocks starts and ends inside the message);
 * - the message starts exactly at the lower guard, the same way;
 * - the message starts at an address = k (mod block), as close to the upper
 *   guard as that allows, hashed one-shot.
 * Every digest must equal the oracle's (portable; the reference when
 * portable is under test: see oracle_digest()). The family's variants
 * (same compression, same engine) are checked at every length with k in
 * steps.
 *
 * usage: test_guard FAMILY BACKEND
 */
#include <sys/mman.h>
#include <unistd.h>

#include "testutil.h"

#define MAXLEN (4 * FASTSHA_MAX_BLOCK_SIZE + 1)

static uint8_t joined[FASTSHA_MAX_BLOCK_SIZE + MAXLEN];

static void check(const uint8_t *prefix, size_t k, const uint8_t *m, size_t len, const char *what)
{
	uint8_t ref[DMAX], got[DMAX];
	memcpy(joined, prefix, k);
	memcpy(joined + k, m, len);
	oracle_digest(joined, k + len, ref);
	fastsha_ctx ctx;
	fastsha_init(&ctx, test_alg);
	fastsha_update(&ctx, prefix, k);
	fastsha_update(&ctx, m, len);
	fastsha_final(&ctx, got);
	CHECK(memcmp(got, ref, DS()) == 0, "%s %s: len %zu, %zu bytes buffered first",
	      fastsha_alg_name(test_alg), what, len, k);
	if (k == 0) {
		fastsha_digest(test_alg, m, len, got);
		CHECK(memcmp(got, ref, DS()) == 0, "%s %s one-shot: len %zu",
		      fastsha_alg_name(test_alg), what, len);
	}
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: %s FAMILY BACKEND\n", argv[0]);
		return 2;
	}
	test_use_backend(argv[1], argv[2]);
	prng_seed(7);
	struct test_guard g;
	test_guard_map(&g, MAXLEN + 2 * FASTSHA_MAX_BLOCK_SIZE);
	uint8_t *lo = g.lo, *hi = g.hi;
	prng_fill(lo, g.span);
	uint8_t prefix[FASTSHA_MAX_BLOCK_SIZE];
	prng_fill(prefix, sizeof(prefix));

	for (size_t a = 0; a < test_fam->nalgs; a++) {
		test_alg = test_fam->algs[a];
		/* Every k for SHA's primary algorithm; every third for the Keccak
		 * rates (72..168 bytes: seven times SHA-256's lengths and splits
		 * at step 1; 3 is prime to the 8-byte lanes, so k still meets
		 * every lane alignment and, across lengths, every split of a
		 * lane), every 7th for the variants. */
		size_t bs = BS(), step = !test_primary() ? 7 : bs > 128 ? 3 : 1;
		for (size_t len = 0; len <= 4 * bs + 1; len++) {
			for (size_t k = 0; k < bs; k += step) {
				check(prefix, k, hi - len, len, "ends at guard");
				check(prefix, k, lo, len, "starts at guard");
				/* Highest start = k (mod bs) that still ends at or before hi. */
				uintptr_t start = (uintptr_t)(hi - len);
				start -= (start - k) % bs;
				check(prefix, 0, (const uint8_t *)start, len, "aligned near guard");
			}
		}
	}
	test_guard_unmap(&g);
	return test_finish("guard");
}
