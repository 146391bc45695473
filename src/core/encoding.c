/* encoding.c: CP932 / EUC-JP / UTF-16 <-> UTF-8 through glibc iconv, encoding detection
 * and the encodings' names. The only file that knows about iconv. */
#include "core/encoding.h"

#include <errno.h>
#include <iconv.h>
#include <pthread.h>
#include <stdatomic.h>
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

/* Every name an encoding goes by, in any case; the first of each is its usual name. */
static const struct {
    const char *name;
    int enc;
} names[] = {
    {"auto", KIFU_ENC_AUTO},         {"UTF-8", KIFU_ENC_UTF8},
    {"utf8", KIFU_ENC_UTF8},         {"Shift_JIS", KIFU_ENC_CP932},
    {"Shift-JIS", KIFU_ENC_CP932},   {"SJIS", KIFU_ENC_CP932},
    {"MS932", KIFU_ENC_CP932},       {"CP932", KIFU_ENC_CP932},
    {"Windows-31J", KIFU_ENC_CP932}, {"EUC-JP", KIFU_ENC_EUCJP},
    {"eucjp", KIFU_ENC_EUCJP},       {"UTF-16", KIFU_ENC_UTF16},
    {"utf16", KIFU_ENC_UTF16},       {"UTF-16LE", KIFU_ENC_UTF16LE},
    {"UTF-16BE", KIFU_ENC_UTF16BE},
};
#define NNAMES (sizeof names / sizeof names[0])

int kifu_encoding_from_name(const char *name)
{
    for (size_t i = 0; name && i < NNAMES; i++)
        if (strcasecmp(name, names[i].name) == 0)
            return names[i].enc;
    return -1;
}

const char *kifu_encoding_name(int enc)
{
    for (size_t i = 0; i < NNAMES; i++)
        if (names[i].enc == enc)
            return names[i].name;
    return NULL;
}

static char name_list[256];
static pthread_once_t name_list_once = PTHREAD_ONCE_INIT;

static void name_list_fill(void)
{
    size_t n = 0;
    for (size_t i = 0; i < NNAMES; i++)
        n += (size_t)snprintf(name_list + n, sizeof name_list - n, "%s%s", i ? " " : "",
                              names[i].name);
}

const char *kifu_encoding_names(void)
{
    pthread_once(&name_list_once, name_list_fill);
    return name_list;
}

static int is_utf16(int enc)
{
    return enc == KIFU_ENC_UTF16 || enc == KIFU_ENC_UTF16LE || enc == KIFU_ENC_UTF16BE;
}

/* The name iconv knows (UTF-16 as written: little-endian, its BOM added by the caller). */
static const char *iconv_name(int enc)
{
    switch (enc) {
    case KIFU_ENC_CP932:
        return "CP932";
    case KIFU_ENC_EUCJP:
        return "EUC-JP";
    case KIFU_ENC_UTF16:
    case KIFU_ENC_UTF16LE:
        return "UTF-16LE";
    case KIFU_ENC_UTF16BE:
        return "UTF-16BE";
    default:
        return "UTF-8";
    }
}

/* UTF-16 by its BOM: KIFU_ENC_UTF16LE or _UTF16BE, else AUTO. */
static int utf16_bom(const char *data, size_t len)
{
    const unsigned char *s = (const unsigned char *)data;
    if (len >= 2 && s[0] == 0xFF && s[1] == 0xFE)
        return KIFU_ENC_UTF16LE;
    if (len >= 2 && s[0] == 0xFE && s[1] == 0xFF)
        return KIFU_ENC_UTF16BE;
    return KIFU_ENC_AUTO;
}

/* UTF-16 without a BOM. Record text is mostly ASCII (digits, marks, line ends), and each
 * ASCII character is a unit with a zero byte: at odd offsets little-endian, at even ones
 * big-endian. The other encodings read here have no zero bytes, and a kanji unit seldom
 * has one (一 U+4E00 does), so: at least a unit in four with a zero on one side, four
 * times as many as on the other, in the first 1024 bytes. Else AUTO. */
