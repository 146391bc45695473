/* index_sqlite.h: the operations of the SQLite index (index_sqlite.c holds their table),
 * from the files that implement them. */
#ifndef KIFU_INDEX_SQLITE_H
#define KIFU_INDEX_SQLITE_H

#include "index/index_private.h"

/* index_sqlite_write.c: the largest id in `table` (0: none). A full batch written inside
 * the add's transaction (opened by the first); everything queued written and committed.
 * 0, or -1 with err: the whole add is rolled back. */
uint32_t kifu__sqlite_max_id(sqlite3 *db, const char *table);
int kifu__sqlite_write(kifu_index *ix, kifu_error *err);
int kifu__sqlite_rows(kifu_index *ix, kifu_error *err);
int kifu__sqlite_flush(kifu_index *ix, kifu_error *err);

/* index_sqlite_explore.c: the explorer's query (backend.h, explore_*). */
void *kifu__sqlite_explore_begin(kifu_index *ix, const kifu_explore_options *o,
                                 kifu_error *err);
int kifu__sqlite_explore_count(void *q, uint64_t key, int flipped, int mover,
                               struct kifu__agg *a);
int kifu__sqlite_explore_game(void *q, long long id, kifu__explore_row *g);
void kifu__sqlite_explore_end(void *q);

/* index_search.c */
long kifu__sqlite_search(kifu_index *ix, kifu_search *s, unsigned flags, int nkeys,
                         const uint64_t *keys, kifu_index_hit_fn fn, void *ctx,
                         kifu_error *err);
/* The same over the games o's tag filters pass, each hit with its game's tags. */
long kifu__sqlite_search_where(kifu_index *ix, kifu_search *s, unsigned flags, int nkeys,
                               const uint64_t *keys, const kifu_explore_options *o,
                               kifu_index_hit_fn fn, void *ctx, kifu_error *err);
int kifu__sqlite_each_source(kifu_index *ix,
                             int (*fn)(void *ctx, const char *path, int games), void *ctx,
                             kifu_error *err);
/* index_find.c */
long kifu__sqlite_find(kifu_index *ix, uint64_t key, kifu_index_row_fn fn, void *ctx,
                       kifu_error *err);
/* index_sqlite_players.c: every game's identity; both sides of the games whose player
 * key contains like (NULL: all). 0, or -1 with err. */
int kifu__sqlite_idents(kifu_index *ix, kifu__ident_fn fn, void *ctx, kifu_error *err);
int kifu__sqlite_games(kifu_index *ix, const kifu_explore_options *o,
                       kifu__game_list_fn fn, void *ctx, kifu_error *err);
/* One game's tags (the games op streams none): the op game_tags. */
int kifu__sqlite_game_tags(kifu_index *ix, long long id, char **out, kifu_error *err);
void kifu__sqlite_deadline(kifu_index *ix, int ms);
int kifu__sqlite_players(kifu_index *ix, const char *like, kifu__player_row_fn fn,
                         void *ctx, kifu_error *err);
/* The op player: both sides of the games of the player whose key is key. */
int kifu__sqlite_player(kifu_index *ix, const char *key, kifu__player_row_fn fn,
                        void *ctx, kifu_error *err);
/* index_check.c: kifu_index_check. */
int kifu__sqlite_check(kifu_index *ix, void (*fn)(void *ctx, const kifu_error *damage),
                       void *ctx, kifu_index_check_counts *out, kifu_error *err);
/* index_book.c */
int kifu__sqlite_export_book(kifu_index *ix, int format, const kifu_book_options *o,
                             kifu_output_fn out, void *ctx, kifu_error *err);

/* PRAGMA data_version (the op data_version). */
long long kifu__sqlite_data_version(kifu_index *ix);

#endif
