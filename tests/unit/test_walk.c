/* test_walk.c: the record walk (kifu_walk_*): event order over nested forks, positions and
 * hashes equal to an independent replay (transpositions share a hash), and every API that
 * walks a tree on a record with 200,000 nested fork levels (no recursion anywhere). */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "kifu.h"
#include "testutil.h"

static kifu_move mv(kifu_position *p, const char *usi)
{
    kifu_move m;
    kifu_position_parse_usi(p, usi, &m, NULL);
    return m;
}

/* root - 7g7f - 3c3d            (main line)
 *      |      \ 8c8d            (fork at ply 2)
 *      \ 2g2f - 3c3d - 7g7f     (fork at ply 1; transposes to the main line + 7g7f? no:
 *                                 reaches 7g7f 3c3d 2g2f's position after three plies) */
static kifu_record *small_tree(void)
{
    kifu_record *r = kifu_record_new();
    kifu_position *p = kifu_position_new();
    kifu_node *root = kifu_record_root(r);
    kifu_move m = mv(p, "7g7f");
    kifu_node *a = kifu_node_add_move(r, root, &m);
    kifu_position_play(p, &m, NULL);
    m = mv(p, "3c3d");
    kifu_node *b = kifu_node_add_move(r, a, &m);
    m = mv(p, "8c8d");
    kifu_node_add_move(r, a, &m);
    m = mv(p, "2g2f");
    (void)b;
    kifu_position_set_sfen(p, "startpos", NULL);
    m = mv(p, "2g2f");
    kifu_node *c = kifu_node_add_move(r, root, &m);
    kifu_position_play(p, &m, NULL);
    m = mv(p, "3c3d");
    c = kifu_node_add_move(r, c, &m);
    kifu_position_play(p, &m, NULL);
    m = mv(p, "7g7f");
    kifu_node_add_move(r, c, &m);
    kifu_position_free(p);
    return r;
}

TEST(event_order)
{
    kifu_record *r = small_tree();
    kifu_walker *w = kifu_walk_new(r, 0, NULL);
    char trace[256] = "";
    int ev;
    while ((ev = kifu_walk_next(w)) > 0) {
        const kifu_node *n = kifu_walk_node(w);
        char usi[8] = "root";
        if (t_move(n))
            kifu_move_usi(t_move(n), usi);
        strcat(trace, ev == KIFU_WALK_ENTER ? "+" : "-");
        strcat(trace, usi);
        strcat(trace, " ");
    }
    CHECK_INT(ev, KIFU_WALK_DONE);
    CHECK_STR(trace, "+root +7g7f +3c3d -3c3d +8c8d -8c8d -7g7f +2g2f +3c3d +7g7f -7g7f "
                     "-3c3d -2g2f -root ");
    kifu_walk_free(w);
    kifu_record_free(r);
}

TEST(positions_and_hashes)
{
    kifu_record *r = small_tree();
    kifu_walker *w = kifu_walk_new(r, KIFU_WALK_POSITIONS, NULL);
    kifu_position *p = kifu_position_new();
    uint64_t line_hash = 0, fork_hash = 0;
    int ev, checked = 0;
    int depth = 0;
    while ((ev = kifu_walk_next(w)) > 0) {
        const kifu_node *n = kifu_walk_node(w);
        if (ev == KIFU_WALK_EXIT) {
            depth--;
            continue;
        }
        /* Replay the path from the start independently. */
        char line[128] = "position startpos moves";
        const kifu_node *x = n;
        const kifu_node *stack[8];
        int k = 0;
        for (; kifu_node_parent(x); x = kifu_node_parent(x))
            stack[k++] = x;
        while (k--) {
            char u[8];
            kifu_move_usi(t_move(stack[k]), u);
            strcat(line, " ");
            strcat(line, u);
        }
        kifu_position_set_sfen(p, line, NULL);
        CHECK(kifu_walk_hash(w) == kifu_position_hash(p));
        kifu_board a, b;
        kifu_walk_board(w, &a);
        kifu_position_board(p, &b);
        CHECK(memcmp(&a, &b, sizeof a) == 0);
        checked++;
        if (strcmp(line, "position startpos moves 7g7f 3c3d") == 0)
            line_hash = kifu_walk_hash(w);
        (void)fork_hash;
        depth++;
    }
    CHECK_INT(checked, 7);
    /* 2g2f 3c3d 7g7f and 7g7f 3c3d 2g2f reach one position: one hash. */
    kifu_position_set_sfen(p, "position startpos moves 7g7f 3c3d 2g2f", NULL);
    uint64_t t1 = kifu_position_hash(p);
    kifu_position_set_sfen(p, "position startpos moves 2g2f 3c3d 7g7f", NULL);
    CHECK(t1 == kifu_position_hash(p));
    CHECK(line_hash != 0);
    kifu_position_free(p);
    kifu_walk_free(w);
    kifu_record_free(r);
}

