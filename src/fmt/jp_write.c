/* jp_write.c: what the KIF and KI2 writers share: the header and BOD, the まで summary
 * line of an ending, comments and bookmarks, and the order Kifu for Windows writes the
 * lines of a fork tree in. */
#include <stdio.h>
#include <string.h>

#include "fmt/jp.h"
#include "kifu_private.h"
#include "record/walk.h"

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
    /* The record's own words first (a handicap game may name its sides 先手/後手); a
     * handicap game that names neither has 下手/上手. */
    if (kifu_record_header_get(r, "上手") || kifu_record_header_get(r, "下手"))
        return 1;
    int p = kifu_record_preset(r);
    int handicap = p > KIFU_PRESET_HIRATE && p < KIFU_PRESET_OTHER;
    /* CSA names sides by sign only: its 先手/後手 are no words of the record. */
    if (handicap && r->sides_by_sign)
        return 1;
    if (kifu_record_header_get(r, "先手") || kifu_record_header_get(r, "後手"))
        return 0;
    return handicap;
}

int kifu__jp_first_color(const kifu_record *r)
{
    kifu_board b;
    kifu_record_initial(r, &b);
    return b.color;
}

const char *kifu_record_side_word(const kifu_record *r, int color)
{
    int hc = kifu__jp_uses_handicap_names(r);
    if (color == KIFU_WHITE)
        return hc ? "上手" : "後手";
    return hc ? "下手" : "先手";
}

/* One text for the HTML page's header and the terminal viewers (show, replay), so that
 * they name the same winner. */
size_t kifu_record_result_text(const kifu_record *r, char *buf, size_t cap)
{
    if (cap)
        buf[0] = 0;
    const kifu_node *last = kifu_record_root(r), *before = NULL;
    for (const kifu_node *n = kifu_node_next(last); n; n = kifu_node_next(n))
        before = last, last = n;
    const char *word = kifu_node_special(last);
    if (!word)
        return 0;
    const char *side[2] = {kifu_record_side_word(r, KIFU_BLACK),
                           kifu_record_side_word(r, KIFU_WHITE)};
    int moves = kifu_node_ply(last) - 1;
    int mover = (kifu__jp_first_color(r) + moves) & 1; /* to move at the ending */
    int winner = -1, n;
    const char *how = NULL;
    if (strcmp(word, "TORYO") == 0 || strcmp(word, "TSUMI") == 0 ||
        strcmp(word, "TIME_UP") == 0) {
        winner = !mover;
        how = strcmp(word, "TORYO") ? kifu_special_text(word) : NULL;
    } else if (strcmp(word, "KACHI") == 0) {
        winner = mover;
        how = kifu_special_text(word);
    } else if (strcmp(word, "ILLEGAL_MOVE") == 0 ||
               strcmp(word, "+ILLEGAL_ACTION") == 0 ||
               strcmp(word, "-ILLEGAL_ACTION") == 0) {
        /* ILLEGAL_MOVE says the side to move lost by a foul (CSA's %ILLEGAL_MOVE, KIF's
         * 反則負け); a line that ends on a move kept as a foul shows who made it. */
        int foul = before ? kifu_node_foul(before) : KIFU_FOUL_NONE;
        int fouler = word[0] == '+'   ? KIFU_BLACK
                     : word[0] == '-' ? KIFU_WHITE
                     : foul           ? !mover
                                      : mover;
        n = snprintf(buf, cap, "まで%d手で%sの勝ち (%sの反則負け%s%s)", moves,
                     side[!fouler], side[fouler], foul ? "：" : "",
                     foul ? kifu_foul_name(foul) : "");
        return n > 0 ? (size_t)n : 0;
    }
    if (winner < 0)
        n = snprintf(buf, cap, "まで%d手で%s", moves, kifu_special_text(word));
    else
        n = snprintf(buf, cap, "まで%d手で%sの勝ち%s%s%s", moves, side[winner],
                     how ? " (" : "", how ? how : "", how ? ")" : "");
    return n > 0 ? (size_t)n : 0;
}

void kifu__jp_write_header(const kifu_record *r, kifu__strbuf *out)
{
    size_t n = kifu_record_header_count(r);
    int preset = kifu_record_preset(r);
    /* A handicap game read from CSA: its N+/N- names are 下手/上手 (seeds/001). */
    int by_sign = r->sides_by_sign && kifu__jp_uses_handicap_names(r);
    if (preset >= 0 && preset < KIFU_PRESET_OTHER && !kifu_record_header_get(r, "手合割"))
        kifu__sb_printf(out, "手合割：%s\n", kifu_preset_japanese(preset));
    for (size_t i = 0; i < n; i++) {
        const char *k, *v;
        kifu_record_header_at(r, i, &k, &v);
        /* CSA's $OPENING (kept under its own key, as json-kifu-format keeps it) is
         * the KIF 戦型 the CSA writer made it from. */
        if (strcmp(k, "OPENING") == 0 && !kifu_record_header_get(r, "戦型"))
            k = "戦型";
        else if (by_sign && strcmp(k, "先手") == 0)
            k = "下手";
        else if (by_sign && strcmp(k, "後手") == 0)
            k = "上手";
        kifu__sb_put_flat(out, k); /* a header entry is one line */
        if (*v || (strcmp(k, "盤面回転") != 0 && strcmp(k, "盤面反転") != 0)) {
            kifu__sb_puts(out, "：");
            kifu__sb_put_flat(out, v);
        }
        kifu__sb_putc(out, '\n');
    }
    /* A start after move 1 (a SFEN's `... b - 6`) is a BOD's 手数＝N: the moves played
     * before it, the one place KIF and KI2 have for the number. */
    int played = kifu_record_start_number(r) - 1;
    if (preset == KIFU_PRESET_OTHER || !kifu__preset_common(preset) || played) {
        kifu_board b;
        kifu_record_initial(r, &b);
        char count[32];
        snprintf(count, sizeof count, "手数＝%d\n", played);
        kifu__bod_write(out, &b,
                        KIFU__BOD_FILE |
                            (kifu__jp_uses_handicap_names(r) ? KIFU__BOD_HANDICAP : 0),
                        played ? count : NULL);
    }
}

