/* svg.c: a board diagram as SVG, drawn from the same layout as the BOD and terminal
 * forms (diagram.h). Self-contained: no font file, no script, no external style; every
 * part carries a class (bg, grid, piece, gote, promoted, last, last-from, hand, side,
 * label, caption) so a page can restyle it, and the embedded defaults print as vectors.
 * The HTML viewer (assets/viewer.js) draws the same geometry and classes. */
#include <stdio.h>
#include <string.h>

#include "diagram/diagram.h"
#include "notation/notation.h"
#include "rules/types.h"

enum {
    CELL = 40,
    X0 = 12,
    Y0 = 64,
    WIDTH = X0 * 2 + CELL * 9 + 14,
    HEIGHT = Y0 + CELL * 9 + 64
};

/* Serif faces that hold kanji on Linux, macOS, Windows and phones, then any serif. */
#define FONTS                                                                            \
    "'Hiragino Mincho ProN','Yu Mincho','YuMincho','Noto Serif CJK JP','Noto Serif JP'," \
    "'IPAexMincho','IPAMincho','MS Mincho','Source Han Serif',serif"

static const char *const style =
    "<style>"
    ".bg{fill:#f3d9a4}.grid{stroke:#5a4025;stroke-width:1;fill:none}"
    ".frame{stroke:#5a4025;stroke-width:2.5;fill:none}.star{fill:#5a4025}"
    "text{font-family:" FONTS ";dominant-baseline:central}"
    ".label{font-size:14px;fill:#333;text-anchor:middle}"
    ".side,.hand{font-size:16px;fill:#222}"
    ".piece{font-size:30px;fill:#1b1b1b;text-anchor:middle}.piece.small{font-size:17px}"
    ".piece.promoted{fill:#b0141b}"
    ".intl{font-family:system-ui,Helvetica,Arial,sans-serif;font-size:24px;font-weight:"
    "bold}"
    ".last{fill:#f0a04b}.last-from{fill:#f7d2a0}"
    ".caption{font-size:15px;fill:#222;text-anchor:middle}"
    "</style>";

/* International letters by kind (FU .. RY). */
static const char *const intl[15] = {"",  "P",  "L",  "N",  "S",  "B",  "R", "G",
                                     "K", "+P", "+L", "+N", "+S", "+B", "+R"};

static void piece(kifu__strbuf *out, const kifu__svg_options *o, int cp, int cx, int cy,
                  int down)
{
    int kind = CPIECE_KIND(cp);
    const char *cls = kind >= PRO_PAWN && kind != KING ? "piece promoted" : "piece";
    const char *gote = CPIECE_COLOR(cp) == WHITE ? " gote" : "";
    char turn[48] = "";
    if (down)
        snprintf(turn, sizeof turn, " transform=\"rotate(180 %d %d)\"", cx, cy);
    if (o->intl) {
        kifu__sb_printf(out, "<text class=\"%s intl%s\" x=\"%d\" y=\"%d\"%s>%s</text>",
                        cls, gote, cx, cy, turn, intl[kind]);
        return;
    }
    const char *name =
        o->two_char ? kifu__kanji_piece(kind) : kifu__kanji_piece_one(kind);
    if (strlen(name) <= 3) {
        kifu__sb_printf(out, "<text class=\"%s%s\" x=\"%d\" y=\"%d\"%s>%s</text>", cls,
                        gote, cx, cy, turn, name);
        return;
    }
    /* 成香 成桂 成銀: two small characters, one above the other. */
    kifu__sb_printf(out,
                    "<g%s><text class=\"%s small%s\" x=\"%d\" y=\"%d\">%.3s</text>"
                    "<text class=\"%s small%s\" x=\"%d\" y=\"%d\">%s</text></g>",
                    turn, cls, gote, cx, cy - 9, name, cls, gote, cx, cy + 9, name + 3);
}

/* Width of text in em, about: a wide (CJK) character is one, anything else 0.6. */
static double text_em(const char *s)
{
    double em = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if ((*p & 0xc0) != 0x80)
            em += *p >= 0xe0 ? 1.0 : 0.6;
    return em;
}

/* <text class=cls> at (x, y) holding s, squeezed to max px when it would be wider (a
 * full hand, a long name), so that it never runs off the diagram or into its neighbour. */
static void fitted_text(kifu__strbuf *out, const char *cls, int x, int y, int max,
                        const char *s)
{
    kifu__sb_printf(out, "<text class=\"%s\" x=\"%d\" y=\"%d\"", cls, x, y);
    if (text_em(s) * 16 > max)
        kifu__sb_printf(out, " textLength=\"%d\" lengthAdjust=\"spacingAndGlyphs\"", max);
    kifu__sb_putc(out, '>');
    kifu__sb_xml(out, s);
    kifu__sb_puts(out, "</text>");
}

