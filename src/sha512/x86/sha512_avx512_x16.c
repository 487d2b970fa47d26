/* SPDX-License-Identifier: MIT */
/*
 * avx512_x16: SHA-512 (and SHA-384, SHA-512/224, SHA-512/256) of sixteen
 * independent messages at once: two groups of eight, each one message per
 * 64-bit lane of a zmm register, their rounds interleaved in one loop.
 * Needs AVX512F and AVX512BW, as sha512_avx512_x8.c; -mavx512f -mavx512bw
 * on this file.
 *
 * Contract (a lane kernel, the row's lanes = 16): lanes(state, data,
 * nblocks) advances the 16 state rows (H0..H7, host order) by the same
 * nblocks >= 1; lane l reads exactly data[l][0 .. 128*nblocks), at any
 * alignment (loadu only), and nothing else; the pointers may be equal;
 * every row is read and written, idle ones included; stack only.
 * blocks() runs the kernel with all sixteen lanes on the one message
 * (FSHA_LANES_BLOCKS).
 *
 * Technique: sha512_avx512_x8.c's rounds and schedule (see its head
 * comment: the transposed layout, vprorq Sigmas, vpternlogq Ch, Maj and
 * three-way xors), twice. Why two groups: on Zen 4 vprorq issues one a
 * cycle, and a round's two dependency chains (e -> Sigma1 -> T1 -> e, a ->
 * Sigma0 -> a) each pass three rotates, so one group alone leaves issue
 * slots empty (the rounds alone, no schedule, 14.8 cycles a round of 8
 * lanes where their operation count allows ~9). A second, independent
 * group fills them: in a synthetic rounds-only test two groups ran 10.9
 * cycles per 8-lane round against 12.8 for one. The price is registers:
 * the sixteen working variables of the two groups take half the 32 zmm,
 * so the two sixteen-word windows live on the stack (the schedule's loads
 * and stores are memory operands; Zen 4 has the load ports to spare:
 * about 3.8 loads and 0.8 stores per 8-lane round against 15 cycles).
 * The windows are double-buffered, the next block loaded during this
 * one's rounds (see lanes()). Stack: about 11.6 KiB (the 80 broadcast K,
 * hoisted by GCC as in the 8-lane kernel, 5 KiB; the windows 4 KiB).
 *
 * Measured on the project's machine (AMD EPYC Zen 4, family 25 model 17,
 * 2 vCPUs under KVM, shared; GCC 12.2 -O3; OpenSSL 3.0), 2026-11-27:
 * - FASTSHA_BACKEND=avx512_x8 and =avx512_x16 fastsha-bench --many -a
 *   sha512 --n 1024 --sizes 64,4K --reps 7, three runs each, alternating
 *   (medians of per-rep ratios to OpenSSL's SHA512_Init/Update/Final
 *   loop): 4 KiB this row 3.45, 3.45, 3.45x (~2920 MB/s), avx512_x8
 *   3.22-3.23x (~2725 MB/s): 1.07x it; 64 B 2.97, 2.91, 3.04x (~1085
 *   MB/s), avx512_x8 2.73-2.74x: 1.08x. The issue asked 3.8x at 4 KiB
 *   (not reached) and 2.5x at 64 B.
 * - Kernel alone (private harness, best of 30-40 alternating samples):
 *   16 lanes x 16 blocks in L1 3110-3120 MB/s against avx512_x8 on the
 *   same data (two calls of 8 lanes) 2885: 1.08x; 1024 messages of 4 KiB
 *   from memory 1.08x, 1.075x with them 4 KiB apart and 16 bytes off a
 *   64-byte boundary (the bench's layout).
 * - Why not more: the vector operations are the limit. Per 8-lane round
 *   26.7 zmm operations (the 8-lane kernel's 25.8 and the loads'
 *   shuffles) in about 14.8 cycles at ~3.6 GHz: 1.80 a cycle, where
 *   Zen 4 issues at most 2 (vpaddq, vpternlogq 2 a cycle, vprorq 1) and
 *   mixes with rotates reached about 1.8 in the 8-lane kernel's port test.
 *   The second group took the rounds' rotate chains off the critical
 *   path (the first version, loads at the top of each block, ran 15.3
 *   cycles a round, 1.75 a cycle, only 1.04x the 8-lane kernel). 3.8x in
 *   the bench is 1.10x this row: about 13.4 cycles a round, 2.0
 *   operations a cycle, the issue limit with no loss at all.
 * - Variants (kernel harness, against avx512_x8 in the same process):
 *   the schedule's lead (rounds between W[t] computed and used) 0: 1.02,
 *   2: 1.04, 4: 1.05, 8 (the 8-lane kernel's): 1.03, 12: 1.04, 16 (after
 *   the round that frees the slot): 1.03; lead 4 kept. Loads at the top
 *   of each block 1.04 in L1, 0.996-1.00 with the bench's layout (the
 *   sixteen lanes' lines, 4 KiB apart, share L1 sets; a misaligned
 *   block's last line was evicted before the next block used it); the
 *   same with software prefetches (prefetcht0 or t1 of the next block at
 *   round 0, 40 or 72) 0.97-0.99; the next block loaded into a second
 *   window at rounds 0, 16, 32 or 48 onwards: 1.06-1.08 (16 kept).
 * - min_lanes = 5: --n 2..16 --sizes 4K, built with min_lanes 2 and the
 *   avx512_x8 row left out (with it, 8 or fewer live messages go to that
 *   row, whose min_lanes is 3, so this threshold matters only in builds
 *   without it), many/OpenSSL with FASTSHA_BACKEND=avx512_x16, two runs:
 *   n = 2 0.44, 3 0.66, 4 0.89, 5 1.11, 6 1.32, 7 1.54, 8 1.75, 9 1.97,
 *   10 2.18, 12 2.61, 16 3.46; the avx2 row one message at a time
 *   1.01-1.02x OpenSSL.
 * - min_batch = 11: a batch of 10 or fewer messages starts on avx512_x8
 *   (8 at once, then the rest on the narrower rows). fastsha-bench --many
 *   -a sha512 --n 9..14,16 --sizes 64,4K --reps 5, two runs, min_batch 0
 *   against 13 (n < 13 on avx512_x8), many/OpenSSL at 4 KiB and 64 B:
 *   n = 9 1.92-1.98 and 1.76 against 2.57-2.59 and 2.17-2.18; 10
 *   2.18-2.19 and 1.92-1.93 against 2.22-2.24 and 1.98-2.00; 11
 *   2.40 and 2.08 against 2.24-2.25 and 2.01-2.03; 12 2.62 and 2.25
 *   against 2.44-2.47 and 2.18.
 * - Batch choice (FSHA_AUTO_MANY): yes, first among the lane rows; the
 *   scheduler steps down to avx512_x8 at 8 live messages and to avx2_x4
 *   at 4 (core/lanes.c, fsha_lane_rows()). With the step-down, 1024
 *   messages of random lengths 1..8 KiB (--sizes mixed) ran 3.26x
 *   OpenSSL, where avx512_x8's head comment has 2.99-3.05x.
 */
