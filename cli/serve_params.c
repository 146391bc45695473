/* serve_params.c: the query parameters of `kifu serve`'s API, checked: a parameter the
 * path does not know, a repeated one or a bad value is a 400 naming it. The names are
 * the CLI's options (min_rating for --min-rating). */
#include <stdlib.h>
#include <string.h>

#include "serve.h"

const char *serve_get(const serve_request *q, const char *key)
{
    for (size_t i = 0; i < q->nparams; i++)
        if (!strcmp(q->params[i].key, key))
            return q->params[i].value ? q->params[i].value : "";
    return NULL;
}

int serve_check_params(const serve_request *q, const char *const *allowed,
                       serve_response *r)
{
    if (q->too_many) {
        serve_error(r, 400, "too many parameters (at most %d)", SERVE_MAX_PARAMS);
        return -1;
    }
    for (size_t i = 0; i < q->nparams; i++) {
        const char *k = q->params[i].key;
        int known = 0;
        for (size_t a = 0; allowed[a] && !known; a++)
            known = !strcmp(allowed[a], k);
        if (!known) {
            serve_error(r, 400, "unknown parameter '%s' for %s", k, q->path);
            return -1;
        }
        for (size_t j = 0; j < i; j++)
            if (!strcmp(q->params[j].key, k)) {
                serve_error(r, 400, "parameter '%s' given twice", k);
                return -1;
            }
    }
    return 0;
}

int serve_number(const serve_request *q, const char *key, long lo, long hi, long def,
                 long *out, serve_response *r)
{
    const char *v = serve_get(q, key);
    *out = def;
    if (!v)
        return 0;
    char *end;
    long n = strtol(v, &end, 10);
    if (!*v || *end || n < lo || n > hi || (*v < '0' || *v > '9')) {
        serve_error(r, 400, "%s takes a whole number from %ld to %ld, not '%s'", key, lo,
                    hi, v);
        return -1;
    }
    *out = n;
    return 0;
}

/* YYYY-MM-DD with digits where digits go. */
static int is_date(const char *s)
{
    if (strlen(s) != 10 || s[4] != '-' || s[7] != '-')
        return 0;
    for (int i = 0; i < 10; i++)
        if (i != 4 && i != 7 && (s[i] < '0' || s[i] > '9'))
            return 0;
    return 1;
}

/* The tag names of a request, split: kept per thread, since a request is answered on
 * the thread that took it and kifu_explore_options only points at them. */
static _Thread_local struct {
    char text[1024];
    const char *v[16];
} tag_store;

int serve_tags(const serve_request *q, kifu_explore_options *o, serve_response *r)
{
    const char *tag = serve_get(q, "tag");
    o->tags = NULL, o->ntags = 0;
    if (!tag || !*tag)
        return 0;
    if (strlen(tag) >= sizeof tag_store.text) {
        serve_error(r, 400, "tag is too long");
        return -1;
    }
    /* tag=四間飛車,gote:美濃囲い: the names of --tag repeated, all of them. */
    memcpy(tag_store.text, tag, strlen(tag) + 1);
    size_t n = 0;
    for (char *s = tag_store.text, *save = NULL, *t; (t = strtok_r(s, ",", &save));
         s = NULL) {
        if (n == sizeof tag_store.v / sizeof *tag_store.v) {
            serve_error(r, 400, "tag: at most 16 names");
            return -1;
        }
        tag_store.v[n++] = t;
    }
    char msg[800];
    if (cli_tag_unknown(tag_store.v, n, msg, sizeof msg)) {
        serve_error(r, 400, "tag: %s", msg);
        return -1;
    }
    o->tags = tag_store.v, o->ntags = n;
    return 0;
}

int serve_explore_options(const serve_request *q, kifu_explore_options *o,
                          serve_response *r)
{
    memset(o, 0, sizeof *o);
    o->player = serve_get(q, "player");
    o->event = serve_get(q, "event");
    o->date_from = serve_get(q, "since");
    o->date_to = serve_get(q, "until");
    const char *dates[2] = {o->date_from, o->date_to};
    for (int i = 0; i < 2; i++)
        if (dates[i] && !is_date(dates[i])) {
            serve_error(r, 400, "%s takes a date YYYY-MM-DD, not '%s'",
                        i ? "until" : "since", dates[i]);
            return -1;
        }
    if (o->player && !*o->player)
        o->player = NULL;
    if (o->event && !*o->event)
        o->event = NULL;
    const char *color = serve_get(q, "color");
    if (color) {
        o->player_color = !strcmp(color, "sente") ? 1 : !strcmp(color, "gote") ? 2 : -1;
        if (o->player_color < 0) {
            serve_error(r, 400, "color takes sente or gote, not '%s'", color);
            return -1;
        }
        if (!o->player) {
            serve_error(r, 400, "color goes with player");
            return -1;
        }
    }
    const char *flip = serve_get(q, "flip");
    if (flip) {
        if (strcmp(flip, "1") && strcmp(flip, "0") && strcmp(flip, "true") &&
            strcmp(flip, "false") && *flip) {
            serve_error(r, 400, "flip takes 1 or 0, not '%s'", flip);
            return -1;
        }
        o->flip = !strcmp(flip, "1") || !strcmp(flip, "true") || !*flip;
    }
    if (serve_tags(q, o, r))
        return -1;
    long n;
    if (serve_number(q, "min_rating", 0, 100000, 0, &n, r))
        return -1;
    o->min_rating = (int)n;
    if (serve_number(q, "top", 0, 10, 0, &n, r))
        return -1;
    o->top = (int)n;
    return 0;
}

int serve_position(const serve_request *q, kifu_position *p, serve_response *r)
{
    const char *sfen = serve_get(q, "sfen"), *moves = serve_get(q, "moves");
    const char *usi = serve_get(q, "usi");
    if (usi && (sfen || moves)) {
        serve_error(r, 400, "usi says the whole position: not with sfen or moves");
        return -1;
    }
    size_t len = 32 + (sfen ? strlen(sfen) : 0) + (moves ? strlen(moves) : 0) +
                 (usi ? strlen(usi) : 0);
    char *line = malloc(len);
    if (!line) {
        serve_error(r, 500, "out of memory");
        return -1;
    }
    if (usi) {
        snprintf(line, len, "%s", usi);
    } else {
        int startpos = !sfen || !*sfen || !strcmp(sfen, "startpos");
        snprintf(line, len, "position %s%s%s%s", startpos ? "startpos" : "sfen ",
                 startpos ? "" : sfen, moves && *moves ? " moves " : "",
                 moves ? moves : "");
        /* moves=7g7f,3c3d: commas for URLs, spaces for the USI line. */
        for (char *c = line; *c; c++)
            if (*c == ',')
                *c = ' ';
    }
    kifu_error e = {0};
    int rc = kifu_position_set_sfen(p, line, &e);
    free(line);
    if (rc) {
        serve_error(r, 400, "%s: %s", usi ? "usi" : moves ? "moves" : "sfen", e.message);
        return -1;
    }
    return 0;
}
