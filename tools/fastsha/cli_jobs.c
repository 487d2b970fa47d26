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
 * more is claimed or printed (and under --fsverity, nothing after a failed
 * open is opened: verity_worker()).
 */
#define _GNU_SOURCE /* PTHREAD_MUTEX_ADAPTIVE_NP */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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
	int open_failed; /* --fsverity, under mu: an open failed, open no more */
	pthread_cond_t turn; /* --fsverity: the cursor moved or the run stopped */
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
		 * full runs (strace -f -c). (--fsverity claims elsewhere,
		 * verity_worker().) */
		if (r->nthreads == 1)
			want = 32;
		if (atomic_compare_exchange_weak_explicit(&r->next, &seen, seen + want,
							  memory_order_relaxed, memory_order_relaxed)) {
			*count = seen + want > r->n ? r->n - seen : want;
			return seen;
		}
	}
}

/* Under r->mu: marks job @i done (r->n: none) and prints every finished
 * job from the cursor on; an emitter's failure stops the run. */
static void finish(struct runner *r, size_t first, size_t count)
{
	size_t was = r->cursor;
	for (size_t i = first; i < first + count; i++)
		r->jobs[i].done = 1;
	while (r->cursor < r->n && r->jobs[r->cursor].done) {
		if (r->emit(&r->jobs[r->cursor++], r->ctx)) {
			atomic_store(&r->stop, 1);
			r->cursor = r->n;
		}
	}
	if (cli_opts.fsverity && r->cursor != was)
		pthread_cond_broadcast(&r->turn); /* wait_turn() */
}

/*
 * --fsverity, under r->mu: whether input @i may be opened now. A regular
 * file or a directory may be opened beside the inputs before it (its
 * open() neither blocks nor does anything to anyone). Anything else (a
 * FIFO, a terminal, a device, a socket, standard input) waits until every
 * input before it has been printed: its open() (or, for "-", its first
 * read()) may block for ever, or wake a writer waiting for a reader, and
 * `fsverity digest` never gets to it when an input before it fails, in
 * the open or later in a read. Returns 0 when the run stopped meanwhile.
 */
static int wait_turn(struct runner *r, size_t i)
{
	struct stat st;
	const char *p = r->jobs[i].path;
	if (i == r->cursor)
		return 1;
	if (strcmp(p, "-") != 0 &&
	    (stat(p, &st) != 0 || S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)))
		return 1; /* (a name that does not stat fails to open as well) */
	while (r->cursor != i && !atomic_load_explicit(&r->stop, memory_order_relaxed))
		pthread_cond_wait(&r->turn, &r->mu);
	return r->cursor == i;
}

/*
 * --fsverity's worker: under the run's lock it prints what it finished,
 * claims the next input and opens it, so inputs are opened in argument
 * order and none after an open that failed. The emitter ends the run at
 * the first failure, as `fsverity digest` does, and `fsverity digest`
 * opens nothing after it: a FIFO with no writer there would block in
 * open() for ever (`fastsha --fsverity big missing fifo` hung so at the
 * default -j, every time: the second worker failed on 'missing' while the
 * first hashed 'big', claimed the FIFO and waited in open(), and the run
 * for it at the join). The hashing stays side by side; the opens, a few
 * microseconds each, take turns with the printing, under one adaptive
 * mutex (it spins a little before it sleeps) taken once a file. 5,000
 * files of 1-8 KiB on the project's 2-CPU Zen 2, medians of 15 runs
 * alternating with e971feb's build: -j 2 27.5 and 27.7 ms (two runs)
 * against 27.2 and 28.4, -j 4 23.6 against 23.2, -j 1 38.9 against 38.0,
 * the output the same. (Opens under a mutex of their
 * own, with the printing under the run's lock as for the other modes,
 * took 8-10% longer than before at -j 2; each worker waiting on a
 * condition for the input before its own to be opened, 38-72 ms against
 * 28 at -j 4.) A failure in a read, later, can still find the next input
 * open when that is a regular file or a directory; anything else is
 * opened only once every input before it has been printed (wait_turn()):
 * `fastsha --fsverity big dir fifo` hung at -j 2 (the worker that failed
 * to read 'dir' opened the FIFO before 'big' was done, holding the lock,
 * so not even big's line came out).
 */
