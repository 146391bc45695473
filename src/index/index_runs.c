/* index_runs.c: a batch's positions written as a run of blocks of its own, and runs merged
 * later. A run's rows (positions.id = run << 20 | bucket) come after every row before
 * them, so writing one appends to the table instead of reading and writing again the
 * blocks of earlier batches: a build costs in proportion to its positions, and a small
 * add to what it adds. Readers read a bucket's block in every run (KIFU__BLOCK_SQL).
 *
 * The hot rows (the `hot` and `explorer` tables) stay exact for the keys they hold: a hot
 * key's rows take in each batch's entries, and an add gives rows to every key it brings to
 * KIFU__INDEX_HOT games. A bulk build (whose later batches would have to read the earlier
 * ones key by key) gives them to a key one batch or one merged run holds for that many
 * games; a key whose games are spread over its batches without that many in one is
 * counted from its entries (still exact, a few hundred at most) until its runs merge. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "index/index_agg.h"
#include "index/index_days.h"
#include "index/index_listing.h"
#include "index/index_private.h"
#include "kifu_private.h"

/* Runs at most, before the newest are merged whatever their sizes (each costs a query a
 * row read). */
#define MAX_RUNS 24

long kifu__index_dated = KIFU__INDEX_DATED;

static int nomem(kifu_error *err)
{
    return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
}

int kifu__index_step(sqlite3_stmt *st)
{
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    return rc == SQLITE_DONE || rc == SQLITE_ROW ? 0 : -1;
}

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

/* Sorted, each value once. The new count. */
static size_t sort_unique(uint64_t *v, size_t n)
{
    if (n < 2)
        return n;
    qsort(v, n, sizeof *v, cmp_u64);
    size_t m = 1;
    for (size_t i = 1; i < n; i++)
        if (v[i] != v[m - 1])
            v[m++] = v[i];
    return m;
}

/* Game ids whose movers' ratings a write remembers (a direct-mapped table). */
#define MEMO 4096

typedef struct memo_slot {
    uint32_t game;
    int known;
    int32_t r[2]; /* the movers' ratings at even and odd plies */
} memo_slot;

/* The statements and buffers of one batch's write. */
typedef struct writer {
    kifu_index *ix;
    sqlite3_stmt *get;    /* KIFU__BLOCK_SQL: one bucket in every run */
    sqlite3_stmt *at;     /* one row by id */
    sqlite3_stmt *ids;    /* the ids of one run */
    sqlite3_stmt *put;    /* a row written */
    sqlite3_stmt *ins;    /* a new row, after every other (no lookup first) */
    sqlite3_stmt *del;    /* a row dropped */
    sqlite3_stmt *hotget; /* a hot key's games */
    sqlite3_stmt *rowget; /* a hot key's explorer rows */
    sqlite3_stmt *hotput, *rowput, *unhot, *unrow;
    sqlite3_stmt *rating; /* a game's players' ratings and start */
    /* a hot key's listing read, written, dropped; a listed game's row, a file's path */
    sqlite3_stmt *lstget, *lstput, *lstdel, *gamerow, *srcpath;
    /* The ratings of the players who move at even and odd plies: the batch's games
     * (ids first .. first + nbatch), and games of earlier batches as they are read. */
    int32_t (*batch)[2];
    uint32_t first;
    size_t nbatch;
    memo_slot memo[MEMO];
    uint64_t *hot; /* the hot keys, sorted */
    size_t nhot, caphot;
    size_t hotat;  /* hot_next's place in hot */
    kifu__ipos *v; /* entries being read, merged or counted */
    size_t nv, capv;
    uint8_t *buf, *dbuf; /* a block, a day list being encoded */
    size_t capbuf, capdbuf;
    int exact;      /* hot rows for every key with enough games (not in a bulk build) */
    int fresh;      /* the batch is the index's first run, being appended: no entries
                     * in the table for a key before its bucket is written */
    uint64_t *keys; /* keys to make hot again once their blocks are written */
    size_t nkeys, capkeys;
    /* A hot key's listing as it was and as it is written, with the strings of the games
     * read for it from their rows. */
    kifu__listing old, list;
    kifu__arena strings;
    kifu_error *err;
} writer;

