/* SPDX-License-Identifier: MIT */
/*
 * HMAC, HKDF and PBKDF2 (fastsha/mac.h) under one backend of one family,
 * every algorithm of the family in turn:
 *
 * - known answers: RFC 2202 and 4231 (vectors/mac/rfc.txt) and Wycheproof's
 *   HMAC, HKDF and PBKDF2 cases (vectors/mac/wycheproof.txt, which holds
 *   the RFC 5869, 6070 and 7914 ones), through every entry point: the
 *   one-shot, a prepared key with streaming, batches;
 * - HMAC against its definition, H((K ^ opad) || H((K ^ ipad) || m)),
 *   written here on plain hashing under a trusted backend (portable, or
 *   the reference when portable is under test), for every key length to
 *   past two blocks and messages around the block size;
 * - batches (fastsha_hmac_many, fastsha_pbkdf2_many) of every count 0 ..
 *   2 * 16 + 1 against one at a time, and PBKDF2 against RFC 8018's
 *   definition written here on fastsha_hmac();
 * - bad input: -1 and nothing written; wiped keys and finished contexts
 *   refused; fastsha_equal().
 *
 * Usage: test_mac FAMILY BACKEND VECTOR_DIR [long]; BACKEND "auto" keeps
 * the automatic choice. "long" runs only the PBKDF2 cases past
 * LONG_ITERATIONS (up to RFC 6070's 16,777,216 iterations; with
 * FASTSHA_TEST_MAC_SAMPLE, those past SAMPLE_ITERATIONS), which the
 * per-backend runs leave out or sample, saying so.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fastsha/mac.h"
#include "testutil.h"
#if defined(__x86_64__)
#include "../src/cpu/cpu.h" /* check_chain_kernels_without_vl(): the feature cache */
#endif

/* PBKDF2 cases with more iterations than LONG_ITERATIONS run in the "long"
 * mode only: RFC 7914's 80,000 and RFC 6070's 16,777,216. With
 * FASTSHA_TEST_MAC_SAMPLE=N in the environment (the emulator and sanitizer
 * presets), those of more than SAMPLE_ITERATIONS (Wycheproof's
 * 4,096-iteration cases, about 55 an algorithm: nine tenths of this test's
 * time, a minute a family under qemu) run one in N, and the long mode
 * (test_mac_long, the automatic choice) runs them all: each is the same
 * chain of one-block compressions as its neighbours, which differ in
 * password, salt and length, and the sample and the short cases cover those
 * under every backend. The release run (make test) runs them all everywhere. */
#define LONG_ITERATIONS 10000u
#define SAMPLE_ITERATIONS 1000u

static unsigned sample_every; /* 0: every case */
static int long_mode;
static size_t skipped_long;

/* Whether algorithm @name belongs to the family under test; sets test_alg. */
static int in_family(const char *name)
{
	int a = fastsha_alg_from_name(name);
	for (size_t i = 0; a >= 0 && i < test_fam->nalgs; i++)
		if (test_fam->algs[i] == (fastsha_alg)a) {
			test_alg = (fastsha_alg)a;
			return 1;
		}
	return 0;
}

/* Hex field @s ('-' is empty) into a new buffer; its length in *@n. */
static uint8_t *field(const char *s, size_t *n)
{
	size_t len = strcmp(s, "-") == 0 ? 0 : strlen(s) / 2;
	uint8_t *p = malloc(len + 1);
	if (!p || from_hex(s, len, p) != 0) {
		fprintf(stderr, "bad hex field '%.40s'\n", s);
		exit(2);
	}
	*n = len;
	return p;
}

/* One known-answer HMAC case through every entry point. */
static void kat_hmac(char **f, const char *where)
{
	size_t kl, ml, tl;
	uint8_t *key = field(f[2], &kl), *msg = field(f[3], &ml), *tag = field(f[4], &tl);
	int valid = strcmp(f[5], "valid") == 0;
	uint8_t a[DMAX], b[DMAX], c[DMAX];
	CHECK(tl <= DS(), "%s: tag longer than the digest", where);
	CHECK(fastsha_hmac(test_alg, key, kl, msg, ml, a) == 0, "%s: fastsha_hmac failed", where);
	CHECK(fastsha_equal(a, tag, tl) == valid, "%s: %s tag %s", where, f[5],
	      valid ? "does not match" : "matches");
	fastsha_hmac_key k;
	fastsha_hmac_ctx x;
	CHECK(fastsha_hmac_key_init(&k, test_alg, key, kl) == 0, "%s: key_init", where);
	CHECK(fastsha_hmac_init(&x, &k) == 0, "%s: init", where);
	fastsha_hmac_update(&x, msg, ml / 3);
	fastsha_hmac_update(&x, msg + ml / 3, ml - ml / 3);
	CHECK(fastsha_hmac_final(&x, b) == 0, "%s: final", where);
	CHECK(memcmp(a, b, DS()) == 0, "%s: streaming differs from the one-shot", where);
	fastsha_msg m[2] = { { msg, ml }, { msg, ml } };
	uint8_t two[2 * DMAX];
	CHECK(fastsha_hmac_many(&k, m, 2, two) == 0, "%s: many", where);
	CHECK(memcmp(two, a, DS()) == 0 && memcmp(two + DS(), a, DS()) == 0,
	      "%s: fastsha_hmac_many differs", where);
	CHECK(fastsha_hmac_many(&k, m, 1, c) == 0 && memcmp(c, a, DS()) == 0,
	      "%s: fastsha_hmac_many of one differs", where);
	fastsha_hmac_key_wipe(&k);
	free(key);
	free(msg);
	free(tag);
}

