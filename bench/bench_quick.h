/* SPDX-License-Identifier: MIT */
/*
 * fastsha-bench's first screen (bench_quick.c): per job (an algorithm, and
 * later keyed hashing and SHA-3) the backend this CPU uses against
 * OpenSSL's default code, one message and a batch; and the paired timing
 * of a batch that --all's lane rows use too.
 */
#ifndef FASTSHA_BENCH_QUICK_H
#define FASTSHA_BENCH_QUICK_H

#include <stddef.h>

#include "fastsha/fastsha.h"

/* The report: what `make` prints after its self-test. @quick: fewer and
 * shorter samples (the make run); @reps, @sample_s as the options give
 * them (0: the mode's default). Returns the exit status. */
int bench_quick_main(int quick, unsigned reps, double sample_s);

/* One paired point: ours and OpenSSL's seconds per call (medians, with
 * ours' quartiles), and the median and quartiles of the per-repetition
 * speed ratios OpenSSL's time / ours (0 where there is no OpenSSL). */
struct bench_pair {
	double ours_s, ours_q1, ours_q3, theirs_s;
	double ratio, ratio_q1, ratio_q3;
};

/* Batches: @count messages of @size bytes, back to back in one buffer,
 * through fastsha_many() on the backend @alg's family uses now, against
 * OpenSSL's *_Init/Update/Final once per message on the code it picks
 * (alone without libcrypto). The digests are compared before timing. */
void bench_batch_point(fastsha_alg alg, size_t count, size_t size, unsigned reps,
		       double sample_s, struct bench_pair *r);

#endif
