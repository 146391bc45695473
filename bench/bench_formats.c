/* bench_formats.c: CSA/KIF/KI2 -> JKF throughput over the generated corpus (read, decode,
 * parse, normalize, write JKF; files already in memory), a 10,000-line USI collection made
 * of the CSA games read as one .sfen file and written as JKF, and the same conversion by
 * the JavaScript peers json-kifu-format and tsshogi on a subset, for the ratio. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bench_formats.h"
#include "kifu.h"
#include "kifu_private.h"
#include "msf/msf.h"

typedef struct file {
    char *path;
    char *data;
    size_t len;
} file;

typedef struct files {
    file *v;
    size_t n;
    size_t bytes;
} files;

typedef struct result {
    double median, mean, stdev; /* wall-clock seconds per run */
    double cpu;                 /* median CPU seconds per run: less disturbed by other
                                   load on the machine than the wall clock */
    size_t moves, failed;
} result;

/* The largest spread (stdev / median) of a measurement's runs that is taken as is. */
#define MAX_SPREAD 0.08

static const struct {
    const char *name;
    int format;
} sections[] = {{"csa", KIFU_FMT_CSA}, {"kif", KIFU_FMT_KIF}, {"ki2", KIFU_FMT_KI2}};

double bench_cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int by_path(const void *a, const void *b)
{
    return strcmp(((const file *)a)->path, ((const file *)b)->path);
}

static void files_free(files *fs)
{
    for (size_t i = 0; i < fs->n; i++) {
        free(fs->v[i].path);
        free(fs->v[i].data);
    }
    free(fs->v);
    memset(fs, 0, sizeof *fs);
}

/* Every file of a corpus directory, in name order (the paths only). */
static int load_names(const char *dir, files *fs)
{
    memset(fs, 0, sizeof *fs);
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "kifu_bench: %s: cannot open\n", dir);
        return -1;
    }
    size_t cap = 0;
    struct dirent *de;
    int rc = 0;
    while (rc == 0 && (de = readdir(d))) {
        if (de->d_name[0] == '.')
            continue;
        if (fs->n == cap) {
            file *v = realloc(fs->v, (cap = cap ? cap * 2 : 1024) * sizeof *v);
            if (!v) {
                rc = -1;
                break;
            }
            fs->v = v;
        }
        size_t plen = strlen(dir) + strlen(de->d_name) + 2;
        file *f = &fs->v[fs->n];
        memset(f, 0, sizeof *f);
        if (!(f->path = malloc(plen))) {
            rc = -1;
            break;
        }
        fs->n++;
        snprintf(f->path, plen, "%s/%s", dir, de->d_name);
    }
    closedir(d);
    if (fs->n)
        qsort(fs->v, fs->n, sizeof *fs->v, by_path);
    if (rc)
        files_free(fs);
    return rc;
}

/* Every file of a corpus directory, in name order, read into memory. */
static int load(const char *dir, files *fs)
{
    int rc = load_names(dir, fs);
    for (size_t i = 0; rc == 0 && i < fs->n; i++) {
        file *f = &fs->v[i];
        FILE *in = fopen(f->path, "rb");
        struct stat st;
        if (!in || fstat(fileno(in), &st) != 0 ||
            !(f->data = malloc((size_t)st.st_size + 1)) ||
            fread(f->data, 1, (size_t)st.st_size, in) != (size_t)st.st_size) {
            fprintf(stderr, "kifu_bench: %s: cannot read\n", f->path);
            rc = -1;
        }
        if (in)
            fclose(in);
        f->len = (size_t)st.st_size;
        fs->bytes += f->len;
    }
    if (rc)
        files_free(fs);
    return rc;
}

static size_t moves_of(const kifu_record *r)
{
    size_t n = 0;
    for (const kifu_node *nd = kifu_node_next(kifu_record_root(r)); nd;
         nd = kifu_node_next(nd))
        n += kifu_node_kind_of(nd) == KIFU_NODE_MOVE;
    return n;
}

/* One pass: read (format from the name, encoding detected, as `kifu convert` does),
 * normalize, write JKF (unless only reading). Counts moves when asked. Returns the number
 * of failures. */
