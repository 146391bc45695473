/* notation.h: readable move text and the parser of moves a person types (kifu play). */
#ifndef KIFU_NOTATION_H
#define KIFU_NOTATION_H

#include "kifu.h"

/* The words themselves (piece names, digits, numerals) are in notation/words.h. */
#include "notation/words.h"

/* Styles of kifu_move_text beyond kifu.h's, for the file writers. */
enum {
    KIFU__TEXT_TRIANGLE = 0x100, /* ▲△ marks (KI2 files) instead of ☗☖ */
    KIFU__TEXT_NO_NARAZU = 0x200, /* 不成 left out (KIF files: the source square tells) */
    KIFU__TEXT_PAD_SAME =
        0x400, /* 同 always followed by a full-width space (KIF files) */
    KIFU__TEXT_PAD_REST = 0x800, /* ... only when one character follows it (KI2 files) */
};

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
