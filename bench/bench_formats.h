/* bench_formats.h: the format sections of kifu_bench (CSA/KIF/KI2 -> JKF throughput, the
 * generated corpus they read, and the comparison with JavaScript peers). */
#ifndef KIFU_BENCH_FORMATS_H
#define KIFU_BENCH_FORMATS_H

#include <stddef.h>
#include <stdint.h>

typedef struct bench_opts {
    const char *dir;       /* build directory: corpus/ and peers/ go under it */
    const char *peers_src; /* bench/peers in the source tree (package.json, scripts) */
    int runs;              /* timed runs per section (median reported) */
    int peer_runs;         /* timed runs per peer */
    double corpus_mb;      /* size of the generated corpus, all three formats together */
    double peer_mb;        /* per format: the subset the peers convert */
    uint64_t seed;
    int regen;              /* rebuild the corpus even when it looks current */
    int peers;              /* run the peer comparison */
    int search_games;       /* games of the search section's collection */
    const char *clickhouse; /* the index section's ClickHouse server URL, or NULL */
} bench_opts;

/* Makes <dir>/corpus/{csa,kif,ki2}/ from random legal games written by our writers,
 * unless a corpus with the same parameters is already there. 0, or -1 with a message. */
int bench_gen_corpus(const bench_opts *o);

/* Times read+normalize+write-JKF over the corpus for CSA, KIF and KI2 and, when asked,
 * the same conversion by the peers. Prints the figures. 0, or -1. */
int bench_formats(const bench_opts *o);

/* Monotonic seconds. */
double bench_now(void);

/* A random legal game (game number `index`, for its header), normalized. NULL with why. */
struct kifu_record;
struct kifu_record *bench_random_game(uint64_t *rng, int index, char *why, size_t cap);
/* mkdir that accepts an existing directory; write a whole file; is the STAMP file there
 * and equal to stamp (and newer than this binary)? */
int bench_make_dir(const char *path);
int bench_write_bytes(const char *path, const char *data, size_t len);
int bench_current(const char *stamp_path, const char *stamp);

/* Position search over a collection of o->search_games games on disk (CSA, 1000 games a
 * file), exact and by pattern, beside grep -c of a bd string over the same games written
 * as posjson. Prints the figures. 0, or -1. */
int bench_search(const bench_opts *o);
/* The search section's collection (made when missing): its directory into dir. 0, or -1. */
int bench_search_collection(const bench_opts *o, char *dir, size_t cap);

/* The collection index over the search collection: build rate, size and explorer and
 * exact-search latency of the SQLite file and, with o->clickhouse, of ClickHouse, side by
 * side. 0, or -1. */
int bench_clickhouse(const bench_opts *o);

#endif
