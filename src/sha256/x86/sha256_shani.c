/* SPDX-License-Identifier: MIT */
/*
 * shani: SHA-256 (and SHA-224) with the x86 SHA extensions, in C
 * intrinsics. Needs SHA (sha256rnds2, sha256msg1, sha256msg2) and SSSE3
 * (pshufb for the byte swap, palignr in the schedule); unlike sha1_shani.c
 * no SSE4.1, since the state split uses shufps. Built with -msha -mssse3
 * on this file only; the dispatch row asks for exactly those bits.
 *
 * Contract (sha256_impl.h): nblocks >= 1 whole 64-byte blocks at any
 * alignment (loadu only), nothing read outside them, state as H0..H7; the
 * ABEF/CDGH split sha256rnds2 wants is made and undone inside each call.
 *
 * Technique: the instruction sequence of SHA-Intrinsics (seed 003, after
 * Intel's and Sean Gulley's code), written as the helpers in
 * sha256_shani.h so the lane kernels share it: two sha256rnds2 per four
 * rounds with W+K in the implicit xmm0 operand, and sha256msg1 / palignr +
 * paddd / sha256msg2 producing W[t..t+3] from the four previous groups.
 */
#include "sha256_shani.h"

/*
 * Speed (AMD EPYC, Zen 3, about 3.1 GHz; measured with a private harness
 * timing 256-block calls against a chain of dependent sha256rnds2 in the
 * same run, the clock estimated from a dependent-add loop, medians of 31
 * rounds, three runs):
 *
 * - sha256rnds2 has a latency of 4 cycles from either state operand and
 *   issues every cycle (four independent chains: 1.03 cycles each);
 *   sha256msg1 takes 2 cycles, sha256msg2 3 (and issues every 2). The 32
 *   sha256rnds2 of a block form one dependency chain (each one's output is
 *   the next one's ABEF operand) and the block ends with the paddd of the
 *   saved ABEF, so 32 * 4 + 1 = 129 cycles per block (2.016 cycles/byte)
 *   is the floor for one message on this core. This loop runs at 129.3 to
 *   129.5 (2.02 c/B), 0.2 to 0.4% over it.
 * - The schedule is off the chain: a group of W is ready 2 + 1 + 3 cycles
 *   after the groups it needs and a quad of rounds takes 8, so each group
 *   is computed in front of the quad before the one that uses it and the
 *   out-of-order core does the rest. Placing every group just before its
 *   own quad measured the same, within the 0.5% noise of this shared
 *   machine, so unlike sha1_shani.c no scheduling barrier is needed.
 * - Whole 16 KiB messages through the engine (src/core/md.h, 256 blocks in
 *   one call and the padding block in another) run at 1548 to 1571 MB/s,
 *   against 1544 to 1569 MB/s for OpenSSL 3.0's SHA256_Init/Update/Final
 *   (its SHA-NI loop) alternating on the same buffer in the same runs:
 *   1.001x to 1.007x, medians of per-round ratios. Both loops sit at the
 *   floor, so for long messages parity is all there is to have from one
 *   stream; more needs the lane kernels (four streams fill the 4-cycle
 *   latency at one sha256rnds2 per cycle).
 * - Each call costs about 12 cycles beyond its blocks: the state
 *   load/split and join/store, which are on the chain at both ends. The
 *   split with shufps (one instruction per operand) instead of pshufd +
 *   palignr / pblendw took 2 cycles off that; 64-byte one-shots run 1.13x
 *   to 1.16x OpenSSL's.
 *
 * Testing: qemu-user 7.2 (TCG) does not emulate the SHA extensions, so
 * this runs only on real hardware; under qemu the tests report it skipped.
 */
static void blocks(uint32_t state[8], const uint8_t *data, size_t nblocks)
{
	__m128i abef, cdgh;

	fsha256_ni_load_state(state, &abef, &cdgh);
	do {
		const __m128i abef_save = abef, cdgh_save = cdgh;
		__m128i w0 = fsha256_ni_load_w(data, 0);
		__m128i w1 = fsha256_ni_load_w(data, 1);
		__m128i w2 = fsha256_ni_load_w(data, 2);
		__m128i w3 = fsha256_ni_load_w(data, 3);

		FSHA256_NI_QUAD(abef, cdgh, w0, 0);
		FSHA256_NI_QUAD(abef, cdgh, w1, 1);
		FSHA256_NI_SCHED(w0, w1, w2, w3); FSHA256_NI_QUAD(abef, cdgh, w2, 2); /* W[16..19] */
		FSHA256_NI_SCHED(w1, w2, w3, w0); FSHA256_NI_QUAD(abef, cdgh, w3, 3);
		FSHA256_NI_SCHED(w2, w3, w0, w1); FSHA256_NI_QUAD(abef, cdgh, w0, 4);
		FSHA256_NI_SCHED(w3, w0, w1, w2); FSHA256_NI_QUAD(abef, cdgh, w1, 5);
		FSHA256_NI_SCHED(w0, w1, w2, w3); FSHA256_NI_QUAD(abef, cdgh, w2, 6);
		FSHA256_NI_SCHED(w1, w2, w3, w0); FSHA256_NI_QUAD(abef, cdgh, w3, 7);
		FSHA256_NI_SCHED(w2, w3, w0, w1); FSHA256_NI_QUAD(abef, cdgh, w0, 8);
		FSHA256_NI_SCHED(w3, w0, w1, w2); FSHA256_NI_QUAD(abef, cdgh, w1, 9);
		FSHA256_NI_SCHED(w0, w1, w2, w3); FSHA256_NI_QUAD(abef, cdgh, w2, 10);
		FSHA256_NI_SCHED(w1, w2, w3, w0); FSHA256_NI_QUAD(abef, cdgh, w3, 11);
		FSHA256_NI_SCHED(w2, w3, w0, w1); FSHA256_NI_QUAD(abef, cdgh, w0, 12);
		FSHA256_NI_SCHED(w3, w0, w1, w2); FSHA256_NI_QUAD(abef, cdgh, w1, 13); /* W[60..63] */
		FSHA256_NI_QUAD(abef, cdgh, w2, 14);
		FSHA256_NI_QUAD(abef, cdgh, w3, 15);

		abef = _mm_add_epi32(abef, abef_save);
		cdgh = _mm_add_epi32(cdgh, cdgh_save);
		data += 64;
	} while (--nblocks);
	fsha256_ni_store_state(state, abef, cdgh);
}

/* HMAC-SHA256's end in registers (fsha_mac_end_fn). */
static void mac_end(void *w, const uint8_t *blocks, size_t n, const void *outer)
{
	fsha256_ni_mac_end(w, blocks, n, outer);
}

const struct fsha256_backend fsha256_backend_shani = {
	{ "shani", FSHA_CPU_SHA | FSHA_CPU_SSSE3, 1, 1, 0, 0 }, blocks, NULL, mac_end };
