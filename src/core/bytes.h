/* SPDX-License-Identifier: MIT */
#ifndef FSHA_CORE_BYTES_H
#define FSHA_CORE_BYTES_H

/*
 * Big-endian loads and stores and rotates for the C backends and the
 * engine. memcpy keeps them alignment-safe; GCC and Clang turn each into
 * one load or store plus a byte swap (none on a big-endian machine).
 */

#include <stdint.h>
#include <string.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define FSHA_BIG_ENDIAN 1
#else
#define FSHA_BIG_ENDIAN 0
#endif

static inline uint32_t fsha_load_be32(const uint8_t *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return FSHA_BIG_ENDIAN ? v : __builtin_bswap32(v);
}

static inline uint64_t fsha_load_be64(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return FSHA_BIG_ENDIAN ? v : __builtin_bswap64(v);
}

static inline void fsha_store_be32(uint8_t *p, uint32_t v)
{
	if (!FSHA_BIG_ENDIAN)
		v = __builtin_bswap32(v);
	memcpy(p, &v, 4);
}

static inline void fsha_store_be64(uint8_t *p, uint64_t v)
{
	if (!FSHA_BIG_ENDIAN)
		v = __builtin_bswap64(v);
	memcpy(p, &v, 8);
}

/* Recognised by GCC and Clang as one rotate instruction; n in 1..31 / 1..63. */
static inline uint32_t fsha_rol32(uint32_t x, unsigned n)
{
	return (x << n) | (x >> ((32 - n) & 31));
}

static inline uint32_t fsha_ror32(uint32_t x, unsigned n)
{
	return (x >> n) | (x << ((32 - n) & 31));
}

static inline uint64_t fsha_ror64(uint64_t x, unsigned n)
{
	return (x >> n) | (x << ((64 - n) & 63));
}

#endif
