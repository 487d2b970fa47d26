/* SPDX-License-Identifier: MIT */
/*
 * The Keccak family (SHA3-224..512, SHAKE128/256, Keccak-256,
 * TurboSHAKE128/256, KangarooTwelve) under one Keccak backend:
 *
 * - every algorithm (24 and 12 rounds) against the spec-literal reference
 *   backend, messages around every rate, outputs of several blocks;
 * - NIST's byte-oriented SHA3 and SHAKE files (vectors/sha3/, the .rsp files), through
 *   the one-shot, streaming, the typed functions and batches;
 * - RFC 9861's TurboSHAKE and KT128 vectors (rfc9861.txt: leaves, the 8 KiB
 *   boundary, customisation strings, outputs to 10,032 bytes), the empty
 *   message and Keccak-256's known values (extra.txt);
 * - squeezes of 1..5 blocks in pieces of every size against one squeeze;
 *   streaming at every split around the rate and KangarooTwelve's chunk
 *   boundaries against the one-shot; random messages against the
 *   reference backend; batches of every count to 2 * 16 + 1 against one
 *   at a time;
 * - bit-length messages through identities with the byte-oriented paths
 *   (SHA3-256(M) is Keccak-256 of M and the bits 01; SHAKE256(M) starts as
 *   Keccak-256 of M and 1111), and refusals.
 *
 * Usage: test_sha3 keccak BACKEND VECTOR_DIR
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fastsha/sha3.h"
#include "testutil.h"

/* The same @n bytes of output of @msg under the spec-literal reference. */
static void ref_xof(fastsha_alg a, const uint8_t *msg, size_t len, uint8_t *out, size_t n)
{
	char cur[64];
	snprintf(cur, sizeof(cur), "%s", fastsha_backend(a));
	fastsha_use_backend(a, "reference");
	fastsha_ctx c;
	fastsha_init(&c, a);
	fastsha_update(&c, msg, len);
	if (fastsha_alg_is_xof(a))
		fastsha_squeeze(&c, out, n);
	else
		fastsha_final(&c, out);
	fastsha_use_backend(a, cur);
}

/* Output of @a for @msg: @n bytes (the digest for fixed-output algorithms). */
static void out_of(fastsha_alg a, const uint8_t *msg, size_t len, uint8_t *out, size_t n)
{
	if (fastsha_alg_is_xof(a))
		fastsha_xof(a, msg, len, out, n);
	else
		fastsha_digest(a, msg, len, out);
}

static uint8_t *hexdup(const char *s, size_t *n)
{
	size_t len = strlen(s) / 2;
	uint8_t *p = malloc(len + 1);
	if (!p || from_hex(s, len, p) != 0) {
		fprintf(stderr, "bad hex '%.40s'\n", s);
		exit(2);
	}
	*n = len;
	return p;
}

/* RFC 9861's ptn(n): byte i is i mod 251. */
static uint8_t *ptn(size_t n)
{
	uint8_t *p = malloc(n + 1);
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(i % 251);
	return p;
}

/* A message field: '-', ptn:N, hex:..., str:... */
static uint8_t *field(const char *f, size_t *n)
{
	if (strcmp(f, "-") == 0) {
		*n = 0;
		return malloc(1);
	}
	if (strncmp(f, "ptn:", 4) == 0) {
		*n = strtoul(f + 4, NULL, 10);
		return ptn(*n);
	}
	if (strncmp(f, "hex:", 4) == 0)
		return hexdup(f + 4, n);
	if (strncmp(f, "str:", 4) == 0) {
		*n = strlen(f + 4);
		uint8_t *p = malloc(*n + 1);
		memcpy(p, f + 4, *n);
		return p;
	}
	fprintf(stderr, "bad field '%s'\n", f);
	exit(2);
}

static void check_reference(void)
{
	uint8_t a[600], b[600];
	const size_t lens[] = { 0, 1, 71, 72, 73, 135, 136, 137, 167, 168, 169, 300, 1000 };
	uint8_t msg[1000];
	prng_fill(msg, sizeof(msg));
	for (size_t i = 0; i < test_fam->nalgs; i++) {
		test_alg = test_fam->algs[i];
		size_t n = fastsha_alg_is_xof(test_alg) ? 600 : DS();
		for (size_t j = 0; j < sizeof(lens) / sizeof(lens[0]); j++) {
			out_of(test_alg, msg, lens[j], a, n);
			ref_xof(test_alg, msg, lens[j], b, n);
			CHECK(memcmp(a, b, n) == 0, "%s of %zu bytes differs from the reference",
			      fastsha_alg_name(test_alg), lens[j]);
		}
	}
}

