/* bench.h: the benchmarks of `make bench`, one function each, run by bench_main.c. */
#ifndef KIFU_BENCH_H
#define KIFU_BENCH_H

/* Perft speed on the published positions (bulk counting at the leaves). 0, or 1 when a
 * count is wrong. argv may hold "--quick" (shallower depths). */
int bench_perft(int argc, char **argv);

#endif
