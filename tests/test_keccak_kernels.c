/* SPDX-License-Identifier: MIT */
/*
 * The Keccak rows' kernels called directly (src/keccak/keccak_impl.h),
 * each against the portable row's (portable's against the reference's):
 *
 * - permute and absorb, every row: both round counts (24, 12), every rate
 *   the contract allows (8..168 in steps of 8), 1..3 blocks, the data
 *   ending right before a PROT_NONE page and starting right after one at
 *   each offset 0..7 from 8-byte alignment;
 * - permute_lanes and absorb_lanes, the rows that have them: the same, one
 *   guarded buffer per lane (even lanes end at their guard, odd ones start
 *   at theirs, at different alignments), then every lane reading the same
 *   pointer; a state past the row's lanes must come back untouched.
 *
 * The batch path does not call the lane entries yet, so this is where they
 * are checked. A row this CPU cannot run is skipped (exit 77).
 *
 * usage: test_keccak_kernels keccak BACKEND
 */
#include <sys/mman.h>
#include <unistd.h>

#include "testutil.h"

/* Internals: the rows and their contract. The static library exports them
 * whatever their visibility. */
#include "../src/keccak/keccak_impl.h"

#define MAXBLOCKS 3
#define MAXLANES 16

static const struct fsha_keccak_backend *row, *oracle;
static size_t page;

/* A page of random bytes between two PROT_NONE pages (never unmapped). */
static uint8_t *guarded(void)
{
	struct test_guard g;
	test_guard_map(&g, page);
	prng_fill(g.lo, page);
	return g.lo;
}

static void random_state(uint64_t st[25])
{
	for (int i = 0; i < 25; i++)
		st[i] = prng();
}

static void check_permute(void)
{
	for (unsigned rounds = 24; rounds >= 12; rounds -= 12) {
		for (int t = 0; t < 16; t++) {
			uint64_t got[25], want[25];
			random_state(want);
			if (t == 0)
				memset(want, 0, sizeof(want));
			memcpy(got, want, sizeof(got));
			row->permute(got, rounds);
			oracle->permute(want, rounds);
			CHECK(memcmp(got, want, sizeof(got)) == 0, "permute, %u rounds, state %d",
			      rounds, t);
		}
	}
}

static void check_absorb_at(const uint8_t *data, size_t nblocks, size_t rate, unsigned rounds,
			    const char *where)
{
	uint64_t got[25], want[25];
	random_state(want);
	memcpy(got, want, sizeof(got));
	row->absorb(got, data, nblocks, rate, rounds);
	oracle->absorb(want, data, nblocks, rate, rounds);
	CHECK(memcmp(got, want, sizeof(got)) == 0, "absorb: rate %zu, %zu blocks, %u rounds, %s",
	      rate, nblocks, rounds, where);
}

static void check_absorb(const uint8_t *buf)
{
	for (unsigned rounds = 24; rounds >= 12; rounds -= 12)
		for (size_t rate = 8; rate <= FSHA_KECCAK_MAX_RATE; rate += 8)
			for (size_t nb = 1; nb <= MAXBLOCKS; nb++) {
				size_t len = rate * nb;
				check_absorb_at(buf + page - len, nb, rate, rounds,
						"ends at guard");
				for (size_t k = 0; k < 8; k++)
					check_absorb_at(buf + k, nb, rate, rounds, "after guard");
			}
}

static void check_permute_lanes(unsigned lanes)
{
	uint64_t got[MAXLANES + 1][25], want[MAXLANES + 1][25];
	for (unsigned rounds = 24; rounds >= 12; rounds -= 12) {
		for (int t = 0; t < 4; t++) {
			for (unsigned l = 0; l <= lanes; l++)
				random_state(want[l]);
			memcpy(got, want, sizeof(got));
			row->permute_lanes(got, rounds);
			for (unsigned l = 0; l < lanes; l++) {
				oracle->permute(want[l], rounds);
				CHECK(memcmp(got[l], want[l], sizeof(got[l])) == 0,
				      "permute_lanes, %u rounds, lane %u", rounds, l);
			}
			CHECK(memcmp(got[lanes], want[lanes], sizeof(got[lanes])) == 0,
			      "permute_lanes wrote past its %u states", lanes);
		}
	}
}

