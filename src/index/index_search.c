/* index_search.c: `kifu search --index`: position search over the main lines an index
 * holds, with the hits a search of the files would give. A position search reads the
 * games whose positions carry its key; a pattern has no key and replays every stored
 * game. Either way each game is replayed from its compact moves, so every hit is checked
 * against its board (a key collision cannot report a wrong game) and knows its moves.
 * Here the SQLite index's reads (kifu__sqlite_search); the index on ClickHouse reads its
 * game rows its own way (kifu__ch_search) and replays them here too. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "index/index_private.h"
#include "index/index_sqlite.h"
#include "kifu_private.h"
#include "rules/engine.h"
#include "rules/position.h"

/* The key of board b with side to move `color`. */
static uint64_t key_of(const kifu_board *b, int color)
{
    kifu_board t = *b;
    t.color = (uint8_t)color;
    kifu_position *p = kifu_position_new();
    uint64_t k = 0;
    if (p && kifu_position_set_board(p, &t, NULL) == 0)
        k = kifu_position_hash(p);
    kifu_position_free(p);
    return k;
}

/* The words of the node after the position, as kifu_node_text has them. */
static void next_text(const kifu_move *next, const kifu_move *prev, const char *ending,
                      char *buf, size_t cap)
{
    buf[0] = 0;
    if (next) {
        kifu_move none = {0};
        kifu_move_text(next, prev ? prev : &none, KIFU_TEXT_KIF, buf, cap);
    } else if (ending) {
        snprintf(buf, cap, "%s", kifu_special_text(ending));
        for (char *c = buf; *c; c++)
            if ((unsigned char)*c < 0x20 || *c == 0x7f)
                *c = '?';
    }
}

long kifu__index_search_game(kifu_search *s, unsigned flags, const kifu__index_game *g,
                             kifu_index_hit_fn fn, void *ctx)
{
    kpos p;
    if (kifu__index_start(g->handicap, g->start, &p))
        return 0; /* a start this build cannot set up: nothing to compare */
    kifu_index_hit h;
    memset(&h, 0, sizeof h);
    h.number = g->number;
    h.source = g->source;
    h.games = g->games;
    h.header = g->header;
    h.tags = g->tags;
    kifu_move prev, next;
    long hits = 0;
    for (int ply = 0; ply <= g->nmoves; ply++) {
        kmove k = ply < g->nmoves ? kifu__index_expand(&p, g->moves[ply]) : MOVE_NONE;
        kifu__pos_to_board(&p, &h.board);
        if (kifu_search_board(s, &h.board)) {
            h.ply = ply;
            h.next = NULL;
            if (k) {
                kifu__move_unpack(k, h.board.color, &next);
                h.next = &next;
            }
            next_text(h.next, ply ? &prev : NULL, g->ending, h.next_text,
                      sizeof h.next_text);
            hits++;
            if ((fn && fn(ctx, &h)) || (flags & KIFU_SEARCH_FIRST))
                break;
        }
        if (!k)
            break;
        kifu__move_unpack(k, h.board.color, &prev);
        kifu__pos_do(&p, k);
    }
    return hits;
}

/* The games whose occurrences carry key k1 or k2, as a JSON array of ids for json_each
 * (one query then reads them in file order): new text, or NULL (SQLite error, damaged
 * block, NOMEM). */
static char *games_with(kifu_index *ix, uint64_t k1, uint64_t k2, kifu_error *err)
{
    sqlite3_stmt *block = NULL;
    kifu__ipos *v = NULL;
    size_t nv = 0, cap = 0;
    char *json = NULL;
    if (sqlite3_prepare_v2(ix->db, KIFU__BLOCK_SQL, -1, &block, NULL) == SQLITE_OK &&
        !kifu__index_entries(block, k1, &v, &nv, &cap, ix->path, err) &&
        (k2 == k1 || !kifu__index_entries(block, k2, &v, &nv, &cap, ix->path, err))) {
        kifu__strbuf b;
        kifu__sb_init(&b);
        kifu__sb_putc(&b, '[');
        for (size_t i = 0; i < nv; i++)
            if (!i || v[i].game != v[i - 1].game) /* a game's entries are together */
                kifu__sb_printf(&b, "%s%u", i ? "," : "", (unsigned)v[i].game);
        kifu__sb_putc(&b, ']');
        json = kifu__sb_take(&b, NULL);
    }
    kifu__free(v);
    sqlite3_finalize(block);
    return json;
}

