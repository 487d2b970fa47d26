/* SPDX-License-Identifier: MIT */
#ifndef FSHA512_AVX2_H
#define FSHA512_AVX2_H

/*
 * The avx2 row's rounds and schedule steps as inline assembly macros
 * (x86_64 only), shared by sha512_avx2.c (blocks()) and
 * sha512_avx2_chain.c (PBKDF2's chain kernels). They work on the caller's
 * names: a..h (the working variables), bc (b ^ c), q (W+K of the sixteen
 * rounds at hand), kq (K of their schedule steps' words) and w[8] (the
 * last sixteen words of two blocks, one per 128-bit lane: see
 * sha512_avx2.c's head comment and SCHED for the layout). Needs AVX2,
 * BMI1 and BMI2.
 */
#include <immintrin.h>
#include <stdint.h>

#if defined(__x86_64__)
/*
 * x86_64: the rounds and the schedule as inline assembly, two rounds to a
 * statement. Why assembly: how fast this runs turned on the order of
 * the instructions within a round and on where the schedule's vector
 * instructions sit among them, and GCC reorders C freely (the C form,
 * which i686 still compiles, measured 0.90-0.91x OpenSSL on x86_64 in the
 * session where this code measured 1.03-1.06x at 16 KiB). The operands
 * are plain register constraints; W+K is addressed from q, so "memory"
 * orders the statements against the stores of LOAD and FINISH.
 *
 * One round as four pieces of six instructions. On entry X holds b ^ c;
 * on exit Y holds a ^ b (the next round's b ^ c) and X is spent; T0 and
 * T1 are scratch. h collects W+K, ~e & g, e & f (Ch: the two terms share
 * no bit, so add works as or) and Sigma1, then d += h gives the new e;
 * Maj and Sigma0 of a complete the new a. This order (Ch's andn and the
 * first two rotates of Sigma1 at the top, Sigma0's first rotate started
 * before Sigma1 is added) was the best of a dozen orders measured; most
 * of them were 2-10% slower.
 *
 * The adds between registers are lea, not add: same count, one cycle,
 * but lea writes no flags. Why that pays is a guess (with 16 of the 24
 * instructions writing flags, the flags' renaming may have limited how
 * far ahead the core could run; with lea 10 do, as rorx writes none);
 * the measurement is in the head comment: 0.97x to 1.04x OpenSSL at
 * 16 KiB on a quiet machine, nearly all of it from block B's loop.
 */
#define SR_(x) "%[" #x "]"
#define RP1(a, b, c, d, e, f, g, h, X, Y, wk)           \
	"addq " #wk "(%[Q]), " SR_(h) "\n\t"            \
	"andnq " SR_(g) ", " SR_(e) ", " SR_(Y) "\n\t"  \
	"rorxq $14, " SR_(e) ", %[T0]\n\t"              \
	"rorxq $18, " SR_(e) ", %[T1]\n\t"              \
	"leaq (" SR_(h) ", " SR_(Y) "), " SR_(h) "\n\t" \
	"movq " SR_(f) ", " SR_(Y) "\n\t"
#define RP2(a, b, c, d, e, f, g, h, X, Y, wk)           \
	"xorq %[T1], %[T0]\n\t"                         \
	"rorxq $41, " SR_(e) ", %[T1]\n\t"              \
	"andq " SR_(e) ", " SR_(Y) "\n\t"               \
	"leaq (" SR_(h) ", " SR_(Y) "), " SR_(h) "\n\t" \
	"xorq %[T1], %[T0]\n\t"                         \
	"rorxq $28, " SR_(a) ", %[T1]\n\t"
#define RP3(a, b, c, d, e, f, g, h, X, Y, wk)           \
	"leaq (" SR_(h) ", %[T0]), " SR_(h) "\n\t"      \
	"movq " SR_(a) ", " SR_(Y) "\n\t"               \
	"rorxq $34, " SR_(a) ", %[T0]\n\t"              \
	"xorq " SR_(b) ", " SR_(Y) "\n\t"               \
	"leaq (" SR_(d) ", " SR_(h) "), " SR_(d) "\n\t" \
	"xorq %[T0], %[T1]\n\t"
#define RP4(a, b, c, d, e, f, g, h, X, Y, wk)           \
	"rorxq $39, " SR_(a) ", %[T0]\n\t"              \
	"andq " SR_(Y) ", " SR_(X) "\n\t"               \
	"xorq " SR_(b) ", " SR_(X) "\n\t"               \
	"xorq %[T0], %[T1]\n\t"                         \
	"leaq (" SR_(h) ", " SR_(X) "), " SR_(h) "\n\t" \
	"leaq (" SR_(h) ", %[T1]), " SR_(h) "\n\t"

