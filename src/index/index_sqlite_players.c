/* index_sqlite_players.c: the players, the games and the games' identities of an SQLite
 * index, read for the players' list (index_players.c), the games' list (index_games.c)
 * and for telling duplicates (index_dups.c); and the deadline that bounds its queries. */
#define _POSIX_C_SOURCE 200809L
#include <time.h>

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

/* The games' tags of one side (and the games'), in game order, read beside the games:
 * one pass over game_tags in its key's order, not a lookup a game. */
typedef struct tag_cursor {
    sqlite3_stmt *st;
    int rc; /* its last step */
    kifu__strbuf list;
} tag_cursor;

/* The tag list of game (the cursor's games after it are not read yet): NULL when none,
 * or when the cursor failed (c->rc). */
static const char *tags_of(tag_cursor *c, sqlite3_int64 game)
{
    c->list.len = 0;
    while (c->rc == SQLITE_ROW && sqlite3_column_int64(c->st, 0) < game)
        c->rc = sqlite3_step(c->st);
    for (; c->rc == SQLITE_ROW && sqlite3_column_int64(c->st, 0) == game;
         c->rc = sqlite3_step(c->st)) {
        if (c->list.len)
            kifu__sb_putc(&c->list, '\n');
        kifu__sb_puts(&c->list, (const char *)sqlite3_column_text(c->st, 1));
    }
    return c->list.len && !c->list.failed ? c->list.data : NULL;
}

/* One side's rows (the games' by id, their tags beside them). 0, 1 stopped by fn, or
 * -1 on an SQLite error. */
