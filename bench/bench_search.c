/* bench_search.c: position search over a collection on disk. The games are random legal
 * games, written as CSA (1000 games a file, `/` between them) and, for the comparison the
 * position-list document proposes, as posjson with only its own keys (bd, cb, cw, sid, mv:
 * one line per position). kifu reads the CSA files and searches every position (exact,
 * then a pattern); `grep -c -F` counts the lines of the posjson files holding the same bd.
 * Both are single-threaded: the figures are per core. The hit counts must agree. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_formats.h"
#include "kifu.h"

#define PER_FILE 1000

static int generate(const bench_opts *o, const char *dir);

/* The document's entry for one position: bd, cb, cw, sid, mv. */
static void put_entry(FILE *f, const kifu_board *b, long sid, int mv, int first)
{
    char bd[82], cb[40], cw[40];
    kifu_board_to_bd(b, bd, cb, cw);
    fprintf(f, "%s{\"bd\":\"%s\",\"cb\":\"%s\",\"cw\":\"%s\",\"sid\":%ld",
            first ? "" : ",\n", bd, cb, cw, sid);
    if (mv)
        fprintf(f, ",\"mv\":%d", mv);
    fputc('}', f);
}

/* The posjson form of a file's games (the main lines). 0, or -1. */
static int write_posjson(const char *path, kifu_record **rs, size_t n)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fputs("[\n", f);
    long sid = 0;
    for (size_t i = 0; i < n; i++) {
        kifu_walker *w = kifu_walk_new(rs[i], KIFU_WALK_POSITIONS, NULL);
        int ev;
        while (w && (ev = kifu_walk_next(w)) > 0) {
            const kifu_node *node = kifu_walk_node(w);
            kifu_board b;
            if (ev != KIFU_WALK_ENTER || kifu_node_kind_of(node) == KIFU_NODE_SPECIAL ||
                kifu_walk_board(w, &b))
                continue;
            const kifu_move *m = kifu_node_move_const(node);
            put_entry(f, &b, sid, m ? (m->to_y - 1) * 9 + (9 - m->to_x) + 1 : 0,
                      sid == 0);
            sid++;
        }
        kifu_walk_free(w);
    }
    fputs("\n]\n", f);
    return fclose(f);
}

int bench_search_collection(const bench_opts *o, char *dir, size_t cap)
{
    snprintf(dir, cap, "%s/search", o->dir);
    return generate(o, dir);
}

static int generate(const bench_opts *o, const char *dir)
{
    char path[8400], what[128];
    snprintf(what, sizeof what, "search 1 seed %llu games %d",
             (unsigned long long)o->seed, o->search_games);
    if (!bench_stale(o, dir, what))
        return 0;
    snprintf(path, sizeof path, "%s/csa", dir);
    if (bench_make_dir(o->dir) || bench_make_dir(dir) || bench_make_dir(path))
        return -1;
    snprintf(path, sizeof path, "%s/posjson", dir);
    if (bench_make_dir(path))
        return -1;
    printf("generating the search collection (%d random legal games, seed %llu) ...\n",
           o->search_games, (unsigned long long)o->seed);
    fflush(stdout);
    double t0 = bench_now();
    uint64_t rng = (o->seed ? o->seed : 1) * 7919;
    kifu_record *rs[PER_FILE];
    for (int first = 0; first < o->search_games; first += PER_FILE) {
        size_t n = 0;
        for (int g = first; g < o->search_games && n < PER_FILE; g++) {
            char why[600];
            if (!(rs[n++] = bench_random_game(&rng, g, why, sizeof why))) {
                fprintf(stderr, "kifu_bench: %s\n", why);
                return -1;
            }
        }
        kifu_write_options wo = {KIFU_FMT_CSA, KIFU_ENC_UTF8, 0, NULL, NULL};
        size_t len;
        char *csa = kifu_write_all((const kifu_record *const *)rs, n, &wo, &len, NULL);
        int rc = !csa;
        snprintf(path, sizeof path, "%s/csa/s%03d.csa", dir, first / PER_FILE);
        rc = rc || bench_write_bytes(path, csa, len);
        snprintf(path, sizeof path, "%s/posjson/s%03d.posjson", dir, first / PER_FILE);
        rc = rc || write_posjson(path, rs, n);
        kifu_free(csa);
        for (size_t i = 0; i < n; i++)
            kifu_record_free(rs[i]);
        if (rc) {
            fprintf(stderr, "kifu_bench: cannot write %s\n", path);
            return -1;
        }
    }
    if (bench_stamp(dir, what))
        return -1;
    printf("  done (%.1f s)\n", bench_now() - t0);
    return 0;
}

typedef struct tally {
    long positions, hits;
} tally;

