/* SPDX-License-Identifier: MIT */
/*
 * Streaming equals one-shot equals the reference backend, for each
 * algorithm of one family under one backend: every length 0..4096 at a
 * moving alignment, random lengths up to 1 MiB at random alignments with
 * random update splits, byte-at-a-time, every split point around block
 * boundaries, a context copied mid-stream, final called twice, and
 * update(ctx, NULL, 0). The family's variants (SHA-224; SHA-384, -512/224,
 * -512/256) share its compression and engine code and get the same checks
 * over shorter ranges.
 *
 * usage: test_stream FAMILY BACKEND
 */
#include "testutil.h"

#define MAXLEN (1u << 20)

static uint8_t *pool;  /* MAXLEN + 128 random bytes; messages start at any offset */

static void expect(const uint8_t *got, const uint8_t *want, const char *what, size_t len, size_t align)
{
	char hg[2 * DMAX + 1], hw[2 * DMAX + 1];
	if (memcmp(got, want, DS()) == 0)
		return;
	to_hex(got, DS(), hg);
	to_hex(want, DS(), hw);
	CHECK(0, "%s %s: len %zu align %zu: got %s want %s", fastsha_alg_name(test_alg), what, len,
	      align, hg, hw);
}

static void check_len(size_t len, size_t align)
{
	const uint8_t *msg = pool + align;
	uint8_t ref[DMAX], got[DMAX];
	reference_digest(msg, len, ref);

	fastsha_digest(test_alg, msg, len, got);
	expect(got, ref, "one-shot", len, align);

	streamed_random(msg, len, 200, got);
	expect(got, ref, "random small splits", len, align);

	/* A context copied mid-stream, then both finished: copy by assignment. */
	fastsha_ctx a, b;
	fastsha_init(&a, test_alg);
	size_t half = len / 2;
	fastsha_update(&a, msg, half);
	b = a;
	fastsha_update(&a, msg + half, len - half);
	fastsha_update(&b, NULL, 0);
	fastsha_update(&b, msg + half, len - half);
	fastsha_final(&a, got);
	expect(got, ref, "copied context (original)", len, align);
	fastsha_final(&b, got);
	expect(got, ref, "copied context (copy)", len, align);
	/* final leaves the context usable: again. */
	fastsha_final(&b, got);
	expect(got, ref, "final called twice", len, align);
}

static void check_alg(void)
{
	size_t bs = BS();
	int full = test_primary();

	/* Every length up to 4096 (variants: 4 blocks + 1), the alignment
	 * walking through 0..block-1. */
	size_t top = full ? 4096 : 4 * bs + 1;
	for (size_t len = 0; len <= top; len++)
		check_len(len, len % bs);

	/* Random lengths up to 1 MiB at random alignments, random large splits. */
	for (int i = 0; i < (full ? 40 : 4); i++) {
		size_t len = (size_t)(prng() % (MAXLEN + 1)), align = (size_t)(prng() % bs);
		uint8_t ref[DMAX], got[DMAX];
		reference_digest(pool + align, len, ref);
		fastsha_digest(test_alg, pool + align, len, got);
		expect(got, ref, "random one-shot", len, align);
		streamed_random(pool + align, len, 100000, got);
		expect(got, ref, "random big splits", len, align);
	}

	/* Byte at a time. */
	for (size_t len = 0; len <= 1000; len += full ? 37 : 333) {
		uint8_t ref[DMAX], got[DMAX];
		fastsha_ctx ctx;
		reference_digest(pool + 3, len, ref);
		fastsha_init(&ctx, test_alg);
		for (size_t j = 0; j < len; j++)
			fastsha_update(&ctx, pool + 3 + j, 1);
		fastsha_final(&ctx, got);
		expect(got, ref, "byte at a time", len, 3);
	}

	/* Two pieces, the split at every point, for messages around block and
	 * padding boundaries: one block less 9 (the length field's edge) and
	 * less 8, one block, and the same one and two blocks further. */
	for (size_t k = 0; k < 3; k++) {
		size_t edge[] = { bs - 1 - (bs / 8), bs - bs / 8, bs - 1, bs, bs + 1 };
		for (size_t e = 0; e < sizeof(edge) / sizeof(edge[0]); e++) {
			size_t len = edge[e] + k * bs;
			uint8_t ref[DMAX], got[DMAX];
			reference_digest(pool + 1, len, ref);
			for (size_t cut = 0; cut <= len; cut++) {
				fastsha_ctx ctx;
				fastsha_init(&ctx, test_alg);
				fastsha_update(&ctx, pool + 1, cut);
				fastsha_update(&ctx, pool + 1 + cut, len - cut);
				fastsha_final(&ctx, got);
				expect(got, ref, "two-piece split", len, cut);
			}
		}
	}

	/* A running digest: final after every piece matches the prefix's digest. */
	fastsha_ctx ctx;
	fastsha_init(&ctx, test_alg);
	for (size_t len = 0; len < 700; len += 13) {
		uint8_t ref[DMAX], got[DMAX];
		fastsha_final(&ctx, got);
		reference_digest(pool, len, ref);
		expect(got, ref, "running digest", len, 0);
		fastsha_update(&ctx, pool + len, 13);
	}
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: %s FAMILY BACKEND\n", argv[0]);
		return 2;
	}
	test_use_backend(argv[1], argv[2]);
	prng_seed(20261121);
	pool = malloc(MAXLEN + 128);
	prng_fill(pool, MAXLEN + 128);
	for (size_t i = 0; i < test_fam->nalgs; i++) {
		test_alg = test_fam->algs[i];
		check_alg();
	}
	free(pool);
	return test_finish("stream");
}