/* One NIST .rsp file: each entry through every entry point. */
static size_t run_rsp(const char *dir, const char *name, fastsha_alg a)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/sha3/%s", dir, name);
	FILE *fp = fopen(path, "r");
	if (!fp) {
		fprintf(stderr, "FAIL: cannot open %s\n", path);
		exit(1);
	}
	test_alg = a;
	static char line[1 << 18];
	size_t n = 0, bits = 0, mlen = 0;
	uint8_t *msg = NULL;
	while (fgets(line, sizeof(line), fp)) {
		line[strcspn(line, "\r\n")] = 0;
		if (strncmp(line, "Len = ", 6) == 0) {
			bits = strtoul(line + 6, NULL, 10);
		} else if (strncmp(line, "Msg = ", 6) == 0) {
			free(msg);
			msg = hexdup(line + 6, &mlen);
			if (bits == 0)
				mlen = 0;
		} else if (strncmp(line, "MD = ", 5) == 0 || strncmp(line, "Output = ", 9) == 0) {
			size_t wl;
			uint8_t *want = hexdup(strchr(line, '=') + 2, &wl), got[256];
			CHECK(bits == 8 * mlen, "%s: Len %zu not whole bytes", name, bits);
			out_of(a, msg, mlen, got, wl);
			CHECK(memcmp(got, want, wl) == 0, "%s Len %zu: one-shot differs", name, bits);
			/* streaming in three pieces */
			fastsha_ctx c;
			fastsha_init(&c, a);
			fastsha_update(&c, msg, mlen / 3);
			fastsha_update(&c, msg + mlen / 3, mlen / 2 - mlen / 3);
			fastsha_update(&c, msg + mlen / 2, mlen - mlen / 2);
			memset(got, 0, sizeof(got));
			if (fastsha_alg_is_xof(a))
				fastsha_squeeze(&c, got, wl);
			else
				fastsha_final(&c, got);
			CHECK(memcmp(got, want, wl) == 0, "%s Len %zu: streaming differs", name, bits);
			/* the typed functions */
			memset(got, 0, sizeof(got));
			switch (a) {
			case FASTSHA_SHA3_224: fastsha3_224(msg, mlen, got); break;
			case FASTSHA_SHA3_256: fastsha3_256(msg, mlen, got); break;
			case FASTSHA_SHA3_384: fastsha3_384(msg, mlen, got); break;
			case FASTSHA_SHA3_512: fastsha3_512(msg, mlen, got); break;
			case FASTSHA_SHAKE128: fastshake128(msg, mlen, got, wl); break;
			case FASTSHA_SHAKE256: fastshake256(msg, mlen, got, wl); break;
			default: break;
			}
			CHECK(memcmp(got, want, wl) == 0, "%s Len %zu: typed function differs", name,
			      bits);
			/* a batch of three: it, nothing, it */
			fastsha_msg m[3] = { { msg, mlen }, { NULL, 0 }, { msg, mlen } };
			uint8_t three[3 * 256];
			if (fastsha_alg_is_xof(a))
				fastsha_many_xof(a, m, 3, three, wl);
			else
				fastsha_many(a, m, 3, three);
			CHECK(memcmp(three, want, wl) == 0 && memcmp(three + 2 * wl, want, wl) == 0,
			      "%s Len %zu: batch differs", name, bits);
			free(want);
			n++;
		}
	}
	free(msg);
	fclose(fp);
	return n;
}

