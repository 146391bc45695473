/* tags.c: naming what was played. The tags module (src/tags/) owns tag definitions (data:
 * named board patterns with conditions, tags_def.c), the shipped set compiled in from
 * shipped.tags, and their recognition over a game's main line (tags_run.c), run inside
 * the replay that reading does (kifu_tags_read) or over a normalized record. It may call
 * search (board patterns), fmt, record, notation, rules and core. */
#include <stdio.h>
#include <string.h>

#include "core/strbuf.h"
#include "fmt/fmt.h"
#include "kifu_private.h"
#include "record/record.h"
#include "rules/engine.h"
#include "rules/position.h"
#include "tags/tags.h"

/* The shipped definitions, src/tags/shipped.tags as bytes (scripts/embed.cmake). */
#include "tags_shipped.inc"

static int add_text(kifu_tagger *t, const char *text, size_t len, const char *source,
                    kifu_error *err)
{
    char **texts = kifu__realloc(t->texts, (t->ntexts + 1) * sizeof *texts);
    if (texts)
        t->texts = texts;
    char **sources =
        texts ? kifu__realloc(t->sources, (t->ntexts + 1) * sizeof *sources) : NULL;
    if (sources)
        t->sources = sources;
    if (!texts || !sources)
        return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
    char *copy = kifu__malloc(len + 1);
    char *src = kifu__strdup(source ? source : "");
    if (!copy || !src) {
        kifu__free(copy);
        kifu__free(src);
        return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
    }
    memcpy(copy, text, len);
    copy[len] = 0;
    if (memchr(text, 0, len)) {
        kifu__free(copy);
        kifu__free(src);
        return kifu__error(err, KIFU_ERR_ENCODING, 0, 0, 0, "text", "a NUL byte",
                           "tag definitions hold a NUL byte"),
               kifu__error_source(err, source), -1;
    }
    t->texts[t->ntexts] = copy;
    t->sources[t->ntexts] = src;
    t->ntexts++;
    if (kifu__tags_build(t, err) == 0)
        return 0;
    /* Back to the texts before this one, which built before. */
    t->ntexts--;
    kifu__free(t->texts[t->ntexts]);
    kifu__free(t->sources[t->ntexts]);
    kifu__tags_build(t, NULL);
    return -1;
}

kifu_tagger *kifu_tags_new(kifu_error *err)
{
    kifu_tagger *t = kifu__calloc(1, sizeof *t);
    if (!t) {
        kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
        return NULL;
    }
    const char *text = (const char *)tags_shipped;
    if (add_text(t, text, strlen(text), "shipped.tags", err)) {
        kifu_tags_free(t);
        return NULL;
    }
    return t;
}

int kifu_tags_add(kifu_tagger *t, const char *text, size_t len, const char *source,
                  kifu_error *err)
{
    if (!t || (!text && len))
        return kifu__error(err, KIFU_ERR_ARG, 0, 0, 0, NULL, NULL, "no tagger or text");
    return add_text(t, text ? text : "", len, source, err);
}

void kifu_tags_free(kifu_tagger *t)
{
    if (!t)
        return;
    kifu__tags_clear(t);
    for (size_t i = 0; i < t->ntexts; i++) {
        kifu__free(t->texts[i]);
        kifu__free(t->sources[i]);
    }
    kifu__free(t->texts);
    kifu__free(t->sources);
    kifu__free(t);
}

size_t kifu_tags_count(const kifu_tagger *t)
{
    return t ? t->nnames : 0;
}

int kifu_tags_at(const kifu_tagger *t, size_t i, const char **name, int *family)
{
    if (!t || i >= t->nnames)
        return -1;
    if (name)
        *name = t->names[i];
    if (family)
        *family = t->family[i];
    return 0;
}

