/* position.h: the engine's position: a mailbox, bitboards by color and by kind, hands, the
 * side to move and an incrementally kept Zobrist key.
 *
 * do/undo take a packed move whose capture field is right (the generator's moves are), and
 * need nothing saved: a capture is in the move, and every key update is an xor, so undo
 * replays the same updates. */
#ifndef KIFU_RULES_POSITION_H
#define KIFU_RULES_POSITION_H

#include <stdint.h>

#include "rules/attack.h"
#include "rules/zobrist.h"

#define NO_SQ SQ_NB

typedef struct kpos {
    bb_t occ[2];              /* pieces of each color */
    bb_t kind[PIECE_KIND_NB]; /* pieces of each kind, both colors */
    bb_t golds;               /* GOLD and the four promoted small pieces */
    bb_t hdk;                 /* HORSE, DRAGON, KING: pieces with king steps */
    bb_t diag;                /* BISHOP, HORSE */
    bb_t orth;                /* ROOK, DRAGON */
    uint64_t key;
    uint8_t board[SQ_NB]; /* CPIECE or 0 */
    uint8_t hand[2][8];   /* hand[c][kind], kind PAWN..GOLD */
    uint8_t side;
    uint8_t ksq[2]; /* king squares, NO_SQ when a side has no king */
} kpos;

static inline bb_t pos_occ(const kpos *p)
{
    return p->occ[0] | p->occ[1];
}

/* Pieces of color `by` that attack sq, with the board occupancy occ. The step attackers
 * are looked up only when an enemy piece stands within two squares (a knight's reach), and
 * each slider only when one stands on its empty-board lines: most squares need no more. */
static inline bb_t pos_attackers(const kpos *p, int sq, int by, bb_t occ)
{
    int o = by ^ 1;
    bb_t e = p->occ[by], r = 0;
    if (e & ATT.near[sq]) {
        r = (ATT.step[o][PAWN][sq] & p->kind[PAWN]) |
            (ATT.step[o][KNIGHT][sq] & p->kind[KNIGHT]) |
            (ATT.step[o][SILVER][sq] & p->kind[SILVER]) |
            (ATT.step[o][GOLD][sq] & p->golds) | (ATT.step[o][KING][sq] & p->hdk);
        r &= e;
    }
    /* Sliders: those on an empty-board line through sq attack it when nothing stands
     * between; usually there is at most one such piece, so this beats computing rays. */
    bb_t snip =
        ((p->kind[LANCE] & ATT.pseudo[o][LANCE][sq]) |
         (p->diag & ATT.pseudo[0][BISHOP][sq]) | (p->orth & ATT.pseudo[0][ROOK][sq])) &
        e;
    while (snip) {
        int x = bb_pop(&snip);
        if (!(ATT.between[sq][x] & occ))
            r |= BB_SQ(x);
    }
    return r;
}

/* Pieces giving check to the side to move. */
static inline bb_t pos_checkers(const kpos *p)
{
    int k = p->ksq[p->side];
    return k == NO_SQ ? 0 : pos_attackers(p, k, p->side ^ 1, pos_occ(p));
}

void kifu__pos_clear(kpos *p);
void kifu__pos_put(kpos *p, int sq, int cpiece);
/* From a board that kifu__board_check accepted. */
void kifu__pos_from_board(kpos *p, const kifu_board *b);
void kifu__pos_to_board(const kpos *p, kifu_board *b);

void kifu__pos_do(kpos *p, kmove m);
void kifu__pos_undo(kpos *p, kmove m);
/* The same without keeping the key (it goes stale): for replays that never ask for it. */
void kifu__pos_do_unkeyed(kpos *p, kmove m);
void kifu__pos_undo_unkeyed(kpos *p, kmove m);

#endif
