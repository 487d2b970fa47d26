/* SPDX-License-Identifier: MIT */
/*
 * Leaving the upper halves of the ymm registers dirty, as a caller that ran
 * 256-bit AVX code without vzeroupper would (and, on AVX-512 CPUs, every
 * zmm register, as AVX-512 code would): for fastsha-bench --dirty and
 * tests/test_dirty.c. x86 only (FSHA_HAVE_UPPER_DIRTY); call
 * upper_dirty() only where upper_avx_usable() says the CPU and OS have AVX.
 *
 * The AVX instruction is basic inline assembly in a function compiled for
 * AVX (target("avx")), with no clobber: GCC puts a vzeroupper before the
 * return of an AVX function that uses a vector register, and it counts an
 * asm's clobber of xmm7 as such a use (checked with objdump: with the
 * clobber the dirty function ended in vzeroupper). Every vector register is
 * call-clobbered in the x86 ABIs and nothing is live across this asm, so
 * leaving them unnamed is safe; the function returns with them written.
 */
#ifndef FASTSHA_UPPER_DIRTY_H
#define FASTSHA_UPPER_DIRTY_H

#if defined(__x86_64__) || defined(__i386__)
#define FSHA_HAVE_UPPER_DIRTY 1

/* All ones into every ymm register (VEX.256 writes), as an AVX loop that
 * used them all leaves them. On AMD Zen a legacy-SSE instruction pays for
 * the dirty state only when its own destination's upper half is not zero
 * (it must merge into it), so dirtying one register showed little; all of
 * them is the case that matters. */
#if defined(__x86_64__)
#define UPPER_ALL_                                                                               \
	"vcmpps $15, %ymm0, %ymm0, %ymm0\n\tvcmpps $15, %ymm1, %ymm1, %ymm1\n\t"                 \
	"vcmpps $15, %ymm2, %ymm2, %ymm2\n\tvcmpps $15, %ymm3, %ymm3, %ymm3\n\t"                 \
	"vcmpps $15, %ymm4, %ymm4, %ymm4\n\tvcmpps $15, %ymm5, %ymm5, %ymm5\n\t"                 \
	"vcmpps $15, %ymm6, %ymm6, %ymm6\n\tvcmpps $15, %ymm7, %ymm7, %ymm7\n\t"                 \
	"vcmpps $15, %ymm8, %ymm8, %ymm8\n\tvcmpps $15, %ymm9, %ymm9, %ymm9\n\t"                 \
	"vcmpps $15, %ymm10, %ymm10, %ymm10\n\tvcmpps $15, %ymm11, %ymm11, %ymm11\n\t"           \
	"vcmpps $15, %ymm12, %ymm12, %ymm12\n\tvcmpps $15, %ymm13, %ymm13, %ymm13\n\t"           \
	"vcmpps $15, %ymm14, %ymm14, %ymm14\n\tvcmpps $15, %ymm15, %ymm15, %ymm15\n\t"
#else
#define UPPER_ALL_                                                                               \
	"vcmpps $15, %ymm0, %ymm0, %ymm0\n\tvcmpps $15, %ymm1, %ymm1, %ymm1\n\t"                 \
	"vcmpps $15, %ymm2, %ymm2, %ymm2\n\tvcmpps $15, %ymm3, %ymm3, %ymm3\n\t"                 \
	"vcmpps $15, %ymm4, %ymm4, %ymm4\n\tvcmpps $15, %ymm5, %ymm5, %ymm5\n\t"                 \
	"vcmpps $15, %ymm6, %ymm6, %ymm6\n\tvcmpps $15, %ymm7, %ymm7, %ymm7\n\t"
#endif

#if defined(__x86_64__)
/* All ones into every zmm register (EVEX.512 writes), as an AVX-512 loop
 * leaves them: the upper halves of zmm0..15 and all of zmm16..31, which
 * vzeroupper does not touch. */
