/* SPDX-License-Identifier: MIT */
/*
 * The shani_avx512 row's PBKDF2 chain kernels: sha256_shani_chain.h on
 * that row's schedule (sha256_shani.h, FSHA256_NI_VL), built with its
 * flags.
 */
#define FSHA256_NI_VL 1
#include "sha256_shani_chain.h"

FSHA256_NI_CHAIN_KERNELS(fsha256_shani_avx512_chain)