/* kifu: read every CSA file from disk and search every game. Seconds, or -1. */
static double run_kifu(const char *dir, int files, kifu_search *s, tally *t)
{
    char path[8400];
    t->positions = t->hits = 0;
    double t0 = bench_now();
    for (int i = 0; i < files; i++) {
        snprintf(path, sizeof path, "%s/csa/s%03d.csa", dir, i);
        size_t len;
        char *data = kifu_file_read(path, &len, NULL);
        kifu_read_options ro = {KIFU_FMT_CSA, KIFU_ENC_UTF8, 0, NULL, NULL, NULL};
        kifu_record **rs;
        size_t n;
        if (!data || kifu_read_all(data, len, &ro, &rs, &n, NULL)) {
            kifu_free(data);
            return -1;
        }
        for (size_t k = 0; k < n; k++) {
            t->hits += kifu_search_record(s, rs[k], NULL, NULL, NULL);
            /* Every position of the main line was tested: the root and each move. */
            const kifu_node *node = kifu_record_root(rs[k]);
            for (t->positions++; (node = kifu_node_next(node));)
                t->positions += kifu_node_kind_of(node) == KIFU_NODE_MOVE;
            kifu_record_free(rs[k]);
        }
        kifu_free(rs);
        kifu_free(data);
    }
    return bench_now() - t0;
}

/* grep -c -F over the posjson files: seconds, and the matching lines in *hits. */
static double run_grep(const char *dir, const char *bd, long *hits)
{
    char cmd[8600];
    snprintf(cmd, sizeof cmd, "grep -c -h -F '\"bd\":\"%s\"' %s/posjson/*.posjson", bd,
             dir);
    double t0 = bench_now();
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    long n, sum = 0;
    while (fscanf(p, "%ld", &n) == 1)
        sum += n;
    pclose(p);
    *hits = sum;
    return bench_now() - t0;
}

int bench_search(const bench_opts *o)
{
    char dir[4200];
    if (bench_search_collection(o, dir, sizeof dir))
        return -1;
    int files = (o->search_games + PER_FILE - 1) / PER_FILE;
    printf("\n== search (%d games on disk, CSA; one core)\n", o->search_games);
    /* A position most games pass through: after ☗７六歩 (a random first move, so about
     * one game in thirty), board only, either side, as a bd string matches. */
    kifu_position *p = kifu_position_new();
    kifu_position_set_sfen(p, "position startpos moves 7g7f", NULL);
    kifu_board b;
    kifu_position_board(p, &b);
    kifu_position_free(p);
    char bd[82], cb[40], cw[40];
    kifu_board_to_bd(&b, bd, cb, cw);
    kifu_search *exact =
        kifu_search_position(&b, KIFU_SEARCH_ANY_SIDE | KIFU_SEARCH_BOARD_ONLY, NULL);
    /* A pattern: a sente silver on ７七 (letter 57) and the king gone from ５九 (letter 77). */
    kifu_search *pattern = kifu_search_regex("^.{56}g.{19}o", 0, NULL);
    tally te = {0}, tp = {0};
    double best_e = 1e30, best_p = 1e30, best_g = 1e30;
    long grep_hits = 0;
    for (int run = 0; run < o->runs; run++) {
        double e = run_kifu(dir, files, exact, &te);
        double q = run_kifu(dir, files, pattern, &tp);
        double g = run_grep(dir, bd, &grep_hits);
        if (e < 0 || q < 0 || g < 0) {
            fprintf(stderr, "kifu_bench: the search collection could not be read\n");
            kifu_search_free(exact);
            kifu_search_free(pattern);
            return -1;
        }
        best_e = e < best_e ? e : best_e;
        best_p = q < best_p ? q : best_p;
        best_g = g < best_g ? g : best_g;
    }
    double pe = (double)te.positions / best_e, pp = (double)tp.positions / best_p,
           pg = (double)te.positions / best_g;
    printf("kifu search exact   %ld positions, %ld hits | best of %d: %.3f s | %.2fM "
           "positions/s\n",
           te.positions, te.hits, o->runs, best_e, pe / 1e6);
    printf("kifu search pattern %ld positions, %ld hits | best of %d: %.3f s | %.2fM "
           "positions/s\n",
           tp.positions, tp.hits, o->runs, best_p, pp / 1e6);
    printf("grep -c (posjson)   %ld lines, %ld hits | best of %d: %.3f s | %.2fM "
           "positions/s\n",
           te.positions, grep_hits, o->runs, best_g, pg / 1e6);
    printf("ratio kifu exact on CSA / grep on posjson: %.2f (hits %s)\n", pe / pg,
           grep_hits == te.hits ? "agree" : "DISAGREE");
    kifu_search_free(exact);
    kifu_search_free(pattern);
    return grep_hits == te.hits ? 0 : -1;
}
