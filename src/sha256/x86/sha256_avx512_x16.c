/* SPDX-License-Identifier: MIT */
/*
 * avx512_x16: SHA-256 (and SHA-224) of sixteen independent messages at
 * once, one message per 32-bit lane of a zmm register. Needs AVX512F and
 * AVX512BW (-mavx512f -mavx512bw on this file; vpshufb on zmm is BW);
 * x86_64 builds only.
 *
 * Contract (a lane kernel, the row's lanes = 16): lanes(state, data,
 * nblocks) advances the 16 state rows (H0..H7, host order, the layout of
 * every backend in sha256_impl.h) by the same nblocks >= 1; lane l reads
 * exactly data[l][0 .. 64*nblocks), at any alignment (loadu only), and
 * nothing else; the pointers may be equal; every row is read and written,
 * idle ones included; stack only. blocks() runs this kernel with all
 * sixteen lanes on the one message, so every single-message test of the
 * row exercises the kernel.
 *
 * Technique: the transposed multi-buffer layout of sha256_avx2_x8.c
 * (Guilford et al., Intel, 2010), twice as wide: zmm register j holds
 * word j of the sixteen messages (core/lanes_avx512.h moves blocks and
 * the state in and out). AVX-512 removes most of the AVX2 kernel's work:
 * each ROTR is one vprord, the xor of three terms one vpternlogd (0x96),
 * so a Sigma or sigma is three rotates (or two and a shift) and one
 * ternlog; Ch(e,f,g) is one vpternlogd (0xCA: e ? f : g) and Maj one
 * (0xE8: the majority), with no a ^ b carry. A round is 17 ops, a
 * schedule word 11. The sixteen-word window is meant to stay in registers
 * (8 state words + 16 window words of the 32 zmm registers; the loop is
 * unrolled by 16 rounds so every window index is a constant; GCC still
 * spills about one word a round around the loop), and K[t] is a
 * broadcast memory operand of the add ({1to16}). The round and schedule
 * macros are sha2_lanes_avx2.h's, which name only ADD, ROUND and the
 * sigmas defined here.
 *
 * Measured on the project's machine (AMD EPYC Zen 4, 2 vCPUs under KVM,
 * ~3.65 GHz, shared, runs under the bench lock; GCC 12.2 -O3, OpenSSL
 * 3.0.19). fastsha-bench --many -a sha256 --n 1024 --sizes 64,4K --reps 7
 * with FASTSHA_BACKEND pinning each row, three runs, medians (runs agreed
 * within 4%); ratios are many() over OpenSSL's Init/Update/Final loop in
 * the same run:
 *
 *                         1024 x 4 KiB            1024 x 64 B
 *                        MB/s   /OpenSSL         MB/s   /OpenSSL
 *   avx512_x16 (this)    2946    1.66x           1346    1.51x
 *   shani_x3             3638    2.04x           1982    2.23x
 *   shani_x2             3409    1.92x           1486    1.67x
 *   avx2_x8              1717    0.97x            767    0.87x
 *
 * So on Zen 4 this row is 0.81x shani_x3 at 4 KiB and 0.68x at 64 B, and
 * 0.86x / 0.91x shani_x2: it sits after the SHA-NI lane rows in the table
 * and is the batch choice only on AVX-512 CPUs without SHA-NI (Skylake-SP
 * to Cooper Lake; not measured there). It is 1.7x avx2_x8 at both sizes.
 * The kernel alone (16 lanes x 64-block calls, a private harness): 74
 * cycles a block, shani_x3's kernel 58 in the same harness. The op count is
 * 1616 zmm ops per block of all sixteen lanes, 672 of them rotates or
 * shifts; this machine runs 2 zmm adds or ternlogs a cycle but one zmm
 * vprord (latency 2), so the bound is about 808 cycles, 50.5 a block; the
 * kernel reaches 1.45 ops a cycle. Rounds alone (no schedule) ran at 1.55
 * ops a cycle with one or two independent lane groups interleaved, so the
 * limit is pipe use, not the dependency chain. Variants, kernel harness,
 * time relative to this file: Sigma1 added last or e = (d + x) + Sigma1
 * (shorter chains) 1.00; all 64 rounds unrolled 0.99 (more code, not
 * kept); the schedule computed first into a 64-word stack array 1.11;
 * GCC -fschedule-insns -fsched-pressure 0.97 and -mtune=icelake-server
 * 0.98 (tuning flags, not kept). The AVX-512VL form on ymm (8 lanes,
 * same code on __m256i) costs the same per lane-block (76 cycles, 2.9 ymm
 * ops a cycle against this file's 1.45 zmm ops): width buys nothing here,
 * but that form's calls cost half, which would suit batch tails; not
 * made a row. sha256rnds2 competes for the same pipes (one a cycle, and
 * it slows a rotate/add mix by about a cycle each), so mixing SHA-NI lanes
 * into this kernel was not pursued.
 *
 * The shared-block entry (fsha256_avx512_x16_lanes_wk, backend.h
 * run_lanes_shared): batches of 4 L or more messages of one whole-block
 * length run the padding block, the same in every lane, as rounds on W+K
 * worked out once. Intel Xeon (Emerald Rapids line), fastsha-bench
 * --many -a sha256 --n 64,1024 against the kernel without it, two runs
 * each, alternating: 64 B 1.95-2.00x -> 2.42-2.58x OpenSSL, 128 B
 * 1.94-2.03x -> 2.36-2.40x, 4 KiB unchanged (2.05-2.12x); HMAC-SHA256 of
 * 1,024 x 64 B (fastsha-bench --mac) 3.54x -> 4.29-4.40x OpenSSL's
 * keyed-context loop.
 *
 * min_lanes = 3: fastsha256_many() over n messages of 4 KiB, this row
 * pinned and built with min_lanes 2, gives 208 MB/s times n for n <= 16
 * (one call costs the same for any live count), against 570 MB/s for the
 * avx2 row, the single-message choice on the CPUs this row serves: 0.73x
 * avx2 at n = 2, 1.10x at n = 3. (Against this CPU's shani, 1794 MB/s, it
 * would take n = 9.)
 *
 * min_batch = 11: where this row is the batch row ahead of SHA-NI lane
 * rows (Intel with AVX-512, FSHA_CPU_TUNE_INTEL_AVX512, which passes
 * shani_x3 and shani_x2 over for it: sha256_backends.c), a smaller batch
 * starts on shani_x3, which takes its messages in turns. On that Xeon
 * (fastsha-bench --many -a sha256, 2026-12-05) against OpenSSL one at a
 * time, this row gave 1.03x/1.08x (64 B/4 KiB) at n = 8, 1.42x/1.60x at
 * 12, 2.09x at 1,024 x 4 KiB; shani_x3 1.40x/1.36x at n = 6 to 1,024.
 * The crossing is near n = 10.5. On CPUs where this row only steps down
 * to avx2_x8 (AVX-512 without SHA-NI), n = 9 and 10 start on avx2_x8's
 * eight lanes: not measured, but those do the same lane-blocks per call
 * in half the width.
 */
