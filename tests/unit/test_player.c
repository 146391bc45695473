/* test_player.c: every player operation on records built in code: stepping, go to ply,
 * paths, forks made by adding moves, switching and deleting forks, endings, texts. */
#include <stdlib.h>

#include "harness.h"
#include "kifu.h"
#include "kifu_private.h"
#include "node_time.h"
#include "testutil.h"

#define START_SFEN "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
#define AFTER_76 "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2"

/* Play a USI move at the cursor through the player. 0, or -1. */
static int add(kifu_player *pl, const char *usi)
{
    kifu_move m;
    kifu_error err = {0};
    if (kifu_position_parse_usi(kifu_player_position(pl), usi, &m, &err))
        return -1;
    return kifu_player_add_move(pl, &m, &err);
}

static const char *sfen_here(const kifu_player *pl)
{
    static char buf[256];
    char *s = kifu_position_sfen(kifu_player_position(pl), kifu_player_ply(pl) + 1);
    snprintf(buf, sizeof buf, "%s", s ? s : "(null)");
    kifu_free(s);
    return buf;
}

static const char *usi_here(const kifu_player *pl)
{
    static char buf[8];
    const kifu_move *m = t_move(kifu_player_node(pl));
    return m ? kifu_move_usi(m, buf) : "-";
}

static const char *text_here(const kifu_player *pl, unsigned style)
{
    static char buf[64];
    kifu_node *n = kifu_player_node(pl);
    const kifu_move *m = t_move(n);
    if (!m)
        return kifu_special_text(kifu_node_special(n));
    kifu_node *p = kifu_node_parent(n);
    return kifu_move_text(m, p ? t_move(p) : NULL, style, buf, sizeof buf);
}

/* A record and player with: 7g7f 3c3d 8h2b+ 3a2b (main), forks made by the player. */
static kifu_player *game(kifu_record **r)
{
    *r = kifu_record_new();
    kifu_error err = {0};
    kifu_player *pl = kifu_player_new(*r, &err);
    if (!pl)
        return NULL;
    const char *moves[] = {"7g7f", "3c3d", "8h2b+", "3a2b"};
    for (int i = 0; i < 4; i++)
        if (add(pl, moves[i]))
            return pl;
    return pl;
}

TEST(empty_record)
{
    kifu_record *r = kifu_record_new();
    kifu_error err = {0};
    kifu_player *pl = kifu_player_new(r, &err);
    if (!pl) {
        kifu_record_free(r);
        SKIP("no engine: %s", err.message);
    }
    CHECK(kifu_player_record(pl) == r);
    CHECK(kifu_player_node(pl) == kifu_record_root(r));
    CHECK_INT(kifu_player_ply(pl), 0);
    CHECK_INT(kifu_player_forward(pl), 0);
    CHECK_INT(kifu_player_backward(pl), 0);
    CHECK_INT(kifu_player_go(pl, 10), 0);
    CHECK_INT(kifu_player_fork_count(pl), 1);
    CHECK_INT(kifu_player_switch_fork(pl, 1), -1);
    CHECK_INT(kifu_player_delete_branch(pl), -1);
    CHECK_STR(sfen_here(pl), START_SFEN);
    kifu_player_free(pl);
    kifu_record_free(r);
    CHECK(kifu_player_new(NULL, &err) == NULL);
}

