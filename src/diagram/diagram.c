/* diagram.c: the BOD and terminal renderings of a board's layout (layout.c), and the
 * public diagram calls that pick a rendering (svg.c draws the SVG one). */
#include "diagram/diagram.h"

#include <stdio.h>
#include <string.h>

#include "fmt/jp.h"
#include "notation/notation.h"
#include "rules/types.h"

/* A cell as BOD writes it: " 歩", "v歩", " ・". */
static void cell_text(kifu__strbuf *out, int piece)
{
    if (!piece) {
        kifu__sb_puts(out, " ・");
        return;
    }
    kifu__sb_putc(out, CPIECE_COLOR(piece) == WHITE ? 'v' : ' ');
    kifu__sb_puts(out, kifu__kanji_piece_one(CPIECE_KIND(piece)));
}

void kifu__diagram_bod(const kifu__diagram *d, kifu__strbuf *out)
{
    char extra[160] = "";
    if (d->ply > 0)
        snprintf(extra, sizeof extra, "手数＝%d  %s  まで\n", d->number, d->last_text);
    else if (d->number > 0) /* the start of a record that begins after move 1 */
        snprintf(extra, sizeof extra, "手数＝%d\n", d->number);
    kifu__bod_write(
        out, &d->board,
        (d->flip ? KIFU__BOD_FLIP : 0u) | (d->handicap ? KIFU__BOD_HANDICAP : 0u), extra);
}

#define SGR_RESET "\033[0m"
#define SGR_WHITE_PIECE "\033[31m" /* gote: red */
#define SGR_BLACK_PIECE "\033[1m"  /* sente: bold */
#define SGR_LAST "\033[43;30m"     /* last move: black on yellow */
#define SGR_DIM "\033[2m"

static void term_hand(const kifu__diagram *d, const kifu__layout *l, int color,
                      int colour, kifu__strbuf *out)
{
    const char *mark = color == BLACK ? "☗" : "☖";
    const char *turn =
        l->side == color ? (colour ? " \033[7m 手番 \033[0m" : "  <手番>") : "";
    kifu__sb_printf(out, "  %s%s 持駒：%s%s\n", mark, kifu__diagram_side(d, color),
                    l->hand[color], turn);
}

void kifu__diagram_term(const kifu__diagram *d, int colour, kifu__strbuf *out)
{
    kifu__layout l;
    kifu__diagram_layout(d, &l);
    term_hand(d, &l, l.top_color, colour, out);
    kifu__sb_puts(out, "   ");
    for (int c = 0; c < 9; c++)
        kifu__sb_printf(out, " %s", kifu__zen_digit(l.col_label[c]));
    kifu__sb_puts(out, "\n  ┌");
    for (int c = 0; c < 27; c++)
        kifu__sb_puts(out, "─");
    kifu__sb_puts(out, "┐\n");
    for (int r = 0; r < 9; r++) {
        kifu__sb_puts(out, "  │");
        for (int c = 0; c < 9; c++) {
            const kifu__cell *cell = &l.cells[r][c];
            int p = cell->piece;
            if (colour) {
                if (cell->last)
                    kifu__sb_puts(out, SGR_LAST);
                else if (p)
                    kifu__sb_puts(out, CPIECE_COLOR(p) == WHITE ? SGR_WHITE_PIECE
                                                                : SGR_BLACK_PIECE);
                else
                    kifu__sb_puts(out, SGR_DIM);
            }
            if (!p)
                kifu__sb_puts(out, " ・");
            else if (colour && CPIECE_COLOR(p) == WHITE)
                kifu__sb_printf(out, "v%s", kifu__kanji_piece_one(CPIECE_KIND(p)));
            else
                cell_text(out, p);
            if (colour)
                kifu__sb_puts(out, SGR_RESET);
        }
        kifu__sb_printf(out, "│%s\n", kifu__kanji_number(l.row_label[r]));
    }
    kifu__sb_puts(out, "  └");
    for (int c = 0; c < 27; c++)
        kifu__sb_puts(out, "─");
    kifu__sb_puts(out, "┘\n");
    term_hand(d, &l, l.bottom_color, colour, out);
    if (d->ply > 0)
        kifu__sb_printf(out, "  %d手目 %s", d->number, d->last_text);
    else
        kifu__sb_puts(out, "  開始局面");
    if (d->ending[0])
        kifu__sb_printf(out, "  %s", d->ending);
    kifu__sb_putc(out, '\n');
}