/* One known-answer HKDF case: the whole, and extract then expand. */
static void kat_hkdf(char **f, const char *where)
{
	size_t il, sl, nl, ol;
	uint8_t *ikm = field(f[2], &il), *salt = field(f[3], &sl), *info = field(f[4], &nl);
	size_t size = strtoul(f[5], NULL, 10);
	uint8_t *okm = field(f[6], &ol);
	int valid = strcmp(f[7], "valid") == 0;
	uint8_t *out = malloc(size + 1), prk[DMAX];
	memset(out, 0xa5, size + 1);
	int r = fastsha_hkdf(test_alg, sl ? salt : NULL, sl, ikm, il, info, nl, out, size);
	if (valid) {
		CHECK(r == 0 && ol == size && memcmp(out, okm, size) == 0, "%s: HKDF differs", where);
		memset(out, 0xa5, size + 1);
		CHECK(fastsha_hkdf_extract(test_alg, salt, sl, ikm, il, prk) == 0, "%s: extract", where);
		CHECK(fastsha_hkdf_expand(test_alg, prk, DS(), info, nl, out, size) == 0 &&
			      memcmp(out, okm, size) == 0,
		      "%s: extract then expand differs", where);
	} else {
		CHECK(r == -1, "%s: HKDF of %zu bytes not refused", where, size);
	}
	CHECK(out[size] == 0xa5, "%s: HKDF wrote past its output", where);
	if (!valid)
		for (size_t i = 0; i < size; i++)
			if (out[i] != 0xa5) {
				CHECK(0, "%s: refused HKDF wrote its output", where);
				break;
			}
	free(ikm);
	free(salt);
	free(info);
	free(okm);
	free(out);
}

/* One known-answer PBKDF2 case (the long ones only in long mode); 1 when
 * it ran, 0 when it was left to the other mode or sampled out. */
static int kat_pbkdf2(char **f, const char *where)
{
	unsigned long iters = strtoul(f[4], NULL, 10);
	static unsigned sampled;
	int run;
	if (long_mode)
		run = iters > (sample_every ? SAMPLE_ITERATIONS : LONG_ITERATIONS);
	else
		run = iters <= SAMPLE_ITERATIONS ||
		      (iters <= LONG_ITERATIONS && (!sample_every || sampled++ % sample_every == 0));
	if (!run) {
		skipped_long += !long_mode;
		return 0;
	}
	size_t pl, sl, dl;
	uint8_t *pw = field(f[2], &pl), *salt = field(f[3], &sl);
	size_t dklen = strtoul(f[5], NULL, 10);
	uint8_t *dk = field(f[6], &dl), *out = malloc(dklen + 1);
	memset(out, 0xa5, dklen + 1);
	CHECK(fastsha_pbkdf2(test_alg, pw, pl, salt, sl, (uint32_t)iters, out, dklen) == 0 &&
		      dl == dklen && memcmp(out, dk, dklen) == 0,
	      "%s: PBKDF2 differs", where);
	CHECK(out[dklen] == 0xa5, "%s: PBKDF2 wrote past its output", where);
	if (!long_mode && iters <= 1000) { /* the same as a batch of three */
		fastsha_msg p[3] = { { pw, pl }, { pw, pl }, { pw, pl } };
		fastsha_msg s[3] = { { salt, sl }, { salt, sl }, { salt, sl } };
		uint8_t *o3 = malloc(3 * dklen);
		CHECK(fastsha_pbkdf2_many(test_alg, p, s, 3, (uint32_t)iters, o3, dklen) == 0,
		      "%s: pbkdf2_many", where);
		for (int i = 0; i < 3; i++)
			CHECK(memcmp(o3 + i * dklen, dk, dklen) == 0, "%s: pbkdf2_many key %d", where, i);
		free(o3);
	}
	free(pw);
	free(salt);
	free(dk);
	free(out);
	return 1;
}

/* Every case of file @name for the family under test; returns how many ran. */
static size_t run_file(const char *dir, const char *name)
{
	char path[4096], line[1 << 16], where[256];
	snprintf(path, sizeof(path), "%s/mac/%s", dir, name);
	FILE *fp = fopen(path, "r");
	if (!fp) {
		fprintf(stderr, "FAIL: cannot open %s\n", path);
		exit(1);
	}
	size_t n = 0, lineno = 0;
	while (fgets(line, sizeof(line), fp)) {
		lineno++;
		char *f[9];
		size_t nf = 0;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		for (char *t = strtok(line, " \n"); t && nf < 9; t = strtok(NULL, " \n"))
			f[nf++] = t;
		if (nf < 6 || !in_family(f[1]))
			continue;
		snprintf(where, sizeof(where), "%s:%zu (%s %s)", name, lineno, f[0], f[1]);
		if (strcmp(f[0], "hmac") == 0 && nf == 6)
			kat_hmac(f, where);
		else if (strcmp(f[0], "hkdf") == 0 && nf == 8)
			kat_hkdf(f, where);
		else if (strcmp(f[0], "pbkdf2") == 0 && nf == 8) {
			n += kat_pbkdf2(f, where);
			continue;
		} else {
			fprintf(stderr, "FAIL: %s: unreadable line\n", where);
			exit(1);
		}
		n++;
	}
	fclose(fp);
	return n;
}

