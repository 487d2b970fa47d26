/* SPDX-License-Identifier: MIT */
/*
 * Shared declarations of the fastsha command's parts:
 *   fastsha.c       options, hash mode, messages and name quoting
 *   cli_read.c      hashing one input: read loop or guarded mmap, progress
 *   cli_jobs.c      -j: workers over an index, output strictly in order
 *   cli_check.c     --check (GNU sha1sum 9.1's rules, see docs/check.md)
 *   cli_selftest.c  --self-test, --bench, --list-backends
 * Only the public API (include/fastsha) is used.
 */
#ifndef FASTSHA_CLI_H
#define FASTSHA_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fastsha/sha1.h"

#define CLI_NAME "fastsha"

/* How inputs are read; set once from the options, then read-only. */
struct cli_opts {
	size_t bufsize;      /* read() buffer per worker */
	int use_mmap;        /* --mmap */
	int pipeline;        /* a core is spare: big inputs get a reader thread */
	int no_read_ahead;   /* --no-read-ahead: never pipeline */
	int progress;        /* --progress and stderr is a terminal */
	int timing;          /* --time */
	int ignore_missing;  /* --check --ignore-missing: ENOENT is not an error */
};

extern struct cli_opts cli_opts;

/* One input to hash, and what came of it. */
struct cli_job {
	const char *path;     /* "-" is standard input; NULL: nothing to hash */
	void *user;           /* the emitter's own data */
	int err;              /* errno of the failure, 0 when the digest is valid */
	const char *errmsg;   /* a reason that is no errno (e.g. truncated mmap) */
	int missing;          /* ENOENT under --ignore-missing */
	int done;             /* set under the output lock */
	uint64_t bytes;       /* bytes hashed */
	double secs;          /* wall time spent on this input */
	uint8_t digest[FASTSHA1_DIGEST_SIZE];
};

/* cli_read.c */
void cli_hash_job(struct cli_job *job, uint8_t *buf);
uint8_t *cli_alloc_buffer(void);
double cli_now(void);

/* Called in argument order, one job at a time, under the output lock. */
typedef void (*cli_emit_fn)(struct cli_job *job, void *ctx);

/* cli_jobs.c: hash jobs[0..n) with up to nthreads threads. */
void cli_run_jobs(struct cli_job *jobs, size_t n, unsigned nthreads, cli_emit_fn emit, void *ctx);
void cli_progress_clear(void);

/* fastsha.c */
void cli_error(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cli_quote(FILE *f, const char *s);   /* GNU quotef: shell-escaped for messages */
const char *cli_strerror(const struct cli_job *job);
void cli_hex(const uint8_t d[FASTSHA1_DIGEST_SIZE], char out[2 * FASTSHA1_DIGEST_SIZE + 1]);
void cli_print_name(const char *name, int escape);
void cli_print_timing(const struct cli_job *job, const char *name);
extern unsigned cli_jobs;

/* cli_check.c: one checksum file; returns 1 when every check passed. */
struct cli_check_opts {
	int status_only, quiet, warn, strict, ignore_missing;
};
int cli_check_file(const char *checkfile, const struct cli_check_opts *o);

/* cli_selftest.c */
int cli_self_test(void);
int cli_bench(void);
void cli_list_backends(void);

#endif
