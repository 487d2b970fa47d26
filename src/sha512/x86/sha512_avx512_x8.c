/* SPDX-License-Identifier: MIT */
/*
 * avx512_x8: SHA-512 (and SHA-384, SHA-512/224, SHA-512/256) of eight
 * independent messages at once, one message per 64-bit lane of a zmm
 * register. Needs AVX512F (vprorq, vpternlogq, 64-bit adds on zmm) and
 * AVX512BW (vpshufb on zmm, for the byte order in core/lanes_avx512.h);
 * -mavx512f -mavx512bw on this file.
 *
 * Contract (a lane kernel, the row's lanes = 8): lanes(state, data,
 * nblocks) advances the 8 state rows (H0..H7, host order, the layout of
 * every backend in sha512_impl.h) by the same nblocks >= 1; lane l reads
 * exactly data[l][0 .. 128*nblocks), at any alignment (loadu only), and
 * nothing else; the pointers may be equal; every row is read and written,
 * idle ones included; stack only. blocks() runs this kernel with all eight
 * lanes on the one message (FSHA_LANES_BLOCKS), so every single-message
 * test of the row exercises the kernel; the row is never chosen for
 * single messages.
 *
 * Technique: the transposed multi-buffer layout (J. Guilford et al., Intel
 * white paper, 2010) as sha512_avx2_x4.c uses it, on zmm: register j holds
 * word j of the eight messages. Per block and lane two 64-byte loads, a
 * vpshufb and an 8 x 8 quadword transpose (fsha_x8q_load_half). AVX-512
 * takes most of the AVX2 kernel's work away: a rotate is one vprorq, each
 * Sigma three of them and a vpternlogq (0x96, three-way xor), each sigma
 * two rotates, a shift and a vpternlogq, Ch one vpternlogq (0xCA, e ? f :
 * g) and Maj one (0xE8, majority). A round is then 17 vector operations
 * (8 for the Sigmas, 2 for Ch and Maj, 7 adds) and a schedule step 11,
 * 25.8 a round on average over 80 rounds, where the AVX2 kernel had 50
 * for half the lanes. The sixteen-word window stays in registers (32 zmm:
 * window, a..h and temporaries fit; the rounds spill nothing); the 80
 * rounds are unrolled with the schedule eight rounds ahead (LROUND). K is
 * broadcast from fsha512_k; GCC hoists the 80 broadcasts out of the block
 * loop (5 KiB of stack) and adds them as memory operands.
 *
 * Measured on the project's machine (AMD EPYC Zen 4, 2 vCPUs under KVM,
 * ~3.6 GHz by the bench's dependent-add clock, shared with other jobs;
 * GCC 12.2 -O3; OpenSSL 3.0), 2026-11-27:
 * - fastsha-bench --many -a sha512 --n 1024 --sizes 64,4K --reps 7, three
 *   runs (medians of per-rep ratios): 4 KiB 3.19-3.21x OpenSSL's
 *   SHA512_Init/Update/Final loop (~2700 MB/s), 64 B 2.71-2.75x (~1000
 *   MB/s). The avx2_x4 row in the same runs (FASTSHA_BACKEND=avx2_x4):
 *   1.64-1.70x and 1.73-1.77x, so this row is 1.96x it at 4 KiB and 1.58x
 *   at 64 B. The issue asked 3.8x at 4 KiB (not reached) and 2.5x at 64 B.
 * - Kernel alone (private harness, 8 lanes x 32 blocks in L1, best of 40
 *   alternating samples): about 2900 MB/s, 1.27 cycles a byte, 16.2 cycles
 *   a round for the eight lanes.
 * - Why it stops there. A port test (independent streams of one
 *   instruction on zmm) gives: vpaddq, vpternlogq 2 a cycle; vprorq 1 a
 *   cycle, latency 2, on a pipe pair it shares with vprorvq, vpshldq,
 *   vpmultishiftqb, vpmullq, vgf2p8affineqb and vpclmulqdq; vpsrlq,
 *   vpsllq, vpsllvq 1 a cycle on the other pair (a rotate and a shift
 *   issue together); vpshufb half on each; zmm moves eliminated. So every
 *   zmm operation costs half a cycle at best, and a round here is 25.8 of
 *   them on average plus 0.8 for loads and transposes: 13.3 cycles. Mixes
 *   with rotates reach only about 1.8 a cycle in the port test (14.7).
 *   The rounds alone (no schedule) take 14.8 cycles: the six rotates of
 *   the Sigmas sit on the two dependency chains and issue one a cycle.
 *   3.8x would need about 13.4 cycles a round in the bench.
 * - Variants (kernel harness, relative to this file's first form, a loop
 *   of 16 rounds computing W[t] in round t): this file 1.045; the same
 *   unrolled without the lead 1.03 (lead 2, 4, 6, 10 or 12: 1.03-1.045;
 *   the schedule after the round instead of before 1.04); sigma0's ROTR8
 *   as vpshufb 1.00-1.02; T1 summed h + WK + Ch first, Sigma1 last 1.00;
 *   the sigma rotates as shift pairs on the shift pipes 0.96; the whole
 *   W+K schedule first into an 80-entry array, then the rounds 0.85;
 *   -mtune=znver3 0.98-1.03; -O2 0.93.
 * - min_lanes = 3: --n 2..8 --sizes 4K, built with min_lanes 2, many/loop
 *   (the avx2 row one message at a time): n = 2 0.81, 3 1.21, 4 1.61-1.74,
 *   5 2.02, 6 2.41, 7 2.81, 8 3.20.
 * - Stepping down to avx2_x4 when four or fewer messages are live (the
 *   scheduler does so for automatic batch rows, core/lanes.c,
 *   fsha_lane_rows()): measured with FSHA_CPU_AVX2 in this row's bits
 *   (what let the scheduler step down before it took rows after the batch
 *   row in the table), against no step-down, two runs of --n
 *   3,4,5,6,7,1024 --sizes 4K,mixed: n = 3 1.24-1.26x OpenSSL against
 *   1.22-1.23 at 4 KiB, 1.19-1.20 against 1.17-1.18 mixed; n = 4..7 and
 *   1024 within 2 % either way (1024 mixed 2.99-3.05 against 2.96-3.02).
 * - Batch choice (FSHA_AUTO_MANY): yes; first among the lane rows.
 *   Intel's AVX-512 cores run vprorq on more ports (not measured here).
 */
