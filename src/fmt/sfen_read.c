/* sfen_read.c: SFEN / USI position records and sfenlist (one SFEN per line).
 *
 * A sfenlist holds positions, not moves: the first line is the start, each later line
 * the position after one more move. The moves are recovered by finding, for each pair of
 * consecutive lines, the legal move that turns the first position into the second. */
#include <string.h>

#include "fmt/fmt.h"
#include "kifu_private.h"
#include "notation/words.h"
#include "record/record.h"
#include "rules/engine.h"

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

/* Is the word s[0..n) one a USI/SFEN line may start with? */
static int keyword(const char *s, size_t n)
{
    static const char *const words[] = {"startpos", "sfen", "position"};
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (strlen(words[i]) == n && memcmp(s, words[i], n) == 0)
            return 1;
    return 0;
}

/* Set p from the SFEN text s of line l; an error is placed at the line (the engine's
 * column is relative to s). 0, or -1. */
static int set_sfen(kifu_position *p, const char *s, const line *l, kifu_error *err)
{
    /* Checked as every reader checks a record's start: a game may start with nine pawns
     * on a file, and kifu writes that start as SFEN. */
    if (!kifu__position_set_sfen_loose(p, s, err))
        return 0;
    /* A first word that is neither a keyword nor a board (a board has '/' between its
     * ranks) is no bad piece letter but a line of something else (bioshogi writes
     * `one_place startpos moves ...`): say what a line may start with. */
    size_t w = strcspn(s, " \t");
    if (err && err->code && !memchr(s, '/', w) && !keyword(s, w)) {
        char found[41];
        w = w < sizeof found - 1 ? w : sizeof found - 1;
        memcpy(found, s, w);
        found[w] = 0;
        size_t offset = err->offset; /* as the engine's error has it */
        kifu_error_clear(err);
        return kifu__error(err, KIFU_ERR_SFEN, l->number, l->indent + 1, offset,
                           "startpos, sfen, position or a SFEN board", found,
                           "a SFEN/USI line starts with startpos, sfen, position or a "
                           "SFEN board, not \"%s\"",
                           found);
    }
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

/* The move number of the SFEN in [s, s + n) (`position sfen B S H N moves ...`, or a
 * bare `B S H N`): the fourth field from the board (the word with '/'), or 0 when it
 * has none (startpos, or a SFEN of three fields). */
static int move_number(const char *s, size_t n)
{
    const char *e = s + n;
    int field = -1;
    while (s < e) {
        while (s < e && (*s == ' ' || *s == '\t'))
            s++;
        const char *w = s;
        while (s < e && *s != ' ' && *s != '\t')
            s++;
        if (w == s)
            break;
        if (field < 0 && memchr(w, '/', (size_t)(s - w)))
            field = 0;
        else if (field >= 0 && ++field == 3) {
            long v = 0;
            for (const char *q = w; q < s; q++) {
                if (*q < '0' || *q > '9' || v > 99999999)
                    return 0;
                v = v * 10 + (*q - '0');
            }
            return (int)v;
        }
    }
    return 0;
}

/* The record's start from the position (the SFEN text [s, s + n) for its move number): a
 * preset when it is one, else explicit data. */
static int set_start(kifu_record *r, const kifu_position *p, const char *s, size_t n,
                     kifu_error *err)
{
    kifu_board b;
    kifu_position_board(p, &b);
    kifu_record_set_start_number(r, move_number(s, n));
    return kifu__record_start(r, &b) ? nomem(err) : 0;
}

/* Hand the finished record to out, or free it when reading failed (rc != 0). */
static int finish(kifu_record *r, int rc, kifu__records *out, kifu_error *err)
{
    if (rc) {
        kifu_record_free(r);
        return -1;
    }
    return kifu__records_push_done(out, r) ? nomem(err) : 0;
}

/* The game of line l: `[position] startpos|sfen S|S [moves M... [ending]]`, appended to
 * out. A token that is no USI move is an error at its column; the moves are raw (like a
 * CSA reader's): the normalizer completes and checks them, and names a bad one at the
 * column noted in its node. 0, or -1. */
static int read_game(const char *text, const line *l, const kifu_read_options *opt,
                     kifu__records *out, kifu_error *err)
{
    /* The start (before " moves") is copied, to be NUL-terminated for the engine; the
     * moves are read where they are: a copy of a million-move line doubled its memory. */
    const char *ls = l->s, *le = l->s + l->n, *moves = NULL;
    for (const char *q = ls; !moves && (q = memchr(q, ' ', (size_t)(le - q))); q++)
        if ((size_t)(le - q) >= 6 && memcmp(q, " moves", 6) == 0 &&
            (q + 6 == le || q[6] == ' '))
            moves = q;
    char *s = line_copy(&(line){ls, (size_t)((moves ? moves : le) - ls), 0, 0}, err);
    if (!s)
        return -1;
    kifu_record *r = kifu_record_new();
    kifu_position *p = kifu_position_new();
    int rc = -1;
    if (!r || !p) {
        nomem(err);
        goto done;
    }
    if (set_sfen(p, s, l, err) || set_start(r, p, s, strlen(s), err))
        goto done;
    kifu_node *n = kifu_record_root(r);
    int side = kifu_position_side(p);
    for (const char *t = moves ? moves + 6 : NULL; t;) {
        while (t < le && (*t == ' ' || *t == '\t'))
            t++;
        if (t == le)
            break;
        const char *e = t;
        while (e < le && *e != ' ' && *e != '\t')
            e++;
        const char *rest = e;
        while (rest < le && (*rest == ' ' || *rest == '\t'))
            rest++;
        int vague = 0;
        /* Endings are lower-case words; a move starts with a digit or a piece letter. */
        const char *end =
            *t >= 'a' && *t <= 'z' ? kifu__usi_special(t, e, side, &vague) : NULL;
        if (end) {
            if (rest < le) {
                kifu__error(err, KIFU_ERR_SFEN, l->number,
                            kifu__utf8_column(ls, (size_t)(rest - ls)) + l->indent,
                            (size_t)(rest - text), "the end of the line after an ending",
                            "more moves", "%.*s ends the game: no move may follow it",
                            (int)(e - t), t);
                goto done;
            }
            if (vague)
                kifu__warn(opt ? opt->warn : NULL, opt ? opt->warn_ctx : NULL,
                           "line %d: %.*s names no result: read as the game interrupted "
                           "(中断)",
                           l->number, (int)(e - t), t);
            if (!kifu_node_add_special(r, n, end)) {
                nomem(err);
                goto done;
            }
            break;
        }
        /* Read as written: the normalizer finds each piece and checks the move (a
         * forbidden last move may end a game: kifu_node_foul). */
        kifu_move m;
        const char *why = kifu__usi_move_raw(t, (size_t)(e - t), side, &m);
        if (why) { /* counted only here: per move it would cost the line's length */
            kifu__error(err, KIFU_ERR_SFEN, l->number,
                        kifu__utf8_column(ls, (size_t)(t - ls)) + l->indent,
                        (size_t)(t - text), "a USI move", NULL, "USI move %.*s: %s",
                        (int)(e - t), t, why);
            goto done;
        }
        n = kifu_node_add_move(r, n, &m);
        if (!n) {
            nomem(err);
            goto done;
        }
        kifu__node_src(n, (size_t)(t - text));
        t = e;
        side ^= 1;
    }
    rc = 0;
done:
    kifu__free(s);
    kifu_position_free(p);
    return finish(r, rc, out, err);
}

/* A line that is a bare SFEN: no USI keyword, no moves. */
static int bare_sfen(const line *l)
{
    static const char *const words[] = {"position", "startpos", "sfen"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        size_t k = strlen(words[i]);
        if (l->n >= k && memcmp(l->s, words[i], k) == 0 &&
            (l->n == k || l->s[k] == ' ' || l->s[k] == '\t'))
            return 0;
    }
    for (size_t i = 0; i + 6 <= l->n; i++)
        if (memcmp(l->s + i, " moves", 6) == 0)
            return 0;
    return 1;
}

/* A collection: every line is a game (one record each, like CSA games between `/`
 * lines). Bare SFENs that follow one another by legal moves are one game's positions,
 * a sfenlist, as they always were. */
int kifu__read_sfen(KIFU__READER_PARAMS)
{
    input in = {text, len, 0, 0};
    line l;
    if (first_line(&in, &l, "a SFEN or USI position", err))
        return -1;
    int lines = 0, bare = 1;
    for (input all = in; bare && next_line(&all, &(line){0}) == 0;)
        lines++;
    if (lines) {
        for (input all = {text, len, 0, 0}; bare && next_line(&all, &l) == 0;)
            bare = bare_sfen(&l);
        in = (input){text, len, 0, 0};
        next_line(&in, &l);
    }
    if (lines && bare) {
        kifu__records one = {0};
        if (kifu__read_sfenlist(text, len, opt, &one, NULL) == 0) {
            size_t i = 0;
            while (i < one.n && kifu__records_push(out, one.items[i]) == 0)
                i++;
            for (size_t j = i + 1; j < one.n; j++) /* the push failed at i: freed */
                kifu_record_free(one.items[j]);
            kifu__free(one.items);
            return i < one.n ? nomem(err) : 0;
        }
        kifu__records_free(&one);
    }
    do {
        if (read_game(text, &l, opt, out, err))
            return -1;
    } while (next_line(&in, &l) == 0);
    return 0;
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
    if (set_line(p, &l, err) || set_start(r, p, l.s, l.n, err))
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
        /* The last line may follow by a forbidden move (a game that ended by a foul, as
         * kifu writes one): read from what changed, it is checked and marked as any
         * reader's forbidden last move is. */
        input rest = in;
        if (found == -1 && next_line(&rest, &(line){0}) != 0) {
            kifu_board pb;
            kifu_position_board(p, &pb);
            if (kifu__move_by_change(&pb, &qb, &m) == 0)
                found = 0;
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

/* The side to move ('b' or 'w') and move number of a bare SFEN line, or 0. */
static int sfen_turn(const char *p, const char *eol, long *number)
{
    const char *sp = memchr(p, ' ', (size_t)(eol - p));
    if (!sp || sp + 2 > eol || (sp[1] != 'b' && sp[1] != 'w'))
        return 0;
    int side = sp[1];
    const char *q = memchr(sp + 2, ' ', (size_t)(eol - sp - 2)); /* after the hands */
    q = q ? memchr(q + 1, ' ', (size_t)(eol - q - 1)) : NULL;
    *number = 0;
    for (q = q ? q + 1 : eol; q < eol && *q >= '0' && *q <= '9' && *number < 100000000;)
        *number = *number * 10 + (*q++ - '0');
    return side;
}

/* What the SFEN lines of text are: -1 when a USI position line comes first (*first: its
 * offset); else the count of bare SFEN lines, with *chain set when the first two read as
 * consecutive positions (the side to move alternates and the move number grows by one,
 * as in a sfenlist) and *first the offset of the first. */
static int sfen_lines(const char *text, size_t len, size_t *first, int *chain)
{
    const char *s = text, *end = text + len, *p, *eol;
    int n = 0, side[2] = {0, 0};
    long number[2] = {0, 0};
    *chain = 0;
    while ((p = kifu__next_line(&s, end, &eol)) != NULL) {
        size_t k = (size_t)(eol - p);
        if (*p == '#')
            continue; /* a comment line, as the readers skip it */
        if ((k >= 9 && memcmp(p, "position ", 9) == 0) ||
            (k >= 8 && memcmp(p, "startpos", 8) == 0) ||
            (k >= 5 && memcmp(p, "sfen ", 5) == 0)) {
            if (n)
                break;
            *first = (size_t)(p - text);
            return -1;
        }
        if (!sfen_board_line(p, eol))
            return 0; /* anything else: not SFEN text */
        if (n < 2)
            side[n] = sfen_turn(p, eol, &number[n]);
        if (!n)
            *first = (size_t)(p - text);
        n++;
    }
    *chain =
        n > 1 && side[0] && side[1] && side[0] != side[1] && number[1] == number[0] + 1;
    return n;
}

/* SFEN: a USI position line or a SFEN first decides (one game, or one game a line); a
 * sfenlist's lines are left to its own row. */
int kifu__sniff_sfen(const char *text, size_t len, size_t *at)
{
    int chain;
    int n = sfen_lines(text, len, at, &chain);
    return n < 0 || (n > 0 && !chain) ? 10 : 0;
}

/* sfenlist: bare SFEN lines of which the first two are consecutive positions. */
int kifu__sniff_sfenlist(const char *text, size_t len, size_t *at)
{
    int chain;
    int n = sfen_lines(text, len, at, &chain);
    return n > 1 && chain ? 10 : 0;
}
