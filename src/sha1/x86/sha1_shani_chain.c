/* SPDX-License-Identifier: MIT */
/* The shani row's PBKDF2 chain kernels: sha1_shani_chain.h. */
#include "sha1_shani_chain.h"

void fsha1_shani_chain_x1(struct fsha_chain *c, uint64_t iters)
{
	chain_run(1, c, iters);
}

void fsha1_shani_chain_x2(struct fsha_chain *c, uint64_t iters)
{
	chain_run(2, c, iters);
}
