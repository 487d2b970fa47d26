/* SPDX-License-Identifier: MIT */
/*
 * Leaving the upper halves of the ymm registers dirty, as a caller that ran
 * 256-bit AVX code without vzeroupper would: for fastsha-bench --dirty and
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

/* VEX.256 writes, no vzeroupper after them. */
__attribute__((target("avx"), noinline, unused)) static void upper_dirty(void)
{
	__asm__ volatile(UPPER_ALL_);
}

/* The same write, then vzeroupper: the clean baseline, with the same call
 * and the same instruction, so that the two differ only in the state. */
__attribute__((target("avx"), noinline, unused)) static void upper_clean(void)
{
	__asm__ volatile(UPPER_ALL_ "vzeroupper");
}

__attribute__((unused)) static int upper_avx_usable(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx");
}
#endif

#endif
