/* SPDX-License-Identifier: MIT */
/*
 * avx2: SHA-256 with the message schedules of two consecutive blocks
 * computed together, one block per 128-bit half of a ymm register, and the
 * rounds in scalar code with BMI1/BMI2.
 * CPU features: AVX2 (256-bit integer ops; vpshufb, vpalignr, vpshufd and
 * the shifts work per 128-bit lane, which is exactly one block per lane),
 * BMI1 (andn for Ch) and BMI2 (rorx: each Sigma is three rotates into fresh
 * registers). Its row requires all three.
 * Contract: src/sha256/sha256_impl.h (whole blocks, nblocks >= 1, any
 * alignment, reads only [data, data + 64*nblocks)).
 *
 * Technique: Gulley et al., "Fast SHA-256 Implementations on Intel
 * Architecture Processors" (Intel, 2012), the AVX2/rorx variant that
 * OpenSSL's sha512-x86_64.pl also uses: the schedule of sha256_x86_sched.h
 * on ymm registers, which halves the SIMD work per block. During block A's
 * rounds 0..47 the schedule of both blocks runs sixteen rounds ahead of A,
 * storing W+K for A (low lane) and B (high lane) into one stack array;
 * block B's rounds then read their half ready-made, and its last sixteen
 * rounds load and byte-swap the next pair's first sixteen words. Each block
 * is loaded with its own 128-bit load; a missing second block (odd count,
 * or a lone block) or a missing next pair reuses a block already in the
 * input, so no load ever crosses the end. On x86_64 the rounds are inline
 * asm in an order chosen by measurement (see FSHA256_RA); elsewhere
 * (i686) they are the C rounds of sha256_x86_sched.h.
 *
 * Measured on the project's machine (AMD EPYC, Zen 3, 2 vCPUs under KVM,
 * ~3.0 GHz, shared with other work; GCC 12.2 -O3), as the ratio of speeds
 * to OpenSSL 3.0.19's AVX2+BMI path, both alternating in one process:
 * - C rounds (GCC's order), schedule in two bursts: 0.93-0.95 at 16 KiB.
 * - schedule left out: 0.98; so the rounds, not the SIMD work, were short.
 * - asm rounds, Sigma0 added at the start of the next round: 0.89 at
 *   first, because GCC then gathered each schedule step into one burst
 *   between two rounds; with each piece pinned before its round
 *   (FSHA256_PIN) 0.97-0.99.
 * - the order of the asm round: 0.89 to 1.07 over ~20 orders. The one
 *   kept, fastsha-bench medians of 7 runs (C version in the same session
 *   in brackets): 1 KiB 1.046 (0.944), 16 KiB 1.059 (0.942), 1 MiB 1.064
 *   (0.946); 64 B 1.00 (0.92) over 5 runs.
 * - with it, the schedule left out: +1-3%; so moving part of it into B's
 *   rounds (software pipelining) can win little and was not tried.
 * - the 4-cycle e path (e' = d + partial T1 + Sigma1, one add more): -5%.
 * - the schedule in 2 or 8 pieces instead of 4: -2.5%, +-0.
 * - K pre-duplicated for both lanes (no vbroadcasti128): +-0.
 * - a lone block through this code (B lane idle) rather than the 128-bit
 *   kernel: +6-10% at one block.
 */
#include "sha256_x86_sched.h"

/* The 128-bit schedule functions of sha256_x86_sched.h on 256-bit vectors:
 * low lane block A, high lane block B. */
static inline __attribute__((always_inline)) __m256i fsha256_x86_sig0_256(__m256i x)
{
	__m256i r7 = _mm256_srli_epi32(x, 7), l14 = _mm256_slli_epi32(x, 14);
	__m256i s = _mm256_xor_si256(_mm256_srli_epi32(x, 3), r7);

	s = _mm256_xor_si256(s, l14);
	s = _mm256_xor_si256(s, _mm256_srli_epi32(r7, 11));
	return _mm256_xor_si256(s, _mm256_slli_epi32(l14, 11));
}

static inline __attribute__((always_inline)) __m256i fsha256_x86_sig1_256(__m256i y)
{
	__m256i s = _mm256_xor_si256(_mm256_srli_epi64(y, 17), _mm256_srli_epi64(y, 19));

	return _mm256_xor_si256(s, _mm256_srli_epi32(y, 10));
}

