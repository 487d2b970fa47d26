/* SPDX-License-Identifier: MIT */
/*
 * HMAC, HKDF and PBKDF2 (fastsha/mac.h) do work that depends on lengths
 * only, under one backend of one family, every algorithm of the family in
 * turn. Run under valgrind memcheck (the valgrind preset) this is the
 * "ctgrind" check (Adam Langley, 2010): every key, password, salt, IKM,
 * PRK, info and message byte is marked undefined before the call, so
 * memcheck reports any branch or memory index the library derives from
 * them ("Conditional jump or move depends on uninitialised value(s)",
 * "Use of uninitialised value of size 8") and the preset's
 * --error-exitcode fails the test. Results are marked defined again before
 * they are compared with a run on the same, defined, inputs; and every
 * byte of them must come out undefined first, or memcheck lost the secret
 * on its way (an instruction it models as giving defined results) and a
 * clean run would prove nothing. After fastsha_hmac_final() and
 * fastsha_hmac_key_wipe() no byte of the context or key may be undefined
 * (secret-derived) or nonzero. Outside valgrind the marks are no-ops and
 * this checks only that the runs agree.
 *
 * Rows valgrind's CPU lacks (SHA-NI, AVX-512) skip, as in the preset's
 * other tests: their kernels are straight-line code whose branches test
 * block and round counts only.
 *
 * Usage: test_mac_ct FAMILY BACKEND; BACKEND "auto" keeps the automatic
 * choice.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
/* The header is valgrind's (Debian: valgrind); without it the marks are
 * no-ops and only the comparisons run. */
#if defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#define CT_MEMCHECK 1
#endif
#endif
#ifndef CT_MEMCHECK
#define RUNNING_ON_VALGRIND 0
#define VALGRIND_MAKE_MEM_UNDEFINED(p, n) ((void)(p), (void)(n))
#define VALGRIND_MAKE_MEM_DEFINED(p, n) ((void)(p), (void)(n))
#define VALGRIND_CHECK_MEM_IS_DEFINED(p, n) ((void)(p), (void)(n), 0)
#define VALGRIND_GET_VBITS(p, v, n) ((void)(p), (void)(v), (void)(n), 0)
#endif

#include "fastsha/mac.h"
#include "testutil.h"

#define SECRET(p, n) VALGRIND_MAKE_MEM_UNDEFINED((p), (n))
#define PUBLIC(p, n) VALGRIND_MAKE_MEM_DEFINED((p), (n))

/* Batches up to 2 * 16 + 1: past one round of the widest lane row, and of
 * PBKDF2's 2 * FSHA_MAX_LANES chains; inputs past two SHA-512 blocks; an
 * output of three digests and a piece. */
enum { MAXN = 33, MAXLEN = 300, MAXOUT = 3 * 64 + 7 };

/* A copy of @n bytes at @p marked secret, in a buffer of its own. */
static uint8_t *secret_copy(const uint8_t *p, size_t n)
{
	uint8_t *s = malloc(n + 1);
	if (!s)
		exit(2);
	if (n)
		memcpy(s, p, n);
	SECRET(s, n);
	return s;
}

/* Whether some byte of the inputs was secret: then every output byte must
 * come out undefined, or memcheck lost track of the secret somewhere (an
 * instruction it models as giving defined results) and a clean run
 * would prove nothing. */
static int tainted;

/* @got (marked defined first) against @want. */
static void same(uint8_t *got, const uint8_t *want, size_t n, const char *what)
{
	static uint8_t vbits[MAXN * MAXOUT];
	if (RUNNING_ON_VALGRIND && tainted && VALGRIND_GET_VBITS(got, vbits, n) == 1) {
		size_t clean = 0;
		for (size_t i = 0; i < n; i++)
			clean += vbits[i] == 0;
		CHECK(clean == 0, "%s %s: %zu of %zu output bytes defined: taint lost",
		      fastsha_alg_name(test_alg), what, clean, n);
	}
	PUBLIC(got, n);
	CHECK(memcmp(got, want, n) == 0, "%s %s: secret-marked run differs", fastsha_alg_name(test_alg),
	      what);
}

/* The @n bytes at @p wiped: none secret-derived (undefined) and all zero
 * but the @skip_len at @skip_from (a wiped context's or key's alg field,
 * set to an invalid algorithm on purpose). */
static void wiped(const void *p, size_t n, size_t skip_from, size_t skip_len, const char *what)
{
	CHECK(VALGRIND_CHECK_MEM_IS_DEFINED(p, n) == 0, "%s %s: secret-derived bytes left",
	      fastsha_alg_name(test_alg), what);
	PUBLIC(p, n);
	const uint8_t *b = p;
	for (size_t i = 0; i < n; i++)
		if (b[i] && !(i >= skip_from && i < skip_from + skip_len)) {
			CHECK(0, "%s %s: byte %zu not wiped", fastsha_alg_name(test_alg), what, i);
			break;
		}
}

