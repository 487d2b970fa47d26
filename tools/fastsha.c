/* SPDX-License-Identifier: MIT */
/*
 * fastsha: a drop-in for GNU coreutils' sha1sum (9.x output, --check rules,
 * messages and exit codes; docs/check.md), plus the seeds' extras: -s
 * strings, --self-test, --bench, --time (McCurley's command line, seed 004),
 * backend choice, parallel hashing of many files, and a progress bar.
 *
 * This file: options, hash mode's output, messages and name quoting.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/*
 * 128 KiB reads: 16 KiB costs 4% more CPU per GiB, 64 KiB..1 MiB are equal
 * within noise (docs/benchmarks.md). Mapping is opt-in (--mmap): here it
 * never measured faster than read() with read-ahead (cli_read.c).
 */
struct cli_opts cli_opts = { .bufsize = 128 * 1024, .use_mmap = 0 };
unsigned cli_jobs;

static int write_errno;       /* first failed write on stdout */
static int had_write_error;

enum {
	OPT_TAG = 256, OPT_IGNORE_MISSING, OPT_QUIET, OPT_STATUS, OPT_STRICT, OPT_HELP,
	OPT_VERSION, OPT_SELF_TEST, OPT_BENCH, OPT_TIME, OPT_BACKEND, OPT_LIST_BACKENDS,
	OPT_NO_MMAP, OPT_MMAP, OPT_PROGRESS, OPT_BUFFER_SIZE, OPT_NO_READ_AHEAD
};

static const struct option long_options[] = {
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
	{ "self-test", no_argument, NULL, OPT_SELF_TEST },
	{ "bench", no_argument, NULL, OPT_BENCH },
	{ "time", no_argument, NULL, OPT_TIME },
	{ "backend", required_argument, NULL, OPT_BACKEND },
	{ "list-backends", no_argument, NULL, OPT_LIST_BACKENDS },
	{ "no-mmap", no_argument, NULL, OPT_NO_MMAP },
	{ "mmap", no_argument, NULL, OPT_MMAP },
	{ "no-read-ahead", no_argument, NULL, OPT_NO_READ_AHEAD },
	{ "jobs", required_argument, NULL, 'j' },
	{ "progress", no_argument, NULL, OPT_PROGRESS },
	{ "buffer-size", required_argument, NULL, OPT_BUFFER_SIZE },
	{ NULL, 0, NULL, 0 }
};

static void usage(int status)
{
	if (status != 0) {
		fprintf(stderr, "Try '%s --help' for more information.\n", CLI_NAME);
		exit(status);
	}
	fputs("Usage: fastsha [OPTION]... [FILE]...\n"
	      "Print or check SHA-1 (160-bit) checksums; a drop-in for sha1sum.\n"
	      "\n"
	      "With no FILE, or when FILE is -, read standard input.\n"
	      "  -b, --binary          read in binary mode (marks lines with '*')\n"
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
	      "  -s, --string=STR      hash the string STR (repeatable; no stdin then)\n"
	      "  -j, --jobs=N          hash N files at once (default: online CPUs);\n"
	      "                          output stays in argument order\n"
	      "      --mmap            map regular files of 4 MiB and more (SIGBUS-safe)\n"
	      "      --no-mmap         always read() (the default; undoes --mmap)\n"
	      "      --no-read-ahead   no helper thread reading ahead of the hashing\n"
	      "      --progress        progress bar on stderr when it is a terminal\n"
	      "      --time            seconds and MB/s per input, on stderr\n"
	      "      --backend=NAME    use this SHA-1 backend (see --list-backends)\n"
	      "      --list-backends   list the built backends and whether this CPU runs them\n"
	      "      --self-test       known-answer tests under every backend\n"
	      "      --bench           quick speed table per backend\n"
	      "      --help            display this help and exit\n"
	      "      --version         print the version and the backend in use\n"
	      "\n"
	      "SHA-1 is broken for collision resistance: use it to detect accidental\n"
	      "damage, not to defend against an attacker.\n"
	      "Exit status: 0 success, 1 a file or check failed or bad usage,\n"
	      "2 --backend named a backend that is unknown or that this CPU lacks.\n",
	      stdout);
	exit(0);
}