TEST(add_extends_then_steps)
{
    kifu_record *r;
    kifu_player *pl = game(&r);
    if (!pl) {
        kifu_record_free(r);
        SKIP("no engine");
    }
    CHECK_INT(kifu_player_ply(pl), 4);
    CHECK_STR(usi_here(pl), "3a2b");
    /* one line of four moves, no forks */
    int count = 0;
    for (kifu_node *n = kifu_record_root(r); kifu_node_next(n); n = kifu_node_next(n)) {
        CHECK_INT(kifu_node_child_count(n), 1);
        count++;
    }
    CHECK_INT(count, 4);
    CHECK_INT(kifu_player_go(pl, 0), 0);
    CHECK_STR(sfen_here(pl), START_SFEN);
    CHECK_INT(kifu_player_forward(pl), 1);
    CHECK_STR(sfen_here(pl), AFTER_76);
    CHECK_STR(text_here(pl, KIFU_TEXT_KIF), "☗７六歩(77)");
    CHECK_INT(kifu_player_forward(pl), 1);
    CHECK_STR(text_here(pl, KIFU_TEXT_KIF), "☖３四歩(33)");
    CHECK_INT(kifu_player_forward(pl), 1);
    CHECK_STR(text_here(pl, KIFU_TEXT_KIF), "☗２二角成(88)");
    CHECK_INT(kifu_player_forward(pl), 1);
    CHECK_STR(text_here(pl, KIFU_TEXT_KIF), "☖同　銀(31)");
    CHECK_STR(text_here(pl, KIFU_TEXT_KI2), "☖同　銀");
    CHECK_INT(kifu_player_forward(pl), 0);
    CHECK_INT(kifu_player_ply(pl), 4);
    CHECK_INT(kifu_player_backward(pl), 1);
    CHECK_INT(kifu_player_ply(pl), 3);
    CHECK_INT(kifu_player_go(pl, 99), 4);
    CHECK_INT(kifu_player_go(pl, -5), 0);
    CHECK_INT(kifu_player_go(pl, 2), 2);
    CHECK_STR(usi_here(pl), "3c3d");
    /* position after going back and forth equals the one played directly */
    kifu_position *q = kifu_position_new();
    kifu_position_set_sfen(q, "position startpos moves 7g7f 3c3d", NULL);
    CHECK(kifu_position_hash(q) == kifu_position_hash(kifu_player_position(pl)));
    kifu_position_free(q);
    kifu_player_free(pl);
    kifu_record_free(r);
}

TEST(add_follows_or_forks)
{
    kifu_record *r;
    kifu_player *pl = game(&r);
    if (!pl) {
        kifu_record_free(r);
        SKIP("no engine");
    }
    size_t nodes = kifu_record_node_count(r);
    kifu_player_go(pl, 1);
    /* the same move as the existing child: followed, nothing added */
    CHECK_INT(add(pl, "3c3d"), 0);
    CHECK_INT(kifu_record_node_count(r), nodes);
    CHECK_INT(kifu_player_ply(pl), 2);
    CHECK_INT(kifu_player_fork_count(pl), 1);
    /* a different move: a fork (child 1 of the node at ply 1) */
    kifu_player_backward(pl);
    CHECK_INT(add(pl, "8c8d"), 0);
    CHECK_INT(kifu_record_node_count(r), nodes + 1);
    kifu_node *n1 = kifu_node_child(kifu_record_root(r), 0);
    CHECK_INT(kifu_node_child_count(n1), 2);
    CHECK(kifu_player_node(pl) == kifu_node_child(n1, 1));
    CHECK_INT(kifu_node_index(kifu_player_node(pl)), 1);
    CHECK_INT(kifu_player_fork_count(pl), 2);
    CHECK_STR(text_here(pl, KIFU_TEXT_KIF), "☖８四歩(83)");
    /* extend the fork: continuation of the fork line */
    CHECK_INT(add(pl, "2g2f"), 0);
    CHECK_INT(kifu_player_ply(pl), 3);
    CHECK_INT(kifu_player_fork_count(pl), 1);
    char path[64];
    CHECK_STR(kifu_player_path(pl, path, sizeof path), "3,1");
    /* stepping back out of the fork and forward stays in the fork */
    kifu_player_go(pl, 1);
    kifu_player_forward(pl);
    CHECK_STR(usi_here(pl), "8c8d");
    kifu_player_forward(pl);
    CHECK_STR(usi_here(pl), "2g2f");
    CHECK_INT(kifu_player_line_end(pl), 3);
    /* the main line is still there */
    CHECK_INT(kifu_node_child_count(kifu_node_child(n1, 0)), 1);
    /* illegal moves are refused and add nothing */
    kifu_move m = {0};
    m.from_x = 5;
    m.from_y = 9;
    m.to_x = 5;
    m.to_y = 5;
    m.piece = KIFU_OU;
    m.promote = -1;
    kifu_error err = {0};
    size_t before = kifu_record_node_count(r);
    CHECK_INT(kifu_player_add_move(pl, &m, &err), -1);
    CHECK_INT(err.code, KIFU_ERR_ILLEGAL);
    CHECK_INT(kifu_record_node_count(r), before);
    CHECK_INT(kifu_player_ply(pl), 3);
    kifu_player_free(pl);
    kifu_record_free(r);
}