/* HMAC under key @key (@kl bytes) of message @msg (@ml bytes), both
 * secret: the one-shot, a prepared key with streaming (and the context and
 * key wiped after), and batches of one length and of several. */
static void ct_hmac(const uint8_t *key, size_t kl, const uint8_t *msg, size_t ml)
{
	uint8_t want[DMAX], got[DMAX];
	uint8_t *sk = secret_copy(key, kl), *sm = secret_copy(msg, ml);
	tainted = kl || ml;
	fastsha_hmac(test_alg, key, kl, msg, ml, want);
	fastsha_hmac(test_alg, sk, kl, sm, ml, got);
	same(got, want, DS(), "fastsha_hmac");

	fastsha_hmac_key k;
	fastsha_hmac_ctx c;
	memset(&c, 0, sizeof(c));
	fastsha_hmac_key_init(&k, test_alg, sk, kl);
	fastsha_hmac_init(&c, &k);
	fastsha_hmac_update(&c, sm, ml / 3);
	fastsha_hmac_update(&c, sm + ml / 3, ml - ml / 3);
	fastsha_hmac_final(&c, got);
	same(got, want, DS(), "fastsha_hmac_init/update/final");
	wiped(&c, sizeof(c), 0, 4, "fastsha_hmac_final's context");

	/* Batches: messages of one length (the shared-padding path on rows
	 * that have it) and of mixed lengths, each under the secret key. */
	static uint8_t wmany[MAXN * DMAX], gmany[MAXN * DMAX];
	fastsha_msg m[MAXN];
	for (size_t n = 1; n <= MAXN; n = n < 5 ? n + 1 : 2 * n - 1) {
		for (int mixed = 0; mixed < 2; mixed++) {
			for (size_t i = 0; i < n; i++) {
				size_t len = mixed ? (ml + 17 * i) % (ml + 1) : ml;
				m[i] = (fastsha_msg){ sm, len };
				fastsha_hmac(test_alg, key, kl, msg, len, wmany + i * DS());
			}
			tainted = kl || (ml && !mixed); /* mixed: some empty */
			fastsha_hmac_many(&k, m, n, gmany);
			same(gmany, wmany, n * DS(), "fastsha_hmac_many");
		}
	}
	fastsha_hmac_key_wipe(&k);
	wiped(&k, sizeof(k), 0, 4, "fastsha_hmac_key_wipe's key");
	free(sk);
	free(sm);
}

/* PBKDF2 of secret password @pw (@pl bytes) and secret salt @salt (@sl
 * bytes) at several iteration counts and output lengths (a piece of one
 * block, one, one and a byte, three and a piece), alone and in batches. */
static void ct_pbkdf2(const uint8_t *pw, size_t pl, const uint8_t *salt, size_t sl)
{
	static const uint32_t iters[] = { 1, 2, 5 };
	const size_t outs[] = { 1, DS(), DS() + 1, 3 * DS() + 5 };
	uint8_t want[MAXOUT], got[MAXOUT];
	uint8_t *sp = secret_copy(pw, pl), *ss = secret_copy(salt, sl);
	tainted = pl || sl;
	for (size_t i = 0; i < sizeof(iters) / sizeof(iters[0]); i++)
		for (size_t o = 0; o < sizeof(outs) / sizeof(outs[0]); o++) {
			fastsha_pbkdf2(test_alg, pw, pl, salt, sl, iters[i], want, outs[o]);
			fastsha_pbkdf2(test_alg, sp, pl, ss, sl, iters[i], got, outs[o]);
			same(got, want, outs[o], "fastsha_pbkdf2");
		}
	/* Batches of passwords of several lengths (prefixes of @pw) on the
	 * lanes; 17 and 33 run more chains than one round of fsha_chains(). */
	static uint8_t wmany[MAXN * MAXOUT], gmany[MAXN * MAXOUT];
	fastsha_msg pws[MAXN], salts[MAXN];
	for (size_t n = 1; n <= MAXN; n = n < 3 ? n + 1 : 2 * n - 1)
		for (size_t o = 0; o < sizeof(outs) / sizeof(outs[0]); o += 2) {
			const size_t ol = outs[o];
			for (size_t j = 0; j < n; j++) {
				size_t l = pl ? (pl - j % (pl + 1)) : 0;
				pws[j] = (fastsha_msg){ sp, l };
				salts[j] = (fastsha_msg){ ss, sl };
				fastsha_pbkdf2(test_alg, pw, l, salt, sl, 2, wmany + j * ol, ol);
			}
			tainted = sl != 0; /* a batch may hold an empty password */
			fastsha_pbkdf2_many(test_alg, pws, salts, n, 2, gmany, ol);
			same(gmany, wmany, n * ol, "fastsha_pbkdf2_many");
		}
	free(sp);
	free(ss);
}

/* HKDF with secret IKM @ikm (@il bytes), salt @salt (@sl) and info @info
 * (@nl): whole, then extract, then expand from a secret PRK (of a digest,
 * and longer than a block when @il is). */
