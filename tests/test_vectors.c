/* SPDX-License-Identifier: MIT */
/*
 * Known answers for each algorithm of one family under one backend: the
 * FIPS 180 and NIST additional examples, every NIST CAVP file of the
 * algorithm (byte and bit oriented, short, long and Monte Carlo), and for
 * SHA-512/224 and SHA-512/256 (no CAVP files in the set) OpenSSL's answers.
 * Each message is hashed one-shot and streamed, and also compared with the
 * spec-literal reference backend.
 *
 * usage: test_vectors FAMILY BACKEND VECTOR_DIR
 */
#include "testutil.h"

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		exit(1);
	}
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *buf = malloc((size_t)n + 1);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
		fprintf(stderr, "cannot read %s\n", path);
		exit(1);
	}
	buf[n] = 0;
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* The value after "KEY = " on a line starting with KEY, or NULL. */
static const char *field(const char *line, const char *key)
{
	size_t k = strlen(key);
	if (strncmp(line, key, k) != 0 || strncmp(line + k, " = ", 3) != 0)
		return NULL;
	return line + k + 3;
}

/* Hash @nbits of @msg every way the API allows and check each against @want. */
static void check_bits(const uint8_t *msg, uint64_t nbits, const uint8_t *want, const char *what)
{
	size_t ds = DS();
	uint8_t got[DMAX], ref[DMAX];
	char hw[2 * DMAX + 1], hg[2 * DMAX + 1];
	to_hex(want, ds, hw);
	size_t nbytes = (size_t)(nbits / 8);
	unsigned rem = (unsigned)(nbits % 8);

	fastsha_digest_bits(test_alg, msg, nbits, got);
	to_hex(got, ds, hg);
	CHECK(memcmp(got, want, ds) == 0, "%s one-shot: got %s want %s", what, hg, hw);

	/* Streamed in two uneven pieces, then the trailing bits. */
	fastsha_ctx ctx;
	fastsha_init(&ctx, test_alg);
	size_t cut = nbytes / 3;
	fastsha_update(&ctx, msg, cut);
	fastsha_update(&ctx, msg + cut, nbytes - cut);
	fastsha_final_bits(&ctx, rem ? msg[nbytes] : 0, rem, got);
	to_hex(got, ds, hg);
	CHECK(memcmp(got, want, ds) == 0, "%s streamed: got %s want %s", what, hg, hw);
	if (rem == 0) {
		fastsha_final(&ctx, got);
		CHECK(memcmp(got, want, ds) == 0, "%s final: mismatch", what);
		fastsha_digest(test_alg, msg, nbytes, got);
		CHECK(memcmp(got, want, ds) == 0, "%s fastsha_digest(): mismatch", what);
	}

	char cur[64];
	snprintf(cur, sizeof(cur), "%s", fastsha_backend(test_alg));
	fastsha_use_backend(test_alg, "reference");
	fastsha_digest_bits(test_alg, msg, nbits, ref);
	fastsha_use_backend(test_alg, cur);
	CHECK(memcmp(ref, want, ds) == 0, "%s: reference backend disagrees with the known answer", what);
}

/* A ShortMsg/LongMsg file: returns the number of entries checked. */
static int run_msg_file(const char *path)
{
	size_t n;
	char *text = read_file(path, &n);
	uint64_t len = 0;
	uint8_t *msg = NULL;
	int count = 0;
	for (char *line = strtok(text, "\r\n"); line; line = strtok(NULL, "\r\n")) {
		const char *v;
		if ((v = field(line, "Len"))) {
			len = strtoull(v, NULL, 10);
		} else if ((v = field(line, "Msg"))) {
			size_t bytes = strlen(v) / 2;
			free(msg);
			msg = malloc(bytes ? bytes : 1);
			if (!msg || from_hex(v, bytes, msg) != 0) {
				fprintf(stderr, "%s: bad Msg line\n", path);
				exit(1);
			}
		} else if ((v = field(line, "MD"))) {
			uint8_t want[DMAX];
			char what[4200];
			if (strlen(v) != 2 * DS() || from_hex(v, DS(), want) != 0 || !msg) {
				fprintf(stderr, "%s: bad MD line\n", path);
				exit(1);
			}
			snprintf(what, sizeof(what), "%s Len=%llu", path, (unsigned long long)len);
			check_bits(msg, len, want, what);
			count++;
		}
	}
	free(msg);
	free(text);
	return count;
}