TEST(switch_fork)
{
    kifu_record *r;
    kifu_player *pl = game(&r);
    if (!pl) {
        kifu_record_free(r);
        SKIP("no engine");
    }
    kifu_player_go(pl, 1);
    add(pl, "8c8d"); /* fork 1 at ply 2 */
    kifu_player_backward(pl);
    add(pl, "4a3b"); /* fork 2 at ply 2 */
    CHECK_INT(kifu_player_fork_count(pl), 3);
    CHECK_INT(kifu_player_switch_fork(pl, 0), 0);
    CHECK_STR(usi_here(pl), "3c3d");
    CHECK_INT(kifu_player_line_end(pl), 4); /* the main line runs on to ply 4 */
    CHECK_INT(kifu_player_go(pl, 4), 4);
    CHECK_STR(usi_here(pl), "3a2b");
    kifu_player_go(pl, 2);
    CHECK_INT(kifu_player_switch_fork(pl, 2), 0);
    CHECK_STR(usi_here(pl), "4a3b");
    CHECK_INT(kifu_player_line_end(pl), 2);
    CHECK_INT(kifu_player_switch_fork(pl, 1), 0);
    CHECK_STR(usi_here(pl), "8c8d");
    CHECK_INT(kifu_player_switch_fork(pl, 3), -1);
    CHECK_STR(usi_here(pl), "8c8d");
    /* the position follows the switch */
    kifu_position *q = kifu_position_new();
    kifu_position_set_sfen(q, "position startpos moves 7g7f 8c8d", NULL);
    CHECK(kifu_position_hash(q) == kifu_position_hash(kifu_player_position(pl)));
    kifu_position_free(q);
    kifu_player_free(pl);
    kifu_record_free(r);
}

