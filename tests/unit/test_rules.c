/* test_rules.c: position queries: check, mate, no legal move, repetition (千日手 and
 * perpetual check), 入玉宣言, hashing. */
#include <string.h>

#include "harness.h"
#include "kifu.h"
#include "kifu_private.h"
#include "testutil.h"

TEST(check_mate_and_no_move)
{
    kifu_position *p = kifu_position_new();
    CHECK(!kifu_position_in_check(p));
    CHECK(kifu_position_has_legal_move(p));
    CHECK(!kifu_position_is_mate(p));
    kifu_position_free(p);
    /* Check that is not mate. */
    p = t_position("4r4/9/9/9/9/9/9/9/4K4 b G 1");
    CHECK(kifu_position_in_check(p));
    CHECK(!kifu_position_is_mate(p));
    kifu_position_free(p);
    /* Mate: 頭金 (gold on 5b backed by a pawn on 5c). */
    p = t_position("4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1");
    CHECK(kifu_position_in_check(p));
    CHECK(!kifu_position_has_legal_move(p));
    CHECK(kifu_position_is_mate(p));
    kifu_position_free(p);
    /* No legal move without check: the king on 1a is boxed in but not attacked. */
    p = t_position("8k/9/6NG1/9/9/9/9/9/4K4 w - 1");
    CHECK(!kifu_position_in_check(p));
    CHECK(!kifu_position_has_legal_move(p));
    CHECK(!kifu_position_is_mate(p));
    kifu_position_free(p);
    /* No king at all (a tsume attacker): never in check. */
    p = t_position("8k/9/8P/9/9/9/9/9/9 b G 1");
    CHECK(!kifu_position_in_check(p));
    CHECK(kifu_position_has_legal_move(p));
    kifu_position_free(p);
}

TEST(repetition_draw)
{
    kifu_position *p = kifu_position_new();
    static const char *const cycle[] = {"5i4h", "5a4b", "4h5i", "4b5a"};
    CHECK_INT(kifu_position_repetition_count(p), 1);
    for (int r = 0; r < 3; r++) {
        for (int i = 0; i < 4; i++) {
            CHECK_INT(t_play_usi(p, cycle[i]), 0);
            if (r < 2 || i < 3)
                CHECK_INT(kifu_position_repetition(p), KIFU_REP_NONE);
        }
        CHECK_INT(kifu_position_repetition_count(p), r + 2);
    }
    CHECK_INT(kifu_position_repetition(p), KIFU_REP_DRAW);
    /* Undo takes it back. */
    kifu_position_undo(p);
    CHECK_INT(kifu_position_repetition(p), KIFU_REP_NONE);
    CHECK_INT(kifu_position_repetition_count(p), 3);
    kifu_position_free(p);
    /* Hands count: the same board with a different hand is another position. */
    kifu_position *a = t_position("4k4/9/9/9/9/9/9/9/4K4 b P 1");
    kifu_position *b = t_position("4k4/9/9/9/9/9/9/9/4K4 b - 1");
    kifu_position *c = t_position("4k4/9/9/9/9/9/9/9/4K4 w P 1");
    CHECK(kifu_position_hash(a) != kifu_position_hash(b));
    CHECK(kifu_position_hash(a) != kifu_position_hash(c));
    kifu_position_free(a);
    kifu_position_free(b);
    kifu_position_free(c);
}

static void perpetual(const char *sfen, const char *first, const char *const *cycle,
                      int verdict)
{
    kifu_position *p = t_position(sfen);
    CHECK_INT(t_play_usi(p, first), 0);
    for (int r = 0; r < 3; r++)
        for (int i = 0; i < 4; i++)
            CHECK_INT(t_play_usi(p, cycle[i]), 0);
    CHECK_INT(kifu_position_repetition_count(p), 4);
    CHECK_INT(kifu_position_repetition(p), verdict);
    kifu_position_free(p);
}

TEST(perpetual_check)
{
    /* Black's rook checks the white king on 1a and 2a in turn: black loses. */
    static const char *const b_cycle[] = {"1a2a", "1e2e", "2a1a", "2e1e"};
    perpetual("8k/9/9/9/6R2/9/9/9/4K4 b - 1", "3e1e", b_cycle, KIFU_REP_BLACK_LOSES);
    /* The same with colors swapped: white loses. */
    static const char *const w_cycle[] = {"9i8i", "9e8e", "8i9i", "8e9e"};
    perpetual("4k4/9/9/9/2r6/9/9/9/K8 w - 1", "7e9e", w_cycle, KIFU_REP_WHITE_LOSES);
    /* A quiet move by the checking side inside the cycle makes it a plain draw: the rook
     * checks from 1e, then goes back to 3e without check. */
    kifu_position *p = t_position("8k/9/9/9/6R2/9/9/9/4K4 b - 1");
    static const char *const mixed[] = {"3e1e", "1a2a", "1e3e", "2a1a"};
    for (int r = 0; r < 3; r++)
        for (size_t i = 0; i < 4; i++)
            CHECK_INT(t_play_usi(p, mixed[i]), 0);
    CHECK_INT(kifu_position_repetition_count(p), 4);
    CHECK_INT(kifu_position_repetition(p), KIFU_REP_DRAW);
    kifu_position_free(p);
}

