/* sfen.h: SFEN and USI text of positions and moves, and the checks every position passes. */
#ifndef KIFU_RULES_SFEN_H
#define KIFU_RULES_SFEN_H

#include <stddef.h>

#include "rules/position.h"

/* Check a board: valid codes, at most one king per color, piece totals, no piece on a
 * square it could never leave, no 二歩, side to move valid, and the side not to move not
 * in check. sq_off (may be NULL) gives the text offset of each square's piece, for errors
 * in SFEN text (then code is KIFU_ERR_SFEN and messages name the field); hands_off the
 * offset of the hands field. 0, or -1 with err. */
int kifu__board_check(const kifu_board *b, const char *text, const size_t *sq_off,
                      size_t hands_off, kifu_error *err);
/* The same with loose != 0: only what the engine needs to work (valid codes, one king per
 * color, piece totals), not the rules of a reachable position: record start positions
 * (puzzles, "nine pawns" games) may hold 二歩, dead pieces or an exposed king. */
int kifu__board_check_mode(const kifu_board *b, const char *text, const size_t *sq_off,
                           size_t hands_off, int loose, kifu_error *err);

/* Parse "<board> <side> <hands> [<move number>]" at text + *at; on success *at is just
 * after the last field used and the board is checked. move_number gets 0 when absent. */
int kifu__sfen_parse(const char *text, size_t *at, kifu_board *b, int *move_number,
                     kifu_error *err);
/* The same, the board checked as kifu__board_check_mode(loose) does. */
int kifu__sfen_parse_mode(const char *text, size_t *at, kifu_board *b, int *move_number,
                          int loose, kifu_error *err);

/* SFEN of a position (with the move number when it is > 0) into buf (>= 256 bytes). */
void kifu__sfen_write(const kpos *p, int move_number, char *buf, size_t cap);

/* A USI move token as written: squares, the dropped kind (0: a board move; from is then
 * NO_SQ for a drop) and the promotion mark. */
typedef struct kifu__usi_move {
    int from, to, drop, promote;
} kifu__usi_move;
/* Read USI move token s (len bytes) without a position. 0, or -1 with *why. */
int kifu__usi_syntax(const char *s, size_t len, kifu__usi_move *m, const char **why);
/* USI move token s (len bytes) on p: a move with its capture set, or MOVE_NONE with *why.
 * Checks only that the squares exist and there is a piece of the side to move to play. */
kmove kifu__usi_parse(const kpos *p, const char *s, size_t len, const char **why);
/* USI text of a packed move into buf (>= 6 bytes). */
char *kifu__usi_write(kmove m, char *buf);

extern const char kifu__sfen_startpos[];

#endif
