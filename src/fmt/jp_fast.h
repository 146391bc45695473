/* jp_fast.h: the KIF and KI2 readers' hot path: the usual kanji ranks and one-character
 * piece names decided inline, anything else by the general calls of words.h (same
 * results). Text is valid UTF-8 here (decoded or checked). */
#ifndef KIFU_FMT_JP_FAST_H
#define KIFU_FMT_JP_FAST_H

#include <stddef.h>

#include "fmt/words.h"
#include "kifu.h"

/* The code point of the three-byte UTF-8 character at p, or 0. */
static inline unsigned kifu__jp_cp3(const char *p, const char *end)
{
    if (end - p < 3 || ((unsigned char)p[0] & 0xF0) != 0xE0)
        return 0;
    return ((unsigned)(p[0] & 0x0F) << 12) | ((unsigned)(p[1] & 0x3F) << 6) |
           (unsigned)(p[2] & 0x3F);
}

/* kifu__jp_rank with the kanji ranks 一 to 九 (what records write) decided inline. */
static inline size_t kifu__jp_rank_fast(const char *p, const char *end, int *v)
{
    switch (kifu__jp_cp3(p, end)) {
    case 0x4E00: *v = 1; return 3; /* 一 */
    case 0x4E8C: *v = 2; return 3; /* 二 */
    case 0x4E09: *v = 3; return 3; /* 三 */
    case 0x56DB: *v = 4; return 3; /* 四 */
    case 0x4E94: *v = 5; return 3; /* 五 */
    case 0x516D: *v = 6; return 3; /* 六 */
    case 0x4E03: *v = 7; return 3; /* 七 */
    case 0x516B: *v = 8; return 3; /* 八 */
    case 0x4E5D: *v = 9; return 3; /* 九 */
    }
    return kifu__jp_rank(p, end, v);
}

/* kifu__jp_piece with the one-character names decided inline (成香 成桂 成銀 by the call). */
static inline size_t kifu__jp_piece_fast(const char *p, const char *end, int *kind)
{
    int k = 0;
    switch (kifu__jp_cp3(p, end)) {
    case 0x6B69: k = KIFU_FU; break; /* 歩 */
    case 0x9999: k = KIFU_KY; break; /* 香 */
    case 0x6842: k = KIFU_KE; break; /* 桂 */
    case 0x9280: k = KIFU_GI; break; /* 銀 */
    case 0x91D1: k = KIFU_KI; break; /* 金 */
    case 0x89D2: k = KIFU_KA; break; /* 角 */
    case 0x98DB: k = KIFU_HI; break; /* 飛 */
    case 0x7389: k = KIFU_OU; break; /* 玉 */
    case 0x738B: k = KIFU_OU; break; /* 王 */
    case 0x3068: k = KIFU_TO; break; /* と */
    case 0x99AC: k = KIFU_UM; break; /* 馬 */
    case 0x9F8D: k = KIFU_RY; break; /* 龍 */
    case 0x7ADC: k = KIFU_RY; break; /* 竜 */
    default: return kifu__jp_piece(p, end, kind);
    }
    *kind = k;
    return 3;
}

#endif
