/* test_corpus_jkf.c: JKF against the shared corpus (../shared/corpus/jkf-fixtures):
 * every .jkf fixture read and normalized gives its expected JKF; every expected .json
 * goes through JKF -> record -> JKF unchanged (as a JSON value), with and without
 * normalization, pretty and compact. Skips when the corpus is missing. */
#include <dirent.h>
#include <stdlib.h>

#include "fmt/fmt.h"
#include "harness.h"
#include "jsoncmp.h"
#include "kifu.h"
#include "node_time.h"
#include "record/record.h"
#include "testutil.h"

#define FIXTURES "corpus/jkf-fixtures"

/* Expected files that we believe are wrong would be listed here with the reason; none
 * so far. */
static const char *const known_wrong[] = {NULL};

static int is_known_wrong(const char *name)
{
    for (const char *const *k = known_wrong; *k; k++)
        if (strstr(name, *k))
            return 1;
    return 0;
}

/* Calls fn(path, name) for every file in dir whose name ends in suffix. */
static int each_file(const char *dir, const char *suffix,
                     void (*fn)(const char *path, const char *name, void *ctx), void *ctx)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    struct dirent *e;
    int n = 0;
    while ((e = readdir(d))) {
        size_t l = strlen(e->d_name), s = strlen(suffix);
        if (l <= s || strcmp(e->d_name + l - s, suffix) != 0)
            continue;
        char path[2200];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        fn(path, e->d_name, ctx);
        n++;
    }
    closedir(d);
    return n;
}

typedef struct rt_ctx {
    unsigned flags;
    int strip, csa; /* strip what the normalizer adds (csa: as the CSA reader gives it) */
    int files;
} rt_ctx;

/* Turns every move back into what a KIF reader (or with csa, a CSA reader) gives: no
 * color, capture, same, relative or promote false; CSA: the piece after the move and no
 * totals. Iterative over the whole tree. */
static void strip(kifu_record *r, int csa)
{
    size_t cap = 1024, top = 0;
    kifu_node **st = malloc(cap * sizeof *st);
    if (!st)
        return;
    st[top++] = kifu_record_root(r);
    while (top) {
        kifu_node *n = st[--top];
        kifu_move mv, *m = kifu_node_get_move(n, &mv) ? &mv : NULL;
        if (m) {
            m->flags = (uint8_t)(KIFU_MOVE_RAW | KIFU_MOVE_NO_COLOR |
                                 (m->from_x ? 0 : KIFU_MOVE_DROP) |
                                 (m->flags & KIFU__MOVE_FROM_NULL));
            m->capture = 0;
            m->same = -1;
            m->relative[0] = 0;
            if (m->promote == 0)
                m->promote = -1;
            if (csa) {
                if (m->promote == 1)
                    m->piece |= 8;
                m->promote = -1;
                m->flags |= KIFU_MOVE_PIECE_AFTER;
            }
            kifu_node_set_move(r, n, m);
        }
        const kifu_move_time *t = t_time(n);
        if (t && csa) {
            kifu_move_time t2 = *t;
            t2.has_total = 0;
            kifu_node_set_time(r, n, &t2);
        }
        for (size_t i = 0; i < kifu_node_child_count(n); i++) {
            if (top == cap) {
                kifu_node **s2 = realloc(st, (cap *= 2) * sizeof *st);
                if (!s2)
                    break;
                st = s2;
            }
            st[top++] = kifu_node_child(n, i);
        }
    }
    free(st);
}

/* Writes r as JKF (pretty and compact) and compares both with the expected text. */
static void compare_written(const kifu_record *r, const char *want, size_t wlen,
                            const char *name, const char *what)
{
    for (int pretty = 0; pretty < 2; pretty++) {
        kifu_write_options wo = {KIFU_FMT_JKF, KIFU_ENC_UTF8,
                                 pretty ? KIFU_WRITE_PRETTY : 0u, NULL, NULL};
        kifu_error err = {0};
        size_t len = 0;
        char *out = kifu_write(r, &wo, &len, &err);
        CHECK(out != NULL);
        if (!out) {
            printf("    %s: write failed: %s\n", name, err.message);
            continue;
        }
        char where[600];
        int eq = jsoncmp_text(want, wlen, out, len, where, sizeof where);
        if (eq != 1) {
            if (is_known_wrong(name)) {
                printf("    known wrong expected file %s (%s): %s\n", name, what, where);
            } else {
                t_failed_checks++;
                printf("    %s (%s, %s): differs at %s\n", name, what,
                       pretty ? "pretty" : "compact", where);
            }
        }
        kifu_free(out);
    }
}