/* absorb_lanes on @data[0 .. lanes-1], each lane compared with the oracle's
 * absorb of the same data; the state past the last lane must not change. */
static void check_absorb_lanes_at(unsigned lanes, const uint8_t *const *data, size_t nblocks,
				  size_t rate, unsigned rounds, const char *where)
{
	uint64_t got[MAXLANES + 1][25], want[MAXLANES + 1][25];
	for (unsigned l = 0; l <= lanes; l++)
		random_state(want[l]);
	memcpy(got, want, sizeof(got));
	row->absorb_lanes(got, data, nblocks, rate, rounds);
	for (unsigned l = 0; l < lanes; l++) {
		oracle->absorb(want[l], data[l], nblocks, rate, rounds);
		CHECK(memcmp(got[l], want[l], sizeof(got[l])) == 0,
		      "absorb_lanes: rate %zu, %zu blocks, %u rounds, lane %u, %s", rate, nblocks,
		      rounds, l, where);
	}
	CHECK(memcmp(got[lanes], want[lanes], sizeof(got[lanes])) == 0,
	      "absorb_lanes wrote past its %u states", lanes);
}

static void check_absorb_lanes(unsigned lanes)
{
	uint8_t *buf[MAXLANES];
	for (unsigned l = 0; l < lanes; l++)
		buf[l] = guarded();
	for (unsigned rounds = 24; rounds >= 12; rounds -= 12)
		for (size_t rate = 8; rate <= FSHA_KECCAK_MAX_RATE; rate += 8)
			for (size_t nb = 1; nb <= MAXBLOCKS; nb++) {
				size_t len = rate * nb;
				const uint8_t *data[MAXLANES];
				for (size_t k = 0; k < 8; k++) {
					/* Even lanes end at their upper guard; odd
					 * lanes start k + l bytes past their lower one. */
					for (unsigned l = 0; l < lanes; l++)
						data[l] = l % 2 ? buf[l] + (k + l) % 8
								: buf[l] + page - len;
					check_absorb_lanes_at(lanes, data, nb, rate, rounds,
							      "own buffers at guards");
				}
				for (unsigned l = 0; l < lanes; l++)
					data[l] = buf[0] + page - len;
				check_absorb_lanes_at(lanes, data, nb, rate, rounds,
						      "one pointer for every lane");
			}
}

int main(int argc, char **argv)
{
	if (argc != 3 || strcmp(argv[1], "keccak") != 0) {
		fprintf(stderr, "usage: %s keccak BACKEND\n", argv[0]);
		return 2;
	}
	row = (const struct fsha_keccak_backend *)fsha_find(&fsha_keccak_family, argv[2]);
	if (!row) {
		fprintf(stderr, "FAIL: backend '%s' is not in the library's keccak table\n",
			argv[2]);
		return 1;
	}
	if (!fsha_supported(&row->info)) {
		printf("SKIP: this CPU cannot run keccak backend '%s'\n", argv[2]);
		return TEST_SKIP;
	}
	oracle = (const struct fsha_keccak_backend *)fsha_find(
		&fsha_keccak_family, strcmp(argv[2], "portable") == 0 ? "reference" : "portable");
	if (!oracle) {
		fprintf(stderr, "FAIL: no oracle row\n");
		return 1;
	}
	page = (size_t)sysconf(_SC_PAGESIZE);
	prng_seed(11);

	unsigned lanes = row->info.lanes;
	CHECK((lanes == 1) == (row->permute_lanes == NULL && row->absorb_lanes == NULL),
	      "%s: %u lanes but lane entries %s", argv[2], lanes,
	      row->permute_lanes ? "present" : "absent");
	CHECK(lanes <= MAXLANES, "%s: %u lanes, the test handles %d", argv[2], lanes, MAXLANES);
	if (test_failures)
		return 1;

	check_permute();
	check_absorb(guarded());
	if (lanes > 1) {
		check_permute_lanes(lanes);
		check_absorb_lanes(lanes);
	}
	if (test_failures) {
		fprintf(stderr, "kernels: %d failure(s) under keccak backend %s\n", test_failures,
			argv[2]);
		return 1;
	}
	printf("kernels: ok under keccak backend %s (%u lane%s, oracle %s)\n", argv[2], lanes,
	       lanes > 1 ? "s" : "", oracle->info.name);
	return 0;
}
