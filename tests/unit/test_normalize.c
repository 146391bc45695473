/* test_normalize.c: the normalizer on small records built here: CSA piece-after
 * promotion, same, capture, promote false only when possible, relative words, KI2 moves
 * without a source square, illegal moves (each reason) with ply and branch, lenient
 * mode, forks, times, presets. Skips when the rules engine is not there yet. */
#include <stdlib.h>

#include "harness.h"
#include "kifu.h"
#include "node_time.h"
#include "testutil.h"

static int engine_ready(void)
{
    kifu_position *p = kifu_position_new();
    kifu_position_free(p);
    return p != NULL;
}

#define NEED_ENGINE()                                                                    \
    do {                                                                                 \
        if (!engine_ready())                                                             \
            SKIP("no rules engine yet");                                                 \
    } while (0)

/* A raw move as a reader gives it. */
static kifu_move raw(int fx, int fy, int tx, int ty, int piece)
{
    kifu_move m;
    memset(&m, 0, sizeof m);
    m.from_x = (uint8_t)fx;
    m.from_y = (uint8_t)fy;
    m.to_x = (uint8_t)tx;
    m.to_y = (uint8_t)ty;
    m.piece = (uint8_t)piece;
    m.promote = -1;
    m.same = -1;
    m.flags = KIFU_MOVE_RAW | KIFU_MOVE_NO_COLOR;
    if (!fx && piece)
        m.flags |= KIFU_MOVE_DROP;
    return m;
}

/* A board from CSA-like tokens: "+59KI -11OU +00FU" (00 = hand). */
static kifu_board board(const char *spec, int color)
{
    kifu_board b;
    memset(&b, 0, sizeof b);
    b.color = (uint8_t)color;
    for (const char *s = spec; *s;) {
        if (*s == ' ') {
            s++;
            continue;
        }
        int c = *s == '-';
        int x = s[1] - '0', y = s[2] - '0';
        char name[3] = {s[3], s[4], 0};
        int k = kifu_piece_from_csa(name);
        if (x == 0)
            b.hands[c][k]++;
        else
            b.sq[KIFU_SQ(x, y)] = (uint8_t)(k | (c << 4));
        s += 5;
    }
    return b;
}

static kifu_record *rec_from(const char *spec, int color)
{
    kifu_record *r = kifu_record_new();
    kifu_board b = board(spec, color);
    kifu_record_set_initial(r, &b);
    return r;
}

/* Adds a chain of moves below `at`; returns the last node. */
static kifu_node *line(kifu_record *r, kifu_node *at, const kifu_move *ms, size_t n)
{
    for (size_t i = 0; i < n; i++)
        at = kifu_node_add_move(r, at, &ms[i]);
    return at;
}

static const kifu_move *mv_at(const kifu_record *r, int ply)
{
    kifu_node *n = kifu_record_root(r);
    for (int i = 0; i < ply && n; i++)
        n = kifu_node_next(n);
    return n ? t_move(n) : NULL;
}

static int norm(kifu_record *r, unsigned flags, kifu_error *err)
{
    kifu_error_clear(err);
    int rc = kifu_normalize(r, flags, err);
    if (rc && !(flags & KIFU_READ_LENIENT))
        printf("    normalize: %s\n", err->message);
    return rc;
}

