/* test_jkf_levels.c: issue 26, the JKF document (seed 000) to the letter. Its normalizer
 * completes JKF at every level: KIF-level (from, to, piece), KI2-level (to, piece,
 * relative or same, no from) and CSA-level (from, to, and the piece after the move, no
 * promote). Each level of the document's own examples is read, normalized and written
 * back as JKF, and must give what the complete example gives. Fields that contradict the
 * position are corrected with a warning naming their JSON path, or refused with it. */
#include <stdlib.h>

#include "harness.h"
#include "kifu.h"
#include "testutil.h"

typedef struct warnings {
    int n;
    char all[2048];
} warnings;

static void collect(void *ctx, const char *msg)
{
    warnings *w = ctx;
    size_t l = strlen(w->all);
    snprintf(w->all + l, sizeof w->all - l, "%s\n", msg);
    w->n++;
}

/* Read and normalize json (warnings into *w); NULL with err set on a refusal. */
static kifu_record *rd(const char *json, warnings *w, kifu_error *err)
{
    kifu_read_options o = {KIFU_FMT_JKF, KIFU_ENC_AUTO, 0, "t.jkf", collect, w};
    memset(w, 0, sizeof *w);
    kifu_error_clear(err);
    return kifu_read(json, strlen(json), &o, err);
}

/* json normalized and written as compact JKF (free()), or NULL. */
static char *normalized(const char *json, warnings *w)
{
    kifu_error err;
    kifu_record *r = rd(json, w, &err);
    if (!r) {
        printf("    refused: %s\n", err.message);
        return NULL;
    }
    char *out = t_write_as(r, KIFU_FMT_JKF, KIFU_ENC_UTF8, NULL, &err);
    kifu_record_free(r);
    return out;
}

/* The document's first example (通常), complete as printed. */
static const char *const usual_full =
    "{\"header\":{\"先手\":\"na2hiro\",\"後手\":\"うひょ\"},\"moves\":[{},"
    "{\"move\":{\"from\":{\"x\":7,\"y\":7},\"to\":{\"x\":7,\"y\":6},\"color\":0,"
    "\"piece\":\"FU\"}},"
    "{\"move\":{\"from\":{\"x\":3,\"y\":3},\"to\":{\"x\":3,\"y\":4},\"color\":1,"
    "\"piece\":\"FU\"}},"
    "{\"move\":{\"from\":{\"x\":8,\"y\":8},\"to\":{\"x\":2,\"y\":2},\"color\":0,"
    "\"piece\":\"KA\",\"capture\":\"KA\",\"promote\":false}},"
    "{\"move\":{\"from\":{\"x\":3,\"y\":1},\"to\":{\"x\":2,\"y\":2},\"color\":1,"
    "\"piece\":\"GI\",\"capture\":\"KA\",\"same\":true}},"
    "{\"move\":{\"to\":{\"x\":4,\"y\":5},\"color\":0,\"piece\":\"KA\"}},"
    "{\"special\":\"CHUDAN\"}]}";

/* The same game at KI2 level: what the KI2 reader gives (no from, no capture; 同 as
 * same with no to; colour on some moves only). */
static const char *const usual_ki2 =
    "{\"header\":{\"先手\":\"na2hiro\",\"後手\":\"うひょ\"},\"moves\":[{},"
    "{\"move\":{\"to\":{\"x\":7,\"y\":6},\"piece\":\"FU\"}},"
    "{\"move\":{\"to\":{\"x\":3,\"y\":4},\"color\":1,\"piece\":\"FU\"}},"
    "{\"move\":{\"to\":{\"x\":2,\"y\":2},\"piece\":\"KA\",\"promote\":false}},"
    "{\"move\":{\"same\":true,\"piece\":\"GI\"}},"
    "{\"move\":{\"to\":{\"x\":4,\"y\":5},\"piece\":\"KA\"}},"
    "{\"special\":\"CHUDAN\"}]}";

