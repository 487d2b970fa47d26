/* SPDX-License-Identifier: MIT */
#ifndef FSHA1_IMPL_H
#define FSHA1_IMPL_H

/*
 * The backend contract. A backend compresses whole blocks and nothing else:
 *
 *   fsha1_blocks_<isa>(uint32_t state[5], const uint8_t *data, size_t nblocks)
 *
 * - state is H0..H4 as host-order words, the same layout for every backend,
 *   so a computation may move between backends at any block boundary;
 * - nblocks >= 1 full 64-byte blocks, data at any alignment;
 * - it never reads a byte outside [data, data + 64*nblocks);
 * - no padding, no buffering, no length counting (all in sha1.c).
 *
 * A multi-buffer backend also provides a lanes kernel taking one state and
 * one data pointer per lane, each lane advancing by nblocks.
 */

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

typedef void (*fsha1_blocks_fn)(uint32_t state[5], const uint8_t *data, size_t nblocks);
typedef void (*fsha1_lanes_fn)(uint32_t (*state)[5], const uint8_t *const *data, size_t nblocks);

/* One row of the backend table (sha1_dispatch.c). */
struct fsha1_backend {
	const char *name;
	uint32_t cpu;           /* FSHA_CPU_* bits it needs, all of them */
	fsha1_blocks_fn blocks; /* single-stream compression */
	unsigned lanes;         /* 1, or how many messages lanes_blocks takes */
	fsha1_lanes_fn lanes_blocks;
	unsigned automatic;     /* 0: only when asked for by name (reference) */
};

#define FSHA1_BACKEND_PROTO(isa) \
	void fsha1_blocks_##isa(uint32_t state[5], const uint8_t *data, size_t nblocks)

FSHA1_BACKEND_PROTO(reference);
FSHA1_BACKEND_PROTO(portable);
FSHA1_BACKEND_PROTO(ssse3);
FSHA1_BACKEND_PROTO(avx);
FSHA1_BACKEND_PROTO(avx2);
FSHA1_BACKEND_PROTO(shani);
FSHA1_BACKEND_PROTO(armv8);

/* The backend in use; NULL until the first hash resolves it. */
extern _Atomic(const struct fsha1_backend *) fsha1_active_slot;

const struct fsha1_backend *fsha1_resolve(void);

static inline const struct fsha1_backend *fsha1_active(void)
{
	const struct fsha1_backend *b =
		atomic_load_explicit(&fsha1_active_slot, memory_order_acquire);
	return b ? b : fsha1_resolve();
}

/* Byte-order helpers shared by the C backends; memcpy keeps them alignment-safe. */
#include <string.h>

static inline uint32_t fsha1_load_be32(const uint8_t *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return v;
#else
	return __builtin_bswap32(v);
#endif
}

static inline void fsha1_store_be32(uint8_t *p, uint32_t v)
{
#if !(defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__)
	v = __builtin_bswap32(v);
#endif
	memcpy(p, &v, 4);
}

static inline uint32_t fsha1_rol32(uint32_t x, unsigned n)
{
	/* Recognised by GCC and Clang as a single rotate instruction. */
	return (x << n) | (x >> ((32 - n) & 31));
}

#endif
