/* test_jkf.c: the JKF reader and writer on records typed in here: schema checks with JSON
 * paths, syntax errors with line and column, presets, specials, forks, optional fields,
 * string escaping, exact output text, long games. Read without normalizing (no engine). */
#include <stdlib.h>

#include "harness.h"
#include "jsoncmp.h"
#include "kifu.h"
#include "kifu_private.h"
#include "node_time.h"
#include "testutil.h"

static kifu_record *rd(const char *json, kifu_error *err)
{
    kifu_read_options o = {KIFU_FMT_JKF, KIFU_ENC_AUTO, KIFU_READ_NO_NORMALIZE,
                           "t.jkf",      NULL,          NULL};
    kifu_error_clear(err);
    return kifu_read(json, strlen(json), &o, err);
}

static char *wr(const kifu_record *r, unsigned flags)
{
    kifu_write_options o = {KIFU_FMT_JKF, KIFU_ENC_UTF8, flags, NULL, NULL};
    kifu_error err = {0};
    return kifu_write(r, &o, NULL, &err);
}

/* Reads json, writes it compact and pretty, and checks both equal the input as JSON. */
static void roundtrip(const char *json)
{
    kifu_error err;
    kifu_record *r = rd(json, &err);
    CHECK(r != NULL);
    if (!r) {
        printf("    read failed: %s\n", err.message);
        return;
    }
    for (unsigned f = 0; f < 2; f++) {
        char *out = wr(r, f);
        CHECK(out != NULL);
        char where[600];
        int eq =
            out ? jsoncmp_text(json, strlen(json), out, strlen(out), where, sizeof where)
                : 0;
        CHECK_INT(eq, 1);
        if (eq != 1)
            printf("    %s\n    out: %s\n", where, out ? out : "(null)");
        kifu_free(out);
    }
    kifu_record_free(r);
}

/* Expects a schema error whose message names `path`. */
static void schema_error(const char *json, const char *path, int code)
{
    kifu_error err;
    kifu_record *r = rd(json, &err);
    CHECK(r == NULL);
    kifu_record_free(r);
    CHECK_INT(err.code, code);
    if (!strstr(err.message, path)) {
        t_failed_checks++;
        printf("    message \"%s\" does not name %s\n", err.message, path);
    }
    CHECK(err.expected[0] != 0);
    CHECK(err.found[0] != 0);
    CHECK_STR(err.source, "t.jkf");
}

#define MOVE76                                                                           \
    "{\"move\":{\"color\":0,\"from\":{\"x\":7,\"y\":7},\"to\":{\"x\":7,\"y\":6},"        \
    "\"piece\":\"FU\"}}"
#define MOVE34                                                                           \
    "{\"move\":{\"color\":1,\"from\":{\"x\":3,\"y\":3},\"to\":{\"x\":3,\"y\":4},"        \
    "\"piece\":\"FU\"}}"
#define MOVE26                                                                           \
    "{\"move\":{\"color\":0,\"from\":{\"x\":2,\"y\":7},\"to\":{\"x\":2,\"y\":6},"        \
    "\"piece\":\"FU\"}}"

TEST(syntax_error_has_line_and_column)
{
    kifu_error err;
    kifu_record *r = rd("{\"header\": {},\n  \"moves\": [{}, ]\n}", &err);
    CHECK(r == NULL);
    CHECK_INT(err.code, KIFU_ERR_SYNTAX);
    CHECK_INT(err.line, 2);
    CHECK(err.column > 10 && err.column <= 18);
    CHECK(strstr(err.message, "JSON") != NULL);
    char buf[600];
    kifu_error_format(&err, buf, sizeof buf);
    CHECK(strncmp(buf, "t.jkf:2:", 8) == 0);
    /* A repeated key is reported, not silently dropped. */
    r = rd("{\"header\": {\"先手\": \"a\",\n\"先手\": \"b\"}, \"moves\": [{}]}", &err);
    CHECK(r == NULL);
    CHECK_INT(err.code, KIFU_ERR_SYNTAX);
    CHECK_INT(err.line, 2);
    CHECK(strstr(err.message, "duplicate") != NULL);
    /* Truncated input. */
    r = rd("{\"header\": {}, \"moves\": [{}", &err);
    CHECK(r == NULL);
    CHECK_INT(err.code, KIFU_ERR_SYNTAX);
    CHECK_INT(err.line, 1);
}

