/* SPDX-License-Identifier: MIT */
/*
 * The lane rows the scheduler keeps (core/lanes.c, fsha_lane_rows()) are
 * the automatic batch row's, whichever batch first works them out.
 *
 * fastsha_use_backend() stores the single-message slot, then the batch
 * slot. A batch in another thread between the two stores took the old
 * pinned lane row for an automatic choice (the slots differ), and the
 * list it worked out from that row was kept: every later automatic batch
 * of the family then ran on the old pinned row, while fastsha_many_backend()
 * named the automatic one. Threads switching backends under
 * ThreadSanitizer hit that window in 2 runs of 30 here; this test makes
 * the interleaving by hand, for each family where this CPU runs a second
 * automatic lane row: pin that row, put the automatic single-message row
 * in the slot as the switch back to automatic choice does first, run a
 * batch there, finish the switch, and ask which rows a batch takes now;
 * then, the list kept, that a batch handed the pinned row in the same
 * window still takes that row's own list. Every family's pinned lane rows
 * also step down only to rows that need no CPU feature they do not.
 *
 * usage: test_lane_plan
 */
#include "testutil.h"

#include "../src/core/family.h"

extern const struct fsha_family fsha1_family, fsha256_family, fsha512_family, fsha_keccak_family;

#define N 24

static uint8_t data[N][300];

/* A batch of @alg, each digest checked against the one-shot. */
static void batch(fastsha_alg alg)
{
	fastsha_msg m[N];
	uint8_t out[N][DMAX], want[DMAX];
	size_t ds = fastsha_alg_digest_size(alg);
	for (size_t i = 0; i < N; i++)
		m[i] = (fastsha_msg){ data[i], 1 + i * 11 };
	fastsha_many(alg, m, N, &out[0][0]);
	for (size_t i = 0; i < N; i++) {
		fastsha_digest(alg, m[i].data, m[i].len, want);
		CHECK(memcmp(&out[0][0] + i * ds, want, ds) == 0, "%s batch message %zu",
		      fastsha_alg_name(alg), i);
	}
}

/* 1 when the family was checked, 0 when this CPU gives it no second row. */
static int check_family(const struct fsha_family *fam, fastsha_alg alg)
{
	const struct fsha_backend_info *rows[FSHA_MAX_LANES];
	CHECK(fastsha_use_backend(alg, NULL) == FASTSHA_SELECT_OK, "automatic %s", fam->name);
	const struct fsha_backend_info *single = fsha_active(fam), *many = fsha_active_many(fam);
	const struct fsha_backend_info *other = NULL;
	for (size_t i = 0; i < fam->nrows && !other; i++) {
		const struct fsha_backend_info *r = fam->rows[i];
		if (r != many && r->lanes >= 2 && (r->automatic & FSHA_AUTO_MANY) && fsha_supported(r))
			other = r;
	}
	if (many->lanes < 2 || !other) {
		printf("%s: no second automatic lane row on this CPU\n", fam->name);
		return 0;
	}
	int before = test_failures;
	/* No batch of this family has run yet: this one keeps its rows. */
	CHECK(fastsha_use_backend(alg, other->name) == FASTSHA_SELECT_OK, "pin %s", other->name);
	atomic_store_explicit(fam->slot, single, memory_order_release);
	batch(alg);
	CHECK(fastsha_use_backend(alg, NULL) == FASTSHA_SELECT_OK, "automatic %s", fam->name);
	for (int pass = 0; pass < 2; pass++) { /* worked out, then as kept */
		size_t n = fsha_lane_rows(fam, fsha_active_many(fam), rows);
		CHECK(n >= 1 && rows[0] == many,
		      "%s: automatic batches on %s after a switch from %s, not on %s (pass %d)",
		      fam->name, rows[0]->name, other->name, many->name, pass);
		batch(alg);
	}
	/* The kept list is the automatic row's only: a batch handed another
	 * row (the old pinned one, in the same window again) works out that
	 * row's own list, not the automatic row's. */
	CHECK(fastsha_use_backend(alg, other->name) == FASTSHA_SELECT_OK, "pin %s", other->name);
	atomic_store_explicit(fam->slot, single, memory_order_release);
	size_t n = fsha_lane_rows(fam, fsha_active_many(fam), rows);
	CHECK(n >= 1 && rows[0] == other, "%s: a batch handed %s ran on the kept list of %s",
	      fam->name, other->name, rows[0]->name);
	CHECK(fastsha_use_backend(alg, NULL) == FASTSHA_SELECT_OK, "automatic %s", fam->name);
	if (test_failures == before)
		printf("%s: batches on %s after a switch from %s\n", fam->name, many->name,
		       other->name);
	return 1;
}

/* A pinned lane row's batches step down only to rows that need no CPU
 * feature it does not (lanes.c, fsha_lane_rows()): pinning never runs
 * another kind of code. Every lane row of @fam this CPU runs. */
static void check_pinned(const struct fsha_family *fam, fastsha_alg alg)
{
	const struct fsha_backend_info *rows[FSHA_MAX_LANES];
	for (size_t i = 0; i < fam->nrows; i++) {
		const struct fsha_backend_info *r = fam->rows[i];
		if (r->lanes < 2 || !fsha_supported(r))
			continue;
		CHECK(fastsha_use_backend(alg, r->name) == FASTSHA_SELECT_OK, "pin %s", r->name);
		size_t n = fsha_lane_rows(fam, fsha_active_many(fam), rows);
		CHECK(n >= 1 && rows[0] == r, "%s: pinned %s, batches on %s", fam->name, r->name,
		      rows[0]->name);
		for (size_t j = 1; j < n; j++)
			CHECK(!(rows[j]->cpu & ~r->cpu), "%s: pinned %s steps down to %s", fam->name,
			      r->name, rows[j]->name);
		batch(alg);
	}
	CHECK(fastsha_use_backend(alg, NULL) == FASTSHA_SELECT_OK, "automatic %s", fam->name);
}

int main(void)
{
	prng_seed(7);
	for (size_t i = 0; i < N; i++)
		prng_fill(data[i], sizeof(data[i]));
	test_fam = test_family("sha256");
	int checked = check_family(&fsha1_family, FASTSHA_SHA1);
	checked += check_family(&fsha256_family, FASTSHA_SHA256);
	checked += check_family(&fsha512_family, FASTSHA_SHA512);
	checked += check_family(&fsha_keccak_family, FASTSHA_SHA3_256);
	check_pinned(&fsha1_family, FASTSHA_SHA1);
	check_pinned(&fsha256_family, FASTSHA_SHA256);
	check_pinned(&fsha512_family, FASTSHA_SHA512);
	check_pinned(&fsha_keccak_family, FASTSHA_SHA3_256);
	if (!checked && !test_failures) {
		printf("SKIP: no family has two automatic lane rows on this CPU\n");
		return TEST_SKIP;
	}
	return test_finish("lane_plan");
}
