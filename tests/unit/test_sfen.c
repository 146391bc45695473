/* test_sfen.c: SFEN and USI reading (strict, with field and offset in errors) and writing. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "kifu.h"

#define START "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"

/* Set p from text expecting a KIFU_ERR_SFEN error at `offset` whose message contains
 * `part`. */
static void expect_error(const char *text, size_t offset, const char *part)
{
    kifu_position *p = kifu_position_new();
    kifu_error err;
    kifu_error_clear(&err);
    int rc = kifu_position_set_sfen(p, text, &err);
    if (rc != -1 || err.code != KIFU_ERR_SFEN || err.offset != offset ||
        !strstr(err.message, part)) {
        printf(
            "  text: %s\n  rc %d code %d offset %zu (want %zu) column %d message: %s\n",
            text, rc, err.code, err.offset, offset, err.column, err.message);
        t_failed_checks++;
    }
    /* A failed set leaves the position as it was. */
    char *s = kifu_position_sfen(p, 1);
    CHECK_STR(s, START);
    kifu_free(s);
    kifu_position_free(p);
}

static void expect_ok(const char *text, const char *sfen_after)
{
    kifu_position *p = kifu_position_new();
    kifu_error err;
    kifu_error_clear(&err);
    int rc = kifu_position_set_sfen(p, text, &err);
    if (rc != 0)
        printf("  text: %s\n  error: %s\n", text, err.message);
    CHECK_INT(rc, 0);
    char *s = kifu_position_sfen(p, 1);
    CHECK_STR(s, sfen_after);
    kifu_free(s);
    kifu_position_free(p);
}

TEST(startpos_forms)
{
    expect_ok("startpos", START);
    expect_ok(START, START);
    expect_ok("sfen " START, START);
    expect_ok("position startpos", START);
    expect_ok("position sfen " START, START);
    expect_ok("  startpos \n", START);
    /* The move number may be left out. */
    expect_ok("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -", START);
}

TEST(moves_are_played)
{
    expect_ok("position startpos moves 7g7f 3c3d 8h2b+",
              "lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B 1");
    expect_ok("startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e",
              "lnsgkg1nl/1r5s1/pppppp1pp/6p2/5B3/2P6/PP1PPPPPP/7R1/LNSGKGSNL w b 1");
    kifu_position *p = kifu_position_new();
    CHECK_INT(kifu_position_set_sfen(p, "position startpos moves 7g7f 3c3d", NULL), 0);
    CHECK_INT(kifu_position_history_length(p), 2);
    CHECK_INT(kifu_position_undo(p), 0);
    CHECK_INT(kifu_position_undo(p), 0);
    CHECK_INT(kifu_position_undo(p), -1);
    kifu_position_free(p);
}

TEST(round_trip)
{
    static const char *const s[] = {
        "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
        "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
        "8k/9/8P/9/9/9/9/9/9 b G 1",
        "+l+n+s+bk+b+s+n+l/9/9/9/9/9/9/9/4K4 b - 1",
        "4k4/9/9/9/9/9/9/9/9 w 2r2b4g4s4n4l18p 1",
    };
    for (size_t i = 0; i < sizeof s / sizeof *s; i++)
        expect_ok(s[i], s[i]);
    /* Hands are written in the canonical order R B G S N L P, black first. */
    expect_ok("l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
              "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1");
    kifu_position *p = kifu_position_new();
    char *t = kifu_position_sfen(p, 42);
    CHECK(t && strstr(t, " b - 42") != NULL);
    kifu_free(t);
    kifu_position_free(p);
}

