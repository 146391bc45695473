/* test_ki2.c: the KI2 reader (moves several per line, relative words, 同, 打, まで endings)
 * and writer; with the normalizer in the build, each relative word resolved in the
 * position that needs it and written back as the minimal word. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "kifu.h"
#include "kifu_private.h"
#include "testutil.h"

static kifu_error err;

static kifu_record *rd(const char *text, unsigned flags)
{
    kifu_record *r = t_read_text(text, strlen(text), KIFU_FMT_KI2U, flags, &err);
    if (!r && err.code != KIFU_ERR_UNSUPPORTED && err.code != KIFU_ERR_NOMEM)
        printf("  read error: %d:%d %s\n", err.line, err.column, err.message);
    return r;
}

TEST(moves_per_line_and_marks)
{
    kifu_record *r = rd("開始日時：2009/12/03\n"
                        "先手：A\n\n"
                        "*放送日\n"
                        "▲７六歩 △８四歩　▲６八銀△３四歩\n"
                        "☗６六歩    ☖６二銀    ▽５四銀\n",
                        KIFU_READ_NO_NORMALIZE);
    CHECK(r != NULL);
    if (!r)
        return;
    CHECK_STR(kifu_node_comment(kifu_record_root(r), 0), "放送日");
    CHECK_INT(t_move_at(r, 1)->to_x, 7);
    CHECK_INT(t_move_at(r, 1)->to_y, 6);
    CHECK_INT(t_move_at(r, 1)->color, KIFU_BLACK);
    CHECK_INT(t_move_at(r, 4)->color, KIFU_WHITE);
    CHECK_INT(t_move_at(r, 5)->color, KIFU_BLACK);
    CHECK_INT(t_move_at(r, 6)->color, KIFU_WHITE);
    CHECK_INT(t_move_at(r, 7)->color, KIFU_WHITE); /* ▽ */
    CHECK_INT(t_move_at(r, 7)->piece, KIFU_GI);
    CHECK_INT(t_move_at(r, 1)->from_x, 0);
    CHECK(t_move_at(r, 1)->flags & KIFU_MOVE_RAW);
    kifu_record_free(r);
}

TEST(relative_words_same_drop_promote)
{
    kifu_record *r = rd("▲５七銀右 △同　銀 ▲同銀引 △６七金右上 ▲５八金寄 △５二金直\n"
                        "▲５五角打 △同角成 ▲１二香不成 △３三桂生 ▲２三歩成 △４四銀左引\n"
                        "▲５五銀行 △５五銀入\n",
                        KIFU_READ_NO_NORMALIZE);
    CHECK(r != NULL);
    if (!r)
        return;
    CHECK_STR(t_move_at(r, 1)->relative, "R");
    CHECK_INT(t_move_at(r, 2)->same, 1);
    CHECK_INT(t_move_at(r, 2)->to_x, 5);
    CHECK_INT(t_move_at(r, 2)->to_y, 7);
    CHECK_STR(t_move_at(r, 2)->relative, "");
    CHECK_STR(t_move_at(r, 3)->relative, "D");
    CHECK_STR(t_move_at(r, 4)->relative, "RU");
    CHECK_STR(t_move_at(r, 5)->relative, "M");
    CHECK_STR(t_move_at(r, 6)->relative, "C");
    CHECK_STR(t_move_at(r, 7)->relative, "H");
    CHECK(t_move_at(r, 7)->flags & KIFU_MOVE_DROP);
    CHECK_INT(t_move_at(r, 8)->promote, 1);
    CHECK_INT(t_move_at(r, 8)->piece, KIFU_KA);
    CHECK_INT(t_move_at(r, 9)->promote, 0);
    CHECK_INT(t_move_at(r, 10)->promote, 0);
    CHECK_INT(t_move_at(r, 11)->promote, 1);
    CHECK_STR(t_move_at(r, 12)->relative, "LD");
    CHECK_STR(t_move_at(r, 13)->relative, "U");
    CHECK_STR(t_move_at(r, 14)->relative, "U");
    kifu_record_free(r);
}