/* The document's second example (分岐), complete as printed. */
static const char *const forks_full =
    "{\"header\":{},\"moves\":[{\"comments\":[\"分岐の例\"]},"
    "{\"move\":{\"from\":{\"x\":7,\"y\":7},\"to\":{\"x\":7,\"y\":6},\"color\":0,"
    "\"piece\":\"FU\"}},"
    "{\"move\":{\"from\":{\"x\":3,\"y\":3},\"to\":{\"x\":3,\"y\":4},\"color\":1,"
    "\"piece\":\"FU\"}},"
    "{\"move\":{\"from\":{\"x\":8,\"y\":9},\"to\":{\"x\":7,\"y\":7},\"color\":0,"
    "\"piece\":\"KE\"},\"forks\":[["
    "{\"move\":{\"from\":{\"x\":8,\"y\":8},\"to\":{\"x\":2,\"y\":2},\"color\":0,"
    "\"piece\":\"KA\",\"capture\":\"KA\",\"promote\":false}},"
    "{\"move\":{\"from\":{\"x\":3,\"y\":1},\"to\":{\"x\":2,\"y\":2},\"color\":1,"
    "\"piece\":\"GI\",\"capture\":\"KA\",\"same\":true}},"
    "{\"move\":{\"to\":{\"x\":4,\"y\":5},\"color\":0,\"piece\":\"KA\"}}]]},"
    "{\"move\":{\"from\":{\"x\":2,\"y\":2},\"to\":{\"x\":7,\"y\":7},\"color\":1,"
    "\"piece\":\"KA\",\"capture\":\"KE\",\"promote\":true,\"same\":true}},"
    "{\"move\":{\"from\":{\"x\":8,\"y\":8},\"to\":{\"x\":7,\"y\":7},\"color\":0,"
    "\"piece\":\"KA\",\"capture\":\"UM\",\"same\":true}},"
    "{\"move\":{\"to\":{\"x\":3,\"y\":3},\"color\":1,\"piece\":\"KE\",\"relative\":\"H\"}"
    "}"
    "]}";

/* The same at KI2 level: the knight drop is told by its H; the moves found on the
 * board. */
static const char *const forks_ki2 =
    "{\"header\":{},\"moves\":[{\"comments\":[\"分岐の例\"]},"
    "{\"move\":{\"to\":{\"x\":7,\"y\":6},\"color\":0,\"piece\":\"FU\"}},"
    "{\"move\":{\"to\":{\"x\":3,\"y\":4},\"color\":1,\"piece\":\"FU\"}},"
    "{\"move\":{\"to\":{\"x\":7,\"y\":7},\"color\":0,\"piece\":\"KE\"},\"forks\":[["
    "{\"move\":{\"to\":{\"x\":2,\"y\":2},\"color\":0,\"piece\":\"KA\","
    "\"promote\":false}},"
    "{\"move\":{\"same\":true,\"color\":1,\"piece\":\"GI\"}},"
    "{\"move\":{\"to\":{\"x\":4,\"y\":5},\"color\":0,\"piece\":\"KA\"}}]]},"
    "{\"move\":{\"same\":true,\"color\":1,\"piece\":\"KA\",\"promote\":true}},"
    "{\"move\":{\"same\":true,\"color\":0,\"piece\":\"KA\"}},"
    "{\"move\":{\"to\":{\"x\":3,\"y\":3},\"color\":1,\"piece\":\"KE\",\"relative\":\"H\"}"
    "}"
    "]}";

/* At CSA level: from, to, and the piece after the move (UM for 2二角成 in the fork's
 * reply), no promote, no capture, no same; drops without from. */
static const char *const forks_csa =
    "{\"header\":{},\"moves\":[{\"comments\":[\"分岐の例\"]},"
    "{\"move\":{\"from\":{\"x\":7,\"y\":7},\"to\":{\"x\":7,\"y\":6},\"color\":0,"
    "\"piece\":\"FU\"}},"
    "{\"move\":{\"from\":{\"x\":3,\"y\":3},\"to\":{\"x\":3,\"y\":4},\"color\":1,"
    "\"piece\":\"FU\"}},"
    "{\"move\":{\"from\":{\"x\":8,\"y\":9},\"to\":{\"x\":7,\"y\":7},\"color\":0,"
    "\"piece\":\"KE\"},\"forks\":[["
    "{\"move\":{\"from\":{\"x\":8,\"y\":8},\"to\":{\"x\":2,\"y\":2},\"color\":0,"
    "\"piece\":\"KA\"}},"
    "{\"move\":{\"from\":{\"x\":3,\"y\":1},\"to\":{\"x\":2,\"y\":2},\"color\":1,"
    "\"piece\":\"GI\"}},"
    "{\"move\":{\"to\":{\"x\":4,\"y\":5},\"color\":0,\"piece\":\"KA\"}}]]},"
    "{\"move\":{\"from\":{\"x\":2,\"y\":2},\"to\":{\"x\":7,\"y\":7},\"color\":1,"
    "\"piece\":\"UM\"}},"
    "{\"move\":{\"from\":{\"x\":8,\"y\":8},\"to\":{\"x\":7,\"y\":7},\"color\":0,"
    "\"piece\":\"KA\"}},"
    "{\"move\":{\"to\":{\"x\":3,\"y\":3},\"color\":1,\"piece\":\"KE\"}}"
    "]}";

