/* SPDX-License-Identifier: MIT */
/*
 * SHA1DC's filter with SSE2: 16 blocks a run, one a byte lane of xmm
 * registers (sha1dc_simd.h). Needs SSE2 (every x86_64 CPU; built with
 * -msse2 on this file for i686). Contract: the filter functions in
 * sha1_impl.h. The SSE2-only rows name fsha1dc_ops_sse2; the SHA-NI rows
 * name fsha1dc_ops_x86, which takes the AVX2 filter on CPUs that have it.
 */
#define FSHA1DC_VBYTES 16
#include "../sha1dc_simd.h"

void fsha1dc_filter_sse2(const uint8_t *const *blocks, size_t n, uint32_t *masks);

void fsha1dc_filter_sse2(const uint8_t *const *blocks, size_t n, uint32_t *masks)
{
	fsha1dc_simd_filter(blocks, n, masks);
}

/* From the records; @nar is not read (the generic code has no loader for
 * it). */
void fsha1dc_filter_rec_sse2(const struct fsha1dc_rec *rec, const uint64_t *nar, size_t n,
			     uint32_t *masks)
{
	(void)nar;
	fsha1dc_simd_filter_rec(rec, n, masks);
}

const struct fsha1dc_ops fsha1dc_ops_sse2 = { fsha1dc_filter_sse2, NULL, NULL, NULL, NULL, NULL };

/*
 * The SHA-NI rows' filters. They need no AVX2, but nearly every CPU with
 * SHA-NI has it (Intel Goldmont and its successors are the exception), and
 * the AVX2 filter takes well under half the time per block (16 blocks a
 * run against 8, and loads transposed with shuffles). The AVX2 functions
 * return with the upper halves cleared, so the legacy-SSE SHA-NI code that
 * runs next is not slowed.
 */
void fsha1dc_filter_x86(const uint8_t *const *blocks, size_t n, uint32_t *masks)
{
#ifdef FSHA_HAVE_SHA1_PART_DC_AVX2
	if (fsha_cpu_features() & FSHA_CPU_AVX2) {
		fsha1dc_filter_avx2(blocks, n, masks);
		return;
	}
#endif
	fsha1dc_simd_filter(blocks, n, masks);
}

void fsha1dc_filter_rec_x86(const struct fsha1dc_rec *rec, const uint64_t *nar, size_t n,
			    uint32_t *masks)
{
#ifdef FSHA_HAVE_SHA1_PART_DC_AVX2
	if (fsha_cpu_features() & FSHA_CPU_AVX2) {
		fsha1dc_filter_rec_avx2(rec, nar, n, masks);
		return;
	}
#endif
	fsha1dc_simd_filter_rec(rec, n, masks);
}

void fsha1dc_recheck_x86(struct fsha1dc_job *const *jobs, size_t n)
{
#ifdef FSHA_HAVE_SHA1_PART_DC_AVX2
	if (fsha_cpu_features() & FSHA_CPU_AVX2) {
		fsha1dc_recheck_avx2(jobs, n);
		return;
	}
#endif
	fsha1dc_recheck_portable(jobs, n);
}

/* The filters for rows that add no record-keeping loop of their own. */
const struct fsha1dc_ops fsha1dc_ops_x86 = { fsha1dc_filter_x86, NULL, NULL, NULL, NULL, NULL };
