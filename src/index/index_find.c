/* index_find.c: exact search in an index: the stored positions of one key, by game and
 * ply, with the file and game number each came from. */
#include "index/clickhouse.h"
#include "index/index_private.h"
#include "kifu_private.h"

long kifu_index_find(kifu_index *ix, const kifu_position *p, kifu_index_row_fn fn,
                     void *ctx, kifu_error *err)
{
    uint64_t key = kifu_position_hash(p);
    if (ix->ch)
        return kifu__ch_find(ix, key, fn, ctx, err);
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(ix->db,
                           "SELECT p.game, p.ply, s.path, g.number FROM positions p"
                           " JOIN games g ON g.id=p.game JOIN sources s ON s.id=g.source"
                           " WHERE p.key=? ORDER BY p.game, p.ply",
                           -1, &st, NULL) != SQLITE_OK)
        return kifu__index_sqlite_error(ix->db, ix->path, "cannot read the index", err);
    sqlite3_bind_int64(st, 1, (sqlite3_int64)key);
    long hits = 0;
    int s;
    while ((s = sqlite3_step(st)) == SQLITE_ROW) {
        kifu_index_row h = {sqlite3_column_int64(st, 0), sqlite3_column_int(st, 1),
                            (const char *)sqlite3_column_text(st, 2),
                            sqlite3_column_int(st, 3)};
        hits++;
        if (fn && fn(ctx, &h)) {
            s = SQLITE_DONE;
            break;
        }
    }
    if (s != SQLITE_DONE) {
        kifu__index_sqlite_error(ix->db, ix->path, "cannot read the index", err);
        hits = -1;
    }
    sqlite3_finalize(st);
    return hits;
}
