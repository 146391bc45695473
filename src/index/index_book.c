/* index_book.c: opening books for engines and GUIs from the SQLite index: every game replayed up
 * to the last ply asked for, the (position, move) pairs in the ply range sorted by key and
 * counted, then written in the book's order: YaneuraOu's DB2016 text book (by SFEN) or
 * Apery's binary book (16-byte entries by Apery's own position key). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "index/index_private.h"
#include "index/index_sqlite.h"
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
    char *sfen;     /* YaneuraOu: board, side and hands, without the move number */
    uint64_t apery; /* Apery: the book key */
    kifu_board board;
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

static int by_apery(const void *x, const void *y)
{
    uint64_t a = ((const line *)x)->apery, b = ((const line *)y)->apery;
    return (a > b) - (a < b);
}

/* ---- Apery's position key ----------------------------------------------------------- */

/* Apery keys a book by its own Zobrist numbers, drawn from std::mt19937_64 with the
 * default seed (5489): 31 x 81 for pieces on squares (the piece codes are kifu's, kind |
 * colour << 4), 7 x 19 for the hand counts of the side to move (in Apery's hand order
 * pawn, lance, knight, silver, gold, bishop, rook), one for gote to move. */
typedef struct apery_keys {
    uint64_t piece[31][81], hand[7][19], turn;
} apery_keys;

void kifu__index_mt64(uint64_t *out, size_t n)
{
    uint64_t mt[312];
    size_t i = 312;
    mt[0] = 5489u;
    for (int k = 1; k < 312; k++)
        mt[k] = 6364136223846793005ULL * (mt[k - 1] ^ (mt[k - 1] >> 62)) + (uint64_t)k;
    for (size_t o = 0; o < n; o++) {
        if (i >= 312) {
            for (int k = 0; k < 312; k++) {
                uint64_t x =
                    (mt[k] & 0xffffffff80000000ULL) | (mt[(k + 1) % 312] & 0x7fffffffULL);
                uint64_t xa = x >> 1;
                if (x & 1)
                    xa ^= 0xb5026f5aa96619e9ULL;
                mt[k] = mt[(k + 156) % 312] ^ xa;
            }
            i = 0;
        }
        uint64_t y = mt[i++];
        y ^= (y >> 29) & 0x5555555555555555ULL;
        y ^= (y << 17) & 0x71d67fffeda60000ULL;
        y ^= (y << 37) & 0xfff7eee000000000ULL;
        y ^= y >> 43;
        out[o] = y;
    }
}

static apery_keys z;
static pthread_once_t z_once = PTHREAD_ONCE_INIT;

static void apery_init(void)
{
    /* The struct is the numbers in the order Apery draws them. */
    kifu__index_mt64(&z.piece[0][0], sizeof z / sizeof(uint64_t));
}