/* The first round of a statement has the variables as bound, the second
 * the next rotation, with X and Y swapped; W+K at q + off and off + 8. */
#define RA_(p, off) p(A, B, C, D, E, F, G, H, X, Y, off)
#define RB_(p, off) p(H, A, B, C, D, E, F, G, Y, X, off + 8)

/*
 * One schedule step (sha512_avx2.c's SCHED, same arithmetic) in eight pieces of
 * three to five vector instructions: sigma1 of W7 (the previous step's
 * words) first, then S = the W[t-15] pair and its sigma0, then W[t-7],
 * the sums, K from kq broadcast to both lanes, and the store of W+K to
 * q + 256 + off, sixteen rounds ahead. Each piece goes just BEFORE a
 * round piece: the same pieces placed just after each round piece
 * measured 0.95x OpenSSL instead of 0.99x (with the older round order),
 * and all at the top, or between half-pieces, 0.93-0.97x.
 */
#define VP1 "vpsrlq $19, %[W7], %[T]\n\t" "vpsllq $45, %[W7], %[U]\n\t" "vpsrlq $61, %[W7], %[V]\n\t"
#define VP2 "vpsllq $3, %[W7], %[Z]\n\t" "vpxor %[U], %[T], %[T]\n\t" "vpxor %[Z], %[V], %[V]\n\t"
#define VP3 "vpsrlq $6, %[W7], %[U]\n\t" "vpxor %[V], %[T], %[T]\n\t" "vpalignr $8, %[W0], %[W1], %[S]\n\t"
#define VP4 "vpxor %[U], %[T], %[T]\n\t" "vpsrlq $1, %[S], %[U]\n\t" "vpsllq $63, %[S], %[V]\n\t"
#define VP5 "vpaddq %[T], %[W0], %[W0]\n\t" "vpsrlq $8, %[S], %[Z]\n\t" "vpsllq $56, %[S], %[T]\n\t"
#define VP6 "vpxor %[V], %[U], %[U]\n\t" "vpxor %[T], %[Z], %[Z]\n\t" "vpsrlq $7, %[S], %[S]\n\t"
#define VP7 "vpxor %[Z], %[U], %[U]\n\t" "vpalignr $8, %[W4], %[W5], %[V]\n\t" "vpxor %[S], %[U], %[U]\n\t"
#define VP8(i, off)                                                             \
	"vpaddq %[V], %[W0], %[W0]\n\t" "vbroadcasti128 128+8*" #i "(%[KQ]), %[T]\n\t" \
	"vpaddq %[U], %[W0], %[W0]\n\t" "vpaddq %[W0], %[T], %[T]\n\t"           \
	"vmovdqa %[T], 256+" #off "(%[Q])\n\t"

/* a, b, e, f are only read by two rounds; c, d, g, h are written. */
#define GPR_OPS_(c, d, g, h)                                                    \
	[C] "+r"(c), [D] "+r"(d), [G] "+r"(g), [H] "+r"(h), [X] "+r"(bc),      \
	[Y] "=&r"(y_), [T0] "=&r"(t0_), [T1] "=&r"(t1_)
#define GPR_INS_(a, b, e, f) [A] "r"(a), [B] "r"(b), [E] "r"(e), [F] "r"(f), [Q] "r"(q)

/* Rounds i and i + 1 of sixteen (off = 16 * i bytes into q), no schedule. */
#define U2(a, b, c, d, e, f, g, h, i, off)                                      \
	do {                                                                    \
		uint64_t t0_, t1_, y_;                                          \
		__asm__(RA_(RP1, off) RA_(RP2, off) RA_(RP3, off) RA_(RP4, off) \
			RB_(RP1, off) RB_(RP2, off) RB_(RP3, off) RB_(RP4, off) \
			: GPR_OPS_(c, d, g, h)                                  \
			: GPR_INS_(a, b, e, f)                                  \
			: "cc", "memory");                                      \
	} while (0)

/* The same two rounds of block A with schedule step i / 2 of the sixteen
 * rounds' eight (its words in w[i / 2]). 30 operands, GCC's maximum. */
