/* report.c: a problem of an MSF document, as the error every kifu message is: its JSON
 * path first, and the line and column of the value it names, which the document's
 * values (doc.c) keep from the text. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "kifu_private.h"
#include "msf/msf.h"

static void report(kifu__msf_report *rep, size_t at, int code, const char *path,
                   const char *expected, const char *found, const char *fmt, va_list ap)
{
    char msg[400];
    vsnprintf(msg, sizeof msg, fmt, ap);
    int line = 0, column = 0;
    size_t offset = 0;
    if (rep->text && at != (size_t)-1) {
        kifu__text_where(rep->text, at, &line, &column);
        offset = at;
    }
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

void kifu__msf_problem_at(kifu__msf_report *rep, size_t at, int code, const char *path,
                          const char *expected, const char *found, const char *fmt, ...)
{
    if (rep->count >= KIFU__MSF_SHOWN) {
        rep->count++;
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    report(rep, at, code, path, expected, found, fmt, ap);
    va_end(ap);
}

void kifu__msf_problem(kifu__msf_report *rep, int code, const char *path,
                       const char *expected, const char *found, const char *fmt, ...)
{
    /* past the limit only count: each problem's line is counted from the text's start,
     * and a file broken everywhere would cost that once per problem */
    if (rep->count >= KIFU__MSF_SHOWN) {
        rep->count++;
        return;
    }
    const kifu__msf_val *v = NULL;
    size_t n = rep->node_path ? strlen(rep->node_path) : 0;
    if (rep->node && rep->node->id < rep->nnode_val && rep->node_val[rep->node->id] &&
        strncmp(path, rep->node_path, n) == 0 && (path[n] == '.' || !path[n]))
        v = kifu__msf_val_find(rep->node_val[rep->node->id], path + n);
    else if (rep->doc)
        v = kifu__msf_doc_find(rep->doc, path);
    va_list ap;
    va_start(ap, fmt);
    report(rep, v ? v->off : (size_t)-1, code, path, expected, found, fmt, ap);
    va_end(ap);
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