/* HMAC by its definition on plain hashing under a trusted backend. */
static void hmac_definition(const uint8_t *key, size_t kl, const uint8_t *msg, size_t ml,
			    uint8_t *out)
{
	const size_t B = BS(), D = DS();
	uint8_t k0[128] = { 0 }, *buf = malloc(B + (ml > D ? ml : D));
	if (kl > B)
		oracle_digest(key, kl, k0);
	else if (kl)
		memcpy(k0, key, kl);
	for (size_t i = 0; i < B; i++)
		buf[i] = k0[i] ^ 0x36;
	if (ml)
		memcpy(buf + B, msg, ml);
	uint8_t inner[DMAX];
	oracle_digest(buf, B + ml, inner);
	for (size_t i = 0; i < B; i++)
		buf[i] = k0[i] ^ 0x5c;
	memcpy(buf + B, inner, D);
	oracle_digest(buf, B + D, out);
	free(buf);
}

/* Keys of every length to past two blocks, messages around the block
 * size, each through the one-shot and streaming at several splits. */
static void check_definition(void)
{
	const size_t B = BS(), D = DS();
	uint8_t key[300], msg[400], want[DMAX], got[DMAX];
	prng_fill(key, sizeof(key));
	prng_fill(msg, sizeof(msg));
	const size_t mlens[] = { 0, 1, B - 9, B - 1, B, B + 1, 2 * B - 17, 2 * B, 3 * B + 5 };
	for (size_t kl = 0; kl <= 2 * B + 2; kl += test_primary() ? 1 : 7) {
		for (size_t j = 0; j < sizeof(mlens) / sizeof(mlens[0]); j++) {
			size_t ml = mlens[j];
			hmac_definition(key, kl, msg, ml, want);
			CHECK(fastsha_hmac(test_alg, key, kl, msg, ml, got) == 0 &&
				      memcmp(got, want, D) == 0,
			      "HMAC key %zu msg %zu differs from the definition", kl, ml);
			fastsha_hmac_key k;
			fastsha_hmac_key_init(&k, test_alg, key, kl);
			for (size_t cut = 0; cut <= ml; cut += ml / 4 + 1) {
				fastsha_hmac_ctx x;
				fastsha_hmac_init(&x, &k);
				fastsha_hmac_update(&x, msg, cut);
				fastsha_hmac_ctx y = x; /* a fork finishes the same */
				fastsha_hmac_update(&x, msg + cut, ml - cut);
				fastsha_hmac_update(&y, msg + cut, ml - cut);
				fastsha_hmac_final(&x, got);
				CHECK(memcmp(got, want, D) == 0, "streamed HMAC key %zu msg %zu cut %zu",
				      kl, ml, cut);
				fastsha_hmac_final(&y, got);
				CHECK(memcmp(got, want, D) == 0, "forked HMAC key %zu msg %zu cut %zu", kl,
				      ml, cut);
			}
		}
	}
	/* NULL with length 0 */
	hmac_definition(NULL, 0, NULL, 0, want);
	CHECK(fastsha_hmac(test_alg, NULL, 0, NULL, 0, got) == 0 && memcmp(got, want, D) == 0,
	      "HMAC of NULL key and message");
}

/*
 * HKDF by RFC 5869's definition on fastsha_hmac(), for info of every length
 * around the point where T(i-1) || info || i, padded, stops fitting two
 * blocks (kdf.c builds such messages whole, longer ones from streaming
 * updates) and far past it, with one, two and three output blocks.
 */
static void check_hkdf_definition(void)
{
	const size_t D = DS();
	uint8_t salt[40], ikm[50], info[700], prk[DMAX], t[DMAX], want[3 * DMAX],
		got[3 * DMAX], *m = malloc(DMAX + sizeof(info) + 1);
	prng_fill(salt, sizeof(salt));
	prng_fill(ikm, sizeof(ikm));
	prng_fill(info, sizeof(info));
	const size_t B = BS(), edge = 2 * B - D - 2 - B / 8; /* the length field: B / 8 bytes */
	const size_t infos[] = { 0, 1, 10, 55, 64, 127, edge - 1, edge, edge + 1, edge + 2, 400, 700 };
	for (size_t j = 0; j < sizeof(infos) / sizeof(infos[0]); j++) {
		size_t nl = infos[j];
		for (size_t outlen = D - 1; outlen <= 3 * D; outlen += D) {
			CHECK(fastsha_hmac(test_alg, salt, sizeof(salt), ikm, sizeof(ikm), prk) == 0,
			      "HKDF definition: extract");
			for (size_t i = 1, done = 0; done < outlen; i++) {
				size_t pre = i > 1 ? D : 0;
				memcpy(m, t, pre);
				if (nl)
					memcpy(m + pre, info, nl);
				m[pre + nl] = (uint8_t)i;
				fastsha_hmac(test_alg, prk, D, m, pre + nl + 1, t);
				size_t take = outlen - done < D ? outlen - done : D;
				memcpy(want + done, t, take);
				done += take;
			}
			memset(got, 0xa5, sizeof(got));
			CHECK(fastsha_hkdf(test_alg, salt, sizeof(salt), ikm, sizeof(ikm),
					   nl ? info : NULL, nl, got, outlen) == 0 &&
				      memcmp(got, want, outlen) == 0 && got[outlen] == 0xa5,
			      "HKDF info %zu out %zu differs from the definition", nl, outlen);
			memset(got, 0xa5, sizeof(got));
			CHECK(fastsha_hkdf_expand(test_alg, prk, D, nl ? info : NULL, nl, got,
						  outlen) == 0 &&
				      memcmp(got, want, outlen) == 0 && got[outlen] == 0xa5,
			      "HKDF-Expand info %zu out %zu differs from the definition", nl, outlen);
		}
	}
	free(m);
}

