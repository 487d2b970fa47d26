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

/*
 * fsha_wipe_stack() - clear the @n bytes of stack just below the caller's
 * frame (@n a multiple of 256).
 *
 * For the keyed entry points, called last, after their work has returned:
 * the named buffers are wiped by fsha_wipe(), but the compiler also keeps
 * keyed words where no code can name them, in spill slots and in the
 * kernels' saved vector registers, below the entry point's frame. This
 * frame takes the place of theirs (it starts where the work's frames
 * started) and zeroes @n bytes of it: the depth test_mac_residue measured
 * for that work, with room to spare. Each caller's @n says what it covers.
 *
 * In 64-byte memsets (plain stores), four to a turn of the loop, each
 * behind the barrier, so they are neither dropped nor merged: GCC 12 made
 * a memset of 128 bytes or more into rep stos, which is slow to start (see
 * fsha_wipe()) and which callgrind counts as an instruction a word; glibc
 * makes one of a few KiB into rep stosb, an instruction a byte there, and
 * GCC does not unroll a loop of 64-byte pieces by itself. This way a turn
 * is 16 stores and 3 loop instructions, 0.074 a byte (GCC 12 -O3, x86-64
 * baseline's 16-byte stores). PBKDF2's 32 KiB is one memset, as it
 * measured (0.34 us on Zen 2, where fsha_wipe()'s 32-byte pieces took
 * 0.66): there the C library's widest stores win.
 * The room is alloca()'s (not a VLA, which the build refuses), so the
 * frame is no larger than the clearing.
 */
#if defined(__GNUC__) || defined(__clang__)
static __attribute__((noinline, unused)) void fsha_wipe_stack(size_t n)
{
	unsigned char *b = __builtin_alloca(n);
	if (n >= 32768) {
		memset(b, 0, n);
	} else {
		for (unsigned char *p = b; p < b + n; p += 256) {
			memset(p, 0, 64);
			__asm__ __volatile__("" : : "r"(p) : "memory");
			memset(p + 64, 0, 64);
			__asm__ __volatile__("" : : "r"(p) : "memory");
			memset(p + 128, 0, 64);
			__asm__ __volatile__("" : : "r"(p) : "memory");
			memset(p + 192, 0, 64);
			__asm__ __volatile__("" : : "r"(p) : "memory");
		}
	}
	__asm__ __volatile__("" : : "r"(b) : "memory"); /* the zeros are "read" */
}
#else
static void fsha_wipe_stack(size_t n)
{
	/* No alloca: the largest caller's room, its @n bytes nearest the
	 * caller cleared. Without noinline this may be inlined, and then
	 * clears the caller's own frame instead: a best effort. */
	volatile unsigned char b[32768];
	for (size_t i = sizeof(b) - (n < sizeof(b) ? n : sizeof(b)); i < sizeof(b); i++)
		b[i] = 0;
}
#endif

#endif
