/* bench_tags.c: what tagging costs over conversion (issue 29: `convert --tags` at most
 * 20% over `convert`). Random legal games, written as KIF in memory, are converted to KIF
 * twice per run as `kifu convert` does it: read, normalize (kifu_normalize_warn) and
 * write; and read, normalize with the tags hooked in (kifu_tags_normalize), put them in
 * the header and write. CPU time, median of o->runs,
 * single-threaded. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_formats.h"
#include "kifu.h"

#define TARGET 1.20

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

int bench_tags(const bench_opts *o)
{
    int n = o->tags_games > 0 ? o->tags_games : 2000;
    printf("\n== tags: convert --tags against convert (KIF to KIF, %d random games, "
           "one thread)\n",
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
    printf("  convert         %8.1f ms  %6.2f us/game  (%ld moves)\n", p * 1e3,
           p * 1e6 / n, moves);
    printf("  convert --tags  %8.1f ms  %6.2f us/game  (%.1f tags a game)\n", q * 1e3,
           q * 1e6 / n, (double)ntags / o->runs / n);
    printf("  tagging costs %+.1f%% (target: at most %+.0f%%): %s\n", (q / p - 1) * 100,
           (TARGET - 1) * 100, q <= p * TARGET ? "met" : "NOT met");
    rc = 0;
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
