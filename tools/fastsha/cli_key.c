/* SPDX-License-Identifier: MIT */
/*
 * --hmac-key-file: the HMAC key, read raw from a file (on the command line
 * it would show in ps and /proc/PID/cmdline), prepared once per algorithm
 * it will serve (fastsha_hmac_key_init(): the two chaining values every
 * HMAC under it starts from), and its bytes wiped as soon as that is done.
 * Messages name the file and the reason, never a byte of the key.
 *
 * The bytes are read with read() into a buffer of ours, not through stdio,
 * whose buffer we could not wipe; when the buffer must grow, the old one is
 * wiped before it is freed (realloc() would free it as it stands).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* Indexed by fastsha_alg; the ones never prepared fail the library's check
 * (a prepared key carries a magic value), as wiped ones do. */
static fastsha_hmac_key keys[FASTSHA_ALG_COUNT];

static void wipe_keys(void)
{
	for (size_t i = 0; i < FASTSHA_ALG_COUNT; i++)
		fastsha_hmac_key_wipe(&keys[i]);
}

static void drop(uint8_t *buf, size_t n)
{
	if (buf) {
		fastsha_wipe(buf, n);
		free(buf);
	}
}

/*
 * The whole of fd, whatever it is (a regular file, a pipe such as bash's
 * <(...), a device), into a buffer of ours: 0 with *out and *len set, or
 * an errno with nothing left behind.
 */
static int read_key(int fd, uint8_t **out, size_t *len)
{
	struct stat st;
	size_t cap = 4096, n = 0;
	uint8_t *buf;

	if (fstat(fd, &st) != 0)
		return errno;
	if (S_ISDIR(st.st_mode))
		return EISDIR;
	/* A regular file: its size and one byte more, where read() finds the
	 * end, so the usual key costs one allocation and two reads. */
	if (S_ISREG(st.st_mode) && st.st_size > 0 && (uintmax_t)st.st_size < SIZE_MAX / 2)
		cap = (size_t)st.st_size + 1;
	buf = malloc(cap);
	if (!buf)
		return ENOMEM;
	for (;;) {
		if (n == cap) {
			uint8_t *bigger = cap < SIZE_MAX / 2 ? malloc(2 * cap) : NULL;
			if (!bigger) {
				drop(buf, n);
				return ENOMEM;
			}
			memcpy(bigger, buf, n);
			drop(buf, n);
			buf = bigger;
			cap *= 2;
		}
		ssize_t r = cli_read_once(fd, buf + n, cap - n);
		if (r < 0) {
			drop(buf, n);
			return (int)-r;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	*out = buf;
	*len = n;
	return 0;
}

/* "PROGRAM: --hmac-key-file: FILE: why", FILE quoted as every file name. */
static void key_error(const char *path, const char *why)
{
	fflush(stdout);
	fprintf(stderr, "%s: --hmac-key-file: ", cli_program);
	cli_quote(stderr, path);
	fprintf(stderr, ": %s\n", why);
}

/* Whether fd is the open file standard input is (/dev/stdin, /dev/fd/0). */
static int is_stdin(int fd)
{
	struct stat a, b;
	return fstat(fd, &a) == 0 && fstat(STDIN_FILENO, &b) == 0 && a.st_dev == b.st_dev &&
	       a.st_ino == b.st_ino;
}

const fastsha_hmac_key *cli_key_load(const char *path, const struct cli_alg *alg, int every,
				     int stdin_read)
{
	uint8_t *key = NULL;
	size_t len = 0;
	const struct cli_alg *refused = NULL;
	int fd, err;

	do
		fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	while (fd < 0 && errno == EINTR);
	if (fd < 0) {
		err = errno;
	} else if (stdin_read && is_stdin(fd)) {
		close(fd);
		key_error(path, "the key file is standard input, which this run also reads; "
				"give the key in another file");
		return NULL;
	} else {
		cli_opts.key_is_stdin = is_stdin(fd);
		err = read_key(fd, &key, &len);
		if (close(fd) != 0 && !err && errno != EINTR)
			err = errno;
	}
	if (err) {
		drop(key, len);
		key_error(path, strerror(err));
		return NULL;
	}
	if (len == 0) {
		drop(key, len);
		key_error(path, "the file is empty (an HMAC key needs at least one byte)");
		return NULL;
	}
	atexit(wipe_keys);
	for (size_t i = 0; i < cli_alg_count(); i++) {
		const struct cli_alg *a = cli_alg_at(i);
		if ((a == alg || (every && a->hmac_tag[0])) &&
		    fastsha_hmac_key_init(&keys[a->alg], a->alg, key, len) != 0)
			refused = a;
	}
	drop(key, len);
	if (refused) {
		/* The caller refuses sha1dc first: not reached with this library. */
		wipe_keys();
		cli_error(0, "--hmac-key-file: the library has no HMAC with %s", refused->name);
		return NULL;
	}
	return keys;
}
