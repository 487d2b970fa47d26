/* SPDX-License-Identifier: MIT */
/*
 * Sizes at the edge of size_t, which no buffer reaches: batches whose
 * output (n results of a digest or @outlen bytes each) would pass SIZE_MAX
 * bytes, and bit counts whose byte length a 32-bit size_t cannot hold.
 * The library refuses them before reading or writing anything (fastsha.h,
 * mac.h): a caller's own n * size wrapped, and so would the offset of a
 * later result, which then lands somewhere else.
 *
 * A call that went ahead instead faults: the message array is a few
 * entries before a PROT_NONE page and the output one page before another.
 *
 * usage: test_sizes
 */
#include <sys/mman.h>

#include "fastsha/mac.h"
#include "testutil.h"

/* @n bytes of 0xa5 ending at a PROT_NONE page (never unmapped). The
 * system's page size: a 4 KiB guard at a 4 KiB offset cannot be set on a
 * kernel with larger pages. */
static uint8_t *guarded(size_t n)
{
	struct test_guard g;
	test_guard_map(&g, n);
	memset(g.lo, 0xa5, g.span);
	return g.hi - n;
}

static int untouched(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != 0xa5)
			return 0;
	return 1;
}

enum { NMSG = 4, OUT = 4096 };

int main(void)
{
	test_fam = test_family("sha1");
	fastsha_msg *m = (fastsha_msg *)guarded(NMSG * sizeof(fastsha_msg));
	for (size_t i = 0; i < NMSG; i++)
		m[i] = (fastsha_msg){ "abc", 3 };
	uint8_t *out = guarded(OUT), det[NMSG];

	for (int a = 0; a < FASTSHA_ALG_COUNT; a++) {
		const size_t D = fastsha_alg_digest_size(a);
		const char *name = fastsha_alg_name(a);
		/* The smallest count whose digests pass SIZE_MAX bytes. */
		const size_t n = SIZE_MAX / D + 1;
		CHECK(fastsha_many(a, m, n, out) == -1, "%s: many of SIZE_MAX / %zu + 1", name, D);
		CHECK(fastsha_many_detect(a, m, n, out, det) == -1, "%s: many_detect of SIZE_MAX / %zu + 1",
		      name, D);
		if (fastsha_alg_is_xof(a)) {
			/* n = 2: the second output's offset wraps to 0 */
			CHECK(fastsha_many_xof(a, m, 2, out, SIZE_MAX / 2 + 1) == -1,
			      "%s: many_xof of 2 x (SIZE_MAX / 2 + 1)", name);
			CHECK(fastsha_many_xof(a, m, n, out, D) == -1, "%s: many_xof of %zu x %zu", name,
			      n, D);
		}
		if (a <= FASTSHA_SHA512_256) { /* the MAC algorithms (mac.h) */
			fastsha_hmac_key k;
			fastsha_hmac_key_init(&k, a, "key", 3);
			CHECK(fastsha_hmac_many(&k, m, n, out) == -1, "%s: hmac_many of SIZE_MAX / %zu + 1",
			      name, D);
			/* a length each key may have (on 32-bit too: fewer
			 * than 2^32 - 1 blocks), two of them past SIZE_MAX */
			size_t outlen = sizeof(size_t) > 4 ? (size_t)((uint64_t)UINT32_MAX * D)
							   : SIZE_MAX / 2 + 1;
			CHECK(fastsha_pbkdf2_many(a, m, m, SIZE_MAX / outlen + 1, 1, out, outlen) == -1,
			      "%s: pbkdf2_many of %zu x %zu", name, SIZE_MAX / outlen + 1, outlen);
			fastsha_hmac_key_wipe(&k);
		}
		CHECK(untouched(out, OUT), "%s: a refused batch wrote", name);
	}
	/* Still allowed: a count that fits, and any count of nothing. */
	CHECK(fastsha_many_xof(FASTSHA_SHAKE128, m, SIZE_MAX, out, 0) == 0, "many_xof outlen 0");
	CHECK(fastsha_many(FASTSHA_SHA256, m, 2, out + OUT - 64) == 0, "many of 2");
	CHECK(untouched(out, OUT - 64), "many of 2 wrote outside its digests");
	memset(out, 0xa5, OUT);

	if (sizeof(size_t) == 4) {
		/* 1-byte pieces of 64 MiB + 1: the SHA-512 digests pass 4 GiB. The
		 * input is a read-only zero mapping (no memory used). */
		const size_t len = ((size_t)1 << 26) + 1;
		const uint8_t *z = mmap(NULL, len, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
					-1, 0);
		if (z == MAP_FAILED) {
			perror("mmap");
			return 1;
		}
		CHECK(fastsha_chunks(FASTSHA_SHA512, z, len, 1, out) == 0, "chunks of 2^26 + 1 pieces");
		CHECK(untouched(out, OUT), "refused chunks wrote");
		munmap((void *)z, len);
		/* 2^35 + 24 bits is 4 GiB + 3 bytes, which a 32-bit size_t cut
		 * to 3 (the digest of "abc" came back). */
		for (int a = 0; a < FASTSHA_ALG_COUNT; a++)
			CHECK(fastsha_digest_bits(a, "abc", ((uint64_t)1 << 35) + 24, out) == -1,
			      "%s: digest_bits of 2^35 + 24 bits with a 32-bit size_t",
			      fastsha_alg_name(a));
		CHECK(untouched(out, OUT), "a refused digest_bits wrote");
	}
	return test_finish("sizes");
}
