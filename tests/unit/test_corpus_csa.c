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
#include <stdlib.h>

#include "core/encoding.h"
#include "harness.h"
#include "jsonval.h"
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

static void unload(jv_doc *d)
{
    if (d)
        jv_free(d);
    free(d);
}

/* Read bytes as CSA (normalized) and write JKF, read back (unload); NULL on failure
 * (printed). */
static jv_doc *to_jkf_flags(const char *data, size_t len, const char *name,
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
    jv_doc *j = malloc(sizeof *j);
    char je[256];
    if (j && jv_parse(j, text, strlen(text), je, sizeof je)) {
        printf("  %s: our JKF is not JSON: %s\n", name, je);
        free(j);
        j = NULL;
    }
    kifu_free(text);
    return j;
}

/* The expected JKF text read (unload), or NULL. */
static jv_doc *parse(const char *text)
{
    jv_doc *j = malloc(sizeof *j);
    char je[256];
    if (j && jv_parse(j, text, strlen(text), je, sizeof je)) {
        printf("  expected JKF: %s\n", je);
        free(j);
        j = NULL;
    }
    return j;
}

static jv_doc *to_jkf(const char *data, size_t len, const char *name, char **csa_out)
{
    return to_jkf_flags(data, len, name, csa_out, 0);
}

/* The `'` lines above the side-to-move line (see the top of the file), as the elements of a JSON
 * array (a text "\"a\",\"b\"", "" for none) into a. */
static void header_comments(const char *data, size_t len, kifu__strbuf *a)
{
    char *text;
    size_t n;
    if (kifu__decode(data, len, KIFU_ENC_AUTO, &text, &n, NULL, NULL))
        return;
    for (char *p = text, *end = text + n; p < end;) {
        char *nl = memchr(p, '\n', (size_t)(end - p));
        char *e = nl ? nl : end;
        while (e > p && e[-1] == '\r')
            e--;
        if (p < e && (*p == '+' || *p == '-'))
            break;
        if (p < e && *p == '\'' && strncmp(p, "'encoding=", 10) != 0 &&
            strncmp(p, "'CSA encoding=", 14) != 0) {
            if (a->len)
                kifu__sb_putc(a, ',');
            jv_quote(a, p + 1, (size_t)(e - p - 1));
        }
        p = nl ? nl + 1 : end;
    }
    kifu_free(text);
}

/* The type of a value: an integer and a real are two. */
static int type_of(const jv *v)
{
    return v->type == KIFU__JSON_NUMBER && !v->is_int ? -2 : v->type;
}

/* Print where two JSON values first differ: every differing member of an object, the
 * first differing element of an array. The walk keeps its own stack of things to do,
 * in the order they are printed. */
typedef struct todo {
    const jv *a, *b;
    int tail; /* print the members only in b (after a's members were done) */
    char *path;
} todo;

