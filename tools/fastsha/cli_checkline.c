/* SPDX-License-Identifier: MIT */
/*
 * One line of a --check list, parsed: GNU coreutils 9.1's split_3 and
 * bsd_split_3 for fastsha and the sha*sum names, and GNU cksum 9.10's
 * (which keeps more state from line to line) for the cksum name
 * (docs/check.md). No I/O, no exit, no state of its own: what GNU keeps
 * across a run is the caller's, so the command (cli_check.c) and the fuzz
 * target (tests/fuzz/fuzz_check.c) run the same code. Lists come from
 * anywhere, often downloaded: every read stays within s[0..len], the line
 * and its terminating NUL.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "cli.h"

static int iswhite(char c)
{
	return c == ' ' || c == '\t';
}

/* Exactly n hex digits, then the end of the line. */
static int hex_ok(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || ((s[i] | 0x20) >= 'a' && (s[i] | 0x20) <= 'f')))
			return 0;
	return s[n] == '\0';
}

/* base64's 4-character groups for n bytes, '=' padded (GNU's BASE64_LENGTH). */
static size_t b64len(size_t n)
{
	return (n + 2) / 3 * 4;
}

static int isb64(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
	       c == '+' || c == '/';
}

/* n bytes in base64 (cksum --base64): the padding '=' where there must be
 * one and nowhere else (GNU's valid_digits), then the end of the line. */
static int b64_ok(const char *s, size_t n)
{
	size_t len = b64len(n), pad = (3 - n % 3) % 3;
	for (size_t i = 0; i < len; i++)
		if (i < len - pad ? !isb64(s[i]) : s[i] != '=')
			return 0;
	return s[len] == '\0';
}

/* \\ \n \r are the only escapes; a trailing lone backslash is invalid. */
static int unescape(char *s, size_t len)
{
	char *dst = s;
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '\\') {
			if (i == len - 1)
				return 0;
			i++;
			if (s[i] == 'n')
				*dst++ = '\n';
			else if (s[i] == 'r')
				*dst++ = '\r';
			else if (s[i] == '\\')
				*dst++ = '\\';
			else
				return 0;
		} else if (s[i] == '\0') {
			return 0;
		} else {
			*dst++ = s[i];
		}
	}
	if (dst < s + len)
		*dst = '\0';
	return 1;
}

/*
 * "SHA1 (NAME) = HEX" and OpenSSL's "SHA1(NAME)= HEX", after the "(": the
 * digest has *size bytes, in hex, or in base64 when b64; *size 0: any
 * whole number of bytes up to the command's largest (OpenSSL's SHAKE-128,
 * whose length is its digest's), set from the digest.
 */
static int split_bsd(char *s, size_t len, size_t *size, int b64, const char **hex, char **name,
		     int escaped, int *base64)
{
	size_t i;
	if (len == 0)
		return 0;
	i = len - 1;
	while (i && s[i] != ')')
		i--;
	if (s[i] != ')')
		return 0;
	*name = s;
	if (escaped && !unescape(s, i))
		return 0;
	s[i++] = '\0';
	while (iswhite(s[i]))
		i++;
	if (s[i] != '=')
		return 0;
	i++;
	while (iswhite(s[i]))
		i++;
	*hex = s + i;
	if (*size == 0) {
		size_t n = strlen(s + i);
		if (n < 2 || n % 2 || n > 2 * FASTSHA_MAX_DIGEST_SIZE)
			return 0;
		*size = n / 2;
	}
	if (b64 && strlen(s + i) == b64len(*size))
		return (*base64 = 1), b64_ok(s + i, *size);
	return hex_ok(s + i, 2 * *size);
}

/* An XOF's "-N" after its tag (SHAKE128-512): N bits, a multiple of 8 up
 * to the command's largest output; *i moves past it. 0 when there is none
 * or it is no such length. */
static size_t xof_suffix(const char *s, size_t *i)
{
	size_t k = *i, bits = 0;
	if (s[k] != '-' || s[k + 1] < '1' || s[k + 1] > '9')
		return 0;
	for (k++; s[k] >= '0' && s[k] <= '9'; k++) {
		bits = bits * 10 + (size_t)(s[k] - '0');
		if (bits > 8 * FASTSHA_MAX_DIGEST_SIZE)
			return 0;
	}
	if (bits % 8)
		return 0;
	*i = k;
	return bits / 8;
}

