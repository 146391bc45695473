/* index_players.c: the players of an index, each key with the names it was written as,
 * its games, results, rating range and first and last dates (kifu index players). The
 * backend gives one row per game and side (players op); the rows are gathered here, the
 * same for every backend. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/arena.h"
#include "index/index_private.h"
#include "kifu_private.h"

char *kifu_index_player_key(const char *name, char *key, size_t cap, char *rank,
                            size_t rank_cap, int *rating)
{
    kifu__player p;
    kifu__player_parse(name, &p);
    if (cap)
        snprintf(key, cap, "%s", p.key);
    if (rank && rank_cap)
        snprintf(rank, rank_cap, "%s", p.rank);
    if (rating)
        *rating = p.rating;
    return key;
}

typedef struct prow {
    const char *key, *name, *date; /* in the arena */
    int rating, win, loss, draw;
} prow;

typedef struct gather {
    kifu__arena text;
    prow *v;
    size_t n, cap;
} gather;

static int take(void *ctx, const kifu__player_row *r)
{
    gather *g = ctx;
    if (kifu__reserve(&g->v, &g->cap, g->n + 1, sizeof *g->v, 256))
        return 1;
    prow *p = &g->v[g->n];
    p->key = kifu__arena_strdup(&g->text, r->key);
    p->name = kifu__arena_strdup(&g->text, r->name ? r->name : "");
    p->date = r->date && *r->date ? kifu__arena_strdup(&g->text, r->date) : NULL;
    if (!p->key || !p->name || (r->date && *r->date && !p->date))
        return 1;
    p->rating = r->rating;
    int won = r->side ? KIFU__RES_GOTE : KIFU__RES_SENTE;
    int lost = r->side ? KIFU__RES_SENTE : KIFU__RES_GOTE;
    p->win = r->result == won, p->loss = r->result == lost;
    p->draw = r->result >= KIFU__RES_SENNICHITE;
    g->n++;
    return 0;
}

static int by_key_name(const void *x, const void *y)
{
    const prow *a = x, *b = y;
    int c = strcmp(a->key, b->key);
    return c ? c : strcmp(a->name, b->name);
}

typedef struct pentry {
    kifu_index_player p;
    size_t first; /* its rows' start in the gathered rows */
} pentry;

static int by_games(const void *x, const void *y)
{
    const pentry *a = x, *b = y;
    if (a->p.games != b->p.games)
        return a->p.games < b->p.games ? 1 : -1;
    return strcmp(a->p.key, b->p.key);
}

int kifu_index_players(kifu_index *ix, const char *like, kifu_index_player_fn fn,
                       void *ctx, kifu_error *err)
{
    char lkey[256];
    if (like)
        like = kifu_index_player_key(like, lkey, sizeof lkey, NULL, 0, NULL);
    gather g = {0};
    kifu__arena_init(&g.text);
    pentry *ps = NULL;
    const char **names = NULL;
    size_t nps = 0, capps = 0;
    int rc = ix->ops->players(ix, like && *like ? like : NULL, take, &g, err);
    if (rc)
        goto out;
    if (g.n)
        qsort(g.v, g.n, sizeof *g.v, by_key_name);
    if (!(names = kifu__malloc((g.n ? g.n : 1) * sizeof *names)))
        goto nomem;
    /* One entry per key; its names are the distinct names of its rows (sorted). */
    size_t nn = 0;
    for (size_t i = 0, j; i < g.n; i = j) {
        if (kifu__reserve(&ps, &capps, nps + 1, sizeof *ps, 64))
            goto nomem;
        pentry *e = &ps[nps++];
        memset(e, 0, sizeof *e);
        e->p.key = g.v[i].key;
        e->p.names = names + nn;
        for (j = i; j < g.n && !strcmp(g.v[j].key, g.v[i].key); j++) {
            const prow *r = &g.v[j];
            if (j == i || strcmp(r->name, g.v[j - 1].name))
                names[nn++] = r->name, e->p.nnames++;
            e->p.games++;
            e->p.wins += r->win, e->p.losses += r->loss, e->p.draws += r->draw;
            if (r->rating > 0) {
                if (!e->p.min_rating || r->rating < e->p.min_rating)
                    e->p.min_rating = r->rating;
                if (r->rating > e->p.max_rating)
                    e->p.max_rating = r->rating;
            }
            if (r->date) {
                if (!e->p.first_date[0] || strcmp(r->date, e->p.first_date) < 0)
                    snprintf(e->p.first_date, sizeof e->p.first_date, "%s", r->date);
                if (strcmp(r->date, e->p.last_date) > 0)
                    snprintf(e->p.last_date, sizeof e->p.last_date, "%s", r->date);
            }
        }
    }
    if (nps)
        qsort(ps, nps, sizeof *ps, by_games);
    for (size_t i = 0; i < nps; i++)
        if (fn(ctx, &ps[i].p))
            break;
    goto out;
nomem:
    rc = kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
out:
    kifu__free(ps), kifu__free(names), kifu__free(g.v);
    kifu__arena_free(&g.text);
    return rc;
}
