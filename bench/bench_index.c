/* bench_index.c: the collection index (kifu index, kifu explore) over a generated
 * collection: random legal games (50 to 150 plies) written as CSA, 1000 games a file,
 * --index-games of them (default 1,000,000: about 100 million positions, the size the
 * issue gives). Prints the
 * build rate on one core (reading and replaying the records, batches written as they fill),
 * bytes per position on disk, explorer latency (median and 99th percentile) for the start
 * position, a position thousands of games reach, a position of one game and a filtered
 * query, exact-search latency, the build with and without tags (each game's 戦法 and 囲い
 * recognised in the build's replay), and the same position rows written by sorted inserts and
 * by unsorted upserts into the same table, so the two can be compared in one run. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bench_formats.h"
#include "kifu.h"

#define PER_FILE 1000
/* Explorer queries a row: the p99 is the 10th slowest. Of 5,000 queries after 7g7f,
 * 4 took over 1 ms of CPU (p99.9 0.80 ms), so 3 such in 200 (their p99 then) came
 * from the machine, not the query. */
#define QUERIES 1000
/* Exact searches a row (a search reads every run of a bucket: tens of ms). */
#define SEARCHES 200
/* The collection: 1,000,000 games, about 100 million positions. */
#define MEAN_PLIES 100

static int generate(const bench_opts *o, const char *dir, int games)
{
    char path[8400], what[128];
    int files = (games + PER_FILE - 1) / PER_FILE;
    snprintf(what, sizeof what, "index 2 seed %llu games %d plies %d",
             (unsigned long long)o->seed, games, MEAN_PLIES);
    if (!bench_stale(o, dir, what))
        return 0;
    if (bench_make_dir(o->dir) || bench_make_dir(dir))
        return -1;
    printf("generating the index collection (%d random legal games, seed %llu) ...\n",
           games, (unsigned long long)o->seed);
    fflush(stdout);
    double t0 = bench_now();
    uint64_t rng = (o->seed ? o->seed : 1) * 104729;
    kifu_record *rs[PER_FILE];
    for (int f = 0; f < files; f++) {
        size_t n;
        snprintf(path, sizeof path, "%s/i%04d.csa", dir, f);
        if (bench_csa_file(&rng, f * PER_FILE, games, PER_FILE, MEAN_PLIES, path, rs, &n))
            return -1;
        bench_free_games(rs, n);
    }
    if (bench_stamp(dir, what))
        return -1;
    printf("  done (%.1f s)\n", bench_now() - t0);
    return 0;
}

/* A row of the positions table, and the table's order (keys compare as SQLite's signed
 * integers). */
typedef struct row {
    sqlite3_int64 key;
    int game, ply;
} row;

static int by_row(const void *x, const void *y)
{
    const row *a = x, *b = y;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    if (a->game != b->game)
        return a->game < b->game ? -1 : 1;
    return (a->ply > b->ply) - (a->ply < b->ply);
}

void bench_print_load(void)
{
    double l = 0;
    FILE *f = fopen("/proc/loadavg", "r");
    if (f && fscanf(f, "%lf", &l) == 1)
        printf("(load average %.1f on %ld cores while measuring)\n", l,
               sysconf(_SC_NPROCESSORS_ONLN));
    if (f)
        fclose(f);
}

static int by_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median and 99th percentile of QUERIES explorer queries at p, in ms: wall time, and the
 * thread's CPU time (on a shared machine the wall time's tail is other processes'). */
