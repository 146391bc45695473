/* kif_read.c: the KIF / KIFU reader (Kakinoki format): its move lines. The line handling
 * KI2 shares with it (header, BOD, comments, bookmarks, 変化 branches) is jp_read.c's.
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

/* The readers' out-of-memory error (kifu__jp_nomem). */
static int nomem(kifu__jp_reader *rd)
{
    return kifu__jp_nomem(rd);
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
        /* Relays double the field: ( 0:00/00:00:00) ( 0:00/00:00:00). Repairing, the
         * second is dropped with a warning; else it stays an error. */
        kifu_move_time t2;
        unsigned fix = KIFU_READ_LENIENT | KIFU_READ_REPAIR;
        if ((rd->flags & fix) == fix && p < end && *p == '(' &&
            (k = move_time(p, end, &t2))) {
            kifu__warn(rd->warn, rd->warn_ctx, "line %d: a second time field dropped",
                       rd->lineno);
            p += k;
            p += sp(p, end);
        }
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