static int side_rows(kifu_index *ix, int side, const char *like, kifu__player_row_fn fn,
                     void *ctx)
{
    static const char *const sql[2] = {
        "SELECT id, sente_key, sente, sente_rating, result, date FROM games WHERE "
        "sente_key IS NOT NULL AND (?1 IS NULL OR instr(sente_key, ?1)) ORDER BY id",
        "SELECT id, gote_key, gote, gote_rating, result, date FROM games WHERE gote_key "
        "IS "
        "NOT NULL AND (?1 IS NULL OR instr(gote_key, ?1)) ORDER BY id"};
    /* CROSS JOIN: game_tags outside, in its key's (game) order. */
    static const char *const tags_sql =
        "SELECT t.game, t.side || n.family || n.name FROM game_tags t CROSS JOIN "
        "tag_names n ON n.id = t.tag WHERE t.side IN (?1, 2) ORDER BY t.game";
    sqlite3_stmt *st = NULL;
    tag_cursor c = {0};
    kifu__sb_init(&c.list);
    int rc = -1, stop = 0;
    if (sqlite3_prepare_v2(ix->db, sql[side], -1, &st, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(ix->db, tags_sql, -1, &c.st, NULL) != SQLITE_OK)
        goto out;
    if (like)
        sqlite3_bind_text(st, 1, like, -1, SQLITE_STATIC);
    sqlite3_bind_int(c.st, 1, side);
    c.rc = sqlite3_step(c.st);
    while (!stop && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *tags = tags_of(&c, sqlite3_column_int64(st, 0));
        if (c.rc != SQLITE_ROW && c.rc != SQLITE_DONE)
            break;
        if (c.list.failed) {
            stop = 1;
            break;
        }
        kifu__player_row r = {(const char *)sqlite3_column_text(st, 1),
                              (const char *)sqlite3_column_text(st, 2),
                              (const char *)sqlite3_column_text(st, 5),
                              sqlite3_column_int(st, 3),
                              side,
                              sqlite3_column_int(st, 4),
                              tags};
        stop = fn(ctx, &r);
    }
    rc = stop ? 1 : rc == SQLITE_DONE ? 0 : -1;
out:
    sqlite3_finalize(st), sqlite3_finalize(c.st);
    kifu__sb_free(&c.list);
    return rc;
}

int kifu__sqlite_players(kifu_index *ix, const char *like, kifu__player_row_fn fn,
                         void *ctx, kifu_error *err)
{
    for (int side = 0; side < 2; side++) {
        int rc = side_rows(ix, side, like, fn, ctx);
        if (rc > 0)
            return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
        if (rc < 0)
            return kifu__index_sqlite_error(ix->db, ix->path, "cannot read the index",
                                            err);
    }
    return 0;
}

int kifu__sqlite_games(kifu_index *ix, const kifu_explore_options *o,
                       kifu__game_list_fn fn, void *ctx, kifu_error *err)
{
    kifu__strbuf sql;
    kifu__sb_init(&sql);
    kifu__sb_printf(&sql,
                    "SELECT g.id, s.path, g.number, g.sente, g.gote, g.date, g.event, "
                    "g.result, g.plies, g.sente_rating, g.gote_rating, g.sente_key, "
                    "g.gote_key FROM games g JOIN sources s ON s.id = g.source WHERE 1");
    if (o)
        kifu__index_tag_where(&sql, o, 1);
    sqlite3_stmt *st;
    int prepared =
        !sql.failed && sqlite3_prepare_v2(ix->db, sql.data, -1, &st, NULL) == SQLITE_OK;
    kifu__sb_free(&sql);
    if (!prepared)
        return kifu__index_sqlite_error(ix->db, ix->path, "cannot read the index", err);
    if (o)
        kifu__index_tag_bind(st, o, 1);
    int rc, stop = 0;
    while (!stop && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        kifu_index_game g = {sqlite3_column_int64(st, 0),
                             (const char *)sqlite3_column_text(st, 1),
                             sqlite3_column_int(st, 2),
                             (const char *)sqlite3_column_text(st, 3),
                             (const char *)sqlite3_column_text(st, 4),
                             (const char *)sqlite3_column_text(st, 5),
                             (const char *)sqlite3_column_text(st, 6),
                             sqlite3_column_int(st, 7),
                             sqlite3_column_int(st, 8),
                             sqlite3_column_int(st, 9),
                             sqlite3_column_int(st, 10),
                             NULL};
        stop = fn(ctx, &g, (const char *)sqlite3_column_text(st, 11),
                  (const char *)sqlite3_column_text(st, 12));
    }
    int bad = !stop && rc != SQLITE_DONE;
    sqlite3_finalize(st);
    return bad ? kifu__index_sqlite_error(ix->db, ix->path, "cannot read the index", err)
               : 0;
}

int kifu__sqlite_game_tags(kifu_index *ix, long long id, char **out, kifu_error *err)
{
    *out = NULL;
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(ix->db,
                           "SELECT 1" KIFU__TAGS_COLUMN " FROM games g WHERE g.id = ?",
                           -1, &st, NULL) != SQLITE_OK)
        return kifu__index_sqlite_error(ix->db, ix->path, "cannot read the index", err);
    sqlite3_bind_int64(st, 1, id);
    int rc = sqlite3_step(st), nomem = 0;
    if (rc == SQLITE_ROW && sqlite3_column_text(st, 1)) {
        const char *t = (const char *)sqlite3_column_text(st, 1);
        size_t n = strlen(t) + 1;
        if ((*out = kifu__malloc(n)))
            memcpy(*out, t, n);
        else
            nomem = 1;
    }
    int bad = rc != SQLITE_ROW && rc != SQLITE_DONE;
    sqlite3_finalize(st);
    if (nomem)
        return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
    return bad ? kifu__index_sqlite_error(ix->db, ix->path, "cannot read the index", err)
               : 0;
}

/* The deadline's clock: monotonic milliseconds. */
static long long now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* SQLite asks every few thousand instructions: nonzero interrupts the statement. */
static int past_deadline(void *ctx)
{
    const kifu_index *ix = ctx;
    return ix->deadline_at && now_ms() > ix->deadline_at;
}

void kifu__sqlite_deadline(kifu_index *ix, int ms)
{
    ix->deadline_ms = ms;
    ix->deadline_at = ms ? now_ms() + ms : 0;
    sqlite3_progress_handler(ix->db, ms ? 4000 : 0, ms ? past_deadline : NULL, ix);
}
