/* backend.h: what an index's store does, as a table of operations. The games and position
 * rows are made the same way for every store (index_build.c), and the explorer's answer
 * is put together the same way (index_explore.c); where the rows are kept and how they are
 * read back is the backend's: an SQLite file (index_sqlite.c) or ClickHouse
 * (clickhouse_write.c). The open function of each sets ix->ops, and no other code asks
 * which backend it has: the public calls go through the table (index.c). */
#ifndef KIFU_INDEX_BACKEND_H
#define KIFU_INDEX_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "kifu.h"

struct kifu__agg;

/* What an index holds of a file about to be added (lookup). */
typedef struct kifu__known {
    uint32_t id;     /* the file's source id, or 0: not indexed (a new id is taken) */
    uint64_t digest; /* the content indexed under id */
    /* Game numbers of the file indexed already with this content (sorted), skipped as
     * it is read again; and the ids of games indexed from its other content, given to
     * replaced once the file has read. Both new arrays or NULL. */
    uint32_t *done, *gone;
    size_t ndone, ngone;
} kifu__known;

/* One game the explorer lists, its strings borrowed until the next explore_game. */
typedef struct kifu__explore_row {
    long long id;
    const char *sente, *gote, *date, *event, *source;
    int number, result;
} kifu__explore_row;

/* One side of one game, for the players' list (players): the player's key and name as
 * written, rating (0: none), the side (0 sente, 1 gote), the game's result (KIFU__RES_*)
 * and date (NULL: none), and the game's tags as a tag list (index_taglist.c; NULL or
 * "": none); borrowed during the callback. */
typedef struct kifu__player_row {
    const char *key, *name, *date;
    int rating, side, result;
    const char *tags;
} kifu__player_row;
typedef int (*kifu__player_row_fn)(void *ctx, const kifu__player_row *r);
/* One indexed game's identity (index_dups.c) and id. 0, or nonzero to stop (NOMEM). */
typedef int (*kifu__ident_fn)(void *ctx, uint64_t ident, uint32_t game);

/* One indexed game for the listing (kifu_index_games), with its players' keys (NULL:
 * none); borrowed during the callback. Nonzero stops. */
typedef int (*kifu__game_list_fn)(void *ctx, const kifu_index_game *g,
                                  const char *sente_key, const char *gote_key);

