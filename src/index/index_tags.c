/* index_tags.c: the games' tags in the SQLite index. Each game's tags (the 戦法, 囲い and
 * 備考 the tagger recognised as it was added, index_build.c) are rows of game_tags (game,
 * side, tag), the names once each in tag_names; the explorer's and the search's --tag
 * filters find their games through game_tags' index by tag. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "index/index_private.h"
#include "kifu_private.h"
#include "tags/tags.h"

/* The tag_names id of the tagger's name k, made when the index has no such name yet.
 * ids caches them for one write. >0, or -1 on an SQLite error. */
static sqlite3_int64 name_id(kifu_index *ix, sqlite3_stmt *add, sqlite3_stmt *get,
                             sqlite3_int64 *ids, unsigned k)
{
    if (ids[k])
        return ids[k];
    const kifu_tagger *t = ix->tagger;
    sqlite3_bind_text(add, 1, t->names[k], -1, SQLITE_STATIC);
    sqlite3_bind_int(add, 2, t->family[k]);
    sqlite3_bind_text(get, 1, t->names[k], -1, SQLITE_STATIC);
    if (kifu__index_step(add) || sqlite3_step(get) != SQLITE_ROW) {
        sqlite3_reset(get);
        return -1;
    }
    ids[k] = sqlite3_column_int64(get, 0);
    sqlite3_reset(get);
    return ids[k];
}

/* Rows of game_tags written by one statement: SQLite then runs one program for them
 * (an insert a row costs about twice as much), its cursor staying on the table's last
 * page while the rows come in key order. */
#define ROWS 64

/* A game_tags row. */
typedef struct tagrow {
    sqlite3_int64 game, tag;
    int side;
} tagrow;

static int by_row(const void *x, const void *y)
{
    const tagrow *a = x, *b = y;
    if (a->game != b->game)
        return a->game < b->game ? -1 : 1;
    if (a->side != b->side)
        return a->side < b->side ? -1 : 1;
    return (a->tag > b->tag) - (a->tag < b->tag);
}

/* The statement inserting n rows. */
static sqlite3_stmt *insert_rows(sqlite3 *db, int n)
{
    char sql[64 + ROWS * 8];
    int len = snprintf(sql, sizeof sql, "INSERT OR IGNORE INTO game_tags VALUES");
    for (int i = 0; i < n; i++)
        len += snprintf(sql + len, sizeof sql - (size_t)len, "%s(?,?,?)", i ? "," : "");
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
        sqlite3_finalize(st);
        return NULL;
    }
    return st;
}

/* rows[0..n) in key order: each game's sorted in place (a few rows: insertion sort),
 * the whole sorted only when the games were not in order. */
static void sort_rows(tagrow *rows, size_t n)
{
    int ordered = 1;
    for (size_t i = 1; i < n; i++) {
        tagrow r = rows[i];
        size_t j = i;
        for (; j > 0 && rows[j - 1].game == r.game && by_row(&rows[j - 1], &r) > 0; j--)
            rows[j] = rows[j - 1];
        rows[j] = r;
        ordered &= j == 0 || rows[j - 1].game <= r.game;
    }
    if (!ordered)
        qsort(rows, n, sizeof *rows, by_row);
}

/* rows[0..n) in key order, ROWS a statement. 0, or -1 on an SQLite error. */
static int insert_all(sqlite3 *db, tagrow *rows, size_t n)
{
    sort_rows(rows, n);
    sqlite3_stmt *many = n >= ROWS ? insert_rows(db, ROWS) : NULL,
                 *one = insert_rows(db, 1);
    int rc = !one || (n >= ROWS && !many) ? -1 : 0;
    for (size_t i = 0; i < n && !rc;) {
        sqlite3_stmt *st = n - i >= ROWS ? many : one;
        int k = st == many ? ROWS : 1;
        for (int r = 0; r < k; r++, i++) {
            sqlite3_bind_int64(st, 3 * r + 1, rows[i].game);
            sqlite3_bind_int(st, 3 * r + 2, rows[i].side);
            sqlite3_bind_int64(st, 3 * r + 3, rows[i].tag);
        }
        rc = kifu__index_step(st);
    }
    sqlite3_finalize(many), sqlite3_finalize(one);
    return rc;
}