static void roundtrip_one(const char *path, const char *name, void *vctx)
{
    rt_ctx *c = vctx;
    size_t len;
    char *text = t_read_file(path, &len);
    CHECK(text != NULL);
    if (!text)
        return;
    kifu_read_options ro = {KIFU_FMT_JKF, KIFU_ENC_AUTO, c->flags, name, NULL, NULL};
    kifu_error err = {0};
    kifu_record *r = kifu_read(text, len, &ro, &err);
    if (!r) {
        char buf[800];
        t_failed_checks++;
        printf("    %s: read failed: %s\n", name,
               kifu_error_format(&err, buf, sizeof buf));
    } else {
        if (c->strip) {
            strip(r, c->csa);
            kifu_error_clear(&err);
            if (kifu_normalize(r, 0, &err)) {
                char buf[800];
                t_failed_checks++;
                printf("    %s: normalize failed: %s\n", name,
                       kifu_error_format(&err, buf, sizeof buf));
                kifu_record_free(r);
                free(text);
                c->files++;
                return;
            }
        }
        compare_written(r, text, len, name,
                        c->strip                            ? "stripped and normalized"
                        : c->flags & KIFU_READ_NO_NORMALIZE ? "raw"
                                                            : "normalized");
        kifu_record_free(r);
    }
    free(text);
    c->files++;
}

static void roundtrip_all(unsigned flags, int strip_moves)
{
    static const char *const dirs[] = {"csa", "jkf", "ki2", "kif"};
    char buf[1024];
    if (!t_shared(FIXTURES, buf, sizeof buf))
        SKIP("no shared corpus");
    rt_ctx c = {flags, strip_moves, 0, 0};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        c.csa = strip_moves && i == 0;
        char dir[1100];
        snprintf(dir, sizeof dir, "%s/expected/%s", buf, dirs[i]);
        CHECK(each_file(dir, ".json", roundtrip_one, &c) > 0);
    }
    printf("  %d expected files\n", c.files);
    CHECK_INT(c.files, 53);
}

TEST(expected_roundtrip_raw)
{
    roundtrip_all(KIFU_READ_NO_NORMALIZE, 0);
}

/* The .jkf fixtures themselves (one is minimal: no same, capture, promote) read raw and
 * write back unchanged. */
TEST(jkf_fixtures_roundtrip_raw)
{
    char buf[1024], dir[1100];
    if (!t_shared(FIXTURES, buf, sizeof buf))
        SKIP("no shared corpus");
    snprintf(dir, sizeof dir, "%s/jkf", buf);
    rt_ctx c = {KIFU_READ_NO_NORMALIZE, 0, 0, 0};
    CHECK_INT(each_file(dir, ".jkf", roundtrip_one, &c), 2);
}

TEST(expected_roundtrip_normalized)
{
    roundtrip_all(0, 0);
}

/* The normalizer recomputes what it adds (color, capture, same, relative, promote false,
 * CSA promotion and totals) exactly as the expected files have it. */
TEST(expected_stripped_then_normalized)
{
    roundtrip_all(KIFU_READ_NO_NORMALIZE, 1);
}

static void fixture_one(const char *path, const char *name, void *vctx)
{
    const char *exp_dir = vctx;
    char exp[1200];
    snprintf(exp, sizeof exp, "%s/%s.json", exp_dir, name);
    size_t wlen;
    char *want = t_read_file(exp, &wlen);
    CHECK(want != NULL);
    if (!want)
        return;
    kifu_read_options ro = {KIFU_FMT_AUTO, KIFU_ENC_AUTO, 0, path, NULL, NULL};
    kifu_error err = {0};
    kifu_record *r = kifu_read_file(path, &ro, &err);
    if (!r) {
        char buf[800];
        t_failed_checks++;
        printf("    %s: read failed: %s\n", name,
               kifu_error_format(&err, buf, sizeof buf));
    } else {
        compare_written(r, want, wlen, name, "fixture");
        kifu_record_free(r);
    }
    free(want);
}

TEST(jkf_fixtures_give_expected)
{
    char buf[1024], dir[1100], exp[1100];
    if (!t_shared(FIXTURES, buf, sizeof buf))
        SKIP("no shared corpus");
    snprintf(dir, sizeof dir, "%s/jkf", buf);
    snprintf(exp, sizeof exp, "%s/expected/jkf", buf);
    CHECK_INT(each_file(dir, ".jkf", fixture_one, exp), 2);
}

int main(void)
{
    RUN(expected_roundtrip_raw);
    RUN(jkf_fixtures_roundtrip_raw);
    RUN(expected_roundtrip_normalized);
    RUN(expected_stripped_then_normalized);
    RUN(jkf_fixtures_give_expected);
    return t_finish();
}
