/* SPDX-License-Identifier: MIT */
#ifndef FSHA_KECCAK_IMPL_H
#define FSHA_KECCAK_IMPL_H

/*
 * The Keccak backend contract (SHA3-224..512, SHAKE128/256, Keccak-256,
 * TurboSHAKE128/256 and KangarooTwelve all run on these rows). A backend
 * is the permutation Keccak-p[1600, n] and nothing else of the sponge:
 *
 *   static void permute(uint64_t st[25], unsigned rounds);
 *   static void absorb(uint64_t st[25], const uint8_t *data, size_t nblocks,
 *                      size_t rate, unsigned rounds);
 *
 * - st is the state as 25 lanes, lane (x, y) at st[x + 5 * y], each in
 *   host order holding the state's bytes 8 * (x + 5 * y) .. + 7 little-
 *   endian (FIPS 202 3.1.2 with w = 64), the same layout for every
 *   backend, so a computation may move between backends at any block;
 * - rounds is 24 (Keccak-f[1600]: SHA-3, SHAKE, Keccak-256) or 12
 *   (TurboSHAKE, KangarooTwelve): the last @rounds rounds of the 24, round
 *   indices 24 - rounds .. 23 (Keccak-p[1600, n] of FIPS 202 3.3);
 * - absorb XORs each of @nblocks >= 1 blocks of @rate bytes (a multiple of
 *   8, at most 168) at @data into the state's first @rate bytes and
 *   permutes after each; data at any alignment; it never reads a byte
 *   outside [data, data + rate * nblocks);
 * - no padding, no buffering, no squeezing (src/core/sponge.h does that).
 *
 * Lane rows (multi-buffer) add the same for L states side by side:
 *
 *   static void permute_lanes(uint64_t (*st)[25], unsigned rounds);
 *   static void absorb_lanes(uint64_t (*st)[25], const uint8_t *const *data,
 *                            size_t nblocks, size_t rate, unsigned rounds);
 *
 * L states back to back, data[l] lane l's blocks (pointers may be equal),
 * every lane advancing the same nblocks. A lane row's permute/absorb are
 * single-state entries (pinning it serves every call).
 *
 * Each backend file keeps its functions static and ends with its row;
 * src/keccak/keccak_backends.c orders the rows; cmake/backends.cmake
 * builds each file with its ISA flags.
 */

#include <stddef.h>
#include <stdint.h>

#include "../core/backend.h"
#include "../core/bytes.h"
#include "../cpu/cpu.h"

typedef void (*fsha_keccak_permute_fn)(uint64_t st[25], unsigned rounds);
typedef void (*fsha_keccak_absorb_fn)(uint64_t st[25], const uint8_t *data, size_t nblocks,
				      size_t rate, unsigned rounds);
typedef void (*fsha_keccak_permute_lanes_fn)(uint64_t (*st)[25], unsigned rounds);
typedef void (*fsha_keccak_absorb_lanes_fn)(uint64_t (*st)[25], const uint8_t *const *data,
					    size_t nblocks, size_t rate, unsigned rounds);

struct fsha_keccak_backend {
	struct fsha_backend_info info; /* first: the resolver sees only this */
	fsha_keccak_permute_fn permute;
	fsha_keccak_absorb_fn absorb;
	fsha_keccak_permute_lanes_fn permute_lanes; /* NULL for single-state rows */
	fsha_keccak_absorb_lanes_fn absorb_lanes;   /* NULL for single-state rows */
};

/* The 24 round constants of Keccak-f[1600] (FIPS 202 3.2.5), defined once
 * (keccak_consts.c); round i uses fsha_keccak_rc[i]. */
extern const uint64_t fsha_keccak_rc[24];

/* The most bytes a rate can have (SHAKE128, TurboSHAKE128, K12). */
#define FSHA_KECCAK_MAX_RATE 168

extern const struct fsha_family fsha_keccak_family;

static inline const struct fsha_keccak_backend *fsha_keccak_active(void)
{
	return (const struct fsha_keccak_backend *)fsha_active(&fsha_keccak_family);
}

/* Load lane i of a block (8 little-endian bytes) and store a lane. */
static inline uint64_t fsha_load_le64(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return FSHA_BIG_ENDIAN ? __builtin_bswap64(v) : v;
}

static inline void fsha_store_le64(uint8_t *p, uint64_t v)
{
	if (FSHA_BIG_ENDIAN)
		v = __builtin_bswap64(v);
	memcpy(p, &v, 8);
}

/* XOR @rate bytes of block @p into the state's lanes (a helper for
 * backends that keep the state as the contract's array). */
static inline void fsha_keccak_xor_block(uint64_t st[25], const uint8_t *p, size_t rate)
{
	for (size_t i = 0; i < rate / 8; i++)
		st[i] ^= fsha_load_le64(p + 8 * i);
}

/*
 * Defines a lane row's single-state permute() and absorb() from the file's
 * own permute_lanes() and absorb_lanes(): all @L lanes on the one state
 * (the others on scratch copies of it), so that every single-message test
 * of the row (NIST and RFC 9861 answers, squeezes, splits) runs its kernel.
 * @L times the work of one state; such a row is never chosen for single
 * messages. The Keccak form of core/lanes_avx512.h's FSHA_LANES_BLOCKS.
 */
#define FSHA_KECCAK_LANES_SINGLE(L)                                                            \
	static void permute(uint64_t st[25], unsigned rounds)                                 \
	{                                                                                     \
		uint64_t s_[L][25];                                                           \
		for (int l_ = 0; l_ < (L); l_++)                                              \
			memcpy(s_[l_], st, sizeof(s_[l_]));                                   \
		permute_lanes(s_, rounds);                                                    \
		memcpy(st, s_[0], sizeof(s_[0]));                                             \
	}                                                                                     \
	static void absorb(uint64_t st[25], const uint8_t *data, size_t nblocks, size_t rate, \
			   unsigned rounds)                                                   \
	{                                                                                     \
		uint64_t s_[L][25];                                                           \
		const uint8_t *p_[L];                                                         \
		for (int l_ = 0; l_ < (L); l_++) {                                            \
			memcpy(s_[l_], st, sizeof(s_[l_]));                                   \
			p_[l_] = data;                                                        \
		}                                                                             \
		absorb_lanes(s_, p_, nblocks, rate, rounds);                                  \
		memcpy(st, s_[0], sizeof(s_[0]));                                             \
	}

#endif
