/* index_check.c: `kifu index check` on the SQLite index (kifu_index_check). SQLite's own
 * integrity check first; then every row of positions read against its checksum and
 * decoded, its entries counted by run (against `runs`) and by game; then every game's
 * moves read against their checksum and replayed, and its positions counted against its
 * plies (a row of positions removed whole has no checksum to fail, but leaves its games
 * short). Each damaged item is told to the caller, and the walk goes on. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "index/index_private.h"
#include "index/index_sqlite.h"
#include "kifu_private.h"
#include "rules/engine.h"

typedef struct checker {
    kifu_index *ix;
    void (*fn)(void *ctx, const kifu_error *damage);
    void *ctx;
    kifu_index_check_counts *out;
    kifu_error *err;
    uint32_t *entries; /* positions stored for each game id (0..maxgame) */
    size_t maxgame;
    int64_t *run, *runsum, *runentries; /* runs, their entries stored and as counted */
    size_t nruns;
    kifu__ipos *v; /* one block's entries */
    size_t nv, capv;
    int bad_blocks; /* a damaged block: the counts by run and game would only echo it */
} checker;

/* One damaged item told (what: "positions row 12"; why: what is wrong with it). */
static void damage(checker *c, const char *what, const char *why)
{
    kifu_error e = {0};
    kifu__index_damaged(&e, c->ix->path, what, why);
    c->out->damaged++;
    if (c->fn)
        c->fn(c->ctx, &e);
}

/* The damage a failed kifu__index_block or kifu__block_decode left in e, told; or, out
 * of memory, the check's error (-1). */
static int told(checker *c, kifu_error *e)
{
    if (e->code == KIFU_ERR_NOMEM)
        return kifu__error(c->err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
    c->out->damaged++;
    if (c->fn)
        c->fn(c->ctx, e);
    return 0;
}

/* A statement's failure: a file SQLite finds damaged is damage told (SQLite's message),
 * anything else the check's error. 0 or -1. */
static int sql_failed(checker *c, const char *what)
{
    int code = sqlite3_errcode(c->ix->db);
    if (code == SQLITE_CORRUPT || code == SQLITE_NOTADB) {
        char why[300];
        snprintf(why, sizeof why, "cannot be read (%s)", sqlite3_errmsg(c->ix->db));
        damage(c, what, why);
        return 0;
    }
    return kifu__index_sqlite_error(c->ix->db, c->ix->path, "cannot check the index",
                                    c->err);
}

/* SQLite's integrity_check: every line but "ok" is damage. */
static int integrity(checker *c)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(c->ix->db, "PRAGMA integrity_check", -1, &st, NULL) !=
        SQLITE_OK)
        return sql_failed(c, "the file");
    int s;
    while ((s = sqlite3_step(st)) == SQLITE_ROW) {
        const char *line = (const char *)sqlite3_column_text(st, 0);
        if (line && strcmp(line, "ok") != 0)
            damage(c, "SQLite's integrity check:", line);
    }
    sqlite3_finalize(st);
    return s == SQLITE_DONE ? 0 : sql_failed(c, "the file");
}

/* The games' largest id and the runs with their entries, read. 0, or -1. */
static int load(checker *c)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(c->ix->db, "SELECT coalesce(max(id),0) FROM games", -1, &st,
                           NULL) != SQLITE_OK)
        return sql_failed(c, "the games table") ? -1 : 1;
    if (sqlite3_step(st) == SQLITE_ROW)
        c->maxgame = (size_t)sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    if (!(c->entries = kifu__calloc(c->maxgame + 1, sizeof *c->entries)))
        return kifu__error(c->err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
    if (sqlite3_prepare_v2(c->ix->db, "SELECT id, entries FROM runs ORDER BY id", -1, &st,
                           NULL) != SQLITE_OK)
        return sql_failed(c, "the runs table") ? -1 : 1;
    size_t cap = 0, cap2 = 0, cap3 = 0;
    int s;
    while ((s = sqlite3_step(st)) == SQLITE_ROW) {
        size_t n = c->nruns + 1;
        if (kifu__reserve(&c->run, &cap, n, sizeof *c->run, 16) ||
            kifu__reserve(&c->runsum, &cap2, n, sizeof *c->runsum, 16) ||
            kifu__reserve(&c->runentries, &cap3, n, sizeof *c->runentries, 16)) {
            sqlite3_finalize(st);
            return kifu__error(c->err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL,
                               "out of memory");
        }
        c->run[c->nruns] = sqlite3_column_int64(st, 0);
        c->runentries[c->nruns] = sqlite3_column_int64(st, 1);
        c->runsum[c->nruns++] = 0;
    }
    sqlite3_finalize(st);
    return s == SQLITE_DONE ? 0 : sql_failed(c, "the runs table") ? -1 : 1;
}

/* The entries of one decoded row of positions (id) counted by run and game. */
static void count_block(checker *c, uint64_t id)
{
    char what[64];
    snprintf(what, sizeof what, "positions row %llu", (unsigned long long)id);
    int64_t run = (int64_t)(id >> KIFU__RUN_SHIFT);
    size_t r = 0;
    while (r < c->nruns && c->run[r] != run)
        r++;
    if (r == c->nruns) {
        damage(c, what, "belongs to no run (no row of runs has its id)");
        return;
    }
    c->runsum[r] += (int64_t)c->nv;
    for (size_t i = 0; i < c->nv; i++) {
        uint32_t g = c->v[i].game;
        if (g && g <= c->maxgame) {
            c->entries[g]++;
            continue;
        }
        char why[96];
        snprintf(why, sizeof why, "holds a position of game %u, which is not indexed",
                 (unsigned)g);
        damage(c, what, why);
        return;
    }
}