void kifu__diagram_from_player(const kifu_player *pl, int flip, kifu__diagram *out)
{
    memset(out, 0, sizeof *out);
    kifu_position_board(kifu_player_position(pl), &out->board);
    out->flip = flip;
    out->handicap = kifu__jp_uses_handicap_names(kifu_player_record(pl));
    const kifu_node *n = kifu_player_node(pl);
    /* On an ending, the diagram is that of the move before it (as KIF writes 手数＝N). */
    const kifu_node *mv = n;
    if (kifu_node_kind_of(n) == KIFU_NODE_SPECIAL)
        kifu_node_text(n, out->ending, sizeof out->ending);
    while (mv && kifu_node_kind_of(mv) == KIFU_NODE_SPECIAL)
        mv = kifu_node_parent(mv);
    if (mv && kifu_node_kind_of(mv) == KIFU_NODE_MOVE) {
        kifu_move m;
        kifu_node_get_move(mv, &m);
        out->last_x = m.to_x;
        out->last_y = m.to_y;
        out->from_x = m.from_x;
        out->from_y = m.from_y;
    }
    out->ply = mv ? kifu_node_ply(mv) : 0;
    out->number = kifu_record_start_number(kifu_player_record(pl)) - 1 + out->ply;
    if (mv)
        kifu_node_text(mv, out->last_text, sizeof out->last_text);
}

void kifu__diagram_moves(const kifu_player *pl, int before, int after, const char *indent,
                         kifu__strbuf *out)
{
    int cur = kifu_player_ply(pl);
    int from = cur - before < 0 ? 0 : cur - before;
    /* Move numbers, as the record counts them: one that starts at move 6 (a SFEN's
     * `... b - 6`, a BOD's 手数＝5) lists its first move as 6, its start as 5. */
    int base = kifu_record_start_number(kifu_player_record(pl)) - 1;
    for (int ply = from; ply <= cur + after; ply++) {
        const kifu_node *node = kifu_player_line_node(pl, ply);
        if (!node)
            break;
        char text[80];
        if (kifu_node_kind_of(node) == KIFU_NODE_ROOT)
            snprintf(text, sizeof text, "開始局面");
        else
            kifu_node_text(node, text, sizeof text);
        const kifu_node *par = kifu_node_parent(node);
        int forks = par && kifu_node_child_count(par) > 1;
        kifu__sb_printf(out, "%s%s%5d %s%s\n", indent, ply == cur ? ">" : " ", base + ply,
                        text, forks ? " +" : "");
    }
}

char *kifu_player_diagram(const kifu_player *pl, const kifu_diagram_options *o,
                          size_t *len)
{
    static const kifu_diagram_options none;
    if (!o)
        o = &none;
    kifu__diagram d;
    kifu__diagram_from_player(pl, (o->flags & KIFU_DIAGRAM_FLIP) != 0, &d);
    kifu__strbuf sb;
    kifu__sb_init(&sb);
    if (o->format == KIFU_DIAGRAM_BOD) {
        kifu__diagram_bod(&d, &sb);
    } else if (o->format == KIFU_DIAGRAM_SVG) {
        kifu__svg_options so = {o->size,
                                (o->flags & KIFU_DIAGRAM_TWO_CHAR) != 0,
                                (o->flags & KIFU_DIAGRAM_INTL) != 0,
                                (o->flags & KIFU_DIAGRAM_TSUME) != 0,
                                (o->flags & KIFU_DIAGRAM_NO_LAST) != 0,
                                o->caption,
                                {o->names[0], o->names[1]}};
        kifu__diagram_svg(&d, &so, &sb);
    } else {
        kifu__diagram_term(&d, (o->flags & KIFU_DIAGRAM_COLOUR) != 0, &sb);
    }
    return kifu__sb_take(&sb, len);
}

char *kifu_player_moves_text(const kifu_player *pl, int before, int after,
                             const char *indent)
{
    kifu__strbuf sb;
    kifu__sb_init(&sb);
    kifu__sb_puts(&sb, ""); /* an empty list is "", not NULL */
    kifu__diagram_moves(pl, before, after, indent ? indent : "", &sb);
    return kifu__sb_take(&sb, NULL);
}
