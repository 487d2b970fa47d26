/* SPDX-License-Identifier: MIT */
/*
 * 16 threads race the library's first call (lazy backend resolution, lazy
 * CPU detection) and keep hashing; each digest must equal the one the main
 * thread computes afterwards with the reference backend. The backend under
 * test is requested through FASTSHA_BACKEND before anything is resolved, so
 * the race is the real first-use path.
 *
 * usage: test_threads BACKEND
 */
#include <pthread.h>

#include "testutil.h"

#define THREADS 16
#define MSGS 64

static uint8_t data[MSGS][3000];
static size_t lens[MSGS];
static uint8_t got[THREADS][MSGS][20];
static const char *seen[THREADS];
static pthread_barrier_t start;

static void *worker(void *arg)
{
	size_t t = (size_t)(uintptr_t)arg;
	pthread_barrier_wait(&start);
	for (size_t i = 0; i < MSGS; i++) {
		size_t m = (i + t) % MSGS; /* threads start on different messages */
		if (i % 2) {
			fastsha1(data[m], lens[m], got[t][m]);
		} else {
			fastsha1_ctx ctx;
			fastsha1_init(&ctx);
			fastsha1_update(&ctx, data[m], lens[m] / 3);
			fastsha1_update(&ctx, data[m] + lens[m] / 3, lens[m] - lens[m] / 3);
			fastsha1_final(&ctx, got[t][m]);
		}
	}
	seen[t] = fastsha1_backend();
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s BACKEND\n", argv[0]);
		return 2;
	}
	const char *want = argv[1];
	/* Whether the CPU runs it, without resolving the active backend. */
	int found = 0;
	for (size_t i = 0; i < fastsha1_backend_count(); i++) {
		if (strcmp(fastsha1_backend_name(i), want) == 0) {
			found = 1;
			if (!fastsha1_backend_supported(i)) {
				printf("SKIP: this CPU cannot run backend '%s'\n", want);
				return TEST_SKIP;
			}
		}
	}
	if (!found) {
		fprintf(stderr, "FAIL: backend '%s' not in the table\n", want);
		return 1;
	}
	setenv("FASTSHA_BACKEND", want, 1);
	prng_seed(16);
	for (size_t i = 0; i < MSGS; i++) {
		lens[i] = (size_t)(prng() % sizeof(data[i]));
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
	CHECK(strcmp(fastsha1_backend(), want) == 0, "resolved to '%s'", fastsha1_backend());
	for (size_t m = 0; m < MSGS; m++) {
		uint8_t ref[20];
		reference_digest(data[m], lens[m], ref);
		for (size_t t = 0; t < THREADS; t++)
			CHECK(memcmp(got[t][m], ref, 20) == 0, "thread %zu message %zu (len %zu)", t, m,
			      lens[m]);
	}
	return test_finish("threads");
}
