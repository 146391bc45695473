/* test_fouls.c: a game that ended by a foul reads. Each kind of forbidden move, as the
 * last move of the main line or of a fork, followed by a foul ending or by nothing, is
 * kept as played and marked (kifu_node_foul); the position after it is what the move
 * did; every format writes it back and reads it back the same. With a move after it, it
 * stays an error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "kifu.h"
#include "testutil.h"

static const struct {
    const char *start; /* CSA piece lines and the side to move */
    const char *move;  /* the foul, in CSA */
    int foul;
    int piece_sq; /* KIFU_SQ of the square that holds the moved piece after it */
} fouls[] = {
    {"P+59OU99KY\nP-51HI11OU\n+\n", "+9998KY", KIFU_FOUL_LEFT_IN_CHECK, KIFU_SQ(9, 8)},
    {"P+59OU58KI\nP-51HI11OU\n+\n", "+5848KI", KIFU_FOUL_INTO_CHECK, KIFU_SQ(4, 8)},
    {"P+59OU57FU00FU\nP-11OU\n+\n", "+0055FU", KIFU_FOUL_NIFU, KIFU_SQ(5, 5)},
    {"P+59OU23KI00FU\nP-11OU21KE\n+\n", "+0012FU", KIFU_FOUL_UCHIFUZUME, KIFU_SQ(1, 2)},
    {"P+59OU00FU\nP-11OU\n+\n", "+0091FU", KIFU_FOUL_DEAD_PIECE, KIFU_SQ(9, 1)},
};

static int warnings;
static void on_warn(void *ctx, const char *msg)
{
    (void)ctx;
    (void)msg;
    warnings++;
}

static kifu_record *read_as(const char *text, size_t len, int fmt, kifu_error *err)
{
    kifu_read_options o = {.format = fmt, .warn = on_warn};
    kifu_error_clear(err);
    return kifu_read(text, len, &o, err);
}

/* The node of the foul: the last move of the main line, or of the fork at ply 1. */
static const kifu_node *foul_node(const kifu_record *r, int in_fork)
{
    const kifu_node *n = kifu_record_root(r);
    if (in_fork)
        return kifu_node_child(n, 1);
    while (kifu_node_next(n) && kifu_node_kind_of(kifu_node_next(n)) == KIFU_NODE_MOVE)
        n = kifu_node_next(n);
    return n;
}

static void check_record(const kifu_record *r, size_t i, int in_fork,
                         const char *fmt_name)
{
    const kifu_node *n = foul_node(r, in_fork);
    CHECK(n != NULL);
    if (!n)
        return;
    if (kifu_node_foul(n) != fouls[i].foul)
        printf("  case %zu (%s, fork %d): foul %d, expected %d\n", i, fmt_name, in_fork,
               kifu_node_foul(n), fouls[i].foul);
    CHECK_INT(kifu_node_foul(n), fouls[i].foul);
    const kifu_node *end = kifu_node_next(n);
    CHECK(end && strcmp(kifu_node_special(end), "+ILLEGAL_ACTION") == 0);
    /* The player steps onto it: the piece stands where the foul put it. */
    kifu_error err;
    kifu_player *pl = kifu_player_new((kifu_record *)r, &err);
    CHECK(pl != NULL);
    if (!pl)
        return;
    char path[32];
    snprintf(path, sizeof path, in_fork ? "/1" : "1");
    if (kifu_player_go_path(pl, path, &err) == 0) {
        kifu_board b;
        kifu_position_board(kifu_player_position(pl), &b);
        CHECK(b.sq[fouls[i].piece_sq] != 0);
    } else {
        printf("  case %zu: goto %s: %s\n", i, path, err.message);
        CHECK(0);
    }
    kifu_player_free(pl);
}

TEST(fouls_that_end_a_line)
{
    for (size_t i = 0; i < sizeof fouls / sizeof fouls[0]; i++) {
        for (int ending = 0; ending < 2; ending++) {
            char text[256];
            snprintf(text, sizeof text, "%s%s\n%s", fouls[i].start, fouls[i].move,
                     ending ? "%+ILLEGAL_ACTION\n" : "");
            kifu_error err;
            warnings = 0;
            kifu_record *r = read_as(text, strlen(text), KIFU_FMT_CSA, &err);
            CHECK(r != NULL);
            if (!r) {
                printf("  case %zu: %s\n", i, err.message);
                continue;
            }
            /* Without an ending it is read as one, with a warning. */
            CHECK_INT(warnings, ending ? 0 : 1);
            check_record(r, i, 0, "csa");
            /* Every format writes it and reads it back the same. */
            char *want = t_dump(r);
            for (int f = KIFU_FMT_JKF; f < KIFU_FMT_COUNT_; f++) {
                if (kifu_format_info_of(f)->game != KIFU_GAME_SHOGI)
                    continue; /* another game's format (MSF) */
                size_t len;
                char *out = t_write_as(r, f, KIFU_ENC_UTF8, &len, &err);
                CHECK(out != NULL);
                if (!out)
                    continue;
                kifu_read_options o = {.format = f, .encoding = KIFU_ENC_UTF8};
                kifu_record *back = kifu_read(out, len, &o, &err);
                CHECK(back != NULL);
                if (back) {
                    check_record(back, i, 0, kifu_format_name(f));
                    /* SFEN and sfenlist hold no header or time; a foul comes back
                     * from a sfenlist's two boards and from posjson's `mv`. */
                    if (f != KIFU_FMT_SFEN && f != KIFU_FMT_SFENLIST) {
                        char *got = t_dump(back);
                        if (strcmp(got, want) != 0)
                            printf("  case %zu via %s differs:\n%s\n--\n%s\n", i,
                                   kifu_format_name(f), want, got);
                        CHECK(strcmp(got, want) == 0);
                        free(got);
                    }
                } else {
                    printf("  case %zu via %s: %s\n", i, kifu_format_name(f),
                           err.message);
                }
                kifu_record_free(back);
                kifu_free(out);
            }
            free(want);
            kifu_record_free(r);
        }
    }
}

