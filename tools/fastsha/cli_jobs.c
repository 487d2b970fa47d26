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
 * calls, which is what makes 10,000 small files scale (docs/benchmarks-history.md).
 * Results wait in the job array (about 80 bytes each), never file data.
 *
 * A worker hashes its run as a group (cli_hash_jobs): the small files
 * among them are read whole and go through the lane kernels together, so
 * the run is also what fills the lanes. An emitter may stop the run (the
 * first failure under --fsverity, as `fsverity digest` stops): nothing
 * more is claimed, opened or printed.
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
	atomic_int stop;
	/* --fsverity: the inputs before this one have all been opened (or
	 * were missing under --ignore-missing); turn wakes those waiting. */
	size_t opened;
	pthread_cond_t turn;
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
		if (seen >= r->n || atomic_load_explicit(&r->stop, memory_order_relaxed))
			return r->n;
		size_t want = (r->n - seen) / (4 * (size_t)r->nthreads);
		want = want < 1 ? 1 : want > 32 ? 32 : want;
		/* One worker has nobody to balance with: smaller runs at the
		 * end would only be smaller io_uring groups (four
		 * io_uring_enter() each, whatever their size). -j 1 --check of
		 * 10,000 small files: 1,808 io_uring_enter() calls, 1,252 with
		 * full runs (strace -f -c). Not under --fsverity: its emitter
		 * stops the run at the first failure, as `fsverity digest` does,
		 * and a run of 32 would open the inputs after it first (a FIFO
		 * with no writer there hung -j 1); its jobs are one at a time
		 * anyway (cli_verity_job), no io_uring group. */
		if (r->nthreads == 1 && !cli_opts.fsverity)
			want = 32;
		if (atomic_compare_exchange_weak_explicit(&r->next, &seen, seen + want,
							  memory_order_relaxed, memory_order_relaxed)) {
			*count = seen + want > r->n ? r->n - seen : want;
			return seen;
		}
	}
}

/*
 * --fsverity: input i is opened only once every input before it has been
 * (their hashing may still be going on beside it). The emitter ends the run
 * at the first failure, as `fsverity digest` does, and nothing after that
 * input may be opened: a FIFO with no writer there blocked its worker in
 * open() for ever, and the run with it at the join (`fastsha --fsverity
 * missing fifo` at the default -j). Most failures here are the open's own
 * (a missing or unreadable file); one that comes later, in a read, can
 * still find the next input open, as a read error can in any tool that
 * reads ahead. Returns 0 when the run stopped before @i's turn came.
 */
static int open_turn(struct runner *r, size_t i)
{
	pthread_mutex_lock(&r->mu);
	/* A failed open never advances r->opened, so after a stop it stays
	 * below every later input's turn. */
	while (r->opened < i && !atomic_load_explicit(&r->stop, memory_order_relaxed))
		pthread_cond_wait(&r->turn, &r->mu);
	int go = r->opened >= i;
	pthread_mutex_unlock(&r->mu);
	return go;
}

/* --fsverity: input i's open is over; when the run goes on past it, the
 * next input's worker may open. */
static void opened(struct runner *r, size_t i, int goes_on)
{
	pthread_mutex_lock(&r->mu);
	if (goes_on)
		r->opened = i + 1;
	pthread_cond_broadcast(&r->turn);
	pthread_mutex_unlock(&r->mu);
}

/* --fsverity's jobs, one at a time and opened in order (open_turn()). */
static void verity_jobs(struct runner *r, struct cli_worker *w, size_t first, size_t count)
{
	for (size_t i = first; i < first + count; i++) {
		struct cli_job *job = &r->jobs[i];
		if (!open_turn(r, i))
			return; /* stopped: the emitter prints nothing more */
		if (!job->path) {
			opened(r, i, 1);
			continue;
		}
		double t0 = cli_now();
		int fd = cli_open_input(job);
		opened(r, i, fd >= 0 || job->missing);
		if (fd >= 0)
			cli_verity_job(job, cli_worker_verity(w), fd, t0);
	}
}

/* A worker: the run, and its buffers (made by cli_run_jobs()). */
struct worker_arg {
	struct runner *r;
	struct cli_worker *w;
};

