/* jsoncmp.h: compare JSON values for tests and say where they first differ.
 * Header-only (static functions) so any test file can include it; the values are read
 * by the project's own reader (jsonval.h). */
#ifndef KIFU_TEST_JSONCMP_H
#define KIFU_TEST_JSONCMP_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonval.h"

/* snprintf, cut short when it must be (a path in a message) */
static void jsoncmp_put(char *dst, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void jsoncmp_put(char *dst, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(dst, cap, fmt, ap);
    va_end(ap);
}

/* 1 when a and b are equal JSON values (key order aside); otherwise 0 and `where` holds
 * the path of the first difference with both sides. Goes down one differing member at
 * a time: a loop, however deep the values nest. */
static int jsoncmp_path(const jv *a, const jv *b, char *where, size_t cap,
                        const char *path)
{
    char at[512], sub[512];
    jsoncmp_put(at, sizeof at, "%s", path);
    for (;;) {
        if (jv_equal(a, b))
            return 1;
        const jv *next_a = NULL, *next_b = NULL;
        if (jv_is(a, KIFU__JSON_OBJECT) && jv_is(b, KIFU__JSON_OBJECT)) {
            const jv *v = a + 1;
            for (size_t k = 0; k < a->count && !next_a; k++, v = kifu__msf_next(v)) {
                jsoncmp_put(sub, sizeof sub, "%s.%s", at, v->key);
                const jv *w = jv_get(b, v->key);
                if (!w) {
                    jsoncmp_put(where, cap, "%s: only in the first", sub);
                    return 0;
                }
                if (!jv_equal(v, w))
                    next_a = v, next_b = w;
            }
            if (!next_a) {
                v = b + 1;
                for (size_t k = 0; k < b->count; k++, v = kifu__msf_next(v))
                    if (!jv_get(a, v->key)) {
                        jsoncmp_put(where, cap, "%s.%s: only in the second", at, v->key);
                        return 0;
                    }
            }
        } else if (jv_is(a, KIFU__JSON_ARRAY) && jv_is(b, KIFU__JSON_ARRAY)) {
            size_t n = a->count < b->count ? a->count : b->count;
            for (size_t i = 0; i < n && !next_a; i++)
                if (!jv_equal(jv_idx(a, i), jv_idx(b, i))) {
                    jsoncmp_put(sub, sizeof sub, "%s[%zu]", at, i);
                    next_a = jv_idx(a, i), next_b = jv_idx(b, i);
                }
            if (!next_a) {
                jsoncmp_put(where, cap, "%s: %zu vs %zu elements", at, a->count,
                            b->count);
                return 0;
            }
        }
        if (!next_a) {
            char *sa = jv_dump(a, JV_COMPACT), *sb = jv_dump(b, JV_COMPACT);
            jsoncmp_put(where, cap, "%s: %.200s vs %.200s", at, sa ? sa : "?",
                        sb ? sb : "?");
            free(sa);
            free(sb);
            return 0;
        }
        a = next_a;
        b = next_b;
        memcpy(at, sub, sizeof at);
    }
}

/* Compare two JSON texts. 1 equal, 0 different (where says how), -1 a text does not
 * parse (where says which). */
static int jsoncmp_text(const char *a, size_t alen, const char *b, size_t blen,
                        char *where, size_t cap)
{
    jv_doc ja, jb;
    char e[300];
    if (jv_parse(&ja, a, alen, e, sizeof e)) {
        snprintf(where, cap, "first text: %s", e);
        return -1;
    }
    if (jv_parse(&jb, b, blen, e, sizeof e)) {
        jv_free(&ja);
        snprintf(where, cap, "second text: %s", e);
        return -1;
    }
    int rc = jsoncmp_path(jv_root(&ja), jv_root(&jb), where, cap, "$");
    jv_free(&ja);
    jv_free(&jb);
    return rc;
}

#endif
