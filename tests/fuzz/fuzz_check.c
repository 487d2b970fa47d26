/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target (libFuzzer) for the --check list parsers: `fastsha -c` reads
 * lists downloaded from anywhere, so each line goes through the command's
 * own cli_check_parse_line() or, as cksum, cli_cksum_parse_line()
 * (tools/fastsha/cli_checkline.c) here, built with ASan and UBSan. Run it
 * with `make fuzz FUZZ_SECONDS=N` (half the time each with fuzz_digest);
 * replay a saved input with `build/asan/tests/fuzz/fuzz_check FILE`.
 *
 * Input: two header bytes, then the list. The first:
 *   bits 0-2  the selected algorithm's low bits (the second byte's bit 0
 *             above them): cli_alg_at(n % cli_alg_count())
 *   bit 3     any_tag: tagged lines of every algorithm (fastsha), else of
 *             the selected one only (sha256sum)
 *   bit 4     lines end at NUL, not '\n' (the command reads '\n' lines only,
 *             as GNU does: -z is refused with -c; this hands the parser
 *             lines with '\n' inside them and none at the end)
 *   bits 5-6  the run's "bsd reversed" state before the first line:
 *             unknown, standard, reversed, unknown
 *   bit 7     the whole list is one line
 * The second:
 *   bit 0     bit 3 of the algorithm's index (the Keccak rows)
 *   bit 1     base64 digests and XOF lengths too (CLI_DIGEST_B64: fastsha)
 *   bit 2     GNU cksum's parser instead, starting from
 *   bits 3-6  its algorithm, cli_gnu_at(n % cli_gnu_count()) (crc: no -a),
 *   bit 7     and whether -a gave it
 * Each line is handed over as a reader would: a '\n' line with its '\n'
 * (getline), a NUL-ended one without the NUL; in a heap block of exactly
 * its length plus the NUL, so AddressSanitizer sees any read or write
 * outside it. The state carries over from line to line, as across a run.
 *
 * Checked per line, beyond "no crash, no undefined behaviour":
 * - a comment or empty line is skipped and reports nothing;
 * - otherwise the trimmed length is the line's without one '\n' and then
 *   one '\r', and a NUL ends it there;
 * - a parsed line's algorithm is the selected one or, with any_tag (and
 *   always as cksum), one of the table's; its digest is 2 * size hex
 *   digits, or its base64 form ('=' padded) where base64 is read, then a
 *   NUL; size is the algorithm's (an XOF's: 1 to 64 bytes; cksum's: up to
 *   it, for "SHA256-128", even 0: see below); digest and name (its NUL included) lie within
 *   the trimmed line and do not overlap; a cksum line of an algorithm the
 *   command lacks has a name and no algorithm;
 * - the "bsd reversed" state stays -1, 0 or 1 and, once decided, never
 *   changes; cksum's algorithm stays one of GNU's list.
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

static int is_b64(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
	       c == '+' || c == '/';
}

static int in_table(const struct cli_alg *a)
{
	for (size_t i = 0; i < cli_alg_count(); i++)
		if (cli_alg_at(i) == a)
			return 1;
	return 0;
}

/* The trimmed length the parsers must find. */
static size_t trimmed(const char *s, size_t len)
{
	if (len && s[len - 1] == '\n')
		len--;
	if (len && s[len - 1] == '\r')
		len--;
	return len;
}

/* How the parsers are driven: the header's choices. */
struct mode {
	const struct cli_alg *sel;
	int any_tag, b64, cksum;
	int bsd_reversed;          /* cli_check_parse_line()'s run-wide state */
	struct cli_cksum_state st; /* cli_cksum_parse_line()'s */
};

