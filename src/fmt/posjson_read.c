/* posjson_read.c: the position-list JSON reader (../shared/seeds/002, README "posjson").
 *
 * The file is a list of positions; records come out of it. An entry that follows the one
 * before it by a legal move adds that move (recovered from the two positions, `mv` tried
 * first); an entry with `prev` follows that earlier entry instead (a fork); any other entry
 * starts a new record, so a catalogue of diagrams reads as one record per position and a
 * tsume file as the problem and its lines; `game` starts a record whatever came before.
 * Only `bd` is required. The document's own
 * example ends an object with a comma (`"cw":"",}`): such commas are read, with a warning. */
#include <jansson.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "fmt/fmt.h"
#include "kifu_private.h"
#include "notation/bd.h"

/* Where an entry landed: its record and node, and the position there. */
typedef struct placed {
    kifu_record *r;
    kifu_node *n;
    kifu_board b;
    int free_turn; /* a record's start without `turn`: its first move may be either side's */
} placed;

typedef struct rd {
    const kifu_read_options *opt;
    kifu_error *err;
    kifu__records *out;
    const char *text;
    size_t *start; /* byte offset of each entry's `{` */
    size_t nstart, capstart;
    placed *at;
    kifu_position *p;            /* the position at the last entry placed */
    size_t last;                 /* index of the last entry placed */
    char bd[82], cb[40], cw[40]; /* scratch */
} rd;

#define warn(d, ...)                                                                     \
    kifu__warn((d)->opt ? (d)->opt->warn : NULL, (d)->opt ? (d)->opt->warn_ctx : NULL,   \
               __VA_ARGS__)

/* Line and column (1-based, in characters) of byte offset off. */
static void line_col(const char *text, size_t off, int *line, int *col)
{
    const char *ls = text;
    *line = 1;
    for (const char *p = text; p < text + off; p++)
        if (*p == '\n')
            (*line)++, ls = p + 1;
    *col = kifu__utf8_column(ls, (size_t)(text + off - ls)) + 1;
}