/* SHAVS Monte Carlo: MD[i] = SHA(MD[i-3] || MD[i-2] || MD[i-1]), 1000 per checkpoint. */
static int run_monte_file(const char *path)
{
	size_t n, ds = DS();
	char *text = read_file(path, &n);
	uint8_t seed[DMAX], md[3][DMAX], m[3 * DMAX];
	int have_seed = 0, count = 0;
	for (char *line = strtok(text, "\r\n"); line; line = strtok(NULL, "\r\n")) {
		const char *v;
		if ((v = field(line, "Seed"))) {
			if (strlen(v) != 2 * ds || from_hex(v, ds, seed) != 0)
				exit(1);
			have_seed = 1;
		} else if ((v = field(line, "MD")) && have_seed) {
			uint8_t want[DMAX];
			if (strlen(v) != 2 * ds || from_hex(v, ds, want) != 0)
				exit(1);
			memcpy(md[0], seed, ds);
			memcpy(md[1], seed, ds);
			memcpy(md[2], seed, ds);
			for (int i = 3; i < 1003; i++) {
				memcpy(m, md[0], ds);
				memcpy(m + ds, md[1], ds);
				memcpy(m + 2 * ds, md[2], ds);
				memcpy(md[0], md[1], ds);
				memcpy(md[1], md[2], ds);
				fastsha_digest(test_alg, m, 3 * ds, md[2]);
			}
			char hg[2 * DMAX + 1], hw[2 * DMAX + 1];
			to_hex(md[2], ds, hg);
			to_hex(want, ds, hw);
			CHECK(memcmp(md[2], want, ds) == 0, "%s checkpoint %d: got %s want %s", path,
			      count, hg, hw);
			memcpy(seed, md[2], ds);
			count++;
		}
	}
	free(text);
	return count;
}

/* The FIPS 180 SHA-1 examples: "repeat message digest" lines. */
static int run_sha1_examples(const char *path)
{
	size_t n;
	int count = 0;
	char *text = read_file(path, &n);
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		if (line[0] == '#' || !line[0])
			continue;
		char msg[128], hex[41];
		unsigned long rep;
		uint8_t want[20];
		if (sscanf(line, "%lu %127s %40s", &rep, msg, hex) != 3 || from_hex(hex, 20, want)) {
			fprintf(stderr, "%s: bad line: %s\n", path, line);
			exit(1);
		}
		size_t ml = strlen(msg), total = ml * rep;
		uint8_t *buf = malloc(total);
		for (size_t i = 0; i < rep; i++)
			memcpy(buf + i * ml, msg, ml);
		char what[256];
		snprintf(what, sizeof(what), "FIPS example %lu x '%s'", rep, msg);
		check_bits(buf, (uint64_t)total * 8, want, what);
		free(buf);
		count++;
	}
	free(text);
	return count;
}

/*
 * Lines "alg length kind value digest" for this algorithm: kind "msg" gives
 * the message as hex ("-" when empty), "rep" one byte repeated, "pat" the
 * pattern (31*i + 7) mod 256 (sha2_additional.txt, sha512t_openssl.txt).
 */
