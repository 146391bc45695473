/* test_sfenlist.c: SFEN / USI records and sfenlist (one SFEN per line): reading, writing,
 * round trips, recovered moves, and errors with line and column. */
#include <stdlib.h>

#include "harness.h"
#include "kifu.h"
#include "kifu_private.h"
#include "testutil.h"

#define START "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"

/* Read and normalize: the SFEN reader leaves a move's piece and legality to the
 * normalizer, as the CSA reader does. */
static kifu_record *rd(const char *text, int format, kifu_error *err)
{
    kifu_read_options ro = {.format = format, .source = "test"};
    kifu_error_clear(err);
    return kifu_read(text, strlen(text), &ro, err);
}

static char *wr(const kifu_record *r, int format)
{
    kifu_write_options wo = {.format = format};
    kifu_error err = {0};
    char *s = kifu_write(r, &wo, NULL, &err);
    if (!s)
        printf("  write failed: %s\n", err.message);
    return s;
}

/* The main line as USI moves separated by spaces. */
static const char *line_usi(const kifu_record *r)
{
    static char buf[4096];
    size_t len = 0;
    buf[0] = 0;
    for (const kifu_node *n = kifu_node_next(kifu_record_root(r)); n;
         n = kifu_node_next(n)) {
        const kifu_move *m = t_move(n);
        if (!m)
            break;
        char usi[8];
        len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s", len ? " " : "",
                                kifu_move_usi(m, usi));
        if (len >= sizeof buf - 8)
            break;
    }
    return buf;
}

static int engine_ok(void)
{
    kifu_position *p = kifu_position_new();
    int ok = p && kifu_position_set_sfen(p, "startpos", NULL) == 0;
    kifu_position_free(p);
    return ok;
}

TEST(sfen_read_forms)
{
    if (!engine_ok())
        SKIP("no engine");
    kifu_error err;
    const char *forms[] = {"startpos", "position startpos", "sfen " START, START,
                           "  position sfen " START "  \n\n"};
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        kifu_record *r = rd(forms[i], KIFU_FMT_SFEN, &err);
        CHECK(r != NULL);
        if (!r) {
            printf("  %s: %s\n", forms[i], err.message);
            continue;
        }
        CHECK_INT(kifu_record_preset(r), KIFU_PRESET_HIRATE);
        CHECK(kifu_node_next(kifu_record_root(r)) == NULL);
        kifu_record_free(r);
    }
    kifu_record *r =
        rd("position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*5e", KIFU_FMT_SFEN, &err);
    CHECK(r != NULL);
    if (r) {
        CHECK_STR(line_usi(r), "7g7f 3c3d 8h2b+ 3a2b B*5e");
        const kifu_move *m = t_move(kifu_node_next(kifu_record_root(r)));
        CHECK_INT(m->from_x, 7);
        CHECK_INT(m->to_y, 6);
        CHECK_INT(m->piece, KIFU_FU);
        kifu_record_free(r);
    }
    /* a handicap start is recognised as its preset; other starts keep the board */
    r = rd("lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
           KIFU_FMT_SFEN, &err);
    CHECK(r && kifu_record_preset(r) == KIFU_PRESET_KY);
    kifu_record_free(r);
    r = rd("4k4/9/9/9/9/9/9/9/4K4 b 2G 1", KIFU_FMT_SFEN, &err);
    CHECK(r && kifu_record_preset(r) == KIFU_PRESET_OTHER);
    if (r) {
        kifu_board b;
        kifu_record_initial(r, &b);
        CHECK_INT(b.hands[KIFU_BLACK][KIFU_KI], 2);
        CHECK_INT(b.sq[KIFU_SQ(5, 1)], KIFU_OU | (KIFU_WHITE << 4));
    }
    kifu_record_free(r);
}

