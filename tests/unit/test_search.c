/* test_search.c: position search (kifu_search_*) on records built with the engine, where
 * the answer is known by construction: transpositions, the side to move, board-only
 * matches, forks on and off with their paths, the first hit only, patterns, and the
 * position-list letters of the public API. */
#include <string.h>

#include "harness.h"
#include "kifu.h"
#include "testutil.h"

/* A record of USI moves from the start, with a fork of `fork` moves at ply `at` (0: no
 * fork). */
static kifu_record *line(const char *const *moves, size_t n, size_t at,
                         const char *const *fork, size_t nfork)
{
    kifu_record *r = kifu_record_new();
    kifu_position *p = t_position("startpos");
    kifu_node *node = kifu_record_root(r), *branch = NULL;
    for (size_t i = 0; i < n; i++) {
        if (at && i + 1 == at)
            branch = node;
        kifu_move m;
        CHECK_INT(kifu_position_parse_usi(p, moves[i], &m, NULL), 0);
        kifu_position_play(p, &m, NULL);
        node = kifu_node_add_move(r, node, &m);
    }
    if (branch) {
        kifu_position_free(p);
        p = t_position("startpos");
        for (size_t i = 0; i + 1 < at; i++)
            t_play_usi(p, moves[i]);
        for (size_t i = 0; i < nfork; i++) {
            kifu_move m;
            CHECK_INT(kifu_position_parse_usi(p, fork[i], &m, NULL), 0);
            kifu_position_play(p, &m, NULL);
            branch = kifu_node_add_move(r, branch, &m);
        }
    }
    kifu_position_free(p);
    CHECK_INT(kifu_normalize(r, 0, NULL), 0);
    return r;
}

static kifu_board after(const char *usi_line)
{
    kifu_board b;
    kifu_position *p = t_position(usi_line);
    kifu_position_board(p, &b);
    kifu_position_free(p);
    return b;
}

typedef struct seen {
    int plies[16];
    char paths[16][32];
    int n;
} seen;

static int record_hit(void *ctx, const kifu_search_hit *h)
{
    seen *s = ctx;
    if (s->n < 16) {
        s->plies[s->n] = h->ply;
        kifu_node_path(h->node, s->paths[s->n], sizeof s->paths[0]);
        CHECK_INT(h->ply, kifu_node_ply(h->node));
    }
    s->n++;
    return 0;
}

static long count(const kifu_board *b, unsigned flags, const kifu_record *r, seen *s)
{
    kifu_search *q = kifu_search_position(b, flags, NULL);
    memset(s, 0, sizeof *s);
    long n = kifu_search_record(q, r, record_hit, s, NULL);
    kifu_search_free(q);
    return n;
}

TEST(transpositions_are_found)
{
    static const char *const a[] = {"7g7f", "3c3d", "2g2f", "8c8d"};
    static const char *const b[] = {"2g2f", "3c3d", "7g7f", "4a3b"};
    kifu_record *ra = line(a, 4, 0, NULL, 0), *rb = line(b, 4, 0, NULL, 0);
    kifu_board t = after("position startpos moves 7g7f 3c3d 2g2f");
    seen s;
    CHECK_INT(count(&t, 0, ra, &s), 1);
    CHECK_INT(s.plies[0], 3);
    CHECK_INT(count(&t, 0, rb, &s), 1);
    CHECK_INT(s.plies[0], 3);
    CHECK_STR(s.paths[0], "3");
    kifu_record_free(ra);
    kifu_record_free(rb);
}

TEST(side_to_move_and_hands)
{
    /* The bishops are exchanged: after 7g7f 3c3d 8h2b+ 3a2b sente holds a bishop and
     * gote holds one. */
    static const char *const a[] = {"7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"};
    kifu_record *r = line(a, 5, 0, NULL, 0);
    kifu_board t = after("position startpos moves 7g7f 3c3d 8h2b+ 3a2b");
    seen s;
    CHECK_INT(count(&t, 0, r, &s), 1);
    /* The same board with gote's bishop in sente's hand: only the board matches. */
    kifu_board other = t;
    other.hands[KIFU_BLACK][KIFU_KA] = 2;
    other.hands[KIFU_WHITE][KIFU_KA] = 0;
    CHECK_INT(count(&other, 0, r, &s), 0);
    CHECK_INT(count(&other, KIFU_SEARCH_BOARD_ONLY, r, &s), 1);
    CHECK_INT(s.plies[0], 4);
    /* The start with gote to move: only with either side. */
    kifu_board start = after("startpos");
    start.color = KIFU_WHITE;
    CHECK_INT(count(&start, 0, r, &s), 0);
    CHECK_INT(count(&start, KIFU_SEARCH_ANY_SIDE, r, &s), 1);
    CHECK_INT(s.plies[0], 0);
    CHECK_STR(s.paths[0], "0");
    kifu_record_free(r);
}

