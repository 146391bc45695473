/* ki2_read.c: the KI2 reader. Moves come several per line without their source square
 * (`▲７六歩 △同　歩 ▲５七銀右`); they are stored raw with the destination (or 同), the
 * piece, the relative word as JKF letters and 成/不成, and kifu_normalize() finds the
 * piece that moved. Header, BOD, comments and 変化 branches are shared with KIF. */
#include <string.h>

#include "fmt/fmt.h"
#include "fmt/jp.h"
#include "kifu_private.h"
#include "notation/words_fast.h"
#include "record/record.h"

static int nomem(kifu__jp_reader *rd)
{
    return kifu__error(rd->err, KIFU_ERR_NOMEM, rd->lineno, 0, 0, NULL, NULL,
                       "out of memory");
}

/* Relative words and what they add: a side letter (L C R), a direction (U M D), or H. */
static const struct {
    const char *word;
    char side, dir;
} rel_words[] = {
    {"右", 'R', 0}, {"左", 'L', 0}, {"直", 'C', 0}, {"上", 0, 'U'},
    {"行", 0, 'U'}, {"入", 0, 'U'}, {"引", 0, 'D'}, {"寄", 0, 'M'},
};

/* Does a space (what kifu__jp_space_fast skips: space, tab, full-width space) start at p?
 * Only its first character is looked at: asked after every move, where measuring the
 * whole run cost KI2 reading 1%. */
static int is_space_at(const char *p, const char *end)
{
    return p < end && (*p == ' ' || *p == '\t' ||
                       (end - p >= 3 && (unsigned char)p[0] == 0xE3 &&
                        (unsigned char)p[1] == 0x80 && (unsigned char)p[2] == 0x80));
}

/* One move token starting at its mark; *pp moves past it. */
static int token(kifu__jp_reader *rd, const char **pp, const char *end)
{
    const char *p = *pp;
    int color = 0;
    p += kifu__jp_mark_fast(p, end, &color);
    /* The move is gathered in locals and written into its node at the end (see
     * kifu__node_add_blank_move). */
    int x, y, kind, same = -1, to_x = 0, to_y = 0, promote = -1, drop = 0;
    size_t k;
    if (kifu__jp_starts(p, end, "同")) {
        p += 3;
        p += kifu__jp_space_fast(p, end);
        same = 1;
        if (rd->cur->kind == KIFU_NODE_MOVE)
            kifu__move_to(rd->cur, &to_x, &to_y);
    } else if ((k = kifu__jp_digit_fast(p, end, &x)) != 0) {
        p += k;
        if (!(k = kifu__jp_rank_fast(p, end, &y)))
            return kifu__jp_fail(rd, p, "a rank (一 to 九)", "bad move");
        p += k;
        to_x = x;
        to_y = y;
    } else {
        const char *w = p;
        while (p < end && !is_space_at(p, end) && !kifu__jp_mark_fast(p, end, &x))
            p++;
        if (p == w)
            return kifu__jp_fail(rd, p, "a move or an ending word", "bad move");
        kifu_node *n = kifu__jp_add_special(rd, w, p);
        if (!n)
            return nomem(rd);
        rd->cur = n;
        *pp = p;
        return 0;
    }
    if (!(k = kifu__jp_piece_fast(p, end, &kind)))
        return kifu__jp_fail(rd, p, KIFU__JP_PIECE_EXPECTED, "bad move");
    p += k;
    char side = 0, dir = 0;
    for (;;) {
        /* Every word below starts with a byte E4-E8: a space or the next mark ends it. */
        if (p >= end || (unsigned char)*p < 0xE4 || (unsigned char)*p > 0xE8)
            break;
        size_t i;
        for (i = 0; i < sizeof rel_words / sizeof rel_words[0]; i++)
            if (kifu__jp_starts(p, end, rel_words[i].word))
                break;
        if (i < sizeof rel_words / sizeof rel_words[0]) {
            if ((rel_words[i].side && side) || (rel_words[i].dir && dir))
                return kifu__jp_fail(rd, p, "one side word and one direction word",
                                     "bad relative word");
            side = rel_words[i].side ? rel_words[i].side : side;
            dir = rel_words[i].dir ? rel_words[i].dir : dir;
            p += 3;
        } else if (kifu__jp_starts(p, end, "打")) {
            drop = 1;
            p += 3;
        } else if (kifu__jp_starts(p, end, "成")) {
            promote = 1;
            p += 3;
        } else if (kifu__jp_starts(p, end, "不成")) {
            promote = 0;
            p += 6;
        } else if (kifu__jp_starts(p, end, "生")) {
            promote = 0;
            p += 3;
        } else {
            break;
        }
    }
    if (drop && (side || dir || promote >= 0))
        return kifu__jp_fail(rd, p, "nothing else on a drop (打)", "bad move");
    if (p < end && !is_space_at(p, end) && !kifu__jp_mark_fast(p, end, &x))
        return kifu__jp_fail(rd, p, "a space or the next move",
                             "unexpected text after a move");
    kifu_node *n = kifu__node_add_blank_move(rd->r, rd->cur);
    if (!n)
        return nomem(rd);
    kifu__node_src(n, (size_t)(*pp - rd->text));
    kifu_move m = {.color = (uint8_t)color,
                   .to_x = (uint8_t)to_x,
                   .to_y = (uint8_t)to_y,
                   .piece = (uint8_t)kind,
                   .promote = (int8_t)promote,
                   .same = (int8_t)same,
                   .flags = KIFU_MOVE_RAW | (drop ? KIFU_MOVE_DROP : 0),
                   .relative = {drop   ? 'H'
                                : side ? side
                                       : dir,
                                drop   ? 0
                                : side ? dir
                                       : 0}};
    kifu__move_put(n, &m); /* read from a closed set of words: always in range */
    rd->cur = n;
    *pp = p;
    return 0;
}