static int read_only;
static size_t pass(const files *fs, size_t count, size_t *moves, const char **first_error,
                   char *errbuf, size_t cap)
{
    size_t failed = 0;
    kifu_write_options wo = {KIFU_FMT_JKF, KIFU_ENC_AUTO, 0, NULL, NULL};
    for (size_t i = 0; i < count; i++) {
        kifu_read_options ro = {KIFU_FMT_AUTO, KIFU_ENC_AUTO, 0,
                                fs->v[i].path, NULL,          NULL};
        kifu_error err;
        kifu_error_clear(&err);
        kifu_record *r = kifu_read(fs->v[i].data, fs->v[i].len, &ro, &err);
        char *out = !r ? NULL : read_only ? NULL : kifu_write(r, &wo, NULL, &err);
        if (!r || (!out && !read_only)) {
            if (!failed && first_error) {
                kifu_error_format(&err, errbuf, cap);
                *first_error = errbuf;
            }
            failed++;
        } else if (moves) {
            *moves += moves_of(r);
        }
        kifu_free(out);
        kifu_record_free(r);
    }
    return failed;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Square root by Newton's method: saves linking libm for one call. */
static double root(double x)
{
    if (x <= 0)
        return 0;
    double r = x > 1 ? x : 1;
    for (int i = 0; i < 64; i++)
        r = (r + x / r) / 2;
    return r;
}

static void stats(double *t, int n, result *res)
{
    double sum = 0, sq = 0;
    for (int i = 0; i < n; i++)
        sum += t[i];
    res->mean = sum / n;
    for (int i = 0; i < n; i++)
        sq += (t[i] - res->mean) * (t[i] - res->mean);
    res->stdev = n > 1 ? root(sq / (n - 1)) : 0;
    qsort(t, (size_t)n, sizeof *t, cmp_double);
    res->median = n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
}

/* Times `runs` passes over the first `count` files (after one untimed pass that counts
 * moves and warms the caches). */
static int measure(const files *fs, size_t count, int runs, result *res)
{
    memset(res, 0, sizeof *res);
    char errbuf[1024];
    const char *first = NULL;
    res->failed = pass(fs, count, &res->moves, &first, errbuf, sizeof errbuf);
    if (res->failed)
        printf("  %zu of %zu files failed; first: %s\n", res->failed, count, first);
    if (res->failed == count)
        return -1;
    double *t = malloc(2 * (size_t)runs * sizeof *t), *c = t + runs;
    if (!t)
        return -1;
    for (int i = 0; i < runs; i++) {
        double t0 = bench_now(), c0 = bench_cpu_now();
        pass(fs, count, NULL, NULL, NULL, 0);
        t[i] = bench_now() - t0;
        c[i] = bench_cpu_now() - c0;
    }
    result cr;
    stats(c, runs, &cr);
    stats(t, runs, res);
    res->cpu = cr.median;
    free(t);
    return 0;
}

static void human(double v, char *buf, size_t cap)
{
    if (v >= 1e6)
        snprintf(buf, cap, "%.2fM", v / 1e6);
    else if (v >= 1e3)
        snprintf(buf, cap, "%.1fk", v / 1e3);
    else
        snprintf(buf, cap, "%.0f", v);
}

/* Figures by wall clock (what a user waits) and by CPU time (what the work costs, steady
 * when other processes share the machine). */
static void print_result(const char *label, size_t nfiles, size_t bytes, const result *r,
                         int runs)
{
    char mv[32], mps[32], cmps[32];
    human((double)r->moves, mv, sizeof mv);
    human((double)r->moves / r->median, mps, sizeof mps);
    human(r->cpu > 0 ? (double)r->moves / r->cpu : 0, cmps, sizeof cmps);
    printf("%-26s %6zu files %7.2f MB %8s moves | %d runs: mean %.3f s, median %.3f s, "
           "stdev %.3f s | %6.1f MB/s %8s moves/s | cpu %.3f s: %6.1f MB/s %8s moves/s\n",
           label, nfiles, (double)bytes / 1e6, mv, runs, r->mean, r->median, r->stdev,
           (double)bytes / 1e6 / r->median, mps, r->cpu,
           r->cpu > 0 ? (double)bytes / 1e6 / r->cpu : 0, cmps);
}

/* ---- peers ------------------------------------------------------------------------- */

static int have_node(void)
{
    return system("node --version >/dev/null 2>&1") == 0;
}

static int file_exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0;
}

/* npm install of bench/peers/package.json into <dir>/peers (the registry is the only
 * network it needs). 0 when the packages are there. */