#define U2S(a, b, c, d, e, f, g, h, i, off)                                     \
	do {                                                                    \
		uint64_t t0_, t1_, y_;                                          \
		__m256i s_, t_, u_, v_, z_;                                     \
		__asm__(VP1 RA_(RP1, off) VP2 RA_(RP2, off)                     \
			VP3 RA_(RP3, off) VP4 RA_(RP4, off)                     \
			VP5 RB_(RP1, off) VP6 RB_(RP2, off)                     \
			VP7 RB_(RP3, off) VP8(i, off) RB_(RP4, off)             \
			: GPR_OPS_(c, d, g, h), [W0] "+x"(w[(i) / 2]),          \
			  [S] "=&x"(s_), [T] "=&x"(t_), [U] "=&x"(u_),          \
			  [V] "=&x"(v_), [Z] "=&x"(z_)                          \
			: GPR_INS_(a, b, e, f), [KQ] "r"(kq),                   \
			  [W1] "x"(w[((i) / 2 + 1) & 7]), [W4] "x"(w[((i) / 2 + 4) & 7]), \
			  [W5] "x"(w[((i) / 2 + 5) & 7]), [W7] "x"(w[((i) / 2 + 7) & 7]) \
			: "cc", "memory");                                      \
	} while (0)

/*
 * The schedule step of sha512_avx2.h's U2S (VP1..VP8, same arithmetic and
 * registers) with AVX-512VL's vprorq and vpternlogq on the ymm registers:
 * each sigma is two rotates, a shift and one three-way XOR, 14 vector
 * operations a step against VP1..VP8's 24. For CPUs with AVX-512F and VL
 * only (the avx2_vl row and the _vl chain kernels): the rounds leave the
 * vector ALUs, which on Intel share their ports with the scalar ones,
 * little room, and a single chain is bound by those ports. Inline
 * assembly, so the files keep the avx2 row's flags; the "x" constraints
 * keep to ymm0-15, which EVEX encodes as well.
 */
#define VQ1 "vprorq $19, %[W7], %[T]\n\t" "vprorq $61, %[W7], %[U]\n\t"
#define VQ2 "vpsrlq $6, %[W7], %[V]\n\t" "vpternlogq $0x96, %[U], %[V], %[T]\n\t"
#define VQ3 "vpalignr $8, %[W0], %[W1], %[S]\n\t" "vpaddq %[T], %[W0], %[W0]\n\t"
#define VQ4 "vprorq $1, %[S], %[U]\n\t" "vprorq $8, %[S], %[V]\n\t"
#define VQ5 "vpsrlq $7, %[S], %[S]\n\t" "vpternlogq $0x96, %[U], %[V], %[S]\n\t"
#define VQ6 "vpalignr $8, %[W4], %[W5], %[V]\n\t" "vpaddq %[S], %[W0], %[W0]\n\t"
#define VQ7(i) "vpaddq %[V], %[W0], %[W0]\n\t" "vbroadcasti128 128+8*" #i "(%[KQ]), %[T]\n\t"
#define VQ8(off) "vpaddq %[W0], %[T], %[T]\n\t" "vmovdqa %[T], 256+" #off "(%[Q])\n\t"

/* sha512_avx2.h's U2S with the step above. */
#define U2V(a, b, c, d, e, f, g, h, i, off)                                     \
	do {                                                                    \
		uint64_t t0_, t1_, y_;                                          \
		__m256i s_, t_, u_, v_;                                         \
		__asm__(VQ1 RA_(RP1, off) VQ2 RA_(RP2, off)                     \
			VQ3 RA_(RP3, off) VQ4 RA_(RP4, off)                     \
			VQ5 RB_(RP1, off) VQ6 RB_(RP2, off)                     \
			VQ7(i) RB_(RP3, off) VQ8(off) RB_(RP4, off)                \
			: GPR_OPS_(c, d, g, h), [W0] "+x"(w[(i) / 2]),          \
			  [S] "=&x"(s_), [T] "=&x"(t_), [U] "=&x"(u_),          \
			  [V] "=&x"(v_)                                         \
			: GPR_INS_(a, b, e, f), [KQ] "r"(kq),                    \
			  [W1] "x"(w[((i) / 2 + 1) & 7]), [W4] "x"(w[((i) / 2 + 4) & 7]), \
			  [W5] "x"(w[((i) / 2 + 5) & 7]), [W7] "x"(w[((i) / 2 + 7) & 7]) \
			: "cc", "memory");                                      \
	} while (0)

/* Sixteen rounds; the variables are back in place at the end. */
#define A16(U)                                      \
	do {                                        \
		U(a, b, c, d, e, f, g, h, 0, 0);    \
		U(g, h, a, b, c, d, e, f, 2, 32);   \
		U(e, f, g, h, a, b, c, d, 4, 64);   \
		U(c, d, e, f, g, h, a, b, 6, 96);   \
		U(a, b, c, d, e, f, g, h, 8, 128);  \
		U(g, h, a, b, c, d, e, f, 10, 160); \
		U(e, f, g, h, a, b, c, d, 12, 192); \
		U(c, d, e, f, g, h, a, b, 14, 224); \
	} while (0)
#endif

#endif
