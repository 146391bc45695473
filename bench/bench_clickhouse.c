/* bench_clickhouse.c: the collection index over the search collection (bench_search.c's CSA
 * files), built into a SQLite file and, when a server is given, into ClickHouse through
 * the same kifu_index calls; build rate, bytes per position, and the latency of explorer
 * queries (the start position, one reached by thousands of games, one of a single game)
 * and of exact search, printed side by side. The ClickHouse server shares this machine's
 * cores with kifu while it ingests: its rate is of the pair, not of the server alone. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_formats.h"
#include "kifu.h"

#define PER_FILE 1000
#define FLUSH_FILES 100 /* a batch: 100,000 games */
#define QUERIES 200

typedef struct figures {
    int ok;
    double seconds;
    long long games, positions, bytes;
    double lat[4][2]; /* median, p99 in ms: start, hot, one game, exact search */
} figures;

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

static void fail(const char *what, const kifu_error *e)
{
    fprintf(stderr, "kifu_bench: index: %s: %s\n", what, e->message);
}

static int build(kifu_index *ix, const char *dir, int files, figures *f)
{
    kifu_error e;
    kifu_error_clear(&e);
    double t0 = bench_now();
    for (int i = 0; i < files; i++) {
        char path[4400];
        snprintf(path, sizeof path, "%s/csa/s%03d.csa", dir, i);
        if (kifu_index_add_file(ix, path, NULL, NULL, &e) < 0 ||
            ((i + 1) % FLUSH_FILES == 0 && kifu_index_flush(ix, &e))) {
            fail(path, &e);
            return -1;
        }
    }
    if (kifu_index_flush(ix, &e)) {
        fail("flush", &e);
        return -1;
    }
    f->seconds = bench_now() - t0;
    const kifu_index_stats *s = kifu_index_stats_get(ix);
    f->games = (long long)s->games, f->positions = (long long)s->positions;
    return 0;
}

static int count_hit(void *ctx, const kifu_index_row *h)
{
    (void)h;
    ++*(long *)ctx;
    return 0;
}

/* Median and 99th percentile of QUERIES runs of query k on position p. */
static int latency(kifu_index *ix, const kifu_position *p, int k, double out[2])
{
    double t[QUERIES];
    kifu_error e;
    kifu_error_clear(&e);
    for (int i = 0; i < QUERIES; i++) {
        double t0 = bench_now();
        if (k < 3) {
            kifu_explore *x = kifu_index_explore(ix, p, NULL, &e);
            if (!x) {
                fail("explore", &e);
                return -1;
            }
            kifu_explore_free(x);
        } else {
            long hits = 0;
            if (kifu_index_find(ix, p, count_hit, &hits, &e) < 0) {
                fail("find", &e);
                return -1;
            }
        }
        t[i] = (bench_now() - t0) * 1000;
    }
    qsort(t, QUERIES, sizeof *t, cmp_double);
    out[0] = t[QUERIES / 2], out[1] = t[QUERIES * 99 / 100];
    return 0;
}

/* Build into ix (new), then time the queries on the three positions. */
static void measure(kifu_index *ix, const char *dir, int files,
                    kifu_position *const pos[3], figures *f)
{
    if (!ix || build(ix, dir, files, f))
        return;
    kifu_index_info in;
    kifu_error e;
    kifu_error_clear(&e);
    if (kifu_index_info_get(ix, &in, &e) == 0)
        f->bytes = in.bytes;
    for (int k = 0; k < 4; k++)
        if (latency(ix, pos[k < 3 ? k : 2], k, f->lat[k]))
            return;
    f->ok = 1;
}

/* The position at `ply` of the collection's first game. */
static kifu_position *first_game_at(const char *dir, int ply)
{
    char path[4400];
    snprintf(path, sizeof path, "%s/csa/s000.csa", dir);
    size_t len;
    unsigned char *data = kifu_file_read(path, &len, NULL);
    kifu_record **rs = NULL;
    size_t n = 0;
    kifu_position *p = NULL;
    if (data && kifu_read_all(data, len, NULL, &rs, &n, NULL) == 0 && n) {
        kifu_player *pl = kifu_player_new(rs[0], NULL);
        kifu_player_go(pl, ply);
        p = kifu_position_clone(kifu_player_position(pl));
        kifu_player_free(pl);
    }
    for (size_t i = 0; i < n; i++)
        kifu_record_free(rs[i]);
    kifu_free(rs);
    kifu_free(data);
    return p;
}