static int explore_latency(kifu_index *ix, const kifu_position *p,
                           const kifu_explore_options *eo, const char *what)
{
    double t[QUERIES], c[QUERIES];
    long long games = 0;
    size_t moves = 0;
    for (int i = 0; i < QUERIES; i++) {
        struct timespec c0, c1;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
        double t0 = bench_now();
        kifu_explore *e = kifu_index_explore(ix, p, eo, NULL);
        t[i] = (bench_now() - t0) * 1e3;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c1);
        c[i] = (double)(c1.tv_sec - c0.tv_sec) * 1e3 +
               (double)(c1.tv_nsec - c0.tv_nsec) / 1e6;
        if (!e)
            return -1;
        games = kifu_explore_games(e), moves = kifu_explore_count(e);
        kifu_explore_free(e);
    }
    qsort(t, QUERIES, sizeof *t, by_double);
    qsort(c, QUERIES, sizeof *c, by_double);
    double p99 = t[QUERIES * 99 / 100], cp99 = c[QUERIES * 99 / 100];
    printf(
        "explore %-34s %8lld games %4zu moves | median %.3f ms, p99 %.3f ms; CPU median "
        "%.3f ms, p99 %.3f ms%s\n",
        what, games, moves, t[QUERIES / 2], p99, c[QUERIES / 2], cp99,
        p99 < 1.0    ? ""
        : cp99 < 1.0 ? "  (over 1 ms: wall only)"
                     : "  (over 1 ms)");
    return 0;
}

static int count_hit(void *ctx, const kifu_index_hit *h)
{
    (void)h;
    ++*(long *)ctx;
    return 0;
}

static int search_latency(kifu_index *ix, const kifu_position *p, const char *what)
{
    kifu_board b;
    kifu_position_board(p, &b);
    kifu_search *s = kifu_search_position(&b, KIFU_SEARCH_FIRST, NULL);
    double t[SEARCHES];
    long hits = 0;
    int runs = SEARCHES;
    for (int i = 0; i < runs; i++) {
        hits = 0;
        double t0 = bench_now();
        if (kifu_index_search(ix, s, count_hit, &hits, NULL) < 0)
            return -1;
        t[i] = (bench_now() - t0) * 1e3;
        if (t[i] > 200 && i >= 4) { /* a slow query: a few runs tell enough */
            runs = i + 1;
            break;
        }
    }
    kifu_search_free(s);
    qsort(t, (size_t)runs, sizeof *t, by_double);
    printf("search  %-30s %8ld hits | median %.3f ms, p99 %.3f ms (%d runs)\n", what,
           hits, t[runs / 2], t[runs * 99 / 100], runs);
    return 0;
}

/* The first game of the first file, played to `ply`: a position of (almost surely) one
 * game. */
kifu_position *bench_index_one_game(const char *dir, int ply)
{
    char path[8400];
    snprintf(path, sizeof path, "%s/i0000.csa", dir);
    kifu_record *r = kifu_read_file(path, NULL, NULL);
    if (!r)
        return NULL;
    kifu_position *p = kifu_position_new();
    kifu_position_set_sfen(p, "startpos", NULL);
    const kifu_node *n = kifu_record_root(r);
    for (int i = 0; i < ply && (n = kifu_node_next(n)); i++) {
        kifu_move m_v;
        const kifu_move *m = kifu_node_get_move(n, &m_v) ? &m_v : NULL;
        kifu_move copy;
        if (!m || (copy = *m, kifu_position_play(p, &copy, NULL)))
            break;
    }
    kifu_record_free(r);
    return p;
}

/* The rows of the first `limit` games in the one-row-per-position layout (schema 2, what
 * the blocks replaced), made by replaying the records, written into a table of that
 * layout in key order by plain inserts and in game order by upserts (INSERT OR REPLACE,
 * what an incremental indexer without a sort does). Rows/s of each. */
