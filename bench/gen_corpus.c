/* gen_corpus.c: the benchmark corpus. Random legal games (seeded, 80-200 plies, with
 * times, a few comments and an ending) played with the engine, normalized, and written
 * by our own CSA, KIF and KI2 writers, so the benchmark needs no outside files. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench_formats.h"
#include "kifu.h"

static const struct {
    const char *dir;
    int format;
} outs[] = {{"csa", KIFU_FMT_CSA}, {"kif", KIFU_FMT_KIF}, {"ki2", KIFU_FMT_KI2}};

static const char *const comments[] = {
    "序盤の駒組み。先手は居飛車、後手は振り飛車の構え。",
    "評価値 +120 読み筋 ▲２六歩 △３四歩 ▲２五歩",
    "ここは難しい局面。",
    "疑問手。▲５八金右が本線だった。",
    "the decisive mistake",
};

/* xorshift64*: small, fast and the same everywhere, so a seed names one corpus. */
static uint64_t next(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545F4914F6CDD1DULL;
}

static unsigned below(uint64_t *s, unsigned n)
{
    return (unsigned)(next(s) >> 33) % n;
}

/* One random game. Captures and promotions are preferred a little so the games look less
 * like aimless shuffling and exercise 同, 成 and the capture fields. NULL on failure. */
kifu_record *bench_random_game(uint64_t *rng, int index, char *why, size_t cap)
{
    return bench_random_game_plies(rng, index, 0, why, cap);
}

kifu_record *bench_random_game_plies(uint64_t *rng, int index, int want, char *why,
                                     size_t cap)
{
    kifu_record *r = kifu_record_new();
    kifu_position *p = kifu_position_new();
    kifu_move *legal = malloc(600 * sizeof *legal);
    if (!r || !p || !legal) {
        snprintf(why, cap, "%s", !p ? "the engine gave no position" : "out of memory");
        goto fail;
    }
    char buf[96];
    snprintf(buf, sizeof buf, "2024/%02d/%02d 10:00:00", 1 + index % 12, 1 + index % 28);
    kifu_record_header_add(r, "開始日時", buf);
    kifu_record_header_add(r, "棋戦", "kifu ベンチマーク");
    snprintf(buf, sizeof buf, "先手%d", index);
    kifu_record_header_add(r, "先手", buf);
    snprintf(buf, sizeof buf, "後手%d", index);
    kifu_record_header_add(r, "後手", buf);
    kifu_record_set_preset(r, KIFU_PRESET_HIRATE);

    /* Drawn even when asked for a length, so a seed names the same games either way. */
    int plies = 80 + (int)below(rng, 121);
    if (want > 0)
        plies = want;
    long total[2] = {0, 0};
    kifu_node *node = kifu_record_root(r);
    const char *end = "TORYO";
    for (int ply = 0; ply < plies; ply++) {
        size_t n = kifu_position_legal_moves(p, legal, 600);
        if (n == 0) {
            end = "TSUMI";
            break;
        }
        size_t k = below(rng, (unsigned)n);
        for (int tries = 0; tries < 2; tries++) {
            size_t c = below(rng, (unsigned)n);
            if (legal[c].capture || legal[c].promote == 1)
                k = c;
        }
        /* Players nearly always promote when they may: keep "不成" rare, as it is in
         * real records (and some peers cannot read it on a pawn). */
        if (legal[k].promote == 0 && below(rng, 20) != 0)
            for (size_t c = 0; c < n; c++)
                if (legal[c].promote == 1 && legal[c].from_x == legal[k].from_x &&
                    legal[c].from_y == legal[k].from_y &&
                    legal[c].to_x == legal[k].to_x && legal[c].to_y == legal[k].to_y)
                    k = c;
        kifu_move m = legal[k];
        m.color = (uint8_t)kifu_position_side(p);
        kifu_error err;
        kifu_error_clear(&err);
        if (kifu_position_play(p, &m, &err)) {
            snprintf(why, cap, "the engine refused its own legal move: %s", err.message);
            goto fail;
        }
        node = kifu_node_add_move(r, node, &m);
        if (!node) {
            snprintf(why, cap, "out of memory");
            goto fail;
        }
        long now = 1 + (long)below(rng, 90);
        total[m.color] += now;
        kifu_move_time t = {kifu_time_from_seconds(now, 0),
                            kifu_time_from_seconds(total[m.color], 1), 1};
        kifu_node_set_time(r, node, &t);
        if (below(rng, 30) == 0)
            kifu_node_add_comment(r, node, comments[below(rng, 5)]);
    }
    if (!kifu_node_add_special(r, node, end)) {
        snprintf(why, cap, "out of memory");
        goto fail;
    }
    kifu_error err;
    kifu_error_clear(&err);
    /* The moves are complete already; normalizing adds same/relative as a reader would.
     */
    if (kifu_normalize(r, 0, &err)) {
        snprintf(why, cap, "normalizing a generated game failed: %s", err.message);
        goto fail;
    }
    free(legal);
    kifu_position_free(p);
    return r;
fail:
    free(legal);
    kifu_position_free(p);
    kifu_record_free(r);
    return NULL;
}