static void ct_hkdf(const uint8_t *ikm, size_t il, const uint8_t *salt, size_t sl,
		    const uint8_t *info, size_t nl)
{
	const size_t outs[] = { 1, DS(), DS() + 5, 3 * DS() + 7 };
	uint8_t want[MAXOUT], got[MAXOUT], prk[DMAX], sprk[DMAX];
	uint8_t *si = secret_copy(ikm, il), *ss = secret_copy(salt, sl), *sn = secret_copy(info, nl);
	tainted = il || sl || nl;
	for (size_t o = 0; o < sizeof(outs) / sizeof(outs[0]); o++) {
		fastsha_hkdf(test_alg, salt, sl, ikm, il, info, nl, want, outs[o]);
		fastsha_hkdf(test_alg, ss, sl, si, il, sn, nl, got, outs[o]);
		same(got, want, outs[o], "fastsha_hkdf");
	}
	fastsha_hkdf_extract(test_alg, salt, sl, ikm, il, prk);
	fastsha_hkdf_extract(test_alg, ss, sl, si, il, sprk);
	same(sprk, prk, DS(), "fastsha_hkdf_extract");
	SECRET(sprk, DS());
	tainted = 1;
	for (size_t o = 0; o < sizeof(outs) / sizeof(outs[0]); o++) {
		fastsha_hkdf_expand(test_alg, prk, DS(), info, nl, want, outs[o]);
		fastsha_hkdf_expand(test_alg, sprk, DS(), sn, nl, got, outs[o]);
		same(got, want, outs[o], "fastsha_hkdf_expand");
	}
	/* A PRK longer than a block is hashed first (RFC 2104's long key):
	 * another path through the key's preparation. */
	if (il > BS()) {
		fastsha_hkdf_expand(test_alg, ikm, il, info, nl, want, 2 * DS());
		fastsha_hkdf_expand(test_alg, si, il, sn, nl, got, 2 * DS());
		same(got, want, 2 * DS(), "fastsha_hkdf_expand, long PRK");
	}
	free(si);
	free(ss);
	free(sn);
}

/* fastsha_equal() of two secret strings, equal and differing in the
 * middle; only its verdict is public. */
static void ct_equal(void)
{
	uint8_t a[64], b[64];
	prng_fill(a, sizeof(a));
	for (size_t len = 0; len <= sizeof(a); len += 7) {
		for (int differ = 0; differ < 2; differ++) {
			memcpy(b, a, sizeof(b));
			if (differ && len)
				b[len / 2] ^= 1;
			SECRET(a, len);
			SECRET(b, len);
			int r = fastsha_equal(a, b, len);
			PUBLIC(&r, sizeof(r)); /* the caller's verdict is public */
			PUBLIC(a, len);
			PUBLIC(b, len);
			CHECK(r == !(differ && len), "fastsha_equal(%zu bytes, differ %d) = %d", len,
			      differ, r);
		}
	}
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: %s FAMILY BACKEND\n", argv[0]);
		return 2;
	}
	if (strcmp(argv[2], "auto") == 0)
		test_fam = test_family(argv[1]);
	else
		test_use_backend(argv[1], argv[2]);
	prng_seed(0x637467);
	static uint8_t buf[MAXLEN], salt[MAXLEN], info[MAXLEN];
	prng_fill(buf, sizeof(buf));
	prng_fill(salt, sizeof(salt));
	prng_fill(info, sizeof(info));
	for (size_t a = 0; a < test_fam->nalgs; a++) {
		test_alg = test_fam->algs[a];
		const size_t B = BS();
		printf("%s: backend %s, batches %s\n", fastsha_alg_name(test_alg),
		       fastsha_backend(test_alg), fastsha_many_backend(test_alg));
		const size_t keys[] = { 0, 1, 20, B - 1, B, B + 1, 2 * B + 3 };
		const size_t msgs[] = { 0, 3, B - 9, B, 2 * B + 1 };
		for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
			for (size_t m = 0; m < sizeof(msgs) / sizeof(msgs[0]); m++)
				ct_hmac(buf, keys[k], info, msgs[m]);
		const size_t pws[] = { 0, 8, B + 1 };
		const size_t sls[] = { 0, 16, B + 36 };
		for (size_t p = 0; p < sizeof(pws) / sizeof(pws[0]); p++)
			for (size_t s = 0; s < sizeof(sls) / sizeof(sls[0]); s++)
				ct_pbkdf2(buf, pws[p], salt, sls[s]);
		const size_t ikms[] = { 0, 22, B + 9 };
		for (size_t i = 0; i < sizeof(ikms) / sizeof(ikms[0]); i++) {
			ct_hkdf(buf, ikms[i], salt, 0, info, 0);
			ct_hkdf(buf, ikms[i], salt, 13, info, 10);
		}
	}
	ct_equal();
	printf("%s\n", RUNNING_ON_VALGRIND ? "secrets marked for memcheck"
					   : "not under valgrind: the runs compared only");
	return test_finish("test_mac_ct");
}