TEST(schema_errors_name_the_path)
{
    schema_error(
        "{\"header\":{},\"moves\":[{}," MOVE76 "," MOVE34 ","
        "{\"move\":{\"color\":0,\"from\":{\"x\":2,\"y\":7},\"to\":{\"x\":\"2\",\"y\":6},"
        "\"piece\":\"FU\"}}]}",
        "moves[3].move.to.x", KIFU_ERR_SCHEMA);
    schema_error("{\"header\":{\"先手\":3},\"moves\":[{}]}", "header.先手",
                 KIFU_ERR_SCHEMA);
    schema_error("{\"header\":{},\"moves\":[{}," MOVE76 "],\"extra\":1}", "extra",
                 KIFU_ERR_SCHEMA);
    schema_error("{\"moves\":[{}]}", "header", KIFU_ERR_SCHEMA);
    schema_error(
        "{\"header\":{},\"moves\":[{},{\"move\":{\"color\":2,\"to\":{\"x\":1,\"y\":1},"
        "\"piece\":\"FU\"}}]}",
        "moves[1].move.color", KIFU_ERR_SCHEMA);
    schema_error(
        "{\"header\":{},\"moves\":[{},{\"move\":{\"color\":0,\"to\":{\"x\":10,\"y\":1},"
        "\"piece\":\"FU\"}}]}",
        "moves[1].move.to.x", KIFU_ERR_SCHEMA);
    schema_error(
        "{\"header\":{},\"moves\":[{},{\"move\":{\"color\":0,\"to\":{\"x\":1,\"y\":1},"
        "\"piece\":\"XX\"}}]}",
        "moves[1].move.piece", KIFU_ERR_SCHEMA);
    schema_error(
        "{\"header\":{},\"moves\":[{},{\"move\":{\"color\":0,\"to\":{\"x\":1,\"y\":1},"
        "\"from\":{\"x\":1,\"y\":2},\"piece\":\"FU\",\"capture\":\"OU\"}}]}",
        "moves[1].move.capture", KIFU_ERR_SCHEMA);
    schema_error(
        "{\"header\":{},\"moves\":[{},{\"move\":{\"color\":0,\"to\":{\"x\":1,\"y\":1},"
        "\"from\":{\"x\":1,\"y\":2},\"piece\":\"FU\",\"relative\":\"UL\"}}]}",
        "moves[1].move.relative", KIFU_ERR_SCHEMA);
    schema_error(
        "{\"header\":{},\"moves\":[{},{\"move\":{\"color\":0,\"to\":{\"x\":1,\"y\":1},"
        "\"from\":{\"x\":1,\"y\":2},\"piece\":\"FU\",\"promote\":1}}]}",
        "moves[1].move.promote", KIFU_ERR_SCHEMA);
    schema_error("{\"header\":{},\"moves\":[{\"move\":{}}]}", "moves[0].move",
                 KIFU_ERR_SCHEMA);
    schema_error("{\"header\":{},\"moves\":[{}," MOVE76 ",{\"comments\":[\"x\"]}]}",
                 "moves[2]", KIFU_ERR_SCHEMA);
    schema_error("{\"header\":{},\"moves\":[{}," MOVE76 ",{\"special\":7}]}",
                 "moves[2].special", KIFU_ERR_SCHEMA);
    schema_error("{\"header\":{},\"moves\":[{}," MOVE76 ",{\"comments\":[1],\"move\":{"
                 "\"color\":1,\"from\":{\"x\":3,\"y\":3},\"to\":{\"x\":3,\"y\":4},"
                 "\"piece\":\"FU\"}}]}",
                 "moves[2].comments[0]", KIFU_ERR_SCHEMA);
    schema_error(
        "{\"header\":{},\"moves\":[{},{\"move\":{\"color\":0,\"from\":{\"x\":7,\"y\":7},"
        "\"to\":{\"x\":7,\"y\":6},\"piece\":\"FU\"},\"time\":{\"now\":{\"m\":\"1\",\"s\":"
        "0},"
        "\"total\":{\"h\":0,\"m\":0,\"s\":1}}}]}",
        "moves[1].time.now.m", KIFU_ERR_SCHEMA);
    schema_error(
        "{\"header\":{},\"moves\":[{}," MOVE76 ",{\"special\":\"TORYO\",\"forks\":["
        "[" MOVE34 ",{\"move\":{\"color\":0,\"to\":{\"y\":5},\"piece\":\"FU\"}}]]}]}",
        "moves[2].forks[0][1].move.to.x", KIFU_ERR_SCHEMA);
    schema_error("{\"header\":{},\"initial\":{\"preset\":\"NOPE\"},\"moves\":[{}]}",
                 "initial.preset", KIFU_ERR_SCHEMA);
    schema_error("{\"header\":{},\"initial\":{\"preset\":\"OTHER\"},\"moves\":[{}]}",
                 "initial.data", KIFU_ERR_SCHEMA);
    schema_error("{\"header\":{},\"initial\":{\"preset\":\"OTHER\",\"data\":{\"color\":0,"
                 "\"board\":[[]],\"hands\":[{},{}]}},\"moves\":[{}]}",
                 "initial.data.board", KIFU_ERR_SCHEMA);
    schema_error("{\"header\":{},\"initial\":{\"preset\":\"OTHER\",\"data\":{\"color\":0,"
                 "\"board\":{},\"hands\":[{\"FU\":1},{\"UM\":1}]}},\"moves\":[{}]}",
                 "initial.data.hands[1].UM", KIFU_ERR_SCHEMA);
    schema_error("[1,2]", "top level", KIFU_ERR_SCHEMA);
}

