/* SPDX-License-Identifier: MIT */
/*
 * portable: SHA-512 in plain C for any CPU, the automatic choice where no
 * SIMD or SHA instructions are there. CPU features: none. Contract:
 * sha512_impl.h.
 *
 * Technique (McCurley's portable SHA-1 tricks, seed 004, carried over):
 * rounds fully unrolled eight at a time with the working variables renamed
 * instead of shifted, so the compiler keeps all eight in registers and
 * emits no moves; the schedule as a rolling 16-word window computed just
 * before the round that uses it; Ch as g ^ (e & (f ^ g)) (one operation
 * fewer than the spec's form); Maj as b ^ ((a ^ b) & (b ^ c)), whose
 * a ^ b is the next round's b ^ c, so each round pays for one xor of it;
 * big-endian loads through memcpy and a byte swap.
 */
#include "sha512_impl.h"

#define ROR fsha_ror64
#define BSIG0(x) (ROR(x, 28) ^ ROR(x, 34) ^ ROR(x, 39))
#define BSIG1(x) (ROR(x, 14) ^ ROR(x, 18) ^ ROR(x, 41))
#define SSIG0(x) (ROR(x, 1) ^ ROR(x, 8) ^ ((x) >> 7))
#define SSIG1(x) (ROR(x, 19) ^ ROR(x, 61) ^ ((x) >> 6))

#define W(t) w[(t) & 15]
#define LOAD(t) (W(t) = fsha_load_be64(data + 8 * (t)))
#define SCHED(t) (W(t) += SSIG1(W((t) - 2)) + W((t) - 7) + SSIG0(W((t) - 15)))

/*
 * One round with the variables in their places for round t. ab holds
 * a ^ b of this round on exit (it entered as this round's b ^ c, the
 * previous round's a ^ b).
 */
#define ROUND(a, b, c, d, e, f, g, h, t, wt)                                    \
	do {                                                                    \
		uint64_t t1 = h + BSIG1(e) + (g ^ (e & (f ^ g))) + fsha512_k[t] + (wt); \
		uint64_t ab_ = a ^ b;                                            \
		h = t1 + BSIG0(a) + (b ^ (ab_ & bc));                            \
		d += t1;                                                         \
		bc = ab_;                                                        \
	} while (0)

#define EIGHT(t, WF)                                                        \
	ROUND(a, b, c, d, e, f, g, h, (t) + 0, WF((t) + 0));                \
	ROUND(h, a, b, c, d, e, f, g, (t) + 1, WF((t) + 1));                \
	ROUND(g, h, a, b, c, d, e, f, (t) + 2, WF((t) + 2));                \
	ROUND(f, g, h, a, b, c, d, e, (t) + 3, WF((t) + 3));                \
	ROUND(e, f, g, h, a, b, c, d, (t) + 4, WF((t) + 4));                \
	ROUND(d, e, f, g, h, a, b, c, (t) + 5, WF((t) + 5));                \
	ROUND(c, d, e, f, g, h, a, b, (t) + 6, WF((t) + 6));                \
	ROUND(b, c, d, e, f, g, h, a, (t) + 7, WF((t) + 7))

static void blocks(uint64_t state[8], const uint8_t *data, size_t nblocks)
{
	uint64_t w[16];
	do {
		uint64_t a = state[0], b = state[1], c = state[2], d = state[3];
		uint64_t e = state[4], f = state[5], g = state[6], h = state[7];
		uint64_t bc = b ^ c;

		EIGHT(0, LOAD);
		EIGHT(8, LOAD);
		EIGHT(16, SCHED);
		EIGHT(24, SCHED);
		EIGHT(32, SCHED);
		EIGHT(40, SCHED);
		EIGHT(48, SCHED);
		EIGHT(56, SCHED);
		EIGHT(64, SCHED);
		EIGHT(72, SCHED);

		state[0] += a;
		state[1] += b;
		state[2] += c;
		state[3] += d;
		state[4] += e;
		state[5] += f;
		state[6] += g;
		state[7] += h;
		data += 128;
	} while (--nblocks);
}

const struct fsha512_backend fsha512_backend_portable = { { "portable", 0, 1, 1 }, blocks, NULL };
