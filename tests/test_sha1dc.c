/* SPDX-License-Identifier: MIT */
/*
 * SHA1DC (fastsha/sha1dc.h, FASTSHA_SHA1DC) with one SHA-1 row pinned.
 *
 * Mode "core" needs no outside file:
 * - the filter (fsha1dc_ubc_portable(), the row's dc->filter and, where it
 *   keeps records, dc->filter_rec on the records of dc->rec) against an
 *   evaluator of src/sha1/dc/ubc_relations.tsv and dvs.tsv written here,
 *   read at run time and sharing no code with gen_ubc.py: random W arrays;
 *   W forced by a GF(2) solver to pass each DV, and to fail each single
 *   relation; real 64-byte blocks forced the same way (each W bit as a
 *   linear function of the 512 message bits), through the row's filter
 *   alone and at every place of runs of 1..40 blocks, and hashed (such
 *   blocks pass the filter and are recompressed, but are no collision:
 *   plain SHA-1, no flag);
 * - the DVs' message differences fsha1dc_dm() against a derivation here
 *   (DV[-5..10] solved from DV[K..K+15] as a linear system);
 * - a worst case: blocks passing the filter for as many DVs at once as a
 *   greedy union of their relations allows (12 of 32), with a rough time;
 * - random messages of every tail shape, NULL with 0, input ending at a
 *   PROT_NONE page: plain SHA-1, not flagged;
 * - threads racing on the lazily filled DV table, in fresh processes.
 * FASTSHA_SHA1DC_DUMP=path also writes the forced blocks there, for
 * another SHA1DC to check (the reference's ubc_check agreed on all).
 *
 * Mode "files" needs the five public colliding files (shattered-1/2.pdf,
 * sha-mbles-1/2.bin, sha1_reducedsha_coll.bin; .ci/run fetches them with
 * tests/fetch_sha1dc_files.sh), from FASTSHA_SHA1DC_FILES or the FILES
 * argument, and exits 77 saying why when they are absent: the results of
 * ../shared/design/sha1dc/README.md in the four option combinations,
 * one-shot, streamed at every split near the colliding blocks and at
 * random splits, the generic and batch APIs; the 320- and 319-byte
 * prefixes of shattered-1.pdf and its 2,560 one-bit changes; the colliding
 * blocks' message difference against fsha1dc_dm(); threads.
 *
 * usage: test_sha1dc sha1 BACKEND SRCDIR FILES core|files
 */
#include <pthread.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "testutil.h"

#include "fastsha/sha1.h"
#include "fastsha/sha1dc.h"
/* Internals: the generated filter, the DV table and differences, the rows.
 * The static library exports them whatever their visibility. */
#include "../src/sha1/sha1dc_impl.h"

#define SAFE FASTSHA1DC_SAFE_HASH
#define RR FASTSHA1DC_REDUCED_ROUND

static const char *backend_name;
static const struct fsha1_backend *row_dc; /* the row under test */
static void check_rec_filter(const uint8_t *data, size_t n, const uint32_t *masks);
static void expand(const uint8_t *block, uint32_t W[80]);
static uint32_t rol(uint32_t x, unsigned n);
static uint32_t be32(const uint8_t *p);

/*
 * The row's filter on @n consecutive blocks (the portable one for a row
 * without): the rows' filters take block pointers. Where the row also
 * keeps records, its filter on the records of the same blocks is checked
 * against the same masks here, so every filter case below covers both.
 */
static void row_filter(const uint8_t *data, size_t n, uint32_t *masks)
{
	if (!row_dc->dc) {
		fsha1dc_filter_portable(data, n, masks);
		return;
	}
	const uint8_t **p = malloc(n * sizeof(*p));
	if (!p)
		abort();
	for (size_t i = 0; i < n; i++)
		p[i] = data + 64 * i;
	row_dc->dc->filter(p, n, masks);
	free(p);
	check_rec_filter(data, n, masks);
}

/* In x86 builds only (the library's static archive has it there); a weak
 * reference, so elsewhere it is NULL. */
__attribute__((weak)) uint64_t fsha1dc_filter_rec_sse2(const uint64_t *nar, size_t n,
						       uint32_t *masks);

/* SHA-1 of one block from @h in plain C: the states before steps 56 and
 * 64, W[56], W[57], W[64], and the chaining value after it into @h. */
static void ref_block(uint32_t h[5], const uint8_t *block, uint32_t s56[5], uint32_t s64[5],
		      uint32_t w[3])
{
	uint32_t W[80], s[5];
	expand(block, W);
	memcpy(s, h, sizeof(s));
	for (int t = 0; t < 80; t++) {
		if (t == 56)
			memcpy(s56, s, sizeof(s));
		if (t == 64)
			memcpy(s64, s, sizeof(s));
		const uint32_t f = t < 20   ? (s[1] & s[2]) | (~s[1] & s[3])
				   : t < 40 ? s[1] ^ s[2] ^ s[3]
				   : t < 60 ? (s[1] & s[2]) | (s[1] & s[3]) | (s[2] & s[3])
					    : s[1] ^ s[2] ^ s[3];
		const uint32_t k = t < 20 ? 0x5a827999 : t < 40 ? 0x6ed9eba1 : t < 60 ? 0x8f1bbcdc
										 : 0xca62c1d6;
		const uint32_t a = rol(s[0], 5) + f + s[4] + k + W[t];
		s[4] = s[3];
		s[3] = s[2];
		s[2] = rol(s[1], 30);
		s[1] = s[0];
		s[0] = a;
	}
	for (int i = 0; i < 5; i++)
		h[i] += s[i];
	w[0] = W[56], w[1] = W[57], w[2] = W[64];
}

/* A word-major row's records (lanes_recw) of lane @l's block @j, whose
 * chaining value in is @h (advanced past it here), against ref_block(). */
static void check_recw(const struct fsha1dc_recw *r, unsigned l, uint32_t h[5],
		       const uint8_t *block, size_t j)
{
	uint32_t s56[5] = { 0 }, s64[5] = { 0 }, w[3], in[5];
	memcpy(in, h, sizeof(in));
	ref_block(h, block, s56, s64, w);
	int ok = r->w56[l] == w[0] && r->w57[l] == w[1] && r->w64[l] == w[2];
	for (int k = 0; k < 5; k++)
		ok &= r->in[k][l] == in[k] && r->s56[k][l] == s56[k] && r->s64[k][l] == s64[k];
	CHECK(ok, "lanes_recw: lane %u's record of its block %zu", l, j);
}

/*
 * A 16-lane row's loop keeping words (lanes_words) and their filter
 * (filter_words) where the CPU has what they need: lane l from block
 * start[l] for @nb blocks, as check_lanes_rec(); the words must be the
 * schedule's, the records ref_block()'s, the masks the blocks'. Also each
 * shorter call of the filter (16, 32, 48 records).
 */
static void check_lanes_words(const uint8_t *const *p, const size_t *start, size_t nb,
			      const uint32_t *masks, size_t n)
{
	const struct fsha1dc_ops *o = row_dc->dc;
	if (!o->lanes_words)
		return;
	if ((fsha_cpu_features() & o->words_cpu) != o->words_cpu) {
		static int said;
		if (!said++)
			printf("lanes_words: skipped, this CPU lacks what they need (bits %#x)\n",
			       (unsigned)o->words_cpu);
		return;
	}
	const unsigned L = row_dc->info.lanes;
	struct fsha1dc_recw *recw = malloc(nb * sizeof(*recw));
	struct fsha1dc_words *words = malloc(nb * sizeof(*words));
	uint32_t hs[FSHA1DC_RECW_L][5], ref[FSHA1DC_RECW_L][5], m[FSHA1DC_FILTER_MAX];
	if (!recw || !words || L != FSHA1DC_RECW_L)
		abort();
	for (unsigned l = 0; l < L; l++)
		for (int k = 0; k < 5; k++)
			hs[l][k] = ref[l][k] = 0x0a0b0c0du * (l + 3) + (uint32_t)k;
	o->lanes_words(hs, p, nb, recw, words);
	for (size_t j = 0; j < nb; j++)
		for (unsigned l = 0; l < L; l++) {
			uint32_t W[80];
			for (int t = 0; t < 16; t++)
				W[t] = be32(p[l] + 64 * j + 4 * t);
			for (int t = 16; t < 80; t++)
				W[t] = rol(W[t - 3] ^ W[t - 8] ^ W[t - 14] ^ W[t - 16], 1);
			int ok = 1;
			for (int t = FSHA1DC_WORDS_T0; t < FSHA1DC_WORDS_T0 + FSHA1DC_WORDS_N; t++)
				ok &= words[j].w[t - FSHA1DC_WORDS_T0][l] == W[t];
			CHECK(ok, "lanes_words: lane %u's words of its block %zu", l, j);
			check_recw(&recw[j], l, ref[l], p[l] + 64 * j, j);
		}
	for (unsigned l = 0; l < L; l++)
		CHECK(memcmp(hs[l], ref[l], sizeof(ref[l])) == 0, "lanes_words: lane %u's chaining value",
		      l);
	for (size_t k = L; k <= nb * L; k += L) {
		memset(m, 0xa5, sizeof(m));
		const uint64_t flagged = o->filter_words(words, k, m);
		for (size_t r = 0; r < k; r++) {
			const uint32_t want = masks[start[r % L] + r / L];
			CHECK(m[r] == want && (flagged >> r & 1) == (want != 0),
			      "filter_words on %zu records: record %zu %08x, its block %08x (of %zu)", k,
			      r, m[r], want, n);
		}
		CHECK(k == 64 || flagged >> k == 0, "filter_words flags past %zu", k);
		for (size_t r = k; r < FSHA1DC_FILTER_MAX; r++)
			CHECK(m[r] == 0xa5a5a5a5u, "filter_words on %zu records wrote mask %zu", k, r);
	}
	free(recw);
	free(words);
}

/*
 * A lane row's loop keeping records (lanes_rec, or lanes_recw for 8 or 16 lanes)
 * on the blocks at @data, whose masks are @masks: lane l runs from block
 * l % (n - nb + 1); the filter on its narrowed bytes must give the blocks'
 * masks, and lanes_recw's records must hold the states ref_block() gives.
 */
static void check_lanes_rec(const uint8_t *data, size_t n, const uint32_t *masks)
{
	const unsigned L = row_dc->info.lanes;
	/* one filter call's worth (FSHA1DC_FILTER_MAX) */
	const size_t nb = n < FSHA1DC_FILTER_MAX / L ? n : FSHA1DC_FILTER_MAX / L;
	struct fsha1dc_rec *rec = malloc(FSHA1DC_NAR_STRIDE * sizeof(*rec));
	struct fsha1dc_recw *recw = malloc(FSHA1DC_NAR_STRIDE / 8 * sizeof(*recw));
	uint64_t *nar = malloc(9 * FSHA1DC_NAR_STRIDE * sizeof(*nar));
	uint32_t *m = malloc(FSHA1DC_NAR_STRIDE * sizeof(*m));
	uint32_t hs[FSHA1DC_NAR_STRIDE][5], ref[FSHA1DC_NAR_STRIDE][5];
	const uint8_t *p[FSHA1DC_NAR_STRIDE];
	size_t start[FSHA1DC_NAR_STRIDE];
	if (!rec || !recw || !nar || !m)
		abort();
	for (unsigned l = 0; l < L; l++) {
		start[l] = l % (n - nb + 1);
		p[l] = data + 64 * start[l];
		for (int k = 0; k < 5; k++)
			hs[l][k] = ref[l][k] = 0x01020304u * (l + 1) + (uint32_t)k;
	}
	if (row_dc->dc->lanes_recw)
		row_dc->dc->lanes_recw(hs, p, nb, recw, nar);
	else
		row_dc->dc->lanes_rec(hs, p, nb, rec, nar);
	const uint64_t flagged = row_dc->dc->filter_rec(nar, nb * L, m);
	for (size_t j = 0; j < nb; j++)
		for (unsigned l = 0; l < L; l++) {
			CHECK(m[j * L + l] == masks[start[l] + j] &&
				      (flagged >> (j * L + l) & 1) == (m[j * L + l] != 0),
			      "lanes: filter on narrowed bytes %08x, on the block %08x (lane %u, "
			      "block %zu of %zu)",
			      m[j * L + l], masks[start[l] + j], l, start[l] + j, n);
			if (row_dc->dc->lanes_recw)
				check_recw(&recw[j], l, ref[l], p[l] + 64 * j, j);
		}
	CHECK(nb * L == 64 || flagged >> (nb * L) == 0, "lanes: filter flags past %zu", nb * L);
	for (unsigned l = 0; l < L; l++)
		CHECK(!row_dc->dc->lanes_recw || memcmp(hs[l], ref[l], sizeof(ref[l])) == 0,
		      "lanes_recw: lane %u's chaining value", l);
	check_lanes_words(p, start, nb, masks, n);
	free(rec);
	free(recw);
	free(nar);
	free(m);
}