void kifu__jp_write_summary(const kifu_record *r, const kifu_node *special,
                            kifu__strbuf *out)
{
    const char *sp = kifu_node_special(special);
    int n = kifu_node_ply(special) - 1;
    int mover = (kifu__jp_first_color(r) + n) & 1; /* side to move at the ending */
    const char *names[2] = {kifu_record_side_word(r, KIFU_BLACK),
                            kifu_record_side_word(r, KIFU_WHITE)};
    kifu__sb_printf(out, "まで%d手で", n);
    if (strcmp(sp, "TORYO") == 0)
        kifu__sb_printf(out, "%sの勝ち\n", names[!mover]);
    else if (strcmp(sp, "TIME_UP") == 0)
        kifu__sb_printf(out, "時間切れにより%sの勝ち\n", names[!mover]);
    else if (strcmp(sp, "ILLEGAL_MOVE") == 0)
        /* A line ending on a move kept as a foul: its mover lost (kifu_record_result_text) */
        kifu__sb_printf(
            out, "%sの反則負け\n",
            names[kifu_node_foul(kifu_node_parent(special)) ? !mover : mover]);
    else if (strcmp(sp, "+ILLEGAL_ACTION") == 0 || strcmp(sp, "-ILLEGAL_ACTION") == 0)
        /* Named from the side to move, as the ending word is (seeds/001): tsshogi and
         * json-kifu-format read only the word, 反則勝ち as the side to move winning. */
        kifu__sb_printf(out, "%sの反則%s\n", names[mover],
                        (sp[0] == '+' ? KIFU_BLACK : KIFU_WHITE) == mover ? "負け"
                                                                          : "勝ち");
    else if (strcmp(sp, "KACHI") == 0)
        kifu__sb_printf(out, "%sの入玉勝ち\n", names[mover]);
    else
        kifu__sb_printf(out, "%s\n", kifu_special_text(sp));
}

int kifu__jp_summary_common(const char *special)
{
    static const char *const common[] = {
        "TORYO",           "TIME_UP", "ILLEGAL_MOVE", "+ILLEGAL_ACTION",
        "-ILLEGAL_ACTION", "CHUDAN",  "JISHOGI",      "SENNICHITE",
        "TSUMI",           "FUZUMI",  KIFU__JP_SEALED};
    for (size_t i = 0; i < sizeof common / sizeof *common; i++)
        if (strcmp(special, common[i]) == 0)
            return 1;
    return 0;
}

int kifu__jp_same_square(const kifu_node *n)
{
    kifu_move m, prev;
    kifu__move_get(n, &m);
    int has_prev = kifu_node_get_move(kifu_node_parent(n), &prev);
    return m.same == 1 ||
           (m.same == -1 && has_prev && prev.to_x == m.to_x && prev.to_y == m.to_y);
}

void kifu__jp_write_notes(const kifu_node *n, kifu__strbuf *out)
{
    /* A comment of several lines is several `*` lines (read back as as many comments);
     * a bookmark is one line, its line breaks spaces. */
    for (size_t i = 0; i < kifu_node_comment_count(n); i++)
        kifu__sb_put_lines(out, "*", kifu_node_comment(n, i));
    for (size_t i = 0; i < kifu_node_bookmark_count(n); i++) {
        kifu__sb_putc(out, '&');
        kifu__sb_put_flat(out, kifu_node_bookmark(n, i));
        kifu__sb_putc(out, '\n');
    }
}

int kifu__jp_walk(const kifu_record *r, kifu__strbuf *out, kifu_error *err,
                  void (*line)(const kifu_record *, const kifu_node **, size_t,
                               kifu__strbuf *))
{
    /* The record walk's tree order is Kifu for Windows' order: a line is entered node by
     * node, and the first node of a fork (child 1..) starts the next one. */
    kifu__walk w;
    kifu__walk_init(&w, (kifu_node *)kifu_record_root(r),
                    KIFU__WALK_TREE); /* read only */
    const kifu_node **v = NULL;
    size_t n = 0, cap = 0;
    int ev;
    while ((ev = kifu__walk_next(&w)) > 0) {
        const kifu_node *c = w.node;
        if (ev == KIFU__WALK_EXIT)
            continue;
        if (!kifu__is_first(c))
            kifu__sb_printf(out, "\n変化：%d手\n", kifu_node_ply(c));
        if (kifu__reserve(&v, &cap, n + 1, sizeof *v, 256)) {
            ev = KIFU__WALK_NOMEM;
            break;
        }
        v[n++] = c;
        if (!kifu__first_link(c)) { /* the end of the line */
            line(r, v, n, out);
            n = 0;
        }
    }
    kifu__walk_free(&w);
    kifu__free(v);
    if (ev == KIFU__WALK_NOMEM || out->failed)
        return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
    return 0;
}
