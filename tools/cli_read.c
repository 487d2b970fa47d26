/* SPDX-License-Identifier: MIT */
/*
 * Hashing one input: a read() loop with a large buffer, or, for big regular
 * files, a guarded mmap; plus the progress bar.
 *
 * Hazards handled here:
 * - A digest is never produced for data not read whole: any read error, a
 *   failed close, or a file that shrinks under mmap fails the input.
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
 * Sizes, measured on the project machine (docs/benchmarks.md, CLI section):
 * MMAP_MIN: below it the mmap/munmap system calls cost more than the copy
 * they save. MMAP_WINDOW: how much is mapped at once (bounded address space
 * for huge files; MAP_POPULATE fills a window's page tables in one call
 * rather than one fault per 64 KiB). HASH_STEP: how much is hashed between
 * progress updates.
 */
#define MMAP_MIN (4u << 20)
#define MMAP_WINDOW ((size_t)64 << 20)
#define HASH_STEP ((size_t)4 << 20)

double cli_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

uint8_t *cli_alloc_buffer(void)
{
	void *p = NULL;
	if (posix_memalign(&p, 4096, cli_opts.bufsize) != 0)
		return NULL;
	return p;
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
static int hash_window(const uint8_t *p, size_t len, uint64_t base, fastsha1_ctx *ctx,
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
		fastsha1_update(ctx, p + k, n);
		if (prog)
			progress_tick(prog, base + k + n);
	}
	bus_guard = NULL;
	return 0;
}

/*
 * Hashes [0, size) of fd through windows of MMAP_WINDOW. Returns bytes
 * hashed (== size), or a short count when mapping failed and the caller
 * should read() on from there, or sets job->errmsg on SIGBUS.
 */
static uint64_t hash_mapped(int fd, uint64_t size, fastsha1_ctx *ctx, struct cli_job *job,
			    struct progress *prog)
{
	uint64_t off = 0;
	while (off < size) {
		size_t len = size - off < MMAP_WINDOW ? (size_t)(size - off) : MMAP_WINDOW;
		uint8_t *p = mmap(NULL, len, PROT_READ, MAP_SHARED | MAP_POPULATE, fd, (off_t)off);
		if (p == MAP_FAILED)
			return off;
		madvise(p, len, MADV_SEQUENTIAL);
		int rc = hash_window(p, len, off, ctx, prog);
		munmap(p, len);
		if (rc) {
			job->errmsg = "file shrank while being read (SIGBUS on the mapping)";
			return off;
		}
		off += len;
	}
	return off;
}

/* ---- one input ---------------------------------------------------------- */

static int read_all(int fd, uint8_t *buf, fastsha1_ctx *ctx, struct cli_job *job,
		    uint64_t done, struct progress *prog)
{
	for (;;) {
		ssize_t n = read(fd, buf, cli_opts.bufsize);
		if (n > 0) {
			fastsha1_update(ctx, buf, (size_t)n);
			done += (uint64_t)n;
			if (prog)
				progress_tick(prog, done);
			continue;
		}
		if (n == 0)
			break;
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN || errno == EWOULDBLOCK) {
			struct pollfd pfd = { .fd = fd, .events = POLLIN };
			poll(&pfd, 1, -1);
			continue;
		}
		return errno;
	}
	job->bytes = done;
	return 0;
}

void cli_hash_job(struct cli_job *job, uint8_t *buf)
{
	const int is_stdin = strcmp(job->path, "-") == 0;
	double t0 = cli_now();
	struct stat st;
	int fd, err = 0;
	uint64_t done = 0, size = 0;
	fastsha1_ctx ctx;
	struct progress prog, *pp = NULL;

	if (is_stdin) {
		fd = STDIN_FILENO;
	} else {
		do
			fd = open(job->path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
		while (fd < 0 && errno == EINTR);
		if (fd < 0) {
			if (errno == ENOENT && cli_opts.ignore_missing)
				job->missing = 1;
			else
				job->err = errno;
			return;
		}
	}
	int regular = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
	if (regular)
		size = (uint64_t)st.st_size;
	if (cli_opts.progress) {
		prog.name = job->path;
		prog.total = size;
		prog.start = prog.last = t0;
		pp = &prog;
	}
	fastsha1_init(&ctx);
	/* Small files skip the extra system call: one read covers them. */
	if (regular && size > cli_opts.bufsize)
		posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	if (regular && !is_stdin && cli_opts.use_mmap && size >= MMAP_MIN) {
		pthread_once(&bus_once, install_sigbus);
		if (bus_ok) {
			done = hash_mapped(fd, size, &ctx, job, pp);
			/* Anything past the mapped part (a failed map, or a
			 * file that grew) is read() from where mapping stopped. */
			if (!job->errmsg && lseek(fd, (off_t)done, SEEK_SET) < 0)
				err = errno;
		}
	}
	if (!job->errmsg && !err)
		err = read_all(fd, buf, &ctx, job, done, pp);
	if (!is_stdin && close(fd) != 0 && !err && errno != EINTR)
		err = errno;
	if (pp)
		progress_end(pp);
	job->secs = cli_now() - t0;
	if (err || job->errmsg) {
		job->err = err ? err : EIO;
		return;
	}
	fastsha1_final(&ctx, job->digest);
}
