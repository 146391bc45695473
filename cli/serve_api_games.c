/* serve_api_games.c: /api/games, the indexed games that start from the standard
 * position (the index's position search of the start: its games and headers), paged,
 * with player (and color) as the header names them, in the order files were indexed or
 * sorted by a header field (sort=date, sente, gote, event; -date for the latest first);
 * and
 * /api/players?player=NAME, a player's results as sente and as gote (the explorer's
 * counts at the start with the player filter). The public index API lists no games by
 * themselves, so a handicap game is reached through /api/search instead. */
#include <stdlib.h>
#include <string.h>

#include "serve.h"

/* A game kept for sorting: its key is the header field's JSON text ("" if none). */
typedef struct kept {
    char *source, *header, *key, *tags;
    int number;
    size_t order;
} kept;

enum { MAX_SORTED = 200000 };

typedef struct games_page {
    FILE *f;
    long offset, limit, seen;
    char *name; /* player=NAME as a JSON string ("\"NAME\""), or NULL */
    int color;  /* 0 either, 1 sente, 2 gote */
    const char *const
        *sort_keys; /* header keys to sort by (the first present), or NULL */
    kept *kept;
    size_t nkept, cap;
    int nomem, too_many;
} games_page;

static const struct {
    const char *name;
    const char *keys[4];
} sorts[] = {
    {"date", {"開始日時", "対局日", "終了日時", NULL}},
    {"sente", {"先手", "下手", NULL}},
    {"gote", {"後手", "上手", NULL}},
    {"event", {"棋戦", NULL}},
};

/* The JSON text of the first of keys' string values in the header, or "" (new). */
static char *field(const char *header, const char *const *keys)
{
    for (; *keys; keys++) {
        char pat[64];
        snprintf(pat, sizeof pat, "\"%s\":\"", *keys);
        const char *at = strstr(header, pat);
        if (!at)
            continue;
        at += strlen(pat);
        const char *end = at;
        while (*end && *end != '"')
            end += *end == '\\' && end[1] ? 2 : 1;
        return strndup(at, (size_t)(end - at));
    }
    return strdup("");
}

static int by_key(const void *a, const void *b)
{
    const kept *x = a, *y = b;
    int c = strcmp(x->key, y->key);
    return c ? c : x->order < y->order ? -1 : 1;
}

static int keep(games_page *g, const kifu_index_hit *h)
{
    if (g->nkept == MAX_SORTED) {
        g->too_many = 1;
        return 1;
    }
    if (g->nkept == g->cap) {
        size_t cap = g->cap ? g->cap * 2 : 256;
        kept *k = realloc(g->kept, cap * sizeof *k);
        if (!k) {
            g->nomem = 1;
            return 1;
        }
        g->kept = k, g->cap = cap;
    }
    kept *k = &g->kept[g->nkept];
    const char *header = h->header && *h->header ? h->header : "{}";
    k->source = strdup(h->source), k->header = strdup(header);
    k->key = field(header, g->sort_keys);
    k->tags = strdup(h->tags ? h->tags : "[]");
    k->number = h->number, k->order = g->nkept;
    if (!k->source || !k->header || !k->key || !k->tags) {
        free(k->source), free(k->header), free(k->key), free(k->tags);
        g->nomem = 1;
        return 1;
    }
    g->nkept++;
    return 1;
}

static void put_game(games_page *g, const char *source, int number, const char *header,
                     const char *tags, int first)
{
    fprintf(g->f, "%s{\"file\":", first ? "" : ",");
    cli_json_fstring(g->f, source);
    /* The header and the tags are the index's own JSON (index_build.c, index_search.c). */
    fprintf(g->f, ",\"game\":%d,\"header\":%s,\"tags\":%s}", number, header,
            tags && *tags ? tags : "[]");
}

/* Does the header (a JSON object of the record's own keys) name the player on the side?
 * Sente is 先手 (下手 in a handicap game), gote 後手 (上手), as records write them. */