/* `まで77手で先手の勝ち`, `まで49手詰`: the ending of a line. */
static int summary(kifu__jp_reader *rd, const char *s, const char *end)
{
    const char *p = s + strlen("まで");
    p += kifu__jp_space_fast(p, end);
    long n;
    size_t k = kifu__jp_number(p, end, &n);
    if (!k)
        return kifu__jp_fail(rd, p, "a number of moves", "bad まで line");
    p += k;
    p += kifu__jp_space_fast(p, end);
    if (!kifu__jp_starts(p, end, "手"))
        return kifu__jp_fail(rd, p, "手", "bad まで line");
    p += 3;
    if (kifu__jp_starts(p, end, "で"))
        p += 3;
    const char *e = end;
    while (e > p && (e[-1] == ' ' || e[-1] == '\t'))
        e--;
    if (p == e)
        return 0;
    /* Words first that contain others (反則勝ち, 不詰 before 勝ち, 詰). */
    static const struct {
        const char *in;
        const char *word;
    } map[] = {
        {"中断", "中断"},         {"千日手", "千日手"},     {"持将棋", "持将棋"},
        {"時間切れ", "切れ負け"}, {"切れ負け", "切れ負け"}, {"反則勝ち", "反則勝ち"},
        {"反則負け", "反則負け"}, {"入玉勝ち", "入玉勝ち"}, {"宣言勝ち", "入玉勝ち"},
        {"不詰", "不詰"},         {"詰", "詰み"},           {"引き分け", "引き分け"},
        {"勝ち", "投了"},
    };
    const char *w = NULL;
    for (size_t i = 0; !w && i < sizeof map / sizeof map[0]; i++) {
        size_t wl = strlen(map[i].in);
        for (const char *q = p; q + wl <= e; q++)
            if (memcmp(q, map[i].in, wl) == 0) {
                w = map[i].word;
                break;
            }
    }
    /* A foul named with its side (先手の反則負け, 後手の反則勝ち) says who acted
     * illegally whatever the ply: the named side lost, or the other one. */
    int foul_win = w && strcmp(w, "反則勝ち") == 0,
        foul_lose = w && strcmp(w, "反則負け") == 0;
    if (foul_win || foul_lose) {
        int named = -1;
        for (const char *q = p; named < 0 && q + 9 <= e; q++) {
            if (memcmp(q, "先手の", 9) == 0 || memcmp(q, "下手の", 9) == 0)
                named = KIFU_BLACK;
            else if (memcmp(q, "後手の", 9) == 0 || memcmp(q, "上手の", 9) == 0)
                named = KIFU_WHITE;
        }
        if (named >= 0)
            w = kifu__jp_named_foul(rd, named, foul_lose);
    }
    kifu_node *node =
        w ? kifu__jp_add_special(rd, w, w + strlen(w)) : kifu__jp_add_special(rd, p, e);
    if (!node)
        return nomem(rd);
    rd->cur = node;
    return 0;
}

/* Does the まで line at s count the ending rd->cur as a move (まで401手 after an ending that
 * follows move 400)? */
static int further_ending(kifu__jp_reader *rd, const char *s, const char *end)
{
    const char *p = s + strlen("まで");
    p += kifu__jp_space_fast(p, end);
    long n;
    return kifu__jp_number(p, end, &n) && n == kifu_node_ply(rd->cur);
}

static int ki2_line(kifu__jp_reader *rd, const char *s, const char *end)
{
    const char *p = s + kifu__jp_space_fast(s, end);
    int color;
    if (kifu__jp_mark_fast(p, end, &color)) {
        if (kifu__jp_start(rd))
            return -1;
        while (p < end) {
            if (token(rd, &p, end))
                return -1;
            p += kifu__jp_space_fast(p, end);
            if (p < end && !kifu__jp_mark_fast(p, end, &color))
                return kifu__jp_fail(rd, p, "a move mark (▲ or △)", "bad move line");
        }
        return 0;
    }
    if (kifu__jp_starts(p, end, "まで")) {
        if (kifu__jp_start(rd))
            return -1;
        /* After an ending, a まで line is its summary, unless its count takes the ending
         * for a move: then it is a further ending (a second KACHI, as JKF tools keep;
         * the KI2 writer writes a まで line per ending, counted so). */
        if (kifu_node_kind_of(rd->cur) == KIFU_NODE_SPECIAL &&
            !further_ending(rd, p, end))
            return 0;
        return summary(rd, p, end);
    }
    int rc = kifu__jp_common_line(rd, s, end);
    if (rc < 0)
        return -1;
    if (rc == 0 && !(rc = kifu__jp_trailer(rd, s, end)))
        return kifu__jp_fail(rd, s,
                             "a header line (key：value), moves, a comment or 変化",
                             "unrecognised line");
    return rc < 0 ? -1 : 0;
}

int kifu__read_ki2(KIFU__READER_PARAMS)
{
    return kifu__jp_read(text, len, ki2_line, opt, out, err);
}

/* KI2: a line of moves, each after its ▲ △ (☗ ☖ ▽) mark. */
int kifu__sniff_ki2(const char *text, size_t len, size_t *at)
{
    const char *s = text, *end = text + len, *p, *eol;
    while ((p = kifu__next_line(&s, end, &eol)) != NULL)
        if (kifu__jp_starts(p, eol, "▲") || kifu__jp_starts(p, eol, "△") ||
            kifu__jp_starts(p, eol, "☗") || kifu__jp_starts(p, eol, "☖") ||
            kifu__jp_starts(p, eol, "▽")) {
            *at = (size_t)(p - text);
            return 10;
        }
    return 0;
}
