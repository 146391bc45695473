/* words_fast.h: the KIF and KI2 readers' hot path: the usual kanji ranks and
 * one-character piece names decided inline by the lookups words.c builds from its tables
 * (call kifu__words_init first), anything else by the general calls of words.h (same
 * results). Text is valid UTF-8 here (decoded or checked). */
#ifndef KIFU_NOTATION_WORDS_FAST_H
#define KIFU_NOTATION_WORDS_FAST_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kifu.h"
#include "notation/words.h"

/* kifu__jp_rank with the kanji ranks 一 to 九 (what records write) decided inline. */
static inline size_t kifu__jp_rank_fast(const char *p, const char *end, int *v)
{
    unsigned cp = kifu__jp_cp3(p, end);
    const kifu__jp_cpv *e = &kifu__jp_ranks[cp & 0xFF];
    if (e->cp == cp && e->v && e->v <= 9) { /* 十 is not a rank */
        *v = e->v;
        return 3;
    }
    return kifu__jp_rank(p, end, v);
}

/* kifu__jp_piece with the one-character names decided inline (成香 成桂 成銀 and the
 * rarer spellings by the call). */
static inline size_t kifu__jp_piece_fast(const char *p, const char *end, int *kind)
{
    unsigned cp = kifu__jp_cp3(p, end);
    const kifu__jp_cpv *e = &kifu__jp_pieces[cp & 0xFF];
    if (e->cp == cp && e->v) {
        *kind = e->v;
        return 3;
    }
    return kifu__jp_piece(p, end, kind);
}

/* kifu__jp_mark inline: ▲ △ ☗ ☖ ▽ ▼ (E2 96 B2, E2 96 B3, E2 98 97, E2 98 96, E2 96 BD,
 * E2 96 BC). */
static inline size_t kifu__jp_mark_fast(const char *p, const char *end, int *color)
{
    if (end - p < 3 || (unsigned char)p[0] != 0xE2)
        return 0;
    /* The last two bytes as one number: no decoding, one compare per mark. */
    unsigned t = (unsigned)(unsigned char)p[1] << 8 | (unsigned char)p[2];
    if (t == 0x96B2 || t == 0x9897 || t == 0x96BC) {
        *color = KIFU_BLACK;
        return 3;
    }
    if (t == 0x96B3 || t == 0x9896 || t == 0x96BD) {
        *color = KIFU_WHITE;
        return 3;
    }
    return 0;
}

/* kifu__jp_space inline: ASCII spaces and tabs, and full-width spaces (E3 80 80). A run of
 * ASCII spaces (KI2 pads its columns with two to six) is measured 8 bytes at a time, with
 * no branch on its length. */
static inline size_t kifu__jp_space_fast(const char *s, const char *end)
{
    const char *p = s;
    while (end - p >= 8) {
        uint64_t x;
        memcpy(&x, p, 8);
        x ^= 0x2020202020202020ULL; /* spaces become zero bytes */
        if (x) {
            /* Little-endian: the lowest set bit is in the first byte that is not a space. */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
            p += __builtin_ctzll(x) >> 3;
#else
            p += __builtin_clzll(x) >> 3;
#endif
            break;
        }
        p += 8;
    }
    for (;;) {
        if (p < end && (*p == ' ' || *p == '\t'))
            p++;
        else if (end - p >= 3 && (unsigned char)p[0] == 0xE3 &&
                 (unsigned char)p[1] == 0x80 && (unsigned char)p[2] == 0x80)
            p += 3;
        else
            return (size_t)(p - s);
    }
}

/* kifu__jp_digit with the full-width digits １ to ９ (EF BC 91-99) decided inline. */
static inline size_t kifu__jp_digit_fast(const char *p, const char *end, int *v)
{
    if (end - p >= 3 && (unsigned char)p[0] == 0xEF && (unsigned char)p[1] == 0xBC &&
        (unsigned char)p[2] >= 0x91 && (unsigned char)p[2] <= 0x99) {
        *v = (unsigned char)p[2] - 0x90;
        return 3;
    }
    return kifu__jp_digit(p, end, v);
}

#endif
