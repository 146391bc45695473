/* index_book.c: opening books for engines and GUIs from the index: every game replayed up
 * to the last ply asked for, the (position, move) pairs in the ply range sorted by key and
 * counted, then written in the book's order. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "index/index_private.h"
#include "kifu_private.h"
#include "rules/engine.h"

typedef struct entry {
    uint64_t key;
    uint32_t game;
    uint16_t ply, move;
} entry;

typedef struct count {
    uint16_t move;
    long games;
} count;

typedef struct line {
    char *sfen; /* board, side and hands, without the move number */
    int ply;
    size_t first, n; /* the entries of its key */
} line;

static int by_key(const void *x, const void *y)
{
    const entry *a = x, *b = y;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    if (a->move != b->move)
        return a->move < b->move ? -1 : 1;
    return (a->game > b->game) - (a->game < b->game);
}

static int by_sfen(const void *x, const void *y)
{
    return strcmp(((const line *)x)->sfen, ((const line *)y)->sfen);
}

/* The SFEN of the engine position p, move number left out. New, or NULL. */
static char *sfen_of(const kpos *p)
{
    kifu_board b;
    kifu__pos_to_board(p, &b);
    kifu_position *q = kifu_position_new();
    char *s = NULL;
    if (q && kifu_position_set_board(q, &b, NULL) == 0)
        s = kifu_position_sfen(q, 1);
    kifu_position_free(q);
    if (s) { /* drop " 1", the move number */
        char *sp = strrchr(s, ' ');
        if (sp)
            *sp = 0;
    }
    return s;
}

