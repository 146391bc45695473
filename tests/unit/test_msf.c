/* test_msf.c: Xelto records (Mino Seslax Format). Every rule the reader checks is broken
 * in a copy of a real example (the format's own examples in ../shared, changed here in
 * memory with jansson), and the test asserts the problem's JSON path and message; the
 * examples themselves must pass, including what they do around tem. Records built
 * through the API check sed (no example has one), deep variations, editing and paths. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "jsoncmp.h"
#include "kifu.h"
#include "kifu_private.h"

#define EX "corpus/msf/examples/"

/* ---- helpers ---- */

static json_t *load(const char *rel)
{
    char buf[512];
    if (!t_shared(rel, buf, sizeof buf))
        return NULL;
    json_error_t e;
    return json_load_file(buf, 0, &e);
}

/* The value at a JSON path ("seslax[3].slax.ele[2][4]"), borrowed, or NULL. With
 * `set`, the value there is replaced (a key is added), or with set == NULL and del,
 * removed. */
static json_t *at(json_t *v, const char *path, json_t *set, int del)
{
    const char *p = path;
    while (*p && v) {
        json_t *parent = v;
        char key[64];
        long idx = -1;
        if (*p == '.')
            p++;
        if (*p == '[') {
            idx = strtol(p + 1, (char **)&p, 10);
            p++;
            v = json_array_get(parent, (size_t)idx);
        } else {
            size_t n = strcspn(p, ".[");
            snprintf(key, sizeof key, "%.*s", (int)n, p);
            p += n;
            v = json_object_get(parent, key);
        }
        if (!*p && (set || del)) {
            if (idx >= 0 && set)
                json_array_set_new(parent, (size_t)idx, set);
            else if (idx >= 0)
                json_array_remove(parent, (size_t)idx);
            else if (set)
                json_object_set_new(parent, key, set);
            else
                json_object_del(parent, key);
            return NULL;
        }
    }
    return v;
}

static int problems;
static kifu_error first;
static void on_problem(void *ctx, const kifu_error *e)
{
    (void)ctx;
    if (problems++ == 0)
        first = *e;
}

/* Reads text; returns the number of problems (first in `first`). */
static int check_text(const char *text, unsigned flags)
{
    problems = 0;
    memset(&first, 0, sizeof first);
    kifu_error err = {0};
    kifu_msf_read_options o = {flags, "t.msf", on_problem, NULL};
    kifu_msf *m = kifu_msf_read(text, strlen(text), &o, &err);
    if ((m != NULL) != (problems == 0))
        printf("  read returned %s with %d problems\n", m ? "a record" : "NULL",
               problems);
    if (problems && strcmp(err.message, first.message) != 0)
        printf("  err is not the first problem: %s\n", err.message);
    kifu_msf_free(m);
    return problems;
}

static int check_doc(json_t *doc, unsigned flags)
{
    char *text = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    int n = check_text(text, flags);
    free(text);
    return n;
}

/* The message of the first problem starts with `path: ` and holds `what`. */
#define CHECK_PROBLEM(path, what)                                                        \
    do {                                                                                 \
        char want_[256];                                                                 \
        snprintf(want_, sizeof want_, "%s: ", path);                                     \
        CHECK(problems > 0);                                                             \
        if (strncmp(first.message, want_, strlen(want_)) != 0 ||                         \
            !strstr(first.message, what)) {                                              \
            t_failed_checks++;                                                           \
            printf("  %s:%d: problem\n    got:      %s\n    expected: %s... %s\n",       \
                   __FILE__, __LINE__, first.message, want_, what);                      \
        }                                                                                \
    } while (0)

/* Break one value of a copy of example `file` and expect the problem at `path`. */
static void expect_break(const char *file, const char *where, json_t *value,
                         const char *path, const char *what, int code)
{
    json_t *doc = load(file);
    if (!doc) {
        t_failed_checks++;
        printf("  cannot load %s\n", file);
        json_decref(value);
        return;
    }
    at(doc, where, value, value == NULL);
    int n = check_doc(doc, 0);
    if (n == 0) {
        t_failed_checks++;
        printf("  %s with %s changed: no problem found (expected %s)\n", file, where,
               path);
    } else {
        CHECK_PROBLEM(path, what);
        CHECK_INT(first.code, code);
        CHECK(first.line > 0 && first.column > 0);
        CHECK_STR(first.source, "t.msf");
    }
    json_decref(doc);
}

#define NEED_SHARED()                                                                    \
    do {                                                                                 \
        char b_[512];                                                                    \
        if (!t_shared(EX "mate_in_5.msf", b_, sizeof b_))                                \
            SKIP("../shared is absent");                                                 \
    } while (0)

#define S EX "seren_tikno_2007.msf"
#define M EX "mate_in_5.msf"
#define V "corpus/msf/msf-io-ts/valid.json"

/* ---- the files as they are ---- */

static const char *const valid_files[] = {
    EX "mate_in_5.msf", EX "no_moves.msf", EX "seren_tikno_2007.msf",
    "corpus/msf/msf-io-ts/valid.json", "corpus/msf/msf-io-ts/tikno_seren_2007.json"};

TEST(valid_files_pass_and_round_trip)
{
    NEED_SHARED();
    for (size_t i = 0; i < sizeof valid_files / sizeof valid_files[0]; i++) {
        char buf[512];
        size_t len;
        char *text = t_read_file(t_shared(valid_files[i], buf, sizeof buf), &len);
        CHECK(text != NULL);
        if (!text)
            continue;
        kifu_error err = {0};
        kifu_msf *m = kifu_msf_read(text, len, NULL, &err);
        if (!m)
            printf("  %s: %s\n", valid_files[i], err.message);
        CHECK(m != NULL);
        if (m) {
            size_t wlen;
            char *out = kifu_msf_write(m, &wlen, &err);
            char where[1024];
            int same = jsoncmp_text(text, len, out, wlen, where, sizeof where);
            if (same != 1)
                printf("  %s: %s\n", valid_files[i], where);
            CHECK_INT(same, 1);
            /* canonical is a fixed point: written again, the same bytes */
            kifu_msf *back = kifu_msf_read(out, wlen, NULL, &err);
            CHECK(back != NULL);
            char *again = back ? kifu_msf_write(back, NULL, &err) : NULL;
            CHECK(again && strcmp(again, out) == 0);
            kifu_free(again);
            kifu_msf_free(back);
            kifu_free(out);
        }
        kifu_msf_free(m);
        free(text);
    }
}

