/* notation.c: readable text of moves (☗７六歩(77), ☖同　銀, ☗５五角打) and ending words,
 * and the parser of the moves people type in `kifu play`. */
#include "notation/notation.h"
#include "notation/relative.h"
#include "notation/words.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "kifu_private.h"
#include "rules/types.h"

/* ---- move text ---- */

int kifu__move_promotes(const kifu_move *m)
{
    if (m->promote == 1)
        return 1;
    if (m->promote == 0 || m->from_x == 0)
        return 0;
    int rank = m->color == KIFU_WHITE ? 10 - m->to_y : m->to_y; /* 1 = the far rank */
    return ((m->piece == PAWN || m->piece == LANCE) && rank == 1) ||
           (m->piece == KNIGHT && rank <= 2);
}

static void put(char *buf, size_t cap, size_t *len, const char *s)
{
    size_t n = strlen(s);
    if (*len + n >= cap)
        return; /* keep what fits; callers give >= 64 bytes, which every move fits */
    memcpy(buf + *len, s, n + 1);
    *len += n;
}

static const char *relative_word(char c)
{
    switch (c) {
    case 'L':
        return "左";
    case 'C':
        return "直";
    case 'R':
        return "右";
    case 'U':
        return "上";
    case 'M':
        return "寄";
    case 'D':
        return "引";
    case 'H':
        return "打";
    }
    return "";
}

char *kifu_move_text(const kifu_move *m, const kifu_move *prev, unsigned style, char *buf,
                     size_t cap)
{
    size_t len = 0;
    if (!buf || !cap)
        return buf;
    buf[0] = 0;
    if (!m)
        return buf;
    if (style & KIFU_TEXT_MARK)
        put(buf, cap, &len,
            (style & KIFU__TEXT_TRIANGLE) ? (m->color == KIFU_WHITE ? "△" : "▲")
                                          : (m->color == KIFU_WHITE ? "☖" : "☗"));
    /* 同: said by the move, or (when it does not say) its square is the last move's. */
    int same = !(style & KIFU__TEXT_NO_SAME) &&
               (m->same == 1 || (m->same < 0 && prev && m->to_x &&
                                 prev->to_x == m->to_x && prev->to_y == m->to_y));
    int drop =
        (m->from_x == 0 && !(m->flags & KIFU_MOVE_RAW)) || (m->flags & KIFU_MOVE_DROP);
    /* What follows the square: name, relative word, promotion, 打. */
    char rest[48];
    size_t rlen = 0;
    rest[0] = 0;
    put(rest, sizeof rest, &rlen, kifu__kanji_piece(m->piece));
    int wrote_drop = 0;
    if (style & KIFU_TEXT_RELATIVE) {
        for (int i = 0; i < 2 && m->relative[i]; i++) {
            put(rest, sizeof rest, &rlen, relative_word(m->relative[i]));
            wrote_drop |= m->relative[i] == 'H';
        }
    }
    if (kifu__move_promotes(m))
        put(rest, sizeof rest, &rlen, "成");
    else if (m->promote == 0 && !(style & KIFU__TEXT_NO_NARAZU))
        put(rest, sizeof rest, &rlen, "不成");
    /* KIF writes 打 on every drop; KI2 only when the relative word says H. */
    if (drop && !wrote_drop && !(style & KIFU_TEXT_RELATIVE))
        put(rest, sizeof rest, &rlen, "打");
    if (same) {
        put(buf, cap, &len, "同");
        /* A full-width space keeps "同　銀" as wide as "７六歩": always in KIF files, after
         * a one-character piece name in display text, when all that follows is one
         * character in KI2 files. */
        size_t name = strlen(kifu__kanji_piece(m->piece));
        if ((style & KIFU__TEXT_PAD_SAME) ||
            ((style & KIFU__TEXT_PAD_REST) ? rlen == 3 : name <= 3))
            put(buf, cap, &len, "　");
    } else {
        put(buf, cap, &len, kifu__zen_digit(m->to_x));
        put(buf, cap, &len, kifu__kanji_number(m->to_y));
    }
    put(buf, cap, &len, rest);
    if ((style & KIFU_TEXT_FROM) && !drop && m->from_x) {
        char from[8];
        snprintf(from, sizeof from, "(%d%d)", m->from_x % 10, m->from_y % 10);
        put(buf, cap, &len, from);
    }
    return buf;
}

