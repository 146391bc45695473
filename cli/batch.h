/* batch.h: work on many items spread over threads, with the results taken in input order:
 * work(i) runs on any thread, commit(i) on the calling thread for i = 0, 1, 2 ... as soon
 * as item i is done, so what a batch prints and writes is the same for any number of
 * threads. */
#ifndef KIFU_CLI_BATCH_H
#define KIFU_CLI_BATCH_H

#include <stddef.h>

typedef void (*cli_batch_fn)(void *ctx, size_t i);

/* The number of threads `-j 0` (and no -j) means: the processors this process may run
 * on. */
int cli_batch_default_jobs(void);

/* Runs work(ctx, i) for every i < n on `jobs` threads (1: all on the calling thread,
 * item by item) and commit(ctx, i) in order on the calling thread. Workers run at most
 * a window of items ahead of the last commit, which bounds the memory held by results
 * waiting for their turn. work must be safe to run in parallel with itself and with
 * commit on other items. 0, or -1 when no thread could be started (then everything ran
 * on the calling thread). */
int cli_batch_run(size_t n, int jobs, cli_batch_fn work, cli_batch_fn commit, void *ctx);

/* A -j option at argv[*i] (`-j N`, `-jN`, `--jobs N`, `--jobs=N`; N from 0, one thread per
 * processor, to 1024) into *jobs, *i moved past its value: 1; another argument: 0; a bad
 * or missing number: -1, said on stderr. */
int cli_jobs_option(int argc, char **argv, int *i, int *jobs);

#endif
