/* SPDX-License-Identifier: MIT */
/*
 * Known answers under one backend: the FIPS 180 examples and every NIST
 * CAVP SHA-1 file (byte and bit oriented, short, long and Monte Carlo).
 * Each message is hashed one-shot and streamed, and also compared with the
 * spec-literal reference backend.
 *
 * usage: test_vectors BACKEND VECTOR_DIR
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
static void check_bits(const uint8_t *msg, uint64_t nbits, const uint8_t want[20], const char *what)
{
	uint8_t got[20], ref[20];
	char hw[41], hg[41];
	to_hex(want, 20, hw);
	size_t nbytes = (size_t)(nbits / 8);
	unsigned rem = (unsigned)(nbits % 8);

	fastsha1_bits(msg, nbits, got);
	to_hex(got, 20, hg);
	CHECK(memcmp(got, want, 20) == 0, "%s one-shot: got %s want %s", what, hg, hw);

	/* Streamed in two uneven pieces, then the trailing bits. */
	fastsha1_ctx ctx;
	fastsha1_init(&ctx);
	size_t cut = nbytes / 3;
	fastsha1_update(&ctx, msg, cut);
	fastsha1_update(&ctx, msg + cut, nbytes - cut);
	fastsha1_final_bits(&ctx, rem ? msg[nbytes] : 0, rem, got);
	to_hex(got, 20, hg);
	CHECK(memcmp(got, want, 20) == 0, "%s streamed: got %s want %s", what, hg, hw);
	if (rem == 0) {
		fastsha1_final(&ctx, got);
		CHECK(memcmp(got, want, 20) == 0, "%s final: mismatch", what);
		fastsha1(msg, nbytes, got);
		CHECK(memcmp(got, want, 20) == 0, "%s fastsha1(): mismatch", what);
	}

	char cur[64];
	snprintf(cur, sizeof(cur), "%s", fastsha1_backend());
	fastsha1_use_backend("reference");
	fastsha1_bits(msg, nbits, ref);
	fastsha1_use_backend(cur);
	CHECK(memcmp(ref, want, 20) == 0, "%s: reference backend disagrees with NIST", what);
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
			uint8_t want[20];
			char what[4200];
			if (from_hex(v, 20, want) != 0 || !msg) {
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

/* SHAVS Monte Carlo: MD[i] = SHA1(MD[i-3] || MD[i-2] || MD[i-1]), 1000 per checkpoint. */
static int run_monte_file(const char *path)
{
	size_t n;
	char *text = read_file(path, &n);
	uint8_t seed[20], md[3][20], m[60];
	int have_seed = 0, count = 0;
	for (char *line = strtok(text, "\r\n"); line; line = strtok(NULL, "\r\n")) {
		const char *v;
		if ((v = field(line, "Seed"))) {
			if (from_hex(v, 20, seed) != 0)
				exit(1);
			have_seed = 1;
		} else if ((v = field(line, "MD")) && have_seed) {
			uint8_t want[20];
			if (from_hex(v, 20, want) != 0)
				exit(1);
			memcpy(md[0], seed, 20);
			memcpy(md[1], seed, 20);
			memcpy(md[2], seed, 20);
			for (int i = 3; i < 1003; i++) {
				memcpy(m, md[0], 20);
				memcpy(m + 20, md[1], 20);
				memcpy(m + 40, md[2], 20);
				memmove(md[0], md[1], 40);
				fastsha1(m, 60, md[2]);
			}
			char hg[41], hw[41];
			to_hex(md[2], 20, hg);
			to_hex(want, 20, hw);
			CHECK(memcmp(md[2], want, 20) == 0, "%s checkpoint %d: got %s want %s", path,
			      count, hg, hw);
			memcpy(seed, md[2], 20);
			count++;
		}
	}
	free(text);
	return count;
}

static void run_examples(const char *path)
{
	size_t n;
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
	}
	free(text);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: %s BACKEND VECTOR_DIR\n", argv[0]);
		return 2;
	}
	test_use_backend(argv[1]);
	const char *dir = argv[2];
	char path[4096];
	static const struct {
		const char *file;
		int monte;
		int min; /* entries the file must hold, so a truncated copy fails */
	} files[] = {
		{ "cavp/byte/SHA1ShortMsg.rsp", 0, 65 }, { "cavp/byte/SHA1LongMsg.rsp", 0, 64 },
		{ "cavp/byte/SHA1Monte.rsp", 1, 100 },   { "cavp/bit/SHA1ShortMsg.rsp", 0, 513 },
		{ "cavp/bit/SHA1LongMsg.rsp", 0, 512 },  { "cavp/bit/SHA1Monte.rsp", 1, 100 },
	};
	snprintf(path, sizeof(path), "%s/sha1_examples.txt", dir);
	run_examples(path);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i].file);
		int n = files[i].monte ? run_monte_file(path) : run_msg_file(path);
		printf("%-28s %4d entries\n", files[i].file, n);
		CHECK(n == files[i].min, "%s: %d entries, expected %d", files[i].file, n, files[i].min);
	}
	return test_finish("vectors");
}