TEST(board_errors)
{
    /* rank 3 has ten pawns: the tenth starts at offset 25 */
    expect_error("lnsgkgsnl/1r5b1/pppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", 25,
                 "SFEN board, offset 25: rank 3 has 10 squares");
    expect_error("lnsgkgsnl/1r5b1/pppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", 24,
                 "rank 3 has 8 squares");
    expect_error("lnsgkgsnl/1r5b1/ppppppppp/54/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", 27,
                 "two digits");
    expect_error("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL/9 b - 1", 57,
                 "more than 9 ranks");
    expect_error("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1 b - 1", 47,
                 "only 8 ranks");
    expect_error("lnsgkgsnl/1r5b1/ppppXpppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", 20,
                 "unknown piece letter 'X'");
    expect_error("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNS+GKGSNL b - 1", 51,
                 "'+' before 'G', which cannot promote");
    expect_error("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNS+KKGSNL b - 1", 51,
                 "cannot promote");
    expect_error("", 0, "the board is missing");
}

TEST(position_errors)
{
    /* two black kings: the second found (file order) is named */
    expect_error("4k4/9/9/9/9/9/9/9/3KK4 b - 1", 19, "black has two kings");
    /* pawn, lance on the last rank; knight on the last two ranks */
    expect_error("4k3P/9/9/9/9/9/9/9/4K4 b - 1", 3, "pawn on square 11 can never move");
    expect_error("4k4/9/9/9/9/9/9/9/4K3p w - 1", 21, "white pawn on square 19");
    expect_error("L3k4/9/9/9/9/9/9/9/4K4 b - 1", 0, "lance");
    expect_error("4k4/N8/9/9/9/9/9/9/4K4 b - 1", 4, "knight on square 92");
    expect_error("4k4/9/9/9/9/9/9/n8/4K4 b - 1", 16, "white knight");
    /* 二歩 on the board: the second pawn (the lower one) is named */
    expect_error("4k4/9/4P4/9/9/9/4P4/9/4K4 b - 1", 17, "二歩");
    /* the side that just moved left its king in check */
    expect_error("4k4/9/9/9/9/9/9/9/4K3r w - 1", 19, "black king is in check");
}

TEST(side_hand_and_number_errors)
{
    static const char board[] =
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL";
    char t[200];
    snprintf(t, sizeof t, "%s", board);
    expect_error(t, 57, "the side to move is missing");
    snprintf(t, sizeof t, "%s x - 1", board);
    expect_error(t, 58, "not 'b' or 'w'");
    snprintf(t, sizeof t, "%s b", board);
    expect_error(t, 59, "the hands are missing");
    snprintf(t, sizeof t, "%s b 19p 1", board);
    expect_error(t, 60, "hands"); /* 19 pawns in one hand: more than exist */
    snprintf(t, sizeof t, "%s b P 1", board);
    expect_error(t, 60, "19 pieces of kind P"); /* 18 on the board + 1 in hand */
    snprintf(t, sizeof t, "%s b K 1", board);
    expect_error(t, 60, "unknown piece in hand 'K'");
    snprintf(t, sizeof t, "%s b 0P 1", board);
    expect_error(t, 60, "starts with 0");
    snprintf(t, sizeof t, "%s b - 0", board);
    expect_error(t, 62, "move number");
    snprintf(t, sizeof t, "%s b - 1x", board);
    expect_error(t, 62, "move number");
    snprintf(t, sizeof t, "%s b - 1 extra", board);
    expect_error(t, 64, "unexpected text");
}

TEST(error_fields)
{
    kifu_position *p = kifu_position_new();
    kifu_error err;
    kifu_error_clear(&err);
    CHECK_INT(
        kifu_position_set_sfen(
            p, "lnsgkgsnl/1r5b1/ppppXpppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", &err),
        -1);
    CHECK_INT(err.code, KIFU_ERR_SFEN);
    CHECK_INT(err.line, 1);
    CHECK_INT(err.column, 21);
    CHECK_INT(err.offset, 20);
    CHECK_STR(err.found, "'X'");
    CHECK(err.expected[0] != 0);
    kifu_position_free(p);
}

