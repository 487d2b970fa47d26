/* SPDX-License-Identifier: MIT */
/*
 * avx2_x4: SHA-512 (and SHA-384, SHA-512/224, SHA-512/256) of four
 * independent messages at once, one message per 64-bit lane of a ymm
 * register. Needs AVX2 only (-mavx2 on this file; 256-bit 64-bit adds,
 * logic, shifts, vpshufb, vperm2i128).
 *
 * Contract (a lane kernel, the row's lanes = 4): lanes(state, data,
 * nblocks) advances the 4 state rows (H0..H7, host order, the layout of
 * every backend in sha512_impl.h) by the same nblocks >= 1; lane l reads
 * exactly data[l][0 .. 128*nblocks), at any alignment (loadu only), and
 * nothing else; the pointers may be equal; every row is read and written,
 * idle ones included; stack only. blocks() runs this kernel with all four
 * lanes on the one message (as sha256_avx2_x8.c does), so every
 * single-message test of the row (vectors, streaming, guard pages,
 * > 4 GiB) exercises the kernel; the row is never chosen for single
 * messages.
 *
 * Technique: the transposed multi-buffer layout of Intel's multi-buffer
 * hashing (J. Guilford et al., Intel white paper, 2010), as isa-l_crypto's
 * sha512_mb x4 AVX2 kernel uses it and as sha256_avx2_x8.c does here with
 * eight 32-bit lanes: ymm register j holds word j of the four messages, so
 * each step of FIPS 180-4 6.2.2 is one vector op for the same round of
 * four streams, with no cross-lane work in the rounds. Per block and lane
 * four 32-byte loads, vpshufb for the byte order and a 4x4 transpose of
 * 64-bit words (src/core/lanes_avx2.h). AVX2 has no vector rotate (vprorq
 * is AVX-512), so a rotate is two shifts whose or folds into the Sigma's
 * xor, the shifts nested as in sha256_avx2_x8.c (x>>28 ^ x>>34 ^ x>>39 =
 * (((x >> 5) ^ x) >> 6 ^ x) >> 28), except sigma0's ROTR8, a byte rotate,
 * which is one vpshufb. Maj is b ^ ((a ^ b) & (b ^ c)) with a ^ b carried.
 * The sixteen-word schedule window is a ymm array on the stack; K is
 * broadcast from fsha512_k.
 *
 * Measured on the project's machine (AMD EPYC Zen 3, 2 vCPUs under KVM,
 * ~2.9 GHz by the bench's dependent-add clock, shared with other jobs;
 * GCC 12.2 -O3; OpenSSL 3.0 on its AVX2+BMI2 path), 2026-11-26:
 * - fastsha-bench --many -a sha512 --n 1024 (5 reps, medians of per-rep
 *   ratios): 4 KiB messages 1.66x OpenSSL's SHA512_Init/Update/Final loop
 *   and 1.74x our avx2 one-shot loop; 16 KiB 1.67x and 1.58x; 64 B 1.74x.
 *   About 1110 MB/s at 16 KiB: 2.6 cycles a byte, 16.7 cycles a round for
 *   the four lanes. isa-l_crypto's AVX2 x4 is quoted at 1.69x; the
 *   issue's 2.0x was not reached.
 * - Why it stops there: a round is 35 vector operations (Sigma0 and
 *   Sigma1 11 each: six shifts and five xors, since AVX2 has no 64-bit
 *   rotate), a schedule step 19 more (sigma1 9, sigma0 7 with the vpshufb,
 *   3 adds), 50 a round on average over 80 rounds; at Zen 3's four vector
 *   ALU pipes (shifts on two of them) that is 12.6 cycles a round before
 *   any load or store, and the loop runs at 15.3 in the kernel harness
 *   below. 2.0x needs about 13.9 in the bench, so nearly the bound; the
 *   sha1_shani_x4.c note on a fifth scalar lane (issue width, not units,
 *   is the limit at four instructions a cycle) applies here too.
 * - Variants, a private harness timing lanes() alone (4 lanes x 32-block
 *   calls, best of 40 alternating samples; relative to this file):
 *   Sigmas with all six shifts of x side by side 0.84 (GCC spills); half
 *   nested (x>>14 ^ x>>18 nested, x>>41 apart) 0.95; the whole schedule
 *   first into an 80-entry W+K array, then the rounds 0.79 (0.80 with the
 *   flat Sigmas); Ch as g ^ (e & (f ^ g)) 1.00; sigma0's ROTR8 as two
 *   shifts instead of vpshufb 0.97; K from a table broadcast once (80 ymm)
 *   0.97-0.99; -mtune=znver3 0.94, -O2 0.95, -funroll-loops 0.99;
 *   -fschedule-insns -fsched-pressure 0.98-1.05 over four runs (within the
 *   noise of the busy host, not kept). Kernel alone about 1220 MB/s.
 * - min_lanes = 3: fastsha-bench --many -a sha512 --n 2,3,4 --sizes
 *   1K,4K,64K, built with min_lanes 2: many/loop (the avx2 row one message
 *   at a time) n = 2 0.87-0.91, n = 3 1.22-1.33, n = 4 1.60-1.61. Two
 *   live messages finish single-stream.
 * - Batch choice (FSHA_AUTO_MANY): yes on this CPU; AVX2 is all it needs,
 *   so it is also the batch row on Haswell-class CPUs (not measured there;
 *   Intel runs vector shifts on fewer ports, expect less).
 */
