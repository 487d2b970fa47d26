/* SPDX-License-Identifier: MIT */
/*
 * The API around the hashing: version, the algorithm descriptor, every
 * family's backend list and selection, FASTSHA_BACKEND, the typed
 * per-algorithm functions against the generic ones, the NULL/0 rules and
 * the bit-length edge cases.
 *
 * usage: test_api [EXPECTED]
 *   EXPECTED: what each family's first resolution must pick (ctest sets
 *   FASTSHA_BACKEND for some runs), in FASTSHA_BACKEND's own syntax: "auto"
 *   for the best automatic choice, a name for every family, or items
 *   "family:name" (a family not named expects "auto");
 *   "unsupported-env": set FASTSHA_BACKEND to "family:name" of a built
 *   backend this CPU cannot run, which must be ignored (skipped when the
 *   CPU runs all);
 *   "expect-env": EXPECTED from the environment variable FASTSHA_EXPECT_AUTO
 *   (skipped when unset), which the cross test presets set per emulated
 *   CPU, so that "auto" cannot pass by falling back where a backend should
 *   have been detected.
 */
#include <limits.h>

#include "fastsha/sha1.h"
#include "fastsha/sha256.h"
#include "fastsha/sha3.h"
#include "fastsha/sha512.h"
#include "testutil.h"

/* The one dispatch rule the public queries do not show: a row that yields
 * on this CPU (its tuning traits, core/backend.h) is passed over by the
 * automatic choice. The tests link the static library, so they can ask. */
#include "../src/core/backend.h"
#include "../src/core/family.h"
extern const struct fsha_family fsha1_family, fsha256_family, fsha512_family, fsha_keccak_family;
static const struct fsha_family *const internal_fams[] = { &fsha1_family, &fsha256_family,
							   &fsha512_family, &fsha_keccak_family };
#define NFAMS (sizeof(internal_fams) / sizeof(internal_fams[0]))

/* Whether row @i of @family (the internal table's name), whose own
 * algorithm is @alg, yields here. */
static int yields_here(const char *family, fastsha_alg alg, size_t i)
{
	for (size_t f = 0; f < NFAMS; f++)
		if (strcmp(internal_fams[f]->name, family) == 0) {
			const struct fsha_family *fam = internal_fams[f];
			const struct fsha_backend_info *r = fsha_find(fam, fastsha_backend_name(alg, i));
			return r && fsha_yields(fam, r);
		}
	CHECK(0, "no internal family %s", family);
	return 0;
}

/*
 * Each family's step-down list for automatic batches (fsha_lane_rows(),
 * core/lanes.c): the batch row, then automatic batch rows this CPU runs,
 * each narrower than the last, none of them a row that yields here while
 * a row of its width that does not yield follows it in the table (on Zen
 * 2 with AVX-512 rows, as the simde build has them, the Keccak table's
 * avx512_x8 must step down to avx2_x4s, not to the avx2_x4 it replaces).
 */
static void check_steps(void)
{
	for (size_t f = 0; f < NFAMS; f++) {
		const struct fsha_family *fam = internal_fams[f];
		const struct fsha_backend_info *top = fsha_active_many(fam), *rows[FSHA_MAX_LANES];
		size_t k = fsha_lane_rows(fam, top, rows);
		CHECK(k >= 1 && rows[0] == top, "%s: the step list does not start at %s", fam->name,
		      top->name);
		for (size_t j = 1; j < k; j++) {
			const struct fsha_backend_info *r = rows[j];
			CHECK(r->lanes < rows[j - 1]->lanes && fsha_supported(r) &&
				      (r->automatic & FSHA_AUTO_MANY),
			      "%s: step %s after %s", fam->name, r->name, rows[j - 1]->name);
			size_t i = 0;
			while (i < fam->nrows && fam->rows[i] != r)
				i++;
			for (size_t q = i + 1; fsha_yields(fam, r) && q < fam->nrows; q++) {
				const struct fsha_backend_info *t = fam->rows[q];
				CHECK(!(t->lanes == r->lanes && (t->automatic & FSHA_AUTO_MANY) &&
					fsha_supported(t) && !fsha_yields(fam, t)),
				      "%s: steps down to %s, which yields here to %s", fam->name,
				      r->name, t->name);
			}
		}
		printf("%s: batches on", fam->name);
		for (size_t j = 0; j < k; j++)
			printf(" %s", rows[j]->name);
		printf("\n");
	}
}

static const char empty_sha1[] = "da39a3ee5e6b4b0d3255bfef95601890afd80709";

/* What @spec expects of @family: its "family:name" item, else a bare name,
 * else "auto". */
