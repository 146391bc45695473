/* bench_html.c: the replay page (kifu_html_write) for a 300-move game with a comment on
 * every move: its size, against the bound of 200 KB, and the time to write it. The page
 * is left at DIR/html/game300.html, where bench/html_paint.py (run next by `make bench`)
 * times its first paint in headless Chromium. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_formats.h"
#include "kifu.h"

enum { PLIES = 300, RUNS = 5 };

/* The main line's moves, each given a comment of the length engines write. */
static int comment_moves(kifu_record *r)
{
    int moves = 0;
    kifu_node *n = kifu_record_root(r);
    while (kifu_node_child_count(n) > 0) {
        n = kifu_node_child(n, 0);
        if (kifu_node_kind_of(n) != KIFU_NODE_MOVE)
            break;
        char text[160];
        moves++;
        snprintf(text, sizeof text, "%d手目。評価値 %+d 読み筋 ▲２六歩 △３四歩 ▲２五歩",
                 moves, (moves * 37) % 900 - 450);
        if (kifu_node_add_comment(r, n, text))
            return -1;
    }
    return moves;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int bench_html(const bench_opts *o)
{
    printf("\n== the HTML replay page (kifu html)\n");
    kifu_record *r = NULL;
    int moves = 0;
    uint64_t rng = o->seed * 2654435761u + 12345;
    /* Random games may end in mate before 300 plies: the first seed that gets there. */
    for (int tries = 0; tries < 200 && moves < PLIES; tries++) {
        char why[256];
        kifu_record_free(r);
        r = bench_random_game_plies(&rng, tries + 1, PLIES, why, sizeof why);
        if (!r) {
            fprintf(stderr, "kifu_bench: %s\n", why);
            return -1;
        }
        moves = comment_moves(r);
    }
    if (moves < PLIES) {
        fprintf(stderr, "kifu_bench: no random game reached %d plies\n", PLIES);
        kifu_record_free(r);
        return -1;
    }
    const kifu_record *rs[1] = {r};
    double t[RUNS];
    char *page = NULL;
    size_t len = 0;
    for (int i = 0; i < RUNS; i++) {
        kifu_free(page);
        double t0 = bench_now();
        page = kifu_html_write(rs, 1, NULL, &len, NULL);
        t[i] = bench_now() - t0;
        if (!page) {
            fprintf(stderr, "kifu_bench: kifu_html_write failed\n");
            kifu_record_free(r);
            return -1;
        }
    }
    qsort(t, RUNS, sizeof t[0], cmp_double);
    char dir[4096], path[4200];
    snprintf(dir, sizeof dir, "%s/html", o->dir);
    snprintf(path, sizeof path, "%s/game300.html", dir);
    int rc = bench_make_dir(dir) || bench_write_bytes(path, page, len) ? -1 : 0;
    printf("%d moves, a comment on each: page %.1f KB (bound 200 KB: %s), written in "
           "%.2f ms "
           "(median of %d)\n",
           moves, len / 1024.0, len < 200 * 1024 ? "met" : "NOT MET", t[RUNS / 2] * 1e3,
           RUNS);
    printf("page: %s\n", path);
    kifu_free(page);
    kifu_record_free(r);
    return rc;
}
