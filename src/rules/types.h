/* types.h: colors, pieces, squares and the packed move of the rules engine.
 *
 * Internal: every file under src/ may use these; nothing here is public API. The piece
 * numbering is the public kifu_piece one (promote = | 8), so conversions are free. */
#ifndef KIFU_RULES_TYPES_H
#define KIFU_RULES_TYPES_H

#include <stdint.h>

#include "kifu.h"

enum { BLACK = 0, WHITE = 1 };

/* Piece kinds (= kifu_piece). */
enum {
    NO_PIECE = 0,
    PAWN = 1,
    LANCE = 2,
    KNIGHT = 3,
    SILVER = 4,
    BISHOP = 5,
    ROOK = 6,
    GOLD = 7,
    KING = 8,
    PRO_PAWN = 9,
    PRO_LANCE = 10,
    PRO_KNIGHT = 11,
    PRO_SILVER = 12,
    HORSE = 13,
    DRAGON = 14,
    PIECE_KIND_NB = 15,
    PROMOTE_BIT = 8,
};

/* A colored piece on a square: kind | color << 4 (= kifu_board square encoding). */
#define CPIECE(kind, color) ((uint8_t)((kind) | ((color) << 4)))
#define CPIECE_KIND(cp) ((cp)&15)
#define CPIECE_COLOR(cp) ((cp) >> 4)

static inline int kind_can_promote(int k)
{
    return k >= PAWN && k <= ROOK;
}
static inline int kind_promoted(int k)
{
    return k | PROMOTE_BIT;
}
/* The kind a captured piece becomes in hand. */
static inline int kind_unpromoted(int k)
{
    return k == KING ? KING : (k & 7) ? (k & 7) : k;
}

/* Squares: sq = (x-1)*9 + (y-1), x = file 1..9, y = rank 1..9 (sente's side is y = 9). */
#define SQ_NB 81
#define SQ(x, y) (((x)-1) * 9 + ((y)-1))
#define SQ_X(sq) ((sq) / 9 + 1)
#define SQ_Y(sq) ((sq) % 9 + 1)

/* The packed move.
 *   bits  0..6   to square (0..80)
 *   bits  7..13  from square (0..80); for a drop 81 + kind - 1 (81..87)
 *   bit   14     promote
 *   bits 16..19  kind of the moving piece before the move (dropped kind for a drop)
 *   bits 20..23  captured kind (0 = none)
 * The value 0 is never a legal move (from = to = 0), so it can stand for "none". */
typedef uint32_t kmove;

#define MOVE_NONE 0u
#define MOVE_TO(m) ((int)((m)&0x7f))
#define MOVE_FROM(m) ((int)(((m) >> 7) & 0x7f))
#define MOVE_IS_DROP(m) (MOVE_FROM(m) >= SQ_NB)
#define MOVE_DROP_KIND(m) (MOVE_FROM(m) - SQ_NB + 1)
#define MOVE_IS_PROMOTE(m) (((m) >> 14) & 1)
#define MOVE_PIECE(m) ((int)(((m) >> 16) & 15))
#define MOVE_CAPTURE(m) ((int)(((m) >> 20) & 15))

static inline kmove move_make(int from, int to, int kind, int capture, int promote)
{
    return (kmove)to | ((kmove)from << 7) | ((kmove)(promote != 0) << 14) |
           ((kmove)kind << 16) | ((kmove)capture << 20);
}

static inline kmove move_make_drop(int kind, int to)
{
    return (kmove)to | ((kmove)(SQ_NB + kind - 1) << 7) | ((kmove)kind << 16);
}

#define MAX_MOVES 600 /* 593 is the known maximum of legal moves */

#endif
