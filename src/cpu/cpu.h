/* SPDX-License-Identifier: MIT */
#ifndef FSHA_CPU_H
#define FSHA_CPU_H

#include <stdint.h>

/*
 * CPU features the backends need. A bit is set only when both the CPU and
 * the OS support it (AVX and AVX-512 bits require XGETBV to show the OS
 * saves the register state).
 */
enum {
	FSHA_CPU_SSE2 = 1u << 0,
	FSHA_CPU_SSSE3 = 1u << 1,
	FSHA_CPU_SSE41 = 1u << 2,
	FSHA_CPU_AVX = 1u << 3,
	FSHA_CPU_AVX2 = 1u << 4,
	FSHA_CPU_BMI1 = 1u << 5,
	FSHA_CPU_BMI2 = 1u << 6,
	FSHA_CPU_SHA = 1u << 7,       /* x86 SHA extensions (SHA-NI) */
	FSHA_CPU_AVX512F = 1u << 8,
	FSHA_CPU_AVX512VL = 1u << 9,
	FSHA_CPU_AVX512BW = 1u << 10,
	FSHA_CPU_ARM_SHA1 = 1u << 16, /* ARMv8 crypto extensions */
	FSHA_CPU_ARM_SHA2 = 1u << 17,
	FSHA_CPU_NEON = 1u << 18,
	FSHA_CPU_ARM_SHA512 = 1u << 19, /* ARMv8.2 SHA512 (sha512h, sha512su0, ...) */
	FSHA_CPU_PPC_VEC_CRYPTO = 1u << 24, /* POWER8 vector crypto (vshasigmaw/d): AT_HWCAP2 */
};

/*
 * fsha_cpu_features() - the FSHA_CPU_* bits of this machine.
 * Detected on the first call and cached; thread-safe without an init call.
 */
uint32_t fsha_cpu_features(void);

#endif
