/* SPDX-License-Identifier: MIT */
/*
 * fastsha: a drop-in for GNU coreutils' sha1sum..sha512sum (9.1 output,
 * --check rules, messages and exit codes; docs/check.md), plus the seeds'
 * extras: -s strings, --self-test, --bench, --time (McCurley's command line,
 * seed 004), backend choice, parallel hashing of many files, and a progress
 * bar. Run as sha256sum (or fastsha256sum) it is that tool; run as fastsha
 * it is sha1sum whose -a picks another algorithm and whose --check takes
 * every algorithm's tagged lines, as GNU cksum -c does. --hmac-key-file
 * makes it print and check HMACs in the same line forms (cli_key.c).
 *
 * This file: options, hash mode's output, main.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

enum {
	OPT_TAG = 256, OPT_IGNORE_MISSING, OPT_QUIET, OPT_STATUS, OPT_STRICT, OPT_HELP,
	OPT_VERSION, OPT_SELF_TEST, OPT_BENCH, OPT_TIME, OPT_BACKEND, OPT_LIST_BACKENDS,
	OPT_NO_MMAP, OPT_MMAP, OPT_PROGRESS, OPT_BUFFER_SIZE, OPT_NO_READ_AHEAD, OPT_FSVERITY,
	OPT_HMAC_KEY_FILE, OPT_UNTAGGED, OPT_BASE64, OPT_RAW
};

static const struct option long_options[] = {
	{ "algorithm", required_argument, NULL, 'a' },
	{ "binary", no_argument, NULL, 'b' },
	{ "check", no_argument, NULL, 'c' },
	{ "ignore-missing", no_argument, NULL, OPT_IGNORE_MISSING },
	{ "quiet", no_argument, NULL, OPT_QUIET },
	{ "status", no_argument, NULL, OPT_STATUS },
	{ "text", no_argument, NULL, 't' },
	{ "warn", no_argument, NULL, 'w' },
	{ "strict", no_argument, NULL, OPT_STRICT },
	{ "tag", no_argument, NULL, OPT_TAG },
	{ "zero", no_argument, NULL, 'z' },
	/* GNU cksum's (coreutils 9.8 and later), under every name. */
	{ "length", required_argument, NULL, 'l' },
	{ "untagged", no_argument, NULL, OPT_UNTAGGED },
	{ "base64", no_argument, NULL, OPT_BASE64 },
	{ "raw", no_argument, NULL, OPT_RAW },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ "string", required_argument, NULL, 's' },
	/* Their detail is an argument (--self-test=verbose, --bench=all), not
	 * an option of its own: --verbose would make GNU's --ver ambiguous,
	 * --all cksum's --al. */
	{ "self-test", optional_argument, NULL, OPT_SELF_TEST },
	{ "bench", optional_argument, NULL, OPT_BENCH },
	{ "time", no_argument, NULL, OPT_TIME },
	{ "backend", required_argument, NULL, OPT_BACKEND },
	{ "list-backends", no_argument, NULL, OPT_LIST_BACKENDS },
	{ "no-mmap", no_argument, NULL, OPT_NO_MMAP },
	{ "mmap", no_argument, NULL, OPT_MMAP },
	{ "no-read-ahead", no_argument, NULL, OPT_NO_READ_AHEAD },
	{ "jobs", required_argument, NULL, 'j' },
	{ "progress", no_argument, NULL, OPT_PROGRESS },
	{ "buffer-size", required_argument, NULL, OPT_BUFFER_SIZE },
	{ "fsverity", no_argument, NULL, OPT_FSVERITY },
	{ "hmac-key-file", required_argument, NULL, OPT_HMAC_KEY_FILE },
	/* --h stays --help, as in GNU's tools, now that --hmac-key-file
	 * shares its first letter: an exact match is never ambiguous. */
	{ "h", no_argument, NULL, OPT_HELP },
	/* And --l stays cksum's --length, --ba its --base64, beside
	 * --list-backends and --backend. */
	{ "l", required_argument, NULL, 'l' },
	{ "ba", no_argument, NULL, OPT_BASE64 },
	{ NULL, 0, NULL, 0 }
};

/*
 * GNU's long options, for the abbreviations they allow: the *sum tools of
 * coreutils 9.1 (digest.c) and cksum 9.10. An abbreviation unique among a
 * tool's own options is that option, so "--b" is sha256sum's --binary and
 * "--str" its --strict; among fastsha's longer list both are ambiguous.
 * cksum's list keeps --binary, so there "--b" stays ambiguous, as in GNU.
 */
static const char *const gnu_sum_options[] = { "binary", "check", "ignore-missing", "quiet",
					       "status", "text", "warn", "strict", "tag",
					       "zero", "help", "version", NULL };
static const char *const gnu_cksum_options[] = {
	"algorithm", "base64", "binary", "check",  "debug", "ignore-missing", "length",
	"quiet",     "raw",    "status", "strict", "tag",   "text",           "untagged",
	"warn",      "zero",   "help",   "version", NULL
};

/* long_options, then, under a GNU name, an exact-match entry for each
 * abbreviation GNU's tool takes as one option but fastsha's list does not
 * (glibc's getopt_long prefers an exact match). */
static struct option tool_options[sizeof(long_options) / sizeof(long_options[0]) + 96];
static char alias_names[96][16];

static const struct option *find_option(const struct option *t, const char *name, size_t n)
{
	for (; t->name; t++)
		if (strlen(t->name) == n && strncmp(t->name, name, n) == 0)
			return t;
	return NULL;
}

