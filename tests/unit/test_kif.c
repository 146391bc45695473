/* test_kif.c: the KIF reader on records typed in for these tests (raw fields, before
 * normalization), its errors, and the KIF writer's layout and round trip. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "kifu.h"
#include "kifu_private.h"
#include "node_time.h"
#include "testutil.h"
#include "tsume_001.h"

static kifu_error err;

static kifu_record *rd(const char *text)
{
    kifu_record *r =
        t_read_text(text, strlen(text), KIFU_FMT_KIFU, KIFU_READ_NO_NORMALIZE, &err);
    if (!r)
        printf("  read error: %d:%d %s\n", err.line, err.column, err.message);
    return r;
}

TEST(header_keys_in_order_both_colons)
{
    kifu_record *r = rd("# comment line\n"
                        "開始日時：2014/10/16 03:21:41\n"
                        "棋戦:竜王戦\n"
                        "独自の項目：あいう：えお\n"
                        "手合割：平手　　\n"
                        "下手：shitate\n"
                        "上手：uwate\n"
                        "手数----指手---------消費時間--\n");
    CHECK(r != NULL);
    if (!r)
        return;
    CHECK_INT(kifu_record_header_count(r), 6);
    const char *k, *v;
    kifu_record_header_at(r, 1, &k, &v);
    CHECK_STR(k, "棋戦");
    CHECK_STR(v, "竜王戦");
    kifu_record_header_at(r, 2, &k, &v);
    CHECK_STR(k, "独自の項目");
    CHECK_STR(v, "あいう：えお");
    CHECK_STR(kifu_record_header_get(r, "手合割"), "平手　　");
    CHECK_STR(kifu_record_header_get(r, "上手"), "uwate");
    CHECK_INT(kifu_record_preset(r), KIFU_PRESET_HIRATE);
    kifu_record_free(r);
}

TEST(all_seventeen_handicap_names)
{
    const char *names[] = {"平手",       "香落ち",     "右香落ち",   "角落ち",
                           "飛車落ち",   "飛香落ち",   "二枚落ち",   "三枚落ち",
                           "四枚落ち",   "五枚落ち",   "左五枚落ち", "六枚落ち",
                           "左七枚落ち", "右七枚落ち", "八枚落ち",   "十枚落ち"};
    for (int i = 0; i < 16; i++) {
        char text[256];
        snprintf(text, sizeof text, "手合割：%s\n手数----指手--\n   1 ３四歩(33)\n",
                 names[i]);
        kifu_record *r = rd(text);
        CHECK(r != NULL);
        if (!r)
            continue;
        CHECK_INT(kifu_record_preset(r), i);
        /* Handicap games start with gote (上手). */
        CHECK_INT(t_move_at(r, 1)->color, i == 0 ? KIFU_BLACK : KIFU_WHITE);
        kifu_record_free(r);
    }
    /* その他 without a board and unknown names keep the header, start from hirate. */
    kifu_record *r = rd("手合割：詰将棋\n");
    CHECK(r != NULL);
    if (r) {
        CHECK_STR(kifu_record_header_get(r, "手合割"), "詰将棋");
        CHECK_INT(kifu_record_preset(r), KIFU_PRESET_NONE);
        kifu_record_free(r);
    }
}

static const char *bod_text = "手合割：その他　\n"
                              "後手の持駒：飛　金三　銀三　桂二　香三　歩十二\n"
                              "  ９ ８ ７ ６ ５ ４ ３ ２ １\n"
                              "+---------------------------+\n"
                              "| ・ ・ ・ ・ 馬 ・ ・v桂 ・|一\n"
                              "| ・ ・ ・ ・ ・ ・ ・V玉 ・|二\n"
                              "| ・ ・ ・ ・ ・ ・v歩v歩 ・|三\n"
                              "| ・ ・ ・ ・ ・ ・ ・v金v歩|四\n"
                              "| ・ ・ ・ ・ 歩 ・ ・ ・ 歩|五\n"
                              "| ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n"
                              "| ・ ・ ・ ・ ・ ・ ・ ・ ・|七\n"
                              "| ・ ・ ・ ・ ・ ・ ・ ・ ・|八\n"
                              "| ・ 龍 全 圭 杏 と ・ ・ ・|九\n"
                              "+---------------------------+\n"
                              "先手の持駒：なし\n"
                              "後手番\n"
                              "手数----指手---------消費時間--\n"
                              "   1 ３一桂打\n";