static inline __attribute__((always_inline)) __m256i fsha256_x86_part2_256(__m256i t)
{
	const __m256i hi = _mm256_load_si256((const __m256i *)fsha256_x86_hi);

	return _mm256_add_epi32(t, _mm256_shuffle_epi8(fsha256_x86_sig1_256(_mm256_shuffle_epi32(t, 0x50)), hi));
}

/*
 * The pair's schedule: W of block A in the low lane, of block B in the
 * high lane, W+K for W[4v..4v+3] into wk[8v..8v+7] (A's four words, then
 * B's); K is broadcast to both lanes from fsha256_k. FSHA256_SCHED256(r)
 * runs before round t+r of block A's loop over rounds t..t+15 (t = 0, 16,
 * 32). Rounds t+r..t+r+3 (r = 0, 4, 8, 12) compute W[t+16+r..+3] of both
 * blocks in four pieces of 3 to 10 vector instructions, one before each
 * round: sigma0; W[-16] + W[-7] + sigma0 plus the first sigma1; the second
 * sigma1; W+K stored. FSHA256_LOAD256(r) runs before block B's round 48+r
 * and loads the next pair's W[r..r+3] from na and nb into slots that B's
 * rounds 0..15 have finished reading.
 *
 * FSHA256_PIN: against the asm rounds below, GCC gathered a whole step of
 * the schedule into one burst of ~30 vector instructions between two
 * rounds. An empty volatile asm that claims to change a vector keeps the
 * code that computes it after the previous pin and before the next round,
 * so each piece stays where it was written: 1-3% faster than unpinned.
 * Four pieces measured 2.5% faster than two (the 128-bit code's split);
 * eight were no better than four.
 */
#define FSHA256_PIN(v) __asm__ volatile("" : "+x"(v))
#define FSHA256_STORE256(dst, k, x)                                                          \
	do {                                                                                 \
		_mm256_store_si256((__m256i *)(dst),                                         \
				   _mm256_add_epi32((x), _mm256_broadcastsi128_si256(         \
								 _mm_loadu_si128((const __m128i *)(k))))); \
		FSHA256_OPAQUE(wk);                                                          \
	} while (0)
#define FSHA256_SCHED256(r)                                                                  \
	do {                                                                                 \
		__m256i *x_ = &w[(r) / 4];                                                   \
		switch ((r) % 4) {                                                           \
		case 0:                                                                      \
			FSHA256_PIN(*x_);                                                    \
			ws = fsha256_x86_sig0_256(_mm256_alignr_epi8(w[((r) / 4 + 1) & 3], *x_, 4)); \
			FSHA256_PIN(ws);                                                     \
			break;                                                               \
		case 1:                                                                      \
			wt = _mm256_add_epi32(_mm256_add_epi32(*x_, ws),                     \
					      _mm256_alignr_epi8(w[((r) / 4 + 3) & 3],       \
								 w[((r) / 4 + 2) & 3], 4));  \
			wt = _mm256_add_epi32(wt, _mm256_shuffle_epi8(                       \
				fsha256_x86_sig1_256(_mm256_shuffle_epi32(w[((r) / 4 + 3) & 3], 0xfa)), \
				_mm256_load_si256((const __m256i *)fsha256_x86_lo)));        \
			FSHA256_PIN(wt);                                                     \
			break;                                                               \
		case 2:                                                                      \
			*x_ = fsha256_x86_part2_256(wt);                                     \
			FSHA256_PIN(*x_);                                                    \
			break;                                                               \
		default:                                                                     \
			FSHA256_STORE256(p + 32 + 2 * ((r) - 3), kp + (r) - 3, *x_);         \
			break;                                                               \
		}                                                                            \
	} while (0)
#define FSHA256_LOAD256(r)                                                                   \
	do {                                                                                 \
		if ((r) % 4 == 0) {                                                          \
			__m256i x_ = _mm256_inserti128_si256(                                \
				_mm256_castsi128_si256(                                      \
					_mm_loadu_si128((const __m128i *)(na + 4 * (r)))),   \
				_mm_loadu_si128((const __m128i *)(nb + 4 * (r))), 1);        \
			x_ = _mm256_shuffle_epi8(x_, _mm256_load_si256((const __m256i *)fsha256_x86_bswap)); \
			w[(r) / 4] = x_;                                                     \
			FSHA256_STORE256(wk + 2 * (r), fsha256_k + (r), x_);                 \
		}                                                                            \
	} while (0)