/* ---- typed moves ---- */

typedef struct pattern {
    int from_x, from_y; /* -1: not given; 0, 0: a drop */
    int to_x, to_y;
    int kind;       /* 0: not given */
    int promote;    /* -1 not said, 0 no, 1 yes, -2 USI without '+': no unless forced */
    int drop;       /* 打 or from 00 */
    char dir;       /* 'U' 上, 'D' 引, 'M' 寄, 'C' 直, 0 */
    char side;      /* 'L' 左, 'R' 右, 0 */
    int after_kind; /* the name given was the kind after promotion (CSA "UM") */
} pattern;

static int eat(const char **s, const char *word)
{
    size_t n = strlen(word);
    if (strncmp(*s, word, n) == 0) {
        *s += n;
        return 1;
    }
    return 0;
}

static void skip_space(const char **s)
{
    for (;;) {
        if (**s == ' ' || **s == '\t' || **s == '\r' || **s == '\n')
            (*s)++;
        else if (!eat(s, "　"))
            return;
    }
}

/* A digit 1..9 written as ASCII, full width or (a rank) kanji; 0 if none. */
static int eat_digit(const char **s, int allow_kanji)
{
    const char *end = *s + strlen(*s);
    int v = 0;
    size_t n = allow_kanji ? kifu__jp_rank(*s, end, &v) : kifu__jp_digit(*s, end, &v);
    if (!n)
        return 0;
    *s += n;
    return v;
}

/* A piece named in kanji (the names records use); 0 if none. */
static int eat_kanji_piece(const char **s)
{
    int kind = 0;
    size_t n = kifu__jp_piece(*s, *s + strlen(*s), &kind);
    *s += n;
    return n ? kind : 0;
}

/* A piece named in ASCII: romaji (fu, kaku ...), CSA (FU, KA ...) or USI (P, B ...). */
static int ascii_piece(const char *w, int *after)
{
    static const struct {
        const char *name;
        int kind;
    } names[] = {
        {"fu", PAWN},
        {"fuhyou", PAWN},
        {"kyo", LANCE},
        {"kyou", LANCE},
        {"kyousha", LANCE},
        {"kyosha", LANCE},
        {"kei", KNIGHT},
        {"keima", KNIGHT},
        {"gin", SILVER},
        {"ginshou", SILVER},
        {"kin", GOLD},
        {"kinshou", GOLD},
        {"kaku", BISHOP},
        {"kakugyou", BISHOP},
        {"kakugyo", BISHOP},
        {"hi", ROOK},
        {"hisha", ROOK},
        {"hisya", ROOK},
        {"hishya", ROOK},
        {"ou", KING},
        {"gyoku", KING},
        {"gyokushou", KING},
        {"king", KING},
        {"to", PRO_PAWN},
        {"tokin", PRO_PAWN},
        {"token", PRO_PAWN},
        {"narikyo", PRO_LANCE},
        {"narikyou", PRO_LANCE},
        {"narikei", PRO_KNIGHT},
        {"narigin", PRO_SILVER},
        {"uma", HORSE},
        {"ryuuma", HORSE},
        {"ryu", DRAGON},
        {"ryuu", DRAGON},
        {"ryuuou", DRAGON},
        {"ryuou", DRAGON},
        {"p", PAWN},
        {"l", LANCE},
        {"n", KNIGHT},
        {"s", SILVER},
        {"g", GOLD},
        {"b", BISHOP},
        {"r", ROOK},
        {"k", KING},
        {"pawn", PAWN},
        {"lance", LANCE},
        {"knight", KNIGHT},
        {"silver", SILVER},
        {"gold", GOLD},
        {"bishop", BISHOP},
        {"rook", ROOK},
    };
    char low[16];
    size_t n = strlen(w);
    if (n == 0 || n >= sizeof low)
        return 0;
    for (size_t i = 0; i <= n; i++)
        low[i] = (char)tolower((unsigned char)w[i]);
    *after = 0;
    int csa = kifu_piece_from_csa(w);
    if (csa) {
        *after = csa >= PRO_PAWN;
        return csa;
    }
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(names[i].name, low) == 0)
            return names[i].kind;
    const char *k = w;
    int kind = eat_kanji_piece(&k);
    return kind && !*k ? kind : 0;
}

