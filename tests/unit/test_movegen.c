/* test_movegen.c: each movement and drop rule on a position where it matters, and the
 * internal calls (moves_to, illegal_reason, pack/unpack) agreeing with the legal list. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "kifu.h"
#include "rules/engine.h"
#include "testutil.h"

/* Is the USI move in the legal list? */
static int has(kifu_position *p, const char *usi)
{
    kifu_move ms[600];
    char buf[8];
    size_t n = kifu_position_legal_moves(p, ms, 600);
    for (size_t i = 0; i < n; i++)
        if (strcmp(kifu_move_usi(&ms[i], buf), usi) == 0)
            return 1;
    return 0;
}

static int count(kifu_position *p)
{
    kifu_move ms[600];
    return (int)kifu_position_legal_moves(p, ms, 600);
}

/* The reason kifu_position_is_legal gives for a USI move ("" if legal). */
static const char *reason(kifu_position *p, const char *usi)
{
    kifu_move m;
    const char *r = NULL;
    if (kifu_position_parse_usi(p, usi, &m, NULL) < 0)
        return "unparsable";
    if (kifu_position_is_legal(p, &m, &r))
        return "";
    return r ? r : "?";
}

#define CHECK_REASON(p, usi, part) CHECK(strstr(reason(p, usi), part) != NULL)

TEST(piece_movements)
{
    /* One black piece on 5e, the kings on 8a and 2i out of its way (the black king has 5
     * moves). Counted by hand: a move into ranks 1-3 by a piece that can promote counts
     * twice (with and without promotion), except where promotion is forced. */
    static const struct {
        const char *piece;
        int moves;
    } t[] = {
        {"P", 1},  /* 5d */
        {"L", 6},  /* 5d, 5c x2, 5b x2, 5a forced */
        {"N", 4},  /* 4c, 6c, both with the choice */
        {"S", 5},  /* 4d 5d 6d 4f 6f */
        {"G", 6},  /* 4d 5d 6d 4e 6e 5f */
        {"B", 22}, /* 16 squares, 6 of them (7c 8b 9a 3c 2b 1a) in the zone */
        {"R", 19}, /* 16 squares, 3 of them (5c 5b 5a) in the zone */
        {"+P", 6},  {"+L", 6}, {"+N", 6}, {"+S", 6}, {"+B", 20}, /* 16 + 4 king steps */
        {"+R", 20},
    };
    for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
        char sfen[80];
        snprintf(sfen, sizeof sfen, "1k7/9/9/9/4%s4/9/9/9/7K1 b - 1", t[i].piece);
        kifu_position *p = t_position(sfen);
        int got = count(p) - 5;
        if (got != t[i].moves)
            printf("  piece %s\n", t[i].piece);
        CHECK_INT(got, t[i].moves);
        kifu_position_free(p);
    }
    kifu_position *p = t_position("1k7/9/9/9/4L4/9/9/9/7K1 b - 1");
    CHECK(has(p, "5e5a+") && !has(p, "5e5a"));
    CHECK(has(p, "5e5b+") && has(p, "5e5b"));
    kifu_position_free(p);
    /* White pieces move downwards: a white pawn on 5e goes to 5f. */
    p = t_position("1k7/9/9/9/4p4/9/9/9/7K1 w - 1");
    CHECK(has(p, "5e5f") && !has(p, "5e5d"));
    kifu_position_free(p);
    /* Sliders stop at the first piece, capturing an enemy one, not passing it. */
    p = t_position("1k7/9/4p4/9/4R1P2/9/9/9/7K1 b - 1");
    CHECK(has(p, "5e5c+") && !has(p, "5e5b"));
    CHECK(has(p, "5e4e") && !has(p, "5e3e") && !has(p, "5e2e"));
    kifu_position_free(p);
}

