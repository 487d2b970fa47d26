/* SPDX-License-Identifier: MIT */
#ifndef FASTSHA_FASTSHA_H
#define FASTSHA_FASTSHA_H

#include <stddef.h>

/* FASTSHA_API marks the public symbols; everything else is hidden. */
#if defined(FASTSHA_STATIC)
#define FASTSHA_API
#elif defined(_WIN32)
#if defined(FASTSHA_BUILDING)
#define FASTSHA_API __declspec(dllexport)
#else
#define FASTSHA_API __declspec(dllimport)
#endif
#else
#define FASTSHA_API __attribute__((visibility("default")))
#endif

#define FASTSHA_VERSION_MAJOR 0
#define FASTSHA_VERSION_MINOR 1
#define FASTSHA_VERSION_PATCH 0
#define FASTSHA_VERSION_STRING "0.1.0"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * fastsha_version() - the version of the library actually linked.
 *
 * Return: a static string such as "0.1.0"; it may differ from
 * FASTSHA_VERSION_STRING when a program runs against a newer shared library.
 * Thread-safe.
 */
FASTSHA_API const char *fastsha_version(void);

/**
 * fastsha1_backend() - the name of the SHA-1 backend that hashing uses now.
 *
 * The first call resolves the backend (best this CPU runs, or the one named
 * by the FASTSHA_BACKEND environment variable when this CPU can run it).
 * No init call is needed. Thread-safe.
 *
 * Return: a static string, e.g. "shani" or "portable".
 */
FASTSHA_API const char *fastsha1_backend(void);

/**
 * fastsha1_backend_count() - how many SHA-1 backends this library was built with.
 *
 * Backends are numbered 0..count-1 in the order of preference, best first
 * (the spec-literal "reference" backend is last and never chosen on its own).
 * Thread-safe.
 */
FASTSHA_API size_t fastsha1_backend_count(void);

/**
 * fastsha1_backend_name() - the name of built backend @i.
 * @i: 0..fastsha1_backend_count()-1.
 *
 * Return: a static string, or NULL when @i is out of range. Thread-safe.
 */
FASTSHA_API const char *fastsha1_backend_name(size_t i);

/**
 * fastsha1_backend_supported() - whether this CPU (and OS) can run backend @i.
 * @i: 0..fastsha1_backend_count()-1.
 *
 * Return: 1 when it can, 0 when it cannot or @i is out of range. Thread-safe.
 */
FASTSHA_API int fastsha1_backend_supported(size_t i);

/**
 * fastsha1_backend_lanes() - how many messages backend @i hashes at once.
 * @i: 0..fastsha1_backend_count()-1.
 *
 * Return: 1 for a single-stream backend, more for a multi-buffer one,
 * 0 when @i is out of range. Thread-safe.
 */
FASTSHA_API unsigned fastsha1_backend_lanes(size_t i);

/** Results of fastsha1_use_backend(). */
enum fastsha_select_result {
	FASTSHA_SELECT_OK = 0,          /* the backend is now in use */
	FASTSHA_SELECT_UNKNOWN = -1,    /* no backend of that name was built */
	FASTSHA_SELECT_UNSUPPORTED = -2 /* built, but this CPU cannot run it */
};

/**
 * fastsha1_use_backend() - choose the SHA-1 backend for the whole process.
 * @name: a backend name as listed by fastsha1_backend_name(), or NULL to go
 *        back to automatic choice (which again honours FASTSHA_BACKEND).
 *
 * Meant for tools, benchmarks and tests; programs need not call it. Every
 * backend keeps the same state, so switching while other threads hash is
 * safe: each block is compressed by one backend or the other and the digest
 * is the same. Thread-safe.
 *
 * Return: FASTSHA_SELECT_OK, or a negative enum fastsha_select_result and
 * the backend in use is unchanged.
 */
FASTSHA_API int fastsha1_use_backend(const char *name);

#ifdef __cplusplus
}
#endif

#endif