static int prepare(writer *w)
{
    static const char *const sql[] = {
        KIFU__BLOCK_SQL, "SELECT block, sum FROM positions WHERE id=?",
        "SELECT id FROM positions WHERE id BETWEEN ? AND ?",
        "INSERT OR REPLACE INTO positions VALUES(?,?,?)",
        "INSERT INTO positions VALUES(?,?,?)", "DELETE FROM positions WHERE id=?",
        "SELECT games, days FROM hot WHERE key=?",
        /* One statement over two lines: the parentheses tell clang it is meant. */
        ("SELECT move, games, sente_wins, gote_wins, sennichite, jishogi, draws, unknown,"
         " last_date, top, days, rating_sum, rated FROM explorer WHERE key=?"),
        "INSERT OR REPLACE INTO hot VALUES(?,?,?)",
        "INSERT OR REPLACE INTO explorer VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
        "DELETE FROM hot WHERE key=?", "DELETE FROM explorer WHERE key=?",
        "SELECT sente_rating, gote_rating, handicap, start FROM games WHERE id=?",
        "SELECT games FROM listing WHERE key=?",
        "INSERT OR REPLACE INTO listing VALUES(?,?)", "DELETE FROM listing WHERE key=?",
        KIFU__LISTED_SQL, "SELECT path FROM sources WHERE id=?"};
    sqlite3_stmt **st[] = {&w->get,    &w->at,      &w->ids,    &w->put,    &w->ins,
                           &w->del,    &w->hotget,  &w->rowget, &w->hotput, &w->rowput,
                           &w->unhot,  &w->unrow,   &w->rating, &w->lstget, &w->lstput,
                           &w->lstdel, &w->gamerow, &w->srcpath};
    kifu__listing_init(&w->old), kifu__listing_init(&w->list);
    kifu__arena_init(&w->strings);
    for (size_t i = 0; i < sizeof st / sizeof *st; i++)
        if (sqlite3_prepare_v2(w->ix->db, sql[i], -1, st[i], NULL) != SQLITE_OK)
            return -1;
    return 0;
}

static void finish(writer *w)
{
    sqlite3_stmt *st[] = {w->get,    w->at,      w->ids,    w->put,    w->ins,
                          w->del,    w->hotget,  w->rowget, w->hotput, w->rowput,
                          w->unhot,  w->unrow,   w->rating, w->lstget, w->lstput,
                          w->lstdel, w->gamerow, w->srcpath};
    for (size_t i = 0; i < sizeof st / sizeof *st; i++)
        sqlite3_finalize(st[i]);
    kifu__free(w->hot), kifu__free(w->v), kifu__free(w->buf), kifu__free(w->keys);
    kifu__free(w->dbuf), kifu__free(w->batch);
    kifu__listing_free(&w->old), kifu__listing_free(&w->list);
    kifu__arena_free(&w->strings);
}

/* The movers' ratings of the batch's games (ids consecutive), from memory. */
static int batch_ratings(writer *w)
{
    kifu_index *ix = w->ix;
    if (!ix->ngames)
        return 0;
    if (!(w->batch = kifu__movers_ratings(ix->games, ix->ngames)))
        return nomem(w->err);
    w->first = ix->games[0].id, w->nbatch = ix->ngames;
    return 0;
}

/* The rating of the player who moves at `ply` of game `game` (0: none) in *out: the
 * batch's from memory, an earlier game's from its row (remembered). 0, or -1. */
static int mover_rating(writer *w, uint32_t game, int ply, int *out)
{
    if (game >= w->first && game - w->first < w->nbatch) {
        *out = w->batch[game - w->first][ply & 1];
        return 0;
    }
    memo_slot *m = &w->memo[game & (MEMO - 1)];
    if (!m->known || m->game != game) {
        sqlite3_stmt *st = w->rating;
        sqlite3_bind_int64(st, 1, game);
        int s = sqlite3_step(st);
        m->r[0] = m->r[1] = 0;
        if (s == SQLITE_ROW) {
            int first = kifu__first_mover(
                kifu_preset_from_name((const char *)sqlite3_column_text(st, 2)),
                (const char *)sqlite3_column_text(st, 3));
            for (int p = 0; p < 2; p++)
                m->r[p] = kifu__mover_rating(first, p, sqlite3_column_int(st, 0),
                                             sqlite3_column_int(st, 1));
        }
        sqlite3_reset(st);
        if (s != SQLITE_ROW && s != SQLITE_DONE)
            return -1;
        m->game = game, m->known = 1;
    }
    *out = m->r[ply & 1];
    return 0;
}

static int push_key(writer *w, uint64_t key)
{
    if (kifu__reserve(&w->keys, &w->capkeys, w->nkeys + 1, sizeof *w->keys, 256))
        return nomem(w->err);
    w->keys[w->nkeys++] = key;
    return 0;
}

static int load_hot(writer *w)
{
    sqlite3_stmt *st;
    w->nhot = 0;
    if (sqlite3_prepare_v2(w->ix->db, "SELECT key FROM hot", -1, &st, NULL) != SQLITE_OK)
        return -1;
    int s;
    while ((s = sqlite3_step(st)) == SQLITE_ROW) {
        if (kifu__reserve(&w->hot, &w->caphot, w->nhot + 1, sizeof *w->hot, 1024)) {
            sqlite3_finalize(st);
            return nomem(w->err);
        }
        w->hot[w->nhot++] = (uint64_t)sqlite3_column_int64(st, 0);
    }
    sqlite3_finalize(st);
    if (s != SQLITE_DONE)
        return -1;
    w->nhot = sort_unique(w->hot, w->nhot);
    w->hotat = 0;
    return 0;
}

static int is_hot(const writer *w, uint64_t key)
{
    return w->nhot && bsearch(&key, w->hot, w->nhot, sizeof key, cmp_u64) != NULL;
}

