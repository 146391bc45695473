/* serve_route.c: `kifu serve`'s request handler: a path picks an API answer, a page or
 * an asset, by exact name; anything else is a 404. Nothing from a request is ever used
 * as a file name (the API's file parameter only picks one of the index's own sources). */
#include <string.h>

#include "serve.h"

typedef void (*api_fn)(const serve_config *, const serve_request *, serve_response *);

static const struct {
    const char *path;
    api_fn fn;
} api[] = {
    {"/api/explore", serve_api_explore}, {"/api/board", serve_api_board},
    {"/api/games", serve_api_games},     {"/api/game", serve_api_game},
    {"/api/players", serve_api_players}, {"/api/search", serve_api_search},
};

void serve_handle(const serve_config *c, const serve_request *q, serve_response *r)
{
    memset(r, 0, sizeof *r);
    r->status = 200;
    for (size_t i = 0; i < sizeof api / sizeof api[0]; i++)
        if (!strcmp(q->path, api[i].path)) {
            api[i].fn(c, q, r);
            if (!r->body)
                serve_error(r, 500, "no answer");
            return;
        }
    if (strncmp(q->path, "/api/", 5) && serve_static(q->path, r))
        return;
    serve_error(r, 404, "not found");
}
