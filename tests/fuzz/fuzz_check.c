/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target (libFuzzer) for the --check list parser: `fastsha -c` reads
 * lists downloaded from anywhere, so each line goes through the command's
 * own cli_check_parse_line() (tools/fastsha/cli_checkline.c) here, built
 * with ASan and UBSan. Run it with `make fuzz FUZZ_SECONDS=N` (half the
 * time each with fuzz_digest); replay a saved input with
 * `build/fuzz/tests/fuzz/fuzz_check FILE`.
 *
 * Input: one header byte, then the list.
 *   bits 0-2  the selected algorithm, cli_alg_at(n % cli_alg_count())
 *   bit 3     any_tag: tagged lines of every algorithm (fastsha, cksum),
 *             else of the selected one only (sha256sum)
 *   bit 4     lines end at NUL, not '\n' (the command reads '\n' lines only,
 *             as GNU does: -z is refused with -c; this hands the parser
 *             lines with '\n' inside them and none at the end)
 *   bits 5-6  the run's "bsd reversed" state before the first line:
 *             unknown, standard, reversed, unknown
 *   bit 7     the whole list is one line
 * Each line is handed over as a reader would: a '\n' line with its '\n'
 * (getline), a NUL-ended one without the NUL; in a heap block of exactly
 * its length plus the NUL, so AddressSanitizer sees any read or write
 * outside it. The state carries over from line to
 * line, as across a run.
 *
 * Checked per line, beyond "no crash, no undefined behaviour":
 * - a comment or empty line is skipped and reports nothing;
 * - otherwise the trimmed length is the line's without one '\n' and then
 *   one '\r', and a NUL ends it there;
 * - a parsed line's algorithm is the selected one or, with any_tag, one of
 *   the table's; its digest is that algorithm's hexlen hex digits then a
 *   NUL; digest and name (its NUL included) lie within the trimmed line
 *   and do not overlap;
 * - the "bsd reversed" state stays -1, 0 or 1 and, once decided, never
 *   changes.
 * A failed check prints what broke and traps, so libFuzzer saves the input.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                                                \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "fuzz_check: %s:%d: %s\n", __FILE__, __LINE__, #cond);     \
			__builtin_trap();                                                          \
		}                                                                                  \
	} while (0)

static int is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static int in_table(const struct cli_alg *a)
{
	for (size_t i = 0; i < cli_alg_count(); i++)
		if (cli_alg_at(i) == a)
			return 1;
	return 0;
}

/* The trimmed length cli_check_parse_line() must find. */
static size_t trimmed(const char *s, size_t len)
{
	if (len && s[len - 1] == '\n')
		len--;
	if (len && s[len - 1] == '\r')
		len--;
	return len;
}

static void one_line(const uint8_t *p, size_t len, const struct cli_alg *sel, int any_tag,
		     int *bsd_reversed)
{
	char *s = malloc(len + 1);
	CHECK(s != NULL);
	if (len)
		memcpy(s, p, len);
	s[len] = '\0';

	int before = *bsd_reversed;
	struct cli_check_line out;
	enum cli_line_kind kind = cli_check_parse_line(s, len, sel, any_tag, bsd_reversed, &out);
	size_t tlen = trimmed((const char *)p, len);

	CHECK(*bsd_reversed >= -1 && *bsd_reversed <= 1);
	CHECK(before == -1 || *bsd_reversed == before);
	if (len == 0 || p[0] == '#' || tlen == 0) {
		CHECK(kind == CLI_LINE_SKIP);
		CHECK(out.name == NULL && out.hex == NULL && out.alg == NULL && out.len == 0);
		free(s);
		return;
	}
	CHECK(kind == CLI_LINE_BAD || kind == CLI_LINE_OK);
	CHECK(out.len == tlen);
	CHECK(s[tlen] == '\0');
	if (kind == CLI_LINE_BAD) {
		CHECK(out.name == NULL);
		free(s);
		return;
	}

	const struct cli_alg *a = out.alg;
	const char *end = s + tlen; /* the NUL that ends the line */
	CHECK(a != NULL && in_table(a));
	CHECK(any_tag || a == sel);
	CHECK(out.hex != NULL && out.hex >= s && out.hex + a->hexlen <= end);
	for (size_t i = 0; i < a->hexlen; i++)
		CHECK(is_hex(out.hex[i]));
	CHECK(out.hex[a->hexlen] == '\0');
	CHECK(out.name != NULL && out.name >= s && out.name <= end);
	const char *nul = memchr(out.name, '\0', (size_t)(end - out.name) + 1);
	CHECK(nul != NULL && nul <= end);
	/* The name and the digest do not overlap. */
	CHECK(nul < out.hex || out.name > out.hex + a->hexlen);
	free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const int reversed0[4] = { -1, 0, 1, -1 };
	if (size == 0)
		return 0;
	const uint8_t h = data[0];
	const struct cli_alg *sel = cli_alg_at((h & 7) % cli_alg_count());
	const int any_tag = (h >> 3) & 1;
	const uint8_t term = (h & 0x10) ? '\0' : '\n';
	const int whole = h >> 7;
	int bsd_reversed = reversed0[(h >> 5) & 3];
	CHECK(sel != NULL);

	const uint8_t *p = data + 1, *stop = data + size;
	while (p < stop) {
		const uint8_t *nl = whole ? NULL : memchr(p, term, (size_t)(stop - p));
		/* getline() keeps the '\n'; a NUL-ended line is handed over without its NUL. */
		size_t len = nl ? (size_t)(nl - p) + (term == '\n') : (size_t)(stop - p);
		one_line(p, len, sel, any_tag, &bsd_reversed);
		p += nl ? (size_t)(nl - p) + 1 : len;
	}
	return 0;
}