TEST(csa_piece_after_same_capture)
{
    NEED_ENGINE();
    kifu_record *r = kifu_record_new();
    kifu_move ms[5] = {raw(7, 7, 7, 6, KIFU_FU), raw(3, 3, 3, 4, KIFU_FU),
                       raw(8, 8, 2, 2, KIFU_UM), raw(3, 1, 2, 2, KIFU_GI),
                       raw(0, 0, 4, 5, KIFU_KA)};
    for (int i = 0; i < 5; i++) {
        ms[i].flags = (uint8_t)(KIFU_MOVE_PIECE_AFTER | KIFU_MOVE_RAW |
                                (i == 4 ? KIFU_MOVE_DROP : 0));
        ms[i].color = (uint8_t)(i & 1);
    }
    line(r, kifu_record_root(r), ms, 5);
    kifu_error err;
    CHECK_INT(norm(r, 0, &err), 0);
    const kifu_move *m = mv_at(r, 3);
    CHECK_INT(m->piece, KIFU_KA);
    CHECK_INT(m->promote, 1);
    CHECK_INT(m->capture, KIFU_KA);
    CHECK_INT(m->same, -1);
    CHECK_INT(m->color, 0);
    CHECK_INT(m->flags, 0);
    m = mv_at(r, 4);
    CHECK_INT(m->piece, KIFU_GI);
    CHECK_INT(m->same, 1);
    CHECK_INT(m->capture, KIFU_UM);
    CHECK_INT(m->promote, -1);
    CHECK_INT(m->color, 1);
    m = mv_at(r, 5);
    CHECK_INT(m->piece, KIFU_KA);
    CHECK_INT(m->from_x, 0);
    CHECK(m->flags & KIFU_MOVE_DROP);
    CHECK_STR(m->relative, "");
    m = mv_at(r, 1);
    CHECK_INT(m->promote, -1);
    CHECK_INT(m->same, -1);
    CHECK_INT(kifu_record_preset(r), KIFU_PRESET_NONE);
    kifu_record_free(r);
}

TEST(same_resolved_from_previous_move)
{
    NEED_ENGINE();
    kifu_record *r = kifu_record_new();
    kifu_move ms[4] = {raw(7, 7, 7, 6, 0), raw(3, 3, 3, 4, 0), raw(8, 8, 2, 2, KIFU_KA),
                       raw(3, 1, 0, 0, KIFU_GI)};
    ms[2].promote = 1;
    ms[3].same = 1;
    line(r, kifu_record_root(r), ms, 4);
    kifu_error err;
    CHECK_INT(norm(r, 0, &err), 0);
    const kifu_move *m = mv_at(r, 4);
    CHECK_INT(m->to_x, 2);
    CHECK_INT(m->to_y, 2);
    CHECK_INT(m->same, 1);
    CHECK_INT(m->capture, KIFU_UM);
    CHECK_INT(mv_at(r, 1)->piece, KIFU_FU);
    kifu_record_free(r);
}

TEST(promote_false_only_when_possible)
{
    NEED_ENGINE();
    kifu_record *r = rec_from("+59OU -51OU +44GI +23GI +64KI +78NG -91KY", 0);
    kifu_move ms[7] = {raw(4, 4, 4, 3, 0), raw(9, 1, 9, 2, 0), raw(2, 3, 1, 4, 0),
                       raw(9, 2, 9, 3, 0), raw(6, 4, 6, 3, 0), raw(9, 3, 9, 4, 0),
                       raw(7, 8, 7, 7, 0)};
    line(r, kifu_record_root(r), ms, 7);
    kifu_error err;
    CHECK_INT(norm(r, 0, &err), 0);
    CHECK_INT(mv_at(r, 1)->promote, 0);  /* 4三銀不成: into the zone */
    CHECK_INT(mv_at(r, 2)->promote, -1); /* gote 9二香: outside gote's zone */
    CHECK_INT(mv_at(r, 3)->promote, 0);  /* 1四銀不成: out of the zone */
    CHECK_INT(mv_at(r, 5)->promote, -1); /* a gold never promotes */
    CHECK_INT(mv_at(r, 7)->promote, -1); /* already promoted */
    kifu_record_free(r);
}

/* Normalizes `n` one-move records from position spec (sente to move) and checks the
 * relative word of each. */
typedef struct rcase {
    int fx, fy, tx, ty;
    const char *want;
} rcase;

