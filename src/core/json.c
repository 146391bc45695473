/* json.c: the pull parser of json.h. Strict RFC 8259: no comments, no trailing commas, no
 * control characters in strings, no lone surrogates, no \u0000 (a NUL in text is an
 * error everywhere in kifu). */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "core/json.h"
#include "kifu_private.h"

/* What may come next. */
enum {
    S_VALUE,          /* a value (the start, after ':', after ',' in an array) */
    S_VALUE_OR_CLOSE, /* after '[' */
    S_KEY,            /* after ',' in an object */
    S_KEY_OR_CLOSE,   /* after '{' */
    S_AFTER,          /* after a value: ',' or the container's close, or the end */
};

static void init(kifu__json *j, const char *text, size_t len)
{
    memset(j, 0, sizeof *j);
    j->text = text;
    j->len = len;
    j->state = S_VALUE;
}

void kifu__json_init(kifu__json *j, const char *text, size_t len)
{
    init(j, text, len);
}

void kifu__json_init_value(kifu__json *j, const char *text, size_t len, size_t off)
{
    init(j, text, len);
    j->pos = off;
    j->one_value = 1;
}

void kifu__json_rewind(kifu__json *j, size_t off)
{
    j->pos = off;
    j->depth = 0;
    j->state = S_VALUE;
    j->one_value = 1;
}

void kifu__json_free(kifu__json *j)
{
    kifu__free(j->stack);
    kifu__free(j->buf[0]);
    kifu__free(j->buf[1]);
    j->stack = NULL;
    j->buf[0] = j->buf[1] = NULL;
}

/* What is at byte off, for err_found: a character in quotes or the end. */
static void describe_at(const kifu__json *j, size_t off, char *out, size_t cap)
{
    if (off >= j->len) {
        snprintf(out, cap, "the end of the text");
        return;
    }
    unsigned char c = (unsigned char)j->text[off];
    size_t n = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
    if (off + n > j->len)
        n = j->len - off;
    if (c < 0x20 || c == 0x7F)
        snprintf(out, cap, "the control character 0x%02X", c);
    else
        snprintf(out, cap, "'%.*s'", (int)n, j->text + off);
}

static int fail(kifu__json *j, size_t off, const char *expected)
{
    j->err_off = off;
    snprintf(j->err_expected, sizeof j->err_expected, "%s", expected);
    describe_at(j, off, j->err_found, sizeof j->err_found);
    return KIFU__JSON_ERROR;
}

static int fail_found(kifu__json *j, size_t off, const char *expected, const char *found)
{
    fail(j, off, expected);
    snprintf(j->err_found, sizeof j->err_found, "%s", found);
    return KIFU__JSON_ERROR;
}

static int nomem(kifu__json *j)
{
    j->nomem = 1;
    return fail_found(j, j->pos, "memory", "none left");
}

static void skip_ws(kifu__json *j)
{
    const char *t = j->text;
    size_t p = j->pos, n = j->len;
    while (p < n && (t[p] == ' ' || t[p] == '\n' || t[p] == '\t' || t[p] == '\r'))
        p++;
    j->pos = p;
}

static int hex4(const char *s, unsigned *out)
{
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        char c = s[i];
        v <<= 4;
        if (c >= '0' && c <= '9')
            v |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            v |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            v |= (unsigned)(c - 'A' + 10);
        else
            return -1;
    }
    *out = v;
    return 0;
}

static char *put_utf8(char *q, unsigned cp)
{
    if (cp < 0x80) {
        *q++ = (char)cp;
    } else if (cp < 0x800) {
        *q++ = (char)(0xC0 | cp >> 6);
        *q++ = (char)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        *q++ = (char)(0xE0 | cp >> 12);
        *q++ = (char)(0x80 | (cp >> 6 & 0x3F));
        *q++ = (char)(0x80 | (cp & 0x3F));
    } else {
        *q++ = (char)(0xF0 | cp >> 18);
        *q++ = (char)(0x80 | (cp >> 12 & 0x3F));
        *q++ = (char)(0x80 | (cp >> 6 & 0x3F));
        *q++ = (char)(0x80 | (cp & 0x3F));
    }
    return q;
}

