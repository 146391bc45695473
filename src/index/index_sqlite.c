/* index_sqlite.c: the index in one SQLite file: opening it (kifu_index_open), the table of
 * its operations, and what it holds of a file. Its writes are index_sqlite_write.c and
 * index_runs.c, its explorer index_sqlite_explore.c, its searches index_search.c and
 * index_find.c, its books index_book.c, its check index_check.c. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "index/index_private.h"
#include "index/index_sqlite.h"
#include "kifu_private.h"

static const kifu__index_ops sqlite_ops;

kifu_index *kifu_index_open(const char *path, unsigned flags, kifu_error *err)
{
    kifu_index *ix = kifu__index_new(path, &sqlite_ops, err);
    if (!ix)
        return NULL;
    struct stat st;
    int exists = stat(path, &st) == 0;
    if (!exists && !(flags & KIFU_INDEX_CREATE)) {
        kifu__error(err, KIFU_ERR_IO, 0, 0, 0, NULL, NULL, "no index file");
        kifu__error_source(err, path);
        goto fail;
    }
    /* SQLite's own word for a directory was "disk I/O error". */
    if (exists && S_ISDIR(st.st_mode)) {
        kifu__error(err, KIFU_ERR_IO, 0, 0, 0, NULL, NULL, "a directory, not an index");
        kifu__error_source(err, path);
        goto fail;
    }
    ix->readonly = (flags & KIFU_INDEX_READONLY) != 0;
    /* One writer at a time (index_lock.c); a bulk file is the builder's own. The file is
     * looked at again once locked: a build may have put a new one there meanwhile. */
    if (!ix->readonly && !(flags & KIFU_INDEX_BULK)) {
        int created;
        if ((ix->lock_fd = kifu__index_lock_fd(path, flags, &created, err)) < 0)
            goto fail;
        ix->locked = 1;
        exists = stat(path, &st) == 0;
    }
    ix->keep_dups = (flags & KIFU_INDEX_KEEP_DUPLICATES) != 0;
    int oflags = ix->readonly ? SQLITE_OPEN_READONLY
                              : SQLITE_OPEN_READWRITE | (exists ? 0 : SQLITE_OPEN_CREATE);
    if (sqlite3_open_v2(path, &ix->db, oflags | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
        kifu__index_sqlite_error(ix->db, path, "cannot open the index", err);
        goto fail;
    }
    sqlite3_busy_timeout(ix->db, 10000);
    /* A bulk build's new file gets the games' indexes at its commit, sorted from the
     * whole table: inserted game by game (names in no order) they were a third of
     * SQLite's part of a build. */
    ix->bulk = (flags & KIFU_INDEX_BULK) && !ix->readonly;
    if (!exists || (st.st_size == 0 && !ix->readonly)) {
        ix->unindexed = ix->bulk;
        if (kifu__index_schema_create(ix->db, !ix->unindexed, err)) {
            kifu__error_source(err, path);
            goto fail;
        }
    } else if (kifu__index_schema_check(ix->db, path, err)) {
        goto fail;
    }
    /* Bulk work: a large page cache; WAL keeps readers going while a batch is written. */
    sqlite3_exec(ix->db, "PRAGMA cache_size=-262144; PRAGMA synchronous=NORMAL;", NULL,
                 NULL, NULL);
    /* A file being built alone is written once, not to the WAL and then again. It only
     * appends but for the games' indexes, so a small cache holds what it rewrites: 32 MB
     * wrote 0.2% more pages than 256 MB for 300,000 games, and faulted in 60,000 fewer
     * pages a 100,000 games. */
    if (ix->bulk)
        sqlite3_exec(ix->db,
                     "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;"
                     " PRAGMA locking_mode=EXCLUSIVE; PRAGMA cache_size=-32768;",
                     NULL, NULL, NULL);
    ix->next_game = kifu__sqlite_max_id(ix->db, "games") + 1;
    ix->next_source = kifu__sqlite_max_id(ix->db, "sources") + 1;
    return ix;
fail:
    sqlite3_close(ix->db);
    if (ix->locked)
        close(ix->lock_fd);
    kifu__index_free(ix);
    return NULL;
}

static void sqlite_close(kifu_index *ix)
{
    /* The WAL is folded into the file so that it is one file again; a bulk-built file
     * turns to WAL for the readers and writers to come. */
    if (ix->bulk)
        sqlite3_exec(ix->db, "PRAGMA locking_mode=NORMAL; PRAGMA journal_mode=WAL;", NULL,
                     NULL, NULL);
    if (!ix->readonly && ix->db)
        sqlite3_exec(ix->db, "PRAGMA wal_checkpoint(TRUNCATE);", NULL, NULL, NULL);
    for (int i = 0; i < KIFU__EXPLORE_STMTS; i++)
        sqlite3_finalize(ix->explore_st[i]);
    sqlite3_close(ix->db);
    ix->db = NULL;
    if (ix->locked)
        close(
            ix->lock_fd); /* after SQLite's: closing it first would drop SQLite's locks */
    ix->locked = 0;
}

/* Id and digest of the source row with this path; 0 when there is none. */
static uint32_t find_source(kifu_index *ix, const char *path, uint64_t *dig)
{
    for (size_t i = 0; i < ix->nsources; i++)
        if (strcmp(ix->sources[i].path, path) == 0) {
            *dig = ix->sources[i].digest;
            return ix->sources[i].id;
        }
    sqlite3_stmt *st;
    uint32_t id = 0;
    if (sqlite3_prepare_v2(ix->db, "SELECT id, digest FROM sources WHERE path=?", -1, &st,
                           NULL) != SQLITE_OK)
        return 0;
    sqlite3_bind_text(st, 1, path, -1, SQLITE_STATIC);
    if (sqlite3_step(st) == SQLITE_ROW) {
        id = (uint32_t)sqlite3_column_int64(st, 0);
        *dig = (uint64_t)sqlite3_column_int64(st, 1);
    }
    sqlite3_finalize(st);
    return id;
}

