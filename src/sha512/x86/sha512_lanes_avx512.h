/* SPDX-License-Identifier: MIT */
#ifndef FSHA512_LANES_AVX512_H
#define FSHA512_LANES_AVX512_H

/*
 * The operations of the SHA-512 AVX-512 lane kernels (sha512_avx512_x8.c,
 * sha512_avx512_x16.c: one 64-bit lane a message in zmm registers): their
 * adds, rotates, shifts, vpternlogq and round constants, FIPS 180-4's
 * rotate counts, and from them sha2/sha2_lanes_avx512.h's Sigmas and round
 * and sha2/sha2_lanes_avx2.h's schedule step. Only for files built with
 * -mavx512f -mavx512bw.
 */
#include <immintrin.h>

#include "../sha512_impl.h"

#define ADD(x, y) _mm512_add_epi64((x), (y))
#define ROR(x, n) _mm512_ror_epi64((x), (n))
#define SHR(x, n) _mm512_srli_epi64((x), (n))
#define TERN(x, y, z, imm) _mm512_ternarylogic_epi64((x), (y), (z), (imm))
#define KB(t) _mm512_set1_epi64((long long)fsha512_k[t])
#define FSHA2_BS0 28, 34, 39 /* Sigma0 = ROTR28 ^ ROTR34 ^ ROTR39 */
#define FSHA2_BS1 14, 18, 41
#define FSHA2_SS0 1, 8, 7 /* sigma0 = ROTR1 ^ ROTR8 ^ SHR7 */
#define FSHA2_SS1 19, 61, 6
/* bsig0, bsig1, ssig0, ssig1 and ROUND (one group's round), as the
 * SHA-256 AVX-512 kernel */
#include "../../sha2/sha2_lanes_avx512.h"
/* SCHED, the schedule step on a window w[16], as the AVX2 lane kernels
 * write it. */
#include "../../sha2/sha2_lanes_avx2.h"

#endif
