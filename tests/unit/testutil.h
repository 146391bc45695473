/* testutil.h: helpers several unit tests share (reading and writing with given options,
 * walking the main line, a text picture of a record to compare two reads by, positions
 * from SFEN). Linked into every test next to the harness; only public API inside. */
#ifndef KIFU_TESTUTIL_H
#define KIFU_TESTUTIL_H

#include <stddef.h>

#include "kifu.h"

/* kifu_read of [s, s + len) with format and flags (err cleared first). */
kifu_record *t_read_text(const char *s, size_t len, int format, unsigned flags,
                         kifu_error *err);
/* kifu_write in format and encoding (err cleared first); *len when len is not NULL. */
char *t_write_as(const kifu_record *r, int format, int enc, size_t *len, kifu_error *err);

/* The node at ply along the main line (0: the root), or NULL past the end. */
kifu_node *t_node_at(const kifu_record *r, int ply);
/* The move of node n (a copy in one of 16 buffers used in turn), or NULL (the root or a
 * special). */
const kifu_move *t_move(const kifu_node *n);
/* Its move, or NULL (past the end, the root or a special). */
const kifu_move *t_move_at(const kifu_record *r, int ply);
/* A move with every field given (relative: a JKF word; its bytes after the NUL are 0). */
kifu_move t_move_make(int color, int fx, int fy, int tx, int ty, int piece, int cap,
                      int promote, int same, const char *rel, int flags);

/* A text picture of the record (free()): header, start position, and every field the
 * readers set on every node, forks indented. Two records that dump alike hold the same
 * game as far as a reader can tell. Cut at 64 KiB. */
char *t_dump(const kifu_record *r);

/* A new position from SFEN; a bad SFEN is printed (the position is then the start). */
kifu_position *t_position(const char *sfen);
/* Play a USI move on p. 0, or -1 when it does not parse or is illegal. */
int t_play_usi(kifu_position *p, const char *usi);

/* A record of `levels` nested fork levels: at every level the main child is a dead end
 * and the line goes on through the fork (kings stepping around, so every move is legal).
 * Not normalized. 2 * levels + 1 nodes. */
kifu_record *t_nested_forks(int levels);

/* The index of a test at path (kifu_index_open), or with KIFU_TEST_INDEX=http://HOST:PORT
 * a ClickHouse database of its own for that path on that server, as
 * tests/cli/index_lib.bash does for the CLI tests: with KIFU_INDEX_CREATE and no file at
 * path the database is made new, and a marker file written at path (so that remove(path)
 * makes the next create start afresh, as for an index file). */
kifu_index *t_index_open(const char *path, unsigned flags, kifu_error *err);
/* The server's URL when the index tests run on ClickHouse, else NULL. */
const char *t_index_clickhouse(void);

#endif
