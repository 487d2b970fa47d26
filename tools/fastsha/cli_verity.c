/* SPDX-License-Identifier: MIT */
/*
 * --fsverity: the fs-verity file digest, as `fsverity digest FILE` (Debian's
 * fsverity 1.5, default options) prints it and as the Linux kernel computes
 * it for FS_IOC_MEASURE_VERITY (Documentation/filesystems/fsverity.rst).
 *
 * The format, checked byte for byte against the tool (tests/cli):
 * - The data is cut in 4096-byte blocks, the last one zero-padded; each
 *   block's hash is a leaf. The hashes of a level, concatenated, are cut in
 *   4096-byte blocks (the last zero-padded) whose hashes form the level
 *   above, until a level has one block: the root hash is that block's hash.
 *   A file of at most one block has no tree: its root hash is its one
 *   (padded) block's hash; an empty file's root hash is all zeros.
 * - The digest is the hash of the 256-byte fsverity_descriptor: version 1,
 *   hash algorithm (1 SHA-256, 2 SHA-512), log2 of the block size (12), salt
 *   size 0, 4 reserved bytes, the data size as le64, the root hash
 *   zero-padded to 64 bytes, a 32-byte salt and 144 reserved bytes, all 0.
 *
 * Why it is fast: the leaves are independent 4096-byte messages, so each
 * window of data goes to fastsha_chunks(), which runs them through the
 * lane kernels (3-4 messages at once); the level above (1/128 of the data
 * for SHA-256) goes the same way. Memory is fixed: a 1 MiB data window, its
 * leaf hashes, and one 4 KiB block per tree level (the levels above the
 * first are built as their hashes arrive). When a core is spare (fewer -j
 * workers than CPUs), a big regular file is cut in regions of whole
 * windows read with pread() by a thread each; region k > 0 keeps its
 * level-1 hashes (1/16384 of its size) until the ones before it are in.
 * A file that shrinks under the regions is hashed again from the start
 * in one stream; one that grows is read to its end by the last region.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

#define VBLOCK 4096
/* A whole number of level-1 blocks of leaves for both hashes (128 SHA-256
 * leaves or 64 SHA-512 leaves per block). */
#define WINDOW ((size_t)1 << 20)
#define WBLOCKS (WINDOW / VBLOCK)
/* Levels above the leaves: 2^64 bytes need 9 at 64 hashes a block. */
#define LEVELS 12
/* Smaller files are not worth a thread: 64 MiB hash in ~25 ms here. */
#define SPLIT_MIN ((uint64_t)64 << 20)
#define MAX_REGIONS 8

/* Levels 1 and up, built as their hashes arrive. */
struct tree {
	fastsha_alg alg;
	size_t dsize;
	uint64_t count[LEVELS + 1]; /* hashes pushed into each level */
	size_t fill[LEVELS + 1];    /* bytes in its open block */
	uint8_t blk[LEVELS + 1][VBLOCK];
};

/* One stream of windows: read() from where fd is, or pread() from off. */
struct region {
	int fd, positional;
	uint64_t off, end; /* pread: [off, end), UINT64_MAX = to EOF */
	uint64_t size;     /* read(): fstat's size when one was made, else UINT64_MAX */
	fastsha_alg alg;
	size_t dsize, per;
	uint8_t *win;  /* WINDOW bytes of data */
	uint8_t *lvl;  /* their leaf hashes, padded to whole level-1 blocks */
	struct tree *tree; /* level-1 hashes go here, or ... */
	uint8_t *arr;      /* ... are kept here (regions after the first) */
	size_t narr, cap;
	uint64_t bytes, leaves;
	uint8_t leaf0[FASTSHA_MAX_DIGEST_SIZE]; /* the first leaf hash */
	int err, nomem;
};

/* The worker's buffers: the tree and region 0's window, made once. */
struct verity_bufs {
	struct tree tree;
	uint8_t lvl[WBLOCKS * FASTSHA_MAX_DIGEST_SIZE];
	uint8_t win[];
};

static void tree_push(struct tree *t, int k, const uint8_t *h)
{
	/* A full block is hashed only when the next hash comes, so that the
	 * top level's one block is still there for tree_root(). */
	if (t->fill[k] == VBLOCK) {
		uint8_t up[FASTSHA_MAX_DIGEST_SIZE];
		fastsha_digest(t->alg, t->blk[k], VBLOCK, up);
		t->fill[k] = 0;
		tree_push(t, k + 1, up);
	}
	memcpy(t->blk[k] + t->fill[k], h, t->dsize);
	t->fill[k] += t->dsize;
	t->count[k]++;
}

/* The root from level 1 up; count[1] >= 1. */
static void tree_root(struct tree *t, uint8_t *root)
{
	for (int k = 1;; k++) {
		uint8_t up[FASTSHA_MAX_DIGEST_SIZE];
		if (t->count[k] == 1) {
			memcpy(root, t->blk[k], t->dsize);
			return;
		}
		memset(t->blk[k] + t->fill[k], 0, VBLOCK - t->fill[k]);
		fastsha_digest(t->alg, t->blk[k], VBLOCK, up);
		t->fill[k] = 0;
		tree_push(t, k + 1, up);
	}
}

