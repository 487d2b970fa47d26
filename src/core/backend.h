/* SPDX-License-Identifier: MIT */
#ifndef FSHA_CORE_BACKEND_H
#define FSHA_CORE_BACKEND_H

/*
 * What every backend row has in common, whatever its family. A family's
 * typed row (struct fsha1_backend, fsha256_backend, fsha512_backend) starts
 * with this struct, so the one resolver (dispatch.c) can walk every table
 * through pointers to it and the family converts back to its own row type
 * (a pointer to a struct's first member and to the struct are
 * interconvertible, C11 6.7.2.1p15). No function is ever called through a
 * pointer of the wrong type.
 */

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

/*
 * HMAC's end on one backend (src/mac/): @n >= 1 whole blocks at @blocks
 * (the inner message's last, padded) on chaining words @w, then the outer
 * hash, whose message is one block (the key's, already in @outer) and the
 * inner digest, from chaining words @outer; @w becomes the outer hash's
 * chaining words. For a family whose digest is its whole state.
 */
typedef void (*fsha_mac_end_fn)(void *w, const uint8_t *blocks, size_t n, const void *outer);

struct fsha_backend_info {
	const char *name;   /* as FASTSHA_BACKEND and the backend queries spell it */
	uint32_t cpu;       /* FSHA_CPU_* bits it needs, all of them */
	unsigned lanes;     /* 1: single-stream; more: a multi-buffer lane kernel */
	unsigned automatic; /* FSHA_AUTO_* bits; 0: only when asked for by name (reference) */
	unsigned min_lanes; /* lane rows: below this many live messages the scheduler
			     * finishes them single-stream (measured; 0 means 2) */
	unsigned min_batch; /* lane rows: a batch of fewer messages starts on the next
			     * narrower row it may use, which then takes them in turns
			     * (measured; 0: none) */
};

/*
 * A table's exception to its order on some CPUs: on a CPU with any of the
 * FSHA_CPU_TUNE_* traits @on, or without one of the traits @unless (0:
 * none asked), the automatic choice passes @row over for the next
 * automatic row of its kind the CPU runs (measured there; @unless for a
 * row measured to win only where those traits are). The row stays
 * supported: chosen by name, and a lane row is still a narrower step of
 * the batch row chosen instead (core/lanes.c). The order is the table's
 * concern, so the table file lists these, not the row's file.
 */
struct fsha_yield {
	const struct fsha_backend_info *row;
	uint32_t on;
	uint32_t unless;
};

/*
 * The most blocks the engine hands a single-stream blocks function in one
 * call (the families' compression thunks in src/sha1, sha256, sha512): a longer run
 * goes in pieces of this many, one call each (64 MiB of SHA-1/SHA-256,
 * 128 MiB of SHA-512, so the split costs nothing measurable). No backend's
 * block counting therefore meets a count past 32 bits, whatever it does
 * with it; the paths past 4 GiB are the engine's alone, the same under
 * every backend. test_large checks each row with one update that crosses
 * a piece, and the 4 and 5 GiB messages under the row the library picks.
 */
#define FSHA_CALL_BLOCKS ((size_t)1 << 20)

/*
 * A family's compression thunk @fn over its typed row @T (the row in use
 * from @active()), @bsize-byte blocks, at most FSHA_CALL_BLOCKS a call.
 * The usual call is one compare and a tail call; the pieces are in a cold
 * function of their own, so the thunk keeps no frame (with the loop
 * inline GCC saved six registers on every call: 16 instructions more on a
 * 64-byte one-shot of about 2,000, by callgrind).
 */
#define FSHA_CAPPED_COMPRESS(fn, T, active, bsize)                                          \
	static __attribute__((noinline, cold)) void fn##_pieces(const T *b, void *state,      \
								const uint8_t *data,           \
								size_t nblocks)                \
	{                                                                                     \
		for (; nblocks > FSHA_CALL_BLOCKS;                                           \
		     nblocks -= FSHA_CALL_BLOCKS, data += (bsize) * FSHA_CALL_BLOCKS)         \
			b->blocks(state, data, FSHA_CALL_BLOCKS);                             \
		b->blocks(state, data, nblocks);                                              \
	}                                                                                     \
	static void fn(void *state, const uint8_t *data, size_t nblocks)                      \
	{                                                                                     \
		const T *b = active();                                                        \
		if (nblocks > FSHA_CALL_BLOCKS)                                               \
			fn##_pieces(b, state, data, nblocks);                                 \
		else                                                                          \
			b->blocks(state, data, nblocks);                                      \
	}

/*
 * When a row may be chosen without being asked for by name: for one
 * message at a time (SINGLE), for batches of messages (MANY, the lane
 * rows), or both. A lane row still has a single-stream blocks function, so
 * that pinning it (FASTSHA_BACKEND, fastsha_use_backend) serves every call.
 */
enum { FSHA_AUTO_SINGLE = 1, FSHA_AUTO_MANY = 2 };

/*
 * The lane rows of a family's automatic batch row (core/lanes.c,
 * fsha_lane_rows()), worked out on the first batch on that row and kept:
 * a pure function of the table and the CPU, so racing first callers store
 * the same values (each element atomic, @ready published last). Only a
 * batch on fsha_auto_many()'s row stores them, and rows[0] is that row.
 */
struct fsha_lane_plan {
	_Atomic int ready;
	_Atomic size_t n;
	_Atomic(const struct fsha_backend_info *) rows[16];
};