static void diff(const jv *a0, const jv *b0, const char *path0)
{
    todo *st = NULL, *kids = NULL;
    size_t n = 0, cap = 0, nk = 0, capk = 0;
    if (kifu__reserve(&st, &cap, 1, sizeof *st, 16))
        return;
    st[n++] = (todo){a0, b0, 0, strdup(path0)};
    while (n) {
        todo t = st[--n];
        const jv *a = t.a, *b = t.b;
        const char *path = t.path ? t.path : "";
        char sub[512];
        nk = 0;
        if (t.tail) {
            const jv *v = b + 1;
            for (size_t k = 0; k < b->count; k++, v = kifu__msf_next(v))
                if (!jv_get(a, v->key))
                    printf("    at %s/%s: only in expected\n", path, v->key);
        } else if (type_of(a) != type_of(b)) {
            printf("    at %s: type differs\n", path[0] ? path : "/");
        } else if (a->type == KIFU__JSON_OBJECT) {
            const jv *v = a + 1;
            for (size_t k = 0; k < a->count; k++, v = kifu__msf_next(v)) {
                snprintf(sub, sizeof sub, "%s/%s", path, v->key);
                const jv *w = jv_get(b, v->key);
                if (!w)
                    printf("    at %s: only in ours\n", sub);
                else if (!jv_equal(v, w) &&
                         !kifu__reserve(&kids, &capk, nk + 1, sizeof *kids, 16))
                    kids[nk++] = (todo){v, w, 0, strdup(sub)};
            }
            if (!kifu__reserve(&kids, &capk, nk + 1, sizeof *kids, 16))
                kids[nk++] = (todo){a, b, 1, strdup(path)};
        } else if (a->type == KIFU__JSON_ARRAY) {
            if (a->count != b->count)
                printf("    at %s: %zu items vs %zu expected\n", path, a->count,
                       b->count);
            for (size_t i = 0; i < a->count && i < b->count; i++)
                if (!jv_equal(jv_idx(a, i), jv_idx(b, i))) {
                    snprintf(sub, sizeof sub, "%s/%zu", path, i);
                    if (!kifu__reserve(&kids, &capk, 1, sizeof *kids, 16))
                        kids[nk++] = (todo){jv_idx(a, i), jv_idx(b, i), 0, strdup(sub)};
                    break;
                }
        } else {
            char *x = jv_dump(a, JV_COMPACT);
            char *y = jv_dump(b, JV_COMPACT);
            printf("    at %s:\n      ours:     %.300s\n      expected: %.300s\n",
                   path[0] ? path : "/", x, y);
            free(x);
            free(y);
        }
        free(t.path);
        /* the children, the first on top */
        if (nk && kifu__reserve(&st, &cap, n + nk, sizeof *st, 16)) {
            for (size_t k = 0; k < nk; k++)
                free(kids[k].path);
            nk = 0;
        }
        while (nk)
            st[n++] = kids[--nk];
    }
    kifu__free(kids);
    kifu__free(st);
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
        jv_doc *ours = to_jkf(data, len, fixtures[i], NULL);
        jv_doc *want = parse(want_text);
        CHECK(want != NULL);
        if (ours && want) {
            /* The documented difference: header-area comments kept on the root. */
            jv_edit *ed = NULL;
            size_t ned = 0, caped = 0;
            kifu__strbuf hc;
            kifu__sb_init(&hc);
            header_comments(data, len, &hc);
            const jv *m0 = jv_idx(jv_get(jv_root(want), "moves"), 0);
            kifu__strbuf arr;
            kifu__sb_init(&arr);
            if (m0 && hc.len) {
                kifu__sb_putc(&arr, '[');
                kifu__sb_putn(&arr, hc.data, hc.len);
                const jv *c = jv_get(m0, "comments");
                for (size_t j = 0; j < jv_size(c); j++) {
                    kifu__sb_putc(&arr, ',');
                    jv_write(&arr, jv_idx(c, j), JV_COMPACT);
                }
                kifu__sb_putc(&arr, ']');
                kifu__sb_putc(&arr, 0);
                if (!kifu__reserve(&ed, &caped, ned + 1, sizeof *ed, 16))
                    ed[ned++] = jv_member(m0, "comments", arr.data);
            }
            /* The second documented difference: a move comment's `'*` mark. */
            const jv *mv = jv_get(jv_root(want), "moves");
            kifu__strbuf strs; /* the new strings, each NUL-terminated */
            kifu__sb_init(&strs);
            size_t *at = NULL, nat = 0, capat = 0;
            for (size_t k = 1; k < jv_size(mv); k++) {
                const jv *cs = jv_get(jv_idx(mv, k), "comments");
                for (size_t j = 0; j < jv_size(cs); j++) {
                    const char *t = jv_str(jv_idx(cs, j));
                    if (t && t[0] == '*' &&
                        !kifu__reserve(&ed, &caped, ned + 1, sizeof *ed, 16) &&
                        !kifu__reserve(&at, &capat, nat + 1, sizeof *at, 16)) {
                        at[nat++] = strs.len;
                        jv_quote(&strs, t + 1, jv_idx(cs, j)->n - 1);
                        kifu__sb_putc(&strs, 0);
                        ed[ned++] = (jv_edit){jv_idx(cs, j), NULL, NULL};
                    }
                }
            }
            /* the strings are in place now that strs no longer moves */
            for (size_t k = 0, e = ned - nat; k < nat; k++)
                ed[e + k].json = strs.data + at[k];
            CHECK_INT(ned ? jv_apply(want, ed, ned) : 0, 0);
            kifu__free(at);
            kifu__free(ed);
            kifu__sb_free(&strs);
            kifu__sb_free(&arr);
            kifu__sb_free(&hc);
            compared++;
            if (!jv_equal(jv_root(ours), jv_root(want))) {
                t_failed_checks++;
                printf("  %s: JKF differs from expected\n", fixtures[i]);
                diff(jv_root(ours), jv_root(want), "");
            }
        } else {
            CHECK(ours != NULL);
        }
        unload(ours);
        unload(want);
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
        jv_doc *first = data ? to_jkf(data, len, fixtures[i], &csa) : NULL;
        jv_doc *second =
            first && csa ? to_jkf(csa, strlen(csa), fixtures[i], NULL) : NULL;
        if (first) {
            CHECK(csa != NULL);
            CHECK(second != NULL);
            compared++;
            if (second && !jv_equal(jv_root(first), jv_root(second))) {
                t_failed_checks++;
                printf("  %s: JKF changed after a CSA round trip\n", fixtures[i]);
                diff(jv_root(second), jv_root(first), "");
            }
        } else {
            CHECK(first != NULL);
        }
        unload(first);
        unload(second);
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
        jv_doc *want = want_text ? parse(want_text) : NULL;
        jv_doc *ours =
            data ? to_jkf_flags(data, len, fixtures[i], NULL, KIFU_READ_NO_NORMALIZE)
                 : NULL;
        if (ours && want) {
            compared++;
            static const char *const keys[] = {"header", "initial"};
            for (int k = 0; k < 2; k++) {
                const jv *a = jv_get(jv_root(ours), keys[k]),
                         *b = jv_get(jv_root(want), keys[k]);
                if (!a || !b || !jv_equal(a, b)) {
                    t_failed_checks++;
                    printf("  %s: %s differs\n", fixtures[i], keys[k]);
                    if (a && b)
                        diff(a, b, keys[k]);
                }
            }
        } else {
            CHECK(ours && want);
        }
        unload(ours);
        unload(want);
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