static int compare_inserts(const char *dir, const char *work, long limit)
{
    size_t n = 0, cap = 1 << 20;
    row *rows = malloc(cap * sizeof *rows);
    int game = 0;
    for (int f = 0; rows && game < limit; f++) {
        char path[8400];
        snprintf(path, sizeof path, "%s/i%04d.csa", dir, f);
        kifu_record **rs = NULL;
        size_t nr = 0, len;
        void *data = kifu_file_read(path, &len, NULL);
        int bad = !data || kifu_read_all(data, len, NULL, &rs, &nr, NULL);
        kifu_free(data);
        if (bad)
            break;
        for (size_t i = 0; i < nr; i++) {
            if (game < limit) {
                game++;
                kifu_board b;
                kifu_record_initial(rs[i], &b);
                kifu_position *p = kifu_position_new();
                kifu_position_set_board(p, &b, NULL);
                const kifu_node *nd = kifu_record_root(rs[i]);
                for (int ply = 0; rows; ply++) {
                    if (n == cap) {
                        row *r = realloc(rows, (cap *= 2) * sizeof *rows);
                        if (!r) {
                            free(rows);
                            rows = NULL;
                            break;
                        }
                        rows = r;
                    }
                    rows[n++] = (row){(sqlite3_int64)kifu_position_hash(p), game, ply};
                    kifu_move copy;
                    if (!(nd = kifu_node_next(nd)) || !kifu_node_get_move(nd, &copy) ||
                        kifu_position_play(p, &copy, NULL))
                        break;
                }
                kifu_position_free(p);
            }
            kifu_record_free(rs[i]);
        }
        kifu_free(rs);
    }
    if (!rows)
        return -1;
    dir = work;
    double rate[2];
    for (int sorted = 1; sorted >= 0; sorted--) {
        char path[8400];
        snprintf(path, sizeof path, "%s/compare-%s.db", dir,
                 sorted ? "sorted" : "upsert");
        remove(path);
        sqlite3 *db;
        sqlite3_open(path, &db);
        sqlite3_exec(db,
                     "PRAGMA page_size=8192; PRAGMA journal_mode=WAL; PRAGMA "
                     "synchronous=NORMAL; PRAGMA cache_size=-262144;"
                     "CREATE TABLE positions(key INTEGER NOT NULL, game INTEGER NOT NULL,"
                     " ply INTEGER NOT NULL, PRIMARY KEY(key, game, ply)) WITHOUT ROWID;",
                     NULL, NULL, NULL);
        sqlite3_stmt *ins;
        sqlite3_prepare_v2(db,
                           sorted ? "INSERT INTO positions VALUES(?,?,?)"
                                  : "INSERT OR REPLACE INTO positions VALUES(?,?,?)",
                           -1, &ins, NULL);
        double t0 = bench_cpu_now();
        /* The sort is part of the sorted way's time: rows come in game order. */
        row *v = rows;
        if (sorted && (v = malloc(n * sizeof *v)) != NULL) {
            memcpy(v, rows, n * sizeof *v);
            qsort(v, n, sizeof *v, by_row);
        } else if (sorted) {
            free(rows);
            sqlite3_finalize(ins);
            sqlite3_close(db);
            return -1;
        }
        sqlite3_exec(db, "BEGIN", NULL, NULL, NULL);
        for (size_t i = 0; i < n; i++) {
            sqlite3_bind_int64(ins, 1, v[i].key);
            sqlite3_bind_int(ins, 2, v[i].game);
            sqlite3_bind_int(ins, 3, v[i].ply);
            sqlite3_step(ins);
            sqlite3_reset(ins);
        }
        sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
        rate[sorted] = (double)n / (bench_cpu_now() - t0);
        if (v != rows)
            free(v);
        sqlite3_finalize(ins);
        sqlite3_close(db);
        remove(path);
    }
    printf("one row a position (schema 2), %zu rows of the first %ld games: sorted "
           "inserts %.2fM rows/s,"
           " unsorted upserts %.2fM rows/s (%.1fx; CPU time)\n",
           n, limit, rate[1] / 1e6, rate[0] / 1e6, rate[1] / rate[0]);
    free(rows);
    return 0;
}

int bench_index_collection(const bench_opts *o, char *dir, size_t cap)
{
    snprintf(dir, cap, "%s/index", o->dir);
    return generate(o, dir, o->index_games);
}

int bench_index_games(const bench_opts *o, int games, char *dir, size_t cap)
{
    snprintf(dir, cap, "%s/index-%d", o->dir, games);
    return generate(o, dir, games);
}

