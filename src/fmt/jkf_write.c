/* jkf_write.c: the record tree as JSON Kifu Format.
 *
 * JSON is written by hand into the output buffer: no JSON objects are built, so the
 * writer allocates nothing per move (the buffer grows geometrically). Keys come in the
 * schema's order (header, initial, moves; comments, move, time, special, forks; color,
 * from, to, piece, same, promote, capture, relative). KIFU_WRITE_PRETTY indents by two
 * spaces like JSON.stringify(v, null, 2); otherwise the output has no whitespace. Text
 * stays UTF-8; only what JSON requires is escaped. */
#include <string.h>

#include "fmt/fmt.h"
#include "kifu_private.h"
#include "record.h"

typedef struct w {
    kifu__strbuf *out;
    int pretty;
    int depth;
    int first; /* no element written yet in the innermost open container */
} w;

/* One byte; the common case skips kifu__sb_putc's bookkeeping (the buffer stays
 * NUL-terminated like kifu__sb_putn leaves it). */
static inline void put1(kifu__strbuf *b, char ch)
{
    if (b->len + 2 <= b->cap) {
        b->data[b->len++] = ch;
        b->data[b->len] = 0;
    } else {
        kifu__sb_putc(b, ch);
    }
}

static const char spaces[] = "                                                                ";

static void newline(w *o)
{
    if (!o->pretty)
        return;
    put1(o->out, '\n');
    size_t n = (size_t)o->depth * 2;
    while (n > 0) {
        size_t k = n < sizeof spaces - 1 ? n : sizeof spaces - 1;
        kifu__sb_putn(o->out, spaces, k);
        n -= k;
    }
}

/* Before an element of an array or a member of an object. */
static void sep(w *o)
{
    if (!o->first)
        put1(o->out, ',');
    o->first = 0;
    newline(o);
}

static void open_(w *o, char ch)
{
    put1(o->out, ch);
    o->depth++;
    o->first = 1;
}

static void close_(w *o, char ch)
{
    o->depth--;
    if (!o->first)
        newline(o);
    put1(o->out, ch);
    o->first = 0; /* the parent now holds at least this element */
}

/* The characters of s as JSON string content (no quotes). */
static void escaped(kifu__strbuf *b, const char *s)
{
    const char *run = s;
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch >= 0x20 && ch != '"' && ch != '\\')
            continue;
        kifu__sb_putn(b, run, (size_t)(s - run));
        run = s + 1;
        switch (ch) {
        case '"': kifu__sb_putn(b, "\\\"", 2); break;
        case '\\': kifu__sb_putn(b, "\\\\", 2); break;
        case '\n': kifu__sb_putn(b, "\\n", 2); break;
        case '\r': kifu__sb_putn(b, "\\r", 2); break;
        case '\t': kifu__sb_putn(b, "\\t", 2); break;
        case '\b': kifu__sb_putn(b, "\\b", 2); break;
        case '\f': kifu__sb_putn(b, "\\f", 2); break;
        default: {
            static const char hex[] = "0123456789abcdef";
            char u[6] = {'\\', 'u', '0', '0', hex[ch >> 4], hex[ch & 15]};
            kifu__sb_putn(b, u, 6);
        }
        }
    }
    kifu__sb_putn(b, run, (size_t)(s - run));
}

static void string(w *o, const char *s)
{
    put1(o->out, '"');
    escaped(o->out, s);
    put1(o->out, '"');
}

static void key(w *o, const char *k)
{
    sep(o);
    put1(o->out, '"');
    kifu__sb_puts(o->out, k); /* our own keys: ASCII, nothing to escape */
    kifu__sb_putn(o->out, o->pretty ? "\": " : "\":", o->pretty ? 3 : 2);
}