static void relative_cases(const char *spec, const rcase *cs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        kifu_record *r = rec_from(spec, 0);
        kifu_move m = raw(cs[i].fx, cs[i].fy, cs[i].tx, cs[i].ty, 0);
        if (!cs[i].fx) {
            m.piece = KIFU_KI;
            m.flags |= KIFU_MOVE_DROP;
        }
        kifu_node_add_move(r, kifu_record_root(r), &m);
        kifu_error err;
        CHECK_INT(norm(r, 0, &err), 0);
        const kifu_move *got = mv_at(r, 1);
        if (got && strcmp(got->relative, cs[i].want) != 0) {
            t_failed_checks++;
            printf("    %s: %d%d->%d%d: got \"%s\", want \"%s\"\n", spec, cs[i].fx,
                   cs[i].fy, cs[i].tx, cs[i].ty, got->relative, cs[i].want);
        }
        kifu_record_free(r);
    }
}

TEST(relative_words)
{
    NEED_ENGINE();
    /* 左 右: golds on 6九 and 4九 to 5八. */
    static const rcase lr[] = {{6, 9, 5, 8, "L"}, {4, 9, 5, 8, "R"}, {0, 0, 5, 8, "H"}};
    relative_cases("+99OU -11OU +69KI +49KI +00KI", lr, 3);
    /* 直: golds on 5九 and 4九 to 5八. */
    static const rcase c[] = {{5, 9, 5, 8, "C"}, {4, 9, 5, 8, "R"}};
    relative_cases("+99OU -11OU +59KI +49KI", c, 2);
    /* 上 寄: golds on 5九 and 4八 to 5八; 引: silver 4七 back to 5八 vs gold 5九. */
    static const rcase um[] = {{5, 9, 5, 8, "U"}, {4, 8, 5, 8, "M"}};
    relative_cases("+99OU -11OU +59KI +48KI", um, 2);
    static const rcase d[] = {{4, 7, 5, 8, "D"}, {6, 9, 5, 8, "U"}};
    relative_cases("+99OU -11OU +47GI +69GI", d, 2);
    /* 右上 (RU): golds 4九 6九 4八 to 5八. */
    static const rcase ru[] = {{4, 9, 5, 8, "RU"}, {6, 9, 5, 8, "L"}, {4, 8, 5, 8, "M"}};
    relative_cases("+99OU -11OU +49KI +69KI +48KI", ru, 3);
    /* 左引 (LD): silvers 6七 4七 6九 to 5八. */
    static const rcase ld[] = {{6, 7, 5, 8, "LD"}, {4, 7, 5, 8, "R"}, {6, 9, 5, 8, "U"}};
    relative_cases("+99OU -11OU +67GI +47GI +69GI", ld, 3);
    /* 竜: no 直; 5九 and 4八 dragons to 5七: the straight one is 左. */
    static const rcase ry[] = {{5, 9, 5, 7, "L"}, {4, 8, 5, 7, "R"}};
    relative_cases("+99OU -11OU +59RY +48RY", ry, 2);
    /* Only one piece can go there: no word, and a drop takes no 打. */
    static const rcase none[] = {{6, 9, 5, 8, ""}, {0, 0, 4, 5, ""}};
    relative_cases("+99OU -11OU +69KI +00KI", none, 2);
}

TEST(relative_lance_drop)
{
    NEED_ENGINE();
    /* The lance on 1九 reaches 1五: dropping another there is 打; on 2五 it is not. */
    static const int xs[2] = {1, 2};
    static const char *const want[2] = {"H", ""};
    for (int i = 0; i < 2; i++) {
        kifu_record *r = rec_from("+59OU -51OU +19KY +00KY", 0);
        kifu_move m = raw(0, 0, xs[i], 5, KIFU_KY);
        kifu_node_add_move(r, kifu_record_root(r), &m);
        kifu_error err;
        CHECK_INT(norm(r, 0, &err), 0);
        CHECK_STR(mv_at(r, 1)->relative, want[i]);
        kifu_record_free(r);
    }
    /* Moving the lance itself needs no word. */
    kifu_record *r = rec_from("+59OU -51OU +19KY +00KY", 0);
    kifu_move m = raw(1, 9, 1, 5, 0);
    kifu_node_add_move(r, kifu_record_root(r), &m);
    kifu_error err;
    CHECK_INT(norm(r, 0, &err), 0);
    CHECK_STR(mv_at(r, 1)->relative, "");
    kifu_record_free(r);
}