/* In a fork: the main line plays a legal king move, the fork the foul. */
TEST(a_foul_ending_a_fork)
{
    for (size_t i = 0; i < sizeof fouls / sizeof fouls[0]; i++) {
        char text[256];
        snprintf(text, sizeof text, "%s+5968OU\n", fouls[i].start);
        kifu_error err;
        kifu_record *r = read_as(text, strlen(text), KIFU_FMT_CSA, &err);
        CHECK(r != NULL);
        if (!r)
            continue;
        kifu_move m = {0};
        int fx = fouls[i].move[1] - '0', fy = fouls[i].move[2] - '0';
        m.color = KIFU_BLACK;
        m.from_x = (uint8_t)fx;
        m.from_y = (uint8_t)fy;
        m.to_x = (uint8_t)(fouls[i].move[3] - '0');
        m.to_y = (uint8_t)(fouls[i].move[4] - '0');
        m.piece = (uint8_t)kifu_piece_from_csa(fouls[i].move + 5);
        if (!fx)
            m.flags = KIFU_MOVE_DROP;
        kifu_node *f = kifu_node_add_move(r, kifu_record_root(r), &m);
        CHECK(f && kifu_node_add_special(r, f, "ILLEGAL_MOVE"));
        CHECK_INT(kifu_normalize(r, 0, &err), 0);
        CHECK_INT(kifu_node_foul(f), fouls[i].foul);
        /* Through KIF and JKF, which hold forks. */
        int fmts[] = {KIFU_FMT_KIFU, KIFU_FMT_JKF, KIFU_FMT_KI2U};
        for (size_t k = 0; k < sizeof fmts / sizeof fmts[0]; k++) {
            size_t len;
            char *out = t_write_as(r, fmts[k], KIFU_ENC_UTF8, &len, &err);
            kifu_record *back = out ? read_as(out, len, fmts[k], &err) : NULL;
            CHECK(back != NULL);
            if (back) {
                const kifu_node *bf = kifu_node_child(kifu_record_root(back), 1);
                CHECK(bf && kifu_node_foul(bf) == fouls[i].foul);
            } else {
                printf("  case %zu via %s: %s\n", i, kifu_format_name(fmts[k]),
                       err.message);
            }
            kifu_record_free(back);
            kifu_free(out);
        }
        kifu_record_free(r);
    }
}

/* A foul followed by a move, or by an ending that is not a foul, stays an error; a move
 * no piece can make is an error even at the end. */
TEST(fouls_with_more_after_them_stay_errors)
{
    const char *bad[] = {
        "P+59OU57FU00FU\nP-11OU\n+\n+0055FU\n-1112OU\n",
        "P+59OU57FU00FU\nP-11OU\n+\n+0055FU\n%TORYO\n",
        "P+59OU\nP-11OU\n+\n+5957OU\n",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        kifu_error err;
        kifu_record *r = read_as(bad[i], strlen(bad[i]), KIFU_FMT_CSA, &err);
        CHECK(r == NULL);
        CHECK_INT(err.code, KIFU_ERR_ILLEGAL);
        kifu_record_free(r);
    }
}

/* Who acted illegally, by an ending at a ply where `to_move` moves: ±ILLEGAL_ACTION say
 * it, ILLEGAL_MOVE means the side to move (KIF 反則負け, CSA %ILLEGAL_MOVE). -1: none. */
static int fouler(const char *special, int to_move)
{
    if (!special)
        return -1;
    if (strcmp(special, "ILLEGAL_MOVE") == 0)
        return to_move;
    if (strcmp(special, "+ILLEGAL_ACTION") == 0)
        return KIFU_BLACK;
    if (strcmp(special, "-ILLEGAL_ACTION") == 0)
        return KIFU_WHITE;
    return -1;
}

/* The KIF ending words say who acted illegally from the side to move at the ending: all
 * four combinations (either side, at its turn or just after its move) through KIF, KI2,
 * CSA and JKF and back keep who lost. */
