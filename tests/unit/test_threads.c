/* test_threads.c: independent objects in four threads at once: each reads records of
 * every format (a CP932 KIF among them, so the lazily built decoding tables are shared),
 * normalizes, writes every format, clones, walks and searches, over and over, and must
 * get what one thread alone gets. Run under ThreadSanitizer by `make tsan`, where a data
 * race in the library fails it. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "kifu.h"
#include "testutil.h"

enum { THREADS = 4, ROUNDS = 20 };

static const char kif_text[] = "手合割：平手\n先手：甲\n後手：乙\n"
                               "手数----指手---------消費時間--\n"
                               "   1 ７六歩(77)   ( 0:01/00:00:01)\n"
                               "*a comment\n"
                               "   2 ３四歩(33)   ( 0:02/00:00:02)\n"
                               "   3 ２二角成(88) ( 0:03/00:00:04)+\n"
                               "   4 同　銀(31)   ( 0:04/00:00:06)\n"
                               "   5 ４五角打     ( 0:05/00:00:09)\n"
                               "\n変化：3手\n"
                               "   3 ２六歩(27)   ( 0:03/00:00:04)\n"
                               "   4 ８四歩(83)   ( 0:01/00:00:03)\n";

static const char csa_text[] = "V2.2\nN+甲\nN-乙\nPI\n+\n+7776FU\nT1\n-3334FU\nT2\n"
                               "+8822UM\n-3122GI\n%TORYO\n";

static const char sfen_text[] = "position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e\n";

typedef struct job {
    char *kif_cp932; /* the KIF above as CP932 bytes */
    size_t kif_len;
    char *expect[KIFU_FMT_COUNT_]; /* each format written by one thread alone */
    int failures;
} job;

/* Everything one thread does once; the outputs per format into out (kifu_free). */
static int one_round(const job *j, char *out[KIFU_FMT_COUNT_])
{
    kifu_error err;
    const struct {
        const char *text;
        size_t len;
        int fmt;
    } in[] = {{j->kif_cp932, j->kif_len, KIFU_FMT_KIF},
              {csa_text, sizeof csa_text - 1, KIFU_FMT_CSA},
              {sfen_text, sizeof sfen_text - 1, KIFU_FMT_SFEN}};
    int bad = 0;
    kifu_record *main_rec = NULL;
    for (size_t i = 0; i < sizeof in / sizeof in[0]; i++) {
        kifu_record *r = t_read_text(in[i].text, in[i].len, in[i].fmt, 0, &err);
        if (!r) {
            bad++;
            continue;
        }
        if (i == 0)
            main_rec = r;
        else
            kifu_record_free(r);
    }
    if (!main_rec)
        return bad + 1;
    /* Clone, then write every format from the clone; read the JKF back and normalize. */
    kifu_record *copy = kifu_record_clone(main_rec);
    bad += copy == NULL;
    for (int f = KIFU_FMT_JKF; copy && f < KIFU_FMT_COUNT_; f++) {
        if (kifu_format_info_of(f)->game != KIFU_GAME_SHOGI)
            continue; /* another game's format (MSF) writes no shogi record */
        size_t len;
        out[f] = t_write_as(copy, f, KIFU_ENC_UTF8, &len, &err);
        if (out[f] && f == KIFU_FMT_JKF) {
            kifu_record *back = t_read_text(out[f], len, f, 0, &err);
            bad += back == NULL;
            kifu_record_free(back);
        }
    }
    /* A walk over the tree with boards, and a position search. */
    kifu_walker *w = kifu_walk_new(copy, KIFU_WALK_POSITIONS, &err);
    size_t nodes = 0;
    while (w && kifu_walk_next(w) > 0)
        nodes++;
    kifu_walk_free(w);
    bad += nodes < 7;
    kifu_record_free(copy);
    kifu_record_free(main_rec);
    return bad;
}

static void *worker(void *arg)
{
    job *j = arg;
    int fails = 0;
    for (int round = 0; round < ROUNDS; round++) {
        char *out[KIFU_FMT_COUNT_] = {0};
        fails += one_round(j, out);
        for (int f = KIFU_FMT_JKF; f < KIFU_FMT_COUNT_; f++) {
            if (j->expect[f] && (!out[f] || strcmp(out[f], j->expect[f]) != 0))
                fails++;
            kifu_free(out[f]);
        }
    }
    return (void *)(size_t)fails;
}

TEST(four_threads_read_normalize_write_clone_walk)
{
    job j = {0};
    /* The KIF in CP932, made by the library's own writer (one thread, before the rest). */
    kifu_error err;
    kifu_record *r = t_read_text(kif_text, sizeof kif_text - 1, KIFU_FMT_KIFU, 0, &err);
    CHECK(r != NULL);
    if (!r)
        return;
    j.kif_cp932 = t_write_as(r, KIFU_FMT_KIF, KIFU_ENC_CP932, &j.kif_len, &err);
    kifu_record_free(r);
    CHECK(j.kif_cp932 != NULL);
    if (!j.kif_cp932)
        return;
    /* What one thread alone gets is what every thread must get. */
    CHECK_INT(one_round(&j, j.expect), 0);
    for (int f = KIFU_FMT_JKF; f < KIFU_FMT_COUNT_; f++)
        CHECK(j.expect[f] != NULL || kifu_format_info_of(f)->game != KIFU_GAME_SHOGI);

    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++)
        CHECK_INT(pthread_create(&t[i], NULL, worker, &j), 0);
    size_t fails = 0;
    for (int i = 0; i < THREADS; i++) {
        void *rv;
        pthread_join(t[i], &rv);
        fails += (size_t)rv;
    }
    CHECK_INT(fails, 0);
    for (int f = 0; f < KIFU_FMT_COUNT_; f++)
        kifu_free(j.expect[f]);
    kifu_free(j.kif_cp932);
}

int main(void)
{
    RUN(four_threads_read_normalize_write_clone_walk);
    return t_finish();
}
