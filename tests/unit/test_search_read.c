/* test_search_read.c: kifu_search_read, the search inside the normalizer, against the
 * two-pass search it replaces (kifu_read_all, then kifu_search_record per record, which
 * test_search.c checks on answers known by construction). Random legal games with forks
 * (forks of forks too) written as KIF, JKF and CSA are searched both ways for positions
 * taken from the games themselves and for patterns: every hit (game, ply, path, position)
 * must be the same, in the same order, under every flag. Also: a bad input reports no
 * hit, a lenient read searches the legal part, and a callback can stop a record. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "kifu.h"
#include "kifu_private.h"
#include "testutil.h"

static uint64_t rng_state = 88172645463325252ULL;

static unsigned rnd(unsigned n)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (unsigned)(rng_state % n);
}

/* Up to `plies` random legal moves under node from position p (played on p). */
static kifu_node *grow(kifu_record *r, kifu_node *node, kifu_position *p, int plies)
{
    kifu_move moves[600];
    for (int i = 0; i < plies; i++) {
        size_t n = kifu_position_legal_moves(p, moves, 600);
        if (!n)
            break;
        kifu_move m = moves[rnd((unsigned)n)];
        CHECK_INT(kifu_position_play(p, &m, NULL), 0);
        node = kifu_node_add_move(r, node, &m);
    }
    return node;
}

/* A random game: a main line, forks from it and from the forks. */
static kifu_record *random_game(void)
{
    kifu_record *r = kifu_record_new();
    kifu_position *p = t_position("startpos");
    kifu_node *node = kifu_record_root(r);
    /* Fork points: a node and the position at it. */
    kifu_node *at[8];
    kifu_position *pos[8];
    int nat = 0, plies = 20 + (int)rnd(100);
    for (int i = 0; i < plies; i++) {
        if (nat < 4 && rnd(16) == 0) {
            at[nat] = node;
            pos[nat++] = kifu_position_clone(p);
        }
        kifu_node *next = grow(r, node, p, 1);
        if (next == node)
            break;
        node = next;
    }
    for (int k = 0; k < nat; k++) {
        kifu_node *fork = at[k];
        for (int i = 3 + (int)rnd(20); i > 0; i--) {
            if (nat < 8 && rnd(6) == 0) {
                at[nat] = fork;
                pos[nat++] = kifu_position_clone(pos[k]);
            }
            kifu_node *next = grow(r, fork, pos[k], 1);
            if (next == fork)
                break;
            fork = next;
        }
        kifu_position_free(pos[k]);
    }
    kifu_position_free(p);
    CHECK_INT(kifu_normalize(r, 0, NULL), 0);
    return r;
}

/* Every hit as text, one line each: game, ply, path and the position's letters. */
typedef struct hits {
    char *text;
    size_t len, cap;
    long n;
    size_t game;    /* two-pass: the record being searched */
    int stop_after; /* stop each record after this many hits (0: never) */
    int in_record;
} hits;

static void put(hits *h, size_t game, const kifu_search_hit *hit)
{
    char path[64], bd[82], cb[40], cw[40], line[400];
    kifu_node_path(hit->node, path, sizeof path);
    kifu_board_to_bd(&hit->board, bd, cb, cw);
    int n = snprintf(line, sizeof line, "%zu %d %s %s %s %s %d\n", game, hit->ply, path,
                     bd, cb, cw, hit->board.color);
    CHECK_INT(hit->ply, kifu_node_ply(hit->node));
    if (h->len + (size_t)n + 1 > h->cap) {
        h->cap = (h->cap + (size_t)n + 1) * 2;
        h->text = realloc(h->text, h->cap);
    }
    memcpy(h->text + h->len, line, (size_t)n + 1);
    h->len += (size_t)n;
    h->n++;
}

static int on_record_hit(void *ctx, const kifu_search_hit *hit)
{
    hits *h = ctx;
    put(h, h->game, hit);
    return h->stop_after && ++h->in_record >= h->stop_after;
}

static int on_read_hit(void *ctx, const kifu_record *r, size_t game, size_t games,
                       const kifu_search_hit *hit)
{
    hits *h = ctx;
    CHECK(r != NULL && game < games);
    if (h->game != game)
        h->in_record = 0;
    h->game = game;
    put(h, game, hit);
    return h->stop_after && ++h->in_record >= h->stop_after;
}