TEST(all_presets_roundtrip)
{
    for (int p = 0; p < KIFU_PRESET_OTHER; p++) {
        char json[200];
        snprintf(json, sizeof json,
                 "{\"header\":{},\"initial\":{\"preset\":\"%s\"},\"moves\":[{}]}",
                 kifu_preset_name(p));
        kifu_error err;
        kifu_record *r = rd(json, &err);
        CHECK(r != NULL);
        if (r)
            CHECK_INT(kifu_record_preset(r), p);
        kifu_record_free(r);
        roundtrip(json);
    }
    /* No initial at all stays absent. */
    roundtrip("{\"header\":{},\"moves\":[{}]}");
}

TEST(other_preset_with_board_and_hands)
{
    /* A tsume-like position: gote king on 5一, sente gold on 5三, sente hand KI 1, FU 2. */
    char json[4096];
    size_t n =
        (size_t)snprintf(json, sizeof json,
                         "{\"header\":{},\"initial\":{\"preset\":\"OTHER\",\"data\":{"
                         "\"color\":0,\"board\":[");
    for (int x = 1; x <= 9; x++) {
        n += (size_t)snprintf(json + n, sizeof json - n, "%s[", x > 1 ? "," : "");
        for (int y = 1; y <= 9; y++) {
            const char *sq = "{}";
            if (x == 5 && y == 1)
                sq = "{\"color\":1,\"kind\":\"OU\"}";
            if (x == 5 && y == 3)
                sq = "{\"color\":0,\"kind\":\"KI\"}";
            if (x == 1 && y == 9)
                sq = "{\"color\":0,\"kind\":\"OU\"}";
            n +=
                (size_t)snprintf(json + n, sizeof json - n, "%s%s", y > 1 ? "," : "", sq);
        }
        n += (size_t)snprintf(json + n, sizeof json - n, "]");
    }
    snprintf(
        json + n, sizeof json - n,
        "],\"hands\":[{\"FU\":2,\"KY\":0,\"KE\":0,\"GI\":0,\"KI\":1,\"KA\":0,\"HI\":0},"
        "{\"FU\":0,\"KY\":0,\"KE\":0,\"GI\":0,\"KI\":0,\"KA\":0,\"HI\":0}]}},"
        "\"moves\":[{\"comments\":[\"詰将棋\"]}]}");
    kifu_error err;
    kifu_record *r = rd(json, &err);
    CHECK(r != NULL);
    if (!r)
        return;
    kifu_board b;
    kifu_record_initial(r, &b);
    CHECK_INT(kifu_record_preset(r), KIFU_PRESET_OTHER);
    CHECK_INT(b.sq[KIFU_SQ(5, 1)], KIFU_OU | 16);
    CHECK_INT(b.sq[KIFU_SQ(5, 3)], KIFU_KI);
    CHECK_INT(b.hands[0][KIFU_FU], 2);
    CHECK_INT(b.hands[0][KIFU_KI], 1);
    CHECK_STR(kifu_node_comment(kifu_record_root(r), 0), "詰将棋");
    kifu_record_free(r);
    roundtrip(json);
}

TEST(specials_kept_verbatim)
{
    static const char *const words[] = {
        "TORYO",        "CHUDAN",          "SENNICHITE",      "TIME_UP",
        "ILLEGAL_MOVE", "+ILLEGAL_ACTION", "-ILLEGAL_ACTION", "JISHOGI",
        "KACHI",        "HIKIWAKE",        "MATTA",           "TSUMI",
        "FUZUMI",       "ERROR",           "MAX_MOVES",       "SOMETHING_NEW",
    };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        char json[300];
        snprintf(json, sizeof json,
                 "{\"header\":{},\"moves\":[{}," MOVE76 ",{\"special\":\"%s\"}]}",
                 words[i]);
        kifu_error err;
        kifu_record *r = rd(json, &err);
        CHECK(r != NULL);
        if (!r)
            continue;
        kifu_node *n = kifu_node_next(kifu_node_next(kifu_record_root(r)));
        CHECK(n != NULL);
        if (n) {
            CHECK_INT(kifu_node_kind_of(n), KIFU_NODE_SPECIAL);
            CHECK_STR(kifu_node_special(n), words[i]);
            CHECK_INT(kifu_node_ply(n), 2);
        }
        kifu_record_free(r);
        roundtrip(json);
    }
}