static void row(const char *name, const figures f[2], int have_ch, int k)
{
    printf("%-34s", name);
    for (int b = 0; b < 1 + have_ch; b++)
        if (f[b].ok)
            printf(" %9.3f / %-9.3f", f[b].lat[k][0], f[b].lat[k][1]);
        else
            printf(" %21s", "failed");
    printf("\n");
}

int bench_clickhouse(const bench_opts *o)
{
    char dir[4200];
    if (bench_search_collection(o, dir, sizeof dir))
        return -1;
    int files = (o->search_games + PER_FILE - 1) / PER_FILE;
    kifu_position *pos[3] = {kifu_position_new(), kifu_position_new(),
                             first_game_at(dir, 40)};
    kifu_position_set_sfen(pos[0], "position startpos", NULL);
    kifu_position_set_sfen(pos[1], "position startpos moves 7g7f", NULL);
    if (!pos[0] || !pos[1] || !pos[2]) {
        fprintf(stderr, "kifu_bench: index: the search collection could not be read\n");
        return -1;
    }
    printf(
        "\n== clickhouse: the index in a SQLite file and on ClickHouse (%d games of the "
        "search collection; batches of %d games)\n",
        o->search_games, FLUSH_FILES * PER_FILE);
    fflush(stdout);
    figures f[2];
    memset(f, 0, sizeof f);
    char path[4400];
    snprintf(path, sizeof path, "%s/index.kdb", o->dir);
    remove(path);
    kifu_error e;
    kifu_error_clear(&e);
    kifu_index *ix = kifu_index_open(path, KIFU_INDEX_CREATE, &e);
    if (!ix)
        fail(path, &e);
    measure(ix, dir, files, pos, &f[0]);
    kifu_index_close(ix, NULL);
    remove(path);
    int have_ch = o->clickhouse != NULL;
    if (have_ch) {
        /* A database of its own: a server kept between runs would skip every game. */
        char db[64];
        snprintf(db, sizeof db, "kifu_bench_%ld", (long)getpid());
        kifu_clickhouse_options co = {0};
        co.database = db;
        kifu_error_clear(&e);
        ix = kifu_index_open_clickhouse(o->clickhouse, KIFU_INDEX_CREATE, &co, &e);
        if (!ix)
            fail(o->clickhouse, &e);
        measure(ix, dir, files, pos, &f[1]);
        kifu_index_close(ix, NULL);
    } else {
        printf(
            "(ClickHouse: no server given; make bench starts one when clickhouse-server "
            "is installed)\n");
    }
    printf("%-34s %21s%s\n", "", "SQLite file",
           have_ch ? "    ClickHouse (1 server)" : "");
    printf("%-34s", "build: games/s, positions/s");
    for (int b = 0; b < 1 + have_ch; b++)
        if (f[b].seconds > 0)
            printf(" %9.0f / %-9.2fM", (double)f[b].games / f[b].seconds,
                   (double)f[b].positions / f[b].seconds / 1e6);
    printf("\n%-34s", "build: seconds (positions)");
    for (int b = 0; b < 1 + have_ch; b++)
        printf(" %9.1f   (%7.2fM)", f[b].seconds, (double)f[b].positions / 1e6);
    printf("\n%-34s", "bytes per position on disk");
    for (int b = 0; b < 1 + have_ch; b++)
        printf(" %21.1f",
               f[b].positions ? (double)f[b].bytes / (double)f[b].positions : 0);
    printf("\n%-34s %21s\n", "latency in ms:", "median / p99");
    row("explore start position", f, have_ch, 0);
    row("explore after 7g7f (~1/30 games)", f, have_ch, 1);
    row("explore a one-game position", f, have_ch, 2);
    row("exact search, one-game position", f, have_ch, 3);
    for (int k = 0; k < 3; k++)
        kifu_position_free(pos[k]);
    return f[0].ok && (!have_ch || f[1].ok) ? 0 : -1;
}
