/* SPDX-License-Identifier: MIT */
/*
 * avx2: SHA-512 (and SHA-384, SHA-512/224, SHA-512/256) with the message
 * schedules of two consecutive blocks computed together, one block per
 * 128-bit half of a ymm register (two 64-bit words of each), and the
 * rounds in scalar code.
 * CPU features: AVX2 (256-bit integer ops; vpalignr and vpshufb work per
 * 128-bit lane, which is exactly one block per lane), BMI1 and BMI2 (andn
 * for Ch, rorx for the Sigmas). Its row requires all three.
 * Contract: src/sha512/sha512_impl.h (whole 128-byte blocks, nblocks >= 1,
 * any alignment, reads only [data, data + 128*nblocks)).
 *
 * Technique (Gulley et al., "Fast SHA-512 Implementations on Intel
 * Architecture Processors", Intel 2012; the plan of OpenSSL's AVX2+BMI
 * path in sha512-x86_64.pl, and of sha1_avx2.c here): W[t], W[t+1] of
 * block A and of block B share a ymm register, and W+K for both is stored
 * to one stack array sixteen rounds ahead of A's use. Block A's rounds
 * compute the whole schedule of the pair; block B's rounds then read their
 * half ready-made. A missing second block (odd count) rides in both lanes,
 * as in OpenSSL, so no load crosses the end. The rounds are the work: 22
 * integer operations each (6 of them rorx, which Zen 3 runs two a cycle,
 * measured, against four for add or xor), the vector schedule about 25 operations per two words of two
 * blocks beside them.
 *
 * On x86_64 the rounds and the schedule are inline assembly (see the
 * x86_64 section for why); i686 compiles the same plan from C.
 *
 * Measured (AMD EPYC Zen 3, 2 vCPUs under KVM, shared with other jobs;
 * GCC 12; OpenSSL 3.0.19 on its AVX2+BMI path via fastsha-bench, ours and
 * OpenSSL's alternating), as ratios to OpenSSL at 16 KiB. One line per
 * thing tried:
 * - C, GCC interleaving schedule and rounds: 0.96-0.97x when written,
 *   0.90-0.91x in the session of the assembly below (same machine, busier).
 * - C variants (schedule spread over both blocks, steps 2-5 at a time,
 *   16-byte W+K halves, four-deep e path, clang 14): 0.87-0.96x.
 * - Assembly, each vector piece after a round piece: 0.955x.
 * - Assembly, each vector piece before a round piece: 0.99x.
 * - Assembly, vectors all at the top or finer-grained: 0.93-0.97x.
 * - Assembly, plus the round order of the x86_64 section: 1.03-1.06x
 *   (1K 1.01-1.04x); ten other orders 0.91-1.00x. Those runs had the
 *   other vCPU busy; on a quiet machine (3 runs, C build alternating)
 *   0.96-0.98x against the C's 0.91x.
 * - The same with every register-to-register add of the rounds as lea
 *   (kept). Quiet machine, alternating with the previous file, in the
 *   runs where the host gave the vCPU its full speed: 16 KiB 1.04x
 *   (1.01-1.08x, 8 runs; previous 0.97x, 0.97-0.98x, 5 runs), 1K 1.03x
 *   (0.98x), 64 B 1.03x (1.02x), 1 MiB 1.06x (0.93-0.97x). lea only in
 *   the rounds without schedule (block B, A's last 16) 1.05x; only in the
 *   rounds with it 0.955x. In runs where the host slowed the whole vCPU
 *   (both sides at ~2/3 speed; it comes and goes by the minute) both
 *   files measure 0.93-0.97x. With sha512sum on the other vCPU: 16 KiB
 *   0.98x (0.95-1.06x, 5 runs), previous file 0.97x (0.92-0.98x).
 * - With lea, other round orders (random, dependency-respecting): six
 *   for the rounds with schedule 1.00-1.03x, four for those without
 *   0.94-1.03x. Without lea, Sigma1 first and d += h after it: 0.94x.
 *   sigma0 of the schedule step first, sigma1 last: 1.03x, no gain.
 *   Vector pieces after the round pieces 1.04x (this file 1.05x in the
 *   same runs), or crowded into the first round 1.03x (64 B 0.89x).
 * - Not kept: K doubled in a table for vpaddq from memory 0.92-0.94x;
 *   ror 8 as vpshufb 0.93x; one round per asm statement 0.91x; schedule
 *   spread over both blocks in assembly 0.89-0.93x; block B loop of 8
 *   rounds or unrolled 0.96x; 64-byte function alignment, no gain.
 */
