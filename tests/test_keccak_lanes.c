/* SPDX-License-Identifier: MIT */
/*
 * The Keccak lane entries themselves (src/keccak/keccak_impl.h), below the
 * sponge: for one Keccak row with lane entries, permute_lanes() and
 * absorb_lanes() on L states must give, state by state, what the portable
 * row's single-state permute() and absorb() give. The sponge's tests
 * (test_sha3) reach a lane row only through its single-state entries and
 * the batch scheduler; this one drives the lanes with states and data the
 * scheduler may never produce:
 * - random states, 24 and 12 rounds (Keccak-f[1600] and Keccak-p[1600, 12]);
 * - every rate the library uses (72, 104, 136, 144, 168 bytes) and
 *   nblocks 1..5, each lane with its own data at its own misalignment,
 *   all lanes on one pointer, lanes in pairs on a pointer;
 * - each lane's blocks ending right before a PROT_NONE page, or starting
 *   right after one (the contract: no read outside
 *   [data, data + rate * nblocks)), the data pages read-only during the
 *   call (no write to the data);
 * - nothing written outside the L states (canaries either side);
 * - the row's own single-state entries too (a lane row's pinned path).
 * Rows without lane entries, and rows this CPU cannot run, are skipped.
 *
 * usage: test_keccak_lanes keccak BACKEND
 */
#include <sys/mman.h>
#include <unistd.h>

#include "testutil.h"

#include "../src/keccak/keccak_impl.h"

#define MAX_LANES 16
#define MAX_BLOCKS 5
#define CANARY 0xa5c3a5c3a5c3a5c3ull

static const size_t rates[] = { 72, 104, 136, 144, 168 };

static const struct fsha_keccak_backend *row, *oracle;
static unsigned lanes;

/* Each lane's data is in its own guarded region (testutil.h), of
 * MAX_BLOCKS blocks at the widest rate and 64 bytes for the offsets. */
static void region_protect(struct test_guard *r, int prot)
{
	if (mprotect(r->lo, r->span, prot)) {
		perror("mprotect");
		exit(1);
	}
}

static struct test_guard reg[MAX_LANES];

/* L states with a canary lane either side. */
static uint64_t buf[MAX_LANES + 2][25];
#define ST ((uint64_t(*)[25])buf[1])

static void random_states(void)
{
	for (unsigned l = 0; l < lanes + 2; l++)
		for (int i = 0; i < 25; i++)
			buf[l][i] = (l == 0 || l == lanes + 1) ? CANARY ^ (uint64_t)i : prng();
}

static void check_canaries(const char *what)
{
	for (int i = 0; i < 25; i++) {
		CHECK(buf[0][i] == (CANARY ^ (uint64_t)i), "%s: wrote before the states", what);
		CHECK(buf[lanes + 1][i] == (CANARY ^ (uint64_t)i), "%s: wrote after the states",
		      what);
	}
}

static void check_permute(unsigned rounds)
{
	uint64_t want[MAX_LANES][25];
	random_states();
	for (unsigned l = 0; l < lanes; l++) {
		memcpy(want[l], ST[l], sizeof(want[l]));
		oracle->permute(want[l], rounds);
	}
	row->permute_lanes(ST, rounds);
	check_canaries("permute_lanes");
	for (unsigned l = 0; l < lanes; l++)
		CHECK(memcmp(ST[l], want[l], sizeof(want[l])) == 0,
		      "permute_lanes, %u rounds: lane %u differs", rounds, l);

	/* The row's single-state entry (for a lane row: its pinned path). */
	uint64_t one[25];
	memcpy(one, ST[0], sizeof(one));
	memcpy(want[0], ST[0], sizeof(one));
	oracle->permute(want[0], rounds);
	row->permute(one, rounds);
	CHECK(memcmp(one, want[0], sizeof(one)) == 0, "permute, %u rounds", rounds);
}

/* How the lanes' data is laid out. */
enum mode {
	DISTINCT,    /* each lane its own heap-like data, misaligned by l + k */
	SAME,        /* every lane on one pointer */
	PAIRS,       /* lanes 2i and 2i + 1 on one pointer */
	END_GUARD,   /* each lane's blocks end right before its upper guard page */
	START_GUARD, /* each lane's blocks start right after its lower guard page */
	MIXED_GUARD, /* even lanes end at their guard, odd lanes start at theirs */
	NMODES
};

static const char *const mode_names[] = { "distinct", "same pointer", "pairs", "ending at a guard",
					  "starting at a guard", "ending/starting at guards" };

