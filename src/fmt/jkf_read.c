/* jkf_read.c: JSON Kifu Format (JKF 1.x) into the record tree.
 *
 * libjansson parses the text; this file walks the JSON value and checks it against the
 * JKF schema as it goes, naming the JSON path (`moves[12].move.to.x`) of every violation.
 * A game line is read iteratively; only forks recurse (their depth is bounded by the JSON
 * nesting depth jansson accepts). Optional fields keep their presence (promote, same,
 * capture, relative, time `h`), so JKF -> record -> JKF gives the same JSON value. */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "fmt/fmt.h"
#include "kifu_private.h"
#include "notation/words.h"
#include "record/record.h"

typedef struct ctx {
    kifu_record *r;
    kifu_error *err;
    char path[200]; /* JSON path of the value being read */
    size_t plen;
} ctx;

/* ---- path bookkeeping: push a segment, read, pop back to the saved length ---- */

/* Appends n bytes to the path, cutting at the buffer's end (paths only name things). */
static void path_add(ctx *c, const char *s, size_t n)
{
    size_t room = sizeof c->path - 1 - c->plen;
    if (n > room)
        n = room;
    memcpy(c->path + c->plen, s, n);
    c->plen += n;
    c->path[c->plen] = 0;
}

static size_t push_key(ctx *c, const char *key)
{
    size_t old = c->plen;
    if (old)
        path_add(c, ".", 1);
    path_add(c, key, strlen(key));
    return old;
}

static size_t push_index(ctx *c, size_t i)
{
    size_t old = c->plen;
    char buf[24], *p = buf + sizeof buf;
    *--p = ']';
    do {
        *--p = (char)('0' + i % 10);
        i /= 10;
    } while (i);
    *--p = '[';
    path_add(c, p, (size_t)(buf + sizeof buf - p));
    return old;
}

static void pop(ctx *c, size_t old)
{
    c->plen = old;
    c->path[old] = 0;
}

static const char *type_name(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT:
        return "an object";
    case JSON_ARRAY:
        return "an array";
    case JSON_STRING:
        return "a string";
    case JSON_INTEGER:
        return "an integer";
    case JSON_REAL:
        return "a number";
    case JSON_TRUE:
    case JSON_FALSE:
        return "a boolean";
    case JSON_NULL:
        return "null";
    }
    return "a value";
}

/* A short rendering of the value found, for err->found. */
static void describe(const json_t *v, char *buf, size_t cap)
{
    if (json_is_string(v))
        snprintf(buf, cap, "\"%.60s\"", json_string_value(v));
    else if (json_is_integer(v))
        snprintf(buf, cap, "%lld", (long long)json_integer_value(v));
    else
        snprintf(buf, cap, "%s", type_name(v));
}

/* Reports that the value at the current path (v, or missing when v is NULL) is not
 * `expected`. The path goes into err->source so tools can point at it; io.c keeps it
 * unless it is empty, so the message names the path too. */
static int bad(ctx *c, const json_t *v, const char *expected)
{
    char found[80];
    if (v)
        describe(v, found, sizeof found);
    else
        snprintf(found, sizeof found, "nothing");
    const char *where = c->plen ? c->path : "(top level)";
    int rc = kifu__error(c->err, KIFU_ERR_SCHEMA, 0, 0, 0, expected, found,
                         "%s: expected %s, found %s", where, expected, found);
    return rc;
}

