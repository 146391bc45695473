/* test_corpus_csa.c: every CSA fixture of ../shared/corpus/jkf-fixtures/csa read (decoded,
 * parsed, normalized) and written as JKF must equal expected/csa/<name>.json as a JSON
 * value; and CSA -> JKF -> CSA -> JKF must give the same JKF value again.
 *
 * One documented difference from the expected files: json-kifu-format drops the `'`
 * comment lines above the side-to-move line (exporter banners, `'対局者名`, floodgate's
 * `'Max_Moves:256`...). kifu keeps them, in file order, as the first comments of the
 * root node (a reader must not lose text). The test finds those lines in the source itself
 * (every `'` line before the first `+`/`-` line, except the `'encoding=` / `'CSA encoding=`
 * directives) and puts them in front of the expected moves[0].comments before comparing.
 *
 * A second: json-kifu-format keeps the star of a move's `'*` comment (`** 104`); kifu
 * reads `'*` as the mark of a move comment, as tsshogi does, and keeps the text after it
 * (`* 104`), so that what it writes (`'*` + text) reads back the same. The test drops one
 * leading `*` from the expected comments of moves (not of moves[0], the start).
 *
 * The 9fu fixtures start with nine gote pawns on file 2 (a 二歩 board no game reaches);
 * record starts are checked loosely, so they are read like any other.
 *
 * Skips (exit 77) when the corpus is missing. */
#include <dirent.h>
#include <jansson.h>
#include <stdlib.h>

#include "core/encoding.h"
#include "harness.h"
#include "kifu.h"
#include "node_time.h"
#include "testutil.h"

static const char *const fixtures[] = {
    "2005_GPS_K-SHOGI.csa",
    "2005_YAMADA_GPS.csa",
    "8mai.csa",
    "8mai_hirate.csa",
    "9fu.csa",
    "9fu_komabetsu.csa",
    "chudan.csa",
    "dr1test1test0+tu-1_aobazero_viper-300-5F+aobazero+viper+20200719201040.csa",
    "example.csa",
    "formal.csa",
    "illegal_lose.csa",
    "illegal_win.csa",
    "noeol.csa",
    "v2.csa",
};
#define NFIX (sizeof fixtures / sizeof fixtures[0])

/* Read bytes as CSA (normalized) and write JKF; NULL on failure (printed). */
static json_t *to_jkf_flags(const char *data, size_t len, const char *name,
                            char **csa_out, unsigned flags)
{
    kifu_read_options ro = {KIFU_FMT_CSA, KIFU_ENC_AUTO, flags, name, NULL, NULL};
    kifu_error e;
    kifu_error_clear(&e);
    kifu_record *r = kifu_read(data, len, &ro, &e);
    if (!r) {
        char buf[1024];
        printf("  %s: read failed: %s\n", name, kifu_error_format(&e, buf, sizeof buf));
        return NULL;
    }
    kifu_write_options wo = {KIFU_FMT_JKF, KIFU_ENC_UTF8, 0, NULL, NULL};
    char *text = kifu_write(r, &wo, NULL, &e);
    if (csa_out) {
        kifu_write_options co = {KIFU_FMT_CSA, KIFU_ENC_UTF8, 0, NULL, NULL};
        *csa_out = kifu_write(r, &co, NULL, &e);
    }
    kifu_record_free(r);
    if (!text) {
        printf("  %s: JKF write failed: %s\n", name, e.message);
        return NULL;
    }
    json_error_t je;
    json_t *j = json_loads(text, 0, &je);
    if (!j)
        printf("  %s: our JKF is not JSON: %s\n", name, je.text);
    kifu_free(text);
    return j;
}

static json_t *to_jkf(const char *data, size_t len, const char *name, char **csa_out)
{
    return to_jkf_flags(data, len, name, csa_out, 0);
}

/* The `'` lines above the side-to-move line (see the top of the file), as a JSON array. */
static json_t *header_comments(const char *data, size_t len)
{
    json_t *a = json_array();
    char *text;
    size_t n;
    if (kifu__decode(data, len, KIFU_ENC_AUTO, &text, &n, NULL, NULL))
        return a;
    for (char *p = text, *end = text + n; p < end;) {
        char *nl = memchr(p, '\n', (size_t)(end - p));
        char *e = nl ? nl : end;
        while (e > p && e[-1] == '\r')
            e--;
        if (p < e && (*p == '+' || *p == '-'))
            break;
        if (p < e && *p == '\'' && strncmp(p, "'encoding=", 10) != 0 &&
            strncmp(p, "'CSA encoding=", 14) != 0)
            json_array_append_new(a, json_stringn(p + 1, (size_t)(e - p - 1)));
        p = nl ? nl + 1 : end;
    }
    kifu_free(text);
    return a;
}