#include <immintrin.h>
#include <string.h>

#include "../../core/lanes_avx512.h"
#include "../sha512_impl.h"
#include "sha512_lanes_avx512.h"

/*
 * Round t, which also works out the message word W[t + 8] into the window
 * slot of W[t - 8] (used by round t - 8): the schedule runs eight rounds
 * ahead of its use, so that each stretch of the code holds work that does
 * not wait on the round chain (1.01 against W[t] in round t, both
 * unrolled; see the head comment).
 */
#define LROUND(a, b, c, d, e, f, g, h, t)                                                         \
	do {                                                                                      \
		if ((t) + 8 >= 16 && (t) + 8 < 80)                                                \
			SCHED(w, ((t) + 8) & 15);                                                 \
		ROUND(a, b, c, d, e, f, g, h, t, w[(t) & 15]);                                    \
	} while (0)

static void lanes(uint64_t (*state)[8], const uint8_t *const *data, size_t nblocks)
{
	__m512i s[8];

	for (int l = 0; l < 8; l++)
		s[l] = _mm512_loadu_si512((const void *)state[l]);
	fsha_x8q_transpose(s); /* s[j]: word j (A..H) of the eight lanes */

	for (size_t blk = 0; blk < nblocks; blk++) {
		__m512i w[16];
		__m512i a = s[0], b = s[1], c = s[2], d = s[3], e = s[4], f = s[5], g = s[6], h = s[7];

		fsha_x8q_load_half(w, data, 128 * blk);
		fsha_x8q_load_half(w + 8, data, 128 * blk + 64);
		/* All 80 rounds unrolled: the window slots and the tests on t
		 * become constants (the loop of 16 rounds was 0.96). */
#pragma GCC unroll 10
		for (int t = 0; t < 80; t += 8) {
			LROUND(a, b, c, d, e, f, g, h, t + 0);
			LROUND(h, a, b, c, d, e, f, g, t + 1);
			LROUND(g, h, a, b, c, d, e, f, t + 2);
			LROUND(f, g, h, a, b, c, d, e, t + 3);
			LROUND(e, f, g, h, a, b, c, d, t + 4);
			LROUND(d, e, f, g, h, a, b, c, t + 5);
			LROUND(c, d, e, f, g, h, a, b, t + 6);
			LROUND(b, c, d, e, f, g, h, a, t + 7);
		}
		FEED8(s);
	}

	fsha_x8q_transpose(s);
	for (int l = 0; l < 8; l++)
		_mm512_storeu_si512((void *)state[l], s[l]);
}

FSHA_LANES_BLOCKS(8, uint64_t, 8)

const struct fsha512_backend fsha512_backend_avx512_x8 = {
	{ "avx512_x8", FSHA_CPU_AVX512F | FSHA_CPU_AVX512BW, 8, FSHA_AUTO_MANY, 3, 0 }, blocks,
	lanes };