static int nomem(ctx *c)
{
    return kifu__error(c->err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
}

/* Keys of an object must all be in `allowed` (NULL-terminated). */
static int check_keys(ctx *c, json_t *obj, const char *const *allowed)
{
    const char *key;
    json_t *v;
    json_object_foreach(obj, key, v)
    {
        int ok = 0;
        for (const char *const *a = allowed; *a && !ok; a++)
            ok = strcmp(*a, key) == 0;
        if (!ok) {
            size_t old = push_key(c, key);
            char exp[160] = "one of the keys";
            for (const char *const *a = allowed; *a; a++) {
                size_t n = strlen(exp);
                snprintf(exp + n, sizeof exp - n, "%s %s", a == allowed ? "" : ",", *a);
            }
            char found[120];
            snprintf(found, sizeof found, "unknown key \"%.80s\"", key);
            kifu__error(c->err, KIFU_ERR_SCHEMA, 0, 0, 0, exp, found,
                        "%s: %s, expected %s", c->path, found, exp);
            pop(c, old);
            return -1;
        }
    }
    return 0;
}

/* Integer in [lo, hi] at key of obj; `required` or else *out untouched when absent.
 * Returns 1 when present, 0 when absent, -1 on error. */
static int get_int(ctx *c, json_t *obj, const char *key, int lo, int hi, int required,
                   int nullable, int *out)
{
    json_t *v = json_object_get(obj, key);
    size_t old = push_key(c, key);
    int rc = 1;
    if (!v || (nullable && json_is_null(v))) {
        rc = required ? bad(c, v, "an integer") : 0;
    } else if (!json_is_integer(v)) {
        rc = bad(c, v, "an integer");
    } else {
        json_int_t i = json_integer_value(v);
        if (i < lo || i > hi) {
            char exp[64];
            snprintf(exp, sizeof exp, "an integer from %d to %d", lo, hi);
            rc = bad(c, v, exp);
        } else {
            *out = (int)i;
        }
    }
    pop(c, old);
    return rc;
}

/* A boolean or null or absent: -1 absent/null, 0 false, 1 true. */
static int get_tristate(ctx *c, json_t *obj, const char *key, int8_t *out)
{
    json_t *v = json_object_get(obj, key);
    *out = -1;
    if (!v || json_is_null(v))
        return 0;
    if (json_is_boolean(v)) {
        *out = json_is_true(v) ? 1 : 0;
        return 0;
    }
    size_t old = push_key(c, key);
    bad(c, v, "true, false or null");
    pop(c, old);
    return -1;
}

static int get_kind(ctx *c, json_t *v, int capturable, int *out)
{
    const char *exp = capturable
                          ? "a capturable piece kind (FU ... RY but OU)"
                          : "a piece kind (FU, KY, KE, GI, KI, KA, HI, OU, TO, NY, NK, "
                            "NG, UM, RY)";
    if (!json_is_string(v))
        return bad(c, v, exp);
    int k = kifu_piece_from_csa(json_string_value(v));
    if (k == KIFU_NO_PIECE || (capturable && k == KIFU_OU))
        return bad(c, v, exp);
    *out = k;
    return 0;
}

/* {x, y} with 1..9 each. */
static int get_place(ctx *c, json_t *v, uint8_t *x, uint8_t *y)
{
    static const char *const keys[] = {"x", "y", NULL};
    if (!json_is_object(v))
        return bad(c, v, "a square {\"x\": 1..9, \"y\": 1..9}");
    if (check_keys(c, v, keys))
        return -1;
    int ix = 0, iy = 0;
    if (get_int(c, v, "x", 1, 9, 1, 0, &ix) < 0 ||
        get_int(c, v, "y", 1, 9, 1, 0, &iy) < 0)
        return -1;
    *x = (uint8_t)ix;
    *y = (uint8_t)iy;
    return 0;
}

/* ---- header and initial position ---- */

static int read_header(ctx *c, json_t *h)
{
    if (!json_is_object(h))
        return bad(c, h, "an object of string values");
    const char *key;
    json_t *v;
    json_object_foreach(h, key, v)
    {
        if (!json_is_string(v)) {
            size_t old = push_key(c, key);
            bad(c, v, "a string");
            pop(c, old);
            return -1;
        }
        if (kifu_record_header_add(c->r, key, json_string_value(v)))
            return nomem(c);
    }
    return 0;
}

static int read_square(ctx *c, json_t *sq, uint8_t *out)
{
    static const char *const keys[] = {"color", "kind", NULL};
    if (!json_is_object(sq))
        return bad(c, sq, "a square object ({} or {\"color\", \"kind\"})");
    if (check_keys(c, sq, keys))
        return -1;
    json_t *kv = json_object_get(sq, "kind");
    int color = -1;
    if (get_int(c, sq, "color", 0, 1, 0, 1, &color) < 0)
        return -1;
    if (!kv || json_is_null(kv)) {
        if (color >= 0) {
            size_t old = push_key(c, "kind");
            bad(c, kv, "a piece kind with the color");
            pop(c, old);
            return -1;
        }
        *out = 0;
        return 0;
    }
    size_t old = push_key(c, "kind");
    int kind = 0;
    int rc = get_kind(c, kv, 0, &kind);
    pop(c, old);
    if (rc)
        return -1;
    if (color < 0) {
        old = push_key(c, "color");
        bad(c, NULL, "0 or 1 with the kind");
        pop(c, old);
        return -1;
    }
    *out = (uint8_t)(kind | (color << 4));
    return 0;
}

static int read_board(ctx *c, json_t *b, kifu_board *out)
{
    if (json_is_object(b) && json_object_size(b) == 0)
        return 0; /* the schema's "no pieces" form */
    if (!json_is_array(b) || json_array_size(b) != 9)
        return bad(c, b, "an array of 9 columns (board[x-1][y-1])");
    for (size_t x = 0; x < 9; x++) {
        size_t old = push_index(c, x);
        json_t *col = json_array_get(b, x);
        if (!json_is_array(col) || json_array_size(col) != 9) {
            bad(c, col, "an array of 9 squares");
            return -1;
        }
        for (size_t y = 0; y < 9; y++) {
            size_t old2 = push_index(c, y);
            if (read_square(c, json_array_get(col, y), &out->sq[x * 9 + y]))
                return -1;
            pop(c, old2);
        }
        pop(c, old);
    }
    return 0;
}

static int read_hands(ctx *c, json_t *h, kifu_board *out)
{
    /* The keys a hand may have: every piece name (kinds that cannot be in hand are then
     * refused with a clearer message than "unknown key"). */
    static const char *const kinds[] = {
        kifu__csa_names[1],  kifu__csa_names[2],  kifu__csa_names[3],
        kifu__csa_names[4],  kifu__csa_names[5],  kifu__csa_names[6],
        kifu__csa_names[7],  kifu__csa_names[8],  kifu__csa_names[9],
        kifu__csa_names[10], kifu__csa_names[11], kifu__csa_names[12],
        kifu__csa_names[13], kifu__csa_names[14], NULL};
    if (!json_is_array(h) || json_array_size(h) != 2)
        return bad(c, h, "an array of 2 hands (sente, gote)");
    for (size_t i = 0; i < 2; i++) {
        size_t old = push_index(c, i);
        json_t *hand = json_array_get(h, i);
        if (!json_is_object(hand))
            return bad(c, hand, "an object {kind: count}");
        if (check_keys(c, hand, kinds))
            return -1;
        const char *key;
        json_t *v;
        json_object_foreach(hand, key, v)
        {
            int k = kifu_piece_from_csa(key), n = 0;
            if (get_int(c, hand, key, 0, 18, 1, 0, &n) < 0)
                return -1;
            if (n == 0)
                continue;
            if (k > KIFU_KI) {
                size_t o2 = push_key(c, key);
                bad(c, v, "0 (only FU, KY, KE, GI, KI, KA, HI can be in hand)");
                pop(c, o2);
                return -1;
            }
            out->hands[i][k] = (uint8_t)n;
        }
        pop(c, old);
    }
    return 0;
}

static int read_initial(ctx *c, json_t *ini)
{
    static const char *const keys[] = {"preset", "data", NULL};
    static const char *const dkeys[] = {"color", "board", "hands", NULL};
    if (json_is_null(ini))
        return 0;
    if (!json_is_object(ini))
        return bad(c, ini, "an object {preset, data} or null");
    if (check_keys(c, ini, keys))
        return -1;
    json_t *pv = json_object_get(ini, "preset");
    size_t old = push_key(c, "preset");
    int preset = json_is_string(pv) ? kifu_preset_from_name(json_string_value(pv))
                                    : KIFU_PRESET_NONE;
    if (preset == KIFU_PRESET_NONE)
        return bad(c, pv,
                   "a preset name (HIRATE, KY, KY_R, KA, HI, HIKY, 2, 3, 4, 5, 5_L, 6, "
                   "7_L, 7_R, 8, 10, OTHER)");
    pop(c, old);
    json_t *d = json_object_get(ini, "data");
    if (!d || json_is_null(d)) {
        if (preset == KIFU_PRESET_OTHER) {
            old = push_key(c, "data");
            return bad(c, d, "the position data for preset OTHER");
        }
        kifu_record_set_preset(c->r, preset);
        return 0;
    }
    /* Data with a named preset (a Kifu for iPhone habit): the data is what the board is. */
    old = push_key(c, "data");
    if (!json_is_object(d))
        return bad(c, d, "an object {color, board, hands}");
    if (check_keys(c, d, dkeys))
        return -1;
    kifu_board b;
    memset(&b, 0, sizeof b);
    int color = 0;
    if (get_int(c, d, "color", 0, 1, 1, 0, &color) < 0)
        return -1;
    b.color = (uint8_t)color;
    size_t o2 = push_key(c, "board");
    json_t *bv = json_object_get(d, "board");
    if (!bv)
        return bad(c, NULL, "the board");
    if (read_board(c, bv, &b))
        return -1;
    pop(c, o2);
    o2 = push_key(c, "hands");
    json_t *hv = json_object_get(d, "hands");
    if (!hv)
        return bad(c, NULL, "the hands");
    if (read_hands(c, hv, &b))
        return -1;
    pop(c, o2);
    pop(c, old);
    kifu_record_set_initial(c->r, &b);
    return 0;
}

/* ---- moves ---- */

static int read_comments(ctx *c, json_t *cm, kifu_node *n)
{
    if (!cm || json_is_null(cm))
        return 0;
    size_t old = push_key(c, "comments");
    if (!json_is_array(cm))
        return bad(c, cm, "an array of strings");
    for (size_t i = 0; i < json_array_size(cm); i++) {
        json_t *s = json_array_get(cm, i);
        if (!json_is_string(s)) {
            push_index(c, i);
            return bad(c, s, "a string");
        }
        if (kifu_node_add_comment(c->r, n, json_string_value(s)))
            return nomem(c);
    }
    pop(c, old);
    return 0;
}

static int read_time1(ctx *c, json_t *t, const char *key, kifu_time *out,
                      int hours_required)
{
    static const char *const keys[] = {"h", "m", "s", NULL};
    size_t old = push_key(c, key);
    if (!json_is_object(t))
        return bad(c, t, "a time {h?, m, s}");
    if (check_keys(c, t, keys))
        return -1;
    out->h = -1;
    out->ms = 0;
    if (get_int(c, t, "h", 0, 1000000, hours_required, 1, &out->h) < 0 ||
        get_int(c, t, "m", 0, 60000000, 1, 0, &out->m) < 0 ||
        get_int(c, t, "s", 0, 1000000, 1, 0, &out->s) < 0)
        return -1;
    pop(c, old);
    return 0;
}

static int read_time(ctx *c, json_t *t, kifu_node *n)
{
    static const char *const keys[] = {"now", "total", NULL};
    if (!t || json_is_null(t))
        return 0;
    size_t old = push_key(c, "time");
    if (!json_is_object(t))
        return bad(c, t, "an object {now, total} or null");
    if (check_keys(c, t, keys))
        return -1;
    kifu_move_time mt;
    memset(&mt, 0, sizeof mt);
    json_t *now = json_object_get(t, "now"), *total = json_object_get(t, "total");
    if (!now) {
        push_key(c, "now");
        return bad(c, NULL, "the time of the move");
    }
    if (read_time1(c, now, "now", &mt.now, 0))
        return -1;
    /* The schema requires total; a record without it gets totals from the normalizer. */
    if (total) {
        if (read_time1(c, total, "total", &mt.total, 0))
            return -1;
        mt.has_total = 1;
    } else {
        mt.total.h = -1;
    }
    pop(c, old);
    kifu_node_set_time(c->r, n, &mt);
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

static int read_move(ctx *c, json_t *mv, kifu_move *m)
{
    static const char *const keys[] = {"color",   "from",    "to",       "piece", "same",
                                       "promote", "capture", "relative", NULL};
    size_t old = push_key(c, "move");
    if (!json_is_object(mv))
        return bad(c, mv, "a move object");
    if (check_keys(c, mv, keys))
        return -1;
    memset(m, 0, sizeof *m);
    int color = -1;
    if (get_int(c, mv, "color", 0, 1, 0, 0, &color) < 0)
        return -1;
    if (color < 0)
        m->flags |= KIFU_MOVE_NO_COLOR; /* minimal JKF: the normalizer sets it */
    else
        m->color = (uint8_t)color;
    if (get_tristate(c, mv, "same", &m->same) ||
        get_tristate(c, mv, "promote", &m->promote))
        return -1;
    json_t *v = json_object_get(mv, "to");
    size_t o2 = push_key(c, "to");
    if (v || m->same != 1) {
        if (get_place(c, v, &m->to_x, &m->to_y))
            return -1;
    }
    pop(c, o2);
    v = json_object_get(mv, "from");
    if (!v || json_is_null(v)) {
        m->flags |= KIFU_MOVE_DROP | (v ? KIFU__MOVE_FROM_NULL : 0);
    } else {
        o2 = push_key(c, "from");
        if (get_place(c, v, &m->from_x, &m->from_y))
            return -1;
        pop(c, o2);
    }
    v = json_object_get(mv, "piece");
    o2 = push_key(c, "piece");
    if (v) {
        int k = 0;
        if (get_kind(c, v, 0, &k))
            return -1;
        m->piece = (uint8_t)k;
    } else if (m->flags & KIFU_MOVE_DROP) {
        return bad(c, NULL, "the piece kind of a drop");
    }
    pop(c, o2);
    v = json_object_get(mv, "capture");
    if (v && !json_is_null(v)) {
        int k = 0;
        o2 = push_key(c, "capture");
        if (get_kind(c, v, 1, &k))
            return -1;
        m->capture = (uint8_t)k;
        pop(c, o2);
    }
    v = json_object_get(mv, "relative");
    if (v && !json_is_null(v)) {
        o2 = push_key(c, "relative");
        if (!json_is_string(v) || !relative_ok(json_string_value(v)))
            return bad(c, v,
                       "a relative word (L, C, R, U, M, D, LU, CU, RU, LD, CD, RD, LM, "
                       "RM or H)");
        strcpy(m->relative, json_string_value(v));
        pop(c, o2);
    }
    /* Anything the source did not say is completed by the normalizer. */
    m->flags |= KIFU_MOVE_RAW;
    pop(c, old);
    return 0;
}

static int read_special(ctx *c, json_t *sp, const char **out)
{
    size_t old = push_key(c, "special");
    if (!json_is_string(sp))
        return bad(c, sp, "a special word (TORYO, CHUDAN, SENNICHITE, ...)");
    /* Known words (TORYO ... ERROR, MAX_MOVES) and unknown ones alike are kept verbatim. */
    *out = json_string_value(sp);
    pop(c, old);
    return 0;
}

/* One entry of a line (moves[i] with i >= 1, or an entry of a fork): a child of parent.
 * Returns the new node, or NULL on error. */
static kifu_node *read_entry(ctx *c, json_t *e, kifu_node *parent)
{
    static const char *const keys[] = {"comments", "move",  "time",
                                       "special",  "forks", NULL};
    if (!json_is_object(e)) {
        bad(c, e, "a move entry object");
        return NULL;
    }
    if (check_keys(c, e, keys))
        return NULL;
    json_t *mv = json_object_get(e, "move"), *sp = json_object_get(e, "special");
    if (mv && json_is_null(mv))
        mv = NULL;
    if (sp && json_is_null(sp))
        sp = NULL;
    kifu_node *n;
    if (mv && sp) {
        size_t old = push_key(c, "special");
        bad(c, sp, "no special word on an entry that has a move");
        pop(c, old);
        return NULL;
    } else if (mv) {
        kifu_move m;
        if (read_move(c, mv, &m))
            return NULL;
        n = kifu_node_add_move(c->r, parent, &m);
    } else if (sp) {
        const char *word = NULL;
        if (read_special(c, sp, &word))
            return NULL;
        n = kifu_node_add_special(c->r, parent, word);
    } else {
        bad(c, NULL, "a \"move\" or a \"special\"");
        return NULL;
    }
    if (!n) {
        nomem(c);
        return NULL;
    }
    if (read_comments(c, json_object_get(e, "comments"), n) ||
        read_time(c, json_object_get(e, "time"), n))
        return NULL;
    return n;
}

static int read_line(ctx *c, json_t *arr, size_t first, kifu_node *parent, int depth);

/* The forks of entry e (alternatives to it): new children of parent. */
static int read_forks(ctx *c, json_t *e, kifu_node *parent, int depth)
{
    json_t *f = json_object_get(e, "forks");
    if (!f || json_is_null(f))
        return 0;
    size_t old = push_key(c, "forks");
    if (!json_is_array(f))
        return bad(c, f, "an array of forks (arrays of move entries)");
    for (size_t k = 0; k < json_array_size(f); k++) {
        size_t o2 = push_index(c, k);
        json_t *line = json_array_get(f, k);
        if (!json_is_array(line))
            return bad(c, line, "a fork (an array of move entries)");
        if (read_line(c, line, 0, parent, depth + 1))
            return -1;
        pop(c, o2);
    }
    pop(c, old);
    return 0;
}

/* Entries arr[first..] as a line below parent. Iterative along the line. */
static int read_line(ctx *c, json_t *arr, size_t first, kifu_node *parent, int depth)
{
    if (depth > 10000)
        return bad(c, arr, "forks nested less deeply");
    size_t n = json_array_size(arr);
    for (size_t i = first; i < n; i++) {
        json_t *e = json_array_get(arr, i);
        size_t old = push_index(c, i);
        kifu_node *node = read_entry(c, e, parent);
        if (!node)
            return -1;
        if (read_forks(c, e, parent, depth))
            return -1;
        pop(c, old);
        parent = node; /* JKF tools keep entries after a special (e.g. a second KACHI) */
    }
    return 0;
}

static int read_root_entry(ctx *c, json_t *e)
{
    /* moves[0] stands for the start position: comments only. The schema names a single
     * "comment" string there while JKF tools write "comments": both are taken (a
     * "comment" becomes the first comment line). */
    static const char *const keys[] = {"comments", "comment", NULL};
    size_t old = push_index(c, 0);
    if (!json_is_object(e))
        return bad(c, e, "an object with the comments on the start position");
    if (check_keys(c, e, keys))
        return -1;
    json_t *one = json_object_get(e, "comment");
    if (one && !json_is_null(one)) {
        size_t o2 = push_key(c, "comment");
        if (!json_is_string(one))
            return bad(c, one, "a string");
        if (kifu_node_add_comment(c->r, c->r->root, json_string_value(one)))
            return nomem(c);
        pop(c, o2);
    }
    if (read_comments(c, json_object_get(e, "comments"), c->r->root))
        return -1;
    pop(c, old);
    return 0;
}

static int read_record(ctx *c, json_t *root)
{
    static const char *const keys[] = {"header", "initial", "moves", NULL};
    if (!json_is_object(root))
        return bad(c, root, "a JKF object {header, initial?, moves}");
    if (check_keys(c, root, keys))
        return -1;
    json_t *h = json_object_get(root, "header");
    size_t old = push_key(c, "header");
    if (!h)
        return bad(c, NULL, "the header object (may be {})");
    if (read_header(c, h))
        return -1;
    pop(c, old);
    json_t *ini = json_object_get(root, "initial");
    if (ini) {
        old = push_key(c, "initial");
        if (read_initial(c, ini))
            return -1;
        pop(c, old);
    }
    json_t *mv = json_object_get(root, "moves");
    old = push_key(c, "moves");
    if (!mv || !json_is_array(mv))
        return bad(c, mv, "the moves array");
    if (json_array_size(mv) > 0) {
        if (read_root_entry(c, json_array_get(mv, 0)))
            return -1;
        if (read_line(c, mv, 1, c->r->root, 0))
            return -1;
    }
    pop(c, old);
    return 0;
}

int kifu__read_jkf(KIFU__READER_PARAMS)
{
    (void)opt;
    json_error_t je;
    /* A repeated key would silently hide the first value: report it instead. */
    json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
    if (!root) {
        int code = json_error_code(&je) == json_error_out_of_memory ? KIFU_ERR_NOMEM
                                                                    : KIFU_ERR_SYNTAX;
        return kifu__error(err, code, je.line > 0 ? je.line : 0,
                           je.column > 0 ? je.column : 0,
                           je.position > 0 ? (size_t)je.position : 0, "valid JSON",
                           je.text, "JSON syntax: %s", je.text);
    }
    ctx c;
    memset(&c, 0, sizeof c);
    c.err = err;
    c.r = kifu_record_new();
    int rc = c.r ? read_record(&c, root) : nomem(&c);
    json_decref(root);
    if (rc) {
        kifu_record_free(c.r);
        return -1;
    }
    return kifu__records_push(out, c.r) ? nomem(&c) : 0;
}

/* JSON: the first thing in the text opens an object or an array. */
int kifu__sniff_jkf(const char *text, size_t len, size_t *at)
{
    const char *s = text, *eol, *p = kifu__next_line(&s, text + len, &eol);
    if (!p || (*p != '{' && *p != '['))
        return 0;
    *at = (size_t)(p - text);
    return 10;
}
