/* bitboard.h: 81-square bitboards in one 128-bit integer.
 *
 * Bit sq = (x-1)*9 + (y-1), so each file is 9 contiguous bits: a move one rank up or down is
 * a shift by 1 that never leaves the file for pawns and lances (which never stand on their
 * last rank), and file masks are plain 9-bit runs. */
#ifndef KIFU_RULES_BITBOARD_H
#define KIFU_RULES_BITBOARD_H

#include <stdint.h>

__extension__ typedef unsigned __int128 bb_t;

#define BB_ONE ((bb_t)1)
#define BB_SQ(sq) (BB_ONE << (sq))

static inline bb_t bb_all(void) { return (BB_ONE << 81) - 1; }
static inline int bb_lsb(bb_t b)
{
    uint64_t lo = (uint64_t)b;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(b >> 64));
}
static inline int bb_msb(bb_t b)
{
    uint64_t hi = (uint64_t)(b >> 64);
    return hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll((uint64_t)b);
}
/* Remove and return the lowest square; b must not be empty. */
static inline int bb_pop(bb_t *b)
{
    int sq = bb_lsb(*b);
    *b &= *b - 1;
    return sq;
}
static inline int bb_count(bb_t b)
{
    return __builtin_popcountll((uint64_t)b) + __builtin_popcountll((uint64_t)(b >> 64));
}
static inline int bb_test(bb_t b, int sq) { return (int)((b >> sq) & 1); }
static inline int bb_more_than_one(bb_t b) { return (b & (b - 1)) != 0; }

#endif
