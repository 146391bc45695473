/* clickhouse.h: the index on ClickHouse (src/index/clickhouse*.c), a backend of the index
 * (backend.h: its table of operations is in clickhouse_write.c). The same games and
 * position rows as the SQLite index (index_build.c makes them), written over ClickHouse's
 * HTTP interface into tables kifu creates, and the same explorer and exact-search answers
 * read back from them.
 *
 * clickhouse_http.c  requests through libcurl (http, https): kept-alive, retries
 * clickhouse_curl.c  libcurl, opened with dlopen at the first URL; TLS sessions shared
 * clickhouse_schema.c the DDL (one server, or local tables behind Distributed ones)
 * clickhouse_write.c  opening, deduplication per game, batches of rows per shard
 * clickhouse_query.c  explorer counts, latest games, exact search, info
 * clickhouse_sources.c the files read: digests, games, duplicates skipped
 * clickhouse_search.c search (positions and patterns) over the stored games */
#ifndef KIFU_CLICKHOUSE_H
#define KIFU_CLICKHOUSE_H

#include <stddef.h>
#include <stdint.h>

#include "core/strbuf.h"
#include "index/index_agg.h"
#include "kifu.h"

/* How a server is reached beside its URL: who we are there and whom we trust. */
typedef struct kifu__ch_access {
    const char *user, *password; /* NULL or "": none (ClickHouse's default user) */
    const char *ca_file;         /* PEM CAs for https; NULL: the system's */
    int insecure;                /* https without verifying the certificate */
} kifu__ch_access;

/* One server: where it listens, who we are there, and its kept connection. */
typedef struct kifu__ch_server {
    char url[256];  /* as given, for messages */
    char base[300]; /* "http[s]://host:port/?", what requests append their query to */
    char user[128], password[128];
    char ca_file[1024]; /* "": the system's CAs */
    int tls, insecure;
    void *curl;    /* its CURL easy handle, which keeps the connection; NULL: none yet */
    void *headers; /* the handle's struct curl_slist */
    char errbuf[256]; /* libcurl's message of the last failure (CURL_ERROR_SIZE) */
} kifu__ch_server;

/* A game the explorer lists, fetched with the counts so that listing costs no request. */
typedef struct kifu__ch_game {
    long long id;
    char *sente, *gote, *date, *event, *source;
    char *sente_key, *gote_key; /* what the player filters compare */
    int number, result;
    int sente_rating, gote_rating; /* 0: none */
} kifu__ch_game;

/* Game ids, growing. */
typedef struct kifu__ch_ids {
    uint32_t *v;
    size_t n, cap;
} kifu__ch_ids;

typedef struct kifu__ch {
    kifu__ch_server *servers; /* shards in remote_servers order; [0] answers queries */
    size_t nservers;
    char database[64], table[64], cluster[64];
    int retries, backoff_ms, timeout_ms;
    /* explorer: the games of the latest query, its filters and where its error goes */
    kifu__ch_game *games;
    size_t ngames, capgames;
    const kifu_explore_options *explore_o;
    kifu_error *explore_err;
    /* writing: the old games of the files the batch replaces, removed first by flush */
    kifu__ch_ids replaced;
    /* the files indexed (clickhouse_sources.c), loaded at an add's first lookup */
    struct kifu__ch_srcset *known;
    uint64_t gen; /* the journal rows' generation of the batch or removal written */
    /* the explorer's last count of the journal's batches not done (0: none), and when
     * its request was sent (monotonic ms; 0: never) */
    long long open_seen;
    double open_at;
} kifu__ch;

/* ---- clickhouse_http.c ---- */

/* The largest answer kept (bytes): a longer one fails the request. The explorer's and
 * the searches' answers are a few MB at most. */
#define KIFU__CH_ANSWER_MAX (256 << 20)

/* Fill s from "http[s]://host[:port][/]" (ports 8123 and 8443 by default) and a (may be
 * NULL). Credentials come from a, never from the URL (refused there). 0, or -1 with err. */
int kifu__ch_server_parse(kifu__ch_server *s, const char *url, const kifu__ch_access *a,
                          kifu_error *err);
/* POST body (len bytes) to server s with `params` (already URL-encoded "a=b&c=d", may be
 * "") as the query string; the answer's body goes to out. A connection failure, a time
 * out or an HTTP error status is -1 with err naming the server and quoting ClickHouse's
 * message; `*transient` (may be NULL) tells a failure safe and worth retrying (the
 * request did not get out whole, or the server answered 5xx without an exception) from
 * one that will not change or whose outcome is unknown (no answer to a whole request). */
int kifu__ch_post(kifu__ch_server *s, int timeout_ms, const char *params,
                  const char *body, size_t len, kifu__strbuf *out, int *transient,
                  kifu_error *err);
/* Close the kept connection to s and free its handle, if any. */
void kifu__ch_disconnect(kifu__ch_server *s);
/* The same with up to ch->retries more tries, waiting backoff_ms, then twice as long...
 * between tries. */
