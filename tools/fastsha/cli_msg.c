/* SPDX-License-Identifier: MIT */
/*
 * The command's voice: its name, messages on stderr, file names quoted and
 * escaped the way GNU's tools do, hex digests, and the one check that
 * every write to standard output got there.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wctype.h>

#include "cli.h"

const char *cli_program = "fastsha";
static int gnu_write_error;
static int write_errno;       /* first failed write on stdout */
static int had_write_error;
static int stdout_parked;     /* fd 1 was closed at start (cli_note_stdout_closed) */
static int gnu_tail;          /* GNU's line-buffered stdout would still hold output (cli_note_stdout_tail) */

void cli_msg_init(const char *argv0, int gnu_style_write_error)
{
	if (argv0 && *argv0)
		cli_program = argv0;
	gnu_write_error = gnu_style_write_error;
}

void cli_note_stdout_closed(void)
{
	stdout_parked = 1;
}

void cli_note_stdout_tail(int unterminated)
{
	gnu_tail = unterminated;
}

void cli_note_stdout(void)
{
	if (!had_write_error && ferror(stdout)) {
		had_write_error = 1;
		write_errno = errno;
	}
}

/*
 * Like GNU's error(): standard output first, so the two interleave in order.
 * The message is built in memory and goes to the unbuffered stderr in one
 * fwrite(), one write(): written piece by piece it took five (the name,
 * the quoted file name, ": ", the reason, the newline), so a --check list
 * with 1,000 missing files of 10,000 made 6,004 write() calls where 2,004
 * do (strace -f -c; GNU sha256sum 9.1 makes 4,003 there). Without memory
 * for the buffer the pieces go straight to stderr as before.
 */
struct message {
	FILE *f;
	char *buf;
	size_t len;
};

static FILE *begin_message(struct message *m)
{
	fflush(stdout);
	cli_note_stdout();
	gnu_tail = 0; /* GNU's error() flushes stdout too */
	m->buf = NULL;
	m->len = 0;
	m->f = open_memstream(&m->buf, &m->len);
	if (!m->f)
		m->f = stderr;
	fprintf(m->f, "%s: ", cli_program);
	return m->f;
}

static void end_message(struct message *m)
{
	fputc('\n', m->f);
	if (m->f == stderr)
		return;
	/* A failed close (no memory for the last piece) still leaves what
	 * was built: it is written, as far as it went. */
	fclose(m->f);
	if (m->buf)
		fwrite(m->buf, 1, m->len, stderr);
	free(m->buf);
}

void cli_error(int err, const char *fmt, ...)
{
	va_list ap;
	struct message m;
	FILE *f = begin_message(&m);
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	if (err)
		fprintf(f, ": %s", strerror(err));
	end_message(&m);
}

void cli_error_name(const char *name, const char *fmt, ...)
{
	va_list ap;
	struct message m;
	FILE *f = begin_message(&m);
	cli_quote(f, name);
	fputs(": ", f);
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	end_message(&m);
}

/*
 * GNU's close_stdout(), run at exit: a write error on standard output,
 * however early, makes the exit status 1 with one message. fastsha gives
 * the first failed write's reason. Under a GNU tool's name, the reason GNU
 * 9.1 gives: its close_stream() keeps errno only when fclose() fails, and
 * after a failed flush fclose() fails only in close(), so "write error"
 * alone for a full disk or a broken pipe, "write error: Bad file
 * descriptor" when standard output was closed (>&-; GNU's close() of the
 * missing fd fails, ours closes the descriptor parked there). GNU's stdout
 * is line-buffered, so that holds only while every line it wrote ended in
 * a newline: with -z the last records wait in its buffer (unless a message
 * on stderr flushed them), fclose() fails in that flush and keeps its
 * errno, and 9.1 says "write error: No space left on device" (`sha256sum
 * -z f > /dev/full`; `sha256sum -z f missing` flushes at the message and
 * says "write error"). A failed write on stderr makes the status 1
 * silently.
 */