/* A single-stream row's record (dc->rec; struct fsha1dc_rec, the SHA-NI
 * registers' layout) of block @i, whose chaining value in is @h (advanced
 * past it here), against ref_block(): the fields the checks read. */
static void check_rec(const struct fsha1dc_rec *r, uint32_t h[5], const uint8_t *block, size_t i)
{
	uint32_t s56[5] = { 0 }, s64[5] = { 0 }, w[3], in[5];
	memcpy(in, h, sizeof(in));
	ref_block(h, block, s56, s64, w);
	const uint32_t got_in[5] = { r->in[3], r->in[2], r->in[1], r->in[0], r->in[7] };
	const uint32_t got56[5] = { r->s56[3], r->s56[2], r->s56[1], r->s56[0], rol(r->s56[7], 30) };
	const uint32_t got64[5] = { r->s64[3], r->s64[2], r->s64[1], r->s64[0], rol(r->s64[7], 30) };
	CHECK(memcmp(got_in, in, sizeof(in)) == 0 && memcmp(got56, s56, sizeof(s56)) == 0 &&
		      memcmp(got64, s64, sizeof(s64)) == 0 && r->w56[3] == w[0] &&
		      r->w56[2] == w[1] && r->w64[3] == w[2],
	      "rec: block %zu's record", i);
}

static void check_rec_filter(const uint8_t *data, size_t n, const uint32_t *masks)
{
	if (row_dc->dc->lanes_rec || row_dc->dc->lanes_recw)
		check_lanes_rec(data, n, masks);
	if (!row_dc->dc->rec)
		return;
	/* In pieces of at most FSHA1DC_FILTER_MAX blocks (the most one filter
	 * call takes), the filter on the narrowed bytes. */
	struct fsha1dc_rec *rec = malloc(FSHA1DC_NAR_STRIDE * sizeof(*rec));
	uint64_t *nar = malloc(9 * FSHA1DC_NAR_STRIDE * sizeof(*nar));
	uint32_t *m = malloc(FSHA1DC_NAR_STRIDE * sizeof(*m)), h[5] = { 1, 2, 3, 4, 5 };
	if (!rec || !nar || !m)
		abort();
	uint32_t ref[5];
	memcpy(ref, h, sizeof(ref));
	for (size_t at = 0; at < n;) {
		const size_t k = n - at < FSHA1DC_FILTER_MAX ? n - at : FSHA1DC_FILTER_MAX;
		row_dc->dc->rec(h, data + 64 * at, k, rec, nar);
		for (size_t i = 0; i < k; i++)
			check_rec(&rec[i], ref, data + 64 * (at + i), at + i);
		CHECK(memcmp(h, ref, sizeof(ref)) == 0, "rec: the chaining value after %zu blocks",
		      at + k);
		/* Entries past k as no compression wrote them: all ones in
		 * some groups, a pattern of their own in the others. The x86
		 * filters load whole vectors, and the lanes past k must not
		 * change the first k (the driver zeroes them, fsha1dc_nar_pad(),
		 * so that nothing unwritten is read). */
		for (int g = 0; g < 9; g++)
			for (size_t i = k; i < FSHA1DC_FILTER_MAX; i++)
				nar[FSHA1DC_NAR_STRIDE * g + i] =
					g % 2 ? UINT64_MAX : 0x5a5a5a5aa5a5a5a5u * (i + 1);
		uint64_t flagged = row_dc->dc->filter_rec(nar, k, m);
		for (size_t i = 0; i < k; i++)
			CHECK(m[i] == masks[at + i] && (flagged >> i & 1) == (m[i] != 0),
			      "filter on narrowed bytes %08x (flagged %d), on the block %08x (block "
			      "%zu of %zu)",
			      m[i], (int)(flagged >> i & 1), masks[at + i], at + i, n);
		CHECK(k == 64 || flagged >> k == 0, "filter on narrowed bytes flags past %zu", k);
		/* The SSE2 filter on them, which the SHA-NI rows take on CPUs
		 * without AVX2 (nothing here runs it otherwise); x86 builds only. */
		if (fsha1dc_filter_rec_sse2) {
			flagged = fsha1dc_filter_rec_sse2(nar, k, m);
			for (size_t i = 0; i < k; i++)
				CHECK(m[i] == masks[at + i] && (flagged >> i & 1) == (m[i] != 0),
				      "SSE2 filter on narrowed bytes %08x (flagged %d), on the block %08x",
				      m[i], (int)(flagged >> i & 1), masks[at + i]);
			CHECK(k == 64 || flagged >> k == 0, "SSE2 filter flags past %zu", k);
		}
		at += k;
	}
	free(rec);
	free(nar);
	free(m);
}

/*
 * The driver's filtered path (sha1dc_driver.c fsha1dc_compress(): the row's
 * filter over chunks of blocks, the row's own blocks() over runs no DV
 * survived, the scalar check for the rest) runs for rows with a filter but no
 * records; the rows that keep records (SHA-NI) take the record path instead,
 * and rows with no filter the scalar path. filter_path(1) puts in the
 * family's slot a copy of the row under test with its filter (or the portable
 * one) and no records, so that every row also runs the filtered path;
 * filter_path(0) puts the row back.
 */
static struct fsha1_backend fake_row;
static struct fsha1dc_ops fake_ops;
static const struct fsha_backend_info *saved_row;

static void filter_path(int on)
{
	if (on) {
		saved_row = fsha_active(&fsha1_family);
		fake_row = *(const struct fsha1_backend *)saved_row;
		fake_ops.filter = fake_row.dc ? fake_row.dc->filter : fsha1dc_filter_portable_ptrs;
		fake_ops.rec = NULL;
		fake_ops.filter_rec = NULL;
		fake_row.dc = &fake_ops;
		atomic_store(fsha1_family.slot, &fake_row.info);
	} else {
		atomic_store(fsha1_family.slot, saved_row);
	}
}

/*
 * words_path(0) puts in the family's slots a copy of the row under test
 * without its words loop (lanes_words), so that a 16-lane row's batches
 * take its narrowed-bytes loop, what they run on CPUs without the words'
 * (VBMI); returns 0 when the row has no words loop. words_path(1) puts the
 * row back.
 */
static struct fsha1_backend nowords_row;
static struct fsha1dc_ops nowords_ops;
static const struct fsha_backend_info *nowords_saved[2];

static int words_path(int on)
{
	if (!on) {
		if (!row_dc->dc || !row_dc->dc->lanes_words)
			return 0;
		nowords_saved[0] = atomic_load(fsha1_family.slot);
		nowords_saved[1] = atomic_load(fsha1_family.many_slot);
		nowords_row = *row_dc;
		nowords_ops = *row_dc->dc;
		nowords_ops.lanes_words = NULL;
		nowords_row.dc = &nowords_ops;
		atomic_store(fsha1_family.slot, &nowords_row.info);
		atomic_store(fsha1_family.many_slot, &nowords_row.info);
	} else {
		atomic_store(fsha1_family.slot, nowords_saved[0]);
		atomic_store(fsha1_family.many_slot, nowords_saved[1]);
	}
	return 1;
}

/* FASTSHA_SHA1DC_DUMP=path: the forced blocks are written there too, for a
 * cross-check with another SHA1DC (the reference's ubc_check, git). */
static FILE *dumpf;

static uint32_t rol(uint32_t x, unsigned n)
{
	n &= 31;
	return n ? x << n | x >> (32 - n) : x;
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/* SHA-1's message expansion, written here again. */
static void expand(const uint8_t *block, uint32_t W[80])
{
	for (int t = 0; t < 16; t++)
		W[t] = be32(block + 4 * t);
	for (int t = 16; t < 80; t++)
		W[t] = rol(W[t - 3] ^ W[t - 8] ^ W[t - 14] ^ W[t - 16], 1);
}

static void hex20(const uint8_t *d, char *out)
{
	to_hex(d, 20, out);
}

static int eq_hex(const uint8_t *d, const char *hex)
{
	char h[41];
	hex20(d, h);
	return strcmp(h, hex) == 0;
}

/* Plain SHA-1 under the portable row (a trusted other path), leaving the
 * row under test selected. */
static void portable_sha1(const uint8_t *m, size_t len, uint8_t out[20])
{
	fastsha_use_backend(FASTSHA_SHA1, "portable");
	fastsha1(m, len, out);
	fastsha_use_backend(FASTSHA_SHA1, backend_name);
}

/* ---- the relations and DVs, read from the TSVs ----------------------------- */

struct rel {
	unsigned dv, i, j, c;
	int k, l; /* -1: a one-term relation (none occurs, the format allows it) */
};
static struct rel rels[512];
static size_t nrels;
static struct {
	unsigned type, k, b, testt, nrel;
} tdv[32];

/* The next data line of @f split at white space into @tok; 0 at the end. */
static int next_row(FILE *f, char **tok, int max, char *line, size_t size)
{
	while (fgets(line, (int)size, f)) {
		if (line[0] == '#' || line[0] == '\n')
			continue;
		int n = 0;
		for (char *s = strtok(line, " \t\r\n"); s && n < max; s = strtok(NULL, " \t\r\n"))
			tok[n++] = s;
		if (n)
			return n;
	}
	return 0;
}

static FILE *open_data(const char *srcdir, const char *name)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/src/sha1/dc/%s", srcdir, name);
	FILE *f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "FAIL: cannot read %s\n", path);
		exit(1);
	}
	return f;
}

static unsigned type_of(const char *s)
{
	return strcmp(s, "I") == 0 ? 1 : strcmp(s, "II") == 0 ? 2 : 0;
}

