/* jkf_read.c: JSON Kifu Format (JKF 1.x) into the record tree.
 *
 * The text is read as a stream of JSON tokens (core/json.h, our own pull parser) and the
 * record is built as they come: no JSON tree is held, so memory is the record's, and forks
 * of any depth read back, because the lines being read are kept on a heap stack (one frame
 * per fork level), never on the C stack. The JKF schema is checked as the tokens come,
 * naming the JSON path (`moves[12].move.to.x`) and the line and column of every violation.
 * Object members may come in any order: an entry's comments and time seen before its move
 * are read again once the move's node exists, and forks seen before it are moved behind
 * it. Optional fields keep their presence (promote, same, capture, relative, time `h`), so
 * JKF -> record -> JKF gives the same JSON value. */
#include <stdio.h>
#include <string.h>

#include "core/json.h"
#include "core/json_path.h"
#include "fmt/fmt.h"
#include "kifu_private.h"
#include "notation/words.h"
#include "record/record.h"
#include "record/walk.h"

typedef struct ctx {
    kifu_record *r;
    kifu_error *err;
    const kifu_read_options *opt;
    const char *text;
    size_t len;
    kifu__json *j;    /* the parser: the document's, or one re-reading a skipped value */
    kifu__json_tok t; /* the token at hand */
    kifu__json_path path; /* of the value being read */
    uint32_t *seen_keys;  /* header keys: a hash set of indices into r->header */
    size_t seen_cap;
    int saw_from;   /* some move has a "from" key: a move without one is a drop */
    int moves_bare; /* moves without "from" (drops, or KI2-level moves) */
} ctx;

/* ---- path bookkeeping: push a segment, read, pop back to the saved length ---- */

static size_t push_key(ctx *c, const char *key)
{
    return kifu__json_path_key(&c->path, key);
}

static size_t push_index(ctx *c, size_t i)
{
    return kifu__json_path_index(&c->path, i);
}

static void pop(ctx *c, size_t old)
{
    kifu__json_path_pop(&c->path, old);
}

/* ---- errors ---- */