/* RFC 9861's vectors (rfc9861.txt) and the extra known answers. */
static size_t run_rfc(const char *dir)
{
	char path[4096], line[1024];
	size_t n = 0, skipped = 0;
	const int slow = strcmp(fastsha_backend(FASTSHA_SHA3_256), "reference") == 0;
	snprintf(path, sizeof(path), "%s/sha3/rfc9861.txt", dir);
	FILE *fp = fopen(path, "r");
	if (!fp) {
		fprintf(stderr, "FAIL: cannot open %s\n", path);
		exit(1);
	}
	while (fgets(line, sizeof(line), fp)) {
		char alg[32], m[64], c[64], d[8], hx[300];
		size_t ol, last, ml, cl, wl;
		if (line[0] == '#' ||
		    sscanf(line, "%31s %63s %63s %7s %zu %zu %299s", alg, m, c, d, &ol, &last, hx) != 7)
			continue;
		if (slow && (strncmp(m, "ptn:", 4) == 0 && strtoul(m + 4, NULL, 10) > (1u << 20))) {
			skipped++; /* 24 MB through the spec-literal rounds: seconds each */
			continue;
		}
		uint8_t *msg = field(m, &ml), *cust = field(c, &cl), *want = hexdup(hx, &wl);
		uint8_t *out = malloc(ol);
		const uint8_t *got = out + (last ? ol - last : 0);
		if (strcmp(alg, "kt128") == 0) {
			fastsha_k12(msg, ml, cust, cl, out, ol);
			CHECK(memcmp(got, want, wl) == 0, "KT128 %s C=%s %zu differs", m, c, ol);
			if (!cl && ml < (1u << 22)) { /* streaming in uneven pieces */
				fastsha_ctx x;
				fastsha_init(&x, FASTSHA_K12);
				for (size_t off = 0, step = 1; off < ml; off += step, step = step * 3 + 1)
					fastsha_update(&x, msg + off, ml - off < step ? ml - off : step);
				memset(out, 0, ol);
				fastsha_squeeze(&x, out, ol);
				CHECK(memcmp(got, want, wl) == 0, "KT128 %s %zu streamed differs", m, ol);
			}
		} else {
			unsigned dom = (unsigned)strtoul(d, NULL, 16);
			int r = strcmp(alg, "turboshake128") == 0
					? fastturboshake128(msg, ml, (uint8_t)dom, out, ol)
					: fastturboshake256(msg, ml, (uint8_t)dom, out, ol);
			CHECK(r == 0 && memcmp(got, want, wl) == 0, "%s %s D=%s %zu differs", alg, m, d,
			      ol);
			if (dom == 0x1f && ml < (1u << 22)) { /* the descriptor's default domain */
				fastsha_alg a = strcmp(alg, "turboshake128") == 0 ? FASTSHA_TURBOSHAKE128
									   : FASTSHA_TURBOSHAKE256;
				memset(out, 0, ol);
				fastsha_xof(a, msg, ml, out, ol);
				CHECK(memcmp(got, want, wl) == 0, "%s %s via fastsha_xof differs", alg, m);
			}
		}
		free(msg);
		free(cust);
		free(want);
		free(out);
		n++;
	}
	fclose(fp);
	if (skipped)
		printf("%zu RFC 9861 vector(s) of more than 1 MiB left to the faster rows "
		       "(the reference's rounds take seconds for each)\n", skipped);
	snprintf(path, sizeof(path), "%s/sha3/extra.txt", dir);
	fp = fopen(path, "r");
	if (!fp) {
		fprintf(stderr, "FAIL: cannot open %s\n", path);
		exit(1);
	}
	while (fgets(line, sizeof(line), fp)) {
		char alg[32], m[128], hx[300];
		size_t ol, ml, wl;
		if (line[0] == '#' || sscanf(line, "%31s %127s %zu %299s", alg, m, &ol, hx) != 4)
			continue;
		uint8_t *msg = field(m, &ml), *want = hexdup(hx, &wl), got[64];
		int a = fastsha_alg_from_name(alg);
		CHECK(a >= 0, "unknown algorithm %s", alg);
		out_of((fastsha_alg)a, msg, ml, got, ol);
		CHECK(memcmp(got, want, wl) == 0, "%s of %s differs", alg, m);
		memset(got, 0, sizeof(got));
		fastsha_digest((fastsha_alg)a, ml ? msg : NULL, ml, got); /* default length */
		CHECK(memcmp(got, want, wl < ol ? wl : ol) == 0, "%s digest of %s differs", alg, m);
		free(msg);
		free(want);
		n++;
	}
	fclose(fp);
	return n;
}

/* Squeezes of 1..5 blocks in pieces of every size against one squeeze,
 * and streaming at every split around the rate against the one-shot. */