/* PBKDF2 by RFC 8018's definition on fastsha_hmac(). */
static void pbkdf2_definition(const uint8_t *pw, size_t pl, const uint8_t *salt, size_t sl,
			      uint32_t iters, uint8_t *out, size_t outlen)
{
	const size_t D = DS();
	uint8_t *s = malloc(sl + 4), u[DMAX], u2[DMAX], t[DMAX];
	if (sl)
		memcpy(s, salt, sl);
	for (uint32_t i = 1; (size_t)(i - 1) * D < outlen; i++) {
		s[sl] = (uint8_t)(i >> 24);
		s[sl + 1] = (uint8_t)(i >> 16);
		s[sl + 2] = (uint8_t)(i >> 8);
		s[sl + 3] = (uint8_t)i;
		fastsha_hmac(test_alg, pw, pl, s, sl + 4, u);
		memcpy(t, u, D);
		for (uint32_t j = 1; j < iters; j++) {
			fastsha_hmac(test_alg, pw, pl, u, D, u2);
			memcpy(u, u2, D);
			for (size_t b = 0; b < D; b++)
				t[b] ^= u[b];
		}
		size_t off = (size_t)(i - 1) * D;
		memcpy(out + off, t, outlen - off < D ? outlen - off : D);
	}
	free(s);
}

/* Batches of every count to 2 * 16 + 1 against one at a time. */
static void check_batches(void)
{
	enum { MAXN = 2 * 16 + 1 };
	const size_t B = BS(), D = DS();
	static uint8_t pool[4096];
	prng_fill(pool, sizeof(pool));
	fastsha_msg m[MAXN], s[MAXN];
	static uint8_t out[MAXN * 3 * 64 + 1], one[9 * 64 + 1];
	const size_t lens[] = { 0, 1, 3, B - 9, B - 1, B, B + 1, 2 * B + 3, 300 };
	fastsha_hmac_key k;
	fastsha_hmac_key_init(&k, test_alg, pool + 7, 13);
	for (size_t n = 0; n <= MAXN; n++) {
		for (size_t i = 0; i < n; i++) {
			size_t len = lens[(i * 7 + n) % (sizeof(lens) / sizeof(lens[0]))];
			m[i].data = len ? pool + (i * 37) % 1024 : NULL;
			m[i].len = len;
			s[i].data = pool + 2048 + i;
			s[i].len = lens[(i * 5 + n + 3) % (sizeof(lens) / sizeof(lens[0]))];
		}
		memset(out, 0xa5, sizeof(out));
		CHECK(fastsha_hmac_many(&k, m, n, out) == 0, "hmac_many n=%zu", n);
		for (size_t i = 0; i < n; i++) {
			uint8_t want[DMAX];
			fastsha_hmac(test_alg, pool + 7, 13, m[i].data, m[i].len, want);
			CHECK(memcmp(out + i * D, want, D) == 0, "hmac_many n=%zu message %zu (len %zu)",
			      n, i, m[i].len);
		}
		CHECK(out[n * D] == 0xa5, "hmac_many n=%zu wrote past its output", n);
		/* PBKDF2: passwords and salts around the block size, a few
		 * output lengths (one block, a block and a byte, three). */
		const size_t outlens[] = { 1, D, D + 1, 2 * D + 5 };
		size_t ol = outlens[n % 4];
		uint32_t iters = n % 3 ? 3 : 1;
		memset(out, 0xa5, sizeof(out));
		CHECK(fastsha_pbkdf2_many(test_alg, m, s, n, iters, out, ol) == 0, "pbkdf2_many n=%zu",
		      n);
		for (size_t i = 0; i < n; i++) {
			pbkdf2_definition(m[i].data, m[i].len, s[i].data, s[i].len, iters, one, ol);
			CHECK(memcmp(out + i * ol, one, ol) == 0,
			      "pbkdf2_many n=%zu password %zu (%zu, salt %zu, %zu bytes, %u iterations)",
			      n, i, m[i].len, s[i].len, ol, iters);
		}
		CHECK(out[n * ol] == 0xa5, "pbkdf2_many n=%zu wrote past its output", n);
	}
	/* Batches of equal whole-block messages, enough for every row's
	 * shared padding block path (n >= 4 lanes): the outer hashes run
	 * after it in the same lanes. */
	static uint8_t big[70 * 384], tags[70 * 64];
	static fastsha_msg eq[70];
	prng_fill(big, sizeof(big));
	for (size_t len = B; len <= 2 * B; len += B)
		for (size_t n = 64; n <= 70; n += 6) {
			for (size_t i = 0; i < n; i++)
				eq[i] = (fastsha_msg){ big + i * len, len };
			CHECK(fastsha_hmac_many(&k, eq, n, tags) == 0, "hmac_many of %zu equal", n);
			for (size_t i = 0; i < n; i++) {
				uint8_t want[DMAX];
				fastsha_hmac(test_alg, pool + 7, 13, eq[i].data, len, want);
				CHECK(memcmp(tags + i * D, want, D) == 0,
				      "hmac_many of %zu x %zu bytes: message %zu", n, len, i);
			}
		}
	/* Fewer than 4 lanes' worth of equal messages of 3 blocks (read in
	 * place, not copied): the general path, where each lane hashes one
	 * message after another and keeps the padding block of a whole-block
	 * message for the next of its length; the outer hash writes its block
	 * in that scratch. */
	const size_t L = fastsha_many_lanes(test_alg);
	for (size_t n = L + 1; n <= 3 * L + 1; n += L) {
		for (size_t i = 0; i < n; i++)
			eq[i] = (fastsha_msg){ big + i * 3 * B, 3 * B };
		CHECK(fastsha_hmac_many(&k, eq, n, tags) == 0, "hmac_many of %zu equal", n);
		for (size_t i = 0; i < n; i++) {
			uint8_t want[DMAX];
			fastsha_hmac(test_alg, pool + 7, 13, eq[i].data, 3 * B, want);
			CHECK(memcmp(tags + i * D, want, D) == 0,
			      "hmac_many of %zu x %zu bytes: message %zu", n, 3 * B, i);
		}
	}
	/* One password, many output blocks (each an independent chain),
	 * more iterations: the lanes run them side by side. */
	for (size_t nb = 1; nb <= (test_primary() ? 9u : 3u); nb++) {
		size_t ol = nb * D - (nb & 1);
		fastsha_pbkdf2(test_alg, pool, 11, pool + 100, 16, 40, out, ol);
		pbkdf2_definition(pool, 11, pool + 100, 16, 40, one, ol);
		CHECK(memcmp(out, one, ol) == 0, "PBKDF2 of %zu blocks differs", nb);
	}
	fastsha_hmac_key_wipe(&k);
}

