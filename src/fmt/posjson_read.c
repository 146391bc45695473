/* posjson_read.c: the position-list JSON reader (../shared/seeds/002; docs/formats.md "posjson").
 *
 * The file is a list of positions; records come out of it. An entry that follows the one
 * before it by a legal move adds that move (recovered from the two positions, `mv` tried
 * first); an entry with `prev` follows that earlier entry instead (a fork); any other entry
 * starts a new record, so a catalogue of diagrams reads as one record per position and a
 * tsume file as the problem and its lines; `game` starts a record whatever came before.
 * Only `bd` is required. The document's own
 * example ends an object with a comma (`"cw":"",}`): such commas are read, with a warning.
 * The text is read as a stream of JSON tokens (core/json.h): no JSON tree is held, only
 * the current entry's members and where every entry landed. */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/json.h"
#include "core/strbuf.h"
#include "fmt/fmt.h"
#include "kifu_private.h"
#include "notation/bd.h"
#include "record/record.h"
#include "rules/engine.h"

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
    size_t len;
    kifu__json doc, sub; /* the document's parser; one that goes back to a member */
    kifu__strbuf sb;     /* the current entry's strings */
    size_t entry_off;    /* byte offset of the current entry's `{` */
    placed *at;          /* where each entry landed (`prev` may name any earlier one) */
    size_t capat;
    kifu_position *p; /* the position at the last entry placed */
    size_t last;      /* index of the last entry placed */
} rd;

#define warn(d, ...)                                                                     \
    kifu__warn((d)->opt ? (d)->opt->warn : NULL, (d)->opt ? (d)->opt->warn_ctx : NULL,   \
               __VA_ARGS__)

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
    int line, col;
    kifu__text_where(d->text, d->entry_off, &line, &col);
    return kifu__error(d->err, KIFU_ERR_SYNTAX, line, col, d->entry_off, expected, found,
                       "entry %zu, %s: %s", i, field, msg);
}

