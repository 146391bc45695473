/* index_dups.c: each game once. A club archive filed under two folders, a copy of a file,
 * the same game in KIF and in CSA: the same game, added again, would count twice in the
 * explorer. A game is told by its identity: its start, its main line, its players' keys
 * and its date, hashed to 64 bits; an add loads the identities of the indexed games once
 * (backend op idents) and skips a game whose identity is there already. */
#include <stdlib.h>
#include <string.h>

#include "index/index_private.h"
#include "kifu_private.h"

/* Open addressing on the identity; ident 0 marks an empty slot (an identity of 0 is
 * stored as 1). */
typedef struct kifu__dupset {
    uint64_t *ident;
    uint32_t *game;
    size_t n, cap; /* cap: a power of two */
} kifu__dupset;

static uint64_t mix(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3u;
    return h;
}

uint64_t kifu__index_ident(const kifu__igame *g)
{
    uint64_t h = 0xcbf29ce484222325u;
    /* No 手合割 (-1) is 平手, as the games row says. */
    int hc = g->handicap < 0 ? KIFU_PRESET_HIRATE : g->handicap;
    h = mix(h, &hc, sizeof hc);
    /* Each string with its NUL, so that ("ab", "c") is not ("a", "bc"). */
    const char *s[4] = {g->start, g->sente_key, g->gote_key, g->date};
    for (int i = 0; i < 4; i++)
        h = mix(h, s[i] ? s[i] : "", s[i] ? strlen(s[i]) + 1 : 1);
    h = mix(h, g->moves, g->nmoves * sizeof *g->moves);
    return h ? h : 1;
}

static int grow(kifu__dupset *d)
{
    size_t cap = d->cap ? d->cap * 2 : 1024;
    uint64_t *id = kifu__calloc(cap, sizeof *id);
    uint32_t *gm = kifu__calloc(cap, sizeof *gm);
    if (!id || !gm) {
        kifu__free(id), kifu__free(gm);
        return -1;
    }
    for (size_t i = 0; i < d->cap; i++) {
        if (!d->ident[i])
            continue;
        size_t j = d->ident[i] & (cap - 1);
        while (id[j])
            j = (j + 1) & (cap - 1);
        id[j] = d->ident[i], gm[j] = d->game[i];
    }
    kifu__free(d->ident), kifu__free(d->game);
    d->ident = id, d->game = gm, d->cap = cap;
    return 0;
}

/* 1: there already; 0: put in; -1: NOMEM. */
static int put(kifu__dupset *d, uint64_t ident, uint32_t game)
{
    if ((d->n + 1) * 2 > d->cap && grow(d))
        return -1;
    size_t j = ident & (d->cap - 1);
    for (; d->ident[j]; j = (j + 1) & (d->cap - 1))
        if (d->ident[j] == ident)
            return 1;
    d->ident[j] = ident, d->game[j] = game;
    d->n++;
    return 0;
}

static int load_one(void *ctx, uint64_t ident, uint32_t game)
{
    return put(ctx, ident ? ident : 1, game) < 0;
}

int kifu__dups_load(kifu_index *ix, kifu_error *err)
{
    if (ix->dups || ix->keep_dups)
        return 0;
    if (!(ix->dups = kifu__calloc(1, sizeof *ix->dups)))
        return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
    if (ix->ops->idents(ix, load_one, ix->dups, err)) {
        kifu__dups_free(ix);
        return -1;
    }
    return 0;
}

int kifu__dups_check(kifu_index *ix, uint64_t ident, uint32_t game, kifu_error *err)
{
    if (!ix->dups && kifu__dups_load(ix, err))
        return -1;
    int rc = put(ix->dups, ident, game);
    if (rc < 0)
        return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
    return rc;
}

/* (kifu__cmp_u32's order, written here: index_build.c calls this file.) */
static int cmp_u32(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return a < b ? -1 : a > b;
}

void kifu__dups_forget(kifu_index *ix, const uint32_t *games, size_t n)
{
    kifu__dupset *d = ix->dups;
    if (!d || !n)
        return;
    /* Taken out, then the rest put back: a gap would cut the probe runs after it. */
    size_t cap = d->cap;
    uint64_t *id = d->ident;
    uint32_t *gm = d->game;
    d->ident = kifu__calloc(cap, sizeof *id), d->game = kifu__calloc(cap, sizeof *gm);
    d->n = 0;
    if (!d->ident || !d->game) { /* no memory: forget the set, loaded again later */
        kifu__free(id), kifu__free(gm);
        kifu__dups_free(ix);
        return;
    }
    for (size_t i = 0; i < cap; i++)
        if (id[i] && !bsearch(&gm[i], games, n, sizeof *games, cmp_u32))
            put(d, id[i], gm[i]);
    kifu__free(id), kifu__free(gm);
}

void kifu__dups_free(kifu_index *ix)
{
    if (!ix->dups)
        return;
    kifu__free(ix->dups->ident), kifu__free(ix->dups->game);
    kifu__free(ix->dups);
    ix->dups = NULL;
}
