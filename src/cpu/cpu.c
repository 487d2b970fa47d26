/* SPDX-License-Identifier: MIT */
/*
 * CPU feature detection: the only place that asks the CPU or the OS what
 * they can do. The answer is computed once and cached in an atomic; racing
 * first callers compute the same value, so no lock is needed.
 */
#include "cpu.h"

#include <stdatomic.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <string.h>

static uint64_t xgetbv0(void)
{
	uint32_t lo, hi;
	/* Encoded as bytes so no -mxsave flag is needed on this file. */
	__asm__ volatile(".byte 0x0f, 0x01, 0xd0" : "=a"(lo), "=d"(hi) : "c"(0));
	return ((uint64_t)hi << 32) | lo;
}

#ifdef FSHA_SIMDE_AVX512
#include <stdio.h>
#include <stdlib.h>

/*
 * The SIMDe check's build only (FASTSHA_SIMDE_AVX512, docs/platforms.md): its
 * AVX-512 files run on SIMDe's emulated intrinsics, so AVX-512 F, VL, BW
 * and VBMI are reported on top of the real bits, given AVX2 (as detect()
 * has it: the AVX-512 code calls the native AVX2 code). FASTSHA_SIMDE_HIDE,
 * a comma-separated list of bit names (avx512vbmi,sha), then takes bits
 * away, so the step-down paths run too; what needs a hidden bit goes with
 * it, as in detect(). An unknown name aborts: a typo must not pass as a
 * run without it.
 */
static uint32_t simde_features(uint32_t f)
{
	static const struct {
		const char *name;
		uint32_t bit;
	} names[] = {
		{ "sse2", FSHA_CPU_SSE2 },	   { "ssse3", FSHA_CPU_SSSE3 },
		{ "sse41", FSHA_CPU_SSE41 },	   { "avx", FSHA_CPU_AVX },
		{ "avx2", FSHA_CPU_AVX2 },	   { "bmi1", FSHA_CPU_BMI1 },
		{ "bmi2", FSHA_CPU_BMI2 },	   { "sha", FSHA_CPU_SHA },
		{ "avx512f", FSHA_CPU_AVX512F },   { "avx512vl", FSHA_CPU_AVX512VL },
		{ "avx512bw", FSHA_CPU_AVX512BW }, { "avx512vbmi", FSHA_CPU_AVX512VBMI },
	};
	const uint32_t avx512 = FSHA_CPU_AVX512F | FSHA_CPU_AVX512VL | FSHA_CPU_AVX512BW |
				FSHA_CPU_AVX512VBMI;
	if (f & FSHA_CPU_AVX2)
		f |= avx512;
	const char *hide = getenv("FASTSHA_SIMDE_HIDE");
	while (hide && *hide) {
		size_t n = strcspn(hide, ",");
		size_t i = 0;
		while (i < sizeof names / sizeof names[0] &&
		       (strlen(names[i].name) != n || strncmp(names[i].name, hide, n) != 0))
			i++;
		if (n && i == sizeof names / sizeof names[0]) {
			fprintf(stderr, "FASTSHA_SIMDE_HIDE: unknown CPU feature '%.*s'\n", (int)n, hide);
			abort();
		}
		if (n)
			f &= ~names[i].bit;
		hide += n + (hide[n] == ',');
	}
	if (!(f & FSHA_CPU_AVX))
		f &= ~FSHA_CPU_AVX2;
	if (!(f & FSHA_CPU_AVX2) || !(f & FSHA_CPU_AVX512F))
		f &= ~avx512;
	return f;
}
#endif

/* "AuthenticAMD" and "GenuineIntel" as leaf 0 gives them in EBX, EDX, ECX. */
static int vendor_is(uint32_t b, uint32_t d, uint32_t c, const char name[13])
{
	uint32_t w[3];
	memcpy(w, name, 12);
	return b == w[0] && d == w[1] && c == w[2];
}

/*
 * The FSHA_CPU_TUNE_* traits from the vendor (leaf 0, read once), leaf 1's
 * EAX @sig and the detected bits @f (the hardware's, before any SIMDe
 * emulation): FSHA_CPU_TUNE_ZEN2 for AMD family 17h (base 0Fh + extended
 * 08h), model 30h and up; FSHA_CPU_TUNE_INTEL_AVX512 for Intel with
 * AVX-512 F and BW and SHA-NI.
 */
static uint32_t tune_bits(uint32_t sig, uint32_t f)
{
	uint32_t a, b, c, d;
	__cpuid(0, a, b, c, d);
	if (vendor_is(b, d, c, "AuthenticAMD")) {
		uint32_t family = (sig >> 8) & 0xf, model = (sig >> 4) & 0xf;
		if (family == 0xf) {
			family += (sig >> 20) & 0xff;
			model |= ((sig >> 16) & 0xf) << 4;
		}
		return family == 0x17 && model >= 0x30 ? FSHA_CPU_TUNE_ZEN2 : 0;
	}
	const uint32_t need = FSHA_CPU_AVX512F | FSHA_CPU_AVX512BW | FSHA_CPU_SHA;
	if (vendor_is(b, d, c, "GenuineIntel") && (f & need) == need)
		return FSHA_CPU_TUNE_INTEL_AVX512;
	return 0;
}

