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

int kifu__record_start(kifu_record *r, const kifu_board *b)
{
    int preset = kifu_preset_match(b);
    return preset != KIFU_PRESET_OTHER && preset >= 0 ? kifu_record_set_preset(r, preset)
                                                      : kifu_record_set_initial(r, b);
}