typedef struct kifu__index_ops {
    /* ---- writing ---- */
    /* The digest that tells a changed file from an unchanged one, as the store keeps it. */
    uint64_t (*digest)(const unsigned char *data, size_t len);
    /* What the index (and the batch not written yet) holds of path, whose content has
     * digest dig. 0, or -1 with err. */
    int (*lookup)(kifu_index *ix, const char *path, uint64_t dig, kifu__known *k,
                  kifu_error *err);
    /* The games of a file's old content (kifu__known.gone), dropped before the next
     * batch is written. 0, or -1 with err. */
    int (*replaced)(kifu_index *ix, const uint32_t *games, size_t n, kifu_error *err);
    /* A full batch written in the middle of an add; and everything queued written and
     * committed (kifu_index_flush). Either way the batch is emptied. 0, or -1 with err. */
    int (*write)(kifu_index *ix, kifu_error *err);
    /* The games queued so far written ahead of their batch where the backend can (NULL:
     * none), as each file is queued. 0, or -1 with err (the add rolled back). */
    int (*rows)(kifu_index *ix, kifu_error *err);
    int (*flush)(kifu_index *ix, kifu_error *err);
    int (*compact)(kifu_index *ix, kifu_error *err);
    /* Give back what the backend holds (the batch is the caller's). */
    void (*close)(kifu_index *ix);
    /* Every indexed game's identity and id (duplicates are told by them). 0, or -1. */
    int (*idents)(kifu_index *ix, kifu__ident_fn fn, void *ctx, kifu_error *err);
    /* ---- reading ---- */
    int (*info)(kifu_index *ix, kifu_index_info *out, kifu_error *err);
    /* One explorer query: begin (its state, or NULL with err), the counts of one key
     * merged into a (flipped: seen from the other side; mover: the key's side to move,
     * whose players' ratings the moves average; 0, or -1 with the query's err), a
     * listed game by id (1, or 0 when the backend has no such game), end. */
    void *(*explore_begin)(kifu_index *ix, const kifu_explore_options *o,
                           kifu_error *err);
    int (*explore_count)(void *q, uint64_t key, int flipped, int mover,
                         struct kifu__agg *a);
    int (*explore_game)(void *q, long long id, kifu__explore_row *g);
    void (*explore_end)(void *q);
    /* kifu_index_search: the games through keys[0] or keys[1] (nkeys 2), or every game
     * (nkeys 0), replayed and matched with s (kifu__index_search_game). */
    long (*search)(kifu_index *ix, kifu_search *s, unsigned flags, int nkeys,
                   const uint64_t *keys, kifu_index_hit_fn fn, void *ctx,
                   kifu_error *err);
    /* search over the games that pass o's tag filters, each hit with its tags; NULL:
     * the backend keeps no tags (then explore refuses tag filters too). */
    long (*search_where)(kifu_index *ix, kifu_search *s, unsigned flags, int nkeys,
                         const uint64_t *keys, const kifu_explore_options *o,
                         kifu_index_hit_fn fn, void *ctx, kifu_error *err);
    int (*each_source)(kifu_index *ix, int (*fn)(void *ctx, const char *path, int games),
                       void *ctx, kifu_error *err);
    long (*find)(kifu_index *ix, uint64_t key, kifu_index_row_fn fn, void *ctx,
                 kifu_error *err);
    /* Both sides of every game whose player key contains like (NULL: every game) with a
     * key. 0, or -1 with err. */
    int (*players)(kifu_index *ix, const char *like, kifu__player_row_fn fn, void *ctx,
                   kifu_error *err);
    /* Both sides of the games of the player whose key is key, found by the key (not
     * every game read); NULL: players does it (like key, the other keys left out). 0,
     * or -1 with err. */
    int (*player)(kifu_index *ix, const char *key, kifu__player_row_fn fn, void *ctx,
                  kifu_error *err);
    /* Every indexed game, in no particular order (kifu_index_games sorts). 0, or -1
     * with err (fn's stop is no error). */
    int (*games)(kifu_index *ix, const kifu_explore_options *o, kifu__game_list_fn fn,
                 void *ctx, kifu_error *err);
    /* One game's tags as kifu_index_game.tags has them, into *out (the caller's, freed
     * with kifu__free; NULL: none), for a backend whose games op streams the games
     * without their tags (reading them is most of a list's cost on SQLite: only the
     * page's are read). NULL when games gives them. 0, or -1 with err. */
    int (*game_tags)(kifu_index *ix, long long id, char **out, kifu_error *err);
    /* Queries stop once ms milliseconds from now have passed (0: no bound); NULL when
     * the backend bounds its requests otherwise. */
    void (*deadline)(kifu_index *ix, int ms);
    /* kifu_index_data_version: a number that moves when another handle commits; NULL
     * when the backend cannot tell (kifu_index_data_version answers -1). */
    long long (*data_version)(kifu_index *ix);
    int (*export_book)(kifu_index *ix, int format, const kifu_book_options *o,
                       kifu_output_fn out, void *ctx, kifu_error *err);
    /* kifu_index_check: every stored part verified, each damaged one given to fn. 1
     * damaged, 0 clean, -1 with err. NULL: the backend has no check (ClickHouse checks
     * its own parts), and kifu_index_check says so. */
    int (*check)(kifu_index *ix, void (*fn)(void *ctx, const kifu_error *damage),
                 void *ctx, kifu_index_check_counts *out, kifu_error *err);
} kifu__index_ops;

/* index.c: a new index on path (a file, or the servers' URLs) with the backend ops, its
 * batch empty; or NULL with err (NOMEM). */
kifu_index *kifu__index_new(const char *path, const kifu__index_ops *ops,
                            kifu_error *err);
/* The index's own memory, when its open fails (the backend's state already freed). */
void kifu__index_free(kifu_index *ix);

/* index_build.c: the batch emptied (its games, positions and sources dropped). */
void kifu__index_batch_free(kifu_index *ix);
/* index_sum.c: the two digests: FNV-1a over every byte (ClickHouse indexes store it),
 * and a faster one of four lanes (SQLite indexes; and their checksums). */
uint64_t kifu__index_digest_fnv(const unsigned char *d, size_t n);
uint64_t kifu__index_digest_fast(const unsigned char *d, size_t n);

/* index_search.c: the keys a search can be answered from (kifu_search_target): 2, with
 * the key and the key of the other side to move (the same unless KIFU_SEARCH_ANY_SIDE),
 * or 0 (a pattern, or the board alone: every game is read). The search's flags in
 * *flags. */
int kifu__index_search_keys(kifu_search *s, unsigned *flags, uint64_t keys[2]);

#endif