static const struct option *options_for(const char *const *gnu)
{
	if (!gnu)
		return long_options;
	size_t n = 0, aliases = 0;
	for (; long_options[n].name; n++)
		tool_options[n] = long_options[n];
	for (const char *const *g = gnu; *g; g++) {
		const struct option *full = find_option(long_options, *g, strlen(*g));
		if (!full) /* GNU's --debug: not here */
			continue;
		for (size_t len = 1; len < strlen(*g) && len < sizeof(alias_names[0]); len++) {
			size_t in_gnu = 0, clash = 0;
			for (const char *const *h = gnu; *h; h++)
				in_gnu += strncmp(*h, *g, len) == 0;
			for (const struct option *o = long_options; o->name; o++)
				clash += strncmp(o->name, *g, len) == 0 &&
					 (o->has_arg != full->has_arg || o->val != full->val);
			if (in_gnu != 1 || !clash || find_option(tool_options, *g, len) ||
			    aliases == sizeof(alias_names) / sizeof(alias_names[0]))
				continue;
			memcpy(alias_names[aliases], *g, len);
			alias_names[aliases][len] = '\0';
			tool_options[n] = *full;
			tool_options[n++].name = alias_names[aliases++];
		}
	}
	tool_options[n] = (struct option){ NULL, 0, NULL, 0 };
	return tool_options;
}

/* Run under a GNU tool's name (sha256sum, fastsha256sum): that tool's
 * algorithm, and its --check takes only that algorithm's tagged lines. */
static const struct cli_alg *as_tool;
/* Run as cksum (or fastcksum): GNU cksum 9.10 for the SHA algorithms. */
static int as_cksum;

static void usage(int status, const struct cli_alg *a)
{
	if (status != 0) {
		fprintf(stderr, "Try '%s --help' for more information.\n", cli_program);
		exit(status);
	}
	/* sha1dcsum is the reference's command, not this one: sha1dc prints
	 * its family's (sha1sum's) lines. */
	printf("Usage: %s [OPTION]... [FILE]...\n", cli_program);
	if (as_cksum)
		fputs("Print or check SHA checksums; a drop-in for GNU cksum (coreutils 9.8 and\n"
		      "later) with -a sha1, sha224 .. sha512, sha2 or sha3. There is no CRC here:\n"
		      "give -a (crc, md5, blake2b and sm3 are not provided).\n",
		      stdout);
	else if (!a)
		fputs("Print or check SHA-2 or SHA-3 checksums (-a sha2 or sha3, and -l).\n", stdout);
	else if (fastsha_alg_detects(a->alg))
		printf("Print or check %s (%zu-bit) checksums, in %s's format.\n", a->tag,
		       8 * a->size, a->family->prog);
	else if (a->prog[0])
		printf("Print or check %s (%zu-bit) checksums; a drop-in for %s.\n", a->tag,
		       8 * a->size, a->prog);
	else
		printf("Print or check %s (%zu-bit%s) checksums, in sha256sum's format.\n", a->tag,
		       8 * a->size, a->xof ? " by default" : "");
	printf("\n"
	       "With no FILE, or when FILE is -, read standard input.\n"
	       "  -a, --algorithm=ALG   hash with ALG:");
	for (size_t i = 0; i < cli_alg_count(); i++) /* the Keccak family on a line of its own */
		printf("%s%s", strcmp(cli_alg_at(i)->fam, "keccak") == 0 && i &&
					 strcmp(cli_alg_at(i - 1)->fam, "keccak") != 0
				       ? "\n                         "
				       : " ",
		       cli_alg_at(i)->name);
	printf("\n                          or sha2, sha3 with -l (default: %s)\n",
	       as_cksum ? "none" : (as_tool ? as_tool : cli_alg_default())->name);
	fputs("  -l, --length=BITS     sha2, sha3: 224, 256, 384 or 512 (required);\n"
	      "                          shake128, shake256, k12: the output length,\n"
	      "                          a multiple of 8 up to 512 (default 256, 512, 256)\n"
	      "  -b, --binary          read in binary mode (marks lines with '*')\n"
	      "  -c, --check           read checksums from the FILEs and check them\n",
	      stdout);
	if (as_cksum)
		fputs("      --tag             create a BSD-style checksum (the default)\n"
		      "      --untagged        create a reversed style checksum, without digest type\n"
		      "  -t, --text            read in text mode (only with --untagged)\n",
		      stdout);
	else
		fputs("      --tag             create a BSD-style checksum\n"
		      "      --untagged        undo --tag (the default here)\n"
		      "  -t, --text            read in text mode (default)\n",
		      stdout);
	fputs("      --base64          emit base64-encoded digests, not hexadecimal\n"
	      "      --raw             emit a raw binary digest, not hexadecimal (one input)\n"
	      "  -z, --zero            end each output line with NUL, not newline,\n"
	      "                          and disable file name escaping\n"
	      "\n"
	      "Useful only when verifying checksums:\n"
	      "      --ignore-missing  don't fail or report status for missing files\n"
	      "      --quiet           don't print OK for each successfully verified file\n"
	      "      --status          don't output anything, status code shows success\n"
	      "      --strict          exit non-zero for improperly formatted checksum lines\n"
	      "  -w, --warn            warn about improperly formatted checksum lines\n"
	      "\n"
	      "fastsha's own options:\n"
	      "      --hmac-key-file=FILE  print or check the HMAC of each input under\n"
	      "                          the key in FILE (its bytes, raw; not -);\n"
	      "                          --tag writes HMAC-SHA256 (NAME) = HEX\n"
	      "  -s, --string=STR      hash the string STR (repeatable; no stdin then)\n"
	      "      --fsverity        print fs-verity file digests (sha256 or sha512,\n"
	      "                          default sha256), as 'fsverity digest' does\n"
	      "  -j, --jobs=N          hash N files at once (default: online CPUs);\n"
	      "                          output stays in argument order\n"
	      "      --mmap            map regular files of 4 MiB and more (SIGBUS-safe)\n"
	      "      --no-mmap         always read() (the default; undoes --mmap)\n"
	      "      --no-read-ahead   no helper thread reading ahead of the hashing\n"
	      "      --buffer-size=N[K|M]  the read() size, 4K..64M (default 128K)\n"
	      "      --progress        progress bar on stderr when it is a terminal\n"
	      "      --time            seconds and MB/s per input, on stderr\n"
	      "      --backend=NAME    use this backend for ALG's family (see --list-backends)\n"
	      "      --list-backends   list the built backends and whether this CPU runs them\n"
	      "      --self-test[=verbose]\n"
	      "                        known-answer tests of every algorithm under every\n"
	      "                          backend; =verbose: a line per algorithm and backend\n"
	      "      --bench[=all]     MB/s of one message and of batches, a line per algorithm\n"
	      "                          (ALG's alone with -a); =all: every backend\n"
	      "      --help            display this help and exit\n"
	      "      --version         print the version and the backends in use\n"
	      "\n",
	      stdout);
	if (as_cksum)
		fputs("With --check, tagged lines (SHA3-256 (NAME) = HEX, SHA256(NAME)= HEX) name\n"
		      "their algorithm; untagged ones need -a; digests in hex or base64, as GNU cksum.\n",
		      stdout);
	else if (as_tool)
		printf("With --check, only %s tagged lines are taken, as %s takes them.\n",
		       as_tool->tag, as_tool->prog);
	else
		fputs("With --check, untagged lines are read as ALG; tagged lines (SHA256 (NAME) = HEX)\n"
		      "of every algorithm are taken, as GNU cksum -c takes them.\n",
		      stdout);
	fputs("SHA-1 is broken for collision resistance: use it to detect accidental\n"
	      "damage, not to defend against an attacker. sha1dc is SHA-1 that detects\n"
	      "the known collision attacks (as git's): such an input gets a different\n"
	      "digest, a message on stderr, and exit status 1.\n"
	      "Exit status: 0 success, 1 a file or check failed or bad usage,\n"
	      "2 --backend named a backend that is unknown or that this CPU lacks.\n"
	      "Full documentation: man fastsha\n",
	      stdout);
	exit(0);
}

