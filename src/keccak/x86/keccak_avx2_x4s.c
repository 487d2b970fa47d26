/* SPDX-License-Identifier: MIT */
/*
 * avx2_x4s: avx2_x4's kernel (keccak_avx2_x4.c, whose head comment gives
 * the contract, the layout and the technique) with rotates that spend
 * fewer vector shifts, for CPUs where shifts are the scarce pipe. Needs
 * AVX2 only (-mavx2). A rotate by 8k + r with r in 1..3 is a byte rotate
 * by k (vpshufb; none when k is 0) and a rotate by r whose left shift is
 * r doublings (vpaddq of a lane with itself): one shift where avx2_x4
 * spends two. Nine of a round's 24 rho rotates take this form (by 2, 3,
 * 10, 18, 25, 27, 41, 43 and, as in avx2_x4, 1), so a round has 40
 * shifts instead of 48, for 15 more adds and shuffles.
 *
 * Why, and why Zen 2 only. On AMD EPYC Zen 2 (family 23 model 49, KVM,
 * 2026-12-05), loops of independent ymm ops (thread CPU time against a
 * dependent-add clock) ran vpsllq at 1 a cycle, vpandn / vpxor / vpor at
 * 4, vpaddq at 3, vpshufb and vpshufd at 2, vpmuludq at 1; a vpsllq with
 * a 32-byte store at half a pair a cycle, with a vpshufd or a vpmuludq at
 * one pair, two vpshufd with a vpsllq at two thirds of a triple: stores
 * and shifts share one pipe, and shuffles use it or one other. avx2_x4's
 * loop (two rounds) is 96 shifts and 37 stores (GCC keeps part of the
 * state in registers across it), about 67 ops a round on that pipe, and
 * it ran at about 82 cycles a round against 46 for its 185 ops at four
 * pipes. This form's loop is 80 shifts, 38 stores and 18 byte shuffles:
 * about 63 a round there, 10% faster overall, more than that count
 * explains (no cycle counters here to say the rest). avx2_x4 stays the
 * choice everywhere else: its Zen 3 figures (in its file) put its round
 * near its op count, which this form raises by 8%; not measured on any
 * other CPU.
 *
 * Measured there (GCC 12.2 -O3; fastsha-bench --sha3 --reps 9, this row
 * as the automatic choice against FASTSHA_BACKEND=keccak:avx2_x4, three
 * alternating runs each, flock and nice -20; medians, ratios to OpenSSL
 * 3.0.22 in the same runs; bench/results/zen2-2026-12-05-x4s.txt):
 *
 *                                          avx2_x4s   avx2_x4   gain
 *   SHA3-256, 1,024 x 4 KiB               4.550 ms   5.026 ms   1.10x (2.74x / 2.50x OpenSSL)
 *   SHAKE128, 1,024 x 34 B -> 504 B        514 us     550 us    1.07x (3.71x / 3.43x)
 *   KangarooTwelve, 1 MiB (leaves)         484 us     533 us    1.10x (5.87x / 5.30x SHA3-256)
 *   Keccak-256, 1,024 x 64 B               182 us     195 us    1.07x (5.65x / 5.27x)
 *
 * Candidates measured with it (SHA3-256 of 1,024 x 4 KiB, two alternating
 * runs, against avx2_x4): the form for r = 1 only 1.03-1.04x, r <= 2
 * 1.06-1.08x, r <= 4 1.03x (four 4-add chains cost more than the shifts
 * they save); on top of r <= 3, the other half of more rotates as a
 * vpmuludq by 2^m between dword swaps (a 32 x 32 product and vpshufd
 * make a 64-bit rotate's bits that cross the halves): 0.98-0.99x of this
 * form for the 7 rotates by 33 or more, 0.93-0.94x with 6 below 32 too,
 * 0.80-0.83x for the 14 add-form rotates instead: the multiply's pipe is
 * idle, but each swap is a shuffle and shuffles share the shift pipe.
 * Variable shifts (vpsllvq, vpsrlvq) run at one every two cycles but not
 * on the shift pipe (a vpsllvq with a vpsllq or a store still made half a
 * pair a cycle); taking the left shift of 4, 8 or all 13 two-shift
 * rotates there gave 0.99x, 0.97x and 0.88x this form's ratio to OpenSSL
 * (two runs each; the machine was busier), and the right shifts of the
 * add-form rotates too 0.81x. The parities re-read from the lanes at each
 * round's start instead of summed as chi writes them (five registers
 * freed for lanes, so perhaps fewer stores), 2026-12-05, two alternating
 * runs of --reps 7: SHA3-256 1,024 x 4 KiB 0.95-0.99x, SHAKE128 rows
 * 0.97x, KangarooTwelve 0.97-0.99x of this form (on Zen 3 avx2_x4 lost
 * 3% the same way); its object had as many ymm stores as this one's (263).
 * min_lanes 2, as avx2_x4: a call costs the same with 2 live lanes as
 * with 4, about 4 x 143 ns a block (the first row above), against 350 ns
 * a block and message on bmi2 (SHA3-256 of 16 KiB, the same runs).
 * fastsha-bench --many -a sha3-256 --n 1,2,3,4,5,8,1024 --sizes 64,4K
 * --reps 5 (one run, the host busy from n = 5 on; ratios in-run), many
 * against our one-shot loop on bmi2: n = 2 1.25x at 4 KiB and 1.11x at
 * 64 B, n = 3 1.87x / 1.60x, n = 4 2.48x / 1.99x, 1,024 2.85x / 2.09x.
 */
#define FSHA_X4_FEW_SHIFTS 1
#include "keccak_avx2_x4.c"
