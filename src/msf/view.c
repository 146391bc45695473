/* view.c: diagrams of a Xelto state: a terminal grid of piece names and an SVG. The
 * board is drawn as the file stores it, soom 0 (sorn's home rows) at the top; flipped,
 * turned half round. */
#include <stdio.h>
#include <string.h>

#include "kifu_private.h"
#include "msf/msf.h"

/* Row and column of the board drawn at screen position (i, j). */
static void at(int flip, int i, int j, int *r, int *c)
{
    *r = flip ? 6 - i : i;
    *c = flip ? 6 - j : j;
}

static int turned(const kifu_msf_state *s, int p)
{
    for (int i = 0; i < s->nkorol; i++)
        if (s->korol[i] == p)
            return 1;
    return 0;
}

/* "txifol: vio fav  evol: lax" of side sd. */
static void hand_text(kifu__strbuf *b, const kifu_msf_state *s, int sd)
{
    kifu__sb_printf(b, "%s%s  txifol:", kifu__msf_sides[sd],
                    s->sast == sd ? " (to move)" : "");
    if (!s->ntxifol[sd])
        kifu__sb_puts(b, " -");
    for (int i = 0; i < s->ntxifol[sd]; i++)
        kifu__sb_printf(b, " %s", kifu__msf_names[s->txifol[sd][i]]);
    kifu__sb_printf(b, "  evol: %s", s->evol[sd] ? kifu__msf_names[s->evol[sd]] : "-");
}

/* What led here: "seslax[12]  ply 13  ev lax", or "kit  ply 0 (fala 5)". */
static void where_text(kifu__strbuf *b, const kifu_msf_node *n)
{
    char path[256], mv[64];
    kifu__sb_printf(b, "%s  ply %d", kifu_msf_node_path(n, path, sizeof path),
                    kifu_msf_node_ply(n));
    if (n->line)
        kifu__sb_printf(b, "  %s", kifu_msf_move_text(&n->ov, mv, sizeof mv));
}

static void term(kifu__strbuf *b, const kifu_msf_node *n, unsigned flags)
{
    const kifu_msf_state *s = &n->slax;
    int flip = (flags & KIFU_DIAGRAM_FLIP) != 0,
        colour = (flags & KIFU_DIAGRAM_COLOUR) != 0;
    int top = flip ? KIFU_MSF_ARXE : KIFU_MSF_SORN;
    hand_text(b, s, top);
    kifu__sb_puts(b, "\n    ");
    for (int j = 0; j < 7; j++) {
        int r, c;
        at(flip, 0, j, &r, &c);
        kifu__sb_printf(b, "   %d  ", c);
    }
    kifu__sb_putc(b, '\n');
    for (int i = 0; i < 7; i++) {
        int r, c;
        at(flip, i, 0, &r, &c);
        kifu__sb_printf(b, " %d  ", r);
        for (int j = 0; j < 7; j++) {
            at(flip, i, j, &r, &c);
            int p = s->ele[r][c];
            if (!p) {
                kifu__sb_puts(b, "   .  ");
                continue;
            }
            int sorn = kifu_msf_piece_side(p) == KIFU_MSF_SORN;
            if (colour)
                kifu__sb_puts(b, p == KIFU_MSF_TEM ? "\033[1;33m"
                                 : sorn            ? "\033[31m"
                                                   : "");
            kifu__sb_printf(b, " %s%s%s", sorn ? "v" : " ",
                            p == KIFU_MSF_TEM ? "TEM" : kifu__msf_names[p],
                            turned(s, p) ? "*" : " ");
            if (colour && (sorn || p == KIFU_MSF_TEM))
                kifu__sb_puts(b, "\033[0m");
        }
        kifu__sb_printf(b, "  %d\n", r);
    }
    hand_text(b, s, 1 - top);
    kifu__sb_putc(b, '\n');
    where_text(b, n);
    kifu__sb_putc(b, '\n');
}