/* A hand row: the side's label and its pieces, at baseline y. */
static void hand(kifu__strbuf *out, const kifu__diagram *d, const kifu__svg_options *o,
                 const kifu__layout *l, int color, int y)
{
    if (o->tsume && color == WHITE)
        return; /* a tsume diagram leaves out the defender's hand */
    /* A buffer, not an array: a player's name of any length stays whole UTF-8. */
    kifu__strbuf label;
    kifu__sb_init(&label);
    if (o->tsume)
        kifu__sb_puts(&label, "持駒");
    else
        kifu__sb_printf(&label, "%s%s%s", color == WHITE ? "☖" : "☗",
                        o->names[color] ? o->names[color]
                        : o->intl       ? (color == WHITE ? "Gote" : "Sente")
                                        : kifu__diagram_side(d, color),
                        l->side == color ? " ◀" : "");
    char pieces[160];
    if (!o->intl) {
        snprintf(pieces, sizeof pieces, "%s%s", o->tsume ? "" : "持駒 ", l->hand[color]);
    } else {
        static const int order[7] = {ROOK, BISHOP, GOLD, SILVER, KNIGHT, LANCE, PAWN};
        size_t at = (size_t)snprintf(pieces, sizeof pieces, "In hand:");
        for (int i = 0; i < 7; i++) {
            int n = l->board->hands[color][order[i]];
            if (n && at < sizeof pieces)
                at += (size_t)snprintf(pieces + at, sizeof pieces - at,
                                       n > 1 ? " %s%d" : " %s", intl[order[i]], n);
        }
        if (at == strlen("In hand:"))
            snprintf(pieces + at, sizeof pieces - at, " none");
    }
    fitted_text(out, "side", X0, y, 140, label.data ? label.data : "");
    kifu__sb_free(&label);
    fitted_text(out, "hand", X0 + 150, y, WIDTH - X0 - 150 - 4, pieces);
}

void kifu__diagram_svg(const kifu__diagram *d, const kifu__svg_options *o,
                       kifu__strbuf *out)
{
    kifu__layout l;
    kifu__diagram_layout(d, &l);
    l.board = &d->board;
    int w = o->size > 0 ? o->size : WIDTH;
    kifu__sb_printf(out,
                    "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"kifu-board\" "
                    "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">",
                    w, w * HEIGHT / WIDTH, WIDTH, HEIGHT);
    kifu__sb_puts(out, style);
    kifu__sb_printf(out,
                    "<rect class=\"bg\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>",
                    X0, Y0, CELL * 9, CELL * 9);
    for (int r = 0; r < 9; r++) {
        for (int c = 0; c < 9; c++) {
            const kifu__cell *cell = &l.cells[r][c];
            int x = X0 + c * CELL, y = Y0 + r * CELL;
            const char *mark = o->no_mvlight ? NULL
                               : cell->last  ? "last"
                               : cell->x == d->from_x && cell->y == d->from_y
                                   ? "last-from"
                                   : NULL;
            if (mark)
                kifu__sb_printf(out,
                                "<rect class=\"%s\" x=\"%d\" y=\"%d\" width=\"%d\" "
                                "height=\"%d\"/>",
                                mark, x, y, CELL, CELL);
            if (cell->piece)
                piece(out, o, cell->piece, x + CELL / 2, y + CELL / 2,
                      CPIECE_COLOR(cell->piece) != l.bottom_color);
        }
    }
    kifu__sb_puts(out, "<g class=\"grid\">");
    for (int k = 1; k < 9; k++)
        kifu__sb_printf(out,
                        "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>"
                        "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>",
                        X0 + k * CELL, Y0, X0 + k * CELL, Y0 + 9 * CELL, X0,
                        Y0 + k * CELL, X0 + 9 * CELL, Y0 + k * CELL);
    kifu__sb_printf(
        out, "</g><rect class=\"frame\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>",
        X0, Y0, CELL * 9, CELL * 9);
    for (int i = 0; i < 4; i++)
        kifu__sb_printf(out, "<circle class=\"star\" cx=\"%d\" cy=\"%d\" r=\"2.5\"/>",
                        X0 + (i / 2 ? 6 : 3) * CELL, Y0 + (i % 2 ? 6 : 3) * CELL);
    for (int k = 0; k < 9; k++) {
        char digit[2] = {(char)('0' + l.col_label[k]), 0};
        kifu__sb_printf(out, "<text class=\"label\" x=\"%d\" y=\"%d\">%s</text>",
                        X0 + k * CELL + CELL / 2, Y0 - 10,
                        o->intl ? digit : kifu__zen_digit(l.col_label[k]));
        if (o->intl)
            kifu__sb_printf(out, "<text class=\"label\" x=\"%d\" y=\"%d\">%c</text>",
                            X0 + 9 * CELL + 9, Y0 + k * CELL + CELL / 2,
                            'a' + l.row_label[k] - 1);
        else
            kifu__sb_printf(out, "<text class=\"label\" x=\"%d\" y=\"%d\">%s</text>",
                            X0 + 9 * CELL + 9, Y0 + k * CELL + CELL / 2,
                            kifu__kanji_number(l.row_label[k]));
    }
    hand(out, d, o, &l, l.top_color, 22);
    hand(out, d, o, &l, l.bottom_color, Y0 + 9 * CELL + 22);
    if (o->caption && *o->caption) {
        kifu__sb_printf(out, "<text class=\"caption\" x=\"%d\" y=\"%d\">", WIDTH / 2,
                        Y0 + 9 * CELL + 50);
        kifu__sb_xml(out, o->caption);
        kifu__sb_puts(out, "</text>");
    }
    kifu__sb_puts(out, "</svg>\n");
}
