/* serve_api_game.c: /api/game?file=F&game=N, one indexed game as the position-list JSON
 * (posjson: every position's letters for board.js, its move and comments) and its tags. F must be a
 * file exactly as the index lists it: the parameter only picks one of the index's
 * sources, it never becomes a path by itself. */
#include <stdlib.h>
#include <string.h>

#include "serve.h"

typedef struct pick {
    const char *want;
    char *path; /* the index's own string, copied */
    int games;
} pick;

static int pick_source(void *ctx, const char *path, int games)
{
    pick *k = ctx;
    if (strcmp(path, k->want))
        return 0;
    k->path = strdup(path);
    k->games = games;
    return 1;
}

/* The file's bytes (malloc'd, *len), or NULL. Bounded: a record file over 64 MB is not
 * one the server reads per request. */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap || cap >= (64u << 20))
            break;
        char *b = realloc(buf, cap * 2);
        if (!b) {
            free(buf);
            buf = NULL;
        }
        buf = b, cap *= 2;
    }
    int bad = ferror(f) || n == cap;
    fclose(f);
    if (bad) {
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}

/* The game's tags, recognised on its record as kifu tags does ([] when they cannot
 * be: the page shows the game anyway). */
static void put_tags(FILE *f, const kifu_record *rec)
{
    kifu_tagger *t = kifu_tags_new(NULL);
    kifu_tag *tags = NULL;
    size_t n = 0;
    if (t && kifu_tags_record(t, rec, &tags, &n, NULL) == 0)
        cli_tags_json(f, tags, n);
    else
        fputs("[]", f);
    kifu_free(tags);
    kifu_tags_free(t);
}

static const char *const game_params[] = {"file", "game", NULL};

void serve_api_game(const serve_config *c, const serve_request *q, serve_response *r)
{
    serve_stamp stamp;
    long number;
    pick k = {serve_get(q, "file"), NULL, 0};
    if (serve_check_params(q, game_params, r) ||
        serve_number(q, "game", 1, 1000000, 1, &number, r))
        return;
    if (!k.want) {
        serve_error(r, 400, "game: give file (as the index names it) and game");
        return;
    }
    kifu_error e = {0};
    kifu_index *ix = serve_open(c, r, &stamp);
    if (!ix)
        return;
    if (kifu_index_each_source(ix, pick_source, &k, &e) < 0)
        serve_index_error(r, "game", &e);
    else if (!k.path || number > k.games)
        serve_error(r, 404, "no game %ld of that file in the index", number);
    serve_close(ix, &stamp);
    size_t len = 0, count = 0;
    char *data = k.path && number <= k.games ? slurp(k.path, &len) : NULL;
    kifu_record **rs = NULL;
    if (k.path && number <= k.games && !data)
        serve_error(r, 410, "the file of that game cannot be read any more");
    else if (data && kifu_read_all(data, len, NULL, &rs, &count, &e))
        serve_error(r, 410, "the file of that game no longer reads: %s", e.message);
    else if (data && (size_t)number > count)
        serve_error(r, 410, "the file no longer holds game %ld", number);
    else if (data) {
        kifu_write_options wo = {0};
        wo.format = KIFU_FMT_POSJSON;
        size_t plen;
        char *pos = kifu_write(rs[number - 1], &wo, &plen, &e);
        char *buf;
        size_t blen;
        FILE *f = pos ? serve_begin(&buf, &blen) : NULL;
        if (f) {
            fprintf(f, "{\"file\":");
            cli_json_fstring(f, k.path);
            fprintf(f, ",\"game\":%ld,\"tags\":", number);
            put_tags(f, rs[number - 1]);
            fprintf(f, ",\"positions\":%s}\n", pos);
            serve_end(r, f, &buf, &blen);
        } else {
            serve_error(r, 500, "game: %s", e.message);
        }
        kifu_free(pos);
    }
    for (size_t i = 0; i < count; i++)
        kifu_record_free(rs[i]);
    kifu_free(rs);
    free(data);
    free(k.path);
}