/* The string whose opening quote is at j->pos, decoded into the next buffer. */
static int string(kifu__json *j, kifu__json_tok *t, int type)
{
    const char *s = j->text, *end = s + j->len;
    size_t start = j->pos + 1, p = start;
    /* The raw length bounds the decoded one: escapes only shrink. */
    while (p < j->len && s[p] != '"' && (unsigned char)s[p] >= 0x20)
        p += s[p] == '\\' && p + 1 < j->len ? 2 : 1;
    if (p >= j->len)
        return fail(j, p, "'\"' closing the string");
    if ((unsigned char)s[p] < 0x20)
        return fail(j, p, "'\"' or an escaped character");
    size_t raw = p - start;
    int w = j->which;
    j->which ^= 1;
    if (kifu__reserve(&j->buf[w], &j->bufcap[w], raw + 1, 1, 64))
        return nomem(j);
    char *q = j->buf[w];
    const char *r = s + start, *stop = s + p;
    while (r < stop) {
        const char *bs = memchr(r, '\\', (size_t)(stop - r));
        if (!bs)
            bs = stop;
        memcpy(q, r, (size_t)(bs - r));
        q += bs - r;
        r = bs;
        if (r == stop)
            break;
        size_t at = (size_t)(r - s);
        char e = r[1];
        r += 2;
        switch (e) {
        case '"':
        case '\\':
        case '/':
            *q++ = e;
            break;
        case 'b':
            *q++ = '\b';
            break;
        case 'f':
            *q++ = '\f';
            break;
        case 'n':
            *q++ = '\n';
            break;
        case 'r':
            *q++ = '\r';
            break;
        case 't':
            *q++ = '\t';
            break;
        case 'u': {
            unsigned cp, lo;
            if (end - r < 4 || hex4(r, &cp))
                return fail(j, at, "\\u and four hex digits");
            r += 4;
            if (cp >= 0xDC00 && cp <= 0xDFFF)
                return fail_found(j, at, "a whole character", "a lone low surrogate");
            if (cp >= 0xD800 && cp <= 0xDBFF) {
                if (end - r < 6 || r[0] != '\\' || r[1] != 'u' || hex4(r + 2, &lo) ||
                    lo < 0xDC00 || lo > 0xDFFF)
                    return fail_found(j, at, "a whole character",
                                      "a lone high surrogate");
                r += 6;
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            }
            if (cp == 0)
                return fail_found(j, at, "a character", "\\u0000 (a NUL)");
            q = put_utf8(q, cp);
            break;
        }
        default:
            return fail(j, at + 1, "an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u)");
        }
    }
    *q = 0;
    t->type = type;
    t->off = j->pos;
    t->s = j->buf[w];
    t->n = (size_t)(q - j->buf[w]);
    j->pos = p + 1;
    return type;
}

static int digits(const char *s, size_t len, size_t *p)
{
    size_t start = *p;
    while (*p < len && s[*p] >= '0' && s[*p] <= '9')
        (*p)++;
    return *p > start;
}

static int number(kifu__json *j, kifu__json_tok *t)
{
    const char *s = j->text;
    size_t p = j->pos, len = j->len;
    int neg = s[p] == '-';
    if (neg)
        p++;
    if (p < len && s[p] == '0') {
        p++;
    } else if (!digits(s, len, &p)) {
        return fail(j, p, "a digit");
    }
    size_t int_end = p;
    int is_int = 1;
    if (p < len && s[p] == '.') {
        p++;
        is_int = 0;
        if (!digits(s, len, &p))
            return fail(j, p, "a digit after '.'");
    }
    if (p < len && (s[p] == 'e' || s[p] == 'E')) {
        p++;
        is_int = 0;
        if (p < len && (s[p] == '+' || s[p] == '-'))
            p++;
        if (!digits(s, len, &p))
            return fail(j, p, "a digit in the exponent");
    }
    long long v = 0;
    if (is_int) {
        /* Accumulate negatively: LLONG_MIN has no positive twin. */
        for (size_t i = j->pos + (size_t)neg; i < int_end; i++) {
            int d = s[i] - '0';
            if (v < (LLONG_MIN + d) / 10) {
                v = LLONG_MIN;
                break;
            }
            v = v * 10 - d;
        }
        if (!neg)
            v = v == LLONG_MIN ? LLONG_MAX : -v;
    }
    t->type = KIFU__JSON_NUMBER;
    t->off = j->pos;
    t->s = s + j->pos;
    t->n = p - j->pos;
    t->is_int = is_int;
    t->i = v;
    j->pos = p;
    return KIFU__JSON_NUMBER;
}

static int word(kifu__json *j, kifu__json_tok *t, const char *w, int type)
{
    size_t n = strlen(w);
    if (j->len - j->pos < n || memcmp(j->text + j->pos, w, n) != 0)
        return fail(j, j->pos, "a value");
    t->type = type;
    t->off = j->pos;
    t->s = j->text + j->pos;
    t->n = n;
    j->pos += n;
    return type;
}

static int open_(kifu__json *j, kifu__json_tok *t, char c)
{
    if (kifu__reserve(&j->stack, &j->cap, j->depth + 1, 1, 64))
        return nomem(j);
    j->stack[j->depth++] = (unsigned char)c;
    j->state = c == '{' ? S_KEY_OR_CLOSE : S_VALUE_OR_CLOSE;
    t->type = c == '{' ? KIFU__JSON_OBJECT : KIFU__JSON_ARRAY;
    t->off = j->pos++;
    t->s = NULL;
    t->n = 0;
    return t->type;
}

