/* index_find.c: exact search in the SQLite index: the stored positions of one key, by game and
 * ply, with the file and game number each came from. */
#include "index/index_private.h"
#include "index/index_sqlite.h"
#include "kifu_private.h"

long kifu__sqlite_find(kifu_index *ix, uint64_t key, kifu_index_row_fn fn, void *ctx,
                       kifu_error *err)
{
    /* The key's occurrences from its bucket's block, in (game, ply) order; each game's
     * file and number from its row. */
    sqlite3_stmt *block = NULL, *game = NULL;
    kifu__ipos *v = NULL;
    size_t nv = 0, cap = 0;
    long hits = -1;
    if (sqlite3_prepare_v2(ix->db, KIFU__BLOCK_SQL, -1, &block, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(ix->db,
                           "SELECT s.path, g.number FROM games g JOIN sources s"
                           " ON s.id=g.source WHERE g.id=?",
                           -1, &game, NULL) != SQLITE_OK ||
        kifu__index_entries(block, key, &v, &nv, &cap, ix->path, err))
        goto out;
    hits = 0;
    for (size_t i = 0; i < nv; i++) {
        sqlite3_bind_int64(game, 1, v[i].game);
        int s = sqlite3_step(game);
        if (s != SQLITE_ROW) {
            sqlite3_reset(game);
            if (s == SQLITE_DONE)
                continue; /* a game row missing: a damaged index, nothing to report */
            hits = -1;
            break;
        }
        kifu_index_row h = {v[i].game, v[i].ply,
                            (const char *)sqlite3_column_text(game, 0),
                            sqlite3_column_int(game, 1)};
        hits++;
        int stop = fn && fn(ctx, &h);
        sqlite3_reset(game);
        if (stop)
            break;
    }
out:
    if (hits < 0)
        kifu__index_sqlite_error(ix->db, ix->path, "cannot read the index", err);
    kifu__free(v);
    sqlite3_finalize(block);
    sqlite3_finalize(game);
    return hits;
}