/*
 * PBKDF2 whose chains run on the register-resident chain kernels (the
 * shani rows', avx512_x16's lane chain kernel, SHA-512's avx2 row's:
 * src/core/lanes.c, chains_on()) or on whatever else the backend under
 * test and the automatic choice give them, against the same under a
 * trusted backend (portable; the reference when portable is under test):
 * one password of 1, 2 and 3 blocks (x1, x2, x2 + x1 or x3) and batches
 * of 4, 5, 6, 7, 9, 16, 17 and 32 one-block passwords (the kernels beside
 * a wide lane row, under the automatic choice), 1, 2, 3 and 1,000 iterations
 * (1: the kernels run 0 iterations and write back what they read).
 */
static void check_chain_kernels(void)
{
	const size_t D = DS();
	char cur[64];
	snprintf(cur, sizeof(cur), "%s", fastsha_backend(test_alg));
	const char *trusted = strcmp(cur, "portable") == 0 ? "reference" : "portable";
	const uint32_t iters[] = { 1, 2, 3, 1000 };
	/* 16: one full group of a 16-lane row (avx512_x16's lane chain
	 * kernel); 17 that and one left over; 32 two groups; 4..9 a row with
	 * idle lanes or the single-row kernels, whichever the CPU takes
	 * (avx512_x16's lane chain kernels take from 5 SHA-1 chains on Intel, 4 elsewhere, from 9
	 * SHA-256 chains, under the automatic choice). */
	const size_t batches[] = { 4, 5, 6, 7, 9, 16, 17, 32 };
	uint8_t pw[32][40], salt[32][20], want[32 * 64], got[32 * 64 + 1];
	fastsha_msg pws[32], salts[32];
	for (size_t i = 0; i < 32; i++) {
		prng_fill(pw[i], sizeof(pw[i]));
		prng_fill(salt[i], sizeof(salt[i]));
		pws[i] = (fastsha_msg){ pw[i], 3 + i };
		salts[i] = (fastsha_msg){ salt[i], 4 + i % 9 };
	}
	for (size_t t = 0; t < sizeof(iters) / sizeof(iters[0]); t++) {
		for (size_t nb = 1; nb <= 3; nb++) {
			const size_t ol = nb * D;
			fastsha_use_backend(test_alg, trusted);
			fastsha_pbkdf2(test_alg, pw[0], 13, salt[0], 16, iters[t], want, ol);
			for (int autom = 0; autom < 2; autom++) {
				fastsha_use_backend(test_alg, autom ? NULL : cur);
				memset(got, 0xa5, sizeof(got));
				CHECK(fastsha_pbkdf2(test_alg, pw[0], 13, salt[0], 16, iters[t], got, ol) == 0 &&
					      memcmp(got, want, ol) == 0 && got[ol] == 0xa5,
				      "PBKDF2 of %zu chains, %u iterations (%s) differs from %s", nb,
				      iters[t], autom ? "automatic choice" : cur, trusted);
			}
		}
		for (size_t b = 0; b < sizeof(batches) / sizeof(batches[0]); b++) {
			const size_t n = batches[b];
			fastsha_use_backend(test_alg, trusted);
			fastsha_pbkdf2_many(test_alg, pws, salts, n, iters[t], want, D);
			for (int autom = 0; autom < 2; autom++) {
				fastsha_use_backend(test_alg, autom ? NULL : cur);
				memset(got, 0xa5, sizeof(got));
				CHECK(fastsha_pbkdf2_many(test_alg, pws, salts, n, iters[t], got, D) == 0 &&
					      memcmp(got, want, n * D) == 0 && got[n * D] == 0xa5,
				      "PBKDF2 of %zu passwords, %u iterations (%s) differs from %s", n,
				      iters[t], autom ? "automatic choice" : cur, trusted);
			}
		}
	}
	fastsha_use_backend(test_alg, cur);
}

