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

/* One game's tags of side (and the game's) by a lookup (statement: the game ?1), for
 * one player's games: NULL when none, or on a failure (c->rc). */
static const char *tags_by_game(tag_cursor *c, sqlite3_int64 game, int side)
{
    c->list.len = 0;
    sqlite3_bind_int64(c->st, 1, game);
    while ((c->rc = sqlite3_step(c->st)) == SQLITE_ROW) {
        int s = sqlite3_column_int(c->st, 0);
        if (s != side && s != 2)
            continue;
        if (c->list.len)
            kifu__sb_putc(&c->list, '\n');
        kifu__sb_puts(&c->list, (const char *)sqlite3_column_text(c->st, 1));
    }
    sqlite3_reset(c->st);
    return c->list.len && !c->list.failed ? c->list.data : NULL;
}

/* One side's rows (the games' by id, their tags beside them): of the players whose key
 * contains like (NULL: every player), or of the one whose key is exactly key (its games
 * found by the key's index, their tags looked up a game each: a player's few thousand
 * games, not a pass over every game and tag). 0, 1 stopped by fn, or -1 on an SQLite
 * error. */
static int side_rows(kifu_index *ix, int side, const char *like, const char *key,
                     kifu__player_row_fn fn, void *ctx)
{
    static const char *const sql[2][2] = {
        {"SELECT id, sente_key, sente, sente_rating, result, date FROM games WHERE "
         "sente_key IS NOT NULL AND (?1 IS NULL OR instr(sente_key, ?1)) ORDER BY id",
         "SELECT id, gote_key, gote, gote_rating, result, date FROM games WHERE gote_key "
         "IS NOT NULL AND (?1 IS NULL OR instr(gote_key, ?1)) ORDER BY id"},
        /* The key given back as bound: the row's own is after its moves and header,
         * which a read of it would go through (pages of them). */
        {"SELECT id, ?1, sente, sente_rating, result, date FROM games WHERE sente_key = "
         "?1 ORDER BY id",
         "SELECT id, ?1, gote, gote_rating, result, date FROM games WHERE gote_key = ?1 "
         "ORDER BY id"}};
    /* CROSS JOIN: game_tags outside, in its key's (game) order. */
    static const char *const tags_sql[2] = {
        "SELECT t.game, t.side || n.family || n.name FROM game_tags t CROSS JOIN "
        "tag_names n ON n.id = t.tag WHERE t.side IN (?1, 2) ORDER BY t.game",
        /* The sides told apart here (tags_by_game), not by IN (?, 2): SQLite makes a
         * table of the list each time the statement runs (most of a lookup's time). */
        "SELECT t.side, t.side || n.family || n.name FROM game_tags t CROSS JOIN "
        "tag_names n ON n.id = t.tag WHERE t.game = ?1"};
    sqlite3_stmt *st = NULL;
    tag_cursor c = {0};
    kifu__sb_init(&c.list);
    int rc = -1, stop = 0, one = key != NULL;
    if (sqlite3_prepare_v2(ix->db, sql[one][side], -1, &st, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(ix->db, tags_sql[one], -1, &c.st, NULL) != SQLITE_OK)
        goto out;
    if (one || like)
        sqlite3_bind_text(st, 1, one ? key : like, -1, SQLITE_STATIC);
    if (!one)
        sqlite3_bind_int(c.st, 1, side);
    c.rc = one ? SQLITE_DONE : sqlite3_step(c.st);
    while (!stop && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        sqlite3_int64 game = sqlite3_column_int64(st, 0);
        const char *tags = one ? tags_by_game(&c, game, side) : tags_of(&c, game);
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

/* Both sides' rows of like's players or of key's (side_rows). 0, or -1 with err. */
static int both_sides(kifu_index *ix, const char *like, const char *key,
                      kifu__player_row_fn fn, void *ctx, kifu_error *err)
{
    /* One read transaction for all the statements: each game's lookup would begin
     * and end one of its own (most of its time). */
    int rc = sqlite3_exec(ix->db, "SAVEPOINT kifu_players", NULL, NULL, NULL) ? -1 : 0;
    for (int side = 0; side < 2 && !rc; side++)
        rc = side_rows(ix, side, like, key, fn, ctx);
    if (rc < 0)
        kifu__index_sqlite_error(ix->db, ix->path, "cannot read the index", err);
    sqlite3_exec(ix->db, "RELEASE kifu_players", NULL, NULL, NULL);
    if (rc > 0)
        return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
    return rc;
}

int kifu__sqlite_players(kifu_index *ix, const char *like, kifu__player_row_fn fn,
                         void *ctx, kifu_error *err)
{
    return both_sides(ix, like, NULL, fn, ctx, err);
}

int kifu__sqlite_player(kifu_index *ix, const char *key, kifu__player_row_fn fn,
                        void *ctx, kifu_error *err)
{
    return both_sides(ix, NULL, key, fn, ctx, err);
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
