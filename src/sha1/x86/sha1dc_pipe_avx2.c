/* SPDX-License-Identifier: MIT */
/*
 * SHA1DC's pipeline for the SHA-NI row on CPUs with AVX2 (sha1dc_pipe.h):
 * the filter of the chunk before in ymm registers, 32 blocks a vector, run
 * in pieces between this chunk's SHA-NI blocks. Needs SHA and AVX2; built
 * with -msha -mavx2 on this file only, and called only where the CPU has
 * both (sha1_shani.c's pipe()). Contract: fsha1dc_pipe_fn in sha1_impl.h.
 */
#define FSHA1DC_PIPE_VB 32
#define FSHA1DC_PIPE_FN fsha1dc_pipe_avx2
#include "sha1dc_pipe.h"
