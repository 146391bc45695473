/* text.c: what every reader may assume of decoded text: lines end with LF (or CRLF),
 * and no NUL byte hides in it; places in it as line and column; its lines one by one. */
#include <stdio.h>
#include <string.h>

#include "core/encoding.h"
#include "kifu_private.h"

void kifu__text_where(const char *text, size_t off, int *line, int *col)
{
    int l = 1;
    const char *start = text, *p = text, *end = text + off;
    while ((p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
        l++;
        start = ++p;
    }
    *line = l;
    *col = kifu__utf8_column(start, (size_t)(end - start));
}

void kifu__text_cursor_to(kifu__text_cursor *c, const char *text, size_t off)
{
    if (off < c->off)
        *c = (kifu__text_cursor){0, 1, 1};
    const char *p = text + c->off, *end = text + off, *nl;
    while ((nl = memchr(p, '\n', (size_t)(end - p))) != NULL) {
        c->line++;
        c->col = 1;
        p = nl + 1;
    }
    c->col += kifu__utf8_column(p, (size_t)(end - p)) - 1;
    c->off = off;
}

int kifu__text_clean(char **text, size_t *len, int lenient,
                     void (*warn)(void *, const char *), void *ctx, kifu_error *err)
{
    char *t = *text;
    size_t n = *len;
    /* Old Mac files end lines with CR alone: the same length as LF, so every offset and
     * column stays where it was. */
    for (char *p = t; (p = memchr(p, '\r', (size_t)(t + n - p))) != NULL; p++)
        if (p + 1 == t + n || p[1] != '\n')
            *p = '\n';

    char *nul = memchr(t, 0, n);
    if (!nul)
        return 0;
    int line, col;
    kifu__text_where(t, (size_t)(nul - t), &line, &col);
    if (!lenient)
        return kifu__error(err, KIFU_ERR_SYNTAX, line, col, (size_t)(nul - t), "text",
                           "a NUL byte",
                           "a NUL byte in the text (--lenient replaces it with U+FFFD)");
    /* Lenient: each NUL becomes U+FFFD, the replacement character, and the caller is
     * told once where the first one was. */
    size_t count = 0;
    for (const char *p = nul; p; p = memchr(p + 1, 0, (size_t)(t + n - p - 1)))
        count++;
    char *out = kifu__malloc(n + 2 * count + 1);
    if (!out)
        return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
    char *q = out;
    for (size_t i = 0; i < n; i++) {
        if (t[i])
            *q++ = t[i];
        else {
            memcpy(q, "\xEF\xBF\xBD", 3);
            q += 3;
        }
    }
    *q = 0;
    kifu__free(t);
    *text = out;
    *len = (size_t)(q - out);
    kifu__warn(warn, ctx, "%d:%d: %zu NUL byte%s replaced with U+FFFD", line, col, count,
               count == 1 ? "" : "s");
    return 0;
}

const char *kifu__next_line(const char **s, const char *end, const char **eol)
{
    while (*s < end) {
        const char *p = *s, *e = memchr(p, '\n', (size_t)(end - p));
        if (!e)
            e = end;
        *s = e < end ? e + 1 : end;
        while (p < e && (*p == ' ' || *p == '\t' || *p == '\r'))
            p++;
        const char *t = e;
        while (t > p && (t[-1] == '\r' || t[-1] == ' ' || t[-1] == '\t'))
            t--;
        if (p < t) {
            *eol = t;
            return p;
        }
    }
    return NULL;
}
