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
	FSHA_CPU_AVX512VBMI = 1u << 11, /* vpermb, vpermt2b */
	FSHA_CPU_ARM_SHA1 = 1u << 16, /* ARMv8 crypto extensions */
	FSHA_CPU_ARM_SHA2 = 1u << 17,
	FSHA_CPU_NEON = 1u << 18,
	FSHA_CPU_ARM_SHA512 = 1u << 19, /* ARMv8.2 SHA512 (sha512h, sha512su0, ...) */
	FSHA_CPU_ARM_SHA3 = 1u << 20,   /* ARMv8.2 SHA3 (eor3, rax1, xar, bcax) */
	FSHA_CPU_PPC_VEC_CRYPTO = 1u << 24, /* POWER8 vector crypto (vshasigmaw/d): AT_HWCAP2 */
	/*
	 * Not an instruction set: a tuning trait, set by detection alone. No
	 * row requires it; a table names it in its yields (struct fsha_yield,
	 * core/backend.h) where the automatic choice should pass a row over on
	 * such CPUs (measured there). AMD family 17h models 30h and up, Zen 2
	 * (Rome, Matisse, Renoir and later parts of that family): its SHA-NI
	 * gains less from interleaved messages than Zen 3's, its AVX2 is full
	 * width (docs/benchmarks.md, Zen 2), and its vector shifts and stores
	 * share one pipe (keccak_avx2_x4s.c). Zen and Zen+ (models
	 * 00h-2Fh) are not measured and do not get it.
	 */
	FSHA_CPU_TUNE_ZEN2 = 1u << 28,
	/*
	 * Intel CPUs with AVX-512 (F, BW) and SHA-NI: their 512-bit units are
	 * full width (two a cycle on the server parts) while a SHA-NI round
	 * instruction is slower than on AMD's Zen 3/4, so SHA-256 batches run
	 * faster on 16 AVX-512 lanes than on interleaved SHA-NI (measured on a
	 * Xeon that KVM reports as family 6 model 167, with AMX and
	 * AVX512-FP16: the Sapphire/Emerald Rapids line; sha256_backends.c
	 * has the figures), and its sha1rnds4 and sha256rnds2 hold the SHA
	 * unit for 3 cycles of their 4, so the shani_avx512 rows (and SHA-512's
	 * avx2_vl) take work off it and off the ports (sha1_backends.c). Not
	 * set without AVX-512: Intel's AVX2-only cores with SHA-NI are not
	 * measured. Set on every Intel core with AVX-512 F, BW and SHA-NI (Ice
	 * Lake, Tiger Lake, Rocket Lake and later too): an assumption that
	 * they behave as the one measured.
	 */
	FSHA_CPU_TUNE_INTEL_AVX512 = 1u << 29,
};

/*
 * fsha_cpu_features() - the FSHA_CPU_* bits of this machine.
 * Detected on the first call and cached; thread-safe without an init call.
 */
uint32_t fsha_cpu_features(void);

#if defined(__x86_64__) || defined(__i386__)
#include <stdatomic.h>

/* fsha_cpu_features()' cache: its bits, with bit 31 once detected, else 0. */
extern _Atomic uint32_t fsha_cpu_cache;

/*
 * fsha_cpu_clean_upper() - vzeroupper, on CPUs that have AVX only.
 *
 * For the library's entry points, before their first legacy-SSE
 * instruction (src/core/md.h's init, absorb, final and digest, and
 * fsha_many() in lanes.c). A caller that ran 256-bit AVX code and did
 * not clean up leaves the upper ymm halves dirty, and the first
 * legacy-SSE instruction after that, whichever register it writes, costs
 * about 350 cycles on the project's Zen 3 under KVM (about 115 ns, once
 * per transition, measured in a scratch loop; fastsha-bench --dirty).
 * The SHA-NI kernels are legacy SSE throughout (SHA-NI has no VEX form),
 * but so are the engine's own state copies that run before any kernel, so
 * a vzeroupper at the kernels' entry came too late (64-byte one-shots
 * stayed at 0.41-0.44x clean) and it is issued here instead. It is an AVX
 * instruction and faults (#UD) on a CPU without AVX, some of which have
 * SHA-NI (Intel Goldmont, Goldmont Plus, Tremont), hence the test of the
 * cached AVX bit: one load and a predictable branch. Before detection has
 * run the cache is 0 and this does nothing (slower at worst, never wrong).
 *
 * Returns @p, hidden from the optimiser: the "memory" clobber keeps loads
 * from memory it cannot see after the vzeroupper, but GCC still hoisted
 * the load of a constant IV (movdqa from .rodata) above it, so the caller
 * reads its constants through the returned pointer.
 */