/* is_hot for keys asked in increasing order, as a run is appended: a cursor moved along
 * the hot keys instead of a binary search for each of a batch's 30 million keys. */
static int hot_next(writer *w, uint64_t key)
{
    while (w->hotat < w->nhot && w->hot[w->hotat] < key)
        w->hotat++;
    return w->hotat < w->nhot && w->hot[w->hotat] == key;
}

/* Distinct games among n entries of one key (in game order). */
static size_t distinct_games(const kifu__ipos *v, size_t n)
{
    size_t c = 0;
    for (size_t i = 0; i < n; i++)
        c += !i || v[i].game != v[i - 1].game;
    return c;
}

/* Count n entries into a, and by day into d unless it is NULL. 0, or -1 with w->err
 * (SQLite error, NOMEM). */
static int count(writer *w, kifu__agg *a, kifu__days *d, const kifu__ipos *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char date[11];
        int rating = 0;
        kifu__index_fact_date(v[i].fact, date);
        if (v[i].move && mover_rating(w, v[i].game, v[i].ply, &rating))
            return kifu__index_sqlite_error(w->ix->db, w->ix->path,
                                            "cannot write the index", w->err);
        if (kifu__agg_add(a, v[i].move, v[i].game, v[i].ply, (int)(v[i].fact & 7), date,
                          rating) ||
            (d && kifu__days_add(d, &v[i], rating)))
            return nomem(w->err);
    }
    return 0;
}

/* Bind the day list of `move` in d (sorted) to parameter i of st; NULL when d is. */
static int bind_days(writer *w, sqlite3_stmt *st, int i, const kifu__days *d,
                     uint16_t move)
{
    if (!d)
        return sqlite3_bind_null(st, i) == SQLITE_OK ? 0 : -1;
    size_t first, n = kifu__days_of(d, move, &first);
    if (kifu__reserve(&w->dbuf, &w->capdbuf, kifu__days_bound(n), 1, 4096))
        return nomem(w->err);
    size_t len = kifu__days_encode(d->v + first, n, move != KIFU__DAYS_POSITION, w->dbuf);
    return sqlite3_bind_blob(st, i, w->dbuf, (int)len, SQLITE_TRANSIENT) == SQLITE_OK
               ? 0
               : -1;
}

/* The stored listing of key loaded into w->old (none: empty; damaged: empty too, the
 * games then read from their rows). 0, or -1. */
static int old_listing(writer *w, uint64_t key)
{
    kifu__listing_clear(&w->old);
    int rc = kifu__listing_read(&w->old, w->lstget, key);
    if (rc == -2)
        kifu__listing_clear(&w->old);
    if (rc == -1)
        return nomem(w->err);
    return rc == -3 ? -1 : 0;
}

/* The path of file `id`: the batch's, or its row's (copied into w->strings); NULL when
 * there is none, as the explorer lists it. */
static const char *source_path(writer *w, uint32_t id)
{
    kifu_index *ix = w->ix;
    for (size_t i = 0; i < ix->nsources; i++)
        if (ix->sources[i].id == id)
            return ix->sources[i].path;
    const char *path = NULL;
    sqlite3_bind_int64(w->srcpath, 1, id);
    if (sqlite3_step(w->srcpath) == SQLITE_ROW)
        path = kifu__arena_strdup(&w->strings,
                                  (const char *)sqlite3_column_text(w->srcpath, 0));
    sqlite3_reset(w->srcpath);
    return path;
}

/* A copy of column i of st in w->strings (NULL: NULL). */
static const char *column_copy(writer *w, sqlite3_stmt *st, int i)
{
    const char *s = (const char *)sqlite3_column_text(st, i);
    return s ? kifu__arena_strdup(&w->strings, s) : NULL;
}

/* Listed game `id` in *g, as the explorer lists it (kifu__sqlite_explore_game): from
 * the batch in memory, the key's listing as it was, or the game's row. 1, 0 when the
 * game has no row, -1 on an error. */
static int listed_game(writer *w, uint32_t id, kifu__explore_row *g)
{
    if (id >= w->first && id - w->first < w->nbatch) {
        const kifu__igame *x = &w->ix->games[id - w->first];
        *g = (kifu__explore_row){id,
                                 x->sente,
                                 x->gote,
                                 x->date,
                                 x->event,
                                 source_path(w, x->source),
                                 (int)x->number,
                                 x->result};
        return 1;
    }
    const kifu__explore_row *o = kifu__listing_find(&w->old, id);
    if (o) {
        *g = *o;
        return 1;
    }
    sqlite3_stmt *st = w->gamerow;
    sqlite3_bind_int64(st, 1, id);
    int s = sqlite3_step(st);
    if (s == SQLITE_ROW)
        *g = (kifu__explore_row){id,
                                 column_copy(w, st, 0),
                                 column_copy(w, st, 1),
                                 column_copy(w, st, 2),
                                 column_copy(w, st, 3),
                                 source_path(w, (uint32_t)sqlite3_column_int64(st, 6)),
                                 sqlite3_column_int(st, 4),
                                 sqlite3_column_int(st, 5)};
    sqlite3_reset(st);
    return s == SQLITE_ROW ? 1 : s == SQLITE_DONE ? 0 : -1;
}

