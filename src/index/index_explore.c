/* index_explore.c: the opening explorer: every move played from a position in the indexed
 * games, counted, with the latest games. The backend counts the moves of a key
 * (index_sqlite_explore.c, clickhouse_query.c) and looks up the games it lists; the
 * position seen from the other side, the moves and the listed games are put together
 * here. */
#include <stdio.h>
#include <string.h>

#include "core/arena.h"
#include "index/index_agg.h"
#include "index/index_private.h"
#include "kifu_private.h"
#include "rules/engine.h"
#include "rules/position.h"

struct kifu_explore {
    long long games;
    kifu_explore_move *moves;
    size_t n;
    kifu_explore_game *games_v; /* all top games, moves[i].top points in here */
    size_t ngames_v;
    kifu__arena strings; /* every string the games point at */
};

void kifu_explore_free(kifu_explore *e)
{
    if (!e)
        return;
    kifu__arena_free(&e->strings);
    kifu__free(e->games_v);
    kifu__free(e->moves);
    kifu__free(e);
}

long long kifu_explore_games(const kifu_explore *e)
{
    return e->games;
}

size_t kifu_explore_count(const kifu_explore *e)
{
    return e->n;
}

const kifu_explore_move *kifu_explore_move_at(const kifu_explore *e, size_t i)
{
    return i < e->n ? &e->moves[i] : NULL;
}

static int nomem(kifu_error *err)
{
    return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
}

/* The same position seen from the other side (turned, owners swapped). */
static void flip_board(const kifu_board *b, kifu_board *out)
{
    for (int sq = 0; sq < 81; sq++) {
        uint8_t cp = b->sq[80 - sq];
        out->sq[sq] = cp ? (uint8_t)(cp ^ (KIFU_WHITE << 4)) : 0;
    }
    memcpy(out->hands[0], b->hands[1], sizeof out->hands[0]);
    memcpy(out->hands[1], b->hands[0], sizeof out->hands[1]);
    out->color = (uint8_t)(b->color ^ 1);
}

/* A copy owned by the result. */
static const char *keep(kifu_explore *e, const char *s)
{
    if (!s)
        return NULL;
    return kifu__arena_strdup(&e->strings, s);
}

static int later_game(const void *x, const void *y)
{
    const kifu_explore_game *a = x, *b = y;
    int c = strcmp(b->date ? b->date : "", a->date ? a->date : "");
    return c ? c : (a->id < b->id) - (a->id > b->id);
}

/* The listed games of one move: looked up, latest first, at most `want`. */
static void top_games(kifu_index *ix, void *q, kifu_explore *e, kifu__agg_move *m,
                      kifu_explore_move *out, int want, int flipped)
{
    out->top = e->games_v + e->ngames_v;
    size_t first = e->ngames_v;
    for (int i = 0; i < m->ntop + m->nmerged; i++) {
        long long id = i < m->ntop ? m->top[i].id : m->merged[i - m->ntop].id;
        int ply = i < m->ntop ? m->top[i].ply : m->merged[i - m->ntop].ply;
        int dup = 0;
        for (size_t k = first; k < e->ngames_v; k++)
            dup |= e->games_v[k].id == id;
        kifu__explore_row g;
        if (dup || !ix->ops->explore_game(q, id, &g))
            continue;
        kifu_explore_game *x = &e->games_v[e->ngames_v++];
        x->id = g.id;
        x->ply = ply;
        x->sente = keep(e, flipped ? g.gote : g.sente);
        x->gote = keep(e, flipped ? g.sente : g.gote);
        x->date = keep(e, g.date);
        x->event = keep(e, g.event);
        x->number = g.number;
        x->result = g.result;
        x->source = keep(e, g.source);
    }
    size_t n = e->ngames_v - first;
    qsort(e->games_v + first, n, sizeof *e->games_v, later_game);
    out->ntop = n < (size_t)want ? n : (size_t)want;
    e->ngames_v = first + out->ntop;
}

/* The move of one counted row, with its counts and latest games; 0 when it is no move
 * here (games that ended here, or a damaged row). */
