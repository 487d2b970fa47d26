/* SPDX-License-Identifier: MIT */
/*
 * Every entry point after the caller left the upper ymm halves dirty (a
 * VEX.256 write with no vzeroupper, bench/upper_dirty.h; on AVX-512 CPUs
 * all 32 zmm registers too): the typed and
 * generic one-shots, streaming, and batches (fastsha_many, fastsha_chunks)
 * must still give the reference backend's digests. The library issues
 * vzeroupper at its entries on AVX CPUs only (src/cpu/cpu.h,
 * fsha_cpu_clean_upper), so this also runs each row's kernels right after
 * that path. x86 with AVX only; elsewhere the test is skipped.
 *
 * usage: test_dirty FAMILY BACKEND
 */
#include "testutil.h"
#include "../bench/upper_dirty.h"

#include "fastsha/sha1.h"
#include "fastsha/sha256.h"
#include "fastsha/sha512.h"

#ifdef FSHA_HAVE_UPPER_DIRTY
/* The typed one-shot of the algorithm under test (the path that showed the
 * penalty: fastsha_digest() happened to reach glibc's vzeroupper first). */
static void typed(const uint8_t *p, size_t len, uint8_t *out)
{
	switch (test_alg) {
	case FASTSHA_SHA1: fastsha1(p, len, out); break;
	case FASTSHA_SHA224: fastsha224(p, len, out); break;
	case FASTSHA_SHA256: fastsha256(p, len, out); break;
	case FASTSHA_SHA384: fastsha384(p, len, out); break;
	case FASTSHA_SHA512: fastsha512(p, len, out); break;
	case FASTSHA_SHA512_224: fastsha512_224(p, len, out); break;
	case FASTSHA_SHA512_256: fastsha512_256(p, len, out); break;
	default: fastsha_digest(test_alg, p, len, out); break;
	}
}

static void check_one(const uint8_t *p, size_t len)
{
	size_t ds = DS();
	uint8_t ref[DMAX], got[DMAX];
	reference_digest(p, len, ref);

	upper_dirty();
	typed(p, len, got);
	CHECK(memcmp(got, ref, ds) == 0, "%s typed one-shot, len %zu", fastsha_alg_name(test_alg), len);

	upper_dirty();
	fastsha_digest(test_alg, p, len, got);
	CHECK(memcmp(got, ref, ds) == 0, "%s fastsha_digest, len %zu", fastsha_alg_name(test_alg), len);

	/* Streaming, dirty before every call. */
	fastsha_ctx ctx;
	upper_dirty();
	fastsha_init(&ctx, test_alg);
	for (size_t off = 0; off < len;) {
		size_t take = 37 + off % 200;
		if (take > len - off)
			take = len - off;
		upper_dirty();
		fastsha_update(&ctx, p + off, take);
		off += take;
	}
	upper_dirty();
	fastsha_final(&ctx, got);
	CHECK(memcmp(got, ref, ds) == 0, "%s streaming, len %zu", fastsha_alg_name(test_alg), len);
}

static void check_batch(const uint8_t *pool, unsigned L)
{
	size_t ds = DS(), bs = BS();
	enum { N = 40 };
	fastsha_msg m[N];
	uint8_t got[N * DMAX], ref[DMAX];
	for (size_t n = 0; n <= N; n += n < 2 * (size_t)L + 1 ? 1 : 13) {
		for (size_t i = 0; i < n; i++) {
			m[i].len = (i * 37) % (2 * bs + 2) + (i % 5 == 4 ? 4096 : 0);
			m[i].data = pool + i * 97 + (i & 3);
		}
		upper_dirty();
		CHECK(fastsha_many(test_alg, m, n, got) == 0, "fastsha_many refused");
		for (size_t i = 0; i < n; i++) {
			reference_digest(m[i].data, m[i].len, ref);
			CHECK(memcmp(got + i * ds, ref, ds) == 0, "%s many: n %zu, message %zu (len %zu)",
			      fastsha_alg_name(test_alg), n, i, m[i].len);
		}
	}
	/* Equal whole-block lengths (SHA-256's shared padding block path). */
	for (size_t i = 0; i < N; i++)
		m[i].len = 2 * bs, m[i].data = pool + i * 3;
	upper_dirty();
	fastsha_many(test_alg, m, N, got);
	for (size_t i = 0; i < N; i++) {
		reference_digest(m[i].data, m[i].len, ref);
		CHECK(memcmp(got + i * ds, ref, ds) == 0, "%s many, equal: message %zu",
		      fastsha_alg_name(test_alg), i);
	}
	upper_dirty();
	size_t pieces = fastsha_chunks(test_alg, pool, 10000, 1000, got);
	CHECK(pieces == 10, "chunks: %zu pieces", pieces);
	for (size_t i = 0; i < pieces && i < 10; i++) {
		reference_digest(pool + i * 1000, 1000, ref);
		CHECK(memcmp(got + i * ds, ref, ds) == 0, "%s chunks: piece %zu",
		      fastsha_alg_name(test_alg), i);
	}
}
#endif

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: %s FAMILY BACKEND\n", argv[0]);
		return 2;
	}
#ifndef FSHA_HAVE_UPPER_DIRTY
	printf("SKIP: not x86 (no ymm state to dirty)\n");
	return TEST_SKIP;
#else
	if (!upper_avx_usable()) {
		printf("SKIP: this CPU (or OS) has no AVX, so no ymm state to dirty\n");
		return TEST_SKIP;
	}
	test_use_backend(argv[1], argv[2]);
	unsigned L = fastsha_many_lanes(test_alg);
	prng_seed(16);
	enum { POOL = 64 << 10 };
	uint8_t *pool = malloc(POOL);
	prng_fill(pool, POOL);
	for (size_t a = 0; a < test_fam->nalgs; a++) {
		test_alg = test_fam->algs[a];
		size_t bs = BS();
		size_t lens[] = { 0, 1, bs - 17, bs - 16, bs - 9, bs - 8, bs - 1, bs, bs + 1,
				  3 * bs + 5, 1000, 16384 };
		for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++)
			check_one(pool + (i & 7), lens[i]);
		check_batch(pool, L);
	}
	free(pool);
	return test_finish("dirty");
#endif
}