int kifu__ch_post_retry(const kifu__ch *ch, kifu__ch_server *s, const char *params,
                        const char *body, size_t len, kifu__strbuf *out, kifu_error *err);
/* Run an SQL statement on server s (no retry); the answer (TabSeparated unless the SQL
 * says otherwise) goes to out, which may be NULL. 0, or -1 with err. */
int kifu__ch_sql(const kifu__ch *ch, kifu__ch_server *s, const char *sql,
                 kifu__strbuf *out, kifu_error *err);
/* After a failed query: which shards do not answer /ping, added to err's message. */
void kifu__ch_name_down(const kifu__ch *ch, kifu_error *err);
/* Put `prefix` before err's message. */
void kifu__ch_err_prefix(kifu_error *err, const char *prefix);
/* `value` URL-encoded onto b. */
void kifu__ch_urlencode(kifu__strbuf *b, const char *value);
/* `s` as a TabSeparated field (\t \n \\ escaped), or \N for NULL. */
void kifu__ch_tsv(kifu__strbuf *b, const char *s);
/* The next TabSeparated field of a line at *p (unescaped into buf), moving *p past it.
 * Returns 1 when the field was \N (NULL), else 0. */
int kifu__ch_field(const char **p, char *buf, size_t cap);

/* ---- clickhouse_schema.c ---- */

/* The DDL of one server (cluster NULL or ""), or of every shard of a cluster: local
 * tables and the Distributed ones. Statements end with ";\n". */
void kifu__ch_schema(kifu__strbuf *b, const char *database, const char *table,
                     const char *cluster);
/* Database, table and cluster names are [A-Za-z0-9_]+ (they go into SQL). 0, or -1. */
int kifu__ch_names_check(const kifu_clickhouse_options *o, kifu_error *err);
/* Journal states (TABLE_batches): a batch's, and a removal's (of a replaced file's
 * games, or of a broken batch's). */
enum {
    KIFU__CH_J_STARTED,
    KIFU__CH_J_DONE,
    KIFU__CH_J_NEGATED,
    KIFU__CH_J_REMOVING,
    KIFU__CH_J_REMOVED,
    KIFU__CH_J_REMOVE_NEGATED
};
/* Rows per granule of the games table: the explorer reads a few games by id at scattered
 * places, each costing a granule. */
#define KIFU__CH_GAMES_GRANULE 64
/* Rows per granule of the tables the explorer reads by key (explorer, latest): a key's
 * rows are a few, and a granule's marks stay small enough for the mark cache at 10^8
 * rows (schema 3; schema 2 had ClickHouse's 8192). */
#define KIFU__CH_KEY_GRANULE 1024
/* "top" and "plies" of the latest games per (key, move) of the position rows selected
 * (first visits): KIFU__INDEX_TOP ranks (YYYYMMDD << 32 | game), newest first, and their
 * plies. For GROUP BY key, move. */
void kifu__ch_top_sql(kifu__strbuf *b, const char *top, const char *plies);
/* "[GLOBAL ][NOT ]IN (subquery)" (negate: NOT) of the game ids of the batches started and
 * not done, which readers leave out: a batch is seen whole or not at all. counts: only
 * those whose counts no repair took back yet (the explorer table still holds them). */
void kifu__ch_hidden(const kifu__ch *ch, kifu__strbuf *b, int counts, int negate);
/* "(subquery)": how many batches the journal has started and not done, the ones
 * kifu__ch_hidden leaves out (0 normally): a scalar, read before the query's tables. */
void kifu__ch_open_sql(const kifu__ch *ch, kifu__strbuf *b);
/* A reader's answer read without hiding batches (clickhouse_query.c) stands when a count
 * of open batches (kifu__ch_open_sql) was 0 and the answer came within this many ms of
 * that count's request; a writer waits this long after the journal row that starts a
 * batch before it writes any of the batch's rows (clickhouse_write.c), so no such answer
 * holds part of a batch. */
#define KIFU__CH_HIDE_LEASE_MS 1000
/* The listing table (schema 4): each game's `listing` by id, in the server's memory. */
#define KIFU__CH_LISTING_COLS "id UInt32, listing String"
#define KIFU__CH_LISTING_ENGINE "Join(ANY, LEFT, id)"
/* Table names as queries use them: "db.`t_games`" etc. */
void kifu__ch_name(const kifu__ch *ch, kifu__strbuf *b, const char *what, int local);

/* ---- clickhouse_write.c ---- */

int kifu__ch_flush(kifu_index *ix, kifu_error *err);
/* The game numbers of `path` with this content already indexed (sorted, new array or
 * NULL when none), and into *old the ids of its games indexed with other content (the
 * file changed since). 0, or -1. */
int kifu__ch_indexed(kifu_index *ix, const char *path, uint64_t digest,
                     uint32_t **numbers, size_t *n, kifu__ch_ids *old, kifu_error *err);
/* Append id to v. 0, or -1 out of memory. */
int kifu__ch_ids_add(kifu__ch_ids *v, uint32_t id);

/* ---- clickhouse_query.c ---- */