TEST(invalid_files_name_the_duplicate)
{
    NEED_SHARED();
    static const char *const want[3] = {"kit.slax.arxe.evol",
                                        "kit.mit[0].seslax[0].slax.arxe.evol",
                                        "seslax[0].slax.arxe.evol"};
    static const int lines[3] = {9, 38, 67};
    for (int i = 0; i < 3; i++) {
        char rel[64], buf[512];
        snprintf(rel, sizeof rel, "corpus/msf/msf-io-ts/invalid_%d.json", i + 1);
        char *text = t_read_file(t_shared(rel, buf, sizeof buf), NULL);
        CHECK(text != NULL);
        if (!text)
            continue;
        CHECK_INT(check_text(text, KIFU_MSF_NO_TRANSITIONS), 1);
        CHECK_PROBLEM(want[i], "\"rav\" is already at");
        CHECK(strstr(first.message, "ele[0][0]") != NULL);
        CHECK_INT(first.line, lines[i]);
        CHECK_INT(first.code, KIFU_ERR_SCHEMA);
        free(text);
    }
}

/* ---- the document's types ---- */

TEST(schema_rules)
{
    NEED_SHARED();
    expect_break(M, "extra", json_integer(1), "extra", "unknown key \"extra\"",
                 KIFU_ERR_SCHEMA);
    expect_break(M, "fixt", NULL, "fixt", "expected this member, found nothing",
                 KIFU_ERR_SCHEMA);
    expect_break(M, "aptex.ladan", json_integer(5), "aptex.ladan",
                 "expected a string, found 5", KIFU_ERR_SCHEMA);
    expect_break(M, "kit.fala", json_integer(-1), "kit.fala",
                 "expected an integer 0..2147483647, found -1", KIFU_ERR_SCHEMA);
    expect_break(M, "kit.fala", json_integer(2147483648LL), "kit.fala",
                 "found 2147483648", KIFU_ERR_SCHEMA);
    expect_break(M, "seslax[0].slax.sast", json_string("black"), "seslax[0].slax.sast",
                 "expected \"arxe\" or \"sorn\"", KIFU_ERR_SCHEMA);
    expect_break(M, "seslax[0].slax.ele[6][0]", json_string("xyz"),
                 "seslax[0].slax.ele[6][0]", "expected a piece name or null",
                 KIFU_ERR_SCHEMA);
    expect_break(M, "seslax[0].slax.ele[2]", json_pack("[nnnnnn]"),
                 "seslax[0].slax.ele[2]", "a row of 7 squares", KIFU_ERR_SCHEMA);
    json_t *rows = json_array();
    for (int i = 0; i < 8; i++)
        json_array_append_new(rows, json_pack("[nnnnnnn]"));
    expect_break(M, "seslax[1].slax.ele", rows, "seslax[1].slax.ele",
                 "expected a 7x7 array", KIFU_ERR_SCHEMA);
    expect_break(M, "seslax[0].ov.luul[0].i.alsia", json_integer(7),
                 "seslax[0].ov.luul[0].i.alsia", "expected an integer 0..6, found 7",
                 KIFU_ERR_SCHEMA);
    expect_break(M, "seslax[0].ov.luul[0].a.soom", json_integer(-1),
                 "seslax[0].ov.luul[0].a.soom", "0..6, found -1", KIFU_ERR_SCHEMA);
    expect_break(M, "seslax[0].ov.pit", json_string("jump"), "seslax[0].ov.pit",
                 "\"leim\", \"okke\", \"kor\", \"ev\" or \"sed\"", KIFU_ERR_SCHEMA);
    expect_break(S, "seslax[10].ov.luul[1]", NULL, "seslax[10].ov.luul",
                 "expected an array of two FromTo", KIFU_ERR_SCHEMA);
    expect_break(S, "seslax[12].ov.evol", json_string("tem"), "seslax[12].ov.evol",
                 "other than tem (Piece.Lantis)", KIFU_ERR_SCHEMA);
    expect_break(M, "fixt.vastan", NULL, "fixt.vastan", "expected this member",
                 KIFU_ERR_SCHEMA);
    /* ito 0..4, present exactly with artansoldes */
    expect_break(S, "fixt.ito", json_integer(5), "fixt.ito", "0..4, found 5",
                 KIFU_ERR_SCHEMA);
    expect_break(S, "fixt.ito", NULL, "fixt.ito", "expected this member",
                 KIFU_ERR_SCHEMA);
    expect_break(M, "fixt.ito", json_integer(2), "fixt.ito", "unknown key \"ito\"",
                 KIFU_ERR_SCHEMA);
    /* RFC 3339 date-times */
    expect_break(S, "kit.im", json_string("2007-02-30T10:00:00+09:00"), "kit.im",
                 "expected an RFC 3339 date-time", KIFU_ERR_SCHEMA);
    expect_break(S, "kit.im", json_string("2007-07-14 01:00:00"), "kit.im",
                 "found \"2007-07-14 01:00:00\"", KIFU_ERR_SCHEMA);
    expect_break(S, "seslax[3].im", json_string("2007-07-14T25:00:00Z"), "seslax[3].im",
                 "RFC 3339", KIFU_ERR_SCHEMA);
    expect_break(M, "kit.oprens", json_integer(3), "kit.oprens", "expected a string",
                 KIFU_ERR_SCHEMA);
}