static int utf16_zeros(const char *data, size_t len)
{
    const unsigned char *s = (const unsigned char *)data;
    size_t n = (len < 1024 ? len : 1024) & ~(size_t)1, even = 0, odd = 0;
    if (n < 4)
        return KIFU_ENC_AUTO;
    for (size_t i = 0; i < n; i += 2) {
        even += s[i] == 0;
        odd += s[i + 1] == 0;
    }
    size_t units = n / 2;
    if (odd * 4 >= units && even * 4 < odd)
        return KIFU_ENC_UTF16LE;
    if (even * 4 >= units && odd * 4 < even)
        return KIFU_ENC_UTF16BE;
    return KIFU_ENC_AUTO;
}

/* Converts with iconv into a growing buffer. On an invalid sequence returns -1 with *bad
 * set to the input offset; -4 the same when the input ends inside a character. */
static int convert(const char *from, const char *to, const char *data, size_t len,
                   char **out, size_t *outlen, size_t *bad)
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
        /* EINVAL: the input ends inside a character (a file cut short). */
        int cut = errno == EINVAL;
        *bad = (size_t)(in - data);
        kifu__free(buf);
        iconv_close(cd);
        return cut ? -4 : -1;
    }
    iconv_close(cd);
    buf[used] = 0;
    *out = buf;
    *outlen = used;
    return 0;
}

/* CP932 decoding by table. iconv costs about 150 instructions a character, most of a
 * KIF or KI2 read; CP932 is stateless, so each byte or lead-trail pair always decodes to
 * the same UTF-8. The tables are filled once, from glibc iconv itself (so the result is
 * byte for byte what iconv gives), and any input they do not cover (an undecodable or
 * truncated sequence) goes through iconv as before, which finds and reports the error.
 * An entry is the UTF-8 bytes and their count (n 0: not covered). */
typedef struct cp_ent {
    unsigned char b[3], n;
} cp_ent;
_Static_assert(sizeof(cp_ent) == 4, "a table entry is stored as 4 bytes");
/* n of an entry held as its four bytes in a uint32_t. */
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define CP_N(v) ((v)&0xFF)
#else
#define CP_N(v) ((v) >> 24)
#endif

static uint32_t cp_bits(cp_ent e)
{
    uint32_t v;
    memcpy(&v, &e, sizeof v);
    return v;
}
#define CP_LEAD_NB 60           /* 81-9F, E0-FC */
static uint32_t cp_single[256]; /* cp_ent's bytes, as cp_pair */
/* By lead index and the whole trail byte, each a cp_ent's four bytes: a trail outside
 * 40-FC has n 0, like any pair iconv refuses, so the decoding loop needs no range check.
 * Atomic (relaxed: plain loads and stores on common CPUs) because a decoder reads an entry
 * before it knows its row is filled: it sees 0, and then waits for the row, or the whole
 * entry. */
static _Atomic uint32_t cp_pair[CP_LEAD_NB][256];
static signed char cp_lead[256]; /* cp_lead_index of each byte */
/* A row (one lead byte) is filled on first use, so a short file costs only the rows it
 * uses; the converter stays open for that. cp_row: 1 filled, set under cp_lock. */
static _Atomic int cp_row[CP_LEAD_NB];
static int cp_ready, cp_ascii; /* cp_ascii: bytes 00-7F decode to themselves */
static iconv_t cp_cd;
static pthread_once_t cp_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t cp_lock = PTHREAD_MUTEX_INITIALIZER;

static int cp_lead_index(unsigned c)
{
    return c >= 0x81 && c <= 0x9F   ? (int)c - 0x81
           : c >= 0xE0 && c <= 0xFC ? (int)c - 0xE0 + 31
                                    : -1;
}