static int install_peers(const bench_opts *o, char *moddir, size_t cap)
{
    char cmd[16384], probe[4400], probe2[4400];
    if (snprintf(moddir, cap, "%s/peers", o->dir) >= (int)cap)
        return -1;
    snprintf(probe, sizeof probe, "%s/node_modules/tsshogi/package.json", moddir);
    snprintf(probe2, sizeof probe2, "%s/node_modules/json-kifu-format/package.json",
             moddir);
    if (file_exists(probe) && file_exists(probe2))
        return 0;
    printf("installing the peers from the npm registry into %s ...\n", moddir);
    fflush(stdout);
    if (snprintf(
            cmd, sizeof cmd,
            "mkdir -p '%s' && cp '%s/package.json' '%s/' && npm install --prefix '%s' "
            "--no-audit --no-fund --loglevel=error >'%s/npm.log' 2>&1",
            moddir, o->peers_src, moddir, moddir, moddir) >= (int)sizeof cmd ||
        system(cmd) != 0) {
        printf("  npm install failed (see %s/npm.log)\n", moddir);
        return -1;
    }
    return 0;
}

/* The peers' report lines are JSON objects, read by the project's one JSON reader (the
 * flat values of src/msf/doc.c). A number's value (integer or real), or 0. */
static double num(const kifu__msf_val *v)
{
    if (!v || v->type != KIFU__JSON_NUMBER)
        return 0;
    return v->is_int ? (double)v->i : v->d;
}

static const char *str(const kifu__msf_val *v)
{
    return v && v->type == KIFU__JSON_STRING ? v->s : NULL;
}

static size_t size(const kifu__msf_val *v)
{
    return v && v->type == KIFU__JSON_ARRAY ? v->count : 0;
}

/* One line of JSON into d: its object, or NULL (d is then empty). */
static const kifu__msf_val *read_line(kifu__msf_doc *d, const char *line)
{
    kifu_error e;
    kifu_error_clear(&e);
    if (kifu__msf_doc_read(d, line, strlen(line), &e))
        return NULL;
    if (!d->n || d->v[0].type != KIFU__JSON_OBJECT) {
        kifu__msf_doc_free(d);
        return NULL;
    }
    return d->v;
}

typedef struct peer_result {
    char name[64];
    double median, cpu;
    double spread; /* stdev / median of the runs */
    size_t failed;
    int ok;
} peer_result;

/* Runs convert.js on the list; fills up to `cap` peer results. Returns how many. */
static int run_peers(const bench_opts *o, const char *moddir, const char *fmt,
                     const char *list, const char *extra, peer_result *out, int cap)
{
    char cmd[16384];
    if (snprintf(cmd, sizeof cmd, "node '%s/convert.js' '%s' %s %d '%s' %s", o->peers_src,
                 moddir, fmt, o->peer_runs, list, extra) >= (int)sizeof cmd)
        return 0;
    FILE *p = popen(cmd, "r");
    if (!p)
        return 0;
    char line[8192];
    int n = 0;
    while (n < cap && fgets(line, sizeof line, p)) {
        kifu__msf_doc doc;
        const kifu__msf_val *j = read_line(&doc, line);
        if (!j)
            continue;
        peer_result *r = &out[n];
        memset(r, 0, sizeof *r);
        const char *name = str(kifu__msf_get(j, "peer"));
        snprintf(r->name, sizeof r->name, "%s", name ? name : "?");
        r->failed = (size_t)num(kifu__msf_get(j, "failed"));
        const kifu__msf_val *secs = kifu__msf_get(j, "seconds");
        size_t k = size(secs);
        const char *error = str(kifu__msf_get(j, "error"));
        if (k > 0) {
            double *t = malloc(k * sizeof *t);
            if (t) {
                for (size_t i = 0; i < k; i++)
                    t[i] = num(kifu__msf_at(secs, i));
                result res;
                stats(t, (int)k, &res);
                r->median = res.median;
                r->ok = r->median > 0;
                r->spread = r->ok ? res.stdev / res.median : 0;
                const kifu__msf_val *cpus = kifu__msf_get(j, "cpu");
                for (size_t i = 0; i < k && i < size(cpus); i++)
                    t[i] = num(kifu__msf_at(cpus, i));
                stats(t, (int)k, &res);
                r->cpu = size(cpus) == k ? res.median : 0;
                free(t);
            }
        }
        if (error)
            printf("  %s on %s: %s%s\n", r->name, fmt, r->ok ? "some files failed: " : "",
                   error);
        kifu__msf_doc_free(&doc);
        n++;
    }
    pclose(p);
    return n;
}

