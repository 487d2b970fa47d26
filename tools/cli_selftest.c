/* SPDX-License-Identifier: MIT */
/*
 * --self-test, --bench and --list-backends: each runs over every backend
 * the library was built with (fastsha1_backend_count/name/supported), so a
 * new backend shows up here without touching the tool.
 *
 * The known answers: FIPS 180 examples ("abc", the 448- and 896-bit
 * messages, one million 'a'), and the NIST CAVP short messages in
 * cli_kat.h, the bit-length ones through fastsha1_bits(). McCurley's
 * command line (seed 004) had a NIST example and a benchmark; these are
 * that idea, per backend.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_kat.h"

static int unhex(const char *s, uint8_t *out, size_t max)
{
	size_t n = strlen(s) / 2;
	if (n > max)
		return -1;
	for (size_t i = 0; i < n; i++) {
		unsigned v;
		if (sscanf(s + 2 * i, "%2x", &v) != 1)
			return -1;
		out[i] = (uint8_t)v;
	}
	return (int)n;
}

struct fips {
	const char *what, *msg, *md;
	unsigned repeat;
};

static const struct fips fips_table[] = {
	{ "empty", "", "da39a3ee5e6b4b0d3255bfef95601890afd80709", 1 },
	{ "abc", "abc", "a9993e364706816aba3e25717850c26c9cd0d89d", 1 },
	{ "448-bit", "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
	  "84983e441c3bd26ebaae4aa1f95129e5e54670f1", 1 },
	{ "896-bit",
	  "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqr"
	  "lmnopqrsmnopqrstnopqrstu",
	  "a49b2446a02c645bf419f995b67091253a04a259", 1 },
	{ "million-a", "a", "34aa973cd4c4daa4f61eeb2bdbad27316534016f", 1000000 },
};

/* Runs every known answer under the backend in use; returns failures. */
static unsigned run_kats(const char *backend, unsigned *count)
{
	unsigned fails = 0, n = 0;
	char hex[41];
	uint8_t d[FASTSHA1_DIGEST_SIZE];

	for (size_t i = 0; i < sizeof fips_table / sizeof fips_table[0]; i++) {
		const struct fips *f = &fips_table[i];
		size_t len = strlen(f->msg);
		if (f->repeat == 1) {
			fastsha1(f->msg, len, d);
		} else {
			/* One million 'a' fed in uneven pieces, then one shot. */
			static uint8_t big[1000000];
			fastsha1_ctx ctx;
			size_t done = 0, step = 1;
			memset(big, f->msg[0], sizeof big);
			fastsha1_init(&ctx);
			while (done < f->repeat) {
				size_t k = f->repeat - done < step ? f->repeat - done : step;
				fastsha1_update(&ctx, big + done, k);
				done += k;
				step = step * 3 + 1;
			}
			fastsha1_final(&ctx, d);
			cli_hex(d, hex);
			n++;
			if (strcmp(hex, f->md) != 0) {
				printf("  %s: FAILED %s (streamed): got %s, want %s\n", backend, f->what, hex, f->md);
				fails++;
			}
			fastsha1(big, f->repeat, d);
		}
		cli_hex(d, hex);
		n++;
		if (strcmp(hex, f->md) != 0) {
			printf("  %s: FAILED %s: got %s, want %s\n", backend, f->what, hex, f->md);
			fails++;
		}
	}
	for (size_t i = 0; i < sizeof cli_kat_table / sizeof cli_kat_table[0]; i++) {
		const struct cli_kat *k = &cli_kat_table[i];
		uint8_t msg[128];
		if (unhex(k->msg, msg, sizeof msg) < 0)
			abort();
		if (k->bits % 8)
			fastsha1_bits(msg, k->bits, d);
		else
			fastsha1(msg, k->bits / 8, d);
		cli_hex(d, hex);
		n++;
		if (strcmp(hex, k->md) != 0) {
			printf("  %s: FAILED CAVP Len=%u: got %s, want %s\n", backend, k->bits, hex, k->md);
			fails++;
		}
	}
	*count = n;
	return fails;
}

