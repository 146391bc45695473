/* index_games.c: the indexed games as a list (kifu_index_games): the games that pass the
 * explorer's filters (kifu__explore_passes, so a filter means what it means in the
 * explorer), counted, sorted by a field and paged. The backend streams every game
 * (games op); only the offset + limit first in the order are kept, in a heap whose top
 * is the last of them, so memory follows the page and not the collection. A backend
 * that streams the games without their tags (SQLite: a subquery a game) gives the
 * page's tags alone (game_tags op). */
#include <stdio.h>
#include <string.h>

#include "index/index_agg.h"
#include "index/index_private.h"
#include "kifu_private.h"

enum { MAX_KEPT = 1000000 };

/* A game kept, its strings copied (one allocation: text). */
typedef struct kept {
    kifu_index_game g;
    char *text;
    char *tags; /* the backend's game_tags answer (or NULL) */
} kept;

typedef struct lister {
    const kifu_explore_options *o;
    int sort, descending;
    size_t want; /* offset + limit */
    kept *heap;  /* a max-heap by order: heap[0] is the last kept */
    size_t n;
    long long total;
    int nomem;
} lister;

static const char *text_of(const kifu_index_game *g, int sort)
{
    const char *s = sort == KIFU_GAMES_DATE    ? g->date
                    : sort == KIFU_GAMES_SENTE ? g->sente
                    : sort == KIFU_GAMES_GOTE  ? g->gote
                    : sort == KIFU_GAMES_EVENT ? g->event
                                               : "";
    return s ? s : "";
}

/* <0 when a comes before b in the listing's order. */
static int order(const lister *l, const kifu_index_game *a, const kifu_index_game *b)
{
    int c = 0;
    if (l->sort == KIFU_GAMES_RESULT)
        c = (a->result > b->result) - (a->result < b->result);
    else if (l->sort == KIFU_GAMES_LENGTH)
        c = (a->plies > b->plies) - (a->plies < b->plies);
    else if (l->sort != KIFU_GAMES_INDEXED)
        c = strcmp(text_of(a, l->sort), text_of(b, l->sort));
    if (l->descending)
        c = -c;
    return c ? c : (a->id > b->id) - (a->id < b->id);
}

static void swap(kept *a, kept *b)
{
    kept t = *a;
    *a = *b, *b = t;
}

static void sift_down(lister *l, size_t i)
{
    for (;;) {
        size_t c = 2 * i + 1, big = i;
        if (c < l->n && order(l, &l->heap[c].g, &l->heap[big].g) > 0)
            big = c;
        if (c + 1 < l->n && order(l, &l->heap[c + 1].g, &l->heap[big].g) > 0)
            big = c + 1;
        if (big == i)
            return;
        swap(&l->heap[i], &l->heap[big]);
        i = big;
    }
}

static void sift_up(lister *l, size_t i)
{
    while (i && order(l, &l->heap[i].g, &l->heap[(i - 1) / 2].g) > 0) {
        swap(&l->heap[i], &l->heap[(i - 1) / 2]);
        i = (i - 1) / 2;
    }
}

/* A copy of g whose strings live in k->text. 0, or -1 on NOMEM. */
static int copy(kept *k, const kifu_index_game *g)
{
    const char *src[6] = {g->source, g->sente, g->gote, g->date, g->event, g->tags};
    size_t len = 0;
    for (int i = 0; i < 6; i++)
        len += src[i] ? strlen(src[i]) + 1 : 0;
    char *t = kifu__malloc(len ? len : 1);
    if (!t)
        return -1;
    k->g = *g, k->text = t;
    const char **dst[6] = {&k->g.source, &k->g.sente, &k->g.gote,
                           &k->g.date,   &k->g.event, &k->g.tags};
    for (int i = 0; i < 6; i++) {
        *dst[i] = NULL;
        if (!src[i])
            continue;
        size_t n = strlen(src[i]) + 1;
        memcpy(t, src[i], n);
        *dst[i] = t, t += n;
    }
    return 0;
}

static int one(void *ctx, const kifu_index_game *g, const char *sente_key,
               const char *gote_key)
{
    lister *l = ctx;
    kifu__game_attrs at = {sente_key, gote_key,        g->date,
                           g->event,  g->sente_rating, g->gote_rating};
    if (!kifu__explore_passes(l->o, &at, 0))
        return 0;
    l->total++;
    if (!l->want)
        return 0;
    if (l->n == l->want) {
        if (order(l, g, &l->heap[0].g) >= 0)
            return 0;
        kifu__free(l->heap[0].text);
        if (copy(&l->heap[0], g)) {
            l->heap[0] = l->heap[--l->n];
            l->nomem = 1;
            return 1;
        }
        sift_down(l, 0);
        return 0;
    }
    if (copy(&l->heap[l->n], g)) {
        l->nomem = 1;
        return 1;
    }
    sift_up(l, l->n++);
    return 0;
}

long long kifu_index_games(kifu_index *ix, const kifu_explore_options *filter, int sort,
                           int descending, long long offset, long long limit,
                           kifu_index_game_fn fn, void *ctx, kifu_error *err)
{
    static const kifu_explore_options none;
    if (sort < KIFU_GAMES_INDEXED || sort > KIFU_GAMES_LENGTH || offset < 0 ||
        limit < 0 || offset + limit > MAX_KEPT)
        return kifu__error(err, KIFU_ERR_ARG, 0, 0, 0, NULL, NULL,
                           "games: a sort from 0 to %d, and offset + limit at most %d",
                           KIFU_GAMES_LENGTH, MAX_KEPT);
    if (!ix->ops->games)
        return kifu__error(err, KIFU_ERR_UNSUPPORTED, 0, 0, 0, NULL, NULL,
                           "this index does not list its games");
    /* Players by their keys, as the explorer finds them. */
    kifu_explore_options o = filter ? *filter : none;
    char pkey[256], lkey[256];
    if (o.player)
        o.player = kifu_index_player_key(o.player, pkey, sizeof pkey, NULL, 0, NULL);
    if (o.player_like)
        o.player_like =
            kifu_index_player_key(o.player_like, lkey, sizeof lkey, NULL, 0, NULL);
    lister l = {&o, sort, descending, (size_t)(offset + limit), NULL, 0, 0, 0};
    if (l.want && !(l.heap = kifu__calloc(l.want, sizeof *l.heap)))
        return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
    int rc = ix->ops->games(ix, &o, one, &l, err);
    if (!rc && l.nomem)
        rc = kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
    /* The heap emptied from its top, the last first: the page is its tail in order. */
    size_t n = l.n;
    while (l.n > 1) {
        swap(&l.heap[0], &l.heap[l.n - 1]);
        l.n--;
        sift_down(&l, 0);
    }
    int stop = 0;
    for (size_t i = (size_t)offset; !rc && !stop && i < n; i++) {
        kept *k = &l.heap[i];
        if (ix->ops->game_tags && (rc = ix->ops->game_tags(ix, k->g.id, &k->tags, err)))
            break;
        if (k->tags)
            k->g.tags = k->tags;
        stop = fn(ctx, &k->g);
    }
    for (size_t i = 0; i < n; i++)
        kifu__free(l.heap[i].text), kifu__free(l.heap[i].tags);
    kifu__free(l.heap);
    return rc ? -1 : l.total;
}

void kifu_index_set_deadline(kifu_index *ix, int ms)
{
    if (ix->ops->deadline)
        ix->ops->deadline(ix, ms < 0 ? 0 : ms);
}

long long kifu_index_data_version(kifu_index *ix)
{
    return ix && ix->ops->data_version ? ix->ops->data_version(ix) : -1;
}
