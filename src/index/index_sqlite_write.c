/* index_sqlite_write.c: the SQLite index's writes: a batch's sources and games rows, then
 * its positions as a run of their own (index_runs.c), the games of a file read again with
 * other content dropped first. The batches of one add share one transaction, committed
 * by the flush. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "index/index_private.h"
#include "index/index_sqlite.h"
#include "kifu_private.h"
#include "rules/engine.h"

static int nomem(kifu_error *err)
{
    return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
}

uint32_t kifu__sqlite_max_id(sqlite3 *db, const char *table)
{
    char sql[64];
    snprintf(sql, sizeof sql, "SELECT coalesce(max(id),0) FROM %s", table);
    sqlite3_stmt *st;
    uint32_t v = 0;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
        if (sqlite3_step(st) == SQLITE_ROW)
            v = (uint32_t)sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
    }
    return v;
}

/* Buckets touched by deletions, for their blocks to be written again; the ids of the
 * deleted games, whose occurrences those blocks drop. */
typedef struct keyset {
    uint64_t *v;
    size_t n, cap;
} keyset;

/* Remove the games of a source that is indexed again: their occurrences go when the
 * buckets they are in are written again (each game's keys found by replaying its moves),
 * and the games are no longer live for that merge. */
static int delete_source(kifu_index *ix, uint32_t source, keyset *touched, keyset *dead,
                         kifu_error *err)
{
    sqlite3_stmt *sel = NULL;
    int rc = -1;
    if (sqlite3_prepare_v2(
            ix->db,
            "SELECT id, handicap, start, moves, moves_sum FROM games WHERE "
            "source=?",
            -1, &sel, NULL) != SQLITE_OK)
        goto done;
    sqlite3_bind_int64(sel, 1, source);
    int s;
    while ((s = sqlite3_step(sel)) == SQLITE_ROW) {
        long long game = sqlite3_column_int64(sel, 0);
        if (kifu__reserve(&dead->v, &dead->cap, dead->n + 1, sizeof *dead->v, 256)) {
            nomem(err);
            goto done;
        }
        dead->v[dead->n++] = (uint64_t)game;
        const void *blob;
        int nmoves;
        if (kifu__index_moves(sel, 3, game, &blob, &nmoves, ix->path, err))
            goto done;
        const uint16_t *moves = blob;
        kpos p;
        if (kifu__index_start((const char *)sqlite3_column_text(sel, 1),
                              (const char *)sqlite3_column_text(sel, 2), &p))
            continue;
        for (int ply = 0;; ply++) {
            if (kifu__reserve(&touched->v, &touched->cap, touched->n + 1,
                              sizeof *touched->v, 256)) {
                nomem(err);
                goto done;
            }
            touched->v[touched->n++] = p.key >> KIFU__BUCKET_SHIFT;
            if (ply >= nmoves)
                break;
            kmove k = kifu__index_expand(&p, moves[ply]);
            if (!k)
                break;
            kifu__pos_do(&p, k);
        }
    }
    if (s != SQLITE_DONE)
        goto done;
    char sql[96];
    snprintf(sql, sizeof sql, "DELETE FROM games WHERE source=%u", (unsigned)source);
    rc = kifu__index_tags_drop(ix, source) == 0 &&
                 sqlite3_exec(ix->db, sql, NULL, NULL, NULL) == SQLITE_OK
             ? 0
             : -1;
done:
    if (rc && (!err || !err->code))
        kifu__index_sqlite_error(ix->db, ix->path, "cannot replace a file's games", err);
    sqlite3_finalize(sel);
    return rc;
}