/* The two-pass search of text. Hits, or -1. */
static long two_pass(kifu_search *s, const char *text, size_t len, int format,
                     unsigned flags, hits *h)
{
    kifu_read_options ro = {format, KIFU_ENC_UTF8, flags, NULL, NULL, NULL};
    kifu_record **rs;
    size_t n;
    if (kifu_read_all(text, len, &ro, &rs, &n, NULL))
        return -1;
    long total = 0;
    for (size_t i = 0; i < n; i++) {
        h->game = i;
        h->in_record = 0;
        total += kifu_search_record(s, rs[i], on_record_hit, h, NULL);
        kifu_record_free(rs[i]);
    }
    kifu_free(rs);
    return total;
}

/* Search text both ways with s; the hits must agree. The number of hits. */
static long both_ways(kifu_search *s, const char *text, size_t len, int format,
                      int stop_after)
{
    hits a = {0}, b = {0};
    a.stop_after = b.stop_after = stop_after;
    b.game = (size_t)-1;
    long na = two_pass(s, text, len, format, 0, &a);
    kifu_read_options ro = {format, KIFU_ENC_UTF8, 0, NULL, NULL, NULL};
    size_t games = 0;
    long nb = kifu_search_read(s, text, len, &ro, on_read_hit, &b, &games, NULL);
    CHECK(na >= 0);
    CHECK_INT(nb, na);
    CHECK_INT(b.n, nb);
    CHECK(games > 0);
    CHECK_STR(b.text ? b.text : "", a.text ? a.text : "");
    free(a.text);
    free(b.text);
    return na;
}

/* Positions to look for: some reached in the game (main line and forks). */
static void targets(const kifu_record *r, kifu_board *out, int n)
{
    kifu_walker *w = kifu_walk_new(r, KIFU_WALK_POSITIONS, NULL);
    int ev, k = 0, seen = 0;
    while ((ev = kifu_walk_next(w)) > 0)
        if (ev == KIFU_WALK_ENTER)
            seen++;
    kifu_walk_free(w);
    for (int t = 0; t < n; t++) {
        int want = (int)rnd((unsigned)seen), i = 0;
        w = kifu_walk_new(r, KIFU_WALK_POSITIONS, NULL);
        while ((ev = kifu_walk_next(w)) > 0)
            if (ev == KIFU_WALK_ENTER && i++ == want)
                break;
        kifu_walk_board(w, &out[k++]);
        kifu_walk_free(w);
    }
}

static const unsigned exact_flags[] = {0,
                                       KIFU_SEARCH_ANY_SIDE,
                                       KIFU_SEARCH_BOARD_ONLY,
                                       KIFU_SEARCH_FORKS,
                                       KIFU_SEARCH_FORKS | KIFU_SEARCH_FIRST,
                                       KIFU_SEARCH_FORKS | KIFU_SEARCH_ANY_SIDE |
                                           KIFU_SEARCH_BOARD_ONLY};

static const char *const regexes[] = {"^.{56}g.{19}o", "^.{40}[^o]", "^(?!.*u)",
                                      "^.{60}[acegikmsu1357q]{3}"};

/* A grid: sente's pawn on 7六 and something on 5五, with a pawn in sente's hand. */
static const char grid[] = "| * * * * * * * * *|\n| * * * * * * * * *|\n"
                           "| * * * * * * * * *|\n| * * * * * * * * *|\n"
                           "| * * * * ? * * * *|\n| * * 歩 * * * * * *|\n"
                           "| * * * * * * * * *|\n| * * * * * * * * *|\n"
                           "| * * * * * * * * *|\n先手の持駒：歩\n";

/* All the searches on one text whose records include r. Total hits seen. */
static long all_searches(const kifu_record *r, const char *text, size_t len, int format)
{
    long total = 0;
    kifu_board t[4];
    targets(r, t, 4);
    for (int i = 0; i < 4; i++)
        for (size_t f = 0; f < sizeof exact_flags / sizeof exact_flags[0]; f++) {
            kifu_search *s = kifu_search_position(&t[i], exact_flags[f], NULL);
            total += both_ways(s, text, len, format, 0);
            kifu_search_free(s);
        }
    for (size_t i = 0; i < sizeof regexes / sizeof regexes[0]; i++)
        for (unsigned f = 0; f < 32; f += 4) { /* FORKS, FIRST, BOTH_SIDES */
            kifu_search *s = kifu_search_regex(regexes[i], f, NULL);
            CHECK(s != NULL);
            total += both_ways(s, text, len, format, 0);
            total += both_ways(s, text, len, format, 2);
            kifu_search_free(s);
        }
    kifu_error err = {0};
    kifu_search *s = kifu_search_grid(grid, strlen(grid), KIFU_SEARCH_FORKS, &err);
    CHECK(s != NULL);
    if (s)
        total += both_ways(s, text, len, format, 0);
    kifu_search_free(s);
    return total;
}

