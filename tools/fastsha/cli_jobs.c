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
	atomic_int open_failed; /* --fsverity: an open failed, claim no more */
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

/* Under r->mu: marks jobs [@first, @first + @count) done and prints every
 * finished job from the cursor on; an emitter's failure stops the run. */
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
		pthread_cond_broadcast(&r->turn); /* verity_worker()'s waits */
}

/*
 * Whether @path is more than a file's bytes: standard input ("-"), or a
 * name that stats as neither a regular file nor a directory (a FIFO, a
 * terminal, a device, a socket). Its open() (or, for "-", its first read())
 * may block for ever or wake a writer waiting for a reader, and two names
 * for it may share one stream of bytes. A regular file or a directory
 * does neither, and a name that does not stat fails to open as well.
 * Used by --fsverity's ordered opens (verity_worker()) and by
 * shared_stream().
 */
static int may_block(const char *path)
{
	struct stat st;
	return strcmp(path, "-") == 0 ||
	       (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode));
}

/*
 * --fsverity's worker. Under the run's lock, once a file, it prints what it
 * finished and claims the next input; it opens and hashes outside it. The
 * emitter ends the run at the first failure, as `fsverity digest` does,
 * and `fsverity digest` opens nothing after that: here nothing is claimed
 * after an open that failed, and an input that may block (may_block()) is
 * opened only at its turn, when every input before it has been printed,
 * so a failure before it stops the run first. Before, `fastsha --fsverity
 * big missing fifo` (a FIFO with no writer) hung at the default -j every
 * time: the second worker failed on 'missing' while the first hashed
 * 'big', claimed the FIFO and waited in open(), and the run for it at the
 * join; and so did `big dir fifo`, where 'dir' opens and fails in its
 * first read. An input claimed ahead of its turn costs one stat() (none
 * at -j 1), the price of never hanging: 5,000 files of 1-8 KiB on the
 * project's 2-CPU Zen 2, medians of 31 runs alternating with e971feb's
 * build (which opened ahead and could hang): -j 2 31.8 and 31.3 ms (two
 * runs) against 27.9 and 28.0, -j 4 28.5 against 25.9, -j 1 41.4 against
 * 41.2; `fsverity digest` 61-77 ms. Without the stat() it was level.
 * (With the opens and the stat() under the lock, 9-17% longer than
 * e971feb; with the opens under a second mutex, 8-10%; with each worker
 * waiting on a condition for the input before its own to be opened, 38-72
 * ms against 28 at -j 4.)
 */
static void verity_worker(struct runner *r, struct cli_worker *w)
{
	size_t i = r->n;
	for (;;) {
		pthread_mutex_lock(&r->mu);
		if (i < r->n)
			finish(r, i, 1);
		if (atomic_load_explicit(&r->open_failed, memory_order_relaxed) ||
		    atomic_load_explicit(&r->stop, memory_order_relaxed)) {
			pthread_mutex_unlock(&r->mu);
			return;
		}
		i = atomic_fetch_add_explicit(&r->next, 1, memory_order_relaxed);
		int ahead = i != r->cursor;
		pthread_mutex_unlock(&r->mu);
		if (i >= r->n)
			return;
		struct cli_job *job = &r->jobs[i];
		int fd = -1;
		double t0 = cli_now();
		if (job->path) {
			if (ahead && may_block(job->path)) {
				pthread_mutex_lock(&r->mu);
				while (r->cursor != i &&
				       !atomic_load_explicit(&r->stop, memory_order_relaxed))
					pthread_cond_wait(&r->turn, &r->mu);
				int go = r->cursor == i;
				pthread_mutex_unlock(&r->mu);
				if (!go)
					return; /* stopped: nothing more is printed */
			}
			fd = cli_open_input(job);
			/* --ignore-missing's missing file goes on, as it prints */
			if (fd < 0 && !job->missing)
				atomic_store_explicit(&r->open_failed, 1, memory_order_relaxed);
		}
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
 * /proc/ that may_block() (/dev/stdin, /dev/fd/0, /proc/self/fd/0 reach
 * standard input's pipe; /dev/tty).
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
		if (p &&
		    (strcmp(p, "-") == 0 || strncmp(p, "/dev/", 5) == 0 ||
		     strncmp(p, "/proc/", 6) == 0) &&
		    may_block(p))
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
	atomic_init(&r.open_failed, 0);
	/* --fsverity takes it once a file, to print and claim (verity_worker()),
	 * and for the turn of an input that may block: adaptive there. */
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