TEST(usi_move_errors)
{
    expect_error("position startpos moves 7g7f 3c3d 8h1a", 34, "cannot reach");
    expect_error("position startpos moves 7g7f 7g7f", 29, "no piece there");
    expect_error("position startpos moves 7g7f 7c7d 7f7e P*7d", 39,
                 "no such piece in hand");
    expect_error("position startpos moves 7g7x", 24, "bad square");
    expect_error("position startpos junk", 18, "unexpected text");
}

TEST(usi_moves)
{
    kifu_position *p = kifu_position_new();
    kifu_move m;
    char buf[8];
    CHECK_INT(kifu_position_parse_usi(p, "7g7f", &m, NULL), 0);
    CHECK_INT(m.from_x, 7);
    CHECK_INT(m.from_y, 7);
    CHECK_INT(m.to_x, 7);
    CHECK_INT(m.to_y, 6);
    CHECK_INT(m.piece, KIFU_FU);
    CHECK_INT(m.promote, -1);
    CHECK_STR(kifu_move_usi(&m, buf), "7g7f");
    CHECK_INT(kifu_position_set_sfen(p, "position startpos moves 7g7f 3c3d", NULL), 0);
    CHECK_INT(kifu_position_parse_usi(p, "8h2b+", &m, NULL), 0);
    CHECK_INT(m.piece, KIFU_KA);
    CHECK_INT(m.capture, KIFU_KA);
    CHECK_INT(m.promote, 1);
    CHECK_STR(kifu_move_usi(&m, buf), "8h2b+");
    CHECK_INT(kifu_position_parse_usi(p, "8h2b", &m, NULL), 0);
    CHECK_INT(m.promote, 0);
    CHECK_STR(kifu_move_usi(&m, buf), "8h2b");
    CHECK_INT(kifu_position_play(p, &m, NULL), 0);
    CHECK_INT(kifu_position_parse_usi(p, "3a2b", &m, NULL), 0);
    CHECK_INT(kifu_position_play(p, &m, NULL), 0);
    CHECK_INT(kifu_position_parse_usi(p, "B*5e", &m, NULL), 0);
    CHECK_INT(m.from_x, 0);
    CHECK_INT(m.piece, KIFU_KA);
    CHECK(m.flags & KIFU_MOVE_DROP);
    CHECK_STR(kifu_move_usi(&m, buf), "B*5e");
    kifu_error err;
    kifu_error_clear(&err);
    CHECK_INT(kifu_position_parse_usi(p, "R*5e", &m, &err), -1);
    CHECK_INT(err.code, KIFU_ERR_SFEN);
    CHECK_INT(kifu_position_parse_usi(p, "5e", &m, NULL), -1);
    CHECK_INT(kifu_position_parse_usi(p, "5a5b", &m, NULL), -1); /* white's king */
    kifu_position_free(p);
}

TEST(set_board_checks)
{
    kifu_position *p = kifu_position_new();
    kifu_board b;
    kifu_preset_board(KIFU_PRESET_HIRATE, &b);
    CHECK_INT(kifu_position_set_board(p, &b, NULL), 0);
    b.sq[KIFU_SQ(5, 5)] = KIFU_FU; /* a second black pawn on file 5 */
    kifu_error err;
    kifu_error_clear(&err);
    CHECK_INT(kifu_position_set_board(p, &b, &err), -1);
    CHECK(strstr(err.message, "二歩") != NULL);
    kifu_preset_board(KIFU_PRESET_HIRATE, &b);
    b.sq[KIFU_SQ(5, 5)] = KIFU_OU;
    CHECK_INT(kifu_position_set_board(p, &b, NULL), -1);
    kifu_preset_board(KIFU_PRESET_HIRATE, &b);
    b.hands[0][KIFU_HI] = 1;
    CHECK_INT(kifu_position_set_board(p, &b, NULL), -1);
    kifu_preset_board(KIFU_PRESET_HIRATE, &b);
    b.sq[KIFU_SQ(5, 5)] = 15;
    CHECK_INT(kifu_position_set_board(p, &b, NULL), -1);
    /* every preset is accepted, with either side to move */
    for (int pr = KIFU_PRESET_HIRATE; pr < KIFU_PRESET_OTHER; pr++) {
        CHECK_INT(kifu_preset_board(pr, &b), 0);
        CHECK_INT(kifu_position_set_board(p, &b, NULL), 0);
        kifu_board out;
        kifu_position_board(p, &out);
        CHECK(memcmp(&out, &b, sizeof b) == 0);
    }
    kifu_position_free(p);
}