int cli_self_test(void)
{
	const char *was = fastsha1_backend();
	unsigned bad = 0, ran = 0;

	printf("fastsha %s self-test (FIPS 180 examples, NIST CAVP short messages)\n",
	       fastsha_version());
	for (size_t i = 0; i < fastsha1_backend_count(); i++) {
		const char *name = fastsha1_backend_name(i);
		unsigned count = 0, fails;
		if (!fastsha1_backend_supported(i)) {
			printf("%-14s skipped: this CPU cannot run it\n", name);
			continue;
		}
		if (fastsha1_use_backend(name) != FASTSHA_SELECT_OK) {
			printf("%-14s FAILED: could not select it\n", name);
			bad++;
			continue;
		}
		fails = run_kats(name, &count);
		/* Test hook: FASTSHA_SELFTEST_BREAK=NAME counts one made-up failure
		 * for that backend, so the tests can see the failure path (the
		 * FAILED line, exit 1) without a broken backend. */
		const char *brk = getenv("FASTSHA_SELFTEST_BREAK");
		if (brk && strcmp(brk, name) == 0) {
			printf("  %s: FAILED injected by FASTSHA_SELFTEST_BREAK\n", name);
			fails++;
		}
		printf("%-14s %s: %u/%u known answers\n", name, fails ? "FAILED" : "ok", count - fails,
		       count);
		bad += fails != 0;
		ran++;
	}
	fastsha1_use_backend(was);
	printf("%s\n", bad ? "self-test FAILED" : ran ? "self-test passed" : "no backend ran");
	if (fflush(stdout) != 0)
		return 1;
	return bad || !ran ? 1 : 0;
}

int cli_bench(void)
{
	static const size_t sizes[] = { 64, 1024, 16384, 1 << 20 };
	const char *was = fastsha1_backend();
	size_t maxsz = sizes[sizeof sizes / sizeof sizes[0] - 1];
	uint8_t *buf = malloc(maxsz), d[FASTSHA1_DIGEST_SIZE];

	if (!buf) {
		cli_error(0, "out of memory");
		return 1;
	}
	for (size_t i = 0; i < maxsz; i++)
		buf[i] = (uint8_t)(i * 31 + 7);
	printf("fastsha %s quick bench, MB/s (10^6 bytes/s) of one-shot fastsha1();\n"
	       "see fastsha-bench for the real benchmark.\n", fastsha_version());
	printf("%-14s %10s %10s %10s %10s\n", "backend", "64 B", "1 KiB", "16 KiB", "1 MiB");
	for (size_t b = 0; b < fastsha1_backend_count(); b++) {
		const char *name = fastsha1_backend_name(b);
		printf("%-14s", name);
		if (!fastsha1_backend_supported(b) || fastsha1_use_backend(name) != 0) {
			printf(" skipped: this CPU cannot run it\n");
			continue;
		}
		for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
			/* About 50 ms per cell: double the count until it lasts. */
			uint64_t iters = 1, total;
			double t;
			for (;;) {
				double t0 = cli_now();
				for (uint64_t k = 0; k < iters; k++) {
					buf[0] = (uint8_t)k;
					fastsha1(buf, sizes[s], d);
				}
				t = cli_now() - t0;
				if (t > 0.05)
					break;
				iters *= 2;
			}
			total = iters * sizes[s];
			printf(" %10.1f", (double)total / t / 1e6);
		}
		printf("\n");
		fflush(stdout);
	}
	fastsha1_use_backend(was);
	free(buf);
	return fflush(stdout) == 0 ? 0 : 1;
}

void cli_list_backends(void)
{
	const char *active = fastsha1_backend();
	for (size_t i = 0; i < fastsha1_backend_count(); i++) {
		const char *name = fastsha1_backend_name(i);
		printf("%-14s lanes=%u  %s%s\n", name, fastsha1_backend_lanes(i),
		       fastsha1_backend_supported(i) ? "supported by this CPU" : "not supported by this CPU",
		       strcmp(name, active) == 0 ? " (in use)" : "");
	}
}