static void load_tsv(const char *srcdir)
{
	char line[512], *tok[16];
	int n;
	unsigned ndv = 0;
	FILE *f = open_data(srcdir, "dvs.tsv");
	while ((n = next_row(f, tok, 16, line, sizeof(line))) > 0) {
		if (strcmp(tok[0], "dv_index") == 0)
			continue;
		CHECK(n == 8, "dvs.tsv: %d fields", n);
		unsigned idx = (unsigned)atoi(tok[0]);
		CHECK(idx == ndv && idx < 32, "dvs.tsv: index %u out of order", idx);
		if (idx != ndv || idx >= 32)
			exit(1);
		tdv[idx].type = type_of(tok[1]);
		tdv[idx].k = (unsigned)atoi(tok[2]);
		tdv[idx].b = (unsigned)atoi(tok[3]);
		tdv[idx].testt = (unsigned)atoi(tok[4]);
		CHECK(atoi(tok[5]) == 0 && (unsigned)atoi(tok[6]) == idx, "dvs.tsv: DV %u's mask bit",
		      idx);
		tdv[idx].nrel = (unsigned)atoi(tok[7]);
		ndv++;
	}
	fclose(f);
	CHECK(ndv == 32, "dvs.tsv: %u DVs", ndv);
	f = open_data(srcdir, "ubc_relations.tsv");
	unsigned count[32] = { 0 };
	while ((n = next_row(f, tok, 16, line, sizeof(line))) > 0) {
		if (strcmp(tok[0], "dv_type") == 0)
			continue;
		CHECK(n == 8 && nrels < 512, "ubc_relations.tsv: %d fields", n);
		if (n != 8 || nrels >= 512)
			exit(1);
		unsigned ty = type_of(tok[0]), K = (unsigned)atoi(tok[1]), b = (unsigned)atoi(tok[2]);
		unsigned d = 32;
		for (unsigned x = 0; x < 32; x++)
			if (tdv[x].type == ty && tdv[x].k == K && tdv[x].b == b)
				d = x;
		CHECK(d < 32, "ubc_relations.tsv: DV %s(%u,%u) is not in dvs.tsv", tok[0], K, b);
		if (d == 32)
			exit(1);
		struct rel *r = &rels[nrels++];
		r->dv = d;
		r->i = (unsigned)atoi(tok[3]);
		r->j = (unsigned)atoi(tok[4]);
		r->k = strcmp(tok[5], "-") == 0 ? -1 : atoi(tok[5]);
		r->l = strcmp(tok[6], "-") == 0 ? -1 : atoi(tok[6]);
		r->c = (unsigned)atoi(tok[7]);
		CHECK(r->i < 80 && r->j < 32 && r->k < 80 && r->l < 32 && r->c < 2 &&
			      (r->k < 0) == (r->l < 0),
		      "ubc_relations.tsv: relation %zu out of range", nrels);
		count[d]++;
	}
	fclose(f);
	CHECK(nrels == 373, "%zu relations, the design note says 373", nrels);
	for (unsigned d = 0; d < 32; d++) {
		CHECK(count[d] == tdv[d].nrel, "DV %u: %u relations, dvs.tsv says %u", d, count[d],
		      tdv[d].nrel);
		/* The generated table (ubc_dvs.inc) against the file. */
		const struct fsha1dc_dv *v = &fsha1dc_dvs[d];
		CHECK(v->type == tdv[d].type && v->k == tdv[d].k && v->b == tdv[d].b &&
			      v->testt == tdv[d].testt,
		      "fsha1dc_dvs[%u] = {%u,%u,%u,%u}, dvs.tsv says {%u,%u,%u,%u}", d, v->type,
		      v->k, v->b, v->testt, tdv[d].type, tdv[d].k, tdv[d].b, tdv[d].testt);
	}
	if (test_failures)
		exit(1);
}

/* The independent filter: each relation evaluated literally. */
static uint32_t eval_mask(const uint32_t W[80])
{
	uint32_t m = 0xffffffffu;
	for (size_t n = 0; n < nrels; n++) {
		const struct rel *r = &rels[n];
		unsigned v = W[r->i] >> r->j & 1;
		if (r->k >= 0)
			v ^= W[r->k] >> r->l & 1;
		if (v != r->c)
			m &= ~(1u << r->dv);
	}
	return m;
}

/* ---- GF(2) linear algebra --------------------------------------------------- */

/*
 * Variables: bit v = 32*t + j is bit j of word t. Free mode: all 80 words
 * of W are unknowns (2,560 bits; the filter is handed W directly). Message
 * mode: the 16 words of one block (512 bits), W[16..79] being linear in
 * them: lin[t][j] is W[t] bit j as a vector over the block's bits. The DV
 * derivation reuses lin for DV[-5..79] = X[0..84], X[0..15] the unknowns.
 */
#define NW_FREE 40
#define NW_MSG 8
static uint64_t lin[85][32][NW_MSG];

static void build_lin(void)
{
	memset(lin, 0, sizeof(lin));
	for (unsigned t = 0; t < 16; t++)
		for (unsigned j = 0; j < 32; j++)
			lin[t][j][(32 * t + j) / 64] = 1ull << ((32 * t + j) % 64);
	for (unsigned t = 16; t < 85; t++)
		for (unsigned j = 0; j < 32; j++) /* rol1: bit j comes from bit j-1 */
			for (unsigned w = 0; w < NW_MSG; w++)
				lin[t][j][w] = lin[t - 3][(j + 31) & 31][w] ^
					       lin[t - 8][(j + 31) & 31][w] ^
					       lin[t - 14][(j + 31) & 31][w] ^
					       lin[t - 16][(j + 31) & 31][w];
}

/* A system in echelon form: row r has pivot piv[r], and no row has the
 * pivot of an earlier one. */
struct sys {
	unsigned nw, n, cap;
	uint64_t *rows;
	uint8_t *c;
	unsigned *piv;
};

static struct sys *sys_new(unsigned nw, unsigned cap)
{
	struct sys *s = calloc(1, sizeof(*s));
	s->nw = nw;
	s->cap = cap;
	s->rows = calloc((size_t)cap * nw, 8);
	s->c = calloc(cap, 1);
	s->piv = calloc(cap, sizeof(unsigned));
	return s;
}

static void sys_free(struct sys *s)
{
	free(s->rows);
	free(s->c);
	free(s->piv);
	free(s);
}

static void sys_copy(struct sys *dst, const struct sys *src)
{
	dst->n = src->n;
	memcpy(dst->rows, src->rows, (size_t)src->n * src->nw * 8);
	memcpy(dst->c, src->c, src->n);
	memcpy(dst->piv, src->piv, src->n * sizeof(unsigned));
}

/* Add v.x = c. Return 1 when added or implied, 0 when it contradicts the
 * system (which is then unchanged). */
static int sys_add(struct sys *s, const uint64_t *v, unsigned c)
{
	uint64_t t[NW_FREE];
	memcpy(t, v, s->nw * 8);
	for (unsigned r = 0; r < s->n; r++)
		if (t[s->piv[r] / 64] >> (s->piv[r] % 64) & 1) {
			for (unsigned w = 0; w < s->nw; w++)
				t[w] ^= s->rows[(size_t)r * s->nw + w];
			c ^= s->c[r];
		}
	for (unsigned w = 0; w < s->nw; w++)
		if (t[w]) {
			if (s->n == s->cap) {
				fprintf(stderr, "FAIL: system full\n");
				exit(1);
			}
			memcpy(s->rows + (size_t)s->n * s->nw, t, s->nw * 8);
			s->c[s->n] = (uint8_t)c;
			s->piv[s->n++] = 64 * w + (unsigned)__builtin_ctzll(t[w]);
			return 1;
		}
	return c == 0;
}

/* A random solution: free bits at random, pivots fixed last row first. */
static void sys_solve(const struct sys *s, uint64_t *x)
{
	for (unsigned w = 0; w < s->nw; w++)
		x[w] = prng();
	for (unsigned r = s->n; r-- > 0;) {
		const uint64_t *row = s->rows + (size_t)r * s->nw;
		unsigned p = 0;
		for (unsigned w = 0; w < s->nw; w++)
			p ^= (unsigned)__builtin_popcountll(row[w] & x[w]);
		if ((p & 1) != s->c[r])
			x[s->piv[r] / 64] ^= 1ull << (s->piv[r] % 64);
	}
}

/* Relation @r as a vector over the variables of mode @nw. */
static void rel_vec(const struct rel *r, unsigned nw, uint64_t *v)
{
	memset(v, 0, nw * 8);
	if (nw == NW_FREE) {
		v[(32 * r->i + r->j) / 64] ^= 1ull << ((32 * r->i + r->j) % 64);
		if (r->k >= 0) {
			unsigned b = 32 * (unsigned)r->k + (unsigned)r->l;
			v[b / 64] ^= 1ull << (b % 64);
		}
	} else {
		for (unsigned w = 0; w < nw; w++)
			v[w] = lin[r->i][r->j][w] ^ (r->k >= 0 ? lin[r->k][r->l][w] : 0);
	}
}

/* Add DV @d's relations, relation @flip (an index into rels[], or -1) with
 * its constant inverted. Return 0 when they contradict (system unchanged
 * only as far as sys_add leaves it: callers work on a copy). */
static int add_dv(struct sys *s, unsigned d, long flip)
{
	uint64_t v[NW_FREE];
	for (size_t n = 0; n < nrels; n++)
		if (rels[n].dv == d) {
			rel_vec(&rels[n], s->nw, v);
			if (!sys_add(s, v, rels[n].c ^ ((long)n == flip)))
				return 0;
		}
	return 1;
}

/* Free mode: W[t] is bits 32t..32t+31 of the solution (whatever the
 * host's byte order). */
static void words_of(const uint64_t *x, uint32_t W[80])
{
	for (unsigned t = 0; t < 80; t++)
		W[t] = (uint32_t)(x[t / 2] >> (32 * (t % 2)));
}

/* A solution of the message-mode system as a 64-byte block. */
static void solve_block(const struct sys *s, uint8_t block[64])
{
	uint64_t x[NW_MSG];
	sys_solve(s, x);
	for (unsigned t = 0; t < 16; t++)
		put_be32(block + 4 * t, (uint32_t)(x[t / 2] >> (32 * (t % 2))));
}

/* ---- the filter ---------------------------------------------------------- */

/* Filter @block (or a W array when @block is NULL) every way; check they
 * agree with the evaluator and return the mask. */
static uint32_t filter_all(const uint32_t *Win, const uint8_t *block, const char *what)
{
	uint32_t W[80];
	if (block)
		expand(block, W);
	else
		memcpy(W, Win, sizeof(W));
	uint32_t m = fsha1dc_ubc_portable(W), e = eval_mask(W);
	CHECK(m == e, "%s: fsha1dc_ubc_portable %08x, the relations say %08x", what, m, e);
	if (block) {
		uint32_t p, r;
		fsha1dc_filter_portable(block, 1, &p);
		row_filter(block, 1, &r);
		CHECK(p == e && r == e, "%s: portable filter %08x, row filter %08x, relations %08x",
		      what, p, r, e);
	}
	return e;
}

static void check_filter_random(void)
{
	uint32_t W[80];
	size_t hits = 0;
	for (int n = 0; n < 100000; n++) {
		for (int t = 0; t < 80; t++)
			W[t] = (uint32_t)prng();
		hits += filter_all(W, NULL, "random W") != 0;
	}
	/* And on real blocks, where W[16..79] follow from W[0..15]. */
	uint8_t blk[64];
	for (int n = 0; n < 20000; n++) {
		prng_fill(blk, 64);
		hits += filter_all(NULL, blk, "random block") != 0;
	}
	printf("filter: 120000 random inputs, %zu with a surviving DV\n", hits);
	CHECK(hits > 120000 / 100 && hits < 120000 / 10, "%zu survivors is far from ~4.7%%", hits);
}

/* Forced W (free mode): each DV passing, then each of its relations alone
 * broken. */
static void check_filter_forced_free(void)
{
	struct sys *base = sys_new(NW_FREE, 64), *s = sys_new(NW_FREE, 64);
	uint64_t x[NW_FREE];
	uint32_t W[80];
	unsigned broken = 0, implied = 0;
	for (unsigned d = 0; d < 32; d++) {
		char what[64];
		base->n = 0;
		CHECK(add_dv(base, d, -1), "DV %u: its relations contradict each other", d);
		for (int rep = 0; rep < 16; rep++) {
			sys_solve(base, x);
			words_of(x, W);
			snprintf(what, sizeof(what), "W forced to pass DV %u", d);
			CHECK(filter_all(W, NULL, what) >> d & 1, "%s: its bit is clear", what);
		}
		for (size_t n = 0; n < nrels; n++) {
			if (rels[n].dv != d)
				continue;
			s->n = 0;
			if (!add_dv(s, d, (long)n)) {
				implied++; /* the others imply it */
				continue;
			}
			for (int rep = 0; rep < 4; rep++) {
				sys_solve(s, x);
				words_of(x, W);
				snprintf(what, sizeof(what), "W breaking relation %zu of DV %u", n, d);
				CHECK(!(filter_all(W, NULL, what) >> d & 1), "%s: its bit is set",
				      what);
			}
			broken++;
		}
	}
	printf("filter, free W: 32 DVs forced, %u relations broken alone, %u implied by the "
	       "others\n",
	       broken, implied);
	CHECK(broken + implied == nrels, "relations missed");
	sys_free(base);
	sys_free(s);
}