/* Key's listing written: the games its explorer rows list (a's top games). */
static int put_listing(writer *w, uint64_t key, const kifu__agg *a)
{
    kifu__listing_clear(&w->list);
    int rc = 0;
    for (size_t i = 0; i < a->n && !rc; i++) {
        const kifu__agg_move *m = &a->m[i];
        for (int k = 0; k < m->ntop && k < KIFU__INDEX_TOP && !rc; k++) {
            kifu__explore_row g;
            int found = listed_game(w, (uint32_t)m->top[k].id, &g);
            rc = found < 0                                  ? -1
                 : found && kifu__listing_add(&w->list, &g) ? nomem(w->err)
                                                            : 0;
        }
    }
    const uint8_t *bytes;
    size_t len;
    if (!rc && kifu__listing_encode(&w->list, &bytes, &len))
        rc = nomem(w->err);
    if (!rc) {
        sqlite3_bind_int64(w->lstput, 1, (sqlite3_int64)key);
        sqlite3_bind_blob(w->lstput, 2, bytes, (int)len, SQLITE_STATIC);
        rc = kifu__index_step(w->lstput);
    }
    /* The strings read for this key go with it. */
    kifu__arena_free(&w->strings);
    kifu__arena_init(&w->strings);
    return rc;
}

/* Write a's rows as key's explorer rows when it is played in enough games, with their
 * day lists when d is not NULL (counted by day as a is), the key's rows dropped first
 * when `drop`. */
static int put_hot(writer *w, uint64_t key, kifu__agg *a, kifu__days *d, int drop)
{
    /* The listing as it was: its games are read from it rather than their rows. */
    if (a->games >= KIFU__INDEX_HOT && old_listing(w, key))
        return -1;
    if (drop) {
        sqlite3_bind_int64(w->unhot, 1, (sqlite3_int64)key);
        sqlite3_bind_int64(w->unrow, 1, (sqlite3_int64)key);
        sqlite3_bind_int64(w->lstdel, 1, (sqlite3_int64)key);
        if (kifu__index_step(w->unhot) || kifu__index_step(w->unrow) ||
            kifu__index_step(w->lstdel))
            return -1;
    }
    if (a->games < KIFU__INDEX_HOT)
        return 0;
    if (d)
        kifu__days_sort(d);
    sqlite3_bind_int64(w->hotput, 1, (sqlite3_int64)key);
    sqlite3_bind_int64(w->hotput, 2, a->games);
    if (bind_days(w, w->hotput, 3, d, KIFU__DAYS_POSITION) || kifu__index_step(w->hotput))
        return -1;
    sqlite3_stmt *row = w->rowput;
    for (size_t i = 0; i < a->n; i++) {
        kifu__agg_move *m = &a->m[i];
        /* The latest games as (id, ply, date) triples of 32-bit integers: the date
         * (kifu__index_fact) lets a later batch merge its games in without a read. */
        int32_t top[KIFU__INDEX_TOP * 3];
        int ntop = m->ntop < KIFU__INDEX_TOP ? m->ntop : KIFU__INDEX_TOP;
        for (int k = 0; k < ntop; k++) {
            top[3 * k] = (int32_t)m->top[k].id, top[3 * k + 1] = m->top[k].ply;
            top[3 * k + 2] = (int32_t)(kifu__index_fact(m->top[k].date, 0) >> 3);
        }
        sqlite3_bind_int64(row, 1, (sqlite3_int64)key);
        sqlite3_bind_int(row, 2, m->move);
        sqlite3_bind_int64(row, 3, m->games);
        for (int r = 1; r < 6; r++)
            sqlite3_bind_int64(row, 3 + r, m->res[r]);
        sqlite3_bind_int64(row, 9, m->res[0]);
        sqlite3_bind_text(row, 10, m->last_date, -1, SQLITE_TRANSIENT);
        sqlite3_bind_blob(row, 11, top, (int)(ntop * 3 * sizeof *top), SQLITE_TRANSIENT);
        sqlite3_bind_int64(row, 13, m->rating_sum);
        sqlite3_bind_int64(row, 14, m->rated);
        if (bind_days(w, row, 12, d, m->move) || kifu__index_step(row))
            return -1;
    }
    return put_listing(w, key, a);
}

/* The key's hot rows made again from all its entries in the table and add[0..nadd) (a
 * batch's, in no run yet), counted by day too when its games are enough. */