static inline __attribute__((always_inline)) const void *fsha_cpu_clean_upper(const void *p)
{
	if (atomic_load_explicit(&fsha_cpu_cache, memory_order_relaxed) & FSHA_CPU_AVX)
		__asm__ volatile("vzeroupper" : "+r"(p) : : "memory");
	else
		__asm__("" : "+r"(p));
	return p;
}
#else
static inline const void *fsha_cpu_clean_upper(const void *p)
{
	return p;
}
#endif

/*
 * fsha_cpu_clear_vregs() - zeroes the vector registers a kernel may have
 * left a secret in (x86-64: xmm/ymm 0-15, and zmm 16-31 on CPUs with
 * AVX-512; elsewhere nothing). A register is not memory of ours, but whatever runs
 * next may save it to the stack: the dynamic linker's lazy binding saves
 * every vector register (12 bytes of an HMAC key XOR ipad were found so in
 * the command's stack, Release build). For src/mac/ after a key is
 * prepared; not for hot paths.
 */
/* zmm16-31 as clobbers, only where the compiler may use them: GCC refuses
 * them in a translation unit built without AVX-512 (src/mac/ is), where
 * it keeps nothing there anyway. */
#if defined(__AVX512F__)
#define FSHA_ZMM_HI_CLOBBERS                                                                       \
	, "xmm16", "xmm17", "xmm18", "xmm19", "xmm20", "xmm21", "xmm22", "xmm23", "xmm24",         \
		"xmm25", "xmm26", "xmm27", "xmm28", "xmm29", "xmm30", "xmm31"
#else
#define FSHA_ZMM_HI_CLOBBERS
#endif

static inline void fsha_cpu_clear_vregs(void)
{
#if defined(__x86_64__)
	const uint32_t f = atomic_load_explicit(&fsha_cpu_cache, memory_order_relaxed);
	if (f & FSHA_CPU_AVX)
		__asm__ volatile("vzeroall" ::: "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5",
				 "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13",
				 "xmm14", "xmm15");
	else
		__asm__ volatile("xorps %%xmm0, %%xmm0\n\txorps %%xmm1, %%xmm1\n\t"
				 "xorps %%xmm2, %%xmm2\n\txorps %%xmm3, %%xmm3\n\t"
				 "xorps %%xmm4, %%xmm4\n\txorps %%xmm5, %%xmm5\n\t"
				 "xorps %%xmm6, %%xmm6\n\txorps %%xmm7, %%xmm7\n\t"
				 "xorps %%xmm8, %%xmm8\n\txorps %%xmm9, %%xmm9\n\t"
				 "xorps %%xmm10, %%xmm10\n\txorps %%xmm11, %%xmm11\n\t"
				 "xorps %%xmm12, %%xmm12\n\txorps %%xmm13, %%xmm13\n\t"
				 "xorps %%xmm14, %%xmm14\n\txorps %%xmm15, %%xmm15" ::
					 : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6",
					   "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13",
					   "xmm14", "xmm15");
	/* vzeroall leaves zmm16-31, which the AVX-512 rows use. A VEX or
	 * EVEX write of an xmm register would need AVX512VL for these; the
	 * 512-bit form needs AVX512F only and zeroes the whole register. Not
	 * in the SIMDe development build, which reports AVX512F on CPUs that
	 * lack it (its AVX-512 rows are emulated and use none of these). */
#if !defined(FSHA_SIMDE_AVX512)
	if (f & FSHA_CPU_AVX512F)
		__asm__ volatile("vpxord %%zmm16, %%zmm16, %%zmm16\n\tvpxord %%zmm17, %%zmm17, %%zmm17\n\t"
				 "vpxord %%zmm18, %%zmm18, %%zmm18\n\tvpxord %%zmm19, %%zmm19, %%zmm19\n\t"
				 "vpxord %%zmm20, %%zmm20, %%zmm20\n\tvpxord %%zmm21, %%zmm21, %%zmm21\n\t"
				 "vpxord %%zmm22, %%zmm22, %%zmm22\n\tvpxord %%zmm23, %%zmm23, %%zmm23\n\t"
				 "vpxord %%zmm24, %%zmm24, %%zmm24\n\tvpxord %%zmm25, %%zmm25, %%zmm25\n\t"
				 "vpxord %%zmm26, %%zmm26, %%zmm26\n\tvpxord %%zmm27, %%zmm27, %%zmm27\n\t"
				 "vpxord %%zmm28, %%zmm28, %%zmm28\n\tvpxord %%zmm29, %%zmm29, %%zmm29\n\t"
				 "vpxord %%zmm30, %%zmm30, %%zmm30\n\tvpxord %%zmm31, %%zmm31, %%zmm31" ::
					 : "cc" FSHA_ZMM_HI_CLOBBERS);
#endif
#endif
}

#endif