/* Print where two JSON values first differ. */
static void diff(const json_t *a, const json_t *b, const char *path)
{
    char sub[512];
    if (json_typeof(a) != json_typeof(b)) {
        printf("    at %s: type differs\n", path[0] ? path : "/");
    } else if (json_is_object(a)) {
        const char *k;
        json_t *v;
        json_object_foreach((json_t *)a, k, v)
        {
            snprintf(sub, sizeof sub, "%s/%s", path, k);
            json_t *w = json_object_get(b, k);
            if (!w)
                printf("    at %s: only in ours\n", sub);
            else if (!json_equal(v, w))
                diff(v, w, sub);
        }
        json_object_foreach((json_t *)b, k, v) if (!json_object_get(a, k))
            printf("    at %s/%s: only in expected\n", path, k);
        return;
    } else if (json_is_array(a)) {
        if (json_array_size(a) != json_array_size(b))
            printf("    at %s: %zu items vs %zu expected\n", path, json_array_size(a),
                   json_array_size(b));
        for (size_t i = 0; i < json_array_size(a) && i < json_array_size(b); i++)
            if (!json_equal(json_array_get(a, i), json_array_get(b, i))) {
                snprintf(sub, sizeof sub, "%s/%zu", path, i);
                diff(json_array_get(a, i), json_array_get(b, i), sub);
                return;
            }
        return;
    }
    char *x = json_dumps(a, JSON_ENCODE_ANY | JSON_COMPACT);
    char *y = json_dumps(b, JSON_ENCODE_ANY | JSON_COMPACT);
    printf("    at %s:\n      ours:     %.300s\n      expected: %.300s\n",
           path[0] ? path : "/", x, y);
    free(x);
    free(y);
}

static char *fixture(const char *rel, size_t *len)
{
    char path[1024];
    if (!t_shared(rel, path, sizeof path))
        return NULL;
    return t_read_file(path, len);
}

/* Is the corpus there? The tests skip without it. */
static int have_corpus(void)
{
    char *probe = fixture("corpus/jkf-fixtures/csa/chudan.csa", NULL);
    int ok = probe != NULL;
    free(probe);
    return ok;
}

/* The text of CSA fixture i (NULL if missing), and its expected JKF text into *want when
 * want is not NULL. */
static char *csa_fixture(size_t i, size_t *len, char **want)
{
    char rel[512];
    if (want) {
        snprintf(rel, sizeof rel, "corpus/jkf-fixtures/expected/csa/%s.json",
                 fixtures[i]);
        *want = fixture(rel, NULL);
    }
    snprintf(rel, sizeof rel, "corpus/jkf-fixtures/csa/%s", fixtures[i]);
    return fixture(rel, len);
}

TEST(fixtures_give_expected_jkf)
{
    if (!have_corpus())
        SKIP("../shared/corpus is missing");
    size_t len;
    int compared = 0;
    for (size_t i = 0; i < NFIX; i++) {
        char *want_text;
        char *data = csa_fixture(i, &len, &want_text);
        CHECK(data && want_text);
        if (!data || !want_text) {
            free(data);
            free(want_text);
            continue;
        }
        json_t *ours = to_jkf(data, len, fixtures[i], NULL);
        json_t *want = json_loads(want_text, 0, NULL);
        CHECK(want != NULL);
        if (ours && want) {
            /* The documented difference: header-area comments kept on the root. */
            json_t *hc = header_comments(data, len);
            json_t *m0 = json_array_get(json_object_get(want, "moves"), 0);
            if (m0 && json_array_size(hc)) {
                json_t *c = json_object_get(m0, "comments");
                if (c)
                    json_array_extend(hc, c);
                json_object_set(m0, "comments", hc);
            }
            json_decref(hc);
            /* The second documented difference: a move comment's `'*` mark. */
            json_t *mv = json_object_get(want, "moves");
            for (size_t k = 1; k < json_array_size(mv); k++) {
                json_t *cs = json_object_get(json_array_get(mv, k), "comments");
                for (size_t j = 0; j < json_array_size(cs); j++) {
                    const char *t = json_string_value(json_array_get(cs, j));
                    if (t && t[0] == '*')
                        json_array_set_new(cs, j, json_string(t + 1));
                }
            }
            compared++;
            if (!json_equal(ours, want)) {
                t_failed_checks++;
                printf("  %s: JKF differs from expected\n", fixtures[i]);
                diff(ours, want, "");
            }
        } else {
            CHECK(ours != NULL);
        }
        json_decref(ours);
        json_decref(want);
        free(data);
        free(want_text);
    }
    CHECK_INT(compared, (int)NFIX);
}