TEST(relative_for_gote)
{
    NEED_ENGINE();
    /* Gote golds on 4一 and 6一 to 5二: from gote's view 4一 is on the left. */
    kifu_record *r = rec_from("+99OU -19OU -41KI -61KI", 1);
    kifu_move m = raw(4, 1, 5, 2, 0);
    kifu_node_add_move(r, kifu_record_root(r), &m);
    kifu_error err;
    CHECK_INT(norm(r, 0, &err), 0);
    CHECK_STR(mv_at(r, 1)->relative, "L");
    CHECK_INT(mv_at(r, 1)->color, 1);
    kifu_record_free(r);
}

TEST(ki2_moves_resolved_by_relative)
{
    NEED_ENGINE();
    static const struct {
        const char *rel;
        int fx, fy;
    } cs[] = {{"L", 6, 9}, {"M", 4, 8}, {"RU", 4, 9}, {"LU", 6, 9}};
    for (size_t i = 0; i < 4; i++) {
        kifu_record *r = rec_from("+99OU -11OU +49KI +69KI +48KI", 0);
        kifu_move m = raw(0, 0, 5, 8, KIFU_KI);
        m.flags = KIFU_MOVE_RAW;
        strcpy(m.relative, cs[i].rel);
        kifu_node_add_move(r, kifu_record_root(r), &m);
        kifu_error err;
        CHECK_INT(norm(r, 0, &err), 0);
        const kifu_move *g = mv_at(r, 1);
        CHECK_INT(g->from_x, cs[i].fx);
        CHECK_INT(g->from_y, cs[i].fy);
        CHECK_STR(g->relative, cs[i].rel); /* the word as written stays */
        kifu_record_free(r);
    }
    /* Without a word: ambiguous, naming the candidates. */
    kifu_record *r = rec_from("+99OU -11OU +49KI +69KI", 0);
    kifu_move m = raw(0, 0, 5, 8, KIFU_KI);
    m.flags = KIFU_MOVE_RAW;
    kifu_node_add_move(r, kifu_record_root(r), &m);
    kifu_error err;
    kifu_error_clear(&err);
    CHECK_INT(kifu_normalize(r, 0, &err), -1);
    CHECK_INT(err.code, KIFU_ERR_AMBIGUOUS);
    CHECK(strstr(err.message, "(49)") && strstr(err.message, "(69)"));
    CHECK(strstr(err.message, "ply 1") != NULL);
    kifu_record_free(r);
    /* Nothing can get there and none in hand: cannot reach. */
    r = rec_from("+99OU -11OU +49KI", 0);
    m = raw(0, 0, 5, 5, KIFU_KI);
    m.flags = KIFU_MOVE_RAW;
    kifu_node_add_move(r, kifu_record_root(r), &m);
    kifu_error_clear(&err);
    CHECK_INT(kifu_normalize(r, 0, &err), -1);
    CHECK_INT(err.code, KIFU_ERR_ILLEGAL);
    CHECK(strstr(err.message, "cannot reach") != NULL);
    kifu_record_free(r);
    /* No board piece reaches but one is in hand: a drop without 打. */
    r = rec_from("+99OU -11OU +49KI +00KI", 0);
    m = raw(0, 0, 5, 5, KIFU_KI);
    m.flags = KIFU_MOVE_RAW;
    kifu_node_add_move(r, kifu_record_root(r), &m);
    CHECK_INT(norm(r, 0, &err), 0);
    CHECK(mv_at(r, 1)->flags & KIFU_MOVE_DROP);
    kifu_record_free(r);
    /* 成: only the promoting candidate. */
    r = rec_from("+99OU -11OU +44GI", 0);
    m = raw(0, 0, 4, 3, KIFU_GI);
    m.flags = KIFU_MOVE_RAW;
    m.promote = 1;
    kifu_node_add_move(r, kifu_record_root(r), &m);
    CHECK_INT(norm(r, 0, &err), 0);
    CHECK_INT(mv_at(r, 1)->promote, 1);
    CHECK_INT(mv_at(r, 1)->from_x, 4);
    kifu_record_free(r);
}