static int is_usi(const char *s)
{
    size_t n = strlen(s);
    if ((n == 4 || (n == 5 && s[4] == '+')) && s[0] >= '1' && s[0] <= '9' &&
        s[1] >= 'a' && s[1] <= 'i' && s[2] >= '1' && s[2] <= '9' && s[3] >= 'a' &&
        s[3] <= 'i')
        return 1;
    return n == 4 && strchr("PLNSGBR", s[0]) && s[0] && s[1] == '*' && s[2] >= '1' &&
           s[2] <= '9' && s[3] >= 'a' && s[3] <= 'i';
}

static int parse_usi(const char *s, pattern *pt)
{
    if (s[1] == '*') {
        int after;
        char w[2] = {s[0], 0};
        pt->kind = ascii_piece(w, &after);
        pt->from_x = pt->from_y = 0;
        pt->drop = 1;
        pt->to_x = s[2] - '0';
        pt->to_y = s[3] - 'a' + 1;
        pt->promote = -1;
        return 0;
    }
    pt->from_x = s[0] - '0';
    pt->from_y = s[1] - 'a' + 1;
    pt->to_x = s[2] - '0';
    pt->to_y = s[3] - 'a' + 1;
    pt->promote = s[4] == '+' ? 1 : -2;
    return 0;
}

static int promote_word(const char *w)
{
    static const char *const yes[] = {"+", "naru", "nari", "成", "promote"};
    static const char *const no[] = {"=", "narazu", "funari", "不成", "生", "nopromote"};
    char low[16];
    size_t n = strlen(w);
    if (n >= sizeof low)
        return -1;
    for (size_t i = 0; i <= n; i++)
        low[i] = (char)tolower((unsigned char)w[i]);
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++)
        if (strcmp(low, yes[i]) == 0)
            return 1;
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
        if (strcmp(low, no[i]) == 0)
            return 0;
    return -1;
}

/* "77 76 [piece] [promotion]", "7776", "00 55 kaku". */
static int parse_numeric(const char *s, pattern *pt)
{
    char words[4][24];
    int nw = 0;
    while (*s && nw < 4) {
        skip_space(&s);
        if (!*s)
            break;
        size_t n = 0;
        while (*s && *s != ' ' && *s != '\t' && strncmp(s, "　", 3) != 0) {
            if (n + 1 < sizeof words[0])
                words[nw][n++] = *s;
            s++;
        }
        words[nw++][n] = 0;
    }
    skip_space(&s);
    if (*s || nw == 0)
        return -1;
    int w = 0;
    const char *a = words[0];
    int digits[4], nd = 0;
    /* "7776" or "77" "76" or "77-76" */
    if (strlen(a) == 4 && isdigit((unsigned char)a[0]) && isdigit((unsigned char)a[1]) &&
        isdigit((unsigned char)a[2]) && isdigit((unsigned char)a[3])) {
        for (int i = 0; i < 4; i++)
            digits[nd++] = a[i] - '0';
        w = 1;
    } else if (strlen(a) == 5 && a[2] == '-' && isdigit((unsigned char)a[0]) &&
               isdigit((unsigned char)a[1]) && isdigit((unsigned char)a[3]) &&
               isdigit((unsigned char)a[4])) {
        digits[0] = a[0] - '0', digits[1] = a[1] - '0', digits[2] = a[3] - '0';
        digits[3] = a[4] - '0';
        nd = 4;
        w = 1;
    } else if (nw >= 2 && strlen(a) == 2 && strlen(words[1]) == 2 &&
               isdigit((unsigned char)a[0]) && isdigit((unsigned char)a[1]) &&
               isdigit((unsigned char)words[1][0]) &&
               isdigit((unsigned char)words[1][1])) {
        digits[0] = a[0] - '0', digits[1] = a[1] - '0';
        digits[2] = words[1][0] - '0', digits[3] = words[1][1] - '0';
        nd = 4;
        w = 2;
    }
    if (nd != 4)
        return -1;
    pt->from_x = digits[0];
    pt->from_y = digits[1];
    pt->to_x = digits[2];
    pt->to_y = digits[3];
    if (pt->to_x == 0 || pt->to_y == 0 || (pt->from_x == 0) != (pt->from_y == 0))
        return -1;
    pt->drop = pt->from_x == 0;
    for (; w < nw; w++) {
        int pr = promote_word(words[w]);
        int after = 0;
        int kind = pr < 0 ? ascii_piece(words[w], &after) : 0;
        if (pr >= 0 && pt->promote < 0) {
            pt->promote = pr;
        } else if (kind && !pt->kind) {
            pt->kind = kind;
            pt->after_kind = after;
        } else {
            return -1;
        }
    }
    return 0;
}

