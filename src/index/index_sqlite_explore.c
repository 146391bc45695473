/* index_sqlite_explore.c: the explorer's counts in the SQLite index. A hot position
 * (played in KIFU__INDEX_HOT games or more) is answered from its precomputed rows unless
 * filters ask for a subset; any other is counted from its occurrences (its bucket's
 * block) and their games. The answer is put together in index_explore.c. */
#include <stdio.h>
#include <string.h>

#include "index/index_agg.h"
#include "index/index_days.h"
#include "index/index_listing.h"
#include "index/index_private.h"
#include "index/index_sqlite.h"
#include "kifu_private.h"
#include "rules/engine.h"
#include "rules/position.h"

long kifu__index_replay = KIFU__INDEX_REPLAY;

typedef struct query {
    kifu_index *ix;
    const kifu_explore_options *o;
    sqlite3_stmt *block, *rows, *hot, *moves, *game, *source, *line, *rating, *listing;
    /* The listed games of the hot keys counted (index_listing.c): a game found there
     * is not read from its row. */
    kifu__listing listed;
    /* Source paths looked up in this query (the top games of a position come from few
     * files, and a join per game cost as much as the game's row). */
    struct {
        long long id;
        char *path; /* the query's */
    } paths[16];
    int npaths;
    int filtered;
    int dated; /* the filters are dates only: a key's day lists answer them */
    /* The games the tag filters pass, a bit per game id (index_tags.c), for the stored
     * and the flipped sides; made on first use. */
    uint8_t *tagbits[2];
    size_t ntagbits[2];
    int tagmade[2];
    int txn; /* the query's read transaction is open */
    /* rating's place: on a row, of game rating_at (rating_of) */
    int rating_on;
    long long rating_at;
    kifu_error *err;
} query;

/* Is s a date as the games table writes them, YYYY-MM-DD? */
static int iso_date(const char *s)
{
    for (int i = 0; i < 10; i++)
        if (i == 4 || i == 7 ? s[i] != '-' : (s[i] < '0' || s[i] > '9'))
            return 0;
    return s[10] == 0;
}

/* Does a game of this date ("" unknown) pass the date filters? */
static int date_passes(const kifu_explore_options *o, const char *date)
{
    if ((o->date_from || o->date_to) && !*date)
        return 0;
    if (o->date_from && strcmp(date, o->date_from) < 0)
        return 0;
    if (o->date_to && strncmp(date, o->date_to, 10) > 0)
        return 0;
    return 1;
}

/* Does game row `st` (0 sente's key, 1 gote's key, 2 event, 3 sente_rating, 4 gote_rating) of a game
 * of this date pass the filters? */
static int passes(const kifu_explore_options *o, sqlite3_stmt *st, const char *date,
                  int flipped)
{
    kifu__game_attrs g = {(const char *)sqlite3_column_text(st, 0),
                          (const char *)sqlite3_column_text(st, 1),
                          date,
                          (const char *)sqlite3_column_text(st, 2),
                          sqlite3_column_int(st, 3),
                          sqlite3_column_int(st, 4)};
    return kifu__explore_passes(o, &g, flipped);
}

/* The counts of one move merged into a, seen from the flipped side when asked: games,
 * results, the movers' ratings (rsum[0] summed over rsum[1] rated games), the latest
 * date and games. */
static int merge_move(kifu__agg *a, uint16_t mv, long long games, long long res[6],
                      const long long rsum[2], const char *last_date, const int32_t *top,
                      int ntop, int flipped)
{
    if (flipped) {
        long long t = res[KIFU__RES_SENTE];
        res[KIFU__RES_SENTE] = res[KIFU__RES_GOTE], res[KIFU__RES_GOTE] = t;
        mv = kifu__flip_move(mv);
    }
    return kifu__agg_merge(a, mv, games, res, rsum[0], rsum[1], last_date, top, ntop);
}

/* A day list (or listing) that does not decode: SQLITE_CORRUPT, the error said. */
static int damaged(query *q, uint64_t key, const char *part)
{
    char what[64];
    snprintf(what, sizeof what, "the %s of key %llu", part, (unsigned long long)key);
    kifu__index_damaged(q->err, q->ix->path, what, "does not decode");
    return SQLITE_CORRUPT;
}

/* The listing of hot key `key` added to q->listed (an index without one for the key:
 * its games are read from their rows). 0, or -1 with the error said. */