/* The document's third example (駒落ち, 六枚落ち: gote moves first), and at KI2 level. */
static const char *const six_full =
    "{\"header\":{},\"initial\":{\"preset\":\"6\"},\"moves\":[{},"
    "{\"move\":{\"from\":{\"x\":5,\"y\":1},\"to\":{\"x\":4,\"y\":2},\"color\":1,"
    "\"piece\":\"OU\"}},"
    "{\"move\":{\"from\":{\"x\":7,\"y\":7},\"to\":{\"x\":7,\"y\":6},\"color\":0,"
    "\"piece\":\"FU\"}},"
    "{\"move\":{\"from\":{\"x\":6,\"y\":1},\"to\":{\"x\":7,\"y\":2},\"color\":1,"
    "\"piece\":\"KI\"}}]}";
static const char *const six_ki2 =
    "{\"header\":{},\"initial\":{\"preset\":\"6\"},\"moves\":[{},"
    "{\"move\":{\"to\":{\"x\":4,\"y\":2},\"piece\":\"OU\"}},"
    "{\"move\":{\"to\":{\"x\":7,\"y\":6},\"piece\":\"FU\"}},"
    "{\"move\":{\"to\":{\"x\":7,\"y\":2},\"piece\":\"KI\"}}]}";

/* The fourth (初形変則: a board given whole), complete as printed, and at KI2 and CSA
 * level (the rook's promotion as RY). */
#define OTHER_START                                                                      \
    "{\"header\":{},\"initial\":{\"preset\":\"OTHER\",\"data\":{\"board\":[[{\"color\":" \
    "1,\"kind\":\"KY\"},{},{\"color\":1,\"kind\":\"FU\"},{},{},{},{\"color\":0,"         \
    "\"kind\":\"FU\"},{},{\"color\":0,\"kind\":\"KY\"}],[{\"color\":1,\"kind\":\"KE\"}," \
    "{\"color\":1,\"kind\":\"KA\"},{\"color\":1,\"kind\":\"FU\"},{},{},{},{},{"          \
    "\"color\":0,\"kind\":\"HI\"},{\"color\":0,\"kind\":\"KE\"}],[{\"color\":1,"         \
    "\"kind\":\"GI\"},{},{\"color\":1,\"kind\":\"FU\"},{},{},{},{\"color\":0,\"kind\":"  \
    "\"FU\"},{},{\"color\":0,\"kind\":\"GI\"}],[{\"color\":1,\"kind\":\"KI\"},{},{"      \
    "\"color\":1,\"kind\":\"FU\"},{},{},{},{\"color\":0,\"kind\":\"FU\"},{},{\"color\":" \
    "0,\"kind\":\"KI\"}],[{\"color\":1,\"kind\":\"OU\"},{},{\"color\":1,\"kind\":"       \
    "\"FU\"},{},{},{},{\"color\":0,\"kind\":\"FU\"},{},{\"color\":0,\"kind\":\"OU\"}],[" \
    "{\"color\":1,\"kind\":\"KI\"},{},{\"color\":1,\"kind\":\"FU\"},{},{},{},{"          \
    "\"color\":0,\"kind\":\"FU\"},{},{\"color\":0,\"kind\":\"KI\"}],[{\"color\":1,"      \
    "\"kind\":\"GI\"},{},{\"color\":1,\"kind\":\"FU\"},{},{},{},{},{},{\"color\":0,"     \
    "\"kind\":\"GI\"}],[{\"color\":1,\"kind\":\"KE\"},{\"color\":1,\"kind\":\"HI\"},{"   \
    "\"color\":1,\"kind\":\"FU\"},{},{},{},{\"color\":0,\"kind\":\"FU\"},{\"color\":0,"  \
    "\"kind\":\"KA\"},{\"color\":0,\"kind\":\"KE\"}],[{\"color\":1,\"kind\":\"KY\"},{}," \
    "{\"color\":1,\"kind\":\"FU\"},{},{},{},{\"color\":0,\"kind\":\"FU\"},{},{"          \
    "\"color\":0,\"kind\":\"KY\"}]],\"color\":0,\"hands\":[{\"FU\":0,\"KY\":0,\"KE\":0," \
    "\"GI\":0,\"KI\":0,\"KA\":0,\"HI\":0},{\"FU\":0,\"KY\":0,\"KE\":0,\"GI\":0,\"KI\":"  \
    "0,\"KA\":0,\"HI\":0}]}},\"moves\":[{\"comments\":[\"飛車角先落ち.\"]},"
