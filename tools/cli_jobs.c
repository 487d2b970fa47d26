/* SPDX-License-Identifier: MIT */
/*
 * -j: several inputs hashed at once, output strictly in argument order.
 *
 * Workers claim the next run of indices (up to 32, see claim()) from one
 * atomic counter (no queue, no hand-off per file), hash those inputs, then
 * under the output lock mark them done and print every finished job from
 * the ordered cursor on. Whoever
 * finishes the job at the cursor prints; nobody waits to print. A small file
 * thus costs one fetch_add and one uncontended lock on top of its system
 * calls, which is what makes 10,000 small files scale (docs/benchmarks.md).
 * Results wait in the job array (about 80 bytes each), never file data.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli.h"

struct runner {
	struct cli_job *jobs;
	size_t n;
	atomic_size_t next;
	pthread_mutex_t mu;
	size_t cursor;
	cli_emit_fn emit;
	void *ctx;
	unsigned nthreads;
};

/*
 * Claims a run of indices: guided self-scheduling, a quarter of each
 * thread's share of what is left, at most 32. Thousands of small files go
 * 32 at a time (one atomic and one lock per run instead of per file); the
 * last few, and a handful of big files, go one by one so no thread is left
 * holding several big files while another idles.
 */
static size_t claim(struct runner *r, size_t *count)
{
	size_t seen = atomic_load_explicit(&r->next, memory_order_relaxed);
	for (;;) {
		if (seen >= r->n)
			return r->n;
		size_t want = (r->n - seen) / (4 * (size_t)r->nthreads);
		want = want < 1 ? 1 : want > 32 ? 32 : want;
		if (atomic_compare_exchange_weak_explicit(&r->next, &seen, seen + want,
							  memory_order_relaxed, memory_order_relaxed)) {
			*count = seen + want > r->n ? r->n - seen : want;
			return seen;
		}
	}
}

static void *worker(void *arg)
{
	struct runner *r = arg;
	uint8_t *buf = cli_alloc_buffer();
	if (!buf) {
		cli_error(0, "out of memory for a %zu-byte read buffer", cli_opts.bufsize);
		exit(1);
	}
	for (;;) {
		size_t count = 0, first = claim(r, &count);
		if (first >= r->n)
			break;
		for (size_t i = first; i < first + count; i++)
			if (r->jobs[i].path)
				cli_hash_job(&r->jobs[i], buf);
		pthread_mutex_lock(&r->mu);
		for (size_t i = first; i < first + count; i++)
			r->jobs[i].done = 1;
		while (r->cursor < r->n && r->jobs[r->cursor].done)
			r->emit(&r->jobs[r->cursor++], r->ctx);
		pthread_mutex_unlock(&r->mu);
	}
	free(buf);
	return NULL;
}

void cli_run_jobs(struct cli_job *jobs, size_t n, unsigned nthreads, cli_emit_fn emit, void *ctx)
{
	struct runner r = { .jobs = jobs, .n = n, .cursor = 0, .emit = emit, .ctx = ctx };
	pthread_t tid[64];
	unsigned started = 0;

	atomic_init(&r.next, 0);
	pthread_mutex_init(&r.mu, NULL);
	if (nthreads > n)
		nthreads = (unsigned)n;
	if (nthreads > 64)
		nthreads = 64;
	r.nthreads = nthreads ? nthreads : 1;
	/* Fewer workers than CPUs: a big input may use a second thread to read
	 * ahead (cli_read.c). With every CPU hashing it would only cost CPU. */
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	cli_opts.pipeline = !cli_opts.no_read_ahead && ncpu > 1 && (long)r.nthreads < ncpu;
	/* The calling thread is worker 0; the others are extra. */
	for (unsigned t = 1; t < nthreads; t++)
		if (pthread_create(&tid[started], NULL, worker, &r) == 0)
			started++;
	worker(&r);
	for (unsigned t = 0; t < started; t++)
		pthread_join(tid[t], NULL);
	pthread_mutex_destroy(&r.mu);
}
