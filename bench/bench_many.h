/* SPDX-License-Identifier: MIT */
/* fastsha-bench --many (bench_many.c), entered from bench.c's main. */
#ifndef FASTSHA_BENCH_MANY_H
#define FASTSHA_BENCH_MANY_H

/* fastsha-bench --many ...: argv[0] is "--many". */
int bench_many_main(int argc, char **argv);

#endif