/* "cksum", "fastsha": the command's own name in messages that name it. */
static const char *prog_base(void)
{
	const char *base = strrchr(cli_program, '/');
	return base ? base + 1 : cli_program;
}

/* What -a chose: a row of the table, or GNU's sha2 or sha3 waiting for -l
 * (alg NULL); gnu is GNU cksum's index for the name, -1 for fastsha's own. */
struct alg_choice {
	const struct cli_alg *alg;
	int gnu;
};

/* The advice of the messages about algorithms this command lacks. */
#define USE_INSTEAD "use -a sha1, -a sha2 -l N or -a sha3 -l N (N: 224, 256, 384 or 512)"

/* An algorithm of GNU cksum's that this command lacks (md5, blake2b, crc,
 * ...), named, with the way out. */
static void refuse_lacking(int gnu, const struct cli_alg *cur)
{
	fflush(stdout);
	fprintf(stderr, "%s: the ", cli_program);
	cli_quote_locale(stderr, cli_gnu_at((size_t)gnu)->arg);
	fprintf(stderr, " algorithm is not provided by %s; " USE_INSTEAD "\n",
		as_cksum ? "this cksum (fastsha)" : prog_base());
	usage(1, cur);
}

/* -a: exactly one of the table's names or GNU cksum's sha2, sha3; GNU's
 * others are taken here (alg NULL) and refused by main() only if no later
 * -a replaces them, as GNU's getopt loop keeps the last -a (digest.c:
 * main()); anything else is GNU argmatch's message, at once as in GNU. */
static struct alg_choice parse_alg(const char *arg, const struct cli_alg *cur)
{
	struct alg_choice c = { cli_alg_by_name(arg), cli_gnu_by_arg(arg) };
	if (c.alg || c.gnu >= 0)
		return c;
	fflush(stdout);
	fprintf(stderr, "%s: invalid argument ", cli_program);
	cli_quote_locale(stderr, arg);
	fputs(" for ", stderr);
	cli_quote_locale(stderr, "--algorithm");
	fputs("\nValid arguments are:\n", stderr);
	for (size_t i = 0; i < cli_alg_count() + 2; i++) {
		fputs("  - ", stderr);
		cli_quote_locale(stderr, i < cli_alg_count() ? cli_alg_at(i)->name
				 : i == cli_alg_count()  ? "sha2"
							 : "sha3");
		fputc('\n', stderr);
	}
	usage(1, cur);
	return c;
}

/* Whether @s is a negative number to strtoul() and strtoumax(), which take
 * white space, then a sign, and negate what follows: " -18446744073709551615"
 * would wrap round to 1. -l and -j refuse it, as GNU's xstrtoumax() does. */
static int negative(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return *s == '-';
}

/* -l: GNU's xnumtoumax(): decimal, leading blanks and '+' allowed, too big
 * is the largest value (then refused below); anything else ends the run. */
static uint64_t parse_length(const char *arg)
{
	char *end;
	uintmax_t v;
	errno = 0;
	v = strtoumax(arg, &end, 10);
	if (negative(arg) || end == arg || *end) {
		fflush(stdout);
		fprintf(stderr, "%s: invalid length: ", cli_program);
		cli_quote_locale(stderr, arg);
		fputc('\n', stderr);
		exit(1);
	}
	return errno == ERANGE || v > UINT64_MAX ? UINT64_MAX : (uint64_t)v;
}

/* GNU's two-line refusal of a length: "invalid length: 'X'", then why. */
static void bad_length(const char *arg, const char *fmt, const char *tag)
{
	fflush(stdout);
	fprintf(stderr, "%s: invalid length: ", cli_program);
	cli_quote_locale(stderr, arg);
	fprintf(stderr, "\n%s: ", cli_program);
	if (tag) {
		const char *p = strstr(fmt, "%s");
		fwrite(fmt, 1, (size_t)(p - fmt), stderr);
		cli_quote_locale(stderr, tag);
		fputs(p + 2, stderr);
	} else {
		fputs(fmt, stderr);
	}
	fputc('\n', stderr);
	exit(1);
}

