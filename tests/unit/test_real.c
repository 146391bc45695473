/* test_real.c: what real files do, read with nothing lost: SFEN/USI files of one game a
 * line (and the sfenlist they may still be), USI endings, a .kif or .csa that holds a USI
 * line, illegal moves named at their line and column, relative words counted by reach
 * (tests/records/rel_*.csa), CSA bookmarks and $OPENING, KI2 without header, 封じ手, KIF
 * times with parts missing; every record of tests/records through every format and back. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "kifu.h"
#include "node_time.h"
#include "testutil.h"

#define START "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"

static int warnings;
static char last_warning[512];
static void on_warn(void *ctx, const char *msg)
{
    (void)ctx;
    warnings++;
    snprintf(last_warning, sizeof last_warning, "%s", msg);
}

/* kifu_read_all of text as format (AUTO: by `source`'s extension, then content). */
static kifu_record **read_all(const char *text, int format, const char *source, size_t *n,
                              kifu_error *err)
{
    kifu_read_options o = {.format = format, .source = source, .warn = on_warn};
    kifu_record **v = NULL;
    kifu_error_clear(err);
    warnings = 0;
    last_warning[0] = 0;
    if (kifu_read_all(text, strlen(text), &o, &v, n, err))
        return NULL;
    return v;
}

static void free_all(kifu_record **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        kifu_record_free(v[i]);
    kifu_free(v);
}

/* The main line as USI moves, with its ending when `ending` (its JKF word), into buf. */
static const char *main_line(const kifu_record *r, int ending, char *buf, size_t cap)
{
    size_t k = 0;
    buf[0] = 0;
    for (const kifu_node *n = kifu_node_next(kifu_record_root(r)); n && k + 24 < cap;
         n = kifu_node_next(n)) {
        char usi[8];
        const kifu_move *m = t_move(n);
        if (m || ending)
            k += (size_t)snprintf(buf + k, cap - k, "%s%s", k ? " " : "",
                                  m ? kifu_move_usi(m, usi) : kifu_node_special(n));
    }
    return buf;
}

/* Who won by the main line's ending: 'b', 'w', 'd' (a draw) or '-' (none). */
static char winner(const kifu_record *r)
{
    const kifu_node *n = kifu_record_root(r), *end = NULL;
    int plies = 0;
    for (n = kifu_node_next(n); n; n = kifu_node_next(n)) {
        if (t_move(n))
            plies++;
        else if (!end)
            end = n;
    }
    kifu_board b;
    kifu_record_initial(r, &b);
    int to_move = (b.color + plies) & 1;
    const char *s = end ? kifu_node_special(end) : "";
    char side[2] = {'b', 'w'};
    if (!strcmp(s, "TORYO") || !strcmp(s, "TIME_UP") || !strcmp(s, "ILLEGAL_MOVE") ||
        !strcmp(s, "TSUMI"))
        return side[!to_move];
    if (!strcmp(s, "KACHI"))
        return side[to_move];
    if (!strcmp(s, "+ILLEGAL_ACTION"))
        return 'w';
    if (!strcmp(s, "-ILLEGAL_ACTION"))
        return 'b';
    if (!strcmp(s, "SENNICHITE") || !strcmp(s, "HIKIWAKE") || !strcmp(s, "JISHOGI"))
        return 'd';
    return '-';
}

TEST(sfen_file_of_one_game_a_line)
{
    const char *text = "startpos moves 7g7f 3c3d resign\n"
                       "# a comment line\n"
                       "position startpos moves 2g2f 8c8d\n"
                       "\n"
                       "sfen " START " moves 5g5f\n" START "\n"
                       "position sfen 4k4/9/9/9/9/9/9/9/4K4 b G 1 moves G*5b\n";
    kifu_error err;
    size_t n = 0;
    kifu_record **v = read_all(text, KIFU_FMT_SFEN, "t.sfen", &n, &err);
    CHECK(v != NULL);
    CHECK_INT(n, 5);
    if (!v) {
        printf("  %s\n", err.message);
        return;
    }
    char buf[256];
    const char *want[] = {"7g7f 3c3d TORYO", "2g2f 8c8d", "5g5f", "", "G*5b"};
    for (size_t i = 0; i < n && i < 5; i++)
        CHECK_STR(main_line(v[i], 1, buf, sizeof buf), want[i]);
    free_all(v, n);
    /* found by content too, from stdin or a .usi file */
    CHECK_INT(kifu_format_detect(text, strlen(text)), KIFU_FMT_SFEN);
    v = read_all(text, KIFU_FMT_AUTO, "t.usi", &n, &err);
    CHECK(v && n == 5);
    free_all(v, n);
}

TEST(bare_sfens_that_follow_by_moves_stay_a_sfenlist)
{
    kifu_error err;
    const char *usi = "position startpos moves 7g7f 3c3d 8h2b+";
    kifu_record *r = t_read_text(usi, strlen(usi), KIFU_FMT_SFEN, 0, &err);
    CHECK(r != NULL);
    if (!r)
        return;
    char *list = t_write_as(r, KIFU_FMT_SFENLIST, KIFU_ENC_UTF8, NULL, &err);
    kifu_record_free(r);
    CHECK(list != NULL);
    if (!list)
        return;
    size_t n = 0;
    char buf[256];
    /* as .sfen: one game of three moves, not four positions */
    kifu_record **v = read_all(list, KIFU_FMT_AUTO, "game.sfen", &n, &err);
    CHECK(v && n == 1);
    if (v && n == 1)
        CHECK_STR(main_line(v[0], 1, buf, sizeof buf), "7g7f 3c3d 8h2b+");
    free_all(v, n);
    CHECK_INT(kifu_format_detect(list, strlen(list)), KIFU_FMT_SFENLIST);
    kifu_free(list);
    /* unrelated positions: a collection, found by content as SFEN */
    const char *many =
        START "\n4k4/9/9/9/9/9/9/9/4K4 b G 1\n4k4/9/9/9/9/9/9/9/4K4 w g 7\n";
    CHECK_INT(kifu_format_detect(many, strlen(many)), KIFU_FMT_SFEN);
    v = read_all(many, KIFU_FMT_AUTO, NULL, &n, &err);
    CHECK(v && n == 3);
    free_all(v, n);
}

