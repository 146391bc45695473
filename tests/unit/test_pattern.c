/* test_pattern.c: board patterns (src/search/pattern.c): regular expressions over the
 * board letters, grid patterns with wildcards, hands and side, and the named castle
 * patterns of docs/patterns/ on games played to those castles by the engine. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "kifu_private.h"
#include "notation/bd.h"
#include "search/pattern.h"

/* The position after a USI line. */
static kifu_board after(const char *usi)
{
    kifu_position *p = kifu_position_new();
    kifu_error err;
    kifu_error_clear(&err);
    kifu_board b;
    memset(&b, 0, sizeof b);
    if (kifu_position_set_sfen(p, usi, &err))
        printf("  bad test line %s: %s\n", usi, err.message);
    kifu_position_board(p, &b);
    kifu_position_free(p);
    return b;
}

static kifu__pattern *named(const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/../docs/patterns/%s.txt", KIFU_TESTS_DIR, name);
    size_t len;
    char *text = t_read_file(path, &len);
    if (!text) {
        printf("  cannot read %s\n", path);
        return NULL;
    }
    kifu_error err;
    kifu_error_clear(&err);
    kifu__pattern *p = kifu__pattern_grid(text, len, &err);
    if (!p)
        printf("  %s: %d:%d: %s\n", path, err.line, err.column, err.message);
    free(text);
    return p;
}

/* Games played to each castle (sente's), and one that builds none. */
static const char *const anaguma =
    "position startpos moves 7g7f 8c8d 2g2f 8d8e 5i6h 4a3b 9i9h 6a5b 8h7g 7a7b 6h7h 3a4b "
    "7h8h 1c1d 8h9i 9c9d 7i8h 5a4a 6i7i 6c6d";
static const char *const mino =
    "position startpos moves 7g7f 3c3d 2h6h 8c8d 5i4h 8d8e 4h3h "
    "7a6b 3h2h 5a4b 3i3h 4b3b 6i5h 6a5b";
static const char *const yagura =
    "position startpos moves 7g7f 8c8d 6g6f 8d8e 7i6h 3c3d 6h7g 7a6b 8h7i 5a4b 5i6h 4b3b "
    "6h7h 6a5b 7h8h 1c1d 6i7h 9c9d 4i5h 4a4b 5h6g 6c6d";
static const char *const plain = "position startpos moves 7g7f 3c3d 2g2f 8c8d 2f2e 8d8e";

TEST(named_castles_find_their_games)
{
    const char *names[3] = {"ibisha-anaguma", "mino", "yagura"};
    const char *games[3] = {anaguma, mino, yagura};
    for (int i = 0; i < 3; i++) {
        kifu__pattern *p = named(names[i]);
        CHECK(p != NULL);
        if (!p)
            continue;
        for (int j = 0; j < 3; j++) {
            kifu_board b = after(games[j]);
            CHECK_INT(kifu__pattern_match(p, &b), i == j);
        }
        kifu_board b = after(plain);
        CHECK_INT(kifu__pattern_match(p, &b), 0);
        b = after("startpos");
        CHECK_INT(kifu__pattern_match(p, &b), 0);
        kifu__pattern_free(p);
    }
}

/* Gote's anaguma (玉 1一, 香 1二, 桂 2一, 銀 2二, 金 3一), sente shuffling meanwhile. */
TEST(both_sides_finds_gotes_castle)
{
    kifu_board b =
        after("position startpos moves 2g2f 3c3d 2f2e 2b3c 9g9f 5a4b 1g1f 1a1b "
              "5i5h 4b3b 3i3h 3b2b 7i7h 2b1a 4i4h 3a2b 6i6h 4a3a");
    kifu__pattern *p = named("ibisha-anaguma");
    CHECK(p != NULL);
    if (!p)
        return;
    CHECK_INT(kifu__pattern_match(p, &b), 0);
    kifu__pattern_both_sides(p, 1);
    CHECK_INT(kifu__pattern_match(p, &b), 1);
    kifu_board s = after(anaguma);
    CHECK_INT(kifu__pattern_match(p, &s), 1);
    kifu_board q = after(plain);
    CHECK_INT(kifu__pattern_match(p, &q), 0);
    kifu__pattern_free(p);
}

