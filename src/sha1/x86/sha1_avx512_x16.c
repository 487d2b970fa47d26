/* SPDX-License-Identifier: MIT */
/*
 * avx512_x16: SHA-1 of sixteen independent messages at once, one message
 * per 32-bit element of the zmm registers. Needs AVX-512 F and BW
 * (-mavx512f -mavx512bw on this file; BW for vpshufb on zmm). 64-bit
 * builds only (arch x86_64): the 32 zmm registers are the point.
 *
 * Contract (a lane kernel, the row's lanes = 16): lanes(state, data,
 * nblocks) advances the 16 state rows (H0..H4 as host-order words, the
 * layout of every single-stream backend) by the same nblocks >= 1; lane l
 * reads exactly data[l][0 .. 64*nblocks), at any alignment (unaligned
 * loads only), and nothing else; the pointers may be equal. No padding,
 * no heap, no globals written. blocks() runs the kernel with all sixteen
 * lanes on the one message, so every per-backend test exercises it; the
 * row is never chosen for single messages (FSHA_AUTO_MANY only).
 *
 * Technique: sha1_avx2_x8.c's transposed layout (register j holds word j
 * of every lane) at twice the width, written from the algorithm. AVX-512
 * makes each scalar operation one vector instruction: rotates are vprold,
 * each f-function is one vpternlogd (Ch 0xca, parity 0x96, Maj 0xe8), the
 * schedule's three xors one vpternlogd and one vpxord, K a broadcast
 * register. The state, the 16-word window and most of the block's saved
 * state stay in the 32 registers. A block is loaded a round in five during
 * the block before it (a load and a vpshufb per lane, to the stack), then
 * transposed by core/lanes_avx512.h's 16 x 16 transpose at its start; the
 * state moves between its 16 x 5 rows and the five registers by 2-source
 * permutes (see state_in()).
 *
 * Why the loads run a block ahead: sixteen messages 4 KiB apart share
 * their L1 sets, and when they start at the same unaligned offset each
 * block's two lines are 32 lines on two 8-way sets, so the line a block
 * shares with the next is evicted before it is read again; loaded at the
 * block's start, those misses stall the rounds. (A malloc'd batch buffer,
 * 16 bytes into a page, is exactly that: fastsha-bench --many.) The last
 * block reloads itself, so nothing outside the input is read.
 *
 * What decides the speed on Zen 4 (AMD EPYC, family 25 model 17; 2 vCPUs
 * under KVM, shared with other work): about 850 zmm operations per step
 * of 16 lane-blocks (80 rounds of 4 vpaddd, 2 vprold, 1 vpternlogd; 64
 * schedule words of vpternlogd, vpxord, vprold; 96 for the loads and the
 * transpose). Zen 4 runs two zmm operations a cycle at best, vprold and
 * shuffles one, vpternlogd about 1.6 (measured in a scratch loop: that
 * round's mix of independent operations, 1.86 a cycle): about 460 cycles,
 * 29 a lane-block. The loop-carried chain (rol 5 and an add, 2 cycles a
 * round, thanks to the empty asm in R()) is far shorter. Measured in a
 * private harness (the kernel alone, 64-block calls, 16 inputs 256 KiB
 * apart, each 16 bytes into a page, as in the bench; 201 samples of 1 ms
 * thread CPU time; cycles per lane-block at 3.647 GHz, medians; the
 * machine's load moves these by about 3%):
 *
 *   this file                                            31.8
 *   loads at the block's start (fsha_x16_load_block)     38.4-39.4
 *     (the same with the inputs 64-byte aligned: 32.3)
 *   without the empty asm in R()                         38.0  +20%
 *   the schedule four rounds ahead (as avx2_x8)          33.0   +3%
 *     (one round 32.3, six 33.0, eight 32.6, twelve 32.8)
 *   next-block loads at other rounds (every 4th, 2nd,    32.0-35.0
 *     each of 60..75, ...)
 *   the schedule's vpternlogd on the dying W[s-16], or   32.4, 31.8
 *     rol(b, 30) ahead of f (fewer register moves)
 *   -fschedule-insns -fsched-pressure                    37.1
 *   words by vpgatherqd (two per word, as lane pointers  81
 *     may be far apart) instead of loads + transpose
 *
 * Through the public API (fastsha1_many, FASTSHA_BACKEND pinning the row,
 * OpenSSL 3.0 SHA1_Init/Update/Final per message in the same process;
 * flock /tmp/fastsha-bench.lock nice -n -20 fastsha-bench --many -a sha1
 * --n 1024 --sizes 64,4K --reps 7, medians of 5 runs; MB/s and ratio to
 * OpenSSL; GCC 12.2 -O3):
 *
 *                   1024 x 4 KiB     1024 x 64 B
 *   avx512_x16      6968  3.66x      2505  2.28x
 *   shani_x4        4440  2.32x      1871  1.69x
 *   OpenSSL         1906  1.00       1100  1.00
 *
 * 1.57x shani_x4 at 4 KiB, 1.34x at 64 B; the target was 4.1x
 * OpenSSL at 4 KiB (2.0x at 64 B): the bound above allows about 3.9x.
 *
 * min_lanes = 5, min_batch = 9: n live 4 KiB messages (same bench, --n
 * 2..16 --sizes 4K --reps 5), MB/s of all n together, measured with
 * min_lanes 2 and no min_batch; shani_x4 pinned (with its step-down to
 * shani_x2) beside it:
 *
 *   n            2    3    4    5    6    7    8    9   10   12   14   16
 *   avx512_x16 901 1343 1798 2238 2696 3138 3582 4015 4455 5329 6217 7079
 *   shani_x4  3346 3382 4491 3536 4043 3966 4524 3923 4226 4528 4293 4542
 *   shani     1910 (one message at a time, every n)
 *
 * The row passes the single stream at 5 live messages (1.17x) and
 * shani_x4 at 9. So a batch of fewer than 9 messages starts on shani_x4
 * (min_batch: the scheduler takes the next row, core/lanes.c), and a batch
 * of more that thins out steps down to shani_x4 and shani_x2 below 5 live
 * (rows after this one in the table). With both, the automatic choice
 * (--n 2,4,5,6,7,8,9,10,12,16 --sizes 4K, same run): 1.74, 2.36, 1.85,
 * 2.11, 2.08, 2.37, 2.10, 2.33, 2.79, 3.70x OpenSSL, never below
 * shani_x4's 1.74-2.38x; 16 lanes at 5..8 live had been 1.17-1.87x.
 */