TEST(foul_ending_words_both_sides)
{
    const char *specials[] = {"+ILLEGAL_ACTION", "-ILLEGAL_ACTION"};
    for (int plies = 1; plies <= 2; plies++) {
        for (int s = 0; s < 2; s++) {
            char text[128];
            snprintf(text, sizeof text, "PI\n+\n+7776FU\n%s%%%s\n",
                     plies == 2 ? "-3334FU\n" : "", specials[s]);
            kifu_error err;
            kifu_record *r = read_as(text, strlen(text), KIFU_FMT_CSA, &err);
            CHECK(r != NULL);
            if (!r)
                continue;
            int fmts[] = {KIFU_FMT_KIFU, KIFU_FMT_KI2U, KIFU_FMT_CSA, KIFU_FMT_JKF};
            for (size_t k = 0; k < sizeof fmts / sizeof fmts[0]; k++) {
                size_t len;
                char *out = t_write_as(r, fmts[k], KIFU_ENC_UTF8, &len, &err);
                kifu_record *back = out ? read_as(out, len, fmts[k], &err) : NULL;
                CHECK(back != NULL);
                const kifu_node *end = back ? t_node_at(back, plies + 1) : NULL;
                int to_move = plies % 2 == 0 ? KIFU_BLACK : KIFU_WHITE;
                if (!end || fouler(kifu_node_special(end), to_move) != s) {
                    printf("  %d plies, %s via %s: got %s\n%s\n", plies, specials[s],
                           kifu_format_name(fmts[k]), end ? kifu_node_special(end) : "-",
                           out ? out : "");
                    CHECK(0);
                }
                kifu_record_free(back);
                kifu_free(out);
            }
            kifu_record_free(r);
        }
    }
}

/* A relay's miscopied source square (KIFU_READ_REPAIR): the one legal move of the piece
 * to the square is played, marked 誤記, and the game goes on; a doubled time field is
 * dropped. Without REPAIR both stay errors; where no single move explains the text (two
 * pieces, or none), the move is not repaired. */
TEST(repair_reads_a_miscopied_square_and_goes_on)
{
    const char *relay = "手数----指手---------消費時間--\n"
                        "   1 ７六歩(77)   ( 0:00/00:00:00) ( 0:00/00:00:00)\n"
                        "   2 ３四歩(33)\n"
                        "   3 ２六歩(27)\n"
                        "   4 ８四歩(85)\n"
                        "   5 ２五歩(26)\n"
                        "   6 ８五歩(84)\n";
    const unsigned fix = KIFU_READ_LENIENT | KIFU_READ_REPAIR;
    kifu_error err;
    kifu_record *r = t_read_text(relay, strlen(relay), KIFU_FMT_KIFU, 0, &err);
    CHECK(r == NULL);
    CHECK_INT(err.code, KIFU_ERR_SYNTAX); /* the doubled time, strict */
    r = t_read_text(relay, strlen(relay), KIFU_FMT_KIFU, fix, &err);
    CHECK(r != NULL);
    if (r) {
        const kifu_move *m = t_move_at(r, 4);
        CHECK(m && m->from_x == 8 && m->from_y == 3 && !(m->flags & KIFU_MOVE_RAW));
        CHECK_INT(kifu_node_foul(t_node_at(r, 4)), KIFU_FOUL_MISRECORDED);
        CHECK_STR(kifu_foul_name(KIFU_FOUL_MISRECORDED), "誤記");
        m = t_move_at(r, 6);
        CHECK(m && m->from_x == 8 && m->from_y == 4 && !(m->flags & KIFU_MOVE_RAW));
        CHECK_INT(kifu_node_foul(t_node_at(r, 6)), KIFU_FOUL_NONE);
        CHECK_INT(err.code, KIFU_ERR_ILLEGAL); /* the repaired move's error, told */
        CHECK_INT(err.line, 5);
    }
    kifu_record_free(r);
    /* LENIENT alone: the rest of the line stays as read. */
    r = t_read_text(relay, strlen(relay), KIFU_FMT_KIFU, KIFU_READ_LENIENT, &err);
    CHECK(r == NULL); /* the doubled time field is only dropped when repairing */
    /* No single move explains it: a gold to 5八 from either side (two), a pawn to 5五
     * (none). kifu_read then fails, naming that move. */
    const char *no[] = {
        "手数----指手---------消費時間--\n   1 ５八金(99)\n   2 ３四歩(33)\n",
        "手数----指手---------消費時間--\n   1 ５五歩(99)\n   2 ３四歩(33)\n"};
    for (size_t i = 0; i < 2; i++) {
        r = t_read_text(no[i], strlen(no[i]), KIFU_FMT_KIFU, fix, &err);
        CHECK(r == NULL);
        CHECK_INT(err.code, KIFU_ERR_ILLEGAL);
        CHECK_INT(err.line, 2);
        kifu_record_free(r);
    }
}

int main(void)
{
    RUN(fouls_that_end_a_line);
    RUN(a_foul_ending_a_fork);
    RUN(fouls_with_more_after_them_stay_errors);
    RUN(foul_ending_words_both_sides);
    RUN(repair_reads_a_miscopied_square_and_goes_on);
    return t_finish();
}