void cli_close_stdout(void)
{
	int bad, err;
	if (fflush(stdout) != 0)
		cli_note_stdout();
	bad = had_write_error;
	err = write_errno;
	errno = 0;
	const int close_failed = fclose(stdout) != 0;
	const int close_errno = errno;
	if (close_failed && !bad && close_errno != EBADF) {
		bad = 1;
		err = close_errno;
	}
	if (bad) {
		if (gnu_write_error)
			err = stdout_parked ? EBADF
			      : gnu_tail    ? err
			      : close_failed ? close_errno
					     : 0;
		if (!err)
			fprintf(stderr, "%s: write error\n", cli_program);
		else
			fprintf(stderr, "%s: write error: %s\n", cli_program, strerror(err));
		_exit(1);
	}
	if (ferror(stderr))
		_exit(1);
}

/* Valid UTF-8 sequence length at s (max n bytes), 0 when invalid. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t len;
	unsigned c = s[0];
	if (c < 0xc2)
		return 0;
	len = c < 0xe0 ? 2 : c < 0xf0 ? 3 : c < 0xf5 ? 4 : 0;
	if (!len || len > n)
		return 0;
	for (size_t k = 1; k < len; k++)
		if ((s[k] & 0xc0) != 0x80)
			return 0;
	if ((c == 0xe0 && s[1] < 0xa0) || (c == 0xf0 && s[1] < 0x90) || (c == 0xf4 && s[1] > 0x8f) ||
	    (c == 0xed && s[1] > 0x9f))
		return 0;
	return len;
}

/* glibc's C.UTF-8: the classes a UTF-8 locale's iswprint() gives,
 * whatever the locale of the run. Not built into libc: newlocale() reads
 * /usr/lib/locale/C.utf8/LC_CTYPE (Debian's libc-bin; glibc's own
 * localedata since 2.35), and without it printable_len() falls back to
 * the C1 controls alone. */
static locale_t utf8_locale;
static pthread_once_t utf8_once = PTHREAD_ONCE_INIT;

static void open_utf8_locale(void)
{
	utf8_locale = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
}

/*
 * The length of the printable character at s (max n bytes), 0 when the
 * bytes are no valid UTF-8 or the character is not printable: gnulib's
 * quoting escapes both byte by byte (`sha256sum $'\xc2\x85'` says
 * ''$'\302\205', as for U+0378, unassigned, and U+2028). Without that
 * locale, the C1 controls (U+0080..U+009F) are the unprintable ones.
 */
static size_t printable_len(const unsigned char *s, size_t n)
{
	size_t len = utf8_len(s, n);
	if (!len)
		return 0;
	static const unsigned char mask[] = { 0, 0, 0x1f, 0x0f, 0x07 };
	uint32_t cp = s[0] & mask[len];
	for (size_t k = 1; k < len; k++)
		cp = cp << 6 | (s[k] & 0x3f);
	pthread_once(&utf8_once, open_utf8_locale);
	if (utf8_locale)
		return iswprint_l((wint_t)cp, utf8_locale) ? len : 0;
	return cp >= 0x80 && cp < 0xa0 ? 0 : len;
}

/*
 * GNU's quotef() (gnulib quotearg, shell-escape style plus ':'), which
 * sha1sum uses for file names in messages; measured against sha1sum 9.1 in a
 * UTF-8 locale: names with shell specials are single-quoted, ' becomes '\'',
 * control bytes, invalid UTF-8 and unprintable characters (printable_len)
 * become $'\n' or $'\ooo', and a name whose only trouble is a single quote
 * among harmless characters is double-quoted.
 */