/*
 * SHA1DC (lanes_recw, lanes_words): the same loop inlined again with the
 * records' stores (the states before steps 56 and 64, W[56], W[57], W[64])
 * and what the filter reads. On CPUs with AVX-512 VBMI that is W[35..64]
 * as the registers hold them, 30 stores a block (lanes_words), narrowed by
 * the filter (x86/sha1dc_avx512vbmi.c); elsewhere the narrowed bytes
 * (lanes_recw, NARG(): 12 operations a group, 8 of them shuffles, which
 * share the port with the rotates). Zen 4, 1024 x 4 KiB SHA1DC batches,
 * fastsha-bench --many -a sha1dc, two rounds in alternation: 2.02-2.03x
 * OpenSSL's plain SHA-1 with the words against 1.85-1.87x with the bytes.
 */
#include <immintrin.h>

#include "../../core/lanes_avx512.h"
#include "../sha1_impl.h"
#include "sha1_lanes_avx512.h"

/* The next block's words of lane (t - 2) / 5, byte-swapped, to raw[] (see
 * run()): rounds 2, 7, .., 77. */
#define PRE(t)                                                                                \
	do {                                                                                  \
		if ((t) % 5 == 2)                                                             \
			raw[(t) / 5] = _mm512_shuffle_epi8(                                   \
				_mm512_loadu_si512((const void *)(p[(t) / 5] + next)), bswap); \
	} while (0)

/*
 * SHA1DC's words W[35..64] to @words as they are (lanes_words()), or the
 * narrowed bytes of group @g (bytes 0 and 3 of W[32+4g..35+4g],
 * the layout of FSHA1DC_NAR_STRIDE) from the four words in the window, for
 * the sixteen lanes, as sha1_avx2_x8.c's NARG at twice the width: two
 * words' bytes 0 and 3 by a vpshufb each and an OR make (b0, b0', b3,
 * b3') a lane, 16-bit unpacks of the two pairs give each lane's eight
 * bytes (chunk c holds lanes 4c, 4c+1 in one, 4c+2, 4c+3 in the other),
 * and two 2-source qword permutes put lanes 0..7 and 8..15 in order. 12
 * operations a group, placed right after the group's last word is made.
 */
