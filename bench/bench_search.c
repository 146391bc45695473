/* bench_search.c: position search over a collection on disk. The games are random legal
 * games, written as CSA (1000 games a file, `/` between them) and, for the comparison the
 * position-list document proposes, as posjson with only its own keys (bd, cb, cw, sid, mv:
 * one line per position). kifu reads the CSA files and searches every position (exact,
 * then a pattern) with kifu_search_read, the search inside the normalizer; `grep -c -F`
 * counts the lines of the posjson files holding the same bd. All single-threaded: the
 * figures are per core. The hit counts must agree, with grep and with the two-pass search
 * (kifu_read_all, then kifu_search_record), timed once beside them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

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
            kifu_move m_v;
            const kifu_move *m = kifu_node_get_move(node, &m_v) ? &m_v : NULL;
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
        size_t n;
        snprintf(path, sizeof path, "%s/csa/s%03d.csa", dir, first / PER_FILE);
        if (bench_csa_file(&rng, first, o->search_games, PER_FILE, 0, path, rs, &n))
            return -1;
        snprintf(path, sizeof path, "%s/posjson/s%03d.posjson", dir, first / PER_FILE);
        int rc = write_posjson(path, rs, n);
        bench_free_games(rs, n);
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

/* A run's seconds by the wall clock and in CPU time (the process's, or grep's). */
typedef struct span {
    double wall, cpu;
} span;

static span since(double w0, double c0)
{
    return (span){bench_now() - w0, bench_cpu_now() - c0};
}

/* One CSA file of the collection, read into memory (kifu_free), or NULL. */
static char *load(const char *dir, int i, size_t *len)
{
    char path[8400];
    snprintf(path, sizeof path, "%s/csa/s%03d.csa", dir, i);
    return kifu_file_read(path, len, NULL);
}

/* kifu_search_read over every CSA file from disk: the search runs inside the normalizer,
 * one replay of every move. 0 (hits in t->hits, times in *sp), or -1. */
static int run_kifu(const char *dir, int files, kifu_search *s, tally *t, span *sp)
{
    t->hits = 0;
    double w0 = bench_now(), c0 = bench_cpu_now();
    for (int i = 0; i < files; i++) {
        size_t len;
        char *data = load(dir, i, &len);
        kifu_read_options ro = {KIFU_FMT_CSA, KIFU_ENC_UTF8, 0, NULL, NULL, NULL};
        long hits =
            data ? kifu_search_read(s, data, len, &ro, NULL, NULL, NULL, NULL) : -1;
        kifu_free(data);
        if (hits < 0)
            return -1;
        t->hits += hits;
    }
    *sp = since(w0, c0);
    return 0;
}

/* The same search as kifu_read_all, then kifu_search_record per game (the record walk
 * plays every move a second time): the hits must agree, and t->positions gets the
 * positions of the main lines (the root and each move), counted outside the times. 0,
 * or -1. */
static int run_two_pass(const char *dir, int files, kifu_search *s, tally *t, span *sp)
{
    t->positions = t->hits = 0;
    double w0 = bench_now(), c0 = bench_cpu_now(), counting_w = 0, counting_c = 0;
    for (int i = 0; i < files; i++) {
        size_t len;
        char *data = load(dir, i, &len);
        kifu_read_options ro = {KIFU_FMT_CSA, KIFU_ENC_UTF8, 0, NULL, NULL, NULL};
        kifu_record **rs;
        size_t n;
        if (!data || kifu_read_all(data, len, &ro, &rs, &n, NULL)) {
            kifu_free(data);
            return -1;
        }
        for (size_t k = 0; k < n; k++) {
            t->hits += kifu_search_record(s, rs[k], NULL, NULL, NULL);
            double cw = bench_now(), cc = bench_cpu_now();
            const kifu_node *node = kifu_record_root(rs[k]);
            for (t->positions++; (node = kifu_node_next(node));)
                t->positions += kifu_node_kind_of(node) == KIFU_NODE_MOVE;
            counting_w += bench_now() - cw;
            counting_c += bench_cpu_now() - cc;
            kifu_record_free(rs[k]);
        }
        kifu_free(rs);
        kifu_free(data);
    }
    *sp = since(w0, c0);
    sp->wall -= counting_w;
    sp->cpu -= counting_c;
    return 0;
}

/* The CPU seconds of the children waited for so far (grep's). */
static double children_cpu(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_CHILDREN, &ru))
        return 0;
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

/* grep -c -F over the posjson files: the matching lines in *hits, times in *sp (CPU:
 * grep's own and its shell's). 0, or -1. */
static int run_grep(const char *dir, const char *bd, long *hits, span *sp)
{
    char cmd[8600];
    snprintf(cmd, sizeof cmd, "grep -c -h -F '\"bd\":\"%s\"' %s/posjson/*.posjson", bd,
             dir);
    double w0 = bench_now(), c0 = children_cpu();
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    long n, sum = 0;
    while (fscanf(p, "%ld", &n) == 1)
        sum += n;
    if (pclose(p) == -1)
        return -1;
    *hits = sum;
    sp->wall = bench_now() - w0;
    sp->cpu = children_cpu() - c0;
    return 0;
}

static void keep_best(span *best, span s)
{
    best->wall = s.wall < best->wall ? s.wall : best->wall;
    best->cpu = s.cpu < best->cpu ? s.cpu : best->cpu;
}

