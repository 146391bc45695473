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
    int from_x, from_y; /* where that move came from (0: a drop or none), lighter */
    int ply;            /* number of moves played; 0 hides the 手数 line */
    int number;         /* the move number of that ply (a SFEN's own goes on), as shown */
    char last_text[64]; /* readable last move ("☗７六歩(77)"), may be empty */
    char ending[64];    /* the ending at the cursor ("投了"), "" if none */
    int handicap;       /* the sides are 下手 (sente) and 上手, as the record says */
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
    const kifu_board *board;     /* the position drawn (set by renderers that need it) */
} kifu__layout;

void kifu__diagram_layout(const kifu__diagram *d, kifu__layout *out);

/* BOD text as KIF files hold it (後手の持駒, the ruled board with v for gote, 先手の持駒,
 * 手数＝N line when ply > 0, 後手番 when gote moves). */
void kifu__diagram_bod(const kifu__diagram *d, kifu__strbuf *out);
/* The terminal form: box-drawing frame, full-width labels; with colour, gote's pieces and
 * the last move's square are coloured (ANSI), else gote is marked v and the last move
 * with brackets in the 手数 line only. */
void kifu__diagram_term(const kifu__diagram *d, int colour, kifu__strbuf *out);

/* How kifu__diagram_svg draws. All zero: the defaults (398 px wide, one-character
 * kanji, the last move highlighted, no caption, 先手/後手 labels). */
typedef struct kifu__svg_options {
    int size;       /* width in px; the height follows the fixed aspect */
    int two_char;   /* 成香 成桂 成銀 in two characters instead of 杏 圭 全 */
    int intl;       /* the international set: P L N S G B R K, +P ... */
    int tsume;      /* 持駒 label, the defender's (gote's) hand left out */
    int no_mvlight; /* do not highlight the last move (destination, origin lighter) */
    const char *caption; /* a line under the board (図は▲７六歩まで, 第1図), or NULL */
    const char *names[2]; /* side labels instead of 先手/後手 (players' names), or NULL */
} kifu__svg_options;

/* The diagram as a self-contained SVG document (see svg.c). */
void kifu__diagram_svg(const kifu__diagram *d, const kifu__svg_options *o,
                       kifu__strbuf *out);

/* The diagram at a player's cursor: board, last move (text and square), ply. */
/* The word of side `color` in d: 先手/後手, or 下手/上手. */
const char *kifu__diagram_side(const kifu__diagram *d, int color);
void kifu__diagram_from_player(const kifu_player *pl, int flip, kifu__diagram *out);
/* The moves of the current line around the cursor, `before` plies back and `after`
 * ahead, one per line: "   12 ☗２二角成(88)", the cursor's line marked with '>', a '+'
 * after moves that have alternatives. Each line is prefixed with `indent`. */
void kifu__diagram_moves(const kifu_player *pl, int before, int after, const char *indent,
                         kifu__strbuf *out);

#endif