TEST(regex_over_the_board_letters)
{
    kifu_error err;
    kifu_error_clear(&err);
    /* Sente's king on 5九 (index 77) in the start position: 76 letters, then 'u'. */
    kifu__pattern *p = kifu__pattern_regex("^.{76}u", &err);
    CHECK(p != NULL);
    kifu_board b = after("startpos");
    CHECK_INT(kifu__pattern_match(p, &b), 1);
    b = after(mino);
    CHECK_INT(kifu__pattern_match(p, &b), 0);
    kifu__pattern_free(p);
    /* A bad expression names the column. */
    kifu_error_clear(&err);
    CHECK(kifu__pattern_regex("^.{76}(u", &err) == NULL);
    CHECK_INT(err.code, KIFU_ERR_SYNTAX);
    CHECK(err.column > 0);
    CHECK(strstr(err.message, "regular expression") != NULL);
}

static kifu__pattern *grid(const char *text, kifu_error *err)
{
    kifu_error_clear(err);
    return kifu__pattern_grid(text, strlen(text), err);
}

TEST(wildcards_hands_and_side)
{
    /* Any gote piece on 5一, an empty 5五, any sente piece on 5九, a bishop in sente's
     * hand, gote to move. */
    const char *text =
        "|*********|\n|*********|\n|*********|\n|*********|\n|****・****|\n"
        "|*********|\n|*********|\n|*********|\n|****^?****|\n"
        "先手の持駒：角\n後手番\n";
    char buf[512];
    snprintf(buf, sizeof buf, "|****v?****|\n%s", strchr(text, '\n') + 1);
    kifu_error err;
    kifu__pattern *p = grid(buf, &err);
    CHECK(p != NULL);
    if (!p) {
        printf("  %d:%d %s\n", err.line, err.column, err.message);
        return;
    }
    /* After 7g7f 3c3d 8h2b+ 3a2b sente has a bishop and gote... no: sente to move. */
    kifu_board b = after("position startpos moves 7g7f 3c3d 8h2b+ 3a2b");
    CHECK_INT(kifu__pattern_match(p, &b), 0); /* sente to move */
    b = after("position startpos moves 7g7f 3c3d 8h2b+ 3a2b 2g2f");
    CHECK_INT(kifu__pattern_match(p, &b), 1);
    b = after("position startpos moves 7g7f 3c3d 2g2f");
    CHECK_INT(kifu__pattern_match(p, &b), 0); /* no bishop in hand */
    kifu__pattern_free(p);
    /* なし: the hand must be empty. */
    snprintf(buf, sizeof buf,
             "|*********|\n|*********|\n|*********|\n|*********|\n|*********|\n"
             "|*********|\n|*********|\n|*********|\n|*********|\n先手の持駒：なし\n");
    p = grid(buf, &err);
    CHECK(p != NULL);
    b = after("position startpos moves 7g7f 3c3d 8h2b+ 3a2b 2g2f");
    CHECK_INT(kifu__pattern_match(p, &b), 0);
    b = after("startpos");
    CHECK_INT(kifu__pattern_match(p, &b), 1);
    kifu__pattern_free(p);
}

TEST(a_bod_diagram_is_an_exact_pattern)
{
    const char *bod = "後手の持駒：なし\n"
                      "  ９ ８ ７ ６ ５ ４ ３ ２ １\n"
                      "+---------------------------+\n"
                      "|v香v桂v銀v金v玉v金v銀v桂v香|一\n"
                      "| ・v飛 ・ ・ ・ ・ ・v角 ・|二\n"
                      "|v歩v歩v歩v歩v歩v歩v歩v歩v歩|三\n"
                      "| ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n"
                      "| ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n"
                      "| ・ ・ 歩 ・ ・ ・ ・ ・ ・|六\n"
                      "| 歩 歩 ・ 歩 歩 歩 歩 歩 歩|七\n"
                      "| ・ 角 ・ ・ ・ ・ ・ 飛 ・|八\n"
                      "| 香 桂 銀 金 玉 金 銀 桂 香|九\n"
                      "+---------------------------+\n"
                      "先手の持駒：なし\n";
    kifu_error err;
    kifu__pattern *p = grid(bod, &err);
    CHECK(p != NULL);
    if (!p)
        return;
    kifu_board b = after("position startpos moves 7g7f");
    CHECK_INT(kifu__pattern_match(p, &b), 1);
    b = after("startpos");
    CHECK_INT(kifu__pattern_match(p, &b), 0);
    kifu__pattern_free(p);
}