TEST(games_with_forks_agree)
{
    static const int formats[] = {KIFU_FMT_KIF, KIFU_FMT_JKF, KIFU_FMT_KI2};
    long total = 0;
    for (int g = 0; g < 12; g++) {
        kifu_record *r = random_game();
        for (size_t f = 0; f < sizeof formats / sizeof formats[0]; f++) {
            size_t len;
            char *text = t_write_as(r, formats[f], KIFU_ENC_UTF8, &len, NULL);
            CHECK(text != NULL);
            if (text)
                total += all_searches(r, text, len, formats[f]);
            kifu_free(text);
        }
        kifu_record_free(r);
    }
    CHECK(total > 0); /* the targets come from the games: they are found */
}

TEST(many_games_in_one_file_agree)
{
    kifu_record *rs[20];
    for (int i = 0; i < 20; i++)
        rs[i] = random_game();
    kifu_write_options wo = {KIFU_FMT_CSA, KIFU_ENC_UTF8, 0, NULL, NULL};
    size_t len;
    char *csa = kifu_write_all((const kifu_record *const *)rs, 20, &wo, &len, NULL);
    CHECK(csa != NULL);
    if (csa) {
        CHECK(all_searches(rs[7], csa, len, KIFU_FMT_CSA) > 0);
        /* The start position: once in every game, at ply 0 of game k. */
        kifu_board start = {0};
        kifu_record_initial(rs[0], &start);
        kifu_search *s = kifu_search_position(&start, KIFU_SEARCH_FIRST, NULL);
        CHECK_INT(both_ways(s, csa, len, KIFU_FMT_CSA, 0), 20);
        kifu_search_free(s);
    }
    kifu_free(csa);
    for (int i = 0; i < 20; i++)
        kifu_record_free(rs[i]);
}

static int never(void *ctx, const kifu_record *r, size_t game, size_t games,
                 const kifu_search_hit *hit)
{
    (void)r, (void)game, (void)games, (void)hit;
    ++*(int *)ctx;
    return 0;
}

TEST(bad_input_reports_no_hit)
{
    /* Game 1 is fine and holds the start; game 2 has an illegal move. */
    static const char csa[] = "V2.2\nPI\n+\n+7776FU\n-3334FU\n/\nV2.2\nPI\n+\n+7776FU\n"
                              "-3334FU\n+7775FU\n-2233KA\n+5955OU\n";
    kifu_board start = {0};
    kifu_preset_board(KIFU_PRESET_HIRATE, &start);
    kifu_search *s = kifu_search_position(&start, 0, NULL);
    kifu_read_options ro = {KIFU_FMT_CSA, KIFU_ENC_UTF8, 0, "two.csa", NULL, NULL};
    int called = 0;
    size_t games = 99;
    kifu_error err = {0};
    CHECK_INT(kifu_search_read(s, csa, strlen(csa), &ro, never, &called, &games, &err),
              -1);
    CHECK_INT(called, 0);
    CHECK_INT(games, 0);
    CHECK_INT(err.code, KIFU_ERR_ILLEGAL);
    CHECK_STR(err.source, "two.csa");
    /* Lenient: both games are searched up to the illegal move, as the two-pass way. */
    ro.flags = KIFU_READ_LENIENT;
    hits a = {0};
    CHECK_INT(two_pass(s, csa, strlen(csa), KIFU_FMT_CSA, KIFU_READ_LENIENT, &a), 2);
    CHECK_INT(kifu_search_read(s, csa, strlen(csa), &ro, never, &called, &games, NULL),
              2);
    CHECK_INT(called, 2);
    CHECK_INT(games, 2);
    free(a.text);
    /* Input that is no record at all. */
    memset(&err, 0, sizeof err);
    CHECK_INT(kifu_search_read(s, "", 0, &ro, never, &called, NULL, &err), -1);
    CHECK(err.code != 0);
    kifu_search_free(s);
}

/* A bad input gives the error kifu_read_all gives: a syntax error after a game with an
 * illegal move is the error (the reading comes first), else the first illegal move. */