int kifu__index_search_keys(kifu_search *s, unsigned *flags, uint64_t keys[2])
{
    kifu_board t;
    *flags = 0;
    int exact = kifu_search_target(s, &t, flags);
    if (*flags & KIFU_SEARCH_BOARD_ONLY)
        exact = 0; /* the key covers the hands: read every game */
    keys[0] = keys[1] = 0;
    if (!exact)
        return 0;
    keys[0] = key_of(&t, t.color);
    keys[1] = *flags & KIFU_SEARCH_ANY_SIDE ? key_of(&t, !t.color) : keys[0];
    return 2;
}

long kifu__sqlite_search(kifu_index *ix, kifu_search *s, unsigned flags, int nkeys,
                         const uint64_t *keys, kifu_index_hit_fn fn, void *ctx,
                         kifu_error *err)
{
    return kifu__sqlite_search_where(ix, s, flags, nkeys, keys, NULL, fn, ctx, err);
}

long kifu__sqlite_search_where(kifu_index *ix, kifu_search *s, unsigned flags, int nkeys,
                               const uint64_t *keys, const kifu_explore_options *o,
                               kifu_index_hit_fn fn, void *ctx, kifu_error *err)
{
    int exact = nkeys == 2;
    kifu__strbuf sql;
    kifu__sb_init(&sql);
    kifu__sb_printf(
        &sql,
        "SELECT g.number, g.handicap, g.start, g.moves, g.moves_sum, g.ending, "
        "g.header, s.path, s.games, g.id%s FROM games g JOIN sources s ON "
        "s.id=g.source WHERE 1%s",
        o ? KIFU__TAGS_COLUMN : "",
        exact ? " AND g.id IN (SELECT value FROM json_each(?1))" : "");
    if (o)
        kifu__index_tag_where(&sql, o, 2);
    kifu__sb_puts(&sql, " ORDER BY g.source, g.number");
    char *ids = NULL;
    if (sql.failed || (exact && !(ids = games_with(ix, keys[0], keys[1], err)))) {
        kifu__sb_free(&sql);
        return kifu__index_sqlite_error(ix->db, ix->path, "cannot read the index", err);
    }
    sqlite3_stmt *st;
    int prepared = sqlite3_prepare_v2(ix->db, sql.data, -1, &st, NULL) == SQLITE_OK;
    kifu__sb_free(&sql);
    if (!prepared) {
        kifu__free(ids);
        return kifu__index_sqlite_error(ix->db, ix->path, "cannot read the index", err);
    }
    if (ids)
        sqlite3_bind_text(st, 1, ids, -1, SQLITE_STATIC);
    if (o)
        kifu__index_tag_bind(st, o, 2);
    long hits = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        kifu__index_game g = {
            .number = sqlite3_column_int(st, 0),
            .handicap = (const char *)sqlite3_column_text(st, 1),
            .start = (const char *)sqlite3_column_text(st, 2),
            .ending = (const char *)sqlite3_column_text(st, 5),
            .header = (const char *)sqlite3_column_text(st, 6),
            .source = (const char *)sqlite3_column_text(st, 7),
            .games = sqlite3_column_int(st, 8),
            .tags = o ? (const char *)sqlite3_column_text(st, 10) : NULL,
        };
        const void *moves;
        if (kifu__index_moves(st, 3, sqlite3_column_int64(st, 9), &moves, &g.nmoves,
                              ix->path, err)) {
            hits = -1;
            break;
        }
        g.moves = moves;
        hits += kifu__index_search_game(s, flags, &g, fn, ctx);
    }
    if (hits >= 0 && rc != SQLITE_DONE)
        hits = kifu__index_sqlite_error(ix->db, ix->path, "cannot read the index", err);
    sqlite3_finalize(st);
    kifu__free(ids);
    return hits;
}

int kifu__sqlite_each_source(kifu_index *ix,
                             int (*fn)(void *ctx, const char *path, int games), void *ctx,
                             kifu_error *err)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(ix->db, "SELECT path, games FROM sources ORDER BY id", -1, &st,
                           NULL) != SQLITE_OK)
        return kifu__index_sqlite_error(ix->db, ix->path, "cannot read the index", err);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW)
        if (fn(ctx, (const char *)sqlite3_column_text(st, 0), sqlite3_column_int(st, 1)))
            break;
    int bad = rc != SQLITE_ROW && rc != SQLITE_DONE;
    sqlite3_finalize(st);
    return bad ? kifu__index_sqlite_error(ix->db, ix->path, "cannot read the index", err)
               : 0;
}
