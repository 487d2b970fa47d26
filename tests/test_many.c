/* SPDX-License-Identifier: MIT */
/*
 * Batches: fastsha_many() and fastsha_chunks() for each algorithm of one
 * family with one row pinned (a lane row runs the scheduler on its kernel;
 * a single-stream row, the loop), every digest compared with the reference
 * backend's one-shot:
 * - n = 0..2L+1, 3L+5 and 100 messages, L the row's lanes;
 * - lengths 0..2 blocks + 1 in every tail shape, equal and unequal lengths
 *   (equal ones at the padding and block edges: 55/56/63/64 bytes, for
 *   SHA-512 111/112/127/128),
 *   tiny among long, random lengths to 64 KiB, odd alignments, NULL with 0;
 * - every message ending at a PROT_NONE page (no read past any message);
 * - chunks at sizes that are and are not multiples of the block.
 *
 * usage: test_many FAMILY BACKEND
 */
#include <sys/mman.h>
#include <unistd.h>

#include "testutil.h"

#define POOL (1u << 20)

static uint8_t *pool;

/* Hash @n messages as a batch and one by one under reference; compare. */
static void check_batch(const fastsha_msg *m, size_t n, const char *what)
{
	size_t ds = DS();
	uint8_t *got = malloc(n * ds + 1), ref[DMAX];
	CHECK(fastsha_many(test_alg, m, n, got) == 0, "fastsha_many refused");
	for (size_t i = 0; i < n; i++) {
		reference_digest(m[i].data ? m[i].data : (const void *)"", m[i].len, ref);
		CHECK(memcmp(got + i * ds, ref, ds) == 0, "%s %s: n %zu, message %zu (len %zu)",
		      fastsha_alg_name(test_alg), what, n, i, m[i].len);
	}
	free(got);
}

static void check_counts(unsigned L)
{
	/* Every count 0..2L+1 (the scheduler's first and second fill, its
	 * narrower rows and min_lanes), then 3L+5 and 100. */
	size_t counts[40], ncounts = 0;
	for (size_t n = 0; n <= 2 * (size_t)L + 1 && ncounts < 38; n++)
		counts[ncounts++] = n;
	counts[ncounts++] = 3 * L + 5;
	counts[ncounts++] = 100;
	fastsha_msg m[100];
	size_t bs = BS();
	for (size_t c = 0; c < ncounts; c++) {
		size_t n = counts[c];
		/* Unequal: every tail shape in turn, at odd offsets. */
		for (size_t i = 0; i < n; i++) {
			m[i].len = (i * 37) % (2 * bs + 2);
			m[i].data = pool + (i * 131) % 4096 + (i & 7);
		}
		check_batch(m, n, "unequal");
		/* Unequal whole-block lengths past the copied bodies (3, 4, 5
		 * blocks): a lane keeps the padding block of its last
		 * whole-block message for the next of the same length only. */
		for (size_t i = 0; i < n; i++) {
			m[i].len = (3 + i % 3) * bs;
			m[i].data = pool + i * 3;
		}
		check_batch(m, n, "unequal whole blocks");
		/* Equal lengths around the padding edges. */
		/* (3 blocks: the first body the scheduler reads in place rather
		 * than copying with its padding, lanes.c FSHA_COPY_BLOCKS.) */
		/* The padding edges (55/56 bytes of SHA-1 and SHA-256, 111/112 of
		 * SHA-512, whose length field is 16 bytes) and the block edges
		 * (63/64/65, 127/128/129). */
		size_t lf = bs == 128 ? 16 : 8;
		size_t edges[] = { 0,	       bs - lf - 1, bs - lf,	 bs - lf + 1, bs - 9,
				   bs - 1,     bs,	    bs + 1,	 3 * bs - 1,  3 * bs,
				   4 * bs - lf, 4 * bs };
		for (size_t e = 0; e < sizeof(edges) / sizeof(edges[0]); e++) {
			for (size_t i = 0; i < n; i++) {
				m[i].len = edges[e];
				m[i].data = pool + i * 5;
			}
			check_batch(m, n, "equal");
		}
	}
	/* Tiny among long, random lengths to 64 KiB, NULL with 0. */
	for (int r = 0; r < 3; r++) {
		size_t n = 40;
		for (size_t i = 0; i < n; i++) {
			m[i].len = prng() % 3 == 0 ? (size_t)(prng() % 65536) : (size_t)(prng() % 80);
			m[i].data = pool + prng() % (POOL - 65536);
		}
		m[5].data = NULL;
		m[5].len = 0;
		check_batch(m, n, "mixed");
	}
}

