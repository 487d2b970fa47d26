/* SPDX-License-Identifier: MIT */
/*
 * --check: GNU coreutils 9.1's rules, line forms, messages and exit status
 * (docs/check.md says which and why). Untagged lines are read as the
 * selected algorithm; tagged lines ("SHA256 (NAME) = HEX") name their own,
 * any of them as GNU cksum -c takes them, or only the selected one as GNU's
 * sha256sum does. With --hmac-key-file the same rules hold for HMACs: the
 * tags are "HMAC-SHA256", a plain tag is improperly formatted. Digests and
 * tags are compared in constant time (fastsha_equal). Lines are parsed in
 * order, in batches; each batch's files are hashed by the -j workers, whose
 * runs of consecutive lines go through the lane kernels together when the
 * files are small (cli_hash_jobs), and reported in line order.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define BATCH 1024
#define LIST_BUF ((size_t)64 << 10)

/* One checksum line: a file to hash and the digest it should have, or a
 * misformatted line to count (and name under --warn) in its turn. */
struct line {
	char *text;        /* the line as modified by the parser */
	char *name;        /* the file name, unescaped; NULL: misformatted */
	const char *hex;   /* the listed digest: 2 * size hex digits (either case), or base64 */
	const struct cli_alg *alg; /* NULL with a name: an algorithm this command lacks */
	size_t size;       /* digest bytes listed (an XOF's length; GNU cksum's truncation) */
	int base64;
	const char *wtag;  /* -w's wording: the tag GNU names for this line */
	uintmax_t number;
};

struct state {
	const struct cli_check_opts *o;
	const char *checkfile; /* for messages: "standard input" for - */
	uintmax_t misformatted, mismatched, unreadable;
	uintmax_t collisions; /* inputs sha1dc detected, matched or not */
	uintmax_t lacking;    /* cksum: lines of an algorithm this command lacks */
	int any_proper, any_matched;
};

/*
 * "bsd reversed" (`HEX NAME`, one space): GNU keeps this across every line
 * of every checksum file of a run (cli_check_parse_line).
 */
static int bsd_reversed = -1;
/* GNU cksum's own run-wide state: the algorithm and length the lines so far
 * left behind (cli_cksum_parse_line). */
static struct cli_cksum_state cksum_state;
static int cksum_started;

static unsigned nibble(char c)
{
	return c <= '9' ? (unsigned)(c - '0') : (unsigned)((c | 0x20) - 'a' + 10);
}

/*
 * Whether the listed digest (2 * size hex digits, either case, checked by
 * the parser) is d. The comparison takes the same time wherever they
 * differ: an HMAC tag must not be found byte by byte by timing a
 * verifier, and plain digests go the same way.
 */
static int digest_equal(const char *hex, const uint8_t *d, size_t size)
{
	uint8_t want[FASTSHA_MAX_DIGEST_SIZE];
	for (size_t i = 0; i < size; i++)
		want[i] = (uint8_t)(nibble(hex[2 * i]) << 4 | nibble(hex[2 * i + 1]));
	return fastsha_equal(want, d, size);
}

/* A base64 digest is compared as GNU cksum does, as text with the
 * encoding of d (so only the canonical form matches), in constant time. */
static int digest_equal_b64(const char *b64, const uint8_t *d, size_t size)
{
	char mine[CLI_B64_MAX];
	size_t n = cli_base64(d, size, mine);
	unsigned diff = 0;
	for (size_t i = 0; i < n; i++)
		diff |= (unsigned)(mine[i] ^ b64[i]);
	return diff == 0;
}