/* Expects normalizing to fail at `ply` with `reason` in the message. */
static void expect_illegal(kifu_record *r, int ply, const char *reason,
                           const char *branch)
{
    kifu_error err;
    kifu_error_clear(&err);
    CHECK_INT(kifu_normalize(r, 0, &err), -1);
    CHECK_INT(err.code, KIFU_ERR_ILLEGAL);
    char want[32];
    snprintf(want, sizeof want, "ply %d ", ply);
    if (!strstr(err.message, want) || !strstr(err.message, reason) ||
        !strstr(err.message, branch)) {
        t_failed_checks++;
        printf("    message \"%s\" lacks \"%s\", \"%s\" or \"%s\"\n", err.message, want,
               reason, branch);
    }
    CHECK(err.found[0] != 0); /* the move text */
}

TEST(illegal_moves_each_reason)
{
    NEED_ENGINE();
    kifu_error err;
    /* Not your piece: sente moves gote's pawn. */
    kifu_record *r = kifu_record_new();
    kifu_move ms[3] = {raw(7, 7, 7, 6, 0), raw(3, 3, 3, 4, 0), raw(3, 4, 3, 5, 0)};
    line(r, kifu_record_root(r), ms, 3);
    expect_illegal(r, 3, "not your piece", "main line");
    /* Moves before it stay normalized; the record can be written. */
    CHECK_INT(mv_at(r, 2)->color, 1);
    CHECK_INT(mv_at(r, 2)->piece, KIFU_FU);
    kifu_write_options wo = {KIFU_FMT_JKF, 0, 0, NULL, NULL};
    char *out = kifu_write(r, &wo, NULL, &err);
    CHECK(out != NULL);
    kifu_free(out);
    kifu_record_free(r);
    /* No piece there. */
    r = kifu_record_new();
    ms[0] = raw(5, 5, 5, 4, 0);
    line(r, kifu_record_root(r), ms, 1);
    expect_illegal(r, 1, "no piece there", "main line");
    kifu_record_free(r);
    /* Cannot reach: a pawn two squares. */
    r = kifu_record_new();
    ms[0] = raw(7, 7, 7, 5, 0);
    line(r, kifu_record_root(r), ms, 1);
    expect_illegal(r, 1, "cannot reach", "main line");
    kifu_record_free(r);
    /* Fouls with a move after them stay errors (a foul is kept only when it ends its
     * line: see fouls_that_end_a_line). Leaves the king in check: the pinned gold moves
     * away. */
    r = rec_from("+59OU +58KI -51HI -11OU", 0);
    ms[0] = raw(5, 8, 4, 8, 0);
    ms[1] = raw(1, 1, 1, 2, 0);
    line(r, kifu_record_root(r), ms, 2);
    expect_illegal(r, 1, "王手放置", "main line");
    kifu_record_free(r);
    /* 二歩. */
    r = rec_from("+59OU +57FU -11OU +00FU", 0);
    ms[0] = raw(0, 0, 5, 5, KIFU_FU);
    line(r, kifu_record_root(r), ms, 2);
    expect_illegal(r, 1, "二歩", "main line");
    kifu_record_free(r);
    /* 打ち歩詰め: gote king 1一 boxed in by its own knight 2一, gold 2三 guarding. */
    r = rec_from("+59OU -11OU -21KE +23KI +00FU", 0);
    ms[0] = raw(0, 0, 1, 2, KIFU_FU);
    ms[1] = raw(2, 1, 3, 3, 0);
    line(r, kifu_record_root(r), ms, 2);
    expect_illegal(r, 1, "打ち歩詰め", "main line");
    kifu_record_free(r);
}