void cli_quote(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n = strlen(str);
	int need = 0, compat = 1, squote = 0;

	if (n == 0) {
		fputs("''", f);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		unsigned c = s[i];
		if (c >= 0x80) {
			size_t m = printable_len(s + i, n - i);
			if (!m) {
				need = 1;
				compat = 0;
			} else {
				i += m - 1;
			}
			continue;
		}
		if (c < 0x20 || c == 0x7f) {
			need = 1;
			compat = 0;
		} else if (c == '\'') {
			need = 1;
			squote = 1;
		} else if (c == ' ' || c == ':') {
			need = 1;
		} else if (c == '#' || c == '~') {
			if (i == 0)
				need = 1;
			else
				compat = 0;
		} else if (c == '{' || c == '}') {
			if (n == 1)
				need = 1;
			else
				compat = 0;
		} else if (strchr("!\"$&()*;<=>?[\\^`|", (int)c)) {
			need = 1;
			compat = 0;
		}
	}
	if (!need) {
		fputs(str, f);
		return;
	}
	if (squote && compat) {
		fprintf(f, "\"%s\"", str);
		return;
	}
	int dollar = 0;
	fputc('\'', f);
	for (size_t i = 0; i < n; i++) {
		unsigned c = s[i];
		size_t m = c >= 0x80 ? printable_len(s + i, n - i) : 1;
		int esc = (c < 0x20 || c == 0x7f || m == 0);
		if (esc) {
			static const char named[] = "\a\b\f\n\r\t\v";
			static const char letter[] = "abfnrtv";
			const char *p = c ? strchr(named, (int)c) : NULL;
			if (!dollar)
				fputs("'$'", f);
			dollar = 1;
			if (p)
				fprintf(f, "\\%c", letter[p - named]);
			else
				fprintf(f, "\\%03o", c);
			continue;
		}
		if (c == '\'') {
			/* Its leading ' also ends a $'...' run. */
			fputs("'\\''", f);
			dollar = 0;
			continue;
		}
		if (dollar) {
			fputs("''", f);
			dollar = 0;
		}
		fwrite(s + i, 1, m, f);
		i += m - 1;
	}
	fputc('\'', f);
}

/*
 * GNU's quote() (gnulib locale_quoting_style), for option arguments in
 * messages: C escapes for control bytes and backslash, invalid UTF-8,
 * unprintable characters and, outside a UTF-8 locale, every non-ASCII byte
 * in octal; the quotes are
 * ‘ ’ in a UTF-8 locale and ' ' (with \' inside) elsewhere.
 */
void cli_quote_locale(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n = strlen(str);
	int utf8;

	setlocale(LC_CTYPE, "");
	utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
	fputs(utf8 ? "\xe2\x80\x98" : "'", f);
	for (size_t i = 0; i < n; i++) {
		static const char named[] = "\a\b\f\n\r\t\v";
		static const char letter[] = "abfnrtv";
		unsigned c = s[i];
		size_t m = c >= 0x80 && utf8 ? printable_len(s + i, n - i) : 1;
		if (c >= 0x80 && (!utf8 || m == 0)) {
			fprintf(f, "\\%03o", c);
		} else if (c >= 0x80) {
			fwrite(s + i, 1, m, f);
			i += m - 1;
		} else if (c == '\\' || (c == '\'' && !utf8)) {
			fprintf(f, "\\%c", (int)c);
		} else if (c < 0x20 || c == 0x7f) {
			const char *p = c ? strchr(named, (int)c) : NULL;
			if (p)
				fprintf(f, "\\%c", letter[p - named]);
			else
				fprintf(f, "\\%03o", c);
		} else {
			fputc((int)c, f);
		}
	}
	fputs(utf8 ? "\xe2\x80\x99" : "'", f);
}

void cli_hex(const uint8_t *d, size_t n, char *out)
{
	static const char digits[] = "0123456789abcdef";
	for (size_t i = 0; i < n; i++) {
		out[2 * i] = digits[d[i] >> 4];
		out[2 * i + 1] = digits[d[i] & 15];
	}
	out[2 * n] = '\0';
}

size_t cli_base64(const uint8_t *d, size_t n, char *out)
{
	static const char a[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t o = 0;
	for (size_t i = 0; i < n; i += 3) {
		uint32_t v = (uint32_t)d[i] << 16;
		if (i + 1 < n)
			v |= (uint32_t)d[i + 1] << 8;
		if (i + 2 < n)
			v |= d[i + 2];
		out[o++] = a[v >> 18 & 63];
		out[o++] = a[v >> 12 & 63];
		out[o++] = i + 1 < n ? a[v >> 6 & 63] : '=';
		out[o++] = i + 2 < n ? a[v & 63] : '=';
	}
	out[o] = '\0';
	return o;
}

/* GNU's print_filename(): with escape, \ \n \r become \\ \\n \\r. */
void cli_print_name(const char *name, int escape)
{
	if (!escape) {
		fputs(name, stdout);
		return;
	}
	for (const char *p = name; *p; p++) {
		if (*p == '\n')
			fputs("\\n", stdout);
		else if (*p == '\r')
			fputs("\\r", stdout);
		else if (*p == '\\')
			fputs("\\\\", stdout);
		else
			putchar(*p);
	}
}
