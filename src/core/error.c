/* error.c: filling kifu_error (the first error wins) and formatting it. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "kifu_private.h"

static void copy(char *dst, size_t cap, const char *src)
{
    if (!src) {
        dst[0] = 0;
        return;
    }
    size_t n = strlen(src);
    if (n >= cap) {
        /* Cut at a UTF-8 character boundary so messages stay valid text. */
        n = cap - 1;
        while (n > 0 && ((unsigned char)src[n] & 0xC0) == 0x80)
            n--;
    }
    memcpy(dst, src, n);
    dst[n] = 0;
}

void kifu_error_clear(kifu_error *err)
{
    if (err)
        memset(err, 0, sizeof *err);
}

int kifu__error(kifu_error *err, int code, int line, int column, size_t offset,
                const char *expected, const char *found, const char *fmt, ...)
{
    if (!err || err->code != 0)
        return -1;
    err->code = code ? code : KIFU_ERR_ARG;
    err->line = line;
    err->column = column;
    err->offset = offset;
    copy(err->expected, sizeof err->expected, expected);
    copy(err->found, sizeof err->found, found);
    char msg[sizeof err->message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    copy(err->message, sizeof err->message, msg);
    return -1;
}

void kifu__error_source(kifu_error *err, const char *source)
{
    if (err && source && !err->source[0])
        copy(err->source, sizeof err->source, source);
}

char *kifu_error_format(const kifu_error *err, char *buf, size_t cap)
{
    if (!cap)
        return buf;
    if (!err || !err->code) {
        snprintf(buf, cap, "no error");
        return buf;
    }
    const char *src = err->source[0] ? err->source : "<input>";
    if (err->line > 0 && err->column > 0)
        snprintf(buf, cap, "%s:%d:%d: %s", src, err->line, err->column, err->message);
    else if (err->line > 0)
        snprintf(buf, cap, "%s:%d: %s", src, err->line, err->message);
    else
        snprintf(buf, cap, "%s: %s", src, err->message);
    return buf;
}

const char *kifu_code_name(int code)
{
    switch (code) {
    case KIFU_OK:
        return "ok";
    case KIFU_ERR_NOMEM:
        return "out of memory";
    case KIFU_ERR_IO:
        return "I/O error";
    case KIFU_ERR_ARG:
        return "bad argument";
    case KIFU_ERR_ENCODING:
        return "encoding error";
    case KIFU_ERR_SYNTAX:
        return "syntax error";
    case KIFU_ERR_SCHEMA:
        return "not valid JKF";
    case KIFU_ERR_SFEN:
        return "bad SFEN";
    case KIFU_ERR_ILLEGAL:
        return "illegal move";
    case KIFU_ERR_AMBIGUOUS:
        return "ambiguous move";
    case KIFU_ERR_UNSUPPORTED:
        return "unsupported";
    case KIFU_ERR_BUSY:
        return "busy";
    }
    return "unknown error";
}

void kifu__warn(void (*warn)(void *, const char *), void *ctx, const char *fmt, ...)
{
    if (!warn)
        return;
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    warn(ctx, msg);
}
