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
	memset(p, 0, n);
	__asm__ __volatile__("" : : "r"(p) : "memory");
#else
	volatile unsigned char *v = p;
	while (n--)
		*v++ = 0;
#endif
}

#endif