TEST(forks_become_siblings)
{
    /* 1.76歩 (forks: 1.26歩 2.34歩; 1.56歩) 2.34歩 (fork: 2.84歩 TORYO) */
    const char *j2 =
        "{\"header\":{},\"moves\":[{},{\"move\":{\"color\":0,\"from\":{\"x\":7,\"y\":7},"
        "\"to\":{\"x\":7,\"y\":6},\"piece\":\"FU\"},\"forks\":[[" MOVE26 "," MOVE34 "],"
        "[{\"move\":{\"color\":0,\"from\":{\"x\":5,\"y\":7},\"to\":{\"x\":5,\"y\":6},"
        "\"piece\":\"FU\"}}]]},{\"move\":{\"color\":1,\"from\":{\"x\":3,\"y\":3},"
        "\"to\":{\"x\":3,\"y\":4},\"piece\":\"FU\"},\"forks\":[[{\"move\":{\"color\":1,"
        "\"from\":{\"x\":8,\"y\":3},\"to\":{\"x\":8,\"y\":4},\"piece\":\"FU\"}},"
        "{\"special\":\"TORYO\"}]]}]}";
    kifu_error err;
    kifu_record *r = rd(j2, &err);
    CHECK(r != NULL);
    if (!r) {
        printf("    %s\n", err.message);
        return;
    }
    kifu_node *root = kifu_record_root(r);
    CHECK_INT(kifu_node_child_count(root), 3); /* 76歩, 26歩, 56歩 */
    const kifu_move *m = t_move(kifu_node_child(root, 1));
    CHECK(m && m->from_x == 2 && m->to_y == 6);
    m = t_move(kifu_node_child(root, 2));
    CHECK(m && m->from_x == 5);
    kifu_node *n1 = kifu_node_child(root, 0);
    CHECK_INT(kifu_node_child_count(n1), 2); /* 34歩, 84歩 */
    kifu_node *f = kifu_node_child(n1, 1);
    CHECK_INT(kifu_node_ply(f), 2);
    CHECK_INT(kifu_node_kind_of(kifu_node_next(f)), KIFU_NODE_SPECIAL);
    CHECK_INT(kifu_node_ply(kifu_node_next(kifu_node_child(root, 1))), 2);
    kifu_record_free(r);
    roundtrip(j2);
}

TEST(optional_fields_keep_presence)
{
    const char *json =
        "{\"header\":{\"先手\":\"a\",\"後手\":\"b\",\"手合割\":\"平手　　\"},\"moves\":[{"
        "},"
        "{\"move\":{\"color\":0,\"from\":{\"x\":2,\"y\":4},\"to\":{\"x\":2,\"y\":3},"
        "\"piece\":\"FU\","
        "\"promote\":false,\"relative\":\"C\"}},"
        "{\"move\":{\"color\":1,\"from\":{\"x\":3,\"y\":2},\"to\":{\"x\":2,\"y\":3},"
        "\"piece\":\"GI\","
        "\"same\":true,\"capture\":\"FU\",\"promote\":true}},"
        "{\"move\":{\"color\":0,\"to\":{\"x\":5,\"y\":5},\"piece\":\"KA\",\"relative\":"
        "\"H\"},"
        "\"time\":{\"now\":{\"m\":1,\"s\":2},\"total\":{\"h\":0,\"m\":3,\"s\":4}}},"
        "{\"move\":{\"color\":1,\"from\":null,\"to\":{\"x\":5,\"y\":4},\"piece\":\"FU\"},"
        "\"time\":{\"now\":{\"h\":1,\"m\":0,\"s\":0},\"total\":{\"h\":1,\"m\":0,\"s\":0}}"
        "}]}";
    kifu_error err;
    kifu_record *r = rd(json, &err);
    CHECK(r != NULL);
    if (!r) {
        printf("    %s\n", err.message);
        return;
    }
    kifu_node *n = kifu_node_next(kifu_record_root(r));
    const kifu_move *m = t_move(n);
    CHECK_INT(m->promote, 0);
    CHECK_INT(m->same, -1);
    CHECK_STR(m->relative, "C");
    m = t_move(n = kifu_node_next(n));
    CHECK_INT(m->promote, 1);
    CHECK_INT(m->same, 1);
    CHECK_INT(m->capture, KIFU_FU);
    m = t_move(n = kifu_node_next(n));
    CHECK_INT(m->promote, -1);
    CHECK(m->flags & KIFU_MOVE_DROP);
    const kifu_move_time *t = t_time(n);
    CHECK(t != NULL);
    if (t) {
        CHECK_INT(t->now.h, -1);
        CHECK_INT(t->now.m, 1);
        CHECK_INT(t->total.h, 0);
        CHECK_INT(t->total.s, 4);
        CHECK_INT(t->has_total, 1);
    }
    const char *k, *v;
    kifu_record_header_at(r, 2, &k, &v);
    CHECK_STR(k, "手合割");
    CHECK_STR(v, "平手　　");
    kifu_record_free(r);
    roundtrip(json);
}