TEST(go_path)
{
    kifu_record *r;
    kifu_player *pl = game(&r);
    if (!pl) {
        kifu_record_free(r);
        SKIP("no engine");
    }
    /* forks: at ply 2 (alternative 8c8d, which continues 2g2f) and at ply 4 (3a4b... no:
     * 8b2b takes the horse instead of the silver) */
    kifu_player_go(pl, 1);
    add(pl, "8c8d");
    add(pl, "2g2f");
    kifu_player_go_path(pl, "3", NULL);
    add(pl, "8b2b");
    CHECK_INT(kifu_player_ply(pl), 4);
    kifu_error err = {0};
    /* "N": ply N on the main line */
    CHECK_INT(kifu_player_go_path(pl, "4", &err), 0);
    CHECK_STR(usi_here(pl), "3a2b");
    CHECK_INT(kifu_player_go_path(pl, "0", &err), 0);
    CHECK_INT(kifu_player_ply(pl), 0);
    /* "N,c1,c2": choices at the branching points met on the way */
    CHECK_INT(kifu_player_go_path(pl, "3,1", &err), 0);
    CHECK_STR(usi_here(pl), "2g2f");
    CHECK_INT(kifu_player_go_path(pl, "4,0,1", &err), 0);
    CHECK_STR(usi_here(pl), "8b2b");
    CHECK_INT(kifu_player_go_path(pl, "4,0,0", &err), 0);
    CHECK_STR(usi_here(pl), "3a2b");
    CHECK_INT(kifu_player_go_path(pl, "4,0", &err), 0); /* later choices default to 0 */
    CHECK_STR(usi_here(pl), "3a2b");
    /* the cursor's own path reads back */
    char path[64];
    kifu_player_go_path(pl, "4,0,1", &err);
    CHECK_STR(kifu_player_path(pl, path, sizeof path), "4,0,1");
    kifu_player_go_path(pl, "2,1", &err);
    CHECK_STR(kifu_player_path(pl, path, sizeof path), "2,1");
    kifu_player_go_path(pl, "4", &err);
    CHECK_STR(kifu_player_path(pl, path, sizeof path), "4");
    /* "/i/j/k": child indices */
    CHECK_INT(kifu_player_go_path(pl, "/0/1/0", &err), 0);
    CHECK_STR(usi_here(pl), "2g2f");
    CHECK_INT(kifu_player_go_path(pl, "/0/0/0/1", &err), 0);
    CHECK_STR(usi_here(pl), "8b2b");
    CHECK_INT(kifu_player_go_path(pl, "/", &err), 0);
    CHECK_INT(kifu_player_ply(pl), 0);
    /* errors leave the cursor where it was */
    kifu_player_go_path(pl, "3,1", &err);
    const char *bad[] = {"",     "x",   "9",  "2,5",    "3,1,1", "1,1",
                         "/0/3", "/0/", "/a", "4,0,1,", "-1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        kifu_error e = {0};
        CHECK_INT(kifu_player_go_path(pl, bad[i], &e), -1);
        CHECK(e.code != 0);
        CHECK_STR(usi_here(pl), "2g2f");
    }
    CHECK_INT(kifu_player_go_path(pl, NULL, NULL), -1);
    kifu_player_free(pl);
    kifu_record_free(r);
}

TEST(delete_branch)
{
    kifu_record *r;
    kifu_player *pl = game(&r);
    if (!pl) {
        kifu_record_free(r);
        SKIP("no engine");
    }
    kifu_player_go(pl, 1);
    add(pl, "8c8d");
    kifu_node *n1 = kifu_node_child(kifu_record_root(r), 0);
    CHECK_INT(kifu_node_child_count(n1), 2);
    CHECK_INT(kifu_player_delete_branch(pl), 0);
    CHECK_INT(kifu_player_ply(pl), 1);
    CHECK_INT(kifu_node_child_count(n1), 1);
    CHECK_INT(kifu_player_line_end(pl), 4);
    /* deleting the main line's move makes the next fork the main line */
    add(pl, "8c8d");
    kifu_player_switch_fork(pl, 0);
    CHECK_STR(usi_here(pl), "3c3d");
    CHECK_INT(kifu_player_delete_branch(pl), 0);
    CHECK_INT(kifu_node_child_count(n1), 1);
    CHECK_INT(kifu_player_forward(pl), 1);
    CHECK_STR(usi_here(pl), "8c8d");
    CHECK_INT(kifu_player_line_end(pl), 2);
    kifu_player_free(pl);
    kifu_record_free(r);
}

