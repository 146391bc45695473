/* notation.h: readable move text and the parser of moves a person types (kifu play). */
#ifndef KIFU_NOTATION_H
#define KIFU_NOTATION_H

#include "kifu.h"

/* Japanese names used by move text and diagrams (UTF-8, static). */
const char *kifu__kanji_piece(int kind); /* "歩" ... "龍"; promoted lance "成香" */
const char *kifu__kanji_piece_one(int kind); /* one character: と 杏 圭 全 馬 龍 (BOD) */
const char *kifu__zen_digit(int n);          /* "１".."９" */
const char *kifu__kanji_number(int n);       /* "一".."十八" (1..18), "" otherwise */

/* Does the move promote? promote == 1, or a move the rules force to promote (a pawn or
 * lance to the last rank, a knight to the last two) whatever promote says. */
int kifu__move_promotes(const kifu_move *m);

/* What kifu__parse_typed_move returns besides 0 and -1. */
enum { KIFU__TYPED_ASK_PROMOTE = 1 };

/* Parse a move typed for the side to move of p: USI ("7g7f", "8h2b+", "P*5e"), KIF/KI2
 * Japanese ("７六歩", "76歩", "同銀", "２二角成", "５五角打", "７八金右", with an
 * optional ▲/△ mark and "(77)" source), or "FROM TO [PIECE] [+|=|naru|narazu]" with
 * two-digit squares
 * ("77 76", "7776", "00 55 kaku", "00 55 KA"). prev_to is the square (x*10+y) of the last
 * move, for 同; 0 if none.
 *
 * Returns 0 with *out a complete legal move; KIFU__TYPED_ASK_PROMOTE when the text names
 * a legal move that may promote or not and did not say which (*out is the promoting one);
 * -1 with err (KIFU_ERR_SYNTAX: not a move; KIFU_ERR_ILLEGAL with the engine's reason;
 * KIFU_ERR_AMBIGUOUS naming the candidates). Promotion that the rules force is applied.
 */
int kifu__parse_typed_move(const kifu_position *p, const char *text, int prev_to,
                           kifu_move *out, kifu_error *err);

#endif
