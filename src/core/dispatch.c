/* SPDX-License-Identifier: MIT */
/*
 * The one resolver: for any family's table, the choice among its rows, the
 * FASTSHA_BACKEND override and explicit selection. It knows no family by
 * name; each family hands it a struct fsha_family (core/backend.h).
 *
 * FASTSHA_BACKEND is a comma-separated list of items, each either a backend
 * name ("portable": every family that has a row of that name) or
 * "family:name" ("sha256:shani", family one of sha1, sha256, sha512). For a
 * family, its own "family:name" item wins over a bare name. An item naming
 * a row the CPU cannot run, or no row at all, is ignored, so a stale
 * variable cannot break a program.
 */
#include <stdlib.h>
#include <string.h>

#include "fastsha/fastsha.h"
#include "../cpu/cpu.h"
#include "backend.h"

int fsha_supported(const struct fsha_backend_info *b)
{
	return (fsha_cpu_features() & b->cpu) == b->cpu;
}

int fsha_yields(const struct fsha_family *fam, const struct fsha_backend_info *b)
{
	const uint32_t f = fsha_cpu_features();
	for (size_t i = 0; i < fam->nyields; i++) {
		const struct fsha_yield *y = &fam->yields[i];
		if (y->row == b && ((f & y->on) || (f & y->unless) != y->unless))
			return 1;
	}
	return 0;
}

/* The first row of @fam this CPU runs with an automatic bit in @kind,
 * passing over rows that yield here unless no other row qualifies; NULL
 * when none does. */
static const struct fsha_backend_info *first_auto(const struct fsha_family *fam, unsigned kind)
{
	const struct fsha_backend_info *yielded = NULL;
	for (size_t i = 0; i < fam->nrows; i++) {
		const struct fsha_backend_info *r = fam->rows[i];
		if (!(r->automatic & kind) || !fsha_supported(r))
			continue;
		if (!fsha_yields(fam, r))
			return r;
		if (!yielded)
			yielded = r;
	}
	return yielded;
}

/* The row whose name is the @len bytes at @name, or NULL. */
static const struct fsha_backend_info *find_n(const struct fsha_family *fam, const char *name,
					      size_t len)
{
	for (size_t i = 0; i < fam->nrows; i++) {
		const char *n = fam->rows[i]->name;
		if (strlen(n) == len && memcmp(n, name, len) == 0)
			return fam->rows[i];
	}
	return NULL;
}

const struct fsha_backend_info *fsha_find(const struct fsha_family *fam, const char *name)
{
	return find_n(fam, name, strlen(name));
}

/* The row FASTSHA_BACKEND asks of @fam and this CPU runs, or NULL. */
static const struct fsha_backend_info *from_env(const struct fsha_family *fam)
{
	const char *env = getenv("FASTSHA_BACKEND");
	const struct fsha_backend_info *bare = NULL, *own = NULL;
	size_t flen = strlen(fam->name);
	while (env && *env) {
		size_t len = strcspn(env, ",");
		const char *colon = memchr(env, ':', len);
		const struct fsha_backend_info *b;
		if (colon) {
			if ((size_t)(colon - env) == flen && memcmp(env, fam->name, flen) == 0 &&
			    (b = find_n(fam, colon + 1, len - flen - 1)) && fsha_supported(b))
				own = b;
		} else if ((b = find_n(fam, env, len)) && fsha_supported(b)) {
			bare = b;
		}
		env += len + (env[len] == ',');
	}
	return own ? own : bare;
}

const struct fsha_backend_info *fsha_auto_many(const struct fsha_family *fam)
{
	return first_auto(fam, FSHA_AUTO_MANY);
}

/* FASTSHA_BACKEND's row, else the first automatic row this CPU runs (one
 * that does not yield here, if there is one). */
static const struct fsha_backend_info *choose(const struct fsha_family *fam)
{
	const struct fsha_backend_info *b = from_env(fam);
	if (b)
		return b;
	b = first_auto(fam, FSHA_AUTO_SINGLE);
	/* Every table has a portable row, which needs nothing. */
	return b ? b : fsha_find(fam, "portable");
}

/* FASTSHA_BACKEND's row, else the first automatic batch row this CPU runs
 * (one that does not yield here, if there is one), else the single-message
 * choice. */
static const struct fsha_backend_info *choose_many(const struct fsha_family *fam)
{
	const struct fsha_backend_info *b = from_env(fam);
	if (b)
		return b;
	b = first_auto(fam, FSHA_AUTO_MANY);
	return b ? b : choose(fam);
}

/* Store @want in @slot unless it is set: racing first callers all compute
 * the same row, the first store wins, and an explicit selection made
 * meanwhile is kept. */
static const struct fsha_backend_info *settle(_Atomic(const struct fsha_backend_info *) *slot,
					      const struct fsha_backend_info *want)
{
	const struct fsha_backend_info *expected = NULL;
	if (!atomic_compare_exchange_strong_explicit(slot, &expected, want, memory_order_acq_rel,
						     memory_order_acquire))
		return expected;
	return want;
}

const struct fsha_backend_info *fsha_resolve(const struct fsha_family *fam)
{
	return settle(fam->slot, choose(fam));
}

const struct fsha_backend_info *fsha_resolve_many(const struct fsha_family *fam)
{
	return settle(fam->many_slot, choose_many(fam));
}

int fsha_use(const struct fsha_family *fam, const char *name)
{
	const struct fsha_backend_info *b, *many;
	if (!name) {
		b = choose(fam);
		many = choose_many(fam);
	} else {
		b = many = fsha_find(fam, name);
		if (!b)
			return FASTSHA_SELECT_UNKNOWN;
		if (!fsha_supported(b))
			return FASTSHA_SELECT_UNSUPPORTED;
	}
	atomic_store_explicit(fam->slot, b, memory_order_release);
	atomic_store_explicit(fam->many_slot, many, memory_order_release);
	return FASTSHA_SELECT_OK;
}