TEST(endings_from_made_lines)
{
    static const struct {
        const char *line, *special;
        int moves;
    } cases[] = {
        {"まで3手で先手の勝ち", "TORYO", 3},
        {"まで3手で中断", "CHUDAN", 3},
        {"まで3手で持将棋", "JISHOGI", 3},
        {"まで3手で千日手", "SENNICHITE", 3},
        {"まで3手で時間切れにより先手の勝ち", "TIME_UP", 3},
        {"まで3手で後手の反則勝ち", "+ILLEGAL_ACTION", 3},
        {"まで2手で先手の反則勝ち", "-ILLEGAL_ACTION", 2},
        /* the side named says who acted illegally, whatever the ply */
        {"まで2手で先手の反則負け", "ILLEGAL_MOVE", 2},
        {"まで3手で先手の反則負け", "+ILLEGAL_ACTION", 3},
        {"まで3手で反則負け", "ILLEGAL_MOVE", 3},
        {"まで3手で詰", "TSUMI", 3},
        {"まで3手詰", "TSUMI", 3},
        {"まで3手で不詰", "FUZUMI", 3},
        {"まで3手で先手の入玉勝ち", "KACHI", 3},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[256];
        snprintf(text, sizeof text, "%s\n%s\n",
                 cases[i].moves == 3 ? "▲７六歩 △３四歩 ▲２六歩" : "▲７六歩 △３四歩",
                 cases[i].line);
        kifu_record *r = rd(text, KIFU_READ_NO_NORMALIZE);
        CHECK(r != NULL);
        if (!r)
            continue;
        const kifu_node *n = t_node_at(r, cases[i].moves + 1);
        CHECK(n != NULL);
        if (n)
            CHECK_STR(kifu_node_special(n), cases[i].special);
        kifu_record_free(r);
    }
}

TEST(branches_header_and_bod)
{
    kifu_record *r = rd("手合割：八枚落ち\n下手：s\n上手：u\n\n"
                        "△５二玉 ▲７六歩 △６二銀\n"
                        "まで3手で中断\n\n"
                        "変化：   2手\n"
                        "▲２六歩 △同　玉\n"
                        "変化：1手\n△４二玉\n",
                        KIFU_READ_NO_NORMALIZE);
    CHECK(r != NULL);
    if (!r)
        return;
    CHECK_INT(kifu_record_preset(r), KIFU_PRESET_8);
    CHECK_INT(kifu_node_child_count(t_node_at(r, 1)), 2);
    CHECK_INT(kifu_node_child_count(kifu_record_root(r)), 2);
    const kifu_node *b = kifu_node_child(t_node_at(r, 1), 1);
    CHECK_INT(t_move(kifu_node_next(b))->same, 1);
    kifu_record_free(r);
}

TEST(errors)
{
    const char *bad[] = {"▲７六歩 △３Ｘ歩\n", "▲７六歩 xyz\n", "▲５七銀右左\n",
                         "▲５五角打成\n"};
    int cols[] = {8, 6, 6, 7};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        kifu_record *r = rd(bad[i], KIFU_READ_NO_NORMALIZE);
        CHECK(r == NULL);
        CHECK_INT(err.code, KIFU_ERR_SYNTAX);
        CHECK_INT(err.line, 1);
        CHECK_INT(err.column, cols[i]);
        kifu_record_free(r);
    }
}

static char *wr(const kifu_record *r)
{
    return t_write_as(r, KIFU_FMT_KI2U, 0, NULL, &err);
}

/* s (r written as KI2) read back, checked to be r again; NULL when it does not read. */
static kifu_record *read_back_same(const kifu_record *r, const char *s)
{
    kifu_record *b = s ? rd(s, KIFU_READ_NO_NORMALIZE) : NULL;
    CHECK(b != NULL);
    if (b) {
        char *da = t_dump(r), *db = t_dump(b);
        CHECK_STR(db, da);
        free(da);
        free(db);
    }
    return b;
}

TEST(writer_layout_and_round_trip)
{
    const char *text =
        "先手：A\n"
        "\n"
        "▲７六歩    △３四歩    ▲５七銀右  △同　銀    ▲同銀引    △６七金右上\n"
        "▲５五角打  △同角成\n"
        "*コメント\n"
        "▲１二香不成\n"
        "まで9手で先手の勝ち\n"
        "\n"
        "変化：2手\n"
        "△８四歩\n";
    kifu_record *r = rd(text, KIFU_READ_NO_NORMALIZE);
    CHECK(r != NULL);
    if (!r)
        return;
    char *s = wr(r);
    CHECK(s != NULL);
    if (s)
        CHECK_STR(s, text);
    kifu_record *b = read_back_same(r, s);
    kifu_free(s);
    kifu_record_free(b);
    kifu_record_free(r);
}