/* One block forced to pass DV @d through the row's filter alone and at
 * every place of runs of 1..40 blocks, at an odd address. */
static void check_row_filter_runs(const uint8_t block[64], unsigned d)
{
	static uint8_t buf[41 * 64 + 8];
	uint32_t got[40], want[40];
	for (unsigned n = 1; n <= 40; n++)
		for (unsigned p = 0; p < n; p++) {
			uint8_t *run = buf + 1 + (n + p) % 7;
			prng_fill(run, 64 * n);
			memcpy(run + 64 * p, block, 64);
			row_filter(run, n, got);
			fsha1dc_filter_portable(run, n, want);
			for (unsigned i = 0; i < n; i++)
				CHECK(got[i] == want[i],
				      "row filter, run of %u, block %u: %08x, portable %08x", n, i,
				      got[i], want[i]);
			CHECK(got[p] >> d & 1, "row filter, run of %u, DV %u's block at %u: bit clear",
			      n, d, p);
		}
}

/* Hash @m (@len bytes, not a collision) every way SHA1DC can: each option
 * set one-shot and streamed, the generic API; plain SHA-1 @want, no flag. */
static void check_plain(const uint8_t *m, size_t len, const uint8_t want[20], const char *what)
{
	uint8_t got[20];
	fastsha1dc_result res;
	for (unsigned o = 0; o < 4; o++) {
		int det = fastsha1dc_opts(m, len, o, got, &res);
		CHECK(det == 0 && !res.detected && memcmp(got, want, 20) == 0,
		      "%s (len %zu, options %u): one-shot detected %d / not SHA-1", what, len, o, det);
	}
	fastsha1dc_ctx c;
	fastsha1dc_init(&c);
	size_t off = 0;
	while (off < len) {
		size_t n = (size_t)(prng() % 200);
		n = n > len - off ? len - off : n;
		fastsha1dc_update(&c, m + off, n);
		off += n;
	}
	int det = fastsha1dc_final(&c, got);
	CHECK(det == 0 && memcmp(got, want, 20) == 0, "%s (len %zu): streamed detected %d / not SHA-1",
	      what, len, det);
	det = fastsha_digest_detect(FASTSHA_SHA1DC, m, len, got);
	CHECK(det == 0 && memcmp(got, want, 20) == 0, "%s (len %zu): generic detected %d / not SHA-1",
	      what, len, det);
}

/*
 * The row's pipeline (dc->pipe: the filter run in pieces between the
 * blocks of later chunks, sha1_impl.h), where it has one: 5 to 7 chunks of
 * random blocks with, for each DV, blocks forced to pass it at four places
 * (every slot of the pipelined chunks over the 32 DVs) and blocks breaking
 * one of its relations at two more; every mask must be the portable
 * filter's, the forced blocks' bits set.
 */
extern const struct fsha1_backend fsha1_backend_portable; /* the library's portable row */

static void check_pipe_forced_ops(const struct fsha1dc_ops *ops, const char *which)
{
	enum { MAXB = 7 * FSHA1DC_PIPE_B };
	struct sys *base = sys_new(NW_MSG, 64), *s = sys_new(NW_MSG, 64);
	uint8_t *msg = malloc(MAXB * 64 + 1);
	uint32_t got[MAXB], want[MAXB];
	if (!msg)
		abort();
	for (unsigned d = 0; d < 32; d++) {
		uint8_t *m = msg + (d & 1); /* odd addresses too */
		/* 5, 6 or 7 chunks: the last two sit in every pair of ring slots */
		const unsigned NB = (5 + d % 3) * FSHA1DC_PIPE_B;
		prng_fill(m, NB * 64);
		base->n = 0;
		CHECK(add_dv(base, d, -1), "DV %u: no block passes its relations", d);
		unsigned at[4];
		for (unsigned j = 0; j < 4; j++) {
			at[j] = (d + 13 * j) % (NB - 2 * FSHA1DC_PIPE_B) + (j == 3 ? 2 * FSHA1DC_PIPE_B : 0);
			solve_block(base, m + 64 * at[j]);
		}
		for (unsigned j = 0, n = 0; j < 2 && n < nrels; n++) {
			if (rels[n].dv != d || (n + d) % 3)
				continue;
			s->n = 0;
			if (!add_dv(s, d, (long)n))
				continue;
			solve_block(s, m + 64 * ((at[j] + 7) % NB));
			j++;
		}
		for (unsigned j = 0; j < 4; j++) /* a breaking block may have landed there */
			solve_block(base, m + 64 * at[j]);
		uint32_t h[5], hw[5] = { 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0 };
		const size_t done = fsha1dc_pipe_masks(ops, m, NB, got, h);
		fsha1_backend_portable.blocks(hw, m, NB);
		CHECK(done == NB && memcmp(h, hw, sizeof(h)) == 0,
		      "pipeline (%s), DV %u: %zu of %u blocks, chaining value %s portable's", which, d,
		      done, NB, memcmp(h, hw, sizeof(h)) ? "not" : "is");
		fsha1dc_filter_portable(m, NB, want);
		for (unsigned i = 0; i < NB; i++)
			CHECK(got[i] == want[i], "pipeline (%s), DV %u, block %u: %08x, portable %08x",
			      which, d, i, got[i], want[i]);
		for (unsigned j = 0; j < 4; j++)
			CHECK(got[at[j]] >> d & 1, "pipeline (%s): DV %u's block %u: bit clear", which,
			      d, at[j]);
	}
	printf("pipeline (%s): 32 DVs forced at every slot, relations broken, masks as portable\n",
	       which);
	free(msg);
	sys_free(base);
	sys_free(s);
}

/* In x86 builds only: the SHA-NI row's pipeline in legacy SSE, which the
 * row runs on CPUs without AVX2 (the AVX2 build runs where the CPU has it);
 * a weak reference, NULL elsewhere. */
__attribute__((weak)) void fsha1dc_pipe_shani_sse(uint32_t state[5], const uint8_t *data,
						  struct fsha1dc_pipe *pp, size_t c);

/* The row's pipeline as the row runs it, and on the SHA-NI rows the SSE
 * build too. */
static void check_pipe_forced(void)
{
	if (!row_dc->dc || !row_dc->dc->pipe) {
		printf("pipeline: the row has none\n");
		return;
	}
	check_pipe_forced_ops(row_dc->dc, "the row's");
	if (fsha1dc_pipe_shani_sse && row_dc->dc->pipe != fsha1dc_pipe_shani_sse) {
		struct fsha1dc_ops sse = *row_dc->dc;
		sse.pipe = fsha1dc_pipe_shani_sse;
		check_pipe_forced_ops(&sse, "SSE");
	}
}

/*
 * The row's recheck (dc->recheck, the deferred recompressions of the
 * pipelined path), where it has one, against the scalar one: batches of
 * 1..20 jobs of one test step or both, random, each with its partner's true out,
 * in, both or neither, so every lane of a SIMD batch sees each answer.
 */
static void check_recheck(void)
{
	if (!row_dc->dc || !row_dc->dc->recheck) {
		printf("recheck: the row has none of its own\n");
		return;
	}
	enum { MAXJ = 20 };
	static struct fsha1dc_job jobs[MAXJ], copy[MAXJ];
	struct fsha1dc_job *pj[MAXJ], *pc[MAXJ];
	unsigned count[4] = { 0, 0, 0, 0 };
	for (unsigned round = 0; round < 200; round++) {
		const size_t n = 1 + round % MAXJ;
		/* all of step 58, all of 65, or each at random (a vector
		 * takes both) */
		const unsigned kind = round % 3;
		for (size_t i = 0; i < n; i++) {
			struct fsha1dc_job *j = &jobs[i];
			uint32_t in[5], out[5];
			prng_fill((uint8_t *)j, sizeof(*j));
			j->testt = kind == 0 ? 58 : kind == 1 ? 65 : prng() & 1 ? 65 : 58;
			fsha1dc_job_partner(j, in, out);
			const unsigned want = (unsigned)(prng() % 4);
			if (want & 1)
				memcpy(j->out, out, sizeof(out));
			if (want & 2)
				memcpy(j->in, in, sizeof(in));
			j->eq = 0xdead;
			copy[i] = *j;
			pj[i] = &jobs[i];
			pc[i] = &copy[i];
			count[want]++;
		}
		row_dc->dc->recheck(pj, n);
		fsha1dc_recheck_portable(pc, n);
		for (size_t i = 0; i < n; i++) {
			uint32_t in[5], out[5];
			fsha1dc_job_partner(&jobs[i], in, out);
			const unsigned want = (memcmp(out, jobs[i].out, 20) == 0 ? 1u : 0u) |
					      (memcmp(in, jobs[i].in, 20) == 0 ? 2u : 0u);
			CHECK(jobs[i].eq == want && copy[i].eq == want,
			      "recheck, %zu jobs, step %u, job %zu: row %u, portable %u, want %u", n,
			      (unsigned)jobs[i].testt, i, jobs[i].eq, copy[i].eq, want);
		}
	}
	printf("recheck: row against portable, %u/%u/%u/%u jobs with neither/out/in/both equal\n",
	       count[0], count[1], count[2], count[3]);
}

/* Real blocks forced to pass each DV (and each relation alone broken):
 * the filters, the row's filter in runs, and hashing them. */
static void check_filter_forced_blocks(void)
{
	struct sys *base = sys_new(NW_MSG, 64), *s = sys_new(NW_MSG, 64);
	uint8_t blk[64], msg[8 * 64 + 63], want[20];
	unsigned broken = 0, implied = 0;
	for (unsigned d = 0; d < 32; d++) {
		char what[64];
		base->n = 0;
		CHECK(add_dv(base, d, -1), "DV %u: no block passes its relations", d);
		snprintf(what, sizeof(what), "block forced to pass DV %u", d);
		for (int rep = 0; rep < 8; rep++) {
			solve_block(base, blk);
			CHECK(filter_all(NULL, blk, what) >> d & 1, "%s: its bit is clear", what);
		}
		check_row_filter_runs(blk, d);
		/* 8 such blocks and a random tail: recompressed, not flagged. */
		for (int b = 0; b < 8; b++)
			solve_block(base, msg + 64 * b);
		if (dumpf)
			fwrite(msg, 64, 8, dumpf);
		size_t len = 8 * 64 + (size_t)(prng() % 64);
		prng_fill(msg + 8 * 64, len - 8 * 64);
		fastsha1(msg, len, want);
		uint8_t pw[20];
		portable_sha1(msg, len, pw);
		CHECK(memcmp(want, pw, 20) == 0, "%s: SHA-1 differs from portable's", what);
		check_plain(msg, len, want, what);
		for (size_t n = 0; n < nrels; n++) {
			if (rels[n].dv != d)
				continue;
			s->n = 0;
			if (!add_dv(s, d, (long)n)) {
				implied++;
				continue;
			}
			for (int rep = 0; rep < 2; rep++) {
				solve_block(s, blk);
				snprintf(what, sizeof(what), "block breaking relation %zu of DV %u", n,
					 d);
				CHECK(!(filter_all(NULL, blk, what) >> d & 1), "%s: its bit is set",
				      what);
			}
			broken++;
		}
	}
	printf("filter, real blocks: 32 DVs forced, %u relations broken alone, %u implied by "
	       "the others in message space\n",
	       broken, implied);
	CHECK(broken + implied == nrels, "relations missed");
	sys_free(base);
	sys_free(s);
}

