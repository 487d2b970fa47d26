/* SPDX-License-Identifier: MIT */
#ifndef FSHA1_IMPL_H
#define FSHA1_IMPL_H

/*
 * The SHA-1 backend contract. A backend compresses whole blocks and nothing
 * else:
 *
 *   static void blocks(uint32_t state[5], const uint8_t *data, size_t nblocks)
 *
 * - state is H0..H4 as host-order words, the same layout for every backend,
 *   so a computation may move between backends at any block boundary;
 * - nblocks >= 1 full 64-byte blocks, data at any alignment;
 * - it never reads a byte outside [data, data + 64*nblocks);
 * - no padding, no buffering, no length counting (src/core/md.h does that).
 *
 * Each backend file keeps its functions static and ends with its row,
 *
 *   const struct fsha1_backend fsha1_backend_<name> = {
 *       { "<name>", <FSHA_CPU_* bits>, 1, 1 }, blocks, NULL, <dc filter or NULL>, NULL };
 *
 * (the last: HMAC-SHA1's fused end, core/backend.h fsha_mac_end_fn, of a
 * row that has one).
 *
 * which src/sha1/sha1_backends.c puts in order. A multi-buffer backend also
 * provides a lanes kernel taking one state and one data pointer per lane,
 * each lane advancing by nblocks. SHA1DC (sha1dc_impl.h) runs on the same
 * rows: a row may name a SIMD filter its CPU bits guarantee; NULL means the
 * scalar path of sha1dc_driver.c.
 */

#include <stddef.h>
#include <stdint.h>

#include "../core/backend.h"
#include "../core/bytes.h"
#include "../cpu/cpu.h"

typedef void (*fsha1_blocks_fn)(uint32_t state[5], const uint8_t *data, size_t nblocks);
/* The shani row's PBKDF2 chain kernels, one chain and two (fsha_chain_fn,
 * x86/sha1_shani_chain.c). */
void fsha1_shani_chain_x1(struct fsha_chain *c, uint64_t iters);
void fsha1_shani_chain_x2(struct fsha_chain *c, uint64_t iters);
/* The same on shani_avx512's rounds (x86/sha1_shani_avx512_chain.c). */
void fsha1_shani_avx512_chain_x1(struct fsha_chain *c, uint64_t iters);
void fsha1_shani_avx512_chain_x2(struct fsha_chain *c, uint64_t iters);
/* avx512_x16's PBKDF2 lane chain kernel, 1..16 chains (fsha_lane_chain_fn,
 * x86/sha1_avx512_x16_chain.c). */
void fsha1_avx512_x16_chain(struct fsha_chain *c, size_t k, uint64_t iters);
typedef void (*fsha1_lanes_fn)(uint32_t (*state)[5], const uint8_t *const *data, size_t nblocks);
/* SHA1DC's filter over @n blocks, block i at blocks[i] (the contract is in
 * sha1dc_impl.h). */
typedef void (*fsha1dc_filter_fn)(const uint8_t *const *blocks, size_t n, uint32_t *masks);

/*
 * What a compression keeps of each block for SHA1DC, so that the check need
 * not compress it again (rows with a dc rec function): the states a deferred
 * recheck starts from (sha1dc_jobs.c fsha1dc_pend_block()). The layout is
 * that of the SHA-NI registers: a 4-word vector stored from its lowest word
 * holds (D, C, B, A), or W[t+3], W[t+2], W[t+1], W[t]. (An earlier record
 * kept all of W[32..67] for a filter on records: 7 more 16-byte stores a
 * block, and the filter now reads the narrowed bytes below.)
 */
struct fsha1dc_rec {
	uint32_t in[8];  /* the chaining value in: the ABCD vector, then E's (E in word 3) */
	uint32_t w56[4]; /* W[56..59], reversed */
	uint32_t w64[4]; /* W[64..67], reversed */
	uint32_t s56[8]; /* ABCD after step 56, then ABCD after step 52 (e_56 = rol30 of its A) */
	uint32_t s64[8]; /* the same after steps 64 and 60 */
};
/*
 * Beside the records, the compression keeps bytes 0 and 3 of W[32..67], which
 * are all the filter reads: nar[g * FSHA1DC_NAR_STRIDE + i] holds block i's
 * bytes 0 of W[35+4g], W[34+4g], W[33+4g], W[32+4g] in its low four bytes and
 * their bytes 3 in the high four, g = 0..8, i < FSHA1DC_NAR_STRIDE. Moving
 * them into the filter's byte planes costs a fraction of transposing whole
 * words. 128: a batch's window (sha1dc_many_rec.c) then holds 8 blocks of 16
 * lanes a kernel call, where 4-block calls cost the 16-lane kernel 11%.
 */
