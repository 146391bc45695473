/* relative.c: the relative word (右 左 直 上 引 寄 打; JKF L R C U D M H) of a move among
 * the other pieces of the same kind that could go to the same square, and the reverse:
 * which candidate a word names (KI2).
 *
 * The rules follow the JSA notation as JKF tools apply it (checked against the corpus'
 * expected JKF): with two or more candidates, a direction word (上 引 寄) when it alone
 * tells them apart, else a side word (右 左 直) when that does; 竜 and 馬 never take 直
 * (they say 左 or 右 by where they stand); otherwise 直 alone or side + direction. A drop
 * takes 打 only when a piece on the board could also reach the square. The other pieces
 * are counted by reach, pinned or not: tsshogi and json-kifu-format read the words so,
 * and a word left out for a pinned piece made them refuse the move or take another. */
#include <stdlib.h>
#include <string.h>

#include "notation/relative.h"

static int sign(int v)
{
    return v > 0 ? 1 : v < 0 ? -1 : 0;
}

/* Movement of a candidate from its own side's view: x > 0 is toward the mover's left
 * (JKF "R": the piece came from the right), y < 0 is forward. */
static void vec(kmove m, int color, int *vx, int *vy)
{
    int from = MOVE_FROM(m), to = MOVE_TO(m);
    int dx = SQ_X(to) - SQ_X(from), dy = SQ_Y(to) - SQ_Y(from);
    if (color == WHITE) {
        dx = -dx;
        dy = -dy;
    }
    *vx = dx;
    *vy = dy;
}

/* Board moves among cands[0..n) into out, one per source square (the engine lists both
 * promotion choices). Returns the count. */
static size_t distinct_sources(const kmove *cands, size_t n, kmove *out)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (MOVE_IS_DROP(cands[i]))
            continue;
        size_t j = 0;
        while (j < k && MOVE_FROM(out[j]) != MOVE_FROM(cands[i]))
            j++;
        if (j == k)
            out[k++] = cands[i];
    }
    return k;
}

static char umd(int vy)
{
    return vy < 0 ? 'U' : vy > 0 ? 'D' : 'M';
}
static char lcr(int vx)
{
    return vx > 0 ? 'R' : vx < 0 ? 'L' : 'C';
}

/* The word of m among the k distinct board sources srcs. */
static void among_sources(const kifu_position *p, kmove m, const kmove *srcs, size_t k,
                          char out[3])
{
    out[0] = out[1] = out[2] = 0;
    int kind = MOVE_PIECE(m);
    if (MOVE_IS_DROP(m)) {
        if (k > 0)
            out[0] = 'H';
        return;
    }
    if (k < 2)
        return;
    int color = kifu_position_side(p);
    int rx, ry;
    vec(m, color, &rx, &ry);
    rx = sign(rx);
    ry = sign(ry);
    int same_y = 0, same_x = 0, any_left = 0;
    for (size_t i = 0; i < k; i++) {
        int vx, vy;
        vec(srcs[i], color, &vx, &vy);
        same_y += sign(vy) == ry;
        same_x += sign(vx) == rx;
        any_left += vx < 0;
    }
    if (same_y == 1) {
        out[0] = umd(ry);
    } else if (same_x == 1) {
        if ((kind == HORSE || kind == DRAGON) && rx == 0)
            out[0] = any_left ? 'R' : 'L'; /* 竜 馬: no 直 */
        else
            out[0] = lcr(rx);
    } else if (rx == 0) {
        out[0] = 'C'; /* 直 is never combined with a direction */
    } else {
        out[0] = lcr(rx);
        out[1] = umd(ry);
    }
}

void kifu__relative(const kifu_position *p, kmove m, char out[3])
{
    kmove cands[32];
    out[0] = out[1] = out[2] = 0;
    int kind = MOVE_PIECE(m);
    /* Never one of several, so no move generation (the common case, and the normalizer's
     * hot path): one king; a pawn reaches a square only from right behind it, and a pawn
     * drop next to such a pawn would be 二歩; on a file the nearest lance blocks any other. */
    if (kind == KING || kind == PAWN || (kind == LANCE && !MOVE_IS_DROP(m)))
        return;
    /* By reach, pinned pieces too: other programs read the word so (be strict in what
     * is written; the KI2 reader accepts both). */
    size_t n = kifu__position_reach_to(p, MOVE_TO(m), kind, cands);
    kifu__relative_among(p, m, cands, n, out);
}

void kifu__relative_listed(const kifu_position *p, kmove m, const kmove *cands, size_t n,
                           int reach, char out[3])
{
    kmove srcs[32];
    size_t k = distinct_sources(cands, n, srcs);
    /* Every piece that reaches the square has a legal move there unless a pin or a check
     * holds it back: then the legal sources are fewer, and the word looks by reach. */
    if (k != (size_t)reach) {
        kifu__relative(p, m, out);
        return;
    }
    among_sources(p, m, srcs, k, out);
}

void kifu__relative_among(const kifu_position *p, kmove m, const kmove *cands, size_t n,
                          char out[3])
{
    kmove srcs[32];
    among_sources(p, m, srcs, distinct_sources(cands, n, srcs), out);
}

/* Does candidate vector (vx, vy) satisfy every letter of word but L/R (those compare
 * candidates with each other)? */
static int satisfies(const char *word, int vx, int vy)
{
    for (const char *c = word; *c; c++) {
        switch (*c) {
        case 'U':
            if (vy >= 0)
                return 0;
            break;
        case 'M':
            if (vy != 0)
                return 0;
            break;
        case 'D':
            if (vy <= 0)
                return 0;
            break;
        case 'C':
            if (vx != 0 || vy >= 0)
                return 0;
            break; /* 直: straight forward only */
        }
    }
    return 1;
}

size_t kifu__relative_filter(const kifu_position *p, const char *word, kmove *cands,
                             size_t n)
{
    int color = kifu_position_side(p);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        int vx, vy;
        vec(cands[i], color, &vx, &vy);
        if (satisfies(word, vx, vy))
            cands[k++] = cands[i];
    }
    int want = strchr(word, 'L') ? -1 : strchr(word, 'R') ? 1 : 0;
    if (!want || k == 0)
        return k;
    /* 左: the candidate with the smallest vx (it stands furthest to the mover's left);
     * 右: the largest. */
    int best = 0;
    for (size_t i = 0; i < k; i++) {
        int vx, vy;
        vec(cands[i], color, &vx, &vy);
        if (i == 0 || vx * want > best * want)
            best = vx;
    }
    size_t j = 0;
    for (size_t i = 0; i < k; i++) {
        int vx, vy;
        vec(cands[i], color, &vx, &vy);
        if (vx == best)
            cands[j++] = cands[i];
    }
    return j;
}
