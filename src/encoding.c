/* encoding.c: CP932 / EUC-JP <-> UTF-8 through glibc iconv, and encoding detection. The
 * only file that knows about iconv. */
#include "encoding.h"

#include <errno.h>
#include <iconv.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "kifu_private.h"

size_t kifu__bom_len(const char *data, size_t len)
{
    return len >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
}

int kifu__utf8_valid(const char *data, size_t len, size_t *bad)
{
    const unsigned char *s = (const unsigned char *)data;
    size_t i = 0;
    while (i < len) {
        unsigned c = s[i];
        size_t n;
        unsigned min;
        if (c < 0x80) {
            /* Records are mostly ASCII (CSA entirely): skip 8 bytes at a time. */
            i++;
            while (i + 8 <= len) {
                uint64_t w;
                memcpy(&w, s + i, 8);
                if (w & 0x8080808080808080ULL)
                    break;
                i += 8;
            }
            continue;
        } else if ((c & 0xE0) == 0xC0) {
            n = 1, min = 0x80, c &= 0x1F;
        } else if ((c & 0xF0) == 0xE0) {
            n = 2, min = 0x800, c &= 0x0F;
        } else if ((c & 0xF8) == 0xF0) {
            n = 3, min = 0x10000, c &= 0x07;
        } else {
            goto fail;
        }
        for (size_t k = 1; k <= n; k++) {
            if (i + k >= len || (s[i + k] & 0xC0) != 0x80)
                goto fail;
            c = (c << 6) | (s[i + k] & 0x3F);
        }
        if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
            goto fail;
        i += n + 1;
    }
    return 1;
fail:
    if (bad)
        *bad = i;
    return 0;
}

static const char *iconv_name(int enc)
{
    switch (enc) {
    case KIFU_ENC_CP932: return "CP932";
    case KIFU_ENC_EUCJP: return "EUC-JP";
    default: return "UTF-8";
    }
}

/* Converts with iconv into a growing buffer. On an invalid sequence returns -1 with *bad
 * set to the input offset. */
static int convert(const char *from, const char *to, const char *data, size_t len, char **out,
                   size_t *outlen, size_t *bad)
{
    iconv_t cd = iconv_open(to, from);
    if (cd == (iconv_t)-1)
        return -2;
    size_t cap = len * 3 / 2 + 16, used = 0;
    char *buf = kifu__malloc(cap + 1);
    if (!buf) {
        iconv_close(cd);
        return -3;
    }
    char *in = (char *)data;
    size_t inleft = len;
    while (inleft > 0) {
        char *o = buf + used;
        size_t oleft = cap - used;
        size_t rc = iconv(cd, &in, &inleft, &o, &oleft);
        used = (size_t)(o - buf);
        if (rc != (size_t)-1)
            break;
        if (errno == E2BIG) {
            cap *= 2;
            char *nb = kifu__realloc(buf, cap + 1);
            if (!nb) {
                kifu__free(buf);
                iconv_close(cd);
                return -3;
            }
            buf = nb;
            continue;
        }
        *bad = (size_t)(in - data);
        kifu__free(buf);
        iconv_close(cd);
        return -1;
    }
    iconv_close(cd);
    buf[used] = 0;
    *out = buf;
    *outlen = used;
    return 0;
}

/* Scores how plausible decoded UTF-8 is as Japanese text: kanji, kana and full-width
 * forms count for, half-width katakana (what EUC-JP bytes turn into when read as CP932)
 * and private-use characters count against. */