TEST(errors_as_read_all)
{
    static const char *const bad[] = {
        /* game 1 illegal, game 2 not CSA */
        "V2.2\nPI\n+\n+7776FU\n-3334FU\n+5955OU\n/\nV2.2\nPI\n+\n+7776XX\n",
        /* game 1 fine, game 2 illegal, game 3 fine */
        "PI\n+\n+7776FU\n/\nPI\n+\n+7776FU\n+3334FU\n/\nPI\n+\n+2726FU\n",
        /* the first game illegal at once */
        "PI\n+\n-3334FU\n/\nPI\n+\n+7776FU\n",
        /* KIF: one game, illegal at ply 3 */
        "手数----指手---------消費時間--\n1 ７六歩(77)\n2 ３四歩(33)\n3 ５五飛(28)\n",
    };
    kifu_board start = {0};
    kifu_preset_board(KIFU_PRESET_HIRATE, &start);
    kifu_search *s = kifu_search_position(&start, 0, NULL);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        kifu_read_options ro = {KIFU_FMT_AUTO, KIFU_ENC_UTF8, 0, "bad.csa", NULL, NULL};
        if (i == 3)
            ro.source = "bad.kif";
        kifu_error a = {0}, b = {0};
        kifu_record **rs = NULL;
        size_t n = 0;
        CHECK_INT(kifu_read_all(bad[i], strlen(bad[i]), &ro, &rs, &n, &a), -1);
        int called = 0;
        CHECK_INT(
            kifu_search_read(s, bad[i], strlen(bad[i]), &ro, never, &called, NULL, &b),
            -1);
        CHECK_INT(called, 0);
        CHECK(a.code != 0);
        CHECK_INT(b.code, a.code);
        CHECK_INT(b.line, a.line);
        CHECK_INT(b.column, a.column);
        CHECK_STR(b.message, a.message);
        CHECK_STR(b.source, a.source);
        /* Lenient: what reads is searched, as kifu_read_all reads it. */
        ro.flags = KIFU_READ_LENIENT;
        hits h = {0};
        long want = two_pass(s, bad[i], strlen(bad[i]), ro.format, ro.flags, &h);
        free(h.text);
        if (i == 2) /* the two starts; the refused move stands at no position */
            CHECK_INT(want, 2);
        long got =
            kifu_search_read(s, bad[i], strlen(bad[i]), &ro, NULL, NULL, NULL, NULL);
        if (got != want)
            printf("  input %zu, lenient\n", i);
        CHECK_INT(got, want);
    }
    kifu_search_free(s);
}

/* Out of memory at any allocation: -1 with NOMEM and no hit, or the whole answer (the
 * sanitizer builds see that nothing leaks). */
TEST(out_of_memory_anywhere)
{
    kifu_record *rs[6];
    for (int i = 0; i < 6; i++)
        rs[i] = random_game();
    kifu_write_options wo = {KIFU_FMT_CSA, KIFU_ENC_UTF8, 0, NULL, NULL};
    size_t len;
    char *csa = kifu_write_all((const kifu_record *const *)rs, 6, &wo, &len, NULL);
    CHECK(csa != NULL);
    kifu_board start = {0};
    kifu_record_initial(rs[0], &start);
    kifu_search *s = kifu_search_position(&start, 0, NULL);
    kifu_read_options ro = {KIFU_FMT_CSA, KIFU_ENC_UTF8, 0, NULL, NULL, NULL};
    long want = kifu_search_read(s, csa, len, &ro, NULL, NULL, NULL, NULL);
    CHECK(want >= 6); /* every game starts there */
    int whole = 0;
    for (long n = 1; csa && n < 400; n++) {
        kifu_error err = {0};
        int called = 0;
        kifu__alloc_fail_after(n);
        long got = kifu_search_read(s, csa, len, &ro, never, &called, NULL, &err);
        kifu__alloc_fail_after(0);
        if (got < 0) {
            CHECK_INT(err.code, KIFU_ERR_NOMEM);
            CHECK_INT(called, 0);
        } else {
            CHECK_INT(got, want);
            whole++;
        }
    }
    CHECK(whole > 0); /* the loop went past the last allocation */
    kifu_search_free(s);
    kifu_free(csa);
    for (int i = 0; i < 6; i++)
        kifu_record_free(rs[i]);
}

int main(void)
{
    RUN(games_with_forks_agree);
    RUN(many_games_in_one_file_agree);
    RUN(bad_input_reports_no_hit);
    RUN(errors_as_read_all);
    RUN(out_of_memory_anywhere);
    return t_finish();
}
