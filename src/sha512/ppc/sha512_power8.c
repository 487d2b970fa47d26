/* SPDX-License-Identifier: MIT */
/*
 * power8: SHA-512 (and SHA-384, SHA-512/224, SHA-512/256) with the POWER
 * ISA 2.07 vector crypto instruction vshasigmad (POWER8 and later), big-
 * and little-endian.
 *
 * Needs: vector crypto (Linux AT_HWCAP2 PPC_FEATURE2_VEC_CRYPTO), which
 * implies VSX and the ISA 2.07 doubleword vector instructions (vaddudm).
 * Built with -mcpu=power8, as sha256_power8.c says.
 * Contract: src/sha512/sha512_impl.h (whole 128-byte blocks, any alignment,
 * reads exactly 128*nblocks bytes, with unaligned VSX loads).
 *
 * Technique: src/sha256/ppc/sha256_power8.c's (seed 003, SHA-Intrinsics'
 * Power8 section), on doublewords: each working variable in doubleword 0
 * of its own vector, Sigma0/1 from vshasigmad, Ch and Maj from vsel,
 * eleven vector operations a round, W+K for two rounds in one vector. The
 * schedule makes two words at a time with no dependency inside the pair
 * (W[t+1] needs W[t-1], not W[t]):
 *
 *   W[t..t+1] = W[t-16..] + sigma0(W[t-15..]) + W[t-7..] + sigma1(W[t-2..])
 *
 * in a ring of eight vectors; W[t-15..] and W[t-7..] straddle two of them
 * and come from vsldoi.
 *
 * Speed: not measured (no POWER hardware here). Proxy, dynamic
 * instructions per 128-byte block, measured as sha256_power8.c says:
 * power8 1276 (ppc64le) / 1258 (ppc64), portable 2918 / 2903, 2.3x fewer.
 * The ppc64le loop: 624 vaddudm, 224 vshasigmad, 160 xxsel, 80 xxlxor, 76
 * vsldoi, the rest loads (K again hoisted and reloaded; no state spills).
 * The seed measured 9.3 cycles/byte against 14.0 for C++ on a POWER8
 * (ppc64le), 6.2 against 21.1 on ppc64.
 */
#include <altivec.h>

#include "../sha512_impl.h"

typedef __vector unsigned char u8x16;
typedef __vector unsigned long long u64x2;

/* Element order: the doublewords of a:b (a first) from doubleword n/8 on. */
#if FSHA_BIG_ENDIAN
#define SLD(a, b, n) (u64x2) vec_sld((u8x16)(a), (u8x16)(b), n)
#else
#define SLD(a, b, n) (u64x2) vec_sld((u8x16)(b), (u8x16)(a), 16 - (n))
#endif

#define BSIG0(x) __builtin_crypto_vshasigmad(x, 1, 0)
#define BSIG1(x) __builtin_crypto_vshasigmad(x, 1, 0xf)
#define SSIG0(x) __builtin_crypto_vshasigmad(x, 0, 0)
#define SSIG1(x) __builtin_crypto_vshasigmad(x, 0, 0xf)

/* Two host-order doublewords; through unsigned char, which may alias
 * anything (uint64_t is unsigned long, vec_xl wants unsigned long long). */
static inline u64x2 load_u64(const uint64_t *p)
{
	return (u64x2)vec_xl(0, (const unsigned char *)p);
}

/* Two big-endian doublewords from any address. */
static inline u64x2 load_be(const uint8_t *p)
{
	u8x16 v = vec_xl(0, p);
#if !FSHA_BIG_ENDIAN
	v = vec_perm(v, v, (u8x16){ 7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8 });
#endif
	return (u64x2)v;
}

/* Step n (rounds 2n, 2n+1): its W is w[n % 8], which held step n-8. */
#define SCHED(n)                                                     \
	(w[(n) % 8] += SSIG0(SLD(w[(n) % 8], w[((n) + 1) % 8], 8)) + \
		       SLD(w[((n) + 4) % 8], w[((n) + 5) % 8], 8) + SSIG1(w[((n) + 7) % 8]))

