/* test_csa.c: the CSA reader and writer on records typed in here: every statement kind,
 * positions, endings, several games, comments, errors with their positions, and the
 * writer on records built through the API. Reading uses KIFU_READ_NO_NORMALIZE so the raw
 * fields the reader sets are what is checked. */
#include <stdlib.h>

#include "harness.h"
#include "kifu.h"
#include "kifu_private.h"
#include "node_time.h"
#include "testutil.h"

static kifu_error err;

static kifu_record *rd_flags(const char *text, unsigned flags)
{
    kifu_read_options o = {KIFU_FMT_CSA, KIFU_ENC_UTF8, flags, "t.csa", NULL, NULL};
    kifu_error_clear(&err);
    return kifu_read(text, strlen(text), &o, &err);
}

static kifu_record *rd(const char *text)
{
    return rd_flags(text, KIFU_READ_NO_NORMALIZE);
}

static int count_main(kifu_record *r)
{
    int n = 0;
    for (kifu_node *x = kifu_node_next(kifu_record_root(r)); x; x = kifu_node_next(x))
        n++;
    return n;
}

#define HIRATE_ROWS                                                                      \
    "P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\n"                                                    \
    "P2 * -HI *  *  *  *  * -KA * \n"                                                    \
    "P3-FU-FU-FU-FU-FU-FU-FU-FU-FU\n"                                                    \
    "P4 *  *  *  *  *  *  *  *  * \n"                                                    \
    "P5 *  *  *  *  *  *  *  *  * \n"                                                    \
    "P6 *  *  *  *  *  *  *  *  * \n"                                                    \
    "P7+FU+FU+FU+FU+FU+FU+FU+FU+FU\n"                                                    \
    "P8 * +KA *  *  *  *  * +HI * \n"                                                    \
    "P9+KY+KE+GI+KI+OU+KI+GI+KE+KY\n"

TEST(v22_header_moves_and_raw_fields)
{
    kifu_record *r = rd("V2.2\n"
                        "N+Habu\n"
                        "N-Moriuchi, Toshiyuki\n"
                        "$EVENT:Meijin, game 1\n"
                        "$SITE:Tokyo\n"
                        "$START_TIME:2024/04/10 09:00:00\n"
                        "$TIME_LIMIT:09:00+00\n"
                        "$OPENING:YAGURA\n"
                        "$MY_KEY:kept\n" HIRATE_ROWS "+\n"
                        "+7776FU\nT12\n-3334FU\nT100\n+8822UM\n-3122GI\n+0045KA\n%TORYO\n"
                        "$END_TIME:2024/04/11 20:00:00\n");
    CHECK(r != NULL);
    if (!r)
        return;
    CHECK_STR(kifu_record_header_get(r, "先手"), "Habu");
    CHECK_STR(kifu_record_header_get(r, "後手"), "Moriuchi, Toshiyuki");
    CHECK_STR(kifu_record_header_get(r, "棋戦"), "Meijin, game 1");
    CHECK_STR(kifu_record_header_get(r, "場所"), "Tokyo");
    CHECK_STR(kifu_record_header_get(r, "開始日時"), "2024/04/10 09:00:00");
    CHECK_STR(kifu_record_header_get(r, "持ち時間"), "09:00+00");
    CHECK_STR(kifu_record_header_get(r, "OPENING"), "YAGURA");
    CHECK_STR(kifu_record_header_get(r, "MY_KEY"), "kept");
    CHECK_STR(kifu_record_header_get(r, "終了日時"), "2024/04/11 20:00:00");
    CHECK_INT(kifu_record_preset(r), KIFU_PRESET_HIRATE);
    CHECK_INT(count_main(r), 6);

    const kifu_move *m = t_move(t_node_at(r, 1));
    CHECK(m != NULL);
    CHECK_INT(m->color, KIFU_BLACK);
    CHECK_INT(m->from_x, 7);
    CHECK_INT(m->from_y, 7);
    CHECK_INT(m->to_x, 7);
    CHECK_INT(m->to_y, 6);
    CHECK_INT(m->piece, KIFU_FU);
    CHECK_INT(m->promote, -1);
    CHECK(m->flags & KIFU_MOVE_PIECE_AFTER);
    CHECK(!(m->flags & KIFU_MOVE_DROP));
    const kifu_move_time *t = t_time(t_node_at(r, 1));
    CHECK(t != NULL);
    if (t) {
        CHECK_INT(t->now.h, -1);
        CHECK_INT(t->now.m, 0);
        CHECK_INT(t->now.s, 12);
        CHECK_INT(t->has_total, 0);
    }
    t = t_time(t_node_at(r, 2));
    CHECK(t && t->now.m == 1 && t->now.s == 40);
    CHECK_INT(t_move(t_node_at(r, 2))->color, KIFU_WHITE);
    /* The piece after the move: UM, to be resolved by the normalizer. */
    m = t_move(t_node_at(r, 3));
    CHECK_INT(m->piece, KIFU_UM);
    CHECK(t_time(t_node_at(r, 3)) == NULL);
    m = t_move(t_node_at(r, 5));
    CHECK_INT(m->from_x, 0);
    CHECK_INT(m->from_y, 0);
    CHECK_INT(m->piece, KIFU_KA);
    CHECK(m->flags & KIFU_MOVE_DROP);
    CHECK_STR(kifu_node_special(t_node_at(r, 6)), "TORYO");
    kifu_record_free(r);
}