double bench_index_build_cpu(const char *dir, int files, const char *kdb, int tags)
{
    remove(kdb);
    kifu_index *ix = kifu_index_open(kdb, KIFU_INDEX_CREATE | KIFU_INDEX_BULK, NULL);
    if (!ix)
        return -1;
    if (!tags)
        kifu_index_set_tagger(ix, NULL);
    double c0 = bench_cpu_now();
    int rc = 0;
    for (int f = 0; f < files && !rc; f++) {
        char path[8400];
        snprintf(path, sizeof path, "%s/i%04d.csa", dir, f);
        rc = kifu_index_add_file(ix, path, NULL, NULL, NULL) < 0;
    }
    rc |= kifu_index_close(ix, NULL);
    double c = bench_cpu_now() - c0;
    remove(kdb);
    return rc ? -1 : c;
}

/* The build of up to 50,000 games with and without tags, CPU time (median of 3 each,
 * alternated so that the machine's load falls on both alike). */
static void tags_cost(const char *dir, int files, const char *kdb)
{
    int n = files < 50 ? files : 50;
    double t[2][3];
    for (int r = 0; r < 3; r++)
        for (int tags = 0; tags < 2; tags++)
            if ((t[tags][r] = bench_index_build_cpu(dir, n, kdb, tags)) < 0)
                return;
    for (int tags = 0; tags < 2; tags++)
        qsort(t[tags], 3, sizeof t[tags][0], by_double);
    double games = (double)n * PER_FILE;
    printf("tags    build of %.0f games: with tags %.2f s CPU (%.0f games/s), without "
           "(--no-tags) %.2f s (%.0f games/s): tags +%.0f%% (goal 20000 games/s with "
           "them)\n",
           games, t[1][1], games / t[1][1], t[0][1], games / t[0][1],
           (t[1][1] / t[0][1] - 1) * 100);
    fflush(stdout);
}

/* One `kifu index build -j N -v` of the collection: wall and CPU seconds (user + sys of
 * the process), and the seconds it took after the last file was read (its "written in"
 * message: the last batch's positions, sorted and encoded on a helper while one thread
 * writes them, and the games' indexes), the part of a build that the files' threads do
 * not shorten. */
typedef struct build_run {
    double wall, cpu, flush;
} build_run;

static int build_tool(const char *kifu, const char *dir, const char *kdb, int jobs,
                      build_run *r)
{
    char cmd[20000], log[4400];
    snprintf(log, sizeof log, "%s.log", kdb);
    snprintf(cmd, sizeof cmd, "'%s' index build -v -j %d '%s' -o '%s' 2>'%s'", kifu, jobs,
             dir, kdb, log);
    remove(kdb);
    double t0 = bench_now(), c0 = bench_children_cpu();
    int rc = system(cmd);
    r->cpu = bench_children_cpu() - c0;
    r->wall = bench_now() - t0;
    r->flush = -1;
    FILE *f = fopen(log, "r");
    char line[2048];
    while (f && fgets(line, sizeof line, f)) {
        const char *w = strstr(line, "written in ");
        if (w)
            r->flush = atof(w + 11);
    }
    if (f)
        fclose(f);
    remove(log);
    return rc == 0 && r->flush >= 0 ? 0 : -1;
}

/* The tool's build with -j1 and -j2, alternately, best of `runs` each by the clock
 * (issue 31: at least 1.8x with two cores). The index is the same for any -j
 * (tests/cli/index_jobs.sh). Beside the clock: the CPU each took and the cores it kept
 * busy (CPU / wall: under 2 with -j2 when the machine was busy, not the build), and
 * what two idle cores would make of it: the reading (before the last file) spread over
 * both, the rest (after it) as -j2 does it, mostly on one thread. */