int kifu_index_export_book(kifu_index *ix, int format, const kifu_book_options *o,
                           kifu_output_fn out, void *ctx, kifu_error *err)
{
    if (ix->ch)
        return kifu__error(err, KIFU_ERR_UNSUPPORTED, 0, 0, 0, NULL, NULL,
                           "book export reads an index file, not ClickHouse");
    if (format != KIFU_BOOK_YANEURAOU)
        return kifu__error(err, KIFU_ERR_UNSUPPORTED, 0, 0, 0, NULL, NULL,
                           "unknown book format %d", format);
    kifu_book_options def = {0, 40, 1};
    if (!o || (!o->min_ply && !o->max_ply && !o->min_games))
        o = &def;
    int lo = o->min_ply, hi = o->max_ply, min_games = o->min_games > 0 ? o->min_games : 1;
    entry *v = NULL;
    line *lines = NULL;
    size_t n = 0, cap = 0, nlines = 0;
    sqlite3_stmt *st = NULL;
    int rc = -1;
    if (sqlite3_prepare_v2(ix->db, "SELECT id, handicap, start, moves FROM games", -1,
                           &st, NULL) != SQLITE_OK) {
        kifu__index_sqlite_error(ix->db, ix->path, "cannot read the index", err);
        goto done;
    }
    int s;
    while ((s = sqlite3_step(st)) == SQLITE_ROW) {
        const uint16_t *moves = sqlite3_column_blob(st, 3);
        int nmoves = sqlite3_column_bytes(st, 3) / 2;
        kpos p;
        if (kifu__index_start((const char *)sqlite3_column_text(st, 1),
                              (const char *)sqlite3_column_text(st, 2), &p))
            continue;
        for (int ply = 0; ply < nmoves && ply <= hi; ply++) {
            if (ply >= lo) {
                if (kifu__reserve(&v, &cap, n + 1, sizeof *v, 4096))
                    goto nomem;
                v[n++] = (entry){p.key, (uint32_t)sqlite3_column_int64(st, 0),
                                 (uint16_t)ply, moves[ply]};
            }
            kifu__pos_do(&p, kifu__index_expand(&p, moves[ply]));
        }
    }
    if (s != SQLITE_DONE) {
        kifu__index_sqlite_error(ix->db, ix->path, "cannot read the index", err);
        goto done;
    }
    qsort(v, n, sizeof *v, by_key);
    lines = kifu__calloc(n ? n : 1, sizeof *lines);
    if (!lines)
        goto nomem;
    /* One line per position played in enough games, with the SFEN of its first game. */
    sqlite3_finalize(st);
    st = NULL;
    if (sqlite3_prepare_v2(ix->db, "SELECT handicap, start, moves FROM games WHERE id=?",
                           -1, &st, NULL) != SQLITE_OK) {
        kifu__index_sqlite_error(ix->db, ix->path, "cannot read the index", err);
        goto done;
    }
    for (size_t i = 0, j; i < n; i = j) {
        size_t games = 0;
        for (j = i; j < n && v[j].key == v[i].key; j++)
            games += j == i || v[j].game != v[j - 1].game || v[j].move != v[j - 1].move;
        if (games < (size_t)min_games)
            continue;
        sqlite3_bind_int64(st, 1, v[i].game);
        if (sqlite3_step(st) != SQLITE_ROW) {
            sqlite3_reset(st);
            continue;
        }
        const uint16_t *moves = sqlite3_column_blob(st, 2);
        kpos p;
        int ok = kifu__index_start((const char *)sqlite3_column_text(st, 0),
                                   (const char *)sqlite3_column_text(st, 1), &p) == 0;
        for (int k = 0; ok && k < v[i].ply; k++)
            kifu__pos_do(&p, kifu__index_expand(&p, moves[k]));
        sqlite3_reset(st);
        char *sfen = ok ? sfen_of(&p) : NULL;
        if (!sfen)
            goto nomem;
        lines[nlines++] = (line){sfen, v[i].ply + 1, i, j - i};
    }
    qsort(lines, nlines, sizeof *lines, by_sfen);
    if (out(ctx, "#YANEURAOU-DB2016 1.00\n", 23))
        goto write_fail;
    for (size_t k = 0; k < nlines; k++) {
        char buf[256];
        int len = snprintf(buf, sizeof buf, "sfen %s %d\n", lines[k].sfen, lines[k].ply);
        if (out(ctx, buf, (size_t)len))
            goto write_fail;
        /* Count each move's games (entries are sorted by move, then game), most first. */
        entry *e = v + lines[k].first;
        size_t m = lines[k].n;
        count mv[600];
        size_t nm = 0;
        for (size_t a = 0; a < m; a++) {
            if (nm && mv[nm - 1].move == e[a].move) {
                mv[nm - 1].games += e[a].game != e[a - 1].game;
            } else if (nm < 600) {
                mv[nm].move = e[a].move, mv[nm++].games = 1;
            }
        }
        for (size_t a = 1; a < nm; a++) /* insertion sort: few moves */
            for (size_t b = a; b > 0 && mv[b].games > mv[b - 1].games; b--) {
                count t = mv[b];
                mv[b] = mv[b - 1], mv[b - 1] = t;
            }
        kpos p;
        kifu_board bd;
        /* The moves in USI need the position: rebuild it from the SFEN line. */
        kifu_position *q = kifu_position_new();
        if (!q || kifu_position_set_sfen(q, lines[k].sfen, NULL)) {
            kifu_position_free(q);
            goto nomem;
        }
        kifu_position_board(q, &bd);
        kifu_position_free(q);
        kifu__pos_from_board(&p, &bd);
        for (size_t a = 0; a < nm; a++) {
            kifu_move km;
            char usi[8];
            kifu__move_unpack(kifu__index_expand(&p, mv[a].move), bd.color, &km);
            kifu_move_usi(&km, usi);
            len = snprintf(buf, sizeof buf, "%s none 0 0 %ld\n", usi, mv[a].games);
            if (out(ctx, buf, (size_t)len))
                goto write_fail;
        }
    }
    rc = 0;
    goto done;
write_fail:
    kifu__error(err, KIFU_ERR_IO, 0, 0, 0, NULL, NULL, "cannot write the book");
    goto done;
nomem:
    kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
done:
    sqlite3_finalize(st);
    for (size_t k = 0; k < nlines; k++)
        kifu_free(lines[k].sfen);
    kifu__free(lines);
    kifu__free(v);
    return rc;
}