/* One sequence through iconv into a table entry (n 0 when iconv refuses it). */
static cp_ent cp_entry(iconv_t cd, const char *seq, size_t n)
{
    char in[2], out[8];
    cp_ent e = {{0, 0, 0}, 0};
    memcpy(in, seq, n);
    char *ip = in, *op = out;
    size_t il = n, ol = sizeof out;
    size_t rc = iconv(cd, &ip, &il, &op, &ol);
    size_t got = sizeof out - ol;
    iconv(cd, NULL, NULL, NULL, NULL);
    if (rc == (size_t)-1 || il != 0 || got == 0 || got > 3)
        return e;
    memcpy(e.b, out, got);
    e.n = (unsigned char)got;
    return e;
}

static void cp_build(void)
{
    cp_cd = iconv_open("UTF-8", "CP932");
    if (cp_cd == (iconv_t)-1)
        return;
    cp_ascii = 1;
    for (unsigned c = 0; c < 256; c++) {
        char b = (char)c;
        cp_lead[c] = (signed char)cp_lead_index(c);
        cp_ent e = {{0, 0, 0}, 0};
        if (cp_lead_index(c) < 0)
            e = cp_entry(cp_cd, &b, 1);
        cp_single[c] = cp_bits(e);
        if (c < 0x80 && (e.n != 1 || e.b[0] != c))
            cp_ascii = 0;
    }
    cp_ready = 1;
}

static uint32_t cp_pair_at(int li, unsigned t)
{
    return atomic_load_explicit(&cp_pair[li][t], memory_order_relaxed);
}

/* Fills the row of lead byte index li if it is not yet. */
static void cp_row_fill(int li, unsigned lead)
{
    if (!atomic_load_explicit(&cp_row[li], memory_order_acquire)) {
        pthread_mutex_lock(&cp_lock);
        if (!atomic_load_explicit(&cp_row[li], memory_order_relaxed)) {
            for (unsigned t = 0x40; t <= 0xFC; t++) {
                char pair[2] = {(char)lead, (char)t};
                atomic_store_explicit(&cp_pair[li][t], cp_bits(cp_entry(cp_cd, pair, 2)),
                                      memory_order_relaxed);
            }
            atomic_store_explicit(&cp_row[li], 1, memory_order_release);
        }
        pthread_mutex_unlock(&cp_lock);
    }
}

/* What the CP932 shape check (cp932_shape) finds, gathered while decoding. */
typedef struct cp_stats {
    size_t pairs, kana;
    int shape; /* 0: the bytes cannot be CP932 by cp932_shape's rules */
} cp_stats;

/* Copies the 8 bytes at s to o and returns how many of them, from the first, are ASCII
 * (8 when all are). */
static inline size_t ascii_word(const unsigned char *s, unsigned char *o)
{
    uint64_t w;
    memcpy(&w, s, 8);
    memcpy(o, &w, 8);
    uint64_t high = w & 0x8080808080808080ULL;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    return high ? (size_t)__builtin_ctzll(high) >> 3 : 8;
#else
    size_t n = 0;
    while (n < 8 && s[n] < 0x80)
        n++;
    return n;
#endif
}

/* CP932 to UTF-8 by the tables. 0 done; 1 when the tables do not cover the input (the
 * caller uses iconv); -3 out of memory. st (optional) gets cp932_shape's findings. */
