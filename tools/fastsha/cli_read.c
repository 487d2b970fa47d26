/* SPDX-License-Identifier: MIT */
/*
 * Hashing one input: a read() loop with a 128 KiB buffer, or, with --mmap,
 * a guarded mapping of big regular files; plus the progress bar.
 *
 * Why read() is the default: on the project machine (Zen 3, ext4, 1 GiB in
 * the page cache) mapping through the prefetch thread below took 2-4% more
 * CPU time than read(), and when a core was free to overlap on, it was no
 * faster than read() with a read-ahead thread (0.695 s vs 0.687 s), which
 * also works for pipes and cannot SIGBUS (docs/benchmarks-history.md, "CLI").
 * --mmap keeps the mapped path.
 *
 * Hazards handled here:
 * - A digest is never produced for data not read whole: any read error, a
 *   failed close, or a file that shrinks under mmap (SIGBUS, or a size
 *   below the mapped end once hashed) fails the input.
 * - EINTR is retried, short reads are simply followed by more reads until
 *   read() returns 0, and EAGAIN (a non-blocking stdin) waits in poll().
 * - A mapped file truncated by someone else raises SIGBUS on the pages past
 *   the new end. Only regular files are mapped, and each mapped window is
 *   hashed under a per-thread sigsetjmp guard: the SIGBUS handler jumps back
 *   and the input fails with a message, instead of the process dying.
 * - Mapping never applies to standard input: its file offset may not be 0.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

/*
 * MMAP_MIN: smaller files are not worth the mmap/munmap calls. MMAP_WINDOW:
 * how much is mapped at once (bounded address space for huge files;
 * MAP_POPULATE fills a window's page tables in one call rather than one
 * fault per 64 KiB). HASH_STEP: how much is hashed between progress updates.
 */
#define MMAP_MIN (4u << 20)
#define MMAP_WINDOW ((size_t)16 << 20)
#define HASH_STEP ((size_t)4 << 20)

/*
 * 128 KiB reads: 16 KiB costs 4% more CPU per GiB, 64 KiB..1 MiB are equal
 * within noise (docs/benchmarks-history.md, "CLI"). Mapping is opt-in (--mmap): here it
 * never measured faster than read() with read-ahead (see above).
 */
struct cli_opts cli_opts = { .bufsize = 128 * 1024, .jobs = 1, .use_mmap = 0 };

double cli_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

const char *cli_strerror(const struct cli_job *job)
{
	return job->errmsg ? job->errmsg : strerror(job->err);
}

/* --time: "PROGRAM: NAME: BYTES bytes in S s, R MB/s" on stderr. */
void cli_print_timing(const struct cli_job *job, const char *name)
{
	double mbs = job->secs > 0 ? (double)job->bytes / job->secs / 1e6 : 0;
	cli_error_name(name, "%llu bytes in %.6f s, %.1f MB/s", (unsigned long long)job->bytes,
		       job->secs, mbs);
}

uint8_t *cli_alloc_buffer(void)
{
	void *p = NULL;
	if (posix_memalign(&p, 4096, cli_opts.bufsize) != 0)
		return NULL;
	return p;
}

/* ---- plain digests or HMACs ---------------------------------------------- */

/*
 * The running hash of one streamed input: a plain digest's context, or,
 * with --hmac-key-file, an HMAC's under the prepared key of the job's
 * algorithm. Every streaming path (the read loop, read-ahead, mapping, a
 * small file that outgrew its slot, the ring's leftovers) goes through
 * these four, and the batches through flush(), so a tag cannot depend on
 * the path its input took.
 */
struct hasher {
	int keyed;
	size_t outlen; /* an XOF's output length (-l); 0 for the digest size */
	union {
		fastsha_ctx plain;
		fastsha_hmac_ctx mac;
	} u;
};

static void hasher_init(struct hasher *h, const struct cli_job *job)
{
	fastsha_alg alg = job->alg;
	h->keyed = cli_opts.mac != NULL;
	h->outlen = fastsha_alg_is_xof(alg) ? job->outlen : 0;
	if (!h->keyed)
		fastsha_init(&h->u.plain, alg);
	else if (fastsha_hmac_init(&h->u.mac, &cli_opts.mac[alg]) != 0)
		abort(); /* fastsha.c prepares the key for every algorithm a job can have */
}

static void hasher_update(struct hasher *h, const void *data, size_t len)
{
	if (h->keyed)
		fastsha_hmac_update(&h->u.mac, data, len);
	else
		fastsha_update(&h->u.plain, data, len);
}

/* The digest or tag into out, and sha1dc's flag (HMACs have none); an
 * XOF's h->outlen bytes when -l set them. An HMAC context holds keyed
 * chaining values: the library wipes it here. */
static int hasher_final(struct hasher *h, uint8_t *out)
{
	if (!h->keyed && h->outlen) {
		if (fastsha_squeeze(&h->u.plain, out, h->outlen) != 0)
			abort(); /* hasher_init() set outlen for XOFs only */
		return 0;
	}
	if (!h->keyed)
		return fastsha_final_detect(&h->u.plain, out);
	fastsha_hmac_final(&h->u.mac, out);
	return 0;
}

/* An input that failed: its HMAC context is wiped, not finished (after
 * SIGBUS on a mapping an update may have stopped half way). */
