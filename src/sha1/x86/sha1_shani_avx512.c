/* SPDX-License-Identifier: MIT */
/*
 * shani_avx512: SHA-1 on the x86 SHA extensions with the message schedule
 * and sha1nexte's work in AVX-512VL instructions instead of sha1msg1,
 * sha1msg2 and sha1nexte (sha1_shani.h, FSHA1_NI_VL: why, and what was
 * measured); the rounds are the shani row's sha1rnds4.
 * Needs SHA, SSE4.1, SSSE3, AVX-512F and AVX-512VL (xmm registers only).
 * Contract (sha1_impl.h): as sha1_shani.c.
 *
 * Speed (Intel Xeon, Emerald Rapids line, 2026-12-06, fastsha-bench --all,
 * medians of three runs): one message of 16 KiB or 1 MiB 2420-2430 MB/s,
 * 1.13-1.14x OpenSSL's SHA-NI loop, against shani's 2153-2157 (0.98x):
 * about 100 cycles a block against 118, the sha1rnds4 chain's floor 80.
 * Chosen on Intel with AVX-512 only (sha1_backends.c).
 *
 * Testing: qemu-user does not emulate the SHA extensions or AVX-512, so
 * this runs only on real hardware; elsewhere the tests report it skipped.
 */
#define FSHA1_NI_VL 1
#include "sha1_shani.h"

static void blocks(uint32_t state[5], const uint8_t *data, size_t nblocks)
{
	fsha1_ni_blocks(state, data, nblocks);
}

/*
 * SHA1DC on this row: the shani row's parts (sha1_shani.c), its loop
 * keeping each block's record and its pipeline (the filter of the chunk
 * before, 32 blocks a ymm vector, between this chunk's blocks), on this
 * row's rounds. Measured (the same Xeon, fastsha-bench --all -a sha1dc,
 * three runs alternating with shani's parts on shani's rounds): one
 * message of 16 KiB 1965-1989 MB/s against 1711-1729, 1 MiB 2040-2049
 * against 1769-1780 (0.90x and 0.93x OpenSSL's plain SHA-1, against 0.77x
 * and 0.80x), 64 B and 1 KiB 1.08x. With no SHA1DC parts at all (the
 * first form of this row) SHA1DC took the scalar path, 0.18x.
 */
#ifdef FSHA_HAVE_SHA1_PART_DC_SSE2
#define FSHA1DC_PIPE_VB 32
#define FSHA1DC_PIPE_FN fsha1dc_pipe_shani_avx512
#include "sha1dc_pipe.h"

FSHA1_NI_DC_SINGLE(fsha1dc_pipe_shani_avx512);
#define DC_OPS (&dc_ops)
#else
#define DC_OPS NULL
#endif

/* HMAC-SHA1's end in registers (fsha_mac_end_fn). */
static void mac_end(void *w, const uint8_t *blocks, size_t n, const void *outer)
{
	fsha1_ni_mac_end(w, blocks, n, outer);
}

const struct fsha1_backend fsha1_backend_shani_avx512 = {
	{ "shani_avx512", FSHA_CPU_SHA | FSHA_CPU_SSE41 | FSHA_CPU_SSSE3 | FSHA_CPU_AVX512F | FSHA_CPU_AVX512VL, 1, 1, 0, 0 },
	blocks, NULL, DC_OPS, mac_end
};