static int hot_full(writer *w, uint64_t key, const kifu__ipos *add, size_t nadd, int drop)
{
    w->nv = 0;
    if (!w->fresh &&
        kifu__index_entries(w->get, key, &w->v, &w->nv, &w->capv, w->ix->path, w->err))
        return -1;
    kifu__agg a;
    kifu__agg_init(&a);
    kifu__days days, *d = NULL;
    kifu__days_init(&days);
    if (distinct_games(w->v, w->nv) + distinct_games(add, nadd) >=
        (size_t)kifu__index_dated)
        d = &days;
    int rc = count(w, &a, d, w->v, w->nv) || count(w, &a, d, add, nadd)
                 ? -1
                 : put_hot(w, key, &a, d, drop);
    kifu__agg_free(&a);
    kifu__days_free(&days);
    return rc;
}

/* A hot key's rows with a batch's entries counted in: the stored counts and latest games
 * (their dates in the top triples) merged with the new games, which all come later. */
static int hot_more(writer *w, uint64_t key, const kifu__ipos *add, size_t nadd)
{
    kifu__agg a;
    kifu__agg_init(&a);
    kifu__days days, *d = NULL;
    kifu__days_init(&days);
    int s, rc = 0, listed = 0;
    sqlite3_bind_int64(w->hotget, 1, (sqlite3_int64)key);
    if ((s = sqlite3_step(w->hotget)) == SQLITE_ROW) {
        a.games = sqlite3_column_int64(w->hotget, 0);
        listed = sqlite3_column_type(w->hotget, 1) == SQLITE_BLOB;
        if (listed &&
            kifu__days_load(&days, KIFU__DAYS_POSITION, sqlite3_column_blob(w->hotget, 1),
                            (size_t)sqlite3_column_bytes(w->hotget, 1)))
            rc = kifu__error(w->err, KIFU_ERR_SYNTAX, 0, 0, 0, NULL, NULL,
                             "a damaged day list (hot row of key %llu)",
                             (unsigned long long)key);
    }
    sqlite3_reset(w->hotget);
    if (s != SQLITE_ROW && s != SQLITE_DONE)
        rc = -1;
    /* Enough games now to be counted by day: counted again from every entry. */
    if (!rc && !listed &&
        a.games + (long long)distinct_games(add, nadd) >= kifu__index_dated) {
        kifu__days_free(&days);
        return hot_full(w, key, add, nadd, 0);
    }
    if (listed)
        d = &days;
    sqlite3_stmt *m = w->rowget;
    sqlite3_bind_int64(m, 1, (sqlite3_int64)key);
    while (!rc && (s = sqlite3_step(m)) == SQLITE_ROW) {
        long long res[6] = {sqlite3_column_int64(m, 7), sqlite3_column_int64(m, 2),
                            sqlite3_column_int64(m, 3), sqlite3_column_int64(m, 4),
                            sqlite3_column_int64(m, 5), sqlite3_column_int64(m, 6)};
        if (kifu__agg_merge(&a, (uint16_t)sqlite3_column_int(m, 0),
                            sqlite3_column_int64(m, 1), res, sqlite3_column_int64(m, 11),
                            sqlite3_column_int64(m, 12),
                            (const char *)sqlite3_column_text(m, 8), NULL, 0)) {
            rc = nomem(w->err);
            break;
        }
        /* Moves are distinct per key: the merge made the last entry. */
        kifu__agg_move *e = &a.m[a.n - 1];
        const uint8_t *t = sqlite3_column_blob(m, 9);
        int ntop = sqlite3_column_bytes(m, 9) / 12;
        for (int k = 0; k < ntop && k < KIFU__INDEX_TOP; k++) {
            int32_t x[3];
            memcpy(x, t + 12 * k, sizeof x);
            e->top[k].id = x[0];
            e->top[k].ply = x[1];
            kifu__index_fact_date((uint32_t)x[2] << 3, e->top[k].date);
            e->ntop = k + 1;
        }
        if (d && kifu__days_load(d, e->move, sqlite3_column_blob(m, 10),
                                 (size_t)sqlite3_column_bytes(m, 10)))
            rc = kifu__error(w->err, KIFU_ERR_SYNTAX, 0, 0, 0, NULL, NULL,
                             "a damaged day list (explorer row of key %llu)",
                             (unsigned long long)key);
    }
    sqlite3_reset(m);
    if (!rc && s != SQLITE_DONE)
        rc = -1;
    if (!rc)
        rc = count(w, &a, d, add, nadd) ? -1 : put_hot(w, key, &a, d, 0);
    kifu__agg_free(&a);
    kifu__days_free(&days);
    return rc;
}

/* Write (put: w->put or w->ins) a block's bytes (sum: kifu__index_sum of them) at id. */
static int put_bytes(sqlite3_stmt *put, uint64_t id, const uint8_t *p, size_t len,
                     int64_t sum)
{
    sqlite3_bind_int64(put, 1, (sqlite3_int64)id);
    sqlite3_bind_blob(put, 2, p, (int)len, SQLITE_STATIC);
    sqlite3_bind_int64(put, 3, sum);
    return kifu__index_step(put);
}