static void hasher_drop(struct hasher *h)
{
	if (h->keyed)
		fastsha_wipe(&h->u.mac, sizeof h->u.mac);
}

/* ---- progress bar ------------------------------------------------------ */

struct progress {
	const char *name;
	uint64_t total; /* 0 when unknown (a pipe) */
	double start, last;
};

static pthread_mutex_t prog_mu = PTHREAD_MUTEX_INITIALIZER;
static const struct progress *prog_owner; /* the one input the bar shows */
static int prog_drawn;

static void put_err(const char *s, size_t n)
{
	while (n) {
		ssize_t w = write(STDERR_FILENO, s, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}

static void human(char *out, size_t n, double bytes)
{
	static const char *unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	int u = 0;
	while (bytes >= 1024 && u < 4) {
		bytes /= 1024;
		u++;
	}
	snprintf(out, n, u ? "%.1f %s" : "%.0f %s", bytes, unit[u]);
}

static void progress_tick(struct progress *p, uint64_t done)
{
	double now = cli_now();
	/* Short inputs draw nothing; long ones redraw five times a second. */
	if (now - p->start < 0.5 || now - p->last < 0.2)
		return;
	p->last = now;
	pthread_mutex_lock(&prog_mu);
	if (!prog_owner)
		prog_owner = p;
	if (prog_owner == p) {
		char line[256], d[32], t[32], bar[24];
		double secs = now - p->start, rate = (double)done / secs;
		human(d, sizeof d, (double)done);
		if (p->total) {
			double frac = (double)done / (double)p->total;
			int fill = (int)(frac * 20);
			double left = rate > 0 ? ((double)p->total - (double)done) / rate : 0;
			if (frac > 1)
				frac = 1, fill = 20;
			memset(bar, '#', (size_t)fill);
			memset(bar + fill, '.', (size_t)(20 - fill));
			bar[20] = '\0';
			human(t, sizeof t, (double)p->total);
			snprintf(line, sizeof line, "\r\033[K%.30s [%s] %3d%% %s / %s  %.1f MB/s  %d:%02d left",
				 p->name, bar, (int)(frac * 100), d, t, rate / 1e6, (int)left / 60,
				 (int)left % 60);
		} else {
			snprintf(line, sizeof line, "\r\033[K%.30s %s  %.1f MB/s", p->name, d, rate / 1e6);
		}
		put_err(line, strlen(line));
		prog_drawn = 1;
	}
	pthread_mutex_unlock(&prog_mu);
}

static void progress_end(struct progress *p)
{
	pthread_mutex_lock(&prog_mu);
	if (prog_owner == p) {
		prog_owner = NULL;
		if (prog_drawn)
			put_err("\r\033[K", 4);
		prog_drawn = 0;
	}
	pthread_mutex_unlock(&prog_mu);
}

/* Called before output lines, so they do not land inside the bar. */
void cli_progress_clear(void)
{
	if (!cli_opts.progress)
		return;
	pthread_mutex_lock(&prog_mu);
	if (prog_drawn) {
		fflush(stdout);
		put_err("\r\033[K", 4);
		prog_drawn = 0;
	}
	pthread_mutex_unlock(&prog_mu);
}

/* ---- SIGBUS guard for mapped files -------------------------------------- */

static _Thread_local sigjmp_buf *bus_guard;
static pthread_once_t bus_once = PTHREAD_ONCE_INIT;
static int bus_ok;

static void on_sigbus(int sig)
{
	if (bus_guard)
		siglongjmp(*bus_guard, 1);
	/* Not ours: the default action, when the faulting access repeats. */
	signal(sig, SIG_DFL);
}

static void install_sigbus(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_sigbus;
	sigemptyset(&sa.sa_mask);
	bus_ok = sigaction(SIGBUS, &sa, NULL) == 0;
}

/* Hashes one mapped window under the SIGBUS guard; -1 when it fired. */
static int hash_window(const uint8_t *p, size_t len, uint64_t base, struct hasher *ctx,
		       struct progress *prog)
{
	sigjmp_buf env;
	if (sigsetjmp(env, 1)) {
		bus_guard = NULL;
		return -1;
	}
	bus_guard = &env;
	for (size_t k = 0; k < len; k += HASH_STEP) {
		size_t n = len - k < HASH_STEP ? len - k : HASH_STEP;
		hasher_update(ctx, p + k, n);
		if (prog)
			progress_tick(prog, base + k + n);
	}
	bus_guard = NULL;
	return 0;
}

/*
 * The mapping pipeline: a helper thread maps window k+1 with MAP_POPULATE
 * (the page-table work, about 0.1 s of system time per GiB here) while this
 * thread hashes window k, so on a machine with a spare core a big file
 * costs about its hashing time alone. Two slots; the helper stops when told
 * or when a map fails, and the hasher then read()s on from there.
 */
struct slot {
	uint8_t *p;
	size_t len;
	int state; /* 0 empty, 1 mapped, 2 the map failed */
};

struct prefetch {
	int fd;
	uint64_t start, size;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct slot slot[2];
	int stop;
};

static uint8_t *map_window(int fd, uint64_t off, size_t len)
{
	uint8_t *p = mmap(NULL, len, PROT_READ, MAP_SHARED | MAP_POPULATE, fd, (off_t)off);
	if (p != MAP_FAILED)
		madvise(p, len, MADV_SEQUENTIAL);
	return p;
}

static void *prefetcher(void *arg)
{
	struct prefetch *pf = arg;
	uint64_t off = pf->start;
	for (unsigned k = 0; off < pf->size; k++) {
		struct slot *sl = &pf->slot[k & 1];
		size_t len = pf->size - off < MMAP_WINDOW ? (size_t)(pf->size - off) : MMAP_WINDOW;
		pthread_mutex_lock(&pf->mu);
		while (sl->state != 0 && !pf->stop)
			pthread_cond_wait(&pf->cv, &pf->mu);
		int stop = pf->stop;
		pthread_mutex_unlock(&pf->mu);
		if (stop)
			break;
		uint8_t *p = map_window(pf->fd, off, len);
		pthread_mutex_lock(&pf->mu);
		sl->p = p;
		sl->len = len;
		sl->state = p == MAP_FAILED ? 2 : 1;
		pthread_cond_broadcast(&pf->cv);
		pthread_mutex_unlock(&pf->mu);
		if (p == MAP_FAILED)
			break;
		off += len;
	}
	return NULL;
}

/*
 * Hashes [start, size) of fd through mapped windows. Returns the offset
 * reached: size, or less when a map failed (the caller read()s on from
 * there) or when SIGBUS fired (job->errmsg is set).
 */
static uint64_t hash_mapped(int fd, uint64_t start, uint64_t size, struct hasher *ctx,
			    struct cli_job *job, struct progress *prog)
{
	struct prefetch pf = { .fd = fd, .start = start, .size = size };
	pthread_t tid;
	uint64_t off = start;
	int threaded;

	pthread_mutex_init(&pf.mu, NULL);
	pthread_cond_init(&pf.cv, NULL);
	/* One window or less: no helper, map and hash in place. */
	threaded = size - start > MMAP_WINDOW && pthread_create(&tid, NULL, prefetcher, &pf) == 0;
	for (unsigned k = 0; off < size; k++) {
		struct slot sl, *slp = &pf.slot[k & 1];
		if (threaded) {
			pthread_mutex_lock(&pf.mu);
			while (slp->state == 0)
				pthread_cond_wait(&pf.cv, &pf.mu);
			sl = *slp;
			pthread_mutex_unlock(&pf.mu);
		} else {
			sl.len = size - off < MMAP_WINDOW ? (size_t)(size - off) : MMAP_WINDOW;
			sl.p = map_window(fd, off, sl.len);
			sl.state = sl.p == MAP_FAILED ? 2 : 1;
		}
		if (sl.state == 2)
			break;
		int rc = hash_window(sl.p, sl.len, off, ctx, prog);
		munmap(sl.p, sl.len);
		if (threaded) {
			pthread_mutex_lock(&pf.mu);
			slp->state = 0;
			pthread_cond_broadcast(&pf.cv);
			pthread_mutex_unlock(&pf.mu);
		}
		if (rc) {
			job->errmsg = "file shrank while being read (SIGBUS on the mapping)";
			break;
		}
		off += sl.len;
	}
	if (threaded) {
		pthread_mutex_lock(&pf.mu);
		pf.stop = 1;
		pthread_cond_broadcast(&pf.cv);
		pthread_mutex_unlock(&pf.mu);
		pthread_join(tid, NULL);
		for (int i = 0; i < 2; i++)
			if (pf.slot[i].state == 1)
				munmap(pf.slot[i].p, pf.slot[i].len);
	}
	pthread_cond_destroy(&pf.cv);
	pthread_mutex_destroy(&pf.mu);
	/*
	 * A file cut inside its last mapped page raises no SIGBUS: that page
	 * reads as zeros past the new end, which the file never held. So the
	 * size is looked at again once hashed (a cut and a regrowth both
	 * between two looks still pass unseen: --mmap's limit, docs/cli.md).
	 */
	struct stat st;
	if (!job->errmsg && off > start && fstat(fd, &st) == 0 && (uint64_t)st.st_size < off)
		job->errmsg = "file shrank while being read";
	return off;
}

/* ---- one input ---------------------------------------------------------- */

/* One read(): EINTR retried, EAGAIN waits. Returns bytes, 0 at EOF, -errno. */
ssize_t cli_read_once(int fd, void *buf, size_t n)
{
	for (;;) {
		ssize_t r = read(fd, buf, n);
		if (r >= 0)
			return r;
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN || errno == EWOULDBLOCK) {
			struct pollfd pfd = { .fd = fd, .events = POLLIN };
			poll(&pfd, 1, -1);
			continue;
		}
		return -errno;
	}
}

/* Reads to EOF; a short read is just followed by the next read. */
static int read_all(int fd, uint8_t *buf, struct hasher *ctx, uint64_t *done,
		    struct progress *prog)
{
	for (;;) {
		ssize_t n = cli_read_once(fd, buf, cli_opts.bufsize);
		if (n < 0)
			return (int)-n;
		if (n == 0)
			return 0;
		hasher_update(ctx, buf, (size_t)n);
		*done += (uint64_t)n;
		if (prog)
			progress_tick(prog, *done);
	}
}

/*
 * The read-ahead pipeline: a helper thread read()s (bufsize at a time) into
 * RD_SLOTS buffers of RD_CHUNK while this thread hashes the filled ones, so the copy out of the
 * page cache (about 0.1 s per GiB here) runs on the spare core. Used for big
 * inputs (the first read filled the buffer) when fewer workers than CPUs
 * run; pipes benefit too. Measured: 1 GiB cached, 0.687 s vs 0.768 s for
 * plain read() when a core was free (docs/benchmarks-history.md, "CLI"); with no core free
 * it costs about 6% more CPU, hence the condition.
 */
#define RD_SLOTS 4
#define RD_CHUNK ((size_t)1 << 20)

struct reader {
	int fd;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	uint8_t *buf[RD_SLOTS];
	size_t len[RD_SLOTS];
	int state[RD_SLOTS]; /* 0 empty, 1 filled, 2 filled and EOF, 3 read error */
	int err;
};

static void *reader_main(void *arg)
{
	struct reader *rd = arg;
	for (unsigned k = 0;; k++) {
		unsigned i = k % RD_SLOTS;
		size_t got = 0;
		int st = 1, err = 0;
		pthread_mutex_lock(&rd->mu);
		while (rd->state[i] != 0)
			pthread_cond_wait(&rd->cv, &rd->mu);
		pthread_mutex_unlock(&rd->mu);
		while (got < RD_CHUNK) {
			size_t want = RD_CHUNK - got < cli_opts.bufsize ? RD_CHUNK - got : cli_opts.bufsize;
			ssize_t n = cli_read_once(rd->fd, rd->buf[i] + got, want);
			if (n < 0) {
				err = (int)-n;
				st = 3;
				break;
			}
			if (n == 0) {
				st = 2;
				break;
			}
			got += (size_t)n;
		}
		pthread_mutex_lock(&rd->mu);
		rd->len[i] = got;
		rd->err = err;
		rd->state[i] = st;
		pthread_cond_broadcast(&rd->cv);
		pthread_mutex_unlock(&rd->mu);
		if (st != 1)
			return NULL;
	}
}

/* read_all() through the reader thread; plain read_all() if it cannot start.
 * The helper always runs to EOF or an error, so joining it cannot hang. */
static int read_all_piped(int fd, uint8_t *buf, struct hasher *ctx, uint64_t *done,
			  struct progress *prog)
{
	struct reader rd = { .fd = fd };
	pthread_t tid;
	void *mem = NULL;
	int err = 0;

	if (posix_memalign(&mem, 4096, RD_SLOTS * RD_CHUNK) != 0)
		return read_all(fd, buf, ctx, done, prog);
	for (int i = 0; i < RD_SLOTS; i++)
		rd.buf[i] = (uint8_t *)mem + (size_t)i * RD_CHUNK;
	pthread_mutex_init(&rd.mu, NULL);
	pthread_cond_init(&rd.cv, NULL);
	if (pthread_create(&tid, NULL, reader_main, &rd) != 0) {
		pthread_cond_destroy(&rd.cv);
		pthread_mutex_destroy(&rd.mu);
		free(mem);
		return read_all(fd, buf, ctx, done, prog);
	}
	for (unsigned k = 0;; k++) {
		unsigned j = k % RD_SLOTS;
		pthread_mutex_lock(&rd.mu);
		while (rd.state[j] == 0)
			pthread_cond_wait(&rd.cv, &rd.mu);
		int st = rd.state[j];
		size_t len = rd.len[j];
		pthread_mutex_unlock(&rd.mu);
		if (len) {
			hasher_update(ctx, rd.buf[j], len);
			*done += len;
			if (prog)
				progress_tick(prog, *done);
		}
		if (st != 1) {
			if (st == 3)
				err = rd.err;
			break;
		}
		pthread_mutex_lock(&rd.mu);
		rd.state[j] = 0;
		pthread_cond_broadcast(&rd.cv);
		pthread_mutex_unlock(&rd.mu);
	}
	pthread_join(tid, NULL);
	pthread_cond_destroy(&rd.cv);
	pthread_mutex_destroy(&rd.mu);
	free(mem);
	return err;
}

/* Opens job's input (fd 0 for "-"); -1 with job->err or job->missing set. */
int cli_open_input(struct cli_job *job)
{
	int fd;
	if (strcmp(job->path, "-") == 0) {
		/* A checked list's "-" line, when /dev/stdin gave the key: it
		 * would hash the key (or nothing), never what the line meant. */
		if (cli_opts.key_is_stdin) {
			job->errmsg = "standard input holds the HMAC key; it is not read as an input";
			return -1;
		}
		return STDIN_FILENO;
	}
	do
		fd = open(job->path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	while (fd < 0 && errno == EINTR);
	if (fd < 0) {
		if (errno == ENOENT && cli_opts.ignore_missing)
			job->missing = 1;
		else
			job->err = errno;
	}
	return fd;
}

/* Closes an input that cli_open_input() opened; err is the error so far. */
int cli_close_input(const struct cli_job *job, int fd, int err)
{
	if (strcmp(job->path, "-") != 0 && close(fd) != 0 && !err && errno != EINTR)
		err = errno;
	return err;
}

/*
 * Hashes the open input fd from where it stands to its end and closes it.
 * ctx holds the @done bytes already read (their hashing included) and
 * @last is the size of the latest read: a full buffer (cli_opts.bufsize)
 * marks a big input, 0 the end. t0: when the job started; known: its
 * fstat() when the caller made one, else NULL.
 */
static void hash_rest(struct cli_job *job, int fd, uint8_t *buf, double t0,
		      const struct stat *known, struct hasher *ctx, uint64_t done, size_t last)
{
	const int is_stdin = strcmp(job->path, "-") == 0;
	struct stat st;
	int err = 0;
	struct progress prog, *pp = NULL;

	/* (A pipe's first read is short: with --progress it still gets a bar.) */
	if (last >= cli_opts.bufsize || (last > 0 && cli_opts.progress)) {
		if (known)
			st = *known;
		int regular = (known || fstat(fd, &st) == 0) && S_ISREG(st.st_mode);
		uint64_t size = regular ? (uint64_t)st.st_size : 0;
		if (regular)
			posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
		if (cli_opts.progress) {
			prog.name = job->path;
			prog.total = size;
			prog.start = prog.last = t0;
			pp = &prog;
		}
		/* Standard input's offset need not be 0, so it is never mapped;
		 * nor is a file whose read position is not page-aligned. */
		if (regular && !is_stdin && cli_opts.use_mmap && size >= done + MMAP_MIN &&
		    done % (uint64_t)sysconf(_SC_PAGESIZE) == 0) {
			pthread_once(&bus_once, install_sigbus);
			if (bus_ok) {
				done = hash_mapped(fd, done, size, ctx, job, pp);
				/* Past the mapped part (a failed map, or a file that
				 * grew) read() goes on from where mapping stopped. */
				if (!job->errmsg && lseek(fd, (off_t)done, SEEK_SET) < 0)
					err = errno;
			}
		}
		if (!job->errmsg && !err)
			err = cli_opts.pipeline && last >= cli_opts.bufsize
				      ? read_all_piped(fd, buf, ctx, &done, pp)
				      : read_all(fd, buf, ctx, &done, pp);
	} else if (last > 0) {
		err = read_all(fd, buf, ctx, &done, NULL);
	}
	err = cli_close_input(job, fd, err);
	if (pp)
		progress_end(pp);
	job->bytes = done;
	job->secs = cli_now() - t0;
	if (err || job->errmsg) {
		job->err = err ? err : EIO;
		hasher_drop(ctx);
		return;
	}
	job->detected = hasher_final(ctx, job->digest);
}

/* Hashes the open input fd to its end and closes it (see hash_rest()). */
static void hash_fd(struct cli_job *job, int fd, uint8_t *buf, double t0,
		    const struct stat *known)
{
	struct hasher ctx;
	hasher_init(&ctx, job);
	/*
	 * Read first, look later: an input that fits the buffer is done in
	 * read, read (EOF). A full first buffer means a big input: then fstat
	 * decides on fadvise, mmap and the progress bar's total. (Small
	 * regular files do not come here: cli_hash_jobs() batches them.)
	 */
	ssize_t n = cli_read_once(fd, buf, cli_opts.bufsize);
	if (n < 0) {
		job->err = cli_close_input(job, fd, (int)-n);
		job->secs = cli_now() - t0;
		hasher_drop(&ctx);
		return;
	}
	hasher_update(&ctx, buf, (size_t)n);
	hash_rest(job, fd, buf, t0, known, &ctx, (uint64_t)n, (size_t)n);
}

/* ---- many small files through the lanes ---------------------------------- */

/*
 * A worker's group of inputs: small regular files are read whole, each
 * into its own slice of one batch buffer, and hashed together by one
 * fastsha_many_detect() call (with --hmac-key-file, fastsha_hmac_many()
 * under the one prepared key), whose lane kernels advance 3-4 messages at
 * once (on Zen 3, 4 KiB messages: about 2.7x the single-stream rate for
 * SHA-1, 2x for SHA-256). Bigger files, standard input, pipes and devices
 * take the streaming path above.
 *
 * SMALL_MAX: the largest file batched; BATCH_BYTES: the batch buffer. A
 * file is read with one read() of the buffer's free space: when it
 * returns the size fstat gave and less than was asked, that is the end
 * (the second, EOF read is saved), otherwise reads go on until read()
 * returns 0, as the streaming path's do, so a file that grows or shrinks
 * meanwhile is hashed as read() delivered it. One that outgrows the free
 * space goes on through a streaming context. So a small file costs open,
 * fstat, read, close.
 */
#define SMALL_MAX ((size_t)256 << 10)
#define BATCH_BYTES ((size_t)1 << 20)
#define BATCH_MAX 64 /* files per batch */
/* Through io_uring: files per ring group, each read into a SMALL_MAX slot
 * of the batch buffer (RING_FILES * SMALL_MAX bytes, touched only as far
 * as the files go). */
#define RING_FILES 32

struct cli_worker {
	uint8_t *buf;   /* the streaming path's read buffer */
	uint8_t *batch; /* the batched files' bytes: BATCH_BYTES, or the ring's slots */
	struct cli_ring *ring; /* NULL: plain system calls */
	int ring_tried;        /* ring_ready() ran: the ring is made on first need */
	size_t used;
	size_t npend;
	struct {
		struct cli_job *job;
		size_t off, len;
		double t0, t1; /* from open to close */
	} pend[BATCH_MAX];
	fastsha_msg msgs[BATCH_MAX];
	size_t idx[BATCH_MAX];
	uint8_t out[BATCH_MAX * FASTSHA_MAX_DIGEST_SIZE];
	uint8_t detected[BATCH_MAX]; /* sha1dc's flags, with out */
	void *verity; /* cli_verity.c's buffers, made on first use */
};

struct cli_worker *cli_worker_new(void)
{
	struct cli_worker *w = calloc(1, sizeof(*w));
	void *p = NULL;
	if (!w)
		return NULL;
	w->buf = cli_alloc_buffer();
	if (posix_memalign(&p, 4096, BATCH_BYTES) == 0)
		w->batch = p;
	if (!w->buf || !w->batch) {
		cli_worker_free(w);
		return NULL;
	}
	return w;
}

void cli_worker_free(struct cli_worker *w)
{
	if (!w)
		return;
	free(w->buf);
	free(w->batch);
	cli_ring_free(w->ring);
	free(w->verity);
	free(w);
}

void **cli_worker_verity(struct cli_worker *w)
{
	return &w->verity;
}

/* Hashes the batch: one fastsha_many_detect() per algorithm present (a
 * --check list may mix them), or with --hmac-key-file one
 * fastsha_hmac_many() under that algorithm's prepared key; digests (tags)
 * and sha1dc's flags back in the jobs; the hashing time is shared out by
 * bytes for --time. */
static void flush(struct cli_worker *w)
{
	double t0 = cli_now(), dt;
	size_t total = 0;
	unsigned char taken[BATCH_MAX] = { 0 };
	for (size_t i = 0; i < w->npend; i++)
		total += w->pend[i].len;
	for (size_t i = 0; i < w->npend; i++) {
		fastsha_alg alg = w->pend[i].job->alg;
		/* An XOF's -l length: its own batch, through fastsha_many_xof(). */
		size_t xlen = fastsha_alg_is_xof(alg) ? w->pend[i].job->outlen : 0;
		size_t k = 0, dsize = xlen ? xlen : fastsha_alg_digest_size(alg);
		if (taken[i])
			continue;
		for (size_t j = i; j < w->npend; j++) {
			if (taken[j] || w->pend[j].job->alg != alg ||
			    (xlen && w->pend[j].job->outlen != xlen))
				continue;
			w->msgs[k].data = w->batch + w->pend[j].off;
			w->msgs[k].len = w->pend[j].len;
			w->idx[k++] = j;
			taken[j] = 1;
		}
		if (cli_opts.mac) {
			if (fastsha_hmac_many(&cli_opts.mac[alg], w->msgs, k, w->out) != 0)
				abort(); /* as in hasher_init() */
			memset(w->detected, 0, k);
		} else if (xlen) {
			if (fastsha_many_xof(alg, w->msgs, k, w->out, xlen) != 0)
				abort(); /* an XOF by the test above */
			memset(w->detected, 0, k);
		} else {
			fastsha_many_detect(alg, w->msgs, k, w->out, w->detected);
		}
		for (size_t m = 0; m < k; m++) {
			memcpy(w->pend[w->idx[m]].job->digest, w->out + m * dsize, dsize);
			w->pend[w->idx[m]].job->detected = w->detected[m];
		}
	}
	dt = cli_now() - t0;
	for (size_t i = 0; i < w->npend; i++) {
		struct cli_job *job = w->pend[i].job;
		job->bytes = w->pend[i].len;
		job->secs = w->pend[i].t1 - w->pend[i].t0 +
			    (total ? dt * (double)w->pend[i].len / (double)total : 0);
	}
	w->npend = 0;
	w->used = 0;
}

/*
 * Reads the open small regular file into the batch. Returns 1 when it was
 * queued, 0 when it was finished here (an error, or it outgrew the free
 * space and was streamed).
 */
static int read_small(struct cli_worker *w, struct cli_job *job, int fd, uint64_t size,
		      double t0)
{
	uint8_t *dst = w->batch + w->used;
	size_t cap = BATCH_BYTES - w->used, got = 0;
	int err = 0;
	for (;;) {
		ssize_t n = cli_read_once(fd, dst + got, cap - got);
		if (n < 0) {
			err = (int)-n;
			break;
		}
		got += (size_t)n;
		/* 0: the end. Less than asked, and all fstat promised: the end
		 * too, without the extra read() that would say so. */
		if (n == 0 || ((uint64_t)got == size && got < cap))
			break;
		if (got == cap) {
			/* It grew past the free space: stream the rest. */
			struct hasher ctx;
			uint64_t done = got;
			hasher_init(&ctx, job);
			hasher_update(&ctx, dst, got);
			err = read_all(fd, w->buf, &ctx, &done, NULL);
			err = cli_close_input(job, fd, err);
			job->bytes = done;
			job->secs = cli_now() - t0;
			if (err) {
				job->err = err;
				hasher_drop(&ctx);
			} else {
				job->detected = hasher_final(&ctx, job->digest);
			}
			return 0;
		}
	}
	err = cli_close_input(job, fd, err);
	if (err) {
		job->err = err;
		job->secs = cli_now() - t0;
		return 0;
	}
	w->pend[w->npend].job = job;
	w->pend[w->npend].off = w->used;
	w->pend[w->npend].len = got;
	w->pend[w->npend].t0 = t0;
	w->pend[w->npend].t1 = cli_now();
	w->npend++;
	/* The next file's slice starts on a cache line. */
	w->used += (got + 63) & ~(size_t)63;
	if (w->used > BATCH_BYTES)
		w->used = BATCH_BYTES;
	return 1;
}

/* One input by plain system calls: batched when small and regular. */
static void plain_one(struct cli_worker *w, struct cli_job *job)
{
	double t0 = cli_now();
	struct stat st;
	int fd = cli_open_input(job);
	if (fd < 0)
		return;
	const int known = strcmp(job->path, "-") != 0 && fstat(fd, &st) == 0;
	if (!known || !S_ISREG(st.st_mode) || (uint64_t)st.st_size > SMALL_MAX) {
		hash_fd(job, fd, w->buf, t0, known ? &st : NULL);
		return;
	}
	/* Room for the whole file and the byte that shows its end. */
	if (w->npend == BATCH_MAX || BATCH_BYTES - w->used <= (size_t)st.st_size)
		flush(w);
	read_small(w, job, fd, (uint64_t)st.st_size, t0);
}

/*
 * ---- the same through io_uring ----
 *
 * A group of up to RING_FILES inputs in four io_uring_enter() calls in
 * place of four system calls per file: open them all; read each into its
 * slot, from offset 0; read one byte at the end of what came, which must
 * find the end (0 bytes) as the plain path's EOF read() does; close.
 * Whatever a read took is kept: a file that filled its slot, one whose
 * end byte found more (it grew, or a file system returned a short read),
 * and a pipe, FIFO or terminal (io_uring reads those at their current
 * position, offsets or not) are hashed on from the bytes already read,
 * through hash_rest(), the file's position first moved past them where
 * it has one. Standard input never comes here.
 */
enum { R_OPEN, R_READ, R_END, R_CLOSE };
#define R_NONE INT32_MIN /* no completion seen */

struct rgroup {
	int fd[RING_FILES];
	int res[4][RING_FILES];
	uint8_t end[RING_FILES];
};

static void ring_done(void *ctx, uint64_t user, int res)
{
	struct rgroup *g = ctx;
	g->res[(user >> 8) & 3][user & 0xff] = res;
}

/* Runs the queued operations; on a ring failure the worker drops the
 * ring (results not seen stay R_NONE and take the plain path). */
static void ring_run(struct cli_worker *w, struct rgroup *g)
{
	if (cli_ring_run(w->ring, ring_done, g) < 0) {
		cli_ring_free(w->ring);
		w->ring = NULL;
	}
}

/*
 * Whether fd has a position. Used when the ring failed (io_uring_enter()
 * itself returned an error, which should never happen) before a read's
 * result was seen: on a file with a position an offset read changes
 * nothing, so it can be read again; on a pipe it may have taken bytes,
 * and the input is reported as failed (EIO) rather than risk a digest
 * of what was left.
 */
static int seekable(int fd)
{
	return lseek(fd, 0, SEEK_CUR) >= 0;
}

/* Hashes job's open fd on from @got bytes of its slot and @nend end bytes
 * already read (got == SMALL_MAX: a big input). */
static void ring_rest(struct cli_worker *w, struct cli_job *job, int fd, const uint8_t *slot,
		      size_t got, const uint8_t *end, size_t nend, double t0)
{
	struct hasher ctx;
	uint64_t done = (uint64_t)got + nend;
	hasher_init(&ctx, job);
	hasher_update(&ctx, slot, got);
	hasher_update(&ctx, end, nend);
	/* The reads gave offsets, so a file's position is still 0; a pipe
	 * has none (ESPIPE) and stands right after what was read. */
	if (lseek(fd, (off_t)done, SEEK_SET) < 0 && errno != ESPIPE) {
		job->err = cli_close_input(job, fd, errno);
		job->secs = cli_now() - t0;
		hasher_drop(&ctx);
		return;
	}
	hash_rest(job, fd, w->buf, t0, NULL, &ctx, done, got >= SMALL_MAX ? cli_opts.bufsize : 1);
}

/*
 * Whether the worker has a ring, making it (and its RING_FILES slots, in
 * place of the plain batch buffer) the first time a named input comes:
 * runs of standard input, --fsverity and --check of nothing set none up.
 */
static int ring_ready(struct cli_worker *w)
{
	void *p = NULL;
	if (w->ring_tried)
		return w->ring != NULL;
	w->ring_tried = 1;
	w->ring = cli_ring_new(2 * RING_FILES);
	if (!w->ring)
		return 0;
	if (posix_memalign(&p, 4096, RING_FILES * SMALL_MAX) != 0) {
		cli_ring_free(w->ring);
		w->ring = NULL;
		return 0;
	}
	flush(w); /* nothing may point into the old buffer */
	free(w->batch);
	w->batch = p;
	return 1;
}

static void ring_group(struct cli_worker *w, struct cli_job *jobs, size_t n)
{
	struct rgroup g;
	double t0 = cli_now();
	size_t nq = 0;
	uint8_t no_fd[RING_FILES] = { 0 };
	int starved = 0;
	for (int k = 0; k < 4; k++)
		for (size_t i = 0; i < n; i++)
			g.res[k][i] = R_NONE;
	for (size_t i = 0; i < n; i++) {
		g.fd[i] = -1;
		if (jobs[i].path)
			cli_ring_openat(w->ring, jobs[i].path, O_RDONLY | O_CLOEXEC | O_NOCTTY,
					(uint64_t)R_OPEN << 8 | i);
	}
	ring_run(w, &g);
	for (size_t i = 0; i < n; i++) {
		struct cli_job *job = &jobs[i];
		int r = g.res[R_OPEN][i];
		if (!job->path)
			continue;
		if (r >= 0) {
			g.fd[i] = r;
			if (w->ring)
				cli_ring_pread(w->ring, r, w->batch + i * SMALL_MAX, (uint32_t)SMALL_MAX,
					       0, (uint64_t)R_READ << 8 | i);
		} else if (r == R_NONE || r == -EINTR || r == -EAGAIN) {
			/* Opened the plain way and streamed: the batch buffer
			 * holds this group's slots. */
			int fd = cli_open_input(job);
			if (fd >= 0)
				hash_fd(job, fd, w->buf, cli_now(), NULL);
		} else if (r == -ENOENT && cli_opts.ignore_missing) {
			job->missing = 1;
		} else if (r == -EMFILE || r == -ENFILE) {
			/* Out of descriptors, with the group's files open at
			 * once: opened again below, one at a time as GNU's
			 * tools do, once they are closed. */
			no_fd[i] = 1;
			starved = 1;
		} else {
			job->err = -r;
		}
	}
	if (w->ring)
		ring_run(w, &g);
	for (size_t i = 0; i < n; i++) {
		struct cli_job *job = &jobs[i];
		int r = g.res[R_READ][i], fd = g.fd[i];
		const uint8_t *slot = w->batch + i * SMALL_MAX;
		if (fd < 0)
			continue;
		if (r >= 0 && (size_t)r < SMALL_MAX && w->ring) {
			cli_ring_pread(w->ring, fd, &g.end[i], 1, (uint64_t)r, (uint64_t)R_END << 8 | i);
			continue;
		}
		g.fd[i] = -1;
		if (r < 0 && r != R_NONE && r != -EINTR && r != -EAGAIN)
			job->err = cli_close_input(job, fd, -r);
		else if (r == R_NONE && !seekable(fd))
			job->err = cli_close_input(job, fd, EIO); /* see seekable() */
		else /* a big input; or nothing read, or no ring left: from what was read */
			ring_rest(w, job, fd, slot, r > 0 ? (size_t)r : 0, NULL, 0, t0);
	}
	if (w->ring)
		ring_run(w, &g);
	for (size_t i = 0; i < n; i++) {
		int fd = g.fd[i], e = g.res[R_END][i];
		if (fd < 0)
			continue;
		if (e == 0 && w->ring) {
			cli_ring_close(w->ring, fd, (uint64_t)R_CLOSE << 8 | i);
			nq++;
			continue;
		}
		g.fd[i] = -1;
		if (e < 0 && e != R_NONE && e != -EINTR && e != -EAGAIN)
			jobs[i].err = cli_close_input(&jobs[i], fd, -e);
		else if (e == R_NONE && !seekable(fd))
			jobs[i].err = cli_close_input(&jobs[i], fd, EIO); /* see seekable() */
		else /* more past the end (or not known): hash on from there */
			ring_rest(w, &jobs[i], fd, w->batch + i * SMALL_MAX, (size_t)g.res[R_READ][i],
				  &g.end[i], e > 0 ? 1 : 0, t0);
	}
	if (w->ring)
		ring_run(w, &g);
	double each = nq ? (cli_now() - t0) / (double)nq : 0;
	for (size_t i = 0; i < n; i++) {
		struct cli_job *job = &jobs[i];
		int r = g.res[R_CLOSE][i];
		if (g.fd[i] < 0)
			continue;
		/* A close whose result was not seen (the ring failed) may have
		 * run, and the number may already be another worker's file:
		 * it is left alone (at worst a descriptor leaks). */
		if (r < 0 && r != -EINTR && r != R_NONE) {
			job->err = -r;
			continue;
		}
		if (w->npend == BATCH_MAX)
			flush(w);
		w->pend[w->npend].job = job;
		w->pend[w->npend].off = i * SMALL_MAX;
		w->pend[w->npend].len = (size_t)g.res[R_READ][i];
		w->pend[w->npend].t0 = 0;
		w->pend[w->npend].t1 = each;
		w->npend++;
	}
	flush(w);
	if (!starved)
		return;
	/* So few descriptors left that a group is too many: the worker goes
	 * on by plain system calls, its ring's own descriptor given back. */
	cli_ring_free(w->ring);
	w->ring = NULL;
	for (size_t i = 0; i < n; i++)
		if (no_fd[i])
			plain_one(w, &jobs[i]);
}

void cli_hash_jobs(struct cli_worker *w, struct cli_job *jobs, size_t n)
{
	size_t i = 0;
	while (i < n) {
		if (!jobs[i].path) {
			i++;
			continue;
		}
		if (strcmp(jobs[i].path, "-") != 0 && !cli_opts.in_order && ring_ready(w)) {
			/* A run of named inputs (no standard input) goes as a group. */
			size_t k = 0;
			while (i + k < n && k < RING_FILES &&
			       !(jobs[i + k].path && strcmp(jobs[i + k].path, "-") == 0))
				k++;
			flush(w);
			ring_group(w, jobs + i, k);
			i += k;
			continue;
		}
		plain_one(w, &jobs[i]);
		i++;
	}
	flush(w);
}