static const char *const other_full =
    OTHER_START "{\"move\":{\"from\":{\"x\":2,\"y\":8},\"to\":{\"x\":2,\"y\":3},"
                "\"color\":0,\"piece\":\"HI\",\"promote\":true,\"capture\":\"FU\"}}]}";
static const char *const other_ki2 = OTHER_START
    "{\"move\":{\"to\":{\"x\":2,\"y\":3},\"piece\":\"HI\",\"promote\":true}}]}";
static const char *const other_csa =
    OTHER_START "{\"move\":{\"from\":{\"x\":2,\"y\":8},\"to\":{\"x\":2,\"y\":3},"
                "\"color\":0,\"piece\":\"RY\"}}]}";

/* s with the first `from` replaced by `to` (free()). */
static char *replaced(const char *s, const char *from, const char *to)
{
    const char *at = strstr(s, from);
    size_t l = strlen(s) + strlen(to) + 1;
    char *out = malloc(l);
    if (!at) {
        printf("    \"%s\" not in the example\n", from);
        t_failed_checks++;
        strcpy(out, s);
        return out;
    }
    snprintf(out, l, "%.*s%s%s", (int)(at - s), s, to, at + strlen(from));
    return out;
}

static void same_as(const char *level, const char *full, const char *what)
{
    warnings w;
    char *want = normalized(full, &w), *got = normalized(level, &w);
    CHECK(want != NULL);
    CHECK(got != NULL);
    CHECK_INT(w.n, 0); /* a level is no contradiction */
    if (want && got && strcmp(want, got) != 0) {
        t_failed_checks++;
        printf("    %s:\n    want %s\n    got  %s\n", what, want, got);
    }
    free(want);
    free(got);
}

TEST(every_level_completes_to_the_full_record)
{
    same_as(usual_ki2, usual_full, "通常 at KI2 level");
    same_as(forks_ki2, forks_full, "分岐 at KI2 level");
    same_as(forks_csa, forks_full, "分岐 at CSA level");
    same_as(six_ki2, six_full, "駒落ち at KI2 level");
    same_as(other_ki2, other_full, "初形変則 at KI2 level");
    same_as(other_csa, other_full, "初形変則 at CSA level");
}

/* Levels mixed in one record: KIF-level moves (with from) and KI2-level ones (without)
 * side by side. A move without from is found on the board when it cannot be a drop; a
 * drop stays a drop. Made from the document's own examples by taking out some froms. */
TEST(mixed_levels_find_each_moving_piece)
{
    char *a = replaced(usual_full, "\"from\":{\"x\":3,\"y\":3},", "");
    char *b = replaced(a, "\"from\":{\"x\":3,\"y\":1},", ""); /* 同銀, same: true */
    same_as(a, usual_full, "通常, ☖３四歩 without from");
    same_as(b, usual_full, "通常, ☖３四歩 and ☖同銀 without from");
    free(a);
    free(b);
    a = replaced(forks_full, "\"from\":{\"x\":8,\"y\":9},", ""); /* 7七桂 */
    b = replaced(a, "\"from\":{\"x\":2,\"y\":2},", "");          /* 同角成 */
    char *c = replaced(b, "\"from\":{\"x\":3,\"y\":1},", "");    /* the fork's 同銀 */
    same_as(c, forks_full, "分岐, three moves without from");
    free(a);
    free(b);
    free(c);
    /* A move without from, no such piece in hand, none on the board to reach: refused
     * with its path, as a KI2 move is. */
    const char *bad = "{\"header\":{},\"moves\":[{},{\"move\":{\"from\":{\"x\":7,"
                      "\"y\":7},\"to\":{\"x\":7,\"y\":6},\"piece\":\"FU\"}},"
                      "{\"move\":{\"to\":{\"x\":5,\"y\":5},\"piece\":\"KI\"}}]}";
    warnings w;
    kifu_error err;
    kifu_record *r = rd(bad, &w, &err);
    CHECK(r == NULL);
    CHECK(!r && strstr(err.message, "moves[2]") && strstr(err.message, "金"));
    kifu_record_free(r);
}