TEST(v30_encoding_line_decimal_times_and_new_keys)
{
    kifu_record *r =
        rd("'CSA encoding=UTF-8\n"
           "V3.0\n"
           "N+先手さん\n"
           "$TIME:600+10+0\n"
           "$TIME+:300+0+5\n"
           "$MAX_MOVES:256\n"
           "$JISHOGI:27\n"
           "$NOTE:練習対局\n"
           "PI\n+\n"
           "+2726FU\nT12.345\n-8384FU\nT0.5\n+2625FU\nT3.0001\n%MAX_MOVES\n");
    CHECK(r != NULL);
    if (!r)
        return;
    /* The encoding declaration is a directive, not a comment. */
    CHECK_INT(kifu_node_comment_count(kifu_record_root(r)), 0);
    CHECK_STR(kifu_record_header_get(r, "先手"), "先手さん");
    CHECK_STR(kifu_record_header_get(r, "TIME"), "600+10+0");
    CHECK_STR(kifu_record_header_get(r, "TIME+"), "300+0+5");
    CHECK_STR(kifu_record_header_get(r, "MAX_MOVES"), "256");
    CHECK_STR(kifu_record_header_get(r, "JISHOGI"), "27");
    CHECK_STR(kifu_record_header_get(r, "NOTE"), "練習対局");
    CHECK_INT(kifu_record_preset(r), KIFU_PRESET_HIRATE);
    const kifu_move_time *t = t_time(t_node_at(r, 1));
    CHECK(t && t->now.s == 12 && t->now.ms == 345);
    t = t_time(t_node_at(r, 2));
    CHECK(t && t->now.s == 0 && t->now.ms == 500);
    t = t_time(t_node_at(r, 3));
    CHECK(t && t->now.s == 3 && t->now.ms == 0);
    CHECK_STR(kifu_node_special(t_node_at(r, 4)), "MAX_MOVES");
    kifu_record_free(r);
}

TEST(v1_without_version_or_position)
{
    kifu_record *r = rd("N+a\nN-b\n+7776FU\n-3334FU\n");
    CHECK(r != NULL);
    if (!r)
        return;
    CHECK_INT(kifu_record_preset(r), KIFU_PRESET_NONE);
    CHECK_INT(count_main(r), 2);
    kifu_record_free(r);
}

TEST(pi_with_removed_pieces_is_a_preset)
{
    /* Eight pieces off gote's side, gote to move: the 八枚落ち preset. */
    kifu_record *r = rd("V2.2\nPI11KY21KE22KA31GI71GI81KE82HI91KY\n-\n-6172KI\n");
    CHECK(r != NULL);
    if (r)
        CHECK_INT(kifu_record_preset(r), KIFU_PRESET_8);
    kifu_record_free(r);
    /* 飛角落ち = 二枚落ち. */
    r = rd("PI82HI22KA\n-\n");
    CHECK(r && kifu_record_preset(r) == KIFU_PRESET_2);
    kifu_record_free(r);
    /* Same pieces off but sente to move: no preset, explicit data. */
    r = rd("PI82HI22KA\n+\n");
    CHECK(r != NULL);
    if (r) {
        CHECK_INT(kifu_record_preset(r), KIFU_PRESET_OTHER);
        kifu_board b;
        kifu_record_initial(r, &b);
        CHECK_INT(b.sq[KIFU_SQ(8, 2)], 0);
        CHECK_INT(b.sq[KIFU_SQ(2, 2)], 0);
        CHECK_INT(b.sq[KIFU_SQ(2, 8)], KIFU_HI);
        CHECK_INT(b.color, KIFU_BLACK);
    }
    kifu_record_free(r);
}

TEST(board_rows_collapsed_spacing_and_hands)
{
    kifu_record *r = rd("P1 * * * * * * * -FU-OU\n" /* collapsed spacing */
                        "P2 *  *  *  *  *  *  * -FU * \n"
                        "P3\n" /* not 9 squares: an error, tested below */
                        "+\n");
    CHECK(r == NULL);
    CHECK_INT(err.line, 3);
    kifu_record_free(r);
    r = rd("P1 * * * * * * * -FU-OU\n"
           "P2 *  *  *  *  *  *  * -FU * \n"
           "P+00HI00HI00KY\n"
           "P-00GI00KE\n"
           "P+\n"
           "P-\n"
           "+\n+0013KY\n");
    CHECK(r != NULL);
    if (!r)
        return;
    CHECK_INT(kifu_record_preset(r), KIFU_PRESET_OTHER);
    kifu_board b;
    kifu_record_initial(r, &b);
    CHECK_INT(b.sq[KIFU_SQ(1, 1)], KIFU_OU | 16);
    CHECK_INT(b.sq[KIFU_SQ(2, 1)], KIFU_FU | 16);
    CHECK_INT(b.sq[KIFU_SQ(2, 2)], KIFU_FU | 16);
    CHECK_INT(b.sq[KIFU_SQ(5, 5)], 0);
    CHECK_INT(b.hands[0][KIFU_HI], 2);
    CHECK_INT(b.hands[0][KIFU_KY], 1);
    CHECK_INT(b.hands[1][KIFU_GI], 1);
    CHECK_INT(b.hands[1][KIFU_KE], 1);
    CHECK_INT(b.color, KIFU_BLACK);
    kifu_record_free(r);
}

TEST(full_board_rows_are_hirate)
{
    kifu_record *r = rd("V2\n" HIRATE_ROWS "+\n");
    CHECK(r && kifu_record_preset(r) == KIFU_PRESET_HIRATE);
    kifu_record_free(r);
    /* The hirate board with gote to move is no preset. */
    r = rd("V2\n" HIRATE_ROWS "-\n");
    CHECK(r && kifu_record_preset(r) == KIFU_PRESET_OTHER);
    kifu_record_free(r);
}

