/* SPDX-License-Identifier: MIT */
/* fastsha-bench --dirty (bench_dirty.c), entered from bench.c's main. */
#ifndef FASTSHA_BENCH_DIRTY_H
#define FASTSHA_BENCH_DIRTY_H

/* fastsha-bench --dirty ...: argv[0] is "--dirty". */
int bench_dirty_main(int argc, char **argv);

#endif