TEST(state_rules)
{
    NEED_SHARED();
    /* captured pieces on the right side: arxe holds sorn's pieces */
    expect_break(S, "seslax[6].slax.arxe.txifol[0]", json_string("dyu"),
                 "seslax[6].slax.arxe.txifol[0]", "expected a piece of sorn",
                 KIFU_ERR_SCHEMA);
    expect_break(M, "kit.slax.sorn.evol", json_string("len"), "kit.slax.sorn.evol",
                 "expected a piece of arxe", KIFU_ERR_SCHEMA);
    /* no piece twice across arxe, sorn and ele */
    expect_break(M, "seslax[0].slax.sorn.txifol", json_pack("[s]", "ral"),
                 "seslax[0].slax.sorn.txifol[0]",
                 "\"ral\" is already at "
                 "seslax[0].slax.ele[0][3]",
                 KIFU_ERR_SCHEMA);
    /* txifol without duplicates and without the evol */
    expect_break(M, "seslax[1].slax.sorn.txifol", json_pack("[ss]", "ral", "ral"),
                 "seslax[1].slax.sorn.txifol[1]",
                 "already at seslax[1].slax.sorn.txifol[0]", KIFU_ERR_SCHEMA);
    expect_break(M, "kit.slax.arxe.txifol", json_pack("[s]", "len"), "kit.slax.arxe.evol",
                 "\"len\" is already at kit.slax.arxe.txifol[0]", KIFU_ERR_SCHEMA);
    /* korol: turnable pieces, on the board, without duplicates */
    expect_break(S, "seslax[24].slax.korol", json_pack("[s]", "dyu"),
                 "seslax[24].slax.korol[0]", "expected a turnable piece",
                 KIFU_ERR_SCHEMA);
    expect_break(S, "seslax[24].slax.korol", json_pack("[ss]", "mik", "mik"),
                 "seslax[24].slax.korol[1]",
                 "\"mik\" is already at seslax[24].slax.korol[0]", KIFU_ERR_SCHEMA);
    expect_break(S, "seslax[24].slax.korol", json_pack("[ss]", "mik", "lax"),
                 "seslax[24].slax.korol[1]", "does not stand on the board",
                 KIFU_ERR_SCHEMA);
}

/* ---- what the states prove about the moves ---- */

TEST(transition_rules)
{
    NEED_SHARED();
    /* sast alternates */
    expect_break(M, "seslax[0].slax.sast", json_string("arxe"), "seslax[0].slax.sast",
                 "expected \"sorn\" (sides alternate: arxe moved)", KIFU_ERR_ILLEGAL);
    /* leim starts from the mover's piece */
    expect_break(M, "seslax[0].ov.luul[0].i",
                 json_pack("{s:i,s:i}", "alsia", 0, "soom", 6), "seslax[0].ov.luul[0].i",
                 "found an empty square", KIFU_ERR_ILLEGAL);
    expect_break(M, "seslax[0].ov.luul[0].i",
                 json_pack("{s:i,s:i}", "alsia", 3, "soom", 1), "seslax[0].ov.luul[0].i",
                 "of arxe (the side to move), found \"mir\"", KIFU_ERR_ILLEGAL);
    /* and changes only the squares it names */
    expect_break(V, "seslax[0].slax.ele[6][0]", json_string("lis"),
                 "seslax[0].slax.ele[6][1]",
                 "\"lis\" is already at seslax[0].slax.ele[6][0]", KIFU_ERR_SCHEMA);
    json_t *doc = load(V);
    at(doc, "seslax[0].slax.ele[6][0]", json_string("lis"), 0);
    at(doc, "seslax[0].slax.ele[6][1]", json_string("dyu"), 0);
    check_doc(doc, 0);
    CHECK_PROBLEM("seslax[0].slax.ele[6][0]",
                  "expected \"dyu\" after leim 5,6-4,4, found \"lis\"");
    CHECK_INT(first.code, KIFU_ERR_ILLEGAL);
    /* --no-transitions checks only the schema */
    CHECK_INT(check_doc(doc, KIFU_MSF_NO_TRANSITIONS), 0);
    json_decref(doc);
    /* a capture goes to the mover's txifol */
    expect_break(S, "seslax[6].slax.arxe.txifol", json_array(),
                 "seslax[6].slax.arxe.txifol", "expected \"lax\" here after leim 4,4-5,2",
                 KIFU_ERR_ILLEGAL);
    /* no capture of one's own piece */
    doc = load(M);
    at(doc, "seslax[0].ov.luul[0].a", json_pack("{s:i,s:i}", "alsia", 6, "soom", 0), 0);
    check_doc(doc, 0);
    CHECK_PROBLEM("seslax[0].ov.luul[0].a", "found \"dia\" of arxe itself");
    json_decref(doc);
    /* no piece appears from nothing */
    expect_break(M, "seslax[0].slax.ele[6][6]", json_string("pal"),
                 "seslax[0].slax.ele[6][6]", "\"pal\" appears from nothing",
                 KIFU_ERR_ILLEGAL);
    /* evol stays unless the move goes onto or with tem */
    expect_break(M, "seslax[0].slax.arxe.evol", json_null(), "seslax[0].slax.arxe.evol",
                 "expected len after leim 5,0-3,0, found null", KIFU_ERR_ILLEGAL);
    /* okke: two turnable pieces of the mover, by the same vector */
    expect_break(S, "seslax[10].ov.luul[1].a.alsia", json_integer(3),
                 "seslax[10].ov.luul[1]", "expected the vector of luul[0] (+1,+0)",
                 KIFU_ERR_ILLEGAL);
    doc = load(S);
    /* dyu (0,6 at the start) is not turnable: an okke of it with mik fails */
    at(doc, "seslax[10].ov.luul[1].i", json_pack("{s:i,s:i}", "alsia", 0, "soom", 6), 0);
    at(doc, "seslax[10].ov.luul[1].a", json_pack("{s:i,s:i}", "alsia", 1, "soom", 6), 0);
    check_doc(doc, 0);
    CHECK_PROBLEM("seslax[10].ov.luul[1].i", "a turnable piece of arxe");
    json_decref(doc);
    /* kor toggles one of the mover's turnable pieces in korol, nothing else */
    expect_break(S, "seslax[24].slax.korol", json_array(), "seslax[24].slax.korol",
                 "expected \"mik\" here after kor 1,3", KIFU_ERR_ILLEGAL);
    doc = load(S); /* and changes nothing else: two of arxe's pieces change places */
    json_t *a = json_incref(at(doc, "seslax[24].slax.ele[6][1]", NULL, 0));
    json_t *b = json_incref(at(doc, "seslax[24].slax.ele[6][2]", NULL, 0));
    at(doc, "seslax[24].slax.ele[6][1]", b, 0);
    at(doc, "seslax[24].slax.ele[6][2]", a, 0);
    check_doc(doc, 0);
    CHECK_PROBLEM("seslax[24].slax.ele[6][1]", "after kor 1,3");
    CHECK_INT(first.code, KIFU_ERR_ILLEGAL);
    json_decref(doc);
    expect_break(S, "seslax[24].ov.ka", json_pack("{s:i,s:i}", "alsia", 1, "soom", 6),
                 "seslax[24].ov.ka", "a turnable piece of arxe, found \"dyu\"",
                 KIFU_ERR_ILLEGAL);
    /* ev: a piece of the mover's txifol to an empty evol */
    expect_break(S, "seslax[12].ov.evol", json_string("len"),
                 "seslax[12].slax.arxe.txifol[0]",
                 "\"len\" should not be here after ev len", KIFU_ERR_ILLEGAL);
    expect_break(S, "seslax[12].ov.evol", json_string("vio"), "seslax[12].ov.evol",
                 "expected a piece in arxe's txifol, found \"vio\"", KIFU_ERR_ILLEGAL);
    /* im never goes back */
    expect_break(S, "seslax[5].im", json_string("2007-06-25T00:00:00+09:00"),
                 "seslax[5].im", "(seslax[4].im), found 2007-06-25T00:00:00+09:00",
                 KIFU_ERR_ILLEGAL);
    expect_break(S, "fixt.im", json_string("2007-06-01T00:00:00Z"), "fixt.im",
                 "(seslax[46].im)", KIFU_ERR_ILLEGAL);
    /* the same instant in another offset is not earlier */
    doc = load(S);
    const char *kit_im = json_string_value(at(doc, "kit.im", NULL, 0));
    CHECK(kit_im != NULL);
    json_decref(doc);
    /* a variation starts from the state of the node it hangs on */
    doc = load(V);
    json_t *mit = json_incref(at(doc, "kit.mit", NULL, 0));
    at(doc, "kit.mit", json_array(), 0);
    at(doc, "seslax[0].mit", mit, 0);
    check_doc(doc, 0);
    CHECK_PROBLEM("seslax[0].mit[0].seslax[0].slax.sast",
                  "(sides alternate: sorn moved)");
    json_decref(doc);
}