void cli_error(int err, const char *fmt, ...)
{
	va_list ap;
	fflush(stdout);
	fprintf(stderr, "%s: ", CLI_NAME);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (err)
		fprintf(stderr, ": %s", strerror(err));
	fputc('\n', stderr);
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

/*
 * GNU's quotef() (gnulib quotearg, shell-escape style plus ':'), which
 * sha1sum uses for file names in messages; measured against sha1sum 9.1 in a
 * UTF-8 locale: names with shell specials are single-quoted, ' becomes '\'',
 * control bytes and invalid UTF-8 become $'\n' or $'\ooo', and a name whose
 * only trouble is a single quote among harmless characters is double-quoted.
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
			size_t m = utf8_len(s + i, n - i);
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
		size_t m = c >= 0x80 ? utf8_len(s + i, n - i) : 1;
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

const char *cli_strerror(const struct cli_job *job)
{
	return job->errmsg ? job->errmsg : strerror(job->err);
}

void cli_hex(const uint8_t d[FASTSHA1_DIGEST_SIZE], char out[2 * FASTSHA1_DIGEST_SIZE + 1])
{
	static const char digits[] = "0123456789abcdef";
	for (int i = 0; i < FASTSHA1_DIGEST_SIZE; i++) {
		out[2 * i] = digits[d[i] >> 4];
		out[2 * i + 1] = digits[d[i] & 15];
	}
	out[2 * FASTSHA1_DIGEST_SIZE] = '\0';
}

/* GNU's print_filename(): with escape, \ \n \r become \\ \n \r. */
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

void cli_print_timing(const struct cli_job *job, const char *name)
{
	double mbs = job->secs > 0 ? (double)job->bytes / job->secs / 1e6 : 0;
	fflush(stdout);
	fprintf(stderr, "%s: ", CLI_NAME);
	cli_quote(stderr, name);
	fprintf(stderr, ": %llu bytes in %.6f s, %.1f MB/s\n", (unsigned long long)job->bytes,
		job->secs, mbs);
}

/* Remember the first failed write on stdout; reported once, at exit. */
static void note_stdout_error(void)
{
	if (!had_write_error && ferror(stdout)) {
		had_write_error = 1;
		write_errno = errno;
	}
}

struct hash_ctx {
	int tag, binary;
	char delim;
	int failed;
};

static void print_digest_line(const struct hash_ctx *h, const char *name, const uint8_t *digest)
{
	char hex[2 * FASTSHA1_DIGEST_SIZE + 1];
	int escape = h->delim == '\n' && name[strcspn(name, "\\\n\r")] != '\0';
	cli_hex(digest, hex);
	if (escape)
		putchar('\\');
	if (h->tag) {
		fputs("SHA1 (", stdout);
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
	note_stdout_error();
}

static void emit_hash(struct cli_job *job, void *ctx)
{
	struct hash_ctx *h = ctx;
	cli_progress_clear();
	if (job->err || job->errmsg) {
		/* One message naming the input and the reason; no digest. */
		fflush(stdout);
		note_stdout_error();
		fprintf(stderr, "%s: ", CLI_NAME);
		cli_quote(stderr, job->path);
		fprintf(stderr, ": %s\n", cli_strerror(job));
		h->failed = 1;
		return;
	}
	print_digest_line(h, job->path, job->digest);
	if (cli_opts.timing)
		cli_print_timing(job, job->path);
}

/* Names FASTSHA_BACKEND when the library will ignore it, so a typo is seen. */
static void warn_env_backend(void)
{
	const char *env = getenv("FASTSHA_BACKEND");
	if (!env || !*env)
		return;
	for (size_t i = 0; i < fastsha1_backend_count(); i++) {
		if (strcmp(fastsha1_backend_name(i), env) != 0)
			continue;
		if (!fastsha1_backend_supported(i))
			cli_error(0, "warning: FASTSHA_BACKEND=%s ignored: this CPU cannot run it; using %s",
				  env, fastsha1_backend());
		return;
	}
	cli_error(0, "warning: FASTSHA_BACKEND=%s ignored: no such backend in this build; using %s",
		  env, fastsha1_backend());
}

static int select_backend(const char *name)
{
	int rc = fastsha1_use_backend(name);
	if (rc == FASTSHA_SELECT_OK)
		return 0;
	fflush(stdout);
	fprintf(stderr, "%s: backend '%s': ", CLI_NAME, name);
	if (rc == FASTSHA_SELECT_UNSUPPORTED) {
		fputs("this CPU cannot run it", stderr);
	} else {
		fputs("no such backend; built:", stderr);
		for (size_t i = 0; i < fastsha1_backend_count(); i++)
			fprintf(stderr, " %s", fastsha1_backend_name(i));
	}
	fputs(" (see --list-backends)\n", stderr);
	return 2;
}

static unsigned parse_jobs(const char *s)
{
	char *end;
	unsigned long v;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || v < 1 || v > 1024 || s[0] == '-') {
		cli_error(0, "invalid number of jobs: '%s' (want 1..1024)", s);
		usage(1);
	}
	return (unsigned)v;
}

static unsigned default_jobs(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > 64 ? 64 : (unsigned)n;
}

int main(int argc, char **argv)
{
	int do_check = 0, binary = -1, tag = 0, opt;
	int status_only = 0, warn = 0, quiet = 0, strict = 0, ignore_missing = 0;
	int self_test = 0, bench = 0, list = 0, progress = 0;
	char delim = '\n';
	const char *backend = NULL;
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

	/* getopt's own messages start with argv[0]; GNU's say the program name. */
	if (argc > 0)
		argv[0] = (char *)CLI_NAME;
	cli_jobs = default_jobs();

	while ((opt = getopt_long(argc, argv, "bctwzs:j:", long_options, NULL)) != -1) {
		switch (opt) {
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
		case OPT_HELP: usage(0); break;
		case OPT_VERSION:
			warn_env_backend();
			printf("%s %s (SHA-1 backend: %s)\n", CLI_NAME, fastsha_version(), fastsha1_backend());
			return fflush(stdout) == 0 ? 0 : 1;
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
		case 'j': cli_jobs = parse_jobs(optarg); break;
		case OPT_SELF_TEST: self_test = 1; break;
		case OPT_BENCH: bench = 1; break;
		case OPT_TIME: cli_opts.timing = 1; break;
		case OPT_BACKEND: backend = optarg; break;
		case OPT_LIST_BACKENDS: list = 1; break;
		case OPT_NO_MMAP: cli_opts.use_mmap = 0; break;
		case OPT_MMAP: cli_opts.use_mmap = 1; break;
		case OPT_NO_READ_AHEAD: cli_opts.no_read_ahead = 1; break;
		case OPT_PROGRESS: progress = 1; break;
		case OPT_BUFFER_SIZE: {
			/* For measuring the read size (docs/benchmarks.md). */
			char *end;
			unsigned long v = strtoul(optarg, &end, 10);
			if (*end == 'K' || *end == 'k')
				v <<= 10, end++;
			else if (*end == 'M')
				v <<= 20, end++;
			if (*end || v < 4096 || v > (64UL << 20)) {
				cli_error(0, "invalid buffer size: '%s' (4096..64M)", optarg);
				usage(1);
			}
			cli_opts.bufsize = v;
			break;
		}
		default: usage(1);
		}
	}

	/* The same checks, in the same order, as GNU sha1sum. */
	if (tag && !binary) {
		cli_error(0, "--tag does not support --text mode");
		usage(1);
	}
	if (delim != '\n' && do_check) {
		cli_error(0, "the --zero option is not supported when verifying checksums");
		usage(1);
	}
	if (tag && do_check) {
		cli_error(0, "the --tag option is meaningless when verifying checksums");
		usage(1);
	}
	if (binary >= 0 && do_check) {
		cli_error(0, "the --binary and --text options are meaningless when verifying checksums");
		usage(1);
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
				usage(1);
			}
		}
	}
	if (nstrings && do_check) {
		cli_error(0, "the --string option is meaningless when verifying checksums");
		usage(1);
	}
	if (binary < 0)
		binary = 0;

	if (backend) {
		int rc = select_backend(backend);
		if (rc)
			return rc;
	} else {
		warn_env_backend();
	}
	if (list) {
		cli_list_backends();
		return fflush(stdout) == 0 ? 0 : 1;
	}
	if (self_test)
		return cli_self_test();
	if (bench)
		return cli_bench();

	cli_opts.progress = progress && isatty(STDERR_FILENO);
	cli_opts.ignore_missing = ignore_missing;

	/* A big stdout buffer: one write() per many lines with 10,000 files. */
	static char outbuf[1 << 16];
	if (!isatty(STDOUT_FILENO))
		setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));

	int ok = 1;
	int nfiles = argc - optind;
	char *dash[] = { (char *)"-" };
	char **files = nfiles > 0 ? argv + optind : dash;
	if (nfiles == 0 && nstrings == 0)
		nfiles = 1;

	if (do_check) {
		struct cli_check_opts co = { status_only, quiet, warn, strict, ignore_missing };
		for (int i = 0; i < nfiles; i++)
			ok &= cli_check_file(files[i], &co);
	} else {
		struct hash_ctx h = { tag, binary, delim, 0 };
		for (size_t i = 0; i < nstrings; i++) {
			/* -s: the name shown is the string in double quotes. */
			uint8_t d[FASTSHA1_DIGEST_SIZE];
			size_t len = strlen(strings[i]);
			char *shown = malloc(len + 3);
			if (!shown) {
				cli_error(ENOMEM, "-s");
				return 1;
			}
			shown[0] = '"';
			memcpy(shown + 1, strings[i], len);
			memcpy(shown + 1 + len, "\"", 2);
			fastsha1(strings[i], len, d);
			print_digest_line(&h, shown, d);
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
				ndash += strcmp(files[i], "-") == 0;
			}
			/* Standard input read twice must be read in order: the
			 * second sees what the first left (usually nothing). */
			cli_run_jobs(jobs, (size_t)nfiles, ndash > 1 ? 1 : cli_jobs, emit_hash, &h);
			free(jobs);
		}
		ok = !h.failed;
	}
	free(strings);

	if (fflush(stdout) != 0)
		note_stdout_error();
	note_stdout_error();
	if (had_write_error) {
		cli_error(write_errno, "write error");
		ok = 0;
	}
	return ok ? 0 : 1;
}