static int close_(kifu__json *j, kifu__json_tok *t)
{
    t->type = j->stack[--j->depth] == '{' ? KIFU__JSON_OBJECT_END : KIFU__JSON_ARRAY_END;
    t->off = j->pos++;
    t->s = NULL;
    t->n = 0;
    j->state = S_AFTER;
    return t->type;
}

static int value(kifu__json *j, kifu__json_tok *t)
{
    if (j->pos >= j->len)
        return fail(j, j->pos, "a value");
    int rc;
    switch (j->text[j->pos]) {
    case '{':
        return open_(j, t, '{');
    case '[':
        return open_(j, t, '[');
    case '"':
        rc = string(j, t, KIFU__JSON_STRING);
        break;
    case 't':
        rc = word(j, t, "true", KIFU__JSON_TRUE);
        break;
    case 'f':
        rc = word(j, t, "false", KIFU__JSON_FALSE);
        break;
    case 'n':
        rc = word(j, t, "null", KIFU__JSON_NULL);
        break;
    default:
        if (j->text[j->pos] != '-' && (j->text[j->pos] < '0' || j->text[j->pos] > '9'))
            return fail(j, j->pos, "a value");
        rc = number(j, t);
    }
    j->state = S_AFTER;
    return rc;
}

static int key(kifu__json *j, kifu__json_tok *t)
{
    if (j->pos >= j->len || j->text[j->pos] != '"')
        return fail(j, j->pos, "a key (a string in double quotes)");
    if (string(j, t, KIFU__JSON_KEY) < 0)
        return KIFU__JSON_ERROR;
    skip_ws(j);
    if (j->pos >= j->len || j->text[j->pos] != ':')
        return fail(j, j->pos, "':' after the key");
    j->pos++;
    j->state = S_VALUE;
    return KIFU__JSON_KEY;
}

int kifu__json_next(kifu__json *j, kifu__json_tok *t)
{
    skip_ws(j);
    switch (j->state) {
    case S_VALUE:
        return value(j, t);
    case S_VALUE_OR_CLOSE:
        if (j->pos < j->len && j->text[j->pos] == ']')
            return close_(j, t);
        return value(j, t);
    case S_KEY:
        return key(j, t);
    case S_KEY_OR_CLOSE:
        if (j->pos < j->len && j->text[j->pos] == '}')
            return close_(j, t);
        return key(j, t);
    default:
        break;
    }
    /* After a value. */
    if (j->depth == 0) {
        t->type = KIFU__JSON_END;
        t->off = j->pos;
        if (j->one_value || j->pos == j->len)
            return KIFU__JSON_END;
        return fail(j, j->pos, "the end of the text after the value");
    }
    char top = (char)j->stack[j->depth - 1];
    char c = j->pos < j->len ? j->text[j->pos] : 0;
    if (c == ',') {
        size_t comma = j->pos++;
        skip_ws(j);
        char close = top == '{' ? '}' : ']';
        if (j->trailing_comma && j->pos < j->len && j->text[j->pos] == close) {
            j->trailing_comma(j->ctx, comma);
            return close_(j, t);
        }
        if (top == '{')
            return key(j, t);
        return value(j, t);
    }
    if ((top == '{' && c == '}') || (top == '[' && c == ']'))
        return close_(j, t);
    return fail(j, j->pos, top == '{' ? "',' or '}'" : "',' or ']'");
}

int kifu__json_error(const kifu__json *j, kifu_error *err)
{
    if (j->nomem)
        return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
    int line, col;
    kifu__text_where(j->text, j->err_off, &line, &col);
    return kifu__error(err, KIFU_ERR_SYNTAX, line, col, j->err_off, j->err_expected,
                       j->err_found, "JSON syntax: expected %s, found %s",
                       j->err_expected, j->err_found);
}

int kifu__json_skip(kifu__json *j, const kifu__json_tok *t)
{
    if (t->type != KIFU__JSON_OBJECT && t->type != KIFU__JSON_ARRAY)
        return 0;
    size_t depth = 1;
    kifu__json_tok u;
    while (depth) {
        switch (kifu__json_next(j, &u)) {
        case KIFU__JSON_ERROR:
            return -1;
        case KIFU__JSON_OBJECT:
        case KIFU__JSON_ARRAY:
            depth++;
            break;
        case KIFU__JSON_OBJECT_END:
        case KIFU__JSON_ARRAY_END:
            depth--;
            break;
        default:
            break;
        }
    }
    return 0;
}
