/* serve_static.c: the pages and assets of `kifu serve`. Every page is the same shell:
 * no inline script or style, the data comes from /api/ and app.js builds the DOM with
 * textContent. The board is the replay page's (board.js, viewer.css), the rest is
 * cli/serve_assets/ compiled in. */
#include <string.h>

#include "serve.h"

#define SHELL(page)                                                                      \
    "<!DOCTYPE html>\n<html lang=\"ja\"><head><meta charset=\"utf-8\">"                  \
    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"           \
    "<title>kifu</title><link rel=\"stylesheet\" href=\"/assets/viewer.css\">"           \
    "<link rel=\"stylesheet\" href=\"/assets/app.css\"></head>"                          \
    "<body data-page=\"" page "\"><nav id=\"nav\"></nav><main id=\"app\"></main>"        \
    "<script src=\"/assets/board.js\"></script>"                                         \
    "<script src=\"/assets/app.js\"></script></body></html>\n"

static const struct {
    const char *path, *html;
} pages[] = {
    {"/", SHELL("explore")},    {"/explore", SHELL("explore")},
    {"/games", SHELL("games")}, {"/player", SHELL("player")},
    {"/game", SHELL("game")},   {"/search", SHELL("search")},
};

int serve_static(const char *path, serve_response *r)
{
    for (size_t i = 0; i < sizeof pages / sizeof pages[0]; i++)
        if (!strcmp(path, pages[i].path)) {
            r->status = 200, r->type = "text/html; charset=utf-8";
            r->body = pages[i].html, r->len = strlen(pages[i].html);
            return 1;
        }
    static const struct {
        const char *path, *type;
        const char *lib; /* a kifu_html_asset name, or NULL: own */
        const char *own; /* a serve_asset name */
    } assets[] = {
        {"/assets/board.js", "text/javascript; charset=utf-8", "board.js", NULL},
        {"/assets/viewer.css", "text/css; charset=utf-8", "viewer.css", NULL},
        {"/assets/app.js", "text/javascript; charset=utf-8", NULL, "app.js"},
        {"/assets/app.css", "text/css; charset=utf-8", NULL, "app.css"},
    };
    for (size_t i = 0; i < sizeof assets / sizeof assets[0]; i++)
        if (!strcmp(path, assets[i].path)) {
            const char *body = assets[i].lib ? kifu_html_asset(assets[i].lib)
                                             : serve_asset(assets[i].own);
            if (!body)
                return 0;
            r->status = 200, r->type = assets[i].type;
            r->body = body, r->len = strlen(body);
            return 1;
        }
    return 0;
}