static void tree_init(struct tree *t, fastsha_alg alg)
{
	t->alg = alg;
	t->dsize = fastsha_alg_digest_size(alg);
	memset(t->count, 0, sizeof t->count);
	memset(t->fill, 0, sizeof t->fill);
}

static ssize_t pread_once(int fd, void *buf, size_t n, uint64_t off)
{
	for (;;) {
		ssize_t r = pread(fd, buf, n, (off_t)off);
		if (r >= 0)
			return r;
		if (errno != EINTR)
			return -errno;
	}
}

/* Hashes one window's fill bytes (a whole number of blocks unless at the
 * end) and hands its level-1 hashes on. */
static void hash_window(struct region *r, size_t fill)
{
	size_t nl = (fill + VBLOCK - 1) / VBLOCK, nb = (nl + r->per - 1) / r->per;
	uint8_t l1[WBLOCKS / 64 * FASTSHA_MAX_DIGEST_SIZE];

	memset(r->win + fill, 0, nl * VBLOCK - fill);
	fastsha_chunks(r->alg, r->win, nl * VBLOCK, VBLOCK, r->lvl);
	if (r->leaves == 0)
		memcpy(r->leaf0, r->lvl, r->dsize);
	/*
	 * A file of one block has no tree: its root is leaf0, and the hash of
	 * its zero-padded level-1 block was thrown away. That hash doubled
	 * the work for files of 4 KiB or less: 10,000 files of 1-8 KiB, -j 1,
	 * FASTSHA_BACKEND=sha256:avx2 under callgrind (AMD EPYC Zen 2), 3.23
	 * billion instructions before, 2.70 after. A first window of one
	 * block is the end of the input (run_region() reads whole windows
	 * until EOF; region ends are whole windows), so nothing follows it
	 * into the tree. Regions after the first keep their hashes (r->arr):
	 * theirs is needed, and a short one there means the file shrank.
	 */
	if (nl == 1 && r->leaves == 0 && r->tree) {
		r->leaves = 1;
		r->bytes += fill;
		return;
	}
	memset(r->lvl + nl * r->dsize, 0, nb * VBLOCK - nl * r->dsize);
	fastsha_chunks(r->alg, r->lvl, nb * VBLOCK, VBLOCK, l1);
	for (size_t i = 0; i < nb; i++) {
		if (r->tree) {
			tree_push(r->tree, 1, l1 + i * r->dsize);
			continue;
		}
		if (r->narr == r->cap) {
			size_t cap = r->cap ? 2 * r->cap : 64;
			uint8_t *p = realloc(r->arr, cap * r->dsize);
			if (!p) {
				r->nomem = 1;
				return;
			}
			r->arr = p;
			r->cap = cap;
		}
		memcpy(r->arr + r->narr++ * r->dsize, l1 + i * r->dsize, r->dsize);
	}
	r->leaves += nl;
	r->bytes += fill;
}

static void *run_region(void *arg)
{
	struct region *r = arg;
	uint64_t pos = r->off;
	for (;;) {
		size_t fill = 0, want = WINDOW;
		int eof = 0;
		if (r->positional && r->end - pos < want)
			want = (size_t)(r->end - pos);
		while (fill < want) {
			ssize_t n = r->positional ? pread_once(r->fd, r->win + fill, want - fill, pos + fill)
						  : cli_read_once(r->fd, r->win + fill, want - fill);
			if (n < 0) {
				r->err = (int)-n;
				return NULL;
			}
			if (n == 0) {
				eof = 1;
				break;
			}
			fill += (size_t)n;
			/* A read that came back short exactly at fstat's size is
			 * the end, as in cli_read.c's batches: the EOF read() is
			 * saved. 10,000 files of 1-8 KiB, -j 1 (which makes the
			 * fstat() below): 20,003 read() calls before, 10,003
			 * after (strace -f -c). A file that grew meanwhile would
			 * have filled more of the read. */
			if (!r->positional && fill < want && r->bytes + fill == r->size) {
				eof = 1;
				break;
			}
		}
		if (fill)
			hash_window(r, fill);
		if (r->nomem)
			return NULL;
		pos += fill;
		if (eof || (r->positional && pos == r->end))
			return NULL;
	}
}

static void region_init(struct region *r, int fd, fastsha_alg alg, uint8_t *win, uint8_t *lvl)
{
	memset(r, 0, sizeof(*r));
	r->fd = fd;
	r->alg = alg;
	r->dsize = fastsha_alg_digest_size(alg);
	r->per = VBLOCK / r->dsize;
	r->win = win;
	r->lvl = lvl;
	r->end = UINT64_MAX;
	r->size = UINT64_MAX;
}