/* Runs convert.js --check: which listed files every peer converts. Fills `sub` with those
 * entries of fs (shallow copies: fs keeps ownership). 0, or -1. */
static int peer_accepted(const bench_opts *o, const char *moddir, const char *fmt,
                         const char *list, char **names, const files *fs, size_t count,
                         files *sub)
{
    char ok[4300], cmd[16384];
    snprintf(ok, sizeof ok, "%s.ok", list);
    if (snprintf(cmd, sizeof cmd, "node '%s/convert.js' '%s' %s 0 '%s' --check '%s'",
                 o->peers_src, moddir, fmt, list, ok) >= (int)sizeof cmd)
        return -1;
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    char line[8192] = "";
    if (!fgets(line, sizeof line, p))
        line[0] = 0;
    pclose(p);
    kifu__msf_doc doc;
    const kifu__msf_val *j = read_line(&doc, line);
    if (!j) {
        printf("  the peers' check did not run\n");
        return -1;
    }
    size_t checked = (size_t)num(kifu__msf_get(j, "checked"));
    size_t accepted = (size_t)num(kifu__msf_get(j, "accepted"));
    if (accepted < checked) {
        printf(
            "  %zu of %zu files left out: a peer cannot read them (valid records; ours "
            "converts them)\n",
            checked - accepted, checked);
        const kifu__msf_val *errs = kifu__msf_get(j, "errors");
        const kifu__msf_val *v =
            errs && errs->type == KIFU__JSON_OBJECT ? errs + 1 : NULL;
        for (size_t i = 0; v && i < errs->count; i++, v = kifu__msf_next(v))
            printf("    %s, e.g. %s\n", v->key, str(v) ? str(v) : "?");
    }
    kifu__msf_doc_free(&doc);
    FILE *f = fopen(ok, "r");
    memset(sub, 0, sizeof *sub);
    if (!f || !(sub->v = malloc((count ? count : 1) * sizeof *sub->v))) {
        if (f)
            fclose(f);
        return -1;
    }
    /* The accepted list keeps the list's order, so one forward scan matches it up. */
    size_t i = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        while (i < count && strcmp(names[i], line) != 0)
            i++;
        if (i == count)
            break;
        sub->v[sub->n++] = fs->v[i];
        sub->bytes += fs->v[i].len;
        i++;
    }
    fclose(f);
    return 0;
}

/* Ours and the peers on the same subset of `fs` (its first peer_mb megabytes, less the
 * files a peer cannot read). */
