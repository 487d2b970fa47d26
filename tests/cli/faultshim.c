/* SPDX-License-Identifier: MIT */
/*
 * LD_PRELOAD fault injection for the CLI tests: wraps read() (and madvise(),
 * which the CLI calls right after mapping a window) for one file, named by
 * FAULT_FILE and matched by device and inode, so stdin, the check file and
 * other inputs are untouched.
 *
 *   FAULT_MODE=eio       read() fails with EIO once FAULT_AFTER bytes were
 *                        delivered (a read error in the middle of the file)
 *   FAULT_MODE=eintr     every other read() fails with EINTR, nothing read
 *   FAULT_MODE=short     each read() returns at most 1..977 bytes
 *   FAULT_MODE=slow      each read() sleeps 2 ms first (progress bar test)
 *   FAULT_MODE=truncate  the first madvise() on a mapping of the file cuts
 *                        the file to half its size (to FAULT_AFTER bytes if
 *                        set), so the mapped pages past the new end raise
 *                        SIGBUS while being hashed, and a partial last page
 *                        reads as zeros past it
 *   FAULT_MODE=grow      before the first read() the file gets FAULT_AFTER
 *                        more bytes, after the reader's fstat()
 *   FAULT_MODE=shrink    before the first read() the file is cut to half
 * The eio, eintr, short and shrink modes apply to pread() (--fsverity's
 * regions) as well, eio by offset: a pread() is cut at byte FAULT_AFTER
 * and one from there on fails. And for pread() alone:
 *   FAULT_MODE=preadeof  pread() finds the end at byte FAULT_AFTER while
 *                        read() still sees the whole file, as if the file
 *                        shrank under the regions and grew back
 *   FAULT_MODE=openerr   open() and fopen() of the file fail with errno
 *                        FAULT_ERRNO (a number; ENOMEM if unset)
 *   FAULT_MODE=fstaterr  fstat() of the open file fails with EIO
 *
 * Files that change under a reader (tests/cli/changing_test.py): once the
 * first read() of the file has returned (or, with FAULT_RING=N, once the
 * N-th io_uring_enter() that submits work has returned: the ring's open,
 * read, end-read and close steps are 1, 2, 3, 4 of a -j 1 run's first
 * group), one change is made, by name, as another program would:
 *   FAULT_MODE=cut         the file is truncated to FAULT_AFTER bytes
 *   FAULT_MODE=append      FAULT_AFTER bytes ('g') are appended
 *   FAULT_MODE=replace     FAULT_PEER is renamed over the file
 *   FAULT_MODE=unlink      the file is deleted
 *   FAULT_MODE=unlinkpeer  FAULT_PEER is deleted (a later input: not yet opened)
 * And with FAULT_RING=N, no file needed:
 *   FAULT_MODE=ringfail    that io_uring_enter() runs, then reports EIO, as
 *                          if the ring broke: what it did is never seen
 *
 * Faults of no particular file, each set by its own variable (so any can
 * be combined with a FAULT_MODE):
 *   FAULT_ALLOC=FN       allocations by FN (malloc, calloc, realloc,
 *                        posix_memalign, aligned_alloc, mmap or any) of at
 *                        least FAULT_ALLOC_SIZE bytes (0 if unset) fail;
 *                        with FAULT_ALLOC_NTH=K only the K-th of them does.
 *                        glibc's own callers (getline()'s buffer) count
 *                        too; a sanitizer's allocator never comes here
 *   FAULT_THREAD=K       the K-th pthread_create() fails with EAGAIN (0:
 *                        every one)
 *   FAULT_FCLOSE=1       fclose(stdout) closes it, then reports EIO, as a
 *                        close() that found a failed write-back (NFS)
 *   FAULT_LOG=PATH       each fault made above is noted there, one line
 *                        ("alloc posix_memalign 1048576"), so a test can
 *                        tell that its fault happened
 * stdio's own read(), write() and close() are calls inside glibc that no
 * preload sees: the tests fail those with real conditions instead (a
 * socket reset, RLIMIT_FSIZE, a closed pipe).
 *
 * Built as a small shared library by tests/cli/CMakeLists.txt. Under ASan
 * the runtime must come first in the link order; the tests set
 * ASAN_OPTIONS=verify_asan_link_order=0 so the preload is accepted.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static ssize_t (*real_read)(int, void *, size_t);
static ssize_t (*real_pread)(int, void *, size_t, off_t);
static long (*real_syscall)(long, ...);
static int (*real_madvise)(void *, size_t, int);
static int (*real_open)(const char *, int, ...);
static FILE *(*real_fopen)(const char *, const char *);
static int (*real_fstat)(int, struct stat *);
static int (*real_posix_memalign)(void **, size_t, size_t);
static void *(*real_aligned_alloc)(size_t, size_t);
static void *(*real_mmap)(void *, size_t, int, int, int, off_t);
static int (*real_pthread_create)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
static int (*real_fclose)(FILE *);
static dev_t fault_dev;
static ino_t fault_ino;
static int have_target;
static const char *mode = "";
static unsigned long long after, delivered;
static unsigned calls, pcalls;
static const char *alloc_fn, *fault_log;
static unsigned long long alloc_min;
static unsigned long alloc_nth, thread_nth;
static int thread_fault, fclose_fault, open_errno = ENOMEM;

/* glibc's allocator by its own names: dlsym() allocates, so looking the
 * real malloc() up through it would come back here. */
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);