static uint32_t detect(void)
{
	uint32_t a, b, c, d, f = 0;
	if (!__get_cpuid(1, &a, &b, &c, &d))
		return 0;
	const uint32_t sig = a;
	if (d & (1u << 26))
		f |= FSHA_CPU_SSE2;
	if (c & (1u << 9))
		f |= FSHA_CPU_SSSE3;
	if (c & (1u << 19))
		f |= FSHA_CPU_SSE41;
	int osxsave = (c >> 27) & 1, avx = (c >> 28) & 1;
	uint64_t xcr0 = osxsave ? xgetbv0() : 0;
	/* XMM (bit 1) and YMM (bit 2) state must both be saved by the OS. */
	int ymm_ok = (xcr0 & 0x6) == 0x6;
	/* opmask, ZMM_Hi256 and Hi16_ZMM (bits 5-7) as well for AVX-512. */
	int zmm_ok = ymm_ok && (xcr0 & 0xe0) == 0xe0;
	if (avx && ymm_ok)
		f |= FSHA_CPU_AVX;

	uint32_t max = __get_cpuid_max(0, 0);
	if (max >= 7) {
		__cpuid_count(7, 0, a, b, c, d);
		if ((b & (1u << 5)) && (f & FSHA_CPU_AVX))
			f |= FSHA_CPU_AVX2;
		if (b & (1u << 3))
			f |= FSHA_CPU_BMI1;
		if (b & (1u << 8))
			f |= FSHA_CPU_BMI2;
		if (b & (1u << 29))
			f |= FSHA_CPU_SHA;
		/* AVX-512 only beside AVX2 (every such CPU has both; a VM could
		 * hide one): the AVX-512 code calls AVX2 code for its small cases
		 * (x86/sha1dc_avx512.c). */
		if (zmm_ok && (b & (1u << 16)) && (f & FSHA_CPU_AVX2)) {
			f |= FSHA_CPU_AVX512F;
			if (b & (1u << 31))
				f |= FSHA_CPU_AVX512VL;
			if (b & (1u << 30))
				f |= FSHA_CPU_AVX512BW;
			if (c & (1u << 1))
				f |= FSHA_CPU_AVX512VBMI;
		}
	}
	f |= tune_bits(sig, f);
#ifdef FSHA_SIMDE_AVX512
	f = simde_features(f);
#endif
	return f;
}

#elif defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#ifndef HWCAP_SHA1
#define HWCAP_SHA1 (1 << 5)
#endif
#ifndef HWCAP_SHA2
#define HWCAP_SHA2 (1 << 6)
#endif
#ifndef HWCAP_SHA512
#define HWCAP_SHA512 (1 << 21)
#endif
#ifndef HWCAP_SHA3
#define HWCAP_SHA3 (1 << 17)
#endif
#ifndef HWCAP_ASIMD
#define HWCAP_ASIMD (1 << 1)
#endif

static uint32_t detect(void)
{
	unsigned long hw = getauxval(AT_HWCAP);
	uint32_t f = 0;
	if (hw & HWCAP_ASIMD)
		f |= FSHA_CPU_NEON;
	if (hw & HWCAP_SHA1)
		f |= FSHA_CPU_ARM_SHA1;
	if (hw & HWCAP_SHA2)
		f |= FSHA_CPU_ARM_SHA2;
	if (hw & HWCAP_SHA512)
		f |= FSHA_CPU_ARM_SHA512;
	if (hw & HWCAP_SHA3)
		f |= FSHA_CPU_ARM_SHA3;
	return f;
}

#elif defined(__powerpc64__) && defined(__linux__)
#include <sys/auxv.h>
/* POWER8 (ISA 2.07) vector crypto: vshasigmaw/vshasigmad, vpmsum, vcipher. */
#ifndef PPC_FEATURE2_VEC_CRYPTO
#define PPC_FEATURE2_VEC_CRYPTO 0x02000000
#endif

static uint32_t detect(void)
{
	uint32_t f = 0;
	if (getauxval(AT_HWCAP2) & PPC_FEATURE2_VEC_CRYPTO)
		f |= FSHA_CPU_PPC_VEC_CRYPTO;
	return f;
}

#else
static uint32_t detect(void)
{
	return 0;
}
#endif

/* Bit 31 marks "detected", so a machine with no features still caches. */
#define FSHA_CPU_DETECTED (1u << 31)

/* Not static: fsha_cpu_clean_upper() (cpu.h) reads it inline. Hidden, as
 * every library symbol without FASTSHA_API. */
_Atomic uint32_t fsha_cpu_cache;

uint32_t fsha_cpu_features(void)
{
	uint32_t f = atomic_load_explicit(&fsha_cpu_cache, memory_order_relaxed);
	if (!f) {
		f = detect() | FSHA_CPU_DETECTED;
		atomic_store_explicit(&fsha_cpu_cache, f, memory_order_relaxed);
	}
	return f & ~FSHA_CPU_DETECTED;
}
