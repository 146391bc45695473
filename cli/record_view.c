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

/* What was played (kifu tags): "戦型：☗四間飛車 ☖力戦 (対抗形)" and "囲い：☗美濃囲い,
 * 片美濃囲い ☖舟囲い", the lines a collection's reader looks for. The tagger is made once
 * (the viewers show one record at a time, on one thread). */
static void put_tags(FILE *f, const kifu_record *rec)
{
    static kifu_tagger *t;
    if (!t && !(t = kifu_tags_new(NULL)))
        return;
    kifu_tag *tags;
    size_t n;
    if (kifu_tags_record(t, rec, &tags, &n, NULL))
        return;
    static const char *const label[2] = {"戦型", "囲い"};
    static const char *const mark[2] = {"☗", "☖"};
    for (int fam = 0; fam < 2; fam++) {
        int any = 0;
        for (int s = 0; s < 2; s++) {
            int first = 1;
            for (size_t i = 0; i < n; i++) {
                if (tags[i].family != fam || tags[i].side != s)
                    continue;
                if (!any)
                    fprintf(f, "%s：", label[fam]);
                fprintf(f, "%s%s%s", first ? (any ? " " : "") : ", ",
                        first ? mark[s] : "", tags[i].name);
                any = 1, first = 0;
            }
        }
        /* The game's class after the openings. */
        for (size_t i = 0; fam == 0 && i < n; i++)
            if (tags[i].side < 0 && tags[i].family == KIFU_TAG_NOTE)
                fprintf(f, "%s(%s)", any ? " " : "戦型：", tags[i].name), any = 1;
        if (any)
            fputc('\n', f);
    }
    kifu_free(tags);
}

int cli_record_about(cli_lines *l, const kifu_record *rec, int width)
{
    /* The record's words: 下手/上手 when it has them, 先手/後手 when it has those, else
     * 下手/上手 for a handicap game (as its KIF is written; CSA's N+/N- are no words). */
    const char *side[2] = {kifu_record_side_word(rec, KIFU_BLACK),
                           kifu_record_side_word(rec, KIFU_WHITE)};
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
    /* The result, as the HTML page and a KIF まで line say it. */
    size_t need = kifu_record_result_text(rec, NULL, 0);
    char *result = need ? malloc(need + 1) : NULL;
    if (result && kifu_record_result_text(rec, result, need + 1))
        fprintf(f, "%s\n", result);
    free(result);
    put_tags(f, rec);
    int rc = fclose(f) ? -1 : 0;
    /* Each line on its own: a wrapped part is indented, the next line is not. */
    for (char *s = buf, *e; rc == 0 && s && (e = strchr(s, '\n')); s = e + 1) {
        *e = 0;
        rc = cli_lines_wrap(l, s, width, "", "  ");
    }
    free(buf);
    return rc;
}