#define NARG(s)                                                                               \
	do {                                                                                  \
		if (words && (s) >= FSHA1DC_WORDS_T0 && (s) < FSHA1DC_WORDS_T0 + FSHA1DC_WORDS_N) \
			_mm512_storeu_si512((void *)words->w[(s) - FSHA1DC_WORDS_T0],         \
					    w[(s) & 15]);                                     \
		if (nar && (s) >= 35 && (s) <= 67 && ((s) - 35) % 4 == 0) {                   \
			const __m512i x_ = _mm512_or_si512(                                   \
				_mm512_shuffle_epi8(w[(s) & 15], nar_1st),                    \
				_mm512_shuffle_epi8(w[((s) - 1) & 15], nar_2nd));             \
			const __m512i y_ = _mm512_or_si512(                                   \
				_mm512_shuffle_epi8(w[((s) - 2) & 15], nar_1st),              \
				_mm512_shuffle_epi8(w[((s) - 3) & 15], nar_2nd));             \
			const __m512i l_ = _mm512_unpacklo_epi16(x_, y_);                     \
			const __m512i h_ = _mm512_unpackhi_epi16(x_, y_);                     \
			uint64_t *o_ = nar + FSHA1DC_NAR_STRIDE * (((s) - 35) / 4);           \
			_mm512_storeu_si512((void *)o_, _mm512_permutex2var_epi64(l_, nar_lo, h_)); \
			_mm512_storeu_si512((void *)(o_ + 8),                                 \
					    _mm512_permutex2var_epi64(l_, nar_hi, h_));        \
		}                                                                             \
	} while (0)

#define R(a, b, c, d, e, t)                                          \
	do {                                                         \
		PRE(t);                                              \
		SCHED((t) + 2);                                      \
		NARG((t) + 2);                                       \
		FSHA1_X16_ROUND(a, b, c, d, e, t);                   \
	} while (0)

#define R5(t)                            \
	R(a, b, c, d, e, (t));           \
	R(e, a, b, c, d, (t) + 1);       \
	R(d, e, a, b, c, (t) + 2);       \
	R(c, d, e, a, b, (t) + 3);       \
	R(b, c, d, e, a, (t) + 4)
#define R20(t) R5(t); R5((t) + 5); R5((t) + 10); R5((t) + 15)

/* SHA1DC's record: the state (A, B, C, D, E) in the registers named here,
 * to recw->s (stores, off the rounds' chain). */
#define CAP(s, A, B, C, D, E)                                                \
	do {                                                                 \
		if (recw) {                                                  \
			_mm512_storeu_si512((void *)recw->s[0], A);          \
			_mm512_storeu_si512((void *)recw->s[1], B);          \
			_mm512_storeu_si512((void *)recw->s[2], C);          \
			_mm512_storeu_si512((void *)recw->s[3], D);          \
			_mm512_storeu_si512((void *)recw->s[4], E);          \
		}                                                            \
	} while (0)
#define CAPW(f, t)                                                              \
	do {                                                                    \
		if (recw)                                                       \
			_mm512_storeu_si512((void *)recw->f, w[(t) & 15]);      \
	} while (0)

/*
 * The 16 state rows (80 consecutive words, row l word j at 5 l + j) to
 * word-major r[j] (lane l = row l's word j), and back. Five 64-byte loads;
 * register j takes its words from the two halves of the 80 by a vpermt2d
 * each (element l's index 5 l + j, mod 32), a blend, and a merging
 * vpermd for words 64..79: 20 permutes and blends against the scalar
 * copies through the stack.
 */