static const char *expected(const char *spec, const char *family, char *buf, size_t size)
{
	const char *bare = "auto";
	size_t flen = strlen(family);
	while (*spec) {
		size_t len = strcspn(spec, ",");
		const char *colon = memchr(spec, ':', len);
		if (colon && (size_t)(colon - spec) == flen && memcmp(spec, family, flen) == 0) {
			snprintf(buf, size, "%.*s", (int)(len - flen - 1), colon + 1);
			return buf;
		}
		if (!colon && len) {
			snprintf(buf + size / 2, size / 2, "%.*s", (int)len, spec);
			bare = buf + size / 2;
		}
		spec += len + (spec[len] == ',');
	}
	return bare;
}

/* The backend table of one family: listing, first resolution, selection. */
static void check_family(const char *family, fastsha_alg fam, const char *expect)
{
	const char *fname = fastsha_alg_name(fam);
	size_t n = fastsha_backend_count(fam);
	CHECK(n >= 2, "%s: only %zu backends", fname, n);
	CHECK(fastsha_backend_name(fam, n) == NULL, "%s: name past the end", fname);
	CHECK(fastsha_backend_supported(fam, n) == 0, "%s: supported past the end", fname);
	CHECK(fastsha_backend_lanes(fam, n) == 0, "%s: lanes past the end", fname);
	const char *first_auto = NULL;
	unsigned first_lanes = 0, first_yielded = 0;
	for (size_t i = 0; i < n; i++) {
		const char *name = fastsha_backend_name(fam, i);
		CHECK(name && *name, "%s: backend %zu has no name", fname, i);
		CHECK(fastsha_backend_lanes(fam, i) >= 1, "%s: backend %s has no lanes", fname, name);
		for (size_t j = 0; j < i; j++)
			CHECK(strcmp(name, fastsha_backend_name(fam, j)) != 0, "%s: %s listed twice",
			      fname, name);
		/* Lane rows (lanes > 1) serve batches only, never one message. */
		if (!first_auto && fastsha_backend_supported(fam, i) && strcmp(name, "reference") != 0 &&
		    fastsha_backend_lanes(fam, i) == 1)
			first_auto = name;
		/* The batch choice: the first supported lane row that is automatic,
		 * i.e. before the single-stream rows (portable_x4 is a test row),
		 * passing over rows that yield on this CPU unless all of them do. */
		if (!first_lanes && fastsha_backend_supported(fam, i) && !first_auto) {
			if (!yields_here(family, fam, i))
				first_lanes = fastsha_backend_lanes(fam, i);
			else if (!first_yielded)
				first_yielded = fastsha_backend_lanes(fam, i);
		}
	}
	if (!first_lanes)
		first_lanes = first_yielded;
	/* Whatever the single-message expectation, batches take the first lane
	 * row this CPU runs unless FASTSHA_BACKEND pins a row. */
	if (!getenv("FASTSHA_BACKEND"))
		CHECK(fastsha_many_lanes(fam) == (first_lanes > 1 ? first_lanes : 1),
		      "%s: batches use %u lanes, the first lane row has %u", fname,
		      fastsha_many_lanes(fam), first_lanes);
	/* The batch row's name agrees with its lane count, and with the
	 * single-message row when no lane row serves batches. */
	const char *many = fastsha_many_backend(fam);
	CHECK(many != NULL, "%s: no batch backend", fname);
	for (size_t i = 0; many && i < n; i++)
		if (strcmp(many, fastsha_backend_name(fam, i)) == 0)
			CHECK(fastsha_backend_lanes(fam, i) == fastsha_many_lanes(fam),
			      "%s: batch backend %s has %u lanes, fastsha_many_lanes says %u", fname,
			      many, fastsha_backend_lanes(fam, i), fastsha_many_lanes(fam));
	if (many && fastsha_many_lanes(fam) == 1)
		CHECK(strcmp(many, fastsha_backend(fam)) == 0, "%s: batches on %s, one message on %s",
		      fname, many, fastsha_backend(fam));
	CHECK(strcmp(fastsha_backend_name(fam, n - 1), "reference") == 0, "%s: reference not last",
	      fname);

	/* The first resolution: FASTSHA_BACKEND if valid, else the best row. */
	const char *active = fastsha_backend(fam);
	if (strcmp(expect, "auto") == 0)
		CHECK(first_auto && strcmp(active, first_auto) == 0, "%s: auto chose %s, best is %s",
		      fname, active, first_auto ? first_auto : "?");
	else
		CHECK(strcmp(active, expect) == 0, "%s: resolved to %s, expected %s", fname, active,
		      expect);
	CHECK(strcmp(active, "reference") != 0 || strcmp(expect, "reference") == 0,
	      "%s: reference chosen automatically", fname);

	/* Selection results. */
	CHECK(fastsha_use_backend(fam, "no-such-backend") == FASTSHA_SELECT_UNKNOWN, "unknown name");
	CHECK(strcmp(fastsha_backend(fam), active) == 0, "failed select changed the backend");
	for (size_t i = 0; i < n; i++) {
		int r = fastsha_use_backend(fam, fastsha_backend_name(fam, i));
		if (fastsha_backend_supported(fam, i))
			CHECK(r == FASTSHA_SELECT_OK, "select %s: %d", fastsha_backend_name(fam, i), r);
		else
			CHECK(r == FASTSHA_SELECT_UNSUPPORTED, "select unsupported %s: %d",
			      fastsha_backend_name(fam, i), r);
	}
	CHECK(fastsha_use_backend(fam, "portable") == FASTSHA_SELECT_OK, "portable");
	CHECK(strcmp(fastsha_backend(fam), "portable") == 0, "portable not in use");
	CHECK(fastsha_use_backend(fam, NULL) == FASTSHA_SELECT_OK, "reset");
	CHECK(strcmp(fastsha_backend(fam), active) == 0, "%s: reset gave %s, first was %s", fname,
	      fastsha_backend(fam), active);
}

