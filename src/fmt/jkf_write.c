/* jkf_write.c: the record tree as JSON Kifu Format.
 *
 * JSON is written by hand straight into the output buffer through a cursor: no JSON
 * objects are built and nothing is allocated per move (the buffer grows geometrically),
 * since converting to JKF is mostly writing. Lines are walked in loops and nested forks
 * through an explicit stack, so neither long games nor deep variations recurse. Keys come in the schema's order (header,
 * initial, moves; comments, move, time, special, forks; color, from, to, piece, same,
 * promote, capture, relative). KIFU_WRITE_PRETTY indents by two spaces like
 * JSON.stringify(v, null, 2); otherwise the output has no whitespace. Text stays UTF-8;
 * only what JSON requires is escaped. */
#include <stdlib.h>
#include <string.h>

#include "fmt/fmt.h"
#include "kifu_private.h"
#include "notation/words.h"
#include "record/record.h"
#include "record/walk.h"

typedef struct w {
    kifu__strbuf *out;
    char *p, *end; /* cursor into out->data; out->len is synced at the end */
    int pretty;
    int depth;
    int first; /* no element written yet in the innermost open container */
    int failed;
} w;

/* Makes room for n more bytes; 0 when out of memory (then nothing more is written). */
static int grow(w *o, size_t n)
{
    if (o->failed)
        return 0;
    if (o->p)
        o->out->len = (size_t)(o->p - o->out->data);
    if (kifu__sb_reserve(o->out, n + 4096)) {
        o->failed = 1;
        return 0;
    }
    o->p = o->out->data + o->out->len;
    o->end = o->out->data + o->out->cap - 1; /* keep a byte for the final NUL */
    return 1;
}

static inline int room(w *o, size_t n)
{
    return (size_t)(o->end - o->p) >= n || grow(o, n);
}

static inline void putn(w *o, const char *s, size_t n)
{
    if (!room(o, n))
        return;
    memcpy(o->p, s, n);
    o->p += n;
}

static inline void put1(w *o, char ch)
{
    if (!room(o, 1))
        return;
    *o->p++ = ch;
}

#define PUTS(o, lit) putn(o, lit, sizeof lit - 1)

static const char spaces[] =
    "                                                                "
    "                                                                ";

static void newline(w *o)
{
    size_t n = (size_t)o->depth * 2;
    if (!room(o, n + 1))
        return;
    *o->p++ = '\n';
    while (n > 0) {
        size_t k = n < sizeof spaces - 1 ? n : sizeof spaces - 1;
        memcpy(o->p, spaces, k);
        o->p += k;
        n -= k;
    }
}

/* Before an element of an array or a member of an object. */
static inline void sep(w *o)
{
    if (!o->first)
        put1(o, ',');
    o->first = 0;
    if (o->pretty)
        newline(o);
}

static inline void open_(w *o, char ch)
{
    put1(o, ch);
    o->depth++;
    o->first = 1;
}

static inline void close_(w *o, char ch)
{
    o->depth--;
    if (!o->first && o->pretty)
        newline(o);
    put1(o, ch);
    o->first = 0; /* the parent now holds at least this element */
}

/* Does the word hold a byte below 0x20, a '"' or a '\\' (the bytes JSON escapes)? */
static inline int word_needs_escape(uint64_t x)
{
    const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
    uint64_t q = x ^ (ones * '"'), b = x ^ (ones * '\\');
    return (((x - ones * 0x20) | (q - ones) | (b - ones)) & ~x & highs) != 0;
}

/* The characters of s as JSON string content (no quotes). Text rarely needs escaping:
 * runs without a special byte are found 8 bytes at a time and copied whole. */