TEST(schema_comment_on_the_start)
{
    kifu_error err;
    kifu_record *r = rd(
        "{\"header\":{},\"moves\":[{\"comment\":\"one\",\"comments\":[\"two\"]}]}", &err);
    CHECK(r != NULL);
    if (r) {
        CHECK_INT(kifu_node_comment_count(kifu_record_root(r)), 2);
        CHECK_STR(kifu_node_comment(kifu_record_root(r), 0), "one");
        CHECK_STR(kifu_node_comment(kifu_record_root(r), 1), "two");
    }
    kifu_record_free(r);
    schema_error("{\"header\":{},\"moves\":[{\"comment\":1}]}", "moves[0].comment",
                 KIFU_ERR_SCHEMA);
}

TEST(exact_compact_and_pretty_text)
{
    const char *json =
        "{\"moves\":[{\"comments\":[\"c\"]},{\"move\":{\"piece\":\"FU\",\"to\":{\"y\":6,"
        "\"x\":7},"
        "\"from\":{\"x\":7,\"y\":7},\"color\":0},\"time\":{\"total\":{\"h\":0,\"m\":0,"
        "\"s\":1},"
        "\"now\":{\"m\":0,\"s\":1}}},{\"special\":\"TORYO\"}],\"header\":{\"k\":\"v\"}}";
    kifu_error err;
    kifu_record *r = rd(json, &err);
    CHECK(r != NULL);
    if (!r)
        return;
    char *c = wr(r, 0);
    CHECK_STR(c,
              "{\"header\":{\"k\":\"v\"},\"moves\":[{\"comments\":[\"c\"]},{\"move\":"
              "{\"color\":0,\"from\":{\"x\":7,\"y\":7},\"to\":{\"x\":7,\"y\":6},"
              "\"piece\":\"FU\"},\"time\":{\"now\":{\"m\":0,\"s\":1},\"total\":{\"h\":0,"
              "\"m\":0,\"s\":1}}},{\"special\":\"TORYO\"}]}");
    kifu_free(c);
    kifu_record_free(r);
    r = rd("{\"header\":{},\"moves\":[{},{\"special\":\"CHUDAN\"}]}", &err);
    CHECK(r != NULL);
    if (!r)
        return;
    c = wr(r, KIFU_WRITE_PRETTY);
    CHECK_STR(c,
              "{\n  \"header\": {},\n  \"moves\": [\n    {},\n    {\n      \"special\": "
              "\"CHUDAN\"\n    }\n  ]\n}\n");
    kifu_free(c);
    kifu_record_free(r);
}

TEST(strings_escaped_utf8_kept)
{
    kifu_record *r = kifu_record_new();
    kifu_record_header_add(r, "棋戦", "名人戦 \"第1局\"\\\n\t\x01");
    kifu_node_add_comment(r, kifu_record_root(r), "☗７六歩 </script>");
    char *c = wr(r, 0);
    CHECK_STR(c, "{\"header\":{\"棋戦\":\"名人戦 \\\"第1局\\\"\\\\\\n\\t\\u0001\"},"
                 "\"moves\":[{\"comments\":[\"☗７六歩 </script>\"]}]}");
    kifu_error err;
    kifu_record *r2 = c ? rd(c, &err) : NULL;
    CHECK(r2 != NULL);
    if (r2)
        CHECK_STR(kifu_record_header_get(r2, "棋戦"), "名人戦 \"第1局\"\\\n\t\x01");
    kifu_record_free(r2);
    kifu_free(c);
    kifu_record_free(r);
}

TEST(bookmarks_written_as_comments)
{
    kifu_record *r = kifu_record_new();
    kifu_node_add_comment(r, kifu_record_root(r), "start");
    kifu_node_add_bookmark(r, kifu_record_root(r), "読み込み時表示");
    char *c = wr(r, 0);
    CHECK_STR(
        c, "{\"header\":{},\"moves\":[{\"comments\":[\"start\",\"&読み込み時表示\"]}]}");
    kifu_free(c);
    kifu_record_free(r);
}

TEST(long_game_no_recursion)
{
    /* 200000 moves shuffling a rook: only the reader's and writer's loops are tested. */
    enum { N = 200000 };
    size_t cap = (size_t)N * 100 + 100, n = 0;
    char *json = malloc(cap);
    CHECK(json != NULL);
    if (!json)
        return;
    n += (size_t)snprintf(json, cap, "{\"header\":{},\"moves\":[{}");
    for (int i = 0; i < N; i++) {
        int color = i & 1, y = (i / 2) & 1;
        n += (size_t)snprintf(json + n, cap - n,
                              ",{\"move\":{\"color\":%d,\"from\":{\"x\":%d,\"y\":%d},"
                              "\"to\":{\"x\":%d,\"y\":%d},\"piece\":\"HI\"}}",
                              color, color ? 8 : 2, color ? 2 + y : 8 - y, color ? 8 : 2,
                              color ? 3 - y : 7 + y);
    }
    snprintf(json + n, cap - n, "]}");
    kifu_error err;
    kifu_record *r = rd(json, &err);
    CHECK(r != NULL);
    if (r) {
        CHECK_INT(kifu_record_node_count(r), N + 1);
        char *out = wr(r, KIFU_WRITE_PRETTY);
        CHECK(out != NULL);
        char where[600];
        CHECK_INT(jsoncmp_text(json, strlen(json), out, strlen(out), where, sizeof where),
                  1);
        kifu_free(out);
    }
    kifu_record_free(r);
    free(json);
}