__attribute__((constructor)) static void shim_init(void)
{
	struct stat st;
	const char *f = getenv("FAULT_FILE"), *m = getenv("FAULT_MODE"), *a = getenv("FAULT_AFTER");
	const char *e = getenv("FAULT_ERRNO"), *t = getenv("FAULT_THREAD");
	real_read = (ssize_t(*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
	real_pread = (ssize_t(*)(int, void *, size_t, off_t))dlsym(RTLD_NEXT, "pread");
	real_madvise = (int (*)(void *, size_t, int))dlsym(RTLD_NEXT, "madvise");
	real_syscall = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
	real_open = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
	real_fopen = (FILE * (*)(const char *, const char *)) dlsym(RTLD_NEXT, "fopen");
	real_fstat = (int (*)(int, struct stat *))dlsym(RTLD_NEXT, "fstat");
	real_posix_memalign = (int (*)(void **, size_t, size_t))dlsym(RTLD_NEXT, "posix_memalign");
	real_aligned_alloc = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "aligned_alloc");
	real_mmap = (void *(*)(void *, size_t, int, int, int, off_t))dlsym(RTLD_NEXT, "mmap");
	real_pthread_create = (int (*)(pthread_t *, const pthread_attr_t *, void *(*)(void *),
				       void *))dlsym(RTLD_NEXT, "pthread_create");
	real_fclose = (int (*)(FILE *))dlsym(RTLD_NEXT, "fclose");
	if (m)
		mode = m;
	if (a)
		after = strtoull(a, NULL, 10);
	if (e)
		open_errno = atoi(e);
	if (t) {
		thread_fault = 1;
		thread_nth = strtoul(t, NULL, 10);
	}
	fclose_fault = getenv("FAULT_FCLOSE") != NULL;
	fault_log = getenv("FAULT_LOG");
	if (getenv("FAULT_ALLOC_SIZE"))
		alloc_min = strtoull(getenv("FAULT_ALLOC_SIZE"), NULL, 10);
	if (getenv("FAULT_ALLOC_NTH"))
		alloc_nth = strtoul(getenv("FAULT_ALLOC_NTH"), NULL, 10);
	if (f && stat(f, &st) == 0) {
		fault_dev = st.st_dev;
		fault_ino = st.st_ino;
		have_target = 1;
	}
	/* Last: from here on the allocation wrappers may fail calls. */
	alloc_fn = getenv("FAULT_ALLOC");
}

static int is_target(int fd)
{
	struct stat st;
	if (!real_fstat)
		shim_init();
	return have_target && real_fstat(fd, &st) == 0 && st.st_dev == fault_dev &&
	       st.st_ino == fault_ino;
}

static int is_target_path(const char *path)
{
	struct stat st;
	return have_target && path && stat(path, &st) == 0 && st.st_dev == fault_dev &&
	       st.st_ino == fault_ino;
}

/* One line in FAULT_LOG: which fault was made. */
static void note(const char *what, const char *fn, unsigned long long n)
{
	char line[128];
	int len, fd;
	if (!fault_log)
		return;
	len = snprintf(line, sizeof line, "%s %s %llu\n", what, fn, n);
	fd = real_open(fault_log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0 || len <= 0 || write(fd, line, (size_t)len) != len)
		abort();
	close(fd);
}

/* Whether this allocation is one FAULT_ALLOC fails. Counted atomically:
 * workers and region threads allocate at once. */
static int alloc_fails(const char *fn, size_t size)
{
	static unsigned long counted;
	if (!alloc_fn || (strcmp(alloc_fn, fn) != 0 && strcmp(alloc_fn, "any") != 0) ||
	    size < alloc_min)
		return 0;
	if (alloc_nth && __atomic_add_fetch(&counted, 1, __ATOMIC_RELAXED) != alloc_nth)
		return 0;
	note("alloc", fn, size);
	return 1;
}

void *malloc(size_t n)
{
	if (alloc_fails("malloc", n)) {
		errno = ENOMEM;
		return NULL;
	}
	return __libc_malloc(n);
}

void *calloc(size_t k, size_t n)
{
	/* An overflowing product is the real calloc()'s to refuse. */
	if (n && k <= (size_t)-1 / n && alloc_fails("calloc", k * n)) {
		errno = ENOMEM;
		return NULL;
	}
	return __libc_calloc(k, n);
}

void *realloc(void *p, size_t n)
{
	if (alloc_fails("realloc", n)) {
		errno = ENOMEM;
		return NULL;
	}
	return __libc_realloc(p, n);
}

int posix_memalign(void **p, size_t align, size_t n)
{
	if (!real_posix_memalign)
		shim_init();
	if (alloc_fails("posix_memalign", n))
		return ENOMEM;
	return real_posix_memalign(p, align, n);
}

void *aligned_alloc(size_t align, size_t n)
{
	if (!real_aligned_alloc)
		shim_init();
	if (alloc_fails("aligned_alloc", n)) {
		errno = ENOMEM;
		return NULL;
	}
	return real_aligned_alloc(align, n);
}

void *mmap(void *addr, size_t n, int prot, int flags, int fd, off_t off)
{
	if (!real_mmap)
		shim_init();
	if (alloc_fails("mmap", n)) {
		errno = ENOMEM;
		return MAP_FAILED;
	}
	return real_mmap(addr, n, prot, flags, fd, off);
}

int pthread_create(pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *), void *arg)
{
	static unsigned long made;
	if (!real_pthread_create)
		shim_init();
	if (thread_fault &&
	    (!thread_nth || __atomic_add_fetch(&made, 1, __ATOMIC_RELAXED) == thread_nth)) {
		note("thread", "pthread_create", thread_nth);
		return EAGAIN;
	}
	return real_pthread_create(t, attr, fn, arg);
}

