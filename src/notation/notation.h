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
    KIFU__TEXT_NO_SAME = 0x1000, /* the square, never 同 (a KI2 variation's first move) */
};

/* Does the move promote? promote == 1, or a move the rules force to promote (a pawn or
 * lance to the last rank, a knight to the last two) whatever promote says. */
int kifu__move_promotes(const kifu_move *m);

/* What kifu__parse_typed_move returns besides 0 and -1. */

#endif
