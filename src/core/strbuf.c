/* strbuf.c: growable output buffer. */
#include "core/strbuf.h"

#include <stdio.h>
#include <string.h>

#include "kifu_private.h"

void kifu__sb_init(kifu__strbuf *b)
{
    b->data = NULL;
    b->len = b->cap = 0;
    b->failed = 0;
}

void kifu__sb_free(kifu__strbuf *b)
{
    kifu__free(b->data);
    kifu__sb_init(b);
}

int kifu__sb_reserve(kifu__strbuf *b, size_t extra)
{
    if (b->failed)
        return -1;
    if (b->len + extra + 1 <= b->cap)
        return 0;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + extra + 1)
        cap *= 2;
    char *p = kifu__realloc(b->data, cap);
    if (!p) {
        b->failed = 1;
        return -1;
    }
    b->data = p;
    b->cap = cap;
    return 0;
}

void kifu__sb_putn(kifu__strbuf *b, const char *s, size_t n)
{
    if (kifu__sb_reserve(b, n))
        return;
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = 0;
}

void kifu__sb_puts(kifu__strbuf *b, const char *s)
{
    kifu__sb_putn(b, s, strlen(s));
}

void kifu__sb_putc(kifu__strbuf *b, char c)
{
    kifu__sb_putn(b, &c, 1);
}

void kifu__sb_put_flat(kifu__strbuf *b, const char *s)
{
    for (size_t n; (n = strcspn(s, "\r\n")), s[n]; s += n + 1) {
        kifu__sb_putn(b, s, n);
        kifu__sb_putc(b, ' ');
        if (s[n] == '\r' && s[n + 1] == '\n')
            s++; /* CRLF: one break, one space */
    }
    kifu__sb_puts(b, s);
}

void kifu__sb_put_lines(kifu__strbuf *b, const char *prefix, const char *s)
{
    for (;;) {
        size_t n = strcspn(s, "\r\n");
        kifu__sb_puts(b, prefix);
        kifu__sb_putn(b, s, n);
        kifu__sb_putc(b, '\n');
        if (!s[n])
            return;
        s += n + (s[n] == '\r' && s[n + 1] == '\n' ? 2 : 1);
    }
}

void kifu__sb_vprintf(kifu__strbuf *b, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    char small[256];
    int n = vsnprintf(small, sizeof small, fmt, ap);
    if (n < 0) {
        va_end(ap2);
        return;
    }
    if ((size_t)n < sizeof small) {
        kifu__sb_putn(b, small, (size_t)n);
    } else if (!kifu__sb_reserve(b, (size_t)n)) {
        vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap2);
        b->len += (size_t)n;
    }
    va_end(ap2);
}

void kifu__sb_printf(kifu__strbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    kifu__sb_vprintf(b, fmt, ap);
    va_end(ap);
}

char *kifu__sb_take(kifu__strbuf *b, size_t *len)
{
    if (b->failed || kifu__sb_reserve(b, 0)) {
        kifu__sb_free(b);
        return NULL;
    }
    char *p = b->data;
    if (len)
        *len = b->len;
    kifu__sb_init(b);
    return p;
}

void kifu__sb_json_string(kifu__strbuf *b, const char *s)
{
    kifu__sb_putc(b, '"');
    for (const char *p = s; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == '"' || c == '\\') {
            kifu__sb_putc(b, '\\');
            kifu__sb_putc(b, (char)c);
        } else if (c == '\n') {
            kifu__sb_puts(b, "\\n");
        } else if (c < 0x20 || c == 0x7f) {
            kifu__sb_printf(b, "\\u%04x", c);
        } else {
            kifu__sb_putc(b, (char)c);
        }
    }
    kifu__sb_putc(b, '"');
}

void kifu__sb_xml(kifu__strbuf *b, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&':
            kifu__sb_puts(b, "&amp;");
            break;
        case '<':
            kifu__sb_puts(b, "&lt;");
            break;
        case '>':
            kifu__sb_puts(b, "&gt;");
            break;
        case '"':
            kifu__sb_puts(b, "&quot;");
            break;
        case '\'':
            kifu__sb_puts(b, "&#39;");
            break;
        default:
            kifu__sb_putc(b, (unsigned char)*s < 0x20 && *s != '\t' ? '?' : *s);
        }
    }
}