static void check_squeeze_and_splits(void)
{
	static uint8_t msg[40000], one[5 * 168 + 1], pieces[5 * 168 + 1];
	prng_fill(msg, sizeof(msg));
	for (size_t i = 0; i < test_fam->nalgs; i++) {
		test_alg = test_fam->algs[i];
		const size_t R = BS();
		if (fastsha_alg_is_xof(test_alg)) {
			const size_t total = 5 * R + 1;
			fastsha_xof(test_alg, msg, 100, one, total);
			for (size_t piece = 1; piece <= R + 1; piece += test_primary() ? 1 : 13) {
				fastsha_ctx c;
				fastsha_init(&c, test_alg);
				fastsha_update(&c, msg, 100);
				for (size_t off = 0; off < total; off += piece)
					fastsha_squeeze(&c, pieces + off, total - off < piece ? total - off : piece);
				CHECK(memcmp(one, pieces, total) == 0, "%s: squeeze in pieces of %zu",
				      fastsha_alg_name(test_alg), piece);
			}
			/* final on a context being squeezed: the next bytes, unchanged */
			fastsha_ctx c;
			fastsha_init(&c, test_alg);
			fastsha_update(&c, msg, 100);
			fastsha_squeeze(&c, pieces, 7);
			fastsha_final(&c, pieces + 7);
			fastsha_squeeze(&c, pieces + 7 + DS(), 5);
			CHECK(memcmp(pieces, one, 7) == 0 && memcmp(pieces + 7, one + 7, DS()) == 0 &&
				      memcmp(pieces + 7 + DS(), one + 7, 5) == 0,
			      "%s: final while squeezing", fastsha_alg_name(test_alg));
			/* Mid-squeeze, with K12 past one chunk too (its node and
			 * leaf sponges): a copy by assignment goes on as the
			 * original does, and update is ignored by both, the input
			 * having ended (fastsha.h). */
			for (size_t len = 100; len <= 20000; len += 19900) {
				uint8_t want[3 * 168], got[3 * 168];
				fastsha_xof(test_alg, msg, len, want, sizeof(want));
				fastsha_init(&c, test_alg);
				fastsha_update(&c, msg, len);
				fastsha_squeeze(&c, got, R - 1);
				fastsha_ctx f = c;
				fastsha_update(&c, msg, 500);
				fastsha_update(&f, msg + 1, R + 1);
				fastsha_squeeze(&c, got + R - 1, sizeof(got) - (R - 1));
				CHECK(memcmp(got, want, sizeof(got)) == 0,
				      "%s len %zu: update after squeeze changed the output",
				      fastsha_alg_name(test_alg), len);
				fastsha_squeeze(&f, got + R - 1, sizeof(got) - (R - 1));
				CHECK(memcmp(got, want, sizeof(got)) == 0,
				      "%s len %zu: a copy made while squeezing differs",
				      fastsha_alg_name(test_alg), len);
			}
		}
		/* splits: lengths around the rate (and K12's 8 KiB chunks) */
		const int k12 = test_alg == FASTSHA_K12;
		const size_t lens[] = { R - 1, R, R + 1, 2 * R, 3 * R + 7, 8191, 8192, 8193, 16384,
					16385, 3 * 8192 + 5 };
		const size_t nl = k12 ? sizeof(lens) / sizeof(lens[0]) : 5;
		for (size_t j = 0; j < nl; j++) {
			size_t len = lens[j];
			uint8_t want[64], got[64];
			fastsha_digest(test_alg, msg, len, want);
			size_t step = test_primary() || k12 ? 1 : 5;
			if (len > 1000)
				step = 509; /* K12's long ones: every 509th split */
			for (size_t cut = 0; cut <= len; cut += step) {
				fastsha_ctx c;
				fastsha_init(&c, test_alg);
				fastsha_update(&c, msg, cut);
				fastsha_update(&c, msg + cut, len - cut);
				fastsha_final(&c, got);
				CHECK(memcmp(got, want, DS()) == 0, "%s: %zu bytes split at %zu",
				      fastsha_alg_name(test_alg), len, cut);
			}
		}
	}
}

/* Batches of every count to 33, mixed lengths, against one at a time. */
static void check_batches(void)
{
	enum { MAXN = 2 * 16 + 1 };
	static uint8_t pool[20000], out[MAXN * 600], one[600];
	prng_fill(pool, sizeof(pool));
	fastsha_msg m[MAXN];
	for (size_t i = 0; i < test_fam->nalgs; i++) {
		test_alg = test_fam->algs[i];
		const size_t R = BS();
		const size_t lens[] = { 0, 1, 34, R - 1, R, R + 1, 3 * R, 1000, 8193 };
		for (size_t n = 0; n <= MAXN; n += test_primary() ? 1 : 4) {
			for (size_t k = 0; k < n; k++) {
				size_t len = lens[(k * 7 + n) % (sizeof(lens) / sizeof(lens[0]))];
				m[k].data = len ? pool + (k * 37) % 8000 : NULL;
				m[k].len = len;
			}
			/* XOF outputs within a block, of three blocks and more, and
			 * one byte past two whole blocks (the last squeeze owes a
			 * single byte of a block). */
			const size_t xol[] = { 33, 504, 2 * R + 1 };
			const size_t ol = fastsha_alg_is_xof(test_alg) ? xol[n % 3] : DS();
			if (fastsha_alg_is_xof(test_alg))
				CHECK(fastsha_many_xof(test_alg, m, n, out, ol) == 0, "many_xof");
			else
				fastsha_many(test_alg, m, n, out);
			for (size_t k = 0; k < n; k++) {
				out_of(test_alg, m[k].data, m[k].len, one, ol);
				CHECK(memcmp(out + k * ol, one, ol) == 0, "%s batch of %zu: message %zu",
				      fastsha_alg_name(test_alg), n, k);
			}
		}
		/* fastsha_chunks(): pieces of one buffer, each the algorithm's
		 * default output (an XOF's default length), the last one short;
		 * chunk sizes around the rate, and K12's 8 KiB leaf. */
		const size_t chunks[] = { 1, R - 1, R, R + 1, 8192 };
		const size_t len = 17 * R + 5, ds = DS();
		for (size_t c = 0; c < sizeof(chunks) / sizeof(chunks[0]); c++) {
			const size_t chunk = chunks[c], want = (len + chunk - 1) / chunk;
			const size_t l = chunk == 1 ? 40 : len; /* a piece a byte: a few */
			const size_t w = chunk == 1 ? l : want;
			CHECK(fastsha_chunks(test_alg, pool + 1, l, chunk, out) == w,
			      "%s chunks(%zu, %zu): count", fastsha_alg_name(test_alg), l, chunk);
			for (size_t k = 0; k < w; k++) {
				const size_t pl = l - k * chunk < chunk ? l - k * chunk : chunk;
				out_of(test_alg, pool + 1 + k * chunk, pl, one, ds);
				CHECK(memcmp(out + k * ds, one, ds) == 0, "%s chunks(%zu, %zu): piece %zu",
				      fastsha_alg_name(test_alg), l, chunk, k);
			}
		}
	}
}

