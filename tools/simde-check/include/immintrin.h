/* SPDX-License-Identifier: MIT */
#ifndef FSHA_SIMDE_CHECK_IMMINTRIN_H
#define FSHA_SIMDE_CHECK_IMMINTRIN_H

/*
 * Stand-in <immintrin.h> for tools/simde-check: found before the
 * compiler's own (-I), so the AVX-512 Keccak rows compile unchanged
 * against SIMDe's portable emulation of the intrinsics (native aliases:
 * _mm512_* names map to simde_mm512_*). Built without -mavx512f: SIMDe
 * would otherwise pass the calls through to the real instructions, which
 * this machine lacks.
 *
 * Memory-touching intrinsics the rows use are replaced here, each
 * reporting the bytes it touches to fsha_check_touch() (check.c), which
 * fails on any byte outside the buffers the contract lets a row read or
 * write, at either end and at any alignment (ASan sees only the end of a
 * misaligned heap buffer, and nothing inside an emulated load's memcpy of
 * a stack temporary):
 * - _mm512_loadu_si512, _mm512_storeu_si512: all 64 bytes, as the
 *   hardware does;
 * - _mm512_maskz_loadu_epi64, _mm512_mask_storeu_epi64: only the 8-byte
 *   words whose mask bit is set, one at a time, as the hardware's fault
 *   suppression promises. A 64-byte load then a blend (what an emulation
 *   may do) would report over-reads a real CPU never makes, or, if not
 *   reported, hide a mask one word too wide. SIMDe 0.7.4 has neither.
 */

#if defined(__AVX512F__)
#error "tools/simde-check builds without -mavx512f: SIMDe must emulate, not pass through"
#endif

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define SIMDE_ENABLE_NATIVE_ALIASES
#include <simde/x86/avx512.h>

/* SIMDe aliases the vector types but not the mask types. */
typedef simde__mmask8 __mmask8;
typedef simde__mmask16 __mmask16;

/* check.c: abort the run if [p, p + n) leaves the allowed buffers. */
void fsha_check_touch(const void *p, size_t n, int write);

static inline simde__m512i fsha_check_loadu_si512(const void *p)
{
	fsha_check_touch(p, 64, 0);
	return simde_mm512_loadu_si512(p);
}

static inline void fsha_check_storeu_si512(void *p, simde__m512i v)
{
	fsha_check_touch(p, 64, 1);
	simde_mm512_storeu_si512(p, v);
}

static inline simde__m512i fsha_check_maskz_loadu_epi64(simde__mmask8 k, const void *p)
{
	uint64_t w[8] = { 0 };
	for (int i = 0; i < 8; i++) {
		if (k & (1u << i)) {
			fsha_check_touch((const uint8_t *)p + 8 * i, 8, 0);
			memcpy(&w[i], (const uint8_t *)p + 8 * i, 8);
		}
	}
	return simde_mm512_loadu_si512(w);
}

static inline void fsha_check_mask_storeu_epi64(void *p, simde__mmask8 k, simde__m512i v)
{
	uint64_t w[8];
	simde_mm512_storeu_si512(w, v);
	for (int i = 0; i < 8; i++) {
		if (k & (1u << i)) {
			fsha_check_touch((uint8_t *)p + 8 * i, 8, 1);
			memcpy((uint8_t *)p + 8 * i, &w[i], 8);
		}
	}
}

#undef _mm512_loadu_si512
#undef _mm512_storeu_si512
#undef _mm512_maskz_loadu_epi64
#undef _mm512_mask_storeu_epi64
#define _mm512_loadu_si512(p) fsha_check_loadu_si512(p)
#define _mm512_storeu_si512(p, v) fsha_check_storeu_si512((p), (v))
#define _mm512_maskz_loadu_epi64(k, p) fsha_check_maskz_loadu_epi64((k), (p))
#define _mm512_mask_storeu_epi64(p, k, v) fsha_check_mask_storeu_epi64((p), (k), (v))

/* Every other AVX-512 load or store is made a compile error here rather
 * than left unchecked: a row that starts using one must add its checked
 * form above first. */
#undef _mm512_load_si512
#undef _mm512_store_si512
#undef _mm512_loadu_epi64
#undef _mm512_storeu_epi64
#undef _mm512_load_epi64
#undef _mm512_store_epi64
#undef _mm512_mask_loadu_epi64
#undef _mm512_i64gather_epi64
#undef _mm512_i64scatter_epi64
#define _mm512_load_si512 fsha_check_unwrapped_memory_intrinsic
#define _mm512_store_si512 fsha_check_unwrapped_memory_intrinsic
#define _mm512_loadu_epi64 fsha_check_unwrapped_memory_intrinsic
#define _mm512_storeu_epi64 fsha_check_unwrapped_memory_intrinsic
#define _mm512_load_epi64 fsha_check_unwrapped_memory_intrinsic
#define _mm512_store_epi64 fsha_check_unwrapped_memory_intrinsic
#define _mm512_mask_loadu_epi64 fsha_check_unwrapped_memory_intrinsic
#define _mm512_i64gather_epi64 fsha_check_unwrapped_memory_intrinsic
#define _mm512_i64scatter_epi64 fsha_check_unwrapped_memory_intrinsic

#endif