TEST(promotion_zone)
{
    /* Black silver on 4d enters (4c), silver on 3c moves inside (3b) and leaves (2d):
     * every one of these has the choice. A silver from 6e to 6d (outside) has none. */
    kifu_position *p = t_position("k8/9/6S2/5S3/3S5/9/9/9/8K b - 1");
    CHECK(has(p, "4d4c+") && has(p, "4d4c"));
    CHECK(has(p, "3c3b+") && has(p, "3c3b"));
    CHECK(has(p, "3c2d+") && has(p, "3c2d"));
    CHECK(has(p, "6e6d") && !has(p, "6e6d+"));
    /* Golds and kings never promote. */
    kifu_position_free(p);
    p = t_position("k8/9/9/5G3/9/9/9/9/8K b - 1");
    CHECK(has(p, "4d4c") && !has(p, "4d4c+"));
    kifu_move m;
    CHECK_INT(kifu_position_parse_usi(p, "4d4c+", &m, NULL), 0);
    CHECK_REASON(p, "4d4c+", "cannot promote");
    kifu_position_free(p);
    /* A promoted move reports promote = 1, a declined one 0, a non-zone move -1. */
    p = t_position("k8/9/9/5S3/9/9/9/9/8K b - 1");
    kifu_move ms[600];
    size_t n = kifu_position_legal_moves(p, ms, 600);
    int seen = 0;
    for (size_t i = 0; i < n; i++) {
        if (ms[i].from_x == 4 && ms[i].to_y == 3)
            seen |= ms[i].promote == 1 ? 1 : ms[i].promote == 0 ? 2 : 4;
        if (ms[i].from_x == 4 && ms[i].to_y == 5)
            seen |= ms[i].promote == -1 ? 8 : 16;
    }
    CHECK_INT(seen, 1 | 2 | 8);
    kifu_position_free(p);
}

TEST(forced_promotion)
{
    /* Knight on 2d: 1b and 3b are on rank 2, so it must promote; pawn 5b to 5a must too. */
    kifu_position *p = t_position("9/4P4/L8/7N1/9/9/9/9/k3K4 b - 1");
    CHECK(has(p, "2d1b+") && !has(p, "2d1b"));
    CHECK(has(p, "2d3b+") && !has(p, "2d3b"));
    CHECK(has(p, "5b5a+") && !has(p, "5b5a"));
    CHECK(has(p, "9c9a+") && !has(p, "9c9a"));
    CHECK(has(p, "9c9b+") && has(p, "9c9b"));
    CHECK_REASON(p, "2d1b", "must promote");
    CHECK_REASON(p, "5b5a", "must promote");
    /* The record form of a forced promotion: promote 1 (as JKF writes it); a move given
     * with promote -1 (no choice) is taken as the forced promotion. */
    kifu_move m = {0};
    m.color = 0, m.from_x = 2, m.from_y = 4, m.to_x = 1, m.to_y = 2, m.piece = KIFU_KE;
    m.promote = -1, m.same = -1;
    CHECK(kifu_position_is_legal(p, &m, NULL));
    CHECK_INT(kifu_position_play(p, &m, NULL), 0);
    CHECK_INT(m.promote, 1);
    CHECK_INT(kifu__position_at(p, KIFU_SQ(1, 2)), KIFU_NK);
    /* A knight to rank 3 has the choice. */
    kifu_position_free(p);
    p = t_position("k8/9/9/9/7N1/9/9/9/8K b - 1");
    CHECK(has(p, "2e1c+") && has(p, "2e1c"));
    kifu_position_free(p);
    /* White: pawn to rank 9 must promote. */
    p = t_position("4k4/9/9/9/9/9/9/p8/4K4 w - 1");
    CHECK(has(p, "9h9i+") && !has(p, "9h9i"));
    kifu_position_free(p);
}

TEST(pins)
{
    /* Gold on 5e pinned on the file by the rook on 5b: only 5d (along the file). Silver on
     * 3g pinned on the diagonal by the bishop on 1e: only 2f (towards it) and nothing else. */
    kifu_position *p = t_position("4k4/4r4/9/9/4G3b/9/6S2/9/4K4 b - 1");
    CHECK(has(p, "5e5d"));
    CHECK(!has(p, "5e4d") && !has(p, "5e6e") && !has(p, "5e4e"));
    CHECK(has(p, "3g2f"));
    CHECK(!has(p, "3g3f") && !has(p, "3g4f") && !has(p, "3g2h"));
    CHECK_REASON(p, "5e4e", "王手放置");
    CHECK_REASON(p, "3g3f", "王手放置");
    /* Pinned by a lance: a black silver in front of its king with a white lance ahead. */
    kifu_position_free(p);
    p = t_position("4l4/9/9/9/9/9/4S4/9/4K3k b - 1");
    CHECK(has(p, "5g5f") && !has(p, "5g4f") && !has(p, "5g6h"));
    kifu_position_free(p);
}

