/* clickhouse_search.c: kifu_index_search on ClickHouse. The games table holds what the
 * SQLite index's does (moves, ending, header), so search reads the game rows, for a
 * position only those whose positions carry its key, and replays each with the SQLite
 * index's code (kifu__index_search_game): the hits and their text are the same.
 *
 * Order: the SQLite index answers by file, then game number, files in the order they
 * were indexed. Here a file is ranked by its first game id (as kifu__ch_each_source
 * lists them), and the rows are sorted by rank and number in memory: ClickHouse 18.16
 * cannot join a Distributed table to a grouped one of itself reliably, and the answer
 * is in memory anyway. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "index/clickhouse.h"
#include "index/index_private.h"
#include "kifu_private.h"

/* A file: its path, games and rank in the order of kifu__ch_each_source. */
typedef struct source {
    char *path;
    int games;
    size_t rank;
} source;

typedef struct sources {
    source *v;
    size_t n, cap;
    int failed;
} sources;

/* A game row of the answer: where its line starts, for sorting. */
typedef struct row {
    size_t rank;
    int number;
    const char *line;
} row;

static int nomem(kifu_error *err)
{
    return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
}

static int add_source(void *ctx, const char *path, int games)
{
    sources *s = ctx;
    char *p = kifu__strdup(path);
    if (!p || kifu__reserve(&s->v, &s->cap, s->n + 1, sizeof *s->v, 64)) {
        kifu__free(p);
        s->failed = 1;
        return 1;
    }
    s->v[s->n] = (source){p, games, s->n};
    s->n++;
    return 0;
}

static int by_path(const void *x, const void *y)
{
    return strcmp(((const source *)x)->path, ((const source *)y)->path);
}

static int by_rank(const void *x, const void *y)
{
    const row *a = x, *b = y;
    if (a->rank != b->rank)
        return a->rank < b->rank ? -1 : 1;
    return (a->number > b->number) - (a->number < b->number);
}

/* The source of path (sorted by path), or NULL. */
static const source *source_of(const sources *s, const char *path)
{
    source k = {(char *)path, 0, 0};
    return s->n ? bsearch(&k, s->v, s->n, sizeof k, by_path) : NULL;
}

/* The fields of one line: number, handicap, start, moves, ending, header, the tag list
 * (when tags is not NULL), path. The strings go into buf (as long as the line, so nothing
 * is cut); moves into *moves. */
static int parse_row(const char *p, char *buf, size_t cap, uint16_t **moves,
                     size_t *capmoves, kifu__index_game *g, const char **tags,
                     const char **path)
{
    g->number = atoi(p);
    p += strcspn(p, "\t");
    p += *p == '\t';
    char *f = buf;
    const char **text[2] = {&g->handicap, &g->start};
    for (int i = 0; i < 2; i++) {
        *text[i] = kifu__ch_field(&p, f, cap - (size_t)(f - buf)) ? NULL : f;
        f += strlen(f) + 1;
    }
    /* moves: [m,m,...] */
    g->nmoves = 0;
    p += *p == '[';
    while (*p && *p != ']') {
        if (kifu__reserve(moves, capmoves, (size_t)g->nmoves + 1, sizeof **moves, 256))
            return -1;
        (*moves)[g->nmoves++] = (uint16_t)strtoul(p, (char **)&p, 10);
        p += *p == ',';
    }
    p += *p == ']';
    p += *p == '\t';
    g->moves = *moves;
    const char **rest[4] = {&g->ending, &g->header, tags ? tags : path, path};
    for (int i = 0; i < 3 + (tags != NULL); i++) {
        *rest[i] = kifu__ch_field(&p, f, cap - (size_t)(f - buf)) ? NULL : f;
        f += strlen(f) + 1;
    }
    return 0;
}

long kifu__ch_search(kifu_index *ix, kifu_search *s, unsigned flags, int nkeys,
                     const uint64_t *keys, kifu_index_hit_fn fn, void *ctx,
                     kifu_error *err)
{
    return kifu__ch_search_where(ix, s, flags, nkeys, keys, NULL, fn, ctx, err);
}