static int nomem(const rd *d)
{
    return kifu__error(d->err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
}

/* The members of one entry, as read: strings copied into d->sb (NUL-terminated, at
 * str[k]), integers kept, lists and objects by the offset of their value, read again
 * (d->sub) when the entry is placed. */
static const char *const known[] = {
    "bd",  "cb",   "cw",       "sid",       "mv",  "turn", "ply",    "move",
    "usi", "time", "comments", "bookmarks", "end", "prev", "header", "game"};
enum {
    K_BD,
    K_CB,
    K_CW,
    K_SID,
    K_MV,
    K_TURN,
    K_PLY,
    K_MOVE,
    K_USI,
    K_TIME,
    K_COMMENTS,
    K_BOOKMARKS,
    K_END,
    K_PREV,
    K_HEADER,
    K_GAME,
    K_COUNT
};

typedef struct vals {
    uint32_t has;         /* a bit per key given */
    int type[K_COUNT];    /* kifu__json_type of the value */
    size_t str[K_COUNT];  /* a string: its offset in d->sb */
    size_t off[K_COUNT];  /* the value's byte offset in the text */
    int is_int[K_COUNT];  /* a number without fraction or exponent ... */
    long long i[K_COUNT]; /* ... and its value */
} vals;

/* A string member, or NULL when absent; -1 through *bad when it is not a string. */
static const char *string_of(const rd *d, size_t i, const vals *e, int key, int *bad)
{
    if (!(e->has & 1u << key))
        return NULL;
    if (e->type[key] != KIFU__JSON_STRING) {
        *bad = fail(d, i, known[key], "a string", "another JSON type", "not a string");
        return NULL;
    }
    return d->sb.data + e->str[key];
}

/* The position of entry i: bd, cb, cw, and turn (-1 when not given). */
static int position_of(const rd *d, size_t i, const vals *e, kifu_board *b, int *turn)
{
    int bad = 0;
    const char *bd = string_of(d, i, e, K_BD, &bad);
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
    static const int hands[2] = {K_CB, K_CW};
    for (int c = 0; c < 2; c++) {
        const char *h = string_of(d, i, e, hands[c], &bad);
        if (bad)
            return -1;
        if (h && kifu__bd_read_hand(h, strlen(h), c, b, &at)) {
            char found[4] = {h[at], 0};
            return fail(d, i, known[hands[c]], "hand letters (歩 香 桂 銀 金 角 飛)",
                        found, "letter %zu: not a piece a hand can hold", at + 1);
        }
    }
    *turn = -1;
    const char *t = string_of(d, i, e, K_TURN, &bad);
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
static int int_of(const rd *d, size_t i, const vals *e, int key, long lo, long hi,
                  long none, long *out)
{
    *out = none;
    if (!(e->has & 1u << key))
        return 0;
    int is_int = e->type[key] == KIFU__JSON_NUMBER && e->is_int[key];
    if (!is_int || e->i[key] < lo || e->i[key] > hi) {
        char want[64];
        snprintf(want, sizeof want, "an integer from %ld to %ld", lo, hi);
        return fail(d, i, known[key], want, is_int ? "out of range" : "another type",
                    "not %s", want);
    }
    *out = (long)e->i[key];
    return 0;
}

/* The member to blame for a start the rules refuse: a hand when the board alone would
 * do (too many pieces of a kind counted with cb or cw), else the board. */
static const char *start_field(rd *d, const kifu_board *b)
{
    int ok[2];
    for (int c = 0; c < 2; c++) {
        kifu_board t = *b;
        memset(t.hands[c], 0, sizeof t.hands[c]);
        ok[c] = kifu__position_set_board_loose(d->p, &t, NULL) == 0;
    }
    if (ok[0] != ok[1])
        return ok[0] ? "cb" : "cw";
    kifu_board t = *b;
    memset(t.hands, 0, sizeof t.hands);
    if (ok[0] || kifu__position_set_board_loose(d->p, &t, NULL) == 0)
        return "cb and cw";
    return "bd";
}

/* A new record starting at b (from entry i); its node is the root. */
static int start_record(rd *d, size_t i, kifu_board *b, int turn, placed *pl)
{
    kifu_error e = {0};
    /* A start is checked as every reader's record start is (kings and piece counts
     * only): real records start from positions no game reaches, such as nine pawns on one
     * file, and kifu writes them; a stricter check here refused its own output. */
    if (kifu__position_set_board_loose(d->p, b, &e))
        return fail(d, i, start_field(d, b), "a position the rules allow", e.found, "%s",
                    e.message);
    /* Without `turn`, sente moves unless the position says otherwise (gote's king in
     * check, as in a diagram of a mate: then gote is to move). */
    if (turn < 0 && kifu_position_set_board(d->p, b, NULL)) {
        kifu_board other = *b;
        other.color ^= 1;
        if (kifu_position_set_board(d->p, &other, NULL) == 0)
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
        /* The position reached is checked loosely, as the start was; the other side to
         * move is only a guess, taken when the rules allow that position. */
        if (k ? kifu_position_set_board(d->p, &base, NULL)
              : kifu__position_set_board_loose(d->p, &base, NULL))
            continue;
        target.color = (uint8_t)!base.color;
        int found = kifu__move_between(d->p, &target, to, &m);
        if (found == -2)
            return nomem(d);
        /* No legal move leads there: a forbidden move (a game that ended by a foul, as
         * kifu writes one) to the square the entry names (`mv`: unrelated positions
         * start a record of their own) is read from what changed, raw: the normalizer
         * checks it, keeps it when it ends its line and names it when more follow. */
        if (found && (k || !to || kifu__move_by_change(&base, &target, &m) ||
                      KIFU_SQ(m.to_x, m.to_y) + 1 != to))
            continue;
        if (k && kifu__record_start(from->r, &base))
            return nomem(d);
        if (turn >= 0 && turn != target.color)
            warn(d, "entry %zu: turn says %s, the move makes it %s", i, turn ? "w" : "b",
                 target.color ? "w" : "b");
        kifu_node *n = kifu_node_add_move(from->r, from->n, &m);
        if (!n)
            return nomem(d);
        /* The move's place in the file is its entry's (errors after reading, such as a
         * foul found by the record's check, name it); entries come in text order. */
        kifu__node_src(n, d->entry_off);
        *b = target;
        *pl = (placed){from->r, n, target, 0};
        return 0;
    }
    return 1;
}

/* The value at byte off, read again by d->sub: its first token into *t. 0, or -1. */
static int revisit(rd *d, size_t off, kifu__json_tok *t)
{
    kifu__json_rewind(&d->sub, off);
    return kifu__json_next(&d->sub, t) == KIFU__JSON_ERROR ? nomem(d) : 0;
}

/* A JSON number as a double, from its literal (no locale: the text's '.' is the point). */
static double number(const kifu__json_tok *t)
{
    const char *s = t->s, *end = t->s + t->n;
    int neg = s < end && *s == '-';
    s += neg;
    double v = 0, scale = 1;
    for (; s < end && *s >= '0' && *s <= '9'; s++)
        v = v * 10 + (*s - '0');
    if (s < end && *s == '.')
        for (s++; s < end && *s >= '0' && *s <= '9'; s++)
            v += (*s - '0') * (scale /= 10);
    if (s < end && (*s == 'e' || *s == 'E')) {
        int eneg = *++s == '-', ex = 0;
        s += *s == '-' || *s == '+';
        for (; s < end && *s >= '0' && *s <= '9' && ex < 400; s++)
            ex = ex * 10 + (*s - '0');
        while (ex-- > 0)
            v = eneg ? v / 10 : v * 10;
    }
    return neg ? -v : v;
}

/* Seconds of a time member: {"now": seconds, "total": seconds}. 1 with both read (total
 * may be absent: *has_total 0), 0 when the form is wrong, -1 NOMEM. */
static int time_of(rd *d, size_t off, double *now, double *total, int *has_total)
{
    kifu__json_tok t;
    int has_now = 0;
    *has_total = 0;
    if (revisit(d, off, &t))
        return -1;
    if (t.type != KIFU__JSON_OBJECT)
        return 0;
    while (kifu__json_next(&d->sub, &t) == KIFU__JSON_KEY) {
        int k = strcmp(t.s, "now") == 0 ? 1 : strcmp(t.s, "total") == 0 ? 2 : 0;
        if (kifu__json_next(&d->sub, &t) == KIFU__JSON_ERROR)
            return nomem(d);
        if (k && t.type != KIFU__JSON_NUMBER)
            return 0;
        if (k == 1)
            *now = number(&t), has_now = 1;
        else if (k == 2)
            *total = number(&t), *has_total = 1;
        else if (kifu__json_skip(&d->sub, &t))
            return nomem(d);
    }
    return has_now;
}

/* Comments, bookmarks and time of entry i on node n. */
static int extras(rd *d, size_t i, const vals *e, kifu_record *r, kifu_node *n)
{
    static const int lists[2] = {K_COMMENTS, K_BOOKMARKS};
    kifu__json_tok t;
    for (int k = 0; k < 2; k++) {
        int key = lists[k];
        if (!(e->has & 1u << key))
            continue;
        if (e->type[key] != KIFU__JSON_ARRAY)
            return fail(d, i, known[key], "an array of strings", "another type",
                        "not an array");
        if (revisit(d, e->off[key], &t))
            return -1;
        for (size_t j = 0; kifu__json_next(&d->sub, &t) != KIFU__JSON_ARRAY_END; j++) {
            if (t.type != KIFU__JSON_STRING)
                return fail(d, i, known[key], "a string", "another type", "item %zu", j);
            if ((k ? kifu_node_add_bookmark : kifu_node_add_comment)(r, n, t.s))
                return nomem(d);
        }
    }
    if (e->has & 1u << K_TIME) {
        double now = 0, total = 0;
        int has_total = 0;
        int ok = e->type[K_TIME] == KIFU__JSON_OBJECT
                     ? time_of(d, e->off[K_TIME], &now, &total, &has_total)
                     : 0;
        if (ok < 0)
            return -1;
        if (!ok)
            return fail(d, i, "time", "{\"now\": seconds, \"total\": seconds}",
                        "another form", "not a time");
        /* Whole seconds go through a long: a number past its range (or NaN) is refused
         * here rather than cast (undefined; fuzz_posjson found 5e97). */
        if (!(now >= 0 && now < 2147483648.0) || !(total >= 0 && total < 2147483648.0))
            return fail(d, i, "time", "seconds from 0 to 2147483647",
                        "a number out of range", "seconds out of range");
        if (kifu_node_kind_of(n) == KIFU_NODE_ROOT)
            return fail(d, i, "time", "a time on a move", "a time on a start position",
                        "only a move has a time");
        kifu_move_time mt = {0};
        mt.now = kifu_time_from_seconds((long)now, 0);
        mt.now.ms = (int)((now - (long)now) * 1000 + 0.5);
        if (has_total) {
            mt.total = kifu_time_from_seconds((long)total, 1);
            mt.total.ms = (int)((total - (long)total) * 1000 + 0.5);
            mt.has_total = 1;
        }
        if (kifu__time_set(n, &mt))
            return nomem(d);
    }
    if (e->has & 1u << K_HEADER) {
        if (e->type[K_HEADER] != KIFU__JSON_OBJECT)
            return fail(d, i, "header", "an object of strings", "another type",
                        "not an object");
        if (revisit(d, e->off[K_HEADER], &t))
            return -1;
        while (kifu__json_next(&d->sub, &t) == KIFU__JSON_KEY) {
            kifu__json_tok key = t; /* readable through the value's token */
            if (kifu__json_next(&d->sub, &t) == KIFU__JSON_ERROR)
                return nomem(d);
            if (t.type != KIFU__JSON_STRING)
                return fail(d, i, "header", "a string", "another type",
                            "the value of \"%s\"", key.s);
            if (kifu_record_header_add(r, key.s, t.s))
                return nomem(d);
        }
    }
    return 0;
}

/* The `sid` of entry i (a string or a number, kept as given), onto node n. A number
 * equal to the entry's index is what kifu writes when the document gave none: not kept,
 * so that a record read from kifu's own file costs no memory per position. */
static int sid_of(rd *d, size_t i, int type, const char *text, int is_int, long long v,
                  int own_entry, kifu_record *r, kifu_node *n)
{
    if (type != KIFU__JSON_STRING && type != KIFU__JSON_NUMBER)
        return fail(d, i, "sid", "a string or a number", "another JSON type",
                    "not an ID");
    if (own_entry && type == KIFU__JSON_NUMBER && is_int && v == (long long)i)
        return 0;
    return kifu__node_set_sid(r, n, text, type == KIFU__JSON_NUMBER) ? nomem(d) : 0;
}

/* The ending of entry i as kifu writes it when it carries more than its word:
 * {"word": "TORYO", "time": ..., "comments": [...], "bookmarks": [...], "sid": ...},
 * added after node n. The object is read through d->sub (the entry's own strings in
 * d->sb stay). */
static int end_object(rd *d, size_t i, size_t off, kifu_record *r, kifu_node *n)
{
    kifu__json_tok t;
    vals x;
    memset(&x, 0, sizeof x);
    kifu__strbuf word, sid;
    kifu__sb_init(&word);
    kifu__sb_init(&sid);
    int sid_type = 0, sid_int = 0, rc = -1;
    long long sid_v = 0;
    if (revisit(d, off, &t))
        goto done;
    while (kifu__json_next(&d->sub, &t) == KIFU__JSON_KEY) {
        int k = strcmp(t.s, "word") == 0        ? K_END
                : strcmp(t.s, "sid") == 0       ? K_SID
                : strcmp(t.s, "time") == 0      ? K_TIME
                : strcmp(t.s, "comments") == 0  ? K_COMMENTS
                : strcmp(t.s, "bookmarks") == 0 ? K_BOOKMARKS
                                                : K_COUNT;
        if (k == K_COUNT)
            warn(d,
                 "entry %zu: the key \"end.%s\" is not one kifu knows; it was not read",
                 i, t.s);
        if (kifu__json_next(&d->sub, &t) == KIFU__JSON_ERROR) {
            nomem(d);
            goto done;
        }
        if (k == K_END && t.type == KIFU__JSON_STRING) {
            kifu__sb_puts(&word, t.s);
        } else if (k == K_END) {
            fail(d, i, "end.word", "a string", "another JSON type", "not an ending word");
            goto done;
        } else if (k == K_SID) {
            sid_type = t.type, sid_int = t.is_int, sid_v = t.i;
            if (t.type == KIFU__JSON_STRING)
                kifu__sb_puts(&sid, t.s);
            else if (t.type == KIFU__JSON_NUMBER)
                kifu__sb_putn(&sid, t.s, t.n);
        } else if (k != K_COUNT) {
            x.has |= 1u << k;
            x.type[k] = t.type;
            x.off[k] = t.off;
        }
        if (t.type == KIFU__JSON_ARRAY || t.type == KIFU__JSON_OBJECT) {
            if (kifu__json_skip(&d->sub, &t)) {
                nomem(d);
                goto done;
            }
        }
    }
    if (word.failed || sid.failed) {
        nomem(d);
        goto done;
    }
    if (!word.len) {
        fail(d, i, "end", "{\"word\": an ending word, ...}", "no word",
             "the ending has no word");
        goto done;
    }
    kifu_node *sp = kifu_node_add_special(r, n, word.data);
    if (!sp) {
        nomem(d);
        goto done;
    }
    if (extras(d, i, &x, r, sp) ||
        (sid_type &&
         sid_of(d, i, sid_type, sid.len ? sid.data : "", sid_int, sid_v, 0, r, sp)))
        goto done;
    rc = 0;
done:
    kifu__sb_free(&word);
    kifu__sb_free(&sid);
    return rc;
}

/* `prev` as a string: the earlier entry whose sid it is (a document's own IDs, "q1"),
 * into *prev; the last such entry when two share it. */
static int prev_by_sid(const rd *d, size_t i, const char *name, long *prev)
{
    for (size_t j = i; j-- > 0;) {
        int number;
        const char *s = kifu__node_sid(d->at[j].n, &number);
        if (s && !number && strcmp(s, name) == 0) {
            *prev = (long)j;
            return 0;
        }
    }
    return fail(d, i, "prev", "the sid of an earlier entry", name,
                "no earlier entry has "
                "this sid");
}

/* The entry's `sid`, when given, onto node n. */
static int entry_sid(rd *d, size_t i, const vals *e, kifu_record *r, kifu_node *n)
{
    if (!(e->has & 1u << K_SID))
        return 0;
    return sid_of(d, i, e->type[K_SID], d->sb.data + e->str[K_SID], e->is_int[K_SID],
                  e->i[K_SID], 1, r, n);
}

static int entry(rd *d, size_t i, const vals *e)
{
    kifu_board b;
    int turn, bad = 0;
    long mv, prev = -1, game, ply;
    int prev_named = (e->has & 1u << K_PREV) && e->type[K_PREV] == KIFU__JSON_STRING;
    if (position_of(d, i, e, &b, &turn) || int_of(d, i, e, K_MV, 1, 81, 0, &mv) ||
        (prev_named ? prev_by_sid(d, i, d->sb.data + e->str[K_PREV], &prev)
                    : int_of(d, i, e, K_PREV, 0, (long)i - 1, -1, &prev)) ||
        int_of(d, i, e, K_GAME, 1, LONG_MAX, 0, &game) ||
        int_of(d, i, e, K_PLY, 0, 999999998, 0, &ply))
        return -1;
    /* `end`: the word, or an object with the word and what the ending carries. */
    int end_obj = (e->has & 1u << K_END) && e->type[K_END] == KIFU__JSON_OBJECT;
    if ((e->has & 1u << K_END) && !end_obj && e->type[K_END] != KIFU__JSON_STRING)
        return fail(d, i, "end", "an ending word, or {\"word\": an ending word, ...}",
                    "another JSON type", "not an ending");
    const char *end = end_obj ? NULL : string_of(d, i, e, K_END, &bad);
    if (bad)
        return -1;
    /* `game` starts a record whatever came before. */
    const placed *from = prev >= 0 ? &d->at[prev] : i && !game ? &d->at[d->last] : NULL;
    placed *pl = &d->at[i];
    int rc = 1;
    /* An ending with a position of its own: the same position as where it ends (kifu
     * wrote endings so before it put every ending of a line on its move's entry). */
    if (from && end && !mv && memcmp(from->b.sq, b.sq, sizeof b.sq) == 0 &&
        memcmp(from->b.hands, b.hands, sizeof b.hands) == 0) {
        *pl = *from;
        kifu_node *sp = kifu_node_add_special(pl->r, pl->n, end);
        if (!sp)
            return nomem(d);
        if (extras(d, i, e, pl->r, sp) || entry_sid(d, i, e, pl->r, sp))
            return -1;
        /* What follows this entry follows the ending (the writer gives an entry after
         * an ending no `prev`: a second KACHI, as JKF tools keep, stays after the first
         * instead of becoming its fork). */
        pl->n = sp;
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
    /* An entry that names its move (`usi`, which kifu writes for every move) follows the
     * entry before it: when no legal move leads there (a forbidden move such as 二歩,
     * which positions cannot carry), reading it as a new record would split the game
     * without a word. */
    const char *usi = string_of(d, i, e, K_USI, &bad);
    if (bad)
        return -1;
    if (rc && from && usi)
        return fail(d, i, "usi", "a legal move from the entry before", usi,
                    "no legal move leads from entry %zu to this one, nor a forbidden "
                    "move to the square its mv names",
                    (size_t)(from - d->at));
    if (rc && start_record(d, i, &b, turn, pl))
        return -1;
    /* A record's first entry: its `ply` is the moves played before it (kifu writes a
     * record that starts at move 6 with ply 5), so the next move is number ply + 1. */
    if (rc)
        kifu_record_set_start_number(pl->r, (int)ply + 1);
    if (extras(d, i, e, pl->r, pl->n) || entry_sid(d, i, e, pl->r, pl->n))
        return -1;
    if (end && !kifu_node_add_special(pl->r, pl->n, end))
        return nomem(d);
    /* Last: it reads through d->sub and may not return to this entry's members. */
    if (end_obj && end_object(d, i, e->off[K_END], pl->r, pl->n))
        return -1;
    d->last = i;
    return 0;
}

static void trailing_comma(void *ctx, size_t off)
{
    rd *d = ctx;
    int line, col;
    kifu__text_where(d->text, off, &line, &col);
    /* The parser called: a closing bracket follows, after white space. */
    size_t c = off + 1;
    while (c < d->len && strchr(" \t\r\n", d->text[c]))
        c++;
    warn(d, "line %d, column %d: a comma before '%c' (not JSON; read as if absent)", line,
         col, c < d->len ? d->text[c] : '?');
}

static int syntax(rd *d, const kifu__json *j)
{
    return kifu__json_error(j, d->err);
}

/* The members of the entry whose '{' was just read, into *e. 0, or -1. */
static int members(rd *d, size_t i, vals *e)
{
    kifu__json *j = &d->doc;
    kifu__json_tok t;
    memset(e, 0, sizeof *e);
    d->sb.len = 0;
    for (;;) {
        int type = kifu__json_next(j, &t);
        if (type == KIFU__JSON_ERROR)
            return syntax(d, j);
        if (type == KIFU__JSON_OBJECT_END)
            return 0;
        int k = 0;
        while (k < K_COUNT && strcmp(t.s, known[k]))
            k++;
        if (k == K_COUNT)
            warn(d, "entry %zu: the key \"%s\" is not one kifu knows; it was not read", i,
                 t.s);
        if (kifu__json_next(j, &t) == KIFU__JSON_ERROR ||
            (k == K_COUNT && kifu__json_skip(j, &t)))
            return syntax(d, j);
        if (k == K_COUNT)
            continue;
        e->has |= 1u << k;
        e->type[k] = t.type;
        e->off[k] = t.off;
        if (t.type == KIFU__JSON_STRING) {
            e->str[k] = d->sb.len;
            kifu__sb_putn(&d->sb, t.s, t.n + 1);
            if (d->sb.failed)
                return nomem(d);
        } else if (t.type == KIFU__JSON_NUMBER) {
            e->is_int[k] = t.is_int;
            e->i[k] = t.i;
            /* Its literal too: a numeric `sid` is kept as written. */
            e->str[k] = d->sb.len;
            kifu__sb_putn(&d->sb, t.s, t.n);
            kifu__sb_putc(&d->sb, 0);
            if (d->sb.failed)
                return nomem(d);
        } else if (kifu__json_skip(j, &t)) {
            return syntax(d, j);
        }
    }
}

int kifu__read_posjson(KIFU__READER_PARAMS)
{
    rd d = {.opt = opt, .err = err, .out = out, .text = text, .len = len};
    kifu__sb_init(&d.sb);
    kifu__json_init(&d.doc, text, len);
    kifu__json_init(&d.sub, text, len);
    d.doc.trailing_comma = trailing_comma;
    d.doc.ctx = &d;
    int rc = -1;
    kifu__json_tok t;
    vals e;
    int type = kifu__json_next(&d.doc, &t);
    if (type == KIFU__JSON_ERROR) {
        syntax(&d, &d.doc);
        goto done;
    }
    if (type != KIFU__JSON_ARRAY) {
        kifu__error(err, KIFU_ERR_SYNTAX, 1, 1, 0, "an array of positions",
                    "another JSON type", "posjson is a JSON array");
        goto done;
    }
    if (!(d.p = kifu_position_new())) {
        nomem(&d);
        goto done;
    }
    for (size_t i = 0;; i++) {
        type = kifu__json_next(&d.doc, &t);
        if (type == KIFU__JSON_ERROR) {
            syntax(&d, &d.doc);
            goto done;
        }
        if (type == KIFU__JSON_ARRAY_END)
            break;
        d.entry_off = t.off;
        if (kifu__reserve(&d.at, &d.capat, i + 1, sizeof *d.at, 64)) {
            nomem(&d);
            goto done;
        }
        if (type != KIFU__JSON_OBJECT) {
            fail(&d, i, "the entry", "an object", "another JSON type", "not an object");
            goto done;
        }
        if (members(&d, i, &e) || entry(&d, i, &e))
            goto done;
    }
    if (kifu__json_next(&d.doc, &t) == KIFU__JSON_ERROR) {
        syntax(&d, &d.doc);
        goto done;
    }
    rc = 0;
done:
    kifu__json_free(&d.doc);
    kifu__json_free(&d.sub);
    kifu__sb_free(&d.sb);
    kifu_position_free(d.p);
    kifu__free(d.at);
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