uint64_t kifu__index_apery_key(const kifu_board *b)
{
    static const int hand_kind[7] = {PAWN, LANCE, KNIGHT, SILVER, GOLD, BISHOP, ROOK};
    pthread_once(&z_once, apery_init);
    uint64_t key = 0;
    for (int sq = 0; sq < 81; sq++)
        if (b->sq[sq])
            key ^= z.piece[b->sq[sq] < 31 ? b->sq[sq] : 0][sq];
    for (int h = 0; h < 7; h++) {
        int n = b->hands[b->color][hand_kind[h]];
        key ^= z.hand[h][n < 19 ? n : 18];
    }
    if (b->color == KIFU_WHITE)
        key ^= z.turn;
    return key;
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

/* Most played first (insertion sort: few moves). */
static void sort_counts(count *mv, size_t nm)
{
    for (size_t a = 1; a < nm; a++)
        for (size_t b = a; b > 0 && mv[b].games > mv[b - 1].games; b--) {
            count t = mv[b];
            mv[b] = mv[b - 1], mv[b - 1] = t;
        }
}

/* The moves of one position's entries (sorted by move, then game) with their games,
 * most played first. Returns how many (at most 600, more than any position has). */
static size_t count_moves(const entry *e, size_t m, count mv[600])
{
    size_t nm = 0;
    for (size_t a = 0; a < m; a++) {
        if (nm && mv[nm - 1].move == e[a].move) {
            mv[nm - 1].games += e[a].game != e[a - 1].game;
        } else if (nm < 600) {
            mv[nm].move = e[a].move, mv[nm++].games = 1;
        }
    }
    sort_counts(mv, nm);
    return nm;
}

/* Apery's book: per entry the key, the 15-bit move (the engine's compact move is Apery's
 * own from/to/promote layout), the count (saturating at 65535) and a score of 0, all
 * little-endian; sorted by key, the moves of a key most played first. Positions that
 * differ only in the hand of the side not to move share Apery's key (it hashes the
 * mover's hand only): their moves are counted together, as Apery's own book maker does.
 * 0, or -1. */
static int write_apery(const entry *v, const line *lines, size_t nlines,
                       kifu_output_fn out, void *ctx)
{
    for (size_t k = 0, end; k < nlines; k = end) {
        count mv[600], more[600];
        size_t nm = count_moves(v + lines[k].first, lines[k].n, mv);
        for (end = k + 1; end < nlines && lines[end].apery == lines[k].apery; end++) {
            size_t n2 = count_moves(v + lines[end].first, lines[end].n, more);
            for (size_t a = 0; a < n2; a++) {
                size_t b = 0;
                while (b < nm && mv[b].move != more[a].move)
                    b++;
                if (b < nm)
                    mv[b].games += more[a].games;
                else if (nm < 600)
                    mv[nm++] = more[a];
            }
            sort_counts(mv, nm);
        }
        for (size_t a = 0; a < nm; a++) {
            unsigned char rec[16] = {0};
            for (int b = 0; b < 8; b++)
                rec[b] = (unsigned char)(lines[k].apery >> (8 * b));
            long c = mv[a].games < 65535 ? mv[a].games : 65535;
            rec[8] = (unsigned char)(mv[a].move & 0xff);
            rec[9] = (unsigned char)(mv[a].move >> 8);
            rec[10] = (unsigned char)(c & 0xff);
            rec[11] = (unsigned char)(c >> 8);
            if (out(ctx, (const char *)rec, sizeof rec))
                return -1;
        }
    }
    return 0;
}

static int nomem(kifu_error *err)
{
    return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
}

/* Every game's (position, move) entries of plies lo..hi, into *v (n of them). 0, or -1
 * with err. */
static int book_entries(kifu_index *ix, int lo, int hi, entry **v, size_t *n,
                        kifu_error *err)
{
    size_t cap = 0;
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(ix->db,
                           "SELECT id, handicap, start, moves, moves_sum FROM games", -1,
                           &st, NULL) != SQLITE_OK)
        return kifu__index_sqlite_error(ix->db, ix->path, "cannot read the index", err);
    int s;
    while ((s = sqlite3_step(st)) == SQLITE_ROW) {
        const void *blob;
        int nmoves;
        if (kifu__index_moves(st, 3, sqlite3_column_int64(st, 0), &blob, &nmoves,
                              ix->path, err)) {
            sqlite3_finalize(st);
            return -1;
        }
        const uint16_t *moves = blob;
        kpos p;
        if (kifu__index_start((const char *)sqlite3_column_text(st, 1),
                              (const char *)sqlite3_column_text(st, 2), &p))
            continue;
        for (int ply = 0; ply < nmoves && ply <= hi; ply++) {
            kmove k = kifu__index_expand(&p, moves[ply]);
            if (!k)
                break; /* a damaged row: its line ends */
            if (ply >= lo) {
                if (kifu__reserve(v, &cap, *n + 1, sizeof **v, 4096)) {
                    sqlite3_finalize(st);
                    return nomem(err);
                }
                (*v)[(*n)++] = (entry){p.key, (uint32_t)sqlite3_column_int64(st, 0),
                                       (uint16_t)ply, moves[ply]};
            }
            kifu__pos_do(&p, k);
        }
    }
    int rc = s == SQLITE_DONE ? 0
                              : kifu__index_sqlite_error(ix->db, ix->path,
                                                         "cannot read the index", err);
    sqlite3_finalize(st);
    return rc;
}

/* One line per position played in at least min_games games (entries v sorted by key),
 * with its board as its first game reached it, into lines (room for n): *nlines of them.
 * 0, or -1 with err. */