/*
 * SHA-512's avx2 row has two sets of chain kernels, with the schedule on
 * AVX2 or on AVX-512VL, and the CPU decides (sha512_backends.c,
 * chain_rows). On a CPU with AVX-512VL, check_chain_kernels() again
 * with that bit hidden in the library's feature cache, so the AVX2 ones
 * run too. (No row requires AVX-512VL, so no row's choice changes.)
 */
static void check_chain_kernels_without_vl(void)
{
#if defined(__x86_64__)
	const uint32_t f = fsha_cpu_features(); /* detected and cached now */
	if (!(f & FSHA_CPU_AVX512VL))
		return;
	const uint32_t saved = atomic_load(&fsha_cpu_cache);
	atomic_store(&fsha_cpu_cache, saved & ~(uint32_t)FSHA_CPU_AVX512VL);
	check_chain_kernels();
	atomic_store(&fsha_cpu_cache, saved);
#endif
}

/* Nothing written when refused. */
static int untouched(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != 0xa5)
			return 0;
	return 1;
}

static void check_refusals(void)
{
	const size_t D = DS();
	uint8_t out[512], prk[DMAX] = { 1 };
	fastsha_msg m = { "pw", 2 };
	fastsha_hmac_key k;
	fastsha_hmac_ctx x;
	const int bad[] = { -1, FASTSHA_ALG_COUNT, FASTSHA_SHA1DC, 1000 };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		fastsha_alg a = (fastsha_alg)bad[i];
		memset(out, 0xa5, sizeof(out));
		CHECK(fastsha_hmac(a, "k", 1, "m", 1, out) == -1, "hmac alg %d", bad[i]);
		CHECK(fastsha_pbkdf2(a, "p", 1, "s", 1, 1, out, 20) == -1, "pbkdf2 alg %d", bad[i]);
		CHECK(fastsha_pbkdf2_many(a, &m, &m, 1, 1, out, 20) == -1, "pbkdf2_many alg %d", bad[i]);
		CHECK(fastsha_hkdf(a, NULL, 0, "i", 1, NULL, 0, out, 20) == -1, "hkdf alg %d", bad[i]);
		CHECK(fastsha_hkdf_extract(a, NULL, 0, "i", 1, out) == -1, "extract alg %d", bad[i]);
		CHECK(fastsha_hkdf_expand(a, prk, 64, NULL, 0, out, 20) == -1, "expand alg %d", bad[i]);
		/* A refused key_init leaves the key refused, not holding the key
		 * it held before, which a caller that ignored the -1 went on
		 * using (mac.h). */
		fastsha_hmac_key_init(&k, test_alg, "k", 1);
		CHECK(fastsha_hmac_key_init(&k, a, "k", 1) == -1, "key_init alg %d", bad[i]);
		CHECK(fastsha_hmac_init(&x, &k) == -1, "init with a key refused by alg %d", bad[i]);
		CHECK(fastsha_hmac_many(&k, &m, 1, out) == -1, "many with a key refused by alg %d",
		      bad[i]);
		CHECK(untouched(out, sizeof(out)), "refused call (alg %d) wrote its output", bad[i]);
	}
	memset(out, 0xa5, sizeof(out));
	CHECK(fastsha_pbkdf2(test_alg, "p", 1, "s", 1, 0, out, 20) == -1, "0 iterations");
	CHECK(fastsha_pbkdf2(test_alg, "p", 1, "s", 1, 1, out, 0) == -1, "PBKDF2 outlen 0");
	/* Past (2^32 - 1) blocks: only a 64-bit size_t can ask for that (on a
	 * 32-bit one SIZE_MAX bytes are fewer blocks, a valid request). */
	if (sizeof(size_t) > 4) {
		CHECK(fastsha_pbkdf2(test_alg, "p", 1, "s", 1, 1, out, SIZE_MAX) == -1,
		      "PBKDF2 outlen past 2^32-1 blocks");
		CHECK(fastsha_pbkdf2(test_alg, "p", 1, "s", 1, 1, out,
				     (size_t)((uint64_t)UINT32_MAX * D + 1)) == -1,
		      "PBKDF2 outlen one past 2^32-1 blocks");
	}
	CHECK(fastsha_pbkdf2_many(test_alg, &m, &m, 1, 0, out, 20) == -1, "many: 0 iterations");
	CHECK(fastsha_pbkdf2_many(test_alg, &m, &m, 1, 1, out, 0) == -1, "many: outlen 0");
	CHECK(fastsha_hkdf(test_alg, NULL, 0, "i", 1, NULL, 0, out, 0) == -1, "HKDF outlen 0");
	CHECK(fastsha_hkdf(test_alg, NULL, 0, "i", 1, NULL, 0, out, 255 * D + 1) == -1,
	      "HKDF past 255 blocks");
	CHECK(fastsha_hkdf_expand(test_alg, prk, D - 1, NULL, 0, out, 20) == -1, "PRK too short");
	CHECK(fastsha_hkdf_expand(test_alg, prk, D, NULL, 0, out, 0) == -1, "expand outlen 0");
	CHECK(untouched(out, sizeof(out)), "a refused call wrote its output");
	/* A batch of 0 returns 0 and writes nothing, even with NULL arrays. */
	fastsha_hmac_key_init(&k, test_alg, "k", 1);
	CHECK(fastsha_hmac_many(&k, NULL, 0, out) == 0, "hmac_many of 0");
	CHECK(fastsha_pbkdf2_many(test_alg, NULL, NULL, 0, 1, out, 20) == 0, "pbkdf2_many of 0");
	CHECK(untouched(out, sizeof(out)), "a batch of 0 wrote");
	/* Limits that are allowed. */
	CHECK(fastsha_hkdf(test_alg, NULL, 0, "i", 1, NULL, 0, out, D > 2 ? 2 : 1) == 0, "HKDF 2 B");
	/* Wiped keys and finished contexts are refused. */
	CHECK(fastsha_hmac_init(&x, &k) == 0, "init");
	fastsha_hmac_update(&x, "abc", 3);
	CHECK(fastsha_hmac_final(&x, out) == 0, "final");
	int zeros = 1;
	for (size_t i = sizeof(x.alg); i < sizeof(x); i++)
		zeros &= ((uint8_t *)&x)[i] == 0;
	CHECK(zeros, "final left bytes of the context");
	memset(out, 0xa5, sizeof(out));
	fastsha_hmac_update(&x, "abc", 3); /* ignored */
	CHECK(fastsha_hmac_final(&x, out) == -1 && untouched(out, sizeof(out)),
	      "a finished context finished again");
	fastsha_hmac_key_wipe(&k);
	zeros = 1;
	for (size_t i = sizeof(k.alg); i < sizeof(k); i++)
		zeros &= ((uint8_t *)&k)[i] == 0;
	CHECK(zeros, "key_wipe left bytes of the key");
	/* A refused init leaves the context refused, not with the computation
	 * it held before (mac.h). */
	fastsha_hmac_key k2;
	fastsha_hmac_key_init(&k2, test_alg, "k2", 2);
	CHECK(fastsha_hmac_init(&x, &k2) == 0, "init");
	fastsha_hmac_update(&x, "abc", 3);
	CHECK(fastsha_hmac_init(&x, &k) == -1, "init with a wiped key");
	/* Wiped, not just marked: its inner and outer words were keyed
	 * chaining values (mac.h). */
	zeros = 1;
	for (size_t i = sizeof(x.alg); i < sizeof(x); i++)
		zeros &= ((uint8_t *)&x)[i] == 0;
	CHECK(zeros, "a refused init left bytes of the context it held");
	fastsha_hmac_update(&x, "def", 3);
	CHECK(fastsha_hmac_final(&x, out) == -1 && untouched(out, sizeof(out)),
	      "a context whose init was refused finished the computation it held before");
	fastsha_hmac_key_wipe(&k2);
	CHECK(fastsha_hmac_many(&k, &m, 1, out) == -1 && untouched(out, sizeof(out)),
	      "hmac_many with a wiped key");
	fastsha_hmac_key_wipe(NULL);
}

