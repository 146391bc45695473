/* bench_main.c: kifu_bench, what `make bench` runs: perft (bench_perft.c), then CSA, KIF
 * and KI2 to JKF over a generated corpus, then the JavaScript peers on a subset, then a
 * directory of KI2 files converted by the kifu process (bench_batch.c), then position
 * search (bench_search.c), the HTML replay page (bench_html.c) and the collection index
 * (bench_index.c).
 * Benchmarks print figures; they never pass or fail (they are not ctests). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "bench_formats.h"
#include "kifu.h"

static void usage(FILE *f)
{
    fprintf(
        f,
        "usage: kifu_bench [options]\n"
        "  --only perft|formats|memory|batch|search|html|index|clickhouse|tags   run one "
        "part "
        "(default: all)\n"
        "  --search-games N       games in the search collection (default 100000)\n"
        "  --index-games N        games in the index collection (default 1000000)\n"
        "  --tags-games N         games of the tags section (default 2000)\n"
        "  --batch-files N        KI2 files of the batch directory (default 33000)\n"
        "  --batch-runs N         timed runs of kifu convert per thread count (default "
        "3)\n"
        "  --runs N               timed runs per format section (default 5)\n"
        "  --peer-runs N          timed runs per peer (default 5)\n"
        "  --corpus-mb MB         size of the generated corpus, three formats "
        "(default 60)\n"
        "  --peer-mb MB           per format, the part the peers convert (default 2)\n"
        "  --memory-moves N       moves of the memory section's game (default 1000000)\n"
        "  --seed N               corpus seed (default 1)\n"
        "  --regen                rebuild the corpus\n"
        "  --no-peers             skip json-kifu-format and tsshogi\n"
        "  --clickhouse URL       also the index on this ClickHouse server (make bench "
        "starts one)\n"
        "  --dir DIR              where the corpus and peers go (default: next to the "
        "binary)\n"
        "The corpus goes to DIR/corpus, the peers (npm) to DIR/peers.\n");
}

/* The directory of the running binary (build-bench/), so the corpus lands there whatever
 * the working directory. */
static void exe_dir(char *buf, size_t cap)
{
    ssize_t n = readlink("/proc/self/exe", buf, cap - 1);
    if (n <= 0) {
        snprintf(buf, cap, ".");
        return;
    }
    buf[n] = 0;
    char *slash = strrchr(buf, '/');
    if (slash)
        *slash = 0;
}

/* bench/peers in the source tree: this file's directory (CMake compiles with absolute
 * paths) plus /peers. */
static void peers_src(char *buf, size_t cap)
{
    snprintf(buf, cap, "%s", __FILE__);
    char *slash = strrchr(buf, '/');
    if (slash)
        snprintf(slash, cap - (size_t)(slash - buf), "/peers");
    else
        snprintf(buf, cap, "bench/peers");
}

int main(int argc, char **argv)
{
    static char dir[4096], src[4096];
    exe_dir(dir, sizeof dir);
    peers_src(src, sizeof src);
    bench_opts o = {dir, src,    5,     5, 60,      2,       1,    0,
                    1,   100000, 33000, 3, 1000000, 1000000, NULL, 0};
    if (argc == 3 && strcmp(argv[1], "--rss-read") == 0)
        return bench_rss_read(argv[2]);
    const char *only = NULL;
    int quick = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(a, "--quick") == 0) {
            quick = 1;
        } else if (strcmp(a, "--regen") == 0) {
            o.regen = 1;
        } else if (strcmp(a, "--no-peers") == 0) {
            o.peers = 0;
        } else if (v && strcmp(a, "--only") == 0) {
            only = v, i++;
        } else if (v && strcmp(a, "--runs") == 0) {
            o.runs = atoi(v), i++;
        } else if (v && strcmp(a, "--peer-runs") == 0) {
            o.peer_runs = atoi(v), i++;
        } else if (v && strcmp(a, "--corpus-mb") == 0) {
            o.corpus_mb = atof(v), i++;
        } else if (v && strcmp(a, "--peer-mb") == 0) {
            o.peer_mb = atof(v), i++;
        } else if (v && strcmp(a, "--seed") == 0) {
            o.seed = strtoull(v, NULL, 10), i++;
        } else if (v && strcmp(a, "--search-games") == 0) {
            o.search_games = atoi(v), i++;
        } else if (v && strcmp(a, "--batch-files") == 0) {
            o.batch_files = atoi(v), i++;
        } else if (v && strcmp(a, "--batch-runs") == 0) {
            o.batch_runs = atoi(v), i++;
        } else if (v && strcmp(a, "--tags-games") == 0) {
            o.tags_games = atoi(v), i++;
        } else if (v && strcmp(a, "--index-games") == 0) {
            o.index_games = atoi(v), i++;
        } else if (v && strcmp(a, "--memory-moves") == 0) {
            o.memory_moves = atol(v), i++;
        } else if (v && strcmp(a, "--clickhouse") == 0) {
            o.clickhouse = v, i++;
        } else if (v && strcmp(a, "--dir") == 0) {
            o.dir = v, i++;
        } else {
            fprintf(stderr, "kifu_bench: unknown option '%s'\n", a);
            usage(stderr);
            return 2;
        }
    }
    if (o.runs < 1)
        o.runs = 1;
    if (o.peer_runs < 1)
        o.peer_runs = 1;
    if (o.corpus_mb < 1)
        o.corpus_mb = 1;
    printf("kifu %s benchmarks\n", kifu_version_string());
    if (!only || strcmp(only, "perft") == 0) {
        printf("\n== perft\n");
        fflush(stdout);
        char *pargv[] = {"perft", quick ? "--quick" : NULL, NULL};
        bench_perft(quick ? 2 : 1, pargv);
    }
    if (!only || strcmp(only, "formats") == 0) {
        fflush(stdout);
        bench_formats(&o);
    }
    if (o.batch_files < 1)
        o.batch_files = 1;
    if (o.batch_runs < 1)
        o.batch_runs = 1;
    if (!only || strcmp(only, "batch") == 0) {
        fflush(stdout);
        bench_batch(&o);
    }
    if (!only || strcmp(only, "memory") == 0) {
        fflush(stdout);
        static char self[4096];
        ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
        self[n > 0 ? n : 0] = 0;
        bench_memory(&o, self);
    }
    if (o.search_games < 1000)
        o.search_games = 1000;
    if (!only || strcmp(only, "search") == 0) {
        fflush(stdout);
        if (bench_search(&o))
            return 1;
    }
    if (!only || strcmp(only, "html") == 0) {
        fflush(stdout);
        if (bench_html(&o))
            return 1;
    }
    if (o.index_games < 1000)
        o.index_games = 1000;
    if (!only || strcmp(only, "index") == 0) {
        fflush(stdout);
        if (bench_index(&o))
            return 1;
    }
    if (!only || strcmp(only, "tags") == 0) {
        fflush(stdout);
        if (bench_tags(&o))
            return 1;
    }
    if (!only || strcmp(only, "clickhouse") == 0) {
        fflush(stdout);
        if (bench_clickhouse(&o))
            return 1;
    }
    return 0;
}
