/* test_record.c: the record tree: header order, forks, deletion, clone, out of memory. */
#include "harness.h"
#include "kifu.h"
#include "kifu_private.h"
#include "node_time.h"
#include "testutil.h"

static kifu_move mv(int fx, int fy, int tx, int ty, int piece, int color)
{
    kifu_move m = {0};
    m.color = (uint8_t)color;
    m.from_x = (uint8_t)fx, m.from_y = (uint8_t)fy;
    m.to_x = (uint8_t)tx, m.to_y = (uint8_t)ty;
    m.piece = (uint8_t)piece;
    m.promote = -1;
    m.same = -1;
    return m;
}

TEST(header_keeps_order_and_unknown_keys)
{
    kifu_record *r = kifu_record_new();
    CHECK(r != NULL);
    CHECK_INT(kifu_record_header_add(r, "先手", "na2hiro"), 0);
    CHECK_INT(kifu_record_header_add(r, "独自キー", "x"), 0);
    CHECK_INT(kifu_record_header_add(r, "後手", "b"), 0);
    CHECK_INT(kifu_record_header_set(r, "先手", "A"), 0);
    const char *k, *v;
    CHECK_INT(kifu_record_header_count(r), 3);
    kifu_record_header_at(r, 0, &k, &v);
    CHECK_STR(k, "先手");
    CHECK_STR(v, "A");
    kifu_record_header_at(r, 1, &k, &v);
    CHECK_STR(k, "独自キー");
    CHECK_STR(kifu_record_header_get(r, "後手"), "b");
    CHECK(kifu_record_header_get(r, "棋戦") == NULL);
    CHECK_INT(kifu_record_header_at(r, 3, &k, &v), -1);
    kifu_record_free(r);
}

TEST(tree_forks_delete_reorder)
{
    kifu_record *r = kifu_record_new();
    kifu_node *root = kifu_record_root(r);
    kifu_move m1 = mv(7, 7, 7, 6, KIFU_FU, 0), m1b = mv(2, 7, 2, 6, KIFU_FU, 0);
    kifu_node *a = kifu_node_add_move(r, root, &m1);
    kifu_node *b = kifu_node_add_move(r, root, &m1b);
    kifu_node *end = kifu_node_add_special(r, a, "TORYO");
    CHECK_INT(kifu_node_ply(a), 1);
    CHECK_INT(kifu_node_ply(end), 2);
    CHECK(kifu_node_next(root) == a);
    CHECK(kifu_node_child(root, 1) == b);
    CHECK_INT(kifu_node_index(b), 1);
    CHECK_STR(kifu_node_special(end), "TORYO");
    CHECK_INT(kifu_node_get_move(end, NULL), 0);
    CHECK_INT(kifu_node_set_move(r, end, &m1), -1);
    CHECK_INT(kifu_node_reorder(root, 1, 0), 0);
    CHECK(kifu_node_next(root) == b);
    CHECK_INT(kifu_node_delete(r, b), 0);
    CHECK(kifu_node_next(root) == a);
    CHECK_INT(kifu_node_child_count(root), 1);
    CHECK_INT(kifu_node_delete(r, root), -1);
    kifu_record_free(r);
}

TEST(comments_times_bookmarks_clone)
{
    kifu_record *r = kifu_record_new();
    kifu_node *root = kifu_record_root(r);
    kifu_node_add_comment(r, root, "初期局面");
    kifu_move m = mv(7, 7, 7, 6, KIFU_FU, 0);
    kifu_node *a = kifu_node_add_move(r, root, &m);
    kifu_move_time t = {{-1, 0, 16, 0}, {0, 0, 16, 0}, 1};
    kifu_node_set_time(r, a, &t);
    kifu_node_add_bookmark(r, a, "序盤");
    /* A long line: clone must not recurse per move. */
    kifu_node *n = a;
    for (int i = 0; i < 200000; i++)
        n = kifu_node_add_move(r, n, &m);
    kifu_node_add_move(r, a, &m); /* a fork at ply 2 */
    kifu_record *c = kifu_record_clone(r);
    CHECK(c != NULL);
    kifu_node *ca = kifu_node_next(kifu_record_root(c));
    CHECK_STR(kifu_node_comment(kifu_record_root(c), 0), "初期局面");
    CHECK_STR(kifu_node_bookmark(ca, 0), "序盤");
    CHECK_INT(t_time(ca)->now.s, 16);
    CHECK_INT(kifu_node_child_count(ca), 2);
    CHECK_INT(kifu_record_node_count(c), kifu_record_node_count(r));
    kifu_record_free(c);
    kifu_record_free(r);
}