static int cmp_key(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

static const char games_sql[] =
    "INSERT INTO games VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";

/* The batch's games from ix->games_written on (statement: games_sql). */
static int insert_games(kifu_index *ix, sqlite3_stmt *game)
{
    for (size_t i = ix->games_written; i < ix->ngames; i++) {
        kifu__igame *g = &ix->games[i];
        sqlite3_bind_int64(game, 1, g->id);
        sqlite3_bind_int64(game, 2, g->source);
        sqlite3_bind_int64(game, 3, g->number);
        const char *text[4] = {g->sente, g->gote, g->date, g->event};
        for (int k = 0; k < 4; k++)
            if (text[k])
                sqlite3_bind_text(game, 4 + k, text[k], -1, SQLITE_STATIC);
            else
                sqlite3_bind_null(game, 4 + k);
        sqlite3_bind_int(game, 8, g->result);
        const char *hc =
            kifu_preset_name(g->handicap < 0 ? KIFU_PRESET_HIRATE : g->handicap);
        sqlite3_bind_text(game, 9, hc ? hc : "OTHER", -1, SQLITE_STATIC);
        if (g->start)
            sqlite3_bind_text(game, 10, g->start, -1, SQLITE_STATIC);
        else
            sqlite3_bind_null(game, 10);
        sqlite3_bind_int64(game, 11, g->nmoves);
        if (g->sente_rating)
            sqlite3_bind_int(game, 12, g->sente_rating);
        else
            sqlite3_bind_null(game, 12);
        if (g->gote_rating)
            sqlite3_bind_int(game, 13, g->gote_rating);
        else
            sqlite3_bind_null(game, 13);
        sqlite3_bind_blob(game, 14, g->moves ? (const void *)g->moves : "",
                          (int)(g->nmoves * 2), SQLITE_STATIC);
        if (g->ending)
            sqlite3_bind_text(game, 15, g->ending, -1, SQLITE_STATIC);
        else
            sqlite3_bind_null(game, 15);
        sqlite3_bind_text(game, 16, g->header, -1, SQLITE_STATIC);
        const char *who[4] = {g->sente_key, g->gote_key, g->sente_rank, g->gote_rank};
        for (int k = 0; k < 4; k++)
            if (who[k])
                sqlite3_bind_text(game, 17 + k, who[k], -1, SQLITE_STATIC);
            else
                sqlite3_bind_null(game, 17 + k);
        sqlite3_bind_int64(game, 21, (sqlite3_int64)g->ident);
        sqlite3_bind_int64(
            game, 22,
            kifu__index_line_sum(hc ? hc : "OTHER", g->start, g->moves, g->nmoves * 2));
        if (kifu__index_step(game))
            return -1;
        sqlite3_clear_bindings(game);
    }
    return 0;
}

/* Write the queued batch inside the open transaction: sources, games, then the positions
 * as a run of their own (index_runs.c), the replaced games' occurrences dropped first;
 * with `indexes`, the games' indexes made before the positions. 0, or -1 with err. */
static int write_batch(kifu_index *ix, int indexes, kifu_error *err)
{
    sqlite3 *db = ix->db;
    sqlite3_stmt *src = NULL, *game = NULL;
    keyset touched = {0}, dead = {0};
    int rc = -1;
    if (kifu__index_sort_lanes(ix)) {
        nomem(err);
        goto out;
    }
    for (size_t i = 0; i < ix->nsources; i++)
        if (ix->sources[i].replace &&
            delete_source(ix, ix->sources[i].id, &touched, &dead, err))
            goto out;
    if (sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO sources VALUES(?,?,?,?,?,?)", -1,
                           &src, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db, games_sql, -1, &game, NULL) != SQLITE_OK)
        goto sqlfail;
    for (size_t i = 0; i < ix->nsources; i++) {
        struct kifu__isource *s = &ix->sources[i];
        sqlite3_bind_int64(src, 1, s->id);
        sqlite3_bind_text(src, 2, s->path, -1, SQLITE_STATIC);
        sqlite3_bind_int64(src, 3, s->size);
        sqlite3_bind_int64(src, 4, (sqlite3_int64)s->digest);
        sqlite3_bind_int64(src, 5, s->games);
        sqlite3_bind_int64(src, 6, s->dups);
        if (kifu__index_step(src))
            goto sqlfail;
    }
    if (insert_games(ix, game) || kifu__index_tags_write(ix, ix->games_written))
        goto sqlfail;
    /* A bulk build's last batch: the games' indexes made while the helper puts the
     * positions in order (index_lanes.c), not after. */
    if (indexes && kifu__index_schema_indexes(db, err)) {
        kifu__error_source(err, ix->path);
        goto out;
    }
    /* Sorted, each once (an empty vector has no storage, and qsort wants some). */
    size_t nt = 0;
    if (touched.n) {
        qsort(touched.v, touched.n, sizeof *touched.v, cmp_key);
        for (size_t i = 0; i < touched.n; i++)
            if (!nt || touched.v[i] != touched.v[nt - 1])
                touched.v[nt++] = touched.v[i];
    }
    if (dead.n)
        qsort(dead.v, dead.n, sizeof *dead.v, cmp_key);
    if (kifu__index_write_run(ix, touched.v, nt, dead.v, dead.n, err))
        goto out;
    ix->stats.games += ix->ngames;
    ix->stats.positions += ix->npos;
    rc = 0;
    goto out;
sqlfail:
    if (!err || !err->code)
        kifu__index_sqlite_error(db, ix->path, "cannot write the index", err);
out:
    sqlite3_finalize(src), sqlite3_finalize(game);
    kifu__free(touched.v), kifu__free(dead.v);
    kifu__index_batch_free(ix);
    return rc;
}