static void svg_text(kifu__strbuf *b, int x, int y, const char *attrs, const char *text)
{
    kifu__sb_printf(b, "<text x=\"%d\" y=\"%d\" %s>", x, y, attrs);
    for (const char *p = text; *p; p++) {
        if (*p == '<')
            kifu__sb_puts(b, "&lt;");
        else if (*p == '&')
            kifu__sb_puts(b, "&amp;");
        else
            kifu__sb_putc(b, *p);
    }
    kifu__sb_puts(b, "</text>\n");
}

/* Squares of 48 px inside a 400 x 470 drawing, scaled to o->size by the viewBox. */
static void svg(kifu__strbuf *b, const kifu_msf_node *n, const kifu_diagram_options *o)
{
    const kifu_msf_state *s = &n->slax;
    int flip = (o->flags & KIFU_DIAGRAM_FLIP) != 0;
    int width = o->size > 0 ? o->size : 400;
    int height = width * 470 / 400;
    const int x0 = 32, y0 = 60, sq = 48;
    kifu__sb_printf(
        b,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
        "viewBox=\"0 0 400 470\" font-family=\"sans-serif\">\n"
        "<rect width=\"400\" height=\"470\" fill=\"#fff\"/>\n",
        width, height);
    kifu__strbuf line;
    int top = flip ? KIFU_MSF_ARXE : KIFU_MSF_SORN;
    for (int k = 0; k < 2; k++) {
        kifu__sb_init(&line);
        hand_text(&line, s, k ? 1 - top : top);
        svg_text(b, x0, k ? y0 + 7 * sq + 28 : y0 - 16, "font-size=\"14\"",
                 line.data ? line.data : "");
        kifu__sb_free(&line);
    }
    for (int i = 0; i < 7; i++)
        for (int j = 0; j < 7; j++) {
            int r, c;
            at(flip, i, j, &r, &c);
            int p = s->ele[r][c], x = x0 + j * sq, y = y0 + i * sq;
            kifu__sb_printf(b,
                            "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
                            "fill=\"%s\" stroke=\"#333\"/>\n",
                            x, y, sq, sq, p == KIFU_MSF_TEM ? "#f3d36b" : "#f7e7c0");
            if (!p)
                continue;
            int sorn = kifu_msf_piece_side(p) == KIFU_MSF_SORN;
            /* the far side's pieces stand turned round, as in a shogi diagram */
            int upside = sorn != flip && p != KIFU_MSF_TEM;
            char attrs[160];
            snprintf(attrs, sizeof attrs,
                     "font-size=\"16\" text-anchor=\"middle\" fill=\"%s\"%s%s%s",
                     sorn ? "#b00" : "#000",
                     turned(s, p) ? " text-decoration=\"underline\"" : "",
                     upside ? " transform=\"rotate(180 " : "", "");
            if (upside) {
                char rot[48];
                snprintf(rot, sizeof rot, "%d %d)\"", x + sq / 2, y + sq / 2);
                strncat(attrs, rot, sizeof attrs - strlen(attrs) - 1);
            }
            svg_text(b, x + sq / 2, y + sq / 2 + 6, attrs, kifu__msf_names[p]);
            if (turned(s, p))
                kifu__sb_printf(b,
                                "<circle cx=\"%d\" cy=\"%d\" r=\"3\" fill=\"#06c\"/>\n",
                                x + sq - 7, y + 7);
        }
    kifu__strbuf cap;
    kifu__sb_init(&cap);
    if (o->caption)
        kifu__sb_puts(&cap, o->caption);
    else
        where_text(&cap, n);
    svg_text(b, 200, y0 + 7 * sq + 60, "font-size=\"14\" text-anchor=\"middle\"",
             cap.data ? cap.data : "");
    kifu__sb_free(&cap);
    kifu__sb_puts(b, "</svg>\n");
}

char *kifu_msf_diagram(const kifu_msf_node *n, const kifu_diagram_options *o, size_t *len)
{
    kifu_diagram_options none = {0};
    if (!o)
        o = &none;
    if (o->format != KIFU_DIAGRAM_TERM && o->format != KIFU_DIAGRAM_SVG)
        return NULL;
    kifu__strbuf b;
    kifu__sb_init(&b);
    if (o->format == KIFU_DIAGRAM_SVG)
        svg(&b, n, o);
    else
        term(&b, n, o->flags);
    return kifu__sb_take(&b, len);
}