TEST(usi_endings)
{
    static const struct {
        const char *word;
        int plies;           /* moves before it */
        const char *special; /* what it becomes */
        char winner;
        int warns;
    } cases[] = {
        {"resign", 2, "TORYO", 'w', 0},
        {"resign", 1, "TORYO", 'b', 0},
        {"win", 2, "KACHI", 'b', 0},
        {"draw", 2, "HIKIWAKE", 'd', 0},
        {"rep_draw", 2, "SENNICHITE", 'd', 0},
        /* the side to move wins by the other's perpetual check: a foul of the mover */
        {"rep_win", 2, "-ILLEGAL_ACTION", 'b', 0},
        {"rep_win", 1, "+ILLEGAL_ACTION", 'w', 0},
        {"rep_lose", 2, "+ILLEGAL_ACTION", 'w', 0},
        {"rep_lose", 1, "-ILLEGAL_ACTION", 'b', 0},
        {"rep_sup", 2, "CHUDAN", '-', 1},
        {"rep_inf", 1, "CHUDAN", '-', 1},
        {"timeout", 2, "TIME_UP", 'w', 0},
        {"break", 2, "CHUDAN", '-', 0},
    };
    const char *moves[] = {"", "7g7f", "7g7f 3c3d"};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[128], buf[256], want[128];
        snprintf(text, sizeof text, "startpos moves %s %s\n", moves[cases[i].plies],
                 cases[i].word);
        kifu_error err;
        size_t n = 0;
        kifu_record **v = read_all(text, KIFU_FMT_AUTO, "t.sfen", &n, &err);
        CHECK(v && n == 1);
        if (!v || n != 1) {
            printf("  %s: %s\n", text, err.message);
            free_all(v, n);
            continue;
        }
        snprintf(want, sizeof want, "%s %s", moves[cases[i].plies], cases[i].special);
        CHECK_STR(main_line(v[0], 1, buf, sizeof buf), want);
        CHECK_INT(winner(v[0]), cases[i].winner);
        CHECK_INT(warnings, cases[i].warns);
        /* every format that holds an ending, and back: the same ending's result */
        for (size_t fi = 0; fi < kifu_format_count(); fi++) {
            int f = kifu_format_info_at(fi)->format;
            if (f == KIFU_FMT_SFEN || f == KIFU_FMT_SFENLIST ||
                kifu_format_info_at(fi)->game != KIFU_GAME_SHOGI)
                continue; /* positions and moves only; another game's format */
            size_t len;
            char *out = t_write_as(v[0], f, KIFU_ENC_UTF8, &len, &err);
            kifu_record *back = out ? t_read_text(out, len, f, 0, &err) : NULL;
            CHECK(back != NULL);
            if (back && winner(back) != cases[i].winner) {
                printf("  %s via %s: winner %c, expected %c\n", cases[i].word,
                       kifu_format_name(f), winner(back), cases[i].winner);
                CHECK(0);
            }
            kifu_record_free(back);
            kifu_free(out);
        }
        free_all(v, n);
    }
    /* an ending ends the line: a move after it is an error at its column */
    kifu_error err;
    size_t n;
    CHECK(read_all("startpos moves 7g7f resign 3c3d\n", KIFU_FMT_SFEN, "t", &n, &err) ==
          NULL);
    CHECK_INT(err.code, KIFU_ERR_SFEN);
    CHECK_INT(err.line, 1);
    CHECK_INT(err.column, 28);
}

TEST(a_kif_or_csa_file_holding_a_usi_line)
{
    kifu_error err;
    size_t n;
    char buf[256];
    kifu_record **v = read_all("\nposition startpos moves 7g7f 3c3d\n", KIFU_FMT_AUTO,
                               "game.kif", &n, &err);
    CHECK(v && n == 1);
    if (v)
        CHECK_STR(main_line(v[0], 1, buf, sizeof buf), "7g7f 3c3d");
    free_all(v, n);
    v = read_all(START "\n", KIFU_FMT_AUTO, "problem.csa", &n, &err);
    CHECK(v && n == 1 && kifu_record_preset(v[0]) == KIFU_PRESET_HIRATE);
    free_all(v, n);
    v = read_all("startpos moves 2g2f\n", KIFU_FMT_AUTO, "x.kifu", &n, &err);
    CHECK(v && n == 1);
    free_all(v, n);
    /* a real KIF that mentions a USI line later is still KIF: the first line decides */
    v = read_all("手合割：平手\n*position startpos moves 7g7f\n   1 ７六歩(77)\n",
                 KIFU_FMT_AUTO, "game.kif", &n, &err);
    CHECK(v && n == 1);
    if (v) {
        CHECK_STR(main_line(v[0], 1, buf, sizeof buf), "7g7f");
        CHECK_INT(kifu_node_comment_count(kifu_record_root(v[0])), 1);
    }
    free_all(v, n);
    /* a name given by the caller is never overridden */
    CHECK(read_all("position startpos\n", KIFU_FMT_KIF, "game.kif", &n, &err) == NULL);
}

/* An illegal move is named at its line and column in every text format, read at once
 * and (as the tool does) read first and normalized after. */