TEST(grid_errors_name_line_and_column)
{
    kifu_error err;
    CHECK(grid("|*********|\n|****x****|\n", &err) == NULL);
    CHECK_INT(err.code, KIFU_ERR_SYNTAX);
    CHECK_INT(err.line, 2);
    CHECK_INT(err.column, 6);
    CHECK(grid("|*********|\n", &err) == NULL);
    CHECK(strstr(err.message, "1 rows") != NULL);
    CHECK(grid("|**********|\n", &err) == NULL);
    CHECK_INT(err.line, 1);
    CHECK(grid("hello\n", &err) == NULL);
    CHECK_INT(err.line, 1);
    CHECK_INT(err.column, 1);
}

/* Boards of random legal games: every kind of piece, promoted or not, on most squares. */
static size_t random_boards(kifu_board *out, size_t cap)
{
    uint64_t x = 0x9E3779B97F4A7C15ULL;
    size_t n = 0;
    kifu_move moves[600];
    while (n < cap) {
        kifu_position *p = kifu_position_new();
        for (int ply = 0; ply < 200 && n < cap; ply++) {
            size_t k = kifu_position_legal_moves(p, moves, 600);
            if (!k)
                break;
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            kifu_position_play(p, &moves[x % k], NULL);
            kifu_position_board(p, &out[n++]);
        }
        kifu_position_free(p);
    }
    return n;
}

/* Fixed-width expressions are matched on the squares, the rest by PCRE2 on the letters:
 * both give PCRE2's answer on every board. */
TEST(fixed_width_patterns_match_as_pcre2)
{
    static const struct {
        const char *re;
        int fixed; /* read as fixed width (matched without PCRE2) */
    } cases[] = {
        {"^.{56}g.{19}o", 1}, {"^.{76}u", 1},        {"^", 1},
        {"^o{9}", 1},         {"^[^o]{9}", 1},       {"^.{40}[acegikmsu1357q]", 1},
        {"^.{40}[^bdo]", 1},  {"^d.{79}c$", 1},      {"^.{80}$", 1},
        {"^.{81}$", 1},       {"^.{82}", 1},         {"^A", 1},
        {"^.{9}[xyz.*]", 1},  {"^.{20}[^x]", 1},     {"^9", 1},
        {"^.{3}1{0}j", 1},    {"^.{30}[^o]{2}o", 1}, {"^[]a]", 0},
        {"^[a-c]", 0},        {"^a|^b", 0},          {"^(b)", 0},
        {"^.{3,}a", 0},       {".{56}g", 0},         {"^.{4}\\w", 0},
        {"^.{10}o{2}+", 0},   {"^.{5}$x", 0},        {"^.{60}[[:alpha:]]", 0},
    };
    static kifu_board boards[600];
    size_t nb = random_boards(boards, 600);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        kifu_error err;
        kifu_error_clear(&err);
        kifu__pattern *p = kifu__pattern_regex(cases[c].re, &err);
        CHECK(p != NULL);
        if (!p)
            continue;
        long hits = 0, wrong = 0;
        for (size_t i = 0; i < nb; i++) {
            char bd[82], cb[40], cw[40];
            kifu__bd_write(&boards[i], bd, cb, cw);
            int want = kifu__pattern_match_bd(p, bd, &boards[i]);
            int got = kifu__pattern_match(p, &boards[i]);
            hits += want;
            wrong += got != want;
            if ((kifu__pattern_match_squares(p, boards[i].sq) >= 0) != cases[c].fixed)
                wrong++;
        }
        if (wrong)
            printf("  %s: %ld of %zu boards differ (%ld hits)\n", cases[c].re, wrong, nb,
                   hits);
        CHECK_INT(wrong, 0);
        kifu__pattern_free(p);
    }
}

int main(void)
{
    RUN(named_castles_find_their_games);
    RUN(both_sides_finds_gotes_castle);
    RUN(regex_over_the_board_letters);
    RUN(wildcards_hands_and_side);
    RUN(a_bod_diagram_is_an_exact_pattern);
    RUN(grid_errors_name_line_and_column);
    RUN(fixed_width_patterns_match_as_pcre2);
    return t_finish();
}
