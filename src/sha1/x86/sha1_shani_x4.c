/* SPDX-License-Identifier: MIT */
/*
 * shani_x4: SHA-1 of four independent messages at once with the x86 SHA
 * extensions, in C intrinsics. Needs SHA, SSE4.1 and SSSE3 like
 * sha1_shani.c (-msha -msse4.1 -mssse3 on this file only).
 *
 * Contract: that of sha1_shani_x2.c with 4 lanes: lanes(state, data,
 * nblocks) advances the 4 distinct state rows (H0..H4, host order) by the
 * same nblocks >= 1, lane i reading exactly data[i][0 .. 64*nblocks) at
 * any alignment and nothing else; pointers may be equal; no padding, no
 * heap, no globals written. blocks() is sha1_shani.c's single-stream loop.
 *
 * Technique: the sha1_shani.h rounds with every step issued for the four
 * lanes in turn (fsha1_ni_block with L = 4). On Zen 3 sha1rnds4 has a
 * latency of 6 cycles and the SHA unit takes one every 2 (40 cycles a
 * block at best), so three chains would fill it exactly; in practice any
 * delay on one of them is lost, and the fourth gives the out-of-order core
 * the slack it needs (x3 58.6, x4 51.7 below). 16 xmm registers do not
 * hold four lanes' state and schedule, so the compiler keeps some schedule
 * words on the stack; an inline-asm x4 with the schedule in memory on
 * purpose and no compiler spills measured 56 cycles a block, slower than
 * this C, and 50 with the schedule left out: the chains alone do not reach
 * the bound either.
 *
 * Speed (AMD EPYC, Zen 3, 2 vCPUs under KVM, about 3.1 GHz, GCC 12.2 -O3;
 * a private harness timing the kernels against OpenSSL 3.0's SHA1() in the
 * same runs, cycles from a dependent-add loop, best of 120 samples per
 * run, medians of 22 runs in two batches; aggregate cycles per 64-byte
 * block of message data, all lanes together; in brackets the best run:
 * the throughput-bound kernels lose up to 20% while the machine's other
 * vCPU is busy, the latency-bound single stream does not):
 *
 *                  4 KiB msg      64-block calls  1-block calls
 *   shani          123.4          121.4           132.9
 *   shani_x2        64.6 (63.6)    63.7 (62.6)     70.6 (69.4)
 *   shani_x3        58.6 (57.4)    57.9 (56.5)     62.5 (60.5)   not kept
 *   shani_x4        51.7 (50.7)    50.9 (50.1)     54.6 (53.3)
 *   OpenSSL SHA1()  144.1 (141.9) on the same 4 KiB messages
 *
 * "4 KiB msg" is a 64-block call plus the padding block as a 1-block
 * call, what the scheduler does for a 4 KiB message, against OpenSSL's
 * whole SHA1(). x4 (medians of the per-run ratios): 2.38x the single
 * stream, 2.78x OpenSSL's SHA1() loop, 2.41x its SHA1_Init/Update/Final
 * (124.3); 3.9 GB/s against 1.6. x3 (the same code with L = 3) was slower
 * than x4 in every run, so it is not kept. With only two messages live, x4
 * spends about 102 cycles a block on them, still ahead of the single
 * stream but not of sha1_shani_x2.c.
 *
 * Wider by mixing units (2026-11-23, scratch kernels, same method, 7 runs):
 * the integer ALUs sit idle here, so a fifth lane in scalar code was
 * interleaved with the four SHA-NI lanes (4 scalar rounds per sha1rnds4
 * step). Best variant 65.7 cycles a block against 53.0 for this file in
 * the same runs (1.23x slower); others 71-86, and 4 + 2 scalar lanes 106.
 * The bound is issue width, not execution units: this loop is 670
 * instructions per 4 blocks (3.2 per cycle), a scalar block 855-996, and
 * 46 cycles a block over 5 lanes would need 6.6 per cycle where Zen 3
 * dispatches at most 6 (the hybrids ran at 4.9-5.1). Four more lanes on
 * 128-bit vectors: 88.5 (the vector pipes are shared with the SHA unit);
 * on 256-bit AVX2 in the same loop: thousands of cycles a block, since
 * every legacy-SSE sha1rnds4 next to a dirty upper ymm half costs about
 * 260 cycles on this KVM Zen 3 (docs/adding-a-backend.md). Not kept.
 *
 * Zen 2 (AMD EPYC family 17h model 31h, 2 vCPUs under KVM, 2026-12-05):
 * this row and shani_x2 yield to avx2_x8 (sha1_backends.c), and stay its
 * narrower steps. Batches
 * of 1,024 through fastsha_many(), sha1_avx2_x8.c pinned against this row
 * (fastsha-bench --many --n 8,64,1024, one process each, in turn): 1.24-
 * 1.30x at 1-16 KiB (4 KiB: 3,085 against 2,471 MB/s), 1.06-1.07x at 64
 * B from 64 messages, 1.06x for 8 of 64 B; SHA1DC batches 1.00-1.04x;
 * PBKDF2 of 16 passwords 1.06x, HMAC batches level. One message stays on
 * sha1_shani.c (1.86 cycles a byte there, avx2 3.33): Zen 2's SHA-NI is
 * fast for one chain but gains 1.5x from four, not Zen 3's 2.4x.
 */
#include "sha1_shani.h"

static void blocks(uint32_t state[5], const uint8_t *data, size_t nblocks)
{
	fsha1_ni_blocks(state, data, nblocks);
}

static void lanes(uint32_t (*state)[5], const uint8_t *const *data, size_t nblocks)
{
	fsha1_ni_lanes(4, state, data, nblocks);
}

/*
 * SHA1DC batches on this row: the lanes keep each block's record (as
 * sha1_shani.c's single stream does), so the filter runs on the records
 * after the kernel instead of on the blocks before it (no second message
 * schedule), and a flagged block is checked from its record.
 */
FSHA1_NI_DC_OPS(4);

const struct fsha1_backend fsha1_backend_shani_x4 = {
	{ "shani_x4", FSHA_CPU_SHA | FSHA_CPU_SSE41 | FSHA_CPU_SSSE3, 4, FSHA_AUTO_MANY, 0, 0 }, blocks,
	lanes, FSHA1_NI_DC_OPS_PTR, NULL };
