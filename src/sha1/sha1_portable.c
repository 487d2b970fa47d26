/* SPDX-License-Identifier: MIT */
/*
 * portable: the fastest SHA-1 we can write in plain C11, no intrinsics.
 * Needs no CPU feature; always built, and the safe default.
 *
 * Technique (McCurley's portable C SHA-1, seed 004, and what compilers make
 * of it today):
 * - all 80 rounds unrolled, the five working variables renamed per round
 *   instead of shifted, so no moves are spent on e=d, d=c, ...;
 * - the schedule as a rolling 16-word window, W[t] computed in the round
 *   that needs it (W[t] = rol1(W[t-3]^W[t-8]^W[t-14]^W[t-16]) on t mod 16);
 * - cheaper f-functions: Ch = d ^ (b & (c ^ d)) (3 ops, no NOT);
 *   Maj = (b & c) + (d & (b ^ c)), whose two terms never share a set bit, so
 *   the + folds into the chain of additions into e;
 * - rotates written so the compiler emits one rol; loads through memcpy plus
 *   bswap (one movbe or mov+bswap), so any alignment is fine.
 */
#include "sha1_impl.h"

#define ROL fsha_rol32

#define F1(b, c, d) ((d) ^ ((b) & ((c) ^ (d))))
#define F2(b, c, d) ((b) ^ (c) ^ (d))
#define F3(b, c, d) (((b) & (c)) + ((d) & ((b) ^ (c))))

#define K1 0x5a827999u
#define K2 0x6ed9eba1u
#define K3 0x8f1bbcdcu
#define K4 0xca62c1d6u

/* W for rounds 0..15: the message word itself. */
#define LOAD(t) (w[t] = fsha_load_be32(data + 4 * (t)))
/* W for rounds 16..79, in place in the 16-word window. */
#define SCHED(t)                                                                       \
	(w[(t) & 15] = ROL(w[((t) + 13) & 15] ^ w[((t) + 8) & 15] ^ w[((t) + 2) & 15] ^ \
			   w[(t) & 15], 1))

#define ROUND(a, b, c, d, e, F, K, W)                      \
	do {                                               \
		e += ROL(a, 5) + F(b, c, d) + (K) + (W);   \
		b = ROL(b, 30);                            \
	} while (0)

/* Five rounds, after which the variables are back in their places. */
#define FIVE(F, K, WF, t)                                   \
	ROUND(a, b, c, d, e, F, K, WF(t));                  \
	ROUND(e, a, b, c, d, F, K, WF((t) + 1));            \
	ROUND(d, e, a, b, c, F, K, WF((t) + 2));            \
	ROUND(c, d, e, a, b, F, K, WF((t) + 3));            \
	ROUND(b, c, d, e, a, F, K, WF((t) + 4))

static void blocks(uint32_t state[5], const uint8_t *data, size_t nblocks)
{
	uint32_t a, b, c, d, e, w[16];
	do {
		a = state[0];
		b = state[1];
		c = state[2];
		d = state[3];
		e = state[4];

		FIVE(F1, K1, LOAD, 0);
		FIVE(F1, K1, LOAD, 5);
		FIVE(F1, K1, LOAD, 10);
		ROUND(a, b, c, d, e, F1, K1, LOAD(15));
		ROUND(e, a, b, c, d, F1, K1, SCHED(16));
		ROUND(d, e, a, b, c, F1, K1, SCHED(17));
		ROUND(c, d, e, a, b, F1, K1, SCHED(18));
		ROUND(b, c, d, e, a, F1, K1, SCHED(19));

		FIVE(F2, K2, SCHED, 20);
		FIVE(F2, K2, SCHED, 25);
		FIVE(F2, K2, SCHED, 30);
		FIVE(F2, K2, SCHED, 35);

		FIVE(F3, K3, SCHED, 40);
		FIVE(F3, K3, SCHED, 45);
		FIVE(F3, K3, SCHED, 50);
		FIVE(F3, K3, SCHED, 55);

		FIVE(F2, K4, SCHED, 60);
		FIVE(F2, K4, SCHED, 65);
		FIVE(F2, K4, SCHED, 70);
		FIVE(F2, K4, SCHED, 75);

		state[0] += a;
		state[1] += b;
		state[2] += c;
		state[3] += d;
		state[4] += e;
		data += 64;
	} while (--nblocks);
}

const struct fsha1_backend fsha1_backend_portable = { { "portable", 0, 1, 1, 0, 0 }, blocks, NULL, NULL, NULL };

/*
 * Four lanes, each the loop above: the `portable_x4` row, never chosen on
 * its own, so the multi-buffer scheduler and its tests run on every machine.
 */
static void lanes4(uint32_t (*state)[5], const uint8_t *const *data, size_t nblocks)
{
	for (unsigned i = 0; i < 4; i++)
		blocks(state[i], data[i], nblocks);
}

const struct fsha1_backend fsha1_backend_portable_x4 = { { "portable_x4", 0, 4, 0, 3, 0 }, blocks, lanes4, NULL, NULL };