static int emit_check(struct cli_job *job, void *ctx)
{
	struct state *st = ctx;
	struct line *ln = job->user;
	const struct cli_check_opts *o = st->o;

	cli_progress_clear();
	if (!ln->name) {
		st->misformatted++;
		if (o->warn)
			cli_error_name(st->checkfile, "%ju: improperly formatted %s checksum line",
				       ln->number, ln->wtag);
		return 0;
	}
	if (!ln->alg) {
		/* GNU cksum would check it (MD5, BLAKE2b, SM3): never a silent pass. */
		st->any_proper = 1;
		st->lacking++;
		if (!o->status_only)
			cli_error_name(st->checkfile,
				       "%ju: %s checksums are not provided by this %s (fastsha); "
				       "the line is not checked",
				       ln->number, ln->wtag, o->prog);
		return 0;
	}
	/* sha1sum 9.1 escapes a name in these lines only when it has a newline;
	 * cksum 9.4 and later also for a backslash or carriage return. */
	int escape = !o->status_only &&
		     ln->name[strcspn(ln->name, o->cksum || o->cksum_names ? "\n\\\r" : "\n")] !=
			     '\0';
	st->any_proper = 1;
	if (job->err || job->errmsg) {
		cli_error_name(ln->name, "%s", cli_strerror(job));
		st->unreadable++;
		if (!o->status_only) {
			if (escape)
				putchar('\\');
			cli_print_name(ln->name, escape);
			fputs(": FAILED open or read\n", stdout);
		}
		return 0;
	}
	if (job->missing)
		return 0;
	if (job->detected) {
		/* Half of a collision attack fails whatever digest is listed
		 * (docs/check.md): its own FAILED line and summary line. */
		st->collisions++;
		if (!o->status_only) {
			if (escape)
				putchar('\\');
			cli_print_name(ln->name, escape);
			fputs(": FAILED SHA-1 collision attack detected\n", stdout);
		}
		cli_note_stdout();
		if (cli_opts.timing)
			cli_print_timing(job, ln->name);
		return 0;
	}
	/* A listed digest longer than the algorithm's (GNU cksum's state can
	 * ask for that: cli_cksum_parse_line()) fails; GNU compares stale bytes. */
	int match = (ln->alg->xof || ln->size <= ln->alg->size) &&
		    (ln->base64 ? digest_equal_b64(ln->hex, job->digest, ln->size)
				: digest_equal(ln->hex, job->digest, ln->size));
	if (match)
		st->any_matched = 1;
	else
		st->mismatched++;
	if (!o->status_only) {
		if (!match || !o->quiet) {
			if (escape)
				putchar('\\');
			cli_print_name(ln->name, escape);
		}
		if (!match)
			fputs(": FAILED\n", stdout);
		else if (!o->quiet)
			fputs(": OK\n", stdout);
	}
	cli_note_stdout();
	if (cli_opts.timing)
		cli_print_timing(job, ln->name);
	return 0;
}

static void run_batch(struct line *lines, size_t n, struct state *st)
{
	struct cli_job *jobs = calloc(n ? n : 1, sizeof(*jobs));
	unsigned ndash = 0;
	if (!jobs) {
		cli_error(ENOMEM, "checking");
		exit(1);
	}
	for (size_t i = 0; i < n; i++) {
		jobs[i].user = &lines[i];
		jobs[i].path = lines[i].name;
		jobs[i].alg = lines[i].alg ? lines[i].alg->alg : FASTSHA_SHA1;
		if (lines[i].alg && lines[i].alg->xof)
			jobs[i].outlen = lines[i].size;
		if (!lines[i].alg)
			jobs[i].path = NULL; /* nothing to hash: a lacking algorithm's line */
		if (jobs[i].path)
			ndash += strcmp(lines[i].name, "-") == 0;
	}
	cli_run_jobs(jobs, n, ndash ? 1 : cli_opts.jobs, emit_check, st);
	free(jobs);
	for (size_t i = 0; i < n; i++)
		free(lines[i].text);
}

