/* kif_read.c: the KIF / KIFU reader (Kakinoki format), and the line handling KI2 shares
 * with it (header, BOD, comments, bookmarks, 変化 branches).
 *
 * The text is read in place, one line at a time; moves become raw record moves (source
 * square, destination or 同, piece before the move, 成/不成, 打) that kifu_normalize()
 * completes. */
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

static int nomem(kifu__jp_reader *rd)
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
            return nomem(rd);
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
        return kifu_record_set_initial(rd->r, &b) ? nomem(rd) : 0;
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

/* 先手 下手 (sente) or 後手 上手 (gote) as the whole of [s, end), else -1. */
static int side_word(const char *s, const char *end)
{
    if (end - s != 6)
        return -1;
    if (!memcmp(s, "先手", 6) || !memcmp(s, "下手", 6))
        return KIFU_BLACK;
    if (!memcmp(s, "後手", 6) || !memcmp(s, "上手", 6))
        return KIFU_WHITE;
    return -1;
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
        rc = nomem(rd);
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
            return nomem(rd);
        tmp_free(&t);
        return 1;
    }
    if (*s == '&') {
        tmpstr t;
        const char *c = tmp(&t, s + 1, end);
        if (!c || kifu_node_add_bookmark(rd->r, rd->cur, c))
            return nomem(rd);
        tmp_free(&t);
        return 1;
    }
    if (kifu__jp_starts(s, end, "変化"))
        return branch_line(rd, s, end);
    if (kifu__jp_starts(s, end, "手数＝") || kifu__jp_starts(s, end, "手数="))
        return 1; /* a BOD's move counter: the moves themselves follow */
    if (kifu__jp_starts(s, end, "盤面回転") || kifu__jp_starts(s, end, "盤面反転")) {
        tmpstr t;
        const char *k = tmp(&t, s, s + strlen("盤面回転"));
        if (!k || kifu_record_header_add(rd->r, k, ""))
            return nomem(rd);
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

/* ---- KIF moves ---------------------------------------------------------------------- */

/* kifu__jp_space and kifu__jp_number for the move lines' hot path: ASCII spaces and digits
 * inline, the general calls only when a tab or a full-width character (E3: 　, EF: ０-９)
 * is next. Same results. */
static inline size_t sp(const char *s, const char *end)
{
    const char *p = s;
    while (p < end && *p == ' ')
        p++;
    if (p < end && (*p == '\t' || (unsigned char)*p == 0xE3))
        p += kifu__jp_space(p, end);
    return (size_t)(p - s);
}

static inline size_t number(const char *s, const char *end, long *v)
{
    const char *p = s;
    long x = 0;
    int d = 0;
    while (p < end && *p >= '0' && *p <= '9' && d < 9) {
        x = x * 10 + (*p++ - '0');
        d++;
    }
    if (d < 9 && p < end && (unsigned char)*p == 0xEF)
        return kifu__jp_number(s, end, v);
    *v = x;
    return (size_t)(p - s);
}

/* `12:34:56`, `0:02`, `00:31` -> up to three numbers. Returns bytes used or 0. */
static size_t clock(const char *s, const char *end, long v[3], int *nv)
{
    const char *p = s;
    *nv = 0;
    for (;;) {
        p += sp(p, end);
        size_t k = number(p, end, &v[*nv]);
        if (!k)
            return 0;
        p += k;
        (*nv)++;
        p += sp(p, end);
        if (*nv < 3 && p < end && *p == ':')
            p++;
        else if (*nv < 3 && kifu__jp_starts(p, end, "："))
            p += 3;
        else
            return (size_t)(p - s);
    }
}

static inline int dig(char c)
{
    return c >= '0' && c <= '9';
}

/* `( 0:16/00:00:16)` in any spacing and digit width; s is at '('. */
static size_t move_time(const char *s, const char *end, kifu_move_time *t)
{
    /* The layout nearly every file uses, `(mm:ss/hh:mm:ss)` with the minutes' tens a
     * space or a digit, read at fixed offsets; anything else by the general path below. */
    if (end - s >= 16 && s[3] == ':' && s[6] == '/' && s[9] == ':' && s[12] == ':' &&
        s[15] == ')' && (s[1] == ' ' || dig(s[1])) && dig(s[2]) && dig(s[4]) &&
        dig(s[5]) && dig(s[7]) && dig(s[8]) && dig(s[10]) && dig(s[11]) && dig(s[13]) &&
        dig(s[14])) {
        long m = (s[1] == ' ' ? 0 : s[1] - '0') * 10 + (s[2] - '0');
        long sec = (s[4] - '0') * 10 + (s[5] - '0');
        long th = (s[7] - '0') * 10 + (s[8] - '0'),
             tm = (s[10] - '0') * 10 + (s[11] - '0');
        long ts = (s[13] - '0') * 10 + (s[14] - '0');
        memset(t, 0, sizeof *t);
        /* Fields already in range are what kifu_time_from_seconds would give. */
        if (sec < 60) {
            t->now.h = -1;
            t->now.m = (int)m;
            t->now.s = (int)sec;
        } else {
            t->now = kifu_time_from_seconds(m * 60 + sec, 0);
        }
        if (tm < 60 && ts < 60) {
            t->total.h = (int)th;
            t->total.m = (int)tm;
            t->total.s = (int)ts;
        } else {
            t->total = kifu_time_from_seconds(th * 3600 + tm * 60 + ts, 1);
        }
        t->has_total = 1;
        return 16;
    }
    const char *p = s + 1;
    long a[3], b[3];
    int na, nb = 0, slash = 0;
    size_t k = clock(p, end, a, &na);
    if (!k)
        return 0;
    p += k;
    if (p < end && *p == '/') {
        slash = 1;
        p++;
        p += sp(p, end);
        /* `( 0:7/)`: some programs leave the total out; the normalizer sums it. */
        if (p < end && *p != ')') {
            k = clock(p, end, b, &nb);
            if (!k)
                return 0;
            p += k;
        }
    }
    /* A time has a ':' or a '/': `(5)` is no 5 seconds (nor `(00)` a drop's). */
    if (p >= end || *p != ')' || (na < 2 && !slash))
        return 0;
    memset(t, 0, sizeof *t);
    long now = na == 3   ? a[0] * 3600 + a[1] * 60 + a[2]
               : na == 2 ? a[0] * 60 + a[1]
                         : a[0];
    t->now = kifu_time_from_seconds(now, 0);
    if (nb) {
        long tot = nb == 3   ? b[0] * 3600 + b[1] * 60 + b[2]
                   : nb == 2 ? b[0] * 60 + b[1]
                             : b[0];
        t->total = kifu_time_from_seconds(tot, 1);
        t->has_total = 1;
    }
    return (size_t)(p + 1 - s);
}

size_t kifu__jp_mark(const char *s, const char *end, int *color)
{
    static const struct {
        const char *m;
        int color;
    } marks[] = {{"▲", KIFU_BLACK}, {"△", KIFU_WHITE}, {"☗", KIFU_BLACK},
                 {"☖", KIFU_WHITE}, {"▽", KIFU_WHITE}, {"▼", KIFU_BLACK}};
    if (end - s < 3 || (unsigned char)s[0] != 0xE2)
        return 0; /* every mark is a three-byte character starting E2 */
    for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++)
        if (memcmp(s, marks[i].m, 3) == 0) {
            *color = marks[i].color;
            return 3;
        }
    return 0;
}