#define UPPER_ZMM_(i) "vpternlogd $0xff, %zmm" #i ", %zmm" #i ", %zmm" #i "\n\t"
#define UPPER_ZMM_ALL_                                                                           \
	UPPER_ZMM_(0) UPPER_ZMM_(1) UPPER_ZMM_(2) UPPER_ZMM_(3) UPPER_ZMM_(4) UPPER_ZMM_(5)     \
	UPPER_ZMM_(6) UPPER_ZMM_(7) UPPER_ZMM_(8) UPPER_ZMM_(9) UPPER_ZMM_(10) UPPER_ZMM_(11)   \
	UPPER_ZMM_(12) UPPER_ZMM_(13) UPPER_ZMM_(14) UPPER_ZMM_(15) UPPER_ZMM_(16)              \
	UPPER_ZMM_(17) UPPER_ZMM_(18) UPPER_ZMM_(19) UPPER_ZMM_(20) UPPER_ZMM_(21)              \
	UPPER_ZMM_(22) UPPER_ZMM_(23) UPPER_ZMM_(24) UPPER_ZMM_(25) UPPER_ZMM_(26)              \
	UPPER_ZMM_(27) UPPER_ZMM_(28) UPPER_ZMM_(29) UPPER_ZMM_(30) UPPER_ZMM_(31)
/* zmm16..31 zeroed (a zero idiom leaves them clean), for the baseline. */
#define UPPER_ZMM_ZERO_(i) "vpxord %zmm" #i ", %zmm" #i ", %zmm" #i "\n\t"
#define UPPER_ZMM_ZERO_HI_                                                                       \
	UPPER_ZMM_ZERO_(16) UPPER_ZMM_ZERO_(17) UPPER_ZMM_ZERO_(18) UPPER_ZMM_ZERO_(19)          \
	UPPER_ZMM_ZERO_(20) UPPER_ZMM_ZERO_(21) UPPER_ZMM_ZERO_(22) UPPER_ZMM_ZERO_(23)          \
	UPPER_ZMM_ZERO_(24) UPPER_ZMM_ZERO_(25) UPPER_ZMM_ZERO_(26) UPPER_ZMM_ZERO_(27)          \
	UPPER_ZMM_ZERO_(28) UPPER_ZMM_ZERO_(29) UPPER_ZMM_ZERO_(30) UPPER_ZMM_ZERO_(31)

__attribute__((target("avx512f"), noinline, unused)) static void upper_dirty_zmm(void)
{
	__asm__ volatile(UPPER_ZMM_ALL_);
}

__attribute__((target("avx512f"), noinline, unused)) static void upper_clean_zmm(void)
{
	__asm__ volatile(UPPER_ZMM_ALL_ "vzeroupper\n\t" UPPER_ZMM_ZERO_HI_);
}
#endif

/* Whether upper_dirty() writes the zmm registers too: set by
 * upper_avx_usable() on CPUs (and OSes) with AVX-512F, where a caller's
 * AVX-512 code can leave them dirty. */
static int upper_zmm_ __attribute__((unused));

/* VEX.256 writes, no vzeroupper after them; on AVX-512 CPUs EVEX.512
 * writes of all 32 zmm registers after them. */
__attribute__((target("avx"), noinline, unused)) static void upper_dirty(void)
{
	__asm__ volatile(UPPER_ALL_);
#if defined(__x86_64__)
	if (upper_zmm_)
		upper_dirty_zmm();
#endif
}

/* The same writes, then vzeroupper (and zmm16..31 zeroed): the clean
 * baseline, with the same calls and instructions, so that the two differ
 * only in the state. */
__attribute__((target("avx"), noinline, unused)) static void upper_clean(void)
{
#if defined(__x86_64__)
	if (upper_zmm_) {
		__asm__ volatile(UPPER_ALL_);
		upper_clean_zmm();
		return;
	}
#endif
	__asm__ volatile(UPPER_ALL_ "vzeroupper");
}

__attribute__((unused)) static int upper_avx_usable(void)
{
	__builtin_cpu_init();
	upper_zmm_ = __builtin_cpu_supports("avx512f");
	return __builtin_cpu_supports("avx");
}
#endif

#endif
