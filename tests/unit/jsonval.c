/* jsonval.c: see jsonval.h. Every walk is a loop over the flat array or an explicit
 * stack: a test document nests as deep as the record it holds. */
#include "jsonval.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int jv_parse(jv_doc *d, const char *text, size_t len, char *err, size_t cap)
{
    memset(d, 0, sizeof *d);
    if (!(d->text = malloc(len + 1)))
        return -1;
    memcpy(d->text, text, len);
    d->text[len] = 0;
    d->len = len;
    kifu_error e;
    kifu_error_clear(&e);
    if (kifu__msf_doc_read(&d->d, d->text, len, &e)) {
        if (err && cap)
            snprintf(err, cap, "%d:%d: %s", e.line, e.column, e.message);
        free(d->text);
        d->text = NULL;
        return -1;
    }
    d->ok = 1;
    return 0;
}

int jv_load_file(jv_doc *d, const char *path, char *err, size_t cap)
{
    memset(d, 0, sizeof *d);
    FILE *f = fopen(path, "rb");
    if (!f) {
        if (err && cap)
            snprintf(err, cap, "cannot open %s", path);
        return -1;
    }
    kifu__strbuf b;
    kifu__sb_init(&b);
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        kifu__sb_putn(&b, buf, n);
    fclose(f);
    size_t len = 0;
    char *text = kifu__sb_take(&b, &len);
    int rc = text ? jv_parse(d, text, len, err, cap) : -1;
    kifu__free(text);
    return rc;
}

void jv_free(jv_doc *d)
{
    if (d->ok)
        kifu__msf_doc_free(&d->d);
    free(d->text);
    memset(d, 0, sizeof *d);
}

const jv *jv_root(const jv_doc *d)
{
    return d && d->ok && d->d.n ? d->d.v : NULL;
}

const jv *jv_get(const jv *o, const char *key)
{
    return kifu__msf_get(o, key);
}

const jv *jv_idx(const jv *a, size_t i)
{
    return kifu__msf_at(a, i);
}

const jv *jv_at(const jv *v, const char *path)
{
    const char *p = path;
    while (*p && v) {
        if (*p == '.')
            p++;
        if (*p == '[') {
            char *e;
            long idx = strtol(p + 1, &e, 10);
            p = *e == ']' ? e + 1 : e;
            v = idx < 0 ? NULL : jv_idx(v, (size_t)idx);
        } else {
            char key[256];
            size_t n = strcspn(p, ".[");
            snprintf(key, sizeof key, "%.*s", (int)n, p);
            p += n;
            v = jv_get(v, key);
        }
    }
    return v;
}

size_t jv_size(const jv *v)
{
    return v && (v->type == KIFU__JSON_OBJECT || v->type == KIFU__JSON_ARRAY) ? v->count
                                                                              : 0;
}

const char *jv_str(const jv *v)
{
    return v && v->type == KIFU__JSON_STRING ? v->s : NULL;
}

long long jv_int(const jv *v)
{
    return v && v->type == KIFU__JSON_NUMBER && v->is_int ? v->i : 0;
}

double jv_num(const jv *v)
{
    if (!v || v->type != KIFU__JSON_NUMBER)
        return 0;
    return v->is_int ? (double)v->i : v->d;
}

int jv_is(const jv *v, int type)
{
    return v && v->type == type;
}

/* The two scalars are equal, or (containers) of the same kind and size. */
static int shallow_equal(const jv *a, const jv *b)
{
    if (a->type != b->type)
        return 0;
    switch (a->type) {
    case KIFU__JSON_STRING:
        return a->n == b->n && memcmp(a->s, b->s, a->n) == 0;
    case KIFU__JSON_NUMBER:
        if (a->is_int != b->is_int)
            return 0;
        return a->is_int ? a->i == b->i : a->d == b->d;
    case KIFU__JSON_OBJECT:
    case KIFU__JSON_ARRAY:
        return a->count == b->count;
    default:
        return 1;
    }
}

int jv_equal(const jv *a, const jv *b)
{
    if (!a || !b)
        return a == b;
    /* pairs still to compare */
    const jv **st = NULL;
    size_t n = 0, cap = 0;
    int same = 1;
    if (kifu__reserve(&st, &cap, 2, sizeof *st, 64))
        return 0;
    st[n++] = a;
    st[n++] = b;
    while (n && same) {
        const jv *y = st[--n], *x = st[--n];
        if (!shallow_equal(x, y)) {
            same = 0;
            break;
        }
        if (x->type != KIFU__JSON_OBJECT && x->type != KIFU__JSON_ARRAY)
            continue;
        const jv *e = x + 1, *f = y + 1;
        for (size_t k = 0; k < x->count; k++, e = kifu__msf_next(e)) {
            const jv *w = x->type == KIFU__JSON_OBJECT ? jv_get(y, e->key) : f;
            if (x->type == KIFU__JSON_ARRAY)
                f = kifu__msf_next(f);
            if (!w) {
                same = 0;
                break;
            }
            if (kifu__reserve(&st, &cap, n + 2, sizeof *st, 64)) {
                same = 0;
                break;
            }
            st[n++] = e;
            st[n++] = w;
        }
    }
    kifu__free(st);
    return same;
}