/* Bit-length messages: FIPS 202's suffixes are bits of the message to the
 * original Keccak, so the byte paths (NIST-checked) pin the bit paths. */
static void check_bits(void)
{
	uint8_t msg[300], a[64], b[64];
	prng_fill(msg, sizeof(msg));
	for (size_t len = 0; len < 300; len += 37) {
		/* SHA3-256(M) = Keccak-256(M || 01) */
		fastsha_digest(FASTSHA_SHA3_256, msg, len, a);
		fastsha_ctx c;
		fastsha_init(&c, FASTSHA_KECCAK256);
		fastsha_update(&c, msg, len);
		fastsha_final_bits(&c, 0x40, 2, b);
		CHECK(memcmp(a, b, 32) == 0, "SHA3-256 of %zu bytes as Keccak-256 and 01", len);
		/* SHAKE256(M) = Keccak[512](M || 1111), Keccak-256's rate */
		fastsha_xof(FASTSHA_SHAKE256, msg, len, a, 32);
		fastsha_init(&c, FASTSHA_KECCAK256);
		fastsha_update(&c, msg, len);
		fastsha_final_bits(&c, 0xf0, 4, b);
		CHECK(memcmp(a, b, 32) == 0, "SHAKE256 of %zu bytes as Keccak-256 and 1111", len);
		/* a partial byte: digest_bits equals final_bits, and the low
		 * bits of @last are ignored */
		uint8_t m2[300];
		memcpy(m2, msg, len + 1);
		m2[len] = 0xa0; /* bits 101 */
		fastsha_digest_bits(FASTSHA_SHA3_512, m2, 8 * len + 3, a);
		fastsha_init(&c, FASTSHA_SHA3_512);
		fastsha_update(&c, msg, len);
		fastsha_final_bits(&c, 0xbf, 3, b);
		CHECK(memcmp(a, b, 64) == 0, "SHA3-512 bits of %zu bytes + 3", len);
	}
	/* 135 bytes and 7 bits: SHAKE's 4 suffix bits and the first padding
	 * bit spill past the last byte of SHAKE256's 136-byte block. As
	 * Keccak-256 (the same rate): the 7 bits and a 1 make byte 136 (in a
	 * whole byte FIPS 202 puts the first bit lowest), the bits 111 follow. */
	const uint8_t last = 0x5a; /* bits 0101101 */
	fastsha_ctx c;
	fastsha_init(&c, FASTSHA_SHAKE256);
	fastsha_update(&c, msg, 135);
	fastsha_final_bits(&c, last, 7, a);
	uint8_t whole = 0x80; /* a whole byte holds its bits from the lowest up */
	for (unsigned i = 0; i < 7; i++)
		whole |= (uint8_t)(((last >> (7 - i)) & 1) << i);
	fastsha_init(&c, FASTSHA_KECCAK256);
	fastsha_update(&c, msg, 135);
	fastsha_update(&c, &whole, 1);
	fastsha_final_bits(&c, 0xe0, 3, b);
	CHECK(memcmp(a, b, 32) == 0, "SHAKE256 of 135 bytes and 7 bits (padding across blocks)");
}

/*
 * The bit-length paths against FIPS 202 as written, independent of the
 * library: a sponge over an array of bits (Algorithm 8, with pad10*1 of
 * 5.1 appended bit by bit) on Keccak-p[1600, nr] built from 3.2's step
 * definitions, its rho offsets walked as Algorithm 2 walks them and its
 * round constants from Algorithm 5's LFSR (no table shared with the
 * library). The identities of check_bits() cannot reach one case: the
 * padding's first 1 on the block's last bit, so that its last 1 needs a
 * block of its own (135 bytes and 5 bits for SHA3-256).
 */
