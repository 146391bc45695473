/* bench_perft.c: perft nodes per second on the published positions; the counts are
 * checked too, so a fast wrong generator cannot pass unnoticed. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "kifu.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int run(const char *name, const char *sfen, int depth, unsigned long long want)
{
    kifu_position *p = kifu_position_new();
    if (!p || kifu_position_set_sfen(p, sfen, NULL) < 0) {
        printf("perft %s: cannot set the position\n", name);
        kifu_position_free(p);
        return 1;
    }
    /* Best of three runs: the machine is shared, the minimum is the least disturbed. */
    double best = 1e30;
    unsigned long long n = 0;
    int runs = 3;
    for (int r = 0; r < runs; r++) {
        double t0 = now();
        n = kifu_perft(p, depth);
        double t = now() - t0;
        if (t < best)
            best = t;
        if (t > 20) /* long runs once is enough */
            break;
    }
    printf("perft %s d%d: %llu nodes in %.3f s = %.1f Mnps%s\n", name, depth, n, best,
           (double)n / best / 1e6, n == want ? "" : "  WRONG COUNT");
    fflush(stdout);
    kifu_position_free(p);
    return n != want;
}

int bench_perft(int argc, char **argv)
{
    int quick = 0;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--quick") == 0)
            quick = 1;
    int bad = 0;
    bad |= quick ? run("startpos", "startpos", 5, 19861490ull)
                 : run("startpos", "startpos", 6, 547581517ull);
    const char *matsuri =
        "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1";
    bad |= quick ? run("matsuri", matsuri, 3, 4809015ull)
                 : run("matsuri", matsuri, 4, 516925165ull);
    bad |= run("max-moves", "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1", 3,
               53393368ull);
    return bad;
}