TEST(king_safety)
{
    /* Rook on 6h covers rank 8 and file 6: only Kx6h and K4i. */
    kifu_position *p = t_position("4k4/9/9/9/9/9/9/3r5/4K4 b - 1");
    CHECK_INT(count(p), 2);
    CHECK(has(p, "5i6h") && has(p, "5i4i"));
    CHECK_REASON(p, "5i5h", "王手放置");
    CHECK_REASON(p, "5i6i", "王手放置");
    kifu_position_free(p);
    /* In check by a rook on the file: the king may not step back along the file. */
    p = t_position("4r4/9/9/9/9/9/9/4K4/9 b - 1");
    CHECK(!has(p, "5h5i"));
    CHECK_REASON(p, "5h5i", "王手放置");
    kifu_position_free(p);
}

TEST(evasions)
{
    /* Rook check down the file, a gold in hand: 7 interposing drops + 4 king moves. */
    kifu_position *p = t_position("4r4/9/9/9/9/9/9/9/4K4 b G 1");
    CHECK(kifu_position_in_check(p));
    CHECK_INT(count(p), 11);
    CHECK(has(p, "G*5b") && has(p, "G*5h"));
    CHECK(!has(p, "G*4b"));
    CHECK_REASON(p, "G*4b", "王手放置");
    kifu_position_free(p);
    /* Double check: no drop, only the king. */
    p = t_position("4r4/9/9/9/9/9/5n3/9/4K4 b G 1");
    CHECK_INT(count(p), 4);
    CHECK(!has(p, "G*5h"));
    kifu_position_free(p);
    /* Capturing the checker with a piece: the silver takes the checking gold. */
    p = t_position("4k4/9/9/9/9/9/9/4g4/3SK4 b - 1");
    CHECK(has(p, "6i5h"));
    CHECK(!has(p, "6i7h"));
    kifu_position_free(p);
}

TEST(drops)
{
    /* Knight: never on ranks 1-2; lance and pawn: never on rank 1 (for black). */
    kifu_position *p = t_position("4k4/9/9/9/9/9/9/9/4K4 b NLP 1");
    CHECK(!has(p, "N*3b") && !has(p, "N*3a") && has(p, "N*3c"));
    CHECK(!has(p, "L*3a") && has(p, "L*3b"));
    CHECK(!has(p, "P*3a") && has(p, "P*3b"));
    CHECK_REASON(p, "N*3b", "行き所");
    CHECK_REASON(p, "P*3a", "行き所");
    CHECK_REASON(p, "P*5a", "occupied");
    kifu_position_free(p);
    /* White's dead squares are ranks 9 (and 8 for knights). */
    p = t_position("4k4/9/9/9/9/9/9/9/4K4 w nlp 1");
    CHECK(!has(p, "N*3h") && has(p, "N*3g"));
    CHECK(!has(p, "P*3i") && has(p, "P*3h"));
    kifu_position_free(p);
}

TEST(nifu)
{
    kifu_position *p = t_position("4k4/9/9/9/9/9/4P4/9/4K4 b P 1");
    CHECK(!has(p, "P*5e"));
    CHECK(has(p, "P*4e"));
    CHECK_REASON(p, "P*5e", "二歩");
    kifu_position_free(p);
    /* A promoted pawn (と) does not count. */
    p = t_position("4k4/9/9/9/9/9/4+P4/9/4K4 b P 1");
    CHECK(has(p, "P*5e"));
    kifu_position_free(p);
    /* The opponent's pawn does not count either. */
    p = t_position("4k4/9/9/4p4/9/9/9/9/4K4 b P 1");
    CHECK(has(p, "P*5e"));
    kifu_position_free(p);
}

TEST(uchifuzume)
{
    /* P*1b would mate: the knight on 3c covers 2a, the gold 1b and 2b. */
    kifu_position *p = t_position("8k/9/6NG1/9/9/9/9/9/4K4 b P 1");
    CHECK(!has(p, "P*1b"));
    CHECK_REASON(p, "P*1b", "打ち歩詰め");
    kifu_position_free(p);
    /* Without the knight the king escapes to 2a: the pawn drop check is legal. */
    p = t_position("8k/9/7G1/9/9/9/9/9/4K4 b P 1");
    CHECK(has(p, "P*1b"));
    CHECK_INT(t_play_usi(p, "P*1b"), 0);
    CHECK(kifu_position_in_check(p));
    CHECK(!kifu_position_is_mate(p));
    kifu_position_free(p);
    /* A mate by dropping another piece is fine. */
    p = t_position("8k/9/7G1/9/9/9/9/9/4K4 b G 1");
    CHECK(has(p, "G*1b"));
    CHECK_INT(t_play_usi(p, "G*1b"), 0);
    CHECK(kifu_position_is_mate(p));
    kifu_position_free(p);
    /* Mate by a pawn moved on the board (突き歩詰め) is legal. */
    p = t_position("8k/9/6NGP/9/9/9/9/9/4K4 b - 1");
    CHECK(has(p, "1c1b"));
    kifu_position_free(p);
    /* The king can take the dropped pawn: not mate, legal. */
    p = t_position("8k/9/6N2/9/9/9/9/9/4K4 b P 1");
    CHECK(has(p, "P*1b"));
    kifu_position_free(p);
    /* White drops too: P*5h against the black king on 5i, held by golds: mate, illegal. */
    p = t_position("9/9/9/9/9/9/3g1g3/9/4K4 w P 1");
    CHECK(!has(p, "P*5h"));
    kifu_position_free(p);
}