TEST(illegal_moves_at_their_line_and_column)
{
    static const struct {
        int format;
        const char *text;
        int line, column;
    } cases[] = {
        {KIFU_FMT_KIFU, "手合割：平手\n   1 ７六歩(77)\n   2 ５五歩(53)\n", 3, 6},
        {KIFU_FMT_KI2U, "手合割：平手\n\n▲７六歩 △３四歩\n▲２二角成 △５五歩\n", 4, 7},
        {KIFU_FMT_CSA, "PI\n+\n+7776FU\n-5355FU\n", 4, 1},
        {KIFU_FMT_CSA, "PI\n+\n+7776FU,T1\n  -5355FU\n", 4, 3},
        {KIFU_FMT_SFEN, "startpos\nstartpos moves 7g7f 5c5e 2g2f\n", 2, 21},
        /* JKF: at the move object, in the main line and in a fork; compact JKF is one
         * line, so its columns count along it */
        {KIFU_FMT_JKF,
         "{\"header\":{},\"moves\":[{},\n"
         " {\"move\":{\"from\":{\"x\":7,\"y\":7},\"to\":{\"x\":7,\"y\":6},\"piece\":"
         "\"FU\"}},\n"
         " {\"move\":{\"from\":{\"x\":5,\"y\":3},\"to\":{\"x\":5,\"y\":5},\"piece\":"
         "\"FU\"}}]}",
         3, 10},
        {KIFU_FMT_JKF,
         "{\"header\":{},\"moves\":[{},\n"
         " {\"move\":{\"from\":{\"x\":7,\"y\":7},\"to\":{\"x\":7,\"y\":6},\"piece\":"
         "\"FU\"}},\n"
         " {\"move\":{\"from\":{\"x\":3,\"y\":3},\"to\":{\"x\":3,\"y\":4},\"piece\":"
         "\"FU\"},\n"
         "  "
         "\"forks\":[[{\"move\":{\"from\":{\"x\":8,\"y\":3},\"to\":{\"x\":8,\"y\":4},"
         "\"piece\":\"FU\"}},\n"
         "     "
         "{\"move\":{\"from\":{\"x\":2,\"y\":2},\"to\":{\"x\":2,\"y\":2},\"piece\":"
         "\"KA\"}}]]},\n"
         " {\"move\":{\"from\":{\"x\":8,\"y\":8},\"to\":{\"x\":2,\"y\":2},\"piece\":"
         "\"KA\"}}]}",
         5, 14},
        {KIFU_FMT_JKF,
         "{\"header\":{},\"moves\":[{},{\"move\":{\"from\":{\"x\":7,\"y\":7},\"to\":{"
         "\"x\":7,"
         "\"y\":6},\"piece\":\"FU\"}},{\"move\":{\"to\":{\"x\":5,\"y\":5},\"piece\":"
         "\"HI\"}}]}",
         1, 98},
        /* a forbidden last move with more moves after it */
        {KIFU_FMT_KIFU,
         "手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２二角成(88)\n   4 "
         "５五角打\n   5 １一馬(22)\n",
         5, 6},
        /* columns are counted in words of 8 bytes: a full-width space before a KIF move,
         * a KI2 move 46 bytes after the one before it (more than the three words counted
         * at once), a KI2 line ending the input (fewer than 24 bytes left to read from
         * the move before) */
        {KIFU_FMT_KIFU, "手合割：平手\n   1 ７六歩(77)\n   2　５五歩(53)\n", 3, 6},
        {KIFU_FMT_KI2U,
         "手合割：平手\n\n▲７六歩 △３四歩\n▲２二角成                               "
         "△５五歩\n",
         4, 37},
        {KIFU_FMT_KI2U, "▲７六歩 △３四歩 ▲２二角成 △同銀 ▲5八玉△５五歩", 1, 25},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        for (int later = 0; later < 2; later++) {
            kifu_read_options o = {.format = cases[i].format,
                                   .flags = later ? KIFU_READ_NO_NORMALIZE : 0u};
            kifu_error err;
            kifu_error_clear(&err);
            kifu_record **v = NULL;
            size_t n = 0;
            int rc =
                kifu_read_all(cases[i].text, strlen(cases[i].text), &o, &v, &n, &err);
            for (size_t k = 0; rc == 0 && k < n; k++)
                rc = kifu_normalize(v[k], 0, &err);
            free_all(v, n);
            CHECK(rc != 0);
            CHECK_INT(err.code, KIFU_ERR_ILLEGAL);
            if (err.line != cases[i].line || err.column != cases[i].column)
                printf("  case %zu (%s): %d:%d: %s\n", i, later ? "later" : "at once",
                       err.line, err.column, err.message);
            CHECK_INT(err.line, cases[i].line);
            CHECK_INT(err.column, cases[i].column);
        }
    }
}

/* The relative word is written whenever another gold reaches the square, pinned or not
 * (tests/records/rel_*.csa: the second gold on 58 is pinned by the rook on 51). */