#ifdef __x86_64__
/*
 * One round in extended inline asm, the project's exception to C: the
 * same 22 operations and two copies as FSHA256_R of sha256_x86_sched.h,
 * but GCC reorders those freely, and on Zen 3 the order decides how well
 * the out-of-order core overlaps the e and a chains of successive rounds.
 * Measured in one process, alternating with OpenSSL 3.0's AVX2 path on
 * 16 KiB: GCC's order 0.95-0.96x; this order 1.05-1.07x; of 20 other
 * orders tried, none better and several 5-10% worse (e.g. the Sigma0
 * rotates right after Sigma1's: -11%; Maj before Sigma0: -4%).
 *
 * The order: h += K+W, Sigma1's rotates of e and Ch as andn + and, all
 * added into h (the Ch terms share no bit, so + is |); then a completed
 * by the Sigma0 deferred from the previous round, Sigma0(a) started, d +=
 * h (d becomes e), Maj = b ^ ((a ^ b) & bc) with bc = b ^ c the previous
 * round's a ^ b, and h += Maj last. Sigma0(a) stays in s0 until the next
 * round adds it to its a (this h). ab and bc trade registers every round
 * (FSHA256_8A passes them crosswise), so no move carries ab into bc. The
 * two movl are copies that Zen 3 renames away. Only x86_64 has the registers
 * (8 variables, bc, ab, s0, two temporaries, the W+K pointer); the i686
 * build keeps the C round.
 */
#define FSHA256_RA(a, b, c, d, e, f, g, h, bc, ab, WK, i)                       \
	do {                                                                    \
		uint32_t t0_, t1_;                                              \
		__asm__ volatile("addl %[wk], %[vh]\n\t"                        \
				 "rorxl $6, %[ve], %[t0]\n\t"                   \
				 "rorxl $11, %[ve], %[t1]\n\t"                  \
				 "andnl %[vg], %[ve], %[vab]\n\t"               \
				 "xorl %[t1], %[t0]\n\t"                        \
				 "rorxl $25, %[ve], %[t1]\n\t"                  \
				 "addl %[vab], %[vh]\n\t"                       \
				 "xorl %[t1], %[t0]\n\t"                        \
				 "movl %[vf], %[t1]\n\t"                        \
				 "andl %[ve], %[t1]\n\t"                        \
				 "addl %[t1], %[vh]\n\t"                        \
				 "addl %[vs0], %[va]\n\t"                       \
				 "addl %[t0], %[vh]\n\t"                        \
				 "rorxl $2, %[va], %[vs0]\n\t"                  \
				 "rorxl $13, %[va], %[t0]\n\t"                  \
				 "movl %[va], %[vab]\n\t"                       \
				 "xorl %[vb], %[vab]\n\t"                       \
				 "addl %[vh], %[vd]\n\t"                        \
				 "xorl %[t0], %[vs0]\n\t"                       \
				 "andl %[vab], %[vbc]\n\t"                      \
				 "rorxl $22, %[va], %[t0]\n\t"                  \
				 "xorl %[vb], %[vbc]\n\t"                       \
				 "xorl %[t0], %[vs0]\n\t"                       \
				 "addl %[vbc], %[vh]"                           \
				 : [va] "+r"(a), [vd] "+r"(d), [vh] "+r"(h),    \
				   [vbc] "+r"(bc), [vab] "=&r"(ab),             \
				   [vs0] "+r"(s0), [t0] "=&r"(t0_),             \
				   [t1] "=&r"(t1_)                              \
				 : [vb] "r"(b), [ve] "r"(e), [vf] "r"(f),       \
				   [vg] "r"(g), [wk] "m"(WK(i))                 \
				 : "cc");                                       \
	} while (0)
/* The deferred Sigma0 belongs to a before the chaining value is added. */
#define FSHA256_FINISH_A()                                                      \
	do {                                                                    \
		a += s0;                                                        \
		s0 = 0;                                                         \
		FSHA256_FINISH();                                               \
	} while (0)
#else
#define FSHA256_RA(a, b, c, d, e, f, g, h, bc_, ab_, WK, i) FSHA256_R(a, b, c, d, e, f, g, h, WK, i)
#define FSHA256_FINISH_A() FSHA256_FINISH()
#endif

