/* SPDX-License-Identifier: MIT */
/*
 * avx512: Keccak-p[1600, n] on one state, one plane (five lanes) per zmm
 * register. Needs AVX512F only (-mavx512f on this file: vprolq, vprolvq,
 * vpternlogq, vpermq and vpermt2q with index vectors, masked loads and
 * stores); x86_64 only (the index and rotate vectors and the state want
 * most of the 32 zmm registers).
 *
 * By name only (FASTSHA_BACKEND=keccak:avx512): slower than bmi2 on the
 * one AVX-512 CPU it has run on (below). Written on an AMD Zen 2 without
 * AVX-512 and checked there only through SIMDe (tools/simde-check compares
 * permute and absorb with the portable row at every rate 8..168, 1..4
 * blocks, 8 data alignments, 24 and 12 rounds, under ASan/UBSan and a
 * bounds tracker on every load and store); it has run natively since
 * 2026-12-05, on an Intel Xeon of the Emerald Rapids line (KVM's family 6
 * model 167), where every test of the suite passes on it.
 *
 * Contract (src/keccak/keccak_impl.h, a single-state row): permute() and
 * absorb() on st[25] (lane (x, y) at st[x + 5y]), rounds 24 or 12 (the
 * last rounds of the 24); absorb reads exactly data[0 .. rate * nblocks),
 * rate a multiple of 8 up to 168, at any alignment: each plane's words by
 * a masked load of exactly the words of the block that fall in it
 * (masked-off words are neither read nor able to fault), so no load
 * reaches past the block, nor past st[24] for the state. Stack only.
 *
 * Technique: the state as five planes, plane y (lanes (0..4, y)) in words
 * 0..4 of zmm y, words 5..7 unused (nothing below lets them reach words
 * 0..4). The round runs theta on planes, turns the planes into columns
 * with pi, runs chi on columns and turns the columns back into planes:
 * - theta: the column parities C = P0 ^ .. ^ P4 in two vpternlogq (0x96);
 *   C[x - 1] and C[x + 1] by two vpermq, the second rotated by one
 *   vprolq; then each plane takes P ^ C[x - 1] ^ rol(C[x + 1], 1) in one
 *   vpternlogq (D is never formed);
 * - rho: one vprolvq a plane, by a vector of the plane's five offsets
 *   (FIPS 202 table 2);
 * - pi: output lane (X, Y) is input lane ((X + 3Y) % 5, X): all of output
 *   column X comes from input plane X. So one vpermq a plane makes it the
 *   output's column X (word Y = input word (X + 3Y) % 5) with no mixing
 *   of registers, which building output planes would need;
 * - chi works along rows, so on columns it is register-wise: output
 *   column X is K[X] ^ (~K[X + 1] & K[X + 2]), one vpternlogq (0xD2) a
 *   register, no shuffles (on planes it would need two a plane);
 * - back to planes: a 5 x 5 transpose of the columns in twelve vpermt2q
 *   (pairs of columns interleaved, pairs of pairs merged for rows 0..3,
 *   column 4 added to each row; row 4 by its own chain of four);
 * - iota: one xor of the round constant into word 0 of plane 0.
 * A round is 38 vector ops: 12 vpternlogq (2 parities, 5 theta, 5 chi),
 * 1 vprolq, 5 vprolvq, 7 vpermq (2 theta, 5 pi), 12 vpermt2q, 1 vpxorq.
 * Reference: the steps as FIPS 202 3.2 defines them, and their
 * plane-by-plane view from the Keccak team's implementation overview (G.
 * Bertoni, J. Daemen, M. Peeters, G. Van Assche, R. Van Keer, "Keccak
 * implementation overview", v3.2, 2012). The register arrangement (a
 * plane per register, pi into columns so chi needs no shuffle, the
 * transpose back) was worked out for this file, not taken from another
 * implementation.
 *
 * Estimated from op counts when written: 38 ops at two zmm ops a cycle
 * are 19 cycles a round, but one state is one dependency chain: two
 * ternlogs, vpermq, vprolq, ternlog, vprolvq, vpermq, ternlog, three
 * vpermt2q deep, xor, about 22 cycles if the cross-lane permutes take 3
 * (Intel's published latencies) and the rest 1: roughly 530 cycles a
 * permutation. Measured on that Xeon (fastsha-bench --sha3, SHA3-256,
 * FASTSHA_BACKEND=keccak:avx512 against keccak:bmi2 in alternate runs,
 * OpenSSL 3.0.19's EVP beside each): 16 KiB in 25.44-25.46 us against
 * bmi2's 23.77-24.24 (1.10x OpenSSL against 1.17-1.18x), 1 MiB in
 * 1.62-1.66 ms against 1.51-1.53. That is about 210 ns a permutation,
 * some 850 cycles at the 4.06 GHz the dependent adds give (if the clock
 * holds under 512-bit work, which Intel's server parts may lower): the
 * chain is longer than the estimate, or the permutes slower. bmi2 keeps
 * single messages there; AMD Zen 4 (512-bit work on 256-bit units) is
 * not measured.
 */
