/* SPDX-License-Identifier: MIT */
/*
 * Streaming equals one-shot equals the reference backend, under one backend:
 * every length 0..4096 at a moving alignment, random lengths up to 1 MiB at
 * random alignments with random update splits, byte-at-a-time, every split
 * point around block boundaries, a context copied mid-stream, final called
 * twice, and update(ctx, NULL, 0).
 *
 * usage: test_stream BACKEND
 */
#include "testutil.h"

#define MAXLEN (1u << 20)

static uint8_t *pool;  /* MAXLEN + 64 random bytes; messages start at any offset */

static void expect(const uint8_t *got, const uint8_t *want, const char *what, size_t len, size_t align)
{
	char hg[41], hw[41];
	if (memcmp(got, want, 20) == 0)
		return;
	to_hex(got, 20, hg);
	to_hex(want, 20, hw);
	CHECK(0, "%s: len %zu align %zu: got %s want %s", what, len, align, hg, hw);
}

/* Hash @msg streamed in pieces given by successive prng() calls, up to @maxpiece. */
static void streamed_random(const uint8_t *msg, size_t len, size_t maxpiece, uint8_t out[20])
{
	fastsha1_ctx ctx;
	fastsha1_init(&ctx);
	size_t off = 0;
	while (off < len) {
		size_t n = (size_t)(prng() % (maxpiece + 1));
		if (n > len - off)
			n = len - off;
		fastsha1_update(&ctx, msg + off, n);
		off += n;
	}
	fastsha1_final(&ctx, out);
}

static void check_len(size_t len, size_t align)
{
	const uint8_t *msg = pool + align;
	uint8_t ref[20], got[20];
	reference_digest(msg, len, ref);

	fastsha1(msg, len, got);
	expect(got, ref, "one-shot", len, align);

	streamed_random(msg, len, 200, got);
	expect(got, ref, "random small splits", len, align);

	/* A context copied mid-stream, then both finished: copy by assignment. */
	fastsha1_ctx a, b;
	fastsha1_init(&a);
	size_t half = len / 2;
	fastsha1_update(&a, msg, half);
	b = a;
	fastsha1_update(&a, msg + half, len - half);
	fastsha1_update(&b, NULL, 0);
	fastsha1_update(&b, msg + half, len - half);
	fastsha1_final(&a, got);
	expect(got, ref, "copied context (original)", len, align);
	fastsha1_final(&b, got);
	expect(got, ref, "copied context (copy)", len, align);
	/* final leaves the context usable: again, then one more byte. */
	fastsha1_final(&b, got);
	expect(got, ref, "final called twice", len, align);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s BACKEND\n", argv[0]);
		return 2;
	}
	test_use_backend(argv[1]);
	prng_seed(20261121);
	pool = malloc(MAXLEN + 64);
	prng_fill(pool, MAXLEN + 64);

	/* Every length 0..4096, the alignment walking through 0..63. */
	for (size_t len = 0; len <= 4096; len++)
		check_len(len, len % 64);

	/* Random lengths up to 1 MiB at random alignments, random large splits. */
	for (int i = 0; i < 40; i++) {
		size_t len = (size_t)(prng() % (MAXLEN + 1)), align = (size_t)(prng() % 64);
		uint8_t ref[20], got[20];
		reference_digest(pool + align, len, ref);
		fastsha1(pool + align, len, got);
		expect(got, ref, "random one-shot", len, align);
		streamed_random(pool + align, len, 100000, got);
		expect(got, ref, "random big splits", len, align);
	}

	/* Byte at a time. */
	for (size_t len = 0; len <= 1000; len += 37) {
		uint8_t ref[20], got[20];
		fastsha1_ctx ctx;
		reference_digest(pool + 3, len, ref);
		fastsha1_init(&ctx);
		for (size_t j = 0; j < len; j++)
			fastsha1_update(&ctx, pool + 3 + j, 1);
		fastsha1_final(&ctx, got);
		expect(got, ref, "byte at a time", len, 3);
	}

	/* Two pieces, the split at every point around block boundaries, for
	 * messages around block and padding boundaries. */
	static const size_t lens[] = { 55, 56, 63, 64, 65, 119, 120, 127, 128, 129, 191, 192, 193, 320 };
	for (size_t li = 0; li < sizeof(lens) / sizeof(lens[0]); li++) {
		size_t len = lens[li];
		uint8_t ref[20], got[20];
		reference_digest(pool + 1, len, ref);
		for (size_t cut = 0; cut <= len; cut++) {
			fastsha1_ctx ctx;
			fastsha1_init(&ctx);
			fastsha1_update(&ctx, pool + 1, cut);
			fastsha1_update(&ctx, pool + 1 + cut, len - cut);
			fastsha1_final(&ctx, got);
			expect(got, ref, "two-piece split", len, cut);
		}
	}

	/* A running digest: final after every piece matches the prefix's digest. */
	{
		fastsha1_ctx ctx;
		fastsha1_init(&ctx);
		for (size_t len = 0; len < 700; len += 13) {
			uint8_t ref[20], got[20];
			fastsha1_final(&ctx, got);
			reference_digest(pool, len, ref);
			expect(got, ref, "running digest", len, 0);
			fastsha1_update(&ctx, pool + len, 13);
		}
	}
	free(pool);
	return test_finish("stream");
}