TEST(csa_jkf_csa_jkf_is_stable)
{
    if (!have_corpus())
        SKIP("../shared/corpus is missing");
    size_t len;
    int compared = 0;
    for (size_t i = 0; i < NFIX; i++) {
        char *data = csa_fixture(i, &len, NULL);
        char *csa = NULL;
        json_t *first = data ? to_jkf(data, len, fixtures[i], &csa) : NULL;
        json_t *second =
            first && csa ? to_jkf(csa, strlen(csa), fixtures[i], NULL) : NULL;
        if (first) {
            CHECK(csa != NULL);
            CHECK(second != NULL);
            compared++;
            if (second && !json_equal(first, second)) {
                t_failed_checks++;
                printf("  %s: JKF changed after a CSA round trip\n", fixtures[i]);
                diff(second, first, "");
            }
        } else {
            CHECK(first != NULL);
        }
        json_decref(first);
        json_decref(second);
        kifu_free(csa);
        free(data);
    }
    CHECK_INT(compared, (int)NFIX);
}

/* What the reader alone decides, without the normalizer: header and start position. */
TEST(raw_header_and_initial)
{
    if (!have_corpus())
        SKIP("../shared/corpus is missing");
    size_t len;
    int compared = 0;
    for (size_t i = 0; i < NFIX; i++) {
        char *want_text;
        char *data = csa_fixture(i, &len, &want_text);
        json_t *want = want_text ? json_loads(want_text, 0, NULL) : NULL;
        json_t *ours =
            data ? to_jkf_flags(data, len, fixtures[i], NULL, KIFU_READ_NO_NORMALIZE)
                 : NULL;
        if (ours && want) {
            compared++;
            static const char *const keys[] = {"header", "initial"};
            for (int k = 0; k < 2; k++) {
                json_t *a = json_object_get(ours, keys[k]),
                       *b = json_object_get(want, keys[k]);
                if (!a || !b || !json_equal(a, b)) {
                    t_failed_checks++;
                    printf("  %s: %s differs\n", fixtures[i], keys[k]);
                    if (a && b)
                        diff(a, b, keys[k]);
                }
            }
        } else {
            CHECK(ours && want);
        }
        json_decref(ours);
        json_decref(want);
        free(data);
        free(want_text);
    }
    CHECK_INT(compared, (int)NFIX);
}

/* ---- other formats through CSA ---- */

static int nwarn;
static void count_warn(void *ctx, const char *msg)
{
    (void)ctx;
    (void)msg;
    nwarn++;
}

