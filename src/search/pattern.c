/* pattern.c: board patterns (see pattern.h). The search module (src/search/) owns
 * position keys, exact search, patterns and piece traces; it may call record, notation,
 * rules and core. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "search/pattern.h"

#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "kifu_private.h"
#include "notation/bd.h"
#include "notation/words.h"

struct kifu__pattern {
    pcre2_code *code;
    pcre2_match_data *md;
    char *expr;
    int hand_set[2];    /* the hand of that color is constrained */
    uint8_t hand[2][8]; /* at least these counts (all zero with hand_set: empty hand) */
    int hand_empty[2];  /* なし: the hand must be empty */
    int side;           /* -1: any side to move */
    int both_sides;     /* also try the colour-flipped position */
    /* A fixed-width expression anchored at the start (what grids compile to, and the
     * usual hand-written `^.{56}g.{19}o`) as the coloured pieces (bit per kind | color
     * << 4, bit 0 empty) allowed on each square it constrains: matched on the board
     * itself, no letters written, no PCRE2 call. `fixed` 0: not of that form. */
    int fixed;
    int never;    /* wider than 81 letters, or a letter that is none of the board's */
    int nsquares; /* squares constrained, in board order (KIFU_SQ) */
    uint8_t square[81];
    uint32_t allow[81];
};

/* The coloured pieces a letter stands for, as a bit set (0: no board letter). */
static uint32_t letter_bits(char c)
{
    int cp = kifu__bd_piece(c);
    return cp < 0 ? 0 : 1u << cp;
}

/* Read an expression made of `^`, then atoms `.` `x` `[...]` `[^...]` each with an
 * optional `{n}`, then an optional `$`, into p's fixed form. 0 when it is not of that
 * form (anything else: alternatives, groups, other quantifiers, escapes, ranges): PCRE2
 * then matches it, as always. Only the letters' meaning matters: the subject is 81 board
 * letters, with no newline. */
static int read_fixed(kifu__pattern *p, const char *e)
{
    if (*e++ != '^')
        return 0;
    uint32_t allow[81];
    int width = 0;
    while (*e && *e != '$') {
        uint32_t bits = 0;
        if (*e == '.') {
            bits = ~0u, e++;
        } else if (*e == '[') {
            int negate = *++e == '^';
            e += negate;
            if (*e == ']')
                return 0; /* `[]...]`: a ] as a member */
            for (; *e != ']'; e++) {
                if (!*e || *e == '\\' || *e == '[' || *e == '-')
                    return 0;
                bits |= letter_bits(*e);
            }
            e++;
            if (negate)
                bits = ~bits;
        } else if ((*e >= 'a' && *e <= 'z') || (*e >= 'A' && *e <= 'Z') ||
                   (*e >= '0' && *e <= '9')) {
            bits = letter_bits(*e++);
        } else {
            return 0;
        }
        long n = 1;
        if (*e == '{') {
            char *end;
            if (e[1] < '0' || e[1] > '9')
                return 0;
            n = strtol(e + 1, &end, 10);
            if (*end != '}' || n > 1000)
                return 0;
            e = end + 1;
        }
        for (long i = 0; i < n; i++, width++)
            if (width < 81)
                allow[width] = bits;
    }
    if (*e == '$' && e[1])
        return 0;
    int anchored_end = *e == '$';
    p->fixed = 1;
    p->never = width > 81 || (anchored_end && width != 81);
    for (int i = 0; i < width && i < 81; i++) {
        p->never |= allow[i] == 0;
        if (allow[i] != ~0u) {
            /* Letter i is square (10 - (i % 9 + 1), i / 9 + 1). */
            p->square[p->nsquares] = (uint8_t)((8 - i % 9) * 9 + i / 9);
            p->allow[p->nsquares++] = allow[i];
        }
    }
    return 1;
}

/* Letter classes of the grid's wildcards, as expression fragments. */
#define ANY_SENTE "[acegikmsu1357q]"
#define ANY_GOTE "[bdfhjlntv2468r]"

