/* serve_api_explore.c: /api/explore, the explorer's answer for a position (the object
 * `kifu explore --json` prints, by the same writer), and /api/board, the position itself
 * for a page's board: its letters for board.js and its legal moves. */
#include <stdlib.h>

#include "serve.h"

static const char *const explore_params[] = {
    "sfen",  "moves",      "usi", "player", "color", "since", "until",
    "event", "min_rating", "tag", "flip",   "top",   NULL};

void serve_api_explore(const serve_config *c, const serve_request *q, serve_response *r)
{
    serve_stamp stamp;
    kifu_explore_options o;
    if (serve_check_params(q, explore_params, r) || serve_explore_options(q, &o, r))
        return;
    kifu_position *p = kifu_position_new();
    if (!p) {
        serve_error(r, 500, "out of memory");
        return;
    }
    kifu_index *ix = NULL;
    char key[4096];
    size_t klen = 0;
    long long gen = -1;
    if (!serve_position(q, p, r) && (ix = serve_open(c, r, &stamp)) &&
        (klen = serve_cache_key(q, key, sizeof key)) &&
        (gen = serve_cache_gen(ix, &stamp)) >= 0 && serve_cache_get(key, klen, r)) {
        /* kept from an earlier request while the index has not changed (serve_cache.c) */
    } else if (ix) {
        kifu_error e = {0};
        kifu_explore *x = kifu_index_explore(ix, p, &o, &e);
        /* The move number, as kifu explore prints it: the given position's, on by the
         * moves played since. */
        const char *given =
            serve_get(q, "usi") ? serve_get(q, "usi") : serve_get(q, "sfen");
        char *sfen = kifu_position_sfen(p, cli_sfen_number(given) +
                                               (int)kifu_position_history_length(p));
        char *buf;
        size_t len;
        FILE *f = x && sfen ? serve_begin(&buf, &len) : NULL;
        if (f) {
            cli_explore_json(f, sfen, x, 0);
            serve_end(r, f, &buf, &len);
            if (klen)
                serve_cache_put(key, klen, gen, r);
        } else {
            if (x)
                serve_error(r, 500, "explore: out of memory");
            else
                serve_index_error(r, "explore", &e);
        }
        kifu_free(sfen);
        kifu_explore_free(x);
    }
    serve_close(ix, &stamp);
    kifu_position_free(p);
}

static const char *const board_params[] = {"sfen", "moves", "usi", NULL};

void serve_api_board(const serve_config *c, const serve_request *q, serve_response *r)
{
    (void)c;
    if (serve_check_params(q, board_params, r))
        return;
    kifu_position *p = kifu_position_new();
    kifu_move *legal = malloc(600 * sizeof *legal);
    char *buf, *sfen = NULL;
    size_t len;
    FILE *f = NULL;
    if (!p || !legal)
        serve_error(r, 500, "out of memory");
    else if (!serve_position(q, p, r) && (sfen = kifu_position_sfen(p, 1)) &&
             (f = serve_begin(&buf, &len))) {
        kifu_board b;
        char bd[82], cb[40], cw[40], usi[8];
        kifu_position_board(p, &b);
        kifu_board_to_bd(&b, bd, cb, cw);
        fprintf(f, "{\"sfen\":");
        cli_json_fstring(f, sfen);
        fprintf(f,
                ",\"bd\":\"%s\",\"cb\":\"%s\",\"cw\":\"%s\",\"turn\":\"%s\",\"ply\":%d,"
                "\"legal\":[",
                bd, cb, cw, kifu_position_side(p) ? "w" : "b",
                kifu_position_history_length(p));
        size_t n = kifu_position_legal_moves(p, legal, 600);
        for (size_t i = 0; i < n && i < 600; i++)
            fprintf(f, "%s\"%s\"", i ? "," : "", kifu_move_usi(&legal[i], usi));
        fprintf(f, "]}\n");
        serve_end(r, f, &buf, &len);
    }
    kifu_free(sfen);
    free(legal);
    kifu_position_free(p);
}