/* The CSA ending a special is written as (see csa_write.c). */
static int csa_word(const char *s)
{
    if (*s == '+' || *s == '-')
        s++;
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!((*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_'))
            return 0;
    return 1;
}

/* Main lines of a (read from another format) and b (a written as CSA and read back) hold
 * the same moves, times, endings and comments; start and players are the same. */
static void same_game(const char *name, kifu_record *a, kifu_record *b)
{
    kifu_board ba, bb;
    kifu_record_initial(a, &ba);
    kifu_record_initial(b, &bb);
    if (memcmp(&ba, &bb, sizeof ba) != 0) {
        t_failed_checks++;
        printf("  %s: start position differs after CSA\n", name);
    }
    static const char *const keys[] = {"先手", "後手",     "棋戦",
                                       "場所", "開始日時", "終了日時"};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        const char *va = kifu_record_header_get(a, keys[k]);
        /* Handicap games name the players 下手 (sente, N+) and 上手 (gote, N-). */
        if (!va && k < 2)
            va = kifu_record_header_get(a, k ? "上手" : "下手");
        const char *vb = kifu_record_header_get(b, keys[k]);
        if ((va || vb) && (!va || !vb || strcmp(va, vb) != 0)) {
            t_failed_checks++;
            printf("  %s: header %s: \"%s\" became \"%s\"\n", name, keys[k], va ? va : "",
                   vb ? vb : "");
        }
    }
    const kifu_node *x = kifu_node_next(kifu_record_root(a));
    const kifu_node *y = kifu_node_next(kifu_record_root(b));
    for (int ply = 1; x || y; ply++, x = kifu_node_next(x), y = kifu_node_next(y)) {
        if (!x || !y) {
            t_failed_checks++;
            printf("  %s: main line length differs at ply %d\n", name, ply);
            return;
        }
        const kifu_move *p = t_move(x), *q = t_move(y);
        int bad = kifu_node_kind_of(x) != kifu_node_kind_of(y);
        if (!bad && p)
            bad = p->color != q->color || p->from_x != q->from_x ||
                  p->from_y != q->from_y || p->to_x != q->to_x || p->to_y != q->to_y ||
                  p->piece != q->piece || p->capture != q->capture ||
                  p->promote != q->promote || p->same != q->same ||
                  strcmp(p->relative, q->relative) != 0;
        const char *sa = kifu_node_special(x), *sb = kifu_node_special(y);
        if (!bad && sa)
            bad = strcmp(csa_word(sa) ? sa : "CHUDAN", sb) != 0;
        const kifu_move_time *ta = t_time(x), *tb = t_time(y);
        if (!bad && (ta || tb))
            bad =
                !ta || !tb || kifu_time_seconds(&ta->now) != kifu_time_seconds(&tb->now);
        /* An ending CSA lacks comes back with its word as an extra first comment. */
        size_t extra = sa && !csa_word(sa);
        if (!bad)
            bad = kifu_node_comment_count(x) + extra != kifu_node_comment_count(y);
        for (size_t i = 0; !bad && i < kifu_node_comment_count(x); i++)
            bad = strcmp(kifu_node_comment(x, i), kifu_node_comment(y, i + extra)) != 0;
        if (bad) {
            t_failed_checks++;
            printf("  %s: ply %d differs after CSA\n", name, ply);
            return;
        }
    }
}

static void through_csa(const char *dir, const char *name, int *done)
{
    char path[2400];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    kifu_read_options ro = {KIFU_FMT_AUTO, KIFU_ENC_AUTO, 0, NULL, NULL, NULL};
    kifu_error e;
    kifu_error_clear(&e);
    kifu_record *a = kifu_read_file(path, &ro, &e);
    CHECK(a != NULL);
    if (!a) {
        printf("  %s: not read: %s\n", name, e.message);
        return;
    }
    nwarn = 0;
    kifu_write_options wo = {KIFU_FMT_CSA, KIFU_ENC_UTF8, 0, count_warn, NULL};
    size_t len;
    char *csa = kifu_write(a, &wo, &len, &e);
    CHECK(csa != NULL);
    /* A record with forks must have been warned about. */
    int forks = 0;
    for (const kifu_node *n = kifu_record_root(a); n; n = kifu_node_next(n))
        forks |= kifu_node_child_count(n) > 1;
    if (forks)
        CHECK(nwarn > 0);
    kifu_read_options co = {KIFU_FMT_CSA, KIFU_ENC_UTF8, 0, name, NULL, NULL};
    kifu_record *b = csa ? kifu_read(csa, len, &co, &e) : NULL;
    if (csa && !b)
        printf("  %s: CSA not read back: %s\n", name, e.message);
    CHECK(!csa || b);
    if (b) {
        same_game(name, a, b);
        (*done)++;
    }
    kifu_record_free(b);
    kifu_free(csa);
    kifu_record_free(a);
}

TEST(kif_ki2_jkf_fixtures_through_csa)
{
    static const char *const dirs[] = {"kif", "ki2", "jkf"};
    char base[1024];
    if (!t_shared("corpus/jkf-fixtures", base, sizeof base))
        SKIP("../shared/corpus is missing");
    int done = 0;
    for (size_t d = 0; d < 3; d++) {
        char dir[1100];
        snprintf(dir, sizeof dir, "%s/%s", base, dirs[d]);
        DIR *dp = opendir(dir);
        if (!dp)
            continue;
        struct dirent *de;
        while ((de = readdir(dp)))
            if (de->d_name[0] != '.')
                through_csa(dir, de->d_name, &done);
        closedir(dp);
    }
    printf("  %d records compared after a CSA round trip\n", done);
    CHECK(done > 0);
}

int main(void)
{
    RUN(raw_header_and_initial);
    RUN(fixtures_give_expected_jkf);
    RUN(csa_jkf_csa_jkf_is_stable);
    RUN(kif_ki2_jkf_fixtures_through_csa);
    return t_finish();
}
