/* SPDX-License-Identifier: MIT */
/*
 * Shared declarations of the fastsha command's parts, lowest layer first:
 *   cli_alg.c       the CLI's algorithm table (names, BSD tags, GNU tool names)
 *   cli_msg.c       the program's name, messages, name quoting, stdout errors
 *   cli_uring.c     a minimal io_uring (batched open, read, close), if the kernel has one
 *   cli_read.c      hashing inputs: read loop or guarded mmap, progress; small
 *                   files read whole and hashed together through the lanes
 *   cli_key.c       --hmac-key-file: the key read, prepared and wiped
 *   cli_verity.c    --fsverity: the fs-verity digest of an input
 *   cli_checkline.c one --check line parsed (uses cli_alg.c only; fuzzed)
 *   cli_jobs.c      -j: workers over an index, output strictly in order
 *   cli_check.c     --check (GNU coreutils 9.1's rules, see docs/check.md)
 *   cli_dcsum.c     run as sha1dcsum: the reference SHA1DC tool's command
 *   cli_selftest.c  --self-test, --bench, --list-backends, --version's backends
 *   fastsha.c       options, hash mode, main
 * Each uses only the ones above it. Only the public API (include/fastsha)
 * is used.
 */
#ifndef FASTSHA_CLI_H
#define FASTSHA_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "fastsha/fastsha.h"
#include "fastsha/mac.h"

/* ---- cli_alg.c ------------------------------------------------------------ */

/*
 * One algorithm the command offers. Everything but the -a name and the
 * family is derived from the library's descriptor (fastsha_alg_digest_size,
 * fastsha_alg_is_xof, fastsha_alg_detects).
 */
struct cli_alg {
	fastsha_alg alg;
	const struct cli_alg *family; /* the row owning its backend table (sha1, sha256, sha512,
					 sha3-256 for the Keccak family) */
	const char *name;             /* "sha256", "sha3-256": -a's value */
	const char *fam;              /* the family's name ("sha256", "keccak"): FASTSHA_BACKEND's
					 prefix, --list-backends */
	char tag[16];                 /* "SHA256", "SHA3-256": the BSD tag (--tag, --check, -w) */
	char prog[16];                /* "sha256sum": the GNU tool this one stands in for; "" for
					 the algorithms that have none (SHA-3 ...) */
	char hmac_tag[24];            /* "HMAC-SHA256": the tag with --hmac-key-file; "" where the
					 library has no HMAC (sha1dc, the Keccak family) */
	size_t size;                  /* digest bytes (an XOF's default output) */
	size_t hexlen;                /* 2 * size */
	int xof;                      /* extendable output: -l sets the length */
};

size_t cli_alg_count(void);
const struct cli_alg *cli_alg_at(size_t i);
const struct cli_alg *cli_alg_default(void); /* SHA-1: fastsha is sha1sum's drop-in */
const struct cli_alg *cli_alg_by_name(const char *name); /* exact, as GNU cksum -a */
const struct cli_alg *cli_alg_by_fastsha(fastsha_alg alg);
/* The tool argv0's basename names ("sha256sum", or "fastsha256sum"), or NULL. */
const struct cli_alg *cli_alg_by_prog(const char *argv0);
/* Whether argv0's basename is cksum or fastcksum: GNU cksum (docs/cli.md, "Run as cksum"). */
int cli_cksum_prog(const char *argv0);
/*
 * The algorithm whose BSD tag s starts with (*len set to its length), or
 * NULL; the longest tag that fits. OpenSSL's names are taken too
 * ("SHA2-256", "SHAKE-128"); *xof_open is then set when the tag gives no
 * length (OpenSSL's SHAKE-128: its digest's length is the output's).
 */
const struct cli_alg *cli_alg_by_tag(const char *s, size_t *len, int *xof_open);
/* The same for HMAC tags ("HMAC-SHA256", OpenSSL's "HMAC-SHA2-256"): never sha1dc. */
const struct cli_alg *cli_alg_by_hmac_tag(const char *s, size_t *len);

