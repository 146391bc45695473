/* index_players.c: the players of an index, each key with the names it was written as,
 * its games, results, rating range, first and last dates and the 戦法 and 囲い its side
 * had most (kifu index players). The backend gives one row per game and side (players
 * op), with the game's tags; the rows are gathered, filtered by tag and counted here, the
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
    uint32_t tag0, ntags; /* its side's 戦法 and 囲い: gather.tags[tag0 .. +ntags) */
} prow;

/* A tag of a row: its name's number (gather.names), family and side (the row's). */
typedef struct rtag {
    uint32_t name;
    uint8_t family, side;
} rtag;

typedef struct gather {
    const kifu_explore_options *o; /* its tag filters, or NULL */
    const char *key;               /* only this player's rows, or NULL */
    kifu__arena text;
    prow *v;
    size_t n, cap;
    rtag *tags;
    size_t ntags, captags;
    /* The tag names seen, each once (the arena's), found by a hash of open addressing
     * (slots hold number + 1; 0 empty). */
    const char **names;
    size_t nnames, capnames;
    uint32_t *slots;
    size_t nslots; /* a power of two, or 0 */
} gather;

static size_t hash(const char *s, size_t n)
{
    return (size_t)kifu__index_digest_fnv((const unsigned char *)s, n);
}

/* The number of the name (s, n bytes), made when new. -1 out of memory. */
static long name_number(gather *g, const char *s, size_t n)
{
    if (2 * (g->nnames + 1) > g->nslots) { /* grow, and place every name again */
        size_t ns = g->nslots ? 2 * g->nslots : 64;
        uint32_t *sl = kifu__calloc(ns, sizeof *sl);
        if (!sl)
            return -1;
        for (size_t k = 0; k < g->nnames; k++) {
            size_t i = hash(g->names[k], strlen(g->names[k])) & (ns - 1);
            while (sl[i])
                i = (i + 1) & (ns - 1);
            sl[i] = (uint32_t)k + 1;
        }
        kifu__free(g->slots);
        g->slots = sl, g->nslots = ns;
    }
    size_t i = hash(s, n) & (g->nslots - 1);
    for (; g->slots[i]; i = (i + 1) & (g->nslots - 1)) {
        const char *t = g->names[g->slots[i] - 1];
        if (!strncmp(t, s, n) && !t[n])
            return g->slots[i] - 1;
    }
    char *copy = kifu__arena_strndup(&g->text, s, n);
    if (!copy ||
        kifu__reserve(&g->names, &g->capnames, g->nnames + 1, sizeof *g->names, 64))
        return -1;
    g->names[g->nnames] = copy;
    g->slots[i] = (uint32_t)g->nnames + 1;
    return (long)g->nnames++;
}

/* Does the row's game pass every tag filter as this side's? NAME: on the side (or the
 * game's); sente:NAME / gote:NAME: that, and the player was that side. */
static int passes(const gather *g, const kifu__player_row *r)
{
    for (size_t i = 0; g->o && i < g->o->ntags; i++) {
        int side, found = 0;
        const char *name = kifu_tag_spec(g->o->tags[i], &side);
        if (side >= 0 && side != r->side)
            return 0;
        size_t len = strlen(name);
        kifu__tag_item it;
        for (const char *p = r->tags; !found && (p = kifu__tag_list_next(p, &it));)
            found = (it.side == r->side || it.side == 2) && it.len == len &&
                    !memcmp(it.name, name, len);
        if (!found)
            return 0;
    }
    return 1;
}

/* The row's side's 戦法 and 囲い into g->tags. 0, or -1 out of memory. */
static int take_tags(gather *g, prow *p, const kifu__player_row *r)
{
    p->tag0 = (uint32_t)g->ntags, p->ntags = 0;
    kifu__tag_item it;
    for (const char *q = r->tags; (q = kifu__tag_list_next(q, &it));) {
        if (it.side != r->side || it.family > KIFU_TAG_CASTLE)
            continue;
        long k = name_number(g, it.name, it.len);
        if (k < 0 ||
            kifu__reserve(&g->tags, &g->captags, g->ntags + 1, sizeof *g->tags, 256))
            return -1;
        g->tags[g->ntags++] = (rtag){(uint32_t)k, (uint8_t)it.family, (uint8_t)r->side};
        p->ntags++;
    }
    return 0;
}

static int take(void *ctx, const kifu__player_row *r)
{
    gather *g = ctx;
    if ((g->key && strcmp(r->key, g->key)) || !passes(g, r))
        return 0;
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
    if (take_tags(g, p, r))
        return 1;
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
    size_t first;       /* its rows' start in the gathered rows */
    size_t tag0, ntags; /* its tags in the list's (set once that list is whole) */
} pentry;

static int by_games(const void *x, const void *y)
{
    const pentry *a = x, *b = y;
    if (a->p.games != b->p.games)
        return a->p.games < b->p.games ? 1 : -1;
    return strcmp(a->p.key, b->p.key);
}