/* ---- the DV differences ------------------------------------------------------- */

static void check_dm(void)
{
	struct sys *s = sys_new(NW_MSG, 600);
	uint64_t v[NW_MSG], x[NW_MSG];
	for (unsigned d = 0; d < 32; d++) {
		unsigned K = tdv[d].k, b = tdv[d].b;
		/* DV[t] = X[t + 5]; DV[K..K+15] given, the rest by the recurrence:
		 * solve for X[0..15] = DV[-5..10]. */
		uint32_t want[16] = { 0 };
		want[15] = rol(1, b);
		if (tdv[d].type == 2)
			want[1] = want[3] = rol(0x80000000u, b);
		s->n = 0;
		for (unsigned i = 0; i < 16; i++)
			for (unsigned j = 0; j < 32; j++) {
				memcpy(v, lin[K + i + 5][j], sizeof(v));
				CHECK(sys_add(s, v, want[i] >> j & 1), "DV %u: inconsistent", d);
			}
		CHECK(s->n == 512, "DV %u: rank %u", d, s->n);
		sys_solve(s, x);
		uint32_t X[85];
		for (unsigned t = 0; t < 16; t++)
			X[t] = (uint32_t)(x[t / 2] >> (32 * (t % 2)));
		for (unsigned t = 16; t < 85; t++)
			X[t] = rol(X[t - 3] ^ X[t - 8] ^ X[t - 14] ^ X[t - 16], 1);
		const uint32_t *DV = X + 5; /* DV[-5..79] */
		for (unsigned i = 0; i < 16; i++)
			CHECK(DV[K + i] == want[i], "DV %u: DV[%u] %08x, want %08x", d, K + i, DV[K + i],
			      want[i]);
		/* testt: a step whose five preceding DV words are 0 (the states
		 * agree there). */
		for (unsigned t = tdv[d].testt - 5; t < tdv[d].testt; t++)
			CHECK(DV[t] == 0, "DV %u: DV[%u] = %08x before testt %u", d, t, DV[t],
			      tdv[d].testt);
		uint32_t dm[80], got[80];
		for (int t = 0; t < 80; t++)
			dm[t] = DV[t] ^ rol(DV[t - 1], 5) ^ DV[t - 2] ^ rol(DV[t - 3], 30) ^
				rol(DV[t - 4], 30) ^ rol(DV[t - 5], 30);
		fsha1dc_dm(d, got);
		for (int t = 0; t < 80; t++)
			CHECK(got[t] == dm[t], "DV %u: fsha1dc_dm[%d] %08x, derived %08x", d, t,
			      got[t], dm[t]);
		/* dm is a difference of expanded messages: the schedule of its
		 * first 16 words gives the other 64 (each DV[t - i] term follows
		 * the recurrence from t = 11 + i, so dm does from t = 16). */
		for (int t = 16; t < 80; t++)
			CHECK(got[t] == rol(got[t - 3] ^ got[t - 8] ^ got[t - 14] ^ got[t - 16], 1),
			      "DV %u: dm[%d] breaks the message recurrence", d, t);
	}
	printf("dm: 32 DVs equal the derivation and are expanded messages\n");
	sys_free(s);
}

/* ---- the worst case ------------------------------------------------------- */

static struct sys *worst; /* the greedy union of DV systems */
static uint32_t worst_dvs;

/* Blocks that pass the filter for as many DVs as the relations allow at
 * once: DVs added greedily (fewest relations first, then a few random
 * orders), each kept while the union stays consistent. */
static void build_worst(void)
{
	struct sys *s = sys_new(NW_MSG, 512), *t = sys_new(NW_MSG, 512);
	worst = sys_new(NW_MSG, 512);
	unsigned best = 0;
	for (int order = 0; order < 64; order++) {
		unsigned perm[32];
		for (unsigned i = 0; i < 32; i++)
			perm[i] = i;
		if (order == 0) { /* fewest relations first */
			for (unsigned i = 0; i < 32; i++)
				for (unsigned j = i + 1; j < 32; j++)
					if (tdv[perm[j]].nrel < tdv[perm[i]].nrel) {
						unsigned tmp = perm[i];
						perm[i] = perm[j];
						perm[j] = tmp;
					}
		} else {
			for (unsigned i = 31; i > 0; i--) {
				unsigned j = (unsigned)(prng() % (i + 1)), tmp = perm[i];
				perm[i] = perm[j];
				perm[j] = tmp;
			}
		}
		s->n = 0;
		uint32_t set = 0;
		unsigned cnt = 0;
		for (unsigned i = 0; i < 32; i++) {
			sys_copy(t, s);
			if (add_dv(t, perm[i], -1)) {
				sys_copy(s, t);
				set |= 1u << perm[i];
				cnt++;
			}
		}
		if (cnt > best) {
			best = cnt;
			worst_dvs = set;
			sys_copy(worst, s);
		}
	}
	printf("worst case: one block can pass %u DVs at once (mask %08x, %u equations)\n", best,
	       worst_dvs, worst->n);
	for (unsigned d = 0; d < 32; d++)
		if (worst_dvs >> d & 1)
			printf(" %s(%u,%u)", tdv[d].type == 1 ? "I" : "II", tdv[d].k, tdv[d].b);
	printf("\n");
	sys_free(s);
	sys_free(t);
}

static void check_worst(void)
{
	enum { N = 256 };
	uint8_t *m = malloc(N * 64 + 37), *r = malloc(N * 64 + 37), want[20], got[20];
	unsigned minpop = 32, maxpop = 0;
	for (unsigned b = 0; b < N; b++) {
		solve_block(worst, m + 64 * b);
		uint32_t mask = filter_all(NULL, m + 64 * b, "worst-case block");
		CHECK((mask & worst_dvs) == worst_dvs, "worst-case block %u: mask %08x lacks %08x", b,
		      mask, worst_dvs);
		unsigned pop = (unsigned)__builtin_popcount(mask);
		minpop = pop < minpop ? pop : minpop;
		maxpop = pop > maxpop ? pop : maxpop;
	}
	printf("worst case: %u blocks, %u to %u surviving DVs per block\n", N, minpop, maxpop);
	if (dumpf)
		fwrite(m, 64, N, dumpf);
	prng_fill(m + N * 64, 37);
	fastsha1(m, N * 64 + 37, want);
	portable_sha1(m, N * 64 + 37, got);
	CHECK(memcmp(want, got, 20) == 0, "worst case: SHA-1 differs from portable's");
	check_plain(m, N * 64 + 37, want, "worst-case message");
	{
		/* In a batch, beside random messages: more jobs wait in a lane
		 * step than fit at once (12 a block); 18 messages, so that
		 * rows of up to 16 lanes run it. */
		enum { NM = 18 };
		fastsha_msg msgs[NM];
		uint8_t outs[NM][20], det[NM], w[20];
		prng_fill(r, N * 64 + 37);
		for (unsigned i = 0; i < NM; i++) {
			const size_t len = N * 64 + 37 - 97 * i;
			msgs[i].data = i % 3 == 2 ? r : m + 64 * (i % 2);
			msgs[i].len = len - 64 * (i % 2);
		}
		for (int pass = 0; pass < 2 && (!pass || words_path(0)); pass++) {
			CHECK(fastsha1dc_many(msgs, NM, outs, det) == 0,
			      "worst case: batch flagged (pass %d)", pass);
			for (unsigned i = 0; i < NM; i++) {
				fastsha1(msgs[i].data, msgs[i].len, w);
				CHECK(det[i] == 0 && memcmp(outs[i], w, 20) == 0,
				      "worst case: batch message %u not SHA-1 (pass %d)", i, pass);
			}
			if (pass)
				words_path(1);
		}
	}
	/* A rough time, for the eye only (the benchmark measures it). */
	prng_fill(r, N * 64 + 37);
	struct timespec t0, t1, t2;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int i = 0; i < 8; i++)
		fastsha1dc(m, N * 64, got);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	for (int i = 0; i < 8; i++)
		fastsha1dc(r, N * 64, got);
	clock_gettime(CLOCK_MONOTONIC, &t2);
	double tw = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
	double tr = (double)(t2.tv_sec - t1.tv_sec) + 1e-9 * (double)(t2.tv_nsec - t1.tv_nsec);
	printf("worst case (rough, unlocked): %.0f ns/block vs %.0f ns/block random (%.1fx)\n",
	       tw * 1e9 / (8 * N), tr * 1e9 / (8 * N), tr > 0 ? tw / tr : 0.0);
	free(m);
	free(r);
}

/* Blocks forced to pass a DV at the edges of the driver's filter chunks
 * (64 blocks) and in runs, among random blocks, both paths. */
static void check_filter_path_core(void)
{
	enum { NB = 200 };
	static const unsigned at[] = { 0, 1, 2, 62, 63, 64, 65, 66, 127, 128, 129, 198, 199 };
	uint8_t *m = malloc(NB * 64 + 64), want[20], got[20];
	struct sys *s = sys_new(NW_MSG, 64);
	for (int shape = 0; shape < 4; shape++) {
		prng_fill(m, NB * 64 + 64);
		for (unsigned b = 0; b < NB; b++) {
			int forced = shape == 0 ? 0
				     : shape == 1 ? 1
				     : shape == 2 ? (b >= 60 && b < 70) || (b >= 120 && b < 140)
						  : 0;
			for (size_t i = 0; shape == 3 && i < sizeof(at) / sizeof(at[0]); i++)
				forced |= at[i] == b;
			if (forced) {
				s->n = 0;
				add_dv(s, b % 32, -1);
				solve_block(s, m + 64 * b);
			}
		}
		for (size_t len = NB * 64 - 70; len <= NB * 64 + 64; len += 67) {
			fastsha1(m, len, want);
			for (int path = 0; path < 2; path++) {
				if (path)
					filter_path(1);
				fastsha1dc_ctx c;
				fastsha1dc_init_opts(&c, SAFE | RR);
				fastsha1dc_update(&c, m, 64 * 63 + 5);
				fastsha1dc_update(&c, m + 64 * 63 + 5, len - (64 * 63 + 5));
				CHECK(fastsha1dc(m, len, got) == 0 && memcmp(got, want, 20) == 0,
				      "filter path %d, shape %d, len %zu: one-shot", path, shape, len);
				CHECK(fastsha1dc_final(&c, got) == 0 && memcmp(got, want, 20) == 0,
				      "filter path %d, shape %d, len %zu: streamed", path, shape, len);
				if (path)
					filter_path(0);
			}
		}
	}
	sys_free(s);
	free(m);
	printf("driver: forced blocks at filter-chunk edges and in runs, both paths\n");
}

/* ---- random messages --------------------------------------------------------- */

/* ---- guard pages, options ------------------------------------------------------ */

/*
 * Nothing read past the end: the row's filter on runs of 1..40 blocks (a
 * DV-forced block last, so the check path runs too) and SHA1DC of messages
 * of 0..200 bytes, each ending right before a PROT_NONE page.
 */
