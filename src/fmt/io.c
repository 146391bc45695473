/* io.c: kifu_read / kifu_write: pick the format, decode or encode, call the format's
 * reader or writer, normalize. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/encoding.h"
#include "fmt/fmt.h"
#include "kifu_private.h"

int kifu__records_push(kifu__records *v, kifu_record *r)
{
    if (v->n == v->cap) {
        size_t cap = v->cap ? v->cap * 2 : 4;
        kifu_record **p = kifu__realloc(v->items, cap * sizeof *p);
        if (!p) {
            kifu_record_free(r);
            return -1;
        }
        v->items = p;
        v->cap = cap;
    }
    v->items[v->n++] = r;
    return 0;
}

void kifu__records_free(kifu__records *v)
{
    for (size_t i = 0; i < v->n; i++)
        kifu_record_free(v->items[i]);
    kifu__free(v->items);
    v->items = NULL;
    v->n = v->cap = 0;
}

static kifu__reader_fn reader_for(int format)
{
    switch (format) {
    case KIFU_FMT_JKF:
        return kifu__read_jkf;
    case KIFU_FMT_CSA:
        return kifu__read_csa;
    case KIFU_FMT_KIF:
    case KIFU_FMT_KIFU:
        return kifu__read_kif;
    case KIFU_FMT_KI2:
    case KIFU_FMT_KI2U:
        return kifu__read_ki2;
    case KIFU_FMT_SFEN:
        return kifu__read_sfen;
    case KIFU_FMT_SFENLIST:
        return kifu__read_sfenlist;
    }
    return NULL;
}

static kifu__writer_fn writer_for(int format)
{
    switch (format) {
    case KIFU_FMT_JKF:
        return kifu__write_jkf;
    case KIFU_FMT_CSA:
        return kifu__write_csa;
    case KIFU_FMT_KIF:
    case KIFU_FMT_KIFU:
        return kifu__write_kif;
    case KIFU_FMT_KI2:
    case KIFU_FMT_KI2U:
        return kifu__write_ki2;
    case KIFU_FMT_SFEN:
        return kifu__write_sfen;
    case KIFU_FMT_SFENLIST:
        return kifu__write_sfenlist;
    }
    return NULL;
}

int kifu_read_all(const void *data, size_t len, const kifu_read_options *opt,
                  kifu_record ***out, size_t *count, kifu_error *err)
{
    kifu_read_options o = {0};
    if (opt)
        o = *opt;
    *out = NULL;
    *count = 0;
    int format = o.format;
    if (format == KIFU_FMT_AUTO)
        format = kifu_format_from_path(o.source);
    if (format == KIFU_FMT_AUTO)
        format = kifu_format_detect(data, len);
    kifu__reader_fn rd = reader_for(format);
    if (!rd) {
        kifu__error_source(err, o.source);
        return kifu__error(
            err, KIFU_ERR_UNSUPPORTED, 0, 0, 0, "a known record format",
            "unrecognised content",
            "cannot tell the record format (name it with the format option)");
    }
    /* JKF is JSON: UTF-8 by definition. */
    int enc = format == KIFU_FMT_JKF && o.encoding == KIFU_ENC_AUTO ? KIFU_ENC_UTF8
                                                                    : o.encoding;
    char *text = NULL;
    size_t tlen = 0;
    if (kifu__decode(data, len, enc, &text, &tlen, NULL, err)) {
        kifu__error_source(err, o.source);
        return -1;
    }
    kifu__records v = {0};
    int rc = rd(text, tlen, &o, &v, err);
    kifu__free(text);
    if (rc == 0 && v.n == 0)
        rc = kifu__error(err, KIFU_ERR_SYNTAX, 0, 0, 0, "a record", "no record",
                         "the input holds no record");
    for (size_t i = 0; rc == 0 && i < v.n; i++)
        if (!(o.flags & KIFU_READ_NO_NORMALIZE))
            rc = kifu_normalize(v.items[i], o.flags, err);
    if (rc) {
        kifu__error_source(err, o.source);
        kifu__records_free(&v);
        return -1;
    }
    *out = v.items;
    *count = v.n;
    return 0;
}

kifu_record *kifu_read(const void *data, size_t len, const kifu_read_options *opt,
                       kifu_error *err)
{
    kifu_record **all;
    size_t n;
    if (kifu_read_all(data, len, opt, &all, &n, err))
        return NULL;
    kifu_record *r = all[0];
    for (size_t i = 1; i < n; i++)
        kifu_record_free(all[i]);
    kifu__free(all);
    return r;
}

/* Reads a whole file or stdin ("-") into new memory. */
static char *slurp(const char *path, size_t *len, kifu_error *err)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f) {
        kifu__error(err, KIFU_ERR_IO, 0, 0, 0, NULL, NULL, "cannot open: %s",
                    strerror(errno));
        kifu__error_source(err, path);
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = kifu__malloc(cap);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n < cap)
            break;
        char *nb = kifu__realloc(buf, cap *= 2);
        if (!nb)
            kifu__free(buf);
        buf = nb;
    }
    int failed = ferror(f);
    if (f != stdin)
        fclose(f);
    if (!buf) {
        kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
        return NULL;
    }
    if (failed) {
        kifu__free(buf);
        kifu__error(err, KIFU_ERR_IO, 0, 0, 0, NULL, NULL, "read error");
        kifu__error_source(err, path);
        return NULL;
    }
    *len = n;
    return buf;
}

kifu_record *kifu_read_file(const char *path, const kifu_read_options *opt,
                            kifu_error *err)
{
    size_t len;
    char *data = slurp(path, &len, err);
    if (!data)
        return NULL;
    kifu_read_options o = {0};
    if (opt)
        o = *opt;
    if (!o.source)
        o.source = path;
    kifu_record *r = kifu_read(data, len, &o, err);
    kifu__free(data);
    return r;
}

char *kifu_write(const kifu_record *r, const kifu_write_options *opt, size_t *len,
                 kifu_error *err)
{
    kifu__writer_fn wr = opt ? writer_for(opt->format) : NULL;
    if (!wr) {
        kifu__error(err, KIFU_ERR_ARG, 0, 0, 0, "an output format", NULL,
                    "no output format given");
        return NULL;
    }
    kifu__strbuf sb;
    kifu__sb_init(&sb);
    if (wr(r, opt, &sb, err)) {
        kifu__sb_free(&sb);
        return NULL;
    }
    size_t n;
    char *text = kifu__sb_take(&sb, &n);
    if (!text) {
        kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
        return NULL;
    }
    int enc = opt->encoding;
    if (enc == KIFU_ENC_AUTO)
        enc = (opt->format == KIFU_FMT_KIF || opt->format == KIFU_FMT_KI2)
                  ? KIFU_ENC_CP932
                  : KIFU_ENC_UTF8;
    if (enc == KIFU_ENC_UTF8) {
        if (len)
            *len = n;
        return text;
    }
    char *bytes;
    size_t blen;
    int rc = kifu__encode(text, n, enc, &bytes, &blen, err);
    kifu__free(text);
    if (rc)
        return NULL;
    if (len)
        *len = blen;
    return bytes;
}