static void escaped(w *o, const char *s)
{
    const char *run = s, *end = s + strlen(s);
    for (;;) {
        while (end - s >= 8) {
            uint64_t x;
            memcpy(&x, s, 8);
            if (word_needs_escape(x))
                break;
            s += 8;
        }
        if (s == end)
            break;
        unsigned char ch = (unsigned char)*s++;
        if (ch >= 0x20 && ch != '"' && ch != '\\')
            continue;
        s--;
        putn(o, run, (size_t)(s - run));
        run = s + 1;
        switch (ch) {
        case '"':
            PUTS(o, "\\\"");
            break;
        case '\\':
            PUTS(o, "\\\\");
            break;
        case '\n':
            PUTS(o, "\\n");
            break;
        case '\r':
            PUTS(o, "\\r");
            break;
        case '\t':
            PUTS(o, "\\t");
            break;
        case '\b':
            PUTS(o, "\\b");
            break;
        case '\f':
            PUTS(o, "\\f");
            break;
        default: {
            static const char hex[] = "0123456789abcdef";
            char u[6] = {'\\', 'u', '0', '0', hex[ch >> 4], hex[ch & 15]};
            putn(o, u, 6);
        }
        }
        s++;
    }
    putn(o, run, (size_t)(s - run));
}

static void string(w *o, const char *s)
{
    put1(o, '"');
    escaped(o, s);
    put1(o, '"');
}

/* A member key: `lit` is the quoted key with its colon, e.g. "\"color\":". */
static inline void key_lit(w *o, const char *lit, size_t n)
{
    sep(o);
    putn(o, lit, n);
    if (o->pretty)
        put1(o, ' ');
}

#define KEY(o, name) key_lit(o, "\"" name "\":", sizeof name + 2)