int fclose(FILE *f)
{
	int out = f == stdout, r;
	if (!real_fclose)
		shim_init();
	r = real_fclose(f);
	if (out && r == 0 && fclose_fault) {
		note("fclose", "stdout", 0);
		errno = EIO;
		return EOF;
	}
	return r;
}

int open(const char *path, int flags, ...)
{
	mode_t perm = 0;
	if (!real_open)
		shim_init();
	if (flags & (O_CREAT | O_TMPFILE)) {
		va_list ap;
		va_start(ap, flags);
		perm = (mode_t)va_arg(ap, int);
		va_end(ap);
	}
	if (strcmp(mode, "openerr") == 0 && is_target_path(path)) {
		errno = open_errno;
		return -1;
	}
	return real_open(path, flags, perm);
}

FILE *fopen(const char *path, const char *how)
{
	if (!real_fopen)
		shim_init();
	if (strcmp(mode, "openerr") == 0 && is_target_path(path)) {
		errno = open_errno;
		return NULL;
	}
	return real_fopen(path, how);
}

int fstat(int fd, struct stat *st)
{
	if (!real_fstat)
		shim_init();
	if (strcmp(mode, "fstaterr") == 0 && is_target(fd)) {
		errno = EIO;
		return -1;
	}
	return real_fstat(fd, st);
}

static void append_bytes(const char *f, unsigned long long count)
{
	static const char g[4096] = { 'g' };
	int wfd = open(f, O_WRONLY | O_APPEND);
	for (unsigned long long left = count; wfd >= 0 && left;) {
		size_t k = left < sizeof g ? (size_t)left : sizeof g;
		if (write(wfd, g, k) != (ssize_t)k)
			abort();
		left -= k;
	}
	if (wfd < 0 || close(wfd) != 0)
		abort();
}

/* The one change of the cut/append/replace/unlink/unlinkpeer modes. The
 * failures abort: a test whose change did not happen proves nothing. */
static void change_once(void)
{
	static int done;
	const char *f = getenv("FAULT_FILE"), *peer = getenv("FAULT_PEER");
	if (done || !f)
		return;
	done = 1;
	if (strcmp(mode, "cut") == 0) {
		if (truncate(f, (off_t)after) != 0)
			abort();
	} else if (strcmp(mode, "append") == 0) {
		append_bytes(f, after);
	} else if (strcmp(mode, "replace") == 0) {
		if (!peer || rename(peer, f) != 0)
			abort();
	} else if (strcmp(mode, "unlink") == 0) {
		if (unlink(f) != 0)
			abort();
	} else if (strcmp(mode, "unlinkpeer") == 0) {
		if (!peer || unlink(peer) != 0)
			abort();
	} else {
		done = 0;
	}
}