/* Forks nested `depth` deep: every level's second child starts the next level. */
static kifu_record *nested_forks(int depth)
{
    kifu_record *r = kifu_record_new();
    kifu_node *p = kifu_record_root(r);
    kifu_move a = {0}, b = {0};
    a.from_x = 7, a.from_y = 7, a.to_x = 7, a.to_y = 6, a.piece = KIFU_FU;
    b.from_x = 2, b.from_y = 7, b.to_x = 2, b.to_y = 6, b.piece = KIFU_FU;
    a.promote = b.promote = a.same = b.same = -1;
    for (int i = 0; i < depth && p; i++) {
        a.color = b.color = (uint8_t)(i & 1);
        kifu_node_add_move(r, p, &a);
        p = kifu_node_add_move(r, p, &b);
    }
    return r;
}

TEST(nested_forks_no_recursion)
{
    /* 100000 levels (far past a JSON library's usual depth limit): written without
     * deep C recursion, read back the same (the second text equals the first). */
    kifu_record *r = nested_forks(100000);
    char *out = wr(r, 0);
    CHECK(out != NULL);
    if (out) {
        long depth = 0, max = 0;
        for (const char *c = out; *c; c++) {
            depth += (*c == '[' || *c == '{') - (*c == ']' || *c == '}');
            max = depth > max ? depth : max;
        }
        CHECK_INT(depth, 0);
        CHECK(max > 300000);
    }
    kifu_error err;
    kifu_record *back = out ? rd(out, &err) : NULL;
    CHECK(back != NULL);
    if (!back)
        printf("    %s\n", err.message);
    if (back) {
        CHECK_INT(kifu_record_node_count(back), 200001);
        char *again = wr(back, 0);
        CHECK(again != NULL && strcmp(again, out) == 0);
        kifu_free(again);
    }
    kifu_record_free(back);
    kifu_free(out);
    kifu_record_free(r);
}

TEST(members_in_any_order)
{
    /* Forks, comments and time before the move, keys of a move shuffled: the same record
     * as the usual order. */
    const char *usual =
        "{\"header\":{\"先手\":\"a\"},\"moves\":[{\"comments\":[\"s\"]},"
        "{\"comments\":[\"c1\",\"c2\"],\"move\":{\"color\":0,\"from\":{\"x\":7,"
        "\"y\":7},\"to\":{\"x\":7,\"y\":6},\"piece\":\"FU\"},\"time\":{\"now\":{"
        "\"m\":0,\"s\":3},\"total\":{\"h\":0,\"m\":0,\"s\":3}},\"forks\":[[" MOVE26
        "]]}," MOVE34 "]}";
    const char *shuffled =
        "{\"moves\":[{\"comments\":[\"s\"]},"
        "{\"forks\":[[" MOVE26 "]],\"time\":{\"total\":{\"s\":3,\"h\":0,\"m\":0},"
        "\"now\":{\"s\":3,\"m\":0}},\"comments\":[\"c1\",\"c2\"],\"move\":{"
        "\"piece\":\"FU\",\"to\":{\"y\":6,\"x\":7},\"from\":{\"y\":7,\"x\":7},"
        "\"color\":0}}," MOVE34 "],\"header\":{\"先手\":\"a\"}}";
    kifu_error err;
    kifu_record *a = rd(usual, &err), *b = rd(shuffled, &err);
    CHECK(a != NULL && b != NULL);
    if (a && b) {
        char *ta = wr(a, 0), *tb = wr(b, 0);
        CHECK(ta && tb && strcmp(ta, tb) == 0);
        if (ta && tb && strcmp(ta, tb))
            printf("    %s\n    %s\n", ta, tb);
        kifu_free(ta);
        kifu_free(tb);
        /* The fork is child 1, the move child 0. */
        kifu_node *m = kifu_node_child(kifu_record_root(b), 0);
        CHECK_INT(kifu_node_child_count(kifu_record_root(b)), 2);
        CHECK_INT(t_move(m)->to_x, 7);
        CHECK_INT(kifu_node_comment_count(m), 2);
    }
    kifu_record_free(a);
    kifu_record_free(b);
    roundtrip(usual);
}

/* Issue 9: json-kifu-format writes an entry with only a time when it drops an ending it
 * does not know; the schema allows it. It is read (skipped, with a warning). */
static void count_warning(void *ctx, const char *msg)
{
    (void)msg;
    (*(int *)ctx)++;
}

