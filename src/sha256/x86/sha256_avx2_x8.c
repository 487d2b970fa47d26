/* SPDX-License-Identifier: MIT */
/*
 * avx2_x8: SHA-256 (and SHA-224) of eight independent messages at once,
 * one message per 32-bit lane of a ymm register. Needs AVX2 only (-mavx2
 * on this file; 256-bit integer adds, logic, shifts, vpshufb, vperm2i128).
 * Builds for 32-bit x86 too (tests pass there), at about 1.5x the cycles:
 * that mode has 8 ymm registers, not 16.
 *
 * Contract (a lane kernel, the row's lanes = 8): lanes(state, data,
 * nblocks) advances the 8 state rows (H0..H7, host order, the layout of
 * every backend in sha256_impl.h) by the same nblocks >= 1; lane l reads
 * exactly data[l][0 .. 64*nblocks), at any alignment (loadu only), and
 * nothing else; the pointers may be equal; every row is read and written,
 * idle ones included; stack only. blocks() runs this kernel with all eight
 * lanes on the one message, so every single-message test of the row
 * (vectors, streaming, guard pages, > 4 GiB) exercises the kernel.
 *
 * Technique: the "transposed" multi-buffer layout of Intel's multi-buffer
 * hashing (J. Guilford et al., Intel white paper, 2010) as isa-l_crypto's
 * x8 AVX2 SHA-256 uses it: ymm register j holds word j of all eight
 * messages, so each step of FIPS 180-4 6.2.2 is one vector op for the
 * same round of eight streams, with no cross-lane work in the rounds.
 * The cost is moving data in: per block and lane, two 32-byte loads,
 * vpshufb for the byte order and an 8x8 transpose (unpack 32, unpack 64,
 * vperm2i128: 24 shuffles per half block); the state is transposed in and
 * out once per call. AVX2 has no vector rotate, so each ROTR is two shifts
 * and each Sigma/sigma xors all the shifted terms together (the or of a
 * rotate folds into the xor); the shifts are nested, (((x >> 9) ^ x) >> 11
 * ^ x) >> 2 = x>>2 ^ x>>13 ^ x>>22, which keeps GCC from hoisting six
 * shifted copies per Sigma into registers it then spills. Maj is
 * b ^ ((a ^ b) & (b ^ c)) with a ^ b carried to the next round as its
 * b ^ c. The sixteen-word schedule window is a ymm array on the stack
 * (8 state words, the Maj carry and the temporaries already fill the 16
 * registers); K is broadcast from fsha256_k.
 *
 * Measured on the project's machine (AMD EPYC Zen 3, 2 vCPUs under KVM,
 * about 3.06 GHz, shared with other jobs, so runs went under a lock and
 * repeated; GCC 12.2 -O3, OpenSSL 3.0). A driver outside the tree timed
 * fastsha256_many() over 1024 messages with each row pinned
 * (fastsha_use_backend, as FASTSHA_BACKEND does), interleaved in one
 * process with OpenSSL's SHA256() and SHA256_Init/Update/Final loops over
 * the same messages; thread CPU time, best of 5 per sample, median of 11
 * samples per run, medians of 5 runs (the runs agreed within 5%, most
 * within 1%).
 * Cycles per 64-byte block of message data (for 64 B messages: per
 * message), aggregate over all lanes, from the 3.06 GHz clock (no cycle
 * counter); "x8 is" = this row's throughput divided by the other's:
 *
 *                               1024 x 4 KiB         1024 x 64 B
 *                              cyc/blk  x8 is      cyc/msg   x8 is
 *   avx2_x8 (this)              131.9    -          367      -
 *   avx2 (single stream)        439.8   3.33x       955     2.60x
 *   shani_x3 (batch choice)      58.5   0.44x       183     0.50x
 *   OpenSSL SHA256(), SHA-NI    147.2   1.12x      1319     3.60x
 *   OpenSSL Init/Update/Final   126.2   0.96x       269     0.73x
 *   OpenSSL SHA256(), AVX2 path 436.8   3.32x      2040     5.53x
 *   (OPENSSL_ia32cap=":~0x20000000", the path a Haswell user gets)
 *
 * So on an AVX2 CPU without SHA-NI this row gives about 3.3x the
 * single-stream speed on long messages. A 64-byte message is two 1-block
 * calls plus the scheduler's padding and output (about a fifth of the
 * time), and OpenSSL 3's SHA256() pays its EVP fetch per call.
 * The kernel alone (8 lanes x 64-block calls, in a private harness): 127
 * cycles a block with GCC 12 -O3, 124 with clang 14. That is near the
 * bound of its op mix: about 3250 vector ops per eight blocks, 1250 of
 * them shifts, which issue two a cycle here against four for adds and
 * logic; at the 3.45 ops a cycle a 1:1 shift/xor mix reached in a port
 * test that is about 118 cycles a block. Variants, A/B in one process
 * (time relative to this file): all Sigma/sigma shifts side by side 1.18
 * with GCC (it spills; clang 0.99); all 64 rounds unrolled 1.16 (likely
 * the body outgrowing the op cache); an 8-round loop with computed window
 * indices 1.00; Sigma1 added last to shorten the e chain 0.96 to 1.01
 * over runs, not kept. Gathers were not tried: with 64-bit lane pointers they would
 * be vpgatherqd, four words each, and gathers are slow on AMD. On Intel
 * Haswell/Broadwell the vector shifts have one port, so expect a smaller
 * gain there (not measured; qemu -cpu Haswell only tests correctness).
 *
 * min_lanes = 3: fastsha256_many() over n messages of 4 KiB, avx2_x8
 * against avx2 pinned (5 runs, medians; built with min_lanes 0): x8 takes
 * the same 22 us for any n up to 8, avx2 9.3 us a message; avx2/x8 time
 * is 0.42 at n = 1, 0.85 at n = 2, 1.28 at n = 3, 1.69 at n = 4, 3.4 at
 * n = 8. Below three live messages the scheduler finishes them on the
 * single-message row.
 */