/* KIF / KI2: [▲△☗☖▽] (７六|76|7六|同[　]) 歩 [右左直上引寄行入打]* [成|不成|生] [(77)] */
static int parse_japanese(const char *s, int prev_to, pattern *pt)
{
    skip_space(&s);
    if (!(eat(&s, "▲") || eat(&s, "△") || eat(&s, "☗") || eat(&s, "☖") || eat(&s, "▽")))
        (void)0;
    skip_space(&s);
    if (eat(&s, "同")) {
        if (!prev_to)
            return -2;
        pt->to_x = prev_to / 10;
        pt->to_y = prev_to % 10;
        skip_space(&s);
    } else {
        pt->to_x = eat_digit(&s, 0);
        pt->to_y = pt->to_x ? eat_digit(&s, 1) : 0;
        if (!pt->to_y)
            return -1;
        /* "７六同歩": some files write both */
        eat(&s, "同");
        skip_space(&s);
    }
    pt->kind = eat_kanji_piece(&s);
    if (!pt->kind)
        return -1;
    for (;;) {
        if (eat(&s, "右"))
            pt->side = 'R';
        else if (eat(&s, "左"))
            pt->side = 'L';
        else if (eat(&s, "直"))
            pt->dir = 'C';
        else if (eat(&s, "上") || eat(&s, "行") || eat(&s, "入"))
            pt->dir = 'U';
        else if (eat(&s, "引"))
            pt->dir = 'D';
        else if (eat(&s, "寄"))
            pt->dir = 'M';
        else if (eat(&s, "打"))
            pt->drop = 1;
        else if (eat(&s, "不成") || eat(&s, "生"))
            pt->promote = 0;
        else if (eat(&s, "成"))
            pt->promote = 1;
        else
            break;
    }
    skip_space(&s);
    if (*s == '(') {
        s++;
        if (!isdigit((unsigned char)s[0]) || !isdigit((unsigned char)s[1]) || s[2] != ')')
            return -1;
        pt->from_x = s[0] - '0';
        pt->from_y = s[1] - '0';
        s += 3;
        skip_space(&s);
    }
    if (pt->drop) {
        pt->from_x = pt->from_y = 0;
    }
    return *s ? -1 : 0;
}

static int sq_num(int x, int y)
{
    return x * 10 + y;
}

static const char *square_text(int x, int y, char *buf)
{
    snprintf(buf, 16, "%s%s", kifu__zen_digit(x), kifu__kanji_number(y));
    return buf;
}