TEST(bod_initial_position)
{
    kifu_record *r = rd(bod_text);
    CHECK(r != NULL);
    if (!r)
        return;
    kifu_board b;
    kifu_record_initial(r, &b);
    CHECK_INT(kifu_record_preset(r), KIFU_PRESET_OTHER);
    CHECK_INT(b.color, KIFU_WHITE);
    CHECK_INT(b.sq[KIFU_SQ(5, 1)], KIFU_UM);
    CHECK_INT(b.sq[KIFU_SQ(2, 1)], KIFU_KE | 16);
    CHECK_INT(b.sq[KIFU_SQ(2, 2)], KIFU_OU | 16); /* V marks gote too */
    CHECK_INT(b.sq[KIFU_SQ(1, 5)], KIFU_FU);
    CHECK_INT(b.sq[KIFU_SQ(8, 9)], KIFU_RY);
    CHECK_INT(b.sq[KIFU_SQ(7, 9)], KIFU_NG);
    CHECK_INT(b.sq[KIFU_SQ(6, 9)], KIFU_NK);
    CHECK_INT(b.sq[KIFU_SQ(5, 9)], KIFU_NY);
    CHECK_INT(b.sq[KIFU_SQ(4, 9)], KIFU_TO);
    CHECK_INT(b.hands[1][KIFU_FU], 12);
    CHECK_INT(b.hands[1][KIFU_KY], 3);
    CHECK_INT(b.hands[1][KIFU_KI], 3);
    CHECK_INT(b.hands[1][KIFU_HI], 1);
    CHECK_INT(b.hands[0][KIFU_FU], 0);
    CHECK_INT(t_move_at(r, 1)->color, KIFU_WHITE);
    kifu_record_free(r);
}

TEST(bod_hands_of_uwate_shitate_unseparated)
{
    kifu_record *r = rd("上手の持駒：銀四桂四\n"
                        "  ９ ８ ７ ６ ５ ４ ３ ２ １\n"
                        "+---------------------------+\n"
                        "| ・ ・ ・ ・ ・ ・ ・v歩v玉|一\n"
                        "| ・ ・ ・ ・ ・ ・ ・v歩 ・|二\n"
                        "| ・ ・ ・ ・ ・ ・ ・v歩 ・|三\n"
                        "| ・ ・ ・ ・ ・ ・ ・v歩 ・|四\n"
                        "| ・ ・ ・ ・ ・ ・ ・v歩 ・|五\n"
                        "| ・ ・ ・ ・ ・ ・ ・v歩 ・|六\n"
                        "| ・ ・ ・ ・ ・ ・ ・v歩 ・|七\n"
                        "| ・ ・ ・ ・ ・ ・ ・v歩 ・|八\n"
                        "| ・ ・ ・ ・ ・ ・ ・v歩 ・|九\n"
                        "+---------------------------+\n"
                        "下手の持駒：飛二 香四 歩十八\n"
                        "下手番\n");
    CHECK(r != NULL);
    if (!r)
        return;
    kifu_board b;
    kifu_record_initial(r, &b);
    CHECK_INT(b.color, KIFU_BLACK);
    CHECK_INT(b.hands[1][KIFU_GI], 4);
    CHECK_INT(b.hands[1][KIFU_KE], 4);
    CHECK_INT(b.hands[0][KIFU_HI], 2);
    CHECK_INT(b.hands[0][KIFU_FU], 18);
    kifu_record_free(r);
}

