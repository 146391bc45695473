/* io.c: kifu_read / kifu_write: pick the format's row in the table (registry.c), decode
 * or encode, call its reader or writer, normalize. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/encoding.h"
#include "fmt/fmt.h"
#include "kifu_private.h"
#include "record/record.h"

/* Are the bytes already the text every reader takes (UTF-8 without a BOM, no NUL, no CR
 * but before LF)? Then they are read where they are. Cheaper than the copy it saves: the
 * scans are those the decoding and cleaning would do. */
static int ready(const char *data, size_t len, int enc)
{
    /* UTF-8 first: CP932 text fails it at its first kana, and is decoded. */
    if ((enc != KIFU_ENC_AUTO && enc != KIFU_ENC_UTF8) || kifu__bom_len(data, len) ||
        !kifu__utf8_valid(data, len, NULL) || memchr(data, 0, len))
        return 0;
    for (const char *p = data; (p = memchr(p, '\r', (size_t)(data + len - p))); p++)
        if (p + 1 == data + len || p[1] != '\n')
            return 0;
    return 1;
}

/* Bytes to the text every reader takes: UTF-8, lines ending in LF, no NUL. *own is the
 * new text, or NULL when the text is data itself (borrowed: see ready). */
static int decode(const void *data, size_t len, int enc, const kifu_read_options *o,
                  const char **text, char **own, size_t *tlen, kifu_error *err)
{
    *own = NULL;
    if (ready(data, len, enc)) {
        *text = data;
        *tlen = len;
        return 0;
    }
    if (kifu__decode(data, len, enc, own, tlen, NULL, err))
        return -1;
    if (kifu__text_clean(own, tlen, (o->flags & KIFU_READ_LENIENT) != 0, o->warn,
                         o->warn_ctx, err)) {
        kifu__free(*own);
        *own = NULL;
        return -1;
    }
    *text = *own;
    return 0;
}

/* A file's head: the bytes through its second line that holds more than blanks and is no
 * '#' comment. The sure rows decide on it: their first line (a SFEN list's first two
 * positions, past its comments; the key after an MSF document's '{'). A line ends at
 * '\n', never part of a character in the encodings read, so the head decodes as the
 * whole does, and a file of a known extension is decided without decoding all of it. */
static size_t head_len(const char *s, size_t len)
{
    int lines = 0, state = 0; /* 0: blank so far, 1: filled, 2: a comment */
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '\n') {
            lines += state == 1;
            state = 0;
            if (lines == 2)
                return i + 1;
        } else if (state == 0 && s[i] != ' ' && s[i] != '\t' && s[i] != '\r') {
            state = s[i] == '#' ? 2 : 1;
        }
    }
    return len;
}

/* The format of decoded text, `format` being the source's extension's (or AUTO), when the
 * options name none: the one place a format is decided (kifu_read_all,
 * kifu_format_decide). An extension of one row yields only to a sure row's bid on the
 * head; several rows' extension (.json) is chosen among by the whole text; no extension,
 * by every sniffer on the whole text. */
static int decide(int format, const kifu_read_options *o, const char *text, size_t tlen)
{
    if (o->format != KIFU_FMT_AUTO)
        return o->format;
    if (format == KIFU_FMT_AUTO)
        return kifu__format_sniff(text, tlen);
    if (!kifu__format_ext_shared(o->source))
        tlen = head_len(text, tlen);
    return kifu__format_refine(format, o->source, text, tlen);
}

int kifu_format_decide(const void *data, size_t len, const kifu_read_options *opt)
{
    kifu_read_options o = {0};
    if (opt)
        o = *opt;
    if (o.format != KIFU_FMT_AUTO)
        return o.format;
    int format = kifu_format_from_path(o.source);
    const kifu__format *named = kifu__format_get(format);
    int enc =
        named && named->json && o.encoding == KIFU_ENC_AUTO ? KIFU_ENC_UTF8 : o.encoding;
    /* An extension of one row yields only to a sure row's bid on the head: only the head
     * is decoded (the reading decodes the whole once). */
    size_t n = len;
    if (format != KIFU_FMT_AUTO && !kifu__format_ext_shared(o.source)) {
        size_t bom = kifu__bom_len(data, len); /* a comment after it is still one */
        n = bom + head_len((const char *)data + bom, len - bom);
    }
    const char *text;
    char *own;
    size_t tlen;
    if (decode(data, n, enc, &o, &text, &own, &tlen, NULL))
        return format; /* the reading says why */
    format = decide(format, &o, text, tlen);
    kifu__free(own);
    return format;
}