static int run_alg_lines(const char *path)
{
	size_t n;
	int count = 0;
	char *text = read_file(path, &n);
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		if (line[0] == '#' || !line[0])
			continue;
		char alg[16], kind[8], val[4096], hex[2 * DMAX + 2];
		unsigned long len;
		if (sscanf(line, "%15s %lu %7s %4095s %129s", alg, &len, kind, val, hex) != 5) {
			fprintf(stderr, "%s: bad line: %s\n", path, line);
			exit(1);
		}
		if (fastsha_alg_from_name(alg) != (int)test_alg)
			continue;
		uint8_t want[DMAX], *buf = malloc(len ? len : 1);
		if (strlen(hex) != 2 * DS() || from_hex(hex, DS(), want) || !buf) {
			fprintf(stderr, "%s: bad digest: %s\n", path, line);
			exit(1);
		}
		if (strcmp(kind, "msg") == 0 && (len == 0 || strlen(val) == 2 * len) &&
		    (len == 0 || from_hex(val, len, buf) == 0)) {
		} else if (strcmp(kind, "rep") == 0 && strlen(val) == 2 && from_hex(val, 1, buf) == 0) {
			memset(buf, buf[0], len);
		} else if (strcmp(kind, "pat") == 0) {
			for (size_t i = 0; i < len; i++)
				buf[i] = (uint8_t)(31 * i + 7);
		} else {
			fprintf(stderr, "%s: bad message: %s\n", path, line);
			exit(1);
		}
		char what[256];
		snprintf(what, sizeof(what), "%s: %s %lu bytes", path, alg, len);
		check_bits(buf, (uint64_t)len * 8, want, what);
		free(buf);
		count++;
	}
	free(text);
	return count;
}

/* The CAVP file names use SHA1, SHA224, ... SHA512. */
static const char *cavp_name(fastsha_alg a)
{
	switch (a) {
	case FASTSHA_SHA1: return "SHA1";
	case FASTSHA_SHA224: return "SHA224";
	case FASTSHA_SHA256: return "SHA256";
	case FASTSHA_SHA384: return "SHA384";
	case FASTSHA_SHA512: return "SHA512";
	default: return NULL; /* SHA-512/224, /256: no CAVP files in the set */
	}
}

/* One file: how many entries it must hold (so a truncated copy fails), 0
 * when the file is not part of the set for this algorithm. */
static void run_file(const char *dir, const char *file, int (*run)(const char *), int want)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	int n = run(path);
	printf("%-12s %-36s %5d entries\n", fastsha_alg_name(test_alg), file, n);
	CHECK(n == want, "%s: %d entries for %s, expected %d", file, n, fastsha_alg_name(test_alg),
	      want);
}

static void check_alg(const char *dir)
{
	const char *c = cavp_name(test_alg);
	int wide = BS() == 128; /* SHA-384/512 files have twice the lengths */
	char f[128];
	if (!c) {
		run_file(dir, "sha512t_openssl.txt", run_alg_lines, 267);
		return;
	}
	if (test_alg == FASTSHA_SHA1) {
		run_file(dir, "sha1_examples.txt", run_sha1_examples, 3);
	} else {
		static const int additional[] = { [FASTSHA_SHA224] = 7, [FASTSHA_SHA256] = 10,
						  [FASTSHA_SHA384] = 9, [FASTSHA_SHA512] = 9 };
		run_file(dir, "sha2_additional.txt", run_alg_lines, additional[test_alg]);
	}
	snprintf(f, sizeof(f), "cavp/byte/%sShortMsg.rsp", c);
	run_file(dir, f, run_msg_file, wide ? 129 : 65);
	snprintf(f, sizeof(f), "cavp/byte/%sLongMsg.rsp", c);
	run_file(dir, f, run_msg_file, wide ? 128 : 64);
	snprintf(f, sizeof(f), "cavp/byte/%sMonte.rsp", c);
	run_file(dir, f, run_monte_file, 100);
	snprintf(f, sizeof(f), "cavp/bit/%sShortMsg.rsp", c);
	run_file(dir, f, run_msg_file, wide ? 1025 : 513);
	/* The shared set has no bit-oriented LongMsg for SHA-384/512. */
	if (!wide) {
		snprintf(f, sizeof(f), "cavp/bit/%sLongMsg.rsp", c);
		run_file(dir, f, run_msg_file, 512);
	}
	snprintf(f, sizeof(f), "cavp/bit/%sMonte.rsp", c);
	run_file(dir, f, run_monte_file, 100);
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: %s FAMILY BACKEND VECTOR_DIR\n", argv[0]);
		return 2;
	}
	test_use_backend(argv[1], argv[2]);
	for (size_t i = 0; i < test_fam->nalgs; i++) {
		test_alg = test_fam->algs[i];
		check_alg(argv[3]);
	}
	return test_finish("vectors");
}