/*
 * A PBKDF2 chain kernel (core/family.h, struct fsha_chain): @iters more
 * iterations (0 leaves the chains as they are) of a kernel's fixed number
 * of chains c[0..k), each chain's U and running XOR kept in registers
 * between iterations, c->u's digest bytes and c->acc written back at the
 * end. Only for a variant whose digest is its whole chaining state
 * (SHA-1, SHA-256, SHA-512; not SHA-224, SHA-384 or SHA-512/t), so that
 * U's block is the state's words and fixed padding. The work depends on
 * @iters alone.
 */
struct fsha_chain;
typedef void (*fsha_chain_fn)(struct fsha_chain *c, uint64_t iters);

/*
 * A lane row's chain kernel: as fsha_chain_fn, for any @k of 1 up to the
 * row's lanes; the lanes past @k rerun chain 0 and are never written back
 * (so c[k..) is neither read nor written). Same variant restriction.
 */
typedef void (*fsha_lane_chain_fn)(struct fsha_chain *c, size_t k, uint64_t iters);

/*
 * A row's PBKDF2 chain kernels, an entry of a family's chain_rows (core/
 * lanes.c, chains_on()). For a single-message row, x[k - 1] runs k chains
 * side by side (NULL: none of that width); for a lane row, @lanes runs up
 * to row->lanes of them, in place of the row's lanes wherever the
 * scheduler gives it chains, and @min_chains is the fewest chains of a
 * group narrower than the row that go to it rather than to the
 * single-message row's kernels (measured: one call costs the same for any
 * k). @cpu: FSHA_CPU_* bits the kernels need beyond the row's (0: none);
 * of a row's entries the first whose bits this CPU has is taken. Kernels
 * of the row itself, so a pinned row keeps to its own code.
 */
struct fsha_chain_row {
	const struct fsha_backend_info *row;
	uint32_t cpu;
	fsha_chain_fn x[3];
	fsha_lane_chain_fn lanes;
	unsigned min_chains;
};

/*
 * A family's table, best first, and the slot holding the row in use. The
 * family (src/<family>/<family>_backends.c) owns both; the resolver only
 * reads the rows and fills the slot.
 */
struct fsha_family {
	const char *name; /* "sha1", "sha256", "sha512": the FASTSHA_BACKEND prefix */
	const struct fsha_backend_info *const *rows;
	size_t nrows;
	_Atomic(const struct fsha_backend_info *) *slot;      /* one message; NULL until resolved */
	_Atomic(const struct fsha_backend_info *) *many_slot; /* batches; NULL until resolved */
	/* Run lane row @row's kernel: @states holds row->lanes chaining states
	 * back to back, @data one pointer per lane, each advancing @nblocks. */
	void (*run_lanes)(const struct fsha_backend_info *row, void *states,
			  const uint8_t *const *data, size_t nblocks);
	/* Optional (NULL: none), for the rows @has_shared says: as run_lanes, then
	 * one more block, the same for every lane, given by @sched, which
	 * shared_sched() computed from it (its message schedule with the
	 * round constants added, FSHA_SHARED_WORDS 64-bit words at most).
	 * The padding block of a batch of equal whole-block lengths is such a
	 * block: its schedule is worked out once instead of once per lane. */
	void (*run_lanes_shared)(const struct fsha_backend_info *row, void *states,
				 const uint8_t *const *data, size_t nblocks, const void *sched);
	void (*shared_sched)(const uint8_t *block, void *sched);
	int (*has_shared)(const struct fsha_backend_info *row);
	struct fsha_lane_plan *plan; /* the scheduler's, see above */
	const struct fsha_yield *yields; /* rows passed over on some CPUs; NULL: none */
	size_t nyields;
	/* Optional (NULL: none): the rows' PBKDF2 chain kernels, ended by an
	 * entry whose row is NULL. */
	const struct fsha_chain_row *chain_rows;
};

#define FSHA_SHARED_WORDS 80

/* The row for batches of messages: the one named by FASTSHA_BACKEND or
 * chosen by fsha_use(), else the first FSHA_AUTO_MANY row this CPU runs,
 * else the single-message row. Thread-safe. */
const struct fsha_backend_info *fsha_resolve_many(const struct fsha_family *fam);

static inline const struct fsha_backend_info *fsha_active_many(const struct fsha_family *fam)
{
	const struct fsha_backend_info *b =
		atomic_load_explicit(fam->many_slot, memory_order_acquire);
	return b ? b : fsha_resolve_many(fam);
}

/* The first FSHA_AUTO_MANY row this CPU runs (one that does not yield
 * here, if there is one), FASTSHA_BACKEND aside, or NULL: the batch row
 * of automatic choice, the one row whose lane rows the scheduler keeps
 * (core/lanes.c). */
const struct fsha_backend_info *fsha_auto_many(const struct fsha_family *fam);

/* The first call picks the row; later calls load the slot. Thread-safe. */
const struct fsha_backend_info *fsha_resolve(const struct fsha_family *fam);

static inline const struct fsha_backend_info *fsha_active(const struct fsha_family *fam)
{
	const struct fsha_backend_info *b = atomic_load_explicit(fam->slot, memory_order_acquire);
	return b ? b : fsha_resolve(fam);
}

/* Whether this CPU runs row @b. */
int fsha_supported(const struct fsha_backend_info *b);

/* Whether the automatic choice passes row @b of @fam over on this CPU
 * (struct fsha_yield); it may still run @b. */
int fsha_yields(const struct fsha_family *fam, const struct fsha_backend_info *b);

/* The row called @name, or NULL. */
const struct fsha_backend_info *fsha_find(const struct fsha_family *fam, const char *name);

/* Results as enum fastsha_select_result: use @name for single messages and
 * batches alike (NULL: automatic again, for both). */
int fsha_use(const struct fsha_family *fam, const char *name);

#endif
