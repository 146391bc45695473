/* jp_read.c: what the KIF and KI2 readers share (jp.h): the reader's state and its line
 * loop, errors with line and column, the header, the BOD, comments, bookmarks, 変化
 * branches, endings and the trailer lines programs write under the moves. The moves of
 * each format are its own file's (kif_read.c, ki2_read.c). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fmt/fmt.h"
#include "fmt/jp.h"
#include "kifu_private.h"
#include "notation/words_fast.h"
#include "record/record.h"

int kifu__jp_fail(kifu__jp_reader *rd, const char *at, const char *expected,
                  const char *what)
{
    /* Quote what was found: up to the next space, at most a few characters. */
    char found[64];
    size_t n = 0;
    const char *p = at, *stop = rd->stop; /* the text may hold no NUL (read in place) */
    while (p < stop && *p && *p != '\n' && *p != '\r' && *p != ' ' && n < 40) {
        size_t k = 1;
        while (p + k < stop && (((unsigned char)p[k]) & 0xC0) == 0x80)
            k++;
        if (n + k >= sizeof found)
            break;
        memcpy(found + n, p, k);
        n += k;
        p += k;
    }
    found[n] = 0;
    if (!n)
        snprintf(found, sizeof found, "%s",
                 at < stop && *at && *at != '\n' && *at != '\r' ? "a space"
                                                                : "the end of the line");
    int col = kifu__utf8_column(rd->line, (size_t)(at - rd->line));
    return kifu__error(rd->err, KIFU_ERR_SYNTAX, rd->lineno, col, (size_t)(at - rd->text),
                       expected, found, "%s: expected %s, found \"%s\"", what, expected,
                       found);
}

int kifu__jp_column(kifu__jp_reader *rd, const char *at)
{
    return kifu__jp_column_at(rd, at);
}

int kifu__jp_nomem(kifu__jp_reader *rd)
{
    return kifu__error(rd->err, KIFU_ERR_NOMEM, rd->lineno, 0, 0, NULL, NULL,
                       "out of memory");
}

/* A NUL-terminated copy of [s, e) in a small buffer, or on the heap when long. */
typedef struct {
    char small[256];
    char *heap;
} tmpstr;

static const char *tmp(tmpstr *t, const char *s, const char *e)
{
    size_t n = (size_t)(e - s);
    char *d = t->small;
    t->heap = NULL;
    if (n >= sizeof t->small) {
        d = t->heap = kifu__malloc(n + 1);
        if (!d)
            return NULL;
    }
    memcpy(d, s, n);
    d[n] = 0;
    return d;
}

static void tmp_free(tmpstr *t)
{
    kifu__free(t->heap);
}

int kifu__jp_start(kifu__jp_reader *rd)
{
    if (rd->started)
        return 0;
    rd->started = 1;
    kifu__bod *bod = &rd->bod;
    int handicap = rd->preset > KIFU_PRESET_HIRATE && rd->preset < KIFU_PRESET_OTHER;
    if (bod->rows > 0 && bod->rows < 9)
        return kifu__error(rd->err, KIFU_ERR_SYNTAX, rd->lineno, 1,
                           (size_t)(rd->line - rd->text), "nine board rows", "fewer rows",
                           "the board diagram has only %d of its nine rows", bod->rows);
    if (bod->rows == 9) {
        rd->first_color = bod->b.color;
        /* 手合割 and the board it names (as kifu writes the handicaps some readers have
         * no name for): the preset, as the 手合割 line alone reads. */
        if (handicap && kifu__preset_match_ref(&bod->b) == rd->preset) {
            kifu_record_set_preset(rd->r, rd->preset);
            return 0;
        }
        if (kifu_record_set_initial(rd->r, &bod->b))
            return kifu__jp_nomem(rd);
        return 0;
    }
    rd->first_color = handicap ? KIFU_WHITE : KIFU_BLACK;
    int any_hand = 0;
    for (int c = 0; c < 2; c++)
        for (int k = 1; k < 8; k++)
            any_hand |= bod->b.hands[c][k];
    if (any_hand) {
        /* Hands without a diagram: pieces in hand on top of the preset's board. */
        kifu_board b;
        kifu_preset_board(rd->preset >= 0 && rd->preset < KIFU_PRESET_OTHER
                              ? rd->preset
                              : KIFU_PRESET_HIRATE,
                          &b);
        memcpy(b.hands, bod->b.hands, sizeof b.hands);
        if (bod->color_set)
            b.color = bod->b.color;
        rd->first_color = b.color;
        return kifu_record_set_initial(rd->r, &b) ? kifu__jp_nomem(rd) : 0;
    }
    if (bod->color_set)
        rd->first_color = bod->b.color;
    if (rd->preset >= 0 && rd->preset < KIFU_PRESET_OTHER)
        kifu_record_set_preset(rd->r, rd->preset);
    return 0;
}

