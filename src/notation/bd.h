/* bd.h: the letters of the position-list format (posjson, ../shared/seeds/002): a board as
 * 81 letters from 9一 toward 1一, rank by rank to 1九, and hands as one letter per piece.
 * Search patterns (`kifu search --bd/--regex`) and the HTML viewer use the same letters. */
#ifndef KIFU_NOTATION_BD_H
#define KIFU_NOTATION_BD_H

#include <stddef.h>

#include "kifu.h"

/* The empty square. */
#define KIFU__BD_EMPTY 'o'

/* Letter of a coloured piece (kind | color << 4, as kifu_board holds it); 'o' for 0. */
char kifu__bd_letter(int cpiece);
/* The coloured piece of a letter, 0 for 'o', -1 for a letter that is not in the set. */
int kifu__bd_piece(char c);
/* 1-based index in bd of square (x, y): 9一 is 1, 1一 is 9, 1九 is 81 (posjson's `mv`). */
static inline int kifu__bd_index(int x, int y)
{
    return (y - 1) * 9 + (9 - x) + 1;
}
/* The square (x, y) of a 1-based bd index (1..81). */
static inline void kifu__bd_square(int index, int *x, int *y)
{
    *x = 9 - (index - 1) % 9;
    *y = (index - 1) / 9 + 1;
}

/* Write b's 81 board letters (NUL-terminated, bd[82]) and both hands: each hand as one
 * letter per piece in the order 歩 香 桂 銀 金 角 飛, in its owner's letters (cb: sente's
 * a c e g i k m; cw: gote's b d f h j l n), NUL-terminated. A hand holds at most 38
 * pieces, so 40 bytes are enough. */
void kifu__bd_write(const kifu_board *b, char bd[82], char cb[40], char cw[40]);

/* Read a board of 81 letters into b (squares only; hands and side untouched). -1 with
 * *bad the 0-based index of the first wrong letter (or the length, when it is not 81
 * letters long). */
int kifu__bd_read_board(const char *bd, size_t len, kifu_board *b, size_t *bad);
/* Add the pieces of a hand string to b's hand of `color`. Letters of either side's set
 * are read (a hand is one owner's, whatever case it was written in); promoted pieces and
 * kings are not hand pieces. -1 with *bad the 0-based index of the first wrong letter. */
int kifu__bd_read_hand(const char *s, size_t len, int color, kifu_board *b, size_t *bad);

#endif