/* Every ending a record has survives KI2: a second KACHI (CSA games of the corpus end
 * %KACHI twice) and 封じ手, each written as a まで line and read back. */
TEST(every_ending_and_the_sealed_move_round_trip)
{
    kifu_record *r = rd("▲７六歩 △３四歩\n", KIFU_READ_NO_NORMALIZE);
    CHECK(r != NULL);
    if (!r)
        return;
    kifu_node *n = t_node_at(r, 2);
    n = kifu_node_add_special(r, n, "KACHI");
    n = n ? kifu_node_add_special(r, n, "KACHI") : NULL;
    n = n ? kifu_node_add_special(r, n, "封じ手") : NULL;
    CHECK(n != NULL);
    char *s = wr(r);
    CHECK(s != NULL);
    const char *lines =
        "まで2手で先手の入玉勝ち\nまで3手で後手の入玉勝ち\nまで4手で封じ手\n";
    CHECK(s && strstr(s, lines) != NULL);
    kifu_record *b = read_back_same(r, s);
    if (b) {
        CHECK_STR(kifu_node_special(t_node_at(b, 3)), "KACHI");
        CHECK_STR(kifu_node_special(t_node_at(b, 4)), "KACHI");
        CHECK_STR(kifu_node_special(t_node_at(b, 5)), "封じ手");
    }
    kifu_free(s);
    kifu_record_free(b);
    kifu_record_free(r);
    /* A まで line counting only the moves is the summary of the ending before it: an
     * ending word on a move line, or a まで line said twice. */
    const char *summaries[] = {"▲７六歩 △投了\nまで1手で先手の勝ち\n",
                               "▲７六歩\nまで1手で中断\nまで1手で中断\n"};
    for (size_t i = 0; i < 2; i++) {
        r = rd(summaries[i], KIFU_READ_NO_NORMALIZE);
        CHECK(r != NULL);
        if (!r)
            continue;
        CHECK(kifu_node_special(t_node_at(r, 2)) != NULL);
        CHECK(t_node_at(r, 3) == NULL);
        kifu_record_free(r);
    }
}

/* Each relative word in a position from the start where it is needed: read, normalize
 * (the engine finds the piece), check the source, write back the same word. */
TEST(relative_words_resolved_where_needed)
{
    static const struct {
        const char *moves;
        int ply, fx, fy;
    } cases[] = {
        {"▲５八金右", 1, 4, 9},
        {"▲５八金左", 1, 6, 9},
        {"▲５八金右 △３四歩 ▲６八金直", 3, 6, 9},
        {"▲５八金右 △３四歩 ▲６八金寄", 3, 5, 8},
        {"▲４六歩 △３四歩 ▲５八金左 △４四歩 ▲４七金 △５四歩 ▲４八金引", 7, 4, 7},
        {"▲５八金右 △３四歩 ▲６八金寄 △４四歩 ▲５八金上", 5, 6, 9},
        {"▲５八金右 △３四歩 ▲６八金寄 △４四歩 ▲５八金寄", 5, 6, 8},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[256];
        snprintf(text, sizeof text, "%s\n", cases[i].moves);
        kifu_record *r = rd(text, 0);
        if (!r && err.code == KIFU_ERR_UNSUPPORTED)
            SKIP("the normalizer is not in this build yet: %s", err.message);
        CHECK(r != NULL);
        if (!r)
            continue;
        const kifu_move *m = t_move_at(r, cases[i].ply);
        CHECK_INT(m->from_x, cases[i].fx);
        CHECK_INT(m->from_y, cases[i].fy);
        char *s = wr(r);
        CHECK(s != NULL);
        if (s) {
            /* The written line names every move with the same minimal word. */
            char want[300];
            snprintf(want, sizeof want, "%s", cases[i].moves);
            char got[300];
            size_t k = 0;
            for (const char *p = s; *p && k + 1 < sizeof got; p++)
                if (*p != ' ' && *p != '\n')
                    got[k++] = *p;
            got[k] = 0;
            char wantc[300];
            k = 0;
            for (const char *p = want; *p && k + 1 < sizeof wantc; p++)
                if (*p != ' ')
                    wantc[k++] = *p;
            wantc[k] = 0;
            CHECK(strstr(got, wantc) != NULL);
            if (!strstr(got, wantc))
                printf("  wrote: %s\n", s);
        }
        kifu_free(s);
        kifu_record_free(r);
    }
}

