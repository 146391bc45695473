/* jp_write.c: what the KIF and KI2 writers share: the header and BOD, the まで summary
 * line of an ending, comments and bookmarks, and the order Kifu for Windows writes the
 * lines of a fork tree in. */
#include <stdio.h>
#include <string.h>

#include "fmt/words.h"
#include "kifu_private.h"

int kifu__jp_width(const char *s)
{
    int w = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p < 0x80)
            w++;
        else if ((*p & 0xC0) == 0xC0)
            w += 2; /* every non-ASCII character here is full-width */
    return w;
}

int kifu__jp_uses_handicap_names(const kifu_record *r)
{
    if (kifu_record_header_get(r, "上手") || kifu_record_header_get(r, "下手"))
        return 1;
    int p = kifu_record_preset(r);
    return p > KIFU_PRESET_HIRATE && p < KIFU_PRESET_OTHER;
}

int kifu__jp_first_color(const kifu_record *r)
{
    kifu_board b;
    kifu_record_initial(r, &b);
    return b.color;
}

void kifu__jp_write_header(const kifu_record *r, kifu__strbuf *out)
{
    size_t n = kifu_record_header_count(r);
    int preset = kifu_record_preset(r);
    if (preset >= 0 && preset < KIFU_PRESET_OTHER && !kifu_record_header_get(r, "手合割"))
        kifu__sb_printf(out, "手合割：%s\n", kifu_preset_japanese(preset));
    for (size_t i = 0; i < n; i++) {
        const char *k, *v;
        kifu_record_header_at(r, i, &k, &v);
        if (!*v && (strcmp(k, "盤面回転") == 0 || strcmp(k, "盤面反転") == 0))
            kifu__sb_printf(out, "%s\n", k);
        else
            kifu__sb_printf(out, "%s：%s\n", k, v);
    }
    if (preset == KIFU_PRESET_OTHER) {
        kifu_board b;
        kifu_record_initial(r, &b);
        kifu__bod_write(out, &b, kifu__jp_uses_handicap_names(r));
    }
}

void kifu__jp_write_summary(const kifu_record *r, const kifu_node *special,
                            kifu__strbuf *out)
{
    const char *sp = kifu_node_special(special);
    int n = kifu_node_ply(special) - 1;
    int hc = kifu__jp_uses_handicap_names(r);
    int mover = (kifu__jp_first_color(r) + n) & 1; /* side to move at the ending */
    const char *names[2] = {hc ? "下手" : "先手", hc ? "上手" : "後手"};
    kifu__sb_printf(out, "まで%d手で", n);
    if (strcmp(sp, "TORYO") == 0)
        kifu__sb_printf(out, "%sの勝ち\n", names[!mover]);
    else if (strcmp(sp, "TIME_UP") == 0)
        kifu__sb_printf(out, "時間切れにより%sの勝ち\n", names[!mover]);
    else if (strcmp(sp, "ILLEGAL_MOVE") == 0)
        kifu__sb_printf(out, "%sの反則負け\n", names[mover]);
    else if (strcmp(sp, "+ILLEGAL_ACTION") == 0)
        kifu__sb_printf(out, "%sの反則勝ち\n", names[1]);
    else if (strcmp(sp, "-ILLEGAL_ACTION") == 0)
        kifu__sb_printf(out, "%sの反則勝ち\n", names[0]);
    else if (strcmp(sp, "KACHI") == 0)
        kifu__sb_printf(out, "%sの入玉勝ち\n", names[mover]);
    else
        kifu__sb_printf(out, "%s\n", kifu__jp_special_word(sp));
}

/* A line of play from `start` along child 0, as an array (no recursion per move). */
int kifu__jp_line_nodes(const kifu_node *start, const kifu_node ***nodes, size_t *count)
{
    size_t n = 0, cap = 64;
    const kifu_node **v = kifu__malloc(cap * sizeof *v);
    for (const kifu_node *c = start; c && v; c = kifu_node_next(c)) {
        if (n == cap) {
            const kifu_node **nv = kifu__realloc(v, (cap *= 2) * sizeof *v);
            if (!nv)
                kifu__free(v);
            v = nv;
            if (!v)
                break;
        }
        v[n++] = c;
    }
    *nodes = v;
    *count = n;
    return v ? 0 : -1;
}

int kifu__jp_same_square(const kifu_node *n)
{
    const kifu_move *m = kifu_node_move_const(n);
    const kifu_move *prev = kifu_node_move_const(kifu_node_parent(n));
    return m->same == 1 ||
           (m->same == -1 && prev && prev->to_x == m->to_x && prev->to_y == m->to_y);
}

void kifu__jp_write_notes(const kifu_node *n, kifu__strbuf *out)
{
    for (size_t i = 0; i < kifu_node_comment_count(n); i++)
        kifu__sb_printf(out, "*%s\n", kifu_node_comment(n, i));
    for (size_t i = 0; i < kifu_node_bookmark_count(n); i++)
        kifu__sb_printf(out, "&%s\n", kifu_node_bookmark(n, i));
}

typedef struct frame {
    const kifu_node **v;
    size_t cnt, i, j;
} frame;

int kifu__jp_walk(const kifu_record *r, kifu__strbuf *out, kifu_error *err,
                  void (*line)(const kifu_record *, const kifu_node **, size_t,
                               kifu__strbuf *))
{
    /* Depth-first without recursion: a frame per open line, so deeply nested forks
     * cannot exhaust the C stack. */
    size_t top = 0, cap = 16;
    frame *st = kifu__malloc(cap * sizeof *st);
    const kifu_node *start = kifu_record_root(r);
    int rc = 0;
    if (!st)
        goto nomem;
    for (;;) {
        if (start) {
            if (top == cap) {
                frame *ns = kifu__realloc(st, (cap *= 2) * sizeof *st);
                if (!ns)
                    goto nomem;
                st = ns;
            }
            frame *f = &st[top];
            if (kifu__jp_line_nodes(start, &f->v, &f->cnt))
                goto nomem;
            top++;
            line(r, f->v, f->cnt, out);
            f->i = f->cnt - 1;
            f->j = 1;
            start = NULL;
        }
        if (!top)
            break;
        frame *f = &st[top - 1];
        if (f->i < 1) {
            kifu__free(f->v);
            top--;
            continue;
        }
        const kifu_node *par = kifu_node_parent(f->v[f->i]);
        if (f->j < kifu_node_child_count(par)) {
            start = kifu_node_child(par, f->j++);
            kifu__sb_printf(out, "\n変化：%d手\n", kifu_node_ply(start));
        } else {
            f->i--;
            f->j = 1;
        }
    }
    kifu__free(st);
    return rc;
nomem:
    while (top)
        kifu__free(st[--top].v);
    kifu__free(st);
    return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
}