TEST(piece_lines_with_00AL)
{
    /* The hand counts are those json-kifu-format's parser gives for this input. */
    kifu_record *r = rd("V2.2\nP+23TO\nP-11OU21KE\nP+00KI\nP-00AL\n+\n+0022KI\n%TSUMI\n");
    CHECK(r != NULL);
    if (!r)
        return;
    kifu_board b;
    kifu_record_initial(r, &b);
    CHECK_INT(b.sq[KIFU_SQ(2, 3)], KIFU_TO);
    CHECK_INT(b.sq[KIFU_SQ(1, 1)], KIFU_OU | 16);
    CHECK_INT(b.sq[KIFU_SQ(2, 1)], KIFU_KE | 16);
    CHECK_INT(b.hands[0][KIFU_KI], 1);
    CHECK_INT(b.hands[1][KIFU_FU], 17);
    CHECK_INT(b.hands[1][KIFU_KY], 4);
    CHECK_INT(b.hands[1][KIFU_KE], 3);
    CHECK_INT(b.hands[1][KIFU_GI], 4);
    CHECK_INT(b.hands[1][KIFU_KI], 3);
    CHECK_INT(b.hands[1][KIFU_KA], 2);
    CHECK_INT(b.hands[1][KIFU_HI], 2);
    CHECK_STR(kifu_node_special(t_node_at(r, 2)), "TSUMI");
    kifu_record_free(r);
}

TEST(comma_statements)
{
    kifu_record *r =
        rd("PI\n+\n+7776FU,T12,-3334FU,T2\n+8822UM  ,T100 ,'a, b, c\n%CHUDAN,T39\n");
    CHECK(r != NULL);
    if (!r)
        return;
    CHECK_INT(count_main(r), 4);
    CHECK(t_time(t_node_at(r, 1))->now.s == 12);
    CHECK(t_time(t_node_at(r, 2))->now.s == 2);
    CHECK_INT(t_move(t_node_at(r, 2))->color, KIFU_WHITE);
    CHECK(t_time(t_node_at(r, 3))->now.m == 1);
    /* A comment runs to the end of the line, commas included. */
    CHECK_INT(kifu_node_comment_count(t_node_at(r, 3)), 1);
    CHECK_STR(kifu_node_comment(t_node_at(r, 3), 0), "a, b, c");
    CHECK_STR(kifu_node_special(t_node_at(r, 4)), "CHUDAN");
    CHECK(t_time(t_node_at(r, 4)) && t_time(t_node_at(r, 4))->now.s == 39);
    kifu_record_free(r);
}

TEST(every_ending)
{
    static const char *const words[] = {
        "TORYO",         "CHUDAN",       "SENNICHITE",      "OUTE_SENNICHITE",
        "TIME_UP",       "ILLEGAL_MOVE", "+ILLEGAL_ACTION", "-ILLEGAL_ACTION",
        "JISHOGI",       "KACHI",        "HIKIWAKE",        "MAX_MOVES",
        "MATTA",         "TSUMI",        "FUZUMI",          "ERROR",
        "SOME_NEW_WORD",
    };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        char text[128];
        snprintf(text, sizeof text, "PI\n+\n+7776FU\n%%%s\n", words[i]);
        kifu_record *r = rd(text);
        CHECK(r != NULL);
        if (!r)
            continue;
        kifu_node *n = t_node_at(r, 2);
        CHECK_INT(kifu_node_kind_of(n), KIFU_NODE_SPECIAL);
        CHECK_STR(kifu_node_special(n), words[i]);
        kifu_record_free(r);
    }
}

TEST(ending_after_ending_is_chained)
{
    /* Floodgate's entering-king declaration: `%KACHI` with its comment, then the result. */
    kifu_record *r =
        rd("PI\n+\n+7776FU\nT1\n%KACHI,'* -5000 win\nT10\n%KACHI\n'summary:kachi\n");
    CHECK(r != NULL);
    if (!r)
        return;
    CHECK_INT(count_main(r), 3);
    /* `'*` marks a move's comment: the text is what follows the star. */
    CHECK_STR(kifu_node_comment(t_node_at(r, 2), 0), " -5000 win");
    CHECK(t_time(t_node_at(r, 2)) && t_time(t_node_at(r, 2))->now.s == 10);
    CHECK_STR(kifu_node_special(t_node_at(r, 3)), "KACHI");
    CHECK_STR(kifu_node_comment(t_node_at(r, 3), 0), "summary:kachi");
    kifu_record_free(r);
}

TEST(several_games)
{
    const char *text = "V2.2\nN+a\nPI\n+\n+7776FU\n%TORYO\n/\n"
                       "V2.2\nN+b\nPI\n+\n+2726FU\n-8384FU\n%CHUDAN\n/\n"
                       "N+c\n+5756FU\n";
    kifu_read_options o = {KIFU_FMT_CSA, KIFU_ENC_UTF8, KIFU_READ_NO_NORMALIZE,
                           NULL,         NULL,          NULL};
    kifu_record **all = NULL;
    size_t n = 0;
    kifu_error_clear(&err);
    CHECK_INT(kifu_read_all(text, strlen(text), &o, &all, &n, &err), 0);
    CHECK_INT(n, 3);
    if (n == 3) {
        CHECK_STR(kifu_record_header_get(all[0], "先手"), "a");
        CHECK_STR(kifu_record_header_get(all[1], "先手"), "b");
        CHECK_STR(kifu_record_header_get(all[2], "先手"), "c");
        CHECK_INT(count_main(all[0]), 2);
        CHECK_INT(count_main(all[1]), 3);
        CHECK_INT(count_main(all[2]), 1);
        CHECK_INT(t_move(t_node_at(all[2], 1))->to_x, 5);
    }
    for (size_t i = 0; i < n; i++)
        kifu_record_free(all[i]);
    kifu_free(all);
    /* kifu_read gives the first; a trailing `/` adds no empty game. */
    kifu_record *r = rd("N+x\n+7776FU\n/\n");
    CHECK(r && strcmp(kifu_record_header_get(r, "先手"), "x") == 0);
    kifu_record_free(r);
    o.flags = KIFU_READ_NO_NORMALIZE;
    CHECK_INT(kifu_read_all("N+x\n/\n", 6, &o, &all, &n, &err), 0);
    CHECK_INT(n, 1);
    for (size_t i = 0; i < n; i++)
        kifu_record_free(all[i]);
    kifu_free(all);
}

