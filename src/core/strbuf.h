/* strbuf.h: a growable byte buffer for writers. Errors are sticky: after a failed
 * allocation every call is a no-op and `failed` stays set. */
#ifndef KIFU_STRBUF_H
#define KIFU_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

typedef struct kifu__strbuf {
    char *data;
    size_t len;
    size_t cap;
    int failed;
} kifu__strbuf;

void kifu__sb_init(kifu__strbuf *b);
void kifu__sb_free(kifu__strbuf *b);
int kifu__sb_reserve(kifu__strbuf *b, size_t extra);
void kifu__sb_putn(kifu__strbuf *b, const char *s, size_t n);
void kifu__sb_puts(kifu__strbuf *b, const char *s);
void kifu__sb_putc(kifu__strbuf *b, char c);
void kifu__sb_printf(kifu__strbuf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void kifu__sb_vprintf(kifu__strbuf *b, const char *fmt, va_list ap);
/* Line-based formats (KIF, KI2, CSA) end a statement at CR, LF or CRLF, so text that
 * holds one must be written around it. s on one line, each line break a space: */
void kifu__sb_put_flat(kifu__strbuf *b, const char *s);
/* s as one line per line of it (CR, LF, CRLF), each after prefix and ending in '\n'. */
void kifu__sb_put_lines(kifu__strbuf *b, const char *prefix, const char *s);
/* s as a JSON string, quotes included (control characters escaped, UTF-8 kept). */
void kifu__sb_json_string(kifu__strbuf *b, const char *s);
/* s as XML or HTML text or attribute value: & < > " ' escaped, control characters (not
 * allowed in XML 1.0) as '?'. */
void kifu__sb_xml(kifu__strbuf *b, const char *s);
/* Hand the NUL-terminated data to the caller (free with kifu_free); NULL if failed. */
char *kifu__sb_take(kifu__strbuf *b, size_t *len);

#endif