TEST(tem_moves_of_the_examples_pass)
{
    NEED_SHARED();
    /* mate_in_5: dia goes onto tem, which goes to dia's square; sorn's evol is removed */
    json_t *doc = load(M);
    CHECK_INT(check_doc(doc, 0), 0);
    CHECK_STR(json_string_value(at(doc, "seslax[4].slax.ele[0][6]", NULL, 0)), "tem");
    CHECK(json_is_null(at(doc, "seslax[4].slax.sorn.evol", NULL, 0)));
    /* a tem move may remove an evol, but not put another there */
    at(doc, "seslax[4].slax.sorn.evol", json_string("ral"), 0);
    check_doc(doc, 0);
    CHECK(problems > 0);
    json_decref(doc);
    /* seren_tikno: arxe moves tem itself and captures lin; its own evol (lax) goes */
    doc = load(S);
    CHECK_STR(json_string_value(at(doc, "seslax[14].slax.ele[2][4]", NULL, 0)), "tem");
    CHECK(json_is_null(at(doc, "seslax[14].slax.arxe.evol", NULL, 0)));
    CHECK_INT(check_doc(doc, 0), 0);
    /* the tem swap: the piece that went onto tem is where it went, tem where it was */
    at(doc, "seslax[15].slax.ele[1][3]", json_null(), 0);
    check_doc(doc, 0);
    CHECK_PROBLEM("seslax[15].slax.ele[1][3]", "expected \"tem\" after leim 3,1-4,2");
    json_decref(doc);
}

TEST(syntax_errors_have_line_and_column)
{
    CHECK_INT(check_text("{\n  \"aptex\": {},\n  \"kit\": [1, 2,]\n}\n", 0), 1);
    CHECK_INT(first.code, KIFU_ERR_SYNTAX);
    CHECK_INT(first.line, 3);
    CHECK(first.column > 0);
    CHECK_INT(check_text("{\"aptex\": {}, \"aptex\": {}}", 0), 1);
    CHECK_INT(first.code, KIFU_ERR_SYNTAX);
    CHECK(strstr(first.message, "duplicate") != NULL);
    /* a schema problem points at its value: line 2, after the key */
    CHECK(check_text("{\n  \"aptex\": [],\n  \"kit\": {}, \"fixt\": {\"pit\": \"daim\"}, "
                     "\"seslax\": []}",
                     0) > 0);
    CHECK_STR(first.message, "aptex: expected a GameTags object (string values), found "
                             "an array of 0");
    CHECK_INT(first.line, 2);
    CHECK_INT(first.column, 12);
    CHECK_INT(check_text("[]", 0), 1);
    CHECK_STR(first.message, "(top level): expected an MSF record (an object with aptex, "
                             "kit, fixt, seslax), found an array of 0");
}

/* ---- records through the API ---- */

static kifu_msf_move kor(int alsia, int soom)
{
    kifu_msf_move mv = {0};
    mv.pit = KIFU_MSF_KOR;
    mv.ka.alsia = (uint8_t)alsia;
    mv.ka.soom = (uint8_t)soom;
    return mv;
}

/* The state after side `s.sast` turns the piece at (alsia, soom). */
static kifu_msf_state turned(kifu_msf_state s, int alsia, int soom)
{
    int p = s.ele[soom][alsia], k = -1;
    for (int i = 0; i < s.nkorol; i++)
        if (s.korol[i] == p)
            k = i;
    if (k >= 0)
        s.korol[k] = s.korol[--s.nkorol];
    else
        s.korol[s.nkorol++] = (uint8_t)p;
    s.sast ^= 1;
    return s;
}

