/* SPDX-License-Identifier: MIT */
/*
 * The CLI's algorithm tables, the only ones in tools/: which algorithms the
 * command offers, and for each the -a name, the BSD tag, the GNU tool it
 * stands in for and the sizes, derived from the library's descriptor; and
 * GNU cksum's own list (-a's values, tags, bits) with the row that serves
 * each of them here.
 *
 * The one thing the descriptor does not say is which backend table an
 * algorithm runs on; fastsha.h documents it (SHA-224 on SHA-256's, SHA-384
 * on SHA-512's, SHA1DC on SHA-1's, every Keccak algorithm on one table) and
 * the family column below records it. sha1dc is no GNU tool: its tag is
 * "SHA1DC" and its sha1dcsum is the reference SHA1DC library's command
 * (cli_dcsum.c). The Keccak rows have no GNU tool either: GNU has SHA-3
 * only as cksum -a sha3, whose tags ("SHA3-256") are these rows' names
 * upper-cased, like every tag here. With --hmac-key-file the tags are
 * "HMAC-" and the BSD tag (HMAC-SHA256), for the algorithms the library
 * has an HMAC on (SHA-1, SHA-2).
 */
#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* Row order is the order of -a's list and of every report: the default
 * first, GNU's SHA set, sha1dc, then the Keccak family. */
static const struct {
	fastsha_alg alg, family;
	const char *name, *fam;
	int gnu_tool; /* a sha*sum of GNU's: its name runs the command as that tool */
} rows[] = {
	{ FASTSHA_SHA1, FASTSHA_SHA1, "sha1", "sha1", 1 },
	{ FASTSHA_SHA224, FASTSHA_SHA256, "sha224", "sha256", 1 },
	{ FASTSHA_SHA256, FASTSHA_SHA256, "sha256", "sha256", 1 },
	{ FASTSHA_SHA384, FASTSHA_SHA512, "sha384", "sha512", 1 },
	{ FASTSHA_SHA512, FASTSHA_SHA512, "sha512", "sha512", 1 },
	{ FASTSHA_SHA1DC, FASTSHA_SHA1, "sha1dc", "sha1", 0 },
	{ FASTSHA_SHA3_224, FASTSHA_SHA3_256, "sha3-224", "keccak", 0 },
	{ FASTSHA_SHA3_256, FASTSHA_SHA3_256, "sha3-256", "keccak", 0 },
	{ FASTSHA_SHA3_384, FASTSHA_SHA3_256, "sha3-384", "keccak", 0 },
	{ FASTSHA_SHA3_512, FASTSHA_SHA3_256, "sha3-512", "keccak", 0 },
	{ FASTSHA_SHAKE128, FASTSHA_SHA3_256, "shake128", "keccak", 0 },
	{ FASTSHA_SHAKE256, FASTSHA_SHA3_256, "shake256", "keccak", 0 },
	{ FASTSHA_KECCAK256, FASTSHA_SHA3_256, "keccak256", "keccak", 0 },
	{ FASTSHA_K12, FASTSHA_SHA3_256, "k12", "keccak", 0 },
};
#define NROWS (sizeof rows / sizeof rows[0])

static struct cli_alg table[NROWS];
static pthread_once_t once = PTHREAD_ONCE_INIT;
static void note_tag_starts(void);