#include <immintrin.h>

#include "../sha512_impl.h"

#define ROR fsha_ror64

/* With BMI2 each rotate is one rorx into a fresh register, so the three
 * rotates of a Sigma run in parallel. */
#define S1(e) (ROR(e, 14) ^ ROR(e, 18) ^ ROR(e, 41))
#define S0(a) (ROR(a, 28) ^ ROR(a, 34) ^ ROR(a, 39))
/* Ch with andn: the two terms share no bit, so + is |, and both adds fold
 * into the sum. */
#define CH(e, f, g) (((e) & (f)) + (~(e) & (g)))

/* After storing to arr, tell the compiler arr may have changed, so the
 * rounds read W+K with a plain load folded into an add (as in
 * sha1_x86_sched.h, where GCC otherwise extracted lanes from the vector). */
#define OPAQUE(arr) __asm__("" : "+m"(arr))

/*
 * One round with the variables in their places for round i. Maj(a, b, c)
 * is b ^ ((a ^ b) & (b ^ c)), where b ^ c is the previous round's a ^ b,
 * carried in bc.
 *
 * The new e is written as one sum, d + h + W+K + Ch + S1, and T1 for the
 * new a recovered as that minus the old d. GCC folds the subtraction
 * away again (the code is T1 = ...; e' = d + T1; a' = S0 + Maj + T1, 22
 * operations), but its reassociation then orders T1 as
 * ((h + W+K) + Ch) + S1, with S1, the last term to be ready, added last:
 * e to e' is five operations deep. Written as h += W+K + Ch + S1;
 * d += h, GCC 12 added h after S1 (six deep) and the backend measured
 * 0.93x OpenSSL instead of 0.96x.
 */
#define R(a, b, c, d, e, f, g, h, WK, i)                        \
	do {                                                    \
		uint64_t ab_, nd_ = -(d);                       \
		d += h + WK(i) + CH(e, f, g) + S1(e);           \
		ab_ = (a) ^ (b);                                \
		h = nd_ + d + S0(a) + ((b) ^ (ab_ & bc));       \
		bc = ab_;                                       \
	} while (0)

/* Eight rounds t0..t0+7 (t0 a multiple of 8, so the variables are back in
 * place at the end); HOOK(r) before every two, where the schedule runs. */
#define R8(t0, WK, HOOK)                                        \
	HOOK((t0));                                             \
	R(a, b, c, d, e, f, g, h, WK, (t0));                    \
	R(h, a, b, c, d, e, f, g, WK, (t0) + 1);                \
	HOOK((t0) + 2);                                         \
	R(g, h, a, b, c, d, e, f, WK, (t0) + 2);                \
	R(f, g, h, a, b, c, d, e, WK, (t0) + 3);                \
	HOOK((t0) + 4);                                         \
	R(e, f, g, h, a, b, c, d, WK, (t0) + 4);                \
	R(d, e, f, g, h, a, b, c, WK, (t0) + 5);                \
	HOOK((t0) + 6);                                         \
	R(c, d, e, f, g, h, a, b, WK, (t0) + 6);                \
	R(b, c, d, e, f, g, h, a, WK, (t0) + 7)

/* Sixteen rounds; the variables are back in place at the end. */
#define R16(WK, HOOK)           \
	do {                    \
		R8(0, WK, HOOK); \
		R8(8, WK, HOOK); \
	} while (0)

/*
 * The end of a block: add the chaining value, kept in hs[], a stack array
 * hidden from the optimiser, which leaves the registers to the rounds
 * (eight variables, bc and the Sigma temporaries fill the sixteen GPRs).
 */
#define FINISH()                        \
	do {                            \
		a += hs[0];             \
		b += hs[1];             \
		c += hs[2];             \
		d += hs[3];             \
		e += hs[4];             \
		f += hs[5];             \
		g += hs[6];             \
		h += hs[7];             \
		hs[0] = a;              \
		hs[1] = b;              \
		hs[2] = c;              \
		hs[3] = d;              \
		hs[4] = e;              \
		hs[5] = f;              \
		hs[6] = g;              \
		hs[7] = h;              \
		OPAQUE(hs);             \
	} while (0)

/* vpshufb's byte swap of each 64-bit word, for both lanes. */
static const uint8_t bswap64[32] __attribute__((aligned(32))) = {
	7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8,
	7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8,
};