static int book_lines(kifu_index *ix, int format, int min_games, const entry *v, size_t n,
                      line *lines, size_t *nlines, kifu_error *err)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(
            ix->db, "SELECT handicap, start, moves, moves_sum FROM games WHERE id=?", -1,
            &st, NULL) != SQLITE_OK)
        return kifu__index_sqlite_error(ix->db, ix->path, "cannot read the index", err);
    int rc = 0;
    for (size_t i = 0, j; i < n && !rc; i = j) {
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
        const void *blob;
        int nmoves;
        if (kifu__index_moves(st, 2, v[i].game, &blob, &nmoves, ix->path, err)) {
            rc = -1;
            sqlite3_reset(st);
            break;
        }
        const uint16_t *moves = blob;
        kpos p;
        int ok = kifu__index_start((const char *)sqlite3_column_text(st, 0),
                                   (const char *)sqlite3_column_text(st, 1), &p) == 0 &&
                 v[i].ply <= nmoves;
        for (int k = 0; ok && k < v[i].ply; k++) {
            kmove m = kifu__index_expand(&p, moves[k]);
            if (m)
                kifu__pos_do(&p, m);
            ok = m != MOVE_NONE;
        }
        sqlite3_reset(st);
        if (!ok)
            continue;
        line *l = &lines[*nlines];
        *l = (line){.ply = v[i].ply + 1, .first = i, .n = j - i};
        if (format == KIFU_BOOK_APERY) {
            kifu__pos_to_board(&p, &l->board);
            l->apery = kifu__index_apery_key(&l->board);
        } else if (!(l->sfen = sfen_of(&p))) {
            rc = nomem(err);
            break;
        }
        (*nlines)++;
    }
    sqlite3_finalize(st);
    return rc;
}

/* YaneuraOu's DB2016 text book: a "sfen ... ply" line per position (lines sorted by
 * SFEN), then its moves in USI, most played first, with their games. 0, -1 when out
 * fails, -2 out of memory. */
static int write_yaneuraou(const entry *v, const line *lines, size_t nlines,
                           kifu_output_fn out, void *ctx)
{
    if (out(ctx, "#YANEURAOU-DB2016 1.00\n", 23))
        return -1;
    for (size_t k = 0; k < nlines; k++) {
        char buf[256];
        int len = snprintf(buf, sizeof buf, "sfen %s %d\n", lines[k].sfen, lines[k].ply);
        if (out(ctx, buf, (size_t)len))
            return -1;
        /* Count each move's games (entries are sorted by move, then game), most first. */
        count mv[600];
        size_t nm = count_moves(v + lines[k].first, lines[k].n, mv);
        kpos p;
        kifu_board bd;
        /* The moves in USI need the position: rebuild it from the SFEN line. */
        kifu_position *q = kifu_position_new();
        if (!q || kifu_position_set_sfen(q, lines[k].sfen, NULL)) {
            kifu_position_free(q);
            return -2;
        }
        kifu_position_board(q, &bd);
        kifu_position_free(q);
        kifu__pos_from_board(&p, &bd);
        for (size_t a = 0; a < nm; a++) {
            kifu_move km;
            char usi[8];
            kmove em = kifu__index_expand(&p, mv[a].move);
            if (!em)
                continue;
            kifu__move_unpack(em, bd.color, &km);
            kifu_move_usi(&km, usi);
            len = snprintf(buf, sizeof buf, "%s none 0 0 %ld\n", usi, mv[a].games);
            if (out(ctx, buf, (size_t)len))
                return -1;
        }
    }
    return 0;
}

int kifu__sqlite_export_book(kifu_index *ix, int format, const kifu_book_options *o,
                             kifu_output_fn out, void *ctx, kifu_error *err)
{
    if (format != KIFU_BOOK_YANEURAOU && format != KIFU_BOOK_APERY)
        return kifu__error(err, KIFU_ERR_UNSUPPORTED, 0, 0, 0, NULL, NULL,
                           "unknown book format %d", format);
    kifu_book_options def = {0, 40, 1};
    if (!o || (!o->min_ply && !o->max_ply && !o->min_games))
        o = &def;
    int min_games = o->min_games > 0 ? o->min_games : 1;
    entry *v = NULL;
    line *lines = NULL;
    size_t n = 0, nlines = 0;
    int rc = book_entries(ix, o->min_ply, o->max_ply, &v, &n, err);
    if (!rc && n) /* no entries: no storage, and qsort wants some */
        qsort(v, n, sizeof *v, by_key);
    if (!rc && !(lines = kifu__calloc(n ? n : 1, sizeof *lines)))
        rc = nomem(err);
    if (!rc)
        rc = book_lines(ix, format, min_games, v, n, lines, &nlines, err);
    if (!rc) {
        int w;
        if (format == KIFU_BOOK_APERY) {
            qsort(lines, nlines, sizeof *lines, by_apery);
            w = write_apery(v, lines, nlines, out, ctx);
        } else {
            qsort(lines, nlines, sizeof *lines, by_sfen);
            w = write_yaneuraou(v, lines, nlines, out, ctx);
        }
        if (w == -2)
            rc = nomem(err);
        else if (w)
            rc = kifu__error(err, KIFU_ERR_IO, 0, 0, 0, NULL, NULL,
                             "cannot write the book");
    }
    for (size_t k = 0; k < nlines; k++)
        kifu_free(lines[k].sfen);
    kifu__free(lines);
    kifu__free(v);
    return rc;
}