static void *worker(void *arg)
{
	struct runner *r = ((struct worker_arg *)arg)->r;
	struct cli_worker *w = ((struct worker_arg *)arg)->w;
	for (;;) {
		size_t count = 0, first = claim(r, &count);
		if (first >= r->n)
			break;
		if (cli_opts.fsverity) {
			verity_jobs(r, w, first, count);
		} else {
			cli_hash_jobs(w, r->jobs + first, count);
		}
		pthread_mutex_lock(&r->mu);
		for (size_t i = first; i < first + count; i++)
			r->jobs[i].done = 1;
		while (r->cursor < r->n && r->jobs[r->cursor].done) {
			if (r->emit(&r->jobs[r->cursor++], r->ctx)) {
				atomic_store(&r->stop, 1);
				r->cursor = r->n;
				pthread_cond_broadcast(&r->turn); /* open_turn()'s waiters */
			}
		}
		pthread_mutex_unlock(&r->mu);
	}
	return NULL;
}

/*
 * The workers' buffers and rings, kept from one call to the next: --check
 * runs a list 1,024 lines at a time (cli_check.c), and making them anew
 * for each batch cost, per batch and worker, an io_uring_setup(), its
 * probe and three ring mappings, 9 MiB of buffers mapped and unmapped and
 * their pages faulted in again: 10,000 lines at -j 1 made 10 rings, 51
 * mmap() and 44 munmap() calls (strace -f -c), 1 ring, 15 and 6 kept.
 * Only the thread that calls cli_run_jobs() touches the pool.
 */
static struct cli_worker *pool[64];
static unsigned npool;

static struct cli_worker *pooled(unsigned i)
{
	if (i < npool)
		return pool[i];
	struct cli_worker *w = cli_worker_new();
	if (w)
		pool[npool++] = w;
	return w;
}

void cli_jobs_release(void)
{
	while (npool)
		cli_worker_free(pool[--npool]);
}

void cli_run_jobs(struct cli_job *jobs, size_t n, unsigned nthreads, cli_emit_fn emit, void *ctx)
{
	struct runner r = { .jobs = jobs, .n = n, .cursor = 0, .emit = emit, .ctx = ctx };
	pthread_t tid[64];
	struct worker_arg arg[64];
	unsigned started = 0;

	atomic_init(&r.next, 0);
	atomic_init(&r.stop, 0);
	pthread_mutex_init(&r.mu, NULL);
	pthread_cond_init(&r.turn, NULL);
	if (nthreads > n)
		nthreads = (unsigned)n;
	if (nthreads > 64)
		nthreads = 64;
	r.nthreads = nthreads ? nthreads : 1;
	/* Fewer workers than CPUs: a big input may use a second thread to read
	 * ahead (cli_read.c). With every CPU hashing it would only cost CPU. */
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	cli_opts.pipeline = !cli_opts.no_read_ahead && ncpu > 1 && (long)r.nthreads < ncpu;
	cli_opts.spare = cli_opts.pipeline ? (unsigned)(ncpu - (long)r.nthreads) : 0;
	/*
	 * The calling thread is worker 0; the others are extra. Each worker's
	 * buffers are made here, before its thread: one that cannot have
	 * them is not started and the others take its inputs, as when a
	 * thread cannot be made. Only when worker 0 has none does the run
	 * stop, with no thread of it running: an exit() from a worker would
	 * wipe the HMAC keys and close standard output under the others.
	 */
	arg[0].r = &r;
	arg[0].w = pooled(0);
	if (!arg[0].w) {
		cli_error(0, "out of memory for a worker's buffers");
		exit(1);
	}
	for (unsigned t = 1; t < nthreads; t++) {
		struct worker_arg *a = &arg[1 + started];
		a->r = &r;
		a->w = pooled(1 + started);
		if (!a->w)
			break;
		if (pthread_create(&tid[started], NULL, worker, a) != 0)
			continue; /* the next try takes the same pooled buffers */
		started++;
	}
	worker(&arg[0]);
	for (unsigned t = 0; t < started; t++)
		pthread_join(tid[t], NULL);
	pthread_cond_destroy(&r.turn);
	pthread_mutex_destroy(&r.mu);
}