#include <immintrin.h>

#include "../../core/lanes_avx2.h"
#include "../sha256_impl.h"

#define X8_INLINE static inline __attribute__((always_inline))

#define ADD(x, y) _mm256_add_epi32((x), (y))
#define XOR(x, y) _mm256_xor_si256((x), (y))
#define AND(x, y) _mm256_and_si256((x), (y))
#define SHR(x, n) _mm256_srli_epi32((x), (n))
#define SHL(x, n) _mm256_slli_epi32((x), (n))
#include "../../sha2/sha2_lanes_avx2.h" /* what sha512_avx2_x4.c writes alike */

/* Sigma0(a) = ROTR2 ^ ROTR13 ^ ROTR22 (nested shifts: see the head comment) */
X8_INLINE __m256i bsig0(__m256i a)
{
	return FSHA2_ROT3(a, 9, 11, 2, 11, 9, 10);
}

/* Sigma1(e) = ROTR6 ^ ROTR11 ^ ROTR25 */
X8_INLINE __m256i bsig1(__m256i e)
{
	return FSHA2_ROT3(e, 14, 5, 6, 5, 14, 7);
}

/* sigma0(x) = ROTR7 ^ ROTR18 ^ SHR3 */
X8_INLINE __m256i ssig0(__m256i x)
{
	__m256i r = SHR(XOR(SHR(XOR(SHR(x, 11), x), 4), x), 3);
	return XOR(r, SHL(XOR(SHL(x, 11), x), 14));
}

/* sigma1(x) = ROTR17 ^ ROTR19 ^ SHR10 */
X8_INLINE __m256i ssig1(__m256i x)
{
	__m256i r = SHR(XOR(SHR(XOR(SHR(x, 2), x), 7), x), 10);
	return XOR(r, SHL(XOR(SHL(x, 2), x), 13));
}

