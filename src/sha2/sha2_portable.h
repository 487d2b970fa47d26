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
 * Technique (McCurley's portable SHA-1 tricks, seed 004, carried over, and
 * the shape of OpenSSL's scalar sha512-x86_64.pl):
 * - rounds 0..15 unrolled, then one loop over a body of 16 unrolled rounds,
 *   run 3 (SHA-256) or 4 (SHA-512) times; sixteen rounds per body keep
 *   every schedule index a constant (t & 15 == i) and only K moves;
 * - working variables renamed per round instead of shifted, so the
 *   compiler keeps all eight in registers and emits no moves for them;
 * - the schedule as a rolling 16-word window computed in the round that
 *   uses it;
 * - Ch as g ^ (e & (f ^ g)) (one operation fewer than the spec's form);
 *   Maj as b ^ ((a ^ b) & (b ^ c)), whose a ^ b is the next round's b ^ c,
 *   so each round pays for one xor of it;
 * - the Sigma functions nested, ror(ror(ror(x, 14) ^ x, 5) ^ x, 6) for
 *   ror 6 ^ ror 11 ^ ror 25 (OpenSSL's form; the per-family files): x is
 *   copied once instead of three times, 2 moves fewer per Sigma on x86;
 *   on AArch64 both forms are 3 instructions (eor with a rotated operand);
 * - big-endian loads through memcpy and a byte swap.
 *
 * Measured (AMD EPYC Zen 3, KVM, 2 cores, GCC 12.2 -O3, 16 KiB messages,
 * against OpenSSL 3.0.19's scalar x86_64 code, which is selected with
 * OPENSSL_ia32cap="~0x1000020000000000:~0x20000128"; ratios are medians of
 * interleaved runs on a shared, noisy machine; instructions per block by
 * callgrind, OpenSSL 2798 (SHA-256) and 3552 (SHA-512)):
 * - all 64/80 rounds unrolled (the previous version), spec-form Sigmas:
 *   3388 / 4330 instr/block, 0.80x / 0.77x;
 * - the same with nested Sigmas: 2916 / 3704, 0.91x / 0.88x;
 * - the fully unrolled loop is about 11 KiB (SHA-256) and 13 KiB
 *   (SHA-512) of code and ran at about 4 instructions per cycle, the
 *   legacy decoder's rate, most likely because it does not fit Zen 3's
 *   4K-op cache (OpenSSL's loop, also 16 rounds, does). Rolled into the
 *   16-round body (4.5 / 5.1 KiB): 2860 / 3644 instr/block, 1.01x / 1.00x
 *   (5-7 runs each, single runs 0.95..1.07); at 64-byte messages (two
 *   blocks, padding included) 0.96x / 1.05x;
 * - once the loop fits, the Sigma form hardly matters for time: spec
 *   forms 3275 / 4144 instr/block, 1.01x / 0.98x; nested Sigma0/1 with
 *   spec sigma0/1 2989 / 3820, 1.01x / 1.00x; half-nested Sigmas
 *   (ror(ror(x, 5) ^ x, 6) ^ ror(x, 25), one step shorter dependency
 *   chain) 3033 / 3885, 1.00x / 1.01x. Nested kept: fewest instructions;
 * - not kept: h + K[t] + W[t] added one round early (GCC's reassociation
 *   emits identical code); Sigma0(a) added into a in the next round as
 *   OpenSSL does (2858 / 3633, 0.98x / 1.00x); the whole 64/80-word
 *   schedule computed before the rounds (2771 / 3453 instr/block but
 *   slower, 0.89x / 0.88x unrolled: GCC vectorises that loop with SSE2
 *   and reads pairs of words just stored one at a time); K read through a
 *   volatile pointer so GCC cannot hoist K[0..15] out of the block loop
 *   (2849 / 3627, no measurable change).
 */

#define W(i) w[(i) & 15]
#define LOAD(i) (W(i) = SHA2_LOAD(data + sizeof(SHA2_WORD) * (i)))
#define SCHED(i) (W(i) += SHA2_SSIG1(W((i) - 2)) + W((i) - 7) + SHA2_SSIG0(W((i) - 15)))

/*
 * One round with the variables in their places for round 16j + i, k
 * pointing at K[16j]. bc enters as this round's b ^ c (the previous round's
 * a ^ b) and leaves as a ^ b.
 */
#define ROUND(a, b, c, d, e, f, g, h, i, WF)                                     \
	do {                                                                     \
		SHA2_WORD t1 = h + SHA2_BSIG1(e) + (g ^ (e & (f ^ g))) + k[i] + WF(i); \
		SHA2_WORD ab_ = a ^ b;                                           \
		h = t1 + SHA2_BSIG0(a) + (b ^ (ab_ & bc));                       \
		d += t1;                                                         \
		bc = ab_;                                                        \
	} while (0)

#define EIGHT(i, WF)                                           \
	ROUND(a, b, c, d, e, f, g, h, (i) + 0, WF);            \
	ROUND(h, a, b, c, d, e, f, g, (i) + 1, WF);            \
	ROUND(g, h, a, b, c, d, e, f, (i) + 2, WF);            \
	ROUND(f, g, h, a, b, c, d, e, (i) + 3, WF);            \
	ROUND(e, f, g, h, a, b, c, d, (i) + 4, WF);            \
	ROUND(d, e, f, g, h, a, b, c, (i) + 5, WF);            \
	ROUND(c, d, e, f, g, h, a, b, (i) + 6, WF);            \
	ROUND(b, c, d, e, f, g, h, a, (i) + 7, WF)

static void blocks(SHA2_WORD state[8], const uint8_t *data, size_t nblocks)
{
	SHA2_WORD w[16];
	do {
		const SHA2_WORD *k = SHA2_K;
		SHA2_WORD a = state[0], b = state[1], c = state[2], d = state[3];
		SHA2_WORD e = state[4], f = state[5], g = state[6], h = state[7];
		SHA2_WORD bc = b ^ c;

		EIGHT(0, LOAD);
		EIGHT(8, LOAD);
		/* Not unrolled further: see the measurements above. */
		for (int j = 1; j < SHA2_ROUNDS / 16; j++) {
			k += 16;
			EIGHT(0, SCHED);
			EIGHT(8, SCHED);
		}

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