int kifu_read_all(const void *data, size_t len, const kifu_read_options *opt,
                  kifu_record ***out, size_t *count, kifu_error *err)
{
    return kifu__read_all_done(data, len, opt, NULL, NULL, out, count, err);
}

int kifu__read_all_done(const void *data, size_t len, const kifu_read_options *opt,
                        int (*done)(void *ctx, kifu_record *r, size_t index),
                        void *done_ctx, kifu_record ***out, size_t *count,
                        kifu_error *err)
{
    kifu_read_options o = {0};
    if (opt)
        o = *opt;
    *out = NULL;
    *count = 0;
    int format = o.format;
    if (format == KIFU_FMT_AUTO)
        format = kifu_format_from_path(o.source);
    /* JSON is UTF-8 by definition. */
    const kifu__format *named = kifu__format_get(format);
    int enc =
        named && named->json && o.encoding == KIFU_ENC_AUTO ? KIFU_ENC_UTF8 : o.encoding;
    const char *text = NULL;
    char *own = NULL; /* text, when it is a decoded copy */
    size_t tlen = 0;
    if (decode(data, len, enc, &o, &text, &own, &tlen, err)) {
        kifu__error_source(err, o.source);
        return -1;
    }
    /* One rule for every format: an input of nothing but white space holds no record
     * (an empty KIF used to read as an empty game, an empty CSA as an error). */
    size_t lead = 0;
    while (lead < tlen && (text[lead] == ' ' || text[lead] == '\t' ||
                           text[lead] == '\n' || text[lead] == '\r'))
        lead++;
    if (lead == tlen) {
        kifu__free(own);
        kifu__error(err, KIFU_ERR_SYNTAX, 0, 0, 0, "a record",
                    tlen ? "only white space" : "nothing", "the input is empty");
        kifu__error_source(err, o.source);
        return -1;
    }
    /* The content decides only now, on decoded text (a CP932 KI2 shows its marks). */
    int sniffed_only = format == KIFU_FMT_AUTO;
    format = decide(format, &o, text, tlen);
    if (sniffed_only) {
        const kifu__format *sniffed = kifu__format_get(format);
        if (sniffed && sniffed->json && o.encoding == KIFU_ENC_AUTO &&
            kifu__detect_encoding(data, len) != KIFU_ENC_UTF8) {
            kifu__free(own);
            if (decode(data, len, KIFU_ENC_UTF8, &o, &text, &own, &tlen, err)) {
                kifu__error_source(err, o.source);
                return -1;
            }
        }
    }
    /* another game's row has a reader entry that refuses it, naming the game */
    const kifu__format *f = kifu__format_get(format);
    if (!f || !f->read) {
        kifu__free(own);
        kifu__error_source(err, o.source);
        return kifu__error(
            err, KIFU_ERR_UNSUPPORTED, 0, 0, 0, "a known record format",
            "unrecognised content",
            "cannot tell the record format (name it with the format option)");
    }
    /* The text stays until the records are normalized, here or later by the caller
     * (each record holds a reference): an illegal move is reported at its line and
     * column, counted then from the offset its reader noted. */
    kifu__input *in = own ? kifu__input_new(own, tlen) : kifu__input_borrow(text, tlen);
    if (!in) {
        kifu__free(own);
        kifu__error_source(err, o.source);
        return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
    }
    kifu__records v = {.done = done, .done_ctx = done_ctx, .input = in};
    int rc = f->read(text, tlen, &o, &v, err);
    if (rc == 0 && v.n == 0)
        rc = kifu__error(err, KIFU_ERR_SYNTAX, 0, 0, 0, "a record", "no record",
                         "the input holds no record");
    for (size_t i = 0; rc == 0 && i < v.n; i++)
        if (!(o.flags & KIFU_READ_NO_NORMALIZE))
            rc = v.items[i]
                     ? kifu_normalize_warn(v.items[i], o.flags, o.warn, o.warn_ctx, err)
                     : 0;
    /* Records left unnormalized keep the input past this call, the caller's bytes may
     * not (NO_NORMALIZE without BORROW, a lenient stop): they get a copy now. */
    if (rc == 0 && !(o.flags & KIFU_READ_BORROW) && kifu__input_refs(in) > 1 &&
        kifu__input_own(in))
        rc = kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
    kifu__input_release(in); /* the records' references keep it */
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

void *kifu_file_read(const char *path, size_t *len, kifu_error *err)
{
    int std = strcmp(path, "-") == 0;
    int fd = std ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        kifu__error(err, KIFU_ERR_IO, 0, 0, 0, NULL, NULL, "cannot open: %s",
                    strerror(errno));
        kifu__error_source(err, path);
        return NULL;
    }
    /* A regular file is read in one read() of its size plus one byte: a short read of a
     * regular file is its end, so a batch of small files costs open, fstat, read and
     * close each. Pipes and devices are read until read() says the end. */
    struct stat st;
    int regular = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
    size_t cap = regular && st.st_size >= 0 ? (size_t)st.st_size + 1 : 1 << 16, n = 0;
    char *buf = kifu__malloc(cap + 1);
    int failed = 0;
    while (buf) {
        ssize_t got = read(fd, buf + n, cap - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) {
            failed = got < 0;
            break;
        }
        n += (size_t)got;
        if (n < cap && regular)
            break;
        if (n == cap) {
            char *nb = kifu__realloc(buf, (cap *= 2) + 1);
            if (!nb)
                kifu__free(buf);
            buf = nb;
        }
    }
    int saved = errno;
    if (!std)
        close(fd);
    if (!buf) {
        /* The file's size says why (a limit smaller than it, or the machine's). */
        if (regular)
            kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL,
                        "out of memory reading the file (%zu bytes)", cap - 1);
        else
            kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL,
                        "out of memory reading the input after %zu bytes", n);
        kifu__error_source(err, path);
        return NULL;
    }
    if (failed) {
        kifu__free(buf);
        kifu__error(err, KIFU_ERR_IO, 0, 0, 0, NULL, NULL, "read error: %s",
                    strerror(saved));
        kifu__error_source(err, path);
        return NULL;
    }
    buf[n] = 0; /* a NUL after the bytes, for callers that scan text */
    *len = n;
    return buf;
}

