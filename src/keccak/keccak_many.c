/* SPDX-License-Identifier: MIT */
/*
 * Batches of Keccak-family messages (fastsha_many(), fastsha_many_xof()):
 * each message hashed on its own, one after another. (The lane rows'
 * batches come with the first lane row.)
 */
#include "../core/sponge.h"
#include "keccak_family.h"

void fsha_sponge_v_many(const struct fsha_sponge_variant *v, const fastsha_msg *msgs,
			size_t count, uint8_t *out, size_t n)
{
	for (size_t i = 0; i < count; i++)
		fsha_sponge_v_oneshot(v, msgs[i].data, msgs[i].len, 0, 0, out + i * n, n);
}