TEST(moves_raw_fields)
{
    kifu_record *r = rd("手数----指手---------消費時間--\n"
                        "   1 ７六歩(77)   ( 0:16/00:00:16)\n"
                        "2 ▲３四歩(33) (0:4/0:0:4)\n"
                        "   3 ２二角成(88) (00:31 / 01:00:31)+\n"
                        "   4 同　銀(31)   (12:03/00:12:07)\n"
                        "   5 ５五角打\n"
                        "   6 同銀(22)\n"
                        "   7 ５三成銀(44)\n"
                        "   8 ４四全(53)\n"
                        "   9 ２三銀不成(34)\n"
                        "  10 １一竜(21)\n"
                        "  11 １二龍(11)\n"
                        "  12 ５五杏(56)\n"
                        "  13 ５五圭(56)\n"
                        "  14 ５九王(51)\n");
    CHECK(r != NULL);
    if (!r)
        return;
    const kifu_move *m = t_move_at(r, 1);
    CHECK_INT(m->from_x, 7);
    CHECK_INT(m->from_y, 7);
    CHECK_INT(m->to_x, 7);
    CHECK_INT(m->to_y, 6);
    CHECK_INT(m->piece, KIFU_FU);
    CHECK_INT(m->promote, -1);
    CHECK_INT(m->color, KIFU_BLACK);
    CHECK(m->flags & KIFU_MOVE_RAW);
    const kifu_move_time *t = t_time(t_node_at(r, 1));
    CHECK(t != NULL);
    if (t) {
        CHECK_INT(t->now.h, -1);
        CHECK_INT(t->now.m, 0);
        CHECK_INT(t->now.s, 16);
        CHECK_INT(t->total.h, 0);
        CHECK_INT(t->total.s, 16);
        CHECK_INT(t->has_total, 1);
    }
    m = t_move_at(r, 2);
    CHECK_INT(m->color, KIFU_BLACK); /* the mark wins over the move number */
    CHECK(!(m->flags & KIFU_MOVE_NO_COLOR));
    t = t_time(t_node_at(r, 2));
    CHECK(t && t->now.s == 4 && kifu_time_seconds(&t->total) == 4);
    m = t_move_at(r, 3);
    CHECK_INT(m->promote, 1);
    CHECK_INT(m->piece, KIFU_KA);
    t = t_time(t_node_at(r, 3));
    CHECK(t && kifu_time_seconds(&t->now) == 31 && kifu_time_seconds(&t->total) == 3631);
    CHECK(t && t->total.h == 1);
    m = t_move_at(r, 4);
    CHECK_INT(m->same, 1);
    CHECK_INT(m->to_x, 2); /* 同 takes the square of the move before */
    CHECK_INT(m->to_y, 2);
    CHECK_INT(m->from_x, 3);
    t = t_time(t_node_at(r, 4));
    CHECK(t && t->now.m == 12 && t->now.s == 3);
    m = t_move_at(r, 5);
    CHECK(m->flags & KIFU_MOVE_DROP);
    CHECK_INT(m->from_x, 0);
    CHECK_INT(m->piece, KIFU_KA);
    CHECK_INT(t_move_at(r, 6)->same, 1);
    CHECK_INT(t_move_at(r, 6)->piece, KIFU_GI);
    CHECK_INT(t_move_at(r, 7)->piece, KIFU_NG);
    CHECK_INT(t_move_at(r, 8)->piece, KIFU_NG);
    CHECK_INT(t_move_at(r, 9)->promote, 0);
    CHECK_INT(t_move_at(r, 10)->piece, KIFU_RY);
    CHECK_INT(t_move_at(r, 11)->piece, KIFU_RY);
    CHECK_INT(t_move_at(r, 12)->piece, KIFU_NY);
    CHECK_INT(t_move_at(r, 13)->piece, KIFU_NK);
    CHECK_INT(t_move_at(r, 14)->piece, KIFU_OU);
    kifu_record_free(r);
}

/* Times with the total left out, as some programs write them: read, the total summed. */
TEST(times_without_total)
{
    const char *text = "手数----指手---------消費時間--\n"
                       "   1 ７六歩(77)   ( 0:7/)\n"
                       "   2 ３四歩(33)   (00:07/)\n"
                       "   3 ２六歩(27)   (1:02/ )\n";
    kifu_record *r = t_read_text(text, strlen(text), KIFU_FMT_KIFU, 0, &err);
    CHECK(r != NULL);
    if (!r) {
        printf("  %s\n", err.message);
        return;
    }
    long now[] = {7, 7, 62}, total[] = {7, 7, 69};
    for (int i = 0; i < 3; i++) {
        const kifu_move_time *t = t_time(t_node_at(r, i + 1));
        CHECK(t && kifu_time_seconds(&t->now) == now[i] &&
              kifu_time_seconds(&t->total) == total[i]);
    }
    kifu_record_free(r);
}