TEST(presets)
{
    kifu_board b;
    CHECK_INT(kifu_preset_board(KIFU_PRESET_HIRATE, &b), 0);
    CHECK_INT(b.sq[KIFU_SQ(5, 9)], KIFU_OU);
    CHECK_INT(b.sq[KIFU_SQ(5, 1)], KIFU_OU | 16);
    CHECK_INT(b.sq[KIFU_SQ(2, 8)], KIFU_HI);
    CHECK_INT(b.sq[KIFU_SQ(8, 2)], KIFU_HI | 16);
    CHECK_INT(b.color, 0);
    for (int p = 0; p < KIFU_PRESET_OTHER; p++) {
        CHECK_INT(kifu_preset_board(p, &b), 0);
        CHECK_INT(kifu_preset_match(&b), p);
    }
    kifu_preset_board(KIFU_PRESET_KY, &b);
    CHECK_INT(b.sq[KIFU_SQ(1, 1)], 0);
    CHECK_INT(b.sq[KIFU_SQ(9, 1)], KIFU_KY | 16);
    CHECK_INT(b.color, 1);
    CHECK_STR(kifu_preset_name(KIFU_PRESET_7_L), "7_L");
    CHECK_INT(kifu_preset_from_name("5_L"), KIFU_PRESET_5_L);
    CHECK_INT(kifu_preset_board(KIFU_PRESET_OTHER, &b), -1);
}

TEST(out_of_memory_is_reported_not_fatal)
{
    /* Fail each allocation in turn while building a small record: never a crash. */
    for (long n = 1; n < 40; n++) {
        kifu__alloc_fail_after(n);
        kifu_record *r = kifu_record_new();
        int ok = r != NULL;
        if (r) {
            ok = kifu_record_header_add(r, "先手", "x") == 0;
            kifu_move m = mv(7, 7, 7, 6, KIFU_FU, 0);
            kifu_node *a = ok ? kifu_node_add_move(r, kifu_record_root(r), &m) : NULL;
            ok = ok && a && kifu_node_add_comment(r, a, "c") == 0;
        }
        kifu__alloc_fail_after(0);
        kifu_record_free(r);
        (void)ok;
    }
    CHECK(1);
}

/* Times are kept packed (milliseconds) when their fields are in range and whole when not:
 * either way every field comes back as it was set, and a copy keeps it. */
TEST(times_come_back_as_set)
{
    static const kifu_move_time cases[] = {
        {{-1, 0, 16, 0}, {0, 0, 16, 0}, 1},       /* KIF ( 0:16/00:00:16) */
        {{-1, 75, 3, 0}, {1, 15, 3, 0}, 1},       /* minutes past 59 without hours */
        {{-1, 0, 12, 345}, {-1, 0, 0, 0}, 0},     /* CSA T12.345, no total yet */
        {{0, 0, 5, 0}, {-1, 130, 59, 999}, 1},    /* an hour field of 0; total without */
        {{-1, 0, 75, 0}, {0, 0, 75, 0}, 1},       /* seconds past 59 (a JKF may say so) */
        {{0, 61, 0, 0}, {0, 0, 0, 0}, 1},         /* minutes past 59 with hours */
        {{-1, 0, 0, 0}, {1193, 2, 47, 295}, 1},   /* a total past 32-bit milliseconds */
        {{-1, 60000000, 0, 0}, {-1, 0, 0, 0}, 0}, /* JKF's largest minutes */
        {{-1, -1, 0, 0}, {-1, 0, 0, 0}, 0},       /* negative */
    };
    kifu_record *r = kifu_record_new();
    kifu_node *n = kifu_record_root(r);
    size_t k = sizeof cases / sizeof cases[0];
    kifu_move m = {0, 7, 7, 7, 6, KIFU_FU, 0, -1, -1, "", KIFU_MOVE_RAW};
    for (size_t i = 0; i < k; i++) {
        n = kifu_node_add_move(r, n, &m);
        CHECK(n != NULL);
        CHECK_INT(kifu_node_set_time(r, n, &cases[i]), 0);
    }
    kifu_record *c = kifu_record_clone(r);
    for (int copy = 0; copy < 2; copy++) {
        n = kifu_record_root(copy ? c : r);
        for (size_t i = 0; i < k; i++) {
            n = kifu_node_next(n);
            kifu_move_time t;
            memset(&t, 0x55, sizeof t);
            CHECK_INT(kifu_node_get_time(n, &t), 1);
            const kifu_move_time *w = &cases[i];
            int same = t.has_total == w->has_total && t.now.h == w->now.h &&
                       t.now.m == w->now.m && t.now.s == w->now.s &&
                       t.now.ms == w->now.ms && t.total.h == w->total.h &&
                       t.total.m == w->total.m && t.total.s == w->total.s &&
                       t.total.ms == w->total.ms;
            CHECK(same);
            if (!same)
                printf("    case %zu: %d:%d:%d.%d / %d:%d:%d.%d (%d)\n", i, t.now.h,
                       t.now.m, t.now.s, t.now.ms, t.total.h, t.total.m, t.total.s,
                       t.total.ms, t.has_total);
        }
    }
    /* Removed, and set again. */
    CHECK_INT(kifu_node_set_time(r, n, NULL), 0);
    CHECK_INT(kifu_node_get_time(n, NULL), 0);
    CHECK_INT(kifu_node_set_time(r, n, &cases[0]), 0);
    CHECK_INT(kifu_node_get_time(n, NULL), 1);
    kifu_record_free(c);
    kifu_record_free(r);
}

int main(void)
{
    RUN(header_keeps_order_and_unknown_keys);
    RUN(tree_forks_delete_reorder);
    RUN(comments_times_bookmarks_clone);
    RUN(times_come_back_as_set);
    RUN(presets);
    RUN(out_of_memory_is_reported_not_fatal);
    return t_finish();
}
