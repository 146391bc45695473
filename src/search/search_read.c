/* search_read.c: kifu_search_read, the search that runs inside the normalizer. Reading a
 * record already plays every move (to check it and complete it); the search tests each
 * position as that replay reaches it, instead of replaying the record a second time. A
 * CSA game is normalized as soon as the reader finishes it, while it is in the cache, and
 * freed at once when it had no hit. The hits wait until every record of the input has
 * read, so a bad input reports no hit, as kifu_read_all followed by kifu_search_record
 * would. */
#include <string.h>

#include "fmt/fmt.h"
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
    unsigned flags;      /* the search's KIFU_SEARCH_* */
    unsigned read_flags; /* the reader's KIFU_READ_*, for the normalizer */
    const kifu_read_options *o;
    size_t game;  /* the record being normalized */
    size_t ngood; /* records normalized */
    int rc;       /* a record failed to normalize (in e): the rest are not */
    kifu_error e;
    kifu_position *p; /* replayed on, record after record */
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

/* Normalize record r (index i of the input) with the search hooked in. Records come in
 * order; after a failure the rest wait, unnormalized (the input is then an error). 1
 * when r had no hit and was freed (its memory serves the next record), else 0. */
static int normalize(void *ctx, kifu_record *r, size_t i)
{
    scan *sc = ctx;
    if (sc->rc || i != sc->ngood)
        return 0;
    size_t before = sc->n;
    sc->game = i;
    sc->rc = kifu__normalize_hooked(r, sc->read_flags, sc->o->warn, sc->o->warn_ctx,
                                    on_position, sc, &sc->p, &sc->e);
    if (!sc->rc && sc->nomem)
        sc->rc =
            kifu__error(&sc->e, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
    if (sc->rc)
        return 0;
    sc->ngood++;
    if (sc->n != before)
        return 0;
    kifu_record_free(r);
    return 1;
}

long kifu_search_read(kifu_search *s, const void *data, size_t len,
                      const kifu_read_options *opt, kifu_search_read_fn fn, void *ctx,
                      size_t *games, kifu_error *err)
{
    kifu_read_options o = {0};
    if (opt)
        o = *opt;
    scan sc = {.s = s,
               .flags = kifu__search_flags(s),
               .read_flags = o.flags & ~(unsigned)KIFU_READ_NO_NORMALIZE,
               .o = &o};
    /* The normalization is done here, with the hook; every record is normalized or freed
     * before this returns, so the records may read data in place (BORROW). */
    o.flags |= KIFU_READ_NO_NORMALIZE | KIFU_READ_BORROW;
    if (games)
        *games = 0;
    /* A reader that tells of each record as it finishes it has it normalized then,
     * while the record is in the cache; the others' records are normalized after. */
    kifu_record **rs;
    size_t n;
    if (kifu__read_all_done(data, len, &o, normalize, &sc, &rs, &n, err)) {
        kifu_position_free(sc.p);
        kifu__free(sc.v);
        return -1;
    }
    for (size_t i = sc.ngood; i < n && !sc.rc; i++)
        if (normalize(&sc, rs[i], i))
            rs[i] = NULL;
    /* As kifu_read_all: the input read, its first bad record is the error (lenient:
     * err describes it, and the search goes on). */
    if (sc.e.code && err && !err->code) {
        *err = sc.e;
        kifu__error_source(err, o.source);
    }
    long hits = -1;
    if (!sc.rc) {
        hits = report(&sc, rs, n, fn, ctx);
        if (games)
            *games = n;
    }
    for (size_t i = 0; i < n; i++)
        kifu_record_free(rs[i]);
    kifu__free(rs);
    kifu_position_free(sc.p);
    kifu__free(sc.v);
    return hits;
}
