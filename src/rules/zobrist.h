/* zobrist.h: hash keys for board squares, hand counts and the side to move. */
#ifndef KIFU_RULES_ZOBRIST_H
#define KIFU_RULES_ZOBRIST_H

#include <stdint.h>

#include "rules/types.h"

#define HAND_MAX 18 /* the most of one kind a hand can hold (pawns) */

typedef struct kifu__zobrist_keys {
    uint64_t psq[2][PIECE_KIND_NB][SQ_NB];
    uint64_t hand[2][8][HAND_MAX + 1]; /* key of holding n pieces of a kind */
    uint64_t side;                     /* xored in when white is to move */
} kifu__zobrist_keys;

extern kifu__zobrist_keys kifu__zob;

/* Called by kifu__rules_init. */
void kifu__zobrist_init(void);

#endif
