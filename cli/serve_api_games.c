/* serve_api_games.c: /api/games, the indexed games as a list (kifu_index_games): the
 * explorer's filters (player and color, since, until, event, min_rating), a sort by
 * date, sente, gote, event, result or length (order=desc, or -date, for the other way),
 * a page (limit, offset) and the number of games that pass; /api/players, the players
 * (kifu_index_players, like=TEXT a part of the name), or with player=NAME one player's
 * results as sente and as gote and the openings (the first two moves) played most. */
#include <stdlib.h>
#include <string.h>

#include "serve.h"

static const char *game_result(int r)
{
    static const char *const words[] = {"unfinished", "sente won", "gote won",
                                        "千日手",     "持将棋",    "draw"};
    return r >= 0 && r <= KIFU_RESULT_DRAW ? words[r] : "?";
}

static void put_text(FILE *f, const char *key, const char *s)
{
    fprintf(f, ",\"%s\":", key);
    if (s)
        cli_json_fstring(f, s);
    else
        fputs("null", f);
}

typedef struct page {
    FILE *f;
    int n;
} page;

static int put_game(void *ctx, const kifu_index_game *g)
{
    page *pg = ctx;
    fprintf(pg->f, "%s{\"file\":", pg->n++ ? "," : "");
    cli_json_fstring(pg->f, g->source);
    fprintf(pg->f, ",\"game\":%d", g->number);
    put_text(pg->f, "sente", g->sente);
    put_text(pg->f, "gote", g->gote);
    put_text(pg->f, "date", g->date);
    put_text(pg->f, "event", g->event);
    fprintf(pg->f,
            ",\"result\":\"%s\",\"plies\":%d,\"sente_rating\":", game_result(g->result),
            g->plies);
    fprintf(pg->f, g->sente_rating ? "%d" : "null", g->sente_rating);
    fprintf(pg->f, ",\"gote_rating\":");
    fprintf(pg->f, g->gote_rating ? "%d" : "null", g->gote_rating);
    /* The index's own JSON (SQLite's json_group_array of its tag rows). */
    fprintf(pg->f, ",\"tags\":%s}", g->tags && *g->tags ? g->tags : "[]");
    return 0;
}

static const char *const sorts[] = {"file",  "date",   "sente", "gote",
                                    "event", "result", "length"};

/* sort=NAME (-NAME: descending) and order=asc|desc into *sort, *desc. 0, or -1 (400). */
static int sort_of(const serve_request *q, int *sort, int *desc, serve_response *r)
{
    const char *s = serve_get(q, "sort"), *order = serve_get(q, "order");
    *sort = 0, *desc = 0;
    if (order && strcmp(order, "asc") && strcmp(order, "desc")) {
        serve_error(r, 400, "order takes asc or desc, not '%s'", order);
        return -1;
    }
    if (s && *s == '-')
        *desc = 1, s++;
    if (order)
        *desc ^= !strcmp(order, "desc");
    if (!s || !*s)
        return 0;
    for (int i = 0; i < (int)(sizeof sorts / sizeof *sorts); i++)
        if (!strcmp(s, sorts[i])) {
            *sort = i; /* file: as indexed (KIFU_GAMES_INDEXED) */
            return 0;
        }
    serve_error(r, 400,
                "sort takes file, date, sente, gote, event, result or length (-date or "
                "order=desc: the other way), not '%s'",
                s);
    return -1;
}

static const char *const games_params[] = {"limit", "offset", "player",     "color",
                                           "sort",  "order",  "since",      "until",
                                           "event", "tag",    "min_rating", NULL};