TEST(forks_normalized_at_their_position)
{
    NEED_ENGINE();
    /* 1.76歩 2.34歩 3.22角成 with forks: 1.26歩 (instead of 76歩) 2.84歩; and 3.68銀 as
     * an alternative to 22角成. */
    kifu_record *r = kifu_record_new();
    kifu_node *root = kifu_record_root(r);
    kifu_move main[3] = {raw(7, 7, 7, 6, 0), raw(3, 3, 3, 4, 0), raw(8, 8, 2, 2, 0)};
    main[2].promote = 1;
    kifu_node *end = line(r, root, main, 3);
    kifu_move f1[2] = {raw(2, 7, 2, 6, 0), raw(8, 3, 8, 4, 0)};
    kifu_node *fe = line(r, root, f1, 2);
    kifu_move f3 = raw(7, 9, 6, 8, 0);
    kifu_node *alt = kifu_node_add_move(r, kifu_node_parent(end), &f3);
    kifu_error err;
    CHECK_INT(norm(r, 0, &err), 0);
    const kifu_move *m = t_move(fe);
    CHECK_INT(m->color, 1);
    CHECK_INT(m->piece, KIFU_FU);
    m = t_move(alt);
    CHECK_INT(m->color, 0);
    CHECK_INT(m->piece, KIFU_GI);
    CHECK_INT(m->same, -1);
    CHECK_INT(t_move(end)->capture, KIFU_KA);
    kifu_record_free(r);

    /* An illegal move in a fork: strict names the fork; lenient keeps the main line. */
    for (int lenient = 0; lenient < 2; lenient++) {
        r = kifu_record_new();
        root = kifu_record_root(r);
        end = line(r, root, main, 3);
        kifu_move bad[2] = {raw(3, 3, 3, 5, 0),
                            raw(7, 7, 7, 6, 0)}; /* gote pawn 2 squares */
        kifu_node *b1 = line(r, kifu_node_parent(kifu_node_parent(end)), bad, 2);
        kifu_move f4 = raw(3, 1, 2, 2, 0);
        kifu_node *after = kifu_node_add_move(r, end, &f4);
        kifu_error_clear(&err);
        int rc = kifu_normalize(r, lenient ? KIFU_READ_LENIENT : 0, &err);
        CHECK_INT(rc, lenient ? 0 : -1);
        CHECK_INT(err.code, KIFU_ERR_ILLEGAL);
        CHECK(strstr(err.message, "fork 1 at ply 2") != NULL);
        CHECK(strstr(err.message, "ply 2 ") != NULL);
        CHECK(t_move(b1)->flags & KIFU_MOVE_RAW);
        if (lenient) {
            /* The rest of the main line, after the fork, is normalized. */
            CHECK_INT(t_move(after)->color, 1);
            CHECK_INT(t_move(after)->piece, KIFU_GI);
            CHECK_INT(t_move(after)->capture, KIFU_UM);
            CHECK_INT(t_move(after)->same, 1);
            CHECK_INT(t_move(end)->capture, KIFU_KA);
        }
        kifu_record_free(r);
    }
}

/* Through kifu_read: strict fails naming the file; lenient returns the record with the
 * illegal move left raw and says why in err. */