static void check_guard(void)
{
	struct test_guard g;
	test_guard_map(&g, 64 * 40 + 200); /* the longest run, or message */
	uint8_t *end = g.hi, want[20], got[20];
	struct sys *s = sys_new(NW_MSG, 64);
	uint32_t masks[40], pm[40];
	for (unsigned n = 1; n <= 40; n++) {
		uint8_t *run = end - 64 * n;
		prng_fill(run, 64 * n);
		unsigned d = n % 32;
		s->n = 0;
		add_dv(s, d, -1);
		solve_block(s, end - 64);
		row_filter(run, n, masks);
		fsha1dc_filter_portable(run, n, pm);
		CHECK(memcmp(masks, pm, 4 * n) == 0 && masks[n - 1] >> d & 1,
		      "guard: row filter on %u blocks", n);
		fastsha1(run, 64 * n, want);
		CHECK(fastsha1dc(run, 64 * n, got) == 0 && memcmp(got, want, 20) == 0,
		      "guard: SHA1DC of %u blocks", n);
	}
	for (size_t len = 0; len <= 200; len++) {
		uint8_t *m = end - len;
		prng_fill(m, len);
		fastsha1(m, len, want);
		CHECK(fastsha1dc(m, len, got) == 0 && memcmp(got, want, 20) == 0,
		      "guard: SHA1DC of %zu bytes", len);
		fastsha1dc_ctx c;
		fastsha1dc_init(&c);
		fastsha1dc_update(&c, m, len / 3);
		fastsha1dc_update(&c, m + len / 3, len - len / 3);
		CHECK(fastsha1dc_final(&c, got) == 0 && memcmp(got, want, 20) == 0,
		      "guard: SHA1DC of %zu bytes streamed", len);
	}
	sys_free(s);
	test_guard_unmap(&g);
	printf("guard: filter runs and messages ending at a PROT_NONE page\n");
}

static uint8_t *fdata[5]; /* the colliding files */

/* Bits other than the two options are ignored (on shattered-1's first 320
 * bytes, whose digest each option changes). */
static void check_option_bits(void)
{
	uint8_t m[320], a[20], b[20];
	memcpy(m, fdata[0], 320);
	for (unsigned o = 0; o < 4; o++) {
		fastsha1dc_opts(m, sizeof(m), o, a, NULL);
		fastsha1dc_opts(m, sizeof(m), o | 0xfffffffcu, b, NULL);
		CHECK(memcmp(a, b, 20) == 0, "options %u with other bits set", o);
		fastsha1dc_ctx c;
		fastsha1dc_init_opts(&c, o | 0x80000000u);
		fastsha1dc_update(&c, m, sizeof(m));
		fastsha1dc_final(&c, b);
		CHECK(memcmp(a, b, 20) == 0, "init_opts %u with other bits set", o);
	}
}

static void check_random_messages(void)
{
	enum { POOL = 64 * 1024 };
	uint8_t *pool = malloc(POOL), want[20], pw[20], pdc[20], got[20];
	prng_fill(pool, POOL);
	/* 0..200, 20 random lengths up to 20 KiB, and lengths about 1, 2 and 3
	 * runs of 32 blocks, where the one-shot's copied tail (the last blocks
	 * with the padding) holds 1 or 2 padding blocks and 0..32 whole ones. */
	static const int near[12] = { -73, -65, -64, -57, -56, -55, -9, -1, 0, 1, 55, 56 };
	enum { NLENS = 201 + 20 + 36 };
	size_t lens[NLENS];
	for (size_t i = 0; i <= 200; i++)
		lens[i] = i;
	for (size_t i = 201; i < 221; i++)
		lens[i] = (size_t)(prng() % (20 * 1024 + 1));
	for (size_t i = 221; i < NLENS; i++)
		lens[i] = (size_t)((long)(2048 * (1 + (i - 221) / 12)) + near[(i - 221) % 12]);
	for (size_t i = 0; i < NLENS; i++) {
		const uint8_t *m = pool + prng() % (POOL - 20 * 1024 - 1);
		size_t len = lens[i];
		fastsha1(m, len, want);
		/* The portable row: its SHA-1 and its SHA1DC. */
		fastsha_use_backend(FASTSHA_SHA1, "portable");
		fastsha1(m, len, pw);
		fastsha1dc(m, len, pdc);
		fastsha_use_backend(FASTSHA_SHA1, backend_name);
		CHECK(memcmp(want, pw, 20) == 0 && memcmp(want, pdc, 20) == 0,
		      "len %zu: SHA-1 / portable's SHA1DC differ", len);
		check_plain(m, len, want, "random message");
		/* Ending in a partial byte. */
		fastsha1_ctx c1;
		fastsha1dc_ctx c2;
		fastsha1_init(&c1);
		fastsha1dc_init(&c2);
		fastsha1_update(&c1, m, len);
		fastsha1dc_update(&c2, m, len);
		unsigned nb = (unsigned)(prng() % 8);
		uint8_t last = (uint8_t)prng();
		fastsha1_final_bits(&c1, last, nb, want);
		CHECK(fastsha1dc_final_bits(&c2, last, nb, got) == 0 && memcmp(want, got, 20) == 0,
		      "len %zu + %u bits: final_bits differs from SHA-1", len, nb);
	}
	/* The same lengths in one batch: lanes carry messages of every tail
	 * shape side by side. */
	fastsha_msg *bm = malloc(NLENS * sizeof(*bm));
	uint8_t(*bo)[20] = malloc(NLENS * sizeof(*bo)), *bd = malloc(NLENS);
	for (size_t i = 0; i < NLENS; i++) {
		bm[i].data = pool + prng() % (POOL - 20 * 1024 - 1);
		bm[i].len = lens[i];
	}
	/* and again without the row's words loop (words_path()) */
	for (int pass = 0; pass < 2 && (!pass || words_path(0)); pass++) {
		CHECK(fastsha1dc_many(bm, NLENS, bo, bd) == 0,
		      "batch of every length: something detected (pass %d)", pass);
		for (size_t i = 0; i < NLENS; i++) {
			fastsha1(bm[i].data, bm[i].len, want);
			CHECK(bd[i] == 0 && memcmp(bo[i], want, 20) == 0,
			      "batch of every length: len %zu (pass %d)", bm[i].len, pass);
		}
		if (pass)
			words_path(1);
	}
	free(bm);
	free(bo);
	free(bd);
	/* NULL with 0. */
	fastsha1(NULL, 0, want);
	CHECK(fastsha1dc(NULL, 0, got) == 0 && memcmp(got, want, 20) == 0, "fastsha1dc(NULL, 0)");
	CHECK(fastsha_digest_detect(FASTSHA_SHA1DC, NULL, 0, got) == 0 && memcmp(got, want, 20) == 0,
	      "fastsha_digest_detect(SHA1DC, NULL, 0)");
	fastsha1dc_ctx c0;
	fastsha1dc_init(&c0);
	fastsha1dc_update(&c0, NULL, 0);
	CHECK(fastsha1dc_final(&c0, got) == 0 && memcmp(got, want, 20) == 0, "update(NULL, 0)");
	fastsha_msg nm[3] = { { NULL, 0 }, { pool, 3 }, { NULL, 0 } };
	uint8_t nout[3][20], ndet[3] = { 9, 9, 9 };
	CHECK(fastsha1dc_many(nm, 3, nout, ndet) == 0 && ndet[0] == 0 && ndet[2] == 0 &&
		      memcmp(nout[0], want, 20) == 0 && memcmp(nout[2], want, 20) == 0,
	      "fastsha1dc_many with NULL, 0");
	printf("random messages: %d lengths, every tail shape, one by one and in one batch, plain "
	       "SHA-1 and not flagged\n",
	       NLENS);
	free(pool);
}

/* ---- threads ----------------------------------------------------------------- */

/*
 * The DV table fills on the first block a DV survives (sha1dc_impl.h
 * fsha1dc_dm_of()), without a lock: threads started at once on blocks the
 * filter lets through race there. This runs before anything else in the
 * process hashes such a block.
 */
struct job {
	const uint8_t *m;
	size_t len;
	uint8_t want[20];
	int want_det;
	int fails;
};
static pthread_barrier_t barrier;

static void *run_job(void *arg)
{
	struct job *j = arg;
	uint8_t got[20];
	pthread_barrier_wait(&barrier);
	for (int i = 0; i < 4; i++) {
		int det = fastsha1dc(j->m, j->len, got);
		if (det != j->want_det || memcmp(got, j->want, 20) != 0)
			j->fails++;
	}
	return NULL;
}

static void run_jobs(struct job *jobs, int n)
{
	pthread_t th[8];
	pthread_barrier_init(&barrier, NULL, (unsigned)n);
	for (int i = 0; i < n; i++)
		pthread_create(&th[i], NULL, run_job, &jobs[i]);
	for (int i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	pthread_barrier_destroy(&barrier);
	for (int i = 0; i < n; i++)
		CHECK(jobs[i].fails == 0, "thread %d: %d wrong results", i, jobs[i].fails);
}

/*
 * The race on the table happens once per process, so it is run in 48 fresh
 * processes (fork() before this process has any thread), each with 4
 * threads released together on worst-case blocks: every thread's first
 * block has 12 DVs to check, so all of them want the table at once.
 */
static void check_threads_core(void)
{
	struct job jobs[4];
	uint8_t *bufs[4];
	for (int i = 0; i < 4; i++) {
		/* Worst-case blocks for threads 0-2, random data for thread 3. */
		size_t len = 64 * 64 + (size_t)i * 13;
		bufs[i] = malloc(len);
		if (i < 3)
			for (size_t b = 0; b < 64; b++)
				solve_block(worst, bufs[i] + 64 * b);
		else
			prng_fill(bufs[i], len);
		prng_fill(bufs[i] + 64 * 64, len - 64 * 64);
		jobs[i] = (struct job){ bufs[i], len, { 0 }, 0, 0 };
		fastsha1(bufs[i], len, jobs[i].want);
	}
	fflush(stdout);
	int bad = 0;
	for (int r = 0; r < 48; r++) {
		pid_t pid = fork();
		if (pid == 0) {
			run_jobs(jobs, 4);
			_exit(test_failures ? 1 : 0);
		}
		int st = 0;
		if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
			bad++;
	}
	CHECK(bad == 0, "threads: %d of 48 processes got wrong results", bad);
	run_jobs(jobs, 4); /* and this process's own table */
	for (int i = 0; i < 4; i++)
		free(bufs[i]);
	printf("threads: 48 processes x 4 threads racing on the DV table, right results\n");
}

/* ---- the colliding files ------------------------------------------------------- */

static const struct expect {
	const char *name;
	size_t len;
	const char *sha1, *dc, *rr; /* plain, safe hash (default), safe hash + reduced round */
	int flagged;                /* by default */
	unsigned block;             /* first flagged block by default */
	unsigned rr_block;          /* and in reduced-round mode (below) */
} files[5] = {
	{ "shattered-1.pdf", 422435, "38762cf7f55934b34d179ae6a4c80cadccbb7f0a",
	  "16e96b70000dd1e7c85b8368ee197754400e58ec", "d3a1d09969c3b57113fd17b23e01dd3de74a99bb", 1,
	  4, 3 },
	{ "shattered-2.pdf", 422435, "38762cf7f55934b34d179ae6a4c80cadccbb7f0a",
	  "e1761773e6a35916d99f891b77663e6405313587", "92246b0b718f4c704d37bb025717cbc66babf102", 1,
	  4, 3 },
	{ "sha-mbles-1.bin", 640, "8ac60ba76f1999a1ab70223f225aefdc78d4ddc0",
	  "4f3d9be4a472c4dae83c6314aa6c36a064c1fd14", "4f3d9be4a472c4dae83c6314aa6c36a064c1fd14", 1,
	  9, 9 },
	{ "sha-mbles-2.bin", 640, "8ac60ba76f1999a1ab70223f225aefdc78d4ddc0",
	  "9ed5d77a4f48be1dbf3e9e15650733eb850897f2", "9ed5d77a4f48be1dbf3e9e15650733eb850897f2", 1,
	  9, 9 },
	{ "sha1_reducedsha_coll.bin", 128, "a56374e1cf4c3746499bc7c0acb39498ad2ee185",
	  "a56374e1cf4c3746499bc7c0acb39498ad2ee185", "dd39885a2a5d8f59030b451e00cb45da9f9d3828", 0,
	  0, 1 },
};
/*
 * Reduced-round mode flags shattered's first near-collision block (3): its
 * partner, block 3 of the other file, starts from the same chaining value.
 * The design note gives no block for this mode; these were read off the
 * reference C (lib/sha1.c of Debian's librust-sha1collisiondetection-dev
 * 0.2.6, which ships it) as the shortest whole-block prefix it flags, in
 * both safe-hash settings. Its DV is not asserted (the reference does not
 * report it).
 */
#define DV_II_52_0 27u /* SHAttered's and SHA-mbles' DV, in the mask order */

static uint8_t *read_file(const char *dir, const char *name, size_t len)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "rb");
	if (!f) {
		printf("SKIP: %s not found (set FASTSHA_SHA1DC_FILES, or run "
		       "tests/fetch_sha1dc_files.sh)\n",
		       path);
		exit(TEST_SKIP);
	}
	uint8_t *p = malloc(len + 1);
	size_t n = fread(p, 1, len + 1, f);
	fclose(f);
	if (n != len) {
		fprintf(stderr, "FAIL: %s has %zu bytes, not %zu\n", path, n, len);
		exit(1);
	}
	return p;
}

