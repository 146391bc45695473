/* serve_index.c: the index for one request of `kifu serve`. Opened read-only per
 * request: a SQLite open is a fraction of a millisecond, and a fresh handle sees what
 * `kifu index add` committed meanwhile, with nothing shared between the server's
 * threads. */
#include "serve.h"

kifu_index *serve_open(const serve_config *c, serve_response *r)
{
    kifu_error e = {0};
    kifu_index *ix =
        c->ch_url
            ? kifu_index_open_clickhouse(c->ch_url, KIFU_INDEX_READONLY, &c->cho, &e)
            : kifu_index_open(c->kdb, KIFU_INDEX_READONLY, &e);
    if (!ix)
        serve_error(r, 503, "the index cannot be read: %s", e.message);
    return ix;
}
