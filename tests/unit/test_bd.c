/* test_bd.c: the position-list letters (src/notation/bd.c) against the format's own
 * example (../shared/seeds/002, typed in here) and positions of random legal games. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "kifu_private.h"
#include "notation/bd.h"

/* The two entries of the format document's example. */
static const char *const hirate_bd =
    "dfhjvjhfdonooooolobbbbbbbbboooooooooooooooooooooooooooaaaaaaaaaokooooomocegiuigec";
static const char *const tsume_bd =
    "oooooooooooooooojdooooosobvoooooooqooooooooaooooooooooooooooooooooooooooooooooooo";

TEST(index_of_squares)
{
    CHECK_INT(kifu__bd_index(9, 1), 1);
    CHECK_INT(kifu__bd_index(1, 1), 9);
    CHECK_INT(kifu__bd_index(5, 5), 41);
    CHECK_INT(kifu__bd_index(1, 9), 81);
    for (int i = 1; i <= 81; i++) {
        int x, y;
        kifu__bd_square(i, &x, &y);
        CHECK_INT(kifu__bd_index(x, y), i);
    }
}

TEST(the_documents_start_position_is_hirate)
{
    kifu_board b, want;
    memset(&b, 0, sizeof b);
    size_t bad = 99;
    CHECK_INT(kifu__bd_read_board(hirate_bd, strlen(hirate_bd), &b, &bad), 0);
    kifu_preset_board(KIFU_PRESET_HIRATE, &want);
    CHECK(memcmp(b.sq, want.sq, sizeof b.sq) == 0);
    char bd[82], cb[40], cw[40];
    kifu__bd_write(&want, bd, cb, cw);
    CHECK_STR(bd, hirate_bd);
    CHECK_STR(cb, "");
    CHECK_STR(cw, "");
}

TEST(the_documents_tsume_position)
{
    kifu_board b;
    memset(&b, 0, sizeof b);
    size_t bad;
    CHECK_INT(kifu__bd_read_board(tsume_bd, 81, &b, &bad), 0);
    const char *cw = "bbbbbbbbbbbbbbbbdddffffhhhhjjjln";
    CHECK_INT(kifu__bd_read_hand(cw, strlen(cw), KIFU_WHITE, &b, &bad), 0);
    /* Gote's king on 1三 (index 27: 'v'), sente's horse on 2四 (index 35: 'q'), sente's
     * pawn on 2五 (index 44: 'a'), gote's gold on 2二 and lance on 1二. */
    CHECK_INT(b.sq[KIFU_SQ(1, 3)], KIFU_OU | KIFU_WHITE << 4);
    CHECK_INT(b.sq[KIFU_SQ(2, 4)], KIFU_UM);
    CHECK_INT(b.sq[KIFU_SQ(2, 5)], KIFU_FU);
    CHECK_INT(b.sq[KIFU_SQ(2, 2)], KIFU_KI | KIFU_WHITE << 4);
    CHECK_INT(b.sq[KIFU_SQ(1, 2)], KIFU_KY | KIFU_WHITE << 4);
    CHECK_INT(b.hands[KIFU_WHITE][KIFU_FU], 16);
    CHECK_INT(b.hands[KIFU_WHITE][KIFU_KY], 3);
    CHECK_INT(b.hands[KIFU_WHITE][KIFU_HI], 1);
    CHECK_INT(b.hands[KIFU_WHITE][KIFU_KA], 1);
    char bd[82], cbo[40], cwo[40];
    kifu__bd_write(&b, bd, cbo, cwo);
    CHECK_STR(bd, tsume_bd);
    CHECK_STR(cwo, cw);
    CHECK_STR(cbo, "");
}

TEST(bad_letters_are_located)
{
    kifu_board b = {0};
    size_t bad = 0;
    char s[82];
    memcpy(s, hirate_bd, 82);
    s[40] = 'x';
    CHECK_INT(kifu__bd_read_board(s, 81, &b, &bad), -1);
    CHECK_INT(bad, 40);
    CHECK_INT(kifu__bd_read_board(s, 80, &b, &bad), -1);
    CHECK_INT(bad, 80);
    CHECK_INT(kifu__bd_read_board(hirate_bd, 81, &b, &bad), 0);
    /* Hands: no promoted piece, no king, nothing outside the set (the board
       reader leaves hands alone, so they start empty here). */
    memset(b.hands, 0, sizeof b.hands);
    CHECK_INT(kifu__bd_read_hand("aa1", 3, KIFU_BLACK, &b, &bad), -1);
    CHECK_INT(bad, 2);
    CHECK_INT(kifu__bd_read_hand("u", 1, KIFU_BLACK, &b, &bad), -1);
    CHECK_INT(kifu__bd_read_hand("ao", 2, KIFU_BLACK, &b, &bad), -1);
    CHECK_INT(bad, 1);
}

TEST(every_letter_round_trips)
{
    for (int kind = 1; kind <= 14; kind++)
        for (int c = 0; c < 2; c++) {
            int p = kind | c << 4;
            char l = kifu__bd_letter(p);
            CHECK(l != KIFU__BD_EMPTY);
            CHECK_INT(kifu__bd_piece(l), p);
        }
    CHECK_INT(kifu__bd_piece('o'), 0);
    CHECK_INT(kifu__bd_piece('z'), -1);
    CHECK_INT(kifu__bd_letter(0), 'o');
}

/* Positions along random legal games: write, read back, equal. */
TEST(random_games_round_trip)
{
    srand(7);
    kifu_position *p = kifu_position_new();
    int checked = 0;
    for (int game = 0; game < 20; game++) {
        kifu_position_set_sfen(p, "startpos", NULL);
        for (int ply = 0; ply < 150; ply++) {
            kifu_move moves[600];
            size_t n = kifu_position_legal_moves(p, moves, 600);
            if (!n)
                break;
            kifu_move m = moves[(size_t)rand() % n];
            if (kifu_position_play(p, &m, NULL))
                break;
            kifu_board b, back;
            kifu_position_board(p, &b);
            char bd[82], cb[40], cw[40];
            kifu__bd_write(&b, bd, cb, cw);
            memset(&back, 0, sizeof back);
            size_t bad;
            CHECK_INT(kifu__bd_read_board(bd, strlen(bd), &back, &bad), 0);
            CHECK_INT(kifu__bd_read_hand(cb, strlen(cb), KIFU_BLACK, &back, &bad), 0);
            CHECK_INT(kifu__bd_read_hand(cw, strlen(cw), KIFU_WHITE, &back, &bad), 0);
            back.color = b.color;
            CHECK(memcmp(&back, &b, sizeof b) == 0);
            checked++;
        }
    }
    CHECK(checked > 1000);
    kifu_position_free(p);
}

int main(void)
{
    RUN(index_of_squares);
    RUN(the_documents_start_position_is_hirate);
    RUN(the_documents_tsume_position);
    RUN(bad_letters_are_located);
    RUN(every_letter_round_trips);
    RUN(random_games_round_trip);
    return t_finish();
}