static void integer(w *o, long v)
{
    if (v >= 0 && v < 100) { /* squares, minutes, seconds: nearly every number */
        if (!room(o, 2))
            return;
        if (v >= 10)
            *o->p++ = (char)('0' + v / 10);
        *o->p++ = (char)('0' + v % 10);
        return;
    }
    char buf[24], *q = buf + sizeof buf;
    unsigned long u = v < 0 ? 0UL - (unsigned long)v : (unsigned long)v;
    do {
        *--q = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        *--q = '-';
    putn(o, q, (size_t)(buf + sizeof buf - q));
}

static int by_key(const void *a, const void *b)
{
    const kifu__header_entry *x = *(const kifu__header_entry *const *)a;
    const kifu__header_entry *y = *(const kifu__header_entry *const *)b;
    int c = strcmp(x->key, y->key);
    return c ? c : (x < y ? -1 : x > y);
}

/* The header object. A JSON object cannot repeat a key, but a record can (two `N+` lines
 * in a CSA file): a repeated key is written once, where it first appears, with its values
 * joined by newlines, so nothing is lost and the output reads back. */
static int write_header(w *o, const kifu_record *r)
{
    size_t n = r->nheader;
    /* next[i]: the index of the next entry with the same key, or n; later entries of a
     * group are skipped where they stand. A usual header is compared pair by pair in
     * arrays on the stack; a long one is sorted (O(n log n) for any header). */
    size_t *next = NULL, next_small[32];
    unsigned char *later = NULL, later_small[32];
    if (n > 1 && n <= 32) {
        next = next_small;
        later = later_small;
        for (size_t i = 0; i < n; i++) {
            next[i] = n;
            later[i] = 0;
            for (size_t j = 0; j < i; j++)
                if (!later[j] && strcmp(r->header[j].key, r->header[i].key) == 0) {
                    size_t t = j;
                    while (next[t] != n)
                        t = next[t];
                    next[t] = i;
                    later[i] = 1;
                    break;
                }
        }
    } else if (n > 32) {
        const kifu__header_entry **v = kifu__malloc(n * sizeof *v);
        next = kifu__malloc(n * sizeof *next);
        later = kifu__calloc(n, 1);
        if (!v || !next || !later) {
            kifu__free(v);
            kifu__free(next);
            kifu__free(later);
            return -1;
        }
        for (size_t i = 0; i < n; i++) {
            v[i] = &r->header[i];
            next[i] = n;
        }
        qsort(v, n, sizeof *v, by_key);
        for (size_t i = 1; i < n; i++)
            if (strcmp(v[i - 1]->key, v[i]->key) == 0) {
                next[v[i - 1] - r->header] = (size_t)(v[i] - r->header);
                later[v[i] - r->header] = 1;
            }
        kifu__free(v);
    }
    open_(o, '{');
    for (size_t i = 0; i < n; i++) {
        if (later && later[i])
            continue;
        sep(o);
        string(o, r->header[i].key);
        put1(o, ':');
        if (o->pretty)
            put1(o, ' ');
        put1(o, '"');
        escaped(o, r->header[i].value);
        for (size_t j = next ? next[i] : n; j < n; j = next[j]) {
            PUTS(o, "\\n");
            escaped(o, r->header[j].value);
        }
        put1(o, '"');
    }
    close_(o, '}');
    if (next != next_small) {
        kifu__free(next);
        kifu__free(later);
    }
    return 0;
}

#define KEY_INT(o, name, v) (KEY(o, name), integer(o, v))
#define KEY_STR(o, name, v) (KEY(o, name), string(o, v))

/* A piece name as a JSON string ("FU"); names are plain ASCII. */
static void piece(w *o, int k)
{
    const char *n = kifu_piece_csa(k);
    char q[4] = {'"', n[0], n[1], '"'};
    putn(o, q, 4);
}

/* ---- initial position ---- */

static void write_initial(w *o, const kifu_record *r)
{
    static const int hand_order[] = {KIFU_FU, KIFU_KY, KIFU_KE, KIFU_GI,
                                     KIFU_KI, KIFU_KA, KIFU_HI};
    KEY(o, "initial");
    open_(o, '{');
    KEY_STR(o, "preset", kifu_preset_name(r->preset));
    if (r->has_data) {
        const kifu_board *b = &r->initial;
        KEY(o, "data");
        open_(o, '{');
        KEY_INT(o, "color", b->color);
        KEY(o, "board");
        open_(o, '[');
        for (int x = 0; x < 9; x++) {
            sep(o);
            open_(o, '[');
            for (int y = 0; y < 9; y++) {
                uint8_t cp = b->sq[x * 9 + y];
                sep(o);
                open_(o, '{');
                if (cp && kifu_piece_csa(cp & 15)) {
                    KEY_INT(o, "color", cp >> 4);
                    KEY(o, "kind");
                    piece(o, cp & 15);
                }
                close_(o, '}');
            }
            close_(o, ']');
        }
        close_(o, ']');
        KEY(o, "hands");
        open_(o, '[');
        for (int c = 0; c < 2; c++) {
            sep(o);
            open_(o, '{');
            for (int i = 0; i < 7; i++) {
                char k[6] = {'"', 0, 0, '"', ':', 0};
                memcpy(k + 1, kifu_piece_csa(hand_order[i]), 2);
                key_lit(o, k, 5);
                integer(o, b->hands[c][hand_order[i]]);
            }
            close_(o, '}');
        }
        close_(o, ']');
        close_(o, '}');
    }
    close_(o, '}');
}

/* ---- moves ---- */

/* ---- the move and time of an entry: the hot path ----
 * Written through a local cursor after one reservation: stores through o->p would make
 * the compiler reload the cursor after every byte (char stores may alias anything). */

typedef struct wcur {
    char *q;
    int pretty, depth, first;
} wcur;

static inline void c_sep(wcur *c)
{
    if (!c->first)
        *c->q++ = ',';
    c->first = 0;
    if (c->pretty) {
        *c->q++ = '\n';
        memset(c->q, ' ', (size_t)c->depth * 2);
        c->q += c->depth * 2;
    }
}

/* A member key (lit is "\"name\":"), then the value follows. */
static inline void c_key(wcur *c, const char *lit, size_t n)
{
    c_sep(c);
    memcpy(c->q, lit, n);
    c->q += n;
    if (c->pretty)
        *c->q++ = ' ';
}

#define C_KEY(c, name) c_key(c, "\"" name "\":", sizeof name + 2)

static inline void c_open(wcur *c, char ch)
{
    *c->q++ = ch;
    c->depth++;
    c->first = 1;
}

static inline void c_close(wcur *c, char ch)
{
    c->depth--;
    if (!c->first && c->pretty) {
        *c->q++ = '\n';
        memset(c->q, ' ', (size_t)c->depth * 2);
        c->q += c->depth * 2;
    }
    *c->q++ = ch;
    c->first = 0;
}

static inline void c_uint(wcur *c, unsigned long v)
{
    if (v < 10) {
        *c->q++ = (char)('0' + v);
        return;
    }
    if (v < 100) { /* minutes and seconds of the totals */
        c->q[0] = (char)('0' + v / 10);
        c->q[1] = (char)('0' + v % 10);
        c->q += 2;
        return;
    }
    char buf[24], *e = buf + sizeof buf, *b = e;
    do {
        *--b = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    memcpy(c->q, b, (size_t)(e - b));
    c->q += e - b;
}

/* CSA piece names by kind (KIFU_FU ..), "" for 0 and unknown kinds: a table here saves a
 * call per move. */

static inline void c_piece(wcur *c, int k)
{
    const char *n = kifu__csa_names[k & 15];
    c->q[0] = '"';
    c->q[1] = n[0];
    c->q[2] = n[1];
    c->q[3] = '"';
    c->q += 4;
}

static inline void c_place(wcur *c, int x, int y)
{
    if (!c->pretty && x >= 1 && x <= 9 && y >= 1 && y <= 9) {
        /* One fixed-size fragment: {"x":7,"y":6} */
        memcpy(c->q, "{\"x\":0,\"y\":0}", 13);
        c->q[5] = (char)('0' + x);
        c->q[11] = (char)('0' + y);
        c->q += 13;
        c->first = 0;
        return;
    }
    c_open(c, '{');
    C_KEY(c, "x");
    c_uint(c, (unsigned)x);
    C_KEY(c, "y");
    c_uint(c, (unsigned)y);
    c_close(c, '}');
}

static inline void c_bool(wcur *c, int v)
{
    if (v) {
        memcpy(c->q, "true", 4);
        c->q += 4;
    } else {
        memcpy(c->q, "false", 5);
        c->q += 5;
    }
}

static inline void c_time(wcur *c, const kifu_time *t)
{
    c_open(c, '{');
    if (t->h >= 0) {
        C_KEY(c, "h");
        c_uint(c, (unsigned)t->h);
    }
    C_KEY(c, "m");
    c_uint(c, t->m < 0 ? 0u : (unsigned)t->m);
    C_KEY(c, "s");
    c_uint(c, t->s < 0 ? 0u : (unsigned)t->s);
    c_close(c, '}');
}

static void c_move(wcur *c, const kifu_move *m)
{
    C_KEY(c, "move");
    c_open(c, '{');
    if (!(m->flags & KIFU_MOVE_NO_COLOR)) {
        C_KEY(c, "color");
        c_uint(c, m->color);
    }
    if (m->from_x) {
        C_KEY(c, "from");
        c_place(c, m->from_x, m->from_y);
    } else if (m->flags & KIFU__MOVE_FROM_NULL) {
        C_KEY(c, "from");
        memcpy(c->q, "null", 4);
        c->q += 4;
    }
    if (m->to_x) {
        C_KEY(c, "to");
        c_place(c, m->to_x, m->to_y);
    }
    if (m->piece < 16 && kifu__csa_names[m->piece][0]) {
        C_KEY(c, "piece");
        c_piece(c, m->piece);
    }
    if (m->same >= 0) {
        C_KEY(c, "same");
        c_bool(c, m->same);
    }
    if (m->promote >= 0) {
        C_KEY(c, "promote");
        c_bool(c, m->promote);
    }
    if (m->capture < 16 && kifu__csa_names[m->capture][0]) {
        C_KEY(c, "capture");
        c_piece(c, m->capture);
    }
    if (m->relative[0]) {
        C_KEY(c, "relative");
        size_t n = strnlen(m->relative, sizeof m->relative);
        *c->q++ = '"';
        memcpy(c->q, m->relative, n);
        c->q += n;
        *c->q++ = '"';
    }
    c_close(c, '}');
}

/* ---- compact output (no whitespace): the same members in the same order, written as
 * literal runs through a register cursor, with no container state to keep ---- */

#define LIT(q, s) (memcpy(q, s, sizeof s - 1), q += sizeof s - 1)

/* "00" to "99". */
static const char two_digits[201] = "00010203040506070809101112131415161718192021222324"
                                    "25262728293031323334353637383940414243444546474849"
                                    "50515253545556575859606162636465666768697071727374"
                                    "75767778798081828384858687888990919293949596979899";

static inline char *k_uint(char *q, unsigned v)
{
    if (v < 100) {
        /* Without a branch on the digit count: seconds and minutes are as good as random,
         * so the branch would be mispredicted half the time. Both bytes are written (the
         * cursor always has room past a number); the second is overwritten when v < 10. */
        const char *d = two_digits + 2 * v;
        unsigned two = v >= 10;
        q[0] = d[!two];
        q[1] = d[1];
        q += 1 + two;
    } else {
        char buf[24], *e = buf + sizeof buf, *b = e;
        do {
            *--b = (char)('0' + v % 10);
            v /= 10;
        } while (v);
        memcpy(q, b, (size_t)(e - b));
        q += e - b;
    }
    return q;
}

static inline char *k_place(char *q, int x, int y)
{
    if (x >= 1 && x <= 9 && y >= 1 && y <= 9) {
        memcpy(q, "{\"x\":0,\"y\":0}", 13);
        q[5] = (char)('0' + x);
        q[11] = (char)('0' + y);
        return q + 13;
    }
    LIT(q, "{\"x\":");
    q = k_uint(q, (unsigned)x);
    LIT(q, ",\"y\":");
    q = k_uint(q, (unsigned)y);
    *q++ = '}';
    return q;
}

static inline char *k_piece(char *q, int k)
{
    q[0] = '"';
    q[1] = kifu__csa_names[k][0];
    q[2] = kifu__csa_names[k][1];
    q[3] = '"';
    return q + 4;
}

/* `{"h":1,"m":2,"s":3}` */
static inline char *k_time(char *q, const kifu_time *t)
{
    *q++ = '{';
    if (t->h >= 0) {
        LIT(q, "\"h\":");
        q = k_uint(q, (unsigned)t->h);
        *q++ = ',';
    }
    LIT(q, "\"m\":");
    q = k_uint(q, t->m < 0 ? 0u : (unsigned)t->m);
    LIT(q, ",\"s\":");
    q = k_uint(q, t->s < 0 ? 0u : (unsigned)t->s);
    *q++ = '}';
    return q;
}

/* The start of a normalized move up to its piece, as one template with the digits and
 * letters put in: a board move, and a drop (no "from"). Offsets of the variable bytes. */
static const char tpl_board[] = "\"move\":{\"color\":0,\"from\":{\"x\":0,\"y\":0},\"to\":"
                                "{\"x\":0,\"y\":0},\"piece\":\"FU\"";
static const char tpl_drop[] =
    "\"move\":{\"color\":0,\"to\":{\"x\":0,\"y\":0},\"piece\":\"FU\"";
enum {
    T_COLOR = 16,
    TB_FX = 30,
    TB_FY = 36,
    TB_TX = 49,
    TB_TY = 55,
    TB_PIECE = 67,
    TD_TX = 28,
    TD_TY = 34,
    TD_PIECE = 46
};

/* The members of a move object, comma-separated (a leading comma when `more`). */
static char *k_move(char *q, const kifu_move *m)
{
    char *start = q + sizeof "\"move\":{" - 1;
#define SEP() (q != start ? (void)(*q++ = ',') : (void)0)
    if (!(m->flags & (KIFU_MOVE_NO_COLOR | KIFU__MOVE_FROM_NULL)) && m->color <= 1 &&
        (unsigned)(m->to_x - 1) < 9 && (unsigned)(m->to_y - 1) < 9 && m->piece < 16 &&
        kifu__csa_names[m->piece][0] &&
        (m->from_x ? (unsigned)(m->from_x - 1) < 9 && (unsigned)(m->from_y - 1) < 9
                   : !m->from_y)) {
        /* The usual move up to its piece: one template with the digits and letters put
         * in, no branch per member. */
        const char *pc = kifu__csa_names[m->piece];
        if (m->from_x) {
            memcpy(q, tpl_board, sizeof tpl_board - 1);
            q[T_COLOR] = (char)('0' + m->color);
            q[TB_FX] = (char)('0' + m->from_x);
            q[TB_FY] = (char)('0' + m->from_y);
            q[TB_TX] = (char)('0' + m->to_x);
            q[TB_TY] = (char)('0' + m->to_y);
            q[TB_PIECE] = pc[0];
            q[TB_PIECE + 1] = pc[1];
            q += sizeof tpl_board - 1;
        } else {
            memcpy(q, tpl_drop, sizeof tpl_drop - 1);
            q[T_COLOR] = (char)('0' + m->color);
            q[TD_TX] = (char)('0' + m->to_x);
            q[TD_TY] = (char)('0' + m->to_y);
            q[TD_PIECE] = pc[0];
            q[TD_PIECE + 1] = pc[1];
            q += sizeof tpl_drop - 1;
        }
        goto optional;
    }
    LIT(q, "\"move\":{");
    if (!(m->flags & KIFU_MOVE_NO_COLOR)) {
        LIT(q, "\"color\":");
        q = k_uint(q, m->color);
    }
    if (m->from_x) {
        SEP();
        LIT(q, "\"from\":");
        q = k_place(q, m->from_x, m->from_y);
    } else if (m->flags & KIFU__MOVE_FROM_NULL) {
        SEP();
        LIT(q, "\"from\":null");
    }
    if (m->to_x) {
        SEP();
        LIT(q, "\"to\":");
        q = k_place(q, m->to_x, m->to_y);
    }
    if (m->piece < 16 && kifu__csa_names[m->piece][0]) {
        SEP();
        LIT(q, "\"piece\":");
        q = k_piece(q, m->piece);
    }
optional:
    if (m->same >= 0) {
        SEP();
        if (m->same)
            LIT(q, "\"same\":true");
        else
            LIT(q, "\"same\":false");
    }
    if (m->promote >= 0) {
        SEP();
        if (m->promote)
            LIT(q, "\"promote\":true");
        else
            LIT(q, "\"promote\":false");
    }
    if (m->capture < 16 && kifu__csa_names[m->capture][0]) {
        SEP();
        LIT(q, "\"capture\":");
        q = k_piece(q, m->capture);
    }
    if (m->relative[0]) {
        SEP();
        LIT(q, "\"relative\":\"");
        size_t n = strnlen(m->relative, sizeof m->relative);
        memcpy(q, m->relative, n);
        q += n;
        *q++ = '"';
    }
#undef SEP
    *q++ = '}';
    return q;
}

/* `"time":{"now":...,"total":...}` of node n (which has a time). */
static inline char *k_time6(char *q, const kifu__t6 *t)
{
    *q++ = '{';
    if (t->h >= 0) {
        LIT(q, "\"h\":");
        q = k_uint(q, (unsigned)t->h);
        *q++ = ',';
    }
    LIT(q, "\"m\":");
    q = k_uint(q, t->m);
    LIT(q, ",\"s\":");
    q = k_uint(q, t->s);
    *q++ = '}';
    return q;
}

static inline __attribute__((always_inline)) char *k_time_member(char *q,
                                                                 const kifu_node *n)
{
    const kifu__ptime *p = kifu__ptime_of(n);
    if (p->now.h != KIFU__T6_FULL) { /* packed: its fields as they are */
        LIT(q, "\"time\":{\"now\":");
        q = k_time6(q, &p->now);
        if (n->has_total) {
            LIT(q, ",\"total\":");
            q = k_time6(q, &p->total);
        }
        *q++ = '}';
        return q;
    }
    kifu_move_time tv;
    const kifu_move_time *t = &tv;
    kifu__time_get(n, &tv);
    LIT(q, "\"time\":{\"now\":");
    q = k_time(q, &t->now);
    if (t->has_total) {
        LIT(q, ",\"total\":");
        q = k_time(q, &t->total);
    }
    *q++ = '}';
    return q;
}

/* The "move" and "time" members of node n. At most 32 lines of at most 48 bytes past
 * the indentation, so one reservation covers them. */
static void write_move_time(w *o, const kifu_node *n)
{
    int is_move = n->kind == KIFU_NODE_MOVE;
    if (!is_move && !n->has_time)
        return;
    size_t need = 32 * ((size_t)(o->depth + 4) * 2 + 48) + 64;
    if (!room(o, need))
        return;
    if (!o->pretty) {
        char *q = o->p;
        if (is_move) {
            if (!o->first)
                *q++ = ',';
            kifu_move mv;
            kifu__move_get(n, &mv);
            q = k_move(q, &mv);
            o->first = 0;
        }
        if (n->has_time) {
            if (!o->first)
                *q++ = ',';
            q = k_time_member(q, n);
            o->first = 0;
        }
        o->p = q;
        return;
    }
    wcur c = {o->p, o->pretty, o->depth, o->first};
    if (is_move) {
        kifu_move mv;
        kifu__move_get(n, &mv);
        c_move(&c, &mv);
    }
    if (n->has_time) {
        C_KEY(&c, "time");
        c_open(&c, '{');
        C_KEY(&c, "now");
        kifu_move_time tv;
        const kifu_move_time *t = &tv;
        kifu__time_get(n, &tv);
        c_time(&c, &t->now);
        if (t->has_total) {
            C_KEY(&c, "total");
            c_time(&c, &t->total);
        }
        c_close(&c, '}');
    }
    o->p = c.q;
    o->first = c.first;
}

/* Comments, then KIF bookmarks as "&name" lines (how JKF tools keep them). */
static void write_comments(w *o, const kifu_node *n)
{
    const kifu__node_text *t = kifu__text(n);
    if (!t || (!t->ncomments && !t->nbookmarks))
        return;
    KEY(o, "comments");
    open_(o, '[');
    for (uint32_t i = 0; i < t->ncomments; i++) {
        sep(o);
        string(o, t->comments[i]);
    }
    for (uint32_t i = 0; i < t->nbookmarks; i++) {
        sep(o);
        PUTS(o, "\"&");
        escaped(o, t->bookmarks[i]);
        put1(o, '"');
    }
    close_(o, ']');
}

/* The start of an entry: everything but its forks and its closing brace. */
static void entry_head(w *o, const kifu_node *n)
{
    sep(o);
    open_(o, '{');
    write_comments(o, n);
    write_move_time(o, n);
    if (n->kind != KIFU_NODE_SPECIAL)
        return;
    if (strcmp(kifu__special(n), KIFU__JP_SEALED) == 0) {
        /* JKF's nearest word, with a key of kifu's own that peers ignore. */
        KEY_STR(o, "special", "CHUDAN");
        KEY(o, "kifu:sealed");
        PUTS(o, "true");
    } else {
        KEY_STR(o, "special", kifu__special(n));
    }
}

/* A whole compact entry of a move without comments or forks (most of them): what
 * entry_head and close_ write, with one reservation and no container state. */
static void entry_compact(w *o, const kifu_node *n)
{
    if (!room(o, 1024))
        return;
    char *q = o->p;
    if (!o->first)
        *q++ = ',';
    *q++ = '{';
    kifu_move mv;
    kifu__move_get(n, &mv);
    q = k_move(q, &mv);
    if (n->has_time) {
        *q++ = ',';
        q = k_time_member(q, n);
    }
    *q++ = '}';
    o->p = q;
    o->first = 0;
}

/* The moves after the root, by the record walk in JKF order (walk.h): each line entry by
 * entry; an entry that is child 0 of a node with several children carries its siblings'
 * lines as "forks", which come before the next entry of its line (in a fork array the
 * first entry's siblings were written one level up, so it carries none). */
/* The entry of a node that carries no forks. */
static inline void write_entry(w *o, const kifu_node *n)
{
    const kifu__node_text *t = kifu__text(n);
    if (!o->pretty && n->kind == KIFU_NODE_MOVE &&
        (!t || (!t->ncomments && !t->nbookmarks))) {
        entry_compact(o, n);
    } else {
        entry_head(o, n);
        close_(o, '}');
    }
}

static void write_moves(w *o, const kifu_record *r)
{
    if (kifu__record_is_line(r)) { /* no fork anywhere: child 0 after child 0 */
        for (const kifu_node *n = kifu__first(r->root); n; n = kifu__first(n))
            write_entry(o, n);
        return;
    }
    kifu__walk wk;
    kifu__walk_init(&wk, r->root, KIFU__WALK_LINES);
    int ev = KIFU__WALK_DONE;
    while (!o->failed && (ev = kifu__walk_next(&wk)) > 0) {
        const kifu_node *n = wk.node;
        if (n == r->root)
            continue;
        const kifu_node *p = kifu__parent(n);
        int first = kifu__is_first(n);
        if (ev == KIFU__WALK_EXIT) {
            if (kifu__walk_carries_forks(n) && !kifu__first_link(n)) {
                close_(o, ']'); /* its forks, with no continuation to close them */
                close_(o, '}');
            }
            if (!first)
                close_(o, ']'); /* a fork's line ends */
            continue;
        }
        if (!first) { /* a fork's line begins */
            sep(o);
            open_(o, '[');
        } else if (kifu__walk_carries_forks(p)) {
            close_(o, ']'); /* the line goes on after its entry's forks */
            close_(o, '}');
        }
        if (kifu__walk_carries_forks(n)) {
            entry_head(o, n);
            KEY(o, "forks");
            open_(o, '[');
        } else {
            write_entry(o, n);
        }
    }
    if (ev == KIFU__WALK_NOMEM)
        o->failed = 1;
    kifu__walk_free(&wk);
}

int kifu__write_jkf(KIFU__WRITER_PARAMS)
{
    kifu__warn_cut_times(r, opt, "JKF");
    w o;
    memset(&o, 0, sizeof o);
    o.out = out;
    o.pretty = opt && (opt->flags & KIFU_WRITE_PRETTY);
    o.first = 1;
    /* Room for every node at once (a move with its time is about 150 bytes), so the
     * buffer is not copied over and over as it grows. The count is kept by the record:
     * walking the line to count it would chase a pointer per node. */
    if (!grow(&o, r->nnodes * 160 + 1024))
        return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
    open_(&o, '{');
    KEY(&o, "header");
    if (write_header(&o, r))
        return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
    if (r->preset != KIFU_PRESET_NONE)
        write_initial(&o, r);
    KEY(&o, "moves");
    open_(&o, '[');
    sep(&o);
    open_(&o, '{');
    write_comments(&o, r->root);
    close_(&o, '}');
    write_moves(&o, r);
    close_(&o, ']');
    close_(&o, '}');
    if (o.pretty)
        put1(&o, '\n');
    if (o.failed) {
        out->failed = 1;
        return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
    }
    out->len = (size_t)(o.p - out->data);
    out->data[out->len] = 0;
    return 0;
}