void jv_quote(kifu__strbuf *b, const char *s, size_t n)
{
    kifu__sb_putc(b, '"');
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        const char *esc = c == '"'    ? "\\\""
                          : c == '\\' ? "\\\\"
                          : c == '\b' ? "\\b"
                          : c == '\f' ? "\\f"
                          : c == '\n' ? "\\n"
                          : c == '\r' ? "\\r"
                          : c == '\t' ? "\\t"
                                      : NULL;
        if (esc)
            kifu__sb_puts(b, esc);
        else if (c < 0x20)
            kifu__sb_printf(b, "\\u%04X", c);
        else
            kifu__sb_putc(b, (char)c);
    }
    kifu__sb_putc(b, '"');
}

/* A real: %.17g, always with a '.' or an exponent, which has no '+'
 * and no leading zeros. */
static void put_real(kifu__strbuf *b, double d)
{
    char buf[64], out[64];
    snprintf(buf, sizeof buf, "%.17g", d);
    if (!strpbrk(buf, ".eEni"))
        strcat(buf, ".0");
    char *e = strchr(buf, 'e');
    if (e) {
        size_t k = (size_t)(e - buf) + 1, o = k;
        memcpy(out, buf, k);
        const char *p = e + 1;
        if (*p == '+')
            p++;
        else if (*p == '-')
            out[o++] = *p++;
        while (*p == '0' && p[1])
            p++;
        snprintf(out + o, sizeof out - o, "%s", p);
        kifu__sb_puts(b, out);
    } else {
        kifu__sb_puts(b, buf);
    }
}

static void put_scalar(kifu__strbuf *b, const jv *v)
{
    switch (v->type) {
    case KIFU__JSON_STRING:
        jv_quote(b, v->s, v->n);
        break;
    case KIFU__JSON_NUMBER:
        if (v->is_int)
            kifu__sb_printf(b, "%lld", v->i);
        else
            put_real(b, v->d);
        break;
    case KIFU__JSON_TRUE:
        kifu__sb_puts(b, "true");
        break;
    case KIFU__JSON_FALSE:
        kifu__sb_puts(b, "false");
        break;
    default:
        kifu__sb_puts(b, "null");
        break;
    }
}

static void newline(kifu__strbuf *b, int layout, size_t depth)
{
    if (layout < 0)
        return;
    kifu__sb_putc(b, '\n');
    for (size_t k = 0; k < depth * (size_t)layout; k++)
        kifu__sb_putc(b, ' ');
}

void jv_write(kifu__strbuf *b, const jv *v, int layout)
{
    if (!v) {
        kifu__sb_puts(b, "null");
        return;
    }
    /* the open containers and how many of their members are still to start */
    typedef struct open {
        const jv *c;
        size_t left;
    } open;
    open *st = NULL;
    size_t depth = 0, cap = 0;
    const char *comma = layout == JV_COMPACT ? "," : layout == JV_SPACED ? ", " : ",";
    const char *colon = layout == JV_COMPACT ? ":" : ": ";
    const jv *e = v;
    for (;;) {
        if (depth) {
            st[depth - 1].left--;
            if (st[depth - 1].c->type == KIFU__JSON_OBJECT) {
                jv_quote(b, e->key, strlen(e->key));
                kifu__sb_puts(b, colon);
            }
        }
        int obj = e->type == KIFU__JSON_OBJECT;
        if ((obj || e->type == KIFU__JSON_ARRAY) && e->count) {
            if (kifu__reserve(&st, &cap, depth + 1, sizeof *st, 16))
                break;
            kifu__sb_putc(b, obj ? '{' : '[');
            st[depth].c = e;
            st[depth++].left = e->count;
            newline(b, layout, depth);
            e++;
            continue;
        }
        if (obj || e->type == KIFU__JSON_ARRAY)
            kifu__sb_puts(b, obj ? "{}" : "[]");
        else
            put_scalar(b, e);
        e++;
        /* the value is complete: so is every container it was the last member of */
        while (depth && st[depth - 1].left == 0) {
            depth--;
            newline(b, layout, depth);
            kifu__sb_putc(b, st[depth].c->type == KIFU__JSON_OBJECT ? '}' : ']');
        }
        if (!depth)
            break;
        kifu__sb_puts(b, comma);
        newline(b, layout, depth);
    }
    kifu__free(st);
}

