/* diagram.h: text board diagrams. The layout (which piece goes in which cell, the hands,
 * flipping, the highlighted square) is computed once by kifu__diagram_layout; renderers
 * only print a layout: BOD (the KIF board text) and the terminal form with Unicode frame
 * and optional ANSI colour. An SVG renderer can sit beside them on the same layout. */
#ifndef KIFU_DIAGRAM_H
#define KIFU_DIAGRAM_H

#include "core/strbuf.h"
#include "kifu.h"

typedef struct kifu__diagram {
    kifu_board board;
    int flip;           /* draw from gote's side (rotated 180 degrees) */
    int last_x, last_y; /* destination of the last move, highlighted; 0 if none */
    int ply;            /* number of moves played; 0 hides the 手数 line */
    char last_text[64]; /* readable last move ("☗７六歩(77)"), may be empty */
    char ending[64];    /* the ending at the cursor ("投了"), "" if none */
} kifu__diagram;

typedef struct kifu__cell {
    uint8_t piece; /* kind | color << 4, 0 when empty */
    uint8_t x, y;  /* the board square shown in this cell */
    uint8_t last;  /* the last move landed here */
} kifu__cell;

typedef struct kifu__layout {
    kifu__cell cells[9][9];      /* [row][column] as drawn, top-left first */
    int col_label[9];            /* file number above each column */
    int row_label[9];            /* rank number beside each row */
    int top_color, bottom_color; /* whose hand is drawn above and below the board */
    char hand[2][128];           /* hands as text per color: "飛　歩二" or "なし" */
    int side;                    /* side to move */
} kifu__layout;

void kifu__diagram_layout(const kifu__diagram *d, kifu__layout *out);
/* The hand of color c as KIF writes it ("角　歩十三", "なし"). */
void kifu__diagram_hand(const kifu_board *b, int color, char *buf, size_t cap);

/* BOD text as KIF files hold it (後手の持駒, the ruled board with v for gote, 先手の持駒,
 * 手数＝N line when ply > 0, 後手番 when gote moves). */
void kifu__diagram_bod(const kifu__diagram *d, kifu__strbuf *out);
/* The terminal form: box-drawing frame, full-width labels; with colour, gote's pieces and
 * the last move's square are coloured (ANSI), else gote is marked v and the last move
 * with brackets in the 手数 line only. */
void kifu__diagram_term(const kifu__diagram *d, int colour, kifu__strbuf *out);

/* The diagram at a player's cursor: board, last move (text and square), ply. */
void kifu__diagram_from_player(const kifu_player *pl, int flip, kifu__diagram *out);
/* Text of the move or ending at node n, KIF style ("☗７六歩(77)", "投了"); "" at the
 * root. */
char *kifu__node_text(const kifu_node *n, char *buf, size_t cap);
/* The moves of the current line around the cursor, `before` plies back and `after`
 * ahead, one per line: "   12 ☗２二角成(88)", the cursor's line marked with '>', a '+'
 * after moves that have alternatives. Each line is prefixed with `indent`. */
void kifu__diagram_moves(const kifu_player *pl, int before, int after, const char *indent,
                         kifu__strbuf *out);

#endif