static void integer(w *o, long v)
{
    char buf[24], *p = buf + sizeof buf;
    unsigned long u = v < 0 ? 0UL - (unsigned long)v : (unsigned long)v;
    do {
        *--p = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        *--p = '-';
    kifu__sb_putn(o->out, p, (size_t)(buf + sizeof buf - p));
}

static void key_int(w *o, const char *k, long v)
{
    key(o, k);
    integer(o, v);
}

static void key_str(w *o, const char *k, const char *v)
{
    key(o, k);
    string(o, v);
}

static void key_bool(w *o, const char *k, int v)
{
    key(o, k);
    kifu__sb_puts(o->out, v ? "true" : "false");
}

static void place(w *o, const char *k, int x, int y)
{
    key(o, k);
    open_(o, '{');
    key_int(o, "x", x);
    key_int(o, "y", y);
    close_(o, '}');
}

/* ---- header and initial position ---- */

static void write_initial(w *o, const kifu_record *r)
{
    static const int hand_order[] = {KIFU_FU, KIFU_KY, KIFU_KE, KIFU_GI,
                                     KIFU_KI, KIFU_KA, KIFU_HI};
    key(o, "initial");
    open_(o, '{');
    key_str(o, "preset", kifu_preset_name(r->preset));
    if (r->has_data) {
        const kifu_board *b = &r->initial;
        key(o, "data");
        open_(o, '{');
        key_int(o, "color", b->color);
        key(o, "board");
        open_(o, '[');
        for (int x = 0; x < 9; x++) {
            sep(o);
            open_(o, '[');
            for (int y = 0; y < 9; y++) {
                uint8_t cp = b->sq[x * 9 + y];
                sep(o);
                open_(o, '{');
                if (cp) {
                    key_int(o, "color", cp >> 4);
                    key_str(o, "kind", kifu_piece_csa(cp & 15));
                }
                close_(o, '}');
            }
            close_(o, ']');
        }
        close_(o, ']');
        key(o, "hands");
        open_(o, '[');
        for (int c = 0; c < 2; c++) {
            sep(o);
            open_(o, '{');
            for (int i = 0; i < 7; i++)
                key_int(o, kifu_piece_csa(hand_order[i]), b->hands[c][hand_order[i]]);
            close_(o, '}');
        }
        close_(o, ']');
        close_(o, '}');
    }
    close_(o, '}');
}

/* ---- moves ---- */

static void write_time1(w *o, const char *k, const kifu_time *t)
{
    key(o, k);
    open_(o, '{');
    if (t->h >= 0)
        key_int(o, "h", t->h);
    key_int(o, "m", t->m);
    key_int(o, "s", t->s);
    close_(o, '}');
}

static void write_move(w *o, const kifu_move *m)
{
    key(o, "move");
    open_(o, '{');
    if (!(m->flags & KIFU_MOVE_NO_COLOR))
        key_int(o, "color", m->color);
    if (m->from_x)
        place(o, "from", m->from_x, m->from_y);
    else if (m->flags & KIFU__MOVE_FROM_NULL) {
        key(o, "from");
        kifu__sb_putn(o->out, "null", 4);
    }
    if (m->to_x)
        place(o, "to", m->to_x, m->to_y);
    if (m->piece && kifu_piece_csa(m->piece))
        key_str(o, "piece", kifu_piece_csa(m->piece));
    if (m->same >= 0)
        key_bool(o, "same", m->same);
    if (m->promote >= 0)
        key_bool(o, "promote", m->promote);
    if (m->capture && kifu_piece_csa(m->capture))
        key_str(o, "capture", kifu_piece_csa(m->capture));
    if (m->relative[0]) {
        char rel[4];
        memcpy(rel, m->relative, 3);
        rel[3] = 0;
        key_str(o, "relative", rel);
    }
    close_(o, '}');
}

/* Comments, then KIF bookmarks as "&name" lines (how JKF tools keep them). */
static void write_comments(w *o, const kifu_node *n)
{
    if (!n->ncomments && !n->nbookmarks)
        return;
    key(o, "comments");
    open_(o, '[');
    for (uint32_t i = 0; i < n->ncomments; i++) {
        sep(o);
        string(o, n->comments[i]);
    }
    for (uint32_t i = 0; i < n->nbookmarks; i++) {
        sep(o);
        kifu__sb_putn(o->out, "\"&", 2);
        escaped(o->out, n->bookmarks[i]);
        put1(o->out, '"');
    }
    close_(o, ']');
}

static void write_line(w *o, const kifu_node *n, int forks_of_first);

/* One entry. forks: write parent's children 1.. as this entry's forks (n is child 0). */
static void write_entry(w *o, const kifu_node *n, int forks)
{
    sep(o);
    open_(o, '{');
    write_comments(o, n);
    if (n->kind == KIFU_NODE_MOVE)
        write_move(o, &n->move);
    if (n->has_time) {
        key(o, "time");
        open_(o, '{');
        write_time1(o, "now", &n->time.now);
        if (n->time.has_total)
            write_time1(o, "total", &n->time.total);
        close_(o, '}');
    }
    if (n->kind == KIFU_NODE_SPECIAL)
        key_str(o, "special", n->special);
    const kifu_node *p = n->parent;
    if (forks && p && p->nchildren > 1) {
        key(o, "forks");
        open_(o, '[');
        for (uint32_t i = 1; i < p->nchildren; i++) {
            sep(o);
            open_(o, '[');
            write_line(o, p->children[i], 0);
            close_(o, ']');
        }
        close_(o, ']');
    }
    close_(o, '}');
}

/* The line starting at n, following child 0. The first entry carries its siblings as
 * forks only when asked (in a fork array the siblings were written one level up).
 * Iterative along the line; recursion only through forks. */
static void write_line(w *o, const kifu_node *n, int forks_of_first)
{
    int forks = forks_of_first;
    while (n && !o->out->failed) {
        write_entry(o, n, forks);
        forks = 1;
        n = n->nchildren ? n->children[0] : NULL;
    }
}

int kifu__write_jkf(const kifu_record *r, const kifu_write_options *opt, kifu__strbuf *out,
                    kifu_error *err)
{
    w o = {out, opt && (opt->flags & KIFU_WRITE_PRETTY), 0, 1};
    open_(&o, '{');
    key(&o, "header");
    open_(&o, '{');
    for (size_t i = 0; i < r->nheader; i++) {
        sep(&o);
        string(&o, r->header[i].key);
        kifu__sb_putn(out, o.pretty ? ": " : ":", o.pretty ? 2 : 1);
        string(&o, r->header[i].value);
    }
    close_(&o, '}');
    if (r->preset != KIFU_PRESET_NONE)
        write_initial(&o, r);
    key(&o, "moves");
    open_(&o, '[');
    sep(&o);
    open_(&o, '{');
    write_comments(&o, r->root);
    close_(&o, '}');
    if (r->root->nchildren)
        write_line(&o, r->root->children[0], 1);
    close_(&o, ']');
    close_(&o, '}');
    if (o.pretty)
        put1(out, '\n');
    if (out->failed)
        return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
    return 0;
}
