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
    int batch_files;        /* KI2 files of the batch section's directory */
    int batch_runs;         /* timed runs of `kifu convert` per thread count */
    int index_games;        /* games of the index section's collection */
    long memory_moves;      /* moves of the memory section's game */
    const char *clickhouse; /* the clickhouse section's server URL, or NULL */
    int tags_games;         /* games of the tags section (0: 2000) */
} bench_opts;

/* Makes <dir>/corpus/{csa,kif,ki2}/ from random legal games written by our writers,
 * unless a corpus with the same parameters is already there. 0, or -1 with a message. */
int bench_gen_corpus(const bench_opts *o);

/* Times read+normalize+write-JKF over the corpus for CSA, KIF and KI2 and, when asked,
 * the same conversion by the peers. Prints the figures. 0, or -1. */
int bench_formats(const bench_opts *o);

/* Monotonic seconds. */
double bench_now(void);
/* Print the load average and the cores beside a wall-clock figure (bench_index.c). */
void bench_print_load(void);
/* CPU seconds of this process (less disturbed by other load than the wall clock). */
double bench_cpu_now(void);
/* CPU seconds (user and system) of the children that ended so far (bench_batch.c). */
double bench_children_cpu(void);
/* "(load average L on N cores while measuring)" on stdout (bench_index.c). */
void bench_print_load(void);

/* A random legal game (game number `index`, for its header), normalized. NULL with why. */
struct kifu_record;
struct kifu_record *bench_random_game(uint64_t *rng, int index, char *why, size_t cap);
/* The same with `plies` moves (fewer when the game ends in mate first); 0: 80 to 200. */
struct kifu_record *bench_random_game_plies(uint64_t *rng, int index, int plies,
                                            char *why, size_t cap);
/* Games first .. first+per-1 (none from total on) of a generated collection, drawn from
 * rng, written as one CSA file at path; the records are left in rs (room for per) and *n,
 * for the caller to write in other forms and then free with bench_free_games. mean: 0,
 * games of 80 to 200 plies, else mean / 2 to 3 * mean / 2. 0, or -1 with a message (every
 * record freed). */
int bench_csa_file(uint64_t *rng, int first, int total, int per, int mean,
                   const char *path, struct kifu_record **rs, size_t *n);
void bench_free_games(struct kifu_record **rs, size_t n);
/* mkdir that accepts an existing directory; write a whole file. */
int bench_make_dir(const char *path);
int bench_write_bytes(const char *path, const char *data, size_t len);
/* Whether the corpus in dir must be made (again): dir/STAMP is missing, names another
 * `what` or kifu version, is older than this binary, or --regen. The old stamp is then
 * removed, so a corpus cut short is never taken as current. 1: make it, 0: current. */
int bench_stale(const bench_opts *o, const char *dir, const char *what);
/* Write dir/STAMP for `what` once the corpus is complete. 0, or -1 with a message. */
int bench_stamp(const char *dir, const char *what);

/* Tagging over conversion: convert --tags against convert, per game; and the index
 * build with tags against without. 0, or -1. */
int bench_tags(const bench_opts *o);
/* A collection of `games` random legal games as the index section makes its own (CSA,
 * 1000 games a file i0000.csa ..., 50 to 150 plies), made when missing: its directory
 * into dir. 0, or -1. */
int bench_index_games(const bench_opts *o, int games, char *dir, size_t cap);
/* CPU seconds of a bulk build of the first `files` files of such a collection into kdb,
 * tagging the games (the default) or not (kifu_index_set_tagger NULL). -1 on an
 * error. */
double bench_index_build_cpu(const char *dir, int files, const char *kdb, int tags);
/* "(load average L on N cores while measuring)" on a line. */
void bench_print_load(void);

/* Position search over a collection of o->search_games games on disk (CSA, 1000 games a
 * file), exact and by pattern, beside grep -c of a bd string over the same games written
 * as posjson. Prints the figures. 0, or -1. */
int bench_search(const bench_opts *o);
/* The search section's collection (made when missing): its directory into dir. 0, or -1. */
int bench_search_collection(const bench_opts *o, char *dir, size_t cap);

/* The collection index over the index section's collection: build rate, size and the
 * index section's explorer and exact-search queries on a SQLite file and, with
 * o->clickhouse, on ClickHouse, side by side. 0, or -1. */
int bench_clickhouse(const bench_opts *o);
/* The index section's collection (made when missing or stale): its directory into dir.
 * 0, or -1. */
int bench_index_collection(const bench_opts *o, char *dir, size_t cap);
/* Ply `ply` of the collection's first game: a position of (almost surely) one game. */
struct kifu_position;
struct kifu_position *bench_index_one_game(const char *dir, int ply);

/* The replay page for a 300-move game with comments: its size and the time to write it;
 * the page is left at <dir>/html/game300.html for bench/html_paint.py. 0, or -1. */
int bench_html(const bench_opts *o);
/* The directory of o->batch_files KI2 files converted by the whole `kifu convert -o -
 * DIR` process, with one thread and one per processor, beside json-kifu-format on the
 * same files in memory. Prints the figures and the ratio. 0, or -1. */
int bench_batch(const bench_opts *o);

/* The seconds (one run) and CPU seconds one peer takes to convert every file of dir
 * (format fmt) held in memory; *nfiles is how many it was given. 0, or -1 with a message
 * (node or the peer missing). */
int bench_peer_seconds(const bench_opts *o, const char *fmt, const char *dir,
                       const char *peer, double *seconds, double *cpu, size_t *nfiles);
/* The collection index over o->index_games generated games (CSA, 1000 games a file):
 * build rate, bytes a position, explorer and exact-search latency, sorted inserts beside
 * unsorted upserts. Prints the figures. 0, or -1. */
int bench_index(const bench_opts *o);
/* Peak RSS of reading the largest generated file (a game of o->memory_moves moves) in
 * every format, each in a fresh process (`self --rss-read FILE`). Prints the figures with
 * the ratio to the file size. 0, or -1. */
int bench_memory(const bench_opts *o, const char *self);
/* The child of bench_memory: read and normalize path, as `kifu convert` does. Exit code. */
int bench_rss_read(const char *path);

#endif
