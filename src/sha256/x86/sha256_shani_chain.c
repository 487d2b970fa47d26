/* SPDX-License-Identifier: MIT */
/* The shani row's PBKDF2 chain kernels: sha256_shani_chain.h. */
#include "sha256_shani_chain.h"

FSHA256_NI_CHAIN_KERNELS(fsha256_shani_chain)