#define FSHA1DC_NAR_STRIDE 128
/* The most blocks one filter call on narrowed bytes takes (its result is a
 * 64-bit mask); a caller with more calls it again at nar + 64. */
#define FSHA1DC_FILTER_MAX 64
/* @n >= 1 blocks (at most FSHA1DC_NAR_STRIDE) compressed into @state as
 * blocks() does, rec[i] and nar[.. + i] filled for block i. */
typedef void (*fsha1dc_rec_fn)(uint32_t state[5], const uint8_t *data, size_t n,
			       struct fsha1dc_rec *rec, uint64_t *nar);
/* The filter on the narrowed bytes of @n <= FSHA1DC_FILTER_MAX blocks:
 * masks[i] as the filter of block i would give. Returns the blocks whose
 * mask is not 0, bit i for block i, worked out in vectors: the callers look
 * at those masks only (scalar loads of every mask, just stored by vector
 * stores, stalled on store forwarding once a block, perf said). A filter
 * reads entries below @n of each group only: the x86 filters' vector runs
 * load 2, 4 or 8 entries at a time, and the run's last loads take only the
 * entries below @n, the lanes past it zero (those lanes are dropped). */
typedef uint64_t (*fsha1dc_filter_rec_fn)(const uint64_t *nar, size_t n, uint32_t *masks);
/* A lane kernel's loop (fsha1_lanes_fn) that also keeps the records: lane
 * l's record of its block j goes to rec[j * lanes + l], its narrowed bytes
 * to nar[.. + j * lanes + l] (nblocks * lanes <= FSHA1DC_NAR_STRIDE). */
typedef void (*fsha1dc_lanes_rec_fn)(uint32_t (*state)[5], const uint8_t *const *data,
				     size_t nblocks, struct fsha1dc_rec *rec, uint64_t *nar);
/*
 * The records of a kernel of 8 or 16 lanes whose registers hold one word
 * of each lane (avx2_x8, avx512_x16), as its registers hold them: recw[j]
 * is block j of each lane, word-major (element l is lane l), so a block of
 * every lane's records is 18 vector stores, where struct fsha1dc_rec's
 * layout would take transposes. The states are (A, B, C, D, E) after 56
 * and 64 steps; only a flagged block's record is ever read, one lane at a
 * time. An 8-lane kernel fills elements 0..7 of each row.
 */
#define FSHA1DC_RECW_L 16
struct fsha1dc_recw {
	uint32_t in[5][FSHA1DC_RECW_L];  /* the chaining value in, H0..H4 */
	uint32_t s56[5][FSHA1DC_RECW_L]; /* the state before step 56 */
	uint32_t s64[5][FSHA1DC_RECW_L]; /* the state before step 64 */
	uint32_t w56[FSHA1DC_RECW_L], w57[FSHA1DC_RECW_L], w64[FSHA1DC_RECW_L];
};
/* The loop of a row of L = 8 or 16 lanes that keeps records that way
 * (recw[j] for block j) and the narrowed bytes as fsha1dc_lanes_rec_fn
 * does (nblocks * L <= FSHA1DC_NAR_STRIDE). */
typedef void (*fsha1dc_lanes_recw_fn)(uint32_t (*state)[5], const uint8_t *const *data,
				      size_t nblocks, struct fsha1dc_recw *recw, uint64_t *nar);
/*
 * The schedule words the filter reads, W[35..64], of a 16-lane kernel's
 * block, as its registers hold them (w[t - 35][l]: lane l's W[t]): 30
 * stores a block where narrowing them to the nar layout took 72 shuffles,
 * the port the kernel's rotates need (19% of avx512_x16's time with
 * records). The filter then narrows four blocks' words at once
 * (fsha1dc_filter_words_fn), 4 shuffles a word with AVX-512 VBMI.
 */
#define FSHA1DC_WORDS_T0 35
#define FSHA1DC_WORDS_N 30
struct fsha1dc_words {
	uint32_t w[FSHA1DC_WORDS_N][FSHA1DC_RECW_L];
};
/* The loop of a 16-lane row that keeps records that way: recw[j] as
 * lanes_recw, words[j] for block j. */
typedef void (*fsha1dc_lanes_words_fn)(uint32_t (*state)[5], const uint8_t *const *data,
				       size_t nblocks, struct fsha1dc_recw *recw,
				       struct fsha1dc_words *words);
