/* SPDX-License-Identifier: MIT */
/*
 * power8: SHA-256 (and SHA-224) with the POWER ISA 2.07 vector crypto
 * instruction vshasigmaw (POWER8 and later), big- and little-endian.
 *
 * Needs: vector crypto (Linux AT_HWCAP2 PPC_FEATURE2_VEC_CRYPTO), which
 * implies VSX and the ISA 2.07 vector integer instructions. Built with
 * -mcpu=power8 (GCC 12: that alone enables -mcrypto, -mvsx and
 * -mpower8-vector, and tunes for the CPU; the ppc64 big-endian compiler's
 * default CPU has no AltiVec at all).
 * Contract: src/sha256/sha256_impl.h (whole 64-byte blocks, any alignment,
 * reads exactly 64*nblocks bytes, with unaligned VSX loads).
 *
 * Technique (seed 003, SHA-Intrinsics' Power8 section; the instruction as
 * Power ISA 2.07B defines it): vshasigmaw computes one of the four SHA-256
 * sigma functions on each word of a vector, and vsel is a bitwise select,
 * so the rounds run in vector registers: each working variable a..h sits in
 * word 0 of its own vector (the other words carry harmless garbage), and
 *
 *   T1 = h + Sigma1(e) + vsel(g, f, e) + (W+K)    vsel(g, f, e) is Ch(e, f, g)
 *   T2 = Sigma0(a) + vsel(b, c, a ^ b)             Maj(a, b, c)
 *
 * eleven vector operations a round; W+K for four rounds is one vector,
 * shifted one word down (vsldoi) per round. The schedule makes four words
 * at a time from the last sixteen in a ring of four vectors:
 * W[t-16] + sigma0(W[t-15]) + W[t-7] for all four, then sigma1 of the two
 * words before the group for words 0 and 1, then sigma1 of those two new
 * words for words 2 and 3 (sigma1 of a zero word is zero, so the halves
 * not wanted are shifted in as zeros and added harmlessly).
 * Byte order: the code is written in element order; SLD() gives vec_sld
 * element-order meaning on little-endian (GCC's vec_sld is the raw vsldoi
 * on the big-endian register image), and the message words are
 * byte-swapped with one vperm on little-endian only.
 *
 * Speed: not measured (no POWER hardware here; the tests run under qemu).
 * Proxy, dynamic instructions per 64-byte block in blocks() (qemu 7.2
 * -cpu power8 -singlestep -d exec,nochain, one log line per instruction,
 * attributed to functions by address; 1100 minus 100 blocks, GCC 12.2
 * -O3): power8 940 (ppc64le) / 931 (ppc64), portable 2335 / 2320, so
 * 2.5x fewer. The ppc64le loop: 456 vadduwm, 164 vshasigmaw, 128 xxsel, 86
 * vsldoi, 64 xxlxor, the rest loads (GCC hoists the sixteen K vectors out
 * of the loop and reloads them from the stack with lvx; no state spills).
 * Instructions are not cycles: each round is a chain of vshasigmaw and
 * adds through e and a, so latency, not issue width, may bound it (T1
 * adds Sigma1(e) last, so that only one add follows it); the seed measured
 * 13.2 cycles/byte against 23.4 for C++ on a POWER8 (ppc64le) and 9.7
 * against 10.2 on ppc64.
 */
#include <altivec.h>

#include "../sha256_impl.h"

typedef __vector unsigned char u8x16;
typedef __vector unsigned int u32x4;

/* Element order: the words of a:b (a first) from word n/4 on. */
#if FSHA_BIG_ENDIAN
#define SLD(a, b, n) vec_sld(a, b, n)
#else
#define SLD(a, b, n) vec_sld(b, a, 16 - (n))
#endif

#define BSIG0(x) __builtin_crypto_vshasigmaw(x, 1, 0)
#define BSIG1(x) __builtin_crypto_vshasigmaw(x, 1, 0xf)
#define SSIG0(x) __builtin_crypto_vshasigmaw(x, 0, 0)
#define SSIG1(x) __builtin_crypto_vshasigmaw(x, 0, 0xf)

/* Four big-endian words from any address; vec_xl is an unaligned load
 * (lxvw4x, or lxvd2x plus xxswapd for element order on little-endian). */
static inline u32x4 load_be(const uint8_t *p)
{
	u8x16 v = vec_xl(0, p);
#if !FSHA_BIG_ENDIAN
	v = vec_perm(v, v, (u8x16){ 3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12 });
#endif
	return (u32x4)v;
}

