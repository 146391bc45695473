/* doc.c: an MSF document as a tree of JSON values, read with core/json.c's pull parser.
 * The reader (read.c) asks for members by name and in the format's order, not the file's,
 * and every problem it or a check reports needs the place of a value, so the tokens are
 * kept: one flat array in document order, each value with its byte offset. A container's
 * members follow it, and each value records how far its last descendant reaches, so
 * building, walking and freeing are loops however deep the document nests. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/encoding.h"
#include "kifu_private.h"
#include "msf/msf.h"

const kifu__msf_val *kifu__msf_get(const kifu__msf_val *o, const char *key)
{
    if (!o || o->type != KIFU__JSON_OBJECT)
        return NULL;
    const kifu__msf_val *e = o + 1;
    for (size_t k = 0; k < o->count; k++, e = kifu__msf_next(e))
        if (strcmp(e->key, key) == 0)
            return e;
    return NULL;
}

const kifu__msf_val *kifu__msf_at(const kifu__msf_val *a, size_t i)
{
    if (!a || a->type != KIFU__JSON_ARRAY || i >= a->count)
        return NULL;
    const kifu__msf_val *e = a + 1;
    while (i--)
        e = kifu__msf_next(e);
    return e;
}

/* A number as jansson typed it: an integer that fits long long, else a real. */
static void number(kifu__msf_val *v, const kifu__json_tok *t)
{
    v->s = t->s;
    v->n = t->n;
    v->is_int = t->is_int;
    v->i = t->i;
    /* kifu__json clamps an integer out of range: that one is a real */
    if (v->is_int && (t->i == LLONG_MAX || t->i == LLONG_MIN)) {
        const char *lim =
            t->i == LLONG_MAX ? "9223372036854775807" : "-9223372036854775808";
        v->is_int = t->n == strlen(lim) && memcmp(t->s, lim, t->n) == 0;
    }
    if (!v->is_int) {
        char buf[64], *own = NULL, *p = buf;
        if (t->n >= sizeof buf && !(p = own = kifu__malloc(t->n + 1)))
            return; /* the value is only described in messages: 0 then */
        memcpy(p, t->s, t->n);
        p[t->n] = 0;
        v->d = strtod(p, NULL);
        kifu__free(own);
    }
}

typedef struct keyed {
    const char *key;
    size_t i; /* the member's index in the document */
} keyed;

static int by_key(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    int c = strcmp(x->key, y->key);
    return c ? c : (x->i > y->i) - (x->i < y->i);
}

/* The first member (in the text) of the object at index o whose name an earlier member
 * already has: its index, or (size_t)-1. Members after an open one are not built yet:
 * the walk stops at it (an error inside it is being reported). -2 on NOMEM. */
static size_t duplicate(const kifu__msf_doc *d, size_t o)
{
    const kifu__msf_val *obj = &d->v[o];
    if (obj->count < 2)
        return (size_t)-1;
    /* the format's objects have up to five members: compared pairwise, no allocation */
    if (obj->count <= 8) {
        size_t at[8], n = 0, i = o + 1;
        while (n < obj->count && i < d->n) {
            for (size_t k = 0; k < n; k++)
                if (strcmp(d->v[at[k]].key, d->v[i].key) == 0)
                    return i; /* members come in text order: the first repeat */
            at[n++] = i;
            if (!d->v[i].skip)
                break;
            i += d->v[i].skip;
        }
        return (size_t)-1;
    }
    keyed *ks = kifu__malloc(obj->count * sizeof *ks);
    if (!ks)
        return (size_t)-2;
    size_t n = 0, i = o + 1;
    while (n < obj->count && i < d->n) {
        ks[n].key = d->v[i].key;
        ks[n++].i = i;
        if (!d->v[i].skip)
            break;
        i += d->v[i].skip;
    }
    qsort(ks, n, sizeof *ks, by_key);
    size_t first = (size_t)-1;
    for (size_t k = 1; k < n; k++)
        if (strcmp(ks[k].key, ks[k - 1].key) == 0 &&
            (k < 2 || strcmp(ks[k].key, ks[k - 2].key) != 0) && ks[k].i < first)
            first = ks[k].i;
    kifu__free(ks);
    return first;
}

static int dup_error(kifu__msf_doc *d, const char *text, size_t i, kifu_error *err)
{
    if (i == (size_t)-2)
        return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
    int line, col;
    kifu__text_where(text, d->v[i].koff, &line, &col);
    return kifu__error(err, KIFU_ERR_SYNTAX, line, col, d->v[i].koff,
                       "a key not used before in the object", d->v[i].key,
                       "JSON syntax: duplicate key \"%.60s\" in an object", d->v[i].key);
}

/* A syntax error at offset `at`: a duplicate key before it, in an object still open,
 * came first in the text and is the one reported (as a reader that checked each key as
 * it came would). */
static int syntax_error(kifu__msf_doc *d, kifu__json *j, const size_t *open, size_t depth,
                        kifu_error *err)
{
    size_t first = (size_t)-1;
    for (size_t k = 0; k < depth && !j->nomem; k++) {
        if (d->v[open[k]].type != KIFU__JSON_OBJECT)
            continue;
        size_t i = duplicate(d, open[k]);
        if (i == (size_t)-2)
            return dup_error(d, j->text, i, err);
        if (i != (size_t)-1 && d->v[i].koff < j->err_off &&
            (first == (size_t)-1 || d->v[i].koff < d->v[first].koff))
            first = i;
    }
    if (first != (size_t)-1)
        return dup_error(d, j->text, first, err);
    return kifu__json_error(j, err);
}