static void verity_worker(struct runner *r, struct cli_worker *w)
{
	size_t i = r->n;
	pthread_mutex_lock(&r->mu);
	for (;;) {
		if (i < r->n)
			finish(r, i, 1);
		if (r->open_failed || atomic_load_explicit(&r->stop, memory_order_relaxed))
			break;
		i = atomic_fetch_add_explicit(&r->next, 1, memory_order_relaxed);
		if (i >= r->n)
			break;
		int fd = -1;
		if (r->jobs[i].path && !wait_turn(r, i))
			break;
		double t0 = cli_now();
		if (r->jobs[i].path) {
			fd = cli_open_input(&r->jobs[i]);
			/* --ignore-missing's missing file goes on, as it prints */
			r->open_failed = fd < 0 && !r->jobs[i].missing;
		}
		pthread_mutex_unlock(&r->mu);
		if (fd >= 0)
			cli_verity_job(&r->jobs[i], cli_worker_verity(w), fd, t0);
		pthread_mutex_lock(&r->mu);
	}
	pthread_mutex_unlock(&r->mu);
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
	if (cli_opts.fsverity) {
		verity_worker(r, w);
		return NULL;
	}
	for (;;) {
		size_t count = 0, first = claim(r, &count);
		if (first >= r->n)
			break;
		cli_hash_jobs(w, r->jobs + first, count);
		pthread_mutex_lock(&r->mu);
		finish(r, first, count);
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

/*
 * Whether two inputs may read one stream: "-", and names under /dev/ and
 * /proc/ that are pipes, sockets or character devices (/dev/stdin,
 * /dev/fd/0, /proc/self/fd/0 reach standard input's pipe; /dev/tty).
 * GNU reads its inputs one after the other, each to its end: `cat f |
 * sha256sum /dev/stdin -` gives /dev/stdin all of f and - nothing. Two
 * workers, or one io_uring group (which reads its files' first bytes all
 * at once, at -j 1 too), split the stream between them at random. Only
 * those names are looked at, so that 10,000 plain files cost no stat()
 * more; a FIFO named twice by another path is not caught (GNU would wait
 * in the second open() for a second writer).
 */
static int shared_stream(const struct cli_job *jobs, size_t n)
{
	unsigned streams = 0;
	for (size_t i = 0; i < n && streams < 2; i++) {
		const char *p = jobs[i].path;
		struct stat st;
		if (!p)
			continue;
		if (strcmp(p, "-") == 0)
			streams++;
		else if ((strncmp(p, "/dev/", 5) == 0 || strncmp(p, "/proc/", 6) == 0) &&
			 stat(p, &st) == 0 &&
			 (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode) || S_ISCHR(st.st_mode)))
			streams++;
	}
	return streams >= 2;
}

void cli_run_jobs(struct cli_job *jobs, size_t n, unsigned nthreads, cli_emit_fn emit, void *ctx)
{
	struct runner r = { .jobs = jobs, .n = n, .cursor = 0, .emit = emit, .ctx = ctx };
	pthread_t tid[64];
	struct worker_arg arg[64];
	unsigned started = 0;

	atomic_init(&r.next, 0);
	atomic_init(&r.stop, 0);
	/* --fsverity opens under it too (verity_worker()): adaptive there. */
	pthread_mutexattr_t ma;
	pthread_mutexattr_init(&ma);
	if (cli_opts.fsverity)
		pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_ADAPTIVE_NP);
	pthread_mutex_init(&r.mu, &ma);
	pthread_mutexattr_destroy(&ma);
	pthread_cond_init(&r.turn, NULL);
	/* Such inputs are read one by one, in order, by plain read()s. */
	cli_opts.in_order = shared_stream(jobs, n);
	if (cli_opts.in_order)
		nthreads = 1;
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