/*
 * The big-file path: regions 1.. in threads, region 0 here into the tree,
 * then the others' level-1 hashes in order. Returns 1 when done (r0 has
 * the totals, or an error), 0 when the caller should hash the file in one
 * stream instead (a thread or memory was missing, or the file shrank).
 */
static int hash_regions(struct region *r0, uint64_t size, unsigned nreg)
{
	struct region rs[MAX_REGIONS];
	pthread_t tid[MAX_REGIONS];
	void *mem[MAX_REGIONS] = { NULL };
	unsigned started = 1;
	int ok = 1;
	/* Whole windows per region; the last one reads on to EOF. */
	uint64_t step = (size / nreg + WINDOW - 1) / WINDOW * WINDOW;

	rs[0] = *r0;
	rs[0].positional = 1;
	rs[0].end = step;
	for (unsigned k = 1; k < nreg; k++) {
		size_t lvlsize = WBLOCKS * FASTSHA_MAX_DIGEST_SIZE;
		if (posix_memalign(&mem[k], 64, WINDOW + lvlsize) != 0)
			break;
		region_init(&rs[k], r0->fd, r0->alg, mem[k], (uint8_t *)mem[k] + WINDOW);
		rs[k].positional = 1;
		rs[k].off = k * step;
		rs[k].end = k + 1 < nreg ? (k + 1) * step : UINT64_MAX;
		if (pthread_create(&tid[k], NULL, run_region, &rs[k]) != 0)
			break;
		started++;
	}
	run_region(&rs[0]);
	for (unsigned k = 1; k < started; k++)
		pthread_join(tid[k], NULL);
	if (started < nreg) {
		ok = 0;
	} else {
		/* Each region but the last must have been read whole; one
		 * whose hash array could not grow is read again in the one
		 * stream, whose memory is fixed. */
		for (unsigned k = 0; k < nreg; k++) {
			if (rs[k].err) {
				r0->err = rs[k].err;
				break;
			}
			if (rs[k].nomem || (k + 1 < nreg && rs[k].bytes != rs[k].end - rs[k].off))
				ok = 0;
		}
	}
	if (ok && !r0->err) {
		for (unsigned k = 1; k < nreg; k++) {
			for (size_t i = 0; i < rs[k].narr; i++)
				tree_push(rs[0].tree, 1, rs[k].arr + i * rs[k].dsize);
			rs[0].bytes += rs[k].bytes;
			rs[0].leaves += rs[k].leaves;
		}
		*r0 = rs[0];
	}
	for (unsigned k = 1; k < nreg; k++) {
		if (k < started)
			free(rs[k].arr);
		free(mem[k]);
	}
	return ok || r0->err;
}

void cli_verity_job(struct cli_job *job, void **bufs, int fd, double t0)
{
	struct verity_bufs *vb = *bufs;
	struct region r;
	struct stat st;
	uint8_t root[FASTSHA_MAX_DIGEST_SIZE] = { 0 }, desc[256] = { 0 };
	int err, regular;

	if (!vb) {
		vb = malloc(sizeof(*vb) + WINDOW);
		if (!vb) {
			job->err = cli_close_input(job, fd, ENOMEM);
			return;
		}
		*bufs = vb;
	}
	tree_init(&vb->tree, job->alg);
	region_init(&r, fd, job->alg, vb->win, vb->lvl);
	r.tree = &vb->tree;
	regular = cli_opts.spare && strcmp(job->path, "-") != 0 && fstat(fd, &st) == 0 &&
		  S_ISREG(st.st_mode);
	if (regular && (uint64_t)st.st_size >= SPLIT_MIN) {
		unsigned nreg = cli_opts.spare + 1 > MAX_REGIONS ? MAX_REGIONS : cli_opts.spare + 1;
		if (!hash_regions(&r, (uint64_t)st.st_size, nreg)) {
			/* pread() left the offset at 0: start over in one stream. */
			tree_init(&vb->tree, job->alg);
			region_init(&r, fd, job->alg, vb->win, vb->lvl);
			r.tree = &vb->tree;
			run_region(&r);
		}
	} else {
		if (regular)
			r.size = (uint64_t)st.st_size;
		run_region(&r);
	}
	err = cli_close_input(job, fd, r.err ? r.err : r.nomem ? ENOMEM : 0);
	job->bytes = r.bytes;
	job->secs = cli_now() - t0;
	if (err) {
		job->err = err;
		return;
	}
	if (r.leaves == 1)
		memcpy(root, r.leaf0, r.dsize);
	else if (r.leaves > 1)
		tree_root(&vb->tree, root);
	desc[0] = 1;                                 /* version */
	desc[1] = job->alg == FASTSHA_SHA512 ? 2 : 1; /* FS_VERITY_HASH_ALG_SHA512 : _SHA256 */
	desc[2] = 12;                                /* log2(4096) */
	for (int i = 0; i < 8; i++)
		desc[8 + i] = (uint8_t)(r.bytes >> (8 * i)); /* data_size, le64 */
	memcpy(desc + 16, root, r.dsize);
	fastsha_digest(job->alg, desc, sizeof desc, job->digest);
}