static int lit_rc_bit(unsigned t)
{
	unsigned r = 1; /* R = 10000000, R[0] first, as bit k of r */
	for (unsigned i = 1; i <= t % 255; i++) {
		r <<= 1; /* R = 0 || R */
		const unsigned r8 = (r >> 8) & 1;
		r ^= r8 | r8 << 4 | r8 << 5 | r8 << 6;
		r &= 0xff;
	}
	return (int)(r & 1);
}

static uint64_t lit_rot(uint64_t v, unsigned n)
{
	n %= 64;
	return n ? (v << n) | (v >> (64 - n)) : v;
}

/* Keccak-p[1600, nr] on lanes A[x + 5y] (bit z of a lane is its bit z). */
static void lit_keccak_p(uint64_t A[25], unsigned nr)
{
	for (unsigned ir = 24 - nr; ir < 24; ir++) {
		uint64_t C[5], B[25];
		for (int x = 0; x < 5; x++)
			C[x] = A[x] ^ A[x + 5] ^ A[x + 10] ^ A[x + 15] ^ A[x + 20];
		for (int x = 0; x < 5; x++)
			for (int y = 0; y < 5; y++)
				A[x + 5 * y] ^= C[(x + 4) % 5] ^ lit_rot(C[(x + 1) % 5], 1);
		B[0] = A[0]; /* rho */
		for (unsigned t = 0, x = 1, y = 0; t < 24; t++) {
			B[x + 5 * y] = lit_rot(A[x + 5 * y], (t + 1) * (t + 2) / 2);
			const unsigned nx = y, ny = (2 * x + 3 * y) % 5;
			x = nx, y = ny;
		}
		for (int x = 0; x < 5; x++) /* pi */
			for (int y = 0; y < 5; y++)
				A[x + 5 * y] = B[(x + 3 * y) % 5 + 5 * x];
		for (int y = 0; y < 5; y++) { /* chi */
			uint64_t row[5];
			for (int x = 0; x < 5; x++)
				row[x] = A[x + 5 * y];
			for (int x = 0; x < 5; x++)
				A[x + 5 * y] = row[x] ^ (~row[(x + 1) % 5] & row[(x + 2) % 5]);
		}
		for (unsigned j = 0; j <= 6; j++) /* iota */
			A[0] ^= (uint64_t)lit_rc_bit(j + 7 * ir) << ((1u << j) - 1);
	}
}

/* @d bytes of the sponge (rate @r bits, @nr rounds) over the first @n
 * bits of @bits (one bit a byte, room for pad10*1 after them). */
static void lit_sponge(uint8_t *bits, size_t n, size_t r, unsigned nr, uint8_t *out, size_t d)
{
	const size_t j = (2 * r - (n + 2) % r) % r; /* pad10*1: 1, j zeros, 1 */
	bits[n] = 1;
	memset(bits + n + 1, 0, j);
	bits[n + 1 + j] = 1;
	n += j + 2;
	uint64_t A[25] = { 0 };
	for (size_t blk = 0; blk < n; blk += r) {
		for (size_t i = 0; i < r; i++)
			A[i / 64] ^= (uint64_t)bits[blk + i] << (i % 64);
		lit_keccak_p(A, nr);
	}
	memset(out, 0, d);
	for (size_t i = 0; i < 8 * d; i++)
		out[i / 8] |= (uint8_t)(((A[i / 64] >> (i % 64)) & 1) << (i % 8));
}

/* The FIPS 202 bit string of a message of @len bytes and @nb bits (the
 * API's way: @msg[len]'s top bits, first bit highest) with the algorithm's
 * @nsuffix suffix bits after it, one bit a byte into @bits; its length. */
static size_t lit_bits(uint8_t *bits, const uint8_t *msg, size_t len, unsigned nb,
		       unsigned suffix, unsigned nsuffix)
{
	size_t n = 0;
	for (size_t i = 0; i < 8 * len; i++) /* whole bytes: lowest bit first */
		bits[n++] = (msg[i / 8] >> (i % 8)) & 1;
	for (unsigned i = 0; i < nb; i++)
		bits[n++] = (msg[len] >> (7 - i)) & 1;
	for (unsigned i = 0; i < nsuffix; i++)
		bits[n++] = (suffix >> i) & 1;
	return n;
}