/* Write (put: w->put or w->ins) the block of v[0..n) at id, or drop the row when n is 0. */
static int put_block(writer *w, sqlite3_stmt *put, uint64_t id, const kifu__ipos *v,
                     size_t n)
{
    if (!n) {
        sqlite3_bind_int64(w->del, 1, (sqlite3_int64)id);
        return kifu__index_step(w->del);
    }
    if (kifu__reserve(&w->buf, &w->capbuf, kifu__block_bound(n), 1, 4096))
        return nomem(w->err);
    size_t len = kifu__block_encode(v, n, w->buf);
    return put_bytes(put, id, w->buf, len, kifu__index_sum(w->buf, len));
}

/* Append the row at `id` to w->v (nothing when there is none). */
static int read_block(writer *w, uint64_t id)
{
    sqlite3_bind_int64(w->at, 1, (sqlite3_int64)id);
    int s = sqlite3_step(w->at), bad = 0;
    const uint8_t *p;
    size_t n;
    if (s == SQLITE_ROW &&
        !(bad = kifu__index_block(w->at, id, &p, &n, w->ix->path, w->err)) &&
        (bad = kifu__block_decode(p, n, id & KIFU__BUCKET_MASK, 0, 1, &w->v, &w->nv,
                                  &w->capv)))
        bad = kifu__index_block_bad(bad, id, w->ix->path, w->err);
    sqlite3_reset(w->at);
    if (s != SQLITE_ROW && s != SQLITE_DONE)
        return -1;
    return bad;
}

/* A key with too few games in the batch to be hot alone, hot when its games in the runs
 * before make enough. */
static int crossing(writer *w, uint64_t key, const kifu__ipos *add, size_t nadd)
{
    w->nv = 0;
    if (kifu__index_entries(w->get, key, &w->v, &w->nv, &w->capv, w->ix->path, w->err))
        return -1;
    if (!w->nv ||
        distinct_games(w->v, w->nv) + distinct_games(add, nadd) < KIFU__INDEX_HOT)
        return 0;
    return hot_full(w, key, add, nadd, 0);
}

/* The hot rows a bucket's sorted entries v[0..n) change, key by key. */
static int bucket_hot(writer *w, kifu__ipos *v, size_t n)
{
    for (size_t k = 0, l; k < n; k = l) {
        for (l = k; l < n && v[l].key == v[k].key; l++)
            ;
        if (hot_next(w, v[k].key) ? hot_more(w, v[k].key, v + k, l - k)
            : distinct_games(v + k, l - k) >= KIFU__INDEX_HOT
                ? hot_full(w, v[k].key, v + k, l - k, 0)
            : w->exact ? crossing(w, v[k].key, v + k, l - k)
                       : 0)
            return -1;
    }
    return 0;
}

/* The batch's entries v[0..n) as run `run`, after the hot rows they change: in bucket
 * order, each bucket sorted here (t: the sort's second buffer). */
static int append_run(writer *w, uint64_t run, kifu__ipos *v, size_t n, kifu__ipos *t)
{
    for (size_t i = 0, j; i < n; i = j) {
        uint64_t b = v[i].key >> KIFU__BUCKET_SHIFT;
        for (j = i; j < n && v[j].key >> KIFU__BUCKET_SHIFT == b; j++)
            ;
        kifu__index_sort_bucket(v + i, j - i, t ? t + i : NULL);
        if (bucket_hot(w, v + i, j - i) ||
            put_block(w, w->ins, run << KIFU__RUN_SHIFT | b, v + i, j - i))
            return -1;
    }
    return 0;
}

/* The same for a lane the helper sorted and encoded (index_lanes.c). */
static int append_lane(writer *w, uint64_t run, const kifu__lane_out *o)
{
    /* No hot key yet, none made by a look at earlier games (a bulk build's first run):
     * the keys the helper found with enough games are those bucket_hot would take. */
    int found = !w->nhot && !w->exact;
    for (size_t k = 0; k < o->nb; k++) {
        const kifu__lane_block *b = &o->b[k];
        kifu__ipos *v = (kifu__ipos *)o->v + b->i;
        for (size_t h = b->hot0; found && h < b->hot0 + b->nhot; h++) {
            kifu__ipos *e = (kifu__ipos *)o->v + o->hot[h].i;
            kifu__lane_count *c = w->fresh && o->count ? &o->count[h] : NULL;
            /* Counted by the helper: only written here. */
            if (c ? put_hot(w, e->key, &c->a,
                            c->games >= kifu__index_dated ? &c->d : NULL, 0)
                  : hot_full(w, e->key, e, o->hot[h].j - o->hot[h].i, 0))
                return -1;
        }
        if (!found && bucket_hot(w, v, b->j - b->i))
            return -1;
        if (put_bytes(w->ins, run << KIFU__RUN_SHIFT | v->key >> KIFU__BUCKET_SHIFT,
                      o->bytes + b->off, b->len, b->sum))
            return -1;
    }
    return 0;
}

/* Every lane of the batch written as run `run`: sorted here as it comes
 * (kifu__index_lane), or taken from the helper. */
