/* kif_write.c: the KIF / KIFU writer in the layout Kifu for Windows uses (what it shares
 * with the KI2 writer is in jp_write.c). */
#include <stdio.h>

#include "fmt/fmt.h"
#include "fmt/jp.h"
#include "kifu_private.h"
#include "notation/notation.h"
#include "notation/words.h"

static void put_time(kifu__strbuf *out, const kifu_move_time *t)
{
    long now = kifu_time_seconds(&t->now);
    long tot = kifu_time_seconds(&t->total);
    kifu__sb_printf(out, "(%2ld:%02ld/%02ld:%02ld:%02ld)", now / 60, now % 60, tot / 3600,
                    tot / 60 % 60, tot % 60);
}

/* The move text of a KIF line: ７六歩(77), 同　銀(88), ５五角打, 投了. The KIF spec notes
 * a promotion only: "不成" is not written (peers reject it); the source square says all a
 * reader needs. */
static void move_text(const kifu_record *r, const kifu_node *n, char *buf, size_t cap)
{
    kifu_move m_v;
    const kifu_move *m = kifu_node_get_move(n, &m_v) ? &m_v : NULL;
    if (!m) {
        int to_move = (kifu__jp_first_color(r) + kifu_node_ply(n) - 1) & 1;
        snprintf(buf, cap, "%s", kifu__jp_special_word(kifu_node_special(n), to_move));
        return;
    }
    kifu_move prev;
    int has_prev = kifu_node_get_move(kifu_node_parent(n), &prev);
    kifu_move_text(m, has_prev ? &prev : NULL,
                   KIFU_TEXT_FROM | KIFU__TEXT_NO_NARAZU | KIFU__TEXT_PAD_SAME, buf, cap);
}

/* The moves of one line (v[0] is the root or the first move of a fork). */
static void put_line(const kifu_record *r, const kifu_node **v, size_t cnt,
                     kifu__strbuf *out)
{
    const kifu_node *last = NULL;
    for (size_t i = 0; i < cnt; i++) {
        const kifu_node *n = v[i];
        if (kifu_node_kind_of(n) == KIFU_NODE_ROOT) {
            kifu__jp_write_notes(n, out);
            continue;
        }
        char text[128];
        move_text(r, n, text, sizeof text);
        const kifu_node *par = kifu_node_parent(n);
        int fork = kifu_node_index(n) + 1 < kifu_node_child_count(par);
        kifu_move_time tv;
        const kifu_move_time *t = kifu_node_get_time(n, &tv) ? &tv : NULL;
        kifu__sb_printf(out, "%4d %s", kifu_node_ply(n), text);
        if (t || fork) {
            int pad = 13 - kifu__jp_width(text);
            kifu__sb_printf(out, "%*s", pad < 1 ? 1 : pad, "");
        }
        if (t)
            put_time(out, t);
        if (fork)
            kifu__sb_putc(out, '+');
        kifu__sb_putc(out, '\n');
        kifu__jp_write_notes(n, out);
        last = n;
    }
    /* In KIF the move line holds the ending; the まで line only sums it up, so it is left
     * out where a common reader would refuse the whole file for it (KI2 has no move line
     * for an ending and always writes it). */
    if (last && kifu_node_kind_of(last) == KIFU_NODE_SPECIAL &&
        kifu__jp_summary_common(kifu_node_special(last)))
        kifu__jp_write_summary(r, last, out);
}

int kifu__write_kif(KIFU__WRITER_PARAMS)
{
    int enc = opt->encoding;
    if (enc == KIFU_ENC_AUTO)
        enc = opt->format == KIFU_FMT_KIF ? KIFU_ENC_CP932 : KIFU_ENC_UTF8;
    kifu__sb_printf(out, "#KIF version=2.0 encoding=%s\n", kifu_encoding_name(enc));
    kifu__warn_cut_times(r, opt, "KIF");
    kifu__jp_write_header(r, out);
    kifu__sb_puts(out, "手数----指手---------消費時間--\n");
    return kifu__jp_walk(r, out, err, put_line);
}
