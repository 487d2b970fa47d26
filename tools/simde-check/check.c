/* SPDX-License-Identifier: MIT */
/*
 * tools/simde-check driver: every entry of the AVX-512 Keccak rows
 * (built against SIMDe through include/immintrin.h) compared with the
 * portable row, on random states and data from a seed (argv[1]).
 *
 * Cases, for rounds 24 and 12:
 * - permute, permute_lanes: PERM_CASES random states (eight per lanes
 *   call), plus the zero state (whose Keccak-f[1600] image's first lane
 *   is checked against FIPS 202's known value, so portable itself is
 *   what this compares with);
 * - absorb, absorb_lanes: every rate 8..168 step 8, 1..4 blocks, data at
 *   alignments 0..7 (mod 8); for lanes, the data pointers distinct, all
 *   equal, and equal in pairs (lanes 2k and 2k + 1).
 * Each lane's input is its own heap buffer ending exactly at the
 * input's end (ASan's redzone right after it), never written by the row
 * (checked against a copy); states sit between canary words (checked
 * unchanged); and every load and store the row makes through the
 * stand-in intrinsics must fall inside the input buffers or the states
 * (fsha_check_touch below), whatever the alignment.
 *
 * Output: one line per row, "ROW <name> <cases>", or the failures
 * (the first MAX_REPORT in full) and exit status 1.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keccak/keccak_impl.h"

extern const struct fsha_keccak_backend fsha_keccak_backend_portable;
#ifdef CHECK_AVX512_X8
extern const struct fsha_keccak_backend fsha_keccak_backend_avx512_x8;
#endif
#ifdef CHECK_AVX512
extern const struct fsha_keccak_backend fsha_keccak_backend_avx512;
#endif

#define PERM_CASES 16
#define CANARY 8 /* words each side of a state block */
#define MAX_LANES 8
#define MAX_REPORT 10

static uint64_t rng;

