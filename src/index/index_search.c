/* index_search.c: `kifu search --index`: position search over the main lines an index
 * holds, with the hits a search of the files would give. A position search reads the
 * games whose positions carry its key; a pattern has no key and replays every stored
 * game. Either way each game is replayed from its compact moves, so every hit is checked
 * against its board (a key collision cannot report a wrong game) and knows its moves. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "index/index_private.h"
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

/* Replay one game row and report its matching positions. The hits, or -1 (NOMEM). */
static long search_game(kifu_search *s, unsigned flags, sqlite3_stmt *g,
                        kifu_index_hit_fn fn, void *ctx)
{
    kpos p;
    if (kifu__index_start((const char *)sqlite3_column_text(g, 1),
                          (const char *)sqlite3_column_text(g, 2), &p))
        return 0; /* a start this build cannot set up: nothing to compare */
    const uint16_t *moves = sqlite3_column_blob(g, 3);
    int nmoves = sqlite3_column_bytes(g, 3) / 2;
    kifu_index_hit h;
    memset(&h, 0, sizeof h);
    h.number = sqlite3_column_int(g, 0);
    h.source = (const char *)sqlite3_column_text(g, 6);
    h.games = sqlite3_column_int(g, 7);
    h.header = (const char *)sqlite3_column_text(g, 5);
    const char *ending = (const char *)sqlite3_column_text(g, 4);
    kifu_move prev, next;
    long hits = 0;
    for (int ply = 0; ply <= nmoves; ply++) {
        kmove k = ply < nmoves ? kifu__index_expand(&p, moves[ply]) : MOVE_NONE;
        kifu__pos_to_board(&p, &h.board);
        if (kifu_search_board(s, &h.board)) {
            h.ply = ply;
            h.next = NULL;
            if (k) {
                kifu__move_unpack(k, h.board.color, &next);
                h.next = &next;
            }
            next_text(h.next, ply ? &prev : NULL, ending, h.next_text,
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

/* Game ids in (source, number) order, the order a search of the files reports in. */
typedef struct gref {
    long long source, number, id;
} gref;

static int by_file(const void *x, const void *y)
{
    const gref *a = x, *b = y;
    if (a->source != b->source)
        return a->source < b->source ? -1 : 1;
    return (a->number > b->number) - (a->number < b->number);
}

/* The games whose occurrences carry key k1 or k2, in file order: a new vector, n set; -1
 * with n untouched on an SQLite error, a damaged block or NOMEM. */
static int games_with(kifu_index *ix, uint64_t k1, uint64_t k2, gref **out, size_t *n)
{
    sqlite3_stmt *block = NULL, *ord = NULL;
    kifu__ipos *v = NULL;
    size_t nv = 0, cap = 0, ng = 0;
    gref *g = NULL;
    int rc = -1;
    if (sqlite3_prepare_v2(ix->db, "SELECT block FROM positions WHERE bucket=?", -1,
                           &block, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(ix->db, "SELECT source, number FROM games WHERE id=?", -1,
                           &ord, NULL) != SQLITE_OK ||
        kifu__index_entries(block, k1, &v, &nv, &cap) ||
        (k2 != k1 && kifu__index_entries(block, k2, &v, &nv, &cap)))
        goto done;
    g = kifu__malloc((nv ? nv : 1) * sizeof *g);
    if (!g)
        goto done;
    for (size_t i = 0; i < nv; i++) {
        int dup = 0;
        for (size_t k = i; k-- > 0 && !dup;) /* a game's entries are next to each other */
            if (v[k].game == v[i].game)
                dup = 1;
            else
                break;
        if (dup)
            continue;
        sqlite3_bind_int64(ord, 1, v[i].game);
        if (sqlite3_step(ord) == SQLITE_ROW)
            g[ng++] = (gref){sqlite3_column_int64(ord, 0), sqlite3_column_int64(ord, 1),
                             v[i].game};
        sqlite3_reset(ord);
    }
    if (ng)
        qsort(g, ng, sizeof *g, by_file);
    /* The two keys' lists may share games: keep one of each. */
    size_t m = 0;
    for (size_t i = 0; i < ng; i++)
        if (!m || g[m - 1].id != g[i].id)
            g[m++] = g[i];
    *out = g, *n = m;
    g = NULL;
    rc = 0;
done:
    kifu__free(g), kifu__free(v);
    sqlite3_finalize(block), sqlite3_finalize(ord);
    return rc;
}

long kifu_index_search(kifu_index *ix, kifu_search *s, kifu_index_hit_fn fn, void *ctx,
                       kifu_error *err)
{
    kifu_board t;
    unsigned flags = 0;
    int exact = kifu_search_target(s, &t, &flags);
    if (flags & KIFU_SEARCH_BOARD_ONLY)
        exact = 0; /* the key covers the hands: read every game */
    static const char *const cols =
        "SELECT g.number, g.handicap, g.start, g.moves, g.ending, g.header, s.path,"
        " s.games FROM games g JOIN sources s ON s.id=g.source";
    char sql[512];
    snprintf(sql, sizeof sql, "%s%s", cols,
             exact ? " WHERE g.id=?" : " ORDER BY g.source, g.number");
    gref *ids = NULL;
    size_t nids = 0;
    if (exact) {
        uint64_t k = key_of(&t, t.color);
        uint64_t k2 = flags & KIFU_SEARCH_ANY_SIDE ? key_of(&t, !t.color) : k;
        if (games_with(ix, k, k2, &ids, &nids))
            return kifu__index_sqlite_error(ix->db, ix->path, "cannot read the index",
                                            err);
    }
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(ix->db, sql, -1, &st, NULL) != SQLITE_OK) {
        kifu__free(ids);
        return kifu__index_sqlite_error(ix->db, ix->path, "cannot read the index", err);
    }
    long hits = 0;
    int rc = SQLITE_DONE;
    for (size_t i = 0; exact ? i < nids : rc == SQLITE_DONE || rc == SQLITE_ROW; i++) {
        if (exact) {
            sqlite3_reset(st);
            sqlite3_bind_int64(st, 1, ids[i].id);
        }
        rc = sqlite3_step(st);
        if (rc == SQLITE_ROW)
            hits += search_game(s, flags, st, fn, ctx);
        else if (!exact || rc != SQLITE_DONE)
            break;
        rc = SQLITE_DONE;
    }
    if (rc != SQLITE_DONE)
        hits = kifu__index_sqlite_error(ix->db, ix->path, "cannot read the index", err);
    sqlite3_finalize(st);
    kifu__free(ids);
    return hits;
}

int kifu_index_each_source(kifu_index *ix,
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