static kifu__pattern *compile(const char *expr, kifu_error *err)
{
    kifu__pattern *p = kifu__calloc(1, sizeof *p);
    if (!p || !(p->expr = kifu__strdup(expr))) {
        kifu__free(p);
        kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
        return NULL;
    }
    p->side = -1;
    int code;
    PCRE2_SIZE at;
    p->code = pcre2_compile((PCRE2_SPTR)expr, PCRE2_ZERO_TERMINATED, PCRE2_UTF, &code,
                            &at, NULL);
    if (!p->code) {
        PCRE2_UCHAR msg[256];
        pcre2_get_error_message(code, msg, sizeof msg);
        kifu__error(err, KIFU_ERR_SYNTAX, 1, kifu__utf8_column(expr, at), at,
                    "a regular expression", expr, "bad regular expression: %s", msg);
        kifu__pattern_free(p);
        return NULL;
    }
    read_fixed(p, expr);
    /* The letters matched are ASCII: an ASCII expression means the same in byte mode,
     * where `.` is one byte, not a UTF-8 sequence to step over (the match takes about
     * half the time). The UTF compile above still judges the expression. */
    size_t i = 0;
    while (expr[i] && (unsigned char)expr[i] < 0x80)
        i++;
    pcre2_code *bytes = expr[i] ? NULL
                                : pcre2_compile((PCRE2_SPTR)expr, PCRE2_ZERO_TERMINATED,
                                                0, &code, &at, NULL);
    if (bytes) {
        pcre2_code_free(p->code);
        p->code = bytes;
    }
    /* JIT when the platform has it; the interpreter gives the same answers. */
    pcre2_jit_compile(p->code, PCRE2_JIT_COMPLETE);
    p->md = pcre2_match_data_create_from_pattern(p->code, NULL);
    if (!p->md) {
        kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
        kifu__pattern_free(p);
        return NULL;
    }
    return p;
}

kifu__pattern *kifu__pattern_regex(const char *re, kifu_error *err)
{
    return compile(re, err);
}

void kifu__pattern_free(kifu__pattern *p)
{
    if (!p)
        return;
    pcre2_match_data_free(p->md);
    pcre2_code_free(p->code);
    kifu__free(p->expr);
    kifu__free(p);
}

const char *kifu__pattern_expression(const kifu__pattern *p)
{
    return p->expr;
}

void kifu__pattern_both_sides(kifu__pattern *p, int on)
{
    p->both_sides = on;
}

/* The position seen from the other side: turned 180 degrees, owners swapped. */
static void flip(const kifu_board *b, kifu_board *out)
{
    for (int sq = 0; sq < 81; sq++) {
        uint8_t cp = b->sq[80 - sq]; /* (x, y) -> (10 - x, 10 - y) */
        out->sq[sq] = cp ? (uint8_t)(cp ^ (KIFU_WHITE << 4)) : 0;
    }
    memcpy(out->hands[0], b->hands[1], sizeof out->hands[0]);
    memcpy(out->hands[1], b->hands[0], sizeof out->hands[1]);
    out->color = (uint8_t)(b->color ^ 1);
}

int kifu__pattern_needs_board(const kifu__pattern *p)
{
    return p->side >= 0 || p->hand_set[0] || p->hand_set[1] || p->both_sides;
}

/* The side-to-move and hand conditions. */
static int side_and_hands(const kifu__pattern *p, const kifu_board *b)
{
    if (p->side >= 0 && b->color != p->side)
        return 0;
    for (int c = 0; c < 2; c++) {
        if (!p->hand_set[c])
            continue;
        for (int k = KIFU_FU; k <= KIFU_KI; k++)
            if (p->hand_empty[c] ? b->hands[c][k] != 0 : b->hands[c][k] < p->hand[c][k])
                return 0;
    }
    return 1;
}

static int match_one(kifu__pattern *p, const char *bd, const kifu_board *b)
{
    if (!side_and_hands(p, b))
        return 0;
    /* The letters are ASCII, written by kifu: no UTF check per position (it cost more
     * than the match). */
    int rc = pcre2_match(p->code, (PCRE2_SPTR)bd, 81, 0, PCRE2_NO_UTF_CHECK, p->md, NULL);
    return rc >= 0;
}