/* The filter on the words of @n records (a multiple of 16, 16..64: record
 * 16 j + l is lane l of words[j]), as fsha1dc_filter_rec_fn on theirs. */
typedef uint64_t (*fsha1dc_filter_words_fn)(const struct fsha1dc_words *words, size_t n,
					    uint32_t *masks);

/*
 * The pipeline of one message in chunks of FSHA1DC_PIPE_B blocks (rows with a
 * dc pipe function, sha1dc_driver.c blocks_pipe(); x86/sha1dc_pipe.h): the
 * call for chunk c compresses it keeping its records and narrowed bytes, and
 * between its blocks does the filter's work on chunk c-1, which does not
 * depend on the chaining value: its kept bytes are moved into planes, and the
 * planes are filtered, a piece (ubc_slices.inc) after each of the later
 * blocks. So the filter runs in the gaps the compression's dependency chain
 * leaves instead of after it.
 */
#define FSHA1DC_PIPE_B 32
struct fsha1dc_pipe {
	struct fsha1dc_rec rec[2][FSHA1DC_PIPE_B]; /* chunk c's records in rec[c % 2] */
	/* chunk c's bytes 0 and 3 of W[32..67] in nar[c % 2]: nar[][g][i] holds
	 * block i's bytes 0 of W[35+4g], W[34+4g], W[33+4g], W[32+4g] in its
	 * low four bytes, their bytes 3 in the high four */
	uint64_t nar[2][9][FSHA1DC_PIPE_B];
	/* the planes of the chunk being filtered, bytes 0 and 3 of W[35..64]
	 * (65 rows, in the layout of the pipe's vector width) */
	_Alignas(32) uint8_t b0[65 * FSHA1DC_PIPE_B];
	_Alignas(32) uint8_t b3[65 * FSHA1DC_PIPE_B];
	uint32_t masks[FSHA1DC_PIPE_B]; /* after the call for chunk c >= 1: chunk c-1's */
	uint32_t flagged;               /* and bit i set where masks[i] is not 0 */
};
/* The call for chunk @c (0, 1, 2, ... of one run): the FSHA1DC_PIPE_B
 * blocks at @data into @state as blocks() does, their records to
 * pp->rec[c % 2] and pp->nar[c % 2]; for c >= 1 chunk c-1's masks. With
 * @data NULL (after a run's last chunk) it compresses nothing and does only
 * the rest. */
typedef void (*fsha1dc_pipe_fn)(uint32_t state[5], const uint8_t *data, struct fsha1dc_pipe *pp,
				size_t c);

/*
 * One recompression of a DV's partner block that SHA1DC deferred (the
 * pipelined path gathers them and has them done together, sha1dc_jobs.h): the
 * state before step testt, the block's chaining values in and out (H0..H4
 * order), and the partner's message words W[0..15] ^ dm[0..15] (its other
 * words follow by the message recurrence, which dm obeys too).
 */
struct fsha1dc_job {
	uint32_t at[5], in[5], out[5];
	uint32_t testt;  /* 58 or 65 */
	uint32_t mp[16]; /* the partner's W[0..15] */
	uint32_t eq;     /* out: bit 0 when the partner's out equals out, bit 1 its in, in */
};
/* The recheck of jobs[0..n), of either testt: sets each job's eq. */
typedef void (*fsha1dc_recheck_fn)(struct fsha1dc_job *const *jobs, size_t n);

/* A row's SHA1DC parts: its SIMD filter, and optionally compressions that
 * keep records (one message; a lane row's lanes) with the filter to run on
 * them (the fast paths), the pipeline above and the recheck it defers to
 * (NULL: sha1dc_jobs.c's scalar one). */
struct fsha1dc_ops {
	fsha1dc_filter_fn filter;
	fsha1dc_rec_fn rec;
	fsha1dc_filter_rec_fn filter_rec;
	fsha1dc_lanes_rec_fn lanes_rec;
	fsha1dc_pipe_fn pipe;
	fsha1dc_recheck_fn recheck;
	fsha1dc_lanes_recw_fn lanes_recw; /* instead of lanes_rec, for 8 or 16 lanes */
	/* Instead of lanes_recw (16 lanes), where the CPU has the bits
	 * words_cpu beyond the row's: the loop keeping words, their filter. */
	fsha1dc_lanes_words_fn lanes_words;
	fsha1dc_filter_words_fn filter_words;
	uint32_t words_cpu;
};