TEST(endings_comments_time)
{
    kifu_record *r;
    kifu_player *pl = game(&r);
    if (!pl) {
        kifu_record_free(r);
        SKIP("no engine");
    }
    kifu_node *n = kifu_player_node(pl);
    kifu_node_add_comment(r, n, "角交換");
    kifu_node_add_bookmark(r, n, "序盤");
    kifu_move_time t = {{-1, 0, 12, 0}, {0, 1, 2, 0}, 1};
    kifu_node_set_time(r, n, &t);
    kifu_error err = {0};
    uint64_t before = kifu_position_hash(kifu_player_position(pl));
    CHECK_INT(kifu_player_add_special(pl, "TORYO", &err), 0);
    CHECK_INT(kifu_player_ply(pl), 5);
    CHECK_STR(text_here(pl, KIFU_TEXT_KIF), "投了");
    /* the position at an ending is the one before it */
    CHECK(kifu_position_hash(kifu_player_position(pl)) == before);
    CHECK_INT(kifu_player_fork_count(pl), 1);
    CHECK_INT(kifu_player_add_move(pl, t_move(n), &err), -1);
    kifu_player_go(pl, 0);
    CHECK_INT(kifu_player_go(pl, 5), 5);
    CHECK_INT(kifu_player_backward(pl), 1);
    CHECK(kifu_player_node(pl) == n);
    CHECK_INT(kifu_node_comment_count(kifu_player_node(pl)), 1);
    CHECK_STR(kifu_node_comment(kifu_player_node(pl), 0), "角交換");
    CHECK_STR(kifu_node_bookmark(kifu_player_node(pl), 0), "序盤");
    CHECK_INT(t_time(kifu_player_node(pl))->now.s, 12);
    /* the same ending again is followed, not added twice */
    size_t nodes = kifu_record_node_count(r);
    CHECK_INT(kifu_player_add_special(pl, "TORYO", &err), 0);
    CHECK_INT(kifu_record_node_count(r), nodes);
    kifu_player_free(pl);
    kifu_record_free(r);
}

TEST(initial_position_and_bad_start)
{
    kifu_record *r = kifu_record_new();
    kifu_board b;
    kifu_position *p = kifu_position_new();
    if (!p || kifu_position_set_sfen(p, "4k4/9/9/9/9/9/9/9/4K4 w G 1", NULL)) {
        kifu_position_free(p);
        kifu_record_free(r);
        SKIP("no engine");
    }
    kifu_position_board(p, &b);
    kifu_record_set_initial(r, &b);
    kifu_error err = {0};
    kifu_player *pl = kifu_player_new(r, &err);
    CHECK(pl != NULL);
    CHECK_INT(kifu_position_side(kifu_player_position(pl)), KIFU_WHITE);
    CHECK_INT(add(pl, "5a5b"), 0);
    CHECK_STR(text_here(pl, KIFU_TEXT_KIF), "☖５二玉(51)");
    kifu_player_free(pl);
    /* real records start from positions no game reaches (二歩 in a tsume problem): kept */
    kifu_board two = b;
    two.sq[KIFU_SQ(2, 1)] = KIFU_FU | (KIFU_WHITE << 4);
    two.sq[KIFU_SQ(2, 2)] = KIFU_FU | (KIFU_WHITE << 4);
    kifu_record_set_initial(r, &two);
    pl = kifu_player_new(r, &err);
    CHECK(pl != NULL);
    kifu_player_free(pl);
    /* a start with two kings of one side is refused */
    b.sq[KIFU_SQ(1, 1)] = KIFU_OU;
    kifu_record_set_initial(r, &b);
    kifu_error e2 = {0};
    CHECK(kifu_player_new(r, &e2) == NULL);
    CHECK(e2.code != 0);
    kifu_position_free(p);
    kifu_record_free(r);
}

TEST(relative_words_of_added_moves)
{
    kifu_record *r = kifu_record_new();
    kifu_player *pl = kifu_player_new(r, NULL);
    if (!pl) {
        kifu_record_free(r);
        SKIP("no engine");
    }
    /* two golds reach ５八: the KI2 text names the one that moved */
    CHECK_INT(add(pl, "6i5h"), 0);
    CHECK_STR(text_here(pl, KIFU_TEXT_KI2), "☗５八金左");
    CHECK_STR(text_here(pl, KIFU_TEXT_KIF), "☗５八金(69)");
    kifu_player_backward(pl);
    CHECK_INT(add(pl, "4i5h"), 0);
    CHECK_STR(text_here(pl, KIFU_TEXT_KI2), "☗５八金右");
    CHECK_INT(add(pl, "3c3d"), 0);
    CHECK_STR(text_here(pl, KIFU_TEXT_KI2), "☖３四歩");
    kifu_player_free(pl);
    kifu_record_free(r);
}