/* Sixteen rounds as FSHA256_16, with HOOK before every round (r = 0..15). */
#define FSHA256_16A(WK, HOOK)                                                   \
	do {                                                                    \
		FSHA256_8A(0, WK, HOOK);                                        \
		FSHA256_8A(8, WK, HOOK);                                        \
	} while (0)
#define FSHA256_8A(t0, WK, HOOK)                                                \
	HOOK((t0));                                                             \
	FSHA256_RA(a, b, c, d, e, f, g, h, bc, ab, WK, (t0));                   \
	HOOK((t0) + 1);                                                         \
	FSHA256_RA(h, a, b, c, d, e, f, g, ab, bc, WK, (t0) + 1);               \
	HOOK((t0) + 2);                                                         \
	FSHA256_RA(g, h, a, b, c, d, e, f, bc, ab, WK, (t0) + 2);               \
	HOOK((t0) + 3);                                                         \
	FSHA256_RA(f, g, h, a, b, c, d, e, ab, bc, WK, (t0) + 3);               \
	HOOK((t0) + 4);                                                         \
	FSHA256_RA(e, f, g, h, a, b, c, d, bc, ab, WK, (t0) + 4);               \
	HOOK((t0) + 5);                                                         \
	FSHA256_RA(d, e, f, g, h, a, b, c, ab, bc, WK, (t0) + 5);               \
	HOOK((t0) + 6);                                                         \
	FSHA256_RA(c, d, e, f, g, h, a, b, bc, ab, WK, (t0) + 6);               \
	HOOK((t0) + 7);                                                         \
	FSHA256_RA(b, c, d, e, f, g, h, a, ab, bc, WK, (t0) + 7)

/* W+K of round t+i of block A (low lane) and B (high lane). */
#define FSHA256_WK_A(i) (p[8 * ((i) / 4) + (i) % 4])
#define FSHA256_WK_B(i) (p[8 * ((i) / 4) + 4 + (i) % 4])

/*
 * Block A's rounds 0..47 compute steps 4..15 of both blocks, each sixteen
 * rounds before A reads it (B reads it later still); block B's rounds
 * 48..63 load the next pair.
 */
static void blocks(uint32_t state[8], const uint8_t *data, size_t nblocks)
{
	__m256i w[4], wt, ws;
	uint32_t wk[128] __attribute__((aligned(32)));
	const uint8_t *na = data, *nb = data + 64;
	uint32_t a, b, c, d, e, f, g, h, bc;
#ifdef __x86_64__
	uint32_t ab, s0 = 0;
#endif
	uint32_t hs[8];
	uint32_t *p;
	const uint32_t *kp;

	/* A lone block runs as block A with itself in the high lane. */
	if (nblocks == 1)
		nb = data;
	a = state[0], b = state[1], c = state[2], d = state[3];
	e = state[4], f = state[5], g = state[6], h = state[7];
	hs[0] = a, hs[1] = b, hs[2] = c, hs[3] = d;
	hs[4] = e, hs[5] = f, hs[6] = g, hs[7] = h;

	FSHA256_LOAD256(0);
	FSHA256_LOAD256(4);
	FSHA256_LOAD256(8);
	FSHA256_LOAD256(12);
	for (;;) {
		bc = b ^ c;
		for (p = wk, kp = fsha256_k + 16; p < wk + 96; p += 32, kp += 16)
			FSHA256_16A(FSHA256_WK_A, FSHA256_SCHED256);
		FSHA256_16A(FSHA256_WK_A, FSHA256_NOHOOK);
		FSHA256_FINISH_A();
		if (nblocks == 1)
			break;
		/* The next pair, or blocks of this one standing in for it. */
		na = nblocks > 2 ? data + 128 : data;
		nb = nblocks > 3 ? data + 192 : na;
		bc = b ^ c;
		for (p = wk; p < wk + 96; p += 32)
			FSHA256_16A(FSHA256_WK_B, FSHA256_NOHOOK);
		FSHA256_16A(FSHA256_WK_B, FSHA256_LOAD256);
		FSHA256_FINISH_A();
		if (nblocks == 2)
			break;
		nblocks -= 2;
		data += 128;
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

const struct fsha256_backend fsha256_backend_avx2 = { { "avx2", FSHA_CPU_AVX2 | FSHA_CPU_BMI1 | FSHA_CPU_BMI2, 1, 1, 0, 0 }, blocks, NULL, NULL };
