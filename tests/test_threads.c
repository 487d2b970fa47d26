/* SPDX-License-Identifier: MIT */
/*
 * 16 threads race the library's first call (lazy backend resolution, lazy
 * CPU detection) and keep hashing; each digest must equal the one the main
 * thread computes afterwards with the reference backend. The backend under
 * test is requested through FASTSHA_BACKEND ("family:name") before anything
 * is resolved, so the race is the real first-use path. Threads alternate
 * the family's algorithms. KangarooTwelve's messages are longer than four
 * 8 KiB chunks, so its tree runs whole leaves side by side on a lane row
 * (the Keccak family's lane rows are pinned here too) from every thread.
 *
 * usage: test_threads FAMILY BACKEND
 */
#include <pthread.h>

#include "testutil.h"

#define THREADS 16
#define MSGS 64
#define SHORT 3000
/* KangarooTwelve's: S_0, four whole leaves (one group of a 4-lane row in
 * the one-shot) and a partial one. */
#define LONG (5 * 8192 + SHORT)

static uint8_t data[MSGS][LONG];
static size_t lens[MSGS];
static uint8_t got[THREADS][MSGS][DMAX];
static const char *seen[THREADS];
static pthread_barrier_t start;

static void *worker(void *arg)
{
	size_t t = (size_t)(uintptr_t)arg;
	pthread_barrier_wait(&start);
	for (size_t i = 0; i < MSGS; i++) {
		size_t m = (i + t) % MSGS; /* threads start on different messages */
		fastsha_alg alg = test_fam->algs[m % test_fam->nalgs];
		if (i % 2) {
			fastsha_digest(alg, data[m], lens[m], got[t][m]);
		} else {
			fastsha_ctx ctx;
			fastsha_init(&ctx, alg);
			fastsha_update(&ctx, data[m], lens[m] / 3);
			fastsha_update(&ctx, data[m] + lens[m] / 3, lens[m] - lens[m] / 3);
			fastsha_final(&ctx, got[t][m]);
		}
	}
	seen[t] = fastsha_backend(test_fam->algs[t % test_fam->nalgs]);
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: %s FAMILY BACKEND\n", argv[0]);
		return 2;
	}
	test_fam = test_family(argv[1]);
	const char *want = argv[2];
	fastsha_alg fam = test_fam->algs[0];
	/* Whether the CPU runs it, without resolving the active backend. */
	int found = 0;
	for (size_t i = 0; i < fastsha_backend_count(fam); i++) {
		if (strcmp(fastsha_backend_name(fam, i), want) == 0) {
			found = 1;
			if (!fastsha_backend_supported(fam, i)) {
				printf("SKIP: this CPU cannot run backend '%s'\n", want);
				return TEST_SKIP;
			}
		}
	}
	if (!found) {
		fprintf(stderr, "FAIL: backend '%s' not in the table\n", want);
		return 1;
	}
	/* Another family's item first: it must not capture this family. */
	char env[128];
	snprintf(env, sizeof(env), "%s:reference,%s:%s", strcmp(argv[1], "sha1") ? "sha1" : "sha256",
		 argv[1], want);
	setenv("FASTSHA_BACKEND", env, 1);
	prng_seed(16);
	for (size_t i = 0; i < MSGS; i++) {
		lens[i] = (size_t)(prng() % SHORT);
		if (test_fam->algs[i % test_fam->nalgs] == FASTSHA_K12)
			lens[i] += LONG - SHORT;
		prng_fill(data[i], lens[i]);
	}
	pthread_t th[THREADS];
	pthread_barrier_init(&start, NULL, THREADS);
	for (size_t t = 0; t < THREADS; t++)
		if (pthread_create(&th[t], NULL, worker, (void *)(uintptr_t)t)) {
			perror("pthread_create");
			return 1;
		}
	for (size_t t = 0; t < THREADS; t++)
		pthread_join(th[t], NULL);

	for (size_t t = 0; t < THREADS; t++)
		CHECK(strcmp(seen[t], want) == 0, "thread %zu used '%s', not '%s'", t, seen[t], want);
	CHECK(strcmp(fastsha_backend(fam), want) == 0, "resolved to '%s'", fastsha_backend(fam));
	for (size_t m = 0; m < MSGS; m++) {
		uint8_t ref[DMAX];
		test_alg = test_fam->algs[m % test_fam->nalgs];
		reference_digest(data[m], lens[m], ref);
		for (size_t t = 0; t < THREADS; t++)
			CHECK(memcmp(got[t][m], ref, DS()) == 0, "thread %zu message %zu (len %zu)", t,
			      m, lens[m]);
	}
	return test_finish("threads");
}
