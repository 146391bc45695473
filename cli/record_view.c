/* record_view.c: see record_view.h. */
#include "record_view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "term.h"

static int push(cli_lines *l, const char *a, size_t na, const char *b, size_t nb)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 16;
        char **v = realloc(l->v, cap * sizeof *v);
        if (!v)
            return -1;
        l->v = v;
        l->cap = cap;
    }
    char *s = malloc(na + nb + 1);
    if (!s)
        return -1;
    memcpy(s, a, na);
    /* Control characters from the record (escape sequences) never reach the terminal. */
    for (size_t i = 0; i < nb; i++) {
        unsigned char c = (unsigned char)b[i];
        s[na + i] = c < 0x20 || c == 0x7F ? '?' : (char)c;
    }
    s[na + nb] = 0;
    l->v[l->n++] = s;
    return 0;
}

void cli_lines_free(cli_lines *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
    memset(l, 0, sizeof *l);
}

int cli_lines_wrap(cli_lines *l, const char *text, int width, const char *first,
                   const char *rest)
{
    const char *lead = first;
    for (const char *s = text ? text : "";;) {
        size_t len = strcspn(s, "\n");
        /* A line of its own for every part that fits; at least one character a line,
         * so a width smaller than a kanji still moves on. */
        do {
            int room = width - term_columns(lead, strlen(lead));
            size_t take = term_fit(s, len, room > 0 ? room : 0);
            if (take == 0 && len > 0)
                take = term_fit(s, len, 2) ? term_fit(s, len, 2) : 1;
            if (push(l, lead, strlen(lead), s, take))
                return -1;
            lead = rest;
            s += take;
            len -= take;
        } while (len > 0);
        if (*s != '\n' || !s[1])
            return 0; /* a newline at the very end starts no line */
        s++;
    }
}

int cli_node_notes(cli_lines *l, const kifu_node *n, int width)
{
    for (size_t i = 0; i < kifu_node_bookmark_count(n); i++)
        if (cli_lines_wrap(l, kifu_node_bookmark(n, i), width, "& ", "  "))
            return -1;
    for (size_t i = 0; i < kifu_node_comment_count(n); i++)
        if (cli_lines_wrap(l, kifu_node_comment(n, i), width, "* ", "  "))
            return -1;
    return 0;
}

/* The first of the header keys the record has (the sides of a handicap game are 下手 and
 * 上手). */
static const char *header(const kifu_record *rec, const char *a, const char *b)
{
    const char *v = kifu_record_header_get(rec, a);
    return v ? v : b ? kifu_record_header_get(rec, b) : NULL;
}

/* Who won an ending, by the side to move when it came: 0 sente, 1 gote, -1 none said
 * (a draw, an interruption, a word that names no winner). */
static int winner(const char *word, int to_move)
{
    static const char *const mover_loses[] = {"TORYO", "TSUMI", "TIME_UP",
                                              "ILLEGAL_MOVE"};
    for (size_t i = 0; i < sizeof mover_loses / sizeof *mover_loses; i++)
        if (strcmp(word, mover_loses[i]) == 0)
            return !to_move;
    if (strcmp(word, "KACHI") == 0)
        return to_move;
    if (strcmp(word, "+ILLEGAL_ACTION") == 0)
        return 1;
    if (strcmp(word, "-ILLEGAL_ACTION") == 0)
        return 0;
    return -1;
}

int cli_record_about(cli_lines *l, const kifu_record *rec, int width)
{
    /* The record's words: 下手/上手 when it has them, 先手/後手 when it has those, else
     * 下手/上手 for a handicap game (as its KIF is written). */
    int preset = kifu_record_preset(rec);
    int handicap =
        kifu_record_header_get(rec, "下手") || kifu_record_header_get(rec, "上手") ||
        (!kifu_record_header_get(rec, "先手") && !kifu_record_header_get(rec, "後手") &&
         preset > KIFU_PRESET_HIRATE && preset < KIFU_PRESET_OTHER);
    const char *side[2] = {handicap ? "下手" : "先手", handicap ? "上手" : "後手"};
    const char *black = header(rec, "先手", "下手"), *white = header(rec, "後手", "上手");
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return -1;
    if (black || white)
        fprintf(f, "☗%s  ☖%s\n", black ? black : side[0], white ? white : side[1]);
    const char *event = header(rec, "棋戦", NULL);
    const char *date = header(rec, "開始日時", "対局日");
    if (event || date)
        fprintf(f, "%s%s%s\n", event ? event : "", event && date ? "  " : "",
                date ? date : "");
    /* The result: the main line's ending and who was to move there. */
    size_t moves = 0;
    const kifu_node *last = kifu_record_root(rec);
    for (const kifu_node *n = kifu_node_next(last); n; n = kifu_node_next(n)) {
        moves += kifu_node_kind_of(n) == KIFU_NODE_MOVE;
        last = n;
    }
    const char *word = kifu_node_special(last);
    if (word) {
        kifu_board start;
        kifu_record_initial(rec, &start);
        int to_move = (start.color + (int)(moves & 1)) & 1;
        int w = winner(word, to_move);
        const char *what = kifu_special_text(word);
        if (w >= 0)
            fprintf(f, "まで%zu手で%sの勝ち (%s)\n", moves, side[w], what);
        else
            fprintf(f, "まで%zu手で%s\n", moves, what);
    }
    int rc = fclose(f) ? -1 : 0;
    /* Each line on its own: a wrapped part is indented, the next line is not. */
    for (char *s = buf, *e; rc == 0 && s && (e = strchr(s, '\n')); s = e + 1) {
        *e = 0;
        rc = cli_lines_wrap(l, s, width, "", "  ");
    }
    free(buf);
    return rc;
}