TEST(sed_through_the_api)
{
    /* arxe has lax on tem and takes it back */
    kifu_msf_state st;
    kifu_msf_state_start(&st);
    st.ele[1][4] = KIFU_MSF_NONE;
    st.evol[KIFU_MSF_ARXE] = (uint8_t)kifu_msf_piece_from_name("lax");
    kifu_msf *m = kifu_msf_new(&st);
    CHECK_INT(kifu_msf_check(m, 0, NULL, NULL, NULL), 0);
    kifu_msf_move sed = {0};
    sed.pit = KIFU_MSF_SED;
    kifu_msf_state after = st;
    after.sast = KIFU_MSF_SORN;
    after.evol[KIFU_MSF_ARXE] = 0;
    after.txifol[KIFU_MSF_ARXE][after.ntxifol[KIFU_MSF_ARXE]++] = st.evol[KIFU_MSF_ARXE];
    kifu_msf_node *n = kifu_msf_append(m, kifu_msf_main_line(m), &sed, &after);
    CHECK(n != NULL);
    CHECK_INT(kifu_msf_check(m, 0, on_problem, NULL, NULL), 0);
    /* a sed that loses the piece */
    kifu_msf_state lost = after;
    lost.ntxifol[KIFU_MSF_ARXE] = 0;
    kifu_msf *m2 = kifu_msf_new(&st);
    kifu_msf_append(m2, kifu_msf_main_line(m2), &sed, &lost);
    problems = 0;
    CHECK_INT(kifu_msf_check(m2, 0, on_problem, NULL, NULL), 1);
    CHECK_PROBLEM("seslax[0].slax.arxe.txifol", "expected \"lax\" here after sed");
    kifu_msf_free(m2);
    /* sed needs an evol: sorn has none */
    after.sast = KIFU_MSF_SORN;
    kifu_msf_state again = after;
    again.sast = KIFU_MSF_ARXE;
    kifu_msf_append(m, kifu_msf_main_line(m), &sed, &again);
    problems = 0;
    CHECK_INT(kifu_msf_check(m, 0, on_problem, NULL, NULL), 1);
    CHECK_PROBLEM("seslax[1].ov", "sed takes back sorn's evol, but it is null");
    /* ev onto an evol that holds a piece: arxe also holds jil, and sets it on tem */
    kifu_msf_state two = st;
    two.ele[1][5] = KIFU_MSF_NONE;
    two.txifol[KIFU_MSF_ARXE][two.ntxifol[KIFU_MSF_ARXE]++] =
        (uint8_t)kifu_msf_piece_from_name("jil");
    kifu_msf *m3 = kifu_msf_new(&two);
    kifu_msf_move ev = {0};
    ev.pit = KIFU_MSF_EV;
    ev.evol = (uint8_t)kifu_msf_piece_from_name("jil");
    kifu_msf_state set = two;
    set.sast = KIFU_MSF_SORN;
    set.ntxifol[KIFU_MSF_ARXE] = 0;
    set.evol[KIFU_MSF_ARXE] = ev.evol; /* lax is gone: what an ev would have to do */
    kifu_msf_append(m3, kifu_msf_main_line(m3), &ev, &set);
    problems = 0;
    CHECK_INT(kifu_msf_check(m3, 0, on_problem, NULL, NULL), 1);
    CHECK_PROBLEM("seslax[0].ov.evol",
                  "ev needs arxe's evol empty, but \"lax\" is there");
    kifu_msf_free(m3);
    kifu_msf_free(m);
}