kifu_record *kifu_read_file(const char *path, const kifu_read_options *opt,
                            kifu_error *err)
{
    size_t len;
    char *data = kifu_file_read(path, &len, err);
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

/* Every LF of sb as CR LF (writers put LF only), in one buffer of the final size. 0, or
 * -1 on NOMEM. */
static int to_crlf(kifu__strbuf *sb, kifu_error *err)
{
    size_t lf = 0;
    for (size_t i = 0; i < sb->len; i++)
        lf += sb->data[i] == '\n';
    kifu__strbuf out;
    kifu__sb_init(&out);
    if (kifu__sb_reserve(&out, sb->len + lf + 1))
        return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
    for (size_t i = 0, from = 0; i <= sb->len; i++)
        if (i == sb->len || sb->data[i] == '\n') {
            kifu__sb_putn(&out, sb->data + from, i - from);
            if (i < sb->len)
                kifu__sb_putn(&out, "\r\n", 2);
            from = i + 1;
        }
    kifu__sb_free(sb);
    *sb = out;
    return 0;
}

static char *write_games(const kifu_record *const *rs, size_t count, size_t first,
                         size_t *state, int end, const kifu_write_options *opt,
                         size_t *len, kifu_error *err);

char *kifu_write(const kifu_record *r, const kifu_write_options *opt, size_t *len,
                 kifu_error *err)
{
    return write_games(&r, 1, 0, NULL, 1, opt, len, err);
}

char *kifu_write_all(const kifu_record *const *rs, size_t count,
                     const kifu_write_options *opt, size_t *len, kifu_error *err)
{
    return write_games(rs, count, 0, NULL, 1, opt, len, err);
}

char *kifu_write_nth(const kifu_record *r, size_t index, size_t *state,
                     const kifu_write_options *opt, size_t *len, kifu_error *err)
{
    return r ? write_games(&r, 1, index, state, 0, opt, len, err)
             : write_games(NULL, 0, index, state, 1, opt, len, err);
}

/* kifu_read_each's callback behind kifu__read_all_done's done. */
typedef struct each_ctx {
    int (*fn)(void *ctx, kifu_record *r, size_t index);
    void *ctx;
    int stopped;
} each_ctx;

static int each_done(void *ctx, kifu_record *r, size_t index)
{
    each_ctx *c = ctx;
    if (c->stopped) {
        kifu_record_free(r);
        return 1;
    }
    c->stopped = c->fn(c->ctx, r, index) != 0;
    return 1;
}

int kifu_read_each(const void *data, size_t len, const kifu_read_options *opt,
                   int (*fn)(void *ctx, kifu_record *r, size_t index), void *ctx,
                   size_t *count, kifu_error *err)
{
    each_ctx c = {fn, ctx, 0};
    kifu_record **rest = NULL;
    size_t n = 0;
    if (count)
        *count = 0;
    kifu_read_options o = {0};
    if (opt)
        o = *opt;
    o.flags |= KIFU_READ_NO_NORMALIZE;
    if (kifu__read_all_done(data, len, &o, each_done, &c, &rest, &n, err))
        return -1;
    /* The records of a reader that does not tell of each as it finishes it, in order. */
    for (size_t i = 0; i < n; i++)
        if (rest[i]) {
            kifu_record *r = rest[i];
            rest[i] = NULL;
            each_done(&c, r, i);
        }
    kifu__free(rest);
    if (count)
        *count = n;
    return 0;
}

/* kifu_write_all of games first .. first + count - 1 of an output, then (end) what
 * closes it: the separator goes before each game but the output's first (first == 0);
 * *state (NULL: from 0) carries a part writer's count from call to call. */
static char *write_games(const kifu_record *const *rs, size_t count, size_t first,
                         size_t *state, int end, const kifu_write_options *opt,
                         size_t *len, kifu_error *err)
{
    const kifu__format *f = opt ? kifu__format_get(opt->format) : NULL;
    if (f && f->info.game != KIFU_GAME_SHOGI) {
        kifu__error(err, KIFU_ERR_ARG, 0, 0, 0, "a shogi format", f->info.name,
                    "%s holds records of another game than shogi", f->info.name);
        return NULL;
    }
    if (!f || !f->write) {
        kifu__error(err, KIFU_ERR_ARG, 0, 0, 0, "an output format", NULL,
                    "no output format given");
        return NULL;
    }
    int crlf = (opt->flags & KIFU_WRITE_CRLF) != 0;
    if (crlf && opt->format != KIFU_FMT_KIF && opt->format != KIFU_FMT_KIFU &&
        opt->format != KIFU_FMT_KI2 && opt->format != KIFU_FMT_KI2U &&
        opt->format != KIFU_FMT_CSA) {
        kifu__error(err, KIFU_ERR_ARG, 0, 0, 0, "KIF, KI2 or CSA", f->info.name,
                    "CR LF line ends are for KIF, KI2 and CSA, not %s", f->info.name);
        return NULL;
    }
    if ((count != 1 || first) && !f->write_part && !f->between) {
        kifu__error(err, KIFU_ERR_ARG, 0, 0, 0, "one game", "several",
                    "%s holds one game per file", f->info.name);
        return NULL;
    }
    if (opt->format != KIFU_FMT_POSJSON)
        kifu__warn_lost_sids(rs, count, opt, f->info.name);
    if (opt->format == KIFU_FMT_CSA || opt->format == KIFU_FMT_JKF)
        kifu__warn_lost_number(rs, count, opt, f->info.name);
    kifu__strbuf sb;
    kifu__sb_init(&sb);
    int rc = 0;
    if (f->write_part) {
        size_t st = state ? *state : 0;
        for (size_t i = 0; i < count && !rc; i++)
            rc = f->write_part(rs[i], first + i, &st, opt, &sb, err);
        if (!rc && end)
            rc = f->write_part(NULL, first + count, &st, opt, &sb, err);
        if (state)
            *state = st;
    } else {
        for (size_t i = 0; i < count && !rc; i++) {
            if (i || first)
                kifu__sb_puts(&sb, f->between);
            rc = f->write(rs[i], opt, &sb, err);
        }
    }
    if (!rc && crlf)
        rc = to_crlf(&sb, err);
    if (rc) {
        kifu__sb_free(&sb);
        return NULL;
    }
    size_t n;
    char *text = kifu__sb_take(&sb, &n);
    if (!text) {
        kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
        return NULL;
    }
    int enc = opt->encoding == KIFU_ENC_AUTO ? f->info.encoding : opt->encoding;
    if (enc == KIFU_ENC_UTF8) {
        if (len)
            *len = n;
        return text;
    }
    char *bytes;
    size_t blen;
    rc = kifu__encode(text, n, enc, &bytes, &blen, err);
    kifu__free(text);
    if (rc)
        return NULL;
    if (first && enc == KIFU_ENC_UTF16 && blen >= 2) {
        /* The BOM starts the output, not each game's part of it. */
        memmove(bytes, bytes + 2, blen - 1);
        blen -= 2;
    }
    if (len)
        *len = blen;
    return bytes;
}
