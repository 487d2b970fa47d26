/* SPDX-License-Identifier: MIT */
/*
 * Run as sha1dcsum (or fastsha1dcsum), the command is the reference SHA1DC
 * library's sha1dcsum (cr-marcstevens/sha1collisiondetection, src/main.c),
 * not a GNU-style tool: that program's output, messages and exit status,
 * point for point (docs/cli.md lists them and the one difference):
 *
 * - no options: every argument is a file name ("-", "--help" included);
 *   with none, "Usage: BASENAME <file>" on stdout and exit 1;
 * - per file, in order: "HEX  NAME", or "HEX *coll* NAME" when a collision
 *   attack was detected (HEX is then the safe-hash digest); the name as
 *   given, never escaped; a detection leaves the exit status 0;
 * - the first file that cannot be opened ("cannot open file: NAME") or
 *   read ("error while reading file: NAME") ends the run with status 1;
 *   those messages go to stdout, as the reference prints them;
 * - when argv[0] contains "partial" (the reference's sha1dcsum_partialcoll)
 *   reduced-round collisions are detected too.
 *
 * The differences: a failed write to stdout is reported and makes the exit
 * status 1 (cli_close_stdout), where the reference ignores it; and an
 * argument --hmac-key-file or --hmac-key-file=... (fastsha's option, which
 * this command does not have) is refused before anything is hashed, where
 * the reference would take it for a file name: someone who means a key
 * must not get plain digests.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "fastsha/sha1dc.h"

int cli_dcsum_prog(const char *argv0)
{
	const char *base = strrchr(argv0, '/');
	base = base ? base + 1 : argv0;
	if (strncmp(base, "fast", 4) == 0)
		base += 4;
	return strcmp(base, "sha1dcsum") == 0 || strcmp(base, "sha1dcsum_partialcoll") == 0;
}

/* Hashes the file at path; 0, or which of the reference's messages to print. */
enum { DC_OK, DC_OPEN, DC_READ };

static int dcsum_file(const char *path, unsigned options, uint8_t *buf, uint8_t *out,
		      int *detected)
{
	fastsha1dc_ctx ctx;
	int fd;
	do
		fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	while (fd < 0 && errno == EINTR);
	if (fd < 0)
		return DC_OPEN;
	fastsha1dc_init_opts(&ctx, options);
	for (;;) {
		ssize_t n = cli_read_once(fd, buf, cli_opts.bufsize);
		if (n < 0) {
			close(fd);
			return DC_READ; /* a directory: EISDIR, as the reference's fread */
		}
		if (n == 0)
			break;
		fastsha1dc_update(&ctx, buf, (size_t)n);
	}
	close(fd); /* the reference ignores fclose()'s result */
	*detected = fastsha1dc_final(&ctx, out);
	return DC_OK;
}

int cli_dcsum_main(int argc, char **argv)
{
	unsigned options = FASTSHA1DC_DEFAULT;
	uint8_t *buf, d[FASTSHA1DC_DIGEST_SIZE];
	char hex[2 * FASTSHA1DC_DIGEST_SIZE + 1];

	cli_msg_init(argv[0], 0);
	atexit(cli_close_stdout);
	if (argc < 2) {
		/* POSIX basename() may modify its argument. */
		char *copy = strdup(argv[0]);
		printf("Usage: %s <file>\n", copy ? basename(copy) : argv[0]);
		free(copy);
		return 1;
	}
	for (int i = 1; i < argc; i++) {
		if (strncmp(argv[i], "--hmac-key-file", 15) == 0 &&
		    (argv[i][15] == '\0' || argv[i][15] == '=')) {
			cli_error(0, "--hmac-key-file: not an option of this command (the reference "
				     "sha1dcsum has none); use fastsha --hmac-key-file=FILE -a sha1");
			return 1;
		}
	}
	/* The reference's test: anywhere in argv[0], not only its basename. */
	if (strstr(argv[0], "partial"))
		options |= FASTSHA1DC_REDUCED_ROUND;
	buf = cli_alloc_buffer();
	if (!buf) {
		cli_error(ENOMEM, "buffer");
		return 1;
	}
	for (int i = 1; i < argc; i++) {
		int detected = 0;
		int rc = dcsum_file(argv[i], options, buf, d, &detected);
		if (rc != DC_OK) {
			printf("%s: %s\n", rc == DC_OPEN ? "cannot open file" : "error while reading file",
			       argv[i]);
			free(buf);
			return 1;
		}
		cli_hex(d, sizeof d, hex);
		printf("%s %s %s\n", hex, detected ? "*coll*" : "", argv[i]);
		cli_note_stdout();
	}
	free(buf);
	return 0;
}
