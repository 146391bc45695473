/* perft.c: counting the leaves of the legal move tree, the standard check of a move
 * generator. The last ply is counted without playing its moves. */
#include "rules/movegen.h"

uint64_t kifu__perft(kpos *p, int depth)
{
    if (depth <= 0)
        return 1;
    if (depth == 1)
        return kifu__count_legal(p);
    kmove list[MAX_MOVES];
    size_t n = kifu__gen_legal(p, list);
    uint64_t total = 0;
    for (size_t i = 0; i < n; i++) {
        kifu__pos_do(p, list[i]);
        total += kifu__perft(p, depth - 1);
        kifu__pos_undo(p, list[i]);
    }
    return total;
}
