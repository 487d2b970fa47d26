/* SPDX-License-Identifier: MIT */
/* The shani row's PBKDF2 chain kernels: sha256_shani_chain.h. */
#include "sha256_shani_chain.h"

void fsha256_shani_chain_x1(struct fsha_chain *c, uint64_t iters)
{
	chain_run(1, c, iters);
}

void fsha256_shani_chain_x2(struct fsha_chain *c, uint64_t iters)
{
	chain_run(2, c, iters);
}

void fsha256_shani_chain_x3(struct fsha_chain *c, uint64_t iters)
{
	chain_run(3, c, iters);
}