struct fsha1_backend {
	struct fsha_backend_info info; /* first: the resolver sees only this */
	fsha1_blocks_fn blocks;
	fsha1_lanes_fn lanes;          /* NULL for single-stream rows */
	const struct fsha1dc_ops *dc;  /* NULL: SHA1DC takes the scalar path */
	fsha_mac_end_fn mac_end;       /* HMAC-SHA1's fused end (core/backend.h), or NULL */
};

/* SHA1DC's SIMD filters (sha1dc_simd.h) as rows' dc parts: NULL when the
 * build left one out. */
#ifdef FSHA_HAVE_SHA1_PART_DC_SSE2
extern const struct fsha1dc_ops fsha1dc_ops_sse2;
/* SSE2's filter, or AVX2's on a CPU that has it: for rows that need no
 * AVX2 but usually run where it is (SHA-NI). */
void fsha1dc_filter_x86(const uint8_t *const *blocks, size_t n, uint32_t *masks);
uint64_t fsha1dc_filter_rec_x86(const uint64_t *nar, size_t n, uint32_t *masks);
/* SSE2's filter on narrowed bytes (the x86 dispatch's choice without AVX2). */
uint64_t fsha1dc_filter_rec_sse2(const uint64_t *nar, size_t n, uint32_t *masks);
/* The SHA-NI row's pipeline in legacy SSE (x86/sha1_shani.c), what it runs
 * on CPUs without AVX2. */
void fsha1dc_pipe_shani_sse(uint32_t state[5], const uint8_t *data, struct fsha1dc_pipe *pp,
			    size_t c);
/* AVX2's recheck on a CPU that has it, else the scalar one. */
void fsha1dc_recheck_x86(struct fsha1dc_job *const *jobs, size_t n);
extern const struct fsha1dc_ops fsha1dc_ops_x86;
#define FSHA1DC_OPS_SSE2 (&fsha1dc_ops_sse2)
#define FSHA1DC_OPS_X86 (&fsha1dc_ops_x86)
#else
#define FSHA1DC_OPS_SSE2 NULL
#define FSHA1DC_OPS_X86 NULL
#endif
#ifdef FSHA_HAVE_SHA1_PART_DC_AVX2
void fsha1dc_filter_avx2(const uint8_t *const *blocks, size_t n, uint32_t *masks);
uint64_t fsha1dc_filter_rec_avx2(const uint64_t *nar, size_t n, uint32_t *masks);
void fsha1dc_recheck_avx2(struct fsha1dc_job *const *jobs, size_t n);
#endif
#ifdef FSHA_HAVE_SHA1_PART_DC_AVX512
/* The same with AVX-512 F and BW (x86/sha1dc_avx512.c): 64 records a
 * filter run, 16 jobs a recheck vector; fewer go to the AVX2 ones. */
uint64_t fsha1dc_filter_rec_avx512(const uint64_t *nar, size_t n, uint32_t *masks);
void fsha1dc_recheck_avx512(struct fsha1dc_job *const *jobs, size_t n);
#endif
#ifdef FSHA_HAVE_SHA1_PART_DC_AVX512VBMI
/* The filter on a 16-lane kernel's words (x86/sha1dc_avx512vbmi.c; AVX-512
 * F, BW and VBMI). */
uint64_t fsha1dc_filter_words_avx512vbmi(const struct fsha1dc_words *words, size_t n,
					 uint32_t *masks);
#endif
#ifdef FSHA_HAVE_SHA1_PART_DC_PIPE_AVX2
/* The SHA-NI row's pipeline with the filter in ymm registers
 * (x86/sha1dc_pipe_avx2.c; needs SHA and AVX2). */
void fsha1dc_pipe_avx2(uint32_t state[5], const uint8_t *data, struct fsha1dc_pipe *pp, size_t c);
#endif
#ifdef FSHA_HAVE_SHA1_PART_DC_NEON
extern const struct fsha1dc_ops fsha1dc_ops_neon;
#define FSHA1DC_OPS_NEON (&fsha1dc_ops_neon)
#else
#define FSHA1DC_OPS_NEON NULL
#endif

/* The scalar recheck (sha1dc_jobs.c). */
void fsha1dc_recheck_portable(struct fsha1dc_job *const *jobs, size_t n);

extern const struct fsha_family fsha1_family;

static inline const struct fsha1_backend *fsha1_active(void)
{
	return (const struct fsha1_backend *)fsha_active(&fsha1_family);
}

#endif
