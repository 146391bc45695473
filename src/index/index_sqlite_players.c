/* index_sqlite_players.c: the players and the games' identities of an SQLite index, read
 * for the players' list (index_players.c) and for telling duplicates (index_dups.c). */
#include "index/index_sqlite.h"
#include "kifu_private.h"

int kifu__sqlite_idents(kifu_index *ix, kifu__ident_fn fn, void *ctx, kifu_error *err)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(ix->db, "SELECT ident, id FROM games", -1, &st, NULL) !=
        SQLITE_OK)
        return kifu__index_sqlite_error(ix->db, ix->path, "cannot read the index", err);
    int rc, stop = 0;
    while (!stop && (rc = sqlite3_step(st)) == SQLITE_ROW)
        stop = fn(ctx, (uint64_t)sqlite3_column_int64(st, 0),
                  (uint32_t)sqlite3_column_int64(st, 1));
    int bad = !stop && rc != SQLITE_DONE;
    sqlite3_finalize(st);
    if (stop)
        return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
    return bad ? kifu__index_sqlite_error(ix->db, ix->path, "cannot read the index", err)
               : 0;
}

int kifu__sqlite_players(kifu_index *ix, const char *like, kifu__player_row_fn fn,
                         void *ctx, kifu_error *err)
{
    static const char *const sql[2] = {
        "SELECT sente_key, sente, sente_rating, result, date FROM games WHERE sente_key "
        "IS NOT NULL AND (?1 IS NULL OR instr(sente_key, ?1))",
        "SELECT gote_key, gote, gote_rating, result, date FROM games WHERE gote_key IS "
        "NOT NULL AND (?1 IS NULL OR instr(gote_key, ?1))"};
    for (int side = 0; side < 2; side++) {
        sqlite3_stmt *st;
        if (sqlite3_prepare_v2(ix->db, sql[side], -1, &st, NULL) != SQLITE_OK)
            return kifu__index_sqlite_error(ix->db, ix->path, "cannot read the index",
                                            err);
        if (like)
            sqlite3_bind_text(st, 1, like, -1, SQLITE_STATIC);
        int rc, stop = 0;
        while (!stop && (rc = sqlite3_step(st)) == SQLITE_ROW) {
            kifu__player_row r = {(const char *)sqlite3_column_text(st, 0),
                                  (const char *)sqlite3_column_text(st, 1),
                                  (const char *)sqlite3_column_text(st, 4),
                                  sqlite3_column_int(st, 2),
                                  side,
                                  sqlite3_column_int(st, 3)};
            stop = fn(ctx, &r);
        }
        int bad = !stop && rc != SQLITE_DONE;
        sqlite3_finalize(st);
        if (stop)
            return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
        if (bad)
            return kifu__index_sqlite_error(ix->db, ix->path, "cannot read the index",
                                            err);
    }
    return 0;
}