int kifu__pattern_match_bd(kifu__pattern *p, const char *bd, const kifu_board *b)
{
    if (match_one(p, bd, b))
        return 1;
    if (!p->both_sides)
        return 0;
    kifu_board f;
    char fbd[82], cb[40], cw[40];
    flip(b, &f);
    kifu__bd_write(&f, fbd, cb, cw);
    return match_one(p, fbd, &f);
}

int kifu__pattern_match_squares(const kifu__pattern *p, const uint8_t *sq)
{
    if (!p->fixed)
        return -1;
    if (p->never)
        return 0;
    for (int i = 0; i < p->nsquares; i++)
        if (!(p->allow[i] >> sq[p->square[i]] & 1))
            return 0;
    return 1;
}

int kifu__pattern_constraints(const kifu__pattern *p, const uint8_t **sq,
                              const uint32_t **allow)
{
    if (!p->fixed)
        return -1;
    *sq = p->square;
    *allow = p->allow;
    return p->nsquares;
}

int kifu__pattern_match(kifu__pattern *p, const kifu_board *b)
{
    /* A grid's hand and side lines are tested here too, so its board needs no letters
     * (tagging tests grids with hands at every move). */
    if (p->fixed && !p->both_sides)
        return side_and_hands(p, b) && kifu__pattern_match_squares(p, b->sq);
    char bd[82], cb[40], cw[40];
    kifu__bd_write(b, bd, cb, cw);
    return kifu__pattern_match_bd(p, bd, b);
}

/* ---- The grid ----------------------------------------------------------------------- */

typedef struct grid {
    kifu__strbuf expr;
    int rows;
    const char *text, *end; /* the pattern's text is not NUL-terminated */
    int lineno;
    kifu_error *err;
} grid;

static int grid_fail(grid *g, const char *line, const char *at, const char *expected,
                     const char *what)
{
    char found[32];
    size_t n = 0;
    while (at + n < g->end && at[n] && at[n] != '\n' && at[n] != '\r' && n < 12)
        n++;
    snprintf(found, sizeof found, "%.*s", (int)n, at);
    return kifu__error(
        g->err, KIFU_ERR_SYNTAX, g->lineno, kifu__utf8_column(line, (size_t)(at - line)),
        (size_t)(at - g->text), expected, n ? found : "the end of the line", "%s", what);
}

/* One cell: an optional owner mark, then a piece name or a wildcard. Appends its
 * expression fragment; returns the bytes read, 0 when there is no cell at s. */
static size_t cell(const char *s, const char *end, kifu__strbuf *out, const char **bad)
{
    const char *p = s;
    int owner = -1; /* -1: not said */
    if (p < end && (*p == 'v' || *p == 'V'))
        owner = KIFU_WHITE, p++;
    else if (p < end && *p == '^')
        owner = KIFU_BLACK, p++;
    int kind;
    size_t n;
    if (kifu__jp_starts(p, end, "・") || (p < end && *p == '.')) {
        n = *p == '.' ? 1 : 3;
        kifu__sb_putc(out, KIFU__BD_EMPTY);
    } else if (kifu__jp_starts(p, end, "＊") || (p < end && *p == '*')) {
        n = *p == '*' ? 1 : 3;
        kifu__sb_puts(out, owner == KIFU_WHITE   ? "[bdfhjlntv2468ro]"
                           : owner == KIFU_BLACK ? "[acegikmsu1357qo]"
                                                 : ".");
    } else if (kifu__jp_starts(p, end, "？") || (p < end && *p == '?')) {
        n = *p == '?' ? 1 : 3;
        kifu__sb_puts(out, owner == KIFU_WHITE   ? ANY_GOTE
                           : owner == KIFU_BLACK ? ANY_SENTE
                                                 : "[^o]");
    } else if ((n = kifu__jp_piece(p, end, &kind)) != 0) {
        kifu__sb_putc(out, kifu__bd_letter(kind | (owner == KIFU_WHITE) << 4));
    } else {
        *bad = p;
        return 0;
    }
    return (size_t)(p - s) + n;
}

/* A row: `|`, nine cells, `|` (borders optional), anything after the closing border
 * (the rank numeral) ignored. 1 read, 0 not a row at all, -1 error reported. */
