/* serve.h: what the files of `kifu serve` share: a request as the handler sees it (a
 * path and decoded parameters, whatever the HTTP layer), the answer it fills, and the
 * helpers the API handlers use. The handler (serve_handle) knows nothing of HTTP, so the
 * fuzz target calls it directly. */
#ifndef KIFU_SERVE_H
#define KIFU_SERVE_H

#include <stdio.h>

#include "cli.h"

enum { SERVE_MAX_PARAMS = 32, SERVE_MAX_HITS = 500 };

typedef struct serve_param {
    const char *key, *value;
} serve_param;

typedef struct serve_request {
    const char *path; /* decoded, without the query */
    size_t nparams;
    int too_many; /* more than SERVE_MAX_PARAMS were given: a 400 */
    serve_param params[SERVE_MAX_PARAMS];
} serve_request;

typedef struct serve_response {
    int status;
    const char *type; /* Content-Type */
    const char *body; /* static when owned is NULL */
    size_t len;
    char *owned; /* malloc'd body (free) */
} serve_response;

/* Where the index is: a file (opened read-only per request, so games that `kifu index
 * add` writes meanwhile are seen) or ClickHouse. */
typedef struct serve_config {
    const char *kdb;
    const char *ch_url;
    kifu_clickhouse_options cho;
    int query_ms; /* a request's queries stop after this (kifu_index_set_deadline); 0: no
                     bound */
} serve_config;

/* Answer one GET request: always fills r (free with serve_response_free). */
void serve_handle(const serve_config *c, const serve_request *q, serve_response *r);
void serve_response_free(serve_response *r);

/* serve_reply.c: answers. A JSON error {"error": message} with the status; a body from
 * a memory stream (serve_begin opens it, serve_end closes it into r as JSON). */
void serve_error(serve_response *r, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
FILE *serve_begin(char **buf, size_t *len);
/* A query of the index failed: 504 when it ran past its time (KIFU_ERR_BUSY from the
 * deadline), else 503, "what: message". */
void serve_index_error(serve_response *r, const char *what, const kifu_error *e);
void serve_end(serve_response *r, FILE *f, char **buf, size_t *len);

/* serve_params.c: parameters. The value of key or NULL. 0 when every parameter is one of
 * allowed (a NULL-terminated list) and none is repeated, else -1 with a 400 in r. */
const char *serve_get(const serve_request *q, const char *key);
int serve_check_params(const serve_request *q, const char *const *allowed,
                       serve_response *r);
/* The explorer's filters (player, color, since, until, event, min_rating, flip, top,
 * tag) into o, and the position (sfen, moves as USI separated by commas or spaces, usi)
 * into p. 0, or -1 with a 400 in r. */
/* The tag filter alone (tag=NAME,sente:NAME...: all of them) into o->tags, valid until
 * this thread's next request. 0, or -1 with a 400 (an unknown name, its nearest). */
int serve_tags(const serve_request *q, kifu_explore_options *o, serve_response *r);
int serve_explore_options(const serve_request *q, kifu_explore_options *o,
                          serve_response *r);
int serve_position(const serve_request *q, kifu_position *p, serve_response *r);
/* A whole number parameter in [lo, hi], def when absent. 0, or -1 with a 400. */
int serve_number(const serve_request *q, const char *key, long lo, long hi, long def,
                 long *out, serve_response *r);

/* serve_index.c: the index for one request, or NULL with a 503 in r; *at records which
 * file was at the index's path. serve_close gives it back (to a pool of open handles,
 * reused while that file is still there); serve_drain closes the pool's handles. */
typedef struct serve_stamp {
    unsigned char bytes[32];
    long long
        dv; /* the handle's kifu_index_data_version at its last look (serve_cache.c),
                     -2 before any */
} serve_stamp;
kifu_index *serve_open(const serve_config *c, serve_response *r, serve_stamp *at);
void serve_close(kifu_index *ix, const serve_stamp *at);
void serve_drain(void);

/* serve_cache.c: answers kept for the same query while the index does not change. Its
 * size in bytes (0: no cache), set before serving. serve_cache_gen looks at the index
 * through ix (and at->dv): the generation to store an answer made now under, or -1 when
 * nothing is cached (no cache, or the index cannot tell its changes). serve_cache_key
 * writes a request's key (its path and sorted parameters) and returns its length (0: too
 * long, not cached); serve_cache_get fills r with a kept answer (1) or returns 0;
 * serve_cache_put keeps r's answer when it is a 200. serve_cache_drain frees it all. */
void serve_cache_setup(size_t bytes);
long long serve_cache_gen(kifu_index *ix, serve_stamp *at);
size_t serve_cache_key(const serve_request *q, char *key, size_t cap);
int serve_cache_get(const char *key, size_t klen, serve_response *r);
void serve_cache_put(const char *key, size_t klen, long long gen,
                     const serve_response *r);
void serve_cache_drain(void);

/* The API (serve_api_*.c): each answers one path under /api/. */
void serve_api_explore(const serve_config *c, const serve_request *q, serve_response *r);
void serve_api_board(const serve_config *c, const serve_request *q, serve_response *r);
void serve_api_games(const serve_config *c, const serve_request *q, serve_response *r);
void serve_api_players(const serve_config *c, const serve_request *q, serve_response *r);
void serve_api_game(const serve_config *c, const serve_request *q, serve_response *r);
void serve_api_search(const serve_config *c, const serve_request *q, serve_response *r);

/* serve_static.c: the pages and assets, or 0 when path is none of them. */
/* cli/serve_assets/ compiled in (app.js, app.css; the build generates it), or NULL. */
const char *serve_asset(const char *name);
int serve_static(const char *path, serve_response *r);

/* serve_http.c: run the server on host:port until SIGINT or SIGTERM. It prints the URL
 * (the real port when port is 0) on stdout. Exit code. */
int serve_run(const serve_config *c, const char *host, int port);

#endif