/*
 * sigma0(x) = ror1 ^ ror8 ^ shr7 and sigma1(x) = ror19 ^ ror61 ^ shr6 on
 * 64-bit lanes. AVX2 has no vector rotate (vprorq is AVX-512), so each
 * rotate is a pair of shifts: five shifts and four xors, every shift
 * reading x, so they all issue at once. (ror8 as one vpshufb saves two
 * operations a step but measured no faster.)
 */
#define SHR _mm256_srli_epi64
#define SHL _mm256_slli_epi64
#define XOR _mm256_xor_si256

#if !defined(__x86_64__) /* x86_64 has them in assembly (VP1..VP8) */
static inline __attribute__((always_inline)) __m256i sig0(__m256i x)
{
	return XOR(XOR(XOR(SHR(x, 1), SHL(x, 63)), XOR(SHR(x, 8), SHL(x, 56))), SHR(x, 7));
}

static inline __attribute__((always_inline)) __m256i sig1(__m256i x)
{
	return XOR(XOR(XOR(SHR(x, 19), SHL(x, 45)), XOR(SHR(x, 61), SHL(x, 3))), SHR(x, 6));
}
#endif

/*
 * The schedule of a pair, two words of each block per step: step v holds
 * W[2v], W[2v+1] of block A (low lane) and block B (high lane), kept in
 * w[v & 7] (the last sixteen words, eight registers) and stored as W+K to
 * wk[4v..4v+3] (A's two words, then B's); K is broadcast to both lanes
 * from fsha512_k. The steps are written for i = v & 7 with the destination
 * dst = &wk[4v] and kp = &fsha512_k[2v] passed in, so a loop over sixteen
 * rounds keeps every register index constant.
 */
#define STORE_WK(x, dst, kp)                                                                   \
	do {                                                                                   \
		_mm256_store_si256((__m256i *)(dst),                                           \
				   _mm256_add_epi64((x), _mm256_broadcastsi128_si256(          \
								 _mm_loadu_si128((const __m128i *)(kp))))); \
		OPAQUE(wk);                                                                    \
	} while (0)

/* Steps 0..7: a 16-byte piece of each block, byte-swapped. */
#define LOAD(i, pa, pb)                                                                        \
	do {                                                                                   \
		__m256i x_ = _mm256_inserti128_si256(                                          \
			_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)((pa) + 16 * (i)))), \
			_mm_loadu_si128((const __m128i *)((pb) + 16 * (i))), 1);               \
		x_ = _mm256_shuffle_epi8(x_, _mm256_load_si256((const __m256i *)bswap64));     \
		w[i] = x_;                                                                     \
		STORE_WK(x_, &wk[4 * (i)], &fsha512_k[2 * (i)]);                               \
	} while (0)

/*
 * Steps 8..39: W[t] = sigma1(W[t-2]) + W[t-7] + sigma0(W[t-15]) + W[t-16]
 * for t = 2v and 2v+1 at once. With two words to a vector W[t+1] needs
 * W[t-1], not W[t], so no word depends on another of its own vector (the
 * fix-up SHA-256's four-word vectors need does not arise).
 */
#define SCHED(i, dst, kp)                                                                      \
	do {                                                                                   \
		__m256i x_ = _mm256_add_epi64(w[(i) & 7], sig1(w[((i) + 7) & 7]));            \
		x_ = _mm256_add_epi64(x_, _mm256_alignr_epi8(w[((i) + 5) & 7], w[((i) + 4) & 7], 8)); \
		x_ = _mm256_add_epi64(x_, sig0(_mm256_alignr_epi8(w[((i) + 1) & 7], w[(i) & 7], 8))); \
		w[(i) & 7] = x_;                                                               \
		STORE_WK(x_, (dst), (kp));                                                     \
	} while (0)

/* W+K of round i of sixteen, for block A (q = &wk[32j] in rounds 16j..)
 * and block B (q = &wk[32j + 2]). */
#define WKQ(i) (q[4 * ((i) / 2) + (i) % 2])
/* Block A's rounds 16j..16j+15 (j 0..3) compute steps 8j+8..8j+15, sixteen
 * rounds before A reads them (B reads them later still). */
#define HOOK_SCHED(r) SCHED((r) / 2, q + 32 + 4 * ((r) / 2), kq + 16 + 2 * ((r) / 2))
#define HOOK_NONE(r) ((void)0)