TEST(comments_go_to_root_or_last_move)
{
    kifu_record *r = rd("'encoding=Shift_JIS\n"
                        "' ---- exporter banner ----\n"
                        "V2.2\n"
                        "'対局者名\n"
                        "N+a\n"
                        "PI\n+\n"
                        "'開始時コメント\n"
                        "+7776FU\n"
                        "'*初手コメント\n"
                        "'** 130 7g7f 8c8d\n"
                        "'\n"
                        "-3334FU\n"
                        "%TORYO\n"
                        "'summary:toryo\n");
    CHECK(r != NULL);
    if (!r)
        return;
    kifu_node *root = kifu_record_root(r);
    CHECK_INT(kifu_node_comment_count(root), 3);
    CHECK_STR(kifu_node_comment(root, 0), " ---- exporter banner ----");
    CHECK_STR(kifu_node_comment(root, 1), "対局者名");
    CHECK_STR(kifu_node_comment(root, 2), "開始時コメント");
    CHECK_INT(kifu_node_comment_count(t_node_at(r, 1)), 3);
    CHECK_STR(kifu_node_comment(t_node_at(r, 1), 0), "初手コメント");
    CHECK_STR(kifu_node_comment(t_node_at(r, 1), 1), "* 130 7g7f 8c8d");
    CHECK_STR(kifu_node_comment(t_node_at(r, 1), 2), "");
    CHECK_INT(kifu_node_comment_count(t_node_at(r, 2)), 0);
    CHECK_STR(kifu_node_comment(t_node_at(r, 3), 0), "summary:toryo");
    kifu_record_free(r);
}

TEST(crlf_and_no_final_newline)
{
    kifu_record *r = rd("V2.2\r\nN+a b \r\nPI\r\n+\r\n+7776FU\r\nT5\r\n%TORYO");
    CHECK(r != NULL);
    if (!r)
        return;
    CHECK_STR(kifu_record_header_get(r, "先手"), "a b");
    CHECK_INT(count_main(r), 2);
    CHECK(t_time(t_node_at(r, 1))->now.s == 5);
    kifu_record_free(r);
}

/* Each bad input: the error code, line, column, and what was expected and found. */
static void bad(const char *text, int line, int column, const char *expected,
                const char *found)
{
    kifu_record *r = rd(text);
    CHECK(r == NULL);
    kifu_record_free(r);
    CHECK_INT(err.code, KIFU_ERR_SYNTAX);
    CHECK_INT(err.line, line);
    CHECK_INT(err.column, column);
    CHECK_STR(err.expected, expected);
    CHECK_STR(err.found, found);
    CHECK_STR(err.source, "t.csa");
    CHECK(strstr(err.message, expected) != NULL);
    CHECK(strstr(err.message, found) != NULL);
}

TEST(errors_name_line_column_expected_found)
{
    bad("PI\n+\n+77", 3, 4, "a move like +7776FU (four digits and a piece)",
        "the end of the statement");
    bad("PI\n+\n+7776XX\n", 3, 6,
        "a piece name (FU KY KE GI KI KA HI OU TO NY NK NG UM RY)", "\"XX\"");
    bad("PI\n+\n+7776FU\nT1x\n", 4, 3, "seconds after T (T12 or T12.345)", "\"x\"");
    bad("PI\n+\n+7776FU\nT\n", 4, 2, "seconds after T (T12 or T12.345)",
        "the end of the statement");
    bad("PI\n+\n+0776FU\n", 3, 2, "a square 11..99, or 00 for a drop", "\"07\"");
    bad("PI\n+\n+7700FU\n", 3, 4, "a square 11..99", "\"00\"");
    bad("PI\n+\n+7776FUX\n", 3, 8, "the end of the move", "\"X\"");
    bad("P1-KY-KE-GI-KI-OU-KI-GI-KE\n", 1, 27,
        "9 squares, each \" * \" or a piece like +FU", "the end of the statement");
    bad("P1-KY-KE-GI-KI-OU-KI-GI-KE-KY-KY\n", 1, 30, "the end of the row after 9 squares",
        "\"-KY\"");
    bad("P2 * -HX\n", 1, 7, "a piece name (FU KY KE GI KI KA HI OU TO NY NK NG UM RY)",
        "\"HX\"");
    bad("PI82KA\n", 1, 3, "a piece of the hirate position on its square", "\"82KA\"");
    bad("P+00OU\n", 1, 5, "a piece that can be in hand (FU KY KE GI KI KA HI) or AL",
        "\"OU\"");
    bad("V9.9\n", 1, 1, "V2, V2.1, V2.2 or V3.0", "\"V9.9\"");
    bad("$EVENT\n", 1, 1, "$KEY:value", "\"$EVENT\"");
    bad("PI\n+\nT12\n", 3, 1, "a move before its time", "\"T12\"");
    bad("PI\n+\n+7776FU\nT1\nT2\n", 5, 1, "one time per move", "\"T2\"");
    bad("PI\n+\n+7776FU\n%TORYO\n-3334FU\n", 5, 1,
        "a comment, time, ending or `/` after the game's ending", "\"-3334FU\"");
    bad("PI\n+\n+7776FU\nPI\n", 4, 1, "a move, time, comment or ending", "\"PI\"");
    bad("PI\n+\nX\n", 3, 1, "a CSA statement (V N $ P + - T % ' /)", "\"X\"");
    /* Columns count characters, not bytes. */
    bad("'コメント\n+7776FU,Tあ\n", 2, 10, "seconds after T (T12 or T12.345)", "\"あ\"");
}