static int nomem(ctx *c)
{
    return kifu__error(c->err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
}

/* A short rendering of token v, for err->found. */
static void describe(const kifu__json_tok *v, char *buf, size_t cap)
{
    switch (v->type) {
    case KIFU__JSON_STRING:
        snprintf(buf, cap, "\"%.60s\"", v->s);
        break;
    case KIFU__JSON_NUMBER:
        snprintf(buf, cap, "%.*s", v->n > 60 ? 60 : (int)v->n, v->s);
        break;
    case KIFU__JSON_OBJECT:
        snprintf(buf, cap, "an object");
        break;
    case KIFU__JSON_ARRAY:
        snprintf(buf, cap, "an array");
        break;
    case KIFU__JSON_TRUE:
    case KIFU__JSON_FALSE:
        snprintf(buf, cap, "a boolean");
        break;
    case KIFU__JSON_NULL:
        snprintf(buf, cap, "null");
        break;
    default:
        snprintf(buf, cap, "a value");
    }
}

/* Reports that the value at the current path is not `expected`: the token v, or, when v
 * is NULL, nothing where the object at byte `off` should have held it. The path goes into
 * the message (and the line and column of the value into err). */
static int bad_at(ctx *c, const kifu__json_tok *v, size_t off, const char *expected)
{
    char found[80];
    if (v)
        describe(v, found, sizeof found);
    else
        snprintf(found, sizeof found, "nothing");
    if (v)
        off = v->off;
    int line, col;
    kifu__text_where(c->text, off, &line, &col);
    const char *where = c->path.len ? c->path.s : "(top level)";
    return kifu__error(c->err, KIFU_ERR_SCHEMA, line, col, off, expected, found,
                       "%s: expected %s, found %s", where, expected, found);
}

static int bad(ctx *c, const char *expected)
{
    return bad_at(c, &c->t, 0, expected);
}

static int syntax(ctx *c)
{
    return kifu__json_error(c->j, c->err);
}

/* The next token into c->t. 0, or -1 on a syntax error. */
static int next(ctx *c)
{
    return kifu__json_next(c->j, &c->t) == KIFU__JSON_ERROR ? syntax(c) : 0;
}

static int skip(ctx *c)
{
    return kifu__json_skip(c->j, &c->t) ? syntax(c) : 0;
}

/* c->t is a key of an object whose keys must be in `keys` (NULL-terminated, at most 32):
 * its index, with the key pushed on the path (*old: the length to pop back to); -1 on an
 * unknown or repeated key. */
static int member(ctx *c, const char *const *keys, uint32_t *seen, size_t *old)
{
    int k = 0;
    while (keys[k] && strcmp(keys[k], c->t.s) != 0)
        k++;
    *old = push_key(c, c->t.s);
    if (keys[k] && !(*seen & 1u << k)) {
        *seen |= 1u << k;
        return k;
    }
    int line, col;
    kifu__text_where(c->text, c->t.off, &line, &col);
    if (!keys[k]) {
        char exp[160] = "one of the keys";
        for (const char *const *a = keys; *a; a++) {
            size_t n = strlen(exp);
            snprintf(exp + n, sizeof exp - n, "%s %s", a == keys ? "" : ",", *a);
        }
        char found[120];
        snprintf(found, sizeof found, "unknown key \"%.80s\"", c->t.s);
        return kifu__error(c->err, KIFU_ERR_SCHEMA, line, col, c->t.off, exp, found,
                           "%s: %s, expected %s", c->path.s, found, exp);
    }
    return kifu__error(
        c->err, KIFU_ERR_SYNTAX, line, col, c->t.off, "each key once", "a duplicate key",
        "%s: duplicate key \"%s\" (the first value would be lost)", c->path.s, keys[k]);
}

/* ---- values ---- */

/* c->t as an integer in [lo, hi]: 1 and *out set, 0 for null when `nullable`, -1. */
static int get_int(ctx *c, int lo, int hi, int nullable, int *out)
{
    if (nullable && c->t.type == KIFU__JSON_NULL)
        return 0;
    if (c->t.type != KIFU__JSON_NUMBER || !c->t.is_int)
        return bad(c, "an integer");
    if (c->t.i < lo || c->t.i > hi) {
        char exp[64];
        snprintf(exp, sizeof exp, "an integer from %d to %d", lo, hi);
        return bad(c, exp);
    }
    *out = (int)c->t.i;
    return 1;
}

/* A boolean or null: -1 null, 0 false, 1 true. */
static int get_tristate(ctx *c, int8_t *out)
{
    if (c->t.type == KIFU__JSON_NULL)
        *out = -1;
    else if (c->t.type == KIFU__JSON_TRUE || c->t.type == KIFU__JSON_FALSE)
        *out = c->t.type == KIFU__JSON_TRUE;
    else
        return bad(c, "true, false or null");
    return 0;
}

static int get_kind(ctx *c, int capturable, int *out)
{
    const char *exp = capturable
                          ? "a capturable piece kind (FU ... RY but OU)"
                          : "a piece kind (FU, KY, KE, GI, KI, KA, HI, OU, TO, NY, NK, "
                            "NG, UM, RY)";
    if (c->t.type != KIFU__JSON_STRING)
        return bad(c, exp);
    int k = kifu_piece_from_csa(c->t.s);
    if (k == KIFU_NO_PIECE || (capturable && k == KIFU_OU))
        return bad(c, exp);
    *out = k;
    return 0;
}

static int expect_object(ctx *c, const char *expected)
{
    return c->t.type == KIFU__JSON_OBJECT ? 0 : bad(c, expected);
}

/* {x, y} with 1..9 each. */
static int get_place(ctx *c, uint8_t *x, uint8_t *y)
{
    static const char *const keys[] = {"x", "y", NULL};
    if (expect_object(c, "a square {\"x\": 1..9, \"y\": 1..9}"))
        return -1;
    size_t at = c->t.off, old;
    uint32_t seen = 0;
    int v[2] = {0, 0};
    while (!next(c) && c->t.type == KIFU__JSON_KEY) {
        int k = member(c, keys, &seen, &old);
        if (k < 0 || next(c) || get_int(c, 1, 9, 0, &v[k]) < 0)
            return -1;
        pop(c, old);
    }
    if (c->err->code)
        return -1;
    for (int k = 0; k < 2; k++) {
        if (!(seen & 1u << k)) {
            old = push_key(c, keys[k]);
            return bad_at(c, NULL, at, "an integer");
        }
    }
    *x = (uint8_t)v[0];
    *y = (uint8_t)v[1];
    return 0;
}

/* ---- header and initial position ---- */

static uint32_t hash(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

/* Adds header entry i to the set of keys seen; 1 if its key was there already, -1 NOMEM. */
static int header_seen(ctx *c, uint32_t i)
{
    kifu__header_entry *h = c->r->header;
    if (2 * (size_t)(i + 1) > c->seen_cap) {
        /* Rebuild at twice the size: entries 0..i-1 were all distinct. */
        size_t cap = c->seen_cap ? 2 * c->seen_cap : 32;
        uint32_t *set = kifu__malloc(cap * sizeof *set);
        if (!set)
            return -1;
        memset(set, 0xFF, cap * sizeof *set);
        for (uint32_t e = 0; e < i; e++) {
            size_t s = hash(h[e].key) & (cap - 1);
            while (set[s] != UINT32_MAX)
                s = (s + 1) & (cap - 1);
            set[s] = e;
        }
        kifu__free(c->seen_keys);
        c->seen_keys = set;
        c->seen_cap = cap;
    }
    size_t s = hash(h[i].key) & (c->seen_cap - 1);
    for (; c->seen_keys[s] != UINT32_MAX; s = (s + 1) & (c->seen_cap - 1))
        if (strcmp(h[c->seen_keys[s]].key, h[i].key) == 0)
            return 1;
    c->seen_keys[s] = i;
    return 0;
}

static int read_header(ctx *c)
{
    if (expect_object(c, "an object of string values"))
        return -1;
    while (!next(c) && c->t.type == KIFU__JSON_KEY) {
        kifu__json_tok key = c->t; /* its text stays valid through the value's token */
        size_t old = push_key(c, key.s);
        if (next(c))
            return -1;
        if (c->t.type != KIFU__JSON_STRING)
            return bad(c, "a string");
        if (kifu_record_header_add(c->r, key.s, c->t.s))
            return nomem(c);
        int dup = header_seen(c, (uint32_t)(c->r->nheader - 1));
        if (dup < 0)
            return nomem(c);
        if (dup) {
            int line, col;
            kifu__text_where(c->text, key.off, &line, &col);
            return kifu__error(c->err, KIFU_ERR_SYNTAX, line, col, key.off,
                               "each key once", "a duplicate key",
                               "%s: duplicate key (the first value would be lost)",
                               c->path.s);
        }
        pop(c, old);
    }
    return c->err->code ? -1 : 0;
}

static int read_square(ctx *c, uint8_t *out)
{
    static const char *const keys[] = {"color", "kind", NULL};
    if (expect_object(c, "a square object ({} or {\"color\", \"kind\"})"))
        return -1;
    size_t at = c->t.off, old;
    uint32_t seen = 0;
    int color = -1, kind = -1;
    while (!next(c) && c->t.type == KIFU__JSON_KEY) {
        int k = member(c, keys, &seen, &old);
        if (k < 0 || next(c))
            return -1;
        if (k == 0 && get_int(c, 0, 1, 1, &color) < 0)
            return -1;
        if (k == 1 && c->t.type != KIFU__JSON_NULL && get_kind(c, 0, &kind))
            return -1;
        pop(c, old);
    }
    if (c->err->code)
        return -1;
    if (kind < 0 && color >= 0) {
        push_key(c, "kind");
        return bad_at(c, NULL, at, "a piece kind with the color");
    }
    if (kind >= 0 && color < 0) {
        push_key(c, "color");
        return bad_at(c, NULL, at, "0 or 1 with the kind");
    }
    *out = kind < 0 ? 0 : (uint8_t)(kind | (color << 4));
    return 0;
}

/* An array of exactly 9 (board columns, or squares of a column). */
static int read_nine(ctx *c, int columns, kifu_board *out, size_t x)
{
    const char *exp =
        columns ? "an array of 9 columns (board[x-1][y-1])" : "an array of 9 squares";
    if (c->t.type != KIFU__JSON_ARRAY)
        return bad(c, exp);
    kifu__json_tok open = c->t;
    size_t i = 0;
    while (!next(c) && c->t.type != KIFU__JSON_ARRAY_END) {
        if (i == 9)
            return bad_at(c, &open, 0, exp);
        size_t old = push_index(c, i);
        if (columns ? read_nine(c, 0, out, i) : read_square(c, &out->sq[x * 9 + i]))
            return -1;
        pop(c, old);
        i++;
    }
    if (c->err->code)
        return -1;
    return i == 9 ? 0 : bad_at(c, &open, 0, exp);
}

static int read_board(ctx *c, kifu_board *out)
{
    if (c->t.type == KIFU__JSON_OBJECT) {
        /* The schema's "no pieces" form: {} */
        kifu__json_tok open = c->t;
        if (next(c))
            return -1;
        if (c->t.type != KIFU__JSON_OBJECT_END)
            return bad_at(c, &open, 0, "an array of 9 columns (board[x-1][y-1]) or {}");
        return 0;
    }
    return read_nine(c, 1, out, 0);
}

static int read_hands(ctx *c, kifu_board *out)
{
    /* The keys a hand may have: every piece name (kinds that cannot be in hand are then
     * refused with a clearer message than "unknown key"). */
    static const char *const kinds[] = {
        kifu__csa_names[1],  kifu__csa_names[2],  kifu__csa_names[3],
        kifu__csa_names[4],  kifu__csa_names[5],  kifu__csa_names[6],
        kifu__csa_names[7],  kifu__csa_names[8],  kifu__csa_names[9],
        kifu__csa_names[10], kifu__csa_names[11], kifu__csa_names[12],
        kifu__csa_names[13], kifu__csa_names[14], NULL};
    const char *exp = "an array of 2 hands (sente, gote)";
    if (c->t.type != KIFU__JSON_ARRAY)
        return bad(c, exp);
    kifu__json_tok open = c->t;
    size_t i = 0;
    while (!next(c) && c->t.type != KIFU__JSON_ARRAY_END) {
        if (i == 2)
            return bad_at(c, &open, 0, exp);
        size_t old = push_index(c, i), o2;
        if (expect_object(c, "an object {kind: count}"))
            return -1;
        uint32_t seen = 0;
        while (!next(c) && c->t.type == KIFU__JSON_KEY) {
            int k = member(c, kinds, &seen, &o2), n = 0;
            if (k < 0 || next(c) || get_int(c, 0, 18, 0, &n) < 0)
                return -1;
            k++; /* kinds[k] is piece k + 1 */
            if (n && k > KIFU_KI)
                return bad(c, "0 (only FU, KY, KE, GI, KI, KA, HI can be in hand)");
            if (k <= KIFU_KI) /* "OU": 0 and the promoted kinds' zeros hold nothing */
                out->hands[i][k] = (uint8_t)n;
            pop(c, o2);
        }
        if (c->err->code)
            return -1;
        pop(c, old);
        i++;
    }
    if (c->err->code)
        return -1;
    return i == 2 ? 0 : bad_at(c, &open, 0, exp);
}

static int read_data(ctx *c, kifu_board *b)
{
    static const char *const keys[] = {"color", "board", "hands", NULL};
    if (expect_object(c, "an object {color, board, hands}"))
        return -1;
    size_t at = c->t.off, old;
    uint32_t seen = 0;
    memset(b, 0, sizeof *b);
    while (!next(c) && c->t.type == KIFU__JSON_KEY) {
        int k = member(c, keys, &seen, &old), color = 0;
        if (k < 0 || next(c))
            return -1;
        if (k == 0 && get_int(c, 0, 1, 0, &color) < 0)
            return -1;
        b->color = k == 0 ? (uint8_t)color : b->color;
        if ((k == 1 && read_board(c, b)) || (k == 2 && read_hands(c, b)))
            return -1;
        pop(c, old);
    }
    if (c->err->code)
        return -1;
    static const char *const what[] = {"an integer", "the board", "the hands"};
    for (int k = 0; k < 3; k++) {
        if (!(seen & 1u << k)) {
            push_key(c, keys[k]);
            return bad_at(c, NULL, at, what[k]);
        }
    }
    return 0;
}

static int read_initial(ctx *c)
{
    static const char *const keys[] = {"preset", "data", NULL};
    if (c->t.type == KIFU__JSON_NULL)
        return 0;
    if (expect_object(c, "an object {preset, data} or null"))
        return -1;
    size_t at = c->t.off, old;
    uint32_t seen = 0;
    int preset = KIFU_PRESET_NONE, has_data = 0;
    kifu_board b;
    while (!next(c) && c->t.type == KIFU__JSON_KEY) {
        int k = member(c, keys, &seen, &old);
        if (k < 0 || next(c))
            return -1;
        if (k == 0) {
            preset = c->t.type == KIFU__JSON_STRING ? kifu_preset_from_name(c->t.s)
                                                    : KIFU_PRESET_NONE;
            if (preset == KIFU_PRESET_NONE)
                return bad(c,
                           "a preset name (HIRATE, KY, KY_R, KA, HI, HIKY, 2, 3, 4, 5, "
                           "5_L, 6, 7_L, 7_R, 8, 10, OTHER)");
        } else if (c->t.type != KIFU__JSON_NULL) {
            if (read_data(c, &b))
                return -1;
            has_data = 1;
        }
        pop(c, old);
    }
    if (c->err->code)
        return -1;
    if (preset == KIFU_PRESET_NONE) {
        push_key(c, "preset");
        return bad_at(c, NULL, at, "a preset name");
    }
    if (has_data) {
        /* Data with a named preset (a Kifu for iPhone habit): the data is what the board
         * is. */
        kifu_record_set_initial(c->r, &b);
    } else if (preset == KIFU_PRESET_OTHER) {
        push_key(c, "data");
        return bad_at(c, NULL, at, "the position data for preset OTHER");
    } else {
        kifu_record_set_preset(c->r, preset);
    }
    return 0;
}

/* ---- entries ---- */

static int read_comments(ctx *c, kifu_node *n)
{
    if (c->t.type == KIFU__JSON_NULL)
        return 0;
    if (c->t.type != KIFU__JSON_ARRAY)
        return bad(c, "an array of strings");
    for (size_t i = 0; !next(c) && c->t.type != KIFU__JSON_ARRAY_END; i++) {
        if (c->t.type != KIFU__JSON_STRING) {
            push_index(c, i);
            return bad(c, "a string");
        }
        if (kifu_node_add_comment(c->r, n, c->t.s))
            return nomem(c);
    }
    return c->err->code ? -1 : 0;
}

static int read_time1(ctx *c, kifu_time *out)
{
    static const char *const keys[] = {"h", "m", "s", NULL};
    if (expect_object(c, "a time {h?, m, s}"))
        return -1;
    size_t at = c->t.off, old;
    uint32_t seen = 0;
    out->h = -1;
    out->ms = 0;
    static const int hi[] = {1000000, 60000000, 1000000};
    int *field[] = {&out->h, &out->m, &out->s};
    while (!next(c) && c->t.type == KIFU__JSON_KEY) {
        int k = member(c, keys, &seen, &old);
        if (k < 0 || next(c) || get_int(c, 0, hi[k], k == 0, field[k]) < 0)
            return -1;
        pop(c, old);
    }
    if (c->err->code)
        return -1;
    for (int k = 1; k < 3; k++) {
        if (!(seen & 1u << k)) {
            push_key(c, keys[k]);
            return bad_at(c, NULL, at, "an integer");
        }
    }
    return 0;
}

static int read_time(ctx *c, kifu_node *n)
{
    static const char *const keys[] = {"now", "total", NULL};
    if (c->t.type == KIFU__JSON_NULL)
        return 0;
    if (expect_object(c, "an object {now, total} or null"))
        return -1;
    size_t at = c->t.off, old;
    uint32_t seen = 0;
    kifu_move_time mt;
    memset(&mt, 0, sizeof mt);
    mt.total.h = -1;
    while (!next(c) && c->t.type == KIFU__JSON_KEY) {
        int k = member(c, keys, &seen, &old);
        if (k < 0 || next(c) || read_time1(c, k == 0 ? &mt.now : &mt.total))
            return -1;
        pop(c, old);
    }
    if (c->err->code)
        return -1;
    if (!(seen & 1)) {
        push_key(c, "now");
        return bad_at(c, NULL, at, "the time of the move");
    }
    /* The schema requires total; a record without it gets totals from the normalizer. */
    mt.has_total = (seen & 2) != 0;
    kifu__time_set(n, &mt);
    return 0;
}

static int relative_ok(const char *s)
{
    /* [LCR] | [UMD] | [LCR][UD] | [LR]M | H */
    size_t n = strlen(s);
    if (n == 1)
        return strchr("LCRUMDH", s[0]) != NULL;
    if (n == 2)
        return (strchr("LCR", s[0]) && strchr("UD", s[1])) ||
               (strchr("LR", s[0]) && s[1] == 'M');
    return 0;
}

/* The move object at c->t into m (all zero). */
static int read_move(ctx *c, kifu_move *m)
{
    static const char *const keys[] = {"color",   "from",    "to",       "piece", "same",
                                       "promote", "capture", "relative", NULL};
    enum { COLOR, FROM, TO, PIECE, SAME, PROMOTE, CAPTURE, RELATIVE };
    if (expect_object(c, "a move object"))
        return -1;
    size_t at = c->t.off, old;
    uint32_t seen = 0;
    int color = -1, k = 0, from_null = 0;
    m->same = m->promote = -1;
    while (!next(c) && c->t.type == KIFU__JSON_KEY) {
        int key = member(c, keys, &seen, &old);
        if (key < 0 || next(c))
            return -1;
        int null = c->t.type == KIFU__JSON_NULL, rc = 0;
        switch (key) {
        case COLOR:
            rc = get_int(c, 0, 1, 0, &color) < 0;
            break;
        case FROM:
            from_null = null;
            rc = !null && get_place(c, &m->from_x, &m->from_y);
            break;
        case TO:
            rc = get_place(c, &m->to_x, &m->to_y);
            break;
        case PIECE:
            rc = get_kind(c, 0, &k);
            m->piece = (uint8_t)k;
            break;
        case SAME:
            rc = get_tristate(c, &m->same);
            break;
        case PROMOTE:
            rc = get_tristate(c, &m->promote);
            break;
        case CAPTURE:
            rc = !null && get_kind(c, 1, &k);
            m->capture = null ? 0 : (uint8_t)k;
            break;
        default:
            if (null)
                break;
            if (c->t.type != KIFU__JSON_STRING || !relative_ok(c->t.s))
                return bad(c,
                           "a relative word (L, C, R, U, M, D, LU, CU, RU, LD, CD, RD, "
                           "LM, RM or H)");
            strcpy(m->relative, c->t.s);
        }
        if (rc)
            return -1;
        pop(c, old);
    }
    if (c->err->code)
        return -1;
    if (color < 0)
        m->flags |= KIFU_MOVE_NO_COLOR; /* minimal JKF: the normalizer sets it */
    else
        m->color = (uint8_t)color;
    if (!(seen & 1u << TO) && m->same != 1) {
        push_key(c, "to");
        return bad_at(c, NULL, at, "a square {\"x\": 1..9, \"y\": 1..9}");
    }
    if (!(seen & 1u << FROM) || from_null)
        m->flags |= KIFU_MOVE_DROP | (from_null ? KIFU__MOVE_FROM_NULL : 0);
    if (seen & 1u << FROM)
        c->saw_from = 1;
    else
        c->moves_bare = 1;
    if (!(seen & 1u << PIECE) && (m->flags & KIFU_MOVE_DROP)) {
        push_key(c, "piece");
        return bad_at(c, NULL, at, "the piece kind of a drop");
    }
    /* Anything the source did not say is completed by the normalizer. */
    m->flags |= KIFU_MOVE_RAW;
    return 0;
}

/* A move or special in moves[0]: the list of the keys moves[0] takes would not tell
 * that the first move is moves[1] (JKF keeps moves[0] for the start position). */
static int root_move(ctx *c)
{
    int line, col;
    kifu__text_where(c->text, c->t.off, &line, &col);
    char found[40];
    snprintf(found, sizeof found, "a \"%s\"", c->t.s);
    push_key(c, c->t.s);
    return kifu__error(c->err, KIFU_ERR_SCHEMA, line, col, c->t.off,
                       "the first move in moves[1]", found,
                       "%s: moves[0] stands for the start position and holds only its "
                       "comments: the first move is moves[1] (write {} or the comments "
                       "before it)",
                       c->path.s);
}

static int read_root_entry(ctx *c)
{
    /* moves[0] stands for the start position: comments only. The schema names a single
     * "comment" string there while JKF tools write "comments": both are taken (a
     * "comment" becomes the first comment line, wherever it stands). */
    static const char *const keys[] = {"comments", "comment", NULL};
    size_t old = push_index(c, 0), o2;
    if (expect_object(c, "an object with the comments on the start position"))
        return -1;
    uint32_t seen = 0;
    kifu_node *root = c->r->root;
    while (!next(c) && c->t.type == KIFU__JSON_KEY) {
        if (strcmp(c->t.s, "move") == 0 || strcmp(c->t.s, "special") == 0)
            return root_move(c);
        int k = member(c, keys, &seen, &o2);
        if (k < 0 || next(c))
            return -1;
        if (k == 0 && read_comments(c, root))
            return -1;
        if (k == 1 && c->t.type != KIFU__JSON_NULL) {
            if (c->t.type != KIFU__JSON_STRING)
                return bad(c, "a string");
            if (kifu_node_add_comment(c->r, root, c->t.s))
                return nomem(c);
            /* Comments read before it go after it. */
            kifu__node_text *t = kifu__text(root);
            if (t->ncomments > 1) {
                const char *one = t->comments[t->ncomments - 1];
                memmove(t->comments + 1, t->comments,
                        (t->ncomments - 1) * sizeof *t->comments);
                t->comments[0] = one;
            }
        }
        pop(c, o2);
    }
    if (c->err->code)
        return -1;
    pop(c, old);
    return 0;
}

/* An entry of a line being read (moves[i] with i >= 1, or an entry of a fork). */
typedef struct entry {
    kifu_node *node;       /* made when its move or special is read */
    size_t comments, time; /* 1 + byte offset of a value met before the node, or 0 */
    size_t plen;           /* the path's length at the entry */
    size_t forks_plen;     /* ... at its "forks" */
    size_t fork;           /* the next fork's index */
    uint32_t seen;         /* keys seen */
    int forks_first;       /* forks were read before the node: it goes in front */
    int sealed;            /* "kifu:sealed": true */
} entry;

/* A line being read: an array of entries, moves or a fork. Nested forks are frames on a
 * heap stack, not calls. */
typedef struct frame {
    kifu_node *parent; /* of the line's next entry */
    size_t index;      /* of the next entry in the array */
    size_t plen;       /* the path's length at the array */
    enum { IN_LINE, IN_ENTRY, IN_FORKS } state;
    entry e;
} frame;

enum { E_COMMENTS, E_MOVE, E_TIME, E_SPECIAL, E_FORKS, E_SEALED };

/* Reads a value met before its entry's node existed, by a parser of its own. */
static int reread(ctx *c, size_t off, int key, kifu_node *n)
{
    kifu__json sub, *doc = c->j;
    kifu__json_init_value(&sub, c->text, c->len, off);
    c->j = &sub;
    size_t old = push_key(c, key == E_TIME ? "time" : "comments");
    int rc = next(c) || (key == E_TIME ? read_time(c, n) : read_comments(c, n));
    pop(c, old);
    kifu__json_free(&sub);
    c->j = doc;
    return rc ? -1 : 0;
}

static void warn(ctx *c, const char *fmt, const char *path)
{
    if (c->opt && c->opt->warn)
        kifu__warn(c->opt->warn, c->opt->warn_ctx, fmt, path);
}

/* The entry's closing brace: its node complete, or a time-only entry skipped. */
static int end_entry(ctx *c, frame *f)
{
    entry *e = &f->e;
    if (!e->node) {
        if (!(e->seen & 1u << E_TIME))
            return bad_at(c, NULL, c->t.off, "a \"move\" or a \"special\"");
        /* Time only (json-kifu-format writes that for an ending it does not know): there
         * is nothing to hang the time on. Its comments go to the move before it. */
        warn(c,
             "%s: an entry with a time but no move or special is skipped (its time is "
             "dropped)",
             c->path.s);
        if (e->comments && reread(c, e->comments - 1, E_COMMENTS, f->parent))
            return -1;
        return 0;
    }
    if ((e->comments && reread(c, e->comments - 1, E_COMMENTS, e->node)) ||
        (e->time && reread(c, e->time - 1, E_TIME, e->node)))
        return -1;
    if (e->sealed) {
        /* The key may come before or after "special": the word is settled here. */
        if (e->node->kind == KIFU_NODE_SPECIAL &&
            strcmp(kifu__special(e->node), "CHUDAN") == 0)
            kifu__text(e->node)->special = KIFU__JP_SEALED; /* an ending has its text */
        else
            warn(c, "%s: \"kifu:sealed\" on an entry that is no CHUDAN is ignored",
                 c->path.s);
    }
    if (e->forks_first)
        kifu_node_reorder(f->parent, kifu_node_child_count(f->parent) - 1, 0);
    f->parent = e->node; /* JKF tools keep entries after a special (a second KACHI) */
    return 0;
}

/* One member of an entry; c->t is its key. Returns 1 when the member's forks begin
 * (the frame is then IN_FORKS), 0 when the member was read whole, -1. */
static int entry_member(ctx *c, frame *f)
{
    /* kifu:sealed is kifu's own (words.h, KIFU__JP_SEALED); the others are JKF's. */
    static const char *const keys[] = {"comments", "move",        "time", "special",
                                       "forks",    "kifu:sealed", NULL};
    entry *e = &f->e;
    size_t old;
    int k = member(c, keys, &e->seen, &old);
    if (k < 0 || next(c))
        return -1;
    int null = c->t.type == KIFU__JSON_NULL;
    if (null)
        e->seen &= ~(1u << k); /* null is absence */
    switch (k) {
    case E_COMMENTS:
    case E_TIME:
        if (null)
            break;
        if (e->node) {
            if (k == E_TIME ? read_time(c, e->node) : read_comments(c, e->node))
                return -1;
        } else {
            *(k == E_TIME ? &e->time : &e->comments) = c->t.off + 1;
            if (skip(c))
                return -1;
        }
        break;
    case E_MOVE:
    case E_SPECIAL:
        if (null)
            break;
        if (e->node)
            return bad(c, k == E_MOVE ? "no move on an entry that has a special"
                                      : "no special word on an entry that has a move");
        if (k == E_MOVE) {
            e->node = kifu__node_add_blank_move(c->r, f->parent);
            if (!e->node)
                return nomem(c);
            /* An illegal move is reported at its move object (normalize.c); move
             * objects come in the order of the text, so the cursor only goes forward. */
            kifu__node_src(e->node, c->t.off);
            kifu_move m = {0};
            if (read_move(c, &m))
                return -1;
            kifu__move_put(e->node, &m); /* read_move checked every field's range */
        } else {
            if (c->t.type != KIFU__JSON_STRING)
                return bad(c, "a special word (TORYO, CHUDAN, SENNICHITE, ...)");
            /* Known words (TORYO ... ERROR, MAX_MOVES) and unknown ones alike are kept
             * verbatim. */
            e->node = kifu_node_add_special(c->r, f->parent, c->t.s);
            if (!e->node)
                return nomem(c);
        }
        break;
    case E_SEALED:
        if (!null && c->t.type != KIFU__JSON_TRUE && c->t.type != KIFU__JSON_FALSE)
            return bad(c, "true or false");
        e->sealed = c->t.type == KIFU__JSON_TRUE;
        break;
    default:
        if (null)
            break;
        if (c->t.type != KIFU__JSON_ARRAY)
            return bad(c, "an array of forks (arrays of move entries)");
        e->forks_first = !e->node;
        e->forks_plen = c->path.len;
        f->state = IN_FORKS;
        return 1;
    }
    pop(c, old);
    return 0;
}

/* The entries of moves (after moves[0]) and of all their forks, c->t being the token
 * after moves[0]. */
static int read_lines(ctx *c)
{
    frame *st = NULL;
    size_t depth = 0, cap = 0;
    int rc = -1;
    if (kifu__reserve(&st, &cap, 1, sizeof *st, 64)) {
        nomem(c);
        goto out;
    }
    memset(&st[0], 0, sizeof *st);
    st[0].parent = c->r->root;
    st[0].index = 1;
    st[0].plen = c->path.len;
    depth = 1;
    int have = 1; /* c->t holds the next token already */
    while (depth) {
        frame *f = &st[depth - 1];
        if (!have && next(c))
            goto out;
        have = 0;
        switch (f->state) {
        case IN_LINE:
            if (c->t.type == KIFU__JSON_ARRAY_END) {
                depth--;
                if (depth)
                    pop(c, st[depth - 1].e.forks_plen);
                break;
            }
            pop(c, f->plen);
            push_index(c, f->index);
            if (expect_object(c, "a move entry object"))
                goto out;
            memset(&f->e, 0, sizeof f->e);
            f->e.plen = c->path.len;
            f->state = IN_ENTRY;
            break;
        case IN_ENTRY:
            if (c->t.type == KIFU__JSON_OBJECT_END) {
                if (end_entry(c, f))
                    goto out;
                f->index++;
                f->state = IN_LINE;
                break;
            }
            if (entry_member(c, f) < 0)
                goto out;
            break;
        case IN_FORKS:
            if (c->t.type == KIFU__JSON_ARRAY_END) {
                pop(c, f->e.plen);
                f->state = IN_ENTRY;
                break;
            }
            pop(c, f->e.forks_plen);
            push_index(c, f->e.fork++);
            if (c->t.type != KIFU__JSON_ARRAY) {
                bad(c, "a fork (an array of move entries)");
                goto out;
            }
            if (kifu__reserve(&st, &cap, depth + 1, sizeof *st, 64)) {
                nomem(c);
                goto out;
            }
            f = &st[depth - 1];
            memset(&st[depth], 0, sizeof *st);
            st[depth].parent = f->parent; /* forks are alternatives to the entry */
            st[depth].plen = c->path.len;
            depth++;
            break;
        }
    }
    rc = 0;
out:
    kifu__free(st);
    return rc;
}

static int read_moves(ctx *c)
{
    if (c->t.type != KIFU__JSON_ARRAY)
        return bad(c, "the moves array");
    if (next(c))
        return -1;
    if (c->t.type == KIFU__JSON_ARRAY_END)
        return 0;
    if (read_root_entry(c) || next(c))
        return -1;
    return read_lines(c);
}

/* No move of the record has a "from": it is KI2-level JKF (what the KI2 reader gives:
 * to, piece, relative or same), whose moves the normalizer finds on the board as it does
 * KI2's; a drop is then one with "relative": "H", or that no board piece can make (as
 * json-kifu-format's normalizer reads such a record). A record with a "from" anywhere is
 * KIF-level or complete: a move without one is a drop. */
static int ki2_level(ctx *c)
{
    kifu__walk w;
    kifu__walk_init(&w, c->r->root, KIFU__WALK_TREE);
    int ev;
    while ((ev = kifu__walk_next(&w)) > 0) {
        kifu_node *n = w.node;
        if (ev != KIFU__WALK_ENTER || n->kind != KIFU_NODE_MOVE)
            continue;
        unsigned f = kifu__move_flags(n);
        if ((f & KIFU_MOVE_DROP) && !(f & KIFU__MOVE_FROM_NULL) &&
            kifu__mv_rel_of(n) != kifu__mv_rel_code("H"))
            kifu__move_unflag(n, KIFU_MOVE_DROP);
    }
    kifu__walk_free(&w);
    return ev == KIFU__WALK_NOMEM ? nomem(c) : 0;
}

static int read_record(ctx *c)
{
    static const char *const keys[] = {"header", "initial", "moves", NULL};
    if (next(c))
        return -1;
    if (expect_object(c, "a JKF object {header, initial?, moves}"))
        return -1;
    size_t at = c->t.off, old;
    uint32_t seen = 0;
    while (!next(c) && c->t.type == KIFU__JSON_KEY) {
        int k = member(c, keys, &seen, &old);
        if (k < 0 || next(c))
            return -1;
        if ((k == 0 && read_header(c)) || (k == 1 && read_initial(c)) ||
            (k == 2 && read_moves(c)))
            return -1;
        pop(c, old);
    }
    if (c->err->code)
        return -1;
    if (!(seen & 1)) {
        push_key(c, "header");
        return bad_at(c, NULL, at, "the header object (may be {})");
    }
    if (!(seen & 4)) {
        push_key(c, "moves");
        return bad_at(c, NULL, at, "the moves array");
    }
    if (next(c)) /* the end of the text, or a syntax error */
        return -1;
    c->r->from_jkf = 1;
    return c->saw_from || !c->moves_bare ? 0 : ki2_level(c);
}

/* One JKF object starting at byte off; *end is where the text goes on after it (past
 * white space). 0, or -1. */
static int read_one(const char *text, size_t len, size_t off,
                    const kifu_read_options *opt, kifu__records *out, kifu_error *err,
                    size_t *end)
{
    kifu_error none;
    kifu_error_clear(&none);
    kifu__json j;
    kifu__json_init_value(&j, text, len, off);
    ctx c;
    memset(&c, 0, sizeof c);
    /* The readers' loops test err->code: give them one even when the caller did not. */
    c.err = err ? err : &none;
    c.opt = opt;
    c.text = text;
    c.len = len;
    c.j = &j;
    c.r = kifu_record_new();
    int rc = c.r ? read_record(&c) : nomem(&c);
    *end = c.t.off;
    kifu__json_free(&j);
    kifu__free(c.seen_keys);
    if (rc) {
        kifu_record_free(c.r);
        return -1;
    }
    return kifu__records_push_done(out, c.r) ? nomem(&c) : 0;
}

/* A JKF object, or JSON Lines of them (what `kifu convert -o -` writes: one game a
 * line): after an object only white space or the next object may follow. */
int kifu__read_jkf(KIFU__READER_PARAMS)
{
    size_t off = 0, end;
    for (;;) {
        if (read_one(text, len, off, opt, out, err, &end))
            return -1;
        while (end < len && (text[end] == ' ' || text[end] == '\t' || text[end] == '\n' ||
                             text[end] == '\r'))
            end++;
        if (end >= len)
            return 0;
        if (text[end] != '{') {
            int line, col;
            char found[8];
            kifu__text_where(text, end, &line, &col);
            snprintf(found, sizeof found, "'%c'", text[end]);
            return kifu__error(err, KIFU_ERR_SYNTAX, line, col, end,
                               "the end of the text after the value", found,
                               "JSON syntax: expected the end of the text after the "
                               "value (or the next game's object), found %s",
                               found);
        }
        off = end;
    }
}

/* Is the key "moves" (every JKF object has it) in text[0..len)? */
static int has_moves_key(const char *text, size_t len)
{
    static const char key[] = "\"moves\"";
    const char *p = text, *end = text + len;
    while ((p = memchr(p, '"', (size_t)(end - p))) &&
           (size_t)(end - p) >= sizeof key - 1) {
        if (memcmp(p, key, sizeof key - 1) == 0)
            return 1;
        p++;
    }
    return 0;
}

/* JSON: the first thing in the text opens an object with a "moves" key somewhere (not
 * any JSON: a package.json among records is no record), or an array. */
int kifu__sniff_jkf(const char *text, size_t len, size_t *at)
{
    const char *s = text, *eol, *p = kifu__next_line(&s, text + len, &eol);
    if (!p || (*p != '{' && *p != '[') ||
        (*p == '{' && !has_moves_key(p, (size_t)(text + len - p))))
        return 0;
    *at = (size_t)(p - text);
    return 10;
}
