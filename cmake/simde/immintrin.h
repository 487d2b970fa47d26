/* SPDX-License-Identifier: MIT */
/*
 * A stand-in <immintrin.h> for the AVX-512 files only, in the
 * FASTSHA_SIMDE_AVX512 build (a development check, never an installed
 * library; docs/platforms.md): their AVX-512 (and AVX2, SSE) intrinsics become
 * SIMDe's portable ones, so every AVX-512 row runs, and is compared with
 * portable, on a CPU without AVX-512. Written for SIMDe 0.7.4 (Debian's
 * libsimde-dev) and clang 14. cmake/backends.cmake puts this directory first
 * on those files' include path, as a system directory (SIMDe's own warnings
 * are not the project's), and builds them with no ISA flags: the real
 * header is never included, SIMDe's only native base is SSE2 (it includes
 * <emmintrin.h>, not this name), and its types alias the intrinsic ones
 * (SIMDE_ENABLE_NATIVE_ALIASES) without clashing with the compiler's.
 *
 * Below, what SIMDe 0.7.4 lacks of what the rows use. It has no masked
 * loads or stores at all, so none can read or write the whole vector
 * behind a mask: a row that calls one fails to compile here (an implicit
 * declaration, an error under -Werror) until it is added below, element by
 * element, touching only the selected elements, as the hardware's fault
 * suppression promises (a whole-vector load and a blend would read bytes
 * a real CPU never reads, and ASan would rightly stop it).
 *
 * tools/simde-check's stand-in includes this one and defines
 * FSHA_SIMDE_TOUCH(p, n, write) first, to check each element's bytes
 * against the buffers a row may touch; here it does nothing.
 */
#ifndef FSHA_SIMDE_IMMINTRIN_H
#define FSHA_SIMDE_IMMINTRIN_H

#define SIMDE_ENABLE_NATIVE_ALIASES
#include <simde/x86/avx512.h>

#include <stdint.h>
#include <string.h>

/* The mask types: SIMDe defines only its own names for them. */
typedef simde__mmask8 __mmask8;
typedef simde__mmask16 __mmask16;
typedef simde__mmask32 __mmask32;
typedef simde__mmask64 __mmask64;

/* SIMDe has the function but not the alias. */
#define _mm512_shuffle_i64x2(a, b, imm8) simde_mm512_shuffle_i64x2(a, b, imm8)

static inline simde__m512i fsha_simde_mm512_zextsi256_si512(simde__m256i a)
{
	return simde_mm512_inserti64x4(simde_mm512_setzero_si512(), a, 0);
}
#define _mm512_zextsi256_si512(a) fsha_simde_mm512_zextsi256_si512(a)

#ifndef FSHA_SIMDE_TOUCH
#define FSHA_SIMDE_TOUCH(p, n, write) ((void)0)
#endif

/* A masked store of @a's elements of @size bytes (64 / @size of them):
 * writes the ones whose bit of @k is set, and only those. */
static inline void fsha_simde_store_selected(void *p, uint32_t k, simde__m512i a, int size)
{
	unsigned char v[64];
	simde_mm512_storeu_si512(v, a);
	for (int i = 0; i < 64 / size; i++) {
		if ((k >> i) & 1) {
			FSHA_SIMDE_TOUCH((unsigned char *)p + size * i, size, 1);
			memcpy((unsigned char *)p + size * i, v + size * i, (size_t)size);
		}
	}
}

/* vmovdqu32 with a mask: writes the selected dwords only (the rows rely on
 * it: sha1dc_avx512.c stores the first k of 16 masks where masks[] may
 * end), so ASan sees no write past them. */
static inline void fsha_simde_mm512_mask_storeu_epi32(void *p, simde__mmask16 k, simde__m512i a)
{
	fsha_simde_store_selected(p, k, a, 4);
}
#define _mm512_mask_storeu_epi32(p, k, a) fsha_simde_mm512_mask_storeu_epi32(p, k, a)

/* vmovdqu32 loads with a mask (SHA-1's avx512_x16 chain kernel reads a
 * chain's five words so, not the 64 bytes around them): only the selected
 * dwords are read; the others load as zero. SIMDe 0.7.4 lacks it. */
static inline simde__m512i fsha_simde_mm512_maskz_loadu_epi32(simde__mmask16 k, const void *p)
{
	uint32_t w[16] = { 0 };
	for (int i = 0; i < 16; i++) {
		if ((k >> i) & 1) {
			FSHA_SIMDE_TOUCH((const unsigned char *)p + 4 * i, 4, 0);
			memcpy(&w[i], (const unsigned char *)p + 4 * i, 4);
		}
	}
	return simde_mm512_loadu_si512(w);
}
#define _mm512_maskz_loadu_epi32(k, p) fsha_simde_mm512_maskz_loadu_epi32(k, p)

/* vmovdqu64 with a mask, both ways (the Keccak rows load a block's words
 * that fall in a plane, or the words left at a block's end, and store the
 * state's last plane): only the selected quadwords are read or written;
 * the others load as zero. */
static inline simde__m512i fsha_simde_mm512_maskz_loadu_epi64(simde__mmask8 k, const void *p)
{
	uint64_t w[8] = { 0 };
	for (int i = 0; i < 8; i++) {
		if ((k >> i) & 1) {
			FSHA_SIMDE_TOUCH((const unsigned char *)p + 8 * i, 8, 0);
			memcpy(&w[i], (const unsigned char *)p + 8 * i, 8);
		}
	}
	return simde_mm512_loadu_si512(w);
}
#define _mm512_maskz_loadu_epi64(k, p) fsha_simde_mm512_maskz_loadu_epi64(k, p)

static inline void fsha_simde_mm512_mask_storeu_epi64(void *p, simde__mmask8 k, simde__m512i a)
{
	fsha_simde_store_selected(p, k, a, 8);
}
#define _mm512_mask_storeu_epi64(p, k, a) fsha_simde_mm512_mask_storeu_epi64(p, k, a)

#endif