/* The add's transaction opened unless it is. 0, or -1 with err (the batch dropped). */
static int begin(kifu_index *ix, kifu_error *err)
{
    if (ix->intx)
        return 0;
    if (sqlite3_exec(ix->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) {
        kifu__index_sqlite_error(ix->db, ix->path, "cannot write the index", err);
        kifu__index_batch_free(ix);
        return -1;
    }
    ix->intx = 1;
    return 0;
}

/* The add rolled back: -1. */
static int rollback(kifu_index *ix)
{
    sqlite3_exec(ix->db, "ROLLBACK", NULL, NULL, NULL);
    ix->intx = 0;
    /* What the add took from the id counters goes back with it. */
    ix->next_game = kifu__sqlite_max_id(ix->db, "games") + 1;
    ix->next_source = kifu__sqlite_max_id(ix->db, "sources") + 1;
    return -1;
}

/* Write the batch (write_batch); the first one of an add opens its transaction. 0, or
 * -1: the whole add is rolled back. */
static int write_tx(kifu_index *ix, int indexes, kifu_error *err)
{
    if (begin(ix, err))
        return -1;
    return write_batch(ix, indexes, err) == 0 ? 0 : rollback(ix);
}

int kifu__sqlite_write(kifu_index *ix, kifu_error *err)
{
    return write_tx(ix, 0, err);
}

/* A bulk build's games and tags written as each file is queued, on the thread that adds,
 * while others read the next files (index build -j): at the batch's write (with nothing
 * else to do meanwhile at the last one) only its sources and positions are left. Not in
 * a batch that replaces a file (whose old games go first, at its write) nor in an add
 * to an index, whose games' indexes would take them in no order. 0, or -1: the whole
 * add is rolled back. */
int kifu__sqlite_rows(kifu_index *ix, kifu_error *err)
{
    if (!ix->unindexed || ix->games_written == ix->ngames)
        return 0;
    for (size_t i = 0; i < ix->nsources; i++)
        if (ix->sources[i].replace)
            return 0;
    sqlite3_stmt *game = NULL;
    if (begin(ix, err))
        return -1;
    int rc = sqlite3_prepare_v2(ix->db, games_sql, -1, &game, NULL) != SQLITE_OK ||
                     insert_games(ix, game) ||
                     kifu__index_tags_write(ix, ix->games_written)
                 ? -1
                 : 0;
    sqlite3_finalize(game);
    if (!rc) {
        ix->games_written = ix->ngames;
        return 0;
    }
    kifu__index_sqlite_error(ix->db, ix->path, "cannot write the index", err);
    kifu__index_batch_free(ix);
    return rollback(ix);
}

int kifu__sqlite_flush(kifu_index *ix, kifu_error *err)
{
    if (ix->readonly || (!ix->ngames && !ix->nsources && !ix->intx && !ix->unindexed))
        return 0;
    /* A bulk build's games' indexes, once its games are in (kifu_index_open): with its
     * last batch's, else here. */
    int indexed = ix->unindexed && (ix->ngames || ix->nsources);
    if ((ix->ngames || ix->nsources) && write_tx(ix, indexed, err))
        return -1;
    int failed = ix->unindexed && !indexed && kifu__index_schema_indexes(ix->db, err);
    if (failed)
        kifu__error_source(err, ix->path);
    else
        ix->unindexed = 0;
    if (!ix->intx)
        return failed ? -1 : 0;
    if (failed || sqlite3_exec(ix->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
        if (!failed)
            kifu__index_sqlite_error(ix->db, ix->path, "cannot write the index", err);
        sqlite3_exec(ix->db, "ROLLBACK", NULL, NULL, NULL);
        ix->intx = 0;
        ix->next_game = kifu__sqlite_max_id(ix->db, "games") + 1;
        ix->next_source = kifu__sqlite_max_id(ix->db, "sources") + 1;
        return -1;
    }
    ix->intx = 0;
    return 0;
}
