/* fuzz_serve.c: libFuzzer target for `kifu serve`'s request handler (cli/serve_*.c,
 * built in here as the tool builds them, without the HTTP side). The input is a request
 * as the handler gets it once libmicrohttpd has parsed it: "PATH?k=v&k=v" (a parameter
 * without '=' has an empty value). Against a small index made at the first call, every
 * answer must be complete: a body, a content type, and a status the API documents (a
 * 500 would be a bug, not a bad request). */
#define _GNU_SOURCE /* serve_reply.c's fopencookie, before any header */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../cli/distance.c"
#include "../cli/explore_json.c"
#include "../cli/player_tags.c"
#include "../cli/serve_api_explore.c"
#include "../cli/serve_api_game.c"
#include "../cli/serve_api_games.c"
#include "../cli/serve_api_search.c"
#include "../cli/serve_cache.c"
#include "../cli/serve_index.c"
#include "../cli/serve_params.c"
#include "../cli/serve_reply.c"
#include "../cli/serve_route.c"
#include "../cli/tag_filter.c"
#include "../cli/textout.c"

/* The pages and assets are an exact-match table of compiled-in files (serve_static.c,
 * which needs the build's generated assets): nothing there reads a parameter. */
int serve_static(const char *path, serve_response *r)
{
    (void)path, (void)r;
    return 0;
}

static serve_config config;

static void make_index(void)
{
    static char dir[] = "/tmp/kifu-fuzz-serve-XXXXXX";
    static char kdb[64], rec[64];
    if (!mkdtemp(dir))
        abort();
    snprintf(kdb, sizeof kdb, "%s/g.kdb", dir);
    snprintf(rec, sizeof rec, "%s/a.usi", dir);
    FILE *f = fopen(rec, "w");
    if (!f)
        abort();
    fputs("position startpos moves 7g7f 3c3d 2g2f 8c8d\n", f);
    fclose(f);
    kifu_index *ix = kifu_index_open(kdb, KIFU_INDEX_CREATE, NULL);
    if (!ix || kifu_index_add_file(ix, rec, NULL, NULL, NULL) < 0 ||
        kifu_index_close(ix, NULL))
        abort();
    config.kdb = kdb;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!config.kdb)
        make_index();
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = 0;
    serve_request q = {0};
    char *query = strchr(text, '?');
    if (query)
        *query++ = 0;
    q.path = text;
    for (char *kv = query, *next; kv && *kv; kv = next) {
        next = strchr(kv, '&');
        if (next)
            *next++ = 0;
        if (q.nparams == SERVE_MAX_PARAMS) {
            q.too_many = 1;
            break;
        }
        char *eq = strchr(kv, '=');
        if (eq)
            *eq++ = 0;
        q.params[q.nparams].key = kv;
        q.params[q.nparams].value = eq ? eq : "";
        q.nparams++;
    }
    serve_response r;
    serve_handle(&config, &q, &r);
    if (!r.body || !r.type || r.len != strlen(r.body) ||
        (r.status != 200 && r.status != 400 && r.status != 404 && r.status != 410 &&
         r.status != 503))
        abort();
    serve_response_free(&r);
    free(text);
    return 0;
}