static long plausibility(const char *s, size_t len)
{
    long score = 0;
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0; i < len;) {
        unsigned c = u[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        unsigned cp;
        size_t n = (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : 4;
        cp = c & (n == 2 ? 0x1F : n == 3 ? 0x0F : 0x07);
        for (size_t k = 1; k < n && i + k < len; k++)
            cp = (cp << 6) | (u[i + k] & 0x3F);
        i += n;
        if (cp >= 0xFF61 && cp <= 0xFF9F)
            score -= 2;
        else if (cp >= 0xE000 && cp <= 0xF8FF)
            score -= 4;
        else if ((cp >= 0x3040 && cp <= 0x30FF) || (cp >= 0x4E00 && cp <= 0x9FFF) ||
                 (cp >= 0xFF01 && cp <= 0xFF5E) || (cp >= 0x25A0 && cp <= 0x25FF) ||
                 (cp >= 0x3000 && cp <= 0x303F))
            score += 2;
    }
    return score;
}

/* A declared encoding in the first lines: CSA V3.0 `'CSA encoding=X`, Kifu for Windows'
 * `'encoding=X` or `#KIF version=2.0 encoding=X`. Returns AUTO when none. */
static int declared(const char *data, size_t len)
{
    size_t lim = len < 512 ? len : 512;
    for (size_t i = 0; i + 9 < lim; i++) {
        if (memcmp(data + i, "encoding=", 9) != 0)
            continue;
        const char *v = data + i + 9;
        size_t left = lim - i - 9;
        if (left >= 5 && (strncmp(v, "UTF-8", 5) == 0 || strncmp(v, "utf-8", 5) == 0))
            return KIFU_ENC_UTF8;
        if (left >= 6 && (strncmp(v, "EUC-JP", 6) == 0 || strncmp(v, "euc-jp", 6) == 0))
            return KIFU_ENC_EUCJP;
        if (left >= 4 && (strncasecmp(v, "SHIF", 4) == 0 || strncasecmp(v, "CP93", 4) == 0 ||
                          strncasecmp(v, "SJIS", 4) == 0 || strncasecmp(v, "Wind", 4) == 0))
            return KIFU_ENC_CP932;
    }
    return KIFU_ENC_AUTO;
}

int kifu__detect_encoding(const char *data, size_t len)
{
    if (kifu__bom_len(data, len) || kifu__utf8_valid(data, len, NULL))
        return KIFU_ENC_UTF8;
    int d = declared(data, len);
    if (d != KIFU_ENC_AUTO)
        return d;
    char *a = NULL, *b = NULL;
    size_t alen = 0, blen = 0, bad = 0;
    int ra = convert("CP932", "UTF-8", data, len, &a, &alen, &bad);
    int rb = convert("EUC-JP", "UTF-8", data, len, &b, &blen, &bad);
    int enc = KIFU_ENC_CP932;
    if (rb == 0 && (ra != 0 || plausibility(b, blen) > plausibility(a, alen)))
        enc = KIFU_ENC_EUCJP;
    if (ra == 0)
        kifu__free(a);
    if (rb == 0)
        kifu__free(b);
    return enc;
}

/* Line and column (in characters of the valid prefix) of byte offset `off`. */
static void locate(const char *data, size_t off, int *line, int *col)
{
    int l = 1;
    size_t start = 0;
    for (size_t i = 0; i < off; i++)
        if (data[i] == '\n') {
            l++;
            start = i + 1;
        }
    *line = l;
    /* Approximate columns by bytes for non-UTF-8 input: one per byte pair or ASCII. */
    int c = 1;
    for (size_t i = start; i < off; i++) {
        unsigned char ch = (unsigned char)data[i];
        if (ch >= 0x80 && i + 1 < off)
            i++;
        c++;
    }
    *col = c;
}

int kifu__decode(const char *data, size_t len, int enc, char **out, size_t *outlen, int *used,
                 kifu_error *err)
{
    size_t bom = kifu__bom_len(data, len);
    if (enc == KIFU_ENC_AUTO)
        enc = kifu__detect_encoding(data, len);
    if (used)
        *used = enc;
    if (enc == KIFU_ENC_UTF8) {
        data += bom;
        len -= bom;
        size_t bad = 0;
        if (!kifu__utf8_valid(data, len, &bad)) {
            int line, col;
            locate(data, bad, &line, &col);
            char found[16];
            snprintf(found, sizeof found, "byte 0x%02X", (unsigned char)data[bad]);
            return kifu__error(err, KIFU_ERR_ENCODING, line, col, bad + bom, "UTF-8", found,
                               "invalid UTF-8: %s", found);
        }
        char *p = kifu__malloc(len + 1);
        if (!p)
            return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
        memcpy(p, data, len);
        p[len] = 0;
        *out = p;
        *outlen = len;
        return 0;
    }
    size_t bad = 0;
    int rc = convert(iconv_name(enc), "UTF-8", data, len, out, outlen, &bad);
    if (rc == -3)
        return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
    if (rc == -2)
        return kifu__error(err, KIFU_ERR_UNSUPPORTED, 0, 0, 0, NULL, NULL,
                           "iconv cannot convert from %s", iconv_name(enc));
    if (rc == -1) {
        int line, col;
        locate(data, bad, &line, &col);
        char found[32];
        if (bad + 1 < len)
            snprintf(found, sizeof found, "bytes 0x%02X 0x%02X", (unsigned char)data[bad],
                     (unsigned char)data[bad + 1]);
        else
            snprintf(found, sizeof found, "byte 0x%02X", (unsigned char)data[bad]);
        return kifu__error(err, KIFU_ERR_ENCODING, line, col, bad, iconv_name(enc), found,
                           "cannot decode %s as %s", found, iconv_name(enc));
    }
    /* A decoded BOM (U+FEFF) is dropped too. */
    if (*outlen >= 3 && memcmp(*out, "\xEF\xBB\xBF", 3) == 0) {
        memmove(*out, *out + 3, *outlen - 3 + 1);
        *outlen -= 3;
    }
    return 0;
}

int kifu__encode(const char *text, size_t len, int enc, char **out, size_t *outlen,
                 kifu_error *err)
{
    if (enc == KIFU_ENC_UTF8 || enc == KIFU_ENC_AUTO) {
        char *p = kifu__malloc(len + 1);
        if (!p)
            return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
        memcpy(p, text, len);
        p[len] = 0;
        *out = p;
        *outlen = len;
        return 0;
    }
    size_t bad = 0;
    int rc = convert("UTF-8", iconv_name(enc), text, len, out, outlen, &bad);
    if (rc == 0)
        return 0;
    if (rc == -3)
        return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
    if (rc == -2)
        return kifu__error(err, KIFU_ERR_UNSUPPORTED, 0, 0, 0, NULL, NULL,
                           "iconv cannot convert to %s", iconv_name(enc));
    int line = 1;
    size_t start = 0;
    for (size_t i = 0; i < bad; i++)
        if (text[i] == '\n') {
            line++;
            start = i + 1;
        }
    size_t n = 1;
    unsigned char c = (unsigned char)text[bad];
    n = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : 4;
    char found[16] = {0};
    memcpy(found, text + bad, n < sizeof found ? n : sizeof found - 1);
    return kifu__error(err, KIFU_ERR_ENCODING, line, kifu__utf8_column(text + start, bad - start),
                       bad, iconv_name(enc), found, "the character \"%s\" cannot be written in %s",
                       found, iconv_name(enc));
}