static char *jkf_of(const char *text)
{
    kifu_record *r = rd(text, 0);
    if (!r)
        return NULL;
    char *s = t_write_as(r, KIFU_FMT_JKF, 0, NULL, &err);
    kifu_record_free(r);
    return s;
}

/* Our own records: KI2 -> JKF equals KI2 -> (normalized) KI2 -> JKF. */
TEST(ki2_jkf_ki2_jkf_round_trip)
{
    const char *texts[] = {
        "先手：A\n後手：B\n\n*はじめ\n"
        "▲７六歩 △３四歩 ▲２二角成 △同　銀 ▲４五角打 △５二金右\n*コメント\n"
        "▲５八金右 △３二金 ▲６八金寄\nまで9手で中断\n\n"
        "変化：4手\n△同　飛 ▲６八銀\nまで5手で後手の勝ち\n"
        "変化：1手\n▲２六歩\n",
        "手合割：八枚落ち\n\n△５二玉 ▲７六歩 △６二金\nまで3手で上手の反則負け\n",
        "▲４六歩 △３四歩 ▲５八金左 △４四歩 ▲４七金 △５四歩 ▲４八金引\n",
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        char *j1 = jkf_of(texts[i]);
        if (!j1 && err.code == KIFU_ERR_UNSUPPORTED)
            SKIP("the normalizer or JKF writer is not in this build: %s", err.message);
        CHECK(j1 != NULL);
        kifu_record *r = rd(texts[i], 0);
        char *ki2 = r ? wr(r) : NULL;
        char *j2 = ki2 ? jkf_of(ki2) : NULL;
        CHECK(j2 != NULL);
        if (j1 && j2)
            CHECK_STR(j2, j1);
        kifu_free(j1);
        kifu_free(j2);
        kifu_free(ki2);
        kifu_record_free(r);
    }
}

/* Every allocation failing in turn: a clean NOMEM, never a crash or a leak. */
TEST(out_of_memory_everywhere)
{
    const char *text = "先手：A\n\n*c\n▲７六歩 △３四歩 ▲２二角成 △同　銀\nまで4手で中断\n"
                       "変化：1手\n▲２六歩\n";
    int succeeded = 0;
    for (long n = 1; n < 400 && !succeeded; n++) {
        kifu__alloc_fail_after(n);
        kifu_record *r = rd(text, 0);
        int code = err.code;
        char *s = r ? wr(r) : NULL;
        if (r && !s)
            code = err.code;
        succeeded = s != NULL;
        kifu__alloc_fail_after(0);
        if (!succeeded)
            CHECK_INT(code, KIFU_ERR_NOMEM);
        kifu_free(s);
        kifu_record_free(r);
    }
    CHECK(succeeded);
}

/* Any run of padding between moves, short or longer than a word (the reader measures runs
 * 8 bytes at a time), of ASCII spaces, tabs and full-width spaces, with moves that end a
 * line or are followed by a space at the very end of the text. */
TEST(padding_of_any_length)
{
    static const char *const pads[] = {" ", "\t", "　", " \t　 ", "　　"};
    for (int n = 1; n <= 20; n++)
        for (size_t k = 0; k < sizeof pads / sizeof pads[0]; k++) {
            char text[512] = "▲７六歩";
            for (int i = 0; i < n; i++)
                strcat(text, pads[k]);
            strcat(text, "△３四歩");
            for (int i = 0; i < n % 9; i++)
                strcat(text, " ");
            kifu_record *r = rd(text, KIFU_READ_NO_NORMALIZE);
            CHECK(r != NULL);
            if (!r)
                continue;
            CHECK(t_move_at(r, 2) != NULL);
            if (t_move_at(r, 2)) {
                CHECK_INT(t_move_at(r, 2)->to_x, 3);
                CHECK_INT(t_move_at(r, 2)->to_y, 4);
                CHECK_INT(t_move_at(r, 2)->color, KIFU_WHITE);
            }
            CHECK(t_move_at(r, 3) == NULL);
            kifu_record_free(r);
        }
}

int main(void)
{
    RUN(padding_of_any_length);
    RUN(moves_per_line_and_marks);
    RUN(relative_words_same_drop_promote);
    RUN(endings_from_made_lines);
    RUN(branches_header_and_bod);
    RUN(errors);
    RUN(writer_layout_and_round_trip);
    RUN(relative_words_resolved_where_needed);
    RUN(ki2_jkf_ki2_jkf_round_trip);
    RUN(every_ending_and_the_sealed_move_round_trip);
    RUN(out_of_memory_everywhere);
    return t_finish();
}