static void check_equal(void)
{
	uint8_t a[100], b[100];
	prng_fill(a, sizeof(a));
	memcpy(b, a, sizeof(b));
	CHECK(fastsha_equal(a, b, sizeof(a)) == 1, "equal strings");
	CHECK(fastsha_equal(NULL, NULL, 0) == 1, "empty strings");
	for (size_t i = 0; i < sizeof(a); i++)
		for (int bit = 0; bit < 8; bit++) {
			b[i] ^= (uint8_t)(1 << bit);
			CHECK(fastsha_equal(a, b, sizeof(a)) == 0, "differ at %zu bit %d", i, bit);
			CHECK(fastsha_equal(a, b, i) == 1, "equal before %zu", i);
			b[i] ^= (uint8_t)(1 << bit);
		}
}

/* fastsha_wipe() clears exactly its bytes, at any length and alignment. */
static void check_wipe(void)
{
	uint8_t a[200], b[200];
	for (size_t off = 0; off < 8; off++)
		for (size_t len = 0; len + off <= sizeof(a); len += 1 + len / 4) {
			prng_fill(a, sizeof(a));
			memcpy(b, a, sizeof(b));
			memset(b + off, 0, len);
			fastsha_wipe(a + off, len);
			CHECK(memcmp(a, b, sizeof(a)) == 0, "fastsha_wipe at %zu, %zu bytes", off, len);
		}
	fastsha_wipe(NULL, 0);
}

/*
 * After PBKDF2, the stack its work used holds no copy of the password's
 * keyed chaining words (mac.h: PBKDF2 clears 32 KiB below its caller's
 * frame, the compiler's spills included). The 64 KiB below this frame are
 * painted, PBKDF2 runs (one password of three blocks; a batch of 17) from
 * a function of its own, and a third function reads those 64 KiB, below
 * its own frame, for the first 16 bytes of the inner and outer words. The
 * reads are outside any object, on purpose: not instrumented by ASan or
 * MemorySanitizer, and not run under valgrind, which rightly calls those
 * bytes undefined.
 */