/* The issue's own KI2-level move, refused before with "no 歩 in hand". */
TEST(ki2_level_single_move)
{
    const char *json = "{\"header\":{},\"moves\":[{},{\"move\":{\"to\":{\"x\":7,\"y\":6},"
                       "\"piece\":\"FU\"}}]}";
    warnings w;
    kifu_error err;
    kifu_record *r = rd(json, &w, &err);
    CHECK(r != NULL);
    if (!r) {
        printf("    %s\n", err.message);
        return;
    }
    const kifu_move *m = t_move_at(r, 1);
    CHECK(m && m->from_x == 7 && m->from_y == 7 && !(m->flags & KIFU_MOVE_DROP));
    kifu_record_free(r);
    /* A KI2-level drop with no board piece to make it is a drop; one with a board piece
     * that could is a board move unless it says H. */
    const char *drop = "{\"header\":{},\"moves\":[{},{\"move\":{\"to\":{\"x\":7,\"y\":6},"
                       "\"piece\":\"FU\"}},{\"move\":{\"to\":{\"x\":3,\"y\":4},\"piece\":"
                       "\"FU\"}},{\"move\":{\"to\":{\"x\":2,\"y\":2},\"piece\":\"KA\","
                       "\"promote\":true}},{\"move\":{\"same\":true,\"piece\":\"GI\"}},"
                       "{\"move\":{\"to\":{\"x\":5,\"y\":5},\"piece\":\"KA\"}}]}";
    r = rd(drop, &w, &err);
    CHECK(r != NULL);
    m = r ? t_move_at(r, 5) : NULL;
    CHECK(m && (m->flags & KIFU_MOVE_DROP) && m->to_x == 5 && m->to_y == 5);
    m = r ? t_move_at(r, 3) : NULL;
    CHECK(m && m->promote == 1 && m->from_x == 8 && m->capture == KIFU_KA);
    kifu_record_free(r);
}

/* A contradicting field at every kind: corrected with a warning naming its path. */
TEST(contradictions_corrected_with_their_path)
{
    /* The document's 分岐 with a wrong capture (金 on a move that takes a 角), "same":
     * false on the reply to 2二, and a relative word on the lone silver. */
    char *a = replaced(forks_full, "\"capture\":\"KA\",\"promote\":false",
                       "\"capture\":\"KI\",\"promote\":false");
    char *b = replaced(a, "\"capture\":\"KA\",\"same\":true",
                       "\"capture\":\"KA\",\"same\":false");
    char *bad = replaced(b, "\"piece\":\"KA\",\"capture\":\"UM\"",
                         "\"piece\":\"KA\",\"relative\":\"R\",\"capture\":\"UM\"");
    free(a);
    free(b);
    warnings w;
    kifu_error err;
    kifu_record *r = rd(bad, &w, &err);
    CHECK(r != NULL);
    if (!r)
        printf("    %s\n    %s\n", err.message, bad);
    CHECK_INT(w.n, 3);
    CHECK(strstr(w.all, "moves[3].forks[0][0].move.capture: KI, but the move takes KA: "
                        "corrected") != NULL);
    CHECK(strstr(w.all, "moves[3].forks[0][1].move.same: false, but the move goes to "
                        "the square of the move before: corrected to true") != NULL);
    CHECK(strstr(w.all, "moves[5].move.relative: \"R\" does not name this move") != NULL);
    if (w.n != 3)
        printf("    %s", w.all);
    /* Written back, the record is the document's. */
    char *out = r ? t_write_as(r, KIFU_FMT_JKF, KIFU_ENC_UTF8, NULL, &err) : NULL;
    char *want = normalized(forks_full, &w);
    CHECK(out && want && strcmp(out, want) == 0);
    free(out);
    free(want);
    kifu_record_free(r);
    free(bad);
}