long kifu__ch_search_where(kifu_index *ix, kifu_search *s, unsigned flags, int nkeys,
                           const uint64_t *keys, const kifu_explore_options *o,
                           kifu_index_hit_fn fn, void *ctx, kifu_error *err)
{
    kifu__ch *ch = ix->ch;
    sources src = {0};
    row *rows = NULL;
    size_t nrows = 0, caprows = 0;
    uint16_t *moves = NULL;
    size_t capmoves = 0;
    char *buf = NULL;
    kifu__strbuf sql, out, tags;
    kifu__sb_init(&sql), kifu__sb_init(&out), kifu__sb_init(&tags);
    long hits = -1;
    if (kifu__ch_each_source(ix, add_source, &src, err))
        goto done;
    if (src.failed) {
        nomem(err);
        goto done;
    }
    if (src.n)
        qsort(src.v, src.n, sizeof *src.v, by_path);
    /* With o, each game's tags too (before the path, which ends the line). */
    kifu__sb_printf(&sql,
                    "SELECT number, handicap, start, moves, ending, header, %spath FROM ",
                    o ? KIFU__CH_TAG_LIST ", " : "");
    kifu__ch_name(ch, &sql, "games", 0);
    kifu__sb_puts(&sql, " WHERE id ");
    kifu__ch_hidden(ch, &sql, 0, 1);
    kifu__ch_tag_where(&sql, o, 0);
    if (nkeys) {
        kifu__sb_puts(&sql, " AND id GLOBAL IN (SELECT game FROM ");
        kifu__ch_name(ch, &sql, "positions", 0);
        kifu__sb_printf(&sql, " WHERE key IN (%llu, %llu))", (unsigned long long)keys[0],
                        (unsigned long long)keys[nkeys > 1]);
    }
    kifu__sb_puts(&sql, " FORMAT TabSeparated");
    if (sql.failed) {
        nomem(err);
        goto done;
    }
    if (kifu__ch_sql(ch, &ch->servers[0], sql.data, &out, err)) {
        kifu__ch_name_down(ch, err);
        goto done;
    }
    if (out.failed) {
        nomem(err);
        goto done;
    }
    /* Rank the rows by file and number; the path is the last field of a line. */
    size_t longest = 0;
    for (const char *p = out.data; p && *p;) {
        size_t len = strcspn(p, "\n");
        const char *tab = p + len;
        while (tab > p && tab[-1] != '\t')
            tab--;
        char *path = kifu__malloc(len + 1);
        if (!path || kifu__reserve(&rows, &caprows, nrows + 1, sizeof *rows, 256)) {
            kifu__free(path);
            nomem(err);
            goto done;
        }
        const char *q = tab;
        kifu__ch_field(&q, path, len + 1);
        const source *so = source_of(&src, path);
        kifu__free(path);
        rows[nrows++] = (row){so ? so->rank : src.n, atoi(p), p};
        if (len > longest)
            longest = len;
        p += len;
        p += *p == '\n';
    }
    if (nrows) /* qsort wants an array, even of none */
        qsort(rows, nrows, sizeof *rows, by_rank);
    /* Each string of a line unescaped is no longer than the line, 8 of them at most. */
    if (nrows && !(buf = kifu__malloc(longest + 8))) {
        nomem(err);
        goto done;
    }
    hits = 0;
    for (size_t i = 0; i < nrows; i++) {
        kifu__index_game g = {0};
        const char *path, *list = NULL;
        if (parse_row(rows[i].line, buf, longest + 8, &moves, &capmoves, &g,
                      o ? &list : NULL, &path)) {
            hits = nomem(err);
            break;
        }
        if (o) { /* the hit's tags as the SQLite index gives them */
            tags.len = 0;
            kifu__tag_list_json(&tags, list);
            if (tags.failed) {
                hits = nomem(err);
                break;
            }
            g.tags = tags.data;
        }
        const source *so = path ? source_of(&src, path) : NULL;
        g.source = so ? so->path : "";
        g.games = so ? so->games : 0;
        hits += kifu__index_search_game(s, flags, &g, fn, ctx);
    }
done:
    for (size_t i = 0; i < src.n; i++)
        kifu__free(src.v[i].path);
    kifu__free(src.v), kifu__free(rows), kifu__free(moves), kifu__free(buf);
    kifu__sb_free(&sql), kifu__sb_free(&out), kifu__sb_free(&tags);
    return hits;
}