static int load_listing(query *q, uint64_t key)
{
    int rc = kifu__listing_read(&q->listed, q->listing, key);
    if (rc == -2)
        damaged(q, key, "listing");
    else if (rc == -1)
        kifu__error(q->err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
    return rc ? -1 : 0;
}

/* A hot key's precomputed rows merged into a: its totals, or with a date filter (dated)
 * what its day lists hold between the dates. 1 when they answered, 0 when the key has
 * no such rows (not hot, or no day lists), -1 on an error. */
static int count_hot(query *q, uint64_t key, int flipped, int dated, kifu__agg *a)
{
    const kifu_explore_options *o = q->o;
    kifu__days_sum sum;
    sqlite3_bind_int64(q->hot, 1, (sqlite3_int64)key);
    int s = sqlite3_step(q->hot);
    int hot =
        s == SQLITE_ROW && (!dated || sqlite3_column_type(q->hot, 1) == SQLITE_BLOB);
    if (hot && !dated)
        a->games += sqlite3_column_int64(q->hot, 0);
    else if (hot && kifu__days_range(sqlite3_column_blob(q->hot, 1),
                                     (size_t)sqlite3_column_bytes(q->hot, 1),
                                     o->date_from, o->date_to, &sum) == 0)
        a->games += sum.games;
    else if (hot)
        s = damaged(q, key, "day list");
    sqlite3_reset(q->hot);
    if (!hot)
        return s == SQLITE_ROW || s == SQLITE_DONE ? 0 : -1;
    if (s == SQLITE_ROW && load_listing(q, key))
        return -1;
    sqlite3_stmt *m = q->moves;
    sqlite3_bind_int64(m, 1, (sqlite3_int64)key);
    int rc = 0;
    while (!rc && (s = sqlite3_step(m)) == SQLITE_ROW) {
        uint16_t mv = (uint16_t)sqlite3_column_int(m, 0);
        if (dated) {
            if (kifu__days_range(sqlite3_column_blob(m, 10),
                                 (size_t)sqlite3_column_bytes(m, 10), o->date_from,
                                 o->date_to, &sum))
                rc = damaged(q, key, "day list");
            else if (sum.games)
                rc = merge_move(a, mv, sum.games, sum.res,
                                (const long long[2]){sum.rating_sum, sum.rated},
                                sum.last_date, sum.top, sum.ntop, flipped);
            continue;
        }
        long long res[6] = {sqlite3_column_int64(m, 7), sqlite3_column_int64(m, 2),
                            sqlite3_column_int64(m, 3), sqlite3_column_int64(m, 4),
                            sqlite3_column_int64(m, 5), sqlite3_column_int64(m, 6)};
        /* top: (id, ply, date) triples; the merge wants (id, ply) pairs. */
        int32_t top[KIFU__INDEX_TOP * 2];
        int ntop = sqlite3_column_bytes(m, 9) / 12;
        const uint8_t *t = sqlite3_column_blob(m, 9);
        if (ntop > KIFU__INDEX_TOP)
            ntop = KIFU__INDEX_TOP;
        for (int k = 0; k < ntop; k++)
            memcpy(&top[2 * k], t + 12 * k, 8);
        long long rsum[2] = {sqlite3_column_int64(m, 11), sqlite3_column_int64(m, 12)};
        rc = merge_move(a, mv, sqlite3_column_int64(m, 1), res, rsum,
                        (const char *)sqlite3_column_text(m, 8), top, ntop, flipped);
    }
    sqlite3_reset(m);
    return rc || s != SQLITE_DONE ? -1 : 1;
}

/* The games of a hot key (0: not hot). */
static long long hot_games(query *q, uint64_t key)
{
    sqlite3_bind_int64(q->hot, 1, (sqlite3_int64)key);
    long long g =
        sqlite3_step(q->hot) == SQLITE_ROW ? sqlite3_column_int64(q->hot, 0) : 0;
    sqlite3_reset(q->hot);
    return g;
}

/* The occurrences of key in the games of s (sorted ids), found by replaying their lines
 * from the games table, appended to *v in (game, ply) order as the blocks give them. 0,
 * or -1 (SQLite error, NOMEM). */
static int replay_games(query *q, uint64_t key, const kifu__gameset *s, kifu__ipos **v,
                        size_t *nv, size_t *cap)
{
    for (size_t i = 0; i < s->n; i++) {
        sqlite3_stmt *st = q->line;
        sqlite3_bind_int64(st, 1, s->id[i]);
        int r = sqlite3_step(st);
        if (r != SQLITE_ROW) {
            sqlite3_reset(st);
            if (r == SQLITE_DONE)
                continue;
            return -1;
        }
        kpos p;
        const void *blob;
        int n;
        if (kifu__index_moves(st, 2, s->id[i], &blob, &n, q->ix->path, q->err)) {
            sqlite3_reset(st);
            return -1;
        }
        const uint8_t *mv = blob;
        uint32_t fact = kifu__index_fact((const char *)sqlite3_column_text(st, 4),
                                         sqlite3_column_int(st, 5));
        int rc = kifu__index_start((const char *)sqlite3_column_text(st, 0),
                                   (const char *)sqlite3_column_text(st, 1), &p);
        for (int ply = 0; !rc; ply++) {
            uint16_t c = ply < n ? (uint16_t)(mv[2 * ply] | mv[2 * ply + 1] << 8) : 0;
            if (p.key == key) {
                if (kifu__reserve(v, cap, *nv + 1, sizeof **v, 64)) {
                    sqlite3_reset(st);
                    return -1;
                }
                (*v)[(*nv)++] = (kifu__ipos){key, s->id[i], (uint16_t)ply, c, fact};
            }
            kmove k = c ? kifu__index_expand(&p, c) : MOVE_NONE;
            if (!k)
                break;
            kifu__pos_do(&p, k);
        }
        sqlite3_reset(st);
    }
    return 0;
}

/* Games q->rating steps over to a later game rather than seek it: a step is a few
 * hundred instructions, a seek (reset, bind, step) a few thousand. */
#define RATING_STEPS 6

/* The rating (0: none) of game's player of colour `mover`: from its row in st, read
 * already (columns sente_rating, gote_rating at col, col + 1), or by q->rating, which
 * reads the games from an id on: the games of a key come in id order, so a filter's
 * games, dense among them, are mostly a step on. 0, or -1 on an SQLite error. */
static int rating_of(query *q, sqlite3_stmt *st, int col, long long game, int mover,
                     int *out)
{
    if (st) {
        *out = sqlite3_column_int(st, col + (mover == KIFU_WHITE));
        return 0;
    }
    int s = SQLITE_ROW;
    st = q->rating;
    if (q->rating_on && q->rating_at <= game && game - q->rating_at <= RATING_STEPS)
        while (q->rating_at < game && (s = sqlite3_step(st)) == SQLITE_ROW)
            q->rating_at = sqlite3_column_int64(st, 0);
    if (!q->rating_on || s != SQLITE_ROW || q->rating_at != game) {
        sqlite3_reset(st);
        sqlite3_bind_int64(st, 1, game);
        s = sqlite3_step(st);
        q->rating_on = s == SQLITE_ROW;
        q->rating_at = q->rating_on ? sqlite3_column_int64(st, 0) : -1;
    }
    *out = q->rating_on && q->rating_at == game
               ? sqlite3_column_int(st, 1 + (mover == KIFU_WHITE))
               : 0;
    return s == SQLITE_ROW || s == SQLITE_DONE ? 0 : -1;
}

/* Count the rows of one key (whose side to move is `mover`) into a. */
static int count_rows(query *q, uint64_t key, int flipped, int mover, kifu__agg *a)
{
    /* Hot and unfiltered, or filtered by dates alone: the precomputed rows. */
    if (!q->filtered || q->dated) {
        int hot = count_hot(q, key, flipped, q->filtered, a);
        if (hot)
            return hot < 0 ? -1 : 0;
    }
    /* The key's occurrences from its bucket: each carries its game's date and result, so
     * only a filter by player, event or rating reads the game's row. */
    kifu__ipos *v = NULL;
    size_t nv = 0, cap = 0;
    kifu__gameset gs = {0};
    flipped = !!flipped;
    if (q->o->ntags && !q->tagmade[flipped]) {
        if (kifu__index_tag_bits(q->ix->db, q->o, flipped, &q->tagbits[flipped],
                                 &q->ntagbits[flipped]))
            return -1;
        q->tagmade[flipped] = 1;
    }
    /* A much played position and a filter that admits few games (a player's, say):
     * those games replayed instead of every occurrence decoded. */
    long long g = q->o->player || q->o->player_like || q->o->event || q->o->min_rating > 0
                      ? hot_games(q, key)
                      : 0;
    int replay = 0;
    if (g >= kifu__index_replay) {
        if (kifu__filter_games(q->ix->db, q->o, flipped, (size_t)(g / kifu__index_replay),
                               &gs)) {
            kifu__free(gs.id);
            return -1;
        }
        replay = gs.use;
    }
    if (replay ? replay_games(q, key, &gs, &v, &nv, &cap)
               : kifu__index_entries(q->block, key, &v, &nv, &cap, q->ix->path, q->err)) {
        kifu__free(v), kifu__free(gs.id);
        return -1;
    }
    if (!replay && kifu__filter_games(q->ix->db, q->o, flipped, nv, &gs)) {
        kifu__free(v), kifu__free(gs.id);
        return -1;
    }
    int rows = gs.rows, rc = 0;
    /* Full dates as bounds compare as numbers, the text made only for what passes. */
    uint32_t lo = q->o->date_from ? kifu__index_fact(q->o->date_from, 0) >> 3 : 0;
    uint32_t hi = q->o->date_to ? kifu__index_fact(q->o->date_to, 0) >> 3 : UINT32_MAX;
    int numeric = (!q->o->date_from || (lo && iso_date(q->o->date_from))) &&
                  (!q->o->date_to || (hi && iso_date(q->o->date_to)));
    int dated = q->o->date_from || q->o->date_to;
    long long last_game = -1;
    int last_rating = 0;
    for (size_t i = 0; i < nv && !rc; i++) {
        uint32_t d = v[i].fact >> 3;
        if (dated && numeric && (!d || d < lo || d > hi))
            continue;
        char date[11];
        kifu__index_fact_date(v[i].fact, date);
        if (dated && !numeric && !date_passes(q->o, date))
            continue;
        if (gs.use && !kifu__gameset_has(&gs, v[i].game))
            continue;
        if (q->o->ntags &&
            !kifu__tag_bit(q->tagbits[flipped], q->ntagbits[flipped], v[i].game))
            continue;
        int rating = 0;
        if (rows) {
            sqlite3_bind_int64(q->rows, 1, v[i].game);
            int s = sqlite3_step(q->rows),
                pass = s == SQLITE_ROW && passes(q->o, q->rows, date, flipped);
            if (pass && v[i].move)
                rc = rating_of(q, q->rows, 3, v[i].game, mover, &rating);
            sqlite3_reset(q->rows);
            if (s != SQLITE_ROW && s != SQLITE_DONE)
                rc = -1;
            if (!pass)
                continue;
        } else if (v[i].move) {
            /* A game's entries come together: its row read once. */
            if (v[i].game != last_game)
                rc = rating_of(q, NULL, 0, v[i].game, mover, &last_rating);
            last_game = v[i].game, rating = last_rating;
        }
        uint16_t mv = v[i].move;
        if (!rc)
            rc = kifu__agg_add(a, mv && flipped ? kifu__flip_move(mv) : mv, v[i].game,
                               v[i].ply, kifu__flip_result((int)(v[i].fact & 7), flipped),
                               date, rating);
    }
    kifu__free(v);
    kifu__free(gs.id);
    return rc;
}

int kifu__sqlite_explore_count(void *qv, uint64_t key, int flipped, int mover,
                               kifu__agg *a)
{
    query *q = qv;
    if (count_rows(q, key, flipped, mover, a) == 0)
        return 0;
    return kifu__index_sqlite_error(q->ix->db, q->ix->path, "cannot read the index",
                                    q->err);
}

/* The path of source `id`, kept by the query (NULL when there is none, or out of
 * memory: the game is listed without its file). */
static const char *source_path(query *q, long long id)
{
    for (int i = 0; i < q->npaths; i++)
        if (q->paths[i].id == id)
            return q->paths[i].path;
    char *path = NULL;
    sqlite3_bind_int64(q->source, 1, id);
    if (sqlite3_step(q->source) == SQLITE_ROW)
        path = kifu__strdup((const char *)sqlite3_column_text(q->source, 0));
    sqlite3_reset(q->source);
    int slot = q->npaths < 16 ? q->npaths++ : (int)(id & 15);
    kifu__free(q->paths[slot].path); /* a new slot's is NULL */
    q->paths[slot].id = id, q->paths[slot].path = path;
    return path;
}

int kifu__sqlite_explore_game(void *qv, long long id, kifu__explore_row *g)
{
    query *q = qv;
    const kifu__explore_row *l = kifu__listing_find(&q->listed, id);
    if (l) {
        *g = *l;
        return 1;
    }
    sqlite3_stmt *st = q->game;
    sqlite3_reset(st); /* the last game's strings were borrowed until now */
    sqlite3_bind_int64(st, 1, id);
    if (sqlite3_step(st) != SQLITE_ROW)
        return 0;
    *g = (kifu__explore_row){.id = id,
                             .sente = (const char *)sqlite3_column_text(st, 0),
                             .gote = (const char *)sqlite3_column_text(st, 1),
                             .date = (const char *)sqlite3_column_text(st, 2),
                             .event = (const char *)sqlite3_column_text(st, 3),
                             .number = sqlite3_column_int(st, 4),
                             .result = sqlite3_column_int(st, 5)};
    g->source = source_path(q, sqlite3_column_int64(st, 6));
    return 1;
}

/* The statements are prepared once per open index (preparing them took a tenth of a
 * query), and a query is one read transaction (a statement outside one takes and drops
 * the file's locks, a few system calls, each time). */
static const char *const explore_sql[KIFU__EXPLORE_STMTS] = {
    "SELECT sente_key, gote_key, event, sente_rating, gote_rating FROM games WHERE id=?",
    KIFU__BLOCK_SQL, "SELECT games, days FROM hot WHERE key=?",
    ("SELECT move, games, sente_wins, gote_wins, sennichite, jishogi, draws, unknown,"
     " last_date, top, days, rating_sum, rated FROM explorer WHERE key=?"),
    KIFU__LISTED_SQL, "SELECT path FROM sources WHERE id=?",
    "SELECT handicap, start, moves, moves_sum, date, result FROM games WHERE id=?",
    /* The games' ratings from an id on (rating_of): SQLite reads them from the small
     * index games_ratings, or from the games' rows while a bulk build has not made it. */
    "SELECT id, sente_rating, gote_rating FROM games WHERE id >= ? ORDER BY id",
    "SELECT games FROM listing WHERE key=?", "BEGIN", "COMMIT"};

void *kifu__sqlite_explore_begin(kifu_index *ix, const kifu_explore_options *o,
                                 kifu_error *err)
{
    query *q = kifu__calloc(1, sizeof *q);
    if (!q) {
        kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
        return NULL;
    }
    q->ix = ix, q->o = o, q->err = err;
    q->filtered = o->player || o->player_like || o->date_from || o->date_to || o->event ||
                  o->min_rating > 0 || o->ntags;
    for (int i = 0; i < KIFU__EXPLORE_STMTS; i++)
        if (!ix->explore_st[i] &&
            sqlite3_prepare_v2(ix->db, explore_sql[i], -1, &ix->explore_st[i], NULL) !=
                SQLITE_OK) {
            kifu__index_sqlite_error(ix->db, ix->path, "cannot read the index", err);
            kifu__free(q);
            return NULL;
        }
    sqlite3_stmt **st[KIFU__EXPLORE_STMTS - 2] = {&q->rows,  &q->block,  &q->hot,
                                                  &q->moves, &q->game,   &q->source,
                                                  &q->line,  &q->rating, &q->listing};
    kifu__listing_init(&q->listed);
    for (int i = 0; i < KIFU__EXPLORE_STMTS - 2; i++)
        *st[i] = ix->explore_st[i];
    q->txn = sqlite3_get_autocommit(ix->db) &&
             kifu__index_step(ix->explore_st[KIFU__EXPLORE_STMTS - 2]) == 0;
    /* A filter every game passes (one event in the whole file, say) is no filter: the
     * precomputed rows answer. */
    if (q->filtered && kifu__filter_none(ix->db, o) == 1)
        q->filtered = 0;
    /* Dates alone (and an event filter every game passes): the day lists answer. */
    if (q->filtered && !o->player && !o->player_like && o->min_rating <= 0 && !o->ntags &&
        (o->date_from || o->date_to)) {
        kifu_explore_options d = *o;
        d.date_from = d.date_to = NULL;
        q->dated = !o->event || kifu__filter_none(ix->db, &d) == 1;
    }
    return q;
}

void kifu__sqlite_explore_end(void *qv)
{
    query *q = qv;
    kifu_index *ix = q->ix;
    for (int i = 0; i < KIFU__EXPLORE_STMTS - 2; i++)
        sqlite3_reset(ix->explore_st[i]);
    if (q->txn)
        kifu__index_step(ix->explore_st[KIFU__EXPLORE_STMTS - 1]);
    for (int i = 0; i < q->npaths; i++)
        kifu__free(q->paths[i].path);
    kifu__free(q->tagbits[0]), kifu__free(q->tagbits[1]);
    kifu__listing_free(&q->listed);
    kifu__free(q);
}

/* PRAGMA data_version: a statement of its own (a read transaction at its step, so the
 * commits of other connections until then are seen); prepared each call, a few
 * microseconds, so that the handle keeps no statement for it. */
long long kifu__sqlite_data_version(kifu_index *ix)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(ix->db, "PRAGMA data_version", -1, &st, NULL) != SQLITE_OK)
        return -1;
    long long v = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
    sqlite3_finalize(st);
    return v;
}
