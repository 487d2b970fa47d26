/* SPDX-License-Identifier: MIT */
/*
 * A minimal io_uring for the small-file path of cli_read.c: queue some
 * operations, submit them with one system call, wait for all of them.
 *
 * Why: on the project machine (Zen 3 under KVM, Linux 6.x with the usual
 * speculation mitigations) opening, reading and closing a cached 4 KiB
 * file costs about 5 us of kernel time, of which about a fifth is the
 * entry and exit of the four system calls; with 10,000 small files that
 * is most of `fastsha -j 1`'s time (docs/benchmarks-history.md, "The command
 * on many files"). Through a ring the same open, read and close run in one
 * io_uring_enter() per group of files.
 *
 * Raw system calls on <linux/io_uring.h>, no liburing: the command needs
 * four opcodes and no new build dependency. Where the kernel has no
 * io_uring, forbids it (kernel.io_uring_disabled, seccomp filters in
 * containers), lacks one of the opcodes (IORING_REGISTER_PROBE), or the
 * build has no <linux/io_uring.h>, cli_ring_new() returns NULL and the
 * caller keeps its plain system calls. FASTSHA_NO_URING=1 in the
 * environment does the same (tests of the plain path, and a way out
 * should a kernel misbehave).
 */
#define _GNU_SOURCE /* syscall(), MAP_POPULATE */
#include "cli.h"

#if defined(__linux__) && defined(__has_include)
#if __has_include(<linux/io_uring.h>)
#include <linux/io_uring.h>
/* IO_URING_OP_SUPPORTED came with the opcode probe and OPENAT, READ, CLOSE (5.6). */
#ifdef IO_URING_OP_SUPPORTED
#define CLI_HAVE_URING 1
#endif
#endif
#endif

#ifdef CLI_HAVE_URING

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

/* MemorySanitizer sees no write the kernel makes through the ring: a
 * sanitizer build marks each read's buffer initialised as it is queued
 * (all of it, so bytes past what the read returns go unchecked there;
 * the plain path, FASTSHA_NO_URING=1, is checked exactly). */
#if defined(__has_feature)
#if __has_feature(memory_sanitizer)
#include <sanitizer/msan_interface.h>
#define CLI_RING_READ_INTO(buf, len) __msan_unpoison(buf, len)
#endif
#endif
#ifndef CLI_RING_READ_INTO
#define CLI_RING_READ_INTO(buf, len) ((void)0)
#endif

struct cli_ring {
	int fd;
	unsigned entries; /* SQ size: how many operations one cli_ring_run() takes */
	unsigned queued;  /* SQEs filled since the last run */
	/* submission ring */
	_Atomic unsigned *sq_head, *sq_tail;
	unsigned sq_mask, *sq_array;
	struct io_uring_sqe *sqes;
	/* completion ring */
	_Atomic unsigned *cq_head, *cq_tail;
	unsigned cq_mask;
	struct io_uring_cqe *cqes;
	void *sq_map, *cq_map;
	size_t sq_len, cq_len, sqe_len;
};

/* Whether the kernel knows every opcode the caller uses. */
static int has_ops(int fd)
{
	const unsigned nops = 64;
	const size_t sz = sizeof(struct io_uring_probe) + nops * sizeof(struct io_uring_probe_op);
	struct io_uring_probe *p = calloc(1, sz);
	static const unsigned need[] = { IORING_OP_OPENAT, IORING_OP_READ, IORING_OP_CLOSE };
	int ok = 0;
	if (!p)
		return 0;
	if (syscall(__NR_io_uring_register, fd, IORING_REGISTER_PROBE, p, nops) == 0) {
		ok = 1;
		for (size_t i = 0; i < sizeof(need) / sizeof(need[0]); i++)
			if (need[i] > p->last_op || !(p->ops[need[i]].flags & IO_URING_OP_SUPPORTED))
				ok = 0;
	}
	free(p);
	return ok;
}

struct cli_ring *cli_ring_new(unsigned entries)
{
	const char *off = getenv("FASTSHA_NO_URING");
	struct io_uring_params p;
	struct cli_ring *r;
	int fd;

	if (off && *off && strcmp(off, "0") != 0)
		return NULL;
	memset(&p, 0, sizeof(p));
	fd = (int)syscall(__NR_io_uring_setup, entries, &p);
	if (fd < 0)
		return NULL;
	r = calloc(1, sizeof(*r));
	if (!r || !has_ops(fd)) {
		free(r);
		close(fd);
		return NULL;
	}
	r->fd = fd;
	r->entries = p.sq_entries;
	r->sq_len = p.sq_off.array + p.sq_entries * sizeof(unsigned);
	r->cq_len = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	r->sqe_len = p.sq_entries * sizeof(struct io_uring_sqe);
	r->sq_map = mmap(NULL, r->sq_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd,
			 IORING_OFF_SQ_RING);
	r->cq_map = mmap(NULL, r->cq_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd,
			 IORING_OFF_CQ_RING);
	r->sqes = mmap(NULL, r->sqe_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd,
		       IORING_OFF_SQES);
	if (r->sq_map == MAP_FAILED || r->cq_map == MAP_FAILED || r->sqes == MAP_FAILED) {
		cli_ring_free(r);
		return NULL;
	}
	char *sq = r->sq_map, *cq = r->cq_map;
	r->sq_head = (_Atomic unsigned *)(void *)(sq + p.sq_off.head);
	r->sq_tail = (_Atomic unsigned *)(void *)(sq + p.sq_off.tail);
	r->sq_mask = *(unsigned *)(void *)(sq + p.sq_off.ring_mask);
	r->sq_array = (unsigned *)(void *)(sq + p.sq_off.array);
	r->cq_head = (_Atomic unsigned *)(void *)(cq + p.cq_off.head);
	r->cq_tail = (_Atomic unsigned *)(void *)(cq + p.cq_off.tail);
	r->cq_mask = *(unsigned *)(void *)(cq + p.cq_off.ring_mask);
	r->cqes = (struct io_uring_cqe *)(void *)(cq + p.cq_off.cqes);
	return r;
}