/*
 * GNU's split_3: every line form the *sum tools accept. s is NUL-terminated.
 * A tagged line is the tag, an optional space and "(" (GNU matches the tag
 * as a prefix, then tests for those); a tag not taken here (under
 * sha256sum, SHA1's; with a key, every plain tag, as a tool of GNU's
 * treats another's) and a digest whose length is not its algorithm's
 * make the line misformatted.
 */
static int split_line(char *s, size_t len, const struct cli_alg *a, size_t size, int tags,
		      int *bsd_reversed, struct cli_check_line *out)
{
	int escaped = 0, b64 = (tags & CLI_DIGEST_B64) != 0, xof_open = 0;
	size_t i = 0, taglen = 0, dlen;
	while (iswhite(s[i]))
		i++;
	if (s[i] == '\\') {
		i++;
		escaped = 1;
	}
	const struct cli_alg *t = (tags & CLI_TAGS_HMAC) ? cli_alg_by_hmac_tag(s + i, &taglen)
						       : cli_alg_by_tag(s + i, &taglen, &xof_open);
	/* OpenSSL's names ("SHA2-256", "HMAC-SHA2-256", longer than the row's
	 * own "SHA256" and "HMAC-SHA256") only where every tag is taken: under
	 * a tool's name its own tag alone, as GNU's tool matches only its own
	 * (docs/check.md). */
	int own = t && taglen == strlen((tags & CLI_TAGS_HMAC) ? t->hmac_tag : t->tag);
	if (t && ((tags & CLI_TAGS_ANY) || (t == a && own))) {
		size_t n = t->size, k = i + taglen;
		if (xof_open)
			n = 0; /* OpenSSL's SHAKE-128: the digest's length */
		else if (t->xof && b64 && s[k] == '-')
			n = xof_suffix(s, &k);
		if (n || xof_open) {
			if (s[k] == ' ')
				k++;
			if (s[k] == '(') {
				k++;
				out->alg = t;
				if (!split_bsd(s + k, len - k, &n, b64, &out->hex, &out->name,
					       escaped, &out->base64))
					return 0;
				out->size = n;
				return 1;
			}
		}
		/* No tagged line: with base64 perhaps a digest that starts like
		 * a tag ("SHA1..."), as GNU cksum 9.9 and later read it. */
		if (!b64)
			return 0;
	}
	/* The digest, a blank, and at least one character of name. (A tag
	 * refused above fails here: tags, HMAC's too, do not start with a
	 * hex digit.) With base64 the digest is the hex or base64 form of
	 * size bytes, told apart by their lengths; base64 can start with a
	 * tag's letters, and is looked for here when no tagged line was. */
	out->alg = a;
	out->size = size;
	dlen = 2 * size;
	if (b64) {
		size_t tok = strcspn(s + i, " \t");
		if (tok == b64len(size) && tok != dlen) {
			dlen = tok;
			out->base64 = 1;
		}
	}
	if (len - i < dlen + 2 + (size_t)(s[i] == '\\'))
		return 0;
	out->hex = s + i;
	i += dlen;
	if (!iswhite(s[i]))
		return 0;
	s[i++] = '\0';
	if (out->base64 ? !b64_ok(out->hex, size) : !hex_ok(out->hex, dlen))
		return 0;
	if (len - i == 1 || (s[i] != ' ' && s[i] != '*')) {
		if (*bsd_reversed == 0)
			return 0;
		*bsd_reversed = 1;
	} else if (*bsd_reversed != 1) {
		*bsd_reversed = 0;
		i++; /* the ' ' or '*' mode marker; meaningless on POSIX */
	}
	out->name = s + i;
	if (escaped)
		return unescape(s + i, len - i);
	return 1;
}

/* Comments, empty lines, the trailing "\n" then "\r": both parsers'. */
static int trim(char *s, size_t *len, struct cli_check_line *out)
{
	memset(out, 0, sizeof *out);
	if (*len == 0 || s[0] == '#')
		return 0;
	/* GNU strips one '\n', then one '\r' (CRLF lists from elsewhere). */
	*len -= s[*len - 1] == '\n';
	*len -= s[*len - (*len > 0)] == '\r';
	if (*len == 0)
		return 0;
	s[*len] = '\0';
	out->len = *len;
	return 1;
}

