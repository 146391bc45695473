/* jsoncmp.h: compare JSON values for tests and say where they first differ.
 * Header-only (static functions) so any test file can include it. */
#ifndef KIFU_TEST_JSONCMP_H
#define KIFU_TEST_JSONCMP_H

#include <jansson.h>
#include <stdio.h>
#include <string.h>

/* 1 when a and b are equal JSON values (key order aside); otherwise 0 and `where` holds
 * the path of the first difference with both sides. */
static int jsoncmp_path(const json_t *a, const json_t *b, char *where, size_t cap,
                        const char *path)
{
    if (json_equal(a, b))
        return 1;
    char sub[512];
    if (json_is_object(a) && json_is_object(b)) {
        const char *k;
        json_t *v;
        json_object_foreach((json_t *)a, k, v)
        {
            snprintf(sub, sizeof sub, "%s.%s", path, k);
            json_t *w = json_object_get(b, k);
            if (!w) {
                snprintf(where, cap, "%s: only in the first", sub);
                return 0;
            }
            if (!jsoncmp_path(v, w, where, cap, sub))
                return 0;
        }
        json_object_foreach((json_t *)b, k, v)
        {
            if (!json_object_get(a, k)) {
                snprintf(where, cap, "%s.%s: only in the second", path, k);
                return 0;
            }
        }
    } else if (json_is_array(a) && json_is_array(b)) {
        size_t n = json_array_size(a) < json_array_size(b) ? json_array_size(a)
                                                           : json_array_size(b);
        for (size_t i = 0; i < n; i++) {
            snprintf(sub, sizeof sub, "%s[%zu]", path, i);
            if (!jsoncmp_path(json_array_get(a, i), json_array_get(b, i), where, cap,
                              sub))
                return 0;
        }
        snprintf(where, cap, "%s: %zu vs %zu elements", path, json_array_size(a),
                 json_array_size(b));
        return 0;
    }
    char *sa = json_dumps(a, JSON_ENCODE_ANY | JSON_COMPACT);
    char *sb = json_dumps(b, JSON_ENCODE_ANY | JSON_COMPACT);
    snprintf(where, cap, "%s: %.200s vs %.200s", path, sa ? sa : "?", sb ? sb : "?");
    free(sa);
    free(sb);
    return 0;
}

/* Compare two JSON texts. 1 equal, 0 different (where says how), -1 a text does not
 * parse (where says which). */
static int jsoncmp_text(const char *a, size_t alen, const char *b, size_t blen,
                        char *where, size_t cap)
{
    json_error_t e;
    json_t *ja = json_loadb(a, alen, 0, &e);
    if (!ja) {
        snprintf(where, cap, "first text: %d:%d: %s", e.line, e.column, e.text);
        return -1;
    }
    json_t *jb = json_loadb(b, blen, 0, &e);
    if (!jb) {
        json_decref(ja);
        snprintf(where, cap, "second text: %d:%d: %s", e.line, e.column, e.text);
        return -1;
    }
    int rc = jsoncmp_path(ja, jb, where, cap, "$");
    json_decref(ja);
    json_decref(jb);
    return rc;
}

#endif
