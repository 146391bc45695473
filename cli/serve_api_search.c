/* serve_api_search.c: /api/search, the index's position search: an exact position
 * (sfen, moves, usi, or a KIF board diagram in bod) or a pattern in the grid syntax
 * (grid; see kifu search --grid), each hit with its game, ply and header; at most
 * SERVE_MAX_HITS hits (truncated says so). */
#include <string.h>

#include "serve.h"

typedef struct hits {
    FILE *f;
    long n;
} hits;

static int one_hit(void *ctx, const kifu_index_hit *h)
{
    hits *s = ctx;
    if (s->n >= SERVE_MAX_HITS)
        return 1;
    fprintf(s->f, "%s{\"file\":", s->n ? "," : "");
    cli_json_fstring(s->f, h->source);
    fprintf(s->f, ",\"game\":%d,\"ply\":%d,\"next\":", h->number, h->ply);
    cli_json_fstring(s->f, h->next_text);
    fprintf(s->f, ",\"header\":%s}", h->header && *h->header ? h->header : "{}");
    s->n++;
    return 0;
}

static const char *const search_params[] = {"sfen", "moves",    "usi", "bod",
                                            "grid", "any_side", NULL};

/* The search the parameters ask for, or NULL with a 400 in r. */
static kifu_search *search_of(const serve_request *q, serve_response *r)
{
    const char *grid = serve_get(q, "grid"), *bod = serve_get(q, "bod");
    const char *side = serve_get(q, "any_side");
    unsigned flags = side && strcmp(side, "0") ? KIFU_SEARCH_ANY_SIDE : 0;
    kifu_error e = {0};
    kifu_search *s = NULL;
    int pos = serve_get(q, "sfen") || serve_get(q, "moves") || serve_get(q, "usi");
    if (pos + !!grid + !!bod != 1) {
        serve_error(r, 400, "search: give one of sfen/moves/usi, bod or grid");
        return NULL;
    }
    if (grid) {
        if (!(s = kifu_search_grid(grid, strlen(grid), flags, &e)))
            serve_error(r, 400, "grid: %s", e.message);
        return s;
    }
    kifu_board b;
    if (bod) {
        kifu_record *rec = kifu_read(bod, strlen(bod), NULL, &e);
        if (!rec) {
            serve_error(r, 400, "bod: %s", e.message);
            return NULL;
        }
        kifu_record_initial(rec, &b);
        kifu_record_free(rec);
    } else {
        kifu_position *p = kifu_position_new();
        int bad = !p || serve_position(q, p, r);
        if (!bad)
            kifu_position_board(p, &b);
        kifu_position_free(p);
        if (bad)
            return NULL;
    }
    if (!(s = kifu_search_position(&b, flags, &e)))
        serve_error(r, 400, "search: %s", e.message);
    return s;
}

void serve_api_search(const serve_config *c, const serve_request *q, serve_response *r)
{
    serve_stamp stamp;
    if (serve_check_params(q, search_params, r))
        return;
    kifu_search *s = search_of(q, r);
    kifu_index *ix = s ? serve_open(c, r, &stamp) : NULL;
    hits h = {0};
    char *buf;
    size_t len;
    if (ix && (h.f = serve_begin(&buf, &len))) {
        kifu_error e = {0};
        fprintf(h.f, "{\"hits\":[");
        long n = kifu_index_search(ix, s, one_hit, &h, &e);
        fprintf(h.f, "],\"count\":%ld,\"truncated\":%s}\n", h.n,
                n > h.n ? "true" : "false");
        serve_end(r, h.f, &buf, &len);
        if (n < 0)
            serve_index_error(r, "search", &e);
    }
    serve_close(ix, &stamp);
    kifu_search_free(s);
}