void cli_ring_free(struct cli_ring *r)
{
	if (!r)
		return;
	if (r->sq_map && r->sq_map != MAP_FAILED)
		munmap(r->sq_map, r->sq_len);
	if (r->cq_map && r->cq_map != MAP_FAILED)
		munmap(r->cq_map, r->cq_len);
	if (r->sqes && r->sqes != MAP_FAILED)
		munmap(r->sqes, r->sqe_len);
	close(r->fd);
	free(r);
}

/* The next free SQE, zeroed, tagged with @user. The caller queues at most
 * the @entries it asked cli_ring_new() for between runs. */
static struct io_uring_sqe *next(struct cli_ring *r, uint64_t user)
{
	unsigned tail = atomic_load_explicit(r->sq_tail, memory_order_relaxed) + r->queued++;
	unsigned i = tail & r->sq_mask;
	struct io_uring_sqe *s = &r->sqes[i];
	memset(s, 0, sizeof(*s));
	r->sq_array[i] = i;
	s->user_data = user;
	return s;
}

void cli_ring_openat(struct cli_ring *r, const char *path, int flags, uint64_t user)
{
	struct io_uring_sqe *s = next(r, user);
	s->opcode = IORING_OP_OPENAT;
	s->fd = AT_FDCWD;
	s->addr = (uint64_t)(uintptr_t)path;
	s->open_flags = (uint32_t)flags;
}

void cli_ring_pread(struct cli_ring *r, int fd, void *buf, uint32_t len, uint64_t off,
		    uint64_t user)
{
	struct io_uring_sqe *s = next(r, user);
	CLI_RING_READ_INTO(buf, len);
	s->opcode = IORING_OP_READ;
	s->fd = fd;
	s->addr = (uint64_t)(uintptr_t)buf;
	s->len = len;
	s->off = off;
}

void cli_ring_close(struct cli_ring *r, int fd, uint64_t user)
{
	struct io_uring_sqe *s = next(r, user);
	s->opcode = IORING_OP_CLOSE;
	s->fd = fd;
}

int cli_ring_run(struct cli_ring *r, void (*done)(void *ctx, uint64_t user, int res), void *ctx)
{
	unsigned want = r->queued, seen = 0;
	if (!want)
		return 0;
	/* The SQEs and the array entries are written; publish the tail. */
	atomic_store_explicit(r->sq_tail, atomic_load_explicit(r->sq_tail, memory_order_relaxed) + want,
			      memory_order_release);
	r->queued = 0;
	unsigned to_submit = want;
	while (seen < want) {
		long n = syscall(__NR_io_uring_enter, r->fd, to_submit, want - seen,
				 IORING_ENTER_GETEVENTS, NULL, 0);
		if (n < 0 && errno != EINTR && errno != EAGAIN && errno != EBUSY)
			return -errno;
		if (n > 0)
			to_submit -= (unsigned)n < to_submit ? (unsigned)n : to_submit;
		unsigned head = atomic_load_explicit(r->cq_head, memory_order_relaxed);
		unsigned tail = atomic_load_explicit(r->cq_tail, memory_order_acquire);
		for (; head != tail; head++, seen++) {
			const struct io_uring_cqe *c = &r->cqes[head & r->cq_mask];
			done(ctx, c->user_data, c->res);
		}
		atomic_store_explicit(r->cq_head, head, memory_order_release);
	}
	return 0;
}

#else /* no io_uring in this build */

#include <errno.h>

struct cli_ring *cli_ring_new(unsigned entries)
{
	(void)entries;
	return NULL;
}

void cli_ring_free(struct cli_ring *r)
{
	(void)r;
}

/* Unreachable without a ring; defined so callers need no #ifdef. */
void cli_ring_openat(struct cli_ring *r, const char *path, int flags, uint64_t user)
{
	(void)r, (void)path, (void)flags, (void)user;
}

void cli_ring_pread(struct cli_ring *r, int fd, void *buf, uint32_t len, uint64_t off,
		    uint64_t user)
{
	(void)r, (void)fd, (void)buf, (void)len, (void)off, (void)user;
}

void cli_ring_close(struct cli_ring *r, int fd, uint64_t user)
{
	(void)r, (void)fd, (void)user;
}

int cli_ring_run(struct cli_ring *r, void (*done)(void *ctx, uint64_t user, int res), void *ctx)
{
	(void)r, (void)done, (void)ctx;
	return -ENOSYS;
}

#endif