static int put_move(kifu_index *ix, void *q, kifu_explore *e, const kpos *kp,
                    const kifu_board *b, kifu__agg_move *m, int want)
{
    kmove k = kifu__index_expand(kp, m->move);
    if (!k)
        return 0;
    kifu_explore_move *x = &e->moves[e->n++];
    kifu__move_unpack(k, b->color, &x->move);
    kifu_move_usi(&x->move, x->usi);
    kifu_move_text(&x->move, NULL, KIFU_TEXT_MARK, x->text, sizeof x->text);
    x->games = m->games;
    x->sente_wins = m->res[KIFU__RES_SENTE];
    x->gote_wins = m->res[KIFU__RES_GOTE];
    x->sennichite = m->res[KIFU__RES_SENNICHITE];
    x->jishogi = m->res[KIFU__RES_JISHOGI];
    x->draws = m->res[KIFU__RES_DRAW];
    x->unknown = m->res[KIFU__RES_UNKNOWN];
    snprintf(x->last_date, sizeof x->last_date, "%s", m->last_date);
    x->rated = m->rated;
    x->avg_rating = m->rated ? (int)((m->rating_sum + m->rated / 2) / m->rated) : 0;
    top_games(ix, q, e, m, x, want, 0);
    return 1;
}

kifu_explore *kifu_index_explore(kifu_index *ix, const kifu_position *p,
                                 const kifu_explore_options *o, kifu_error *err)
{
    static const kifu_explore_options none;
    if (!o)
        o = &none;
    if (o->ntags && !ix->ops->search_where) {
        kifu__error(err, KIFU_ERR_UNSUPPORTED, 0, 0, 0, NULL, NULL,
                    "this index keeps no tags (SQLite indexes do): no tag filter");
        return NULL;
    }
    /* Players are found by their keys: the user's text made a key as the names were. */
    kifu_explore_options by_key = *o;
    char pkey[256], lkey[256];
    if (o->player)
        by_key.player =
            kifu_index_player_key(o->player, pkey, sizeof pkey, NULL, 0, NULL);
    if (o->player_like)
        by_key.player_like =
            kifu_index_player_key(o->player_like, lkey, sizeof lkey, NULL, 0, NULL);
    o = &by_key;
    kifu_explore *e = kifu__calloc(1, sizeof *e);
    kifu__agg a;
    kifu__agg_init(&a);
    kifu_position *fp = NULL;
    if (!e) {
        nomem(err);
        return NULL;
    }
    kifu__arena_init(&e->strings);
    void *q = ix->ops->explore_begin(ix, o, err);
    if (!q)
        goto fail;
    kifu_board b;
    kifu_position_board(p, &b);
    /* The movers: the position's side to move, and in the flipped one's games the other
     * colour (their players swap sides as they are counted). */
    if (ix->ops->explore_count(q, kifu_position_hash(p), 0, b.color, &a))
        goto fail;
    if (o->flip) {
        kifu_board fb;
        flip_board(&b, &fb);
        fp = kifu_position_new();
        if (!fp)
            goto nomem;
        if (kifu_position_set_board(fp, &fb, NULL) == 0 &&
            kifu_position_hash(fp) != kifu_position_hash(p) &&
            ix->ops->explore_count(q, kifu_position_hash(fp), 1, fb.color, &a))
            goto fail;
    }
    kifu__agg_sort(&a);
    e->games = a.games;
    int want = o->top > 0 ? o->top : KIFU__INDEX_TOP;
    if (want > KIFU__INDEX_TOP * 2)
        want = KIFU__INDEX_TOP * 2;
    e->moves = kifu__calloc(a.n ? a.n : 1, sizeof *e->moves);
    e->games_v = kifu__calloc(a.n * KIFU__INDEX_TOP * 3 + 1, sizeof *e->games_v);
    if (!e->moves || !e->games_v)
        goto nomem;
    kpos kp;
    kifu__pos_from_board(&kp, &b);
    for (size_t i = 0; i < a.n; i++)
        put_move(ix, q, e, &kp, &b, &a.m[i], want);
    goto out;
nomem:
    nomem(err);
fail:
    kifu_explore_free(e);
    e = NULL;
out:
    kifu_position_free(fp);
    kifu__agg_free(&a);
    if (q)
        ix->ops->explore_end(q);
    return e;
}
