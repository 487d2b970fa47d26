/* SPDX-License-Identifier: MIT */
/*
 * One line of a --check list, parsed: GNU coreutils 9.1's split_3 and
 * bsd_split_3 (docs/check.md). No I/O, no exit, no state of its own: the
 * "bsd reversed" flag GNU keeps across a run is the caller's, so the
 * command (cli_check.c) and the fuzz target (tests/fuzz/fuzz_check.c) run
 * the same code. Lists come from anywhere, often downloaded: every read
 * stays within s[0..len], the line and its terminating NUL.
 */
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

/* "SHA1 (NAME) = HEX" and OpenSSL's "SHA1(NAME)= HEX", after the "(". */
static int split_bsd(char *s, size_t len, size_t hexlen, const char **hex, char **name,
		     int escaped)
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
	return hex_ok(s + i, hexlen);
}

/*
 * GNU's split_3: every line form the *sum tools accept. s is NUL-terminated.
 * A tagged line is the tag, an optional space and "(" (GNU matches the tag
 * as a prefix, then tests for those); a tag not taken here (under
 * sha256sum, SHA1's; with a key, every plain tag, as a tool of GNU's
 * treats another's) and a digest whose length is not its algorithm's
 * make the line misformatted.
 */
static int split_line(char *s, size_t len, const struct cli_alg *a, int tags,
		      int *bsd_reversed, const char **hex, char **name, const struct cli_alg **alg)
{
	int escaped = 0;
	size_t i = 0, taglen = 0;
	while (iswhite(s[i]))
		i++;
	if (s[i] == '\\') {
		i++;
		escaped = 1;
	}
	const struct cli_alg *t = (tags & CLI_TAGS_HMAC) ? cli_alg_by_hmac_tag(s + i, &taglen)
						       : cli_alg_by_tag(s + i, &taglen);
	if (t && ((tags & CLI_TAGS_ANY) || t == a)) {
		i += taglen;
		if (s[i] == ' ')
			i++;
		if (s[i] != '(')
			return 0;
		i++;
		*alg = t;
		return split_bsd(s + i, len - i, t->hexlen, hex, name, escaped);
	}
	/* The digest, a blank, and at least one character of name. (A tag
	 * refused above fails here: tags, HMAC's too, do not start with a
	 * hex digit.) */
	*alg = a;
	if (len - i < a->hexlen + 2 + (size_t)(s[i] == '\\'))
		return 0;
	*hex = s + i;
	i += a->hexlen;
	if (!iswhite(s[i]))
		return 0;
	s[i++] = '\0';
	if (!hex_ok(*hex, a->hexlen))
		return 0;
	if (len - i == 1 || (s[i] != ' ' && s[i] != '*')) {
		if (*bsd_reversed == 0)
			return 0;
		*bsd_reversed = 1;
	} else if (*bsd_reversed != 1) {
		*bsd_reversed = 0;
		i++; /* the ' ' or '*' mode marker; meaningless on POSIX */
	}
	*name = s + i;
	if (escaped)
		return unescape(s + i, len - i);
	return 1;
}

enum cli_line_kind cli_check_parse_line(char *s, size_t len, const struct cli_alg *alg,
					int tags, int *bsd_reversed, struct cli_check_line *out)
{
	out->name = NULL;
	out->hex = NULL;
	out->alg = NULL;
	out->len = 0;
	if (len == 0 || s[0] == '#')
		return CLI_LINE_SKIP;
	/* GNU strips one '\n', then one '\r' (CRLF lists from elsewhere). */
	len -= s[len - 1] == '\n';
	len -= s[len - (len > 0)] == '\r';
	if (len == 0)
		return CLI_LINE_SKIP;
	s[len] = '\0';
	out->len = len;

	const char *hex = NULL;
	char *name = NULL;
	const struct cli_alg *a = NULL;
	if (!split_line(s, len, alg, tags, bsd_reversed, &hex, &name, &a))
		return CLI_LINE_BAD;
	out->name = name;
	out->hex = hex;
	out->alg = a;
	return CLI_LINE_OK;
}