/* --self-test[=verbose], --bench[=all]: 1 when given @word, 0 without an
 * argument; anything else is GNU argmatch's message and exit 1. */
static int detail_arg(const char *opt, const char *word, const struct cli_alg *cur)
{
	if (!optarg)
		return 0;
	if (strcmp(optarg, word) == 0)
		return 1;
	fflush(stdout);
	fprintf(stderr, "%s: invalid argument ", cli_program);
	cli_quote_locale(stderr, optarg);
	fputs(" for ", stderr);
	cli_quote_locale(stderr, opt);
	fputs("\nValid arguments are:\n  - ", stderr);
	cli_quote_locale(stderr, word);
	fputc('\n', stderr);
	usage(1, cur);
	return 0;
}

struct hash_ctx {
	const struct cli_alg *alg;
	const char *tagname; /* --tag's: alg's BSD tag, "SHAKE128-512", or the HMAC tag */
	int tag, binary;
	char delim;
	int failed;
	size_t size;         /* digest bytes: alg->size, or an XOF's -l */
	int base64, raw;     /* --base64, --raw */
};

static void print_digest_line(const struct hash_ctx *h, const char *name, const uint8_t *digest)
{
	char hex[CLI_B64_MAX > 2 * FASTSHA_MAX_DIGEST_SIZE + 1 ? CLI_B64_MAX
							       : 2 * FASTSHA_MAX_DIGEST_SIZE + 1];
	int escape = h->delim == '\n' && name[strcspn(name, "\\\n\r")] != '\0';
	size_t nlen = strlen(name);
	if (h->raw) {
		/* cksum --raw: the digest's bytes, nothing else. */
		fwrite(digest, 1, h->size, stdout);
		cli_note_stdout();
		cli_note_stdout_tail(1);
		return;
	}
	if (!escape && !h->tag && !h->base64 && nlen <= 1024) {
		/* The usual line built whole and written with one fwrite(): one
		 * stdio lock a line instead of five. With 10,000 small files the
		 * pieces took about 2% of the run (perf, docs/benchmarks-history.md). */
		char line[2 * FASTSHA_MAX_DIGEST_SIZE + 3 + 1024];
		size_t hl = 2 * h->size;
		cli_hex(digest, h->size, line);
		line[hl] = ' ';
		line[hl + 1] = h->binary ? '*' : ' ';
		memcpy(line + hl + 2, name, nlen);
		line[hl + 2 + nlen] = h->delim;
		fwrite(line, 1, hl + 3 + nlen, stdout);
		cli_note_stdout();
		cli_note_stdout_tail(h->delim != '\n');
		return;
	}
	if (h->base64)
		cli_base64(digest, h->size, hex);
	else
		cli_hex(digest, h->size, hex);
	if (escape)
		putchar('\\');
	if (h->tag) {
		printf("%s (", h->tagname);
		cli_print_name(name, escape);
		fputs(") = ", stdout);
		fputs(hex, stdout);
	} else {
		fputs(hex, stdout);
		putchar(' ');
		putchar(h->binary ? '*' : ' ');
		cli_print_name(name, escape);
	}
	putchar(h->delim);
	cli_note_stdout();
	cli_note_stdout_tail(h->delim != '\n');
}

/*
 * sha1dc flagged the input as one half of a collision attack: its line
 * (the safe-hash digest) stands, this message follows it and the run will
 * exit 1, as after a read error, so that scripts notice (docs/cli.md).
 */
static void report_collision(struct hash_ctx *h, const char *name)
{
	cli_error_name(name, "SHA-1 collision attack detected");
	h->failed = 1;
}

static int emit_hash(struct cli_job *job, void *ctx)
{
	struct hash_ctx *h = ctx;
	cli_progress_clear();
	if (job->err || job->errmsg) {
		/* One message naming the input and the reason; no digest. */
		cli_error_name(job->path, "%s", cli_strerror(job));
		h->failed = 1;
		return 0;
	}
	print_digest_line(h, job->path, job->digest);
	if (job->detected)
		report_collision(h, job->path);
	if (cli_opts.timing)
		cli_print_timing(job, job->path);
	return 0;
}

/*
 * --fsverity: "sha256:HEX NAME", the name as given (no escaping), which is
 * what `fsverity digest` prints; like it, the first input that fails ends
 * the run with status 1 (the message is fastsha's own).
 */
static int emit_verity(struct cli_job *job, void *ctx)
{
	struct hash_ctx *h = ctx;
	char hex[2 * FASTSHA_MAX_DIGEST_SIZE + 1];
	if (job->err || job->errmsg) {
		cli_error_name(job->path, "%s", cli_strerror(job));
		h->failed = 1;
		return 1;
	}
	cli_hex(job->digest, h->size, hex);
	printf("%s:%s %s\n", h->alg->name, hex, job->path);
	cli_note_stdout();
	if (cli_opts.timing)
		cli_print_timing(job, job->path);
	return 0;
}

/* The family called by the n bytes at s ("sha256"), or NULL. */
static const struct cli_alg *family_named(const char *s, size_t n)
{
	for (size_t i = 0; i < cli_alg_count(); i++) {
		const struct cli_alg *f = cli_alg_at(i);
		if (f->family == f && strlen(f->fam) == n && strncmp(s, f->fam, n) == 0)
			return f;
	}
	return NULL;
}

/* Backend name in family f: 1 this CPU runs it, 0 it cannot, -1 not built. */
static int backend_state(const struct cli_alg *f, const char *name)
{
	for (size_t b = 0; b < fastsha_backend_count(f->alg); b++)
		if (strcmp(fastsha_backend_name(f->alg, b), name) == 0)
			return fastsha_backend_supported(f->alg, b);
	return -1;
}

/*
 * FASTSHA_BACKEND, as the library reads it ("name" for every family that
 * has it, "family:name" for one), checked for the family of a: an item the
 * library ignores there, or one that names nothing anywhere (a typo), is
 * named on stderr. An item for another family is that family's business.
 */