static int plays(const char *header, const char *name, int color)
{
    static const char *const keys[2][2] = {{"\"先手\":", "\"下手\":"},
                                           {"\"後手\":", "\"上手\":"}};
    size_t n = strlen(name);
    for (int side = 0; side < 2; side++) {
        if (color && color != side + 1)
            continue;
        for (int k = 0; k < 2; k++) {
            const char *at = strstr(header, keys[side][k]);
            if (at && !strncmp(at + strlen(keys[side][k]), name, n))
                return 1;
        }
    }
    return 0;
}

static int one_game(void *ctx, const kifu_index_hit *h)
{
    games_page *g = ctx;
    if (h->ply != 0)
        return 1;
    if (g->name && !plays(h->header ? h->header : "", g->name, g->color))
        return 1;
    if (g->sort_keys)
        return keep(g, h);
    if (g->seen >= g->offset && g->seen < g->offset + g->limit)
        put_game(g, h->source, h->number, h->header && *h->header ? h->header : "{}",
                 h->tags, g->seen == g->offset);
    g->seen++;
    return 1;
}

/* The sorted games' page, then the kept games freed. */
static void put_sorted(games_page *g, int descending)
{
    if (!g->nomem && !g->too_many) {
        if (g->nkept)
            qsort(g->kept, g->nkept, sizeof *g->kept, by_key);
        for (long i = g->offset; i < g->offset + g->limit && (size_t)i < g->nkept; i++) {
            const kept *k = &g->kept[descending ? g->nkept - 1 - (size_t)i : (size_t)i];
            put_game(g, k->source, k->number, k->header, k->tags, i == g->offset);
        }
        g->seen = (long)g->nkept;
    }
    for (size_t i = 0; i < g->nkept; i++)
        free(g->kept[i].source), free(g->kept[i].header), free(g->kept[i].key),
            free(g->kept[i].tags);
    free(g->kept);
}

static const char *const games_params[] = {"limit", "offset", "player", "color",
                                           "sort",  "tag",    NULL};

/* The games' search with their tags, and the tag filter (an index that keeps no tags,
 * ClickHouse's: the plain search, and a tag filter is an error). */
static long search_games(kifu_index *ix, kifu_search *s, const kifu_explore_options *tf,
                         games_page *g, kifu_error *e)
{
    long n = kifu_index_search_filtered(ix, s, tf, one_game, g, e);
    if (n < 0 && e->code == KIFU_ERR_UNSUPPORTED && !tf->ntags) {
        kifu_error_clear(e);
        n = kifu_index_search(ix, s, one_game, g, e);
    }
    return n;
}