/* Issue 26 (seed 004): a SFEN's move number is kept through reading and every writer that
 * has the field (SFEN/USI, sfenlist), from any of the forms a game starts in. */
static kifu_record *read_as(const char *text, int format)
{
    kifu_read_options o = {0};
    o.format = format;
    kifu_error err;
    kifu_error_clear(&err);
    kifu_record *r = kifu_read(text, strlen(text), &o, &err);
    if (!r)
        printf("  %s: %s\n", text, err.message);
    return r;
}

static char *write_as(const kifu_record *r, int format)
{
    kifu_write_options o = {0};
    o.format = format;
    kifu_error err;
    kifu_error_clear(&err);
    return kifu_write(r, &o, NULL, &err);
}

TEST(move_number_kept)
{
#define FIVE "lnsgkg1nl/1r5s1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL b Bb 5"
#define SIX "lnsgkg1nl/1r5s1/pppppp1pp/6p2/4B4/2P6/PP1PPPPPP/7R1/LNSGKGSNL w b 6"
    static const struct {
        const char *in;
        int format, number;
        const char *sfen, *list;
    } cases[] = {
        {FIVE "\n", KIFU_FMT_SFEN, 5, "position sfen " FIVE "\n", FIVE "\n"},
        {"position sfen " FIVE " moves B*5e\n", KIFU_FMT_SFEN, 5,
         "position sfen " FIVE " moves B*5e\n", FIVE "\n" SIX "\n"},
        {"sfen " FIVE " moves B*5e\n", KIFU_FMT_SFEN, 5,
         "position sfen " FIVE " moves B*5e\n", FIVE "\n" SIX "\n"},
        {FIVE "\n" SIX "\n", KIFU_FMT_SFENLIST, 5, "position sfen " FIVE " moves B*5e\n",
         FIVE "\n" SIX "\n"},
        /* The start position at move 1 stays startpos; without a number, 1. */
        {"position startpos moves 7g7f\n", KIFU_FMT_SFEN, 1,
         "position startpos moves 7g7f\n", NULL},
        {"lnsgkg1nl/1r5s1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL b Bb\n",
         KIFU_FMT_SFEN, 1,
         "position sfen lnsgkg1nl/1r5s1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL b Bb "
         "1\n",
         NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        kifu_record *r = read_as(cases[i].in, cases[i].format);
        CHECK(r != NULL);
        if (!r)
            continue;
        CHECK_INT(kifu_record_start_number(r), cases[i].number);
        char *sfen = write_as(r, KIFU_FMT_SFEN), *list = write_as(r, KIFU_FMT_SFENLIST);
        CHECK_STR(sfen, cases[i].sfen);
        if (cases[i].list)
            CHECK_STR(list, cases[i].list);
        /* A copy keeps it. */
        kifu_record *c = kifu_record_clone(r);
        CHECK(c && kifu_record_start_number(c) == cases[i].number);
        kifu_record_free(c);
        kifu_free(sfen);
        kifu_free(list);
        kifu_record_free(r);
    }
}

int main(void)
{
    RUN(move_number_kept);
    RUN(startpos_forms);
    RUN(moves_are_played);
    RUN(round_trip);
    RUN(board_errors);
    RUN(position_errors);
    RUN(side_hand_and_number_errors);
    RUN(error_fields);
    RUN(usi_move_errors);
    RUN(usi_moves);
    RUN(set_board_checks);
    return t_finish();
}