static void compare(const bench_opts *o, const char *moddir, const char *fmt,
                    const files *fs, double *worst_ratio)
{
    size_t count = 0, total = 0;
    while (count < fs->n && (double)total < o->peer_mb * 1e6)
        total += fs->v[count++].len;
    char list[4200];
    snprintf(list, sizeof list, "%s/list-%s.txt", moddir, fmt);
    char cwd[4096] = "";
    if (!getcwd(cwd, sizeof cwd))
        cwd[0] = 0;
    char **names = calloc(count ? count : 1, sizeof *names);
    FILE *f = names ? fopen(list, "w") : NULL;
    if (!f) {
        printf("  cannot write %s: peers skipped\n", list);
        free(names);
        return;
    }
    for (size_t i = 0; i < count; i++) {
        /* Absolute paths, so the list does not depend on node's working directory. */
        const char *p = fs->v[i].path;
        size_t need = strlen(cwd) + strlen(p) + 2;
        if ((names[i] = malloc(need))) {
            snprintf(names[i], need, "%s%s%s", p[0] != '/' ? cwd : "",
                     p[0] != '/' ? "/" : "", p);
            fprintf(f, "%s\n", names[i]);
        }
    }
    fclose(f);
    files sub;
    int rc = peer_accepted(o, moddir, fmt, list, names, fs, count, &sub);
    for (size_t i = 0; i < count; i++)
        free(names[i]);
    free(names);
    if (rc || sub.n == 0) {
        printf("  no file that every peer reads: %s skipped\n", fmt);
        free(sub.v);
        return;
    }
    char ok[4300];
    snprintf(ok, sizeof ok, "%s.ok", list);
    count = sub.n;
    size_t bytes = sub.bytes;
    result ours;
    /* One pass over the subset takes kifu only 10-25 ms, where a few runs leave the median
     * at the mercy of the scheduler; 25 runs (about half a second, like one peer run) give
     * a steady figure. */
    int runs = o->runs < 25 ? 25 : o->runs;
    /* A burst of other load on the machine shows as a wide spread of the runs; such a
     * measurement is taken again (at most twice), for kifu and for the peers alike. */
    for (int attempt = 0;; attempt++) {
        if (measure(&sub, count, runs, &ours)) {
            free(sub.v);
            return;
        }
        if (ours.stdev <= MAX_SPREAD * ours.median || attempt == 2)
            break;
        printf("  kifu's runs spread by %.0f%% (the machine was busy): measuring again\n",
               100 * ours.stdev / ours.median);
    }
    free(sub.v);
    char label[128];
    snprintf(label, sizeof label, "kifu %s->jkf (subset)", fmt);
    print_result(label, count, bytes, &ours, runs);
    peer_result peers[4];
    int n = 0;
    for (int attempt = 0;; attempt++) {
        n = run_peers(o, moddir, fmt, ok, "", peers, 4);
        double worst = 0;
        for (int i = 0; i < n; i++)
            if (peers[i].ok && peers[i].spread > worst)
                worst = peers[i].spread;
        if (worst <= MAX_SPREAD || attempt == 2 || o->peer_runs < 3) {
            if (worst > MAX_SPREAD || ours.stdev > MAX_SPREAD * ours.median)
                printf("  still noisy (spread up to %.0f%%): the ratio below is rough; "
                       "rerun on a quiet machine\n",
                       100 * (worst > ours.stdev / ours.median
                                  ? worst
                                  : ours.stdev / ours.median));
            break;
        }
        printf(
            "  a peer's runs spread by %.0f%% (the machine was busy): running the peers "
            "again\n",
            100 * worst);
    }
    double best = 0, best_cpu = 0; /* the faster peer is the one to beat */
    const char *best_name = NULL;
    for (int i = 0; i < n; i++) {
        if (!peers[i].ok) {
            printf("%-26s skipped (it could not run)\n", peers[i].name);
            continue;
        }
        const peer_result *pr = &peers[i];
        snprintf(label, sizeof label, "%.60s %.8s->jkf", pr->name, fmt);
        char mps[32], cmps[32];
        human((double)ours.moves / pr->median, mps, sizeof mps);
        human(pr->cpu > 0 ? (double)ours.moves / pr->cpu : 0, cmps, sizeof cmps);
        printf("%-26s %6zu files %7.2f MB | %d runs: median %.3f s, spread %.0f%% | "
               "%6.2f MB/s "
               "%8s moves/s | cpu %.3f s: %6.2f MB/s %8s moves/s%s\n",
               label, count, (double)bytes / 1e6, o->peer_runs, pr->median,
               100 * pr->spread, (double)bytes / 1e6 / pr->median, mps, pr->cpu,
               pr->cpu > 0 ? (double)bytes / 1e6 / pr->cpu : 0, cmps,
               pr->failed ? " (some files failed)" : "");
        printf("  kifu/%s = %.1fx (%s; by cpu time %.1fx)\n", pr->name,
               pr->median / ours.median, fmt, ours.cpu > 0 ? pr->cpu / ours.cpu : 0);
        if (!best_name || pr->median < best) {
            best = pr->median;
            best_cpu = pr->cpu;
            best_name = pr->name;
        }
    }
    if (!best_name) {
        printf("  no peer ran on %s\n", fmt);
        return;
    }
    double ratio = best / ours.median;
    printf("  %s: %.1fx the faster peer (%s; by cpu time %.1fx); target >= 30x: %s\n",
           fmt, ratio, best_name, ours.cpu > 0 ? best_cpu / ours.cpu : 0,
           ratio >= 30 ? "met" : "NOT met");
    if (*worst_ratio == 0 || ratio < *worst_ratio)
        *worst_ratio = ratio;
}