TEST(empty_input_holds_no_record)
{
    kifu_record *r = rd("\n\n");
    CHECK(r == NULL);
    CHECK_INT(err.code, KIFU_ERR_SYNTAX);
    kifu_record_free(r);
}

/* ---- writer ---- */

static char warnings[1024];
static int nwarnings;
static void on_warn(void *ctx, const char *msg)
{
    (void)ctx;
    nwarnings++;
    strncat(warnings, msg, sizeof warnings - strlen(warnings) - 2);
    strcat(warnings, "\n");
}

static char *wr(const kifu_record *r, unsigned flags)
{
    kifu_write_options o = {KIFU_FMT_CSA, KIFU_ENC_UTF8, flags, on_warn, NULL};
    warnings[0] = 0;
    nwarnings = 0;
    kifu_error_clear(&err);
    return kifu_write(r, &o, NULL, &err);
}

static kifu_move mv(int color, int fx, int fy, int tx, int ty, int piece, int promote)
{
    return t_move_make(color, fx, fy, tx, ty, piece, 0, promote, -1, "", 0);
}

/* A normalized-looking record: hirate, a few moves with times, comments, a fork. */
static kifu_record *sample(void)
{
    kifu_record *r = kifu_record_new();
    kifu_record_header_add(r, "先手", "羽生");
    kifu_record_header_add(r, "後手", "森内");
    kifu_record_header_add(r, "棋戦", "名人戦");
    kifu_record_header_add(r, "戦型", "矢倉");
    kifu_record_header_add(r, "手合割", "平手");
    kifu_record_header_add(r, "MY_KEY", "v");
    kifu_record_set_preset(r, KIFU_PRESET_HIRATE);
    kifu_node *n = kifu_record_root(r);
    kifu_node_add_comment(r, n, "開始");
    kifu_move m = mv(0, 7, 7, 7, 6, KIFU_FU, -1);
    n = kifu_node_add_move(r, n, &m);
    kifu_move_time t = {{-1, 0, 12, 345}, {0, 0, 12, 345}, 1};
    kifu_node_set_time(r, n, &t);
    kifu_node_add_comment(r, n, "** 130\n二行目");
    kifu_node *fork_parent = n;
    m = mv(1, 3, 3, 3, 4, KIFU_FU, -1);
    n = kifu_node_add_move(r, n, &m);
    m = mv(1, 8, 3, 8, 4, KIFU_FU, -1);
    kifu_node_add_move(r, fork_parent, &m); /* a fork */
    m = mv(0, 8, 8, 2, 2, KIFU_KA, 1);
    m.capture = KIFU_KA;
    n = kifu_node_add_move(r, n, &m);
    m = mv(1, 3, 1, 2, 2, KIFU_GI, -1);
    n = kifu_node_add_move(r, n, &m);
    m = mv(0, 0, 0, 4, 5, KIFU_KA, -1);
    n = kifu_node_add_move(r, n, &m);
    n = kifu_node_add_special(r, n, "TORYO");
    kifu_move_time t2 = {{-1, 1, 5, 0}, {0, 9, 0, 0}, 1};
    kifu_node_set_time(r, n, &t2);
    return r;
}

/* CSA names sides by sign; the record keeps them as 先手/後手 (json-kifu-format's JKF
 * does), but a handicap game's KIF and KI2 call them 下手 (+) and 上手 (-), as every
 * Japanese record of one does (seeds/001: "Handicap records use 上手 / 下手"). An even
 * game keeps 先手/後手. Written back to CSA, they are N+ and N- again. */
