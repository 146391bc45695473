/* normalize.h: internal helpers of the normalizer that writers and the player share. */
#ifndef KIFU_NORMALIZE_H
#define KIFU_NORMALIZE_H

#include "rules/engine.h"

/* The JKF relative word (KI2 / JSA notation: "", "L", "C", "R", "U", "M", "D", "LU",
 * "RD", "H", ...) that names legal move m among the other legal moves of the same kind
 * to the same square in position p (the position before m). The minimal word by the JSA
 * rules: 竜/馬 take no 直, direction (上 引 寄) before side (右 左), 打 only when a piece
 * on the board could also reach the square. */
void kifu__relative(const kifu_position *p, kmove m, char out[3]);

/* Keep the candidates among cands[0..n) (legal board moves of one kind to one square,
 * position p before them) that a KI2 relative word names; returns how many are left. */
size_t kifu__relative_filter(const kifu_position *p, const char *word, kmove *cands, size_t n);

/* Find the legal move that a partial record move names in position p: to (or `same` with
 * prev_to), piece, relative word, promote, drop flag, or a CSA piece-after. On success
 * *out is the move and the return value 0; otherwise -1 with err saying why (no piece can
 * reach, ambiguous with the candidates listed, illegal with the reason). */
int kifu__resolve_move(const kifu_position *p, const kifu_move *m, int prev_to, kmove *out,
                       kifu_error *err);

#endif
