/* index_nfkc.c: the NFKC mappings that matter for players' names written in Japanese,
 * for the player key (index_player.c). Written here as small tables, not from Unicode's
 * data files: full-width ASCII and symbols, Unicode spaces, half-width katakana and
 * punctuation with their voiced marks joined (ｶﾞ to ガ, as NFKC's composition does; a
 * combining mark after a full-width kana joins too), circled and enclosed numbers,
 * letters, katakana and ideographs, Roman numerals, super- and subscript digits, the era
 * squares (㍻ to 平成) and Latin ligatures. Compatibility ideographs (U+F900..FAFF) are
 * left as they are: their table is the one part that would need Unicode's data. */
#include <string.h>

#include "index/index_private.h"

static int utf8_one(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    if (*p < 0x80)
        return *p;
    if (*p < 0xe0)
        return (p[0] & 31) << 6 | (p[1] & 63);
    return (p[0] & 15) << 12 | (p[1] & 63) << 6 | (p[2] & 63);
}

/* The i-th character of a string of three-byte UTF-8 characters. */
static int nth3(const char *s, int i)
{
    return utf8_one(s + 3 * i);
}

/* Half-width ｡..ﾟ (U+FF61..FF9F) as NFKC writes them: punctuation, katakana, the
 * prolonged sound mark, and the two voiced marks as their combining forms. */
static const char halfwidth[] =
    "。「」、・ヲァィゥェォャュョッーアイウエオカキクケコサシスセソタ"
    "チツテトナニヌネノハヒフヘホマミムメモヤユヨラリルレロワン";

/* Circled katakana ㋐..㋾ (U+32D0..32FE). */
static const char circled_kana[] =
    "アイウエオカキクケコサシスセソタチツテトナニヌネノハヒフヘホ"
    "マミムメモヤユヨラリルレロワヰヱヲ";

/* Circled ideographs ㊀..㊰ (U+3280..32B0). */
static const char circled_kanji[] = "一二三四五六七八九十月火水木金土日株有社名特財祝労秘"
                                    "男女適優印注項休写正上中下左右医宗学監企資協夜";

/* Full-width symbols ￠..￮ (U+FFE0..FFEE; FFE3 and FFE7 are not here). */
static const int fullwidth_sym[15] = {0xa2,   0xa3,   0xac,   0,      0xa6,
                                      0xa5,   0x20a9, 0,      0x2502, 0x2190,
                                      0x2191, 0x2192, 0x2193, 0x25a0, 0x25cb};

/* A number 1..99 as ASCII digits into out; the count. */
static int digits(int v, int *out)
{
    int n = 0;
    if (v >= 10)
        out[n++] = '0' + v / 10;
    out[n++] = '0' + v % 10;
    return n;
}

/* Every mapping that gives several characters, or numbers and letters; 0 when c is not
 * one of them. */
static int expand(int c, int *out)
{
    static const char *const roman[16] = {"i",   "ii",   "iii", "iv", "v",  "vi",
                                          "vii", "viii", "ix",  "x",  "xi", "xii",
                                          "l",   "c",    "d",   "m"};
    static const char *const liga[7] = {"ff", "fi", "fl", "ffi", "ffl", "st", "st"};
    static const char *const era[5] = {"平成", "昭和", "大正", "明治", "株式会社"};
    const char *ascii = NULL;
    if (c >= 0x2460 && c <= 0x2473) /* ①..⑳ */
        return digits(c - 0x2460 + 1, out);
    if (c >= 0x3251 && c <= 0x325f) /* ㉑..㉟ */
        return digits(c - 0x3251 + 21, out);
    if (c >= 0x32b1 && c <= 0x32bf) /* ㊱..㊿ */
        return digits(c - 0x32b1 + 36, out);
    if (c == 0x24ea || c == 0x2070 || c == 0x2080) /* ⓪ ⁰ ₀ */
        return out[0] = '0', 1;
    if (c == 0xb9 || c == 0xb2 || c == 0xb3) /* ¹ ² ³ */
        return out[0] = c == 0xb9 ? '1' : '0' + (c - 0xb0), 1;
    if ((c >= 0x2074 && c <= 0x2079) || (c >= 0x2081 && c <= 0x2089))
        return out[0] = '0' + (c & 0xf), 1;
    if (c >= 0x24b6 && c <= 0x24e9) /* Ⓐ..Ⓩ ⓐ..ⓩ */
        return out[0] = 'a' + (c - 0x24b6) % 26, 1;
    if ((c >= 0x2160 && c <= 0x216f) || (c >= 0x2170 && c <= 0x217f))
        ascii = roman[c & 0xf];
    else if (c >= 0xfb00 && c <= 0xfb06)
        ascii = liga[c - 0xfb00];
    else if (c >= 0x337b && c <= 0x337f) /* ㍻ ㍼ ㍽ ㍾ ㍿ */
        ascii = era[c - 0x337b];
    else if (c == 0x32ff) /* ㋿ */
        ascii = "令和";
    if (!ascii)
        return 0;
    int n = 0;
    for (const char *p = ascii; *p; p += *p < 0 ? 3 : 1)
        out[n++] = utf8_one(p);
    return n;
}

int kifu__nfkc_fold(int c, int *out)
{
    int n = expand(c, out);
    if (n)
        return n;
    if (c >= 0xff01 && c <= 0xff5e)
        c -= 0xfee0;
    else if (c == 0x3000 || c == 0xa0 || (c >= 0x2000 && c <= 0x200b) || c == 0x202f ||
             c == 0x205f)
        c = ' ';
    else if (c >= 0xff61 && c <= 0xff9d)
        c = nth3(halfwidth, c - 0xff61);
    else if (c == 0xff9e || c == 0xff9f)
        c = c == 0xff9e ? 0x3099 : 0x309a;
    else if (c >= 0xffe0 && c <= 0xffee && fullwidth_sym[c - 0xffe0])
        c = fullwidth_sym[c - 0xffe0];
    else if (c >= 0x32d0 && c <= 0x32fe)
        c = nth3(circled_kana, c - 0x32d0);
    else if (c >= 0x3280 && c <= 0x32b0)
        c = nth3(circled_kanji, c - 0x3280);
    if (c >= 'A' && c <= 'Z')
        c += 32;
    out[0] = c;
    return 1;
}

int kifu__nfkc_compose(int base, int mark)
{
    /* カ..ト, ハ..ホ (and their hiragana) take the voiced mark at +1, ハ..ホ the
     * semi-voiced at +2; ウ ワ ヰ ヱ ヲ ゝ ヽ have voiced forms of their own. */
    static const char voiced[] = "かきくけこさしすせそたちつてとはひふへほ";
    int kata = base >= 0x30a1 && base <= 0x30fe, k = kata ? base - 0x60 : base;
    if (mark == 0x3099) {
        for (int i = 0; i < 20; i++)
            if (k == nth3(voiced, i))
                return base + 1;
        switch (base) {
        case 0x30a6:
            return 0x30f4; /* ヴ */
        case 0x3046:
            return 0x3094; /* ゔ */
        case 0x30ef:
            return 0x30f7; /* ヷ */
        case 0x30f0:
            return 0x30f8; /* ヸ */
        case 0x30f1:
            return 0x30f9; /* ヹ */
        case 0x30f2:
            return 0x30fa; /* ヺ */
        case 0x309d:
            return 0x309e; /* ゞ */
        case 0x30fd:
            return 0x30fe; /* ヾ */
        }
        return 0;
    }
    if (mark == 0x309a)
        for (int i = 15; i < 20; i++) /* は..ほ */
            if (k == nth3(voiced, i))
                return base + 2;
    return 0;
}
