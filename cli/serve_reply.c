/* serve_reply.c: how `kifu serve` builds its answers: JSON errors and bodies written to
 * a memory stream. */
#define _GNU_SOURCE /* __fsetlocking */
#include <stdarg.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>

#include "serve.h"

static void fail_nomem(serve_response *r)
{
    static const char msg[] = "{\"error\":\"out of memory\"}\n";
    r->status = 500, r->type = "application/json", r->body = msg;
    r->len = sizeof msg - 1, r->owned = NULL;
}

void serve_error(serve_response *r, int status, const char *fmt, ...)
{
    char text[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    char *buf;
    size_t len;
    FILE *f = serve_begin(&buf, &len);
    if (!f) {
        fail_nomem(r);
        return;
    }
    fputs("{\"error\":", f);
    cli_json_fstring(f, text);
    fputs("}\n", f);
    serve_end(r, f, &buf, &len);
    if (r->status == 200)
        r->status = status;
}

FILE *serve_begin(char **buf, size_t *len)
{
    *buf = NULL, *len = 0;
    FILE *f = open_memstream(buf, len);
    /* One thread writes the stream: every write taking and dropping its lock was a
     * tenth of an explorer answer's time. */
    if (f)
        __fsetlocking(f, FSETLOCKING_BYCALLER);
    return f;
}

void serve_end(serve_response *r, FILE *f, char **buf, size_t *len)
{
    free(r->owned);
    r->owned = NULL;
    /* The stream sets *buf and *len when it is closed. */
    if (fclose(f) || !*buf) {
        free(*buf);
        fail_nomem(r);
        return;
    }
    r->owned = *buf, r->body = *buf, r->len = *len;
    r->status = 200, r->type = "application/json";
}

void serve_response_free(serve_response *r)
{
    free(r->owned);
    r->owned = NULL, r->body = NULL, r->len = 0;
}

void serve_index_error(serve_response *r, const char *what, const kifu_error *e)
{
    serve_error(r, e->code == KIFU_ERR_BUSY ? 504 : 503, "%s: %s", what, e->message);
}
