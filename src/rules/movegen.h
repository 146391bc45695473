/* movegen.h: legal move generation on the engine position. */
#ifndef KIFU_RULES_MOVEGEN_H
#define KIFU_RULES_MOVEGEN_H

#include <stddef.h>

#include "rules/position.h"

/* All legal moves of the side to move into out (room for MAX_MOVES); returns the count. */
size_t kifu__gen_legal(const kpos *p, kmove *out);
/* The number of legal moves, without writing them (perft's leaves). */
size_t kifu__count_legal(const kpos *p);
int kifu__has_legal(const kpos *p);
/* Legal moves landing on `to` made with a piece of `kind` (before the move), drops
 * included. out needs room for 32. Unless reach is NULL, *reach is how many board pieces of
 * `kind` reach `to`, pinned or not, when a move is listed (0 for a king), found on the way:
 * the relative word needs no second look when it says the move is alone, or that every
 * such piece is listed. */
size_t kifu__gen_to(const kpos *p, int to, int kind, kmove *out, int *reach);
/* The same without the drops (no 二歩 or 打ち歩詰め test), *reach the same. */
size_t kifu__gen_to_board(const kpos *p, int to, int kind, kmove *out, int *reach);
/* The moves of `kind` to `to` by reach: every board piece of that kind that attacks the
 * square, pinned or not, and the drop when the piece is in hand and the square empty
 * (what other programs count when they choose a relative word). Room for 32. */
size_t kifu__gen_reach(const kpos *p, int to, int kind, kmove *out);
/* 1 when m (capture field from the board) is legal and no other board piece of its kind
 * has a legal move to its square; 0 when not known (kifu__gen_to then decides). */
int kifu__legal_alone(const kpos *p, kmove m);
/* NULL when m (with any capture field) is legal, else a static reason. */
const char *kifu__illegal_reason(const kpos *p, kmove m);
/* m with the capture field taken from the board. */
static inline kmove kifu__fix_capture(const kpos *p, kmove m)
{
    if (MOVE_IS_DROP(m))
        return m & ~(15u << 20);
    return (m & ~(15u << 20)) | ((kmove)CPIECE_KIND(p->board[MOVE_TO(m)]) << 20);
}
/* Leaf count of the legal move tree (bulk counted at the last ply). */
uint64_t kifu__perft(kpos *p, int depth);

/* Would dropping a pawn on sq (next to the enemy king) mate? */
int kifu__pawn_drop_mates(const kpos *p, int sq);
/* Can a piece of (color, kind) promote moving from -> to? Must it? */
static inline int can_promote_move(int color, int kind, int from, int to)
{
    return kind_can_promote(kind) &&
           (bb_test(ATT.zone[color], from) || bb_test(ATT.zone[color], to));
}
static inline int must_promote(int color, int kind, int to)
{
    return kind <= KNIGHT && kind >= PAWN && bb_test(ATT.dead[color][kind], to);
}

#endif
