/* SPDX-License-Identifier: MIT */
/*
 * shani_avx512: SHA-256 (and SHA-224) on the x86 SHA extensions with
 * sha256msg1's part of the schedule in AVX-512VL instructions
 * (sha256_shani.h, FSHA256_NI_VL); the rounds are the shani row's.
 * Needs SHA, SSSE3, AVX-512F and AVX-512VL (xmm registers only).
 * Contract (sha256_impl.h): as sha256_shani.c. The loop is the lane
 * kernels' fsha256_ni_blocks() with one lane.
 *
 * One message is bound by the sha256rnds2 chain (4 cycles, 128 a block on
 * the Xeon it was measured on) and runs as shani does (1.00x OpenSSL at 16
 * KiB and 1 MiB); what gains is a chain whose next block waits for this
 * one, PBKDF2's (sha256_shani.h, FSHA256_NI_VL). Chosen on Intel with
 * AVX-512 only (sha256_backends.c). qemu-user cannot run it.
 */
#define FSHA256_NI_VL 1
#include "sha256_shani.h"

static void blocks(uint32_t state[8], const uint8_t *data, size_t nblocks)
{
	fsha256_ni_blocks(state, data, nblocks);
}

/* HMAC-SHA256's end in registers (fsha_mac_end_fn). */
static void mac_end(void *w, const uint8_t *blocks, size_t n, const void *outer)
{
	fsha256_ni_mac_end(w, blocks, n, outer);
}

const struct fsha256_backend fsha256_backend_shani_avx512 = {
	{ "shani_avx512", FSHA_CPU_SHA | FSHA_CPU_SSSE3 | FSHA_CPU_AVX512F | FSHA_CPU_AVX512VL, 1, 1, 0, 0 },
	blocks, NULL, mac_end
};