void serve_api_games(const serve_config *c, const serve_request *q, serve_response *r)
{
    serve_stamp stamp;
    kifu_explore_options o;
    long limit, offset;
    int sort, desc;
    if (serve_check_params(q, games_params, r) ||
        serve_number(q, "limit", 1, 500, 50, &limit, r) ||
        serve_number(q, "offset", 0, 999500, 0, &offset, r) ||
        serve_explore_options(q, &o, r) || sort_of(q, &sort, &desc, r))
        return;
    kifu_index *ix = serve_open(c, r, &stamp);
    char *buf;
    size_t len;
    page pg = {0};
    if (ix && (pg.f = serve_begin(&buf, &len))) {
        kifu_error e = {0};
        fprintf(pg.f, "{\"games\":[");
        long long total =
            kifu_index_games(ix, &o, sort, desc, offset, limit, put_game, &pg, &e);
        fprintf(pg.f, "],\"total\":%lld,\"offset\":%ld,\"limit\":%ld}\n", total, offset,
                limit);
        serve_end(r, pg.f, &buf, &len);
        if (total < 0)
            serve_index_error(r, "games", &e);
    }
    serve_close(ix, &stamp);
}

/* ---- /api/players ---- */

typedef struct plist {
    FILE *f;
    long offset, limit, seen;
} plist;

static int put_player(void *ctx, const kifu_index_player *p)
{
    plist *l = ctx;
    if (l->seen >= l->offset && l->seen < l->offset + l->limit) {
        fprintf(l->f, "%s{\"key\":", l->seen > l->offset ? "," : "");
        cli_json_fstring(l->f, p->key);
        fprintf(l->f, ",\"name\":");
        cli_json_fstring(l->f, p->nnames ? p->names[0] : p->key);
        fprintf(l->f, ",\"names\":[");
        for (size_t i = 0; i < p->nnames; i++) {
            fputs(i ? "," : "", l->f);
            cli_json_fstring(l->f, p->names[i]);
        }
        fprintf(l->f,
                "],\"games\":%lld,\"wins\":%lld,\"losses\":%lld,\"draws\":%lld,"
                "\"first_date\":",
                p->games, p->wins, p->losses, p->draws);
        cli_json_fstring(l->f, p->first_date);
        fprintf(l->f, ",\"last_date\":");
        cli_json_fstring(l->f, p->last_date);
        fputc('}', l->f);
    }
    l->seen++;
    return 0;
}

static void list_players(const serve_config *c, const serve_request *q, serve_response *r)
{
    serve_stamp stamp;
    plist l = {0};
    if (serve_number(q, "limit", 1, 500, 50, &l.limit, r) ||
        serve_number(q, "offset", 0, 100000000, 0, &l.offset, r))
        return;
    const char *like = serve_get(q, "like");
    kifu_index *ix = serve_open(c, r, &stamp);
    char *buf;
    size_t len;
    if (ix && (l.f = serve_begin(&buf, &len))) {
        kifu_error e = {0};
        fprintf(l.f, "{\"players\":[");
        int rc = kifu_index_players(ix, like && *like ? like : NULL, put_player, &l, &e);
        fprintf(l.f, "],\"total\":%ld,\"offset\":%ld,\"limit\":%ld}\n", l.seen, l.offset,
                l.limit);
        serve_end(r, l.f, &buf, &len);
        if (rc)
            serve_index_error(r, "players", &e);
    }
    serve_close(ix, &stamp);
}

/* One side's results at the start (wins, losses, draws, unfinished), from the explorer
 * with the player filter. */
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

enum { FIRST_MOVES = 6, OPENINGS = 10 };

typedef struct opening {
    char usi[20], text[140];
    long long games, wins, losses, draws;
} opening;

static int by_games(const void *a, const void *b)
{
    const opening *x = a, *y = b;
    return (x->games < y->games) - (x->games > y->games);
}

/* The player's openings as one colour: the first two moves (sente's and gote's reply),
 * the most played first, with the player's results. */
