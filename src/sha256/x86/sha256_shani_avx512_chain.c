/* SPDX-License-Identifier: MIT */
/*
 * The shani_avx512 row's PBKDF2 chain kernels: sha256_shani_chain.h on
 * that row's schedule (sha256_shani.h, FSHA256_NI_VL), built with its
 * flags.
 */
#define FSHA256_NI_VL 1
#include "sha256_shani_chain.h"

void fsha256_shani_avx512_chain_x1(struct fsha_chain *c, uint64_t iters)
{
	chain_run(1, c, iters);
}

void fsha256_shani_avx512_chain_x2(struct fsha_chain *c, uint64_t iters)
{
	chain_run(2, c, iters);
}

void fsha256_shani_avx512_chain_x3(struct fsha_chain *c, uint64_t iters)
{
	chain_run(3, c, iters);
}