/* The internal calls agree with the legal list, everywhere in a few positions. */
static void agree(const char *sfen)
{
    kifu_position *p = t_position(sfen);
    kmove legal[600];
    size_t n = kifu__position_legal(p, legal);
    int side = kifu_position_side(p), bad = 0, alone = 0;
    /* illegal_reason: NULL exactly for the listed moves, over every from/to/promote and
     * every drop. */
    for (int from = 0; from < 81 + 7; from++)
        for (int to = 0; to < 81; to++)
            for (int pr = 0; pr < 2; pr++) {
                kmove m;
                if (from < 81) {
                    int cp = kifu__position_at(p, from);
                    if (!cp)
                        continue;
                    m = move_make(from, to, cp & 15, kifu__position_at(p, to) & 15, pr);
                } else {
                    if (pr)
                        continue;
                    m = move_make_drop(from - 81 + 1, to);
                }
                int listed = 0;
                for (size_t i = 0; i < n; i++)
                    listed |= legal[i] == m;
                /* legal_alone: only a listed move, and no other board source listed for
                 * its kind and square (the relative word needs none). */
                if (kifu__position_legal_alone(p, m)) {
                    alone++;
                    int others = 0;
                    for (size_t i = 0; i < n; i++)
                        others += MOVE_TO(legal[i]) == to && !MOVE_IS_DROP(legal[i]) &&
                                  MOVE_PIECE(legal[i]) == MOVE_PIECE(m) &&
                                  (MOVE_IS_DROP(m) || MOVE_FROM(legal[i]) != from);
                    if ((!listed || others) && bad++ < 5)
                        printf("  %s: legal_alone on move %d-%d kind %d: listed %d, "
                               "others %d\n",
                               sfen, from, to, MOVE_PIECE(m), listed, others);
                }
                const char *r = kifu__position_illegal_reason(p, m);
                if ((r == NULL) != listed && bad++ < 5) {
                    char u[8];
                    kifu_move km;
                    kifu__move_unpack(m, side, &km);
                    printf("  %s: %s listed %d reason %s\n", sfen, kifu_move_usi(&km, u),
                           listed, r ? r : "(none)");
                }
            }
    /* moves_to: exactly the listed moves with that target and kind, and where there are
     * some, the number of board pieces that reach the square as reach_to finds them. */
    for (int to = 0; to < 81; to++)
        for (int kind = 1; kind <= 14; kind++) {
            kmove t[32], r[32];
            int reach = -1;
            size_t nt = kifu__position_moves_to(p, to, kind, t, &reach), want = 0;
            size_t nr = kifu__position_reach_to(p, to, kind, r);
            int froms = 0;
            for (size_t i = 0; i < nr; i++)
                froms += !MOVE_IS_DROP(r[i]) &&
                         (i == 0 || MOVE_FROM(r[i - 1]) != MOVE_FROM(r[i]));
            if (nt && reach != froms && bad++ < 5)
                printf("  %s: moves_to %d kind %d: reach %d, want %d\n", sfen, to, kind,
                       reach, froms);
            for (size_t i = 0; i < n; i++)
                if (MOVE_TO(legal[i]) == to && MOVE_PIECE(legal[i]) == kind)
                    want++;
            if (nt != want && bad++ < 5)
                printf("  %s: moves_to %d kind %d: %zu, want %zu\n", sfen, to, kind, nt,
                       want);
            for (size_t j = 0; j < nt; j++) {
                int listed = 0;
                for (size_t i = 0; i < n; i++)
                    listed |= legal[i] == t[j];
                if (!listed && bad++ < 5)
                    printf("  %s: moves_to gave an unlisted move\n", sfen);
            }
        }
    /* pack(unpack(m)) == m */
    for (size_t i = 0; i < n; i++) {
        kifu_move km;
        kifu__move_unpack(legal[i], side, &km);
        if (kifu__move_pack(&km) != legal[i] && bad++ < 5)
            printf("  %s: pack/unpack differ on move %zu\n", sfen, i);
    }
    CHECK_INT(bad, 0);
    CHECK(n == 0 || alone > 0); /* the fast answer is given, not only refused */
    kifu_position_free(p);
}

