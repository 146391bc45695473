/* bench_batch.c: the whole `kifu convert -o - DIR` process over a directory of many KI2
 * files (JSON Lines on a pipe), on one thread and on every processor, beside
 * json-kifu-format converting the same games with the files already in memory. What a
 * user waits for: start-up, finding the files, opening and reading each, parsing,
 * normalizing, writing JKF and the pipe. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench_formats.h"
#include "kifu.h"

/* The ratio to json-kifu-format the batch conversion aims at (issue 16). */
#define TARGET 20.0

/* <dir>/corpus-batch/ki2/: o->batch_files random games written as KI2, one per file. */
static int make_files(const bench_opts *o, char *dir, size_t cap)
{
    char top[4200], what[128], path[4400];
    snprintf(top, sizeof top, "%s/corpus-batch", o->dir);
    if (snprintf(dir, cap, "%s/ki2", top) >= (int)cap)
        return -1;
    snprintf(what, sizeof what, "batch 1 seed %llu files %d", (unsigned long long)o->seed,
             o->batch_files);
    if (!bench_stale(o, top, what))
        return 0;
    if (bench_make_dir(o->dir) || bench_make_dir(top) || bench_make_dir(dir))
        return -1;
    printf("generating %d KI2 files of random legal games (seed %llu) ...\n",
           o->batch_files, (unsigned long long)o->seed);
    fflush(stdout);
    double t0 = bench_now(), bytes = 0;
    uint64_t rng = (o->seed ? o->seed : 1) ^ 0x9E3779B97F4A7C15ULL;
    kifu_write_options wo = {KIFU_FMT_KI2, KIFU_ENC_AUTO, 0, NULL, NULL};
    for (int g = 0; g < o->batch_files; g++) {
        char why[600] = "";
        kifu_record *r = bench_random_game(&rng, g, why, sizeof why);
        size_t len = 0;
        char *text = r ? kifu_write(r, &wo, &len, NULL) : NULL;
        kifu_record_free(r);
        int rc =
            !text ||
            snprintf(path, sizeof path, "%s/g%05d.ki2", dir, g) >= (int)sizeof path ||
            bench_write_bytes(path, text, len);
        kifu_free(text);
        if (rc) {
            fprintf(stderr, "kifu_bench: cannot generate the batch files: %s\n",
                    why[0] ? why : "the KI2 writer failed");
            return -1;
        }
        bytes += (double)len;
    }
    /* Files of an earlier, larger set would be converted too: remove them. */
    for (int g = o->batch_files;; g++)
        if (snprintf(path, sizeof path, "%s/g%05d.ki2", dir, g) >= (int)sizeof path ||
            remove(path) != 0)
            break;
    if (bench_stamp(top, what))
        return -1;
    printf("  %d files, %.1f MB (%.1f s)\n", o->batch_files, bytes / 1e6,
           bench_now() - t0);
    return 0;
}

double bench_children_cpu(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_CHILDREN, &ru) != 0)
        return 0;
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

/* One run of the tool: seconds, with the JSON lines it printed counted (the reading end
 * of the pipe is this process, so the run includes getting the output out) and its CPU
 * time in *cpu. -1 when it failed. */
static double run_tool(const char *kifu, const char *dir, int jobs, size_t *lines,
                       double *cpu)
{
    double c0 = bench_children_cpu();
    char cmd[9000];
    snprintf(cmd, sizeof cmd, "'%s' convert -q -j %d -o - '%s'", kifu, jobs, dir);
    double t0 = bench_now();
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    static char buf[1 << 16];
    size_t n, count = 0;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0)
        for (char *s = buf; (s = memchr(s, '\n', (size_t)(buf + n - s))); s++)
            count++;
    int status = pclose(p);
    double t = bench_now() - t0;
    *cpu = bench_children_cpu() - c0;
    *lines = count;
    return status == 0 ? t : -1;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *t, int n)
{
    qsort(t, (size_t)n, sizeof *t, cmp_double);
    return n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
}

