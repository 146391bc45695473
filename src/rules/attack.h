/* attack.h: attack tables (built once by kifu__rules_init) and slider attacks.
 *
 * Sliders use ray tables: the attack along a ray stops at the first occupied square, found
 * with the lowest (rays towards higher square numbers) or highest set bit of ray & occ. */
#ifndef KIFU_RULES_ATTACK_H
#define KIFU_RULES_ATTACK_H

#include "rules/bitboard.h"
#include "rules/types.h"

/* Ray directions; the first four go towards higher square numbers. */
enum { DIR_S, DIR_W, DIR_SW, DIR_NW, DIR_N, DIR_E, DIR_NE, DIR_SE, DIR_NB };

typedef struct kifu__attack_tables {
    bb_t step[2][PIECE_KIND_NB]
             [SQ_NB]; /* non-slider moves (and king steps of HORSE/DRAGON) */
    bb_t pseudo[2][PIECE_KIND_NB][SQ_NB]; /* every kind on an empty board */
    bb_t ray[DIR_NB][SQ_NB];
    bb_t between[SQ_NB]
                [SQ_NB];     /* squares strictly between two squares on a line, else 0 */
    bb_t line[SQ_NB][SQ_NB]; /* the whole line through two squares, else 0 */
    bb_t file[10];           /* file[x], x = 1..9 */
    bb_t rank[10];           /* rank[y], y = 1..9 */
    bb_t zone[2];            /* promotion zone of a color (the enemy camp) */
    bb_t near[SQ_NB];        /* squares at most two files and two ranks away */
    bb_t dead[2][PIECE_KIND_NB]; /* squares where a piece of that kind could never move */
    bb_t sq[SQ_NB];              /* BB_SQ(sq): a load beats the variable 128-bit shift */
} kifu__attack_tables;

extern kifu__attack_tables kifu__att;
#define ATT kifu__att

static inline bb_t ray_pos(int dir, int sq, bb_t occ)
{
    bb_t a = ATT.ray[dir][sq], b = a & occ;
    return b ? a ^ ATT.ray[dir][bb_lsb(b)] : a;
}
static inline bb_t ray_neg(int dir, int sq, bb_t occ)
{
    bb_t a = ATT.ray[dir][sq], b = a & occ;
    return b ? a ^ ATT.ray[dir][bb_msb(b)] : a;
}
static inline bb_t lance_attack(int color, int sq, bb_t occ)
{
    return color == BLACK ? ray_neg(DIR_N, sq, occ) : ray_pos(DIR_S, sq, occ);
}
static inline bb_t bishop_attack(int sq, bb_t occ)
{
    return ray_pos(DIR_SW, sq, occ) | ray_pos(DIR_NW, sq, occ) |
           ray_neg(DIR_NE, sq, occ) | ray_neg(DIR_SE, sq, occ);
}
static inline bb_t rook_attack(int sq, bb_t occ)
{
    return ray_pos(DIR_S, sq, occ) | ray_pos(DIR_W, sq, occ) | ray_neg(DIR_N, sq, occ) |
           ray_neg(DIR_E, sq, occ);
}
/* Squares a piece of (color, kind) on sq attacks with the board occupancy occ. */
static inline bb_t piece_attack(int color, int kind, int sq, bb_t occ)
{
    switch (kind) {
    case LANCE:
        return lance_attack(color, sq, occ);
    case BISHOP:
        return bishop_attack(sq, occ);
    case ROOK:
        return rook_attack(sq, occ);
    case HORSE:
        return bishop_attack(sq, occ) | ATT.step[color][KING][sq];
    case DRAGON:
        return rook_attack(sq, occ) | ATT.step[color][KING][sq];
    default:
        return ATT.step[color][kind][sq];
    }
}

#endif