#include <immintrin.h>
#include <string.h>

#include "../../core/lanes_avx512.h"
#include "../sha512_impl.h"
#include "sha512_lanes_avx512.h"

/* Round t of both groups (variables a0..h0 with window w0, a1..h1 with
 * w1), each computing W[t + 4] into the window slot of W[t - 12], four
 * rounds ahead of its use (the 8-lane kernel's lead is 8; here 4 and 12
 * measure 1.02 against 8, 0, 2 and 16 0.99-1.01: see the head comment). */
#define LROUND2(a, b, c, d, e, f, g, h, t)                                                        \
	do {                                                                                      \
		if ((t) + 4 >= 16 && (t) + 4 < 80) {                                              \
			SCHED(w0, ((t) + 4) & 15);                                                \
			SCHED(w1, ((t) + 4) & 15);                                                \
		}                                                                                 \
		ROUND(a##0, b##0, c##0, d##0, e##0, f##0, g##0, h##0, t, w0[(t) & 15]);           \
		ROUND(a##1, b##1, c##1, d##1, e##1, f##1, g##1, h##1, t, w1[(t) & 15]);           \
	} while (0)

static void lanes(uint64_t (*state)[8], const uint8_t *const *data, size_t nblocks)
{
	__m512i s0[8], s1[8];

	for (int l = 0; l < 8; l++) {
		s0[l] = _mm512_loadu_si512((const void *)state[l]);
		s1[l] = _mm512_loadu_si512((const void *)state[8 + l]);
	}
	fsha_x8q_transpose(s0); /* s0[j]: word j (A..H) of lanes 0..7 */
	fsha_x8q_transpose(s1); /* s1[j]: the same of lanes 8..15 */

	/*
	 * The message windows, double-buffered: block blk's in win[blk & 1]
	 * (group 0, then group 1), the next block's loaded and transposed
	 * into the other during rounds 16..47, in four quarters eight rounds
	 * apart. Loading at the top of each block instead (as the 8-lane
	 * kernel does) leaves the loads, their L1 misses and the transposes
	 * in front of round 0 with nothing to overlap them: 1.08x this way in
	 * the kernel harness, in L1 and from memory; and messages laid out
	 * 4 KiB apart and not 64-byte aligned (as in fastsha-bench) put the
	 * sixteen lanes' lines in the same L1 sets, so each misaligned
	 * block's shared line was evicted before its second use: 0.996x the
	 * 8-lane kernel that way, 1.075x with the early loads.
	 */
	__m512i win[2][2][16];
	fsha_x8q_load_half(win[0][0], data, 0);
	fsha_x8q_load_half(win[0][0] + 8, data, 64);
	fsha_x8q_load_half(win[0][1], data + 8, 0);
	fsha_x8q_load_half(win[0][1] + 8, data + 8, 64);
	for (size_t blk = 0; blk < nblocks; blk++) {
		__m512i *w0 = win[blk & 1][0], *w1 = win[blk & 1][1];
		__m512i *n0 = win[(blk + 1) & 1][0], *n1 = win[(blk + 1) & 1][1];
		const size_t next = 128 * (blk + 1);
		__m512i a0 = s0[0], b0 = s0[1], c0 = s0[2], d0 = s0[3];
		__m512i e0 = s0[4], f0 = s0[5], g0 = s0[6], h0 = s0[7];
		__m512i a1 = s1[0], b1 = s1[1], c1 = s1[2], d1 = s1[3];
		__m512i e1 = s1[4], f1 = s1[5], g1 = s1[6], h1 = s1[7];

#pragma GCC unroll 10
		for (int t = 0; t < 80; t += 8) {
			/* the next block's words, if there is one (nothing
			 * past the lane's data is read) */
			if (blk + 1 < nblocks) {
				if (t == 16)
					fsha_x8q_load_half(n0, data, next);
				if (t == 24)
					fsha_x8q_load_half(n0 + 8, data, next + 64);
				if (t == 32)
					fsha_x8q_load_half(n1, data + 8, next);
				if (t == 40)
					fsha_x8q_load_half(n1 + 8, data + 8, next + 64);
			}
			LROUND2(a, b, c, d, e, f, g, h, t + 0);
			LROUND2(h, a, b, c, d, e, f, g, t + 1);
			LROUND2(g, h, a, b, c, d, e, f, t + 2);
			LROUND2(f, g, h, a, b, c, d, e, t + 3);
			LROUND2(e, f, g, h, a, b, c, d, t + 4);
			LROUND2(d, e, f, g, h, a, b, c, t + 5);
			LROUND2(c, d, e, f, g, h, a, b, t + 6);
			LROUND2(b, c, d, e, f, g, h, a, t + 7);
		}
		s0[0] = ADD(s0[0], a0);
		s0[1] = ADD(s0[1], b0);
		s0[2] = ADD(s0[2], c0);
		s0[3] = ADD(s0[3], d0);
		s0[4] = ADD(s0[4], e0);
		s0[5] = ADD(s0[5], f0);
		s0[6] = ADD(s0[6], g0);
		s0[7] = ADD(s0[7], h0);
		s1[0] = ADD(s1[0], a1);
		s1[1] = ADD(s1[1], b1);
		s1[2] = ADD(s1[2], c1);
		s1[3] = ADD(s1[3], d1);
		s1[4] = ADD(s1[4], e1);
		s1[5] = ADD(s1[5], f1);
		s1[6] = ADD(s1[6], g1);
		s1[7] = ADD(s1[7], h1);
	}

	fsha_x8q_transpose(s0);
	fsha_x8q_transpose(s1);
	for (int l = 0; l < 8; l++) {
		_mm512_storeu_si512((void *)state[l], s0[l]);
		_mm512_storeu_si512((void *)state[8 + l], s1[l]);
	}
}

FSHA_LANES_BLOCKS(16, uint64_t, 8)

const struct fsha512_backend fsha512_backend_avx512_x16 = {
	{ "avx512_x16", FSHA_CPU_AVX512F | FSHA_CPU_AVX512BW, 16, FSHA_AUTO_MANY, 5, 11 }, blocks,
	lanes };