/* x86_64: the rounds and the schedule steps as inline assembly, in
 * sha512_avx2.h (why assembly: its comments). */
#include "sha512_avx2.h"

/*
 * Loops of sixteen rounds, not the 160 of a pair unrolled: unrolled, the
 * pair was about 4900 instructions, more than Zen 3's op cache holds, and
 * ran at 0.81x OpenSSL, at the legacy decoders' pace.
 *
 * What else was tried is in the head comment. (For the C form: the speed
 * moved by several percent with small changes to the code GCC emits
 * around the rounds; restating q = wk + 128 below, which q already
 * holds, took it from 0.95x to 0.97x.)
 */
static inline __attribute__((always_inline)) void blocks_of(const int vl, uint64_t state[8],
							      const uint8_t *data, size_t nblocks)
{
	__m256i w[8];
	uint64_t wk[160] __attribute__((aligned(32)));
	uint64_t *q;
	const uint64_t *kq;
	const uint8_t *nb;
	uint64_t a = state[0], b = state[1], c = state[2], d = state[3];
	uint64_t e = state[4], f = state[5], g = state[6], h = state[7];
	uint64_t hs[8] = { a, b, c, d, e, f, g, h };
	uint64_t bc;

	for (;;) {
		/* The pair's first sixteen words; a lone last block rides in
		 * both lanes (its schedule is computed twice, on vector units
		 * the rounds leave idle). */
		nb = nblocks > 1 ? data + 128 : data;
		LOAD(0, data, nb);
		LOAD(1, data, nb);
		LOAD(2, data, nb);
		LOAD(3, data, nb);
		LOAD(4, data, nb);
		LOAD(5, data, nb);
		LOAD(6, data, nb);
		LOAD(7, data, nb);

		/* Block A: rounds 0..63 with the schedule, then 64..79. */
		bc = b ^ c;
#if defined(__x86_64__)
		for (q = wk, kq = fsha512_k; q < wk + 128; q += 32, kq += 16)
			if (vl)
				A16(U2V);
			else
				A16(U2S);
		q = wk + 128;
		A16(U2);
#else
		(void)vl; /* i686: the C rounds and schedule only */
		for (q = wk, kq = fsha512_k; q < wk + 128; q += 32, kq += 16)
			R16(WKQ, HOOK_SCHED);
		q = wk + 128;
		R16(WKQ, HOOK_NONE);
#endif
		FINISH();
		if (nblocks == 1)
			break;

		/* Block B: its W+K is all in place. */
		bc = b ^ c;
		for (q = wk + 2; q < wk + 160; q += 32)
#if defined(__x86_64__)
			A16(U2);
#else
			R16(WKQ, HOOK_NONE);
#endif
		FINISH();
		if (nblocks == 2)
			break;
		nblocks -= 2;
		data += 256;
	}
	state[0] = a;
	state[1] = b;
	state[2] = c;
	state[3] = d;
	state[4] = e;
	state[5] = f;
	state[6] = g;
	state[7] = h;
}

static void blocks(uint64_t state[8], const uint8_t *data, size_t nblocks)
{
	blocks_of(0, state, data, nblocks);
}

const struct fsha512_backend fsha512_backend_avx2 = { { "avx2", FSHA_CPU_AVX2 | FSHA_CPU_BMI1 | FSHA_CPU_BMI2, 1, 1, 0, 0 }, blocks, NULL };

/*
 * avx2_vl: the same with each schedule step on AVX-512VL's vprorq and
 * vpternlogq (sha512_avx2.h, U2V: 14 vector operations a step against
 * U2S's 24), for Intel's cores, whose vector and scalar operations share
 * the ALU ports that the rounds fill. Needs AVX-512F and VL besides
 * avx2's bits; x86_64 only, and not in the SIMDe build (cmake/
 * backends.cmake), where the library reports AVX-512 on CPUs without it.
 */
#if defined(FSHA_HAVE_SHA512_AVX2_VL)
static void blocks_vl(uint64_t state[8], const uint8_t *data, size_t nblocks)
{
	blocks_of(1, state, data, nblocks);
}

const struct fsha512_backend fsha512_backend_avx2_vl = {
	{ "avx2_vl",
	  FSHA_CPU_AVX2 | FSHA_CPU_BMI1 | FSHA_CPU_BMI2 | FSHA_CPU_AVX512F | FSHA_CPU_AVX512VL, 1, 1,
	  0, 0 },
	blocks_vl, NULL
};
#endif