/* Every row of positions checked and counted. 0, or -1. */
static int blocks(checker *c)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(c->ix->db, "SELECT block, sum, id FROM positions ORDER BY id",
                           -1, &st, NULL) != SQLITE_OK)
        return sql_failed(c, "the positions table");
    int s, rc = 0;
    while (!rc && (s = sqlite3_step(st)) == SQLITE_ROW) {
        uint64_t id = (uint64_t)sqlite3_column_int64(st, 2);
        kifu_error e = {0};
        const uint8_t *p;
        size_t n;
        int bad;
        c->out->blocks++;
        c->nv = 0;
        if (kifu__index_block(st, id, &p, &n, c->ix->path, &e) ||
            ((bad = kifu__block_decode(p, n, id & KIFU__BUCKET_MASK, 0, 1, &c->v, &c->nv,
                                       &c->capv)) &&
             kifu__index_block_bad(bad, id, c->ix->path, &e)))
            rc = told(c, &e), c->bad_blocks = 1;
        else
            count_block(c, id);
    }
    sqlite3_finalize(st);
    if (!rc && s != SQLITE_DONE)
        rc = sql_failed(c, "the positions table");
    for (size_t r = 0; !rc && !c->bad_blocks && r < c->nruns; r++)
        if (c->runsum[r] != c->runentries[r]) {
            char what[64], why[128];
            snprintf(what, sizeof what, "run %lld of positions", (long long)c->run[r]);
            snprintf(why, sizeof why, "holds %lld entries where runs says %lld",
                     (long long)c->runsum[r], (long long)c->runentries[r]);
            damage(c, what, why);
        }
    return rc;
}

/* One game's row (id, handicap, start, moves, moves_sum, plies) checked. 0, or -1. */
static int check_game(checker *c, sqlite3_stmt *st)
{
    long long id = sqlite3_column_int64(st, 0);
    long long plies = sqlite3_column_int64(st, 5);
    char what[64], why[128];
    snprintf(what, sizeof what, "game %lld", id);
    kifu_error e = {0};
    const void *blob;
    int n;
    c->out->games++;
    if (kifu__index_moves(st, 3, id, &blob, &n, c->ix->path, &e))
        return told(c, &e);
    const uint16_t *moves = blob;
    kpos p;
    if (n != plies) {
        snprintf(why, sizeof why, "has %d moves where its row says %lld", n, plies);
        damage(c, what, why);
        return 0;
    }
    const char *handicap = (const char *)sqlite3_column_text(st, 1);
    const char *start = (const char *)sqlite3_column_text(st, 2);
    int replay = kifu__index_start(handicap, start, &p) == 0;
    /* A start the build could not write as SFEN (a board no legal game reaches) is
     * OTHER without one: its moves are not replayed. Any other start must read. */
    if (!replay && (start || !handicap || strcmp(handicap, "OTHER") != 0)) {
        damage(c, what, "has a start that is no position");
        return 0;
    }
    for (int ply = 0; replay && ply < n; ply++) {
        kmove k = kifu__index_expand(&p, moves[ply]);
        if (!k) {
            snprintf(why, sizeof why, "has a move that cannot be played (move %d)",
                     ply + 1);
            damage(c, what, why);
            return 0;
        }
        kifu__pos_do(&p, k);
    }
    if (!c->bad_blocks && id > 0 && (size_t)id <= c->maxgame &&
        c->entries[id] != (uint64_t)plies + 1) {
        snprintf(why, sizeof why,
                 "has %u positions stored where its %lld moves make %lld",
                 (unsigned)c->entries[id], plies, plies + 1);
        damage(c, what, why);
    }
    return 0;
}

/* Every game checked. 0, or -1. */
static int games(checker *c)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(
            c->ix->db,
            "SELECT id, handicap, start, moves, moves_sum, plies FROM games "
            "ORDER BY id",
            -1, &st, NULL) != SQLITE_OK)
        return sql_failed(c, "the games table");
    int s, rc = 0;
    while (!rc && (s = sqlite3_step(st)) == SQLITE_ROW)
        rc = check_game(c, st);
    sqlite3_finalize(st);
    return !rc && s != SQLITE_DONE ? sql_failed(c, "the games table") : rc;
}

int kifu__sqlite_check(kifu_index *ix, void (*fn)(void *ctx, const kifu_error *damage),
                       void *ctx, kifu_index_check_counts *out, kifu_error *err)
{
    checker c = {.ix = ix, .fn = fn, .ctx = ctx, .out = out, .err = err};
    /* One read transaction: an add meanwhile is seen whole or not at all. */
    int txn = sqlite3_get_autocommit(ix->db) &&
              sqlite3_exec(ix->db, "BEGIN", NULL, NULL, NULL) == SQLITE_OK;
    int rc = integrity(&c);
    int loaded = rc ? -1 : load(&c);
    if (loaded < 0)
        rc = -1;
    else if (loaded == 0 && !(rc = blocks(&c)))
        rc = games(&c);
    if (txn)
        sqlite3_exec(ix->db, "COMMIT", NULL, NULL, NULL);
    kifu__free(c.entries), kifu__free(c.run), kifu__free(c.runsum);
    kifu__free(c.runentries), kifu__free(c.v);
    return rc ? -1 : out->damaged > 0;
}