void serve_api_games(const serve_config *c, const serve_request *q, serve_response *r)
{
    serve_stamp stamp;
    games_page g = {0};
    kifu_explore_options tf = {0};
    if (serve_check_params(q, games_params, r) || serve_tags(q, &tf, r) ||
        serve_number(q, "limit", 1, 500, 50, &g.limit, r) ||
        serve_number(q, "offset", 0, 100000000, 0, &g.offset, r))
        return;
    const char *player = serve_get(q, "player"), *color = serve_get(q, "color");
    if (color) {
        g.color = !strcmp(color, "sente") ? 1 : !strcmp(color, "gote") ? 2 : -1;
        if (g.color < 0 || !player) {
            serve_error(r, 400, "color takes sente or gote, with player");
            return;
        }
    }
    const char *sort = serve_get(q, "sort");
    int descending = sort && *sort == '-';
    if (sort && strcmp(sort, "file")) {
        for (size_t i = 0; i < sizeof sorts / sizeof sorts[0]; i++)
            if (!strcmp(sort + descending, sorts[i].name))
                g.sort_keys = sorts[i].keys;
        if (!g.sort_keys) {
            serve_error(r, 400,
                        "sort takes file, date, sente, gote or event (-date: "
                        "the latest first), not '%s'",
                        sort);
            return;
        }
    }
    char *nbuf = NULL;
    size_t nlen;
    if (player && *player) {
        FILE *nf = serve_begin(&nbuf, &nlen);
        if (!nf) {
            serve_error(r, 500, "out of memory");
            return;
        }
        cli_json_fstring(nf, player);
        fclose(nf);
        g.name = nbuf;
    }
    kifu_position *p = kifu_position_new();
    kifu_search *s = NULL;
    kifu_index *ix = NULL;
    kifu_error e = {0};
    char *buf;
    size_t len;
    if (p && !kifu_position_set_sfen(p, "startpos", &e)) {
        kifu_board b;
        kifu_position_board(p, &b);
        s = kifu_search_position(&b, 0, &e);
    }
    if (!s)
        serve_error(r, 500, "games: %s", e.message);
    else if ((ix = serve_open(c, r, &stamp)) && (g.f = serve_begin(&buf, &len))) {
        fprintf(g.f, "{\"games\":[");
        long n = search_games(ix, s, &tf, &g, &e);
        if (g.sort_keys)
            put_sorted(&g, descending);
        fprintf(g.f, "],\"total\":%ld,\"offset\":%ld,\"limit\":%ld}\n", g.seen, g.offset,
                g.limit);
        serve_end(r, g.f, &buf, &len);
        if (n < 0)
            serve_error(r, 503, "games: %s", e.message);
        else if (g.nomem)
            serve_error(r, 500, "games: out of memory");
        else if (g.too_many)
            serve_error(r, 400, "more than %d games to sort: filter by player first",
                        MAX_SORTED);
    }
    serve_close(ix, &stamp);
    kifu_search_free(s);
    kifu_position_free(p);
    free(nbuf);
}

static const char *const player_params[] = {"player", "since", "until", "event", NULL};

/* Results at the start for one side of the player: wins, losses, draws, unfinished. */
static int side_results(kifu_index *ix, const kifu_position *p, kifu_explore_options *o,
                        int color, FILE *f, kifu_error *e)
{
    o->player_color = color;
    kifu_explore *x = kifu_index_explore(ix, p, o, e);
    if (!x)
        return -1;
    long long sw = 0, gw = 0, dr = 0, un = 0;
    for (size_t i = 0; i < kifu_explore_count(x); i++) {
        const kifu_explore_move *m = kifu_explore_move_at(x, i);
        sw += m->sente_wins, gw += m->gote_wins, un += m->unknown;
        dr += m->sennichite + m->jishogi + m->draws;
    }
    fprintf(f,
            "\"%s\":{\"games\":%lld,\"wins\":%lld,\"losses\":%lld,\"draws\":%lld,"
            "\"unfinished\":%lld}",
            color == 1 ? "sente" : "gote", kifu_explore_games(x), color == 1 ? sw : gw,
            color == 1 ? gw : sw, dr, un);
    kifu_explore_free(x);
    return 0;
}

void serve_api_players(const serve_config *c, const serve_request *q, serve_response *r)
{
    serve_stamp stamp;
    kifu_explore_options o;
    if (serve_check_params(q, player_params, r) || serve_explore_options(q, &o, r))
        return;
    if (!o.player) {
        serve_error(r, 400, "players: give player=NAME");
        return;
    }
    kifu_position *p = kifu_position_new();
    kifu_index *ix = NULL;
    kifu_error e = {0};
    char *buf;
    size_t len;
    FILE *f;
    if (!p || kifu_position_set_sfen(p, "startpos", &e))
        serve_error(r, 500, "out of memory");
    else if ((ix = serve_open(c, r, &stamp)) && (f = serve_begin(&buf, &len))) {
        fprintf(f, "{\"player\":");
        cli_json_fstring(f, o.player);
        fputc(',', f);
        int rc = side_results(ix, p, &o, 1, f, &e);
        fputc(',', f);
        rc = rc ? rc : side_results(ix, p, &o, 2, f, &e);
        fprintf(f, "}\n");
        serve_end(r, f, &buf, &len);
        if (rc)
            serve_error(r, 503, "players: %s", e.message);
    }
    serve_close(ix, &stamp);
    kifu_position_free(p);
}