TEST(handicap_names_are_uwate_and_shitate)
{
    kifu_record *r = rd("V2.2\nN+佐藤\nN-羽生\nPI11KY\n-\n-3334FU\n+7776FU\n%TORYO\n");
    CHECK(r && kifu_record_preset(r) == KIFU_PRESET_KY);
    CHECK_STR(r ? kifu_record_header_get(r, "先手") : NULL, "佐藤");
    CHECK_STR(r ? kifu_record_header_get(r, "後手") : NULL, "羽生");
    kifu_write_options ko = {KIFU_FMT_KIFU, KIFU_ENC_UTF8, 0, NULL, NULL};
    char *k = r ? kifu_write(r, &ko, NULL, &err) : NULL;
    CHECK(k && strstr(k, "下手：佐藤\n上手：羽生\n") && strstr(k, "まで2手で下手の勝ち"));
    CHECK(k && !strstr(k, "先手") && !strstr(k, "後手"));
    kifu_free(k);
    ko.format = KIFU_FMT_KI2U;
    k = r ? kifu_write(r, &ko, NULL, &err) : NULL;
    CHECK(k && strstr(k, "下手：佐藤\n") && strstr(k, "まで2手で下手の勝ち"));
    kifu_free(k);
    char *c = r ? wr(r, 0) : NULL;
    CHECK(c && strstr(c, "N+佐藤\nN-羽生\n"));
    kifu_free(c);
    kifu_record_free(r);
    r = rd("V2.2\nN+佐藤\nN-羽生\nPI\n+\n+7776FU\n%TORYO\n");
    ko.format = KIFU_FMT_KIFU;
    k = r ? kifu_write(r, &ko, NULL, &err) : NULL;
    CHECK(k && strstr(k, "先手：佐藤\n後手：羽生\n") && strstr(k, "まで1手で先手の勝ち"));
    kifu_free(k);
    kifu_record_free(r);
    /* A KIF of a handicap game that says 先手/後手 keeps its words through CSA's
     * record (the reader of the KIF, not CSA, decides them). */
    const char *kif = "手合割：香落ち\n先手：佐藤\n後手：羽生\n手数----指手--\n"
                      "   1 ３四歩(33)\n   2 投了\n";
    r = t_read_text(kif, strlen(kif), KIFU_FMT_KIFU, 0, &err);
    ko.format = KIFU_FMT_KIFU;
    k = r ? kifu_write(r, &ko, NULL, &err) : NULL;
    CHECK(k && strstr(k, "先手：佐藤\n後手：羽生\n") && strstr(k, "まで1手で後手の勝ち"));
    kifu_free(k);
    kifu_record_free(r);
}

TEST(writer_v22_layout_and_fork_warning)
{
    kifu_record *r = sample();
    char *s = wr(r, 0);
    CHECK(s != NULL);
    if (s) {
        CHECK_STR(s, "V2.2\n"
                     "N+羽生\n"
                     "N-森内\n"
                     "$EVENT:名人戦\n"
                     "$OPENING:矢倉\n"
                     "$MY_KEY:v\n"
                     "PI\n"
                     "+\n"
                     "'開始\n"
                     "+7776FU\n"
                     "T12\n"
                     "'*** 130\n"
                     "'*二行目\n"
                     "-3334FU\n"
                     "+8822UM\n"
                     "-3122GI\n"
                     "+0045KA\n"
                     "%TORYO\n"
                     "T65\n");
    }
    CHECK_INT(nwarnings, 2);
    CHECK(strstr(warnings, "no forks: 1 alternative line was left out") != NULL);
    CHECK(strstr(warnings, "fractions of a second") != NULL);
    kifu_free(s);
    kifu_record_free(r);
}

TEST(writer_v30_decimal_times)
{
    kifu_record *r = sample();
    char *s = wr(r, KIFU_WRITE_CSA_V3);
    CHECK(s != NULL);
    if (s) {
        const char *head = "'CSA encoding=UTF-8\nV3.0\nN+羽生\n";
        CHECK(strncmp(s, head, strlen(head)) == 0);
        CHECK(strstr(s, "+7776FU\nT12.345\n") != NULL);
        CHECK(strstr(s, "%TORYO\nT65\n") != NULL);
    }
    CHECK_INT(nwarnings, 1); /* the fork only */
    kifu_free(s);
    kifu_record_free(r);
}

TEST(writer_handicap_and_explicit_positions)
{
    kifu_record *r = kifu_record_new();
    kifu_record_set_preset(r, KIFU_PRESET_8);
    char *s = wr(r, 0);
    CHECK_STR(s, "V2.2\nPI11KY21KE22KA31GI71GI81KE82HI91KY\n-\n");
    kifu_free(s);
    kifu_record_set_preset(r, KIFU_PRESET_KY);
    s = wr(r, 0);
    CHECK_STR(s, "V2.2\nPI11KY\n-\n");
    kifu_free(s);

    kifu_board b;
    memset(&b, 0, sizeof b);
    b.sq[KIFU_SQ(1, 1)] = KIFU_OU | 16;
    b.sq[KIFU_SQ(2, 3)] = KIFU_TO;
    b.hands[0][KIFU_HI] = 2;
    b.hands[0][KIFU_FU] = 1;
    b.hands[1][KIFU_KE] = 3;
    b.color = KIFU_BLACK;
    kifu_record_set_initial(r, &b);
    s = wr(r, 0);
    CHECK_STR(s, "V2.2\n"
                 "P1 *  *  *  *  *  *  *  * -OU\n"
                 "P2 *  *  *  *  *  *  *  *  * \n"
                 "P3 *  *  *  *  *  *  * +TO * \n"
                 "P4 *  *  *  *  *  *  *  *  * \n"
                 "P5 *  *  *  *  *  *  *  *  * \n"
                 "P6 *  *  *  *  *  *  *  *  * \n"
                 "P7 *  *  *  *  *  *  *  *  * \n"
                 "P8 *  *  *  *  *  *  *  *  * \n"
                 "P9 *  *  *  *  *  *  *  *  * \n"
                 "P+00HI00HI00FU\n"
                 "P-00KE00KE00KE\n"
                 "+\n");
    kifu_free(s);
    kifu_record_free(r);
}

TEST(writer_endings_csa_lacks)
{
    kifu_record *r = kifu_record_new();
    kifu_move m = mv(0, 7, 7, 7, 6, KIFU_FU, -1);
    kifu_node *n = kifu_node_add_move(r, kifu_record_root(r), &m);
    kifu_node_add_special(r, n, "封じ手");
    char *s = wr(r, 0);
    /* the word after %CHUDAN, where readers attach it to the ending */
    CHECK_STR(s, "V2.2\nPI\n+\n+7776FU\n%CHUDAN\n'*封じ手\n");
    CHECK_INT(nwarnings, 1);
    CHECK(strstr(warnings, "%CHUDAN") != NULL);
    kifu_free(s);
    kifu_record_free(r);
}