static int cp932_fast(const char *data, size_t len, char **out, size_t *outlen,
                      cp_stats *st)
{
    cp_stats dummy;
    if (!st)
        st = &dummy;
    st->pairs = st->kana = 0;
    st->shape = 1;
    pthread_once(&cp_once, cp_build);
    if (!cp_ready || !cp_ascii || len > ((size_t)-1 - 2) / 3)
        return 1;
    const unsigned char *s = (const unsigned char *)data;
    /* Room for 3 bytes per input byte, and one more: an entry is stored as 4 bytes. */
    char *buf = kifu__malloc(len * 3 + 2);
    if (!buf)
        return -3;
    unsigned char *o = (unsigned char *)buf;
    size_t i = 0, pairs = 0, kana = 0;
    int shape = 1;
    uint64_t rows = 0; /* rows this call already knows are filled (60 fit) */
    while (i < len) {
        unsigned c = s[i];
        if (c < 0x80) {
            /* A run of ASCII, 8 bytes at a time: a word is copied whole and the run ends
             * at its first non-ASCII byte (the runs between Japanese words are short, and
             * a byte loop over them cost a KI2 file a tenth of its decoding). The buffer
             * has room: 3 bytes per input byte before i, and 8 more bytes remain. */
            size_t n = 8;
            while (i + 8 <= len && (n = ascii_word(s + i, o)) == 8) {
                i += 8;
                o += 8;
            }
            if (n < 8) {
                i += n;
                o += n;
                continue;
            }
            while (i < len && s[i] < 0x80)
                *o++ = s[i++];
            continue;
        }
        uint32_t e; /* the entry's bytes: UTF-8, then their count */
        int li = cp_lead[c];
        if (li >= 0) {
            if (i + 1 >= len) {
                kifu__free(buf);
                return 1;
            }
            /* A run of pairs (Japanese text is mostly that), one entry each. */
            size_t from = i;
            do {
                e = cp_pair_at(li, s[i + 1]);
                if (!CP_N(e)) {
                    /* Maybe only a row not filled yet: fill it and look again. */
                    if (!(rows >> li & 1)) {
                        cp_row_fill(li, s[i]);
                        e = cp_pair_at(li, s[i + 1]);
                        rows |= (uint64_t)1 << li;
                    }
                    if (!CP_N(
                            e)) { /* not covered (trail 7F among them): iconv says why */
                        kifu__free(buf);
                        return 1;
                    }
                }
                memcpy(o, &e, 4);
                o += CP_N(e);
                i += 2;
            } while (i + 1 < len && (li = cp_lead[s[i]]) >= 0);
            pairs += (i - from) / 2;
            continue;
        }
        e = cp_single[c];
        if (!CP_N(e)) {
            kifu__free(buf);
            return 1;
        }
        if (c >= 0xA1 && c <= 0xDF)
            kana++;
        else
            shape = 0;
        i++;
        memcpy(o, &e, 4);
        o += CP_N(e);
    }
    st->pairs = pairs;
    st->kana = kana;
    st->shape = shape;
    *o = 0;
    *outlen = (size_t)(o - (unsigned char *)buf);
    /* Give back the worst case's room on big inputs (in place: no copy). */
    if (len * 3 + 2 - *outlen > 65536) {
        char *nb = kifu__realloc(buf, *outlen + 1);
        if (nb)
            buf = nb;
    }
    *out = buf;
    return 0;
}

/* Byte-level checks of the two legacy encodings, so detection needs no trial conversion.
 * CP932: ASCII, half-width kana A1-DF, or a lead 81-9F/E0-FC with a trail 40-7E/80-FC.
 * Returns 0 when the bytes cannot be CP932; counts pairs and half-width kana. */
static int cp932_shape(const unsigned char *s, size_t len, size_t *pairs, size_t *kana)
{
    *pairs = *kana = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned c = s[i];
        if (c < 0x80) {
            while (i + 9 <= len) { /* ASCII runs 8 bytes at a time */
                uint64_t w;
                memcpy(&w, s + i + 1, 8);
                if (w & 0x8080808080808080ULL)
                    break;
                i += 8;
            }
            continue;
        }
        if (c >= 0xA1 && c <= 0xDF) {
            (*kana)++;
            continue;
        }
        if (!((c >= 0x81 && c <= 0x9F) || (c >= 0xE0 && c <= 0xFC)))
            return 0;
        if (i + 1 >= len) /* a lead byte last: a file cut short, still of this shape */
            break;
        unsigned t = s[++i];
        if (t < 0x40 || t == 0x7F || t > 0xFC)
            return 0;
        (*pairs)++;
    }
    return 1;
}