TEST(build_edit_and_paths)
{
    kifu_msf *m = kifu_msf_new(NULL);
    CHECK(m != NULL);
    CHECK_INT(kifu_msf_tag_set(m, "est", "a test"), 0);
    CHECK_INT(kifu_msf_tag_set(m, "est", "the test"), 0);
    CHECK_STR(kifu_msf_tag_get(m, "est"), "the test");
    CHECK_INT(kifu_msf_tag_count(m), 1);
    CHECK_INT(kifu_msf_set_fala(m, 2147483648L), -1);
    CHECK_INT(kifu_msf_set_fala(m, 12), 0);
    kifu_msf_node *root = kifu_msf_root(m);
    kifu_msf_state s0 = *kifu_msf_node_state(root);
    /* arxe turns pal (0,5); sorn turns din (0,1); a variation: sorn turns rez instead */
    kifu_msf_move a = kor(0, 5), b = kor(0, 1), c = kor(1, 1);
    kifu_msf_state s1 = turned(s0, 0, 5), s2 = turned(s1, 0, 1), s2b = turned(s1, 1, 1);
    kifu_msf_node *n1 = kifu_msf_append(m, kifu_msf_main_line(m), &a, &s1);
    kifu_msf_node *n2 = kifu_msf_append(m, kifu_msf_main_line(m), &b, &s2);
    kifu_msf_line *var = kifu_msf_add_variation(m, n1);
    kifu_msf_node *n2b = kifu_msf_append(m, var, &c, &s2b);
    CHECK(n1 && n2 && n2b);
    kifu_msf_node_set_oprens(m, n2b, "the other choice");
    kifu_msf_node_set_im(m, n1, "2026-11-25T03:00:00Z");
    kifu_msf_result res = {KIFU_MSF_XELTSOLDES, KIFU_MSF_SORN, 0, NULL, "sorn wins"};
    CHECK_INT(kifu_msf_line_set_result(m, var, &res), 0);
    CHECK_INT(kifu_msf_check(m, 0, NULL, NULL, NULL), 0);
    char buf[128];
    CHECK_STR(kifu_msf_node_path(n2b, buf, sizeof buf), "seslax[0].mit[0].seslax[0]");
    CHECK_STR(kifu_msf_node_path(root, buf, sizeof buf), "kit");
    CHECK(kifu_msf_find(m, "seslax[0].mit[0].seslax[0]", NULL) == n2b);
    CHECK(kifu_msf_find(m, "2,1", NULL) == n2b);
    CHECK(kifu_msf_find(m, "2", NULL) == n2);
    CHECK(kifu_msf_find(m, "/0/1", NULL) == n2b);
    CHECK(kifu_msf_find(m, "kit", NULL) == root);
    kifu_error err = {0};
    CHECK(kifu_msf_find(m, "seslax[5]", &err) == NULL);
    CHECK(strstr(err.message, "no node at 'seslax[5]'") != NULL);
    CHECK_INT(kifu_msf_node_child_count(n1), 2);
    CHECK(kifu_msf_node_parent(n2b) == n1);
    CHECK_INT(kifu_msf_node_ply(n2b), 2);
    CHECK_STR(kifu_msf_move_text(kifu_msf_node_move(n2b), buf, sizeof buf), "kor 1,1");
    /* written and read back: the same record */
    size_t len;
    char *text = kifu_msf_write(m, &len, NULL);
    CHECK(text && strstr(text, "\"fala\": 12,"));
    CHECK(text && strstr(text, "\"korol\": [\"pal\", \"rez\"]"));
    kifu_msf *back = text ? kifu_msf_read(text, len, NULL, &err) : NULL;
    if (!back)
        printf("  %s\n", err.message);
    CHECK(back != NULL);
    char *again = back ? kifu_msf_write(back, NULL, NULL) : NULL;
    CHECK(again && text && strcmp(again, text) == 0);
    kifu_free(again);
    kifu_msf_free(back);
    kifu_free(text);
    /* the JSON Lines of the states: one per node, each a JSON object */
    char *lines = kifu_msf_write_states(m, NULL, NULL);
    int count = 0;
    for (char *p = lines; p && *p; p = strchr(p, '\n') + 1) {
        json_error_t je;
        size_t n = (size_t)(strchr(p, '\n') - p);
        json_t *o = json_loadb(p, n, 0, &je);
        CHECK(json_is_object(o) && json_object_get(o, "slax"));
        json_decref(o);
        count++;
    }
    CHECK_INT(count, 4);
    CHECK(lines && strstr(lines, "\"path\": \"seslax[0].mit[0].seslax[0]\""));
    kifu_free(lines);
    /* the diagram: turned pieces marked, sorn's with a v, tem; flipped turns it round */
    kifu_diagram_options o = {0};
    char *d = kifu_msf_diagram(n2b, &o, NULL);
    CHECK(d && strstr(d, " pal*") && strstr(d, "vrez*") && strstr(d, "TEM"));
    CHECK(d && strstr(d, "seslax[0].mit[0].seslax[0]  ply 2  kor 1,1"));
    o.flags = KIFU_DIAGRAM_FLIP;
    char *f = kifu_msf_diagram(n2b, &o, NULL);
    CHECK(d && f && strncmp(f, "arxe", 4) == 0 && strncmp(d, "sorn", 4) == 0);
    o.format = KIFU_DIAGRAM_SVG;
    char *svg = kifu_msf_diagram(n2b, &o, NULL);
    CHECK(svg && strncmp(svg, "<svg", 4) == 0 && strstr(svg, ">rez</text>"));
    kifu_free(d);
    kifu_free(f);
    kifu_free(svg);
    kifu_msf_free(m);
}

/* A record whose variations nest `depth` deep: each hangs on the node of the one
 * before, and its one move turns a vanguard of the side to move (pal, then din). The
 * deepest node in *last. */
static kifu_msf *nested(int depth, kifu_msf_node **last)
{
    kifu_msf *m = kifu_msf_new(NULL);
    kifu_msf_node *n = kifu_msf_root(m);
    kifu_msf_state s = *kifu_msf_node_state(n);
    for (int i = 0; i < depth && n; i++) {
        int soom = s.sast == KIFU_MSF_ARXE ? 5 : 1;
        kifu_msf_move mv = kor(0, soom);
        s = turned(s, 0, soom);
        kifu_msf_line *l = kifu_msf_add_variation(m, n);
        n = l ? kifu_msf_append(m, l, &mv, &s) : NULL;
    }
    *last = n;
    return m;
}

TEST(deep_variations_without_recursion)
{
    /* 100000 levels to check, find and free (recursion that deep would overflow the
     * stack) */
    kifu_msf_node *n;
    kifu_msf *m = nested(100000, &n);
    CHECK(n != NULL);
    CHECK_INT(kifu_msf_node_ply(n), 100000);
    CHECK_INT(kifu_msf_check(m, 0, NULL, NULL, NULL), 0);
    char path[64];
    CHECK(strlen(kifu_msf_node_path(n, path, sizeof path)) < sizeof path);
    CHECK(kifu_msf_find(m, "100000", NULL) == n);
    kifu_msf_free(m);
    /* written 20000 deep: the indentation stops growing, so the text stays linear */
    m = nested(20000, &n);
    size_t len;
    char *text = kifu_msf_write(m, &len, NULL);
    CHECK(text != NULL && len > (size_t)20000 * 500 && len < (size_t)20000 * 4000);
    kifu_free(text);
    char *states = kifu_msf_write_states(m, &len, NULL);
    CHECK(states != NULL && len > (size_t)20000 * 400);
    kifu_free(states);
    kifu_msf_free(m);
    /* as deep as JSON nesting lets jansson read: 300 levels, read back equal */
    m = nested(300, &n);
    text = kifu_msf_write(m, &len, NULL);
    kifu_error err = {0};
    kifu_msf *back = kifu_msf_read(text, len, NULL, &err);
    if (!back)
        printf("  %s\n", err.message);
    CHECK(back != NULL);
    char *again = back ? kifu_msf_write(back, NULL, NULL) : NULL;
    CHECK(again && strcmp(again, text) == 0);
    kifu_free(again);
    kifu_free(text);
    kifu_msf_free(back);
    kifu_msf_free(m);
}

/* The reader nests as deep as memory lets it: 5000 variation levels are 20000 levels of
 * JSON, ten times what jansson read (its limit stopped MSF at about 500). A problem at the
 * bottom is found at its line. */