TEST(writer_refuses_incomplete_moves)
{
    kifu_record *r = kifu_record_new();
    kifu_move m = mv(0, 0, 0, 7, 6, KIFU_FU, -1);
    m.flags = KIFU_MOVE_RAW; /* a KI2 move before normalization: source unknown */
    kifu_node_add_move(r, kifu_record_root(r), &m);
    char *s = wr(r, 0);
    CHECK(s == NULL);
    CHECK_INT(err.code, KIFU_ERR_ARG);
    CHECK(strstr(err.message, "move 1") != NULL);
    kifu_record_free(r);
}

/* Write, read back without normalizing, compare every field CSA holds. */
TEST(writer_reader_round_trip)
{
    kifu_record *r = sample();
    for (int v3 = 0; v3 < 2; v3++) {
        char *s = wr(r, v3 ? KIFU_WRITE_CSA_V3 : 0);
        kifu_record *b = s ? rd(s) : NULL;
        CHECK(b != NULL);
        if (!b) {
            kifu_free(s);
            continue;
        }
        CHECK_STR(kifu_record_header_get(b, "先手"), "羽生");
        CHECK_STR(kifu_record_header_get(b, "棋戦"), "名人戦");
        CHECK_STR(kifu_record_header_get(b, "OPENING"), "矢倉");
        CHECK_STR(kifu_record_header_get(b, "MY_KEY"), "v");
        CHECK_INT(kifu_record_preset(b), KIFU_PRESET_HIRATE);
        CHECK_INT(count_main(b), 6);
        const kifu_node *x = kifu_node_next(kifu_record_root(r)), *y = t_node_at(b, 1);
        for (; x && y; x = kifu_node_next(x), y = kifu_node_next(y)) {
            CHECK_INT(kifu_node_kind_of(x), kifu_node_kind_of(y));
            const kifu_move *p = t_move(x), *q = t_move(y);
            if (p && q) {
                CHECK_INT(p->color, q->color);
                CHECK_INT(p->from_x, q->from_x);
                CHECK_INT(p->to_y, q->to_y);
                CHECK_INT(p->piece | (p->promote == 1 ? 8 : 0), q->piece);
            }
            const kifu_move_time *tx = t_time(x), *ty = t_time(y);
            CHECK((tx == NULL) == (ty == NULL));
            if (tx && ty) {
                CHECK_INT(kifu_time_seconds(&tx->now), kifu_time_seconds(&ty->now));
                CHECK_INT(ty->now.ms, v3 ? tx->now.ms : 0);
            }
        }
        CHECK_STR(kifu_node_comment(t_node_at(b, 1), 1), "二行目");
        kifu_record_free(b);
        kifu_free(s);
    }
    kifu_record_free(r);
}

/* A bad byte after a long ASCII run (the validator's 8-byte fast path) is still found at
 * its exact line and column. */
TEST(invalid_utf8_position)
{
    const char *text = "V2.2\nN+abcdefghijklmnopqrstuvwxyz\xff\n";
    kifu_read_options o = {KIFU_FMT_CSA, KIFU_ENC_UTF8, KIFU_READ_NO_NORMALIZE,
                           "t.csa",      NULL,          NULL};
    kifu_error_clear(&err);
    kifu_record *r = kifu_read(text, strlen(text), &o, &err);
    CHECK(r == NULL);
    CHECK_INT(err.code, KIFU_ERR_ENCODING);
    CHECK_INT(err.line, 2);
    CHECK_INT(err.column, 29);
    CHECK_INT(err.offset, 33);
    kifu_record_free(r);
}

/* A 200 000-move game: read and written without recursion along the line. */
TEST(long_game)
{
    static const char *const cycle[4] = {"+5958OU\n", "-5152OU\n", "+5859OU\n",
                                         "-5251OU\n"};
    size_t n = 200000, cap = 16 + n * 8;
    char *text = malloc(cap);
    CHECK(text != NULL);
    if (!text)
        return;
    strcpy(text, "PI\n+\n");
    char *p = text + strlen(text);
    for (size_t i = 0; i < n; i++, p += 8)
        memcpy(p, cycle[i % 4], 8);
    *p = 0;
    kifu_record *r = rd(text);
    CHECK(r != NULL);
    if (r) {
        CHECK_INT(count_main(r), (int)n);
        char *s = wr(r, 0);
        CHECK(s != NULL);
        /* "V2.2\n" + the input itself */
        CHECK(s && strlen(s) == 5 + strlen(text) && strcmp(s + 5, text) == 0);
        kifu_free(s);
    }
    kifu_record_free(r);
    free(text);
}

/* Every allocation failing in turn: reading and writing end with NOMEM, never crash. */
TEST(out_of_memory_at_every_allocation)
{
    const char *text =
        "'CSA encoding=UTF-8\nV3.0\nN+a\n$EVENT:e\n$X:y\n'c\nP1 * * * * * * * -FU-OU\n"
        "P+00HI\nP-00AL\n+\n'root\n+0013KY,T1.5,'m\n-1112OU\n%TORYO\n/\nPI\n+\n";
    kifu_record *full = rd(text);
    CHECK(full != NULL);
    int ok_reads = 0, ok_writes = 0;
    for (long n = 1; n < 200; n++) {
        kifu__alloc_fail_after(n);
        kifu_record *r = rd(text);
        kifu__alloc_fail_after(0);
        if (r)
            ok_reads++;
        else
            CHECK_INT(err.code, KIFU_ERR_NOMEM);
        kifu_record_free(r);
    }
    for (long n = 1; full && n < 100; n++) {
        kifu__alloc_fail_after(n);
        char *s = wr(full, KIFU_WRITE_CSA_V3);
        kifu__alloc_fail_after(0);
        if (s)
            ok_writes++;
        else
            CHECK_INT(err.code, KIFU_ERR_NOMEM);
        kifu_free(s);
    }
    CHECK(ok_reads > 0); /* the loop went past the last allocation */
    CHECK(ok_writes > 0);
    kifu_record_free(full);
}