static int append_lanes(writer *w, kifu_index *ix, uint64_t run)
{
    int rc = 0;
    for (unsigned l = 0; !rc && l < KIFU__LANES; l++) {
        if (ix->lanes) {
            kifu__lane_out o;
            rc = kifu__lanes_get(ix, l, &o) ? nomem(w->err) : append_lane(w, run, &o);
            if (!rc)
                kifu__lanes_release(ix, l);
            continue;
        }
        size_t n;
        kifu__ipos *t, *v = kifu__index_lane(ix, l, &n, &t);
        rc = v ? append_run(w, run, v, n, t) : 0;
    }
    kifu__lanes_stop(ix);
    return rc;
}

/* The runs, oldest first, with their entry counts. */
typedef struct runs {
    int64_t *id, *entries;
    size_t n, cap, cape;
} runs;

static int load_runs(writer *w, runs *r)
{
    sqlite3_stmt *st;
    r->n = 0;
    if (sqlite3_prepare_v2(w->ix->db, "SELECT id, entries FROM runs ORDER BY id", -1, &st,
                           NULL) != SQLITE_OK)
        return -1;
    int s;
    while ((s = sqlite3_step(st)) == SQLITE_ROW) {
        if (kifu__reserve(&r->id, &r->cap, r->n + 1, sizeof *r->id, 16) ||
            kifu__reserve(&r->entries, &r->cape, r->n + 1, sizeof *r->entries, 16)) {
            sqlite3_finalize(st);
            return nomem(w->err);
        }
        r->id[r->n] = sqlite3_column_int64(st, 0);
        r->entries[r->n++] = sqlite3_column_int64(st, 1);
    }
    sqlite3_finalize(st);
    return s == SQLITE_DONE ? 0 : -1;
}

