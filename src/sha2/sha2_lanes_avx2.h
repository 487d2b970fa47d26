/* SPDX-License-Identifier: MIT */
#ifndef FSHA2_LANES_AVX2_H
#define FSHA2_LANES_AVX2_H

/*
 * What the SHA-256 and SHA-512 AVX2 lane kernels (sha256_avx2_x8.c, eight
 * lanes of 32-bit words; sha512_avx2_x4.c, four of 64-bit words) write the
 * same way: the message schedule step on a 16-word window and the rounds in
 * blocks of eight with the working variables renamed instead of moved.
 * Macros only, expanded in each kernel on its own ROUND(a..h, t, w), ADD,
 * ssig0 and ssig1, its window w[16] and variables a..h.
 */

/*
 * The XOR of three rotations of @x, right by R1 + R2 + R3, R2 + R3 and R3,
 * as two chains of nested shifts (AVX2 has no rotate): right shifts by r1,
 * r2, r3 xor-ed in turn, and left shifts by l1, l2, l3 the same way
 * (l1 + l2 + l3 = width - r3, and so on). Each kernel's Sigma functions
 * are this with their own counts, on its SHR, SHL and XOR.
 */
#define FSHA2_ROT3(x, r1, r2, r3, l1, l2, l3)                                                     \
	XOR(SHR(XOR(SHR(XOR(SHR(x, r1), x), r2), x), r3),                                        \
	    SHL(XOR(SHL(XOR(SHL(x, l1), x), l2), x), l3))

/* W[t] into the window slot of W[t-16] (t >= 16; i = t mod 16). */
#define SCHED(w, i)                                                                               \
	(w[i] = ADD(ADD(w[i], ssig0(w[((i) + 1) & 15])),                                        \
		    ADD(w[((i) + 9) & 15], ssig1(w[((i) + 14) & 15]))))

/* Rounds t..t+7 on the message words w[i..i+7]. */
#define ROUNDS8(t, i)                                                                             \
	do {                                                                                      \
		ROUND(a, b, c, d, e, f, g, h, (t) + 0, w[(i) + 0]);                               \
		ROUND(h, a, b, c, d, e, f, g, (t) + 1, w[(i) + 1]);                               \
		ROUND(g, h, a, b, c, d, e, f, (t) + 2, w[(i) + 2]);                               \
		ROUND(f, g, h, a, b, c, d, e, (t) + 3, w[(i) + 3]);                               \
		ROUND(e, f, g, h, a, b, c, d, (t) + 4, w[(i) + 4]);                               \
		ROUND(d, e, f, g, h, a, b, c, (t) + 5, w[(i) + 5]);                               \
		ROUND(c, d, e, f, g, h, a, b, (t) + 6, w[(i) + 6]);                               \
		ROUND(b, c, d, e, f, g, h, a, (t) + 7, w[(i) + 7]);                               \
	} while (0)

/* Rounds t..t+7, each computing its message word first (SCHED). */
#define SROUNDS8(t, i)                                                                            \
	do {                                                                                      \
		ROUND(a, b, c, d, e, f, g, h, (t) + 0, SCHED(w, (i) + 0));                        \
		ROUND(h, a, b, c, d, e, f, g, (t) + 1, SCHED(w, (i) + 1));                        \
		ROUND(g, h, a, b, c, d, e, f, (t) + 2, SCHED(w, (i) + 2));                        \
		ROUND(f, g, h, a, b, c, d, e, (t) + 3, SCHED(w, (i) + 3));                        \
		ROUND(e, f, g, h, a, b, c, d, (t) + 4, SCHED(w, (i) + 4));                        \
		ROUND(d, e, f, g, h, a, b, c, (t) + 5, SCHED(w, (i) + 5));                        \
		ROUND(c, d, e, f, g, h, a, b, (t) + 6, SCHED(w, (i) + 6));                        \
		ROUND(b, c, d, e, f, g, h, a, (t) + 7, SCHED(w, (i) + 7));                        \
	} while (0)

/* Rounds t..t+7 of a block whose W[t] + K[t] is the same in every lane
 * (the shared-block entries, backend.h run_lanes_shared): WK(t) is the
 * kernel's broadcast of it, ROUND_KW(a..h, kw) its round on a K + W. */
#define WK_ROUNDS8(t)                                                                             \
	do {                                                                                      \
		ROUND_KW(a, b, c, d, e, f, g, h, WK((t) + 0));                                    \
		ROUND_KW(h, a, b, c, d, e, f, g, WK((t) + 1));                                    \
		ROUND_KW(g, h, a, b, c, d, e, f, WK((t) + 2));                                    \
		ROUND_KW(f, g, h, a, b, c, d, e, WK((t) + 3));                                    \
		ROUND_KW(e, f, g, h, a, b, c, d, WK((t) + 4));                                    \
		ROUND_KW(d, e, f, g, h, a, b, c, WK((t) + 5));                                    \
		ROUND_KW(c, d, e, f, g, h, a, b, WK((t) + 6));                                    \
		ROUND_KW(b, c, d, e, f, g, h, a, WK((t) + 7));                                    \
	} while (0)

/* A block's end: the working variables a..h added into the chaining
 * words s[0..7]. */
#define FEED8(s)                                                                                  \
	do {                                                                                      \
		(s)[0] = ADD((s)[0], a);                                                          \
		(s)[1] = ADD((s)[1], b);                                                          \
		(s)[2] = ADD((s)[2], c);                                                          \
		(s)[3] = ADD((s)[3], d);                                                          \
		(s)[4] = ADD((s)[4], e);                                                          \
		(s)[5] = ADD((s)[5], f);                                                          \
		(s)[6] = ADD((s)[6], g);                                                          \
		(s)[7] = ADD((s)[7], h);                                                          \
	} while (0)

#endif