/*
 * GNU cksum's own algorithm list (coreutils 9.10, src/cksum.c): -a's
 * values, the tags it prints and checks, their default bits; @row is this
 * command's algorithm for it, NULL for the ones it lacks (crc, md5,
 * blake2b, sm3, ...). sha2 and sha3 pick a row by -l (cli_gnu_row()).
 */
enum cli_gnu_kind {
	CLI_GNU_NOCHECK, /* bsd, sysv, crc, crc32b: cksum -c refuses their lines */
	CLI_GNU_FIXED,   /* one digest size; "TAG-N" lines truncate it (N < bits, N % 8 == 0) */
	CLI_GNU_SIZED,   /* sha2, sha3: -l 224, 256, 384 or 512 */
	CLI_GNU_BLAKE2B, /* any multiple of 8 up to 512 */
};
struct cli_gnu_alg {
	const char *arg, *tag;
	unsigned bits;
	enum cli_gnu_kind kind;
};
size_t cli_gnu_count(void);
const struct cli_gnu_alg *cli_gnu_at(size_t i);
int cli_gnu_by_arg(const char *arg); /* index, or -1 */
/* This command's algorithm for GNU's algorithm i at @bits, or NULL. */
const struct cli_alg *cli_gnu_row(size_t i, uint64_t bits);
/* The GNU index of the default, crc, and of sha2, sha3. */
enum { CLI_GNU_CRC = 2, CLI_GNU_SHA224 = 6, CLI_GNU_SHA2 = 10, CLI_GNU_SHA3 = 11 };

/* ---- cli_msg.c ------------------------------------------------------------ */

/* argv[0] as given: every message starts with it, as GNU's do. */
extern const char *cli_program;

/* gnu_style_write_error: "write error" with a reason only where GNU 9.1 gives one. */
void cli_msg_init(const char *argv0, int gnu_style_write_error);
/* Standard output was closed at start (a descriptor is parked on fd 1):
 * GNU's write error then names EBADF. */
