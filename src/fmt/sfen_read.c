/* sfen_read.c: SFEN / USI position records and sfenlist (one SFEN per line).
 *
 * A sfenlist holds positions, not moves: the first line is the start, each later line
 * the position after one more move. The moves are recovered by finding, for each pair of
 * consecutive lines, the legal move that turns the first position into the second. */
#include <string.h>

#include "fmt/fmt.h"
#include "kifu_private.h"

typedef struct line {
    const char *s; /* start of the text, after leading blanks */
    size_t n;      /* length without trailing blanks */
    int number;    /* 1-based line number */
    int indent;    /* characters skipped before s */
} line;

/* The input and how far it has been read. */
typedef struct input {
    const char *text;
    size_t len, pos;
    int lineno;
} input;

/* Next non-blank, non-comment ('#') line. 0, or -1 at the end. */
static int next_line(input *in, line *out)
{
    while (in->pos < in->len) {
        const char *s = in->text + in->pos;
        const char *eol = memchr(s, '\n', in->len - in->pos);
        size_t n = eol ? (size_t)(eol - s) : in->len - in->pos;
        in->pos += n + (eol ? 1 : 0);
        in->lineno++;
        size_t a = 0;
        while (a < n && (s[a] == ' ' || s[a] == '\t'))
            a++;
        while (n > a && (s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t'))
            n--;
        if (a == n || s[a] == '#')
            continue;
        out->s = s + a;
        out->n = n - a;
        out->number = in->lineno;
        out->indent = (int)a;
        return 0;
    }
    return -1;
}

/* The first line, or an error naming what was expected there. 0, or -1. */
static int first_line(input *in, line *l, const char *expected, kifu_error *err)
{
    if (next_line(in, l) == 0)
        return 0;
    return kifu__error(err, KIFU_ERR_SFEN, 1, 1, 0, expected, "nothing",
                       "the input holds no position");
}

static int nomem(kifu_error *err)
{
    return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
}

/* Copy a line to a NUL-terminated buffer; NULL when memory is out. */
static char *line_copy(const line *l, kifu_error *err)
{
    char *s = kifu__malloc(l->n + 1);
    if (!s) {
        nomem(err);
        return NULL;
    }
    memcpy(s, l->s, l->n);
    s[l->n] = 0;
    return s;
}

/* Set p from the SFEN text s of line l; an error is placed at the line (the engine's
 * column is relative to s). 0, or -1. */
static int set_sfen(kifu_position *p, const char *s, const line *l, kifu_error *err)
{
    if (!kifu_position_set_sfen(p, s, err))
        return 0;
    if (err && err->code) {
        err->line = l->number;
        err->column = err->column ? err->column + l->indent : l->indent + 1;
    }
    return -1;
}

/* Set p from the whole of line l. 0, or -1. */
static int set_line(kifu_position *p, const line *l, kifu_error *err)
{
    char *s = line_copy(l, err);
    if (!s)
        return -1;
    int rc = set_sfen(p, s, l, err);
    kifu__free(s);
    return rc;
}

/* The record's start from the position: a preset when it is one, else explicit data. */
static int set_start(kifu_record *r, const kifu_position *p, kifu_error *err)
{
    kifu_board b;
    kifu_position_board(p, &b);
    return kifu__record_start(r, &b) ? nomem(err) : 0;
}

/* Hand the finished record to out, or free it when reading failed (rc != 0). */
static int finish(kifu_record *r, int rc, kifu__records *out, kifu_error *err)
{
    if (rc) {
        kifu_record_free(r);
        return -1;
    }
    return kifu__records_push(out, r) ? nomem(err) : 0;
}

int kifu__read_sfen(KIFU__READER_PARAMS)
{
    (void)opt;
    input in = {text, len, 0, 0};
    line l, extra;
    if (first_line(&in, &l, "a SFEN or USI position", err))
        return -1;
    if (next_line(&in, &extra) == 0)
        return kifu__error(
            err, KIFU_ERR_SFEN, extra.number, extra.indent + 1, (size_t)(extra.s - text),
            "the end of the input", "a second line",
            "a SFEN record is one line (several positions make a sfenlist)");
    char *s = line_copy(&l, err);
    if (!s)
        return -1;
    /* Split off " moves ..." so the start can be recorded before the moves are played. */
    char *moves = strstr(s, " moves");
    while (moves && moves[6] && moves[6] != ' ')
        moves = strstr(moves + 1, " moves");
    if (moves)
        *moves = 0;
    kifu_record *r = kifu_record_new();
    kifu_position *p = kifu_position_new();
    int rc = -1;
    if (!r || !p) {
        nomem(err);
        goto done;
    }
    if (set_sfen(p, s, &l, err) || set_start(r, p, err))
        goto done;
    kifu_node *n = kifu_record_root(r);
    if (moves) {
        char *t = moves + 6;
        for (;;) {
            while (*t == ' ' || *t == '\t')
                t++;
            if (!*t)
                break;
            char *e = t;
            while (*e && *e != ' ' && *e != '\t')
                e++;
            char save = *e;
            *e = 0;
            kifu_move m;
            int parsed = kifu_position_parse_usi(p, t, &m, err) == 0;
            const char *rest = e + (save != 0);
            while (*rest == ' ' || *rest == '\t')
                rest++;
            /* A forbidden last move is the normalizer's to judge: a game may end by a
             * foul (kifu_node_foul). */
            int last = !*rest;
            int played = parsed && kifu_position_play(p, &m, last ? NULL : err) == 0;
            if (parsed && !played && last) {
                if (!kifu_node_add_move(r, n, &m)) {
                    nomem(err);
                    goto done;
                }
                break;
            }
            if (!played) {
                if (err) {
                    /* counted only here: per move it would cost the line's length */
                    err->line = l.number;
                    err->column = kifu__utf8_column(s, (size_t)(t - s)) + l.indent;
                    err->offset = (size_t)(l.s - text) + (size_t)(t - s);
                }
                goto done;
            }
            n = kifu_node_add_move(r, n, &m);
            if (!n) {
                nomem(err);
                goto done;
            }
            *e = save;
            t = e;
        }
    }
    rc = 0;
done:
    kifu__free(s);
    kifu_position_free(p);
    return finish(r, rc, out, err);
}

int kifu__read_sfenlist(KIFU__READER_PARAMS)
{
    (void)opt;
    input in = {text, len, 0, 0};
    line l;
    if (first_line(&in, &l, "a SFEN per line", err))
        return -1;
    kifu_record *r = kifu_record_new();
    kifu_position *p = kifu_position_new();
    kifu_position *q = kifu_position_new();
    int rc = -1;
    if (!r || !p || !q) {
        nomem(err);
        goto done;
    }
    if (set_line(p, &l, err) || set_start(r, p, err))
        goto done;
    kifu_node *n = kifu_record_root(r);
    while (next_line(&in, &l) == 0) {
        if (set_line(q, &l, err))
            goto done;
        kifu_move m;
        kifu_board qb;
        kifu_position_board(q, &qb);
        int found = kifu__move_between(p, &qb, 0, &m);
        if (found == -2) {
            nomem(err);
            goto done;
        }
        if (found) {
            kifu__error(
                err, KIFU_ERR_ILLEGAL, l.number, l.indent + 1, (size_t)(l.s - text),
                "the position after one legal move", "another position",
                "no legal move leads from the position on the previous line to this "
                "one (move %d)",
                kifu_node_ply(n) + 1);
            goto done;
        }
        n = kifu_node_add_move(r, n, &m);
        if (!n) {
            nomem(err);
            goto done;
        }
    }
    rc = 0;
done:
    kifu_position_free(p);
    kifu_position_free(q);
    return finish(r, rc, out, err);
}

/* A SFEN's board field: nine ranks separated by eight '/', then a space. */
static int sfen_board_line(const char *p, const char *eol)
{
    const char *sp = memchr(p, ' ', (size_t)(eol - p));
    if (!sp || (unsigned char)*p >= 0x80)
        return 0;
    int slashes = 0;
    for (const char *q = p; q < sp; q++)
        slashes += *q == '/';
    return slashes == 8;
}

/* Counts the SFEN lines of text; 1 when the first line is a USI position line. */
static int sfen_lines(const char *text, size_t len, size_t *first)
{
    const char *s = text, *end = text + len, *p, *eol;
    int n = 0;
    while ((p = kifu__next_line(&s, end, &eol)) != NULL) {
        size_t k = (size_t)(eol - p);
        if ((k >= 9 && memcmp(p, "position ", 9) == 0) ||
            (k >= 8 && memcmp(p, "startpos", 8) == 0) ||
            (k >= 5 && memcmp(p, "sfen ", 5) == 0)) {
            *first = (size_t)(p - text);
            return -1;
        }
        if (sfen_board_line(p, eol))
            n++;
    }
    return n;
}

/* SFEN: a USI position line first decides; a single bare SFEN bids weakly at the end. */
int kifu__sniff_sfen(const char *text, size_t len, size_t *at)
{
    size_t first = 0;
    int n = sfen_lines(text, len, &first);
    if (n < 0) {
        *at = first;
        return 10;
    }
    *at = len;
    return n == 1 ? 2 : 0;
}

/* sfenlist: several bare SFEN lines, a weak bid at the end. */
int kifu__sniff_sfenlist(const char *text, size_t len, size_t *at)
{
    size_t first = 0;
    int n = sfen_lines(text, len, &first);
    *at = len;
    return n > 1 ? 3 : 0;
}