/* Each message ending at a guard page: L+1 messages, each in its own
 * mapping, lengths around block edges. */
static void check_guard(unsigned L)
{
	fastsha_msg m[20];
	struct test_guard maps[20];
	size_t bs = BS();
	size_t lf = bs == 128 ? 16 : 8; /* the length field: 111/112 for SHA-512 */
	size_t lens[] = { 0, 1, bs - lf - 1, bs - lf, bs - 9, bs - 1, bs, bs + 1, 3 * bs - 1, 5 * bs };
	const size_t nlens = sizeof(lens) / sizeof(lens[0]);
	/* Mixed lengths in L+1 messages, then each whole-block length alone
	 * in 4L (the scheduler's shared-padding path, lanes.c), at most 20. */
	for (size_t k = 0; k < 2 * nlens; k++) {
		int equal = k >= nlens;
		size_t n = equal ? 4 * L : L + 1;
		if (n > 20)
			n = 20;
		if (equal && lens[k - nlens] % bs != 0)
			continue;
		for (size_t i = 0; i < n; i++) {
			size_t len = equal ? lens[k - nlens] : lens[(k + i) % nlens];
			test_guard_map(&maps[i], len);
			prng_fill(maps[i].hi - len, len);
			m[i].data = maps[i].hi - len;
			m[i].len = len;
		}
		check_batch(m, n, equal ? "guard, equal" : "guard");
		for (size_t i = 0; i < n; i++)
			test_guard_unmap(&maps[i]);
	}
}

static void check_chunks(void)
{
	size_t bs = BS(), ds = DS();
	size_t sizes[] = { 1, bs - 1, bs, bs + 1, 4096, 1000 };
	size_t lens[] = { 0, 1, 4096, 4097, 100000 };
	uint8_t *got = malloc(100000 * ds), ref[DMAX];
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		for (size_t l = 0; l < sizeof(lens) / sizeof(lens[0]); l++) {
			size_t chunk = sizes[s], len = lens[l];
			if (chunk == 1 && len > 5000)
				continue;
			size_t want = len / chunk + (len % chunk != 0);
			size_t n = fastsha_chunks(test_alg, pool + 3, len, chunk, got);
			CHECK(n == want, "chunks(%zu, %zu) = %zu pieces, want %zu", len, chunk, n, want);
			for (size_t i = 0; i < n && i < want; i++) {
				size_t off = i * chunk, pl = len - off < chunk ? len - off : chunk;
				reference_digest(pool + 3 + off, pl, ref);
				CHECK(memcmp(got + i * ds, ref, ds) == 0, "%s chunks(%zu, %zu) piece %zu",
				      fastsha_alg_name(test_alg), len, chunk, i);
			}
		}
	}
	CHECK(fastsha_chunks(test_alg, NULL, 0, 64, got) == 0, "chunks of nothing");
	CHECK(fastsha_chunks(test_alg, pool, 10, 0, got) == 0, "chunk size 0");
	free(got);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: %s FAMILY BACKEND\n", argv[0]);
		return 2;
	}
	test_use_backend(argv[1], argv[2]);
	unsigned L = fastsha_many_lanes(test_alg);
	unsigned want = 0;
	for (size_t i = 0; i < fastsha_backend_count(test_alg); i++)
		if (strcmp(fastsha_backend_name(test_alg, i), argv[2]) == 0)
			want = fastsha_backend_lanes(test_alg, i);
	CHECK(L == want, "many_lanes %u, the row has %u", L, want);
	printf("%s: %u lane(s)\n", argv[2], L);
	prng_seed(2026);
	pool = malloc(POOL);
	prng_fill(pool, POOL);
	for (size_t i = 0; i < test_fam->nalgs; i++) {
		test_alg = test_fam->algs[i];
		check_counts(L);
		check_guard(L);
		check_chunks();
	}
	free(pool);
	return test_finish("many");
}
