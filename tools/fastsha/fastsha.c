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
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

enum {
	OPT_TAG = 256, OPT_IGNORE_MISSING, OPT_QUIET, OPT_STATUS, OPT_STRICT, OPT_HELP,
	OPT_VERSION, OPT_SELF_TEST, OPT_BENCH, OPT_TIME, OPT_BACKEND, OPT_LIST_BACKENDS,
	OPT_NO_MMAP, OPT_MMAP, OPT_PROGRESS, OPT_BUFFER_SIZE, OPT_NO_READ_AHEAD, OPT_FSVERITY,
	OPT_HMAC_KEY_FILE
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
	{ NULL, 0, NULL, 0 }
};

/* Run under a GNU tool's name (sha256sum, fastsha256sum): that tool's
 * algorithm, and its --check takes only that algorithm's tagged lines. */
static const struct cli_alg *as_tool;

static void usage(int status, const struct cli_alg *a)
{
	if (status != 0) {
		fprintf(stderr, "Try '%s --help' for more information.\n", cli_program);
		exit(status);
	}
	/* sha1dcsum is the reference's command, not this one: sha1dc prints
	 * its family's (sha1sum's) lines. */
	printf("Usage: %s [OPTION]... [FILE]...\n", cli_program);
	if (fastsha_alg_detects(a->alg))
		printf("Print or check %s (%zu-bit) checksums, in %s's format.\n", a->tag,
		       8 * a->size, a->family->prog);
	else
		printf("Print or check %s (%zu-bit) checksums; a drop-in for %s.\n", a->tag,
		       8 * a->size, a->prog);
	printf("\n"
	       "With no FILE, or when FILE is -, read standard input.\n"
	       "  -a, --algorithm=ALG   hash with ALG:");
	for (size_t i = 0; i < cli_alg_count(); i++)
		printf(" %s", cli_alg_at(i)->name);
	printf("\n                          (default: %s)\n",
	       (as_tool ? as_tool : cli_alg_default())->name);
	fputs("  -b, --binary          read in binary mode (marks lines with '*')\n"
	      "  -c, --check           read checksums from the FILEs and check them\n"
	      "      --tag             create a BSD-style checksum\n"
	      "  -t, --text            read in text mode (default)\n"
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
	if (as_tool)
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

/* -a: exactly one of the table's names, else GNU argmatch's message. */
static const struct cli_alg *parse_alg(const char *arg, const struct cli_alg *cur)
{
	const struct cli_alg *a = cli_alg_by_name(arg);
	if (a)
		return a;
	fflush(stdout);
	fprintf(stderr, "%s: invalid argument ", cli_program);
	cli_quote_locale(stderr, arg);
	fputs(" for ", stderr);
	cli_quote_locale(stderr, "--algorithm");
	fputs("\nValid arguments are:\n", stderr);
	for (size_t i = 0; i < cli_alg_count(); i++) {
		fputs("  - ", stderr);
		cli_quote_locale(stderr, cli_alg_at(i)->name);
		fputc('\n', stderr);
	}
	usage(1, cur);
	return NULL;
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
	const char *tagname; /* --tag's: alg's BSD tag, or its HMAC tag */
	int tag, binary;
	char delim;
	int failed;
};

static void print_digest_line(const struct hash_ctx *h, const char *name, const uint8_t *digest)
{
	char hex[2 * FASTSHA_MAX_DIGEST_SIZE + 1];
	int escape = h->delim == '\n' && name[strcspn(name, "\\\n\r")] != '\0';
	size_t nlen = strlen(name);
	if (!escape && !h->tag && nlen <= 1024) {
		/* The usual line built whole and written with one fwrite(): one
		 * stdio lock a line instead of five. With 10,000 small files the
		 * pieces took about 2% of the run (perf, docs/benchmarks-history.md). */
		char line[2 * FASTSHA_MAX_DIGEST_SIZE + 3 + 1024];
		size_t hl = 2 * h->alg->size;
		cli_hex(digest, h->alg->size, line);
		line[hl] = ' ';
		line[hl + 1] = h->binary ? '*' : ' ';
		memcpy(line + hl + 2, name, nlen);
		line[hl + 2 + nlen] = h->delim;
		fwrite(line, 1, hl + 3 + nlen, stdout);
		cli_note_stdout();
		return;
	}
	cli_hex(digest, h->alg->size, hex);
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
	cli_hex(job->digest, h->alg->size, hex);
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
		if (f->family == f && strlen(f->name) == n && strncmp(s, f->name, n) == 0)
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
							 cli_alg_at(i)->name);
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
		fprintf(stderr, "no such backend; built for %s:", a->family->name);
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
	if (errno || end == s || *end || v < 1 || v > 1024 || s[0] == '-') {
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

/* "fastsha 0.3.0", or GNU's "sha256sum (fastsha) 0.3.0" under a tool's name. */
static void version(void)
{
	const char *base = strrchr(cli_program, '/');
	base = base ? base + 1 : cli_program;
	if (as_tool)
		printf("%s (fastsha) %s\n", base, fastsha_version());
	else
		printf("fastsha %s\n", fastsha_version());
	cli_print_backends_summary();
	exit(0);
}

int main(int argc, char **argv)
{
	const struct cli_alg *alg;
	int do_check = 0, binary = -1, tag = 0, opt;
	int status_only = 0, warn = 0, quiet = 0, strict = 0, ignore_missing = 0;
	int self_test = 0, bench = 0, list = 0, progress = 0, alg_given = 0;
	int verbose = 0, all = 0;
	char delim = '\n';
	const char *backend = NULL, *key_file = NULL;
	const char **strings = NULL;
	size_t nstrings = 0;

	/*
	 * A closed stdin/stdout/stderr would let open() hand out fd 0, 1 or 2
	 * to an input while another -j worker reads "-" from fd 0. Park an
	 * O_PATH descriptor there: read() and write() on it still fail with
	 * EBADF, which is what the user sees from GNU too.
	 */
	for (int fd = 0; fd < 3; fd++)
		if (fcntl(fd, F_GETFD) < 0 && errno == EBADF)
			open("/dev/null", O_PATH | O_CLOEXEC);

	/* Messages start with argv[0], as GNU's (and getopt's) do. */
	if (argc < 1 || !argv[0] || !*argv[0]) {
		static char fallback[] = "fastsha";
		argv[0] = fallback;
	}
	/* sha1dcsum is not a GNU tool: it is the reference SHA1DC command. */
	if (cli_dcsum_prog(argv[0]))
		return cli_dcsum_main(argc, argv);
	as_tool = cli_alg_by_prog(argv[0]);
	alg = as_tool ? as_tool : cli_alg_default();
	cli_msg_init(argv[0], as_tool != NULL);
	atexit(cli_close_stdout);
	cli_opts.jobs = default_jobs();

	while ((opt = getopt_long(argc, argv, "a:bctwzs:j:", long_options, NULL)) != -1) {
		switch (opt) {
		case 'a': alg = parse_alg(optarg, alg), alg_given = 1; break;
		case 'b': binary = 1; break;
		case 't': binary = 0; break;
		case 'c': do_check = 1; break;
		case 'z': delim = '\0'; break;
		case OPT_TAG: tag = 1; binary = 1; break;
		case OPT_STATUS: status_only = 1; warn = 0; quiet = 0; break;
		case 'w': status_only = 0; warn = 1; quiet = 0; break;
		case OPT_QUIET: status_only = 0; warn = 0; quiet = 1; break;
		case OPT_STRICT: strict = 1; break;
		case OPT_IGNORE_MISSING: ignore_missing = 1; break;
		case OPT_HELP: usage(0, alg); break;
		case OPT_VERSION:
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
	{
		/* Options that only mean something to --check, in GNU's order. */
		const struct {
			int set;
			const char *name;
		} check_only[] = {
			{ ignore_missing, "--ignore-missing" }, { status_only, "--status" },
			{ warn, "--warn" }, { quiet, "--quiet" }, { strict, "--strict" },
		};
		for (size_t i = 0; !do_check && i < sizeof(check_only) / sizeof(check_only[0]); i++) {
			if (check_only[i].set) {
				cli_error(0, "the %s option is meaningful only when verifying checksums",
					  check_only[i].name);
				usage(1, alg);
			}
		}
	}
	if (nstrings && do_check) {
		cli_error(0, "the --string option is meaningless when verifying checksums");
		usage(1, alg);
	}
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
		if (!alg->hmac_tag[0]) {
			cli_error(0, "--hmac-key-file: there is no HMAC with %s; use -a sha1 "
				     "(SHA-1's collisions do not weaken HMAC-SHA1)",
				  alg->name);
			usage(1, alg);
		}
	}
	if (cli_opts.fsverity) {
		/* fs-verity has SHA-256 (its default) and SHA-512, and one output form. */
		static const char *const refused[] = { "--check", "--tag", "--binary or --text",
						       "--zero", "--string" };
		int set[] = { do_check, tag, binary >= 0, delim != '\n', nstrings > 0 };
		for (size_t i = 0; i < sizeof(set) / sizeof(set[0]); i++) {
			if (set[i]) {
				cli_error(0, "the %s option cannot be used with --fsverity", refused[i]);
				usage(1, alg);
			}
		}
		if (!alg_given && !as_tool)
			alg = cli_alg_by_name("sha256");
		if (alg->alg != FASTSHA_SHA256 && alg->alg != FASTSHA_SHA512) {
			cli_error(0, "--fsverity: fs-verity has no %s; use -a sha256 (the default) or -a sha512",
				  alg->name);
			usage(1, alg);
		}
	}
	if (binary < 0)
		binary = 0;

	if (backend) {
		int rc = select_backend(alg, backend);
		if (rc)
			return rc;
	} else {
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
		struct cli_check_opts co = { alg, as_tool == NULL, cli_opts.mac != NULL, status_only,
					     quiet, warn, strict, ignore_missing };
		for (int i = 0; i < nfiles; i++)
			ok &= cli_check_file(files[i], &co);
	} else {
		struct hash_ctx h = { alg, cli_opts.mac ? alg->hmac_tag : alg->tag, tag, binary, delim,
				      0 };
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
			unsigned ndash = 0;
			if (!jobs) {
				cli_error(ENOMEM, "jobs");
				return 1;
			}
			for (int i = 0; i < nfiles; i++) {
				jobs[i].path = files[i];
				jobs[i].alg = alg->alg;
				ndash += strcmp(files[i], "-") == 0;
			}
			/* Standard input read twice must be read in order: the
			 * second sees what the first left (usually nothing). */
			cli_run_jobs(jobs, (size_t)nfiles, ndash > 1 ? 1 : cli_opts.jobs,
				     cli_opts.fsverity ? emit_verity : emit_hash, &h);
			free(jobs);
		}
		ok = !h.failed;
	}
	free(strings);
	/* A write error on stdout is reported at exit (cli_close_stdout). */
	return ok ? 0 : 1;
}