int bench_peer_seconds(const bench_opts *o, const char *fmt, const char *dir,
                       const char *peer, double *seconds, double *cpu, size_t *nfiles)
{
    char moddir[4096], list[4300];
    if (!have_node()) {
        printf("  %s skipped: node is not installed\n", peer);
        return -1;
    }
    if (install_peers(o, moddir, sizeof moddir)) {
        printf("  %s skipped: it could not be installed\n", peer);
        return -1;
    }
    /* The list in name order, as kifu takes a directory. */
    files fs;
    if (load_names(dir, &fs))
        return -1;
    snprintf(list, sizeof list, "%s/list-batch-%s.txt", moddir, fmt);
    FILE *f = fopen(list, "w");
    for (size_t i = 0; f && i < fs.n; i++)
        fprintf(f, "%s\n", fs.v[i].path);
    if (!f || fclose(f) != 0) {
        printf("  cannot write %s\n", list);
        files_free(&fs);
        return -1;
    }
    *nfiles = fs.n;
    files_free(&fs);
    /* One run (tens of seconds over a large directory), the JIT warmed on 1000 files. */
    char extra[256];
    snprintf(extra, sizeof extra, "--only '%s' --warm 1000", peer);
    bench_opts one = *o;
    one.peer_runs = 1;
    peer_result pr;
    if (run_peers(&one, moddir, fmt, list, extra, &pr, 1) != 1 || !pr.ok)
        return -1;
    *cpu = pr.cpu;
    if (pr.failed)
        printf("  %s could not read %zu of %zu files (timed all the same)\n", peer,
               pr.failed, *nfiles);
    *seconds = pr.median;
    return 0;
}

/* A training-data file: the corpus' CSA games as USI lines, one game a line, 10,000
 * lines (the games repeat when there are fewer). NULL when none could be made. */
static char *usi_collection(const files *csa, size_t *len)
{
    enum { LINES = 10000 };
    char **line = calloc(csa->n, sizeof *line);
    size_t have = 0, cap = 0, k = 0;
    kifu_write_options wo = {KIFU_FMT_SFEN, KIFU_ENC_UTF8, 0, NULL, NULL};
    for (size_t i = 0; line && i < csa->n && have < LINES; i++) {
        kifu_read_options ro = {KIFU_FMT_CSA,   KIFU_ENC_AUTO, 0,
                                csa->v[i].path, NULL,          NULL};
        kifu_record *r = kifu_read(csa->v[i].data, csa->v[i].len, &ro, NULL);
        if (r && (line[have] = kifu_write(r, &wo, NULL, NULL)) != NULL)
            cap += strlen(line[have++]);
        kifu_record_free(r);
    }
    char *text = have ? malloc(cap * (LINES / have + 1) + 1) : NULL;
    for (size_t i = 0; text && i < LINES; i++) {
        size_t n = strlen(line[i % have]);
        memcpy(text + k, line[i % have], n);
        k += n;
    }
    for (size_t i = 0; line && i < have; i++)
        kifu_free(line[i]);
    free(line);
    *len = k;
    return text;
}

/* One pass over the collection: read every game of it, write each as JKF. */
static size_t collection_pass(const char *text, size_t len, size_t *moves, size_t *games)
{
    kifu_read_options ro = {KIFU_FMT_AUTO, KIFU_ENC_AUTO, 0, "train.sfen", NULL, NULL};
    kifu_write_options wo = {KIFU_FMT_JKF, KIFU_ENC_AUTO, 0, NULL, NULL};
    kifu_record **v = NULL;
    size_t n = 0, failed = 0;
    if (kifu_read_all(text, len, &ro, &v, &n, NULL))
        return 1;
    for (size_t i = 0; i < n; i++) {
        char *out = kifu_write(v[i], &wo, NULL, NULL);
        failed += !out;
        if (moves)
            *moves += moves_of(v[i]);
        kifu_free(out);
        kifu_record_free(v[i]);
    }
    kifu_free(v);
    if (games)
        *games = n;
    return failed;
}

/* The USI collection read as one .sfen file and each game written as JKF: a file of many
 * games should go at the per-file conversion speed above. */
static void measure_collection(const files *csa, int runs)
{
    size_t len, games = 0;
    char *text = usi_collection(csa, &len);
    result r;
    memset(&r, 0, sizeof r);
    double *t = text ? malloc(2 * (size_t)runs * sizeof *t) : NULL,
           *c = t ? t + runs : NULL;
    if (!t || collection_pass(text, len, &r.moves, &games)) {
        printf("%-26s could not be made or read: skipped\n", "sfen collection->jkf");
        free(text);
        free(t);
        return;
    }
    for (int i = 0; i < runs; i++) {
        double t0 = bench_now(), c0 = bench_cpu_now();
        collection_pass(text, len, NULL, NULL);
        t[i] = bench_now() - t0;
        c[i] = bench_cpu_now() - c0;
    }
    result cr;
    stats(c, runs, &cr);
    stats(t, runs, &r);
    r.cpu = cr.median;
    char label[64];
    snprintf(label, sizeof label, "sfen %zu-line file->jkf", games);
    print_result(label, 1, len, &r, runs);
    free(t);
    free(text);
}