FSHA1_X16_INLINE void state_in(__m512i r[5], const uint32_t (*state)[5])
{
	const uint32_t *flat = state[0];
	__m512i v[5];
	for (int k = 0; k < 5; k++)
		v[k] = _mm512_loadu_si512((const void *)(flat + 16 * k));
	const __m512i five = _mm512_setr_epi32(0, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60,
					       65, 70, 75);
#pragma GCC unroll 5
	for (int j = 0; j < 5; j++) {
		const __m512i idx = _mm512_add_epi32(five, _mm512_set1_epi32(j));
		/* elements l with 5 l + j >= 32, and >= 64 */
		const __mmask16 hi = (__mmask16)(0xffff << (36 - j) / 5);
		const __mmask16 top = (__mmask16)(0xffff << (68 - j) / 5);
		const __m512i lo_ = _mm512_permutex2var_epi32(v[0], idx, v[1]);
		const __m512i hi_ = _mm512_permutex2var_epi32(v[2], idx, v[3]);
		r[j] = _mm512_mask_permutexvar_epi32(_mm512_mask_blend_epi32(hi, lo_, hi_), top, idx,
						     v[4]);
	}
}

/* Word 16 k + i of the 80 is register (16 k + i) % 5, element (16 k + i) / 5:
 * vpermt2d from (a, b) and from (c, d) with bit 4 of the index choosing the
 * odd register, a blend, and a merging vpermd from e. */
#define IX(k, i) ((16 * (k) + (i)) / 5 | ((16 * (k) + (i)) % 5 & 1) << 4)
FSHA1_X16_INLINE void state_out(uint32_t (*state)[5], const __m512i r[5])
{
	uint32_t *flat = state[0];
#pragma GCC unroll 5
	for (int k = 0; k < 5; k++) {
		/* (16 k + i) % 5 == (k + i) % 5: elements i with i % 5 == m are
		 * 0x8421 << m */
		const __mmask16 cd = (__mmask16)((0x8421 << (7 - k) % 5 | 0x8421 << (8 - k) % 5) & 0xffff);
		const __mmask16 e = (__mmask16)((0x8421 << (9 - k) % 5) & 0xffff);
		const __m512i idx = _mm512_setr_epi32(
			IX(k, 0), IX(k, 1), IX(k, 2), IX(k, 3), IX(k, 4), IX(k, 5), IX(k, 6), IX(k, 7),
			IX(k, 8), IX(k, 9), IX(k, 10), IX(k, 11), IX(k, 12), IX(k, 13), IX(k, 14), IX(k, 15));
		const __m512i ab = _mm512_permutex2var_epi32(r[0], idx, r[1]);
		const __m512i cd_ = _mm512_permutex2var_epi32(r[2], idx, r[3]);
		_mm512_storeu_si512((void *)(flat + 16 * k),
				    _mm512_mask_permutexvar_epi32(_mm512_mask_blend_epi32(cd, ab, cd_),
								  e, idx, r[4]));
	}
}
#undef IX

/*
 * The loop of lanes() and, with @recw and @nar, of SHA1DC's lanes_recw():
 * inlined into each, so the plain kernel carries none of the records' code.
 * Rounds 55..64 are spelled out for the states before steps 56 and 64
 * (the names rotate a place a round).
 */