#include <immintrin.h>
#include <string.h>

#include "../../core/lanes_avx2.h"
#include "../sha512_impl.h"

#define X4_INLINE static inline __attribute__((always_inline))

#define ADD(x, y) _mm256_add_epi64((x), (y))
#define XOR(x, y) _mm256_xor_si256((x), (y))
#define AND(x, y) _mm256_and_si256((x), (y))
#define SHR(x, n) _mm256_srli_epi64((x), (n))
#define SHL(x, n) _mm256_slli_epi64((x), (n))
#include "../../sha2/sha2_lanes_avx2.h" /* what sha256_avx2_x8.c writes alike */

/* Sigma0(a) = ROTR28 ^ ROTR34 ^ ROTR39 */
X4_INLINE __m256i bsig0(__m256i a)
{
	return FSHA2_ROT3(a, 5, 6, 28, 6, 5, 25);
}

/* Sigma1(e) = ROTR14 ^ ROTR18 ^ ROTR41 */
X4_INLINE __m256i bsig1(__m256i e)
{
	return FSHA2_ROT3(e, 23, 4, 14, 4, 23, 23);
}

/* sigma0(x) = ROTR1 ^ ROTR8 ^ SHR7; ROTR8 moves whole bytes: one vpshufb. */
X4_INLINE __m256i ssig0(__m256i x)
{
	const __m256i ror8 = _mm256_setr_epi8(1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8,
					      1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8);
	__m256i r = SHR(XOR(SHR(x, 6), x), 1); /* x>>1 ^ x>>7 */
	return XOR(XOR(r, SHL(x, 63)), _mm256_shuffle_epi8(x, ror8));
}

/* sigma1(x) = ROTR19 ^ ROTR61 ^ SHR6 */
X4_INLINE __m256i ssig1(__m256i x)
{
	__m256i r = SHR(XOR(SHR(XOR(SHR(x, 42), x), 13), x), 6);
	return XOR(r, SHL(XOR(SHL(x, 42), x), 3));
}

/*
 * One round for all lanes. T1 = h + Sigma1(e) + Ch(e,f,g) + K + W goes to
 * d (the new e) and, with Sigma0(a) + Maj(a,b,c), to h (the new a); the
 * caller renames the registers instead of moving them. This round's a ^ b
 * is the next round's b ^ c, carried in @bc.
 */
#define ROUND(a, b, c, d, e, f, g, h, t, w)                                                       \
	do {                                                                                      \
		__m256i ab_ = XOR(a, b);                                                          \
		__m256i ch_ = XOR(AND(e, f), _mm256_andnot_si256(e, g));                           \
		__m256i t1_ = ADD(ADD(h, ADD(w, _mm256_set1_epi64x((long long)fsha512_k[t]))),    \
				  ADD(bsig1(e), ch_));                                            \
		__m256i t2_ = ADD(bsig0(a), XOR(b, AND(ab_, bc)));                                \
		bc = ab_;                                                                         \
		d = ADD(d, t1_);                                                                  \
		h = ADD(t1_, t2_);                                                                \
	} while (0)


static void lanes(uint64_t (*state)[8], const uint8_t *const *data, size_t nblocks)
{
	__m256i s[8];

	for (int l = 0; l < 4; l++) {
		s[l] = _mm256_loadu_si256((const __m256i *)&state[l][0]);
		s[4 + l] = _mm256_loadu_si256((const __m256i *)&state[l][4]);
	}
	fsha_x4q_transpose(s);     /* s[j]: word j (A..D) of the four lanes */
	fsha_x4q_transpose(s + 4); /* E..H */

	for (size_t blk = 0; blk < nblocks; blk++) {
		__m256i w[16];
		__m256i a = s[0], b = s[1], c = s[2], d = s[3], e = s[4], f = s[5], g = s[6], h = s[7];
		__m256i bc = XOR(b, c);

		for (int q = 0; q < 4; q++)
			fsha_x4q_load_quarter(w + 4 * q, data, 128 * blk + 32 * (size_t)q);
		ROUNDS8(0, 0);
		ROUNDS8(8, 8);
		for (int t = 16; t < 80; t += 16) {
			SROUNDS8(t, 0);
			SROUNDS8(t + 8, 8);
		}
		FEED8(s);
	}

	fsha_x4q_transpose(s);
	fsha_x4q_transpose(s + 4);
	for (int l = 0; l < 4; l++) {
		_mm256_storeu_si256((__m256i *)&state[l][0], s[l]);
		_mm256_storeu_si256((__m256i *)&state[l][4], s[4 + l]);
	}
}

/* The row's single-message blocks(): the kernel itself, all four lanes on
 * the same data, lanes 1..3 hashing into scratch copies (see the head
 * comment). Four times the work of one stream. */
static void blocks(uint64_t state[8], const uint8_t *data, size_t nblocks)
{
	uint64_t st[4][8];
	const uint8_t *p[4] = { data, data, data, data };
	for (int l = 0; l < 4; l++)
		memcpy(st[l], state, sizeof(st[l]));
	lanes(st, p, nblocks);
	memcpy(state, st[0], sizeof(st[0]));
}

const struct fsha512_backend fsha512_backend_avx2_x4 = {
	{ "avx2_x4", FSHA_CPU_AVX2, 4, FSHA_AUTO_MANY, 3, 0 }, blocks, lanes };