static void check_bits_literal(void)
{
	static const struct {
		fastsha_alg alg;
		size_t rate;    /* bytes */
		unsigned suffix; /* FIPS 202's suffix bits, first bit lowest */
		unsigned nsuffix;
		unsigned rounds;
	} algs[] = {
		{ FASTSHA_SHA3_224, 144, 0x2, 2, 24 },     { FASTSHA_SHA3_256, 136, 0x2, 2, 24 },
		{ FASTSHA_SHA3_384, 104, 0x2, 2, 24 },     { FASTSHA_SHA3_512, 72, 0x2, 2, 24 },
		{ FASTSHA_SHAKE128, 168, 0xf, 4, 24 },     { FASTSHA_SHAKE256, 136, 0xf, 4, 24 },
		{ FASTSHA_KECCAK256, 136, 0x0, 0, 24 },    /* the original Keccak: no suffix */
		{ FASTSHA_TURBOSHAKE128, 168, 0xf, 4, 12 }, /* RFC 9861's default domain 0x1f */
		{ FASTSHA_TURBOSHAKE256, 136, 0xf, 4, 12 },
	};
	static uint8_t bits[8 * 2 * 168 + 8 + 4 + 2 * 8 * 168];
	uint8_t msg[2 * 168 + 1], want[64], got[64], streamed[64];
	size_t cases = 0;
	for (size_t a = 0; a < sizeof(algs) / sizeof(algs[0]); a++) {
		const size_t rb = algs[a].rate, d = fastsha_alg_digest_size(algs[a].alg);
		const size_t lens[] = { 0, 1, rb - 2, rb - 1, rb, 2 * rb - 1 };
		for (size_t li = 0; li < sizeof(lens) / sizeof(lens[0]); li++) {
			for (unsigned nb = 0; nb < 8; nb++) {
				const size_t len = lens[li];
				prng_fill(msg, len + 1); /* the partial byte's low bits: noise */
				const size_t n = lit_bits(bits, msg, len, nb, algs[a].suffix,
							  algs[a].nsuffix);
				lit_sponge(bits, n, 8 * rb, algs[a].rounds, want, d);
				fastsha_digest_bits(algs[a].alg, msg, 8 * (uint64_t)len + nb, got);
				fastsha_ctx c;
				fastsha_init(&c, algs[a].alg);
				fastsha_update(&c, msg, len);
				fastsha_final_bits(&c, msg[len], nb, streamed);
				CHECK(memcmp(got, want, d) == 0,
				      "%s of %zu bytes and %u bits differs from FIPS 202's sponge",
				      fastsha_alg_name(algs[a].alg), len, nb);
				CHECK(memcmp(streamed, want, d) == 0,
				      "%s final_bits after %zu bytes, %u bits: differs from FIPS 202's sponge",
				      fastsha_alg_name(algs[a].alg), len, nb);
				cases++;
			}
		}
	}
	/* the oracle itself, its bit string included, on FIPS 202's example:
	 * SHA3-256 (algs[1]) of the 5 bits 11001 */
	const uint8_t five[1] = { 0xc8 };
	uint8_t ex[32];
	lit_sponge(bits, lit_bits(bits, five, 0, 5, algs[1].suffix, algs[1].nsuffix),
		   8 * algs[1].rate, algs[1].rounds, ex, 32);
	uint8_t fips[32];
	from_hex("7b0047cf5a456882363cbf0fb05322cf65f4b7059a46365e830132e3b5d957af", 32, fips);
	CHECK(memcmp(ex, fips, 32) == 0, "the FIPS 202 sponge of this test: SHA3-256 of 5 bits");
	printf("%zu bit-length messages against FIPS 202's sponge\n", cases);
}

