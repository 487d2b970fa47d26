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
 * Memory-touching intrinsics the rows use report the bytes they touch
 * to fsha_check_touch() (check.c), which fails on any byte outside the
 * buffers the contract lets a row read or write, at either end and at any
 * alignment (ASan sees only the end of a misaligned heap buffer, and
 * nothing inside an emulated load's memcpy of a stack temporary):
 * - _mm512_loadu_si512, _mm512_storeu_si512: all 64 bytes, as the
 *   hardware does (wrapped below);
 * - the masked loads and stores: only the words whose mask bit is set, one
 *   at a time, as the hardware's fault suppression promises. They are the
 *   library's own simde build's (cmake/simde/immintrin.h, included here
 *   with FSHA_SIMDE_TOUCH pointed at the tracker), so the Keccak rows run
 *   the same emulation in both checks.
 */

#if defined(__AVX512F__)
#error "tools/simde-check builds without -mavx512f: SIMDe must emulate, not pass through"
#endif

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* check.c: abort the run if [p, p + n) leaves the allowed buffers. */
void fsha_check_touch(const void *p, size_t n, int write);

#define FSHA_SIMDE_TOUCH(p, n, write) fsha_check_touch((p), (n), (write))
#include "../../../cmake/simde/immintrin.h"

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

#undef _mm512_loadu_si512
#undef _mm512_storeu_si512
#define _mm512_loadu_si512(p) fsha_check_loadu_si512(p)
#define _mm512_storeu_si512(p, v) fsha_check_storeu_si512((p), (v))

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
