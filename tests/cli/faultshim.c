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
 * Built as a small shared library by tests/cli/CMakeLists.txt. Under ASan
 * the runtime must come first in the link order; the tests set
 * ASAN_OPTIONS=verify_asan_link_order=0 so the preload is accepted.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
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
static long (*real_syscall)(long, ...);
static int (*real_madvise)(void *, size_t, int);
static dev_t fault_dev;
static ino_t fault_ino;
static int have_target;
static const char *mode = "";
static unsigned long long after, delivered;
static unsigned calls;

__attribute__((constructor)) static void shim_init(void)
{
	struct stat st;
	const char *f = getenv("FAULT_FILE"), *m = getenv("FAULT_MODE"), *a = getenv("FAULT_AFTER");
	real_read = (ssize_t(*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
	real_madvise = (int (*)(void *, size_t, int))dlsym(RTLD_NEXT, "madvise");
	real_syscall = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
	if (m)
		mode = m;
	if (a)
		after = strtoull(a, NULL, 10);
	if (f && stat(f, &st) == 0) {
		fault_dev = st.st_dev;
		fault_ino = st.st_ino;
		have_target = 1;
	}
}

static int is_target(int fd)
{
	struct stat st;
	return have_target && fstat(fd, &st) == 0 && st.st_dev == fault_dev && st.st_ino == fault_ino;
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