static void line(const char *what, long positions, long hits, int runs, span t)
{
    printf("%-19s %ld positions, %ld hits | best of %d: wall %.3f s %6.2fM positions/s | "
           "cpu %.3f s %6.2fM positions/s\n",
           what, positions, hits, runs, t.wall, (double)positions / t.wall / 1e6, t.cpu,
           (double)positions / t.cpu / 1e6);
}

/* `kifu search -c -j JOBS DIR` (the tool, the whole process): seconds by the clock (its
 * CPU, user and system, in *cpu), the hits it counted in *hits; -1 when it failed. */
static double run_tool(const char *kifu, const char *dir, const char *bd, int jobs,
                       long *hits, double *cpu)
{
    char cmd[9000];
    snprintf(cmd, sizeof cmd, "'%s' search --bd '%s' --board-only -c -j %d '%s/csa'",
             kifu, bd, jobs, dir);
    double t0 = bench_now(), c0 = bench_children_cpu();
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    char line[4400];
    *hits = 0;
    while (fgets(line, sizeof line, p)) {
        const char *c = strrchr(line, ':');
        *hits += atol(c ? c + 1 : line);
    }
    int status = pclose(p);
    *cpu = bench_children_cpu() - c0;
    return status == 0 ? bench_now() - t0 : -1;
}

/* The tool with -j1 and -j2, alternately, best of `runs` each by the clock, with the same
 * hits: the goal is 1.8x by the clock on two cores. Beside it the CPU of each and the
 * cores it kept busy (CPU / wall): the files are searched on the threads and only their
 * output printed in order on the calling thread, so -j2 keeps two cores busy unless the
 * machine gives it less. */
static void tool_jobs(const bench_opts *o, const char *dir, const char *bd, long want)
{
    char kifu[4200];
    snprintf(kifu, sizeof kifu, "%s/kifu", o->dir);
    if (access(kifu, X_OK) != 0) {
        printf("kifu search -j: skipped (no kifu built)\n");
        return;
    }
    double best[2] = {1e30, 1e30}, cpu[2] = {0, 0};
    long hits[2] = {0, 0};
    for (int run = 0; run < o->runs; run++)
        for (int k = 0; k < 2; k++) {
            double c, t = run_tool(kifu, dir, bd, k + 1, &hits[k], &c);
            if (t < 0) {
                printf("kifu search -j%d failed\n", k + 1);
                return;
            }
            if (t < best[k])
                best[k] = t, cpu[k] = c;
        }
    bench_print_load();
    for (int k = 0; k < 2; k++)
        printf("kifu search -c -j%d (the tool) %ld hits | best of %d: wall %.3f s, cpu "
               "%.3f s (%.2f cores busy)\n",
               k + 1, hits[k], o->runs, best[k], cpu[k], cpu[k] / best[k]);
    printf("kifu search -j2 / -j1: %.2fx by the clock (goal 1.8x on 2 cores: %s; hits "
           "%s)\n",
           best[0] / best[1], best[0] / best[1] >= 1.8 ? "met" : "NOT met",
           hits[0] == hits[1] && hits[0] == want ? "agree" : "DISAGREE");
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
    /* Once, for comparison: the two-pass search, which also counts the positions and
     * whose hits the one-pass search must reproduce. */
    tally te = {0}, tp = {0}, re = {0}, rp = {0};
    span two_e, two_p, best_e = {1e30, 1e30}, best_p = {1e30, 1e30},
                       best_g = {1e30, 1e30};
    int bad = run_two_pass(dir, files, exact, &re, &two_e) ||
              run_two_pass(dir, files, pattern, &rp, &two_p);
    long grep_hits = 0;
    for (int run = 0; run < o->runs && !bad; run++) {
        span e, q, g;
        bad = run_kifu(dir, files, exact, &te, &e) ||
              run_kifu(dir, files, pattern, &tp, &q) || run_grep(dir, bd, &grep_hits, &g);
        if (!bad) {
            keep_best(&best_e, e);
            keep_best(&best_p, q);
            keep_best(&best_g, g);
        }
    }
    if (bad) {
        fprintf(stderr, "kifu_bench: the search collection could not be read\n");
        kifu_search_free(exact);
        kifu_search_free(pattern);
        return -1;
    }
    long positions = re.positions;
    line("kifu search exact", positions, te.hits, o->runs, best_e);
    line("kifu search pattern", positions, tp.hits, o->runs, best_p);
    line("grep -c (posjson)", positions, grep_hits, o->runs, best_g);
    printf("read, then search (kifu_read_all + kifu_search_record, one run): exact wall "
           "%.2fM cpu %.2fM, pattern wall %.2fM cpu %.2fM positions/s (hits %s)\n",
           positions / two_e.wall / 1e6, positions / two_e.cpu / 1e6,
           positions / two_p.wall / 1e6, positions / two_p.cpu / 1e6,
           re.hits == te.hits && rp.hits == tp.hits ? "agree" : "DISAGREE");
    printf("ratio kifu exact on CSA / grep on posjson: wall %.2f, cpu %.2f (hits %s)\n",
           best_g.wall / best_e.wall, best_g.cpu / best_e.cpu,
           grep_hits == te.hits ? "agree" : "DISAGREE");
    printf("goal per core (cpu): exact %.2fM of 5M, pattern %.2fM of 2M positions/s\n",
           positions / best_e.cpu / 1e6, positions / best_p.cpu / 1e6);
    int ok = grep_hits == te.hits && re.hits == te.hits && rp.hits == tp.hits;
    tool_jobs(o, dir, bd, te.hits);
    kifu_search_free(exact);
    kifu_search_free(pattern);
    return ok ? 0 : -1;
}