/* The players' tags, all of them one array. */
typedef struct ptags {
    kifu_index_player_tag *v;
    size_t n, cap;
} ptags;

static int by_side_family_games(const void *x, const void *y)
{
    const kifu_index_player_tag *a = x, *b = y;
    if (a->side != b->side)
        return a->side - b->side;
    if (a->family != b->family)
        return a->family - b->family;
    if (a->games != b->games)
        return a->games < b->games ? 1 : -1;
    return strcmp(a->name, b->name);
}

/* The tags of one player's rows (r[0 .. n)) counted, and the most played of each side
 * and family appended to out: e's tag0 and ntags. 0, or -1 out of memory. */
static int player_tags(const gather *g, const prow *r, size_t n, pentry *e, ptags *out)
{
    size_t start = out->n;
    for (size_t i = 0; i < n; i++)
        for (uint32_t k = 0; k < r[i].ntags; k++) {
            const rtag *t = &g->tags[r[i].tag0 + k];
            const char *name = g->names[t->name];
            int side = t->side, family = t->family;
            size_t j = start;
            while (j < out->n && (out->v[j].name != name || out->v[j].side != side))
                j++;
            if (j == out->n) {
                if (kifu__reserve(&out->v, &out->cap, out->n + 1, sizeof *out->v, 256))
                    return -1;
                out->v[out->n++] =
                    (kifu_index_player_tag){name, family, side, 0, 0, 0, 0};
            }
            kifu_index_player_tag *c = &out->v[j];
            c->games++, c->wins += r[i].win, c->losses += r[i].loss,
                c->draws += r[i].draw;
        }
    size_t m = out->n - start, kept = 0;
    if (m)
        qsort(out->v + start, m, sizeof *out->v, by_side_family_games);
    /* The first KIFU_INDEX_PLAYER_TAGS of each side and family stay. */
    for (size_t i = 0, run = 0; i < m; i++) {
        const kifu_index_player_tag *c = &out->v[start + i];
        run = i && c->side == c[-1].side && c->family == c[-1].family ? run + 1 : 0;
        if (run < KIFU_INDEX_PLAYER_TAGS)
            out->v[start + kept++] = *c;
    }
    out->n = start + kept;
    e->tag0 = start, e->ntags = kept;
    return 0;
}

/* One player's entry from its rows r[0 .. n) (sorted by name), its names appended to
 * names. */
static void player_sum(pentry *e, const prow *r, size_t n, const char **names, size_t *nn)
{
    e->p.key = r[0].key;
    e->p.names = names + *nn;
    for (size_t j = 0; j < n; j++) {
        const prow *w = &r[j];
        if (j == 0 || strcmp(w->name, r[j - 1].name))
            names[(*nn)++] = w->name, e->p.nnames++;
        e->p.games++;
        e->p.wins += w->win, e->p.losses += w->loss, e->p.draws += w->draw;
        if (w->rating > 0) {
            if (!e->p.min_rating || w->rating < e->p.min_rating)
                e->p.min_rating = w->rating;
            if (w->rating > e->p.max_rating)
                e->p.max_rating = w->rating;
        }
        if (w->date) {
            if (!e->p.first_date[0] || strcmp(w->date, e->p.first_date) < 0)
                snprintf(e->p.first_date, sizeof e->p.first_date, "%s", w->date);
            if (strcmp(w->date, e->p.last_date) > 0)
                snprintf(e->p.last_date, sizeof e->p.last_date, "%s", w->date);
        }
    }
}

/* The players of the games whose key contains like (NULL: every game), or the player
 * whose key is key, as kifu_index_players_filtered gives them. */
static int players_of(kifu_index *ix, const char *like, const char *key,
                      const kifu_explore_options *o, kifu_index_player_fn fn, void *ctx,
                      kifu_error *err)
{
    gather g = {0};
    g.o = o && o->ntags ? o : NULL;
    g.key = key;
    kifu__arena_init(&g.text);
    pentry *ps = NULL;
    ptags pt = {0};
    const char **names = NULL;
    size_t nps = 0, capps = 0;
    int rc = key && ix->ops->player
                 ? ix->ops->player(ix, key, take, &g, err)
                 : ix->ops->players(ix, key ? key : like, take, &g, err);
    if (rc)
        goto out;
    if (g.n)
        qsort(g.v, g.n, sizeof *g.v, by_key_name);
    if (!(names = kifu__malloc((g.n ? g.n : 1) * sizeof *names)))
        goto nomem;
    /* One entry per key; its names are the distinct names of its rows (sorted). */
    size_t nn = 0;
    for (size_t i = 0, j; i < g.n; i = j) {
        for (j = i; j < g.n && !strcmp(g.v[j].key, g.v[i].key); j++)
            ;
        if (kifu__reserve(&ps, &capps, nps + 1, sizeof *ps, 64))
            goto nomem;
        pentry *e = &ps[nps++];
        memset(e, 0, sizeof *e);
        player_sum(e, &g.v[i], j - i, names, &nn);
        if (player_tags(&g, &g.v[i], j - i, e, &pt))
            goto nomem;
    }
    for (size_t i = 0; i < nps; i++) /* the tags' array is whole now */
        ps[i].p.tags = ps[i].ntags ? pt.v + ps[i].tag0 : NULL,
        ps[i].p.ntags = ps[i].ntags;
    if (nps)
        qsort(ps, nps, sizeof *ps, by_games);
    for (size_t i = 0; i < nps; i++)
        if (fn(ctx, &ps[i].p))
            break;
    goto out;
nomem:
    rc = kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
out:
    kifu__free(ps), kifu__free(names), kifu__free(g.v), kifu__free(pt.v);
    kifu__free(g.tags), kifu__free(g.names), kifu__free(g.slots);
    kifu__arena_free(&g.text);
    return rc;
}