TEST(read_strict_and_lenient)
{
    NEED_ENGINE();
    const char *json = "{\"header\":{},\"moves\":[{},"
                       "{\"move\":{\"color\":0,\"from\":{\"x\":7,\"y\":7},\"to\":{\"x\":"
                       "7,\"y\":6},\"piece\":\"FU\"}},"
                       "{\"move\":{\"color\":1,\"from\":{\"x\":3,\"y\":3},\"to\":{\"x\":"
                       "3,\"y\":5},\"piece\":\"FU\"}},"
                       "{\"special\":\"TORYO\"}]}";
    kifu_read_options o = {KIFU_FMT_JKF, KIFU_ENC_AUTO, 0, "game.jkf", NULL, NULL};
    kifu_error err;
    kifu_error_clear(&err);
    kifu_record *r = kifu_read(json, strlen(json), &o, &err);
    CHECK(r == NULL);
    CHECK_INT(err.code, KIFU_ERR_ILLEGAL);
    CHECK_STR(err.source, "game.jkf");
    CHECK(strstr(err.message, "ply 2 (main line)") != NULL);
    CHECK(strstr(err.message, "☖３五歩(33)") != NULL);
    kifu_record_free(r);
    o.flags = KIFU_READ_LENIENT;
    kifu_error_clear(&err);
    r = kifu_read(json, strlen(json), &o, &err);
    CHECK(r != NULL);
    CHECK_INT(err.code, KIFU_ERR_ILLEGAL);
    if (r) {
        CHECK_INT(mv_at(r, 1)->flags, 0);
        CHECK(mv_at(r, 2)->flags & KIFU_MOVE_RAW);
        /* Nothing dropped: the ending is still there and everything can be written. */
        kifu_node *end =
            kifu_node_next(kifu_node_next(kifu_node_next(kifu_record_root(r))));
        CHECK(end && kifu_node_special(end) &&
              strcmp(kifu_node_special(end), "TORYO") == 0);
        kifu_write_options wo = {KIFU_FMT_JKF, 0, 0, NULL, NULL};
        char *out = kifu_write(r, &wo, NULL, &err);
        CHECK(out != NULL);
        kifu_free(out);
    }
    kifu_record_free(r);
}

TEST(totals_from_move_times)
{
    NEED_ENGINE();
    kifu_record *r = kifu_record_new();
    kifu_move ms[4] = {raw(7, 7, 7, 6, 0), raw(3, 3, 3, 4, 0), raw(2, 7, 2, 6, 0),
                       raw(8, 3, 8, 4, 0)};
    kifu_node *n = kifu_record_root(r);
    static const int secs[4] = {30, 50, 3590, 20}, millis[4] = {600, 0, 500, 0};
    for (int i = 0; i < 4; i++) {
        n = kifu_node_add_move(r, n, &ms[i]);
        kifu_move_time t = {{-1, secs[i] / 60, secs[i] % 60, millis[i]}, {0, 0, 0, 0}, 0};
        kifu_node_set_time(r, n, &t);
    }
    kifu_node *sp = kifu_node_add_special(r, n, "TORYO");
    kifu_move_time t = {{-1, 0, 10, 0}, {0, 0, 0, 0}, 0};
    kifu_node_set_time(r, sp, &t);
    kifu_error err;
    CHECK_INT(norm(r, 0, &err), 0);
    const kifu_move_time *t3 = t_time(kifu_node_parent(n));
    CHECK_INT(t3->has_total, 1);
    CHECK_INT(t3->total.h, 1);
    CHECK_INT(t3->total.m, 0);
    CHECK_INT(t3->total.s, 21); /* 30.6 + 3590.5 */
    CHECK_INT(t3->total.ms, 100);
    CHECK_INT(t3->now.h, -1);
    const kifu_move_time *t4 = t_time(n);
    CHECK_INT(t4->total.m, 1);
    CHECK_INT(t4->total.s, 10);         /* 50 + 20 */
    CHECK_INT(t_time(sp)->total.s, 31); /* 3621.1 + 10: sente's clock */
    CHECK_INT(t_time(sp)->total.h, 1);
    kifu_record_free(r);
}

TEST(presets_recognised_and_illegal_action_sign)
{
    NEED_ENGINE();
    for (int p = 0; p < KIFU_PRESET_OTHER; p++) {
        kifu_record *r = kifu_record_new();
        kifu_board b;
        kifu_preset_board(p, &b);
        kifu_record_set_initial(r, &b);
        kifu_error err;
        CHECK_INT(norm(r, 0, &err), 0);
        CHECK_INT(kifu_record_preset(r), p);
        kifu_record_free(r);
    }
    kifu_record *r = kifu_record_new();
    kifu_move m = raw(7, 7, 7, 6, 0);
    kifu_node *n = kifu_node_add_move(r, kifu_record_root(r), &m);
    kifu_node *sp = kifu_node_add_special(r, n, "ILLEGAL_ACTION");
    kifu_error err;
    CHECK_INT(norm(r, 0, &err), 0);
    CHECK_STR(kifu_node_special(sp), "+ILLEGAL_ACTION");
    kifu_record_free(r);
}