/* splitmix64: a seedable, well-mixed sequence; quality needs are modest. */
static uint64_t rnd(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void fill(void *p, size_t n)
{
	uint8_t *b = p;
	for (size_t i = 0; i < n; i++)
		b[i] = (uint8_t)rnd();
}

static unsigned long failures;

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void fail(const char *fmt, ...)
{
	if (failures++ < MAX_REPORT) {
		va_list ap;
		va_start(ap, fmt);
		fputs("FAIL: ", stdout);
		vprintf(fmt, ap);
		fputc('\n', stdout);
		va_end(ap);
	}
}

/*
 * The bounds tracker. A region is a buffer the row may touch (ok, and
 * whether it may write there) inside a wider watched span (the buffer
 * with WATCH bytes either side, or a state block with its canaries). A
 * touch that meets any watched span must lie wholly inside some region
 * that allows it; touches elsewhere (the row's own stack temporaries)
 * are not judged.
 */
#define WATCH 256
struct region {
	uintptr_t watch_lo, watch_hi, ok_lo, ok_hi;
	int writable;
};
static struct region regions[2 * MAX_LANES + 4];
static size_t nregions;
static const char *context = "";

static void watch(const void *ok, size_t n, size_t margin, int writable)
{
	uintptr_t p = (uintptr_t)ok;
	regions[nregions++] = (struct region){ p - margin, p + n + margin, p, p + n, writable };
}

void fsha_check_touch(const void *p, size_t n, int write);
void fsha_check_touch(const void *p, size_t n, int write)
{
	uintptr_t lo = (uintptr_t)p, hi = lo + n;
	int watched = 0;
	for (size_t i = 0; i < nregions; i++) {
		const struct region *r = &regions[i];
		if (lo < r->watch_hi && hi > r->watch_lo)
			watched = 1;
		if (lo >= r->ok_lo && hi <= r->ok_hi && (r->writable || !write))
			return;
	}
	if (watched)
		fail("%s: %s of %zu bytes at %p outside the buffers it may touch", context,
		     write ? "store" : "load", n, p);
}

/* A state block of @n states between CANARY words each side. */
struct states {
	uint64_t *buf;
	uint64_t (*st)[25];
	size_t n;
};

static struct states states_new(size_t n)
{
	struct states s;
	s.n = n;
	s.buf = malloc(sizeof(uint64_t) * (25 * n + 2 * CANARY));
	if (!s.buf)
		abort();
	fill(s.buf, sizeof(uint64_t) * (25 * n + 2 * CANARY));
	s.st = (uint64_t(*)[25])(s.buf + CANARY);
	watch(s.st, sizeof(uint64_t) * 25 * n, sizeof(uint64_t) * CANARY, 1);
	return s;
}

/* Check the canaries against @copy (the whole buffer before the call). */
static void states_done(struct states *s, const uint64_t *copy)
{
	for (size_t i = 0; i < CANARY; i++) {
		if (s->buf[i] != copy[i])
			fail("%s: canary word %zu before the states overwritten", context, i);
		size_t j = CANARY + 25 * s->n + i;
		if (s->buf[j] != copy[j])
			fail("%s: canary word %zu after the states overwritten", context, i);
	}
	free(s->buf);
}

static void compare(const uint64_t *got, const uint64_t *want, size_t lane)
{
	for (int i = 0; i < 25; i++) {
		if (got[i] != want[i]) {
			fail("%s: lane %zu word %d = %016" PRIx64 ", portable %016" PRIx64, context,
			     lane, i, got[i], want[i]);
			return;
		}
	}
}

static char ctxbuf[256];

static unsigned long check_permute(const struct fsha_keccak_backend *b, unsigned rounds)
{
	const struct fsha_keccak_backend *p = &fsha_keccak_backend_portable;
	unsigned long cases = 0;
	for (int c = 0; c <= PERM_CASES; c++) {
		uint64_t want[25], copy[25 + 2 * CANARY];
		nregions = 0;
		struct states s = states_new(1);
		if (c == PERM_CASES)
			memset(s.st, 0, sizeof(uint64_t) * 25);
		memcpy(want, s.st, sizeof(want));
		memcpy(copy, s.buf, sizeof(copy));
		snprintf(ctxbuf, sizeof(ctxbuf), "%s permute rounds %u case %d", b->info.name,
			 rounds, c);
		context = ctxbuf;
		p->permute(want, rounds);
		if (c == PERM_CASES && rounds == 24 && want[0] != 0xf1258f7940e1dde7ull)
			fail("portable: Keccak-f[1600] of zero starts %016" PRIx64, want[0]);
		b->permute(s.st[0], rounds);
		compare(s.st[0], want, 0);
		states_done(&s, copy);
		cases++;
	}
	return cases;
}

static unsigned long check_permute_lanes(const struct fsha_keccak_backend *b, unsigned rounds)
{
	const struct fsha_keccak_backend *p = &fsha_keccak_backend_portable;
	const size_t L = b->info.lanes;
	unsigned long cases = 0;
	for (int c = 0; c <= PERM_CASES; c++) {
		uint64_t want[MAX_LANES][25], copy[25 * MAX_LANES + 2 * CANARY];
		nregions = 0;
		struct states s = states_new(L);
		if (c == PERM_CASES)
			memset(s.st, 0, sizeof(uint64_t) * 25 * L);
		memcpy(want, s.st, sizeof(uint64_t) * 25 * L);
		memcpy(copy, s.buf, sizeof(uint64_t) * (25 * L + 2 * CANARY));
		snprintf(ctxbuf, sizeof(ctxbuf), "%s permute_lanes rounds %u case %d",
			 b->info.name, rounds, c);
		context = ctxbuf;
		for (size_t l = 0; l < L; l++)
			p->permute(want[l], rounds);
		b->permute_lanes(s.st, rounds);
		for (size_t l = 0; l < L; l++)
			compare(s.st[l], want[l], l);
		states_done(&s, copy);
		cases++;
	}
	return cases;
}

/*
 * The input of one lane: @n bytes at alignment @align (mod 8) in a heap
 * block of exactly n + align bytes, so the input ends at the block's end
 * and ASan's redzone starts right after it (malloc's blocks are at least
 * 8-aligned); before it, the tracker alone judges.
 */
struct input {
	uint8_t *block, *data, *copy;
};

static struct input input_new(size_t n, size_t align)
{
	struct input in;
	in.block = malloc(n + align);
	in.copy = malloc(n);
	if (!in.block || !in.copy)
		abort();
	in.data = in.block + align;
	fill(in.block, n + align);
	memcpy(in.copy, in.data, n);
	watch(in.data, n, WATCH, 0);
	return in;
}

static void input_done(struct input *in, size_t n)
{
	if (memcmp(in->data, in->copy, n) != 0)
		fail("%s: the input was written", context);
	free(in->block);
	free(in->copy);
}

static unsigned long check_absorb(const struct fsha_keccak_backend *b, unsigned rounds)
{
	const struct fsha_keccak_backend *p = &fsha_keccak_backend_portable;
	unsigned long cases = 0;
	for (size_t rate = 8; rate <= FSHA_KECCAK_MAX_RATE; rate += 8) {
		for (size_t nb = 1; nb <= 4; nb++) {
			for (size_t align = 0; align < 8; align++) {
				uint64_t want[25], copy[25 + 2 * CANARY];
				const size_t n = rate * nb;
				nregions = 0;
				struct states s = states_new(1);
				struct input in = input_new(n, align);
				memcpy(want, s.st, sizeof(want));
				memcpy(copy, s.buf, sizeof(copy));
				snprintf(ctxbuf, sizeof(ctxbuf),
					 "%s absorb rounds %u rate %zu blocks %zu align %zu",
					 b->info.name, rounds, rate, nb, align);
				context = ctxbuf;
				p->absorb(want, in.copy, nb, rate, rounds);
				b->absorb(s.st[0], in.data, nb, rate, rounds);
				compare(s.st[0], want, 0);
				input_done(&in, n);
				states_done(&s, copy);
				cases++;
			}
		}
	}
	return cases;
}

static const char *const mode_name[] = { "distinct", "all equal", "equal in pairs" };

static unsigned long check_absorb_lanes(const struct fsha_keccak_backend *b, unsigned rounds)
{
	const struct fsha_keccak_backend *p = &fsha_keccak_backend_portable;
	const size_t L = b->info.lanes;
	unsigned long cases = 0;
	for (size_t rate = 8; rate <= FSHA_KECCAK_MAX_RATE; rate += 8) {
		for (size_t nb = 1; nb <= 4; nb++) {
			for (size_t align = 0; align < 8; align++) {
				for (int mode = 0; mode < 3; mode++) {
					uint64_t want[MAX_LANES][25];
					uint64_t copy[25 * MAX_LANES + 2 * CANARY];
					struct input in[MAX_LANES];
					const uint8_t *data[MAX_LANES];
					const size_t n = rate * nb;
					/* distinct: L buffers; all equal: 1; pairs: L / 2 */
					const size_t nin = mode == 0 ? L : mode == 1 ? 1 : (L + 1) / 2;
					nregions = 0;
					struct states s = states_new(L);
					for (size_t i = 0; i < nin; i++)
						in[i] = input_new(n, (align + 3 * i) % 8);
					for (size_t l = 0; l < L; l++)
						data[l] = in[mode == 0 ? l : mode == 1 ? 0 : l / 2].data;
					memcpy(want, s.st, sizeof(uint64_t) * 25 * L);
					memcpy(copy, s.buf, sizeof(uint64_t) * (25 * L + 2 * CANARY));
					snprintf(ctxbuf, sizeof(ctxbuf),
						 "%s absorb_lanes rounds %u rate %zu blocks %zu "
						 "align %zu pointers %s",
						 b->info.name, rounds, rate, nb, align,
						 mode_name[mode]);
					context = ctxbuf;
					for (size_t l = 0; l < L; l++)
						p->absorb(want[l], data[l], nb, rate, rounds);
					b->absorb_lanes(s.st, data, nb, rate, rounds);
					for (size_t l = 0; l < L; l++)
						compare(s.st[l], want[l], l);
					for (size_t i = 0; i < nin; i++)
						input_done(&in[i], n);
					states_done(&s, copy);
					cases++;
				}
			}
		}
	}
	return cases;
}

static void check_row(const struct fsha_keccak_backend *b)
{
	unsigned long cases = 0;
	static const unsigned rounds[] = { 24, 12 };
	if (b->info.lanes > MAX_LANES || (b->info.lanes > 1) != (b->permute_lanes != NULL) ||
	    (b->permute_lanes != NULL) != (b->absorb_lanes != NULL)) {
		fail("%s: lanes %u and the lane entries disagree", b->info.name, b->info.lanes);
		return;
	}
	for (int r = 0; r < 2; r++) {
		cases += check_permute(b, rounds[r]);
		cases += check_absorb(b, rounds[r]);
		if (b->permute_lanes) {
			cases += check_permute_lanes(b, rounds[r]);
			cases += check_absorb_lanes(b, rounds[r]);
		}
	}
	nregions = 0;
	printf("ROW %s %lu\n", b->info.name, cases);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s SEED\n", argv[0]);
		return 2;
	}
	rng = strtoull(argv[1], NULL, 0);
	/* line-buffered: a FAIL line must be out before ASan aborts the run */
	setvbuf(stdout, NULL, _IOLBF, 0);
#ifdef CHECK_AVX512_X8
	check_row(&fsha_keccak_backend_avx512_x8);
#endif
#ifdef CHECK_AVX512
	check_row(&fsha_keccak_backend_avx512);
#endif
	if (failures) {
		printf("%lu failures (seed %s)\n", failures, argv[1]);
		return 1;
	}
	return 0;
}
