/* position.c: placing pieces and making and unmaking moves. */
#include <string.h>

#include "rules/position.h"

enum { G_GOLD = 1, G_HDK = 2, G_DIAG = 4, G_ORTH = 8 };
static const uint8_t groups[PIECE_KIND_NB] = {
    [GOLD] = G_GOLD,           [PRO_PAWN] = G_GOLD,   [PRO_LANCE] = G_GOLD,
    [PRO_KNIGHT] = G_GOLD,     [PRO_SILVER] = G_GOLD, [KING] = G_HDK,
    [BISHOP] = G_DIAG,         [ROOK] = G_ORTH,       [HORSE] = G_HDK | G_DIAG,
    [DRAGON] = G_HDK | G_ORTH,
};

/* Flip the squares of b in every set a piece of (c, k) belongs to. */
static inline void flip_sets(kpos *p, bb_t b, int c, int k)
{
    p->occ[c] ^= b;
    p->kind[k] ^= b;
    int g = groups[k];
    if (g) {
        if (g & G_GOLD)
            p->golds ^= b;
        if (g & G_HDK)
            p->hdk ^= b;
        if (g & G_DIAG)
            p->diag ^= b;
        if (g & G_ORTH)
            p->orth ^= b;
    }
}

static inline void toggle_k(kpos *p, int sq, int c, int k, int keyed)
{
    flip_sets(p, ATT.sq[sq], c, k);
    if (keyed)
        p->key ^= kifu__zob.psq[c][k][sq];
}

static inline void toggle(kpos *p, int sq, int c, int k)
{
    toggle_k(p, sq, c, k, 1);
}

void kifu__pos_clear(kpos *p)
{
    memset(p, 0, sizeof *p);
    p->ksq[0] = p->ksq[1] = NO_SQ;
}

void kifu__pos_put(kpos *p, int sq, int cp)
{
    int c = CPIECE_COLOR(cp), k = CPIECE_KIND(cp);
    p->board[sq] = (uint8_t)cp;
    toggle(p, sq, c, k);
    if (k == KING)
        p->ksq[c] = (uint8_t)sq;
}

static inline void hand_add_k(kpos *p, int c, int k, int delta, int keyed)
{
    int n = p->hand[c][k];
    if (keyed)
        p->key ^= kifu__zob.hand[c][k][n] ^ kifu__zob.hand[c][k][n + delta];
    p->hand[c][k] = (uint8_t)(n + delta);
}

static inline void hand_add(kpos *p, int c, int k, int delta)
{
    hand_add_k(p, c, k, delta, 1);
}

void kifu__pos_from_board(kpos *p, const kifu_board *b)
{
    kifu__pos_clear(p);
    for (int sq = 0; sq < SQ_NB; sq++)
        if (b->sq[sq])
            kifu__pos_put(p, sq, b->sq[sq]);
    for (int c = 0; c < 2; c++)
        for (int k = PAWN; k <= GOLD; k++)
            for (int i = 0; i < b->hands[c][k]; i++)
                hand_add(p, c, k, 1);
    p->side = b->color ? WHITE : BLACK;
    if (p->side)
        p->key ^= kifu__zob.side;
}

void kifu__pos_to_board(const kpos *p, kifu_board *b)
{
    memset(b, 0, sizeof *b);
    memcpy(b->sq, p->board, sizeof b->sq);
    for (int c = 0; c < 2; c++)
        for (int k = PAWN; k <= GOLD; k++)
            b->hands[c][k] = p->hand[c][k];
    b->color = p->side;
}

/* Move a piece of (c, k) along the squares of b (from and to): one update of every set. */
static inline void shift_piece(kpos *p, bb_t b, int c, int k, int from, int to, int keyed)
{
    flip_sets(p, b, c, k);
    if (keyed)
        p->key ^= kifu__zob.psq[c][k][from] ^ kifu__zob.psq[c][k][to];
    if (k == KING)
        p->ksq[c] = (uint8_t)to;
}

/* keyed: keep the Zobrist key (a constant in every caller, so each copy is specialized). */
static inline void pos_do(kpos *p, kmove m, int keyed)
{
    int us = p->side, to = MOVE_TO(m), k = MOVE_PIECE(m);
    if (MOVE_IS_DROP(m)) {
        hand_add_k(p, us, k, -1, keyed);
        p->board[to] = CPIECE(k, us);
        toggle_k(p, to, us, k, keyed);
    } else {
        int from = MOVE_FROM(m), cap = MOVE_CAPTURE(m);
        if (cap) {
            toggle_k(p, to, us ^ 1, cap, keyed);
            hand_add_k(p, us, kind_unpromoted(cap), 1, keyed);
        }
        if (MOVE_IS_PROMOTE(m)) {
            toggle_k(p, from, us, k, keyed);
            toggle_k(p, to, us, k | PROMOTE_BIT, keyed);
            k |= PROMOTE_BIT;
        } else {
            shift_piece(p, ATT.sq[from] | ATT.sq[to], us, k, from, to, keyed);
        }
        p->board[from] = 0;
        p->board[to] = CPIECE(k, us);
    }
    p->side = (uint8_t)(us ^ 1);
    if (keyed)
        p->key ^= kifu__zob.side;
}

static inline void pos_undo(kpos *p, kmove m, int keyed)
{
    int us = p->side ^ 1, to = MOVE_TO(m), k = MOVE_PIECE(m);
    p->side = (uint8_t)us;
    if (keyed)
        p->key ^= kifu__zob.side;
    if (MOVE_IS_DROP(m)) {
        hand_add_k(p, us, k, 1, keyed);
        p->board[to] = 0;
        toggle_k(p, to, us, k, keyed);
        return;
    }
    int from = MOVE_FROM(m), cap = MOVE_CAPTURE(m);
    if (MOVE_IS_PROMOTE(m)) {
        toggle_k(p, to, us, k | PROMOTE_BIT, keyed);
        toggle_k(p, from, us, k, keyed);
    } else {
        shift_piece(p, ATT.sq[from] | ATT.sq[to], us, k, to, from, keyed);
    }
    p->board[from] = CPIECE(k, us);
    p->board[to] = 0;
    if (cap) {
        toggle_k(p, to, us ^ 1, cap, keyed);
        hand_add_k(p, us, kind_unpromoted(cap), -1, keyed);
        p->board[to] = CPIECE(cap, us ^ 1);
    }
}

void kifu__pos_do(kpos *p, kmove m)
{
    pos_do(p, m, 1);
}
void kifu__pos_undo(kpos *p, kmove m)
{
    pos_undo(p, m, 1);
}
void kifu__pos_do_unkeyed(kpos *p, kmove m)
{
    pos_do(p, m, 0);
}
void kifu__pos_undo_unkeyed(kpos *p, kmove m)
{
    pos_undo(p, m, 0);
}