/* Count the rows of one key into a (flipped: moves and results turned), with the latest
 * games kept in ch->games for kifu__ch_game_get. Filters as kifu_index_explore takes. */
int kifu__ch_count(kifu_index *ix, uint64_t key, int flipped,
                   const kifu_explore_options *o, kifu__agg *a, kifu_error *err);
/* A game the last kifu__ch_count fetched, or NULL. */
const kifu__ch_game *kifu__ch_game_get(const kifu__ch *ch, long long id);
void kifu__ch_games_clear(kifu__ch *ch);
int kifu__ch_info(kifu_index *ix, kifu_index_info *out, kifu_error *err);
/* kifu_index_each_source on ClickHouse: each path with its games, in the order of its
 * first game. */
int kifu__ch_each_source(kifu_index *ix,
                         int (*fn)(void *ctx, const char *path, int games), void *ctx,
                         kifu_error *err);
long kifu__ch_find(kifu_index *ix, uint64_t key, kifu_index_row_fn fn, void *ctx,
                   kifu_error *err);
/* The explorer's query (backend.h, explore_*): kifu__ch_count and the games it fetched. */
void *kifu__ch_explore_begin(kifu_index *ix, const kifu_explore_options *o,
                             kifu_error *err);
int kifu__ch_explore_count(void *q, uint64_t key, int flipped, int mover, kifu__agg *a);
int kifu__ch_explore_game(void *q, long long id, kifu__explore_row *row);
void kifu__ch_explore_end(void *q);

/* Every game's identity and id; both sides of the games whose player key contains like
 * (NULL: all). 0, or -1 with err. */
int kifu__ch_idents(kifu_index *ix, kifu__ident_fn fn, void *ctx, kifu_error *err);
/* Every game's listing row (backend.h, games). */
int kifu__ch_games(kifu_index *ix, const kifu_explore_options *o, kifu__game_list_fn fn,
                   void *ctx, kifu_error *err);
int kifu__ch_players(kifu_index *ix, const char *like, kifu__player_row_fn fn, void *ctx,
                     kifu_error *err);

/* ---- clickhouse_sources.c ---- */

/* Is path indexed whole with this content (its row in the sources table)? 1 yes, 0 no,
 * -1 with err. The table is read once, and again after kifu__ch_sources_write. */
int kifu__ch_source_known(kifu_index *ix, const char *path, uint64_t dig,
                          kifu_error *err);
/* The batch's files (ix->sources) into the sources table, after their games. 0, or -1. */
int kifu__ch_sources_write(kifu_index *ix, kifu_error *err);
/* The files read (with games or not) and the duplicates skipped: 0, or -1 when the
 * index has no sources table (made before it). */
int kifu__ch_sources_info(kifu_index *ix, long long *sources, long long *dups);
void kifu__ch_sources_free(kifu__ch *ch);

/* ---- clickhouse_tags.c ---- */

/* The games table's tag columns (schema 3), after its others. */
#define KIFU__CH_TAGS_COLS                                                               \
    ", tags Array(LowCardinality(String)), tag_sides Array(UInt8), tag_families "        \
    "Array(UInt8)"
/* A game's tags as a tag list (index_taglist.c), a column of the rows read. */
#define KIFU__CH_TAG_LIST                                                                \
    "arrayStringConcat(arrayMap((n, s, f) -> concat(toString(s), toString(f), n), "      \
    "tags, tag_sides, tag_families), '\\n')"
/* The tag fields of g's TabSeparated games row ("\t[names]\t[sides]\t[families]"),
 * sorted by side, family and name. 0, or -1 out of memory. */
int kifu__ch_tags_row(kifu__strbuf *b, const kifu_index *ix, const struct kifu__igame *g);
/* The conditions (" AND ...") o's tag filters put on a games row (flipped: for the
 * colour-flipped position, sides swapped). Nothing when o is NULL or has none. */
void kifu__ch_tag_where(kifu__strbuf *b, const kifu_explore_options *o, int flipped);

/* An index made before tags (schema 2: its games table has no tags column) refused, as
 * schema 1 is (clickhouse_write.c): its games would answer no tag filter. 0, or -1. */
int kifu__ch_tags_check(kifu__ch *ch, kifu_error *err);

/* ---- clickhouse_search.c ---- */

/* kifu_index_search on ClickHouse: the games through keys[0] or keys[1] (nkeys 2), or
 * every game (nkeys 0), replayed and matched with s. The hits, or -1 with err. */
long kifu__ch_search(kifu_index *ix, kifu_search *s, unsigned flags, int nkeys,
                     const uint64_t *keys, kifu_index_hit_fn fn, void *ctx,
                     kifu_error *err);
/* The same over the games that pass o's tag filters (o NULL: every game), each hit with
 * its game's tags (backend.h, search_where). */
long kifu__ch_search_where(kifu_index *ix, kifu_search *s, unsigned flags, int nkeys,
                           const uint64_t *keys, const kifu_explore_options *o,
                           kifu_index_hit_fn fn, void *ctx, kifu_error *err);

#endif