TEST(entry_with_only_time_is_read)
{
    const char *json = "{\"header\":{},\"moves\":[{}," MOVE76 ",{\"time\":{\"now\":{"
                       "\"m\":0,\"s\":5},\"total\":{\"h\":0,\"m\":0,\"s\":5}}}]}";
    int warnings = 0;
    kifu_read_options o = {KIFU_FMT_JKF, KIFU_ENC_AUTO, 0,
                           "t.jkf",      count_warning, &warnings};
    kifu_error err;
    kifu_error_clear(&err);
    kifu_record *r = kifu_read(json, strlen(json), &o, &err);
    CHECK(r != NULL);
    if (!r)
        printf("    %s\n", err.message);
    CHECK_INT(warnings, 1);
    if (r)
        CHECK_INT(kifu_record_node_count(r), 2); /* the root and 7g7f */
    kifu_record_free(r);
    /* An entry with nothing, or comments only, is still refused. */
    schema_error("{\"header\":{},\"moves\":[{}," MOVE76 ",{}]}", "moves[2]",
                 KIFU_ERR_SCHEMA);
}

TEST(schema_errors_have_line_and_column)
{
    kifu_error err;
    kifu_record *r = rd("{\"header\": {},\n\"moves\": [{},\n  {\"move\": {\"color\": 0,"
                        " \"to\": {\"x\": 10, \"y\": 1}, \"piece\": \"FU\"}}]}",
                        &err);
    CHECK(r == NULL);
    CHECK_INT(err.code, KIFU_ERR_SCHEMA);
    CHECK_INT(err.line, 3);
    CHECK_INT(err.column, 37); /* the 10 */
    CHECK_STR(err.found, "10");
    /* A repeated key inside a move. */
    r = rd("{\"header\":{},\"moves\":[{},{\"move\":{\"color\":0,\"color\":1}}]}", &err);
    CHECK(r == NULL);
    CHECK_INT(err.code, KIFU_ERR_SYNTAX);
    CHECK(strstr(err.message, "duplicate") != NULL);
    CHECK_INT(err.column, 45);
    /* Bad escapes and a NUL are syntax errors at their place. */
    r = rd("{\"header\":{\"a\":\"x\\u0000\"},\"moves\":[{}]}", &err);
    CHECK(r == NULL);
    CHECK_INT(err.code, KIFU_ERR_SYNTAX);
    CHECK_INT(err.column, 18);
    r = rd("{\"header\":{\"a\":\"\\ud800\"},\"moves\":[{}]}", &err);
    CHECK(r == NULL);
    CHECK_INT(err.code, KIFU_ERR_SYNTAX);
    r = rd("{\"header\":{},\"moves\":[{}]} x", &err);
    CHECK(r == NULL);
    CHECK_INT(err.code, KIFU_ERR_SYNTAX);
    CHECK_INT(err.column, 28);
}

TEST(out_of_memory_fails_cleanly)
{
    const char *json =
        "{\"header\":{\"a\":\"b\"},\"moves\":[{\"comments\":[\"x\"]}," MOVE76 "," MOVE34
        ",{\"special\":\"TORYO\"}]}";
    for (long n = 1; n < 60; n++) {
        kifu_error err;
        kifu__alloc_fail_after(n);
        kifu_record *r = rd(json, &err);
        char *out = r ? wr(r, KIFU_WRITE_PRETTY) : NULL;
        kifu__alloc_fail_after(0);
        if (!r)
            CHECK_INT(err.code, KIFU_ERR_NOMEM);
        kifu_free(out);
        kifu_record_free(r);
    }
}

TEST(repeated_header_keys_are_joined)
{
    /* JSON objects cannot repeat a key; the writer joins the values instead of writing
     * output its own reader refuses. */
    kifu_record *r = kifu_record_new();
    kifu_record_header_add(r, "先手", "a");
    kifu_record_header_add(r, "後手", "b");
    kifu_record_header_add(r, "先手", "c");
    char *out = wr(r, 0);
    CHECK_STR(out, "{\"header\":{\"先手\":\"a\\nc\",\"後手\":\"b\"},\"moves\":[{}]}");
    kifu_error err;
    kifu_record *back = out ? rd(out, &err) : NULL;
    CHECK(back != NULL);
    if (back) {
        CHECK_INT(kifu_record_header_count(back), 2);
        CHECK_STR(kifu_record_header_get(back, "先手"), "a\nc");
        kifu_record_free(back);
    }
    kifu_free(out);
    kifu_record_free(r);
}

/* The same joining for a header too long for the pairwise check (sorted instead), and
 * three values of one key in both. */