TEST(declaration)
{
    /* Black: king on 5b, 9 pawns + a gold in the zone (10 pieces, 10 points), 2R 2B in
     * hand (20): 30 points, needs 28. */
    kifu_position *p = t_position("9/4KG3/PPPPPPPPP/9/9/9/9/9/4k4 b 2R2B 1");
    CHECK_INT(kifu_position_can_declare(p), 1);
    kifu_position_free(p);
    /* 27 points is not enough for black ... */
    p = t_position("9/4KG3/PPPPPPPPP/9/9/9/9/9/4k4 b R2B2G 1");
    CHECK_INT(kifu_position_can_declare(p), 0);
    kifu_position_free(p);
    /* ... 28 is. */
    p = t_position("9/4KG3/PPPPPPPPP/9/9/9/9/9/4k4 b R2B2GP 1");
    CHECK_INT(kifu_position_can_declare(p), 1);
    kifu_position_free(p);
    /* White needs 27: 10 pieces in the zone + r 2b 2g (17) = 27. */
    p = t_position("4K4/9/9/9/9/9/ppppppppp/3gk4/9 w r2b2g 1");
    CHECK_INT(kifu_position_can_declare(p), 1);
    kifu_position_free(p);
    /* Only the side to move declares. */
    p = t_position("4K4/9/9/9/9/9/ppppppppp/3gk4/9 b r2b2g 1");
    CHECK_INT(kifu_position_can_declare(p), 0);
    kifu_position_free(p);
    /* 9 pieces in the zone: not enough pieces, whatever the points. */
    p = t_position("9/4K4/PPPPPPPPP/9/9/9/9/9/4k4 b 2R2B4G 1");
    CHECK_INT(kifu_position_can_declare(p), 0);
    kifu_position_free(p);
    /* The king outside the zone. */
    p = t_position("9/5G3/PPPPPPPPP/4K4/9/9/9/9/4k4 b 2R2BG 1");
    CHECK_INT(kifu_position_can_declare(p), 0);
    kifu_position_free(p);
    /* In check: no. (A white lance on 5a... would be a dead piece for white? No: white
     * lances move down. It checks the king on 5b.) */
    p = t_position("4l4/4KG3/PPPPPPPPP/9/9/9/9/9/4k4 b 2R2B 1");
    CHECK(kifu_position_in_check(p));
    CHECK_INT(kifu_position_can_declare(p), 0);
    kifu_position_free(p);
    /* Big pieces on the board in the zone count 5. */
    p = t_position("1+R+B6/4K4/PPPPPPPP1/9/9/9/9/9/4k4 b RBP 1");
    /* zone: +R +B (10) + 8 pawns (8) = 10 pieces, 18 points; hand R B P = 11: 29 */
    CHECK_INT(kifu_position_can_declare(p), 1);
    kifu_position_free(p);
}

/* Out of memory at every allocation in turn: calls fail cleanly, nothing leaks (ASan). */
TEST(out_of_memory)
{
    for (long n = 1; n < 40; n++) {
        kifu__alloc_fail_after(n);
        kifu_position *p = kifu_position_new();
        if (p) {
            kifu_position_set_sfen(p, "position startpos moves 7g7f 3c3d 8h2b+ 3a2b",
                                   NULL);
            for (int i = 0; i < 80; i++) {
                t_play_usi(p, i % 4 == 0   ? "5i4h"
                              : i % 4 == 1 ? "5a4b"
                              : i % 4 == 2 ? "4h5i"
                                           : "4b5a");
                kifu_position_repetition(p);
            }
            kifu_position *q = kifu_position_clone(p);
            char *s = kifu_position_sfen(p, 1);
            kifu_free(s);
            kifu_position_free(q);
            kifu_position_free(p);
        }
        kifu__alloc_fail_after(0);
    }
    CHECK(1);
}

/* A long game keeps O(1) repetition counts: 40000 king shuffles stay fast and right. */
TEST(long_history)
{
    kifu_position *p = kifu_position_new();
    static const char *const cycle[] = {"5i4h", "5a4b", "4h5i", "4b5a"};
    for (int i = 0; i < 40000; i++) {
        CHECK_INT(t_play_usi(p, cycle[i % 4]), 0);
        if (i % 4 == 3)
            CHECK_INT(kifu_position_repetition_count(p), i / 4 + 2);
    }
    CHECK_INT(kifu_position_repetition(p), KIFU_REP_DRAW);
    for (int i = 0; i < 40000; i++)
        kifu_position_undo(p);
    CHECK_INT(kifu_position_repetition_count(p), 1);
    CHECK_INT(kifu_position_history_length(p), 0);
    kifu_position_free(p);
}

int main(void)
{
    RUN(check_mate_and_no_move);
    RUN(repetition_draw);
    RUN(perpetual_check);
    RUN(declaration);
    RUN(out_of_memory);
    RUN(long_history);
    return t_finish();
}