int kifu_tags_record(kifu_tagger *t, const kifu_record *r, kifu_tag **out, size_t *count,
                     kifu_error *err)
{
    *out = NULL;
    *count = 0;
    kifu__tagrun *run = kifu__tagrun_start(t);
    if (!run)
        return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
    kifu_board b;
    kifu_record_initial(r, &b);
    kifu_position *p = kifu_position_new();
    if (!p)
        return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
    if (kifu_position_set_board(p, &b, err)) {
        kifu_position_free(p);
        return -1;
    }
    int stop = kifu__tagrun_position(run, NULL, 0, &b);
    for (const kifu_node *n = kifu__first(kifu_record_root(r)); n && !stop;
         n = kifu__first(n)) {
        if (n->kind != KIFU_NODE_MOVE)
            break;
        if (kifu__position_play_node(p, n, err)) {
            kifu_position_free(p);
            return -1;
        }
        kifu_move m;
        kifu__move_get(n, &m);
        kifu_position_board(p, &b);
        stop = kifu__tagrun_position(run, &m, n->ply, &b);
    }
    kifu_position_free(p);
    if (kifu__tagrun_finish(run, out, count))
        return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
    return 0;
}

/* ---- Tagging while normalizing ---------------------------------------------------- */

typedef struct hooked {
    kifu__tagrun *run;
    int stop; /* the run needs no more positions of this record */
} hooked;

static int on_position(void *ctx, const kifu_node *n, const kifu_position *p,
                       int main_line)
{
    hooked *h = ctx;
    if (!main_line || h->stop)
        return 1;
    if (n->kind != KIFU_NODE_MOVE) {
        kifu_board b;
        kifu_position_board(p, &b);
        h->stop = kifu__tagrun_position(h->run, NULL, 0, &b);
        return h->stop;
    }
    /* A move: its squares read from the node as packed (kifu__move_get's fields: side
     * bit 0, from 1-7 and to 8-14 as x * 10 + y, capture 19-22), the position's squares
     * and hands read in place. */
    const struct kpos *k = kifu__position_kpos(p);
    uint64_t v = n->mv;
    int from = kifu__mv_sq[(v >> 1) & 127], to = kifu__mv_sq[(v >> 8) & 127];
    h->stop = kifu__tagrun_move(h->run, (int)(v & 1), from < 0 ? -1 : from,
                                to < 0 ? -1 : to, (int)((v >> 19) & 15), (int)n->ply,
                                k->board, &k->hand[0][0], k->side);
    return h->stop;
}

int kifu__tags_normalize_keep(kifu_tagger *t, kifu_record *r, unsigned flags,
                              void (*warn)(void *, const char *), void *warn_ctx,
                              kifu_position **keep, kifu_tag **out, size_t *count,
                              kifu_error *err)
{
    *out = NULL;
    *count = 0;
    hooked h = {kifu__tagrun_start(t), 0};
    if (!h.run)
        return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
    if (kifu__normalize_hooked(r, flags, warn, warn_ctx, on_position, &h, keep, err))
        return -1;
    if (kifu__tagrun_finish(h.run, out, count))
        return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
    return 0;
}

int kifu_tags_normalize(kifu_tagger *t, kifu_record *r, unsigned flags,
                        void (*warn)(void *, const char *), void *warn_ctx,
                        kifu_tag **out, size_t *count, kifu_error *err)
{
    return kifu__tags_normalize_keep(t, r, flags, warn, warn_ctx, NULL, out, count, err);
}

/* The header keys of a side and family, as KIF exports write them ("先手の" +
 * kifu_tag_family_name), spelled out: they are looked for in every header. */
static const char *const header_keys[2][3] = {{"先手の戦法", "先手の囲い", "先手の備考"},
                                              {"後手の戦法", "後手の囲い", "後手の備考"}};

const char *kifu_tag_spec(const char *spec, int *side)
{
    /* The sides as the CLI and the header keys name them. */
    static const struct {
        const char *word;
        int side;
    } sides[] = {{"sente:", KIFU_BLACK}, {"gote:", KIFU_WHITE},  {"先手:", KIFU_BLACK},
                 {"後手:", KIFU_WHITE},  {"black:", KIFU_BLACK}, {"white:", KIFU_WHITE}};
    *side = -1;
    if (!spec)
        return NULL;
    for (size_t i = 0; i < sizeof sides / sizeof *sides; i++) {
        size_t n = strlen(sides[i].word);
        if (!strncmp(spec, sides[i].word, n)) {
            *side = sides[i].side;
            return spec + n;
        }
    }
    return spec;
}

