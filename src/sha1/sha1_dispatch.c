/* SPDX-License-Identifier: MIT */
/*
 * The SHA-1 backend table and the choice among its rows: the only place
 * that knows which backends exist and which is preferred. Adding a backend
 * adds a row here and a row in cmake/backends.cmake, nothing else.
 */
#include <stdlib.h>
#include <string.h>

#include "fastsha/fastsha.h"
#include "../cpu/cpu.h"
#include "sha1_impl.h"

/*
 * Best first. The order is measured on this project's machine (see
 * docs/benchmarks.md); the first row the CPU can run is chosen. FSHA1_HAVE_*
 * come from cmake/backends.cmake for the backends that were built.
 */
static const struct fsha1_backend table[] = {
#ifdef FSHA1_HAVE_SHANI
	{ "shani", FSHA_CPU_SHA | FSHA_CPU_SSE41 | FSHA_CPU_SSSE3, fsha1_blocks_shani, 1, NULL, 1 },
#endif
#ifdef FSHA1_HAVE_AVX2
	{ "avx2", FSHA_CPU_AVX2 | FSHA_CPU_BMI1 | FSHA_CPU_BMI2, fsha1_blocks_avx2, 1, NULL, 1 },
#endif
#ifdef FSHA1_HAVE_AVX
	{ "avx", FSHA_CPU_AVX, fsha1_blocks_avx, 1, NULL, 1 },
#endif
#ifdef FSHA1_HAVE_SSSE3
	{ "ssse3", FSHA_CPU_SSSE3, fsha1_blocks_ssse3, 1, NULL, 1 },
#endif
#ifdef FSHA1_HAVE_ARMV8
	{ "armv8", FSHA_CPU_ARM_SHA1, fsha1_blocks_armv8, 1, NULL, 1 },
#endif
	{ "portable", 0, fsha1_blocks_portable, 1, NULL, 1 },
	{ "reference", 0, fsha1_blocks_reference, 1, NULL, 0 },
};

#define NROWS (sizeof(table) / sizeof(table[0]))

_Atomic(const struct fsha1_backend *) fsha1_active_slot;

static int supported(const struct fsha1_backend *b)
{
	return (fsha_cpu_features() & b->cpu) == b->cpu;
}

static const struct fsha1_backend *find(const char *name)
{
	for (size_t i = 0; i < NROWS; i++)
		if (strcmp(table[i].name, name) == 0)
			return &table[i];
	return NULL;
}

/*
 * The automatic choice: FASTSHA_BACKEND when it names a backend this CPU
 * runs (anything else is ignored, so a stale variable cannot break a
 * program), else the first automatic row the CPU supports. Portable needs
 * nothing, so there is always one.
 */
static const struct fsha1_backend *choose(void)
{
	const char *env = getenv("FASTSHA_BACKEND");
	if (env && *env) {
		const struct fsha1_backend *b = find(env);
		if (b && supported(b))
			return b;
	}
	for (size_t i = 0; i < NROWS; i++)
		if (table[i].automatic && supported(&table[i]))
			return &table[i];
	return find("portable");
}

const struct fsha1_backend *fsha1_resolve(void)
{
	const struct fsha1_backend *want = choose(), *expected = NULL;
	/* Racing first callers all compute the same row; the first store wins
	 * and an explicit fastsha1_use_backend() made meanwhile is kept. */
	if (!atomic_compare_exchange_strong_explicit(&fsha1_active_slot, &expected, want,
						     memory_order_acq_rel, memory_order_acquire))
		return expected;
	return want;
}

const char *fastsha1_backend(void)
{
	return fsha1_active()->name;
}

size_t fastsha1_backend_count(void)
{
	return NROWS;
}

const char *fastsha1_backend_name(size_t i)
{
	return i < NROWS ? table[i].name : NULL;
}

int fastsha1_backend_supported(size_t i)
{
	return i < NROWS && supported(&table[i]);
}

unsigned fastsha1_backend_lanes(size_t i)
{
	return i < NROWS ? table[i].lanes : 0;
}

int fastsha1_use_backend(const char *name)
{
	const struct fsha1_backend *b;
	if (!name) {
		b = choose();
	} else {
		b = find(name);
		if (!b)
			return FASTSHA_SELECT_UNKNOWN;
		if (!supported(b))
			return FASTSHA_SELECT_UNSUPPORTED;
	}
	atomic_store_explicit(&fsha1_active_slot, b, memory_order_release);
	return FASTSHA_SELECT_OK;
}

const char *fastsha_version(void)
{
	return FASTSHA_VERSION_STRING;
}