TEST(forks_on_and_off)
{
    /* Main line 7g7f 3c3d 2g2f; a fork at ply 3 (6g6f) goes on to the target. */
    static const char *const a[] = {"7g7f", "3c3d", "2g2f"};
    static const char *const f[] = {"6g6f", "8c8d"};
    kifu_record *r = line(a, 3, 3, f, 2);
    kifu_board t = after("position startpos moves 7g7f 3c3d 6g6f 8c8d");
    seen s;
    CHECK_INT(count(&t, 0, r, &s), 0);
    CHECK_INT(count(&t, KIFU_SEARCH_FORKS, r, &s), 1);
    CHECK_INT(s.plies[0], 4);
    CHECK_STR(s.paths[0], "4,1");
    /* The path leads there: show --path takes it. */
    kifu_player *pl = kifu_player_new(r, NULL);
    CHECK_INT(kifu_player_go_path(pl, s.paths[0], NULL), 0);
    kifu_board b;
    kifu_position_board(kifu_player_position(pl), &b);
    CHECK(memcmp(b.sq, t.sq, sizeof b.sq) == 0);
    kifu_player_free(pl);
    kifu_record_free(r);
}

TEST(repetition_and_first_hit)
{
    /* The start comes back after four moves, twice. */
    static const char *const a[] = {"5i4h", "5a4b", "4h5i", "4b5a",
                                    "5i4h", "5a4b", "4h5i", "4b5a"};
    kifu_record *r = line(a, 8, 0, NULL, 0);
    kifu_board t = after("startpos");
    seen s;
    CHECK_INT(count(&t, 0, r, &s), 3);
    CHECK_INT(s.plies[1], 4);
    CHECK_INT(s.plies[2], 8);
    CHECK_INT(count(&t, KIFU_SEARCH_FIRST, r, &s), 1);
    CHECK_INT(s.plies[0], 0);
    kifu_record_free(r);
}

TEST(patterns_search_records)
{
    static const char *const a[] = {"7g7f", "3c3d", "2g2f", "4c4d"};
    kifu_record *r = line(a, 4, 0, NULL, 0);
    /* Sente's pawn on 7六: from ply 1 on; and gote's on 4四 too: ply 4. */
    kifu_search *q = kifu_search_regex("^.{47}a", 0, NULL); /* 7六 is letter 48 */
    CHECK(q != NULL);
    seen s = {0};
    CHECK_INT(kifu_search_record(q, r, record_hit, &s, NULL), 4);
    CHECK_INT(s.plies[0], 1);
    kifu_search_free(q);
    static const char grid[] = "| * * * * * * * * *|\n| * * * * * * * * *|\n"
                               "| * * * * * * * * *|\n| * * * * *v歩 * * *|\n"
                               "| * * * * * * * * *|\n| * * 歩 * * * * * *|\n"
                               "| * * * * * * * * *|\n| * * * * * * * * *|\n"
                               "| * * * * * * * * *|\n";
    kifu_error err = {0};
    q = kifu_search_grid(grid, strlen(grid), 0, &err);
    CHECK(q != NULL);
    memset(&s, 0, sizeof s);
    CHECK_INT(q ? kifu_search_record(q, r, record_hit, &s, NULL) : -1, 1);
    CHECK_INT(s.plies[0], 4);
    CHECK(q && kifu_search_expression(q) != NULL);
    kifu_search_free(q);
    /* A fault in a pattern is located. */
    CHECK(kifu_search_regex("([a-", 0, &err) == NULL);
    CHECK(err.column > 0);
    kifu_record_free(r);
}

TEST(board_letters_public)
{
    kifu_board b = after("position startpos moves 7g7f 3c3d 8h2b+"), back;
    char bd[82], cb[40], cw[40];
    kifu_board_to_bd(&b, bd, cb, cw);
    CHECK_STR(cb, "k");
    CHECK_INT(kifu_board_from_bd(bd, cb, cw, &back, NULL), 0);
    CHECK(memcmp(back.sq, b.sq, sizeof b.sq) == 0);
    CHECK(memcmp(back.hands, b.hands, sizeof b.hands) == 0);
    kifu_error err = {0};
    bd[10] = 'x';
    CHECK_INT(kifu_board_from_bd(bd, cb, cw, &back, &err), -1);
    CHECK_INT(err.column, 11);
    CHECK_INT(kifu_board_from_bd("ooo", NULL, NULL, &back, &err), -1);
}

int main(void)
{
    RUN(transpositions_are_found);
    RUN(side_to_move_and_hands);
    RUN(forks_on_and_off);
    RUN(repetition_and_first_hit);
    RUN(patterns_search_records);
    RUN(board_letters_public);
    return t_finish();
}