TEST(ending_words)
{
    static const struct {
        const char *word, *special;
    } cases[] = {
        {"中断", "CHUDAN"},
        {"投了", "TORYO"},
        {"持将棋", "JISHOGI"},
        {"千日手", "SENNICHITE"},
        {"詰み", "TSUMI"},
        {"詰", "TSUMI"},
        {"不詰", "FUZUMI"},
        {"切れ負け", "TIME_UP"},
        /* the side to move lost by a foul (the KIF spec), as json-kifu-format reads it */
        {"反則負け", "ILLEGAL_MOVE"},
        {"入玉勝ち", "KACHI"},
        {"封じ手", "封じ手"}, /* no JKF special holds it: kept as the word */
        {"不戦勝", "不戦勝"},
        {"不戦敗", "不戦敗"},
        {"謎の終局", "謎の終局"},
        /* after sente's move: sente acted illegally (the corpus's fork.kif) */
        {"反則勝ち", "+ILLEGAL_ACTION"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[256];
        snprintf(text, sizeof text,
                 "   1 ７六歩(77)\n   2 %s         ( 0:00/00:00:01)\nまで1手で何か\n",
                 cases[i].word);
        kifu_record *r = rd(text);
        CHECK(r != NULL);
        if (!r)
            continue;
        const kifu_node *n = t_node_at(r, 2);
        CHECK_STR(kifu_node_special(n), cases[i].special);
        CHECK(t_time(n) != NULL);
        CHECK(kifu_node_next(n) == NULL); /* the まで summary adds nothing */
        kifu_record_free(r);
    }
    kifu_record *r = rd("   1 ７六歩(77)\n   2 ３四歩(33)\n   3 反則勝ち\n");
    CHECK(r && strcmp(kifu_node_special(t_node_at(r, 3)), "-ILLEGAL_ACTION") == 0);
    kifu_record_free(r);
}

TEST(comments_bookmarks_and_branches)
{
    kifu_record *r = rd("手数----指手---------消費時間--\n"
                        "*開始局面\n"
                        "&最初\n"
                        "   1 ７六歩(77)   +\n"
                        "*初手\n"
                        "**解析\n"
                        "   2 ３四歩(33)   +\n"
                        "   3 ２二角成(88) +\n"
                        "   4 同　銀(31)\n"
                        "   5 投了\n"
                        "*終局コメント\n"
                        "まで4手で先手の勝ち\n"
                        "\n"
                        "変化：3手\n"
                        "   3 ２六歩(27)   +\n"
                        "   4 ８四歩(83)\n"
                        "\n"
                        "変化：3手\n"
                        "   3 ６八銀(79)\n"
                        "\n"
                        "変化：2手\n"
                        "   2 ８四歩(83)\n"
                        "\n"
                        "変化：1手\n"
                        "   1 ２六歩(27)\n"
                        "&分岐\n");
    CHECK(r != NULL);
    if (!r)
        return;
    const kifu_node *root = kifu_record_root(r);
    CHECK_INT(kifu_node_comment_count(root), 1);
    CHECK_STR(kifu_node_comment(root, 0), "開始局面");
    CHECK_STR(kifu_node_bookmark(root, 0), "最初");
    CHECK_INT(kifu_node_child_count(root), 2);
    const kifu_node *n1 = t_node_at(r, 1);
    CHECK_INT(kifu_node_comment_count(n1), 2);
    CHECK_STR(kifu_node_comment(n1, 1), "*解析");
    const kifu_node *n2 = t_node_at(r, 2);
    CHECK_INT(kifu_node_child_count(n2), 3); /* ２二角成, ２六歩, ６八銀 */
    CHECK_INT(t_move(kifu_node_child(n2, 1))->to_y, 6);
    CHECK_INT(t_move(kifu_node_child(n2, 2))->to_x, 6);
    CHECK_INT(kifu_node_child_count(n1), 2);
    CHECK_STR(kifu_node_comment(t_node_at(r, 5), 0), "終局コメント");
    const kifu_node *alt1 = kifu_node_child(root, 1);
    CHECK_STR(kifu_node_bookmark(alt1, 0), "分岐");
    kifu_record_free(r);
}

TEST(branch_starting_with_same)
{
    kifu_record *r = rd("   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２二角成(88) +\n"
                        "   4 同　銀(31)   +\n   5 中断\n\n変化：4手\n   4 同　飛(82)\n");
    CHECK(r != NULL);
    if (!r)
        return;
    const kifu_node *n3 = t_node_at(r, 3);
    CHECK_INT(kifu_node_child_count(n3), 2);
    const kifu_move *m = t_move(kifu_node_child(n3, 1));
    CHECK_INT(m->same, 1);
    CHECK_INT(m->to_x, 2);
    CHECK_INT(m->to_y, 2);
    CHECK_INT(m->piece, KIFU_HI);
    kifu_record_free(r);
}

TEST(errors_name_line_and_column)
{
    kifu_read_options o = {0};
    o.format = KIFU_FMT_KIFU;
    o.flags = KIFU_READ_NO_NORMALIZE;
    const char *t1 = "手合割：平手\n   1 ７六歩(77)\n   2 ３Ｘ歩(33)\n";
    kifu_error_clear(&err);
    CHECK(kifu_read(t1, strlen(t1), &o, &err) == NULL);
    CHECK_INT(err.code, KIFU_ERR_SYNTAX);
    CHECK_INT(err.line, 3);
    CHECK_INT(err.column, 7);
    const char *t2 = "   1 ７六歩(77)\n\n変化：5手\n   5 ２六歩(27)\n";
    kifu_error_clear(&err);
    CHECK(kifu_read(t2, strlen(t2), &o, &err) == NULL);
    CHECK_INT(err.line, 3);
    const char *t3 = "   1 ７六歩(77)   ( 0:1x/00:00:01)\n";
    kifu_error_clear(&err);
    CHECK(kifu_read(t3, strlen(t3), &o, &err) == NULL);
    CHECK_INT(err.line, 1);
    CHECK_INT(err.column, 16);
    const char *t4 = "| ・ ・ ・ ・ ・ ・ ・v歩v玉|一\n| ・ ・ ・ ・ ・ ・ ・v歩 Ｘ|二\n";
    kifu_error_clear(&err);
    CHECK(kifu_read(t4, strlen(t4), &o, &err) == NULL);
    CHECK_INT(err.line, 2);
    CHECK_INT(err.column, 19); /* the Ｘ after the space of file 1 */
    const char *t5 = "なんでもない行\n";
    kifu_error_clear(&err);
    CHECK(kifu_read(t5, strlen(t5), &o, &err) == NULL);
    CHECK_INT(err.code, KIFU_ERR_SYNTAX);
}

static char *wr(const kifu_record *r, int format, int enc)
{
    char *s = t_write_as(r, format, enc, NULL, &err);
    if (!s)
        printf("  write error: %s\n", err.message);
    return s;
}

TEST(writer_layout)
{
    kifu_record *r = rd("手合割：平手\n先手：A\n後手：B\n"
                        "   1 ７六歩(77) ( 0:02/00:00:02)+\n*初手\n"
                        "   2 ３四歩(33) ( 0:01/00:00:01)\n"
                        "   3 ２二角成(88) ( 0:01/00:00:03)\n"
                        "   4 同　銀(31) (10:00/00:10:01)\n"
                        "   5 ５五角打 ( 0:01/00:00:04)\n"
                        "   6 投了 ( 0:01/00:10:02)\n"
                        "変化：1手\n   1 ２六歩(27) ( 0:05/00:00:05)\n");
    CHECK(r != NULL);
    if (!r)
        return;
    char *s = wr(r, KIFU_FMT_KIFU, KIFU_ENC_AUTO);
    CHECK(s != NULL);
    if (s) {
        CHECK_STR(s, "#KIF version=2.0 encoding=UTF-8\n"
                     "手合割：平手\n先手：A\n後手：B\n"
                     "手数----指手---------消費時間--\n"
                     "   1 ７六歩(77)   ( 0:02/00:00:02)+\n"
                     "*初手\n"
                     "   2 ３四歩(33)   ( 0:01/00:00:01)\n"
                     "   3 ２二角成(88) ( 0:01/00:00:03)\n"
                     "   4 同　銀(31)   (10:00/00:10:01)\n"
                     "   5 ５五角打     ( 0:01/00:00:04)\n"
                     "   6 投了         ( 0:01/00:10:02)\n"
                     "まで5手で先手の勝ち\n"
                     "\n"
                     "変化：1手\n"
                     "   1 ２六歩(27)   ( 0:05/00:00:05)\n");
        kifu_free(s);
    }
    kifu_record_free(r);
}

TEST(writer_notes_promotion_only)
{
    /* The KIF spec writes 成 for a promotion and nothing for a declined one. */
    const char *text = "手数----指手---------消費時間--\n"
                       "   1 ７六歩(77)\n"
                       "   2 ３四歩(33)\n"
                       "   3 ２二角不成(88)\n"
                       "   4 同　銀(31)\n";
    kifu_record *r = t_read_text(text, strlen(text), KIFU_FMT_KIFU, 0, &err);
    CHECK(r != NULL);
    if (!r)
        return;
    CHECK_INT(t_move_at(r, 3)->promote, 0);
    char *out = wr(r, KIFU_FMT_KIFU, KIFU_ENC_UTF8);
    CHECK(out != NULL);
    if (out) {
        CHECK(strstr(out, "２二角(88)") != NULL);
        CHECK(strstr(out, "不成") == NULL);
        kifu_record *back = t_read_text(out, strlen(out), KIFU_FMT_KIFU, 0, &err);
        CHECK(back != NULL);
        if (back) {
            CHECK_INT(t_move_at(back, 3)->promote, 0);
            kifu_record_free(back);
        }
    }
    kifu_free(out);
    kifu_record_free(r);
}

TEST(writer_round_trip_keeps_everything)
{
    const char *texts[] = {
        bod_text,
        "開始日時：2014/10/16 03:21:41\n手合割：香落ち\n上手：u\n下手：s\n盤面回転\n"
        "手数----指手---------消費時間--\n*開始\n&しおり\n"
        "   1 ３四歩(33)   ( 0:02/00:00:02)+\n*a\n*b\n"
        "   2 ７六歩(77)   ( 0:01/00:00:01)+\n   3 ２二角成(88) +\n   4 同　銀(31)\n"
        "   5 反則勝ち\n\n変化：3手\n   3 ４四歩(43)\n   4 不戦敗\n"
        "変化：2手\n   2 ２六歩(27)\n\n変化：1手\n   1 ８四歩(83)\n   2 封じ手\n",
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        kifu_record *a = rd(texts[i]);
        CHECK(a != NULL);
        if (!a)
            continue;
        char *s = wr(a, KIFU_FMT_KIF, KIFU_ENC_UTF8);
        kifu_record *b = s ? rd(s) : NULL;
        CHECK(b != NULL);
        if (b) {
            char *da = t_dump(a), *db = t_dump(b);
            CHECK_STR(db, da);
            free(da);
            free(db);
        }
        kifu_free(s);
        kifu_record_free(a);
        kifu_record_free(b);
    }
}

/* Text holding line breaks (from JKF or the API) stays readable: a comment becomes one
 * `*` line per line, a header value or bookmark one line (fuzz_tree found a KIF that
 * kifu wrote and could not read). */
TEST(writer_puts_line_breaks_of_text_on_lines_of_their_own)
{
    kifu_record *a = rd("先手：a\n   1 ７六歩(77)\n");
    CHECK(a != NULL);
    if (!a)
        return;
    kifu_node *root = kifu_record_root(a);
    CHECK(kifu_node_add_comment(a, root, "a\nb") == 0);
    CHECK(kifu_node_add_comment(a, root, "c\rd\r\ne") == 0);
    CHECK(kifu_node_add_bookmark(a, kifu_node_next(root), "p\nq") == 0);
    CHECK(kifu_record_header_set(a, "棋戦", "x\r\ny") == 0);
    static const int formats[] = {KIFU_FMT_KIF, KIFU_FMT_KI2, KIFU_FMT_CSA};
    for (size_t f = 0; f < 3; f++) {
        char *s = wr(a, formats[f], KIFU_ENC_UTF8);
        CHECK(s != NULL);
        kifu_read_options ro = {formats[f], KIFU_ENC_UTF8, 0, NULL, NULL, NULL};
        kifu_error e2;
        kifu_error_clear(&e2);
        kifu_record *b = s ? kifu_read(s, strlen(s), &ro, &e2) : NULL;
        CHECK(b != NULL);
        if (b) {
            kifu_node *r2 = kifu_record_root(b);
            CHECK(kifu_node_comment_count(r2) == 5);
            if (kifu_node_comment_count(r2) == 5) {
                CHECK_STR(kifu_node_comment(r2, 1), "b");
                CHECK_STR(kifu_node_comment(r2, 4), "e");
            }
            CHECK_STR(kifu_record_header_get(b, "棋戦"), "x y");
            CHECK(kifu_node_bookmark_count(kifu_node_next(r2)) == 1);
            if (kifu_node_bookmark_count(kifu_node_next(r2)) == 1)
                CHECK_STR(kifu_node_bookmark(kifu_node_next(r2), 0), "p q");
        }
        kifu_free(s);
        kifu_record_free(b);
    }
    kifu_record_free(a);
}

TEST(writer_encodes_cp932_and_refuses_what_it_cannot_hold)
{
    kifu_record *r = rd("先手：羽生善治\n   1 ７六歩(77)\n");
    CHECK(r != NULL);
    if (!r)
        return;
    kifu_write_options w = {0};
    w.format = KIFU_FMT_KIF;
    size_t len = 0;
    kifu_error_clear(&err);
    char *s = kifu_write(r, &w, &len, &err);
    CHECK(s != NULL);
    if (s) {
        CHECK(strstr(s, "encoding=Shift_JIS") != NULL);
        /* 先手 in CP932 is 90 E6 8E E8. */
        CHECK(strstr(s, "\x90\xe6\x8e\xe8") != NULL);
        kifu_free(s);
    }
    kifu_record_header_set(r, "先手", "🐉");
    kifu_error_clear(&err);
    s = kifu_write(r, &w, &len, &err);
    CHECK(s == NULL);
    CHECK_INT(err.code, KIFU_ERR_ENCODING);
    CHECK_INT(err.line, 2);
    kifu_free(s);
    kifu_record_free(r);
}

/* The tsume sample of seeds/001 as it prints it: its header 手数:33 is the problem's
 * length, not a move number. */
static const char tsume_001[] = "作者：二代伊藤宗印\n"
                                "出典：将棋精妙\n"
                                "作品番号：1\n"
                                "手数：33\n"
                                "完全性：余詰\n"
                                "後手の持駒：金四 銀二 香三 歩十三 \n" /* the board */
    TSUME_001_BOARD "先手の持駒：なし\n";

static int number_warnings;
static void on_number_warn(void *ctx, const char *msg)
{
    (void)ctx;
    number_warnings += strstr(msg, "no move number") && strstr(msg, "move 6") ? 1 : 0;
}

/* A BOD's 手数＝N (the moves played before it, `手数＝171  ▲６二角成  まで` in Kifu for
 * Windows' files) is the record's start number N + 1; the KIF and KI2 writers put it
 * back, and a SFEN's move number goes through them. */
TEST(bod_move_count_is_the_start_number)
{
    kifu_record *r = rd(tsume_001);
    CHECK(r != NULL);
    CHECK_INT(r ? kifu_record_start_number(r) : 0, 1);
    CHECK_STR(r ? kifu_record_header_get(r, "手数") : NULL, "33");
    kifu_record_free(r);
    size_t len = strlen(tsume_001);
    char *text = malloc(len + 128);
    memcpy(text, tsume_001, len);
    strcpy(text + len, "手数＝171  ▲６二角成  まで\n\n後手番\n");
    r = rd(text);
    free(text);
    CHECK_INT(r ? kifu_record_start_number(r) : 0, 172);
    char *k = r ? wr(r, KIFU_FMT_KIFU, KIFU_ENC_UTF8) : NULL;
    CHECK(k && strstr(k, "先手の持駒：なし\n手数＝171\n後手番\n"));
    kifu_record *back = k ? rd(k) : NULL;
    CHECK_INT(back ? kifu_record_start_number(back) : 0, 172);
    kifu_record_free(back);
    kifu_free(k);
    kifu_record_free(r);
    /* A SFEN that starts at move 6, from the even position: KIF and KI2 write a BOD
     * for it, read back as the same SFEN. */
    const char *sfen = "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/"
                       "LNSGKGSNL w - 6 moves 3c3d\n";
    r = t_read_text(sfen, strlen(sfen), KIFU_FMT_SFEN, 0, &err);
    CHECK_INT(r ? kifu_record_start_number(r) : 0, 6);
    static const int formats[] = {KIFU_FMT_KIFU, KIFU_FMT_KI2U};
    for (int f = 0; f < 2 && r; f++) {
        char *out = wr(r, formats[f], KIFU_ENC_UTF8);
        CHECK(out && strstr(out, "手数＝5\n"));
        kifu_record *b = out ? t_read_text(out, strlen(out), formats[f], 0, &err) : NULL;
        char *again = b ? wr(b, KIFU_FMT_SFEN, KIFU_ENC_UTF8) : NULL;
        CHECK_STR(again, sfen);
        kifu_free(again);
        kifu_record_free(b);
        kifu_free(out);
    }
    /* CSA and JKF have no place for it: they say so, once each. */
    for (int f = 0; f < 2 && r; f++) {
        kifu_write_options wo = {.format = f ? KIFU_FMT_JKF : KIFU_FMT_CSA,
                                 .warn = on_number_warn};
        number_warnings = 0;
        char *out = kifu_write(r, &wo, NULL, &err);
        CHECK(out != NULL);
        CHECK_INT(number_warnings, 1);
        kifu_free(out);
    }
    kifu_record_free(r);
}

static char *jkf_of(const char *text, size_t len, int format)
{
    kifu_record *r = t_read_text(text, len, format, 0, &err);
    if (!r) {
        printf("  read error: %d:%d %s\n", err.line, err.column, err.message);
        return NULL;
    }
    char *s = t_write_as(r, KIFU_FMT_JKF, 0, NULL, &err);
    kifu_record_free(r);
    return s;
}

/* Our own legal records: KIF -> JKF equals KIF -> KIF -> JKF (normalized: every move,
 * comment, bookmark, time and branch survives our writer). */
TEST(kif_jkf_kif_jkf_round_trip)
{
    const char *texts[] = {
        "開始日時：2026/11/21 10:00:00\n手合割：平手\n先手：A\n後手：B\n"
        "手数----指手---------消費時間--\n*開始局面\n&しおり\n"
        "   1 ７六歩(77)   ( 0:05/00:00:05)\n"
        "   2 ３四歩(33)   ( 0:03/00:00:03)\n"
        "   3 ２二角成(88) ( 0:10/00:00:15)+\n*角交換\n"
        "   4 同　銀(31)   ( 0:04/00:00:07)+\n"
        "   5 ４五角打     ( 0:20/00:00:35)\n"
        "   6 投了         ( 0:01/00:00:08)\n"
        "まで5手で先手の勝ち\n\n"
        "変化：4手\n   4 同　飛(82)   ( 0:01/00:00:04)\n   5 ６八銀(79)   ( "
        "0:01/00:00:16)\n"
        "\n変化：3手\n   3 ２六歩(27)   ( 0:07/00:00:12)+\n   4 ８四歩(83)   ( "
        "0:02/00:00:05)\n"
        "\n変化：3手\n   3 ６八銀(79)   ( 0:07/00:00:12)\n",
        "手合割：香落ち\n上手：u\n下手：s\n"
        "   1 ３四歩(33)\n   2 ７六歩(77)\n   3 ８八角成(22)\n   4 同　銀(79)\n   5 "
        "反則勝ち\n",
        bod_text,
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        char *j1 = jkf_of(texts[i], strlen(texts[i]), KIFU_FMT_KIFU);
        if (!j1 && err.code == KIFU_ERR_UNSUPPORTED)
            SKIP("the normalizer or JKF writer is not in this build: %s", err.message);
        CHECK(j1 != NULL);
        kifu_record *r = rd(texts[i]);
        char *kif = r ? wr(r, KIFU_FMT_KIFU, KIFU_ENC_AUTO) : NULL;
        char *j2 = kif ? jkf_of(kif, strlen(kif), KIFU_FMT_KIFU) : NULL;
        CHECK(j2 != NULL);
        if (j1 && j2)
            CHECK_STR(j2, j1);
        kifu_free(j1);
        kifu_free(j2);
        kifu_free(kif);
        kifu_record_free(r);
    }
}

/* Every allocation failing in turn: reading and writing fail cleanly (NOMEM), never
 * crash or leak (the sanitizer build checks leaks). */
TEST(out_of_memory_everywhere)
{
    kifu_read_options o = {0};
    o.format = KIFU_FMT_KIFU;
    o.flags = KIFU_READ_NO_NORMALIZE;
    const char *text = bod_text;
    int succeeded = 0;
    for (long n = 1; n < 400 && !succeeded; n++) {
        kifu__alloc_fail_after(n);
        kifu_error e;
        kifu_error_clear(&e);
        kifu_record *r = kifu_read(text, strlen(text), &o, &e);
        char *s = NULL;
        if (r) {
            kifu_write_options w = {0};
            w.format = KIFU_FMT_KIF;
            s = kifu_write(r, &w, NULL, &e);
            succeeded = s != NULL;
        }
        kifu__alloc_fail_after(0);
        if (!succeeded)
            CHECK_INT(e.code, KIFU_ERR_NOMEM);
        kifu_free(s);
        kifu_record_free(r);
    }
    CHECK(succeeded);
}

/* 30000 forks each nested in the one before: the writers walk them without recursion and
 * the reader finds every branch point again. */
TEST(deeply_nested_forks)
{
    kifu_record *r = kifu_record_new();
    kifu_move m;
    memset(&m, 0, sizeof m);
    m.from_x = 7, m.from_y = 7, m.to_x = 7, m.to_y = 6, m.piece = KIFU_FU;
    m.promote = -1, m.same = -1, m.flags = KIFU_MOVE_RAW;
    kifu_node *n = kifu_node_add_move(r, kifu_record_root(r), &m);
    kifu_node *a = kifu_node_add_move(r, n, &m);
    kifu_node_add_move(r, a, &m);
    for (int d = 0; d < 30000 && a; d++) {
        m.color = (uint8_t)((kifu_node_ply(a) + 1) & 1 ? KIFU_BLACK : KIFU_WHITE);
        kifu_node *alt = kifu_node_add_move(r, kifu_node_parent(kifu_node_next(a)), &m);
        a = alt ? kifu_node_add_move(r, alt, &m) : NULL;
        if (a)
            kifu_node_add_move(r, a, &m);
    }
    size_t nodes = kifu_record_node_count(r);
    for (int f = 0; f < 2; f++) {
        char *s = wr(r, f ? KIFU_FMT_KI2U : KIFU_FMT_KIFU, KIFU_ENC_UTF8);
        CHECK(s != NULL);
        kifu_read_options o = {0};
        o.format = f ? KIFU_FMT_KI2U : KIFU_FMT_KIFU;
        o.flags = KIFU_READ_NO_NORMALIZE;
        kifu_record *b = s ? kifu_read(s, strlen(s), &o, &err) : NULL;
        CHECK(b != NULL);
        if (b)
            CHECK_INT(kifu_record_node_count(b), nodes);
        kifu_record_free(b);
        kifu_free(s);
    }
    kifu_record_free(r);
}

int main(void)
{
    RUN(header_keys_in_order_both_colons);
    RUN(all_seventeen_handicap_names);
    RUN(bod_initial_position);
    RUN(bod_hands_of_uwate_shitate_unseparated);
    RUN(moves_raw_fields);
    RUN(ending_words);
    RUN(times_without_total);
    RUN(comments_bookmarks_and_branches);
    RUN(branch_starting_with_same);
    RUN(errors_name_line_and_column);
    RUN(writer_layout);
    RUN(writer_notes_promotion_only);
    RUN(writer_round_trip_keeps_everything);
    RUN(writer_puts_line_breaks_of_text_on_lines_of_their_own);
    RUN(writer_encodes_cp932_and_refuses_what_it_cannot_hold);
    RUN(kif_jkf_kif_jkf_round_trip);
    RUN(out_of_memory_everywhere);
    RUN(deeply_nested_forks);
    RUN(bod_move_count_is_the_start_number);
    return t_finish();
}