int kifu__index_tags_write(kifu_index *ix, size_t from)
{
    if (!ix->ngtags || !ix->tagger || from >= ix->ngames)
        return 0;
    sqlite3_stmt *add = NULL, *get = NULL;
    /* Ids looked up again each write: a rolled back one may have made some. */
    sqlite3_int64 *ids = kifu__calloc(ix->tagger->nnames + 1, sizeof *ids);
    tagrow *rows = kifu__calloc(ix->ngtags + 1, sizeof *rows);
    size_t n = 0;
    int rc = -1;
    if (!ids || !rows ||
        sqlite3_prepare_v2(ix->db,
                           "INSERT OR IGNORE INTO tag_names(name, family) VALUES(?,?)",
                           -1, &add, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(ix->db, "SELECT id FROM tag_names WHERE name=?", -1, &get,
                           NULL) != SQLITE_OK)
        goto out;
    for (size_t i = from; i < ix->ngames; i++) {
        const kifu__igame *g = &ix->games[i];
        for (uint32_t j = 0; j < g->ntags; j++) {
            const kifu__igtag *tg = &ix->gtags[g->tag0 + j];
            sqlite3_int64 id = name_id(ix, add, get, ids, tg->name);
            if (id < 0)
                goto out;
            rows[n++] = (tagrow){g->id, id, tg->side};
        }
    }
    rc = insert_all(ix->db, rows, n);
out:
    kifu__free(ids);
    kifu__free(rows);
    sqlite3_finalize(add), sqlite3_finalize(get);
    return rc;
}

int kifu__index_tags_drop(kifu_index *ix, uint32_t source)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(ix->db,
                           "DELETE FROM game_tags WHERE game IN (SELECT id FROM games "
                           "WHERE source=?)",
                           -1, &st, NULL) != SQLITE_OK)
        return -1;
    sqlite3_bind_int64(st, 1, source);
    int rc = kifu__index_step(st);
    sqlite3_finalize(st);
    return rc;
}

/* The stored sides a filter's side takes: either (-1), or one side and the game's. */
static const char *sides_sql(int side)
{
    return side < 0             ? ""
           : side == KIFU_BLACK ? " AND t.side IN (0,2)"
                                : " AND t.side IN (1,2)";
}

void kifu__index_tag_where(kifu__strbuf *b, const kifu_explore_options *o, int first)
{
    for (size_t i = 0; i < o->ntags; i++) {
        int side;
        kifu_tag_spec(o->tags[i], &side);
        kifu__sb_printf(b,
                        " AND g.id IN (SELECT t.game FROM game_tags t WHERE t.tag = "
                        "(SELECT id FROM tag_names WHERE name = ?%d)%s)",
                        first + (int)i, sides_sql(side));
    }
}

void kifu__index_tag_bind(sqlite3_stmt *st, const kifu_explore_options *o, int first)
{
    for (size_t i = 0; i < o->ntags; i++) {
        int side;
        const char *name = kifu_tag_spec(o->tags[i], &side);
        sqlite3_bind_text(st, first + (int)i, name, -1, SQLITE_STATIC);
    }
}

int kifu__index_tag_bits(sqlite3 *db, const kifu_explore_options *o, int flipped,
                         uint8_t **bits, size_t *nbits)
{
    /* A bit per game id: the filter is tested once per occurrence, a few million for a
     * much played position, and a million games take 125 KB. */
    sqlite3_stmt *st = NULL;
    size_t n = 1;
    if (sqlite3_prepare_v2(db, "SELECT coalesce(max(id), 0) FROM games", -1, &st, NULL) !=
        SQLITE_OK)
        return -1;
    if (sqlite3_step(st) == SQLITE_ROW)
        n += (size_t)sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    st = NULL;
    size_t bytes = (n + 7) / 8;
    uint8_t *all = kifu__malloc(bytes), *one = kifu__malloc(bytes);
    int rc = -1;
    if (!all || !one)
        goto out;
    memset(all, 0xff, bytes);
    for (size_t i = 0; i < o->ntags; i++) {
        int side;
        const char *name = kifu_tag_spec(o->tags[i], &side);
        if (flipped && side >= 0)
            side = !side; /* the flipped position's sente was the stored gote */
        char sql[256];
        snprintf(sql, sizeof sql,
                 "SELECT t.game FROM game_tags t WHERE t.tag = (SELECT id FROM tag_names "
                 "WHERE name = ?1)%s",
                 sides_sql(side));
        if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
            goto out;
        sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
        memset(one, 0, bytes);
        int s;
        while ((s = sqlite3_step(st)) == SQLITE_ROW) {
            sqlite3_int64 g = sqlite3_column_int64(st, 0);
            if (g >= 0 && (size_t)g < n)
                one[g >> 3] |= (uint8_t)(1u << (g & 7));
        }
        sqlite3_finalize(st);
        st = NULL;
        if (s != SQLITE_DONE)
            goto out;
        for (size_t k = 0; k < bytes; k++)
            all[k] &= one[k];
    }
    *bits = all, *nbits = n;
    all = NULL;
    rc = 0;
out:
    sqlite3_finalize(st);
    kifu__free(all), kifu__free(one);
    return rc;
}