/* EUC-JP: ASCII, pairs A1-FE A1-FE, 8E + kana, 8F + a pair. */
static int eucjp_shape(const unsigned char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        unsigned c = s[i];
        if (c < 0x80)
            continue;
        if (!(c == 0x8E || c == 0x8F || (c >= 0xA1 && c <= 0xFE)))
            return 0;
        size_t need = c == 0x8F ? 2 : 1;
        if (len - i - 1 < need)
            return 0;
        for (size_t k = 1; k <= need; k++)
            if (s[i + k] < 0xA1 || s[i + k] > 0xFE)
                return 0;
        i += need;
    }
    return 1;
}

/* A declared encoding in the first lines: CSA V3.0 `'CSA encoding=X`, Kifu for Windows'
 * `'encoding=X` or `#KIF version=2.0 encoding=X`. Returns AUTO when none. */
static int declared(const char *data, size_t len)
{
    size_t lim = len < 512 ? len : 512;
    for (size_t i = 0; i + 9 < lim; i++) {
        /* Jump to the next '=' (rare in the first lines) before comparing. */
        const char *eq = memchr(data + i + 8, '=', lim - i - 8);
        if (!eq)
            break;
        i = (size_t)(eq - data) - 8;
        if (i + 9 >= lim)
            break;
        if (memcmp(data + i, "encoding=", 9) != 0)
            continue;
        const char *v = data + i + 9;
        size_t left = lim - i - 9;
        if (left >= 5 && (strncmp(v, "UTF-8", 5) == 0 || strncmp(v, "utf-8", 5) == 0))
            return KIFU_ENC_UTF8;
        if (left >= 6 && (strncmp(v, "EUC-JP", 6) == 0 || strncmp(v, "euc-jp", 6) == 0))
            return KIFU_ENC_EUCJP;
        if (left >= 4 &&
            (strncasecmp(v, "SHIF", 4) == 0 || strncasecmp(v, "CP93", 4) == 0 ||
             strncasecmp(v, "SJIS", 4) == 0 || strncasecmp(v, "Wind", 4) == 0))
            return KIFU_ENC_CP932;
    }
    return KIFU_ENC_AUTO;
}

/* The encoding of bytes that are not UTF-8. */
static int detect_legacy(const char *data, size_t len)
{
    /* Files lie: Kifu for Windows writes `encoding=UTF-8` over Shift-JIS bytes, so a UTF-8
     * declaration on bytes that are not UTF-8 is ignored. */
    int d = declared(data, len);
    if (d != KIFU_ENC_AUTO && d != KIFU_ENC_UTF8)
        return d;
    /* EUC-JP read as CP932 turns into half-width kana (its bytes A1-DF stand alone
     * there), which real CP932 records hardly use. */
    const unsigned char *u = (const unsigned char *)data;
    size_t pairs, kana;
    int cp = cp932_shape(u, len, &pairs, &kana);
    /* The EUC-JP pass only when its answer matters (not for plain CP932 text). */
    if ((!cp || kana * 4 > pairs) && eucjp_shape(u, len))
        return KIFU_ENC_EUCJP;
    return KIFU_ENC_CP932;
}

int kifu__detect_encoding(const char *data, size_t len)
{
    if (kifu__bom_len(data, len))
        return KIFU_ENC_UTF8;
    int u16 = utf16_bom(data, len);
    if (u16 == KIFU_ENC_AUTO)
        u16 = utf16_zeros(data, len);
    if (u16 != KIFU_ENC_AUTO)
        return u16;
    if (kifu__utf8_valid(data, len, NULL))
        return KIFU_ENC_UTF8;
    return detect_legacy(data, len);
}