/* Why no legal move matches: ask the engine about the moves the pattern could mean. */
static int explain(const kifu_position *p, const pattern *pt, int color, kifu_error *err)
{
    kifu_board b;
    kifu_position_board(p, &b);
    char sq[16];
    const char *reason = NULL;
    kifu_move m = {0};
    m.color = (uint8_t)color;
    m.to_x = (uint8_t)pt->to_x;
    m.to_y = (uint8_t)pt->to_y;
    m.promote = (int8_t)(pt->promote == 1);
    if (pt->from_x > 0) {
        int cp = b.sq[SQ(pt->from_x, pt->from_y)];
        if (!cp)
            return kifu__error(err, KIFU_ERR_ILLEGAL, 0, 0, 0, NULL, NULL,
                               "there is no piece on %d%d", pt->from_x, pt->from_y);
        if (CPIECE_COLOR(cp) != color)
            return kifu__error(err, KIFU_ERR_ILLEGAL, 0, 0, 0, NULL, NULL,
                               "the piece on %d%d is not yours", pt->from_x, pt->from_y);
        int kind = CPIECE_KIND(cp);
        if (pt->kind && pt->kind != kind &&
            !(pt->after_kind && kind_can_promote(kind) &&
              kind_promoted(kind) == pt->kind))
            return kifu__error(err, KIFU_ERR_ILLEGAL, 0, 0, 0, NULL, NULL,
                               "the piece on %d%d is %s, not %s", pt->from_x, pt->from_y,
                               kifu__kanji_piece(kind), kifu__kanji_piece(pt->kind));
        m.from_x = (uint8_t)pt->from_x;
        m.from_y = (uint8_t)pt->from_y;
        m.piece = (uint8_t)kind;
        if (!kifu_position_is_legal(p, &m, &reason) && reason)
            return kifu__error(err, KIFU_ERR_ILLEGAL, 0, 0, 0, NULL, NULL, "illegal: %s",
                               reason);
        if (pt->promote != 1) { /* legal only promoted */
            m.promote = 1;
            if (kifu_position_is_legal(p, &m, &reason) && pt->promote == 0)
                return kifu__error(err, KIFU_ERR_ILLEGAL, 0, 0, 0, NULL, NULL,
                                   "illegal: the piece must promote there");
        }
        return kifu__error(err, KIFU_ERR_ILLEGAL, 0, 0, 0, NULL, NULL, "illegal move");
    }
    if (!pt->kind)
        return kifu__error(err, KIFU_ERR_ILLEGAL, 0, 0, 0, NULL, NULL, "illegal move");
    m.piece = (uint8_t)pt->kind;
    if (!pt->drop) {
        for (int x = 1; x <= 9; x++)
            for (int y = 1; y <= 9; y++) {
                int cp = b.sq[SQ(x, y)];
                if (!cp || CPIECE_COLOR(cp) != color || CPIECE_KIND(cp) != pt->kind)
                    continue;
                m.from_x = (uint8_t)x;
                m.from_y = (uint8_t)y;
                const char *r = NULL;
                if (!kifu_position_is_legal(p, &m, &r) && r && !strstr(r, "reach"))
                    return kifu__error(err, KIFU_ERR_ILLEGAL, 0, 0, 0, NULL, NULL,
                                       "illegal: %s (%s from %d%d)", r,
                                       kifu__kanji_piece(pt->kind), x, y);
            }
    }
    if (pt->kind <= GOLD && b.hands[color][pt->kind]) {
        m.from_x = m.from_y = 0;
        m.promote = -1;
        m.flags = KIFU_MOVE_DROP;
        if (!kifu_position_is_legal(p, &m, &reason) && reason)
            return kifu__error(err, KIFU_ERR_ILLEGAL, 0, 0, 0, NULL, NULL,
                               "illegal: %s (%s打)", reason, kifu__kanji_piece(pt->kind));
    } else if (pt->drop) {
        return kifu__error(err, KIFU_ERR_ILLEGAL, 0, 0, 0, NULL, NULL,
                           "illegal: no %s in hand", kifu__kanji_piece(pt->kind));
    }
    return kifu__error(err, KIFU_ERR_ILLEGAL, 0, 0, 0, NULL, NULL,
                       "illegal: no %s can move to %s", kifu__kanji_piece(pt->kind),
                       square_text(pt->to_x, pt->to_y, sq));
}

/* The text of a move (text; NULL is "") into a pattern, spaces around it dropped, in
 * the first notation it reads as: USI, two-digit squares, else Japanese. t (256 bytes)
 * keeps the trimmed text, for the errors. 0, or -1 with err (KIFU_ERR_SYNTAX, or
 * KIFU_ERR_ILLEGAL for a drop of a piece that cannot be dropped). */