TEST(long_line)
{
    /* 40000 plies of rooks going to and fro: no recursion, go() jumps both ways */
    kifu_record *r = kifu_record_new();
    kifu_player *pl = kifu_player_new(r, NULL);
    if (!pl) {
        kifu_record_free(r);
        SKIP("no engine");
    }
    const char *cycle[] = {"2h3h", "8b7b", "3h2h", "7b8b"};
    int ok = 1;
    for (int i = 0; i < 40000 && ok; i++)
        ok = add(pl, cycle[i % 4]) == 0;
    CHECK(ok);
    CHECK_INT(kifu_player_ply(pl), 40000);
    CHECK_INT(kifu_player_go(pl, 0), 0);
    CHECK_INT(kifu_player_go(pl, 39999), 39999);
    CHECK_STR(usi_here(pl), "3h2h");
    CHECK_INT(kifu_player_go_path(pl, "20001", NULL), 0);
    CHECK_STR(usi_here(pl), "2h3h");
    kifu_player_free(pl);
    kifu_record_free(r);
}

TEST(record_from_reader)
{
    kifu_read_options ro = {.format = KIFU_FMT_SFEN, .flags = KIFU_READ_NO_NORMALIZE};
    const char *text = "position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*5e";
    kifu_error err = {0};
    kifu_record *r = kifu_read(text, strlen(text), &ro, &err);
    if (!r)
        SKIP("no SFEN reader: %s", err.message);
    kifu_player *pl = kifu_player_new(r, &err);
    CHECK(pl != NULL);
    if (pl) {
        CHECK_INT(kifu_player_go(pl, 5), 5);
        CHECK_STR(text_here(pl, KIFU_TEXT_KIF), "☗５五角打");
        CHECK_STR(sfen_here(pl),
                  "lnsgkg1nl/1r5s1/pppppp1pp/6p2/4B4/2P6/PP1PPPPPP/7R1/LNSGKGSNL w b 6");
        kifu_player_free(pl);
    }
    kifu_record_free(r);
}

TEST(out_of_memory)
{
    /* every allocation in turn fails: no crash, and what works still gives a valid tree
     */
    kifu_record *probe = kifu_record_new();
    kifu_player *ok = kifu_player_new(probe, NULL);
    kifu_player_free(ok);
    kifu_record_free(probe);
    if (!ok)
        SKIP("no engine");
    const char *moves[] = {"7g7f", "3c3d", "8h2b+", "3a2b", "B*5e"};
    for (long n = 1; n < 300; n++) {
        kifu__alloc_fail_after(n);
        kifu_record *r = kifu_record_new();
        kifu_player *pl = r ? kifu_player_new(r, NULL) : NULL;
        if (pl) {
            for (int i = 0; i < 5; i++)
                add(pl, moves[i]);
            kifu_player_go(pl, 1);
            add(pl, "8c8d");
            kifu_player_go_path(pl, "3,0", NULL);
            kifu_player_go_path(pl, "/0/1", NULL);
            kifu_player_add_special(pl, "TORYO", NULL);
            kifu_player_delete_branch(pl);
            kifu_player_go(pl, 100);
            CHECK(kifu_player_ply(pl) <= 5);
        }
        kifu__alloc_fail_after(0);
        kifu_player_free(pl);
        kifu_record_free(r);
    }
}

int main(void)
{
    RUN(empty_record);
    RUN(add_extends_then_steps);
    RUN(add_follows_or_forks);
    RUN(switch_fork);
    RUN(go_path);
    RUN(delete_branch);
    RUN(endings_comments_time);
    RUN(initial_position_and_bad_start);
    RUN(relative_words_of_added_moves);
    RUN(long_line);
    RUN(record_from_reader);
    RUN(out_of_memory);
    return t_finish();
}