/* A line holding one move or one time is read by a shorter way than a line of several
 * statements: both give the same moves and times, whatever the number of digits, the line
 * ending, and with or without a newline at the end of the text. */
TEST(short_way_lines_agree_with_general_lines)
{
    static const char *const secs[] = {"0",   "7",    "59",   "60",   "100",
                                       "999", "1000", "3599", "3600", "123456789"};
    for (size_t i = 0; i < sizeof secs / sizeof secs[0]; i++)
        for (int crlf = 0; crlf < 2; crlf++)
            for (int last = 0; last < 2; last++) {
                const char *nl = crlf ? "\r\n" : "\n";
                char a[256], b[256];
                /* a: each statement on its own line; b: joined by commas. With `last`,
                 * the time closes the text without a newline. */
                snprintf(a, sizeof a, "PI%s+%s+7776FU%sT%s%s%s", nl, nl, nl, secs[i],
                         last ? "" : nl, last ? "" : "-3334FU");
                snprintf(b, sizeof b, "PI%s+%s+7776FU,T%s%s%s", nl, nl, secs[i],
                         last ? "" : nl, last ? "" : "-3334FU");
                kifu_record *ra = rd(a), *rb = rd(b);
                CHECK(ra != NULL);
                CHECK(rb != NULL);
                if (ra && rb) {
                    CHECK_INT(count_main(ra), count_main(rb));
                    const kifu_move_time *ta = t_time(t_node_at(ra, 1));
                    const kifu_move_time *tb = t_time(t_node_at(rb, 1));
                    CHECK(ta && tb);
                    if (ta && tb) {
                        long want = strtol(secs[i], NULL, 10);
                        CHECK_INT(kifu_time_seconds(&ta->now), want);
                        CHECK_INT(ta->now.h, tb->now.h);
                        CHECK_INT(ta->now.m, tb->now.m);
                        CHECK_INT(ta->now.s, tb->now.s);
                        CHECK_INT(ta->now.ms, tb->now.ms);
                        CHECK_INT(ta->has_total, tb->has_total);
                    }
                }
                kifu_record_free(ra);
                kifu_record_free(rb);
            }
    /* Ten digits is an error either way, at the same place. */
    kifu_record *r = rd("PI\n+\n+7776FU\nT1234567890\n");
    CHECK(r == NULL);
    CHECK_INT(err.line, 4);
    CHECK_INT(err.column, 2);
    kifu_record_free(r);
    /* A move line the short way refuses (a bad square) is reported as before. */
    r = rd("PI\n+\n+0176FU\n");
    CHECK(r == NULL);
    CHECK_INT(err.code, KIFU_ERR_SYNTAX);
    CHECK_INT(err.line, 3);
    kifu_record_free(r);
}

/* The reader's letter-pair index names every piece as kifu__csa_names does: each name
 * placed on an empty square of a P-line position reads back as its kind. */
TEST(piece_names_agree_with_the_table)
{
    for (int k = KIFU_FU; k <= KIFU_RY; k++) {
        char text[64];
        snprintf(text, sizeof text, "PI\nP+55%s\n+\n", kifu_piece_csa(k));
        kifu_read_options o = {.format = KIFU_FMT_CSA, .flags = KIFU_READ_NO_NORMALIZE};
        kifu_error_clear(&err);
        kifu_record *r = kifu_read(text, strlen(text), &o, &err);
        CHECK(r != NULL);
        if (!r)
            continue;
        kifu_board b;
        kifu_record_initial(r, &b);
        CHECK_INT(b.sq[KIFU_SQ(5, 5)], k);
        kifu_record_free(r);
    }
}

int main(void)
{
    RUN(piece_names_agree_with_the_table);
    RUN(short_way_lines_agree_with_general_lines);
    RUN(v22_header_moves_and_raw_fields);
    RUN(v30_encoding_line_decimal_times_and_new_keys);
    RUN(v1_without_version_or_position);
    RUN(pi_with_removed_pieces_is_a_preset);
    RUN(board_rows_collapsed_spacing_and_hands);
    RUN(full_board_rows_are_hirate);
    RUN(piece_lines_with_00AL);
    RUN(comma_statements);
    RUN(handicap_names_are_uwate_and_shitate);
    RUN(every_ending);
    RUN(ending_after_ending_is_chained);
    RUN(several_games);
    RUN(comments_go_to_root_or_last_move);
    RUN(crlf_and_no_final_newline);
    RUN(errors_name_line_column_expected_found);
    RUN(empty_input_holds_no_record);
    RUN(writer_v22_layout_and_fork_warning);
    RUN(writer_v30_decimal_times);
    RUN(writer_handicap_and_explicit_positions);
    RUN(writer_endings_csa_lacks);
    RUN(writer_refuses_incomplete_moves);
    RUN(writer_reader_round_trip);
    RUN(out_of_memory_at_every_allocation);
    RUN(invalid_utf8_position);
    RUN(long_game);
    return t_finish();
}