#include <immintrin.h>

#include "../keccak_impl.h"

#define P_INLINE static inline __attribute__((always_inline))

#define XOR3(a, b, c) _mm512_ternarylogic_epi64((a), (b), (c), 0x96)
#define CHI3(a, b, c) _mm512_ternarylogic_epi64((a), (b), (c), 0xD2)

/* Words 0..4 of a register: one plane of the state. */
#define PLANE ((__mmask8)0x1f)

/*
 * The round's constant vectors (the compiler keeps them out of the round
 * loop). vpermq/vpermt2q indices: 0..7 pick from the first source,
 * 8..15 from the second; words 5..7 of every result are left as don't-
 * care (index 0 or their own word).
 */
struct consts {
	__m512i cm1, cp1;  /* theta: C[x - 1], C[x + 1] into word x */
	__m512i rho[5];    /* rho offsets of plane y's lanes */
	__m512i pi[5];     /* column X, word Y <- plane X, word (X + 3Y) % 5 */
	__m512i ta, tb, tc; /* the transpose's first two steps */
	__m512i td[4];     /* row y (0..3): four words from a merged pair, one of column 4 */
	__m512i t4a, t4b, t4c; /* row 4's chain */
};

P_INLINE struct consts make_consts(void)
{
	struct consts k;
	k.cm1 = _mm512_setr_epi64(4, 0, 1, 2, 3, 5, 6, 7);
	k.cp1 = _mm512_setr_epi64(1, 2, 3, 4, 0, 5, 6, 7);
	k.rho[0] = _mm512_setr_epi64(0, 1, 62, 28, 27, 0, 0, 0);
	k.rho[1] = _mm512_setr_epi64(36, 44, 6, 55, 20, 0, 0, 0);
	k.rho[2] = _mm512_setr_epi64(3, 10, 43, 25, 39, 0, 0, 0);
	k.rho[3] = _mm512_setr_epi64(41, 45, 15, 21, 8, 0, 0, 0);
	k.rho[4] = _mm512_setr_epi64(18, 2, 61, 56, 14, 0, 0, 0);
	k.pi[0] = _mm512_setr_epi64(0, 3, 1, 4, 2, 5, 6, 7);
	k.pi[1] = _mm512_setr_epi64(1, 4, 2, 0, 3, 5, 6, 7);
	k.pi[2] = _mm512_setr_epi64(2, 0, 3, 1, 4, 5, 6, 7);
	k.pi[3] = _mm512_setr_epi64(3, 1, 4, 2, 0, 5, 6, 7);
	k.pi[4] = _mm512_setr_epi64(4, 2, 0, 3, 1, 5, 6, 7);
	/* a, b -> a0 b0 a1 b1 a2 b2 a3 b3 */
	k.ta = _mm512_setr_epi64(0, 8, 1, 9, 2, 10, 3, 11);
	/* from x01 = (E0 E1 interleaved, rows 0..3) and x23: rows 0, 1 ... */
	k.tb = _mm512_setr_epi64(0, 1, 8, 9, 2, 3, 10, 11);
	/* ... and rows 2, 3 (four words a row: columns 0..3) */
	k.tc = _mm512_setr_epi64(4, 5, 12, 13, 6, 7, 14, 15);
	/* row 2j + h: words 4h .. 4h + 3 of its pair, then column 4's word */
	k.td[0] = _mm512_setr_epi64(0, 1, 2, 3, 8, 0, 0, 0);
	k.td[1] = _mm512_setr_epi64(4, 5, 6, 7, 9, 0, 0, 0);
	k.td[2] = _mm512_setr_epi64(0, 1, 2, 3, 10, 0, 0, 0);
	k.td[3] = _mm512_setr_epi64(4, 5, 6, 7, 11, 0, 0, 0);
	/* row 4: word 4 of columns 0, 1; of 2, 3; the two pairs; column 4 */
	k.t4a = _mm512_setr_epi64(4, 12, 0, 0, 0, 0, 0, 0);
	k.t4b = _mm512_setr_epi64(0, 1, 8, 9, 0, 0, 0, 0);
	k.t4c = _mm512_setr_epi64(0, 1, 2, 3, 12, 0, 0, 0);
	return k;
}

#define PERM2(a, idx, b) _mm512_permutex2var_epi64((a), (idx), (b))