TEST(sfen_read_errors)
{
    if (!engine_ok())
        SKIP("no engine");
    kifu_error err;
    /* Empty input is the same error in every format. */
    CHECK(rd("", KIFU_FMT_SFEN, &err) == NULL);
    CHECK_INT(err.code, KIFU_ERR_SYNTAX);
    CHECK(strstr(err.message, "empty") != NULL);
    /* one game a line: a bad second game is named at its line */
    CHECK(rd("startpos\nstartpos moves 7g7f\nsfen 9/9 b - 1\n", KIFU_FMT_SFEN, &err) ==
          NULL);
    CHECK_INT(err.code, KIFU_ERR_SFEN);
    CHECK_INT(err.line, 3);
    CHECK(rd("\nlnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNX b - 1",
             KIFU_FMT_SFEN, &err) == NULL);
    CHECK_INT(err.code, KIFU_ERR_SFEN);
    CHECK_INT(err.line, 2);
    /* an illegal move names its column: "7g7e" starts at character 30 */
    CHECK(rd("position startpos moves 7g7f 7g7e", KIFU_FMT_SFEN, &err) == NULL);
    CHECK(err.code == KIFU_ERR_ILLEGAL || err.code == KIFU_ERR_SFEN);
    CHECK_INT(err.line, 1);
    CHECK_INT(err.column, 30);
    CHECK(rd("position startpos moves 7g7f zz", KIFU_FMT_SFEN, &err) == NULL);
    CHECK_INT(err.column, 30);
    CHECK_STR(err.source, "test");
}

TEST(sfen_write)
{
    if (!engine_ok())
        SKIP("no engine");
    kifu_error err;
    kifu_record *r = rd("position startpos moves 7g7f 3c3d 8h2b+", KIFU_FMT_SFEN, &err);
    CHECK(r != NULL);
    if (!r)
        return;
    char *s = wr(r, KIFU_FMT_SFEN);
    CHECK_STR(s, "position startpos moves 7g7f 3c3d 8h2b+\n");
    kifu_free(s);
    kifu_node_add_special(
        r, kifu_node_next(kifu_node_next(kifu_node_next(kifu_record_root(r)))), "TORYO");
    s = wr(r, KIFU_FMT_SFEN);
    CHECK_STR(s,
              "position startpos moves 7g7f 3c3d 8h2b+\n"); /* the ending is not a move */
    kifu_free(s);
    kifu_record_free(r);
    r = rd("4k4/9/9/9/9/9/9/9/4K4 b G 1", KIFU_FMT_SFEN, &err);
    s = wr(r, KIFU_FMT_SFEN);
    CHECK_STR(s, "position sfen 4k4/9/9/9/9/9/9/9/4K4 b G 1\n");
    kifu_free(s);
    kifu_record_free(r);
    r = kifu_record_new();
    s = wr(r, KIFU_FMT_SFEN);
    CHECK_STR(s, "position startpos\n");
    kifu_free(s);
    kifu_record_free(r);
}

TEST(sfenlist_write_read)
{
    if (!engine_ok())
        SKIP("no engine");
    kifu_error err;
    kifu_record *r =
        rd("position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*5e", KIFU_FMT_SFEN, &err);
    CHECK(r != NULL);
    if (!r)
        return;
    char *s = wr(r, KIFU_FMT_SFENLIST);
    CHECK(s != NULL);
    /* six lines: the start and the position after each move, numbered 1..6 */
    const char *want =
        START "\n"
              "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2\n"
              "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3\n"
              "lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B 4\n"
              "lnsgkg1nl/1r5s1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL b Bb 5\n"
              "lnsgkg1nl/1r5s1/pppppp1pp/6p2/4B4/2P6/PP1PPPPPP/7R1/LNSGKGSNL w b 6\n";
    CHECK_STR(s, want);
    kifu_record *back = s ? rd(s, KIFU_FMT_SFENLIST, &err) : NULL;
    CHECK(back != NULL);
    if (back) {
        CHECK_STR(line_usi(back), "7g7f 3c3d 8h2b+ 3a2b B*5e");
        CHECK_INT(kifu_record_preset(back), KIFU_PRESET_HIRATE);
        char *again = wr(back, KIFU_FMT_SFENLIST);
        CHECK_STR(again, s);
        kifu_free(again);
    }
    /* detection by content: several SFEN lines are a sfenlist */
    if (s)
        CHECK_INT(kifu_format_detect(s, strlen(s)), KIFU_FMT_SFENLIST);
    kifu_record_free(back);
    kifu_free(s);
    kifu_record_free(r);
}

