/* ki2_write.c: the KI2 writer: moves without source squares, six per line as Kifu for
 * Windows writes them, named with the relative word the normalizer chose (JSA rules). */
#include <stdio.h>

#include "fmt/fmt.h"
#include "fmt/jp.h"
#include "kifu_private.h"
#include "notation/notation.h"
#include "record/record.h"
#include "record/walk.h"

enum { PER_LINE = 6, COLUMN = 12 };

/* ▲７六歩, △同　銀 (the space only pads a one-character rest: 同銀右, 同角成), ▲５七銀右,
 * ▲５五角打. A variation's first move names its square, never 同: json-kifu-format reads
 * that 同 against another move than the one before it and refuses the file. */
static void move_text(const kifu_node *n, char *buf, size_t cap)
{
    kifu_move m, prev;
    kifu_node_get_move(n, &m);
    int has_prev = kifu_node_get_move(kifu_node_parent(n), &prev);
    kifu_move_text(&m, has_prev ? &prev : NULL,
                   KIFU_TEXT_MARK | KIFU_TEXT_RELATIVE | KIFU__TEXT_TRIANGLE |
                       KIFU__TEXT_PAD_REST | (kifu__is_first(n) ? 0 : KIFU__TEXT_NO_SAME),
                   buf, cap);
}

/* The moves of one line, six to a text line; a comment ends the text line. */
static void put_line(const kifu_record *r, const kifu_node **v, size_t cnt,
                     kifu__strbuf *out)
{
    int on_line = 0;
    for (size_t i = 0; i < cnt; i++) {
        const kifu_node *n = v[i];
        if (kifu_node_kind_of(n) == KIFU_NODE_ROOT) {
            kifu__jp_write_notes(n, out);
            continue;
        }
        if (kifu_node_kind_of(n) == KIFU_NODE_SPECIAL) {
            if (on_line)
                kifu__sb_putc(out, '\n');
            on_line = 0;
            /* Its notes before its まで line: json-kifu-format takes no line after it
             * but 変化 and refuses the whole file (see kifu__write_ki2's warning). */
            kifu__jp_write_notes(n, out);
            kifu__jp_write_summary(r, n, out);
            continue;
        }
        char text[128];
        move_text(n, text, sizeof text);
        kifu__sb_puts(out, text);
        on_line++;
        int notes = kifu_node_comment_count(n) || kifu_node_bookmark_count(n);
        int ends = i + 1 == cnt || kifu_node_kind_of(v[i + 1]) != KIFU_NODE_MOVE;
        if (on_line == PER_LINE || notes || ends) {
            kifu__sb_putc(out, '\n');
            on_line = 0;
            kifu__jp_write_notes(n, out);
        } else {
            int pad = COLUMN - kifu__jp_width(text);
            kifu__sb_printf(out, "%*s", pad < 1 ? 1 : pad, "");
        }
    }
}

/* The ply of the first ending with comments or bookmarks, or 0. */
static int noted_ending(const kifu_record *r)
{
    kifu__walk w;
    kifu__walk_init(&w, (kifu_node *)kifu_record_root(r),
                    KIFU__WALK_TREE); /* read only */
    int ev, ply = 0;
    while (!ply && (ev = kifu__walk_next(&w)) > 0) {
        const kifu_node *n = w.node;
        if (ev == KIFU__WALK_ENTER && kifu_node_kind_of(n) == KIFU_NODE_SPECIAL &&
            (kifu_node_comment_count(n) || kifu_node_bookmark_count(n)))
            ply = kifu_node_ply(n);
    }
    kifu__walk_free(&w);
    return ply;
}

/* How many moves of the tree have a time (KI2 has no place for one). */
static size_t timed_moves(const kifu_record *r)
{
    kifu__walk w;
    kifu__walk_init(&w, (kifu_node *)kifu_record_root(r),
                    KIFU__WALK_TREE); /* read only */
    size_t n = 0;
    int ev;
    while ((ev = kifu__walk_next(&w)) > 0) {
        kifu_move_time t;
        n += ev == KIFU__WALK_ENTER && kifu_node_kind_of(w.node) == KIFU_NODE_MOVE &&
             kifu_node_get_time(w.node, &t);
    }
    kifu__walk_free(&w);
    return n;
}

int kifu__write_ki2(KIFU__WRITER_PARAMS)
{
    size_t timed = opt && opt->warn ? timed_moves(r) : 0;
    if (timed)
        kifu__warn(opt->warn, opt->warn_ctx,
                   "KI2 holds no times: the times of %zu move(s) left out", timed);
    int noted = noted_ending(r);
    if (noted && opt)
        kifu__warn(
            opt->warn, opt->warn_ctx,
            "KI2: the comments of the ending at ply %d are written before its まで "
            "line (a line after it makes json-kifu-format refuse the file); read "
            "back, they belong to the move before the ending",
            noted);
    size_t before = out->len;
    kifu__jp_write_header(r, out);
    /* A blank line parts the header from the moves; with no header, none (a file that
     * starts with an empty line is refused by some readers). */
    if (out->len > before)
        kifu__sb_putc(out, '\n');
    return kifu__jp_walk(r, out, err, put_line);
}