int bench_formats(const bench_opts *o)
{
    if (bench_gen_corpus(o)) {
        printf("format sections skipped: no corpus (the engine and the writers must "
               "work)\n");
        return -1;
    }
    files all[3];
    int loaded[3] = {0, 0, 0};
    printf(
        "\n== conversion to JKF (read + decode + parse + normalize + write JKF, files in "
        "memory)\n");
    for (size_t s = 0; s < 3; s++) {
        char dir[4200], label[64];
        snprintf(dir, sizeof dir, "%s/corpus/%s", o->dir, sections[s].name);
        if (load(dir, &all[s]) || all[s].n == 0) {
            printf("%s: no corpus files\n", sections[s].name);
            continue;
        }
        loaded[s] = 1;
        result r;
        snprintf(label, sizeof label, "%s->jkf", sections[s].name);
        if (measure(&all[s], all[s].n, o->runs, &r) == 0)
            print_result(label, all[s].n, all[s].bytes, &r, o->runs);
        else
            printf("%-26s every file failed: section skipped\n", label);
    }
    if (loaded[0])
        measure_collection(&all[0], o->runs);

    /* JKF reading: the CSA corpus written as JKF (in memory), read and normalized. */
    files jkf;
    memset(&jkf, 0, sizeof jkf);
    if (loaded[0] && (jkf.v = calloc(all[0].n, sizeof *jkf.v))) {
        kifu_write_options wo = {KIFU_FMT_JKF, KIFU_ENC_UTF8, 0, NULL, NULL};
        for (size_t i = 0; i < all[0].n; i++) {
            kifu_read_options ro = {KIFU_FMT_CSA, KIFU_ENC_AUTO, 0, NULL, NULL, NULL};
            kifu_error err;
            kifu_error_clear(&err);
            kifu_record *r = kifu_read(all[0].v[i].data, all[0].v[i].len, &ro, &err);
            char *out = r ? kifu_write(r, &wo, NULL, &err) : NULL;
            kifu_record_free(r);
            size_t plen = strlen(all[0].v[i].path) + 8;
            file *f = &jkf.v[jkf.n];
            if (!out || !(f->path = malloc(plen)) ||
                !(f->data = malloc(strlen(out) + 1))) {
                free(f->path);
                kifu_free(out);
                continue;
            }
            snprintf(f->path, plen, "%s.jkf", all[0].v[i].path);
            f->len = strlen(out);
            memcpy(f->data, out, f->len + 1);
            kifu_free(out);
            jkf.bytes += f->len;
            jkf.n++;
        }
        printf(
            "\n== JKF reading (the CSA corpus written as JKF; read + parse + normalize, "
            "files in memory)\n");
        result r;
        read_only = 1;
        if (jkf.n && measure(&jkf, jkf.n, o->runs, &r) == 0)
            print_result("jkf read", jkf.n, jkf.bytes, &r, o->runs);
        else
            printf("%-26s every file failed: section skipped\n", "jkf read");
        read_only = 0;
    }
    files_free(&jkf);

    if (o->peers) {
        printf("\n== peers (same conversion, same files: the first %.1f MB of each "
               "format)\n",
               o->peer_mb);
        char moddir[4096];
        if (!have_node()) {
            printf("peers skipped: node is not installed\n");
        } else if (install_peers(o, moddir, sizeof moddir)) {
            printf("peers skipped: json-kifu-format / tsshogi could not be installed\n");
        } else {
            double worst = 0;
            for (size_t s = 0; s < 3; s++)
                if (loaded[s])
                    compare(o, moddir, sections[s].name, &all[s], &worst);
            if (worst > 0)
                printf("lowest ratio to the faster peer: %.1fx (target 30x)\n", worst);
        }
    }
    for (size_t s = 0; s < 3; s++)
        if (loaded[s])
            files_free(&all[s]);
    return 0;
}