kifu_node *kifu__jp_add_special(kifu__jp_reader *rd, const char *word, const char *wend)
{
    int ply = kifu_node_ply(rd->cur) + 1;
    const char *sp = kifu__jp_special(word, wend, (rd->first_color + ply) & 1);
    tmpstr t;
    const char *w = sp ? sp : tmp(&t, word, wend);
    if (!w)
        return NULL;
    kifu_node *n = kifu_node_add_special(rd->r, rd->cur, w);
    if (!sp)
        tmp_free(&t);
    return n;
}

const char *kifu__jp_named_foul(const kifu__jp_reader *rd, int named, int foul_lose)
{
    int fouler = foul_lose ? named : !named;
    int to_move = (rd->first_color + kifu_node_ply(rd->cur)) & 1;
    /* The side to move lost: ILLEGAL_MOVE, as the unnamed word reads. */
    if (foul_lose && fouler == to_move)
        return "反則負け";
    return fouler == KIFU_BLACK ? "+ILLEGAL_ACTION" : "-ILLEGAL_ACTION";
}

/* `key：value` or `key:value`; the key holds no space. */
static int header_line(kifu__jp_reader *rd, const char *s, const char *end)
{
    const char *colon = NULL, *val = NULL;
    for (const char *p = s; p < end; p++) {
        if (*p == ':') {
            colon = p, val = p + 1;
            break;
        }
        if (kifu__jp_starts(p, end, "：")) {
            colon = p, val = p + 3;
            break;
        }
        if (*p == ' ' || *p == '\t' || kifu__jp_starts(p, end, "　"))
            return 0;
    }
    if (!colon || colon == s)
        return 0;
    tmpstr tk, tv;
    const char *key = tmp(&tk, s, colon);
    const char *value = key ? tmp(&tv, val, end) : NULL;
    int rc = 1;
    if (!key || !value || kifu_record_header_add(rd->r, key, value))
        rc = kifu__jp_nomem(rd);
    if (key && strcmp(key, "手合割") == 0)
        rd->preset = kifu__jp_preset(val, end);
    if (key)
        tmp_free(&tk);
    if (value)
        tmp_free(&tv);
    return rc;
}

/* `変化：N手`: go back along the current line to move N-1; the next moves fork there. */
static int branch_line(kifu__jp_reader *rd, const char *s, const char *end)
{
    const char *p = s + strlen("変化");
    if (kifu__jp_starts(p, end, "："))
        p += 3;
    else if (p < end && *p == ':')
        p++;
    p += kifu__jp_space(p, end);
    long n = 0;
    size_t k = kifu__jp_number(p, end, &n);
    if (!k || n < 1)
        return kifu__jp_fail(rd, p, "a move number", "bad 変化 line");
    p += k;
    p += kifu__jp_space(p, end);
    if (!kifu__jp_starts(p, end, "手"))
        return kifu__jp_fail(rd, p, "手", "bad 変化 line");
    if (kifu__jp_start(rd))
        return -1;
    kifu_node *c = rd->cur;
    while (c && kifu_node_ply(c) > n - 1)
        c = kifu_node_parent(c);
    if (!c || kifu_node_ply(c) != n - 1)
        return kifu__jp_fail(rd, s, "a branch from a move the line before reaches",
                             "the variation starts after the end of the line");
    rd->cur = c;
    return 1;
}

int kifu__jp_common_line(kifu__jp_reader *rd, const char *s, const char *end)
{
    if (s == end || *s == '#')
        return 1;
    if (*s == '*') {
        tmpstr t;
        const char *c = tmp(&t, s + 1, end);
        if (!c || kifu_node_add_comment(rd->r, rd->cur, c))
            return kifu__jp_nomem(rd);
        tmp_free(&t);
        return 1;
    }
    if (*s == '&') {
        tmpstr t;
        const char *c = tmp(&t, s + 1, end);
        if (!c || kifu_node_add_bookmark(rd->r, rd->cur, c))
            return kifu__jp_nomem(rd);
        tmp_free(&t);
        return 1;
    }
    if (kifu__jp_starts(s, end, "変化"))
        return branch_line(rd, s, end);
    if (kifu__jp_starts(s, end, "手数＝") || kifu__jp_starts(s, end, "手数=")) {
        /* A BOD's move counter (`手数＝35  ▲５三銀  まで`): the moves played before this
         * position, so the next move is number N + 1 (as a SFEN's move number says). */
        const char *p = s + (kifu__jp_starts(s, end, "手数＝") ? strlen("手数＝") : 3);
        long v;
        p += kifu__jp_space(p, end);
        if (!rd->started && kifu__jp_number(p, end, &v))
            kifu_record_set_start_number(rd->r, (int)(v + 1));
        return 1;
    }
    if (kifu__jp_starts(s, end, "盤面回転") || kifu__jp_starts(s, end, "盤面反転")) {
        tmpstr t;
        const char *k = tmp(&t, s, s + strlen("盤面回転"));
        if (!k || kifu_record_header_add(rd->r, k, ""))
            return kifu__jp_nomem(rd);
        tmp_free(&t);
        return 1;
    }
    const char *where = NULL, *expected = NULL;
    int b = kifu__bod_line(&rd->bod, s, end, &where, &expected);
    if (b == KIFU__BOD_ERR)
        return kifu__jp_fail(rd, where, expected, "bad board diagram");
    if (b == KIFU__BOD_YES) {
        if (rd->started)
            return kifu__jp_fail(rd, s, "moves", "a board diagram after the moves began");
        return 1;
    }
    return header_line(rd, s, end);
}