/* The time, fork mark and spaces after a move or an ending word, to the end of line. */
static int move_tail(kifu__jp_reader *rd, const char *p, const char *end, kifu_node *n)
{
    p += sp(p, end);
    if (p < end && *p == '(') {
        kifu_move_time t;
        size_t k = move_time(p, end, &t);
        if (!k)
            return kifu__jp_fail(rd, p, "a time like ( 0:16/00:00:16)", "bad move time");
        if (kifu__time_set(n, &t))
            return nomem(rd);
        p += k;
        p += sp(p, end);
    }
    if (p < end && *p == '+') /* a variation follows; the tree says so already */
        p++;
    p += sp(p, end);
    if (p < end)
        return kifu__jp_fail(rd, p, "the end of the move line",
                             "unexpected text after the move");
    return 0;
}

/* A board diagram without 先手番 / 後手番 whose first move is gote's piece (a record cut
 * after ply 1, its moves numbered from 2): gote moves first. 0, or -1 on NOMEM. */
static int first_mover(kifu__jp_reader *rd, kifu_move *m)
{
    kifu__bod *bod = &rd->bod;
    if (bod->rows != 9 || bod->color_set)
        return 0;
    int sq = bod->b.sq[KIFU_SQ(m->from_x, m->from_y)];
    if (!sq || (sq >> 4) == m->color)
        return 0;
    bod->b.color = (uint8_t)(sq >> 4);
    rd->first_color = bod->b.color;
    m->color = bod->b.color;
    if (kifu_record_set_initial(rd->r, &bod->b))
        return nomem(rd);
    kifu__warn(rd->warn, rd->warn_ctx,
               "line %d: the board diagram does not say who moves first; the first move "
               "is %s's, so %s moves first",
               rd->lineno, m->color ? "gote" : "sente", m->color ? "gote" : "sente");
    return 0;
}