static void check_refusals(void)
{
	uint8_t out[64];
	memset(out, 0xa5, sizeof(out));
	CHECK(fastsha_xof(FASTSHA_SHA3_256, "a", 1, out, 32) == -1, "xof of SHA3-256");
	CHECK(fastsha_xof(FASTSHA_SHA256, "a", 1, out, 32) == -1, "xof of SHA-256");
	CHECK(fastsha_xof((fastsha_alg)99, "a", 1, out, 32) == -1, "xof of 99");
	fastsha_msg m = { "a", 1 };
	CHECK(fastsha_many_xof(FASTSHA_SHA3_256, &m, 1, out, 32) == -1, "many_xof of SHA3-256");
	fastsha_ctx c;
	fastsha_init(&c, FASTSHA_SHA3_256);
	CHECK(fastsha_squeeze(&c, out, 8) == -1, "squeeze of SHA3-256");
	CHECK(fastturboshake128(NULL, 0, 0, out, 8) == -1, "TurboSHAKE domain 0");
	CHECK(fastturboshake256(NULL, 0, 0x80, out, 8) == -1, "TurboSHAKE domain 0x80");
	CHECK(fastsha_digest_bits(FASTSHA_K12, "a", 3, out) == -1, "K12 of 3 bits");
	/* A refused TurboSHAKE init leaves the context refused, whether it
	 * held a computation (which a caller that ignored the -1 went on
	 * squeezing) or garbage (sha3.h): its updates and squeezes, SHAKE's
	 * included, give nothing. */
	for (int start = 0; start < 2; start++) {
		fastsha3_ctx t;
		if (start)
			memset(&t, 0x5a, sizeof(t));
		else
			CHECK(fastturboshake128_init(&t, 0x1f) == 0, "TurboSHAKE init");
		fastturboshake_update(&t, "abc", 3);
		CHECK(fastturboshake256_init(&t, start ? 0 : 0x80) == -1, "TurboSHAKE init refused");
		fastturboshake_update(&t, "def", 3);
		fastturboshake_squeeze(&t, out, 32);
		fastshake128_update(&t, "def", 3);
		fastshake128_squeeze(&t, out + 32, 32);
	}
	for (size_t i = 0; i < sizeof(out); i++)
		CHECK(out[i] == 0xa5, "a refused call wrote byte %zu", i);
	/* K12 by bits: whole bytes are hashed (fastsha.h) */
	uint8_t k1[32], k2[32];
	CHECK(fastsha_digest_bits(FASTSHA_K12, "abc", 24, k1) == 0, "K12 of 24 bits");
	fastsha_digest(FASTSHA_K12, "abc", 3, k2);
	CHECK(memcmp(k1, k2, 32) == 0, "K12 of 24 bits differs from K12 of 3 bytes");
	/* update after the first squeeze is ignored (sha3.h) */
	uint8_t a[32], b[32];
	fastsha_init(&c, FASTSHA_SHAKE128);
	fastsha_update(&c, "abc", 3);
	fastsha_squeeze(&c, a, 16);
	fastsha_update(&c, "def", 3);
	fastsha_squeeze(&c, a + 16, 16);
	fastsha_xof(FASTSHA_SHAKE128, "abc", 3, b, 32);
	CHECK(memcmp(a, b, 32) == 0, "update after squeeze changed the output");
	/* names */
	CHECK(fastsha_alg_from_name("sha3-256") == FASTSHA_SHA3_256, "sha3-256");
	CHECK(fastsha_alg_from_name("shake_128") == FASTSHA_SHAKE128, "shake_128");
	CHECK(fastsha_alg_from_name("SHAKE256") == FASTSHA_SHAKE256, "SHAKE256");
	CHECK(fastsha_alg_from_name("KT128") == FASTSHA_K12, "KT128");
	CHECK(fastsha_alg_from_name("keccak-256") == FASTSHA_KECCAK256, "keccak-256");
	CHECK(fastsha_alg_is_xof(FASTSHA_K12) && !fastsha_alg_is_xof(FASTSHA_SHA3_512), "is_xof");
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: %s keccak BACKEND VECTOR_DIR\n", argv[0]);
		return 2;
	}
	test_use_backend(argv[1], argv[2]);
	prng_seed(0x73686133);
	static const struct {
		const char *file;
		fastsha_alg alg;
	} files[] = {
		{ "SHA3_224ShortMsg.rsp", FASTSHA_SHA3_224 }, { "SHA3_224LongMsg.rsp", FASTSHA_SHA3_224 },
		{ "SHA3_256ShortMsg.rsp", FASTSHA_SHA3_256 }, { "SHA3_256LongMsg.rsp", FASTSHA_SHA3_256 },
		{ "SHA3_384ShortMsg.rsp", FASTSHA_SHA3_384 }, { "SHA3_384LongMsg.rsp", FASTSHA_SHA3_384 },
		{ "SHA3_512ShortMsg.rsp", FASTSHA_SHA3_512 }, { "SHA3_512LongMsg.rsp", FASTSHA_SHA3_512 },
		{ "SHAKE128ShortMsg.rsp", FASTSHA_SHAKE128 }, { "SHAKE128LongMsg.rsp", FASTSHA_SHAKE128 },
		{ "SHAKE256ShortMsg.rsp", FASTSHA_SHAKE256 }, { "SHAKE256LongMsg.rsp", FASTSHA_SHAKE256 },
	};
	size_t n = 0;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		n += run_rsp(argv[3], files[i].file, files[i].alg);
	printf("%zu NIST answers\n", n);
	printf("%zu RFC 9861 and other answers\n", run_rfc(argv[3]));
	check_reference();
	check_squeeze_and_splits();
	check_batches();
	check_bits();
	check_bits_literal();
	check_refusals();
	return test_finish("test_sha3");
}
