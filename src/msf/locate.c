/* locate.c: where a problem is. jansson keeps no positions for values, so a problem's
 * JSON path is followed through the text with a small scanner to give it the line and
 * column every kifu message carries; a path that names a missing member points at the
 * object that lacks it. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "kifu_private.h"
#include "msf/msf.h"

static size_t skip_ws(const char *t, size_t len, size_t i)
{
    while (i < len && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r'))
        i++;
    return i;
}

/* Past the string starting at t[i] == '"'. */
static size_t skip_string(const char *t, size_t len, size_t i)
{
    for (i++; i < len && t[i] != '"'; i++)
        if (t[i] == '\\')
            i++;
    return i < len ? i + 1 : len;
}

/* Past the value starting at t[i]: brackets counted, strings skipped (no recursion). */
static size_t skip_value(const char *t, size_t len, size_t i)
{
    int depth = 0;
    while (i < len) {
        char ch = t[i];
        if (ch == '"') {
            i = skip_string(t, len, i);
            if (depth == 0)
                return i;
            continue;
        }
        if (ch == '{' || ch == '[') {
            depth++;
        } else if (ch == '}' || ch == ']') {
            if (--depth <= 0)
                return i + 1;
        } else if (depth == 0 &&
                   (ch == ',' || ch == ' ' || ch == '\n' || ch == '\r' || ch == '\t')) {
            return i;
        }
        i++;
    }
    return len;
}

/* From the object at t[i], the offset of member key's value, or len. */
static size_t find_key(const char *t, size_t len, size_t i, const char *key, size_t klen)
{
    if (i >= len || t[i] != '{')
        return len;
    i = skip_ws(t, len, i + 1);
    while (i < len && t[i] == '"') {
        size_t end = skip_string(t, len, i);
        int match = end - i - 2 == klen && memcmp(t + i + 1, key, klen) == 0;
        i = skip_ws(t, len, end);
        if (i >= len || t[i] != ':')
            return len;
        i = skip_ws(t, len, i + 1);
        if (match)
            return i;
        i = skip_ws(t, len, skip_value(t, len, i));
        if (i < len && t[i] == ',')
            i = skip_ws(t, len, i + 1);
    }
    return len;
}

/* From the array at t[i], the offset of element k, or len. */
static size_t find_index(const char *t, size_t len, size_t i, size_t k)
{
    if (i >= len || t[i] != '[')
        return len;
    i = skip_ws(t, len, i + 1);
    for (; k > 0 && i < len && t[i] != ']'; k--) {
        i = skip_ws(t, len, skip_value(t, len, i));
        if (i >= len || t[i] != ',')
            return len;
        i = skip_ws(t, len, i + 1);
    }
    return i < len && t[i] != ']' ? i : len;
}

/* Follows the first plen bytes of path. The value's offset, or len. */
static size_t follow(const char *t, size_t len, const char *path, size_t plen)
{
    size_t i = skip_ws(t, len, 0), p = 0;
    while (p < plen && i < len) {
        if (path[p] == '.') {
            p++;
        } else if (path[p] == '[') {
            size_t k = 0;
            for (p++; p < plen && path[p] >= '0' && path[p] <= '9'; p++)
                k = k * 10 + (size_t)(path[p] - '0');
            p++; /* ']' */
            i = find_index(t, len, i, k);
        } else {
            size_t e = p;
            while (e < plen && path[e] != '.' && path[e] != '[')
                e++;
            i = find_key(t, len, i, path + p, e - p);
            p = e;
        }
    }
    return i;
}

int kifu__msf_locate(const char *text, size_t len, const char *path, int *line,
                     int *column, size_t *offset)
{
    size_t plen = strlen(path);
    if (strcmp(path, "(top level)") == 0)
        plen = 0;
    size_t at = follow(text, len, path, plen);
    /* a missing member: point at the nearest value the path does reach */
    while (at >= len && plen > 0) {
        while (plen > 0 && path[plen - 1] != '.' && path[plen - 1] != '[')
            plen--;
        if (plen > 0)
            plen--;
        at = follow(text, len, path, plen);
    }
    if (at >= len)
        return -1;
    int ln = 1;
    size_t bol = 0;
    for (size_t i = 0; i < at; i++)
        if (text[i] == '\n')
            ln++, bol = i + 1;
    *line = ln;
    *column = kifu__utf8_column(text + bol, at - bol);
    *offset = at;
    return 0;
}

void kifu__msf_problem(kifu__msf_report *rep, int code, const char *path,
                       const char *expected, const char *found, const char *fmt, ...)
{
    /* past the limit only count: each problem's place is a scan of the text, and a file
     * broken everywhere would cost that scan once per problem */
    if (rep->count >= KIFU__MSF_SHOWN) {
        rep->count++;
        return;
    }
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    int line = 0, column = 0;
    size_t offset = 0;
    if (rep->text)
        kifu__msf_locate(rep->text, rep->len, path, &line, &column, &offset);
    kifu_error e = {0};
    kifu__error(&e, code, line, column, offset, expected, found, "%s%s%s", path,
                *path ? ": " : "", msg);
    if (rep->source)
        kifu__error_source(&e, rep->source);
    rep->count++;
    if (rep->fn)
        rep->fn(rep->ctx, &e);
    if (rep->err && !rep->err->code)
        *rep->err = e;
}

void kifu__msf_more(kifu__msf_report *rep)
{
    if (rep->count <= KIFU__MSF_SHOWN)
        return;
    kifu_error e = {0};
    kifu__error(&e, KIFU_ERR_SCHEMA, 0, 0, 0, NULL, NULL,
                "%d more problems not shown (the first %d are)",
                rep->count - KIFU__MSF_SHOWN, KIFU__MSF_SHOWN);
    if (rep->source)
        kifu__error_source(&e, rep->source);
    if (rep->fn)
        rep->fn(rep->ctx, &e);
}
