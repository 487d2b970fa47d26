/* SPDX-License-Identifier: MIT */
/*
 * The API around the hashing: version, the backend list and selection,
 * FASTSHA_BACKEND, the NULL/0 rules and the bit-length edge cases.
 *
 * usage: test_api [EXPECTED_BACKEND]
 *   EXPECTED_BACKEND: what the first resolution must pick (ctest sets
 *   FASTSHA_BACKEND for some runs); "auto" for the best automatic choice;
 *   "unsupported-env": set FASTSHA_BACKEND to a built backend this CPU
 *   cannot run, which must be ignored (skipped when the CPU runs them all).
 */
#include "testutil.h"

static const char empty_sha1[] = "da39a3ee5e6b4b0d3255bfef95601890afd80709";

int main(int argc, char **argv)
{
	const char *expect = argc > 1 ? argv[1] : "auto";
	uint8_t d[20];
	char hex[41];

	CHECK(strcmp(fastsha_version(), FASTSHA_VERSION_STRING) == 0, "version %s", fastsha_version());

	size_t n = fastsha1_backend_count();
	CHECK(n >= 2, "only %zu backends", n);
	CHECK(fastsha1_backend_name(n) == NULL, "name past the end");
	CHECK(fastsha1_backend_supported(n) == 0, "supported past the end");
	CHECK(fastsha1_backend_lanes(n) == 0, "lanes past the end");
	if (strcmp(expect, "unsupported-env") == 0) {
		size_t i = 0;
		while (i < n && fastsha1_backend_supported(i))
			i++;
		if (i == n) {
			printf("SKIP: this CPU runs every built backend; none to refuse\n");
			return TEST_SKIP;
		}
		printf("FASTSHA_BACKEND=%s (not runnable here)\n", fastsha1_backend_name(i));
		setenv("FASTSHA_BACKEND", fastsha1_backend_name(i), 1);
		expect = "auto";
	}
	const char *first_auto = NULL;
	for (size_t i = 0; i < n; i++) {
		const char *name = fastsha1_backend_name(i);
		CHECK(name && *name, "backend %zu has no name", i);
		CHECK(fastsha1_backend_lanes(i) >= 1, "backend %s has no lanes", name);
		for (size_t j = 0; j < i; j++)
			CHECK(strcmp(name, fastsha1_backend_name(j)) != 0, "%s listed twice", name);
		if (!first_auto && fastsha1_backend_supported(i) && strcmp(name, "reference") != 0)
			first_auto = name;
	}
	CHECK(strcmp(fastsha1_backend_name(n - 1), "reference") == 0, "reference is not last");

	/* The first resolution: FASTSHA_BACKEND if valid, else the best row. */
	const char *active = fastsha1_backend();
	if (strcmp(expect, "auto") == 0)
		CHECK(first_auto && strcmp(active, first_auto) == 0, "auto chose %s, best is %s", active,
		      first_auto ? first_auto : "?");
	else
		CHECK(strcmp(active, expect) == 0, "resolved to %s, expected %s", active, expect);
	CHECK(strcmp(active, "reference") != 0 || strcmp(expect, "reference") == 0,
	      "reference chosen automatically");

	/* Selection results. */
	CHECK(fastsha1_use_backend("no-such-backend") == FASTSHA_SELECT_UNKNOWN, "unknown name");
	CHECK(strcmp(fastsha1_backend(), active) == 0, "failed select changed the backend");
	for (size_t i = 0; i < n; i++) {
		int r = fastsha1_use_backend(fastsha1_backend_name(i));
		if (fastsha1_backend_supported(i))
			CHECK(r == FASTSHA_SELECT_OK, "select %s: %d", fastsha1_backend_name(i), r);
		else
			CHECK(r == FASTSHA_SELECT_UNSUPPORTED, "select unsupported %s: %d",
			      fastsha1_backend_name(i), r);
	}
	CHECK(fastsha1_use_backend("portable") == FASTSHA_SELECT_OK, "portable");
	CHECK(strcmp(fastsha1_backend(), "portable") == 0, "portable not in use");
	CHECK(fastsha1_use_backend(NULL) == FASTSHA_SELECT_OK, "reset");
	CHECK(strcmp(fastsha1_backend(), active) == 0, "reset gave %s, first was %s", fastsha1_backend(),
	      active);

	/* NULL with length 0, everywhere. */
	fastsha1(NULL, 0, d);
	to_hex(d, 20, hex);
	CHECK(strcmp(hex, empty_sha1) == 0, "fastsha1(NULL, 0) = %s", hex);
	fastsha1_bits(NULL, 0, d);
	to_hex(d, 20, hex);
	CHECK(strcmp(hex, empty_sha1) == 0, "fastsha1_bits(NULL, 0) = %s", hex);
	fastsha1_ctx ctx;
	fastsha1_init(&ctx);
	fastsha1_update(&ctx, NULL, 0);
	fastsha1_final(&ctx, d);
	to_hex(d, 20, hex);
	CHECK(strcmp(hex, empty_sha1) == 0, "update(NULL, 0) = %s", hex);

	/* Bits: nbits 0 equals final; the ignored low bits of @last are ignored;
	 * nbits is taken mod 8; one bit "1" matches NIST's bit vectors. */
	uint8_t a[20], b[20];
	fastsha1_update(&ctx, "abc", 3);
	fastsha1_final(&ctx, a);
	fastsha1_final_bits(&ctx, 0xff, 0, b);
	CHECK(memcmp(a, b, 20) == 0, "final_bits with 0 bits differs from final");
	fastsha1_final_bits(&ctx, 0xff, 8, b);
	CHECK(memcmp(a, b, 20) == 0, "nbits 8 is not taken as 0");
	fastsha1_final_bits(&ctx, 0xa0, 3, a);
	fastsha1_final_bits(&ctx, 0xbf, 3, b);
	CHECK(memcmp(a, b, 20) == 0, "low bits of last were not ignored");
	uint8_t one = 0x80;
	fastsha1_bits(&one, 1, d);
	to_hex(d, 20, hex);
	/* bit/SHA1ShortMsg.rsp has Len = 1, Msg = 00; "1" is its sibling. Check it
	 * differs from the empty message and from the 0-bit, as a sanity check. */
	uint8_t zero = 0;
	uint8_t z[20];
	fastsha1_bits(&zero, 1, z);
	to_hex(z, 20, hex);
	CHECK(strcmp(hex, "bb6b3e18f0115b57925241676f5b1ae88747b08a") == 0, "1-bit message 0: %s", hex);
	CHECK(memcmp(d, z, 20) != 0, "bit value ignored");
	return test_finish("api");
}