static void one_line(const uint8_t *p, size_t len, struct mode *m)
{
	char *s = malloc(len + 1);
	CHECK(s != NULL);
	if (len)
		memcpy(s, p, len);
	s[len] = '\0';

	int *rev = m->cksum ? &m->st.bsd_reversed : &m->bsd_reversed;
	int before = *rev;
	int tags = (m->any_tag ? CLI_TAGS_ANY : 0) | (m->b64 ? CLI_DIGEST_B64 : 0);
	struct cli_check_line out;
	enum cli_line_kind kind =
		m->cksum ? cli_cksum_parse_line(s, len, &m->st, &out)
			 : cli_check_parse_line(s, len, m->sel, m->sel->size, tags, rev, &out);
	size_t tlen = trimmed((const char *)p, len);

	CHECK(*rev >= -1 && *rev <= 1);
	CHECK(before == -1 || *rev == before);
	CHECK(m->st.gnu >= 0 && (size_t)m->st.gnu < cli_gnu_count());
	if (len == 0 || p[0] == '#' || tlen == 0) {
		CHECK(kind == CLI_LINE_SKIP);
		CHECK(out.name == NULL && out.hex == NULL && out.alg == NULL && out.len == 0);
		free(s);
		return;
	}
	CHECK(kind == CLI_LINE_BAD || kind == CLI_LINE_OK || (m->cksum && kind == CLI_LINE_LACKS));
	CHECK(out.len == tlen);
	CHECK(s[tlen] == '\0');
	if (kind == CLI_LINE_BAD) {
		CHECK(out.name == NULL);
		free(s);
		return;
	}

	const char *end = s + tlen; /* the NUL that ends the line */
	CHECK(out.name != NULL && out.name >= s && out.name <= end);
	const char *nul = memchr(out.name, '\0', (size_t)(end - out.name) + 1);
	CHECK(nul != NULL && nul <= end);
	const struct cli_alg *a = out.alg;
	if (kind == CLI_LINE_LACKS) {
		CHECK(a == NULL);
		free(s);
		return;
	}
	CHECK(a != NULL && in_table(a));
	CHECK(m->any_tag || m->cksum || a == m->sel);
	/* GNU cksum's quirk, kept: after a line whose "TAG-N" length was refused,
	 * its digest_hex_bytes may be 0, and a digest of no digits passes. */
	CHECK((out.size >= 1 || m->cksum) && out.size <= FASTSHA_MAX_DIGEST_SIZE);
	/* cksum: up to 64 bytes whatever the algorithm (a length GNU's state left
	 * behind; the command fails such a line), else the algorithm's. */
	CHECK(m->cksum || a->xof || out.size == a->size);
	CHECK(m->b64 || m->cksum || !out.base64);
	size_t dlen = out.base64 ? (out.size + 2) / 3 * 4 : 2 * out.size;
	/* GNU cksum's other quirk, kept: a refused "TAG-N" can leave its hex
	 * digit count odd, and a digest one digit longer is read, that digit
	 * not compared. */
	if (m->cksum && !out.base64 && out.hex && out.hex + dlen < end && out.hex[dlen] != '\0')
		dlen++;
	size_t pad = out.base64 ? (3 - out.size % 3) % 3 : 0;
	CHECK(out.hex != NULL && out.hex >= s && out.hex + dlen <= end);
	for (size_t i = 0; i < dlen; i++)
		CHECK(i < dlen - pad ? (out.base64 ? is_b64(out.hex[i]) : is_hex(out.hex[i]))
				     : out.hex[i] == '=');
	CHECK(out.hex[dlen] == '\0');
	/* The name and the digest do not overlap. */
	CHECK(nul < out.hex || out.name > out.hex + dlen);
	free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const int reversed0[4] = { -1, 0, 1, -1 };
	if (size < 2)
		return 0;
	const uint8_t h = data[0], h1 = data[1];
	struct mode m;
	memset(&m, 0, sizeof m);
	m.sel = cli_alg_at((size_t)((h & 7) | (h1 & 1) << 3) % cli_alg_count());
	m.any_tag = (h >> 3) & 1;
	m.b64 = (h1 >> 1) & 1;
	m.cksum = (h1 >> 2) & 1;
	m.bsd_reversed = reversed0[(h >> 5) & 3];
	cli_cksum_state_init(&m.st, (int)(((h1 >> 3) & 15) % cli_gnu_count()), h1 >> 7, 0);
	m.st.bsd_reversed = m.bsd_reversed;
	const uint8_t term = (h & 0x10) ? '\0' : '\n';
	const int whole = h >> 7;
	CHECK(m.sel != NULL);

	const uint8_t *p = data + 2, *stop = data + size;
	while (p < stop) {
		const uint8_t *nl = whole ? NULL : memchr(p, term, (size_t)(stop - p));
		/* getline() keeps the '\n'; a NUL-ended line is handed over without its NUL. */
		size_t len = nl ? (size_t)(nl - p) + (term == '\n') : (size_t)(stop - p);
		one_line(p, len, &m);
		p += nl ? (size_t)(nl - p) + 1 : len;
	}
	return 0;
}
