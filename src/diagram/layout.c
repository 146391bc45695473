/* layout.c: a diagram's layout (kifu__diagram_layout): what each square shows, the
 * labels and hands, flipped or not, computed once for every renderer (diagram.c's BOD
 * and terminal, svg.c). */
#include <string.h>

#include "diagram/diagram.h"
#include "notation/notation.h"
#include "rules/types.h"

void kifu__diagram_layout(const kifu__diagram *d, kifu__layout *out)
{
    memset(out, 0, sizeof *out);
    for (int r = 0; r < 9; r++) {
        for (int c = 0; c < 9; c++) {
            /* Unflipped: column 0 is file 9, row 0 is rank 1. */
            int x = d->flip ? c + 1 : 9 - c;
            int y = d->flip ? 9 - r : r + 1;
            kifu__cell *cell = &out->cells[r][c];
            cell->x = (uint8_t)x;
            cell->y = (uint8_t)y;
            cell->piece = d->board.sq[SQ(x, y)];
            cell->last = x == d->last_x && y == d->last_y;
            out->col_label[c] = x;
            out->row_label[r] = y;
        }
    }
    out->top_color = d->flip ? BLACK : WHITE;
    out->bottom_color = !out->top_color;
    kifu__hand_text(&d->board, BLACK, 0, out->hand[BLACK], sizeof out->hand[BLACK]);
    kifu__hand_text(&d->board, WHITE, 0, out->hand[WHITE], sizeof out->hand[WHITE]);
    out->side = d->board.color & 1;
}

/* The side's word: the record's (先手/後手, or 下手/上手 in a handicap game). */
const char *kifu__diagram_side(const kifu__diagram *d, int color)
{
    if (d->handicap)
        return color == BLACK ? "下手" : "上手";
    return color == BLACK ? "先手" : "後手";
}