/* What @o's result for file @f must be. */
static void expected(unsigned f, unsigned o, const char **hex, int *det)
{
	const struct expect *e = &files[f];
	*det = e->flagged || (o & RR);
	*hex = !(o & SAFE) ? e->sha1 : (o & RR) ? e->rr : e->dc;
}

static void check_result(unsigned f, unsigned o, int det, const uint8_t *got,
			 const fastsha1dc_result *res, const char *how)
{
	const char *hex;
	int want;
	char h[41];
	expected(f, o, &hex, &want);
	hex20(got, h);
	CHECK(det == want && strcmp(h, hex) == 0, "%s, options %u, %s: detected %d, %s; want %d, %s",
	      files[f].name, o, how, det, h, want, hex);
	if (!res)
		return;
	CHECK(res->detected == want, "%s, options %u, %s: res.detected %d", files[f].name, o, how,
	      res->detected);
	/* Where the design note gives the block and the DV: the default, and
	 * safe hash off, which acts only after the first flag. */
	if (!(o & RR) && files[f].flagged)
		CHECK(res->block == files[f].block && res->dv_index == DV_II_52_0 &&
			      res->dv_type == 2 && res->dv_k == 52 && res->dv_b == 0 &&
			      res->flagged >= 1,
		      "%s, options %u, %s: block %llu, DV %u = %u(%u,%u), %u flagged; want block "
		      "%u, II(52,0)",
		      files[f].name, o, how, (unsigned long long)res->block, res->dv_index,
		      res->dv_type, res->dv_k, res->dv_b, res->flagged, files[f].block);
	if (o & RR)
		CHECK(res->block == files[f].rr_block && res->flagged >= 1,
		      "%s, options %u, %s: first flagged block %llu, the reference's is %u",
		      files[f].name, o, how, (unsigned long long)res->block, files[f].rr_block);
}

/* Stream @m in the pieces @cuts (lengths, ending with the rest) from an odd
 * address. */
static int dc_stream(const uint8_t *m, size_t len, const size_t *cuts, size_t ncuts, unsigned o,
		     uint8_t out[20], fastsha1dc_result *res)
{
	fastsha1dc_ctx c;
	fastsha1dc_init_opts(&c, o);
	size_t off = 0;
	for (size_t i = 0; i < ncuts && off < len; i++) {
		size_t n = cuts[i] > len - off ? len - off : cuts[i];
		fastsha1dc_update(&c, m + off, n);
		off += n;
	}
	fastsha1dc_update(&c, m + off, len - off);
	return fastsha1dc_final_result(&c, out, res);
}

static void check_files(void)
{
	uint8_t got[20];
	fastsha1dc_result res;
	size_t maxlen = files[0].len + 64;
	uint8_t *odd = malloc(maxlen + 8);
	unsigned nsplit = 0;
	/* FASTSHA_TEST_SHA1DC_SAMPLE=N (the sanitizer preset's 8): a shattered
	 * file whole at one split in N of those below (the splits of its first
	 * 1,024 bytes all stay); under the sanitizers, with portable, the whole
	 * files were 48 s. */
	size_t every = test_env_sample("FASTSHA_TEST_SHA1DC_SAMPLE");
	if (every < 1)
		every = 1;
	for (unsigned f = 0; f < 5; f++) {
		const uint8_t *m = fdata[f];
		size_t len = files[f].len;
		fastsha1(m, len, got);
		CHECK(eq_hex(got, files[f].sha1), "%s: plain SHA-1 wrong (the wrong file?)",
		      files[f].name);
		for (unsigned o = 0; o < 4; o++) {
			int det = fastsha1dc_opts(m, len, o, got, &res);
			check_result(f, o, det, got, &res, "one-shot");
			/* From an odd address, in one update. */
			memcpy(odd + 3, m, len);
			det = dc_stream(odd + 3, len, NULL, 0, o, got, &res);
			check_result(f, o, det, got, &res, "one update");
		}
		/*
		 * Every two-part split 0..640: all of sha-mbles in every option
		 * set. The whole of a shattered file (6,600 blocks) at every
		 * split by default, at every 8th with the safe hash off (git's
		 * setting), every 32nd in reduced-round mode; and its first 1,024
		 * bytes (the colliding blocks are 3 and 4) at every split in every
		 * option set, against their one-shot.
		 */
		size_t top = len < 640 ? len : 640, plen = len < 1024 ? len : 1024;
		uint8_t pref[4][20];
		fastsha1dc_result pres[4];
		int pdet[4];
		for (unsigned o = 0; o < 4; o++) {
			pdet[o] = fastsha1dc_opts(m, plen, o, pref[o], &pres[o]);
			fastsha1(m, plen, got);
			if (files[f].flagged && !(o & RR))
				CHECK(pdet[o] == 1 && pres[o].block == files[f].block &&
					      pres[o].dv_index == DV_II_52_0,
				      "%s, first %zu bytes, options %u: detected %d, block %llu",
				      files[f].name, plen, o, pdet[o],
				      (unsigned long long)pres[o].block);
			if (!(o & SAFE))
				CHECK(memcmp(pref[o], got, 20) == 0,
				      "%s, first %zu bytes, safe hash off: not SHA-1", files[f].name,
				      plen);
		}
		for (size_t s = 0; s <= top; s++)
			for (unsigned o = 0; o < 4; o++) {
				char how[48];
				snprintf(how, sizeof(how), "split at %zu", s);
				int full = len <= 640 ||
					   ((o == SAFE || (o == 0 && s % 8 == 0) || s % 32 == 0) &&
					    s % every == 0);
				if (full) {
					int det = dc_stream(m, len, &s, 1, o, got, &res);
					check_result(f, o, det, got, &res, how);
					nsplit++;
				}
				if (len > 640) {
					int det = dc_stream(m, plen, &s, 1, o, got, &res);
					CHECK(det == pdet[o] && memcmp(got, pref[o], 20) == 0 &&
						      res.block == pres[o].block &&
						      res.dv_index == pres[o].dv_index &&
						      res.flagged == pres[o].flagged,
					      "%s, first %zu bytes, options %u, %s: differs from "
					      "one-shot",
					      files[f].name, plen, o, how);
					nsplit++;
				}
			}
		/* Random two-part and many-part splits. */
		for (int r = 0; r < 40; r++) {
			size_t cuts[64], ncuts = r < 10 ? 1 : 1 + (size_t)(prng() % 63);
			for (size_t i = 0; i < ncuts; i++) {
				size_t most = r < 10 ? len : prng() % 4 == 0 ? len / 8 : 199;
				cuts[i] = (size_t)(prng() % (most + 1));
			}
			unsigned o = (unsigned)(prng() % 4);
			int det = dc_stream(m, len, cuts, ncuts, o, got, &res);
			check_result(f, o, det, got, &res, "random split");
			nsplit++;
		}
		/* final() leaves the context alone and may be called mid-way. */
		fastsha1dc_ctx c, c2;
		fastsha1dc_init(&c);
		fastsha1dc_update(&c, m, len / 2);
		c2 = c;
		uint8_t mid[20], mid2[20];
		fastsha1dc_final(&c, mid);
		fastsha1dc_final(&c2, mid2);
		CHECK(memcmp(mid, mid2, 20) == 0, "%s: final on a copy differs", files[f].name);
		fastsha1dc_update(&c, m + len / 2, len - len / 2);
		int det = fastsha1dc_final_result(&c, got, &res);
		check_result(f, SAFE, det, got, &res, "after a final mid-way");
		/* The generic API. */
		fastsha_ctx g;
		CHECK(fastsha_init(&g, FASTSHA_SHA1DC) == 0, "fastsha_init(SHA1DC)");
		fastsha_update(&g, m, len / 3);
		fastsha_update(&g, m + len / 3, len - len / 3);
		det = fastsha_final_detect(&g, got);
		check_result(f, SAFE, det, got, NULL, "fastsha_final_detect");
		fastsha_final(&g, got);
		check_result(f, SAFE, files[f].flagged, got, NULL, "fastsha_final");
		det = fastsha_digest_detect(FASTSHA_SHA1DC, m, len, got);
		check_result(f, SAFE, det, got, NULL, "fastsha_digest_detect");
		CHECK(fastsha_digest(FASTSHA_SHA1DC, m, len, got) == 0, "fastsha_digest(SHA1DC)");
		check_result(f, SAFE, files[f].flagged, got, NULL, "fastsha_digest");
		CHECK(fastsha_digest_bits(FASTSHA_SHA1DC, m, 8 * (uint64_t)len, got) == 0,
		      "fastsha_digest_bits(SHA1DC)");
		check_result(f, SAFE, files[f].flagged, got, NULL, "fastsha_digest_bits");
		/* A trailing partial byte: the generic and the typed final agree. */
		uint8_t gb[20], tb[20];
		fastsha_final_bits(&g, 0xa5, 5, gb);
		fastsha1dc_ctx tc;
		fastsha1dc_init(&tc);
		fastsha1dc_update(&tc, m, len);
		CHECK(fastsha1dc_final_bits(&tc, 0xa5, 5, tb) == files[f].flagged &&
			      memcmp(gb, tb, 20) == 0,
		      "%s: final_bits, generic and typed differ", files[f].name);
		det = fastsha_digest_detect(FASTSHA_SHA1, m, len, got);
		CHECK(det == 0 && eq_hex(got, files[f].sha1), "%s: digest_detect(SHA1) %d",
		      files[f].name, det);
		det = fastsha1dc(m, len, got);
		check_result(f, SAFE, det, got, NULL, "fastsha1dc");
	}
	printf("files: 5 files x 4 option sets, %u streamed splits\n", nsplit);
	free(odd);
}

/* The five files in one batch, random messages between them: 40 messages,
 * so that rows of up to 16 lanes (and their rechecks with hits) run it. */