static int read_pattern(const char *text, int prev_to, pattern *pt, char t[256],
                        kifu_error *err)
{
    const char *s = text ? text : "";
    skip_space(&s);
    size_t n = strlen(s);
    if (n >= 256)
        return kifu__error(err, KIFU_ERR_SYNTAX, 0, 0, 0, "a move", "a long line",
                           "that is too long to be a move");
    memcpy(t, s, n + 1);
    while (n &&
           (t[n - 1] == ' ' || t[n - 1] == '\n' || t[n - 1] == '\r' || t[n - 1] == '\t'))
        t[--n] = 0;
    int rc;
    if (is_usi(t))
        rc = parse_usi(t, pt);
    else if (parse_numeric(t, pt) == 0)
        rc = 0;
    else {
        /* a fresh pattern: parse_numeric may have filled part of pt before it gave up */
        pattern pj = {.from_x = -1, .from_y = -1, .promote = -1};
        rc = parse_japanese(t, prev_to, &pj);
        if (rc == -2)
            return kifu__error(err, KIFU_ERR_SYNTAX, 0, 0, 0, "a move", "同",
                               "同 needs a previous move");
        *pt = pj;
    }
    if (rc)
        return kifu__error(
            err, KIFU_ERR_SYNTAX, 0, 0, 0, "a move", t,
            "not a move: try 7g7f, ７六歩, 76歩, 同銀, 77 76 or 00 55 kaku");
    if (pt->to_x < 1 || pt->to_x > 9 || pt->to_y < 1 || pt->to_y > 9 || pt->from_x > 9 ||
        pt->from_y > 9)
        return kifu__error(err, KIFU_ERR_SYNTAX, 0, 0, 0, "a square 11..99", t,
                           "not a square on the board");
    if (pt->drop && !pt->kind)
        return kifu__error(err, KIFU_ERR_SYNTAX, 0, 0, 0, "a piece name", t,
                           "a drop needs the piece: 00 55 kaku, 00 55 KA or ５五角打");
    if (pt->drop && (pt->kind > GOLD || pt->after_kind))
        return kifu__error(err, KIFU_ERR_ILLEGAL, 0, 0, 0, NULL, NULL,
                           "illegal: only 歩 香 桂 銀 金 角 飛 can be dropped");
    return 0;
}

/* The legal moves of p the pattern can mean, into cand (600); their number. A CSA name
 * after the move settles pt->promote here, as only the candidates tell what it said. */
static size_t candidates(const kifu_position *p, pattern *pt, kifu_move *cand)
{
    kifu_move legal[600];
    size_t nl = kifu_position_legal_moves(p, legal, 600);
    if (nl > 600)
        nl = 600;
    size_t nc = 0;
    int board_moves = 0;
    for (size_t i = 0; i < nl; i++) {
        const kifu_move *m = &legal[i];
        if (m->to_x != pt->to_x || m->to_y != pt->to_y)
            continue;
        if (pt->from_x >= 0 && (m->from_x != pt->from_x || m->from_y != pt->from_y))
            continue;
        if (pt->drop && m->from_x)
            continue;
        if (pt->kind) {
            int ok = m->piece == pt->kind;
            /* a CSA name after the move ("88 22 UM") names the promotion */
            if (!ok && pt->after_kind && m->from_x && kind_can_promote(m->piece) &&
                kind_promoted(m->piece) == pt->kind && kifu__move_promotes(m))
                ok = 1;
            if (!ok)
                continue;
        }
        cand[nc++] = *m;
        board_moves += m->from_x != 0;
    }
    if (pt->after_kind && pt->from_x > 0 && pt->promote < 0) {
        /* "UM" said "promote"; the unpromoted name said "do not" if a choice existed */
        int promo_named = 0;
        for (size_t i = 0; i < nc; i++)
            promo_named |= cand[i].piece != pt->kind;
        pt->promote = promo_named ? 1 : -1;
    }
    /* KI2: without 打 a board piece that can reach the square is meant. */
    if (!pt->drop && board_moves) {
        size_t k = 0;
        for (size_t i = 0; i < nc; i++)
            if (cand[i].from_x)
                cand[k++] = cand[i];
        nc = k;
    }
    return nc;
}

/* The candidates the pattern's relative words (右 左 上 引 寄 直) allow, kept in cand in
 * their order; their number. The words as the normalizer reads them from KI2
 * (relative.c); a drop has none of them. */
static size_t keep_relative(const kifu_position *p, const pattern *pt, kifu_move *cand,
                            size_t nc)
{
    char word[3] = {pt->side ? pt->side : pt->dir, pt->side ? pt->dir : 0, 0};
    kmove packed[600];
    size_t k = 0;
    for (size_t i = 0; i < nc; i++)
        if (cand[i].from_x)
            packed[k++] = kifu__move_pack(&cand[i]);
    k = kifu__relative_filter(p, word, packed, k);
    size_t kept = 0;
    for (size_t i = 0; i < nc; i++) {
        kmove m = cand[i].from_x ? kifu__move_pack(&cand[i]) : MOVE_NONE;
        for (size_t j = 0; m && j < k; j++)
            if (packed[j] == m) {
                cand[kept++] = cand[i];
                break;
            }
    }
    return kept;
}