static void build_jobs(const bench_opts *o, const char *dir, double games)
{
    char kifu[4200], kdb[4300];
    snprintf(kifu, sizeof kifu, "%s/kifu", o->dir);
    snprintf(kdb, sizeof kdb, "%s/games-j.kdb", o->dir);
    if (access(kifu, X_OK) != 0) {
        printf("build -jN skipped: %s is not built\n", kifu);
        return;
    }
    build_run best[2] = {{1e30, 0, 0}, {1e30, 0, 0}};
    int runs = o->runs < 2 ? o->runs : 2;
    for (int run = 0; run < runs; run++)
        for (int k = 0; k < 2; k++) {
            build_run r;
            if (build_tool(kifu, dir, kdb, k + 1, &r)) {
                remove(kdb);
                printf("build -jN: kifu index build -j%d failed\n", k + 1);
                return;
            }
            if (r.wall < best[k].wall)
                best[k] = r;
        }
    remove(kdb);
    bench_print_load();
    for (int k = 0; k < 2; k++)
        printf("kifu index build -j%d best of %d: %.1f s wall, %.1f s CPU (%.2f cores "
               "busy): %.0f games/s; after the last file %.1f s (%.0f%% of the run)\n",
               k + 1, runs, best[k].wall, best[k].cpu, best[k].cpu / best[k].wall,
               games / best[k].wall, best[k].flush, 100 * best[k].flush / best[k].wall);
    /* Two idle cores: -j1's reading halved, then what -j2 does after its last file. */
    double idle = (best[0].wall - best[0].flush) / 2 + best[1].flush;
    printf("kifu index build -j2 / -j1: %.2fx by the clock (goal 1.8x with 2 cores: %s); "
           "per core %.0f games/s of CPU at -j1, %.0f at -j2 (goal 20000); with two idle "
           "cores (-j1's reading halved, then -j2's part after its last file): %.2fx\n",
           best[0].wall / best[1].wall,
           best[0].wall / best[1].wall >= 1.8 ? "met" : "NOT met", games / best[0].cpu,
           games / best[1].cpu, best[0].wall / idle);
    fflush(stdout);
}