/* Group n (rounds 4n..4n+3): its W is w[n % 4], which held group n-4. */
#define SCHED(n)                                                             \
	do {                                                                 \
		u32x4 w0_ = w[(n) % 4], w1_ = w[((n) + 1) % 4];              \
		u32x4 w2_ = w[((n) + 2) % 4], w3_ = w[((n) + 3) % 4];        \
		u32x4 x_ = w0_ + SSIG0(SLD(w0_, w1_, 4)) + SLD(w2_, w3_, 4); \
		x_ += SSIG1(SLD(w3_, zero, 8));                              \
		w[(n) % 4] = x_ + SSIG1(SLD(zero, x_, 8));                   \
	} while (0)

/* One round; the caller renames the variables. kw's word 0 is W+K. */
#define ROUND(a, b, c, d, e, f, g, h)                             \
	do {                                                      \
		u32x4 t1_ = h + kw + vec_sel(g, f, e) + BSIG1(e); \
		u32x4 t2_ = BSIG0(a) + vec_sel(b, c, a ^ b);      \
		d += t1_;                                         \
		h = t1_ + t2_;                                    \
	} while (0)

/* Four rounds of group n, with W+K shifted down a word between them. */
#define GROUP(n, a, b, c, d, e, f, g, h)                          \
	do {                                                      \
		kw = w[(n) % 4] + vec_xl(0, &fsha256_k[4 * (n)]); \
		ROUND(a, b, c, d, e, f, g, h);                    \
		kw = SLD(kw, kw, 4);                              \
		ROUND(h, a, b, c, d, e, f, g);                    \
		kw = SLD(kw, kw, 4);                              \
		ROUND(g, h, a, b, c, d, e, f);                    \
		kw = SLD(kw, kw, 4);                              \
		ROUND(f, g, h, a, b, c, d, e);                    \
	} while (0)

/* Groups n and n+1: eight rounds bring the names back to their places. */
#define GROUPS(n)                                       \
	do {                                            \
		GROUP(n, a, b, c, d, e, f, g, h);       \
		GROUP((n) + 1, e, f, g, h, a, b, c, d); \
	} while (0)

#define SGROUPS(n)                                      \
	do {                                            \
		SCHED(n);                               \
		GROUP(n, a, b, c, d, e, f, g, h);       \
		SCHED((n) + 1);                         \
		GROUP((n) + 1, e, f, g, h, a, b, c, d); \
	} while (0)

static void blocks(uint32_t state[8], const uint8_t *data, size_t nblocks)
{
	const u32x4 zero = vec_splats(0u);
	u32x4 abcd = vec_xl(0, state), efgh = vec_xl(0, state + 4);
	u32x4 a = abcd, b = SLD(abcd, abcd, 4), c = SLD(abcd, abcd, 8), d = SLD(abcd, abcd, 12);
	u32x4 e = efgh, f = SLD(efgh, efgh, 4), g = SLD(efgh, efgh, 8), h = SLD(efgh, efgh, 12);

	do {
		u32x4 w[4], kw;
		u32x4 a0 = a, b0 = b, c0 = c, d0 = d, e0 = e, f0 = f, g0 = g, h0 = h;

		w[0] = load_be(data);
		w[1] = load_be(data + 16);
		w[2] = load_be(data + 32);
		w[3] = load_be(data + 48);

		GROUPS(0);
		GROUPS(2);
		SGROUPS(4);
		SGROUPS(6);
		SGROUPS(8);
		SGROUPS(10);
		SGROUPS(12);
		SGROUPS(14);

		a += a0;
		b += b0;
		c += c0;
		d += d0;
		e += e0;
		f += f0;
		g += g0;
		h += h0;
		data += 64;
	} while (--nblocks);

	/* Word 0 of each variable back into two vectors of four. */
	abcd = (u32x4)vec_mergeh((__vector unsigned long long)vec_mergeh(a, b),
				 (__vector unsigned long long)vec_mergeh(c, d));
	efgh = (u32x4)vec_mergeh((__vector unsigned long long)vec_mergeh(e, f),
				 (__vector unsigned long long)vec_mergeh(g, h));
	vec_xst(abcd, 0, state);
	vec_xst(efgh, 0, state + 4);
}

const struct fsha256_backend fsha256_backend_power8 = { { "power8", FSHA_CPU_PPC_VEC_CRYPTO, 1, 1, 0, 0 }, blocks, NULL, NULL };