FSHA1_X16_INLINE void run(uint32_t (*state)[5], const uint8_t *const *data, size_t nblocks,
			  struct fsha1dc_recw *recw, uint64_t *nar, struct fsha1dc_words *words)
{
	/* NARG()'s shuffles: a word's bytes 0 and 3 to bytes 0 and 2 of its
	 * lane (the first word of a pair), or to bytes 1 and 3 (the second);
	 * and its permutes' qword indices (bit 3: from h_) */
	const __m512i nar_1st = _mm512_broadcast_i32x4(
		_mm_setr_epi8(0, -1, 3, -1, 4, -1, 7, -1, 8, -1, 11, -1, 12, -1, 15, -1));
	const __m512i nar_2nd = _mm512_broadcast_i32x4(
		_mm_setr_epi8(-1, 0, -1, 3, -1, 4, -1, 7, -1, 8, -1, 11, -1, 12, -1, 15));
	const __m512i nar_lo = _mm512_setr_epi64(0, 1, 8, 9, 2, 3, 10, 11);
	const __m512i nar_hi = _mm512_setr_epi64(4, 5, 12, 13, 6, 7, 14, 15);
	const uint8_t *p[16];
	for (int l = 0; l < 16; l++)
		p[l] = data[l];
	__m512i r[5];
	state_in(r, (const uint32_t(*)[5])state);
	__m512i a = r[0], b = r[1], c = r[2], d = r[3], e = r[4];
	const __m512i bswap = _mm512_broadcast_i32x4(
		_mm_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12));
	__m512i raw[16];
	for (int l = 0; l < 16; l++)
		raw[l] = _mm512_shuffle_epi8(_mm512_loadu_si512((const void *)p[l]), bswap);

	for (size_t blk = 0; blk < nblocks; blk++) {
		__m512i w[16];
		const __m512i a0 = a, b0 = b, c0 = c, d0 = d, e0 = e;
		CAP(in, a, b, c, d, e);
		/* the last block reloads itself: no byte outside the input */
		const size_t next = 64 * (blk + 1 < nblocks ? blk + 1 : blk);
		for (int l = 0; l < 16; l++)
			w[l] = raw[l];
		fsha_x16_transpose(w);
		R20(0);
		R20(20);
		R5(40);
		R5(45);
		R5(50);
		R(a, b, c, d, e, 55);
		CAP(s56, e, a, b, c, d);
		CAPW(w56, 56);
		CAPW(w57, 57);
		R(e, a, b, c, d, 56);
		R(d, e, a, b, c, 57);
		R(c, d, e, a, b, 58);
		R(b, c, d, e, a, 59);
		R(a, b, c, d, e, 60);
		R(e, a, b, c, d, 61);
		R(d, e, a, b, c, 62);
		R(c, d, e, a, b, 63);
		CAP(s64, b, c, d, e, a);
		CAPW(w64, 64);
		R(b, c, d, e, a, 64);
		R5(65);
		R5(70);
		R5(75);
		a = ADD(a, a0);
		b = ADD(b, b0);
		c = ADD(c, c0);
		d = ADD(d, d0);
		e = ADD(e, e0);
		if (recw)
			recw++;
		if (nar)
			nar += 16;
		if (words)
			words++;
	}

	r[0] = a;
	r[1] = b;
	r[2] = c;
	r[3] = d;
	r[4] = e;
	state_out(state, r);
}

static void lanes(uint32_t (*state)[5], const uint8_t *const *data, size_t nblocks)
{
	run(state, data, nblocks, NULL, NULL, NULL);
}

#ifdef FSHA_HAVE_SHA1_PART_DC_AVX512
/* SHA1DC's lane loop (fsha1dc_lanes_recw_fn): block j's records to
 * recw[j], its narrowed bytes to nar[.. + 16 j + l]. */
static void lanes_recw(uint32_t (*state)[5], const uint8_t *const *data, size_t nblocks,
		       struct fsha1dc_recw *recw, uint64_t *nar)
{
	run(state, data, nblocks, recw, nar, NULL);
}

#ifdef FSHA_HAVE_SHA1_PART_DC_AVX512VBMI
/* The same keeping the words instead of narrowed bytes
 * (fsha1dc_lanes_words_fn), for the VBMI filter. */
static void lanes_words(uint32_t (*state)[5], const uint8_t *const *data, size_t nblocks,
			struct fsha1dc_recw *recw, struct fsha1dc_words *words)
{
	run(state, data, nblocks, recw, NULL, words);
}
#define DC_WORDS lanes_words, fsha1dc_filter_words_avx512vbmi, FSHA_CPU_AVX512VBMI
#else
#define DC_WORDS NULL, NULL, 0
#endif

/* AVX-512's filter on the records (64 a run: a window of four steps of 16
 * lanes is one run) and recheck (16 jobs a vector); on blocks the x86
 * dispatching filter (AVX2's: every CPU with AVX-512F has AVX2, and
 * cpu.c reports AVX-512 only beside AVX2). */
static const struct fsha1dc_ops dc_ops = { fsha1dc_filter_x86,         NULL,
					   fsha1dc_filter_rec_avx512, NULL,
					   NULL,                      fsha1dc_recheck_avx512,
					   lanes_recw,                DC_WORDS };
#define DC_OPS (&dc_ops)
#else
#define DC_OPS NULL
#endif

FSHA_LANES_BLOCKS(16, uint32_t, 5)

const struct fsha1_backend fsha1_backend_avx512_x16 = {
	{ "avx512_x16", FSHA_CPU_AVX512F | FSHA_CPU_AVX512BW, 16, FSHA_AUTO_MANY, 5, 9 }, blocks,
	lanes, DC_OPS, NULL };
