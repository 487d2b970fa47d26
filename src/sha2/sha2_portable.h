/* SPDX-License-Identifier: MIT */
/*
 * The portable SHA-2 compression loop, one source for both word sizes: it
 * is compiled into sha256_portable.c and sha512_portable.c, each of which
 * defines first
 *   SHA2_WORD         uint32_t or uint64_t
 *   SHA2_ROUNDS       64 or 80
 *   SHA2_K            the round constants
 *   SHA2_LOAD(p)      a big-endian word from p
 *   SHA2_BSIG0/1(x), SHA2_SSIG0/1(x)   FIPS 180-4 4.1.2 / 4.1.3
 * and gets `static void blocks(SHA2_WORD state[8], const uint8_t *data,
 * size_t nblocks)` under the family's backend contract.
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

#define W(t) w[(t) & 15]
#define LOAD(t) (W(t) = SHA2_LOAD(data + sizeof(SHA2_WORD) * (t)))
#define SCHED(t) (W(t) += SHA2_SSIG1(W((t) - 2)) + W((t) - 7) + SHA2_SSIG0(W((t) - 15)))

/*
 * One round with the variables in their places for round t. bc enters as
 * this round's b ^ c (the previous round's a ^ b) and leaves as a ^ b.
 */
#define ROUND(a, b, c, d, e, f, g, h, t, wt)                                        \
	do {                                                                        \
		SHA2_WORD t1 = h + SHA2_BSIG1(e) + (g ^ (e & (f ^ g))) + SHA2_K[t] + (wt); \
		SHA2_WORD ab_ = a ^ b;                                               \
		h = t1 + SHA2_BSIG0(a) + (b ^ (ab_ & bc));                           \
		d += t1;                                                             \
		bc = ab_;                                                            \
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

static void blocks(SHA2_WORD state[8], const uint8_t *data, size_t nblocks)
{
	SHA2_WORD w[16];
	do {
		SHA2_WORD a = state[0], b = state[1], c = state[2], d = state[3];
		SHA2_WORD e = state[4], f = state[5], g = state[6], h = state[7];
		SHA2_WORD bc = b ^ c;

		EIGHT(0, LOAD);
		EIGHT(8, LOAD);
		EIGHT(16, SCHED);
		EIGHT(24, SCHED);
		EIGHT(32, SCHED);
		EIGHT(40, SCHED);
		EIGHT(48, SCHED);
		EIGHT(56, SCHED);
#if SHA2_ROUNDS == 80
		EIGHT(64, SCHED);
		EIGHT(72, SCHED);
#endif

		state[0] += a;
		state[1] += b;
		state[2] += c;
		state[3] += d;
		state[4] += e;
		state[5] += f;
		state[6] += g;
		state[7] += h;
		data += 16 * sizeof(SHA2_WORD);
	} while (--nblocks);
}

/*
 * Four lanes, each the loop above: the `portable_x4` row, never chosen on
 * its own. It lets the multi-buffer scheduler (src/core/lanes.c) and its
 * tests run on every machine, emulated and big-endian ones included, before
 * and besides the real lane kernels.
 */
static void lanes4(SHA2_WORD (*state)[8], const uint8_t *const *data, size_t nblocks)
{
	for (unsigned i = 0; i < 4; i++)
		blocks(state[i], data[i], nblocks);
}
