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

static inline bb_t bb_all(void)
{
    return (BB_ONE << 81) - 1;
}
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
/* Remove and return the lowest square; b must not be empty. Works on the two halves so
 * the compiler keeps them in two registers. */
static inline int bb_pop(bb_t *b)
{
    uint64_t lo = (uint64_t)*b, hi = (uint64_t)(*b >> 64);
    if (lo) {
        *b = ((bb_t)hi << 64) | (lo & (lo - 1));
        return __builtin_ctzll(lo);
    }
    *b = (bb_t)(hi & (hi - 1)) << 64;
    return 64 + __builtin_ctzll(hi);
}
/* Without the popcnt instruction (a portable build) the builtin becomes a library call;
 * the bit-parallel count inline is much faster. */
static inline int pop64(uint64_t x)
{
#ifdef __POPCNT__
    return __builtin_popcountll(x);
#else
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return (int)((x * 0x0101010101010101ull) >> 56);
#endif
}
static inline int bb_count(bb_t b)
{
    return pop64((uint64_t)b) + pop64((uint64_t)(b >> 64));
}
static inline int bb_test(bb_t b, int sq)
{
    uint64_t w = sq < 64 ? (uint64_t)b : (uint64_t)(b >> 64);
    return (int)((w >> (sq & 63)) & 1);
}
static inline int bb_more_than_one(bb_t b)
{
    return (b & (b - 1)) != 0;
}

#endif