/* A start no game reaches (two black pawns on file 5, as real CSA and KIF games start
 * with nine on one file) is read as other readers read a start, so kifu reads back the
 * SFEN and sfenlist it writes of such a record. The position API stays strict. */
TEST(start_with_two_pawns_on_a_file)
{
    if (!engine_ok())
        SKIP("no engine");
    static const char start[] = "4k4/9/4P4/9/9/9/4P4/9/4K4 b R 1";
    kifu_position *p = kifu_position_new();
    CHECK_INT(kifu_position_set_sfen(p, start, NULL), -1);
    kifu_position_free(p);
    kifu_error err;
    kifu_record *r = rd("sfen 4k4/9/4P4/9/9/9/4P4/9/4K4 b R 1 moves R*5b 5a4a 5b5a+",
                        KIFU_FMT_SFEN, &err);
    CHECK(r != NULL);
    if (!r) {
        printf("  %s\n", err.message);
        return;
    }
    const int formats[2] = {KIFU_FMT_SFEN, KIFU_FMT_SFENLIST};
    for (int f = 0; f < 2; f++) {
        char *s = wr(r, formats[f]);
        kifu_record *back = s ? rd(s, formats[f], &err) : NULL;
        if (!back)
            printf("  %s: %s\n", s ? s : "", err.message);
        CHECK(back != NULL);
        if (back)
            CHECK_STR(line_usi(back), "R*5b 5a4a 5b5a+");
        kifu_record_free(back);
        kifu_free(s);
    }
    kifu_record_free(r);
}

TEST(sfenlist_promotion_choice_and_comments)
{
    if (!engine_ok())
        SKIP("no engine");
    kifu_error err;
    /* 8h2b (no promotion) and 8h2b+ lead to different positions: the right one is found
     */
    const char *text =
        "# a comment line\n"
        "\n" START "\r\n"
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2\n"
        "   lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3\n"
        "lnsgkgsnl/1r5B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B 4";
    kifu_record *r = rd(text, KIFU_FMT_SFENLIST, &err);
    CHECK(r != NULL);
    if (r)
        CHECK_STR(line_usi(r), "7g7f 3c3d 8h2b");
    kifu_record_free(r);
    /* one line only: a start without moves */
    r = rd(START "\n", KIFU_FMT_SFENLIST, &err);
    CHECK(r && kifu_node_next(kifu_record_root(r)) == NULL);
    kifu_record_free(r);
    /* a sfenlist from a non-standard start */
    r = rd("4k4/9/9/9/9/9/9/9/4K4 b G 1\n4k4/9/9/9/9/9/9/9/4K4 w - 2\n",
           KIFU_FMT_SFENLIST, &err);
    CHECK(r == NULL); /* no move leaves the position unchanged but for the hand */
    r = rd("4k4/9/9/9/9/9/9/9/4K4 b G 1\n4k4/4G4/9/9/9/9/9/9/4K4 w - 2\n",
           KIFU_FMT_SFENLIST, &err);
    CHECK(r != NULL);
    if (r)
        CHECK_STR(line_usi(r), "G*5b");
    kifu_record_free(r);
}