/* One round on the planes p[0..4], round constant @rc. */
P_INLINE void round1(__m512i p[5], const struct consts *k, uint64_t rc)
{
	/* theta */
	const __m512i c = XOR3(XOR3(p[0], p[1], p[2]), p[3], p[4]);
	const __m512i cm1 = _mm512_permutexvar_epi64(k->cm1, c);
	const __m512i cp1 = _mm512_rol_epi64(_mm512_permutexvar_epi64(k->cp1, c), 1);
	/* theta, rho, and pi into columns: q[X] is output column X, from
	 * plane X. Written out, not as loops: GCC 12 -O2 kept 5-step loops
	 * rolled, with q[] and e[] in memory. */
#define TRP(y)                                                                                     \
	_mm512_permutexvar_epi64(k->pi[y], _mm512_rolv_epi64(XOR3(p[y], cm1, cp1), k->rho[y]))
	const __m512i q[5] = { TRP(0), TRP(1), TRP(2), TRP(3), TRP(4) };
#undef TRP
	/* chi, on columns */
	const __m512i e[5] = { CHI3(q[0], q[1], q[2]), CHI3(q[1], q[2], q[3]),
			       CHI3(q[2], q[3], q[4]), CHI3(q[3], q[4], q[0]),
			       CHI3(q[4], q[0], q[1]) };
	/* columns back to planes */
	const __m512i x01 = PERM2(e[0], k->ta, e[1]), x23 = PERM2(e[2], k->ta, e[3]);
	const __m512i z01 = PERM2(x01, k->tb, x23), z23 = PERM2(x01, k->tc, x23);
	p[0] = PERM2(z01, k->td[0], e[4]);
	p[1] = PERM2(z01, k->td[1], e[4]);
	p[2] = PERM2(z23, k->td[2], e[4]);
	p[3] = PERM2(z23, k->td[3], e[4]);
	const __m512i w01 = PERM2(e[0], k->t4a, e[1]), w23 = PERM2(e[2], k->t4a, e[3]);
	p[4] = PERM2(PERM2(w01, k->t4b, w23), k->t4c, e[4]);
	/* iota: word 0 only (vmovq zeroes the rest) */
	p[0] = _mm512_xor_si512(p[0], _mm512_set_epi64(0, 0, 0, 0, 0, 0, 0, (long long)rc));
}

P_INLINE void rounds1(__m512i p[5], const struct consts *k, unsigned rounds)
{
	for (unsigned i = 24 - rounds; i < 24; i++)
		round1(p, k, fsha_keccak_rc[i]);
}

/* st[5y .. 5y + 4] into word 0..4 of p[y], by masked loads: a full load
 * of plane 3 or 4 would read past st[24]. */
P_INLINE void load_planes(__m512i p[5], const uint64_t st[25])
{
	for (int y = 0; y < 5; y++)
		p[y] = _mm512_maskz_loadu_epi64(PLANE, (const void *)(st + 5 * y));
}

P_INLINE void store_planes(uint64_t st[25], const __m512i p[5])
{
	for (int y = 0; y < 5; y++)
		_mm512_mask_storeu_epi64((void *)(st + 5 * y), PLANE, p[y]);
}

static void permute(uint64_t st[25], unsigned rounds)
{
	const struct consts k = make_consts();
	__m512i p[5];
	load_planes(p, st);
	rounds1(p, &k, rounds);
	store_planes(st, p);
}

static void absorb(uint64_t st[25], const uint8_t *data, size_t nblocks, size_t rate,
		   unsigned rounds)
{
	const struct consts k = make_consts();
	const size_t w = rate / 8;
	__mmask8 m[5]; /* the block's words in plane y: words 5y .. 5y + 4 below w */
	__m512i p[5];
	for (int y = 0; y < 5; y++) {
		const size_t n = w <= 5u * y ? 0 : w - 5u * y >= 5 ? 5 : w - 5u * y;
		m[y] = (__mmask8)((1u << n) - 1);
	}
	load_planes(p, st);
	for (size_t blk = 0; blk < nblocks; blk++, data += rate) {
		/* planes past the rate are skipped, not loaded with an empty
		 * mask: their address could lie past the input's end */
		for (int y = 0; y < 5; y++)
			if (m[y])
				p[y] = _mm512_xor_si512(
					p[y], _mm512_maskz_loadu_epi64(m[y], (const void *)(data + 40 * y)));
		rounds1(p, &k, rounds);
	}
	store_planes(st, p);
}

const struct fsha_keccak_backend fsha_keccak_backend_avx512 = {
	{ "avx512", FSHA_CPU_AVX512F, 1, 0, 0, 0 }, permute, absorb, NULL, NULL };