static const char *plural(uintmax_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

int cli_check_file(const char *checkfile, const struct cli_check_opts *o)
{
	int is_stdin = strcmp(checkfile, "-") == 0;
	struct state st = { .o = o, .checkfile = is_stdin ? "standard input" : checkfile };
	FILE *f = is_stdin ? stdin : fopen(checkfile, "r");
	struct line *lines;
	size_t nlines = 0;
	uintmax_t number = 0;
	char *buf = NULL;
	size_t cap = 0;
	int line_err = 0;

	if (!f) {
		cli_error_name(checkfile, "%s", strerror(errno));
		return 0;
	}
	/* The list through 64 KiB reads, not stdio's st_blksize (4 KiB):
	 * 10,000 lines (830 KB): the run made 192 read() calls, now 25
	 * (strace). Standard input's buffer is set before its first read
	 * (setvbuf() must come first; the key, the only other use of fd 0,
	 * is read without stdio) and lives as long as the stream; without
	 * the memory, stdio's own buffer. */
	static char *stdin_buf;
	char *listbuf = NULL;
	if (!is_stdin) {
		listbuf = malloc(LIST_BUF);
		if (listbuf)
			setvbuf(f, listbuf, _IOFBF, LIST_BUF);
	} else if (!stdin_buf && (stdin_buf = malloc(LIST_BUF)) != NULL) {
		setvbuf(stdin, stdin_buf, _IOFBF, LIST_BUF);
	}
	lines = calloc(BATCH, sizeof(*lines));
	if (!lines) {
		cli_error(ENOMEM, "checking");
		exit(1);
	}
	for (;;) {
		errno = 0;
		ssize_t len = getline(&buf, &cap, f);
		if (len <= 0) {
			/* getline() could not grow its buffer: the rest of the
			 * list was never read, which is no end of it (glibc
			 * before 2.37 leaves the stream's error flag clear). */
			if (errno == ENOMEM)
				line_err = ENOMEM;
			break;
		}
		number++;
		struct cli_check_line pl;
		enum cli_line_kind kind;
		const char *wtag;
		if (o->cksum) {
			if (!cksum_started) {
				cli_cksum_state_init(&cksum_state, o->gnu, o->gnu_specified,
						     o->gnu_bits);
				cksum_started = 1;
			}
			kind = cli_cksum_parse_line(buf, (size_t)len, &cksum_state, &pl);
			/* -w names the algorithm GNU's state has after the line. */
			wtag = cli_gnu_at((size_t)cksum_state.gnu)->tag;
		} else {
			int tags = (o->any_tag ? CLI_TAGS_ANY : 0) | (o->hmac ? CLI_TAGS_HMAC : 0) |
				   (o->b64 ? CLI_DIGEST_B64 : 0);
			kind = cli_check_parse_line(buf, (size_t)len, o->alg, o->size, tags,
						    &bsd_reversed, &pl);
			wtag = o->hmac ? o->alg->hmac_tag : o->alg->tag;
		}
		if (kind == CLI_LINE_SKIP)
			continue;

		/* The parsed line, kept until its batch is reported. */
		struct line *ln = &lines[nlines++];
		ln->number = number;
		ln->wtag = wtag;
		ln->text = malloc(pl.len + 1);
		if (!ln->text) {
			cli_error(ENOMEM, "checking");
			exit(1);
		}
		memcpy(ln->text, buf, pl.len + 1);
		if (kind != CLI_LINE_BAD && !(is_stdin && strcmp(pl.name, "-") == 0)) {
			ln->name = ln->text + (pl.name - buf);
			ln->hex = ln->text + (pl.hex - buf);
			ln->alg = pl.alg;
			ln->size = pl.size;
			ln->base64 = pl.base64;
		} else {
			ln->name = NULL;
			ln->alg = NULL;
		}
		if (nlines == BATCH) {
			run_batch(lines, nlines, &st);
			nlines = 0;
		}
	}
	run_batch(lines, nlines, &st);
	cli_jobs_release();
	free(lines);
	free(buf);

	/* GNU: a stream error says "read error"; a failed close says why, as
	 * does a line too long for the memory. */
	int read_err = line_err ? line_err : ferror(f) ? 0 : -1;
	if (is_stdin)
		clearerr(f);
	else if (fclose(f) != 0 && read_err < 0)
		read_err = errno;
	free(listbuf);
	if (read_err >= 0) {
		cli_error_name(st.checkfile, "%s", read_err ? strerror(read_err) : "read error");
		return 0;
	}
	if (!st.any_proper) {
		cli_error_name(st.checkfile, "no properly formatted checksum lines found");
	} else if (!o->status_only) {
		if (st.misformatted)
			cli_error(0, "WARNING: %ju %s", st.misformatted,
				  plural(st.misformatted, "line is improperly formatted",
					 "lines are improperly formatted"));
		if (st.unreadable)
			cli_error(0, "WARNING: %ju %s", st.unreadable,
				  plural(st.unreadable, "listed file could not be read",
					 "listed files could not be read"));
		if (st.mismatched)
			cli_error(0, "WARNING: %ju %s", st.mismatched,
				  plural(st.mismatched, "computed checksum did NOT match",
					 "computed checksums did NOT match"));
		if (st.collisions)
			cli_error(0, "WARNING: %ju %s", st.collisions,
				  plural(st.collisions, "listed file is a SHA-1 collision attack",
					 "listed files are SHA-1 collision attacks"));
		if (st.lacking)
			cli_error(0, "WARNING: %ju %s", st.lacking,
				  plural(st.lacking, "line was not checked (an algorithm this command lacks)",
					 "lines were not checked (an algorithm this command lacks)"));
		if (o->ignore_missing && !st.any_matched)
			cli_error_name(st.checkfile, "no file was verified");
	}
	return st.any_proper && st.any_matched && st.mismatched == 0 && st.unreadable == 0 &&
	       st.collisions == 0 && st.lacking == 0 && (!o->strict || st.misformatted == 0);
}