static int openings(kifu_index *ix, kifu_explore_options *o, int color, FILE *f,
                    kifu_error *e)
{
    opening v[FIRST_MOVES * OPENINGS];
    size_t n = 0;
    kifu_position *p = kifu_position_new();
    kifu_explore *x = NULL;
    int rc = -1;
    o->player_color = color;
    if (!p || kifu_position_set_sfen(p, "startpos", e) ||
        !(x = kifu_index_explore(ix, p, o, e)))
        goto out;
    rc = 0;
    for (size_t i = 0; i < kifu_explore_count(x) && i < FIRST_MOVES && !rc; i++) {
        const kifu_explore_move *m = kifu_explore_move_at(x, i);
        char line[64];
        snprintf(line, sizeof line, "position startpos moves %s", m->usi);
        kifu_explore *y = NULL;
        if (kifu_position_set_sfen(p, line, e) ||
            !(y = kifu_index_explore(ix, p, o, e))) {
            rc = -1;
            break;
        }
        for (size_t k = 0; k < kifu_explore_count(y) && k < OPENINGS; k++) {
            const kifu_explore_move *a = kifu_explore_move_at(y, k);
            opening *w = &v[n++];
            snprintf(w->usi, sizeof w->usi, "%s,%s", m->usi, a->usi);
            snprintf(w->text, sizeof w->text, "%s %s", m->text, a->text);
            w->games = a->games;
            w->wins = color == 1 ? a->sente_wins : a->gote_wins;
            w->losses = color == 1 ? a->gote_wins : a->sente_wins;
            w->draws = a->sennichite + a->jishogi + a->draws;
        }
        kifu_explore_free(y);
    }
    if (rc)
        goto out;
    if (n)
        qsort(v, n, sizeof *v, by_games);
    fprintf(f, "\"%s\":[", color == 1 ? "sente" : "gote");
    for (size_t i = 0; i < n && i < OPENINGS; i++) {
        fprintf(f, "%s{\"moves\":\"%s\",\"text\":", i ? "," : "", v[i].usi);
        cli_json_fstring(f, v[i].text);
        fprintf(f, ",\"games\":%lld,\"wins\":%lld,\"losses\":%lld,\"draws\":%lld}",
                v[i].games, v[i].wins, v[i].losses, v[i].draws);
    }
    fputc(']', f);
out:
    kifu_explore_free(x);
    kifu_position_free(p);
    return rc;
}

/* The player's tags (the index's 戦法 and 囲い on its side) for serve_api_players: of the
 * player whose key or a spelling is the name asked, else the only one matched
 * (kifu_index_player_named). */
typedef struct ptags {
    FILE *f;
    int given;
} ptags;

static int take_tags(void *ctx, const kifu_index_player *p)
{
    ptags *t = ctx;
    fprintf(t->f, ",\"tags\":");
    cli_player_tags_json(t->f, p);
    t->given = 1;
    return 0;
}

static int player_tags(kifu_index *ix, const char *name, FILE *f, kifu_error *e)
{
    ptags t = {f, 0};
    int rc = kifu_index_player_named(ix, name, take_tags, &t, e);
    if (!t.given)
        fprintf(f, ",\"tags\":[]");
    return rc;
}

static const char *const player_params[] = {"player", "since",  "until", "event",
                                            "like",   "offset", "limit", NULL};

void serve_api_players(const serve_config *c, const serve_request *q, serve_response *r)
{
    serve_stamp stamp;
    kifu_explore_options o;
    if (serve_check_params(q, player_params, r) || serve_explore_options(q, &o, r))
        return;
    if (!o.player) {
        list_players(c, q, r);
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
        fprintf(f, ",\"openings\":{");
        rc = rc ? rc : openings(ix, &o, 1, f, &e);
        fputc(',', f);
        rc = rc ? rc : openings(ix, &o, 2, f, &e);
        fputc('}', f);
        rc = rc ? rc : player_tags(ix, o.player, f, &e);
        fprintf(f, "}\n");
        serve_end(r, f, &buf, &len);
        if (rc)
            serve_index_error(r, "players", &e);
    }
    serve_close(ix, &stamp);
    kifu_position_free(p);
}