/* Line and column (in characters) of byte offset `off` of bytes in `enc`: UTF-8 counts
 * code points, UTF-16 code units but low surrogates; CP932 and EUC-JP count a lead byte and its trail byte as one character
 * (CP932 half-width kana and EUC-JP SS2 kana included). */
static void locate(const char *data, size_t off, int enc, int *line, int *col)
{
    if (is_utf16(enc)) {
        /* Code units: a line ends at U+000A, a low surrogate is no new character. */
        const unsigned char *s = (const unsigned char *)data;
        int be = enc == KIFU_ENC_UTF16BE, l = 1, c = 1;
        for (size_t i = 0; i + 2 <= off; i += 2) {
            unsigned u =
                be ? (unsigned)s[i] << 8 | s[i + 1] : (unsigned)s[i + 1] << 8 | s[i];
            if (u == 0x0A)
                l++, c = 1;
            else if (!(u >= 0xDC00 && u <= 0xDFFF) && !(i == 0 && u == 0xFEFF))
                c++;
        }
        *line = l;
        *col = c;
        return;
    }
    int l = 1;
    size_t start = 0;
    for (size_t i = 0; i < off; i++)
        if (data[i] == '\n') {
            l++;
            start = i + 1;
        }
    *line = l;
    if (enc == KIFU_ENC_UTF8) {
        *col = kifu__utf8_column(data + start, off - start);
        return;
    }
    int c = 1;
    for (size_t i = start; i < off; i++, c++) {
        unsigned char ch = (unsigned char)data[i];
        int pair = enc == KIFU_ENC_CP932
                       ? (ch >= 0x81 && ch <= 0x9F) || (ch >= 0xE0 && ch <= 0xFC)
                       : ch >= 0x8E;
        if (pair && i + 1 < off)
            i++;
    }
    *col = c;
}

/* Decoded BOMs (U+FEFF) are dropped too. */
static int drop_boms(char **out, size_t *outlen)
{
    size_t drop = 0;
    while (kifu__bom_len(*out + drop, *outlen - drop))
        drop += 3;
    if (drop) {
        memmove(*out, *out + drop, *outlen - drop + 1);
        *outlen -= drop;
    }
    return 0;
}

/* UTF-8 in and out: a NUL-terminated copy the caller owns. */
static int copy_out(const char *data, size_t len, char **out, size_t *outlen,
                    kifu_error *err)
{
    char *p = kifu__malloc(len + 1);
    if (!p)
        return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
    memcpy(p, data, len);
    p[len] = 0;
    *out = p;
    *outlen = len;
    return 0;
}

/* Is invalid UTF-8 nearly valid: at most 3 bad bytes among at least 8 times as many
 * good multi-byte characters? Then one damaged byte is the fault, and decoding it as
 * CP932 would report a wrong place or turn the text to nonsense. Stops at the 4th bad
 * byte, so CP932 text (bad from its first kana) costs little. */
