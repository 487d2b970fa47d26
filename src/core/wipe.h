/* SPDX-License-Identifier: MIT */
#ifndef FSHA_CORE_WIPE_H
#define FSHA_CORE_WIPE_H

/*
 * Clearing secrets (keys, keyed chaining values, passwords' intermediate
 * values) from memory the library owns. A memset of a buffer that is never
 * read again is a dead store the compiler may drop; the empty asm that
 * takes the pointer and clobbers memory tells it the zeros are read, so
 * the stores stay (the same barrier as the Linux kernel's
 * memzero_explicit()). Compilers without GNU asm get a store through a
 * volatile pointer per byte: slower, never dropped.
 */

#include <stddef.h>
#include <string.h>

static inline void fsha_wipe(void *p, size_t n)
{
#if defined(__GNUC__) || defined(__clang__)
	/*
	 * In 32-byte pieces, each a fixed-size memset (plain stores): GCC
	 * made one memset of a few hundred bytes into rep stos, which takes
	 * about 30 cycles to start on Zen 3 and was two thirds of
	 * fastsha_hmac_final()'s own time (perf). The barrier in the loop
	 * keeps the pieces from being merged back into one memset.
	 */
	unsigned char *b = p;
	for (; n >= 32; b += 32, n -= 32) {
		memset(b, 0, 32);
		__asm__ __volatile__("" : : "r"(b) : "memory");
	}
	memset(b, 0, n);
	__asm__ __volatile__("" : : "r"(p) : "memory");
#else
	volatile unsigned char *v = p;
	while (n--)
		*v++ = 0;
#endif
}

#endif