int kifu_tags_to_header(kifu_record *r, const kifu_tag *tags, size_t count, int replace)
{
    if (replace) {
        /* Every stale key goes, whether or not the new tags have that family. */
        size_t k = 0;
        for (size_t i = 0; i < r->nheader; i++) {
            /* Only a key with a side's prefix ("先手の", "後手の": 9 bytes) can be one. */
            const char *key = r->header[i].key;
            int stale = 0;
            for (int s = 0; s < 2 && !stale; s++)
                for (int f = 0; f < 3 && !stale && !strncmp(key, header_keys[s][0], 9);
                     f++)
                    stale = strcmp(key + 9, header_keys[s][f] + 9) == 0;
            if (!stale)
                r->header[k++] = r->header[i];
        }
        r->nheader = k;
    }
    kifu__strbuf v;
    kifu__sb_init(&v);
    int rc = 0;
    for (int s = 0; s < 2 && !rc; s++)
        for (int f = 0; f < 3 && !rc; f++) {
            const char *key = header_keys[s][f];
            if (kifu_record_header_get(r, key))
                continue; /* the record's own, kept unless replace */
            v.len = 0;
            /* The side's own tags, then (備考) the game's, as exports list them. */
            for (int pass = 0; pass < 2; pass++)
                for (size_t i = 0; i < count; i++)
                    if (tags[i].family == f && tags[i].side == (pass ? -1 : s)) {
                        if (v.len)
                            kifu__sb_puts(&v, ", ");
                        kifu__sb_puts(&v, tags[i].name);
                    }
            if (!v.len)
                continue;
            kifu__sb_putc(&v, 0);
            if (v.failed || kifu_record_header_add(r, key, v.data))
                rc = -1;
        }
    kifu__sb_free(&v);
    return rc;
}

/* ---- Tagging while reading ---------------------------------------------------------- */

typedef struct scan {
    kifu_tagger *t;
    unsigned read_flags;
    const kifu_read_options *o;
    size_t ngood;
    int rc;
    kifu_error e;
    kifu_position *p;
    struct game_tags {
        kifu_tag *v;
        size_t n;
    } * tags;
    size_t cap;
    int nomem;
} scan;

static int normalize(void *ctx, kifu_record *r, size_t i)
{
    scan *sc = ctx;
    if (sc->rc || i != sc->ngood)
        return 0;
    if (kifu__reserve(&sc->tags, &sc->cap, i + 1, sizeof *sc->tags, 16)) {
        sc->nomem = 1;
        sc->rc = -1;
        return 0;
    }
    sc->tags[i].v = NULL;
    sc->tags[i].n = 0;
    sc->rc =
        kifu__tags_normalize_keep(sc->t, r, sc->read_flags, sc->o->warn, sc->o->warn_ctx,
                                  &sc->p, &sc->tags[i].v, &sc->tags[i].n, &sc->e);
    if (sc->rc)
        return 0;
    sc->ngood++;
    return 0;
}

int kifu_tags_read(kifu_tagger *t, const void *data, size_t len,
                   const kifu_read_options *opt, kifu_tags_read_fn fn, void *ctx,
                   kifu_error *err)
{
    kifu_read_options o = {0};
    if (opt)
        o = *opt;
    scan sc = {
        .t = t, .read_flags = o.flags & ~(unsigned)KIFU_READ_NO_NORMALIZE, .o = &o};
    kifu_error_clear(&sc.e);
    o.flags |= KIFU_READ_NO_NORMALIZE;
    kifu_record **rs = NULL;
    size_t n = 0;
    int rc = kifu__read_all_done(data, len, &o, normalize, &sc, &rs, &n, err);
    for (size_t i = sc.ngood; !rc && i < n && !sc.rc; i++)
        normalize(&sc, rs[i], i);
    if (!rc && sc.nomem)
        rc = kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
    else if (!rc && sc.rc) {
        if (err && !err->code) {
            *err = sc.e;
            kifu__error_source(err, o.source);
        }
        rc = -1;
    }
    for (size_t i = 0; !rc && i < n; i++)
        if (fn && fn(ctx, rs[i], i, n, sc.tags[i].v, sc.tags[i].n))
            break;
    for (size_t i = 0; i < n; i++)
        kifu_record_free(rs[i]);
    kifu__free(rs);
    for (size_t i = 0; i < sc.ngood; i++)
        kifu__free(sc.tags[i].v);
    kifu__free(sc.tags);
    kifu_position_free(sc.p);
    return rc;
}