TEST(sfenlist_errors)
{
    if (!engine_ok())
        SKIP("no engine");
    kifu_error err;
    CHECK(rd("", KIFU_FMT_SFENLIST, &err) == NULL);
    CHECK(err.code != 0);
    CHECK(rd("\n# only comments\n", KIFU_FMT_SFENLIST, &err) == NULL);
    /* a jump of two moves: no single legal move joins lines 1 and 2 */
    CHECK(rd(START
             "\nlnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3\n",
             KIFU_FMT_SFENLIST, &err) == NULL);
    CHECK_INT(err.code, KIFU_ERR_ILLEGAL);
    CHECK_INT(err.line, 2);
    CHECK_INT(err.column, 1);
    /* a bad SFEN on line 3 */
    CHECK(rd(START
             "\n\nlnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL x - 2\n",
             KIFU_FMT_SFENLIST, &err) == NULL);
    CHECK_INT(err.code, KIFU_ERR_SFEN);
    CHECK_INT(err.line, 3);
    /* the same position twice is not a move */
    CHECK(rd(START "\n" START "\n", KIFU_FMT_SFENLIST, &err) == NULL);
    CHECK_INT(err.line, 2);
}

TEST(sfenlist_long_game)
{
    if (!engine_ok())
        SKIP("no engine");
    /* 2000 plies of rooks to and fro through the sfenlist writer and reader */
    kifu_record *r = kifu_record_new();
    kifu_position *p = kifu_position_new();
    kifu_node *n = kifu_record_root(r);
    const char *cycle[] = {"2h3h", "8b7b", "3h2h", "7b8b"};
    for (int i = 0; i < 2000; i++) {
        kifu_move m;
        kifu_position_parse_usi(p, cycle[i % 4], &m, NULL);
        kifu_position_play(p, &m, NULL);
        n = kifu_node_add_move(r, n, &m);
    }
    char *s = wr(r, KIFU_FMT_SFENLIST);
    kifu_error err;
    kifu_record *back = s ? rd(s, KIFU_FMT_SFENLIST, &err) : NULL;
    CHECK(back != NULL);
    if (back) {
        int count = 0;
        for (kifu_node *k = kifu_node_next(kifu_record_root(back)); k;
             k = kifu_node_next(k))
            count++;
        CHECK_INT(count, 2000);
        char *again = wr(back, KIFU_FMT_SFENLIST);
        CHECK_STR(again, s);
        kifu_free(again);
        char *usi = wr(back, KIFU_FMT_SFEN);
        CHECK(usi &&
              strncmp(usi, "position startpos moves 2h3h 8b7b 3h2h 7b8b 2h3h", 48) == 0);
        kifu_free(usi);
    }
    kifu_record_free(back);
    kifu_free(s);
    kifu_position_free(p);
    kifu_record_free(r);
}

TEST(out_of_memory)
{
    if (!engine_ok())
        SKIP("no engine");
    const char *text = "position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*5e";
    const char *list =
        START "\nlnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2\n";
    int read_ok = 0;
    for (long n = 1; n < 200; n++) {
        kifu_error err;
        kifu__alloc_fail_after(n);
        kifu_record *a = rd(text, KIFU_FMT_SFEN, &err);
        if (!a)
            CHECK(err.code == KIFU_ERR_NOMEM);
        kifu_record *b = rd(list, KIFU_FMT_SFENLIST, &err);
        if (!b && err.code != KIFU_ERR_NOMEM)
            printf("  n=%ld: %s\n", n, err.message);
        if (!b)
            CHECK(err.code == KIFU_ERR_NOMEM);
        kifu_write_options wo = {.format = KIFU_FMT_SFENLIST};
        char *s = a ? kifu_write(a, &wo, NULL, NULL) : NULL;
        kifu__alloc_fail_after(0);
        read_ok += a && b;
        kifu_free(s);
        kifu_record_free(a);
        kifu_record_free(b);
    }
    CHECK(read_ok > 0);
}

int main(void)
{
    RUN(sfen_read_forms);
    RUN(sfen_read_errors);
    RUN(sfen_write);
    RUN(sfenlist_write_read);
    RUN(start_with_two_pawns_on_a_file);
    RUN(sfenlist_promotion_choice_and_comments);
    RUN(sfenlist_errors);
    RUN(sfenlist_long_game);
    RUN(out_of_memory);
    return t_finish();
}