TEST(deep_variations_read_back)
{
    kifu_msf_node *n;
    kifu_msf *m = nested(5000, &n);
    size_t len;
    char *text = kifu_msf_write(m, &len, NULL);
    kifu_error err = {0};
    kifu_msf *back = text ? kifu_msf_read(text, len, NULL, &err) : NULL;
    if (!back)
        printf("  %s\n", err.message);
    CHECK(back != NULL);
    kifu_msf_node *deepest = back ? kifu_msf_find(back, "5000", NULL) : NULL;
    CHECK(deepest != NULL && kifu_msf_node_ply(deepest) == 5000);
    char *again = back ? kifu_msf_write(back, NULL, NULL) : NULL;
    CHECK(again && strcmp(again, text) == 0);
    kifu_free(again);
    kifu_msf_free(back);
    /* the deepest move's "kor" made a type error: reported at its place (its path is
     * longer than a message holds: the found value tells it) */
    char *last = text ? strstr(text, "\"pit\": \"kor\"") : NULL;
    for (char *p = last; p && (p = strstr(p + 1, "\"pit\": \"kor\""));)
        last = p;
    CHECK(last != NULL);
    if (last) {
        memcpy(last + 7, "\"kox\"", 5);
        int line = 1;
        for (const char *p = text; p < last; p++)
            line += *p == '\n';
        kifu_error_clear(&err);
        CHECK(kifu_msf_read(text, len, NULL, &err) == NULL);
        CHECK_INT(err.code, KIFU_ERR_SCHEMA);
        CHECK_INT(err.line, line);
        CHECK_STR(err.found, "\"kox\"");
        CHECK(strncmp(err.offset + text, "\"kox\"", 5) == 0);
    }
    kifu_free(text);
    kifu_msf_free(m);
}

/* A check's problem 60 variation levels down, whose path is longer than a message
 * keeps whole, is placed at its value all the same (from its node's value). */
TEST(deep_problem_at_its_line)
{
    kifu_msf_node *n;
    kifu_msf *m = nested(60, &n);
    size_t len;
    char *text = kifu_msf_write(m, &len, NULL);
    char *sast = NULL;
    for (char *p = text; p && (p = strstr(p, "\"sast\": \"")); p++)
        sast = p;
    CHECK(sast != NULL);
    if (sast) {
        sast += 8; /* the value: the side to move, turned the wrong way */
        memcpy(sast, strncmp(sast, "\"arxe\"", 6) == 0 ? "\"sorn\"" : "\"arxe\"", 6);
        int line = 1, col = 1;
        for (const char *p = text; p < sast; p++, col++)
            if (*p == '\n')
                line++, col = 0;
        kifu_error err = {0};
        CHECK(kifu_msf_read(text, len, NULL, &err) == NULL);
        CHECK_INT(err.code, KIFU_ERR_ILLEGAL);
        CHECK_INT(err.line, line);
        CHECK_INT(err.column, col);
    }
    kifu_free(text);
    kifu_msf_free(m);
}

TEST(the_format_table_knows_msf_as_another_game)
{
    int f = kifu_format_from_path("game.msf");
    CHECK_INT(f, KIFU_FMT_MSF);
    CHECK_INT(kifu_format_info_of(f)->game, KIFU_GAME_XELTO);
    CHECK_INT(kifu_format_info_of(KIFU_FMT_KIF)->game, KIFU_GAME_SHOGI);
    const char doc[] = "{\n  \"aptex\": {},\n  \"kit\": {}\n}\n";
    CHECK_INT(kifu_format_detect(doc, strlen(doc)), KIFU_FMT_MSF);
    kifu_error err = {0};
    kifu_read_options ro = {.format = KIFU_FMT_AUTO};
    CHECK(kifu_read(doc, strlen(doc), &ro, &err) == NULL);
    CHECK_INT(err.code, KIFU_ERR_UNSUPPORTED);
    CHECK(strstr(err.message, "another game than shogi") != NULL);
    kifu_record *r = kifu_record_new();
    kifu_write_options wo = {.format = KIFU_FMT_MSF};
    kifu_error_clear(&err);
    CHECK(kifu_write(r, &wo, NULL, &err) == NULL);
    CHECK_INT(err.code, KIFU_ERR_ARG);
    kifu_record_free(r);
}

static char last_problem[512];
static void on_last(void *ctx, const kifu_error *e)
{
    (void)ctx;
    problems++;
    snprintf(last_problem, sizeof last_problem, "%s", e->message);
}

TEST(a_file_broken_everywhere_reports_200_problems_and_a_count)
{
    NEED_SHARED();
    /* 47 x 3 rows of 7 squares of numbers: 987 problems */
    json_t *doc = load(S);
    for (int i = 0; i < 47; i++)
        for (int r = 2; r < 5; r++) {
            char where[64];
            snprintf(where, sizeof where, "seslax[%d].slax.ele[%d]", i, r);
            at(doc, where, json_pack("[iiiiiii]", 1, 2, 3, 4, 5, 6, 7), 0);
        }
    char *text = json_dumps(doc, JSON_INDENT(1));
    kifu_msf_read_options o = {0, "t.msf", on_last, NULL};
    problems = 0;
    kifu_error err = {0};
    kifu_msf *m = kifu_msf_read(text, strlen(text), &o, &err);
    CHECK(m == NULL);
    CHECK_INT(problems, 201);
    CHECK_STR(last_problem, "787 more problems not shown (the first 200 are)");
    CHECK_STR(err.message,
              "seslax[0].slax.ele[2][0]: expected a piece name or null, found 1");
    free(text);
    json_decref(doc);
}

/* kifu_format_decide is the reading's own rule, asked once: the options' format, else
 * the extension, overridden by a first line only one format writes (MSF, SFEN) and chosen
 * by the content among the formats sharing it; kifu_read_all told the answer reads so. */
static int decide(const char *text, const char *source, int format)
{
    kifu_read_options o = {.format = format, .source = source};
    return kifu_format_decide(text, strlen(text), &o);
}