static void warn_env_backend(const struct cli_alg *a)
{
	const char *env = getenv("FASTSHA_BACKEND");

	while (env && *env) {
		size_t len = strcspn(env, ",");
		char item[128], why[128] = "";
		const char *colon;
		int st = 1;

		snprintf(item, sizeof item, "%.*s", (int)(len < sizeof item ? len : sizeof item - 1),
			 env);
		env += len + (env[len] == ',');
		colon = strchr(item, ':');
		if (colon) {
			const struct cli_alg *f = family_named(item, (size_t)(colon - item));
			if (!f) {
				strcpy(why, "no such family (");
				for (size_t i = 0; i < cli_alg_count(); i++)
					if (cli_alg_at(i)->family == cli_alg_at(i))
						snprintf(why + strlen(why), sizeof why - strlen(why), "%s%s",
							 why[strlen(why) - 1] == '(' ? "" : ", ",
							 cli_alg_at(i)->fam);
				strcat(why, ")");
			} else if (f == a->family) {
				st = backend_state(f, colon + 1);
			}
		} else if (*item) {
			st = backend_state(a->family, item);
			/* Not in this family: fine if another family has it. */
			for (size_t i = 0; st < 0 && i < cli_alg_count(); i++)
				if (cli_alg_at(i)->family == cli_alg_at(i) &&
				    backend_state(cli_alg_at(i), item) >= 0)
					st = 1;
		}
		if (st < 0)
			strcpy(why, "no such backend in this build");
		else if (st == 0)
			strcpy(why, "this CPU cannot run it");
		if (*why)
			cli_error(0, "warning: FASTSHA_BACKEND=%s ignored: %s; using %s", item, why,
				  fastsha_backend(a->alg));
	}
}

static int select_backend(const struct cli_alg *a, const char *name)
{
	int rc = fastsha_use_backend(a->alg, name);
	if (rc == FASTSHA_SELECT_OK)
		return 0;
	fflush(stdout);
	fprintf(stderr, "%s: backend '%s': ", cli_program, name);
	if (rc == FASTSHA_SELECT_UNSUPPORTED) {
		fputs("this CPU cannot run it", stderr);
	} else {
		fprintf(stderr, "no such backend; built for %s:", a->fam);
		for (size_t i = 0; i < fastsha_backend_count(a->alg); i++)
			fprintf(stderr, " %s", fastsha_backend_name(a->alg, i));
	}
	fputs(" (see --list-backends)\n", stderr);
	return 2;
}

static unsigned parse_jobs(const char *s, const struct cli_alg *a)
{
	char *end;
	unsigned long v;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || v < 1 || v > 1024 || negative(s)) {
		cli_error(0, "invalid number of jobs: '%s' (want 1..1024)", s);
		usage(1, a);
	}
	return (unsigned)v;
}

static unsigned default_jobs(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > 64 ? 64 : (unsigned)n;
}

/* "fastsha 0.3.1", or GNU's "sha256sum (fastsha) 0.3.1" under a tool's name. */
static void version(void)
{
	const char *base = strrchr(cli_program, '/');
	base = base ? base + 1 : cli_program;
	if (as_tool || as_cksum)
		printf("%s (fastsha) %s\n", base, fastsha_version());
	else
		printf("fastsha %s\n", fastsha_version());
	cli_print_backends_summary();
	exit(0);
}

/* The options that only --check reads, refused without it (GNU's order). */
static void check_only_options(int do_check, const int set[5], const struct cli_alg *alg)
{
	static const char *const name[] = { "--ignore-missing", "--status", "--warn", "--quiet",
					    "--strict" };
	for (size_t i = 0; !do_check && i < 5; i++) {
		if (set[i]) {
			cli_error(0, "the %s option is meaningful only when verifying checksums",
				  name[i]);
			usage(1, alg);
		}
	}
}