static int set_entries(writer *w, int64_t run, int64_t entries)
{
    char sql[96];
    snprintf(sql, sizeof sql, "INSERT OR REPLACE INTO runs VALUES(%lld,%lld)",
             (long long)run, (long long)entries);
    return sqlite3_exec(w->ix->db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
}

/* The buckets run `run` has a row for, appended to w->keys. */
static int buckets_of(writer *w, int64_t run)
{
    uint64_t lo = (uint64_t)run << KIFU__RUN_SHIFT;
    sqlite3_bind_int64(w->ids, 1, (sqlite3_int64)lo);
    sqlite3_bind_int64(w->ids, 2, (sqlite3_int64)(lo | KIFU__BUCKET_MASK));
    int s;
    while ((s = sqlite3_step(w->ids)) == SQLITE_ROW)
        if (push_key(w, (uint64_t)sqlite3_column_int64(w->ids, 0) & KIFU__BUCKET_MASK)) {
            sqlite3_reset(w->ids);
            return -1;
        }
    sqlite3_reset(w->ids);
    return s == SQLITE_DONE ? 0 : -1;
}

/* Runs r->id[from..n) merged into r->id[from]: the blocks of every bucket the later ones
 * hold read, sorted and written again; keys the merged run holds for enough games get
 * their hot rows. A bucket only the first run holds stays as it is. */
static int merge_runs(writer *w, runs *r, size_t from)
{
    w->nkeys = 0;
    for (size_t k = from + 1; k < r->n; k++)
        if (buckets_of(w, r->id[k]))
            return -1;
    size_t nb = sort_unique(w->keys, w->nkeys);
    uint64_t *buckets = w->keys;
    w->keys = NULL, w->nkeys = w->capkeys = 0;
    int rc = load_hot(w);
    for (size_t i = 0; i < nb && !rc; i++) {
        w->nv = 0;
        for (size_t k = from; k < r->n && !rc; k++)
            rc = read_block(w, (uint64_t)r->id[k] << KIFU__RUN_SHIFT | buckets[i]);
        if (rc)
            break;
        /* Each run in key order, a key's later runs holding later games. */
        qsort(w->v, w->nv, sizeof *w->v, kifu__ipos_cmp);
        for (size_t k = 0, l; k < w->nv && !rc; k = l) {
            for (l = k; l < w->nv && w->v[l].key == w->v[k].key; l++)
                ;
            if (!is_hot(w, w->v[k].key) &&
                distinct_games(w->v + k, l - k) >= KIFU__INDEX_HOT)
                rc = push_key(w, w->v[k].key);
        }
        if (!rc)
            rc = put_block(w, w->put,
                           (uint64_t)r->id[from] << KIFU__RUN_SHIFT | buckets[i], w->v,
                           w->nv);
    }
    kifu__free(buckets);
    int64_t sum = 0;
    for (size_t k = from; k < r->n && !rc; k++) {
        sum += r->entries[k];
        if (k == from)
            continue;
        char sql[128];
        uint64_t lo = (uint64_t)r->id[k] << KIFU__RUN_SHIFT;
        snprintf(sql, sizeof sql,
                 "DELETE FROM positions WHERE id BETWEEN %llu AND %llu;"
                 " DELETE FROM runs WHERE id=%lld",
                 (unsigned long long)lo, (unsigned long long)(lo | KIFU__BUCKET_MASK),
                 (long long)r->id[k]);
        rc = sqlite3_exec(w->ix->db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
    }
    if (!rc)
        rc = set_entries(w, r->id[from], sum);
    /* The keys now hot, counted once their runs are one. */
    for (size_t i = 0; i < w->nkeys && !rc; i++)
        rc = hot_full(w, w->keys[i], NULL, 0, 1);
    r->entries[from] = sum;
    r->n = from + 1;
    return rc;
}

/* The occurrences of the dead games (sorted ids) dropped from every run's block of the
 * touched buckets (sorted, unique), and the hot rows of the keys they leave counted
 * again. */
static int drop_dead(writer *w, runs *r, const uint64_t *touched, size_t nt,
                     const uint64_t *dead, size_t nd)
{
    w->nkeys = 0;
    for (size_t i = 0; i < nt; i++)
        for (size_t k = 0; k < r->n; k++) {
            uint64_t id = (uint64_t)r->id[k] << KIFU__RUN_SHIFT | touched[i];
            w->nv = 0;
            if (read_block(w, id))
                return -1;
            size_t kept = 0;
            for (size_t e = 0; e < w->nv; e++) {
                uint64_t g = w->v[e].game;
                if (!bsearch(&g, dead, nd, sizeof g, cmp_u64))
                    w->v[kept++] = w->v[e];
                else if (push_key(w, w->v[e].key))
                    return -1;
            }
            if (kept == w->nv)
                continue;
            r->entries[k] -= (int64_t)(w->nv - kept);
            if (put_block(w, w->put, id, w->v, kept) ||
                set_entries(w, r->id[k], r->entries[k]))
                return -1;
        }
    w->nkeys = sort_unique(w->keys, w->nkeys);
    for (size_t i = 0; i < w->nkeys; i++)
        if (hot_full(w, w->keys[i], NULL, 0, 1))
            return -1;
    return 0;
}

/* Merge the newest runs while the newest is as large as the one before it (so runs
 * shrink from the oldest, a few dozen at most for any history of adds) or there are too
 * many. */
static int settle(writer *w, runs *r)
{
    while (r->n >= 2 && (r->entries[r->n - 1] >= r->entries[r->n - 2] || r->n > MAX_RUNS))
        if (merge_runs(w, r, r->n - 2))
            return -1;
    return 0;
}

int kifu__index_write_run(kifu_index *ix, const uint64_t *touched, size_t nt,
                          const uint64_t *dead, size_t nd, kifu_error *err)
{
    writer w;
    memset(&w, 0, sizeof w);
    w.ix = ix, w.err = err;
    runs r = {0};
    int rc =
        prepare(&w) || load_runs(&w, &r) || load_hot(&w) || batch_ratings(&w) ? -1 : 0;
    if (!rc && nt)
        rc = drop_dead(&w, &r, touched, nt, dead, nd);
    if (!rc && ix->npos) {
        int64_t run = r.n ? r.id[r.n - 1] + 1 : 1;
        /* An add looks up the earlier games of each key it adds to: the hot rows stay
         * exact (as one build makes them) at a read per key. A bulk build does not: it
         * would read its earlier batches once per key. */
        w.exact = r.n && !ix->bulk;
        w.fresh = !r.n;
        rc = load_hot(&w);
        rc = rc || append_lanes(&w, ix, (uint64_t)run);
        w.fresh = 0;
        rc = rc || set_entries(&w, run, (int64_t)ix->npos) ? -1 : 0;
        if (!rc && !kifu__reserve(&r.id, &r.cap, r.n + 1, sizeof *r.id, 16) &&
            !kifu__reserve(&r.entries, &r.cape, r.n + 1, sizeof *r.entries, 16)) {
            r.id[r.n] = run;
            r.entries[r.n++] = (int64_t)ix->npos;
        } else if (!rc) {
            rc = nomem(err);
        }
    }
    /* A bulk build leaves its batches' runs as they are: merging them would write the
     * index again; readers read a bucket's row in each (a few for a million games). */
    if (!rc && !ix->bulk)
        rc = settle(&w, &r);
    kifu__lanes_stop(ix); /* when a write before the lanes failed */
    if (rc && (!err || !err->code))
        kifu__index_sqlite_error(ix->db, ix->path, "cannot write the index", err);
    finish(&w);
    kifu__free(r.id), kifu__free(r.entries);
    return rc;
}

int kifu__index_merge_all(kifu_index *ix, kifu_error *err)
{
    writer w;
    memset(&w, 0, sizeof w);
    w.ix = ix, w.err = err;
    runs r = {0};
    int rc = prepare(&w) || load_runs(&w, &r) ? -1 : 0;
    if (!rc && r.n > 1)
        rc = merge_runs(&w, &r, 0);
    if (rc && (!err || !err->code))
        kifu__index_sqlite_error(ix->db, ix->path, "cannot compact the index", err);
    finish(&w);
    kifu__free(r.id), kifu__free(r.entries);
    return rc;
}
