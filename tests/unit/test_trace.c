/* test_trace.c: piece traces (src/search/trace.c) on records the engine checks. */
#include <string.h>

#include "harness.h"
#include "kifu.h"

static kifu_record *usi(const char *line)
{
    kifu_read_options o = {.format = KIFU_FMT_SFEN};
    kifu_error err;
    kifu_error_clear(&err);
    kifu_record *r = kifu_read(line, strlen(line), &o, &err);
    if (!r)
        printf("  bad test record: %s\n", err.message);
    return r;
}

TEST(bishop_exchange_and_drop)
{
    kifu_record *r = usi("position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e 4a3b 4e3d");
    CHECK(r != NULL);
    if (!r)
        return;
    kifu_error err;
    kifu_error_clear(&err);
    /* Sente's bishop from 8八: takes on 2二 promoting, then is taken at ply 4. */
    kifu_trace *t = kifu_trace_square(r, NULL, 0, 8, 8, &err);
    CHECK(t != NULL);
    if (t) {
        int x, y, ply, piece, end_ply;
        kifu_trace_start(t, &x, &y, &ply, &piece);
        CHECK_INT(x * 10 + y, 88);
        CHECK_INT(ply, 0);
        CHECK_INT(piece, KIFU_KA);
        CHECK_INT(kifu_trace_count(t), 1);
        const kifu_trace_step *s = kifu_trace_step_at(t, 0);
        CHECK_INT(s->ply, 3);
        CHECK_INT(s->from_x * 10 + s->from_y, 88);
        CHECK_INT(s->to_x * 10 + s->to_y, 22);
        CHECK_INT(s->promote, 1);
        CHECK_INT(s->capture, KIFU_KA);
        CHECK(kifu_trace_step_at(t, 1) == NULL);
        CHECK_INT(kifu_trace_end(t, &end_ply), KIFU_TRACE_CAPTURED);
        CHECK_INT(end_ply, 4);
        kifu_trace_free(t);
    }
    /* The bishop dropped at ply 5: the drop, then 4五 -> 3四, taking a pawn;
     * the line ends at ply 7. */
    t = kifu_trace_moved(r, NULL, 5, &err);
    CHECK(t != NULL);
    if (t) {
        CHECK_INT(kifu_trace_count(t), 2);
        const kifu_trace_step *s = kifu_trace_step_at(t, 0);
        CHECK_INT(s->ply, 5);
        CHECK_INT(s->from_x, 0);
        CHECK_INT(s->to_x * 10 + s->to_y, 45);
        s = kifu_trace_step_at(t, 1);
        CHECK_INT(s->ply, 7);
        CHECK_INT(s->to_x * 10 + s->to_y, 34);
        CHECK_INT(s->promote, 0);
        CHECK_INT(s->capture, KIFU_FU);
        int end_ply;
        CHECK_INT(kifu_trace_end(t, &end_ply), KIFU_TRACE_LINE_END);
        CHECK_INT(end_ply, 7);
        kifu_trace_free(t);
    }
    /* The piece that moved at ply 6: the gold from 4一. */
    t = kifu_trace_moved(r, NULL, 6, &err);
    CHECK(t != NULL);
    if (t) {
        int x, y, ply, piece;
        kifu_trace_start(t, &x, &y, &ply, &piece);
        CHECK_INT(x * 10 + y, 41);
        CHECK_INT(ply, 5);
        CHECK_INT(piece, KIFU_KI | KIFU_WHITE << 4);
        CHECK_INT(kifu_trace_count(t), 1);
        kifu_trace_free(t);
    }
    kifu_record_free(r);
}

TEST(errors)
{
    kifu_record *r = usi("position startpos moves 7g7f 3c3d");
    kifu_error err;
    kifu_error_clear(&err);
    CHECK(kifu_trace_square(r, NULL, 0, 5, 5, &err) == NULL); /* empty square */
    CHECK_INT(err.code, KIFU_ERR_ARG);
    kifu_error_clear(&err);
    CHECK(kifu_trace_square(r, NULL, 9, 7, 7, &err) == NULL); /* past the end */
    kifu_error_clear(&err);
    CHECK(kifu_trace_moved(r, NULL, 0, &err) == NULL);
    kifu_error_clear(&err);
    CHECK(kifu_trace_moved(r, "/1", 1, &err) == NULL); /* no such path */
    kifu_record_free(r);
}

/* A trace follows the line of a path, not the main line. */
TEST(trace_along_a_fork)
{
    kifu_record *r = usi("position startpos moves 7g7f 3c3d 2g2f");
    CHECK(r != NULL);
    if (!r)
        return;
    /* A fork at ply 3: 2g2f in the main line, 7f7e in the fork. */
    kifu_node *n = kifu_node_next(kifu_node_next(kifu_record_root(r)));
    kifu_move m = {.color = KIFU_BLACK,
                   .from_x = 7,
                   .from_y = 6,
                   .to_x = 7,
                   .to_y = 5,
                   .piece = KIFU_FU,
                   .promote = -1,
                   .same = -1};
    CHECK(kifu_node_add_move(r, n, &m) != NULL);
    kifu_error err;
    kifu_error_clear(&err);
    kifu_trace *main_line = kifu_trace_square(r, NULL, 0, 7, 7, &err);
    kifu_trace *fork = kifu_trace_square(r, "3,1", 0, 7, 7, &err);
    CHECK(main_line && fork);
    if (main_line && fork) {
        CHECK_INT(kifu_trace_count(main_line), 1);
        CHECK_INT(kifu_trace_count(fork), 2);
        CHECK_INT(kifu_trace_step_at(fork, 1)->to_y, 5);
    }
    kifu_trace_free(main_line);
    kifu_trace_free(fork);
    kifu_record_free(r);
}

int main(void)
{
    RUN(bishop_exchange_and_drop);
    RUN(errors);
    RUN(trace_along_a_fork);
    return t_finish();
}
