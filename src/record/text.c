/* text.c: a node in words, as a person reads it (kifu_node_text): the move's KIF text
 * (notation/notation.c's kifu_move_text) after the move before it, or the ending. */
#include <stdio.h>
#include <string.h>

#include "kifu_private.h"

char *kifu_node_text(const kifu_node *n, char *buf, size_t cap)
{
    if (!cap)
        return buf;
    buf[0] = 0;
    if (kifu_node_kind_of(n) == KIFU_NODE_SPECIAL) {
        snprintf(buf, cap, "%s", kifu_special_text(kifu_node_special(n)));
        /* an unknown word comes from the file: no control characters to a terminal */
        for (char *c = buf; *c; c++)
            if ((unsigned char)*c < 0x20 || *c == 0x7f)
                *c = '?';
    } else if (kifu_node_kind_of(n) == KIFU_NODE_MOVE) {
        const kifu_node *p = kifu_node_parent(n);
        kifu_move m, prev = {0};
        kifu_node_get_move(n, &m);
        if (p)
            kifu_node_get_move(p, &prev);
        kifu_move_text(&m, &prev, KIFU_TEXT_KIF, buf, cap);
        /* A foul kept because the game ended on it says so wherever the move is shown. */
        int foul = kifu_node_foul(n);
        if (foul) {
            size_t l = strlen(buf);
            snprintf(buf + l, cap - l,
                     foul == KIFU_FOUL_MISRECORDED ? "（%s）" : "（反則：%s）",
                     kifu_foul_name(foul));
        }
    }
    return buf;
}