int kifu_index_players_filtered(kifu_index *ix, const char *like,
                                const kifu_explore_options *o, kifu_index_player_fn fn,
                                void *ctx, kifu_error *err)
{
    char lkey[256];
    if (like)
        like = kifu_index_player_key(like, lkey, sizeof lkey, NULL, 0, NULL);
    return players_of(ix, like && *like ? like : NULL, NULL, o, fn, ctx, err);
}

/* kifu_index_player_named: is a player the one named (its key or a spelling is name;
 * NULL: any is), and its games; given to fn when it is (fn NULL: not yet). */
typedef struct named {
    const char *name;
    int exact;
    long long games;
    kifu_index_player_fn fn;
    void *ctx;
    int rc;
} named;

static int is_named(const kifu_index_player *p, const char *name)
{
    int exact = !name || !strcmp(p->key, name);
    for (size_t i = 0; i < p->nnames && !exact; i++)
        exact = !strcmp(p->names[i], name);
    return exact;
}

static int take_named(void *ctx, const kifu_index_player *p)
{
    named *w = ctx;
    w->games = p->games;
    w->exact = is_named(p, w->name);
    if (w->fn && w->exact)
        w->rc = w->fn(w->ctx, p);
    return 0;
}

/* The player of key given to fn (when there is one). 0, or -1 with err. */
static int give(kifu_index *ix, const char *key, kifu_index_player_fn fn, void *ctx,
                kifu_error *err)
{
    named w = {.fn = fn, .ctx = ctx};
    int rc = players_of(ix, NULL, key, NULL, take_named, &w, err);
    return rc ? rc : w.rc;
}

/* The players a like lists: the first named one's key, else how many (up to 2) and
 * the first's key. */
typedef struct matches {
    const char *name;
    int n, exact;
    char key[256];
} matches;

static int take_match(void *ctx, const kifu_index_player *p)
{
    matches *m = ctx;
    if (!m->n++ || is_named(p, m->name))
        snprintf(m->key, sizeof m->key, "%s", p->key);
    m->exact = is_named(p, m->name);
    return m->exact;
}

int kifu_index_player_named(kifu_index *ix, const char *name, kifu_index_player_fn fn,
                            void *ctx, kifu_error *err)
{
    char key[256];
    kifu_index_player_key(name, key, sizeof key, NULL, 0, NULL);
    /* A player whose spelling is name has name's key; one whose key is name is listed
     * when it contains name's key: two lookups by key, not every player read. Of two
     * named, the one listed first (the most games, then by key). */
    named other = {.name = name}, mine = {.name = name};
    int rc = 0;
    if (*key && strcmp(name, key) && strstr(name, key) &&
        (rc = players_of(ix, NULL, name, NULL, take_named, &other, err)))
        return rc;
    if (*key) {
        if (!other.exact)
            mine.fn = fn, mine.ctx = ctx;
        if ((rc = players_of(ix, NULL, key, NULL, take_named, &mine, err)))
            return rc;
        if (mine.exact && !other.exact)
            return mine.rc;
        if (mine.exact && (mine.games > other.games ||
                           (mine.games == other.games && strcmp(key, name) < 0)))
            return give(ix, key, fn, ctx, err);
        if (other.exact)
            return give(ix, name, fn, ctx, err);
    }
    /* None by those keys: every player the like lists, as kifu_index_players. */
    matches m = {.name = name};
    if ((rc = kifu_index_players(ix, name, take_match, &m, err)))
        return rc;
    return m.exact || m.n == 1 ? give(ix, m.key, fn, ctx, err) : 0;
}

int kifu_index_players(kifu_index *ix, const char *like, kifu_index_player_fn fn,
                       void *ctx, kifu_error *err)
{
    return kifu_index_players_filtered(ix, like, NULL, fn, ctx, err);
}