/* One round; the caller renames the variables. kw's doubleword 0 is W+K. */
#define ROUND(a, b, c, d, e, f, g, h)                             \
	do {                                                      \
		u64x2 t1_ = h + kw + vec_sel(g, f, e) + BSIG1(e); \
		u64x2 t2_ = BSIG0(a) + vec_sel(b, c, a ^ b);      \
		d += t1_;                                         \
		h = t1_ + t2_;                                    \
	} while (0)

/* The two rounds of step n. */
#define STEP(n, a, b, c, d, e, f, g, h)                          \
	do {                                                     \
		kw = w[(n) % 8] + load_u64(&fsha512_k[2 * (n)]); \
		ROUND(a, b, c, d, e, f, g, h);                   \
		kw = SLD(kw, kw, 8);                             \
		ROUND(h, a, b, c, d, e, f, g);                   \
	} while (0)

/* Steps n..n+3: eight rounds bring the names back to their places. */
#define STEPS(n)                                       \
	do {                                           \
		STEP(n, a, b, c, d, e, f, g, h);       \
		STEP((n) + 1, g, h, a, b, c, d, e, f); \
		STEP((n) + 2, e, f, g, h, a, b, c, d); \
		STEP((n) + 3, c, d, e, f, g, h, a, b); \
	} while (0)

#define SSTEPS(n)                                      \
	do {                                           \
		SCHED(n);                              \
		STEP(n, a, b, c, d, e, f, g, h);       \
		SCHED((n) + 1);                        \
		STEP((n) + 1, g, h, a, b, c, d, e, f); \
		SCHED((n) + 2);                        \
		STEP((n) + 2, e, f, g, h, a, b, c, d); \
		SCHED((n) + 3);                        \
		STEP((n) + 3, c, d, e, f, g, h, a, b); \
	} while (0)

static void blocks(uint64_t state[8], const uint8_t *data, size_t nblocks)
{
	u64x2 ab = load_u64(state), cd = load_u64(state + 2);
	u64x2 ef = load_u64(state + 4), gh = load_u64(state + 6);
	u64x2 a = ab, b = SLD(ab, ab, 8), c = cd, d = SLD(cd, cd, 8);
	u64x2 e = ef, f = SLD(ef, ef, 8), g = gh, h = SLD(gh, gh, 8);

	do {
		u64x2 w[8], kw;
		u64x2 a0 = a, b0 = b, c0 = c, d0 = d, e0 = e, f0 = f, g0 = g, h0 = h;

		w[0] = load_be(data);
		w[1] = load_be(data + 16);
		w[2] = load_be(data + 32);
		w[3] = load_be(data + 48);
		w[4] = load_be(data + 64);
		w[5] = load_be(data + 80);
		w[6] = load_be(data + 96);
		w[7] = load_be(data + 112);

		STEPS(0);
		STEPS(4);
		SSTEPS(8);
		SSTEPS(12);
		SSTEPS(16);
		SSTEPS(20);
		SSTEPS(24);
		SSTEPS(28);
		SSTEPS(32);
		SSTEPS(36);

		a += a0;
		b += b0;
		c += c0;
		d += d0;
		e += e0;
		f += f0;
		g += g0;
		h += h0;
		data += 128;
	} while (--nblocks);

	/* Doubleword 0 of each variable back into four vectors of two. */
	vec_xst((u8x16)vec_mergeh(a, b), 0, (unsigned char *)state);
	vec_xst((u8x16)vec_mergeh(c, d), 0, (unsigned char *)(state + 2));
	vec_xst((u8x16)vec_mergeh(e, f), 0, (unsigned char *)(state + 4));
	vec_xst((u8x16)vec_mergeh(g, h), 0, (unsigned char *)(state + 6));
}

const struct fsha512_backend fsha512_backend_power8 = { { "power8", FSHA_CPU_PPC_VEC_CRYPTO, 1, 1, 0, 0 }, blocks, NULL };