static int row(grid *g, const char *s, const char *end)
{
    const char *p = s;
    p += kifu__jp_space(p, end);
    int bordered = p < end && *p == '|';
    if (bordered)
        p++;
    int cells = 0;
    while (cells < 9) {
        p += kifu__jp_space(p, end);
        const char *bad = NULL;
        size_t n = cell(p, end, &g->expr, &bad);
        if (!n) {
            if (!bordered && cells == 0)
                return 0;
            return grid_fail(
                g, s, bad ? bad : p,
                "a cell: a piece (歩, v歩), ・ empty, * anything, ? any piece, "
                "^? any sente piece, v? any gote piece",
                "bad cell in the grid pattern");
        }
        p += n, cells++;
    }
    p += kifu__jp_space(p, end);
    if (bordered && !(p < end && *p == '|'))
        return grid_fail(g, s, p, "| after nine cells",
                         "a row of the grid has more than "
                         "nine cells");
    if (!bordered && p != end)
        return grid_fail(g, s, p, "the end of the row after nine cells",
                         "a row of the grid has more than nine cells");
    if (++g->rows > 9)
        return grid_fail(g, s, s, "nine rows", "the grid has more than nine rows");
    return 1;
}

kifu__pattern *kifu__pattern_grid(const char *text, size_t len, kifu_error *err)
{
    grid g = {{0}, 0, text, text + len, 0, err};
    kifu__sb_init(&g.expr);
    kifu__sb_putc(&g.expr, '^');
    kifu__bod bod;
    memset(&bod, 0, sizeof bod);
    /* parse_hand clears a hand it reads: a marker in the unused slot 0 tells which hand
     * lines the pattern had. */
    bod.b.hands[0][0] = bod.b.hands[1][0] = 0xFF;
    const char *s = text, *end = text + len;
    while (s < end) {
        const char *e = s;
        while (e < end && *e != '\n' && *e != '\r')
            e++;
        g.lineno++;
        const char *t = s + kifu__jp_space(s, e);
        if (t < e && *t != '#') {
            int r = *t == '|' ? row(&g, s, e) : 0;
            if (r == 0) {
                const char *where = NULL, *expected = NULL;
                int b = kifu__bod_line(&bod, s, e, &where, &expected);
                if (b == KIFU__BOD_ERR) {
                    grid_fail(&g, s, where, expected, "bad line in the grid pattern");
                    r = -1;
                } else if (b == KIFU__BOD_NO) {
                    r = row(&g, s, e);
                    if (r == 0)
                        r = grid_fail(
                            &g, s, t,
                            "a row of nine cells, a hand line (先手の持駒：…) or "
                            "a side line (後手番)",
                            "not part of a grid pattern");
                }
            }
            if (r < 0) {
                kifu__sb_free(&g.expr);
                return NULL;
            }
        }
        s = e;
        if (s < end && *s == '\r')
            s++;
        if (s < end && *s == '\n')
            s++;
    }
    if (g.rows != 9) {
        kifu__error(err, KIFU_ERR_SYNTAX, g.lineno, 1, len, "nine rows of nine cells",
                    g.rows ? "fewer rows" : "no row",
                    "the grid pattern has %d rows, not 9", g.rows);
        kifu__sb_free(&g.expr);
        return NULL;
    }
    kifu__sb_putc(&g.expr, 0);
    if (g.expr.failed) {
        kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
        kifu__sb_free(&g.expr);
        return NULL;
    }
    kifu__pattern *p = compile(g.expr.data, err);
    kifu__sb_free(&g.expr);
    if (!p)
        return NULL;
    for (int c = 0; c < 2; c++) {
        if (bod.b.hands[c][0] == 0xFF)
            continue;
        p->hand_set[c] = 1;
        memcpy(p->hand[c], bod.b.hands[c], sizeof p->hand[c]);
        int any = 0;
        for (int k = KIFU_FU; k <= KIFU_KI; k++)
            any |= p->hand[c][k];
        p->hand_empty[c] = !any;
    }
    if (bod.color_set)
        p->side = bod.b.color;
    return p;
}
