/* SPDX-License-Identifier: MIT */
/*
 * The shani_avx512 row's PBKDF2 chain kernels: sha1_shani_chain.h on that
 * row's rounds (sha1_shani.h, FSHA1_NI_VL), built with its flags.
 */
#define FSHA1_NI_VL 1
#include "sha1_shani_chain.h"

void fsha1_shani_avx512_chain_x1(struct fsha_chain *c, uint64_t iters)
{
	chain_run(1, c, iters);
}

void fsha1_shani_avx512_chain_x2(struct fsha_chain *c, uint64_t iters)
{
	chain_run(2, c, iters);
}
