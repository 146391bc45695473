/* search_index.c: `kifu search --index games.kdb` (or --clickhouse URL): the search answered from an index
 * (kifu_index_search) instead of the files, printed as a search of the indexed files
 * prints it: hit lines, counts (-c) and file lists (-l) per indexed file, JSON Lines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "search_index.h"

typedef struct run {
    const cli_search_index_opts *o;
    /* -c and -l: hits per file, in the order the index gives files and hits */
    char *last;
    long last_hits;
    long total;
} run;

static void hit_json(const kifu_index_hit *h)
{
    char usi[8] = "", path[16];
    if (h->next)
        kifu_move_usi(h->next, usi);
    snprintf(path, sizeof path, "%d", h->ply);
    cli_hit_json(stdout, h->source, (size_t)h->number, h->ply, path, &h->board,
                 h->next_text[0] ? h->next_text : NULL, usi);
    printf(",\"header\":%s", h->header ? h->header : "{}");
    if (h->tags) /* the index's JSON array (kifu_index_search_filtered) */
        printf(",\"tags\":%s", h->tags);
    printf("}\n");
}

static int on_hit(void *ctx, const kifu_index_hit *h)
{
    run *r = ctx;
    r->total++;
    if (!r->last || strcmp(r->last, h->source)) {
        free(r->last);
        r->last = strdup(h->source);
        r->last_hits = 0;
    }
    r->last_hits++;
    const cli_search_index_opts *o = r->o;
    if (o->quiet || o->count)
        return 0;
    if (o->list) {
        if (r->last_hits == 1) {
            cli_put_name(h->source);
            putchar('\n');
        }
        return 0;
    }
    if (o->json) {
        hit_json(h);
        return 0;
    }
    cli_put_name(h->source);
    if (h->games > 1)
        printf("#%d", h->number);
    printf(":%d: %s\n", h->ply, h->next_text[0] ? h->next_text : "(end)");
    return 0;
}

/* -c: hits per file, every indexed file (0 for those without). */
typedef struct counts {
    char **path;
    long *hits;
    size_t n, cap;
} counts;

static int count_hit(void *ctx, const kifu_index_hit *h)
{
    counts *c = ctx;
    if (!c->n || strcmp(c->path[c->n - 1], h->source)) {
        if (c->n == c->cap) {
            size_t cap = c->cap ? c->cap * 2 : 64;
            char **p = realloc(c->path, cap * sizeof *p);
            long *k = p ? realloc(c->hits, cap * sizeof *k) : NULL;
            if (p)
                c->path = p;
            if (!k)
                return 1;
            c->hits = k, c->cap = cap;
        }
        c->path[c->n] = strdup(h->source);
        c->hits[c->n++] = 0;
    }
    c->hits[c->n - 1]++;
    return 0;
}

static int print_count(void *ctx, const char *path, int games)
{
    counts *c = ctx;
    long n = 0;
    if (!games)
        return 0; /* a file none of whose games could be read: search reports it */
    for (size_t i = 0; i < c->n; i++)
        if (c->path[i] && !strcmp(c->path[i], path))
            n = c->hits[i];
    cli_put_name(path);
    printf(":%ld\n", n);
    return 0;
}

int cli_search_index(const char *kdb, kifu_search *s, const cli_search_index_opts *o)
{
    unsigned flags = 0;
    kifu_search_target(s, NULL, &flags);
    if (o->forks) {
        cli_err("kifu: an index holds main lines only: not with --forks\n");
        return EXIT_USAGE;
    }
    kifu_error e = {0};
    kifu_index *ix =
        o->ch_url ? kifu_index_open_clickhouse(o->ch_url, KIFU_INDEX_READONLY, o->cho, &e)
                  : kifu_index_open(kdb, KIFU_INDEX_READONLY, &e);
    if (!ix) {
        cli_print_error(&e);
        return cli_index_exit_code(e.code);
    }
    run r = {o, NULL, 0, 0};
    long hits;
    kifu_explore_options f = {.tags = o->tags, .ntags = o->ntags};
    /* --tag's hits carry their games' tags (--json prints them); without it the hits
     * are a search of the files' own. */
    int where = o->ntags != 0;
    if (o->count && !o->quiet) {
        counts c = {0};
        hits = where ? kifu_index_search_filtered(ix, s, &f, count_hit, &c, &e)
                     : kifu_index_search(ix, s, count_hit, &c, &e);
        if (hits >= 0 && kifu_index_each_source(ix, print_count, &c, &e))
            hits = -1;
        for (size_t i = 0; i < c.n; i++)
            free(c.path[i]);
        free(c.path), free(c.hits);
    } else {
        hits = where ? kifu_index_search_filtered(ix, s, &f, on_hit, &r, &e)
                     : kifu_index_search(ix, s, on_hit, &r, &e);
    }
    free(r.last);
    int status = EXIT_OK;
    if (hits < 0) {
        cli_print_error(&e);
        status = e.code == KIFU_ERR_NOMEM ? EXIT_INTERNAL : EXIT_IO;
    }
    kifu_index_close(ix, NULL);
    if (cli_flush_stdout())
        return EXIT_IO;
    if (status != EXIT_OK)
        return status;
    return hits ? EXIT_OK : 1;
}