static void build(void)
{
	for (size_t i = 0; i < NROWS; i++) {
		struct cli_alg *a = &table[i];
		size_t n = strlen(rows[i].name);
		if (!fastsha_alg_name(rows[i].alg) || n + 4 > sizeof a->prog)
			abort(); /* a library without the algorithm: nothing sensible to do */
		a->alg = rows[i].alg;
		a->name = rows[i].name;
		a->fam = rows[i].fam;
		for (size_t k = 0; k <= n; k++)
			a->tag[k] = (char)toupper((unsigned char)a->name[k]);
		if (rows[i].gnu_tool || fastsha_alg_detects(a->alg)) {
			memcpy(a->prog, a->name, n);
			memcpy(a->prog + n, "sum", 4);
		}
		/* HMAC: the library's SHA-1 and SHA-2 (fastsha/mac.h). Two
		 * copies (n + 6 <= 18 bytes, as n + 4 fits prog), not snprintf()
		 * from a->tag: GCC 12 without optimisation takes two fields of
		 * table[] for one object and stops a Debug build with
		 * FASTSHA_WERROR on -Wrestrict. */
		if (rows[i].gnu_tool) {
			memcpy(a->hmac_tag, "HMAC-", 5);
			memcpy(a->hmac_tag + 5, a->tag, n + 1);
		}
		a->size = fastsha_alg_digest_size(a->alg);
		a->hexlen = 2 * a->size;
		a->xof = fastsha_alg_is_xof(a->alg);
		for (size_t k = 0; k < NROWS; k++)
			if (rows[k].alg == rows[i].family)
				a->family = &table[k];
		if (!a->family)
			abort();
	}
	note_tag_starts();
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

const struct cli_alg *cli_alg_by_fastsha(fastsha_alg alg)
{
	for (size_t i = 0; i < NROWS; i++)
		if (get(i)->alg == alg)
			return get(i);
	return NULL;
}

/* argv0's last part, without fastsha's "fast" prefix. */
static const char *base_name(const char *argv0)
{
	const char *base = strrchr(argv0, '/');
	base = base ? base + 1 : argv0;
	/* fastsha256sum: the same as sha256sum, without shadowing coreutils. */
	if (strncmp(base, "fast", 4) == 0)
		base += 4;
	return base;
}

const struct cli_alg *cli_alg_by_prog(const char *argv0)
{
	const char *base = base_name(argv0);
	for (size_t i = 0; i < NROWS; i++)
		if (get(i)->prog[0] && strcmp(get(i)->prog, base) == 0)
			return get(i);
	return NULL;
}

int cli_cksum_prog(const char *argv0)
{
	return strcmp(base_name(argv0), "cksum") == 0;
}

/* Other programs' names for these algorithms, in tagged lines: OpenSSL 3's
 * (openssl dgst prints "SHA2-256(NAME)= HEX", "SHAKE-128(NAME)= HEX"),
 * which are also GNU cksum's "SHA2-256" (-a sha2's tag and length). */
static const struct {
	const char *tag;
	fastsha_alg alg;
} aliases[] = {
	{ "SHA2-224", FASTSHA_SHA224 },   { "SHA2-256", FASTSHA_SHA256 },
	{ "SHA2-384", FASTSHA_SHA384 },   { "SHA2-512", FASTSHA_SHA512 },
	{ "SHAKE-128", FASTSHA_SHAKE128 }, { "SHAKE-256", FASTSHA_SHAKE256 },
};

/*
 * The bytes some tag (plain, alias or HMAC) starts with. --check asks
 * cli_alg_by_tag() about every line, and most lines start with a hex
 * digit that starts no tag: one look here answers them, where the 28
 * strlen() and strncmp() (and get()'s pthread_once()) took about 1,360
 * instructions a line (callgrind, 10,000 untagged sha256sum lines: 14.0
 * million of the run's 45 million outside the compression function).
 */
static unsigned char tag_start[256];

static void note_tag_starts(void)
{
	for (size_t i = 0; i < NROWS; i++) {
		tag_start[(unsigned char)table[i].tag[0]] = 1;
		tag_start[(unsigned char)table[i].hmac_tag[0]] = 1;
	}
	for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
		tag_start[(unsigned char)aliases[i].tag[0]] = 1;
	tag_start[0] = 0; /* an empty tag (rows without an HMAC) starts nothing */
}

static int may_be_tag(const char *s)
{
	pthread_once(&once, build);
	return tag_start[(unsigned char)*s];
}

const struct cli_alg *cli_alg_by_tag(const char *s, size_t *len, int *xof_open)
{
	/* The longest tag that fits: "SHA3-256" and "SHA2-256" beside "SHA256". */
	const struct cli_alg *best = NULL;
	*xof_open = 0;
	if (!may_be_tag(s))
		return NULL;
	for (size_t i = 0; i < NROWS; i++) {
		size_t n = strlen(get(i)->tag);
		if (strncmp(s, get(i)->tag, n) == 0 && (!best || n > *len)) {
			best = get(i);
			*len = n;
		}
	}
	for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++) {
		size_t n = strlen(aliases[i].tag);
		if (strncmp(s, aliases[i].tag, n) == 0 && (!best || n > *len)) {
			best = cli_alg_by_fastsha(aliases[i].alg);
			*len = n;
			*xof_open = best->xof;
		}
	}
	return best;
}