static void check_files_batch(void)
{
	enum { N = 40 };
	fastsha_msg msgs[N];
	uint8_t *pool = malloc(8192), out[N][20], out2[N][20], det[N], det2[N], want[20];
	int file_of[N];
	prng_fill(pool, 8192);
	for (int i = 0; i < N; i++) {
		file_of[i] = i % 3 == 1 && i / 3 < 5 ? i / 3 : -1;
		if (file_of[i] >= 0) {
			msgs[i].data = fdata[file_of[i]];
			msgs[i].len = files[file_of[i]].len;
		} else {
			msgs[i].len = (size_t)(prng() % 4096);
			msgs[i].data = pool + prng() % 4096;
		}
	}
	long n = fastsha_many_detect(FASTSHA_SHA1DC, msgs, N, &out[0][0], det);
	size_t n2 = fastsha1dc_many(msgs, N, out2, det2);
	CHECK(n == 4 && n2 == 4, "batch: %ld and %zu detected, want 4", n, n2);
	for (int i = 0; i < N; i++) {
		if (file_of[i] >= 0) {
			check_result((unsigned)file_of[i], SAFE, det[i], out[i], NULL,
				     "fastsha_many_detect");
			check_result((unsigned)file_of[i], SAFE, det2[i], out2[i], NULL,
				     "fastsha1dc_many");
		} else {
			fastsha1(msgs[i].data, msgs[i].len, want);
			CHECK(det[i] == 0 && det2[i] == 0 && memcmp(out[i], want, 20) == 0 &&
				      memcmp(out2[i], want, 20) == 0,
			      "batch: random message %d (len %zu)", i, msgs[i].len);
		}
	}
	/* The plain algorithm: nothing detected, plain digests. */
	n = fastsha_many_detect(FASTSHA_SHA1, msgs, N, &out[0][0], det);
	CHECK(n == 0, "fastsha_many_detect(SHA1) says %ld", n);
	for (int i = 0; i < N; i++) {
		fastsha1(msgs[i].data, msgs[i].len, want);
		CHECK(det[i] == 0 && memcmp(out[i], want, 20) == 0, "SHA-1 batch: message %d", i);
	}
	/* fastsha_many() and fastsha_chunks() of SHA1DC detect too (their
	 * digests are the safe-hash ones). */
	CHECK(fastsha_many(FASTSHA_SHA1DC, msgs, N, &out[0][0]) == 0, "fastsha_many(SHA1DC)");
	for (int i = 0; i < N; i++)
		CHECK(memcmp(out[i], out2[i], 20) == 0, "fastsha_many(SHA1DC): message %d", i);
	/* More detected messages in one batch than it defers to hash again
	 * after it returns (32, sha1dc_many.h struct fsha1dc_redo): the rest
	 * are hashed again at once. Every other one the 320-byte prefix of
	 * shattered-1.pdf (detected), between them its 319-byte prefix (not).
	 */
	{
		enum { ND = 80 };
		fastsha_msg dm[ND];
		uint8_t (*dout)[20] = malloc(ND * 20), *ddet = malloc(ND), w320[20], w319[20];
		for (int i = 0; i < ND; i++) {
			dm[i].data = fdata[0];
			dm[i].len = i % 2 ? 319 : 320;
		}
		CHECK(fastsha1dc(fdata[0], 320, w320) == 1 && fastsha1dc(fdata[0], 319, w319) == 0,
		      "320/319-byte prefixes one by one");
		CHECK(fastsha1dc_many(dm, ND, dout, ddet) == ND / 2, "batch of %d prefixes: detected count",
		      ND);
		for (int i = 0; i < ND; i++)
			CHECK(ddet[i] == (i % 2 ? 0 : 1) && memcmp(dout[i], i % 2 ? w319 : w320, 20) == 0,
			      "batch of %d prefixes: message %d", ND, i);
		free(dout);
		free(ddet);
	}
	enum { PIECES = 200 };
	uint8_t(*ch)[20] = malloc(PIECES * 20);
	CHECK(fastsha_chunks(FASTSHA_SHA1DC, fdata[0], 320 * PIECES, 320, &ch[0][0]) == PIECES,
	      "fastsha_chunks(SHA1DC) count");
	for (int i = 0; i < PIECES; i++) {
		int d = fastsha1dc(fdata[0] + 320 * i, 320, want);
		CHECK(d == (i == 0) && memcmp(ch[i], want, 20) == 0,
		      "fastsha_chunks(SHA1DC): piece %d (detected %d)", i, d);
	}
	free(ch);
	printf("batch: the five files among random messages; many and chunks\n");
	free(pool);
}

/* The 320- and 319-byte prefixes of shattered-1.pdf and every one-bit
 * change of the 320. */
static void check_prefix(void)
{
	uint8_t p[320], got[20], want[20];
	fastsha1dc_result res;
	memcpy(p, fdata[0], 320);
	int det = fastsha1dc_opts(p, 320, SAFE, got, &res);
	CHECK(det == 1 && res.block == 4 && res.dv_index == DV_II_52_0,
	      "320-byte prefix: detected %d, block %llu, DV %u", det, (unsigned long long)res.block,
	      res.dv_index);
	fastsha1(p, 320, want);
	CHECK(memcmp(got, want, 20) != 0, "320-byte prefix: safe hash gave plain SHA-1");
	det = fastsha1dc_opts(p, 320, 0, got, &res);
	CHECK(det == 1 && memcmp(got, want, 20) == 0, "320-byte prefix, safe hash off");
	det = fastsha1dc(p, 319, got);
	fastsha1(p, 319, want);
	CHECK(det == 0 && memcmp(got, want, 20) == 0, "319-byte prefix: detected %d", det);
	/* The colliding blocks differ by exactly dm(II(52,0)): an independent
	 * check of the difference, from the files. */
	uint32_t dm[80], w1[80], w2[80];
	fsha1dc_dm(DV_II_52_0, dm);
	for (unsigned b = 3; b <= 4; b++) {
		expand(fdata[0] + 64 * b, w1);
		expand(fdata[1] + 64 * b, w2);
		for (int t = 0; t < 80; t++)
			CHECK((w1[t] ^ w2[t]) == dm[t], "shattered block %u: W[%d] difference %08x, "
			      "dm %08x", b, t, w1[t] ^ w2[t], dm[t]);
	}
	for (unsigned b = 1; b <= 9; b++) {
		expand(fdata[2] + 64 * b, w1);
		expand(fdata[3] + 64 * b, w2);
		for (int t = 0; t < 80; t++)
			CHECK((w1[t] ^ w2[t]) == dm[t], "sha-mbles block %u: W[%d] difference", b, t);
	}
	for (unsigned bit = 0; bit < 320 * 8; bit++) {
		p[bit / 8] ^= (uint8_t)(1u << (bit % 8));
		det = fastsha1dc(p, 320, got);
		fastsha1(p, 320, want);
		CHECK(det == 0 && memcmp(got, want, 20) == 0, "prefix with bit %u flipped: detected %d",
		      bit, det);
		p[bit / 8] ^= (uint8_t)(1u << (bit % 8));
	}
	printf("prefix: 320 flagged, 319 not, 2560 one-bit changes not\n");
}

/* The five files in every option set and shattered-1 streamed at a few
 * splits, through the driver's filtered path. */
static void check_filter_path_files(void)
{
	uint8_t got[20];
	fastsha1dc_result res;
	filter_path(1);
	for (unsigned f = 0; f < 5; f++)
		for (unsigned o = 0; o < 4; o++) {
			int det = fastsha1dc_opts(fdata[f], files[f].len, o, got, &res);
			check_result(f, o, det, got, &res, "filtered path");
		}
	static const size_t splits[] = { 1, 63, 64, 65, 255, 256, 257, 319, 320, 4095, 4096, 4097 };
	for (size_t i = 0; i < sizeof(splits) / sizeof(splits[0]); i++) {
		fastsha1dc_ctx c;
		fastsha1dc_init(&c);
		fastsha1dc_update(&c, fdata[0], splits[i]);
		fastsha1dc_update(&c, fdata[0] + splits[i], files[0].len - splits[i]);
		int det = fastsha1dc_final_result(&c, got, &res);
		check_result(0, SAFE, det, got, &res, "filtered path, split");
	}
	filter_path(0);
	printf("driver: the files through the filtered path\n");
}

static void check_threads_files(void)
{
	enum { R = 64 * 1024 };
	struct job jobs[3];
	uint8_t *r = malloc(R);
	prng_fill(r, R);
	jobs[0] = (struct job){ r, R, { 0 }, 0, 0 };
	jobs[1] = (struct job){ fdata[2], files[2].len, { 0 }, 1, 0 };
	jobs[2] = (struct job){ fdata[0], files[0].len, { 0 }, 1, 0 };
	/* The expected digests come from the design note and plain SHA-1, so
	 * nothing has run SHA1DC on a filtered block before the race; the main
	 * thread races too, on the 320-byte prefix (checked after). */
	fastsha1(r, R, jobs[0].want);
	from_hex(files[2].dc, 20, jobs[1].want);
	from_hex(files[0].dc, 20, jobs[2].want);
	pthread_t th[3];
	uint8_t got0[20];
	pthread_barrier_init(&barrier, NULL, 4);
	for (int i = 0; i < 3; i++)
		pthread_create(&th[i], NULL, run_job, &jobs[i]);
	pthread_barrier_wait(&barrier);
	int det0 = fastsha1dc(fdata[0], 320, got0);
	for (int i = 0; i < 3; i++)
		pthread_join(th[i], NULL);
	pthread_barrier_destroy(&barrier);
	for (int i = 0; i < 3; i++)
		CHECK(jobs[i].fails == 0, "thread %d: %d wrong results", i, jobs[i].fails);
	uint8_t again[20];
	CHECK(det0 == 1 && fastsha1dc(fdata[0], 320, again) == 1 && memcmp(got0, again, 20) == 0,
	      "main thread: 320-byte prefix during the race");
	printf("threads: shattered and random data at once, right results\n");
	free(r);
}

int main(int argc, char **argv)
{
	if (argc != 6 || strcmp(argv[1], "sha1") != 0 ||
	    (strcmp(argv[5], "core") != 0 && strcmp(argv[5], "files") != 0)) {
		fprintf(stderr, "usage: %s sha1 BACKEND SRCDIR FILES core|files\n", argv[0]);
		return 2;
	}
	test_use_backend(argv[1], argv[2]);
	backend_name = argv[2];
	CHECK(strcmp(fastsha_backend(FASTSHA_SHA1DC), backend_name) == 0,
	      "SHA1DC runs on %s, not the pinned %s", fastsha_backend(FASTSHA_SHA1DC), backend_name);
	row_dc = (const struct fsha1_backend *)fsha_find(&fsha1_family, backend_name);
	if (!row_dc) {
		fprintf(stderr, "FAIL: no row %s\n", backend_name);
		return 1;
	}
	printf("%s: %s SHA1DC filter%s\n", backend_name,
	       row_dc->dc ? "its own" : "no own (the scalar path)",
	       row_dc->dc && row_dc->dc->rec ? ", and records" : "");
	prng_seed(0x5a1dc);
	load_tsv(argv[3]);
	build_lin();

	if (strcmp(argv[5], "files") == 0) {
		const char *dir = getenv("FASTSHA_SHA1DC_FILES");
		dir = dir && *dir ? dir : argv[4];
		for (unsigned f = 0; f < 5; f++)
			fdata[f] = read_file(dir, files[f].name, files[f].len);
		check_threads_files(); /* first: the DV table is still empty */
		check_prefix();
		check_option_bits();
		check_filter_path_files();
		check_files();
		check_files_batch();
		if (words_path(0)) {
			check_files_batch();
			words_path(1);
			printf("batch: again without the words loop\n");
		}
		for (unsigned f = 0; f < 5; f++)
			free(fdata[f]);
		CHECK(strcmp(fastsha_backend(FASTSHA_SHA1DC), backend_name) == 0,
		      "the test lost its row: %s", fastsha_backend(FASTSHA_SHA1DC));
		return test_finish("test_sha1dc files");
	}
	const char *dump = getenv("FASTSHA_SHA1DC_DUMP");
	if (dump && *dump && !(dumpf = fopen(dump, "wb"))) {
		fprintf(stderr, "FAIL: cannot write %s\n", dump);
		return 1;
	}
	build_worst();
	check_threads_core(); /* first: the DV table is still empty */
	check_dm();
	check_filter_random();
	check_filter_forced_free();
	check_filter_forced_blocks();
	check_pipe_forced();
	check_recheck();
	check_worst();
	check_random_messages();
	check_guard();
	check_filter_path_core();
	sys_free(worst);
	if (dumpf)
		fclose(dumpf);
	CHECK(strcmp(fastsha_backend(FASTSHA_SHA1DC), backend_name) == 0,
	      "the test lost its row: %s", fastsha_backend(FASTSHA_SHA1DC));
	return test_finish("test_sha1dc core");
}