void cli_note_stdout_closed(void);
void cli_error(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "PROGRAM: NAME: message", NAME quoted as GNU's quotef does. */
void cli_error_name(const char *name, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cli_quote(FILE *f, const char *s);        /* GNU quotef: shell-escaped for messages */
void cli_quote_locale(FILE *f, const char *s); /* GNU quote: 'x' or, in UTF-8, ‘x’ */
void cli_hex(const uint8_t *d, size_t n, char *out); /* 2n digits and a NUL */
/* RFC 4648 base64 with '=' padding, as cksum --base64 prints it, and a
 * NUL; returns its length. CLI_B64_MAX holds the longest digest's. */
#define CLI_B64_MAX (4 * ((FASTSHA_MAX_DIGEST_SIZE + 2) / 3) + 1)
size_t cli_base64(const uint8_t *d, size_t n, char *out);
void cli_print_name(const char *name, int escape);
void cli_note_stdout(void);  /* after writing to stdout: remember the first error */
/* After a record on stdout: whether it ended without a newline (-z,
 * --raw), which GNU's line-buffered stdout would still hold at exit
 * (cli_close_stdout); a message on stderr flushes it, as GNU's error(). */
void cli_note_stdout_tail(int unterminated);
void cli_close_stdout(void); /* atexit: report a failed stdout, exit 1 */

/* ---- cli_uring.c ---------------------------------------------------------- */

/*
 * Operations queued on a ring run together in one system call. Each
 * completion reports the tag (@user) it was queued with and its result:
 * what the system call would return, or -errno.
 */
struct cli_ring;
/* A ring for up to @entries operations queued per run; NULL when this kernel or
 * build has no usable io_uring, or FASTSHA_NO_URING is set (non-empty, not "0"). */
struct cli_ring *cli_ring_new(unsigned entries);
void cli_ring_free(struct cli_ring *r);
void cli_ring_openat(struct cli_ring *r, const char *path, int flags, uint64_t user);
/* pread(): @off is an offset, so a pipe answers -ESPIPE and loses nothing. */
void cli_ring_pread(struct cli_ring *r, int fd, void *buf, uint32_t len, uint64_t off,
		    uint64_t user);
void cli_ring_close(struct cli_ring *r, int fd, uint64_t user);
/* Submits the queue and calls @done once per operation; 0, or -errno when
 * io_uring_enter() itself failed (then some operations may not have run). */
int cli_ring_run(struct cli_ring *r, void (*done)(void *ctx, uint64_t user, int res), void *ctx);

/* ---- cli_read.c ----------------------------------------------------------- */

/* How inputs are read; set once from the options, then read-only. */
struct cli_opts {
	size_t bufsize;      /* read() buffer per worker */
	unsigned jobs;       /* -j */
	int use_mmap;        /* --mmap */
	int pipeline;        /* a core is spare: big inputs get a reader thread */
	int no_read_ahead;   /* --no-read-ahead: never pipeline */
	int progress;        /* --progress and stderr is a terminal */
	int timing;          /* --time */
	int ignore_missing;  /* --check --ignore-missing: ENOENT is not an error */
	int fsverity;        /* --fsverity: fs-verity digests, not plain ones */
	const fastsha_hmac_key *mac; /* --hmac-key-file: HMACs under mac[job's alg]
					(cli_key_load()), not digests; else NULL */
	int key_is_stdin;    /* the key was read from standard input (/dev/stdin):
				a "-" in a checked list is not read as an input */
	unsigned spare;      /* CPUs beyond the -j workers (cli_run_jobs sets it) */
	int in_order;        /* two inputs may read one stream: one worker, no io_uring
				group (cli_run_jobs sets it) */
};

extern struct cli_opts cli_opts;

/* One input to hash, and what came of it. */
struct cli_job {
	const char *path;     /* "-" is standard input; NULL: nothing to hash */
	fastsha_alg alg;
	size_t outlen;        /* an XOF's output bytes (-l); 0 for its default size */
	void *user;           /* the emitter's own data */
	int err;              /* errno of the failure, 0 when the digest is valid */
	const char *errmsg;   /* a reason that is no errno (e.g. truncated mmap) */
	int missing;          /* ENOENT under --ignore-missing */
	int done;             /* set under the output lock */
	int detected;         /* with the digest: a collision attack was detected (sha1dc) */
	uint64_t bytes;       /* bytes hashed */
	double secs;          /* wall time spent on this input */
	uint8_t digest[FASTSHA_MAX_DIGEST_SIZE]; /* or the HMAC tag (cli_opts.mac) */
};

/* A -j worker's buffers (read buffer, batch of small files, --fsverity's). */
struct cli_worker;
struct cli_worker *cli_worker_new(void); /* NULL: out of memory */
void cli_worker_free(struct cli_worker *w);
void **cli_worker_verity(struct cli_worker *w); /* cli_verity.c's slot, freed with w */
/*
 * Hashes jobs[0..n) (those with a path): small regular files read whole
 * and hashed together by fastsha_many(), the others streamed one by one.
 * Each job ends with a digest, err/errmsg, or missing.
 */
void cli_hash_jobs(struct cli_worker *w, struct cli_job *jobs, size_t n);
/* Opens job's input (fd 0 for "-"); -1 when it failed (job->err or ->missing set). */
int cli_open_input(struct cli_job *job);
/* Closes what cli_open_input() opened; returns err, or close()'s error when err is 0. */
int cli_close_input(const struct cli_job *job, int fd, int err);
/* One read(): EINTR retried, EAGAIN waits in poll(). Bytes, 0 at EOF, or -errno. */
ssize_t cli_read_once(int fd, void *buf, size_t n);
uint8_t *cli_alloc_buffer(void);
double cli_now(void);
const char *cli_strerror(const struct cli_job *job);
void cli_print_timing(const struct cli_job *job, const char *name);

/* ---- cli_key.c ------------------------------------------------------------ */

/*
 * --hmac-key-file: reads FILE whole (any bytes, any length but 0) and
 * prepares it for @alg, or, when @every, for every algorithm of the table
 * that has an HMAC (the --check of fastsha, which takes every algorithm's
 * tags). @stdin_read: standard input is also an input of the run, so FILE
 * may not be it (/dev/stdin): the key would take the input's bytes. The
 * raw bytes are wiped as soon as the prepared keys exist; the prepared
 * keys are wiped at exit. Returns the prepared keys, indexed by
 * fastsha_alg (the others refused by fastsha_hmac_init()), or NULL after
 * a message that names FILE and never a byte of the key.
 */
const fastsha_hmac_key *cli_key_load(const char *path, const struct cli_alg *alg, int every,
				     int stdin_read);

/* ---- cli_verity.c --------------------------------------------------------- */

/*
 * The fs-verity digest (4096-byte blocks, no salt) of job's input under
 * job->alg (FASTSHA_SHA256 or FASTSHA_SHA512) into job->digest, as
 * `fsverity digest` computes it; bufs: the worker's slot for its buffers;
 * fd: the input, as cli_open_input() opened it at cli_now() @t0, closed
 * here. The caller opens it so that cli_jobs.c can keep the opens in
 * argument order (see open_turn() there).
 */
void cli_verity_job(struct cli_job *job, void **bufs, int fd, double t0);

/* ---- cli_checkline.c ----------------------------------------------------- */

enum cli_line_kind {
	CLI_LINE_SKIP, /* a comment ('#' first) or an empty line: not counted */
	CLI_LINE_BAD,  /* improperly formatted */
	CLI_LINE_OK,   /* a file and the digest it should have */
	CLI_LINE_LACKS, /* a file and a digest of an algorithm this command lacks (cksum -c) */
};

/* A parsed line; the pointers are into the caller's buffer. */
struct cli_check_line {
	char *name;                /* the file name, unescaped, NUL-terminated; NULL unless OK */
	const char *hex;           /* the digest as listed, NUL-terminated: 2 * size hex digits
				      (either case), or with @base64 its base64 form */
	const struct cli_alg *alg; /* the tag's algorithm, or the selected one; NULL for an
				      algorithm this command lacks (cksum: CLI_LINE_LACKS) */
	size_t size;               /* the digest bytes the line gives: alg->size, an XOF's
				      length, or fewer for GNU cksum's truncated "SHA256-128" */
	int base64;                /* the digest is base64 (cksum --base64), not hex */
	size_t len;                /* the line's length without "\n", "\r\n" (0 for SKIP) */
};

/* Which tagged lines cli_check_parse_line() takes: bits of its @tags. */
enum {
	CLI_TAGS_ANY = 1,    /* every algorithm's (fastsha), not only alg's */
	CLI_TAGS_HMAC = 2,   /* HMAC tags ("HMAC-SHA256 (NAME) = HEX") in place of
				plain ones, which are then improperly formatted */
	CLI_DIGEST_B64 = 4,  /* base64 digests too (cksum --base64's), and "-N"
				lengths after an XOF's tag (SHAKE128-512) */
};

/*
 * Parses one line of a checksum list in place, by GNU coreutils 9.1's
 * rules: "HEX  NAME", "HEX *NAME", "HEX NAME" (bsd reversed), escaped names
 * (a leading backslash), tagged "SHA256 (NAME) = HEX" and "SHA256(NAME)= HEX".
 * s[0..len) is the line as read, with its '\n' if any; s[len] must be
 * writable (getline's NUL): the trimmed line is NUL-terminated there and
 * nothing outside s[0..len] is read or written. Untagged lines are read as
 * alg, with @size digest bytes (alg->size, or an XOF's -l); tagged lines
 * of any algorithm when tags has CLI_TAGS_ANY, else of alg only; HMAC
 * tags instead of plain ones when it has CLI_TAGS_HMAC; base64 digests
 * and "TAG-N" XOF lengths with CLI_DIGEST_B64. *bsd_reversed is GNU's
 * run-wide choice between "HEX NAME" and the standard form (-1 until a
 * line decides it; 0 standard, 1 reversed); start it at -1 once per run.
 * No other state, no I/O, never exits.
 */
enum cli_line_kind cli_check_parse_line(char *s, size_t len, const struct cli_alg *alg,
					size_t size, int tags, int *bsd_reversed,
					struct cli_check_line *out);

/*
 * GNU cksum 9.10's --check parser (its split_3): the state it keeps from
 * line to line. @gnu indexes cli_gnu_at(): the algorithm -a named (or crc
 * without -a), which a tagged line changes when -a was not given (or was
 * sha2), and which later lines and -w's message then see; @bits its digest
 * length, which tags and untagged lengths change too. Start it with
 * cli_cksum_state_init() once per run.
 */
struct cli_cksum_state {
	int gnu;          /* the current algorithm, an index of cli_gnu_at() */
	int specified;    /* -a was given */
	uint64_t bits;    /* the current digest length (GNU's digest_length) */
	size_t hexd;      /* hex digits a digest must have (its digest_hex_bytes: a
			     line that fails can leave it apart from bits / 4) */
	int bsd_reversed; /* as above */
};
void cli_cksum_state_init(struct cli_cksum_state *st, int gnu, int specified, uint64_t bits);
/*
 * One line by GNU cksum's rules (tagged lines name their algorithm, with
 * "-N" lengths; untagged ones need -a, sha2 and sha3 tell their length from
 * the digest's; hex or base64 digests). As cli_check_parse_line(), and:
 * CLI_LINE_LACKS for a line GNU would check with an algorithm this command
 * lacks (MD5, BLAKE2b, SM3): then out->name is set, out->alg is NULL.
 */
enum cli_line_kind cli_cksum_parse_line(char *s, size_t len, struct cli_cksum_state *st,
					struct cli_check_line *out);

/* ---- cli_jobs.c ----------------------------------------------------------- */

/* Called in argument order, one job at a time, under the output lock.
 * Nonzero: stop, nothing more is hashed or emitted. */
typedef int (*cli_emit_fn)(struct cli_job *job, void *ctx);

/* Hashes jobs[0..n) with up to nthreads threads. The workers' buffers
 * and rings are kept for the next call until cli_jobs_release(). */
void cli_run_jobs(struct cli_job *jobs, size_t n, unsigned nthreads, cli_emit_fn emit, void *ctx);
void cli_jobs_release(void);
void cli_progress_clear(void);

/* ---- cli_check.c ---------------------------------------------------------- */

struct cli_check_opts {
	const struct cli_alg *alg; /* untagged lines, and -w's wording */
	size_t size;               /* untagged lines' digest bytes (an XOF's -l) */
	int b64;                   /* base64 digests and XOF lengths in lines (fastsha) */
	int cksum;                 /* GNU cksum's rules (cli_cksum_parse_line()), from: */
	int gnu, gnu_specified;    /*   -a's GNU algorithm (crc when not given) */
	uint64_t gnu_bits;         /*   and its length (-l) */
	int any_tag;               /* tagged lines of every algorithm (fastsha, cksum);
				      else of alg only (GNU's sha256sum) */
	int hmac;                  /* --hmac-key-file: HMAC tags and lines */
	int cksum_names;           /* run as cksum: its result lines' escaping
				      (backslash and CR too), whatever parses */
	const char *prog;          /* "cksum", "fastsha": messages naming the command */
	int status_only, quiet, warn, strict, ignore_missing;
};

/* One checksum file; returns 1 when every check passed. */
int cli_check_file(const char *checkfile, const struct cli_check_opts *o);

/* ---- cli_dcsum.c ---------------------------------------------------------- */

/* Whether argv0's basename is sha1dcsum or sha1dcsum_partialcoll, or either
 * with fastsha's "fast" prefix: then the command is the reference's. */
int cli_dcsum_prog(const char *argv0);
/* That command, whole (docs/cli.md): returns the exit status. */
int cli_dcsum_main(int argc, char **argv);

/* ---- cli_selftest.c ------------------------------------------------------- */

/* --self-test: a summary, or with @verbose (=verbose) a line per algorithm
 * and backend (failures are always shown); returns the exit status. */
int cli_self_test(int verbose);
/* --bench: a line per algorithm (@only's alone when not NULL); with @all
 * (=all), every backend of each, lane backends as batches. */
int cli_bench(const struct cli_alg *only, int all);
void cli_list_backends(void);
void cli_print_backends_summary(void); /* --version: one line per family */

#endif
