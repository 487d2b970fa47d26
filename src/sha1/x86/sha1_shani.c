/* SPDX-License-Identifier: MIT */
/*
 * shani: SHA-1 with the x86 SHA extensions, in C intrinsics.
 * Needs SHA (sha1rnds4, sha1nexte, sha1msg1, sha1msg2), SSSE3 (pshufb for
 * the byte swap) and SSE4.1 (pextrd for E). Built with -msha -msse4.1
 * -mssse3 on this file only; the dispatch row asks for exactly those bits.
 *
 * Contract (sha1_impl.h): nblocks >= 1 whole 64-byte blocks at any
 * alignment (loadu only), nothing read outside them, state as H0..H4.
 *
 * Technique: the instruction sequence of SHA-Intrinsics (seed 003, after
 * Intel's and Sean Gulley's code): ABCD in one register with A in the top
 * lane, E riding in the top lane of the "E + W" operand, each sha1rnds4
 * doing four rounds, sha1nexte deriving the next E (rol 30 of the A that
 * entered the step before) and adding it to the next four W, and
 * sha1msg1 / xor / sha1msg2 producing W[t..t+3] from the four previous
 * groups. The sequence is written once, in sha1_shani.h, which the lane
 * kernels (sha1_shani_x2.c, sha1_shani_x4.c) share; this file runs it with
 * one lane. Moved there unchanged: 121.4 cycles per block in 64-block calls
 * and 132.9 in 1-block calls before and after, in the same runs.
 */
#include "sha1_shani.h"

/*
 * Speed (AMD EPYC, Zen 3, measured with a private harness timing 256-block
 * calls against a chain of dependent sha1rnds4 in the same run):
 *
 * - sha1rnds4 has a latency of 6 cycles from either operand (all four
 *   round functions) and issues every 2 cycles; sha1nexte and sha1msg2
 *   take about 1 cycle, sha1msg1 2. The
 *   20 sha1rnds4 of a block form one dependency chain (ABCD) and the block
 *   ends with the paddd of the saved ABCD, so 20 * 6 + 1 = 121 cycles per
 *   block (1.89 cycles/byte) is the floor for one message on this core,
 *   whatever the code around the chain does. This loop runs at that floor,
 *   121.2, as does OpenSSL 3's own SHA-NI loop.
 * - Everything else (loads, pshufb, the msg1/xor/msg2 schedule, nexte)
 *   hangs off the chain and the out-of-order core runs it in the gaps, as
 *   long as it comes early enough in program order: the schedule is
 *   computed one step before its W is added (each SCHED sits in front of
 *   the step before the one that uses it). Placed just in time, or left to
 *   GCC's scheduler, it cost 0.5 to 2.5 cycles per block. Since the loop
 *   is at the floor, unrolling two blocks or loading the next block early
 *   has nothing left to win for long messages (the next block's loads do
 *   not depend on the chain and already run early); a hand-scheduled
 *   inline-asm version of the whole loop measured the same 121.2 cycles and
 *   no better on 64-byte messages, so the intrinsics stay.
 * - Short messages are bound by the code around the calls, not by this
 *   loop: see finish() in sha1.c for how the padding block is written so
 *   that these 16-byte loads can forward from the store buffer.
 *
 * Testing: qemu-user 7.2 (TCG) does not emulate the SHA extensions, so
 * this runs only on real hardware; under qemu the tests report it skipped.
 */
static void blocks(uint32_t state[5], const uint8_t *data, size_t nblocks)
{
	fsha1_ni_blocks(state, data, nblocks);
}

/*
 * SHA1DC on this row: the loop above keeps what the filter and the check
 * need of each block (bytes 0 and 3 of the schedule words sha1msg2 made,
 * the states around steps 58 and 65), so the filter runs on those bytes
 * instead of expanding each block again, and a block that passes it is
 * checked from the kept states instead of being compressed again in scalar
 * code.
 */
#ifdef FSHA_HAVE_SHA1_PART_DC_SSE2
/*
 * SHA1DC's pipeline (fsha1dc_pipe_fn, sha1_impl.h; x86/sha1dc_pipe.h): the
 * filter of the chunk before run in pieces between this chunk's blocks, in
 * the gaps of the sha1rnds4 chain. Built here in legacy SSE, 16 blocks a
 * vector, for CPUs without AVX2; on those with it the AVX2 build (32 blocks
 * a vector, half the instructions) runs instead.
 */
#define FSHA1DC_PIPE_VB 16
#define FSHA1DC_PIPE_FN fsha1dc_pipe_shani_sse
#include "sha1dc_pipe.h"

static void pipe(uint32_t state[5], const uint8_t *data, struct fsha1dc_pipe *pp, size_t c)
{
#ifdef FSHA_HAVE_SHA1_PART_DC_PIPE_AVX2
	if (fsha_cpu_features() & FSHA_CPU_AVX2) {
		fsha1dc_pipe_avx2(state, data, pp, c);
		return;
	}
#endif
	fsha1dc_pipe_shani_sse(state, data, pp, c);
}

FSHA1_NI_DC_SINGLE(pipe);
#define DC_OPS (&dc_ops)
#else
#define DC_OPS NULL
#endif

/* HMAC-SHA1's end in registers (fsha_mac_end_fn). */
static void mac_end(void *w, const uint8_t *blocks, size_t n, const void *outer)
{
	fsha1_ni_mac_end(w, blocks, n, outer);
}

const struct fsha1_backend fsha1_backend_shani = { { "shani", FSHA_CPU_SHA | FSHA_CPU_SSE41 | FSHA_CPU_SSSE3, 1, 1, 0, 0 }, blocks, NULL, DC_OPS, mac_end };