TEST(repeated_header_keys_long_header)
{
    for (int total = 6; total <= 60; total += 54) {
        kifu_record *r = kifu_record_new();
        char key[16], want[2048] = "{\"header\":{";
        for (int i = 0; i < total; i++) {
            snprintf(key, sizeof key, "k%d", i);
            kifu_record_header_add(r, key, "v");
            size_t l = strlen(want);
            snprintf(want + l, sizeof want - l, "%s\"k%d\":\"v%s\"", i ? "," : "", i,
                     i == 3 ? "\\nw\\nx" : "");
        }
        kifu_record_header_add(r, "k3", "w");
        kifu_record_header_add(r, "k3", "x");
        strcat(want, "},\"moves\":[{}]}");
        char *out = wr(r, 0);
        CHECK_STR(out, want);
        kifu_free(out);
        kifu_record_free(r);
    }
}

/* Escaping finds a special byte at any place in an 8-byte word, and copies the runs
 * between them unchanged (UTF-8 included). */
TEST(strings_are_escaped)
{
    static const struct {
        const char *in, *out;
    } cases[] = {
        {"plain text, longer than a word", "plain text, longer than a word"},
        {"\"", "\\\""},
        {"1234567\"", "1234567\\\""},
        {"12345678\\9", "12345678\\\\9"},
        {"ab\ncd\tef\rgh\x01ij\x1f", "ab\\ncd\\tef\\rgh\\u0001ij\\u001f"},
        {"棋譜の\"コメント\"です。", "棋譜の\\\"コメント\\\"です。"},
        {"\x7f\x20~", "\x7f ~"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        kifu_record *r = kifu_record_new();
        kifu_record_header_add(r, "k", cases[i].in);
        char want[256];
        snprintf(want, sizeof want, "{\"header\":{\"k\":\"%s\"},\"moves\":[{}]}",
                 cases[i].out);
        char *out = wr(r, 0);
        CHECK_STR(out, want);
        kifu_error err;
        kifu_record *back = out ? rd(out, &err) : NULL;
        CHECK(back != NULL);
        if (back) {
            CHECK_STR(kifu_record_header_get(back, "k"), cases[i].in);
            kifu_record_free(back);
        }
        kifu_free(out);
        kifu_record_free(r);
    }
}

/* JSON Lines of JKF objects (what convert -o - writes) read as a file of several games;
 * anything but white space or another object after one is an error at its place. */
TEST(json_lines_are_games)
{
    const char *text =
        "{\"header\":{},\"moves\":[{},{\"move\":{\"from\":{\"x\":7,\"y\":7},"
        "\"to\":{\"x\":7,\"y\":6},\"piece\":\"FU\"}}]}\n"
        "{\"header\":{\"先手\":\"甲\"},\"moves\":[{}]}\n\n"
        "  {\"header\":{},\"moves\":[{}]}\n";
    kifu_read_options o = {.format = KIFU_FMT_JKF};
    kifu_record **recs = NULL;
    size_t n = 0;
    kifu_error err;
    kifu_error_clear(&err);
    CHECK_INT(kifu_read_all(text, strlen(text), &o, &recs, &n, &err), 0);
    CHECK_INT((int)n, 3);
    if (n == 3) {
        CHECK_INT((int)kifu_node_child_count(kifu_record_root(recs[0])), 1);
        CHECK_STR(kifu_record_header_get(recs[1], "先手"), "甲");
    }
    for (size_t i = 0; i < n; i++)
        kifu_record_free(recs[i]);
    kifu_free(recs);
    const char *bad = "{\"header\":{},\"moves\":[{}]}\n[1]\n";
    kifu_error_clear(&err);
    CHECK_INT(kifu_read_all(bad, strlen(bad), &o, &recs, &n, &err), -1);
    CHECK_INT(err.code, KIFU_ERR_SYNTAX);
    CHECK_INT(err.line, 2);
    CHECK_INT(err.column, 1);
    /* Content detection: JSON without a "moves" key is no JKF. */
    CHECK_INT(kifu_format_detect("{\"name\":\"x\"}", 12), KIFU_FMT_AUTO);
    CHECK_INT(kifu_format_detect("{\"header\":{},\"moves\":[]}", 24), KIFU_FMT_JKF);
}

int main(void)
{
    RUN(syntax_error_has_line_and_column);
    RUN(repeated_header_keys_long_header);
    RUN(strings_are_escaped);
    RUN(repeated_header_keys_are_joined);
    RUN(schema_errors_name_the_path);
    RUN(all_presets_roundtrip);
    RUN(other_preset_with_board_and_hands);
    RUN(specials_kept_verbatim);
    RUN(forks_become_siblings);
    RUN(optional_fields_keep_presence);
    RUN(schema_comment_on_the_start);
    RUN(exact_compact_and_pretty_text);
    RUN(strings_escaped_utf8_kept);
    RUN(bookmarks_written_as_comments);
    RUN(long_game_no_recursion);
    RUN(nested_forks_no_recursion);
    RUN(members_in_any_order);
    RUN(entry_with_only_time_is_read);
    RUN(schema_errors_have_line_and_column);
    RUN(out_of_memory_fails_cleanly);
    RUN(json_lines_are_games);
    return t_finish();
}