int bench_index(const bench_opts *o)
{
    char dir[4200], kdb[4300];
    snprintf(dir, sizeof dir, "%s/index", o->dir);
    int files = (o->index_games + PER_FILE - 1) / PER_FILE;
    if (generate(o, dir, o->index_games))
        return -1;
    printf("\n== index (%d games on disk, CSA; one core)\n", o->index_games);
    fflush(stdout);
    snprintf(kdb, sizeof kdb, "%s/games.kdb", o->dir);
    remove(kdb);
    kifu_error e;
    kifu_error_clear(&e);
    kifu_index *ix = kifu_index_open(kdb, KIFU_INDEX_CREATE | KIFU_INDEX_BULK, &e);
    if (!ix) {
        fprintf(stderr, "kifu_bench: %s\n", e.message);
        return -1;
    }
    double t0 = bench_now(), c0 = bench_cpu_now();
    for (int f = 0; f < files; f++) {
        char path[8400];
        snprintf(path, sizeof path, "%s/i%04d.csa", dir, f);
        if (kifu_index_add_file(ix, path, NULL, NULL, &e) < 0) {
            fprintf(stderr, "kifu_bench: %s\n", e.message);
            kifu_index_close(ix, NULL);
            return -1;
        }
    }
    double c1 = bench_cpu_now();
    if (kifu_index_flush(ix, &e)) {
        fprintf(stderr, "kifu_bench: %s\n", e.message);
        kifu_index_close(ix, NULL);
        return -1;
    }
    double c2 = bench_cpu_now();
    const kifu_index_stats *s = kifu_index_stats_get(ix);
    double games = (double)s->games, positions = (double)s->positions;
    kifu_index_close(ix, NULL);
    double t3 = bench_now(), c3 = bench_cpu_now();
    struct stat st;
    stat(kdb, &st);
    bench_print_load();
    printf("build   %.0f games, %.0f positions: %.1f s CPU (%.1f s wall): %.0f games/s, "
           "%.2fM positions/s per core (goal 20000 games/s)\n",
           games, positions, c3 - c0, t3 - t0, games / (c3 - c0),
           positions / (c3 - c0) / 1e6);
    /* A batch full while adding is written then, so the first figure holds the writes of
     * every batch but the last. */
    printf(
        "        CPU: reading, normalizing and replaying the records, and writing the "
        "full "
        "batches %.1f s (%.0f games/s); the last batch's sort, merge into the blocks and "
        "hot rows, and the games' indexes %.1f s; closing %.1f s\n",
        c1 - c0, games / (c1 - c0), c2 - c1, c3 - c2);
    printf("size    %lld bytes: %.1f bytes a position, all included (goal 32)\n",
           (long long)st.st_size, (double)st.st_size / positions);
    fflush(stdout);
    char tkdb[4400];
    snprintf(tkdb, sizeof tkdb, "%s/tags.kdb", o->dir);
    tags_cost(dir, files, tkdb);
    build_jobs(o, dir, games);

    ix = kifu_index_open(kdb, KIFU_INDEX_READONLY, &e);
    kifu_position *start = kifu_position_new(), *many = kifu_position_new();
    kifu_position_set_sfen(start, "startpos", NULL);
    kifu_position_set_sfen(many, "position startpos moves 7g7f", NULL);
    kifu_position *one = bench_index_one_game(dir, 40);
    int rc = !ix || !one;
    kifu_explore_options none = {0}, filtered = {0}, player = {0}, sente = {0},
                         event = {0}, rated = {0}, cut = {0}, both = {0}, flip = {0},
                         flipdate = {0}, top = {0};
    filtered.date_from = "2024-06-01";
    filtered.date_to = "2024-06-30";
    /* A range that cuts two months in the middle. */
    cut.date_from = "2024-03-15";
    cut.date_to = "2024-08-20";
    both = filtered, both.player = "先手1", both.player_color = 1;
    flip.flip = 1, top.top = 10;
    flipdate = filtered, flipdate.flip = 1;
    /* The generator names the players of game N 先手N and 後手N, one event for all, no
     * ratings: a player filter admits one game, the event filter every game, the rating
     * filter none. */
    player.player = "後手1";
    sente.player = "先手1", sente.player_color = 1;
    event.event = "ベンチマーク";
    rated.min_rating = 1500;
    rc = rc || explore_latency(ix, start, &none, "start position");
    rc = rc || explore_latency(ix, many, &none, "after 7g7f (thousands)");
    rc = rc || explore_latency(ix, one, &none, "ply 40 of one game");
    rc = rc || explore_latency(ix, one, &filtered, "one game, June 2024 only");
    rc = rc || explore_latency(ix, many, &filtered, "after 7g7f, June 2024 only");
    rc = rc || explore_latency(ix, many, &player, "after 7g7f, player 後手1");
    rc = rc || explore_latency(ix, many, &sente, "after 7g7f, 先手1 as sente");
    rc = rc || explore_latency(ix, many, &event, "after 7g7f, event ベンチマーク");
    rc = rc || explore_latency(ix, many, &rated, "after 7g7f, both rated 1500+");
    rc = rc || explore_latency(ix, start, &filtered, "start position, June 2024 only");
    rc = rc || explore_latency(ix, start, &cut, "start position, 03-15..08-20");
    rc = rc || explore_latency(ix, many, &cut, "after 7g7f, 03-15..08-20");
    rc = rc || explore_latency(ix, start, &player, "start position, player 後手1");
    rc = rc || explore_latency(ix, start, &both, "start position, 先手1 sente, June");
    rc = rc || explore_latency(ix, start, &event, "start position, event ベンチマーク");
    rc = rc || explore_latency(ix, start, &rated, "start position, both rated 1500+");
    rc = rc || explore_latency(ix, many, &flip, "after 7g7f, --flip");
    rc = rc || explore_latency(ix, start, &flipdate, "start position, --flip, June");
    rc = rc || explore_latency(ix, many, &top, "after 7g7f, --top 10");
    fflush(stdout);
    rc = rc || search_latency(ix, one, "exact: ply 40 of one game");
    rc = rc || search_latency(ix, many, "exact: after 7g7f (--first)");
    kifu_index_close(ix, NULL);
    kifu_position_free(start), kifu_position_free(many), kifu_position_free(one);
    fflush(stdout);
    long limit = o->index_games < 100000 ? o->index_games : 100000;
    rc = rc || compare_inserts(dir, o->dir, limit);
    if (rc)
        fprintf(stderr, "kifu_bench: an index query failed\n");
    return rc ? -1 : 0;
}