static int jp_lines(kifu__jp_reader *rd, const char *text, size_t len,
                    int (*fn)(kifu__jp_reader *, const char *, const char *))
{
    const char *p = text, *stop = text + len;
    rd->text = text;
    rd->stop = stop;
    rd->lineno = 0;
    while (p < stop) {
        const char *nl = memchr(p, '\n', (size_t)(stop - p));
        const char *e = nl ? nl : stop;
        while (e > p && e[-1] == '\r')
            e--;
        rd->line = p;
        rd->lineno++;
        if (fn(rd, p, e))
            return -1;
        p = nl ? nl + 1 : stop;
    }
    return 0;
}

/* A rule of three or more '-' alone on its line (the trailer a program writes under the
 * moves: 激指定跡道場's `----` and `generated by` lines). */
static int rule_line(const char *s, const char *end)
{
    const char *p = s;
    while (p < end && *p == '-')
        p++;
    return p - s >= 3 && p == end;
}

int kifu__jp_trailer(kifu__jp_reader *rd, const char *s, const char *end)
{
    if (!rd->started)
        return 0;
    int ending = kifu_node_kind_of(rd->cur) == KIFU_NODE_SPECIAL;
    if (!rd->trailer && !ending && !rule_line(s, end))
        return 0;
    tmpstr t;
    const char *c = tmp(&t, s, end);
    if (!c || kifu_node_add_comment(rd->r, rd->cur, c))
        return kifu__jp_nomem(rd);
    tmp_free(&t);
    if (!rd->trailer)
        kifu__warn(
            rd->warn, rd->warn_ctx,
            "line %d: \"%.*s\" and the lines after it that are no record lines are "
            "kept as comments of the %s before them",
            rd->lineno, (int)(end - s), s, ending ? "ending" : "move");
    rd->trailer = 1;
    return 1;
}

static int jp_reader_init(kifu__jp_reader *rd, kifu_error *err)
{
    memset(rd, 0, sizeof *rd);
    rd->err = err;
    rd->preset = KIFU_PRESET_NONE;
    rd->r = kifu_record_new();
    if (!rd->r)
        return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
    rd->cur = kifu_record_root(rd->r);
    return 0;
}

/* A KIF or KI2 file whose line ends were lost (joined by spaces) would read as one
 * header value and an empty game: a single line holding a header (key：value) and a
 * second header, the move list's title or a move is refused. Where that second thing
 * starts, or NULL for a file that may well be one line (moves only, one header). */
static const char *joined_lines(const char *text, size_t len)
{
    if (memchr(text, '\n', len))
        return NULL;
    const char *end = text + len, *colon = NULL;
    for (const char *p = text; p + 3 <= end; p++) {
        if (!colon && kifu__jp_starts(p, end, "：")) {
            colon = p;
            p += 2;
            continue;
        }
        if (colon && (kifu__jp_starts(p, end, "：") || kifu__jp_starts(p, end, "手数") ||
                      kifu__jp_starts(p, end, "▲") || kifu__jp_starts(p, end, "△"))) {
            /* Back to the start of that line-to-be: the word before it. */
            while (p > colon + 3 && p[-1] != ' ' && p[-1] != '\t')
                p--;
            return p;
        }
    }
    return NULL;
}

int kifu__jp_read(const char *text, size_t len,
                  int (*line_fn)(kifu__jp_reader *, const char *, const char *),
                  const kifu_read_options *opt, kifu__records *out, kifu_error *err)
{
    kifu__jp_reader rd;
    kifu__words_init();
    if (jp_reader_init(&rd, err))
        return -1;
    if (opt) {
        rd.warn = opt->warn;
        rd.warn_ctx = opt->warn_ctx;
        rd.flags = opt->flags;
    }
    const char *joined = joined_lines(text, len);
    if (joined) {
        rd.text = rd.line = text;
        rd.stop = text + len;
        rd.lineno = 1;
        kifu__jp_fail(&rd, joined, "line ends between header lines and moves",
                      "several record lines on one line (were the line ends lost?)");
        kifu_record_free(rd.r);
        return -1;
    }
    if (jp_lines(&rd, text, len, line_fn) || kifu__jp_start(&rd)) {
        kifu_record_free(rd.r);
        return -1;
    }
    if (kifu__records_push(out, rd.r))
        return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
    return 0;
}