/* Median seconds of `runs` runs with `jobs` threads, and their median CPU time in *cpu
 * (steadier than the wall clock when others share the machine); -1 when a run failed or
 * printed another number of games. */
static double measure_tool(const char *kifu, const char *dir, int jobs, int runs,
                           size_t games, double *cpu)
{
    double t[64], c[64];
    if (runs > 64)
        runs = 64;
    for (int i = 0; i < runs; i++) {
        size_t lines = 0;
        t[i] = run_tool(kifu, dir, jobs, &lines, &c[i]);
        if (t[i] < 0 || lines != games) {
            printf("  kifu -j%d failed or printed %zu lines for %zu games\n", jobs, lines,
                   games);
            return -1;
        }
    }
    *cpu = median(c, runs);
    return median(t, runs);
}

int bench_batch(const bench_opts *o)
{
    printf("\n== a directory of %d KI2 files to JSON Lines (kifu convert -o - DIR, the "
           "whole process)\n",
           o->batch_files);
    char dir[4200], kifu[4200];
    if (make_files(o, dir, sizeof dir))
        return -1;
    snprintf(kifu, sizeof kifu, "%s/kifu", o->dir);
    if (access(kifu, X_OK) != 0) {
        printf("skipped: %s is not built\n", kifu);
        return -1;
    }
    size_t games = (size_t)o->batch_files;
    int ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (ncpu < 1)
        ncpu = 1;
    /* One untimed run fills the page cache, as a user's second run finds it. */
    size_t lines = 0;
    double c1, cn;
    if (run_tool(kifu, dir, ncpu, &lines, &c1) < 0 || lines != games) {
        printf("  kifu convert failed (%zu lines for %zu files)\n", lines, games);
        return -1;
    }
    double t1 = measure_tool(kifu, dir, 1, o->batch_runs, games, &c1);
    double tn = t1;
    cn = c1;
    if (ncpu > 1 && t1 >= 0)
        tn = measure_tool(kifu, dir, ncpu, o->batch_runs, games, &cn);
    if (t1 < 0 || tn < 0)
        return -1;
    printf("kifu -j1                   %6zu files | %d runs: median %.3f s | %8.0f "
           "files/s | cpu %.3f s\n",
           games, o->batch_runs, t1, (double)games / t1, c1);
    printf("kifu -j%-3d                 %6zu files | %d runs: median %.3f s | %8.0f "
           "files/s | cpu %.3f s (%.2fx -j1 by the clock)\n",
           ncpu, games, o->batch_runs, tn, (double)games / tn, cn, t1 / tn);

    /* The peer, in memory, on the same files. */
    double peer = -1, peer_cpu = 0;
    size_t peer_files = 0;
    if (o->peers &&
        bench_peer_seconds(o, "ki2", dir, "json-kifu-format", &peer, &peer_cpu,
                           &peer_files) == 0 &&
        peer > 0) {
        printf("json-kifu-format (memory)  %6zu files | 1 run: %.3f s | %8.0f files/s | "
               "cpu %.3f s\n",
               peer_files, peer, (double)peer_files / peer, peer_cpu);
        /* By files a second: the same files, so the same as by time. */
        double rate = (double)peer_files / peer;
        double r1 = (double)games / t1 / rate, rn = (double)games / tn / rate;
        printf("  kifu/json-kifu-format by the clock: -j1 %.1fx, -j%d %.1fx; by cpu time "
               "-j1 %.1fx\n",
               r1, ncpu, rn, peer_cpu > 0 ? peer_cpu / c1 : 0);
        printf("  target >= %.0fx with -j%d by the clock: %s\n", TARGET, ncpu,
               rn >= TARGET ? "met" : "NOT met");
    } else if (o->peers) {
        printf("  json-kifu-format did not run: no ratio\n");
    }
    return 0;
}