char *jv_dump(const jv *v, int layout)
{
    kifu__strbuf b;
    kifu__sb_init(&b);
    jv_write(&b, v, layout);
    char *s = kifu__sb_take(&b, NULL);
    if (!s)
        return NULL;
    char *out = strdup(s); /* the tests free with free() */
    kifu__free(s);
    return out;
}

/* Where the value v ends in text: just past its last byte. */
static size_t value_end(const char *text, size_t len, const jv *v)
{
    kifu__json j;
    kifu__json_init_value(&j, text, len, v->off);
    kifu__json_tok t;
    size_t end = v->off;
    if (kifu__json_next(&j, &t) > 0 && kifu__json_skip(&j, &t) == 0)
        end = j.pos;
    kifu__json_free(&j);
    while (end > v->off && (text[end - 1] == ' ' || text[end - 1] == '\n' ||
                            text[end - 1] == '\r' || text[end - 1] == '\t'))
        end--;
    return end;
}

static int is_space(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

typedef struct span {
    size_t from, to;
    const char *pre, *key, *json; /* written in this order in place of [from, to) */
} span;

static int by_from(const void *a, const void *b)
{
    const span *x = a, *y = b;
    return (x->from > y->from) - (x->from < y->from);
}

int jv_apply(jv_doc *d, const jv_edit *edits, size_t n)
{
    span *sp = calloc(n ? n : 1, sizeof *sp);
    if (!sp)
        return -1;
    const char *t = d->text;
    for (size_t k = 0; k < n; k++) {
        const jv *v = edits[k].v;
        size_t end = value_end(t, d->len, v);
        span *s = &sp[k];
        if (edits[k].key) { /* added before the object's closing brace */
            s->from = s->to = end - 1;
            s->pre = v->count ? "," : "";
            s->key = edits[k].key;
            s->json = edits[k].json;
        } else if (edits[k].json) {
            s->from = v->off;
            s->to = end;
            s->json = edits[k].json;
        } else {                                 /* removed with one comma beside it */
            s->from = v->key ? v->koff : v->off; /* koff: the key's opening quote */
            s->to = end;
            size_t p = end;
            while (p < d->len && is_space(t[p]))
                p++;
            if (p < d->len && t[p] == ',') {
                s->to = p + 1;
            } else {
                size_t q = s->from;
                while (q > 0 && is_space(t[q - 1]))
                    q--;
                if (q > 0 && t[q - 1] == ',')
                    s->from = q - 1;
            }
        }
    }
    qsort(sp, n, sizeof *sp, by_from);
    kifu__strbuf b;
    kifu__sb_init(&b);
    size_t at = 0;
    for (size_t k = 0; k < n; k++) {
        kifu__sb_putn(&b, t + at, sp[k].from - at);
        if (sp[k].pre)
            kifu__sb_puts(&b, sp[k].pre);
        if (sp[k].key) {
            jv_quote(&b, sp[k].key, strlen(sp[k].key));
            kifu__sb_putc(&b, ':');
        }
        if (sp[k].json)
            kifu__sb_puts(&b, sp[k].json);
        at = sp[k].to;
    }
    kifu__sb_putn(&b, t + at, d->len - at);
    free(sp);
    size_t len = 0;
    char *text = kifu__sb_take(&b, &len);
    if (!text)
        return -1;
    jv_doc nd;
    char err[256];
    int rc = jv_parse(&nd, text, len, err, sizeof err);
    if (rc)
        printf("  an edited document does not read: %s\n", err);
    kifu__free(text);
    if (rc)
        return -1;
    jv_free(d);
    *d = nd;
    return 0;
}

jv_edit jv_member(const jv *o, const char *key, const char *json)
{
    const jv *v = jv_get(o, key);
    jv_edit e = {v ? v : o, v ? NULL : key, json};
    return e;
}

int jv_set(jv_doc *d, const char *path, const char *json)
{
    const jv *v = jv_at(jv_root(d), path);
    jv_edit e = {v, NULL, json};
    if (!v && json) { /* a missing member: added to its object */
        size_t n = strlen(path), k = n;
        while (k > 0 && path[k - 1] != '.' && path[k - 1] != '[')
            k--;
        char parent[512];
        snprintf(parent, sizeof parent, "%.*s", (int)(k ? k - 1 : 0), path);
        const jv *o = jv_at(jv_root(d), parent);
        if ((k == 0 || path[k - 1] == '.') && jv_is(o, KIFU__JSON_OBJECT)) {
            e.v = o;
            e.key = path + k;
        }
    }
    if (!e.v) {
        printf("  no place %s in the document\n", path);
        return -1;
    }
    return jv_apply(d, &e, 1);
}
