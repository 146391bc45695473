/* bench_tags.c: what tagging costs (issue 29). Over conversion (`convert --tags` at most
 * 20% over `convert`): random legal games, written as KIF in memory, are converted to
 * KIF twice per run as `kifu convert` does it: read, normalize (kifu_normalize_warn) and
 * write; and read, normalize with the tags hooked in (kifu_tags_normalize), put them in
 * the header and write. Over the index build (with tags, still 20,000 games/s per core):
 * INDEX_GAMES games of the index section's kind built into a new index with the tags and
 * without. CPU time, medians, single-threaded. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_formats.h"
#include "kifu.h"

#define TARGET 1.20
/* The index build: games (1000 a file), timed builds of each kind, the goal. */
#define INDEX_GAMES 30000
#define INDEX_RUNS 3
#define INDEX_GOAL 20000

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* One pass over the games: convert each, tagged or not. Seconds of CPU, -1 on error. */
static double pass(char **texts, size_t *lens, int n, kifu_tagger *t, size_t *ntags)
{
    /* As `kifu convert` reads: the moves normalized after the read, by themselves or
     * with the tags. */
    kifu_read_options ro = {KIFU_FMT_KIF, KIFU_ENC_AUTO, KIFU_READ_NO_NORMALIZE,
                            NULL,         NULL,          NULL};
    kifu_write_options wo = {KIFU_FMT_KIF, KIFU_ENC_UTF8, 0, NULL, NULL};
    double t0 = bench_cpu_now();
    for (int g = 0; g < n; g++) {
        kifu_error e;
        kifu_record *r = kifu_read(texts[g], lens[g], &ro, &e);
        if (!r)
            return -1;
        if (t) {
            kifu_tag *tags;
            size_t count;
            if (kifu_tags_normalize(t, r, 0, NULL, NULL, &tags, &count, &e) ||
                kifu_tags_to_header(r, tags, count, 1)) {
                kifu_record_free(r);
                return -1;
            }
            *ntags += count;
            kifu_free(tags);
        } else if (kifu_normalize_warn(r, 0, NULL, NULL, &e)) {
            kifu_record_free(r);
            return -1;
        }
        size_t len;
        char *out = kifu_write(r, &wo, &len, &e);
        kifu_record_free(r);
        if (!out)
            return -1;
        kifu_free(out);
    }
    return bench_cpu_now() - t0;
}

/* The index build of INDEX_GAMES games with tags and without, alternated so that a
 * change of load falls on both alike. 0, or -1. */
static int index_cost(const bench_opts *o)
{
    char dir[4200], kdb[4300];
    if (bench_index_games(o, INDEX_GAMES, dir, sizeof dir))
        return -1;
    snprintf(kdb, sizeof kdb, "%s/tags-bench.kdb", o->dir);
    int files = (INDEX_GAMES + 999) / 1000;
    double t[2][INDEX_RUNS];
    for (int r = 0; r < INDEX_RUNS; r++)
        for (int tags = 0; tags < 2; tags++)
            if ((t[tags][r] = bench_index_build_cpu(dir, files, kdb, tags)) < 0) {
                fprintf(stderr, "kifu_bench: tags: the index build failed\n");
                return -1;
            }
    for (int tags = 0; tags < 2; tags++)
        qsort(t[tags], INDEX_RUNS, sizeof t[tags][0], cmp_double);
    double plain = t[0][INDEX_RUNS / 2], tagged = t[1][INDEX_RUNS / 2];
    double rate = INDEX_GAMES / tagged;
    bench_print_load();
    printf("  index build     %8.1f ms  %6.0f games/s   (%d games, CSA, bulk)\n",
           plain * 1e3, INDEX_GAMES / plain, INDEX_GAMES);
    printf("  index --tags    %8.1f ms  %6.0f games/s\n", tagged * 1e3, rate);
    printf(
        "  tags cost the build %+.1f%%; with them %.0f games/s per core (goal %d): %s\n",
        (tagged / plain - 1) * 100, rate, INDEX_GOAL,
        rate >= INDEX_GOAL ? "met" : "NOT met");
    fflush(stdout);
    return 0;
}

int bench_tags(const bench_opts *o)
{
    int n = o->tags_games > 0 ? o->tags_games : 2000;
    printf("\n== tags: convert --tags against convert (KIF to KIF, %d random games), the "
           "index build with tags against without (one thread, CPU time)\n",
           n);
    fflush(stdout);
    char **texts = calloc((size_t)n, sizeof *texts);
    size_t *lens = calloc((size_t)n, sizeof *lens);
    kifu_tagger *t = kifu_tags_new(NULL);
    double *plain = calloc((size_t)o->runs, sizeof *plain);
    double *tagged = calloc((size_t)o->runs, sizeof *tagged);
    int rc = -1;
    uint64_t rng = (o->seed ? o->seed : 1) ^ 0x5DEECE66DULL;
    kifu_write_options wo = {KIFU_FMT_KIF, KIFU_ENC_UTF8, 0, NULL, NULL};
    long moves = 0;
    if (!texts || !lens || !t || !plain || !tagged)
        goto done;
    for (int g = 0; g < n; g++) {
        char why[600] = "";
        kifu_record *r = bench_random_game(&rng, g, why, sizeof why);
        if (!r || !(texts[g] = kifu_write(r, &wo, &lens[g], NULL))) {
            fprintf(stderr, "kifu_bench: tags: cannot make the games: %s\n", why);
            kifu_record_free(r);
            goto done;
        }
        for (kifu_node *x = kifu_node_next(kifu_record_root(r)); x; x = kifu_node_next(x))
            moves += kifu_node_kind_of(x) == KIFU_NODE_MOVE;
        kifu_record_free(r);
    }
    size_t ntags = 0;
    for (int run = 0; run < o->runs; run++) {
        /* Alternated, so that a change of load touches both alike. */
        plain[run] = pass(texts, lens, n, NULL, NULL);
        tagged[run] = pass(texts, lens, n, t, &ntags);
        if (plain[run] < 0 || tagged[run] < 0) {
            fprintf(stderr, "kifu_bench: tags: a game did not convert\n");
            goto done;
        }
    }
    qsort(plain, (size_t)o->runs, sizeof *plain, cmp_double);
    qsort(tagged, (size_t)o->runs, sizeof *tagged, cmp_double);
    double p = plain[o->runs / 2], q = tagged[o->runs / 2];
    bench_print_load();
    printf("  convert         %8.1f ms  %6.2f us/game  (%ld moves)\n", p * 1e3,
           p * 1e6 / n, moves);
    printf("  convert --tags  %8.1f ms  %6.2f us/game  (%.1f tags a game)\n", q * 1e3,
           q * 1e6 / n, (double)ntags / o->runs / n);
    printf("  tagging costs %+.1f%% (target: at most %+.0f%%): %s\n", (q / p - 1) * 100,
           (TARGET - 1) * 100, q <= p * TARGET ? "met" : "NOT met");
    fflush(stdout);
    rc = index_cost(o);
done:
    for (int g = 0; texts && g < n; g++)
        kifu_free(texts[g]);
    free(texts);
    free(lens);
    free(plain);
    free(tagged);
    kifu_tags_free(t);
    return rc;
}