enum cli_line_kind cli_check_parse_line(char *s, size_t len, const struct cli_alg *alg,
					size_t size, int tags, int *bsd_reversed,
					struct cli_check_line *out)
{
	if (!trim(s, &len, out))
		return CLI_LINE_SKIP;
	struct cli_check_line got = *out;
	if (!split_line(s, len, alg, size, tags, bsd_reversed, &got) || !got.name)
		return CLI_LINE_BAD;
	*out = got;
	return CLI_LINE_OK;
}

/* ---- GNU cksum 9.10 ------------------------------------------------------- */

void cli_cksum_state_init(struct cli_cksum_state *st, int gnu, int specified, uint64_t bits)
{
	st->gnu = gnu;
	st->specified = specified;
	st->bits = bits ? bits : cli_gnu_at((size_t)gnu)->bits;
	st->hexd = (size_t)(st->bits / 4);
	st->bsd_reversed = -1;
}

static int is_sha2_size(uint64_t bits)
{
	return bits == 224 || bits == 256 || bits == 384 || bits == 512;
}

/* GNU's algorithm_from_tag(): the tag ends at a blank, '-', '(' or the
 * end, is at most the longest tag long, and must be one exactly. */
static int gnu_tag(const char *s)
{
	size_t max = 0, i = 0;
	for (size_t k = 0; k < cli_gnu_count(); k++)
		if (strlen(cli_gnu_at(k)->tag) > max)
			max = strlen(cli_gnu_at(k)->tag);
	while (i <= max && s[i] && !iswhite(s[i]) && s[i] != '-' && s[i] != '(')
		i++;
	if (i > max)
		return -1;
	for (size_t k = 0; k < cli_gnu_count(); k++)
		if (strlen(cli_gnu_at(k)->tag) == i && strncmp(s, cli_gnu_at(k)->tag, i) == 0)
			return (int)k;
	return -1;
}

/* gnulib's xstrtoumax() with base 0 and no suffixes: leading white space,
 * no '-', decimal, 0x hex or 0 octal; *end after the digits. */
static int gnu_number(const char *s, char **end, uint64_t *v)
{
	const char *q = s;
	while (isspace((unsigned char)*q))
		q++;
	if (*q == '-')
		return 0;
	errno = 0;
	uintmax_t x = strtoumax(s, end, 0);
	if (*end == s || errno == ERANGE || x > UINT64_MAX)
		return 0;
	*v = (uint64_t)x;
	return 1;
}

/* GNU's valid_digits(): the dlen characters at d (then the line's end or
 * the NUL put after the digest) are the base64 form of the current length
 * or as many hex digits as its digest_hex_bytes, which GNU keeps apart from
 * the length and which a line can leave different (st->hexd). */
static int gnu_digits(const char *d, size_t dlen, const struct cli_cksum_state *st,
		      struct cli_check_line *out)
{
	size_t n = (size_t)(st->bits / 8);
	out->base64 = 0;
	if (dlen == b64len(n)) {
		out->size = n;
		out->base64 = 1;
		return b64_ok(d, n);
	}
	out->size = dlen / 2;
	return dlen == st->hexd && hex_ok(d, dlen);
}