TEST(relative_words_count_pinned_pieces)
{
    static const struct {
        const char *file, *ki2;
    } cases[] = {
        {"rel_choku.csa", "▲４七金直"},  {"rel_migi.csa", "▲４七金右"},
        {"rel_hidari.csa", "▲６七金左"}, {"rel_ue.csa", "▲４八金上"},
        {"rel_yoru.csa", "▲４七金寄"},   {"rel_hiku.csa", "▲４七金引"},
        {"rel_utsu.csa", "▲４七金打"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char path[512], buf[128], buf2[128];
        snprintf(path, sizeof path, "%s/records/%s", KIFU_TESTS_DIR, cases[i].file);
        kifu_error err;
        kifu_record *r = kifu_read_file(path, NULL, &err);
        CHECK(r != NULL);
        if (!r) {
            printf("  %s: %s\n", path, err.message);
            continue;
        }
        size_t len;
        char *ki2 = t_write_as(r, KIFU_FMT_KI2U, KIFU_ENC_UTF8, &len, &err);
        CHECK(ki2 && strstr(ki2, cases[i].ki2) != NULL);
        if (ki2 && !strstr(ki2, cases[i].ki2))
            printf("  %s: no %s in\n%s\n", cases[i].file, cases[i].ki2, ki2);
        kifu_record *back = ki2 ? t_read_text(ki2, len, KIFU_FMT_KI2U, 0, &err) : NULL;
        CHECK(back != NULL);
        if (back)
            CHECK_STR(main_line(back, 1, buf, sizeof buf),
                      main_line(r, 1, buf2, sizeof buf2));
        /* a KI2 without the word (as kifu wrote it before) still reads: by legality */
        kifu_record_free(back);
        kifu_free(ki2);
        kifu_record_free(r);
    }
    kifu_error err;
    const char *legal_only =
        "後手の持駒：なし\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n"
        "| ・ ・ ・ ・v飛 ・ ・ ・v玉|一\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n"
        "| ・ ・ ・ ・ ・ ・ ・ ・ ・|三\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n"
        "| ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n"
        "| ・ ・ ・ ・ ・ ・ ・ ・ ・|七\n| ・ ・ ・ ・ 金 金 ・ ・ ・|八\n"
        "| ・ ・ ・ ・ 玉 ・ ・ ・ ・|九\n+---------------------------+\n"
        "先手の持駒：なし\n\n▲４七金\n";
    kifu_record *r = t_read_text(legal_only, strlen(legal_only), KIFU_FMT_KI2U, 0, &err);
    CHECK(r != NULL);
    if (r) {
        const kifu_move *m = t_move_at(r, 1);
        CHECK(m && m->from_x == 4 && m->from_y == 8);
    } else {
        printf("  %s\n", err.message);
    }
    kifu_record_free(r);
}

TEST(csa_bookmarks_opening_and_ki2_without_header)
{
    const char *kif = "手合割：平手\n戦型：矢倉\n手数----指手---------消費時間--\n"
                      "   1 ７六歩(77)\n&開始\n   2 ３四歩(33)\n*コメント\n&中盤\n";
    kifu_error err;
    kifu_record *r = t_read_text(kif, strlen(kif), KIFU_FMT_KIFU, 0, &err);
    CHECK(r != NULL);
    if (!r)
        return;
    size_t len;
    char *csa = t_write_as(r, KIFU_FMT_CSA, KIFU_ENC_UTF8, &len, &err);
    CHECK(csa && strstr(csa, "'&開始\n") && strstr(csa, "$OPENING:矢倉\n"));
    CHECK(csa && !strstr(csa, "手合割"));
    kifu_record *back = csa ? t_read_text(csa, len, KIFU_FMT_CSA, 0, &err) : NULL;
    CHECK(back != NULL);
    if (back) {
        kifu_node *n1 = t_node_at(back, 1), *n2 = t_node_at(back, 2);
        CHECK(kifu_node_bookmark_count(n1) == 1 &&
              !strcmp(kifu_node_bookmark(n1, 0), "開始"));
        CHECK(kifu_node_bookmark_count(n2) == 1 &&
              !strcmp(kifu_node_bookmark(n2, 0), "中盤"));
        CHECK_INT(kifu_node_comment_count(kifu_record_root(back)), 0);
        char *again = t_write_as(back, KIFU_FMT_KIFU, KIFU_ENC_UTF8, NULL, &err);
        CHECK(again && strstr(again, "戦型：矢倉\n") && strstr(again, "&中盤\n"));
        kifu_free(again);
    }
    kifu_record_free(back);
    kifu_free(csa);
    /* a bare & line in a CSA file is a bookmark too */
    const char *bare = "PI\n+\n+7776FU\n&bm\n";
    back = t_read_text(bare, strlen(bare), KIFU_FMT_CSA, 0, &err);
    CHECK(back && kifu_node_bookmark_count(t_node_at(back, 1)) == 1);
    kifu_record_free(back);
    kifu_record_free(r);
    /* KI2 of a record without header: the first line is the first move */
    r = t_read_text("startpos moves 7g7f", 19, KIFU_FMT_SFEN, 0, &err);
    char *ki2 = r ? t_write_as(r, KIFU_FMT_KI2U, KIFU_ENC_UTF8, NULL, &err) : NULL;
    CHECK(ki2 && ki2[0] != '\n');
    if (ki2 && ki2[0] == '\n')
        printf("  KI2 starts with an empty line:\n%s\n", ki2);
    kifu_free(ki2);
    kifu_record_free(r);
}

/* kifu_write of r as format (UTF-8), its warnings counted as read_all counts them. */
static char *write_warned(const kifu_record *r, int format)
{
    kifu_write_options o = {.format = format, .encoding = KIFU_ENC_UTF8, .warn = on_warn};
    kifu_error err;
    warnings = 0;
    last_warning[0] = 0;
    char *s = kifu_write(r, &o, NULL, &err);
    if (!s)
        printf("  write as %d: %s\n", format, err.message);
    return s;
}

/* Is the special at ply of the only record of text (read as format) 封じ手? */
static int sealed_at(const char *text, int format, int ply)
{
    kifu_error err;
    size_t n;
    kifu_record **v = read_all(text, format, NULL, &n, &err);
    if (!v) {
        printf("  %s\n", err.message);
        return 0;
    }
    const char *w = kifu_node_special(t_node_at(v[0], ply));
    int ok = n == 1 && w && strcmp(w, "封じ手") == 0;
    free_all(v, n);
    return ok;
}

TEST(sealed_move_and_times_with_parts_missing)
{
    const char *kif = "手合割：平手\n手数----指手---------消費時間--\n"
                      "   1 ７六歩(77)   ( 0:7/)\n   2 ３四歩(33)   (00:07/)\n"
                      "   3 封じ手\n";
    kifu_error err;
    size_t n;
    kifu_record **v = read_all(kif, KIFU_FMT_KIFU, "t.kifu", &n, &err);
    CHECK(v != NULL);
    if (!v) {
        printf("  %s\n", err.message);
        return;
    }
    /* the word is kept, and nothing is said: nothing was lost */
    CHECK_INT(warnings, 0);
    CHECK_STR(kifu_node_special(t_node_at(v[0], 3)), "封じ手");
    for (int ply = 1; ply <= 2; ply++) {
        const kifu_move_time *t = t_time(t_node_at(v[0], ply));
        CHECK(t && t->now.m == 0 && t->now.s == 7 && t->total.s == 7);
    }
    /* KIF -> KIF, KI2 -> KI2, KIF -> JKF -> KIF: 封じ手 each time, and no warning but
     * KI2's: it holds no times (issue 26) */
    static const int formats[] = {KIFU_FMT_KIFU, KIFU_FMT_KI2U, KIFU_FMT_JKF};
    for (size_t i = 0; i < 3; i++) {
        char *s = write_warned(v[0], formats[i]);
        CHECK(s != NULL);
        CHECK_INT(warnings, formats[i] == KIFU_FMT_KI2U);
        if (formats[i] == KIFU_FMT_KI2U)
            CHECK(strstr(last_warning, "KI2 holds no times: the times of 2 move(s)"));
        if (!s)
            continue;
        CHECK(sealed_at(s, formats[i], 3));
        if (formats[i] == KIFU_FMT_KI2U)
            CHECK(strstr(s, "まで2手で封じ手\n") != NULL);
        if (formats[i] == KIFU_FMT_JKF) {
            /* JKF's nearest word, which the peers read, and kifu's own key */
            CHECK(strstr(s, "{\"special\":\"CHUDAN\",\"kifu:sealed\":true}") != NULL);
            kifu_record *j = t_read_text(s, strlen(s), KIFU_FMT_JKF, 0, &err);
            char *k = j ? write_warned(j, KIFU_FMT_KIFU) : NULL;
            CHECK(k && strstr(k, "   3 封じ手") != NULL);
            kifu_free(k);
            kifu_record_free(j);
        }
        kifu_free(s);
    }
    /* CSA cannot hold it: %CHUDAN, the word as a comment, and a warning naming it */
    char *csa = write_warned(v[0], KIFU_FMT_CSA);
    CHECK(csa && strstr(csa, "%CHUDAN\n'*封じ手\n") != NULL);
    CHECK_INT(warnings, 1);
    CHECK(strstr(last_warning, "封じ手") != NULL &&
          strstr(last_warning, "%CHUDAN") != NULL);
    /* read back: the interruption, with the word as its comment */
    kifu_record *c = csa ? t_read_text(csa, strlen(csa), KIFU_FMT_CSA, 0, &err) : NULL;
    CHECK(c != NULL);
    if (c) {
        CHECK_STR(kifu_node_special(t_node_at(c, 3)), "CHUDAN");
        CHECK_STR(kifu_node_comment(t_node_at(c, 3), 0), "封じ手");
        CHECK_INT(kifu_node_comment_count(t_node_at(c, 2)), 0);
    }
    kifu_record_free(c);
    kifu_free(csa);
    free_all(v, n);
    /* the JKF key before "special" too; false and null say nothing */
    const char *head =
        "{\"header\":{},\"moves\":[{},{\"move\":{\"from\":{\"x\":7,\"y\":7},"
        "\"to\":{\"x\":7,\"y\":6},\"piece\":\"FU\"}},";
    char text[512];
    snprintf(text, sizeof text, "%s{\"kifu:sealed\": true, \"special\": \"CHUDAN\"}]}",
             head);
    CHECK(sealed_at(text, KIFU_FMT_JKF, 2));
    CHECK_INT(warnings, 0);
    snprintf(text, sizeof text, "%s{\"special\":\"CHUDAN\",\"kifu:sealed\":false}]}",
             head);
    CHECK(!sealed_at(text, KIFU_FMT_JKF, 2));
    snprintf(text, sizeof text, "%s{\"special\":\"CHUDAN\",\"kifu:sealed\":null}]}",
             head);
    CHECK(!sealed_at(text, KIFU_FMT_JKF, 2));
    /* on another ending it means nothing: kept as that ending, with a warning */
    snprintf(text, sizeof text, "%s{\"special\":\"TORYO\",\"kifu:sealed\":true}]}", head);
    CHECK(!sealed_at(text, KIFU_FMT_JKF, 2));
    CHECK_INT(warnings, 1);
    CHECK(strstr(last_warning, "kifu:sealed") != NULL);
    snprintf(text, sizeof text, "%s{\"special\":\"CHUDAN\",\"kifu:sealed\":1}]}", head);
    v = read_all(text, KIFU_FMT_JKF, NULL, &n, &err);
    CHECK(v == NULL && err.code == KIFU_ERR_SCHEMA);
    if (v)
        free_all(v, n);
}

/* Lines of real programs' KIF and KI2 (tests/records, written in their layout): 将棋倶楽部24's
 * foul that names its side (`後手 反則負け`), 将棋ウォーズ's `先手時間切れ` under 投了, a
 * board diagram without 先手番 / 後手番 whose moves start at 2 with gote's, and a trailer
 * under a rule of '-' (激指定跡道場's clipboard). */
TEST(club24_foul_wars_line_after_ending_and_a_diagram_gote_moves_first)
{
    static const struct {
        const char *file, *ending, *comment, *warning;
        char winner;
        int first_color;
    } cases[] = {
        {"club24_named_foul.kifu", "-ILLEGAL_ACTION", NULL, NULL, 'b', KIFU_BLACK},
        {"wars_line_after_ending.kifu", "TORYO", "先手時間切れ", "先手時間切れ", 'w',
         KIFU_BLACK},
        {"bod_gote_first.kifu", "CHUDAN", NULL, "gote moves first", '-', KIFU_WHITE},
        {"trailer_rule.ki2u", NULL, "------------------------------", "kept as comments",
         '-', KIFU_BLACK},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/records/%s", KIFU_TESTS_DIR, cases[i].file);
        size_t len, n;
        kifu_error err;
        char *data = kifu_file_read(path, &len, &err);
        CHECK(data != NULL);
        if (!data)
            continue;
        kifu_record **v = read_all(data, KIFU_FMT_AUTO, path, &n, &err);
        kifu_free(data);
        CHECK(v != NULL);
        if (!v) {
            printf("  %s: %s\n", cases[i].file, err.message);
            continue;
        }
        CHECK_INT(warnings, cases[i].warning ? 1 : 0);
        if (cases[i].warning)
            CHECK(strstr(last_warning, cases[i].warning) != NULL);
        const kifu_node *end = kifu_record_root(v[0]);
        while (kifu_node_next(end))
            end = kifu_node_next(end);
        if (cases[i].ending)
            CHECK_STR(kifu_node_special(end), cases[i].ending);
        else
            CHECK(kifu_node_special(end) == NULL);
        if (cases[i].comment)
            CHECK_STR(kifu_node_comment(end, 0), cases[i].comment);
        CHECK_INT(winner(v[0]), cases[i].winner);
        kifu_board b;
        kifu_record_initial(v[0], &b);
        CHECK_INT(b.color, cases[i].first_color);
        free_all(v, n);
    }
    /* The side named decides, whatever the ply: sente's foul at gote's turn, gote's at
     * gote's own turn (the side to move lost: ILLEGAL_MOVE) */
    static const struct {
        const char *line, *ending;
    } named[] = {{"2 先手 反則負け", "+ILLEGAL_ACTION"},
                 {"2 後手 反則負け", "ILLEGAL_MOVE"},
                 {"2 後手 反則勝ち", "+ILLEGAL_ACTION"},
                 {"2 先手 反則勝ち", "-ILLEGAL_ACTION"}};
    for (size_t i = 0; i < sizeof named / sizeof named[0]; i++) {
        char text[256];
        snprintf(text, sizeof text, "手合割：平手\n1 ７六歩(77)\n%s\n", named[i].line);
        size_t n;
        kifu_error err;
        kifu_record **v = read_all(text, KIFU_FMT_KIFU, NULL, &n, &err);
        CHECK(v != NULL);
        if (!v)
            continue;
        CHECK_STR(kifu_node_special(t_node_at(v[0], 2)), named[i].ending);
        free_all(v, n);
    }
    /* Before the ending such a line is still an error, at its line */
    size_t n;
    kifu_error err;
    kifu_record **v = read_all("手合割：平手\n1 ７六歩(77)\n先手時間切れ\n2 投了\n",
                               KIFU_FMT_KIFU, NULL, &n, &err);
    CHECK(v == NULL && err.line == 3 && err.column == 1);
    if (v)
        free_all(v, n);
}

/* The KIF record tests/records/<file>, normalized, or NULL. */
static kifu_record *own_record(const char *file)
{
    char path[512];
    size_t len;
    kifu_error err;
    snprintf(path, sizeof path, "%s/records/%s", KIFU_TESTS_DIR, file);
    char *data = kifu_file_read(path, &len, &err);
    kifu_record *r = data ? t_read_text(data, len, KIFU_FMT_KIFU, 0, &err) : NULL;
    kifu_free(data);
    return r;
}

/* What kifu writes for the peers (tests/records): a KI2 variation whose first move goes
 * to the square of the move before it names that square (json-kifu-format reads 同 there
 * against another move and refuses the file), a handicap tsshogi has no name for
 * (右七枚落ち) is written in KIF and KI2 as its 手合割 and its board (JKF keeps the schema's
 * preset name), both read back as they were, the handicap as the preset itself; the
 * comment of a KI2 ending stands before its まで line. */
TEST(ki2_fork_square_and_handicaps_every_reader_knows)
{
    kifu_error err;
    kifu_record *r = own_record("fork_same_square.kifu");
    CHECK(r != NULL);
    char *ki2 = r ? write_warned(r, KIFU_FMT_KI2U) : NULL;
    CHECK(ki2 && strstr(ki2, "\n▲８八飛\n") != NULL && strstr(ki2, "▲同　飛") == NULL);
    /* the main line keeps its 同 */
    CHECK(ki2 && strstr(ki2, "▲同　銀") != NULL);
    kifu_record *back =
        ki2 ? t_read_text(ki2, strlen(ki2), KIFU_FMT_KI2U, 0, &err) : NULL;
    CHECK(back != NULL);
    if (back) {
        const kifu_node *four = t_node_at(back, 4);
        CHECK_INT(kifu_node_child_count(four), 2);
        char usi[8];
        const kifu_move *m = t_move(kifu_node_child(four, 1));
        CHECK(m && strcmp(kifu_move_usi(m, usi), "2h8h") == 0);
    }
    kifu_record_free(back);
    kifu_free(ki2);
    kifu_record_free(r);

    r = own_record("handicap_7r.kifu");
    CHECK(r && kifu_record_preset(r) == KIFU_PRESET_7_R);
    static const struct {
        int format;
        const char *has;
    } out[] = {{KIFU_FMT_JKF, "\"preset\":\"7_R\""},
               {KIFU_FMT_KIFU, "上手番\n"},
               {KIFU_FMT_KI2U, "上手番\n"}};
    for (size_t i = 0; r && i < sizeof out / sizeof out[0]; i++) {
        char *s = write_warned(r, out[i].format);
        CHECK(s && strstr(s, out[i].has) != NULL);
        if (s && out[i].format != KIFU_FMT_JKF)
            CHECK(strstr(s, "手合割：右七枚落ち\n") != NULL);
        /* KIF and KI2 read unnormalized: the reader itself takes 手合割 and its board
         * for the preset */
        unsigned raw = out[i].format == KIFU_FMT_JKF ? 0 : KIFU_READ_NO_NORMALIZE;
        kifu_record *b = s ? t_read_text(s, strlen(s), out[i].format, raw, &err) : NULL;
        CHECK(b && kifu_record_preset(b) == KIFU_PRESET_7_R);
        kifu_record_free(b);
        kifu_free(s);
    }
    kifu_record_free(r);

    /* KI2 has no line after the まで line that every reader takes: the ending's comment
     * goes before it, with a warning saying where it goes back to */
    r = own_record("wars_line_after_ending.kifu");
    ki2 = r ? write_warned(r, KIFU_FMT_KI2U) : NULL;
    CHECK(ki2 && strstr(ki2, "△同　銀\n*先手時間切れ\nまで4手で後手の勝ち\n") != NULL);
    CHECK(ki2 && ki2[strlen(ki2) - 1] == '\n' && !strstr(strstr(ki2, "まで"), "*"));
    CHECK_INT(warnings, 2); /* and the times KI2 has no place for */
    CHECK(strstr(last_warning, "before its まで line") != NULL);
    back = ki2 ? t_read_text(ki2, strlen(ki2), KIFU_FMT_KI2U, 0, &err) : NULL;
    CHECK(back && kifu_node_comment_count(t_node_at(back, 4)) == 1);
    CHECK(back && strcmp(kifu_node_special(t_node_at(back, 5)), "TORYO") == 0);
    kifu_record_free(back);
    kifu_free(ki2);
    kifu_record_free(r);
}

/* An unrecognised last line with no line end, in a text that holds no NUL (kifu reads
 * valid UTF-8 in place): the error quotes up to the end of the input, never past it (the
 * fuzz targets found the quote reading on; run under make asan). */
TEST(error_at_the_end_of_an_input_without_nul)
{
    static const char *texts[2][2] = {
        {"手合割：平手\n1 ７六歩(77)\nencoding", "encoding="},
        {"手合割：平手\n▲７六歩\nencoding", "encoding="}};
    static const int formats[] = {KIFU_FMT_KIFU, KIFU_FMT_KI2U};
    for (size_t f = 0; f < 2; f++)
        for (size_t i = 0; i < 2; i++) {
            size_t len = strlen(texts[f][i]);
            char *buf = malloc(len); /* exactly the text: no NUL after it */
            if (!buf)
                continue;
            memcpy(buf, texts[f][i], len);
            kifu_read_options o = {.format = formats[f]};
            kifu_error err;
            kifu_error_clear(&err);
            kifu_record *r = kifu_read(buf, len, &o, &err);
            CHECK(r == NULL && err.code == KIFU_ERR_SYNTAX);
            CHECK(strstr(err.message, "encoding") != NULL);
            kifu_record_free(r);
            free(buf);
        }
}

/* Every record of tests/records, read, written in every format and read back: the same
 * moves and result; a KIF record through KIF: the same record, comments, bookmarks,
 * times and forks. */
/* A line of a SFEN file that starts with a word of something else (bioshogi's
 * `one_place startpos ...`) is named as that word, with what a line may start with; a bad
 * board after a keyword keeps the board's own message. */
TEST(sfen_line_of_another_program)
{
    kifu_error err;
    kifu_error_clear(&err);
    const char *text = "startpos moves 7g7f\none_place startpos moves 2g2f\n";
    kifu_record *r = t_read_text(text, strlen(text), KIFU_FMT_SFEN, 0, &err);
    CHECK(r == NULL);
    CHECK_INT(err.code, KIFU_ERR_SFEN);
    CHECK_INT(err.line, 2);
    CHECK_INT(err.column, 1);
    CHECK_STR(err.found, "one_place");
    CHECK(strstr(err.message, "startpos, sfen, position") != NULL);
    kifu_record_free(r);
    kifu_error_clear(&err);
    text = "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNo b - 1\n";
    r = t_read_text(text, strlen(text), KIFU_FMT_SFEN, 0, &err);
    CHECK(r == NULL);
    CHECK(strstr(err.message, "startpos, sfen, position") == NULL);
    CHECK(strstr(err.message, "'o'") != NULL);
    kifu_record_free(r);
}

TEST(own_records_round_trip_in_every_format)
{
    static const char *files[] = {
        "notes.kifu",
        "foul_nifu.kifu",
        "foul_oute_houchi.kifu",
        "foul_end_comment.kifu",
        "foul_action_plus_after_sente.csa",
        "foul_action_plus_after_gote.csa",
        "foul_action_minus_after_sente.csa",
        "foul_action_minus_after_gote.csa",
        "foul_illegal_move.csa",
        "rel_choku.csa",
        "rel_utsu.csa",
        "usi_endings.sfen",
        "usi_position.kif",
        "sealed.kifu",
        "club24_named_foul.kifu",
        "wars_line_after_ending.kifu",
        "bod_gote_first.kifu",
        "trailer_rule.ki2u",
        "fork_same_square.kifu",
        "handicap_7r.kifu",
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/records/%s", KIFU_TESTS_DIR, files[i]);
        size_t len;
        kifu_error err;
        char *data = kifu_file_read(path, &len, &err);
        CHECK(data != NULL);
        if (!data)
            continue;
        kifu_read_options o = {.source = path, .warn = on_warn};
        kifu_record **v = NULL;
        size_t n = 0;
        if (kifu_read_all(data, len, &o, &v, &n, &err)) {
            printf("  %s: %s\n", files[i], err.message);
            CHECK(0);
            kifu_free(data);
            continue;
        }
        kifu_free(data);
        for (size_t g = 0; g < n; g++) {
            char got[1024];
            char *dump = t_dump(v[g]);
            int foul = 0;
            for (const kifu_node *x = kifu_record_root(v[g]); x; x = kifu_node_next(x))
                foul |= kifu_node_foul(x) != 0;
            for (size_t fi = 0; fi < kifu_format_count(); fi++) {
                int f = kifu_format_info_at(fi)->format;
                if (kifu_format_info_at(fi)->game != KIFU_GAME_SHOGI)
                    continue; /* another game's format */
                int ends = f != KIFU_FMT_SFEN && f != KIFU_FMT_SFENLIST;
                /* Formats of positions: a foul is not recovered from two boards (the
                 * position after 二歩 is no position a reader accepts). */
                if (foul && (f == KIFU_FMT_SFENLIST || f == KIFU_FMT_POSJSON))
                    continue;
                size_t olen;
                char *out = t_write_as(v[g], f, KIFU_ENC_UTF8, &olen, &err);
                kifu_record *back = out ? t_read_text(out, olen, f, 0, &err) : NULL;
                if (!back) {
                    printf("  %s game %zu via %s: %s\n", files[i], g + 1,
                           kifu_format_name(f), err.message);
                    CHECK(0);
                    kifu_free(out);
                    continue;
                }
                /* The same moves and result (反則負け reads back as ILLEGAL_MOVE, the
                 * same loss as the ±ILLEGAL_ACTION of the side to move). */
                char moves[1024];
                CHECK_STR(main_line(back, 0, got, sizeof got),
                          main_line(v[g], 0, moves, sizeof moves));
                if (ends)
                    CHECK_INT(winner(back), winner(v[g]));
                /* KIF holds everything: the same record (JKF has no bookmark: they
                 * become comments `&name`, as json-kifu-format makes them) */
                if ((f == KIFU_FMT_KIFU || f == KIFU_FMT_KIF) &&
                    strstr(files[i], ".kifu")) {
                    char *d2 = t_dump(back);
                    if (strcmp(d2, dump) != 0)
                        printf("  %s game %zu via %s differs:\n%s\n--\n%s\n", files[i],
                               g + 1, kifu_format_name(f), dump, d2);
                    CHECK(strcmp(d2, dump) == 0);
                    free(d2);
                }
                kifu_record_free(back);
                kifu_free(out);
            }
            free(dump);
        }
        free_all(v, n);
    }
}

/* Training data: ten thousand games, one a line, read as ten thousand records. (Its
 * speed is measured by make bench, never here.) */
TEST(a_collection_of_ten_thousand_lines)
{
    static const char *games[] = {
        "startpos moves 7g7f 3c3d 2g2f 8c8d 2f2e 8d8e 6i7h 4a3b 2e2d 2c2d 2h2d",
        "position startpos moves 2g2f 3c3d 7g7f 4c4d 3i4h 8b4b 5i6h 5a6b resign",
        "sfen " START " moves 5g5f 5c5d 2h5h 8b5b 5f5e 5d5e 5h5e rep_draw",
    };
    size_t cap = 10000 * 100, k = 0;
    char *text = malloc(cap);
    CHECK(text != NULL);
    if (!text)
        return;
    for (int i = 0; i < 10000; i++)
        k += (size_t)snprintf(text + k, cap - k, "%s\n", games[i % 3]);
    kifu_error err;
    size_t n = 0;
    kifu_record **v = read_all(text, KIFU_FMT_AUTO, "train.sfen", &n, &err);
    CHECK(v != NULL);
    CHECK_INT(n, 10000);
    int ok = 1;
    for (size_t i = 0; v && i < n; i++) {
        int nodes = 0; /* moves and the ending */
        for (const kifu_node *x = kifu_node_next(kifu_record_root(v[i])); x;
             x = kifu_node_next(x))
            nodes++;
        ok &= nodes == (i % 3 == 0 ? 11 : i % 3 == 1 ? 9 : 8);
    }
    CHECK(ok);
    free_all(v, n);
    free(text);
}

/* A compact JKF is one line: an illegal move far along it is reported at its column (a
 * node once kept the column in 10 bits, so past 1023 only the ply was told), read and
 * normalized at once or normalized later. */
static void illegal_move_past_column_1023_of_one_line(void)
{
    static const char *const walk[4] = {
        "{\"move\":{\"color\":0,\"from\":{\"x\":5,\"y\":9},\"to\":{\"x\":5,\"y\":8},"
        "\"piece\":\"OU\"}},",
        "{\"move\":{\"color\":1,\"from\":{\"x\":5,\"y\":1},\"to\":{\"x\":5,\"y\":2},"
        "\"piece\":\"OU\"}},",
        "{\"move\":{\"color\":0,\"from\":{\"x\":5,\"y\":8},\"to\":{\"x\":5,\"y\":9},"
        "\"piece\":\"OU\"}},",
        "{\"move\":{\"color\":1,\"from\":{\"x\":5,\"y\":2},\"to\":{\"x\":5,\"y\":1},"
        "\"piece\":\"OU\"}},"};
    /* A black pawn from 55, where none stands. */
    static const char bad[] = "{\"move\":{\"color\":0,\"from\":{\"x\":5,\"y\":5},"
                              "\"to\":{\"x\":5,\"y\":4},\"piece\":\"FU\"}}";
    char text[8192];
    size_t n = (size_t)snprintf(text, sizeof text, "{\"header\":{},\"moves\":[{},");
    for (int i = 0; i < 80; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "%s", walk[i % 4]);
    size_t at = n; /* the bad entry's first byte */
    n += (size_t)snprintf(text + n, sizeof text - n, "%s]}", bad);
    CHECK(n < sizeof text && at > 1023);
    int want_col = 0;
    for (int later = 0; later < 2; later++) {
        kifu_read_options o = {.format = KIFU_FMT_JKF,
                               .flags = later ? KIFU_READ_NO_NORMALIZE : 0u};
        kifu_error err;
        kifu_error_clear(&err);
        kifu_record *r = kifu_read(text, n, &o, &err);
        int rc = r ? kifu_normalize(r, 0, &err) : -1;
        kifu_record_free(r);
        CHECK(rc != 0);
        CHECK_INT(err.code, KIFU_ERR_ILLEGAL);
        CHECK_INT(err.line, 1);
        /* The column of the entry or of its move object, both past 1023. */
        CHECK(err.column > 1023 && (size_t)err.column >= at + 1 &&
              (size_t)err.column <= at + 10);
        CHECK(err.offset + 1 == (size_t)err.column); /* ASCII: one byte per column */
        CHECK(strstr(err.message, "ply 81") != NULL);
        if (later)
            CHECK_INT(err.column, want_col); /* the same place either way */
        want_col = err.column;
    }
}

int main(void)
{
    RUN(sfen_file_of_one_game_a_line);
    RUN(bare_sfens_that_follow_by_moves_stay_a_sfenlist);
    RUN(usi_endings);
    RUN(a_kif_or_csa_file_holding_a_usi_line);
    RUN(illegal_moves_at_their_line_and_column);
    RUN(illegal_move_past_column_1023_of_one_line);
    RUN(relative_words_count_pinned_pieces);
    RUN(csa_bookmarks_opening_and_ki2_without_header);
    RUN(sealed_move_and_times_with_parts_missing);
    RUN(club24_foul_wars_line_after_ending_and_a_diagram_gote_moves_first);
    RUN(ki2_fork_square_and_handicaps_every_reader_knows);
    RUN(error_at_the_end_of_an_input_without_nul);
    RUN(sfen_line_of_another_program);
    RUN(own_records_round_trip_in_every_format);
    RUN(a_collection_of_ten_thousand_lines);
    return t_finish();
}