TEST(the_format_is_decided_once)
{
    const char msf[] = "\n  {\n  \"aptex\": {},\n  \"kit\": {}\n}\n";
    const char jkf[] = "{\"header\": {}, \"moves\": [{}]}";
    const char usi[] = "position startpos moves 7g7f\n";
    const char kif[] =
        "先手：A\n後手：B\n手数----指手---------消費時間--\n   1 ７六歩(77)\n";
    CHECK_INT(decide(msf, "game.msf", 0), KIFU_FMT_MSF);
    CHECK_INT(decide(msf, "valid.json", 0), KIFU_FMT_MSF); /* the validator's tests */
    CHECK_INT(decide(msf, "game.kif", 0), KIFU_FMT_MSF);   /* a first line wins */
    CHECK_INT(decide(msf, NULL, 0), KIFU_FMT_MSF);
    CHECK_INT(decide(msf, "game.kif", KIFU_FMT_JKF), KIFU_FMT_JKF); /* as told */
    CHECK_INT(decide(jkf, "game.json", 0), KIFU_FMT_JKF);
    CHECK_INT(decide(usi, "game.kif", 0), KIFU_FMT_SFEN);
    CHECK_INT(decide(kif, "game.kif", 0), KIFU_FMT_KIF);
    CHECK_INT(decide(kif, "game", 0), kifu_format_detect(kif, strlen(kif)));
    CHECK_INT(decide("", "game", 0), KIFU_FMT_AUTO);
    /* a SFEN list from its first line (after a BOM) is one in a .kif, its first two
     * positions deciding sfenlist (past a comment between them); the reading agrees */
    const char list[] =
        "\xEF\xBB\xBF"
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n"
        "# the first move\n"
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2\n"
        "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3\n";
    CHECK_INT(decide(list, "list.kif", 0), KIFU_FMT_SFENLIST);
    kifu_read_options lo = {.source = "list.kif"};
    kifu_error lerr = {0};
    kifu_record *lr = kifu_read(list, strlen(list), &lo, &lerr);
    size_t moves = 0;
    for (const kifu_node *nd = lr ? kifu_node_next(kifu_record_root(lr)) : NULL; nd;
         nd = kifu_node_next(nd))
        moves++;
    CHECK(lr != NULL);
    CHECK_INT(moves, 2);
    kifu_record_free(lr);
    /* a line before it: the extension's */
    CHECK_INT(decide(list + 3 + 66, "list.kif", 0), KIFU_FMT_KIF);
    /* the reading decides the same: MSF in a .json is refused as another game's */
    kifu_read_options o = {.source = "valid.json"};
    kifu_error err = {0};
    CHECK(kifu_read(msf, strlen(msf), &o, &err) == NULL);
    CHECK_INT(err.code, KIFU_ERR_UNSUPPORTED);
    CHECK(strstr(err.message, "another game than shogi") != NULL);
    o.format = decide(jkf, "game.json", 0);
    kifu_error_clear(&err);
    kifu_record *r = kifu_read(jkf, strlen(jkf), &o, &err);
    if (!r)
        printf("  %s\n", err.message);
    CHECK(r != NULL);
    kifu_record_free(r);
}

TEST(values_out_of_range_are_refused)
{
    kifu_msf_state st;
    kifu_msf_state_start(&st);
    kifu_msf_state bad = st;
    bad.ele[0][0] = 30;
    CHECK(kifu_msf_new(&bad) == NULL);
    bad = st;
    bad.ntxifol[0] = 15;
    CHECK(kifu_msf_new(&bad) == NULL);
    kifu_msf *m = kifu_msf_new(&st);
    kifu_msf_move mv = kor(7, 0);
    CHECK(kifu_msf_append(m, kifu_msf_main_line(m), &mv, &st) == NULL);
    mv.pit = 6;
    mv.ka.alsia = 0;
    CHECK(kifu_msf_append(m, kifu_msf_main_line(m), &mv, &st) == NULL);
    kifu_msf_move ev = {0};
    ev.pit = KIFU_MSF_EV;
    ev.evol = KIFU_MSF_TEM;
    CHECK(kifu_msf_append(m, kifu_msf_main_line(m), &ev, &st) == NULL);
    CHECK_INT(kifu_msf_line_count(kifu_msf_main_line(m)), 0);
    kifu_msf_free(m);
}

TEST(out_of_memory_is_an_error)
{
    NEED_SHARED();
    char buf[512];
    size_t len;
    char *text = t_read_file(t_shared(S, buf, sizeof buf), &len);
    CHECK(text != NULL);
    int done = 0;
    for (long n = 1; text && n < 4000 && !done; n += n < 200 ? 1 : 37) {
        kifu_error err = {0};
        kifu__alloc_fail_after(n);
        kifu_msf *m = kifu_msf_read(text, len, NULL, &err);
        char *out = m ? kifu_msf_write(m, NULL, &err) : NULL;
        kifu__alloc_fail_after(0);
        if (!m || !out)
            CHECK_INT(err.code, KIFU_ERR_NOMEM);
        done = out != NULL;
        kifu_free(out);
        kifu_msf_free(m);
    }
    CHECK(done);
    free(text);
}

int main(void)
{
    RUN(valid_files_pass_and_round_trip);
    RUN(invalid_files_name_the_duplicate);
    RUN(schema_rules);
    RUN(state_rules);
    RUN(transition_rules);
    RUN(tem_moves_of_the_examples_pass);
    RUN(syntax_errors_have_line_and_column);
    RUN(sed_through_the_api);
    RUN(build_edit_and_paths);
    RUN(deep_variations_without_recursion);
    RUN(deep_variations_read_back);
    RUN(deep_problem_at_its_line);
    RUN(the_format_table_knows_msf_as_another_game);
    RUN(the_format_is_decided_once);
    RUN(a_file_broken_everywhere_reports_200_problems_and_a_count);
    RUN(values_out_of_range_are_refused);
    RUN(out_of_memory_is_an_error);
    return t_finish();
}