/* The descriptor: names both ways, sizes, and out-of-range answers. */
static void check_descriptor(void)
{
	static const struct {
		const char *name;
		size_t digest, block;
	} want[FASTSHA_ALG_COUNT] = {
		{ "sha1", 20, 64 },	  { "sha224", 28, 64 },	       { "sha256", 32, 64 },
		{ "sha384", 48, 128 },	  { "sha512", 64, 128 },       { "sha512_224", 28, 128 },
		{ "sha512_256", 32, 128 }, { "sha1dc", 20, 64 },	       { "sha3_224", 28, 144 },
		{ "sha3_256", 32, 136 },   { "sha3_384", 48, 104 },    { "sha3_512", 64, 72 },
		{ "shake_128", 32, 168 },  { "shake_256", 64, 136 },   { "keccak256", 32, 136 },
		{ "turboshake128", 32, 168 }, { "turboshake256", 64, 136 }, { "k12", 32, 168 },
	};
	for (int a = 0; a < FASTSHA_ALG_COUNT; a++) {
		CHECK(strcmp(fastsha_alg_name(a), want[a].name) == 0, "alg %d is %s", a,
		      fastsha_alg_name(a));
		CHECK(fastsha_alg_from_name(want[a].name) == a, "%s not found", want[a].name);
		CHECK(fastsha_alg_digest_size(a) == want[a].digest, "%s digest size", want[a].name);
		CHECK(fastsha_alg_block_size(a) == want[a].block, "%s block size", want[a].name);
	}
	CHECK(fastsha_alg_from_name("SHA-256") == FASTSHA_SHA256, "SHA-256");
	CHECK(fastsha_alg_from_name("sha512/224") == FASTSHA_SHA512_224, "sha512/224");
	CHECK(fastsha_alg_from_name("SHA512-256") == FASTSHA_SHA512_256, "SHA512-256");
	CHECK(fastsha_alg_from_name("sha3-256") == FASTSHA_SHA3_256, "sha3-256 not found");
	CHECK(fastsha_alg_from_name("shake128") == FASTSHA_SHAKE128, "shake128 not found");
	CHECK(fastsha_alg_from_name("md5") == -1 && fastsha_alg_from_name("blake2b") == -1,
	      "an algorithm fastsha lacks found");
	CHECK(fastsha_alg_from_name("sha") == -1, "sha found");
	CHECK(fastsha_alg_from_name("sha2566") == -1, "sha2566 found");
	/* docs/python.md: hashlib's rules are not these. Taken here, refused
	 * there: */
	CHECK(fastsha_alg_from_name("SHA3_256") == FASTSHA_SHA3_256 &&
		      fastsha_alg_from_name("sha3256") == FASTSHA_SHA3_256,
	      "SHA3_256 or sha3256 not found");
	/* Every name OpenSSL 3 has for an algorithm fastsha has (`openssl
	 * list -digest-algorithms`, "Provided", 3.0.22; KECCAK-256 as 3.2
	 * spells it), as it prints them. */
	static const struct {
		const char *name;
		fastsha_alg alg;
	} openssl[] = {
		{ "SHA-1", FASTSHA_SHA1 },
		{ "SHA1", FASTSHA_SHA1 },
		{ "SSL3-SHA1", FASTSHA_SHA1 },
		{ "SHA-224", FASTSHA_SHA224 },
		{ "SHA2-224", FASTSHA_SHA224 },
		{ "SHA224", FASTSHA_SHA224 },
		{ "SHA-256", FASTSHA_SHA256 },
		{ "SHA2-256", FASTSHA_SHA256 },
		{ "SHA256", FASTSHA_SHA256 },
		{ "SHA-384", FASTSHA_SHA384 },
		{ "SHA2-384", FASTSHA_SHA384 },
		{ "SHA384", FASTSHA_SHA384 },
		{ "SHA-512", FASTSHA_SHA512 },
		{ "SHA2-512", FASTSHA_SHA512 },
		{ "SHA512", FASTSHA_SHA512 },
		{ "SHA-512/224", FASTSHA_SHA512_224 },
		{ "SHA2-512/224", FASTSHA_SHA512_224 },
		{ "SHA512-224", FASTSHA_SHA512_224 },
		{ "SHA-512/256", FASTSHA_SHA512_256 },
		{ "SHA2-512/256", FASTSHA_SHA512_256 },
		{ "SHA512-256", FASTSHA_SHA512_256 },
		{ "SHA3-224", FASTSHA_SHA3_224 },
		{ "SHA3-256", FASTSHA_SHA3_256 },
		{ "SHA3-384", FASTSHA_SHA3_384 },
		{ "SHA3-512", FASTSHA_SHA3_512 },
		{ "SHAKE-128", FASTSHA_SHAKE128 },
		{ "SHAKE128", FASTSHA_SHAKE128 },
		{ "SHAKE-256", FASTSHA_SHAKE256 },
		{ "SHAKE256", FASTSHA_SHAKE256 },
		{ "KECCAK-256", FASTSHA_KECCAK256 },
	};
	for (size_t i = 0; i < sizeof(openssl) / sizeof(openssl[0]); i++) {
		int got = fastsha_alg_from_name(openssl[i].name);
		CHECK(got == (int)openssl[i].alg, "OpenSSL's %s is alg %d, not %d", openssl[i].name,
		      got, (int)openssl[i].alg);
	}
	/* and in lower case, as hashlib and `openssl dgst -sha2-256` take them */
	CHECK(fastsha_alg_from_name("sha2-256") == FASTSHA_SHA256 &&
		      fastsha_alg_from_name("ssl3-sha1") == FASTSHA_SHA1 &&
		      fastsha_alg_from_name("sha2-512/224") == FASTSHA_SHA512_224,
	      "sha2-256, ssl3-sha1 or sha2-512/224 not found");
	/* Near misses: the OIDs (which hashlib takes), OpenSSL's signature
	 * names, KMAC's Keccak, SHA-2 without a size, a SHA-2 name on SHA-3's
	 * sizes and a truncated SHA-512/t. */
	static const char *const refused[] = {
		"2.16.840.1.101.3.4.2.1", "1.3.14.3.2.26", "RSA-SHA256", "sha256WithRSAEncryption",
		"RSA-SHA512/256", "KECCAK-KMAC-128", "KECCAK-KMAC256", "KECCAK", "SHA2", "SHA-2",
		"SHA2-", "SHA2-3-256", "SHA2-512/2", "SHA2-512/384", "SHA2-1",
		"SSL3-SHA256", "SSL3-MD5", "SHA2 256", "SHA2-256 ", "SHA2.256",
	};
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		CHECK(fastsha_alg_from_name(refused[i]) == -1, "%s found as alg %d", refused[i],
		      fastsha_alg_from_name(refused[i]));
	CHECK(fastsha_alg_from_name("") == -1 && fastsha_alg_from_name(NULL) == -1, "empty name");
	/* Past the end, and negative values cast to the enum, which a signed
	 * compare against FASTSHA_ALG_COUNT would let through. */
	const int bads[] = { FASTSHA_ALG_COUNT, -1, INT_MIN };
	for (size_t i = 1; i < sizeof(bads) / sizeof(bads[0]); i++) {
		fastsha_alg b = (fastsha_alg)bads[i];
		CHECK(fastsha_alg_name(b) == NULL && fastsha_alg_digest_size(b) == 0 &&
			      fastsha_alg_block_size(b) == 0 && !fastsha_alg_is_xof(b) &&
			      !fastsha_alg_detects(b) && fastsha_backend(b) == NULL &&
			      fastsha_backend_count(b) == 0 && fastsha_backend_name(b, 0) == NULL &&
			      fastsha_use_backend(b, "portable") == FASTSHA_SELECT_UNKNOWN,
		      "algorithm %d answered", bads[i]);
	}
	CHECK(fastsha_use_backend(FASTSHA_SHA256, "") == FASTSHA_SELECT_UNKNOWN &&
		      fastsha1_use_backend("") == FASTSHA_SELECT_UNKNOWN,
	      "an empty backend name was accepted");
	fastsha_alg bad = (fastsha_alg)bads[0];
	uint8_t d[DMAX];
	fastsha_ctx ctx;
	CHECK(fastsha_alg_name(bad) == NULL && fastsha_alg_digest_size(bad) == 0 &&
		      fastsha_alg_block_size(bad) == 0,
	      "out-of-range algorithm answered");
	CHECK(fastsha_init(&ctx, bad) == -1 && fastsha_digest(bad, "", 0, d) == -1 &&
		      fastsha_digest_bits(bad, "", 0, d) == -1,
	      "out-of-range algorithm accepted");
	CHECK(fastsha_backend(bad) == NULL && fastsha_backend_count(bad) == 0 &&
		      fastsha_backend_name(bad, 0) == NULL && fastsha_backend_supported(bad, 0) == 0 &&
		      fastsha_backend_lanes(bad, 0) == 0 && fastsha_many_lanes(bad) == 0 &&
		      fastsha_many_backend(bad) == NULL &&
		      fastsha_use_backend(bad, "portable") == FASTSHA_SELECT_UNKNOWN,
	      "out-of-range algorithm has backends");
}