/* io_uring_enter() goes through syscall() (tools/fastsha/cli_uring.c). */
long syscall(long nr, ...)
{
	static unsigned steps;
	va_list ap;
	long a[6], r;
	const char *ring = getenv("FAULT_RING");
	if (!real_syscall)
		shim_init();
	va_start(ap, nr);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	r = real_syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	if (nr == __NR_io_uring_enter && a[1] > 0 && ring && ++steps == strtoul(ring, NULL, 10)) {
		int e = errno;
		if (strcmp(mode, "ringfail") == 0) {
			errno = EIO;
			return -1;
		}
		change_once();
		errno = e;
	}
	return r;
}

/* pread() of the file: --fsverity's regions, several threads at once. */
static ssize_t pread_fault(int fd, void *buf, size_t n, off_t off)
{
	unsigned k;
	if (!real_pread)
		shim_init();
	if (!is_target(fd))
		return real_pread(fd, buf, n, off);
	k = __atomic_add_fetch(&pcalls, 1, __ATOMIC_RELAXED);
	if (k == 1 && strcmp(mode, "shrink") == 0) {
		const char *f = getenv("FAULT_FILE");
		struct stat st;
		if (!f || stat(f, &st) != 0 || truncate(f, st.st_size / 2) != 0)
			abort();
	}
	if (strcmp(mode, "eintr") == 0 && k % 2 == 1) {
		errno = EINTR;
		return -1;
	}
	if (strcmp(mode, "short") == 0 && n > 1 + (k * 7919u) % 977u)
		n = 1 + (k * 7919u) % 977u;
	if (strcmp(mode, "eio") == 0 || strcmp(mode, "preadeof") == 0) {
		if ((unsigned long long)off >= after) {
			if (mode[0] == 'p')
				return 0;
			errno = EIO;
			return -1;
		}
		if (n > after - (unsigned long long)off)
			n = (size_t)(after - (unsigned long long)off);
	}
	return real_pread(fd, buf, n, off);
}

ssize_t pread(int fd, void *buf, size_t n, off_t off)
{
	return pread_fault(fd, buf, n, off);
}

ssize_t pread64(int fd, void *buf, size_t n, off64_t off)
{
	return pread_fault(fd, buf, n, (off_t)off);
}

ssize_t read(int fd, void *buf, size_t n)
{
	ssize_t r;
	if (!real_read)
		shim_init();
	if (!is_target(fd))
		return real_read(fd, buf, n);
	calls++;
	if (calls == 1 && (strcmp(mode, "grow") == 0 || strcmp(mode, "shrink") == 0)) {
		const char *f = getenv("FAULT_FILE");
		struct stat st;
		if (!f || stat(f, &st) != 0)
			abort();
		if (mode[0] == 's') {
			if (truncate(f, st.st_size / 2) != 0)
				abort();
		} else {
			append_bytes(f, after);
		}
	}
	if (strcmp(mode, "eintr") == 0 && calls % 2 == 1) {
		errno = EINTR;
		return -1;
	}
	if (strcmp(mode, "short") == 0) {
		size_t cap = 1 + (calls * 7919u) % 977u;
		if (n > cap)
			n = cap;
	}
	if (strcmp(mode, "slow") == 0) {
		struct timespec ts = { 0, 2000000 };
		nanosleep(&ts, NULL);
	}
	if (strcmp(mode, "eio") == 0) {
		if (delivered >= after) {
			errno = EIO;
			return -1;
		}
		if (n > after - delivered)
			n = (size_t)(after - delivered);
	}
	r = real_read(fd, buf, n);
	if (r > 0)
		delivered += (unsigned long long)r;
	if (calls == 1 && !getenv("FAULT_RING")) {
		int e = errno;
		change_once();
		errno = e;
	}
	return r;
}

int madvise(void *addr, size_t len, int advice)
{
	static int done;
	if (!real_madvise)
		shim_init();
	if (!done && advice == MADV_SEQUENTIAL && strcmp(mode, "truncate") == 0 && have_target) {
		const char *f = getenv("FAULT_FILE");
		struct stat st;
		if (f && stat(f, &st) == 0) {
			done = 1;
			if (truncate(f, getenv("FAULT_AFTER") ? (off_t)after : st.st_size / 2) != 0)
				abort();
		}
	}
	return real_madvise(addr, len, advice);
}