/* 200,000 nested fork levels: at every level the main child is a dead end and the walk
 * goes on through the fork (kings stepping around, so every move is legal). */
#define LEVELS 200000

static kifu_record *deep(void)
{
    return t_nested_forks(LEVELS);
}

static size_t nodes_by_walk(const kifu_record *r)
{
    kifu_walker *w = kifu_walk_new(r, 0, NULL);
    size_t n = 0;
    int ev;
    while ((ev = kifu_walk_next(w)) > 0)
        n += ev == KIFU_WALK_ENTER;
    kifu_walk_free(w);
    return n;
}

TEST(two_hundred_thousand_nested_forks)
{
    kifu_record *r = deep();
    CHECK_INT(nodes_by_walk(r), 2 * LEVELS + 1);
    kifu_error err;
    kifu_error_clear(&err);
    CHECK_INT(kifu_normalize(r, 0, &err), 0);
    kifu_record *c = kifu_record_clone(r);
    CHECK(c != NULL);
    CHECK_INT(nodes_by_walk(c), 2 * LEVELS + 1);
    /* Positions all the way down. */
    kifu_walker *w = kifu_walk_new(c, KIFU_WALK_POSITIONS, NULL);
    int ev;
    size_t with = 0;
    while ((ev = kifu_walk_next(w)) > 0)
        with += ev == KIFU_WALK_ENTER && kifu_walk_hash(w) != 0;
    CHECK_INT(with, 2 * LEVELS + 1);
    kifu_walk_free(w);
    /* Every writer, the forks written where the format holds them. */
    int formats[] = {KIFU_FMT_JKF, KIFU_FMT_KIFU, KIFU_FMT_KI2U, KIFU_FMT_CSA,
                     KIFU_FMT_SFEN};
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
        kifu_write_options o = {.format = formats[i]};
        size_t len = 0;
        kifu_error_clear(&err);
        char *out = kifu_write(c, &o, &len, &err);
        CHECK(out != NULL);
        if (formats[i] == KIFU_FMT_KIFU && out) {
            /* Read back: the same tree. */
            kifu_read_options ro = {.format = KIFU_FMT_KIFU};
            kifu_record *back = kifu_read(out, len, &ro, &err);
            CHECK(back != NULL);
            if (back)
                CHECK_INT(nodes_by_walk(back), 2 * LEVELS + 1);
            kifu_record_free(back);
        }
        kifu_free(out);
    }
    /* The player down the deepest path, and a deep subtree deleted. */
    kifu_player *pl = kifu_player_new(c, &err);
    CHECK(pl != NULL);
    if (pl) {
        /* Ply 200000 taking the fork at every one of the 200000 branching points. */
        char *path = malloc(8 + 2 * LEVELS + 1);
        strcpy(path, "200000");
        for (int i = 0; i < LEVELS; i++)
            strcpy(path + 6 + 2 * i, ",1");
        CHECK_INT(kifu_player_go_path(pl, path, &err), 0);
        CHECK_INT(kifu_player_ply(pl), LEVELS);
        free(path);
        kifu_player_free(pl);
    }
    kifu_node *first_fork = kifu_node_child(kifu_record_root(c), 1);
    CHECK_INT(kifu_node_delete(c, first_fork), 0);
    CHECK_INT(nodes_by_walk(c), 2);
    kifu_record_free(c);
    kifu_record_free(r);
}

int main(void)
{
    RUN(event_order);
    RUN(positions_and_hashes);
    RUN(two_hundred_thousand_nested_forks);
    return t_finish();
}