int bench_make_dir(const char *path)
{
    if (mkdir(path, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "kifu_bench: %s: %s\n", path, strerror(errno));
        return -1;
    }
    return 0;
}

int bench_write_bytes(const char *path, const char *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    int ok = f && fwrite(data, 1, len, f) == len;
    if (f && fclose(f) != 0)
        ok = 0;
    if (!ok)
        fprintf(stderr, "kifu_bench: %s: cannot write: %s\n", path, strerror(errno));
    return ok ? 0 : -1;
}

/* The stamp names what made the corpus; a different one (or a newer benchmark binary,
 * i.e. possibly newer writers) means build it again. */
static int current(const char *stamp_path, const char *stamp)
{
    char have[256] = "";
    FILE *f = fopen(stamp_path, "r");
    if (!f)
        return 0;
    size_t n = fread(have, 1, sizeof have - 1, f);
    fclose(f);
    have[n] = 0;
    struct stat s, e;
    if (stat(stamp_path, &s) == 0 && stat("/proc/self/exe", &e) == 0 &&
        e.st_mtime > s.st_mtime)
        return 0;
    return strcmp(have, stamp) == 0;
}

static void stamp_of(const char *dir, const char *what, char *path, size_t pcap,
                     char *stamp, size_t scap)
{
    snprintf(path, pcap, "%s/STAMP", dir);
    snprintf(stamp, scap, "kifu %s %s\n", kifu_version_string(), what);
}

int bench_stale(const bench_opts *o, const char *dir, const char *what)
{
    char path[4400], stamp[512];
    stamp_of(dir, what, path, sizeof path, stamp, sizeof stamp);
    if (!o->regen && current(path, stamp))
        return 0;
    remove(path);
    return 1;
}

int bench_stamp(const char *dir, const char *what)
{
    char path[4400], stamp[512];
    stamp_of(dir, what, path, sizeof path, stamp, sizeof stamp);
    FILE *f = fopen(path, "w");
    if (!f || fputs(stamp, f) == EOF || fclose(f) != 0) {
        fprintf(stderr, "kifu_bench: %s: cannot write\n", path);
        return -1;
    }
    return 0;
}