#include <immintrin.h>

#include "../../core/lanes_avx512.h"
#include "../sha256_impl.h"


#define ADD(x, y) _mm512_add_epi32((x), (y))
#define ROR(x, n) _mm512_ror_epi32((x), (n))
#define SHR(x, n) _mm512_srli_epi32((x), (n))
#define TERN(x, y, z, imm) _mm512_ternarylogic_epi32((x), (y), (z), (imm))
#define KB(t) _mm512_set1_epi32((int)fsha256_k[t])
#define FSHA2_BS0 2, 13, 22 /* Sigma0 = ROTR2 ^ ROTR13 ^ ROTR22 */
#define FSHA2_BS1 6, 11, 25
#define FSHA2_SS0 7, 18, 3 /* sigma0 = ROTR7 ^ ROTR18 ^ SHR3 */
#define FSHA2_SS1 17, 19, 10
/* bsig0, bsig1, ssig0, ssig1 and ROUND, as the SHA-512 AVX-512 kernels */
#include "../../sha2/sha2_lanes_avx512.h"
/* The round macros (SCHED, ROUNDS8, SROUNDS8) are the AVX2 kernels'; they
 * only name ADD, ROUND, ssig0 and ssig1, defined here for zmm. */
#include "../../sha2/sha2_lanes_avx2.h"

/* The shared block's W[t] + K[t], in every lane (WK_ROUNDS8). */
#define WK(t) _mm512_set1_epi32((int)wk[t])

/*
 * The kernel: @nblocks blocks of each lane's data, then, when @wk is not
 * NULL, one more block whose W[t] + K[t] are wk[t] in every lane (the
 * shared-block entry below). The shared block is rounds only: no load, no
 * transpose, no schedule (11 of a round's 28 operations), and one add in
 * place of two.
 */
static inline __attribute__((always_inline)) void
run(uint32_t (*state)[8], const uint8_t *const *data, size_t nblocks, const uint32_t *wk)
{
	__m512i s[16];

	/* Each lane's eight words, zero-extended to a 16-word row: the 16 x 16
	 * transpose then puts word j of the sixteen lanes in s[j], j < 8 (the
	 * rows 8..15 it also makes are zero and unused). Once per call. */
	for (int l = 0; l < 16; l++)
		s[l] = _mm512_zextsi256_si512(_mm256_loadu_si256((const __m256i *)state[l]));
	fsha_x16_transpose(s);

	for (size_t blk = 0; blk < nblocks; blk++) {
		__m512i w[16];
		__m512i a = s[0], b = s[1], c = s[2], d = s[3], e = s[4], f = s[5], g = s[6], h = s[7];

		fsha_x16_load_block(w, data, 64 * blk);
		ROUNDS8(0, 0);
		ROUNDS8(8, 8);
		for (int t = 16; t < 64; t += 16) {
			SROUNDS8(t, 0);
			SROUNDS8(t + 8, 8);
		}
		FEED8(s);
	}
	if (wk) {
		__m512i a = s[0], b = s[1], c = s[2], d = s[3], e = s[4], f = s[5], g = s[6], h = s[7];
		for (int t = 0; t < 64; t += 8)
			WK_ROUNDS8(t);
		FEED8(s);
	}

	fsha_x16_transpose(s);
	for (int l = 0; l < 16; l++)
		_mm256_storeu_si256((__m256i *)state[l], _mm512_castsi512_si256(s[l]));
}

static void lanes(uint32_t (*state)[8], const uint8_t *const *data, size_t nblocks)
{
	run(state, data, nblocks, NULL);
}

/* The shared-block entry (fsha256_lanes_wk_fn, backend.h run_lanes_shared). */
void fsha256_avx512_x16_lanes_wk(uint32_t (*state)[8], const uint8_t *const *data, size_t nblocks,
				 const uint32_t wk[64])
{
	run(state, data, nblocks, wk);
}

FSHA_LANES_BLOCKS(16, uint32_t, 8)

const struct fsha256_backend fsha256_backend_avx512_x16 = {
	{ "avx512_x16", FSHA_CPU_AVX512F | FSHA_CPU_AVX512BW, 16, FSHA_AUTO_MANY, 3, 11 }, blocks, lanes, NULL };