/*
 * Each algorithm's typed functions against the generic ones: the typed
 * wrappers are generated per variant, so each is called once here.
 */
#define TYPED(alg, p, ctx_t)                                                                 \
	do {                                                                                 \
		uint8_t g[DMAX], t[DMAX];                                                    \
		size_t ds = fastsha_alg_digest_size(alg);                                    \
		ctx_t c;                                                                     \
		fastsha##p##_init(&c);                                                       \
		fastsha##p##_update(&c, msg, 100);                                           \
		fastsha##p##_update(&c, msg + 100, 201);                                     \
		fastsha_digest(alg, msg, 301, g);                                            \
		fastsha##p##_final(&c, t);                                                   \
		CHECK(memcmp(g, t, ds) == 0, "fastsha" #p "_final");                         \
		fastsha##p(msg, 301, t);                                                     \
		CHECK(memcmp(g, t, ds) == 0, "fastsha" #p "()");                             \
		fastsha_digest_bits(alg, msg, 301 * 8 + 5, g);                               \
		fastsha##p##_bits(msg, 301 * 8 + 5, t);                                      \
		CHECK(memcmp(g, t, ds) == 0, "fastsha" #p "_bits");                          \
		fastsha##p##_final_bits(&c, msg[301], 5, t);                                 \
		CHECK(memcmp(g, t, ds) == 0, "fastsha" #p "_final_bits");                    \
		CHECK(sizeof(c) <= sizeof(((fastsha_ctx *)0)->u), #ctx_t " too big");        \
		/* the batches: 301 bytes are 4 pieces of 100 */                             \
		const fastsha_msg m[3] = { { msg, 301 }, { NULL, 0 }, { msg + 1, 200 } };    \
		uint8_t tm[4][FASTSHA##p##_DIGEST_SIZE], gm[4 * DMAX];                       \
		fastsha##p##_many(m, 3, tm);                                                 \
		fastsha_many(alg, m, 3, gm);                                                 \
		CHECK(memcmp(tm, gm, 3 * ds) == 0, "fastsha" #p "_many");                    \
		CHECK(fastsha##p##_chunks(msg, 301, 100, tm) == 4, "fastsha" #p "_chunks");  \
		fastsha_chunks(alg, msg, 301, 100, gm);                                      \
		CHECK(memcmp(tm, gm, 4 * ds) == 0, "fastsha" #p "_chunks");                  \
	} while (0)

static void check_typed(void)
{
	uint8_t msg[302];
	prng_fill(msg, sizeof(msg));
	TYPED(FASTSHA_SHA1, 1, fastsha1_ctx);
	TYPED(FASTSHA_SHA224, 224, fastsha224_ctx);
	TYPED(FASTSHA_SHA256, 256, fastsha256_ctx);
	TYPED(FASTSHA_SHA384, 384, fastsha384_ctx);
	TYPED(FASTSHA_SHA512, 512, fastsha512_ctx);
	TYPED(FASTSHA_SHA512_224, 512_224, fastsha512_224_ctx);
	TYPED(FASTSHA_SHA512_256, 512_256, fastsha512_256_ctx);
}

/* Whether @n bytes at @p are all still 0xa5: nothing was written. */
static int untouched(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != 0xa5)
			return 0;
	return 1;
}

/*
 * A context fastsha_init() refused (fastsha.h): every call on it refuses
 * it, whatever it held before. Without that, a caller that ignored the -1
 * went on with the previous computation under its old algorithm (a digest
 * of the wrong message), or with an alg of garbage that the calls used as
 * an index past the algorithm table (asan: global-buffer-overflow). Both
 * starts are tried for every algorithm the context held before.
 */
static void check_refused_ctx(void)
{
	const uint32_t bad[] = { FASTSHA_ALG_COUNT, 1000, 0x5a5a5a5a, UINT32_MAX };
	uint8_t out[256];
	for (int prev = -1; prev < FASTSHA_ALG_COUNT; prev++) {
		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			fastsha_ctx c;
			if (prev < 0)
				memset(&c, 0x5a, sizeof(c)); /* never initialised */
			else {
				CHECK(fastsha_init(&c, prev) == 0, "init %d", prev);
				fastsha_update(&c, "abc", 3);
			}
			CHECK(fastsha_init(&c, (fastsha_alg)bad[i]) == -1, "init of alg %u accepted",
			      (unsigned)bad[i]);
			memset(out, 0xa5, sizeof(out));
			fastsha_update(&c, "def", 3);
			fastsha_update(&c, NULL, 0);
			fastsha_final(&c, out);
			fastsha_final_bits(&c, 0x80, 1, out);
			CHECK(fastsha_final_detect(&c, out) == -1, "final_detect of a refused context");
			CHECK(fastsha_squeeze(&c, out, sizeof(out)) == -1, "squeeze of a refused context");
			CHECK(untouched(out, sizeof(out)),
			      "a refused context (alg %u, before: %s) gave output", (unsigned)bad[i],
			      prev < 0 ? "garbage" : fastsha_alg_name(prev));
		}
	}
	/*
	 * A context re-initialised for any algorithm after any other one,
	 * mid-stream or (an XOF) mid-squeeze, starts afresh: no field of the
	 * earlier computation (a sponge's squeezing flag, K12's leaf count
	 * past one chunk, SHA1DC's record) survives init.
	 */
	static uint8_t msg[9000];
	for (size_t i = 0; i < sizeof(msg); i++)
		msg[i] = (uint8_t)(i * 131 + 7);
	for (int prev = 0; prev < FASTSHA_ALG_COUNT; prev++)
		for (int next = 0; next < FASTSHA_ALG_COUNT; next++) {
			fastsha_ctx r;
			uint8_t got[DMAX], exp[DMAX];
			fastsha_init(&r, prev);
			fastsha_update(&r, msg, sizeof(msg));
			if (fastsha_alg_is_xof(prev))
				fastsha_squeeze(&r, got, 5);
			CHECK(fastsha_init(&r, next) == 0, "re-init %d", next);
			fastsha_update(&r, msg + 1, sizeof(msg) - 1);
			fastsha_final(&r, got);
			fastsha_digest(next, msg + 1, sizeof(msg) - 1, exp);
			CHECK(memcmp(got, exp, fastsha_alg_digest_size(next)) == 0,
			      "%s re-initialised after %s", fastsha_alg_name(next),
			      fastsha_alg_name(prev));
		}
	/* A context set up after a refusal is an ordinary one. */
	fastsha_ctx c;
	uint8_t want[32];
	CHECK(fastsha_init(&c, (fastsha_alg)-1) == -1, "init of alg -1 accepted");
	CHECK(fastsha_init(&c, FASTSHA_SHA256) == 0, "init after a refusal");
	fastsha_update(&c, "abc", 3);
	fastsha_final(&c, out);
	fastsha_digest(FASTSHA_SHA256, "abc", 3, want);
	CHECK(memcmp(out, want, 32) == 0, "a context initialised after a refusal");
}

/* The Keccak family's typed functions (sha3.h) against the generic ones,
 * streamed in two updates: like the MD ones, stamped per variant. */
#define TYPED3(alg, p)                                                                       \
	do {                                                                                 \
		uint8_t g[DMAX], t[DMAX];                                                    \
		fastsha3_ctx c;                                                              \
		fast##p##_init(&c);                                                          \
		fast##p##_update(&c, msg, 100);                                              \
		fast##p##_update(&c, msg + 100, 201);                                        \
		fast##p##_final(&c, t);                                                      \
		fastsha_digest(alg, msg, 301, g);                                            \
		CHECK(memcmp(g, t, fastsha_alg_digest_size(alg)) == 0, "fast" #p "_final");  \
		fast##p(msg, 301, t);                                                        \
		CHECK(memcmp(g, t, fastsha_alg_digest_size(alg)) == 0, "fast" #p "()");      \
	} while (0)
#define TYPED_XOF(alg, p)                                                                    \
	do {                                                                                 \
		uint8_t g[200], t[200];                                                      \
		fastsha3_ctx c;                                                              \
		fast##p##_init(&c);                                                          \
		fast##p##_update(&c, msg, 100);                                              \
		fast##p##_update(&c, msg + 100, 201);                                        \
		fast##p##_squeeze(&c, t, 77);                                                \
		fast##p##_squeeze(&c, t + 77, 123);                                          \
		fastsha_xof(alg, msg, 301, g, 200);                                          \
		CHECK(memcmp(g, t, 200) == 0, "fast" #p "_squeeze");                         \
	} while (0)

static void check_typed_keccak(void)
{
	uint8_t msg[301];
	prng_fill(msg, sizeof(msg));
	TYPED3(FASTSHA_SHA3_224, sha3_224);
	TYPED3(FASTSHA_SHA3_256, sha3_256);
	TYPED3(FASTSHA_SHA3_384, sha3_384);
	TYPED3(FASTSHA_SHA3_512, sha3_512);
	TYPED3(FASTSHA_KECCAK256, keccak256);
	TYPED_XOF(FASTSHA_SHAKE128, shake128);
	TYPED_XOF(FASTSHA_SHAKE256, shake256);
	/* TurboSHAKE's init takes the domain byte, as its one-shot does; an
	 * out-of-range one is refused (test_sha3 checks the refused context),
	 * and a context set up again after it is an ordinary one. */
	static const struct {
		int (*init)(fastsha3_ctx *, uint8_t);
		int (*oneshot)(const void *, size_t, uint8_t, uint8_t *, size_t);
	} turbo[] = { { fastturboshake128_init, fastturboshake128 },
		      { fastturboshake256_init, fastturboshake256 } };
	for (size_t i = 0; i < 2; i++) {
		uint8_t g[200], t[200];
		fastsha3_ctx c;
		CHECK(turbo[i].init(&c, 0x80) == -1, "turboshake init %zu took domain 0x80", i);
		CHECK(turbo[i].init(&c, 0x0b) == 0, "turboshake init %zu", i);
		fastturboshake_update(&c, msg, 100);
		fastturboshake_update(&c, msg + 100, 201);
		fastturboshake_squeeze(&c, t, 77);
		fastturboshake_squeeze(&c, t + 77, 123);
		CHECK(turbo[i].oneshot(msg, 301, 0x0b, g, 200) == 0 && memcmp(g, t, 200) == 0,
		      "turboshake init %zu", i);
	}
}

int main(int argc, char **argv)
{
	const char *spec = argc > 1 ? argv[1] : "auto";
	uint8_t d[20];
	char hex[41];

	CHECK(strcmp(fastsha_version(), FASTSHA_VERSION_STRING) == 0, "version %s", fastsha_version());
	test_fam = test_family("sha1");
	if (strcmp(spec, "expect-env") == 0) {
		spec = getenv("FASTSHA_EXPECT_AUTO");
		if (!spec || !*spec) {
			printf("SKIP: FASTSHA_EXPECT_AUTO is not set\n");
			return TEST_SKIP;
		}
		printf("expecting %s\n", spec);
	}
	if (strcmp(spec, "unsupported-env") == 0) {
		/* Any family's row, not SHA-1's only: on POWER7 (ppc64-power7)
		 * and an AArch64 without the SHA512 hwcap (aarch64-fallback)
		 * every SHA-1 row runs while power8 or armv8 of SHA-256/512
		 * cannot, and the refusal went untested there. Named for its
		 * family, since the same name may run in another family. */
		char env[96] = "";
		for (size_t f = 0; f < sizeof(test_families) / sizeof(test_families[0]) && !*env; f++) {
			fastsha_alg a = test_families[f].algs[0];
			for (size_t i = 0; i < fastsha_backend_count(a); i++)
				if (!fastsha_backend_supported(a, i)) {
					snprintf(env, sizeof(env), "%s:%s", test_families[f].name,
						 fastsha_backend_name(a, i));
					break;
				}
		}
		if (!*env) {
			printf("SKIP: this CPU runs every built backend; none to refuse\n");
			return TEST_SKIP;
		}
		printf("FASTSHA_BACKEND=%s (not runnable here)\n", env);
		setenv("FASTSHA_BACKEND", env, 1);
		spec = "auto";
	}
	for (size_t f = 0; f < sizeof(test_families) / sizeof(test_families[0]); f++) {
		char buf[128];
		check_family(test_families[f].name, test_families[f].algs[0],
			     expected(spec, test_families[f].name, buf, sizeof(buf)));
	}
	if (!getenv("FASTSHA_BACKEND"))
		check_steps();
	/* The version 0.1 SHA-1 queries answer as the generic ones. */
	CHECK(fastsha1_backend_count() == fastsha_backend_count(FASTSHA_SHA1), "sha1 count");
	CHECK(strcmp(fastsha1_backend(), fastsha_backend(FASTSHA_SHA1)) == 0, "sha1 backend");
	/* A variant's table is its family's. */
	CHECK(fastsha_use_backend(FASTSHA_SHA224, "reference") == FASTSHA_SELECT_OK &&
		      strcmp(fastsha_backend(FASTSHA_SHA256), "reference") == 0,
	      "SHA-224's selection did not apply to SHA-256");
	CHECK(fastsha_use_backend(FASTSHA_SHA512_224, "reference") == FASTSHA_SELECT_OK &&
		      strcmp(fastsha_backend(FASTSHA_SHA384), "reference") == 0,
	      "SHA-512/224's selection did not apply to SHA-384");
	fastsha_use_backend(FASTSHA_SHA256, NULL);
	fastsha_use_backend(FASTSHA_SHA512, NULL);
	check_descriptor();
	check_refused_ctx();
	prng_seed(11);
	check_typed();
	check_typed_keccak();
	/* The version 0.1 SHA-1 queries of each row, and its selection. */
	for (size_t i = 0; i < fastsha1_backend_count(); i++) {
		CHECK(strcmp(fastsha1_backend_name(i), fastsha_backend_name(FASTSHA_SHA1, i)) == 0 &&
			      fastsha1_backend_supported(i) == fastsha_backend_supported(FASTSHA_SHA1, i) &&
			      fastsha1_backend_lanes(i) == fastsha_backend_lanes(FASTSHA_SHA1, i),
		      "sha1 row %zu", i);
	}
	CHECK(fastsha1_use_backend("reference") == FASTSHA_SELECT_OK &&
		      strcmp(fastsha_backend(FASTSHA_SHA1), "reference") == 0 &&
		      fastsha1_use_backend("no-such") == FASTSHA_SELECT_UNKNOWN &&
		      fastsha1_use_backend(NULL) == FASTSHA_SELECT_OK,
	      "fastsha1_use_backend");

	/* NULL with length 0, everywhere. */
	fastsha1(NULL, 0, d);
	to_hex(d, 20, hex);
	CHECK(strcmp(hex, empty_sha1) == 0, "fastsha1(NULL, 0) = %s", hex);
	fastsha1_bits(NULL, 0, d);
	to_hex(d, 20, hex);
	CHECK(strcmp(hex, empty_sha1) == 0, "fastsha1_bits(NULL, 0) = %s", hex);
	fastsha_k12(NULL, 0, NULL, 0, NULL, 0);
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

	/* The same rules for every algorithm, through the generic API. */
	for (int alg = 0; alg < FASTSHA_ALG_COUNT; alg++) {
		uint8_t x[DMAX], y[DMAX];
		size_t ds = fastsha_alg_digest_size(alg);
		const char *name = fastsha_alg_name(alg);
		fastsha_ctx g;
		fastsha_digest(alg, "", 0, x);
		fastsha_digest(alg, NULL, 0, y);
		CHECK(memcmp(x, y, ds) == 0, "%s(NULL, 0)", name);
		/* Nothing to read or write: every pointer may be NULL (fastsha.h).
		 * Under the sanitizers a memcpy of 0 bytes from or to NULL fails. */
		CHECK(fastsha_many(alg, NULL, 0, NULL) == 0 &&
			      fastsha_many_detect(alg, NULL, 0, NULL, NULL) == 0 &&
			      fastsha_chunks(alg, NULL, 0, 64, NULL) == 0,
		      "%s: a batch of nothing", name);
		/* many_detect writes every flag, 0 for a message that is no
		 * attack and under an algorithm that detects nothing. */
		const fastsha_msg three[3] = { { "abc", 3 }, { NULL, 0 }, { "message digest", 14 } };
		uint8_t outs[3 * DMAX], det[3] = { 0xa5, 0xa5, 0xa5 };
		CHECK(fastsha_many_detect(alg, three, 3, outs, det) == 0 && det[0] == 0 &&
			      det[1] == 0 && det[2] == 0,
		      "%s: many_detect's flags", name);
		for (size_t i = 0; i < 3; i++) {
			uint8_t want[DMAX];
			fastsha_digest(alg, three[i].data, three[i].len, want);
			CHECK(memcmp(outs + i * ds, want, ds) == 0, "%s: many_detect's digest %zu", name,
			      i);
		}
		if (fastsha_alg_is_xof(alg)) {
			CHECK(fastsha_xof(alg, NULL, 0, NULL, 0) == 0 &&
				      fastsha_many_xof(alg, NULL, 0, NULL, 16) == 0,
			      "%s: no output", name);
			fastsha_msg none = { NULL, 0 };
			CHECK(fastsha_many_xof(alg, &none, 1, NULL, 0) == 0, "%s: no output", name);
			CHECK(fastsha_init(&g, alg) == 0 && fastsha_squeeze(&g, NULL, 0) == 0,
			      "%s: squeeze of nothing", name);
		}
		fastsha_digest_bits(alg, NULL, 0, y);
		CHECK(memcmp(x, y, ds) == 0, "%s bits(NULL, 0)", name);
		CHECK(fastsha_init(&g, alg) == 0, "init %s", name);
		fastsha_update(&g, NULL, 0);
		fastsha_final(&g, y);
		CHECK(memcmp(x, y, ds) == 0, "%s update(NULL, 0)", name);
		fastsha_update(&g, "abc", 3);
		fastsha_final(&g, x);
		fastsha_final_bits(&g, 0xff, 8, y);
		CHECK(memcmp(x, y, ds) == 0, "%s: nbits 8 is not taken as 0", name);
		fastsha_final_bits(&g, 0xa0, 3, x);
		fastsha_final_bits(&g, 0xbf, 3, y);
		CHECK(memcmp(x, y, ds) == 0, "%s: low bits of last not ignored", name);
	}
	return test_finish("api");
}