int bench_gen_corpus(const bench_opts *o)
{
    char path[4096], top[4096], what[128];
    if (snprintf(top, sizeof top, "%s/corpus", o->dir) >= (int)sizeof top)
        return -1;
    snprintf(what, sizeof what, "gen 2 seed %llu mb %.1f", (unsigned long long)o->seed,
             o->corpus_mb);
    if (!bench_stale(o, top, what))
        return 0;
    if (bench_make_dir(o->dir) || bench_make_dir(top))
        return -1;
    for (size_t i = 0; i < 3; i++) {
        if (snprintf(path, sizeof path, "%s/corpus/%s", o->dir, outs[i].dir) >=
                (int)sizeof path ||
            bench_make_dir(path))
            return -1;
    }
    printf("generating the corpus (%.0f MB of random legal games, seed %llu) ...\n",
           o->corpus_mb, (unsigned long long)o->seed);
    fflush(stdout);
    double t0 = bench_now();
    uint64_t rng = o->seed ? o->seed : 1;
    double target = o->corpus_mb * 1e6, bytes = 0;
    size_t sizes[3] = {0, 0, 0};
    int games = 0;
    while (bytes < target) {
        char why[600] = "";
        kifu_record *r = bench_random_game(&rng, games, why, sizeof why);
        if (!r) {
            fflush(stdout);
            fprintf(stderr, "kifu_bench: cannot generate the corpus: %s\n", why);
            return -1;
        }
        for (size_t i = 0; i < 3; i++) {
            kifu_write_options wo = {outs[i].format, KIFU_ENC_AUTO, 0, NULL, NULL};
            kifu_error err;
            kifu_error_clear(&err);
            size_t len;
            char *text = kifu_write(r, &wo, &len, &err);
            if (!text) {
                fprintf(stderr, "kifu_bench: cannot generate the corpus: %s writer: %s\n",
                        outs[i].dir, err.message);
                kifu_record_free(r);
                return -1;
            }
            int rc = snprintf(path, sizeof path, "%s/corpus/%s/g%05d.%s", o->dir,
                              outs[i].dir, games, outs[i].dir) >= (int)sizeof path ||
                     bench_write_bytes(path, text, len);
            kifu_free(text);
            if (rc) {
                kifu_record_free(r);
                return -1;
            }
            sizes[i] += len;
            bytes += (double)len;
        }
        kifu_record_free(r);
        games++;
    }
    /* Files of an earlier, larger corpus would be read too: remove them. */
    for (size_t i = 0; i < 3; i++)
        for (int g = games;; g++) {
            if (snprintf(path, sizeof path, "%s/corpus/%s/g%05d.%s", o->dir, outs[i].dir,
                         g, outs[i].dir) >= (int)sizeof path ||
                remove(path) != 0)
                break;
        }
    if (bench_stamp(top, what))
        return -1;
    printf("  %d games: csa %.1f MB, kif %.1f MB, ki2 %.1f MB (%.1f s)\n", games,
           (double)sizes[0] / 1e6, (double)sizes[1] / 1e6, (double)sizes[2] / 1e6,
           bench_now() - t0);
    return 0;
}

void bench_free_games(kifu_record **rs, size_t n)
{
    for (size_t i = 0; i < n; i++)
        kifu_record_free(rs[i]);
}

int bench_csa_file(uint64_t *rng, int first, int total, int per, int mean,
                   const char *path, kifu_record **rs, size_t *n)
{
    *n = 0;
    for (int g = first; g < total && *n < (size_t)per; g++) {
        char why[600];
        int plies = mean ? mean / 2 + (int)below(rng, (unsigned)mean + 1) : 0;
        if (!(rs[*n] = bench_random_game_plies(rng, g, plies, why, sizeof why))) {
            fprintf(stderr, "kifu_bench: %s\n", why);
            bench_free_games(rs, *n);
            return -1;
        }
        ++*n;
    }
    kifu_write_options wo = {KIFU_FMT_CSA, KIFU_ENC_UTF8, 0, NULL, NULL};
    size_t len;
    char *csa = kifu_write_all((const kifu_record *const *)rs, *n, &wo, &len, NULL);
    int rc = !csa || bench_write_bytes(path, csa, len);
    kifu_free(csa);
    if (rc) {
        fprintf(stderr, "kifu_bench: cannot write %s\n", path);
        bench_free_games(rs, *n);
    }
    return rc ? -1 : 0;
}