/* A move or ending line; returns 0 when the line is not one. */
static int move_line(kifu__jp_reader *rd, const char *s, const char *end)
{
    const char *p = s + sp(s, end);
    int color = -1;
    if (p < end && *p >= '0' && *p <= '9') {
        while (p < end && *p >= '0' && *p <= '9')
            p++;
        size_t gap = sp(p, end);
        if (!gap)
            return 0;
        p += gap;
    } else if (!kifu__jp_mark(p, end, &color)) {
        return 0;
    }
    if (kifu__jp_start(rd))
        return -1;
    p += kifu__jp_mark(p, end, &color);
    const char *at = p; /* where the move's text begins, for errors found later */
    int ply = kifu_node_ply(rd->cur) + 1;
    kifu_move m;
    memset(&m, 0, sizeof m);
    m.promote = -1;
    m.same = -1;
    m.flags = KIFU_MOVE_RAW;
    m.color = (uint8_t)((rd->first_color + ply - 1) & 1);
    if (color < 0)
        m.flags |= KIFU_MOVE_NO_COLOR;
    else
        m.color = (uint8_t)color;
    size_t k;
    int x, y;
    if (kifu__jp_starts(p, end, "同")) {
        p += 3;
        p += sp(p, end);
        m.same = 1;
        if (rd->cur->kind == KIFU_NODE_MOVE) { /* 同 is where the move before went */
            int tx, ty;
            kifu__move_to(rd->cur, &tx, &ty);
            m.to_x = (uint8_t)tx, m.to_y = (uint8_t)ty;
        }
    } else if ((k = kifu__jp_digit(p, end, &x)) != 0) {
        p += k;
        if (!(k = kifu__jp_rank_fast(p, end, &y)))
            return kifu__jp_fail(rd, p, "a rank (一 to 九)", "bad move");
        p += k;
        m.to_x = (uint8_t)x;
        m.to_y = (uint8_t)y;
    } else {
        /* An ending word: 投了, 中断, ... or any other word, kept verbatim. */
        const char *w = p;
        while (p < end && *p != ' ' && *p != '(' && !kifu__jp_starts(p, end, "　"))
            p++;
        if (p == w)
            return kifu__jp_fail(rd, p, "a move or an ending word", "bad move line");
        const char *we = p;
        /* 将棋倶楽部24 names the side of a foul: `先手 反則負け`, whatever the ply. */
        int named = side_word(w, we);
        if (named >= 0) {
            const char *f = p + sp(p, end), *fe = f;
            while (fe < end && *fe != ' ' && *fe != '(' &&
                   !kifu__jp_starts(fe, end, "　"))
                fe++;
            int lose = fe - f == 12 && memcmp(f, "反則負け", 12) == 0;
            if (lose || (fe - f == 12 && memcmp(f, "反則勝ち", 12) == 0)) {
                w = kifu__jp_named_foul(rd, named, lose);
                we = w + strlen(w);
                p = fe;
            }
        }
        kifu_node *n = kifu__jp_add_special(rd, w, we);
        if (!n)
            return nomem(rd);
        rd->cur = n;
        return move_tail(rd, p, end, n) ? -1 : 1;
    }
    int kind;
    if (!(k = kifu__jp_piece_fast(p, end, &kind)))
        return kifu__jp_fail(rd, p, KIFU__JP_PIECE_EXPECTED, "bad move");
    p += k;
    m.piece = (uint8_t)kind;
    if (kifu__jp_starts(p, end, "成")) {
        m.promote = 1;
        p += 3;
    } else if (kifu__jp_starts(p, end, "不成")) {
        m.promote = 0;
        p += 6;
    } else if (kifu__jp_starts(p, end, "生")) {
        m.promote = 0;
        p += 3;
    }
    if (kifu__jp_starts(p, end, "打")) {
        m.flags |= KIFU_MOVE_DROP;
        p += 3;
    }
    if (end - p >= 4 && memcmp(p, "(00)", 4) == 0) {
        /* Some writers give a drop the from-square 00 (`５五角打(00)`): no time. */
        m.flags |= KIFU_MOVE_DROP;
        p += 4;
    } else if (!(m.flags & KIFU_MOVE_DROP) && end - p >= 4 && p[0] == '(' &&
               p[1] >= '1' && p[1] <= '9' && p[2] >= '1' && p[2] <= '9' && p[3] == ')') {
        m.from_x = (uint8_t)(p[1] - '0');
        m.from_y = (uint8_t)(p[2] - '0');
        p += 4;
    }
    if (m.from_x && ply == 1 && color < 0 && rd->cur == kifu_record_root(rd->r) &&
        first_mover(rd, &m))
        return -1;
    kifu_node *n = kifu_node_add_move(rd->r, rd->cur, &m);
    if (!n)
        return nomem(rd);
    kifu__node_src(n, (size_t)(at - rd->text));
    rd->cur = n;
    return move_tail(rd, p, end, n) ? -1 : 1;
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

static int kif_line(kifu__jp_reader *rd, const char *s, const char *end)
{
    if (kifu__jp_starts(s, end, "手数----") || kifu__jp_starts(s, end, "手数－－")) {
        return kifu__jp_start(rd);
    }
    /* A BOD's half-width file labels (`  9 8 7 ...`) would read as move 9. */
    if (s < end && *s != '*' && *s != '#' && *s != '&' &&
        !(!rd->started && kifu__bod_files(s, end))) {
        int rc = move_line(rd, s, end);
        if (rc)
            return rc < 0 ? -1 : 0;
    }
    if (kifu__jp_starts(s, end, "まで"))
        return 0; /* the summary of the ending above (or of the result when none is given) */
    int rc = kifu__jp_common_line(rd, s, end);
    if (rc < 0)
        return -1;
    if (rc == 0 && !(rc = kifu__jp_trailer(rd, s, end)))
        return kifu__jp_fail(rd, s,
                             "a header line (key：value), a move, a comment or 変化",
                             "unrecognised line");
    return rc < 0 ? -1 : 0;
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
        return nomem(rd);
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

int kifu__read_kif(KIFU__READER_PARAMS)
{
    return kifu__jp_read(text, len, kif_line, opt, out, err);
}

/* KIF: the move table's heading or a numbered move line decides; lines KIF is made of
 * (#, *, &, Japanese text) make a weak bid at the end. */
int kifu__sniff_kif(const char *text, size_t len, size_t *at)
{
    const char *s = text, *end = text + len, *p, *eol;
    int like = 0;
    while ((p = kifu__next_line(&s, end, &eol)) != NULL) {
        if (kifu__jp_starts(p, eol, "手数----")) {
            *at = (size_t)(p - text);
            return 10;
        }
        if (*p >= '0' && *p <= '9') {
            const char *q = p;
            while (q < eol && *q >= '0' && *q <= '9')
                q++;
            if (q < eol && (*q == ' ' || *q == '\t' || (unsigned char)*q >= 0x80)) {
                *at = (size_t)(p - text);
                return 10;
            }
        }
        like |= *p == '#' || *p == '*' || *p == '&' || (unsigned char)*p >= 0x80;
    }
    *at = len;
    return like ? 1 : 0;
}
