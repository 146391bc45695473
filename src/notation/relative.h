/* relative.h: the relative words (右 左 直 上 引 寄 打; JKF L R C U D M H) of a move among
 * the other pieces that could go to its square, both ways (relative.c). The normalizer,
 * the typed-move parser and the player use them. */
#ifndef KIFU_NOTATION_RELATIVE_H
#define KIFU_NOTATION_RELATIVE_H

#include "rules/engine.h"

/* The JKF relative word (KI2 / JSA notation: "", "L", "C", "R", "U", "M", "D", "LU",
 * "RD", "H", ...) that names legal move m among the other moves of the same kind that
 * reach the same square in position p (the position before m), pinned pieces included. The minimal word by the JSA
 * rules: 竜/馬 take no 直, direction (上 引 寄) before side (右 左), 打 only when a piece
 * on the board could also reach the square. */
void kifu__relative(const kifu_position *p, kmove m, char out[3]);

/* The same word when the caller already has the legal moves of m's kind to m's square
 * (cands[0..n), as kifu__position_moves_to lists them, m among them). */
void kifu__relative_among(const kifu_position *p, kmove m, const kmove *cands, size_t n,
                          char out[3]);

/* The same word when cands[0..n) are the legal moves of m's kind to m's square (m among
 * them, as kifu__position_moves_to lists them) and reach is how many board pieces of the
 * kind reach it, pinned or not (as that call counts them): when every one of them is
 * among the moves, no second look at the board. */
void kifu__relative_listed(const kifu_position *p, kmove m, const kmove *cands, size_t n,
                           int reach, char out[3]);

/* Keep the candidates among cands[0..n) (legal board moves of one kind to one square,
 * position p before them) that a KI2 relative word names; returns how many are left. */
size_t kifu__relative_filter(const kifu_position *p, const char *word, kmove *cands,
                             size_t n);

#endif