TEST(normalizing_twice_changes_nothing)
{
    NEED_ENGINE();
    kifu_record *r = kifu_record_new();
    kifu_move ms[5] = {raw(7, 7, 7, 6, 0), raw(3, 3, 3, 4, 0), raw(8, 8, 2, 2, 0),
                       raw(3, 1, 2, 2, 0), raw(0, 0, 5, 5, KIFU_KA)};
    ms[2].promote = 1;
    line(r, kifu_record_root(r), ms, 5);
    kifu_error err;
    CHECK_INT(norm(r, 0, &err), 0);
    kifu_write_options wo = {KIFU_FMT_JKF, 0, 0, NULL, NULL};
    char *a = kifu_write(r, &wo, NULL, &err);
    CHECK_INT(norm(r, 0, &err), 0);
    char *b = kifu_write(r, &wo, NULL, &err);
    CHECK_STR(a, b);
    kifu_free(a);
    kifu_free(b);
    kifu_record_free(r);
}

/* A line longer than the walk's first frame stack (512 plies), with a fork near its end
 * and an illegal move at ply 1201 that lenient mode marks: every move is reached. */
TEST(long_line_with_fork)
{
    NEED_ENGINE();
    kifu_record *r = kifu_record_new();
    kifu_node *n = kifu_record_root(r), *fork_at = NULL;
    for (int i = 0; i < 1200; i++) {
        static const int k[4][4] = {
            {5, 9, 5, 8}, {5, 1, 5, 2}, {5, 8, 5, 9}, {5, 2, 5, 1}};
        const int *q = k[i % 4];
        kifu_move m = raw(q[0], q[1], q[2], q[3], 0);
        n = kifu_node_add_move(r, n, &m);
        if (i == 1100)
            fork_at = n;
    }
    kifu_move bad = raw(5, 9, 5, 7, 0); /* a king two squares: illegal */
    kifu_node *last = kifu_node_add_move(r, n, &bad);
    kifu_move alt = raw(7, 7, 7, 6, 0); /* ply 1101 instead of the king: a pawn */
    kifu_node *f = kifu_node_add_move(r, kifu_node_parent(fork_at), &alt);
    kifu_error err;
    CHECK_INT(norm(r, 0, &err), -1);
    CHECK_INT(err.code, KIFU_ERR_ILLEGAL);
    CHECK_INT(norm(r, KIFU_READ_LENIENT, &err), 0);
    CHECK(t_move(n) && t_move(n)->piece == KIFU_OU);
    CHECK(!(t_move(n)->flags & KIFU_MOVE_RAW));
    CHECK(t_move(last)->flags & KIFU_MOVE_RAW);
    CHECK_INT(t_move(f)->piece, KIFU_FU);
    CHECK(!(t_move(f)->flags & KIFU_MOVE_RAW));
    CHECK_INT(kifu_node_ply(n), 1200);
    kifu_record_free(r);
}

int main(void)
{
    RUN(long_line_with_fork);
    RUN(csa_piece_after_same_capture);
    RUN(same_resolved_from_previous_move);
    RUN(promote_false_only_when_possible);
    RUN(relative_words);
    RUN(relative_lance_drop);
    RUN(relative_for_gote);
    RUN(ki2_moves_resolved_by_relative);
    RUN(illegal_moves_each_reason);
    RUN(forks_normalized_at_their_position);
    RUN(read_strict_and_lenient);
    RUN(totals_from_move_times);
    RUN(presets_recognised_and_illegal_action_sign);
    RUN(normalizing_twice_changes_nothing);
    return t_finish();
}