static void place(enum mode m, size_t len, unsigned k, const uint8_t **data)
{
	for (unsigned l = 0; l < lanes; l++) {
		struct test_guard *r = &reg[l];
		switch (m) {
		case DISTINCT:
			data[l] = r->lo + (l + k) % 64;
			break;
		case SAME:
			data[l] = reg[0].lo + k % 8;
			break;
		case PAIRS:
			data[l] = reg[l & ~1u].lo + (l / 2 + k) % 8;
			break;
		case END_GUARD:
			data[l] = r->hi - len;
			break;
		case START_GUARD:
			data[l] = r->lo;
			break;
		default:
			data[l] = (l & 1) ? r->lo : r->hi - len;
			break;
		}
	}
}

static void check_absorb(unsigned rounds, size_t rate, size_t nblocks, enum mode m, unsigned k)
{
	const size_t len = rate * nblocks;
	const uint8_t *data[MAX_LANES];
	uint64_t want[MAX_LANES][25];

	for (unsigned l = 0; l < lanes; l++) {
		region_protect(&reg[l], PROT_READ | PROT_WRITE);
		prng_fill(reg[l].lo, reg[l].span);
	}
	place(m, len, k, data);
	random_states();
	for (unsigned l = 0; l < lanes; l++) {
		memcpy(want[l], ST[l], sizeof(want[l]));
		oracle->absorb(want[l], data[l], nblocks, rate, rounds);
	}
	for (unsigned l = 0; l < lanes; l++)
		region_protect(&reg[l], PROT_READ);
	row->absorb_lanes(ST, data, nblocks, rate, rounds);
	check_canaries("absorb_lanes");
	for (unsigned l = 0; l < lanes; l++)
		CHECK(memcmp(ST[l], want[l], sizeof(want[l])) == 0,
		      "absorb_lanes, %u rounds, rate %zu, %zu blocks, %s (k %u): lane %u differs",
		      rounds, rate, nblocks, mode_names[m], k, l);

	/* The single-state entry on lane 0's data, where it lies. */
	uint64_t one[25];
	memcpy(one, ST[1], sizeof(one));
	memcpy(want[0], ST[1], sizeof(one));
	oracle->absorb(want[0], data[0], nblocks, rate, rounds);
	row->absorb(one, data[0], nblocks, rate, rounds);
	CHECK(memcmp(one, want[0], sizeof(one)) == 0, "absorb, %u rounds, rate %zu, %zu blocks, %s",
	      rounds, rate, nblocks, mode_names[m]);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: %s keccak BACKEND\n", argv[0]);
		return 2;
	}
	if (strcmp(argv[1], "keccak") != 0) {
		fprintf(stderr, "test_keccak_lanes is for the keccak family, not '%s'\n", argv[1]);
		return 2;
	}
	test_use_backend(argv[1], argv[2]); /* exits 77 when this CPU cannot run it */
	row = (const struct fsha_keccak_backend *)fsha_find(&fsha_keccak_family, argv[2]);
	oracle = (const struct fsha_keccak_backend *)fsha_find(&fsha_keccak_family, "portable");
	if (!row || !oracle) {
		fprintf(stderr, "FAIL: no row '%s' or no portable row in the keccak table\n",
			argv[2]);
		return 1;
	}
	if (!row->permute_lanes || !row->absorb_lanes) {
		printf("SKIP: keccak row '%s' has no lane entries (single-state row)\n", argv[2]);
		return TEST_SKIP;
	}
	lanes = row->info.lanes;
	if (lanes < 2 || lanes > MAX_LANES) {
		fprintf(stderr, "FAIL: row '%s' has lane entries but %u lanes\n", argv[2], lanes);
		return 1;
	}
	prng_seed(1600);
	for (unsigned l = 0; l < lanes; l++)
		test_guard_map(&reg[l], MAX_BLOCKS * FSHA_KECCAK_MAX_RATE + 64);

	static const unsigned round_counts[] = { 24, 12 };
	for (int ri = 0; ri < 2; ri++) {
		const unsigned rounds = round_counts[ri];
		for (int t = 0; t < 8; t++)
			check_permute(rounds);
		for (size_t i = 0; i < sizeof(rates) / sizeof(rates[0]); i++)
			for (size_t nb = 1; nb <= MAX_BLOCKS; nb++)
				for (int m = 0; m < NMODES; m++)
					for (unsigned k = 0; k < 3; k++)
						check_absorb(rounds, rates[i], nb, (enum mode)m,
							     k * 3 + (unsigned)nb);
	}
	return test_finish("keccak lanes");
}