/*
 * One round for all lanes. T1 = h + Sigma1(e) + Ch(e,f,g) + K + W goes to
 * d (the new e) and, with Sigma0(a) + Maj(a,b,c), to h (the new a); the
 * caller renames the registers instead of moving them. Maj is
 * b ^ ((a ^ b) & (b ^ c)), and this round's a ^ b is the next round's
 * b ^ c, carried in @bc.
 */
#define ROUND_KW(a, b, c, d, e, f, g, h, kw)                                                      \
	do {                                                                                      \
		__m256i ab_ = XOR(a, b);                                                          \
		__m256i ch_ = XOR(AND(e, f), _mm256_andnot_si256(e, g));                           \
		__m256i t1_ = ADD(ADD(h, kw), ADD(bsig1(e), ch_));                                \
		__m256i t2_ = ADD(bsig0(a), XOR(b, AND(ab_, bc)));                                \
		bc = ab_;                                                                         \
		d = ADD(d, t1_);                                                                  \
		h = ADD(t1_, t2_);                                                                \
	} while (0)
#define ROUND(a, b, c, d, e, f, g, h, t, w)                                                       \
	ROUND_KW(a, b, c, d, e, f, g, h, ADD(w, _mm256_set1_epi32((int)fsha256_k[t])))
/* The shared block's W[t] + K[t], in every lane (WK_ROUNDS8). */
#define WK(t) _mm256_set1_epi32((int)wk[t])

/*
 * The kernel: @nblocks blocks of each lane's data, then, when @wk is not
 * NULL, one more block whose W[t] + K[t] are wk[t] in every lane (the
 * shared-block entry below): rounds only, no load, transpose or schedule.
 */
static inline __attribute__((always_inline)) void
run(uint32_t (*state)[8], const uint8_t *const *data, size_t nblocks, const uint32_t *wk)
{
	__m256i s[8];

	for (int l = 0; l < 8; l++)
		s[l] = _mm256_loadu_si256((const __m256i *)state[l]);
	fsha_x8_transpose(s); /* s[j]: word j (A..H) of the eight lanes */

	for (size_t blk = 0; blk < nblocks; blk++) {
		__m256i w[16];
		__m256i a = s[0], b = s[1], c = s[2], d = s[3], e = s[4], f = s[5], g = s[6], h = s[7];
		__m256i bc = XOR(b, c);

		fsha_x8_load_half(w, data, 64 * blk);
		fsha_x8_load_half(w + 8, data, 64 * blk + 32);
		ROUNDS8(0, 0);
		ROUNDS8(8, 8);
		for (int t = 16; t < 64; t += 16) {
			SROUNDS8(t, 0);
			SROUNDS8(t + 8, 8);
		}
		FEED8(s);
	}
	if (wk) {
		__m256i a = s[0], b = s[1], c = s[2], d = s[3], e = s[4], f = s[5], g = s[6], h = s[7];
		__m256i bc = XOR(b, c);
		for (int t = 0; t < 64; t += 8)
			WK_ROUNDS8(t);
		FEED8(s);
	}

	fsha_x8_transpose(s);
	for (int l = 0; l < 8; l++)
		_mm256_storeu_si256((__m256i *)state[l], s[l]);
}

static void lanes(uint32_t (*state)[8], const uint8_t *const *data, size_t nblocks)
{
	run(state, data, nblocks, NULL);
}

/* The shared-block entry (fsha256_lanes_wk_fn, backend.h run_lanes_shared). */
void fsha256_avx2_x8_lanes_wk(uint32_t (*state)[8], const uint8_t *const *data, size_t nblocks,
			      const uint32_t wk[64])
{
	run(state, data, nblocks, wk);
}

FSHA_X8_BLOCKS(8)

const struct fsha256_backend fsha256_backend_avx2_x8 = {
	{ "avx2_x8", FSHA_CPU_AVX2, 8, FSHA_AUTO_MANY, 3, 0 }, blocks, lanes, NULL };