int kifu__msf_doc_read(kifu__msf_doc *d, const char *text, size_t len, kifu_error *err)
{
    memset(d, 0, sizeof *d);
    kifu__arena_init(&d->strings);
    size_t bad;
    /* JSON is UTF-8: the model's strings are written out again as they are */
    if (!kifu__utf8_valid(text, len, &bad)) {
        int line, col;
        kifu__text_where(text, bad, &line, &col);
        return kifu__error(err, KIFU_ERR_SYNTAX, line, col, bad, "UTF-8",
                           "a byte of none", "JSON syntax: byte 0x%02X is not UTF-8",
                           (unsigned char)text[bad]);
    }
    kifu__json j;
    kifu__json_init(&j, text, len);
    kifu__json_tok t;
    size_t *open = NULL, depth = 0, cap = 0;
    const char *key = NULL;
    size_t koff = 0;
    int rc = 0, type;
    while ((type = kifu__json_next(&j, &t)) != KIFU__JSON_END) {
        if (type == KIFU__JSON_ERROR) {
            rc = syntax_error(d, &j, open, depth, err);
            break;
        }
        if (type == KIFU__JSON_OBJECT_END || type == KIFU__JSON_ARRAY_END) {
            size_t o = open[--depth];
            d->v[o].skip = d->n - o;
            size_t i = type == KIFU__JSON_OBJECT_END ? duplicate(d, o) : (size_t)-1;
            if (i != (size_t)-1) {
                rc = dup_error(d, text, i, err);
                break;
            }
            continue;
        }
        if (type == KIFU__JSON_KEY) {
            if (!(key = kifu__arena_strndup(&d->strings, t.s, t.n))) {
                rc = kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL,
                                 "out of memory");
                break;
            }
            koff = t.off;
            continue;
        }
        if (kifu__reserve(&d->v, &d->cap, d->n + 1, sizeof *d->v, 256)) {
            rc = kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
            break;
        }
        kifu__msf_val *v = &d->v[d->n];
        memset(v, 0, sizeof *v);
        v->type = type;
        v->off = t.off;
        v->key = key;
        v->koff = koff;
        v->skip = 1;
        key = NULL;
        if (depth)
            d->v[open[depth - 1]].count++;
        if (type == KIFU__JSON_STRING) {
            v->n = t.n;
            if (!(v->s = kifu__arena_strndup(&d->strings, t.s, t.n))) {
                rc = kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL,
                                 "out of memory");
                break;
            }
        } else if (type == KIFU__JSON_NUMBER) {
            number(v, &t);
        } else if (type == KIFU__JSON_OBJECT || type == KIFU__JSON_ARRAY) {
            /* open until its end: skip 0 says so to a walk over a document cut short */
            v->skip = 0;
            if (kifu__reserve(&open, &cap, depth + 1, sizeof *open, 64)) {
                rc = kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL,
                                 "out of memory");
                break;
            }
            open[depth++] = d->n;
        }
        d->n++;
    }
    kifu__free(open);
    kifu__json_free(&j);
    if (rc)
        kifu__msf_doc_free(d);
    return rc;
}

void kifu__msf_doc_free(kifu__msf_doc *d)
{
    kifu__free(d->v);
    kifu__arena_free(&d->strings);
    d->v = NULL;
    d->n = d->cap = 0;
}

/* The value at the first plen bytes of path (as json_path.h writes them) from v, or
 * NULL. */
static const kifu__msf_val *follow(const kifu__msf_val *v, const char *path, size_t plen)
{
    size_t p = 0;
    char key[512];
    while (p < plen && v) {
        if (path[p] == '.') {
            p++;
        } else if (path[p] == '[') {
            size_t k = 0;
            for (p++; p < plen && path[p] >= '0' && path[p] <= '9'; p++)
                k = k * 10 + (size_t)(path[p] - '0');
            p++; /* ']' */
            v = kifu__msf_at(v, k);
        } else {
            size_t e = p;
            while (e < plen && path[e] != '.' && path[e] != '[')
                e++;
            if (e - p >= sizeof key)
                return NULL;
            memcpy(key, path + p, e - p);
            key[e - p] = 0;
            v = kifu__msf_get(v, key);
            p = e;
        }
    }
    return v;
}

const kifu__msf_val *kifu__msf_val_find(const kifu__msf_val *from, const char *path)
{
    size_t plen = strlen(path);
    const kifu__msf_val *v = follow(from, path, plen);
    /* a missing member: the nearest value the path does reach, the object lacking it */
    while (!v && plen > 0) {
        while (plen > 0 && path[plen - 1] != '.' && path[plen - 1] != '[')
            plen--;
        if (plen > 0)
            plen--;
        v = follow(from, path, plen);
    }
    return v;
}

const kifu__msf_val *kifu__msf_doc_find(const kifu__msf_doc *d, const char *path)
{
    return kifu__msf_val_find(d->n ? d->v : NULL,
                              strcmp(path, "(top level)") == 0 ? "" : path);
}