const struct cli_alg *cli_alg_by_hmac_tag(const char *s, size_t *len)
{
	const struct cli_alg *best = NULL;
	if (!may_be_tag(s))
		return NULL;
	for (size_t i = 0; i < NROWS; i++) {
		size_t n = strlen(get(i)->hmac_tag);
		if (n && strncmp(s, get(i)->hmac_tag, n) == 0 && (!best || n > *len)) {
			best = get(i);
			*len = n;
		}
	}
	/* OpenSSL 3's HMAC lines: "HMAC-" and its name for the digest
	 * (openssl dgst -sha256 -hmac KEY prints "HMAC-SHA2-256(NAME)= HEX";
	 * SHA-1's "HMAC-SHA1" is the row's own). The SHAKEs have no HMAC. */
	if (strncmp(s, "HMAC-", 5) != 0)
		return best;
	for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++) {
		const struct cli_alg *a = cli_alg_by_fastsha(aliases[i].alg);
		size_t n = strlen(aliases[i].tag);
		if (a->hmac_tag[0] && strncmp(s + 5, aliases[i].tag, n) == 0 &&
		    (!best || n + 5 > *len)) {
			best = a;
			*len = n + 5;
		}
	}
	return best;
}

/* GNU cksum 9.10's algorithm_args, algorithm_tags and algorithm_bits (its
 * order matters: CLI_GNU_CRC and the others index it). */
static const struct cli_gnu_alg gnu[] = {
	{ "bsd", "BSD", 16, CLI_GNU_NOCHECK },       { "sysv", "SYSV", 16, CLI_GNU_NOCHECK },
	{ "crc", "CRC", 32, CLI_GNU_NOCHECK },       { "crc32b", "CRC32B", 32, CLI_GNU_NOCHECK },
	{ "md5", "MD5", 128, CLI_GNU_FIXED },        { "sha1", "SHA1", 160, CLI_GNU_FIXED },
	{ "sha224", "SHA224", 224, CLI_GNU_FIXED },  { "sha256", "SHA256", 256, CLI_GNU_FIXED },
	{ "sha384", "SHA384", 384, CLI_GNU_FIXED },  { "sha512", "SHA512", 512, CLI_GNU_FIXED },
	{ "sha2", "SHA2", 512, CLI_GNU_SIZED },      { "sha3", "SHA3", 512, CLI_GNU_SIZED },
	{ "blake2b", "BLAKE2b", 512, CLI_GNU_BLAKE2B }, { "sm3", "SM3", 256, CLI_GNU_FIXED },
};

size_t cli_gnu_count(void)
{
	return sizeof gnu / sizeof gnu[0];
}

const struct cli_gnu_alg *cli_gnu_at(size_t i)
{
	return i < cli_gnu_count() ? &gnu[i] : NULL;
}

int cli_gnu_by_arg(const char *arg)
{
	for (size_t i = 0; i < cli_gnu_count(); i++)
		if (strcmp(gnu[i].arg, arg) == 0)
			return (int)i;
	return -1;
}

const struct cli_alg *cli_gnu_row(size_t i, uint64_t bits)
{
	static const char *const sha2[] = { "sha224", "sha256", "sha384", "sha512" };
	static const char *const sha3[] = { "sha3-224", "sha3-256", "sha3-384", "sha3-512" };
	static const uint64_t sizes[] = { 224, 256, 384, 512 };
	if (i >= cli_gnu_count())
		return NULL;
	if (gnu[i].kind == CLI_GNU_SIZED) {
		for (size_t k = 0; k < 4; k++)
			if (bits == sizes[k])
				return cli_alg_by_name(i == CLI_GNU_SHA2 ? sha2[k] : sha3[k]);
		return NULL;
	}
	/* sha1 .. sha512 are GNU's names for them; md5, sm3, ... are not here. */
	const struct cli_alg *a = cli_alg_by_name(gnu[i].arg);
	return a && a->prog[0] && !fastsha_alg_detects(a->alg) ? a : NULL;
}