int main(int argc, char **argv)
{
	const struct cli_alg *alg;
	int do_check = 0, binary = -1, tag = 0, opt, binary_from_tag = 0;
	int status_only = 0, warn = 0, quiet = 0, strict = 0, ignore_missing = 0;
	int self_test = 0, bench = 0, list = 0, progress = 0, alg_given = 0;
	int verbose = 0, all = 0, base64 = 0, raw = 0, gnu = -1;
	int prefix_tag = -1; /* cksum's --tag (1) / --untagged (0), -1 neither */
	uint64_t length = 0;
	const char *length_str = "";
	char delim = '\n';
	const char *backend = NULL, *key_file = NULL;
	/* -s's strings: static, so that the usage errors' returns from main()
	 * after an -s leave the array reachable until exit, not leaked
	 * (LeakSanitizer: --raw -s x -s y); the normal end frees it. */
	static const char **strings;
	size_t nstrings = 0, outlen = 0;

	/*
	 * A closed stdin/stdout/stderr would let open() hand out fd 0, 1 or 2
	 * to an input while another -j worker reads "-" from fd 0. Park an
	 * O_PATH descriptor there: read() and write() on it still fail with
	 * EBADF, which is what the user sees from GNU too.
	 */
	for (int fd = 0; fd < 3; fd++)
		if (fcntl(fd, F_GETFD) < 0 && errno == EBADF) {
			open("/dev/null", O_PATH | O_CLOEXEC);
			if (fd == 1)
				cli_note_stdout_closed();
		}

	/* Messages start with argv[0], as GNU's (and getopt's) do. */
	if (argc < 1 || !argv[0] || !*argv[0]) {
		static char fallback[] = "fastsha";
		argv[0] = fallback;
	}
	/* sha1dcsum is not a GNU tool: it is the reference SHA1DC command. */
	if (cli_dcsum_prog(argv[0]))
		return cli_dcsum_main(argc, argv);
	as_tool = cli_alg_by_prog(argv[0]);
	as_cksum = cli_cksum_prog(argv[0]);
	/* cksum's default is GNU's crc, which is not here (refused below). */
	alg = as_tool ? as_tool : as_cksum ? NULL : cli_alg_default();
	if (as_cksum)
		gnu = CLI_GNU_CRC;
	/* GNU 9.1's tools say "write error" without the reason; cksum 9.10
	 * gives it, as fastsha does. */
	cli_msg_init(argv[0], as_tool != NULL);
	atexit(cli_close_stdout);
	cli_opts.jobs = default_jobs();

	const struct option *options =
		options_for(as_tool ? gnu_sum_options : as_cksum ? gnu_cksum_options : NULL);
	while ((opt = getopt_long(argc, argv, "a:l:bctwzs:j:", options, NULL)) != -1) {
		switch (opt) {
		case 'a': {
			struct alg_choice c = parse_alg(optarg, alg);
			alg = c.alg;
			gnu = c.gnu;
			alg_given = 1;
			break;
		}
		case 'l':
			length = parse_length(optarg);
			length_str = optarg;
			break;
		case 'b': binary = 1; binary_from_tag = 0; break;
		case 't': binary = 0; binary_from_tag = 0; break;
		case 'c': do_check = 1; break;
		case 'z': delim = '\0'; break;
		case OPT_TAG:
			tag = 1;
			prefix_tag = 1;
			if (!as_cksum) {
				/* sha1sum's --tag is binary mode; cksum 9.10's is not. */
				binary = 1;
				binary_from_tag = 1;
			}
			break;
		case OPT_UNTAGGED:
			tag = 0;
			prefix_tag = 0;
			if (binary_from_tag)
				binary = -1, binary_from_tag = 0;
			break;
		case OPT_BASE64: base64 = 1; break;
		case OPT_RAW: raw = 1; break;
		case OPT_STATUS: status_only = 1; warn = 0; quiet = 0; break;
		case 'w': status_only = 0; warn = 1; quiet = 0; break;
		case OPT_QUIET: status_only = 0; warn = 0; quiet = 1; break;
		case OPT_STRICT: strict = 1; break;
		case OPT_IGNORE_MISSING: ignore_missing = 1; break;
		case OPT_HELP: usage(0, alg); break;
		case OPT_VERSION:
			if (alg)
				warn_env_backend(alg);
			version();
			break;
		case 's': {
			const char **p = realloc(strings, (nstrings + 1) * sizeof(*p));
			if (!p) {
				cli_error(ENOMEM, "-s");
				return 1;
			}
			strings = p;
			strings[nstrings++] = optarg;
			break;
		}
		case 'j': cli_opts.jobs = parse_jobs(optarg, alg); break;
		case OPT_SELF_TEST:
			self_test = 1;
			verbose = detail_arg("--self-test", "verbose", alg);
			break;
		case OPT_BENCH:
			bench = 1;
			all = detail_arg("--bench", "all", alg);
			break;
		case OPT_TIME: cli_opts.timing = 1; break;
		case OPT_BACKEND: backend = optarg; break;
		case OPT_LIST_BACKENDS: list = 1; break;
		case OPT_NO_MMAP: cli_opts.use_mmap = 0; break;
		case OPT_MMAP: cli_opts.use_mmap = 1; break;
		case OPT_NO_READ_AHEAD: cli_opts.no_read_ahead = 1; break;
		case OPT_PROGRESS: progress = 1; break;
		case OPT_FSVERITY: cli_opts.fsverity = 1; break;
		case OPT_HMAC_KEY_FILE: key_file = optarg; break; /* the last one wins */
		case OPT_BUFFER_SIZE: {
			/* For measuring the read size (docs/benchmarks-history.md, "CLI"). */
			char *end;
			unsigned long v = strtoul(optarg, &end, 10);
			if (*end == 'K' || *end == 'k')
				v <<= 10, end++;
			else if (*end == 'M')
				v <<= 20, end++;
			if (*end || v < 4096 || v > (64UL << 20)) {
				cli_error(0, "invalid buffer size: '%s' (4096..64M)", optarg);
				usage(1, alg);
			}
			cli_opts.bufsize = v;
			break;
		}
		default: usage(1, alg);
		}
	}

	/*
	 * -l, checked as GNU cksum 9.10 checks it, first: sha2 and sha3 need
	 * one of the four lengths (except with -c, which reads them from the
	 * lines); an XOF takes a multiple of 8 up to 512 (GNU's blake2b rule);
	 * the others none (-l 0 passes, as in GNU).
	 */
	int sized = gnu >= 0 && cli_gnu_at((size_t)gnu)->kind == CLI_GNU_SIZED;
	/* -a blake2b: GNU's length checks first, then refused (refuse_lacking). */
	int blake2b = !alg && gnu >= 0 && cli_gnu_at((size_t)gnu)->kind == CLI_GNU_BLAKE2B;
	if (length && !sized && !blake2b && !(alg && alg->xof)) {
		cli_error(0, "%s", as_cksum ? "--length is only supported with --algorithm blake2b, sha2, or sha3"
					  : "--length is only supported with --algorithm sha2, sha3, "
					    "shake128, shake256 or k12");
		return 1;
	}
	if (sized) {
		const struct cli_gnu_alg *g = cli_gnu_at((size_t)gnu);
		if (!length && !*length_str && !do_check) {
			cli_error(0, "--algorithm=%s requires specifying --length 224, 256, 384, or 512",
				  g->arg);
			return 1;
		}
		if ((!do_check || *length_str) && !cli_gnu_row((size_t)gnu, length))
			bad_length(length_str, "digest length for %s must be 224, 256, 384, or 512",
				   g->tag);
		alg = cli_gnu_row((size_t)gnu, length); /* NULL: -c reads the lengths */
	} else if ((alg && alg->xof) || blake2b) {
		if (length > 8 * FASTSHA_MAX_DIGEST_SIZE)
			bad_length(length_str, "maximum digest length for %s is 512 bits",
				   alg ? alg->tag : cli_gnu_at((size_t)gnu)->tag);
		if (length % 8)
			bad_length(length_str, "length is not a multiple of 8", NULL);
		outlen = length ? (size_t)(length / 8) : 0;
	}

	/* GNU refuses -c with an -a of bsd, sysv, crc or crc32b right after -l
	 * (digest.c: main()), without the usage line. */
	if (as_cksum && do_check && alg_given && gnu >= 0 &&
	    cli_gnu_at((size_t)gnu)->kind == CLI_GNU_NOCHECK) {
		cli_error(0, "--check is not supported with --algorithm={bsd,sysv,crc,crc32b}");
		return 1;
	}

	/* GNU's usage checks, in the order of the program emulated. */
	int check_only[5] = { ignore_missing, status_only, warn, quiet, strict };
	if (base64 && raw) {
		cli_error(0, "--base64 and --raw are mutually exclusive");
		usage(1, alg);
	}
	if (as_cksum) {
		/* cksum 9.10: tagged by default; --tag is refused with -c, not --untagged. */
		if (delim != '\n' && do_check) {
			cli_error(0, "the --zero option is not supported when verifying checksums");
			usage(1, alg);
		}
		if (prefix_tag == 1 && do_check) {
			cli_error(0, "the --tag option is meaningless when verifying checksums");
			usage(1, alg);
		}
		if (binary >= 0 && do_check) {
			cli_error(0, "the --binary and --text options are meaningless when verifying checksums");
			usage(1, alg);
		}
		check_only_options(do_check, check_only, alg);
		tag = prefix_tag != 0;
		if (tag && binary == 0) {
			cli_error(0, "--text mode is only supported with --untagged");
			usage(1, alg);
		}
	} else {
		/* The same checks, in the same order, as GNU's *sum tools. */
		if (tag && !binary) {
			cli_error(0, "--tag does not support --text mode");
			usage(1, alg);
		}
		if (delim != '\n' && do_check) {
			cli_error(0, "the --zero option is not supported when verifying checksums");
			usage(1, alg);
		}
		if (tag && do_check) {
			cli_error(0, "the --tag option is meaningless when verifying checksums");
			usage(1, alg);
		}
		if (binary >= 0 && do_check) {
			cli_error(0, "the --binary and --text options are meaningless when verifying checksums");
			usage(1, alg);
		}
		check_only_options(do_check, check_only, alg);
	}
	if (nstrings && do_check) {
		cli_error(0, "the --string option is meaningless when verifying checksums");
		usage(1, alg);
	}
	/* The last -a is one of GNU's this command lacks: refused once GNU's
	 * own usage errors had their turn, as the default crc is below. */
	if (alg_given && !alg && gnu >= 0 && !sized)
		refuse_lacking(gnu, alg);
	if (key_file) {
		/* The options that compute or report something other than the
		 * inputs' digests have no use for a key. */
		static const char *const refused[] = { "--fsverity", "--self-test", "--bench",
						       "--list-backends" };
		int set[] = { cli_opts.fsverity, self_test, bench, list };
		for (size_t i = 0; i < sizeof(set) / sizeof(set[0]); i++) {
			if (set[i]) {
				cli_error(0, "the %s option cannot be used with --hmac-key-file",
					  refused[i]);
				usage(1, alg);
			}
		}
		if (strcmp(key_file, "-") == 0) {
			cli_error(0, "--hmac-key-file: the key cannot be read from standard input "
				     "('-'); name a file");
			usage(1, alg);
		}
		if (alg && fastsha_alg_detects(alg->alg)) {
			cli_error(0, "--hmac-key-file: there is no HMAC with %s; use -a sha1 "
				     "(SHA-1's collisions do not weaken HMAC-SHA1)",
				  alg->name);
			usage(1, alg);
		}
		if (!alg) {
			/* No one algorithm: cksum without -a (its default, crc,
			 * is not here), or -a sha2 / sha3 without -l. */
			const char *given = gnu >= 0 ? cli_gnu_at((size_t)gnu)->arg : "";
			if (strcmp(given, "sha2") == 0 || strcmp(given, "sha3") == 0)
				cli_error(0, "--hmac-key-file: -a %s needs -l to name one algorithm; "
					     "HMAC is on sha1, sha224, sha256, sha384 and sha512",
					  given);
			else
				cli_error(0, "--hmac-key-file needs -a: HMAC is on sha1, sha224, "
					     "sha256, sha384 and sha512");
			usage(1, alg);
		}
		if (!alg->hmac_tag[0]) {
			cli_error(0, "--hmac-key-file: there is no HMAC with %s here; HMAC is on "
				     "sha1, sha224, sha256, sha384 and sha512",
				  alg->name);
			usage(1, alg);
		}
	}
	if (cli_opts.fsverity) {
		/* fs-verity has SHA-256 (its default) and SHA-512, and one output form. */
		static const char *const refused[] = { "--check", "--tag", "--binary or --text",
						       "--zero", "--string", "--base64", "--raw" };
		int set[] = { do_check, tag, binary >= 0, delim != '\n', nstrings > 0, base64, raw };
		for (size_t i = 0; i < sizeof(set) / sizeof(set[0]); i++) {
			if (set[i]) {
				cli_error(0, "the %s option cannot be used with --fsverity", refused[i]);
				usage(1, alg);
			}
		}
		if (!alg_given && !as_tool)
			alg = cli_alg_by_name("sha256");
		if (!alg || (alg->alg != FASTSHA_SHA256 && alg->alg != FASTSHA_SHA512)) {
			cli_error(0, "--fsverity: fs-verity has no %s; use -a sha256 (the default) or -a sha512",
				  alg ? alg->name : cli_gnu_at((size_t)gnu)->arg);
			usage(1, alg);
		}
	}
	if (binary < 0)
		binary = 0;

	/* cksum without -a: GNU's crc, which this command does not have. */
	int gnu_check = do_check && !key_file && gnu >= 0 && (as_cksum || !alg);
	if (!alg && !gnu_check && !self_test && !bench && !list) {
		fflush(stdout);
		fprintf(stderr, "%s: the default algorithm, crc, is not provided by this cksum (fastsha); "
				USE_INSTEAD "\n", cli_program);
		usage(1, alg);
	}
	const struct cli_alg *family_alg = alg ? alg : cli_alg_by_name("sha3-256");

	if (backend) {
		int rc = select_backend(alg ? alg : family_alg, backend);
		if (rc)
			return rc;
	} else if (alg) {
		warn_env_backend(alg);
	}
	if (list) {
		cli_list_backends();
		return 0;
	}
	if (self_test)
		return cli_self_test(verbose);
	if (bench)
		return cli_bench(alg_given || as_tool ? alg : NULL, all);

	cli_opts.progress = progress && isatty(STDERR_FILENO);
	cli_opts.ignore_missing = ignore_missing;

	int ok = 1;
	int nfiles = argc - optind;
	char *dash[] = { (char *)"-" };
	char **files = nfiles > 0 ? argv + optind : dash;
	if (raw && (size_t)nfiles + nstrings > 1) {
		cli_error(0, "the --raw option is not supported with multiple files");
		return 1;
	}
	if (nfiles == 0 && nstrings == 0)
		nfiles = 1;

	/* The key, last: it is read only once the run is known to go ahead,
	 * and prepared for every algorithm --check may meet (as fastsha,
	 * every algorithm's tags are taken). */
	if (key_file) {
		int stdin_read = 0;
		for (int i = 0; i < nfiles; i++)
			stdin_read |= strcmp(files[i], "-") == 0;
		cli_opts.mac = cli_key_load(key_file, alg, do_check && !as_tool, stdin_read);
		if (!cli_opts.mac)
			return 1;
	}

	/* A big stdout buffer: one write() per many lines with 10,000 files. */
	static char outbuf[1 << 16];
	if (!isatty(STDOUT_FILENO))
		setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));

	if (do_check) {
		/* GNU cksum's rules for its own names (or none); fastsha's, with
		 * every algorithm's tags and base64, for fastsha's names (and
		 * under cksum for those, sha3-256 ...); a tool's own for a tool. */
		struct cli_check_opts co = {
			.alg = alg ? alg : family_alg,
			.size = outlen ? outlen : (alg ? alg->size : 0),
			.b64 = as_tool == NULL,
			.cksum = gnu_check,
			.gnu = gnu,
			.gnu_specified = alg_given,
			.gnu_bits = length,
			/* As cksum with a key, -a's HMAC tag only, as GNU cksum
			 * -a takes only -a's tag (the key needs -a there). */
			.any_tag = as_tool == NULL && !(as_cksum && cli_opts.mac),
			.hmac = cli_opts.mac != NULL,
			.cksum_names = as_cksum,
			.prog = prog_base(),
			.status_only = status_only,
			.quiet = quiet,
			.warn = warn,
			.strict = strict,
			.ignore_missing = ignore_missing,
		};
		for (int i = 0; i < nfiles; i++)
			ok &= cli_check_file(files[i], &co);
	} else {
		/* Room for the tag and any size_t: without optimisation GCC 12
		 * cannot see that outlen is at most 64 and stops a Debug build
		 * with FASTSHA_WERROR on -Wformat-truncation. */
		char xtag[sizeof alg->tag + 22];
		struct hash_ctx h = { alg, cli_opts.mac ? alg->hmac_tag : alg->tag, tag, binary, delim,
				      0, outlen ? outlen : alg->size, base64, raw };
		if (outlen && outlen != alg->size) {
			/* An XOF's other lengths are tagged as GNU tags BLAKE2b's: TAG-BITS. */
			snprintf(xtag, sizeof xtag, "%s-%zu", alg->tag, 8 * outlen);
			h.tagname = xtag;
		}
		for (size_t i = 0; i < nstrings; i++) {
			/* -s: the name shown is the string in double quotes. */
			uint8_t d[FASTSHA_MAX_DIGEST_SIZE];
			size_t len = strlen(strings[i]);
			char *shown = malloc(len + 3);
			if (!shown) {
				cli_error(ENOMEM, "-s");
				return 1;
			}
			shown[0] = '"';
			memcpy(shown + 1, strings[i], len);
			memcpy(shown + 1 + len, "\"", 2);
			int detected = 0;
			if (cli_opts.mac) {
				fastsha_hmac_ctx c;
				fastsha_hmac_init(&c, &cli_opts.mac[alg->alg]);
				fastsha_hmac_update(&c, strings[i], len);
				fastsha_hmac_final(&c, d); /* and wipes c */
			} else if (outlen) {
				fastsha_xof(alg->alg, strings[i], len, d, outlen);
			} else {
				detected = fastsha_digest_detect(alg->alg, strings[i], len, d);
			}
			print_digest_line(&h, shown, d);
			if (detected > 0)
				report_collision(&h, shown);
			free(shown);
		}
		if (nfiles > 0) {
			struct cli_job *jobs = calloc((size_t)nfiles, sizeof(*jobs));
			if (!jobs) {
				cli_error(ENOMEM, "jobs");
				return 1;
			}
			for (int i = 0; i < nfiles; i++) {
				jobs[i].path = files[i];
				jobs[i].alg = alg->alg;
				jobs[i].outlen = outlen;
			}
			/* Standard input named twice is read in order there
			 * (shared_stream()): the second sees what the first left. */
			cli_run_jobs(jobs, (size_t)nfiles, cli_opts.jobs,
				     cli_opts.fsverity ? emit_verity : emit_hash, &h);
			cli_jobs_release();
			free(jobs);
		}
		ok = !h.failed;
	}
	free(strings);
	strings = NULL;
	/* A write error on stdout is reported at exit (cli_close_stdout). */
	return ok ? 0 : 1;
}