/* An error at entry i (placed at its `{`), naming the field. */
static int fail(const rd *d, size_t i, const char *field, const char *expected,
                const char *found, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
static int fail(const rd *d, size_t i, const char *field, const char *expected,
                const char *found, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    int line = 0, col = 0;
    size_t off = i < d->nstart ? d->start[i] : 0;
    if (i < d->nstart)
        line_col(d->text, off, &line, &col);
    return kifu__error(d->err, KIFU_ERR_SYNTAX, line, col, off, expected, found,
                       "entry %zu, %s: %s", i, field, msg);
}

static int nomem(const rd *d)
{
    return kifu__error(d->err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
}

/* One pass over the text outside strings: the offset of every entry (a value inside the
 * top-level array) and every trailing comma (a `,` whose next non-blank character closes
 * an object or array), which is blanked in `copy` so that the JSON parser accepts it. */
static int prescan(rd *d, char *copy, size_t len)
{
    int depth = 0, in_string = 0, want = 0; /* want: an entry may start here */
    for (size_t i = 0; i < len; i++) {
        char c = copy[i];
        if (in_string) {
            if (c == '\\')
                i++;
            else if (c == '"')
                in_string = 0;
            continue;
        }
        if (want && depth == 1 && c != ' ' && c != '\t' && c != '\r' && c != '\n' &&
            c != ']' && c != ',') {
            if (kifu__reserve(&d->start, &d->capstart, d->nstart + 1, sizeof *d->start,
                              64))
                return nomem(d);
            d->start[d->nstart++] = i;
            want = 0;
        }
        if (c == ',' && depth == 1)
            want = 1;
        if (c == '"') {
            in_string = 1;
        } else if (c == '[' || c == '{') {
            want = depth == 0;
            depth++;
        } else if (c == ']' || c == '}') {
            depth--;
        } else if (c == ',') {
            size_t j = i + 1;
            while (j < len && (copy[j] == ' ' || copy[j] == '\t' || copy[j] == '\r' ||
                               copy[j] == '\n'))
                j++;
            if (j < len && (copy[j] == '}' || copy[j] == ']')) {
                int line, col;
                line_col(copy, i, &line, &col);
                warn(d,
                     "line %d, column %d: a comma before '%c' (not JSON; read as if "
                     "absent)",
                     line, col, copy[j]);
                copy[i] = ' ';
            }
        }
    }
    return 0;
}

static const char *const known[] = {
    "bd",  "cb",   "cw",       "sid",       "mv",  "turn", "ply",    "move",
    "usi", "time", "comments", "bookmarks", "end", "prev", "header", "game"};

/* A string member, or NULL when absent; -1 through *bad when it is not a string. */
static const char *string_of(const rd *d, size_t i, json_t *e, const char *key, int *bad)
{
    json_t *v = json_object_get(e, key);
    if (!v)
        return NULL;
    if (!json_is_string(v)) {
        *bad = fail(d, i, key, "a string", "another JSON type", "not a string");
        return NULL;
    }
    return json_string_value(v);
}

/* The position of entry i: bd, cb, cw, and turn (-1 when not given). */
static int position_of(const rd *d, size_t i, json_t *e, kifu_board *b, int *turn)
{
    int bad = 0;
    const char *bd = string_of(d, i, e, "bd", &bad);
    if (bad)
        return -1;
    if (!bd)
        return fail(d, i, "bd", "81 board letters", "nothing", "the board is missing");
    memset(b, 0, sizeof *b);
    size_t at = 0, len = strlen(bd);
    while (at < len && at < 81 && kifu__bd_piece(bd[at]) >= 0)
        at++;
    static const char letters[] = "81 letters of a c e g i k m 1 3 5 7 q s u (sente), "
                                  "b d f h j l n 2 4 6 8 r t v (gote), o (empty)";
    if (at < len && at < 81) {
        char found[4] = {bd[at], 0};
        return fail(d, i, "bd", letters, found, "letter %zu is not a board letter",
                    at + 1);
    }
    if (len != 81) {
        char found[32];
        snprintf(found, sizeof found, "%zu letters", len);
        return fail(d, i, "bd", letters, found, "the board is %zu letters long, not 81",
                    len);
    }
    kifu__bd_read_board(bd, len, b, &at);
    static const char *const hands[2] = {"cb", "cw"};
    for (int c = 0; c < 2; c++) {
        const char *h = string_of(d, i, e, hands[c], &bad);
        if (bad)
            return -1;
        if (h && kifu__bd_read_hand(h, strlen(h), c, b, &at)) {
            char found[4] = {h[at], 0};
            return fail(d, i, hands[c], "hand letters (歩 香 桂 銀 金 角 飛)", found,
                        "letter %zu: not a piece a hand can hold", at + 1);
        }
    }
    *turn = -1;
    const char *t = string_of(d, i, e, "turn", &bad);
    if (bad)
        return -1;
    if (t) {
        if (strcmp(t, "b") && strcmp(t, "w"))
            return fail(d, i, "turn", "\"b\" or \"w\"", t, "not a side");
        *turn = *t == 'w';
    }
    b->color = (uint8_t)(*turn == 1);
    return 0;
}

/* An integer member in [lo, hi], or `none` when absent. */
static int int_of(const rd *d, size_t i, json_t *e, const char *key, long lo, long hi,
                  long none, long *out)
{
    json_t *v = json_object_get(e, key);
    *out = none;
    if (!v)
        return 0;
    if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi) {
        char want[64];
        snprintf(want, sizeof want, "an integer from %ld to %ld", lo, hi);
        return fail(d, i, key, want, json_is_integer(v) ? "out of range" : "another type",
                    "not %s", want);
    }
    *out = (long)json_integer_value(v);
    return 0;
}

/* A new record starting at b (from entry i); its node is the root. */
static int start_record(rd *d, size_t i, kifu_board *b, int turn, placed *pl)
{
    kifu_error e = {0};
    /* Without `turn`, sente moves unless the position says otherwise (gote's king in
     * check, as in a diagram of a mate: then gote is to move). */
    if (kifu_position_set_board(d->p, b, &e)) {
        kifu_board other = *b;
        other.color ^= 1;
        if (turn >= 0 || kifu_position_set_board(d->p, &other, NULL))
            return fail(d, i, "bd", "a position the rules allow", e.found, "%s",
                        e.message);
        *b = other;
    }
    kifu_record *r = kifu_record_new();
    if (!r || kifu__records_push(d->out, r) || kifu__record_start(r, b))
        return nomem(d);
    *pl = (placed){r, kifu_record_root(r), *b, turn < 0};
    return 0;
}

/* Play the move from the position at `from` to b (the side to move tried both ways when
 * the record's start did not say it). 1 when no legal move leads there. */
static int follow(rd *d, size_t i, const placed *from, kifu_board *b, int turn, long mv,
                  placed *pl)
{
    kifu_move m;
    int to = 0;
    if (mv > 0) {
        int x, y;
        kifu__bd_square((int)mv, &x, &y);
        to = KIFU_SQ(x, y) + 1;
    }
    kifu_board base = from->b, target = *b; /* b stays as read when no move leads there */
    int tries = from->free_turn && !kifu_node_child_count(from->n) ? 2 : 1;
    for (int k = 0; k < tries; k++) {
        if (k)
            base.color ^= 1;
        if (kifu_position_set_board(d->p, &base, NULL))
            continue;
        target.color = (uint8_t)!base.color;
        int found = kifu__move_between(d->p, &target, to, &m);
        if (found == -2)
            return nomem(d);
        if (found)
            continue;
        if (k && kifu__record_start(from->r, &base))
            return nomem(d);
        if (turn >= 0 && turn != target.color)
            warn(d, "entry %zu: turn says %s, the move makes it %s", i, turn ? "w" : "b",
                 target.color ? "w" : "b");
        kifu_node *n = kifu_node_add_move(from->r, from->n, &m);
        if (!n)
            return nomem(d);
        *b = target;
        *pl = (placed){from->r, n, target, 0};
        return 0;
    }
    return 1;
}

/* Comments, bookmarks and time of entry i on node n. */
static int extras(rd *d, size_t i, json_t *e, kifu_record *r, kifu_node *n)
{
    static const char *const lists[2] = {"comments", "bookmarks"};
    for (int k = 0; k < 2; k++) {
        json_t *a = json_object_get(e, lists[k]), *v;
        size_t j;
        if (a && !json_is_array(a))
            return fail(d, i, lists[k], "an array of strings", "another type",
                        "not an array");
        json_array_foreach(a, j, v)
        {
            if (!json_is_string(v))
                return fail(d, i, lists[k], "a string", "another type", "item %zu", j);
            if ((k ? kifu_node_add_bookmark
                   : kifu_node_add_comment)(r, n, json_string_value(v)))
                return nomem(d);
        }
    }
    json_t *t = json_object_get(e, "time");
    if (t) {
        json_t *now = json_object_get(t, "now"), *total = json_object_get(t, "total");
        if (!json_is_object(t) || !json_is_number(now) ||
            (total && !json_is_number(total)))
            return fail(d, i, "time", "{\"now\": seconds, \"total\": seconds}",
                        "another form", "not a time");
        if (kifu_node_kind_of(n) == KIFU_NODE_ROOT)
            return fail(d, i, "time", "a time on a move", "a time on a start position",
                        "only a move has a time");
        kifu_move_time mt = {0};
        double s = json_number_value(now);
        mt.now = kifu_time_from_seconds((long)s, 0);
        mt.now.ms = (int)((s - (long)s) * 1000 + 0.5);
        if (total) {
            s = json_number_value(total);
            mt.total = kifu_time_from_seconds((long)s, 1);
            mt.total.ms = (int)((s - (long)s) * 1000 + 0.5);
            mt.has_total = 1;
        }
        if (kifu_node_set_time(r, n, &mt))
            return nomem(d);
    }
    json_t *h = json_object_get(e, "header"), *v;
    const char *key;
    if (h && !json_is_object(h))
        return fail(d, i, "header", "an object of strings", "another type",
                    "not an object");
    json_object_foreach(h, key, v)
    {
        if (!json_is_string(v))
            return fail(d, i, "header", "a string", "another type", "the value of \"%s\"",
                        key);
        if (kifu_record_header_add(r, key, json_string_value(v)))
            return nomem(d);
    }
    return 0;
}

static int entry(rd *d, size_t i, json_t *e)
{
    if (!json_is_object(e))
        return fail(d, i, "the entry", "an object", "another JSON type", "not an object");
    const char *key;
    json_t *v;
    json_object_foreach(e, key, v)
    {
        size_t k = 0;
        while (k < sizeof known / sizeof known[0] && strcmp(key, known[k]))
            k++;
        if (k == sizeof known / sizeof known[0])
            warn(d, "entry %zu: the key \"%s\" is not one kifu knows; it was not read", i,
                 key);
    }
    kifu_board b;
    int turn, bad = 0;
    long mv, prev, game;
    if (position_of(d, i, e, &b, &turn) || int_of(d, i, e, "mv", 1, 81, 0, &mv) ||
        int_of(d, i, e, "prev", 0, (long)i - 1, -1, &prev) ||
        int_of(d, i, e, "game", 1, LONG_MAX, 0, &game))
        return -1;
    const char *end = string_of(d, i, e, "end", &bad);
    if (bad)
        return -1;
    /* `game` starts a record whatever came before. */
    const placed *from = prev >= 0 ? &d->at[prev] : i && !game ? &d->at[d->last] : NULL;
    placed *pl = &d->at[i];
    int rc = 1;
    /* An ending with a position of its own: the same position as where it ends. */
    if (from && end && !mv && memcmp(from->b.sq, b.sq, sizeof b.sq) == 0 &&
        memcmp(from->b.hands, b.hands, sizeof b.hands) == 0) {
        *pl = *from;
        kifu_node *sp = kifu_node_add_special(pl->r, pl->n, end);
        if (!sp)
            return nomem(d);
        if (extras(d, i, e, pl->r, sp))
            return -1;
        d->last = i;
        return 0;
    }
    if (from && (rc = follow(d, i, from, &b, turn, mv, pl)) < 0)
        return -1;
    if (rc && prev >= 0) {
        char want[64];
        snprintf(want, sizeof want, "the position one move after entry %ld", prev);
        return fail(d, i, "prev", want, "another position",
                    "no legal move leads from entry %ld to this one", prev);
    }
    if (rc && start_record(d, i, &b, turn, pl))
        return -1;
    if (extras(d, i, e, pl->r, pl->n))
        return -1;
    if (end && !kifu_node_add_special(pl->r, pl->n, end))
        return nomem(d);
    d->last = i;
    return 0;
}

int kifu__read_posjson(KIFU__READER_PARAMS)
{
    rd d = {.opt = opt, .err = err, .out = out, .text = text};
    char *copy = kifu__malloc(len + 1);
    if (!copy)
        return nomem(&d);
    memcpy(copy, text, len);
    copy[len] = 0;
    int rc = -1;
    json_t *root = NULL;
    if (prescan(&d, copy, len))
        goto done;
    json_error_t je;
    root = json_loadb(copy, len, 0, &je);
    if (!root) {
        kifu__error(err,
                    json_error_code(&je) == json_error_out_of_memory ? KIFU_ERR_NOMEM
                                                                     : KIFU_ERR_SYNTAX,
                    je.line > 0 ? je.line : 0, je.column > 0 ? je.column : 0,
                    je.position > 0 ? (size_t)je.position : 0, "valid JSON", je.text,
                    "JSON syntax: %s", je.text);
        goto done;
    }
    if (!json_is_array(root)) {
        kifu__error(err, KIFU_ERR_SYNTAX, 1, 1, 0, "an array of positions",
                    "another JSON type", "posjson is a JSON array");
        goto done;
    }
    size_t n = json_array_size(root);
    d.at = kifu__calloc(n ? n : 1, sizeof *d.at);
    d.p = kifu_position_new();
    if (!d.at || !d.p) {
        nomem(&d);
        goto done;
    }
    for (size_t i = 0; i < n; i++)
        if (entry(&d, i, json_array_get(root, i)))
            goto done;
    rc = 0;
done:
    json_decref(root);
    kifu_position_free(d.p);
    kifu__free(d.at);
    kifu__free(d.start);
    kifu__free(copy);
    return rc;
}

/* posjson: a JSON array whose first object has a `bd` key. A strong bid (JKF bids on any
 * JSON), at the `[`. */
int kifu__sniff_posjson(const char *text, size_t len, size_t *at)
{
    const char *s = text, *eol, *p = kifu__next_line(&s, text + len, &eol);
    if (!p || *p != '[')
        return 0;
    size_t rest = (size_t)(text + len - p);
    const char *obj = memchr(p, '{', rest < 64 ? rest : 64);
    if (!obj)
        return 0;
    /* The first object's keys: `bd` among them, before it closes. */
    const char *close = memchr(obj, '}', (size_t)(text + len - obj));
    size_t span = (size_t)((close ? close : text + len) - obj);
    for (const char *q = obj; q + 4 <= obj + span; q++)
        if (memcmp(q, "\"bd\"", 4) == 0) {
            *at = (size_t)(p - text);
            return 20;
        }
    return 0;
}