/* A refusal names the JSON path of the field, with line and column. */
TEST(refusals_name_their_path)
{
    warnings w;
    kifu_error err;
    /* "same": true on a move elsewhere. */
    const char *same = "{\"header\":{},\"moves\":[{},{\"move\":{\"to\":{\"x\":7,\"y\":6},"
                       "\"piece\":\"FU\"}},{\"move\":{\"to\":{\"x\":3,\"y\":4},\"piece\":"
                       "\"FU\"}},\n{\"move\":{\"to\":{\"x\":2,\"y\":2},\"piece\":\"KA\","
                       "\"same\":true}}]}";
    kifu_record *r = rd(same, &w, &err);
    CHECK(r == NULL);
    CHECK(strstr(err.message, "moves[3].move.same: ") == err.message);
    CHECK_INT(err.line, 2);
    CHECK_INT(err.column, 9); /* the move object */
    kifu_record_free(r);
    /* The piece after the move with "promote": false. */
    char *csa =
        replaced(forks_csa, "\"piece\":\"UM\"", "\"piece\":\"UM\",\"promote\":false");
    r = rd(csa, &w, &err);
    CHECK(r == NULL);
    CHECK(strstr(err.message, "moves[4].move.piece: ply 4 (main line)") == err.message);
    CHECK(strstr(err.message, "the piece is 角, not 馬") != NULL);
    kifu_record_free(r);
    free(csa);
    /* A wrong move in a fork: its path through forks. */
    /* The fork's third move drops a rook, which sente does not hold. */
    char *fork =
        replaced(forks_full, "\"to\":{\"x\":4,\"y\":5},\"color\":0,\"piece\":\"KA\"",
                 "\"to\":{\"x\":4,\"y\":5},\"color\":0,\"piece\":\"HI\"");
    r = rd(fork, &w, &err);
    CHECK(r == NULL);
    CHECK(
        strstr(err.message, "moves[3].forks[0][2].move.piece: ply 5 (fork 1 at ply 3)") ==
        err.message);
    if (r == NULL && strstr(err.message, "moves[3].forks[0][2]") != err.message)
        printf("    %s\n", err.message);
    kifu_record_free(r);
    free(fork);
}

/* Each refusal names the field it is about. */
TEST(refusals_name_the_field)
{
    static const struct {
        const char *move, *path;
    } cases[] = {
        {"{\"to\":{\"x\":7,\"y\":6},\"color\":1,\"piece\":\"FU\"}",
         "moves[1].move.color: "},
        {"{\"from\":{\"x\":5,\"y\":5},\"to\":{\"x\":5,\"y\":4},\"piece\":\"FU\"}",
         "moves[1].move.from: "},
        {"{\"from\":{\"x\":7,\"y\":7},\"to\":{\"x\":7,\"y\":6},\"piece\":\"KY\"}",
         "moves[1].move.piece: "},
        {"{\"to\":{\"x\":5,\"y\":5},\"piece\":\"KA\",\"relative\":\"H\"}",
         "moves[1].move.piece: "},
        {"{\"to\":{\"x\":5,\"y\":8},\"piece\":\"KI\",\"relative\":\"C\"}",
         "moves[1].move.relative: "},
        {"{\"to\":{\"x\":7,\"y\":6},\"piece\":\"FU\"}", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char json[300];
        snprintf(json, sizeof json, "{\"header\":{},\"moves\":[{},{\"move\":%s}]}",
                 cases[i].move);
        warnings w;
        kifu_error err;
        kifu_record *r = rd(json, &w, &err);
        if (!cases[i].path) {
            CHECK(r != NULL);
        } else {
            CHECK(r == NULL);
            if (strstr(err.message, cases[i].path) != err.message) {
                t_failed_checks++;
                printf("    %s: %s\n", cases[i].path, err.message);
            }
        }
        kifu_record_free(r);
    }
}

/* A move in moves[0] is told where moves go, not the keys moves[0] takes. */
TEST(move_in_the_start_entry)
{
    const char *json = "{\"header\":{},\"moves\":[{\"move\":{\"from\":{\"x\":7,\"y\":7},"
                       "\"to\":{\"x\":7,\"y\":6},\"color\":0,\"piece\":\"FU\"}}]}";
    warnings w;
    kifu_error err;
    kifu_record *r = rd(json, &w, &err);
    CHECK(r == NULL);
    CHECK(strstr(err.message, "moves[0].move: ") == err.message);
    CHECK(strstr(err.message, "the first move is moves[1]") != NULL);
    CHECK(strstr(err.message, "comments, comment") == NULL);
    CHECK_INT(err.column, 24);
    kifu_record_free(r);
}

int main(void)
{
    RUN(every_level_completes_to_the_full_record);
    RUN(ki2_level_single_move);
    RUN(mixed_levels_find_each_moving_piece);
    RUN(contradictions_corrected_with_their_path);
    RUN(refusals_name_their_path);
    RUN(move_in_the_start_entry);
    RUN(refusals_name_the_field);
    return t_finish();
}
