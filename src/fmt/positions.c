/* positions.c: recovering a move from two consecutive positions, for the formats that
 * store positions instead of moves (sfenlist, posjson). */
#include <string.h>

#include "fmt/fmt.h"
#include "kifu_private.h"

int kifu__move_between(kifu_position *p, const kifu_board *target, int to, kifu_move *m)
{
    kifu_move legal[600];
    size_t n = kifu_position_legal_moves(p, legal, 600);
    if (n > 600)
        n = 600;
    kifu_board b;
    for (int pass = to ? 0 : 1; pass < 2; pass++) {
        for (size_t i = 0; i < n; i++) {
            kifu_move mv = legal[i];
            /* With a square given, the moves to it first: usually the only try. */
            int there = KIFU_SQ(mv.to_x, mv.to_y) + 1 == to;
            if (to && (pass == 0) != there)
                continue;
            kifu_error err = {0};
            if (kifu_position_play(p, &mv, &err)) {
                if (err.code == KIFU_ERR_NOMEM)
                    return -2;
                continue;
            }
            kifu_position_board(p, &b);
            if (memcmp(b.sq, target->sq, sizeof b.sq) == 0 &&
                memcmp(b.hands, target->hands, sizeof b.hands) == 0) {
                *m = mv;
                return 0;
            }
            kifu_position_undo(p);
        }
    }
    return -1;
}

/* Kinds as hands hold them: a promoted kind goes back to its own (と to 歩 ...). */
static int unpromoted(int kind)
{
    return kind > KIFU_OU ? kind - 8 : kind;
}

int kifu__move_by_change(const kifu_board *a, const kifu_board *b, kifu_move *m)
{
    int c = a->color & 1, from = -1, to = -1;
    for (int i = 0; i < 81; i++) {
        if (a->sq[i] == b->sq[i])
            continue;
        if (b->sq[i] && b->sq[i] >> 4 == c && to < 0)
            to = i;
        else if (!b->sq[i] && a->sq[i] >> 4 == c && a->sq[i] && from < 0)
            from = i;
        else
            return -1;
    }
    if (to < 0 || b->color != !c)
        return -1;
    int kind = b->sq[to] & 15, taken = a->sq[to];
    uint8_t hands[2][8];
    memcpy(hands, a->hands, sizeof hands);
    memset(m, 0, sizeof *m);
    m->color = (uint8_t)c;
    m->to_x = (uint8_t)(to / 9 + 1);
    m->to_y = (uint8_t)(to % 9 + 1);
    m->same = -1;
    m->promote = -1;
    m->flags = KIFU_MOVE_RAW;
    if (from < 0) { /* a drop: one piece of that kind left the hand */
        if (taken || kind < KIFU_FU || kind > KIFU_KI || !hands[c][kind])
            return -1;
        hands[c][kind]--;
        m->piece = (uint8_t)kind;
        m->flags |= KIFU_MOVE_DROP;
    } else {
        int before = a->sq[from] & 15;
        if (kind != before && (before > KIFU_HI || kind != before + 8))
            return -1;
        if (taken) {
            int t = unpromoted(taken & 15);
            if (t == KIFU_OU || hands[c][t] == UINT8_MAX)
                return -1;
            hands[c][t]++;
        }
        m->from_x = (uint8_t)(from / 9 + 1);
        m->from_y = (uint8_t)(from % 9 + 1);
        m->piece = (uint8_t)before;
        m->promote = kind != before ? 1 : -1;
    }
    return memcmp(hands, b->hands, sizeof hands) ? -1 : 0;
}

int kifu__record_start(kifu_record *r, const kifu_board *b)
{
    int preset = kifu_preset_match(b);
    return preset != KIFU_PRESET_OTHER && preset >= 0 ? kifu_record_set_preset(r, preset)
                                                      : kifu_record_set_initial(r, b);
}
