/* bench_memory.c: peak memory of reading the largest generated file, per format.
 *
 * One long game (--memory-moves, default 1,000,000 moves: kings walking to and fro, with a
 * time on every move) is written in every format that holds it; then, per format, a fresh
 * process (this binary again, `--rss-read FILE`) reads and normalizes the file the way
 * `kifu convert` does, and reports its peak RSS (VmHWM), printed beside the file size.
 * A fresh process, because the peak of a forked one (wait4, getrusage) would count the
 * parent's pages from before the exec. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench_formats.h"
#include "kifu.h"

/* The goal of issue 17: reading needs at most this many times the file's size. */
#define GOAL_RATIO 4.0

int bench_rss_read(const char *path)
{
    kifu_error err;
    kifu_error_clear(&err);
    size_t len = 0;
    void *data = kifu_file_read(path, &len, &err);
    kifu_read_options ro = {KIFU_FMT_AUTO, KIFU_ENC_AUTO, 0, path, NULL, NULL};
    kifu_record *r = data ? kifu_read(data, len, &ro, &err) : NULL;
    if (!r) {
        char buf[1024];
        fprintf(stderr, "%s\n", kifu_error_format(&err, buf, sizeof buf));
        kifu_free(data);
        return 1;
    }
    kifu_record_free(r);
    kifu_free(data);
    /* The peak of this process's own memory since its exec, in kB. */
    FILE *st = fopen("/proc/self/status", "r");
    char line[256];
    while (st && fgets(line, sizeof line, st))
        if (strncmp(line, "VmHWM:", 6) == 0)
            printf("%ld\n", strtol(line + 6, NULL, 10));
    if (st)
        fclose(st);
    return 0;
}

/* The game: kings step up and back (5i5h 5a5b 5h5i 5b5a ...), as USI. */
static kifu_record *long_game(long moves)
{
    static const char *const cycle[4] = {" 5i5h", " 5a5b", " 5h5i", " 5b5a"};
    size_t cap = 32 + (size_t)moves * 5;
    char *usi = malloc(cap), *p = usi;
    if (!usi)
        return NULL;
    p += sprintf(p, "position startpos moves");
    for (long i = 0; i < moves; i++) {
        memcpy(p, cycle[i % 4], 5);
        p += 5;
    }
    *p = 0;
    kifu_read_options ro = {KIFU_FMT_SFEN, KIFU_ENC_UTF8, 0, "long.usi", NULL, NULL};
    kifu_error err;
    kifu_error_clear(&err);
    kifu_record *r = kifu_read(usi, (size_t)(p - usi), &ro, &err);
    free(usi);
    if (!r) {
        printf("  cannot make the long game: %s\n", err.message);
        return NULL;
    }
    /* Times make the record a real one for the formats that hold them. */
    kifu_move_time t;
    memset(&t, 0, sizeof t);
    t.now.h = t.total.h = -1;
    t.has_total = 1;
    long ply = 0;
    for (kifu_node *n = kifu_node_next(kifu_record_root(r)); n; n = kifu_node_next(n)) {
        ply++;
        t.now.s = (int)(ply % 7);
        t.total.s = (int)((ply / 2) % 60);
        t.total.m = (int)((ply / 120) % 60);
        t.total.h = (int)(ply / 7200);
        kifu_node_set_time(r, n, &t);
    }
    return r;
}

static long file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

/* Peak RSS in kB of `self --rss-read path`, or -1. */
static long peak_kb(const char *self, const char *path)
{
    char cmd[8800];
    if (snprintf(cmd, sizeof cmd, "'%s' --rss-read '%s'", self, path) >= (int)sizeof cmd)
        return -1;
    FILE *p = popen(cmd, "r");
    long kb = -1;
    if (!p)
        return -1;
    if (fscanf(p, "%ld", &kb) != 1)
        kb = -1;
    return pclose(p) == 0 ? kb : -1;
}

int bench_memory(const bench_opts *o, const char *self)
{
    printf("\n== memory: peak RSS of reading (+ normalizing) one %ld-move game, per "
           "format (a fresh process each; goal: at most %.0fx the file)\n",
           o->memory_moves, GOAL_RATIO);
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/memory", o->dir);
    if (bench_make_dir(dir))
        return -1;
    kifu_record *r = long_game(o->memory_moves);
    if (!r)
        return -1;
    /* The process alone, reading an empty game: what every figure below includes. */
    char path[4300];
    snprintf(path, sizeof path, "%s/empty.usi", dir);
    bench_write_bytes(path, "position startpos\n", 18);
    long base = peak_kb(self, path);
    printf("%-8s %10s %12s %8s   (the process alone: %ld kB)\n", "format", "file MB",
           "peak RSS MB", "ratio", base);
    int met = 1;
    for (size_t i = 0; i < kifu_format_count(); i++) {
        const kifu_format_info *fi = kifu_format_info_at(i);
        kifu_write_options wo = {fi->format, KIFU_ENC_UTF8, 0, NULL, NULL};
        kifu_error err;
        kifu_error_clear(&err);
        char *out = kifu_write(r, &wo, NULL, &err);
        if (!out) {
            printf("%-8s cannot write: %s\n", fi->name, err.message);
            continue;
        }
        snprintf(path, sizeof path, "%s/long.%.*s", dir,
                 (int)strcspn(fi->extensions, " "), fi->extensions);
        int wrc = bench_write_bytes(path, out, strlen(out));
        kifu_free(out);
        if (wrc)
            continue;
        long size = file_size(path), kb = peak_kb(self, path);
        remove(path); /* half a gigabyte for all formats: not kept */
        if (kb < 0) {
            printf("%-8s %10.1f  the reader failed\n", fi->name, size / 1e6);
            met = 0;
            continue;
        }
        double ratio = (double)kb * 1024 / (double)size;
        met &= ratio <= GOAL_RATIO;
        printf("%-8s %10.1f %12.1f %7.1fx   %s\n", fi->name, size / 1e6, kb / 1024.0,
               ratio, ratio <= GOAL_RATIO ? "met" : "NOT met");
        fflush(stdout);
    }
    printf("  goal (at most %.0fx for every format): %s\n", GOAL_RATIO,
           met ? "met" : "NOT met");
    kifu_record_free(r);
    return 0;
}
