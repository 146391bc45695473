/* search_read.c: kifu_search_read, the search that runs inside the normalizer. Reading a
 * record already plays every move (to check it and complete it); the search tests each
 * position as that replay reaches it, instead of replaying the record a second time. The
 * hits wait until every record of the input has read, so a bad input reports no hit,
 * as kifu_read_all followed by kifu_search_record would. */
#include <string.h>

#include "kifu_private.h"
#include "record/record.h"
#include "rules/engine.h"
#include "search/search.h"

/* A hit kept until the input has read. */
typedef struct found {
    const kifu_node *node;
    size_t game;
    kifu_board board;
} found;

typedef struct scan {
    kifu_search *s;
    unsigned flags; /* the search's KIFU_SEARCH_* */
    size_t game;    /* the record being normalized */
    found *v;
    size_t n, cap;
    int nomem;
} scan;

/* The normalizer's hook: test the position at node n. */
static int on_position(void *ctx, const kifu_node *n, const kifu_position *p,
                       int main_line)
{
    scan *sc = ctx;
    if (!main_line && !(sc->flags & KIFU_SEARCH_FORKS))
        return 1; /* the main line is over: nothing more to test in this record */
    kifu_board b;
    if (!kifu__search_test(sc->s, n, kifu__position_kpos(p), &b))
        return 0;
    if (kifu__reserve(&sc->v, &sc->cap, sc->n + 1, sizeof *sc->v, 64)) {
        sc->nomem = 1;
        return 1;
    }
    found *f = &sc->v[sc->n++];
    f->node = n;
    f->game = sc->game;
    f->board = b;
    return (sc->flags & KIFU_SEARCH_FIRST) != 0;
}

/* Call fn per hit kept, record by record; the number of hits reported. */
static long report(const scan *sc, kifu_record **rs, size_t games, kifu_search_read_fn fn,
                   void *ctx)
{
    long hits = 0;
    for (size_t k = 0; k < sc->n;) {
        size_t g = sc->v[k].game;
        int stop = 0;
        for (; k < sc->n && sc->v[k].game == g; k++) {
            if (stop)
                continue;
            kifu_search_hit h;
            h.node = sc->v[k].node;
            h.ply = kifu_node_ply(h.node);
            h.board = sc->v[k].board;
            hits++;
            stop = fn && fn(ctx, rs[g], g, games, &h);
        }
    }
    return hits;
}

long kifu_search_read(kifu_search *s, const void *data, size_t len,
                      const kifu_read_options *opt, kifu_search_read_fn fn, void *ctx,
                      size_t *games, kifu_error *err)
{
    kifu_read_options o = {0};
    if (opt)
        o = *opt;
    unsigned flags = o.flags & ~(unsigned)KIFU_READ_NO_NORMALIZE;
    o.flags |= KIFU_READ_NO_NORMALIZE; /* the normalization is done here, with the hook */
    if (games)
        *games = 0;
    kifu_record **rs;
    size_t n;
    if (kifu_read_all(data, len, &o, &rs, &n, err))
        return -1;
    scan sc = {.s = s, .flags = kifu__search_flags(s)};
    int rc = 0;
    for (size_t i = 0; i < n && !rc; i++) {
        sc.game = i;
        rc = kifu__normalize_hooked(rs[i], flags, o.warn, o.warn_ctx, on_position, &sc,
                                    err);
        if (!rc && sc.nomem)
            rc = kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
    }
    long hits = -1;
    if (rc) {
        kifu__error_source(err, o.source);
    } else {
        hits = report(&sc, rs, n, fn, ctx);
        if (games)
            *games = n;
    }
    for (size_t i = 0; i < n; i++)
        kifu_record_free(rs[i]);
    kifu__free(rs);
    kifu__free(sc.v);
    return hits;
}
