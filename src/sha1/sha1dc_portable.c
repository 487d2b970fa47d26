/* SPDX-License-Identifier: MIT */
/*
 * SHA1DC's filter in plain C: the generated relations (dc/ubc_filter.inc,
 * dc/gen_ubc.py) on a block's expanded message, one 32-bit word at a time.
 * Its masks are the ones every SIMD filter must give (sha1dc_simd.h); the
 * scalar path (rows without SHA1DC parts, sha1dc_driver.c) and lane rows
 * without a filter of their own (sha1dc_many.c) use it.
 */
#include "sha1dc_impl.h"

uint32_t fsha1dc_ubc_portable(const uint32_t W[80])
{
	uint32_t b0[65], b3[65], m[4];
	for (int t = 35; t < 65; t++) { /* bytes 0 and 3: the bits the filter reads */
		b0[t] = W[t] & 0xff;
		b3[t] = W[t] >> 24;
	}
#define FSHA1DC_V uint32_t
#define FSHA1DC_BIT(b) (1u << (b))
#include "dc/ubc_filter.inc"
#undef FSHA1DC_BIT
#undef FSHA1DC_V
	return m[0] | m[1] << 8 | m[2] << 16 | m[3] << 24;
}

void fsha1dc_filter_portable(const uint8_t *data, size_t n, uint32_t *masks)
{
	for (size_t i = 0; i < n; i++) {
		uint32_t W[80];
		fsha1dc_expand(data + 64 * i, W);
		masks[i] = fsha1dc_ubc_portable(W);
	}
}

void fsha1dc_filter_portable_ptrs(const uint8_t *const *blocks, size_t n, uint32_t *masks)
{
	for (size_t i = 0; i < n; i++)
		fsha1dc_filter_portable(blocks[i], 1, masks + i);
}