TEST(internal_calls_agree)
{
    agree("startpos");
    agree("l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1");
    agree("R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1");
    agree("8k/9/6NG1/9/9/9/9/9/4K4 b P 1");
    agree("4k4/4r4/9/9/4G3b/9/6S2/9/4K4 b - 1");
    agree("4r4/9/9/9/9/9/9/9/4K4 b G 1");
    agree("4r4/9/9/9/9/9/5n3/9/4K4 b G 1");
    agree("9/4P4/L8/7N1/9/9/9/9/k3K4 b - 1");
    agree("l2g1k1nl/1r1s2g2/p1n1ppsp1/2pp4p/1p5P1/2PP1P2P/PPB1P1N2/2GS1S3/LN1K1G2L w "
          "BPrp 1");
}

TEST(moves_to_has_both_choices)
{
    kifu_position *p = t_position("position startpos moves 7g7f 3c3d");
    kmove t[32];
    size_t n = kifu__position_moves_to(p, KIFU_SQ(2, 2), KIFU_KA, t, NULL);
    CHECK_INT(n, 2);
    CHECK(n == 2 && MOVE_IS_PROMOTE(t[0]) != MOVE_IS_PROMOTE(t[1]));
    CHECK_INT(kifu__position_moves_to(p, KIFU_SQ(7, 5), KIFU_FU, t, NULL), 1);
    CHECK_INT(kifu__position_moves_to(p, KIFU_SQ(7, 4), KIFU_FU, t, NULL), 0);
    /* Two golds can reach 5h from the start: both are listed. */
    kifu_position_set_sfen(p, "startpos", NULL);
    int reach = 0;
    CHECK_INT(kifu__position_moves_to(p, KIFU_SQ(5, 8), KIFU_KI, t, &reach), 2);
    CHECK_INT(reach, 2);
    kifu_position_free(p);
}

TEST(play_completes_and_undo_restores)
{
    kifu_position *p = t_position("position startpos moves 7g7f 3c3d");
    uint64_t h = kifu_position_hash(p);
    kifu_move m = {0};
    m.from_x = 8, m.from_y = 8, m.to_x = 2, m.to_y = 2, m.promote = 1, m.same = -1;
    m.flags = KIFU_MOVE_RAW;
    CHECK_INT(kifu_position_play(p, &m, NULL), 0); /* piece 0: taken from the board */
    CHECK_INT(m.piece, KIFU_KA);
    CHECK_INT(m.capture, KIFU_KA);
    CHECK_INT(m.color, KIFU_BLACK);
    CHECK(!(m.flags & KIFU_MOVE_RAW));
    CHECK_INT(kifu__position_hand(p, KIFU_BLACK, KIFU_KA), 1);
    CHECK_INT(kifu_position_undo(p), 0);
    CHECK(kifu_position_hash(p) == h);
    CHECK_INT(kifu__position_hand(p, KIFU_BLACK, KIFU_KA), 0);
    /* An illegal move is refused with KIFU_ERR_ILLEGAL and changes nothing. */
    kifu_error err;
    kifu_error_clear(&err);
    m = (kifu_move){0};
    m.from_x = 5, m.from_y = 9, m.to_x = 5, m.to_y = 7, m.piece = KIFU_OU, m.promote = -1;
    CHECK_INT(kifu_position_play(p, &m, &err), -1);
    CHECK_INT(err.code, KIFU_ERR_ILLEGAL);
    CHECK(kifu_position_hash(p) == h);
    CHECK_INT(kifu_position_history_length(p), 2);
    /* Clones are independent. */
    kifu_position *q = kifu_position_clone(p);
    CHECK(q != NULL);
    CHECK_INT(kifu_position_history_length(q), 2);
    kifu_position_undo(q);
    CHECK(kifu_position_hash(p) == h);
    CHECK(kifu_position_hash(q) != h);
    kifu_position_free(q);
    kifu_position_free(p);
}

int main(void)
{
    RUN(piece_movements);
    RUN(promotion_zone);
    RUN(forced_promotion);
    RUN(pins);
    RUN(king_safety);
    RUN(evasions);
    RUN(drops);
    RUN(nifu);
    RUN(uchifuzume);
    RUN(internal_calls_agree);
    RUN(moves_to_has_both_choices);
    RUN(play_completes_and_undo_restores);
    return t_finish();
}
