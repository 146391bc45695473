/* zobrist.c: fixed pseudo-random keys, so hashes are the same in every run and build. */
#include "rules/zobrist.h"

kifu__zobrist_keys kifu__zob;

/* splitmix64: a small generator with good bit mixing, seeded with a constant. */
static uint64_t next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void kifu__zobrist_init(void)
{
    uint64_t s = 0x6b696675u; /* "kifu" */
    for (int c = 0; c < 2; c++)
        for (int k = 0; k < PIECE_KIND_NB; k++)
            for (int sq = 0; sq < SQ_NB; sq++)
                kifu__zob.psq[c][k][sq] = k ? next(&s) : 0;
    for (int c = 0; c < 2; c++)
        for (int k = 0; k < 8; k++)
            for (int n = 0; n <= HAND_MAX; n++)
                kifu__zob.hand[c][k][n] = n ? next(&s) : 0;
    kifu__zob.side = next(&s);
}