/* GNU cksum's split_3(), line by line the same tests in the same order. */
static int cksum_split(char *s, size_t len, struct cli_cksum_state *st,
		       struct cli_check_line *out)
{
	int escaped = 0;
	size_t i = 0;
	while (iswhite(s[i]))
		i++;
	if (s[i] == '\\') {
		i++;
		escaped = 1;
	}
	if (!st->specified || st->gnu == CLI_GNU_SHA2) {
		int t = gnu_tag(s + i);
		if (!st->specified) {
			/* Without -a only tagged lines, and not the CRCs' and sums'. */
			if (t < 0 || cli_gnu_at((size_t)t)->kind == CLI_GNU_NOCHECK)
				return 0;
			st->gnu = t;
		} else if (t >= CLI_GNU_SHA224 && t <= CLI_GNU_SHA2) {
			st->gnu = t; /* -a sha2 takes SHA2 and SHA224 .. SHA512, for good */
		}
	}
	const struct cli_gnu_alg *g = cli_gnu_at((size_t)st->gnu);
	size_t parse_offset = i, taglen = strlen(g->tag);
	if (strncmp(s + i, g->tag, taglen) == 0) {
		i += taglen;
		st->bits = g->bits;
		if (s[i] == '-') {
			char *end;
			uint64_t n;
			i++;
			if (!gnu_number(s + i, &end, &n))
				return 0;
			if (g->kind == CLI_GNU_SIZED) {
				if (!is_sha2_size(n))
					return 0;
			} else if (!(n > 0 && n <= st->bits && n % 8 == 0)) {
				return 0;
			}
			i = (size_t)(end - s);
			st->bits = n;
		}
		st->hexd = (size_t)(st->bits / 4);
		if (s[i] == ' ')
			i++;
		if (s[i] == '(') {
			/* GNU's bsd_split_3(): the name ends at the last ')'. */
			char *b = s + i + 1;
			size_t blen = len - i - 1, k;
			if (blen == 0)
				return 0;
			k = blen - 1;
			while (k && b[k] != ')')
				k--;
			if (b[k] != ')')
				return 0;
			out->name = b;
			if (escaped && !unescape(b, k))
				return 0;
			b[k++] = '\0';
			while (iswhite(b[k]))
				k++;
			if (b[k] != '=')
				return 0;
			k++;
			while (iswhite(b[k]))
				k++;
			out->hex = b + k;
			return gnu_digits(b + k, blen - k, st, out);
		}
		/* Perhaps a base64 digest that starts like a tag ("SHA1..."). */
		i = parse_offset;
	}
	/* GNU's minimum line: 3 characters (a digest of -l 8, a blank, a name). */
	if (len - i < 3 + (size_t)(s[i] == '\\'))
		return 0;
	out->hex = s + i;
	if (g->kind == CLI_GNU_SIZED || g->kind == CLI_GNU_BLAKE2B) {
		/* The length from the digest: hex digits, or base64 (hex is a
		 * subset of base64: the hex count wins when it is a length). */
		/* GNU counts into its digest_hex_bytes itself: a line that
		 * fails here leaves the count behind for the next one. */
		size_t b64d, eq = 0;
		const char *p = s + i;
		st->hexd = 0;
		for (; isxdigit((unsigned char)*p); p++)
			st->hexd++;
		b64d = st->hexd;
		for (; isb64(*p); p++)
			b64d++;
		for (; *p == '='; p++)
			eq++;
		if (g->kind == CLI_GNU_SIZED && !is_sha2_size((uint64_t)(st->hexd / 2) * 8)) {
			static const size_t sizes[] = { 28, 32, 48, 64 };
			size_t k = 0;
			while (k < 4 && b64len(sizes[k]) != b64d + eq)
				k++;
			if (k == 4)
				return 0;
			st->hexd = 2 * sizes[k];
		} else if (g->kind == CLI_GNU_BLAKE2B && st->hexd < b64d) {
			for (size_t j = 8; j <= 512; j += 8) {
				if (b64len(j / 8) == b64d + eq && j % 3 == eq) {
					st->hexd = j / 4;
					break;
				}
			}
		}
		if (st->hexd < 2 || st->hexd % 2 || st->hexd > 128)
			return 0;
		st->bits = (uint64_t)st->hexd * 4;
	}
	while (s[i] && !iswhite(s[i]))
		i++;
	if (i == len)
		return 0;
	size_t dlen = (size_t)(s + i - out->hex);
	s[i++] = '\0';
	if (!gnu_digits(out->hex, dlen, st, out))
		return 0;
	if (len - i == 1 || (s[i] != ' ' && s[i] != '*')) {
		if (st->bsd_reversed == 0)
			return 0;
		st->bsd_reversed = 1;
	} else if (st->bsd_reversed != 1) {
		st->bsd_reversed = 0;
		i++;
	}
	out->name = s + i;
	if (escaped)
		return unescape(s + i, len - i);
	return 1;
}

enum cli_line_kind cli_cksum_parse_line(char *s, size_t len, struct cli_cksum_state *st,
					struct cli_check_line *out)
{
	if (!trim(s, &len, out))
		return CLI_LINE_SKIP;
	struct cli_check_line got = *out;
	if (!cksum_split(s, len, st, &got) || !got.name)
		return CLI_LINE_BAD;
	*out = got;
	out->alg = cli_gnu_row((size_t)st->gnu, st->bits);
	if (cli_gnu_at((size_t)st->gnu)->kind == CLI_GNU_FIXED)
		out->alg = cli_gnu_row((size_t)st->gnu, 0);
	/* out->size can exceed the algorithm's: -a sha2 and a SHA-512 length
	 * left behind, then a refused "SHA256-12" switching to SHA-256. GNU
	 * then compares bytes its SHA-256 did not write; the caller fails
	 * such a line (cli_check.c). */
	return out->alg ? CLI_LINE_OK : CLI_LINE_LACKS;
}