static int nearly_utf8(const char *data, size_t len)
{
    const unsigned char *s = (const unsigned char *)data;
    size_t good = 0, bad = 0;
    for (size_t i = 0; i < len;) {
        unsigned c = s[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t n = c >= 0xC2 && c <= 0xDF   ? 2
                   : c >= 0xE0 && c <= 0xEF ? 3
                   : c >= 0xF0 && c <= 0xF4 ? 4
                                            : 0;
        size_t k = 1;
        while (n && k < n && i + k < len && (s[i + k] & 0xC0) == 0x80)
            k++;
        if (n && k == n) {
            good++;
            i += n;
        } else {
            if (++bad > 3)
                return 0;
            i++;
        }
    }
    return bad && good >= 8 * bad;
}

/* Does invalid UTF-8 go wrong only at its end, inside a character cut short? */
static int utf8_cut(const char *data, size_t len, size_t bad)
{
    const unsigned char *s = (const unsigned char *)data;
    unsigned c = s[bad];
    size_t n = c >= 0xC2 && c <= 0xDF   ? 2
               : c >= 0xE0 && c <= 0xEF ? 3
               : c >= 0xF0 && c <= 0xF4 ? 4
                                        : 0;
    if (!n || bad + n <= len)
        return 0;
    for (size_t k = bad + 1; k < len; k++)
        if ((s[k] & 0xC0) != 0x80)
            return 0;
    return 1;
}

/* The error of text that ends inside a character of `enc`, at byte `bad`. */
static int cut_error(const char *data, size_t len, size_t bad, int enc, const char *tried,
                     kifu_error *err)
{
    int line, col;
    locate(data, bad, enc, &line, &col);
    char found[48];
    size_t n = 0;
    for (size_t i = bad; i < len && n + 6 < sizeof found; i++)
        n += (size_t)snprintf(found + n, sizeof found - n, "%s0x%02X", n ? " " : "",
                              (unsigned char)data[i]);
    return kifu__error(err, KIFU_ERR_ENCODING, line, col, bad, "a whole character", found,
                       "the text ends in the middle of a %s character (%s): the file "
                       "looks truncated%s",
                       iconv_name(enc), found, tried);
}

static int utf8_error(const char *data, size_t len, size_t skipped, const char *tried,
                      kifu_error *err)
{
    size_t bad = 0;
    kifu__utf8_valid(data, len, &bad);
    if (utf8_cut(data, len, bad)) {
        int rc = cut_error(data, len, bad, KIFU_ENC_UTF8, tried, err);
        if (err)
            err->offset += skipped;
        return rc;
    }
    int line, col;
    locate(data, bad, KIFU_ENC_UTF8, &line, &col);
    char found[16];
    snprintf(found, sizeof found, "byte 0x%02X", (unsigned char)data[bad]);
    return kifu__error(err, KIFU_ERR_ENCODING, line, col, bad + skipped, "UTF-8", found,
                       "invalid UTF-8: %s%s", found, tried);
}

int kifu__decode(const char *data, size_t len, int enc, char **out, size_t *outlen,
                 int *used, kifu_error *err)
{
    /* Editors that add a BOM to a file that has one leave two: drop them all. */
    size_t bom = 0;
    while (kifu__bom_len(data + bom, len - bom))
        bom += 3;
    int valid = 0, d; /* valid: known valid UTF-8 after the BOMs (detection checked it) */
    int detected = enc == KIFU_ENC_AUTO;
    size_t bad = 0;
    if (!bom && (enc == KIFU_ENC_AUTO || enc == KIFU_ENC_UTF8 || enc == KIFU_ENC_UTF16)) {
        /* A UTF-16 BOM is sure (its bytes are no UTF-8 or CP932 text). */
        int u16 = utf16_bom(data, len);
        if (u16 == KIFU_ENC_AUTO && enc != KIFU_ENC_UTF8)
            u16 = utf16_zeros(data, len);
        if (u16 == KIFU_ENC_AUTO && enc == KIFU_ENC_UTF16)
            u16 = KIFU_ENC_UTF16BE;
        if (u16 != KIFU_ENC_AUTO)
            enc = u16;
    }
    if (enc == KIFU_ENC_AUTO) {
        if (bom)
            enc = KIFU_ENC_UTF8;
        else if (kifu__utf8_valid(data, len, NULL))
            enc = KIFU_ENC_UTF8, valid = 1;
        else if (kifu__utf8_valid(data, len, &bad), utf8_cut(data, len, bad))
            /* UTF-8 up to a character cut short at the end. */
            return utf8_error(data, len, 0, "", err);
        else if (nearly_utf8(data, len))
            return utf8_error(data, len, 0,
                              " (the rest of the text is UTF-8, so not CP932 or EUC-JP)",
                              err);
        else if ((d = declared(data, len)) == KIFU_ENC_AUTO || d == KIFU_ENC_UTF8) {
            /* Decode as CP932 and check its shape in the same pass: when the bytes have
             * detect_legacy's CP932 shape and few half-width kana, it would say CP932 (the
             * EUC-JP pass does not matter then), so the text is ready. */
            cp_stats st;
            int rc = cp932_fast(data, len, out, outlen, &st);
            if (rc == -3)
                return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL,
                                   "out of memory");
            if (rc == 0 && st.shape && st.kana * 4 <= st.pairs) {
                if (used)
                    *used = KIFU_ENC_CP932;
                return drop_boms(out, outlen);
            }
            if (rc == 0)
                kifu__free(*out);
            *out = NULL;
            enc = detect_legacy(data, len);
        } else
            enc = detect_legacy(data, len);
    }
    if (used)
        *used = enc;
    if (enc == KIFU_ENC_UTF8) {
        data += bom;
        len -= bom;
        if (!valid && !kifu__utf8_valid(data, len, NULL))
            return utf8_error(data, len, bom, "", err);
        return copy_out(data, len, out, outlen, err);
    }
    bad = 0;
    int rc = enc == KIFU_ENC_CP932 ? cp932_fast(data, len, out, outlen, NULL) : 1;
    if (rc == 1)
        rc = convert(iconv_name(enc), "UTF-8", data, len, out, outlen, &bad);
    /* How the encoding was chosen, when it was not named. */
    const char *tried = !detected ? ""
                        : enc == KIFU_ENC_CP932
                            ? " (tried: not UTF-8; more like CP932 than EUC-JP; name the "
                              "encoding with --input-encoding)"
                        : enc == KIFU_ENC_EUCJP
                            ? " (tried: not UTF-8; more like EUC-JP than CP932; name the "
                              "encoding with --input-encoding)"
                            : " (name the encoding with --input-encoding)";
    if (rc == -4)
        return cut_error(data, len, bad, enc, tried, err);
    if (rc == -3)
        return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
    if (rc == -2)
        return kifu__error(err, KIFU_ERR_UNSUPPORTED, 0, 0, 0, NULL, NULL,
                           "iconv cannot convert from %s", iconv_name(enc));
    if (rc == -1) {
        int line, col;
        locate(data, bad, enc, &line, &col);
        char found[32];
        if (bad + 1 < len)
            snprintf(found, sizeof found, "bytes 0x%02X 0x%02X", (unsigned char)data[bad],
                     (unsigned char)data[bad + 1]);
        else
            snprintf(found, sizeof found, "byte 0x%02X", (unsigned char)data[bad]);
        return kifu__error(err, KIFU_ERR_ENCODING, line, col, bad, iconv_name(enc), found,
                           "cannot decode %s as %s%s", found, iconv_name(enc), tried);
    }
    return drop_boms(out, outlen);
}

int kifu__encode(const char *text, size_t len, int enc, char **out, size_t *outlen,
                 kifu_error *err)
{
    if (enc == KIFU_ENC_UTF8 || enc == KIFU_ENC_AUTO) {
        return copy_out(text, len, out, outlen, err);
    }
    size_t bad = 0;
    int rc = convert("UTF-8", iconv_name(enc), text, len, out, outlen, &bad);
    if (rc == 0 && enc == KIFU_ENC_UTF16) {
        /* Windows' UTF-16: little-endian after a BOM. */
        char *b = kifu__realloc(*out, *outlen + 3);
        if (!b) {
            kifu__free(*out);
            *out = NULL;
            return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
        }
        memmove(b + 2, b, *outlen + 1);
        b[0] = (char)0xFF, b[1] = (char)0xFE;
        *out = b;
        *outlen += 2;
    }
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
    return kifu__error(err, KIFU_ERR_ENCODING, line,
                       kifu__utf8_column(text + start, bad - start), bad, iconv_name(enc),
                       found, "the character \"%s\" cannot be written in %s", found,
                       iconv_name(enc));
}
