/* SPDX-License-Identifier: MIT */
/*
 * The CLI's algorithm table, the only one in tools/: which algorithms the
 * command offers (GNU cksum's SHA set), and for each the -a name, the BSD
 * tag, the GNU tool it stands in for and the hex length, all derived from
 * the library's descriptor. The one thing the descriptor does not say is
 * which backend table an algorithm runs on; fastsha.h documents it
 * (SHA-224 on SHA-256's, SHA-384 on SHA-512's, SHA1DC on SHA-1's) and the
 * family column below records it. sha1dc is the one row that is no GNU
 * tool: its tag is "SHA1DC" and its sha1dcsum is the reference SHA1DC
 * library's command (cli_dcsum.c), not a GNU-style one. With
 * --hmac-key-file the tags are "HMAC-" and the BSD tag (HMAC-SHA256);
 * sha1dc has none, as the library has no HMAC on it.
 */
#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* Row order is the order of -a's list and of every report: the default first,
 * GNU cksum's SHA set, then sha1dc. */
static const struct {
	fastsha_alg alg, family;
} rows[] = {
	{ FASTSHA_SHA1, FASTSHA_SHA1 },     { FASTSHA_SHA224, FASTSHA_SHA256 },
	{ FASTSHA_SHA256, FASTSHA_SHA256 }, { FASTSHA_SHA384, FASTSHA_SHA512 },
	{ FASTSHA_SHA512, FASTSHA_SHA512 }, { FASTSHA_SHA1DC, FASTSHA_SHA1 },
};
#define NROWS (sizeof rows / sizeof rows[0])

static struct cli_alg table[NROWS];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void build(void)
{
	for (size_t i = 0; i < NROWS; i++) {
		struct cli_alg *a = &table[i];
		const char *name = fastsha_alg_name(rows[i].alg);
		size_t n = name ? strlen(name) : 0;
		if (!name || n + 4 > sizeof a->prog)
			abort(); /* a library without the algorithm: nothing sensible to do */
		a->alg = rows[i].alg;
		a->name = name;
		for (size_t k = 0; k <= n; k++)
			a->tag[k] = (char)toupper((unsigned char)name[k]);
		memcpy(a->prog, name, n);
		memcpy(a->prog + n, "sum", 4);
		if (!fastsha_alg_detects(a->alg))
			snprintf(a->hmac_tag, sizeof a->hmac_tag, "HMAC-%s", a->tag);
		a->size = fastsha_alg_digest_size(a->alg);
		a->hexlen = 2 * a->size;
		for (size_t k = 0; k < NROWS; k++)
			if (rows[k].alg == rows[i].family)
				a->family = &table[k];
		if (!a->family)
			abort();
	}
}

static const struct cli_alg *get(size_t i)
{
	pthread_once(&once, build);
	return i < NROWS ? &table[i] : NULL;
}

size_t cli_alg_count(void)
{
	return NROWS;
}

const struct cli_alg *cli_alg_at(size_t i)
{
	return get(i);
}

const struct cli_alg *cli_alg_default(void)
{
	return get(0);
}

const struct cli_alg *cli_alg_by_name(const char *name)
{
	for (size_t i = 0; i < NROWS; i++)
		if (strcmp(get(i)->name, name) == 0)
			return get(i);
	return NULL;
}

const struct cli_alg *cli_alg_by_prog(const char *argv0)
{
	const char *base = strrchr(argv0, '/');
	base = base ? base + 1 : argv0;
	/* fastsha256sum: the same as sha256sum, without shadowing coreutils. */
	if (strncmp(base, "fast", 4) == 0)
		base += 4;
	for (size_t i = 0; i < NROWS; i++)
		if (strcmp(get(i)->prog, base) == 0)
			return get(i);
	return NULL;
}

const struct cli_alg *cli_alg_by_tag(const char *s, size_t *len)
{
	/* The longest tag that fits, should one ever be another's prefix. */
	const struct cli_alg *best = NULL;
	for (size_t i = 0; i < NROWS; i++) {
		size_t n = strlen(get(i)->tag);
		if (strncmp(s, get(i)->tag, n) == 0 && (!best || n > *len)) {
			best = get(i);
			*len = n;
		}
	}
	return best;
}

const struct cli_alg *cli_alg_by_hmac_tag(const char *s, size_t *len)
{
	const struct cli_alg *best = NULL;
	for (size_t i = 0; i < NROWS; i++) {
		size_t n = strlen(get(i)->hmac_tag);
		if (n && strncmp(s, get(i)->hmac_tag, n) == 0 && (!best || n > *len)) {
			best = get(i);
			*len = n;
		}
	}
	return best;
}