/* -1 with err (KIFU_ERR_AMBIGUOUS, naming them) when the candidates come from more than
 * one square; else 0 (they differ at most in promoting). */
static int one_source(const kifu_move *cand, size_t nc, kifu_error *err)
{
    int src0 = sq_num(cand[0].from_x, cand[0].from_y);
    int many = 0;
    for (size_t i = 1; i < nc; i++)
        many |= sq_num(cand[i].from_x, cand[i].from_y) != src0;
    if (!many)
        return 0;
    char list[400] = "";
    size_t len = 0;
    for (size_t i = 0; i < nc; i++) {
        if (i && sq_num(cand[i].from_x, cand[i].from_y) ==
                     sq_num(cand[i - 1].from_x, cand[i - 1].from_y))
            continue;
        char one[64];
        kifu_move c = cand[i];
        c.promote = -1;
        kifu_move_text(&c, NULL, KIFU_TEXT_FROM, one, sizeof one);
        int w = snprintf(list + len, sizeof list - len, "%s%s", len ? ", " : "", one);
        if (w < 0 || (size_t)w >= sizeof list - len)
            break;
        len += (size_t)w;
    }
    return kifu__error(err, KIFU_ERR_AMBIGUOUS, 0, 0, 0, NULL, NULL,
                       "ambiguous: %s; add 右 左 上 引 寄 直 or give the source (77 76)",
                       list);
}

/* Of the candidates from one square, the one the pattern's promotion asks for, into
 * *out: 0, KIFU_PARSE_ASK_PROMOTE (both are legal and the text did not say; *out
 * promotes), or -1 with err. */
static int choose_promotion(const pattern *pt, const kifu_move *cand, size_t nc,
                            kifu_move *out, kifu_error *err)
{
    const kifu_move *yes = NULL, *no = NULL;
    for (size_t i = 0; i < nc; i++) {
        if (kifu__move_promotes(&cand[i]))
            yes = &cand[i];
        else
            no = &cand[i];
    }
    switch (pt->promote) {
    case 1:
        if (!yes)
            return kifu__error(err, KIFU_ERR_ILLEGAL, 0, 0, 0, NULL, NULL,
                               "illegal: that piece cannot promote there");
        *out = *yes;
        return 0;
    case 0:
        if (!no)
            return kifu__error(err, KIFU_ERR_ILLEGAL, 0, 0, 0, NULL, NULL,
                               "illegal: the piece must promote there");
        *out = *no;
        return 0;
    case -2:
        *out = no ? *no : *yes;
        return 0;
    }
    if (yes && no) {
        *out = *yes;
        return KIFU_PARSE_ASK_PROMOTE;
    }
    *out = no ? *no : *yes;
    return 0;
}

/* The text read as a pattern, matched against the legal moves, narrowed by the relative
 * words, then one source and one promotion chosen; each step says why it fails. */
int kifu_position_parse_move(const kifu_position *p, const char *text, int prev_to,
                             kifu_move *out, kifu_error *err)
{
    pattern pt = {.from_x = -1, .from_y = -1, .promote = -1};
    char t[256];
    if (read_pattern(text, prev_to, &pt, t, err))
        return -1;
    kifu_move cand[600];
    size_t nc = candidates(p, &pt, cand);
    if (nc == 0)
        return explain(p, &pt, kifu_position_side(p), err);
    if (pt.dir || pt.side)
        nc = keep_relative(p, &pt, cand, nc);
    char sq[16];
    if (nc == 0)
        return kifu__error(err, KIFU_ERR_ILLEGAL, 0, 0, 0, NULL, NULL,
                           "illegal: no %s moves to %s that way",
                           kifu__kanji_piece(pt.kind), square_text(pt.to_x, pt.to_y, sq));
    if (one_source(cand, nc, err))
        return -1;
    return choose_promotion(&pt, cand, nc, out, err);
}