/* A file read again with other content: its games are dropped by source at the write
 * (sqlite_replaced), but their ids go in gone all the same, so that the add forgets
 * their identities (a game that stays in the file is not a duplicate of itself). */
static int sqlite_lookup(kifu_index *ix, const char *path, uint64_t dig, kifu__known *k,
                         kifu_error *err)
{
    k->id = find_source(ix, path, &k->digest);
    if (!k->id || k->digest == dig || ix->keep_dups)
        return 0;
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(ix->db, "SELECT id FROM games WHERE source=?", -1, &st,
                           NULL) != SQLITE_OK)
        return kifu__index_sqlite_error(ix->db, ix->path, "cannot read the index", err);
    sqlite3_bind_int64(st, 1, k->id);
    size_t cap = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        if (kifu__reserve(&k->gone, &cap, k->ngone + 1, sizeof *k->gone, 64)) {
            sqlite3_finalize(st);
            return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
        }
        k->gone[k->ngone++] = (uint32_t)sqlite3_column_int64(st, 0);
    }
    sqlite3_finalize(st);
    return 0;
}

/* A file read again with other content keeps its source id: the batch's write drops the
 * games of that source (its `replace` flag), so there are no game ids to give. */
static int sqlite_replaced(kifu_index *ix, const uint32_t *games, size_t n,
                           kifu_error *err)
{
    (void)ix, (void)games, (void)n, (void)err;
    return 0;
}

static int sqlite_compact(kifu_index *ix, kifu_error *err)
{
    if (ix->readonly)
        return kifu__error(err, KIFU_ERR_ARG, 0, 0, 0, NULL, NULL,
                           "the index was opened read-only");
    if (kifu__sqlite_flush(ix, err))
        return -1;
    if (sqlite3_exec(ix->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
        return kifu__index_sqlite_error(ix->db, ix->path, "cannot write the index", err);
    if (kifu__index_merge_all(ix, err) ||
        sqlite3_exec(ix->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
        if (!err || !err->code)
            kifu__index_sqlite_error(ix->db, ix->path, "cannot write the index", err);
        sqlite3_exec(ix->db, "ROLLBACK", NULL, NULL, NULL);
        return -1;
    }
    return 0;
}

static int sqlite_info(kifu_index *ix, kifu_index_info *out, kifu_error *err)
{
    memset(out, 0, sizeof *out);
    /* The games whose moves are not as long as their plies say, in the same pass as the
     * positions (a blob's length is in its row's header: no move is read). Checking
     * every checksum is kifu index check's. */
    static const char *const sql[6] = {
        "SELECT count(*) FROM games",
        "SELECT coalesce(sum(plies+1),0) FROM games",
        "SELECT count(*) FROM sources",
        "SELECT count(*) FROM hot",
        "SELECT coalesce(sum(duplicates),0) FROM sources",
        "SELECT count(*), min(id) FROM games WHERE length(moves) != 2 * plies"};
    long long cut = 0, first = 0;
    long long *v[6] = {&out->games,         &out->positions,  &out->sources,
                       &out->hot_positions, &out->duplicates, &cut};
    for (int i = 0; i < 6; i++) {
        sqlite3_stmt *st;
        if (sqlite3_prepare_v2(ix->db, sql[i], -1, &st, NULL) != SQLITE_OK)
            return kifu__index_sqlite_error(ix->db, ix->path, "cannot read the index",
                                            err);
        if (sqlite3_step(st) == SQLITE_ROW) {
            *v[i] = sqlite3_column_int64(st, 0);
            first = sqlite3_column_int64(st, 1);
        }
        sqlite3_finalize(st);
    }
    if (cut) {
        char what[96];
        snprintf(what, sizeof what, "the moves of %lld game%s (the first: game %lld)",
                 cut, cut > 1 ? "s" : "", first);
        return kifu__index_damaged(err, ix->path, what, "do not match their plies");
    }
    struct stat st;
    if (stat(ix->path, &st) == 0)
        out->bytes = (long long)st.st_size;
    return 0;
}

static const kifu__index_ops sqlite_ops = {
    .digest = kifu__index_digest_fast,
    .lookup = sqlite_lookup,
    .replaced = sqlite_replaced,
    .write = kifu__sqlite_write,
    .rows = kifu__sqlite_rows,
    .flush = kifu__sqlite_flush,
    .compact = sqlite_compact,
    .close = sqlite_close,
    .info = sqlite_info,
    .explore_begin = kifu__sqlite_explore_begin,
    .explore_count = kifu__sqlite_explore_count,
    .explore_game = kifu__sqlite_explore_game,
    .explore_end = kifu__sqlite_explore_end,
    .search = kifu__sqlite_search,
    .search_where = kifu__sqlite_search_where,
    .each_source = kifu__sqlite_each_source,
    .find = kifu__sqlite_find,
    .export_book = kifu__sqlite_export_book,
    .idents = kifu__sqlite_idents,
    .players = kifu__sqlite_players,
    .player = kifu__sqlite_player,
    .check = kifu__sqlite_check,
    .games = kifu__sqlite_games,
    .game_tags = kifu__sqlite_game_tags,
    .deadline = kifu__sqlite_deadline,
    .data_version = kifu__sqlite_data_version,
};