enum { STACK_SCAN = 65536 };

static __attribute__((noinline)) void paint_stack(void)
{
	uint8_t b[STACK_SCAN];
	memset(b, 0x5a, sizeof(b));
	__asm__ __volatile__("" : : "r"(b) : "memory"); /* the stores stay */
}

static __attribute__((noinline)) void derive(const uint8_t *pw, size_t pwlen, int many)
{
	uint8_t out[17 * 64];
	if (!many) {
		fastsha_pbkdf2(test_alg, pw, pwlen, "salt", 4, 3, out, 3 * DS());
		return;
	}
	fastsha_msg pws[17], salts[17];
	for (size_t i = 0; i < 17; i++) {
		pws[i] = (fastsha_msg){ pw, pwlen };
		salts[i] = (fastsha_msg){ "salt", 4 };
	}
	fastsha_pbkdf2_many(test_alg, pws, salts, 17, 3, out, DS());
}

/* MemorySanitizer would stop at the first byte stack_find() reads, rightly
 * uninitialised to it: the scan is left out of its checks as of ASan's
 * (only under it: GCC knows no "memory" sanitizer and warns of the name). */
#if defined(__has_feature)
#if __has_feature(memory_sanitizer)
#define NO_SANITIZE_MEMORY __attribute__((no_sanitize("memory")))
#endif
#endif
#ifndef NO_SANITIZE_MEMORY
#define NO_SANITIZE_MEMORY
#endif

/* Offset below this frame of the first of @n needles (16 bytes each) in
 * the STACK_SCAN bytes under it, or -1. */
static __attribute__((noinline, no_sanitize_address)) NO_SANITIZE_MEMORY long
stack_find(const uint8_t (*needles)[16], size_t n)
{
	const volatile uint8_t *top = (const volatile uint8_t *)__builtin_frame_address(0);
	const volatile uint8_t *b = top - STACK_SCAN;
	for (size_t i = 0; i + 16 <= STACK_SCAN; i++)
		for (size_t k = 0; k < n; k++) {
			size_t j = 0;
			while (j < 16 && b[i + j] == needles[k][j])
				j++;
			if (j == 16)
				return (long)(STACK_SCAN - i);
		}
	return -1;
}

static void check_pbkdf2_stack(void)
{
	const char *pre = getenv("LD_PRELOAD");
	if (pre && strstr(pre, "vgpreload")) {
		printf("the PBKDF2 stack check skipped: valgrind calls freed stack undefined\n");
		return;
	}
	uint8_t pw[20];
	prng_fill(pw, sizeof(pw));
	fastsha_hmac_key k;
	fastsha_hmac_key_init(&k, test_alg, pw, sizeof(pw));
	uint8_t needles[2][16];
	memcpy(needles[0], k.u.bytes, 16);      /* inner chaining words */
	memcpy(needles[1], k.u.bytes + 64, 16); /* outer */
	fastsha_hmac_key_wipe(&k);
	for (int many = 0; many < 2; many++) {
		paint_stack();
		derive(pw, sizeof(pw), many);
		const long at = stack_find((const uint8_t (*)[16])needles, 2);
		CHECK(at < 0, "%s PBKDF2%s left keyed chaining words on the stack (%ld bytes into "
			      "the scan)",
		      fastsha_alg_name(test_alg), many ? " batch" : "", at);
	}
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: %s FAMILY BACKEND VECTOR_DIR [long]\n", argv[0]);
		return 2;
	}
	if (strcmp(argv[2], "auto") == 0) { /* whatever dispatch picks */
		test_fam = test_family(argv[1]);
		test_alg = test_fam->algs[0];
	} else {
		test_use_backend(argv[1], argv[2]);
	}
	long_mode = argc > 4 && strcmp(argv[4], "long") == 0;
	sample_every = test_env_sample("FASTSHA_TEST_MAC_SAMPLE");
	size_t n = run_file(argv[3], "rfc.txt");
	n += run_file(argv[3], "wycheproof.txt");
	printf("%zu known answers checked%s\n", n,
	       long_mode ? " (PBKDF2 past the short run's limit; HMAC and HKDF again)" : "");
	if (skipped_long && !long_mode) {
		if (sample_every)
			printf("%zu PBKDF2 case(s) of more than %u iterations left to test_mac_long "
			       "(FASTSHA_TEST_MAC_SAMPLE=%u: one in %u of those up to %u run here)\n",
			       skipped_long, SAMPLE_ITERATIONS, sample_every, sample_every,
			       LONG_ITERATIONS);
		else
			printf("%zu PBKDF2 case(s) of more than %u iterations left to test_mac_long\n",
			       skipped_long, LONG_ITERATIONS);
	}
	if (!long_mode) {
		prng_seed(0x6d6163);
		check_equal();
		check_wipe();
		for (size_t i = 0; i < test_fam->nalgs; i++) {
			test_alg = test_fam->algs[i];
			check_definition();
			check_hkdf_definition();
			check_batches();
			check_chain_kernels();
			if (strcmp(test_fam->name, "sha512") == 0)
				check_chain_kernels_without_vl();
			check_refusals();
			check_pbkdf2_stack();
		}
	}
	return test_finish("test_mac");
}
