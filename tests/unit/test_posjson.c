/* test_posjson.c: the position-list JSON format: the document's own example (trailing
 * comma and all), round trips of every kind of record (a game with nested forks and
 * endings, a handicap, a tsume from a BOD diagram, a catalogue of unrelated positions),
 * what another program that knows only bd/cb/cw/sid/mv writes, and every error with its
 * entry and field. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "jsonval.h"
#include "kifu.h"
#include "testutil.h"

/* The example of the position-list document, as it prints it. */
static const char doc_example[] =
    "[\n{\n\n\"bd\":"
    "\"dfhjvjhfdonooooolobbbbbbbbboooooooooooooooooooooooooooaaaaaaaaaokooooomo"
    "cegiuigec\",\n\"cb\":\"\",\n\"cw\":\"\",\n},\n\n{\n\n\"bd\":\"oooooooooooooooojdoooo"
    "osobvoooooooqooooooooaooooooooooooooooooooooooooooooooooooo\",\n\"cb\":\"\","
    "\n\"cw\":"
    "\"bbbbbbbbbbbbbbbbdddffffhhhhjjjln\"\n}\n]\n";

static int warnings;
static char last_warning[256];
static void on_warn(void *ctx, const char *msg)
{
    (void)ctx;
    warnings++;
    snprintf(last_warning, sizeof last_warning, "%s", msg);
}

static int read_all(const char *text, int format, kifu_record ***recs, size_t *n,
                    kifu_error *err)
{
    kifu_read_options o = {.format = format, .warn = on_warn};
    kifu_error_clear(err);
    return kifu_read_all(text, strlen(text), &o, recs, n, err);
}

static void free_all(kifu_record **recs, size_t n)
{
    for (size_t i = 0; i < n; i++)
        kifu_record_free(recs[i]);
    kifu_free(recs);
}

static char *write_all(kifu_record **recs, size_t n)
{
    kifu_write_options o = {.format = KIFU_FMT_POSJSON};
    kifu_error err;
    kifu_error_clear(&err);
    char *s = kifu_write_all((const kifu_record *const *)recs, n, &o, NULL, &err);
    if (!s)
        printf("  write: %s\n", err.message);
    return s;
}

/* Strict JSON (no trailing comma): the project's own reader, strict, accepts it. */
static int strict_json(const char *s)
{
    jv_doc v;
    char err[256];
    if (jv_parse(&v, s, strlen(s), err, sizeof err)) {
        printf("  not JSON: %s\n", err);
        return 0;
    }
    jv_free(&v);
    return 1;
}

/* A record that named no start is hirate; posjson, holding the board, names it. */
static char *dump(kifu_record *r)
{
    if (kifu_record_preset(r) == KIFU_PRESET_NONE)
        kifu_record_set_preset(r, KIFU_PRESET_HIRATE);
    return t_dump(r);
}

/* Records -> posjson -> records: every record dumps alike (t_dump: header, start, every
 * field of every node, forks), and writing again gives the same text. */
static void round_trip(kifu_record **recs, size_t n)
{
    char *a = write_all(recs, n);
    CHECK(a && strict_json(a));
    kifu_record **back = NULL;
    size_t m = 0;
    kifu_error err;
    if (!a || read_all(a, KIFU_FMT_POSJSON, &back, &m, &err)) {
        printf("  read back: %s\n%s\n", err.message, a ? a : "");
        CHECK(0);
        kifu_free(a);
        return;
    }
    CHECK_INT(m, n);
    for (size_t i = 0; i < n && i < m; i++) {
        char *x = dump(recs[i]), *y = dump(back[i]);
        CHECK_STR(y, x);
        free(x);
        free(y);
    }
    char *b = write_all(back, m);
    CHECK_STR(b, a);
    kifu_free(a);
    kifu_free(b);
    free_all(back, m);
}

TEST(document_example_reads_and_writes_strict)
{
    kifu_record **recs = NULL;
    size_t n = 0;
    kifu_error err;
    warnings = 0;
    CHECK_INT(read_all(doc_example, KIFU_FMT_AUTO, &recs, &n, &err), 0);
    CHECK_INT(warnings, 1); /* the comma before } */
    /* `"cw":"",` : the comma is the 8th character (this said 9 while the reader counted
     * columns from 2). */
    CHECK(strstr(last_warning, "line 6, column 8") != NULL);
    CHECK_INT(n, 2); /* two unrelated positions: two records */
    if (n == 2) {
        CHECK_INT(kifu_record_preset(recs[0]), KIFU_PRESET_HIRATE);
        kifu_board b;
        kifu_record_initial(recs[1], &b);
        /* Gote's king stands in check by the horse: gote is to move. */
        CHECK_INT(b.color, KIFU_WHITE);
        CHECK_INT(b.hands[KIFU_WHITE][KIFU_FU], 16);
        CHECK_INT(b.sq[KIFU_SQ(1, 3)], KIFU_OU | 16);
        char *s = write_all(recs, n);
        CHECK(s && strict_json(s));
        CHECK(s && strstr(s, ",}") == NULL);
        CHECK(s && strstr(s, "\"cw\":\"bbbbbbbbbbbbbbbbdddffffhhhhjjjln\"") != NULL);
        kifu_free(s);
        round_trip(recs, n);
    }
    free_all(recs, n);
}

/* A game with nested forks, comments, times, bookmarks and endings in forks. */
static const char forked_kif[] = "# ---- Kifu for Windows ----\n"
                                 "先手：先手太郎\n後手：後手花子\n"
                                 "手数----指手---------消費時間--\n"
                                 "*開始前のコメント\n"
                                 "   1 ７六歩(77)   ( 0:05/00:00:05)\n"
                                 "*一手目\n"
                                 "   2 ３四歩(33)   ( 0:03/00:00:03)+\n"
                                 "   3 ２二角成(88) ( 0:10/00:00:15)\n"
                                 "   4 同　銀(31)   ( 0:02/00:00:05)+\n"
                                 "   5 ４五角打     ( 0:01/00:00:16)\n"
                                 "   6 投了\n"
                                 "\n変化：4手\n"
                                 "   4 同　飛(82)   ( 0:07/00:00:10)\n"
                                 "   5 中断\n"
                                 "\n変化：2手\n"
                                 "   2 ８四歩(83)   ( 0:04/00:00:04)\n"
                                 "*二手目の変化\n"
                                 "   3 ２六歩(27)   ( 0:01/00:00:06)\n";

TEST(game_with_forks_round_trips)
{
    kifu_record **recs = NULL;
    size_t n = 0;
    kifu_error err;
    CHECK_INT(read_all(forked_kif, KIFU_FMT_KIFU, &recs, &n, &err), 0);
    if (n == 1) {
        round_trip(recs, n);
        char *s = write_all(recs, n);
        /* The fork at ply 4 follows entry 3 (the position after ☗２二角成). */
        CHECK(s && strstr(s, "\"prev\":3") != NULL);
        CHECK(s && strstr(s, "\"end\":\"TORYO\"") != NULL);
        CHECK(s && strstr(s, "\"end\":\"CHUDAN\"") != NULL);
        CHECK(s && strstr(s, "\"usi\":\"8h2b+\"") != NULL);
        CHECK(s && strstr(s, "\"move\":\"☗２二角成(88)\"") != NULL);
        kifu_free(s);
    }
    free_all(recs, n);
}

TEST(handicap_and_tsume_round_trip)
{
    /* 香落ち: gote moves first. */
    static const char ky[] = "手合割：香落ち\n手数----指手---------消費時間--\n"
                             "   1 ３四歩(33)\n   2 ７六歩(77)\n   3 ８四歩(83)\n";
    /* A tsume from a BOD diagram: sente to move, gote holds the rest. */
    static const char tsume[] =
        "後手の持駒：飛二　角二　金二　銀四　桂三　香四　歩十八　\n"
        "  ９ ８ ７ ６ ５ ４ ３ ２ １\n"
        "+---------------------------+\n"
        "| ・ ・ ・ ・ ・ ・ ・v桂 ・|一\n"
        "| ・ ・ ・ ・ ・ ・ ・ ・v玉|二\n"
        "| ・ ・ ・ ・ ・ ・ ・ ・ ・|三\n"
        "| ・ ・ ・ ・ ・ ・ ・ 金 ・|四\n"
        "| ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n"
        "| ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n"
        "| ・ ・ ・ ・ ・ ・ ・ ・ ・|七\n"
        "| ・ ・ ・ ・ ・ ・ ・ ・ ・|八\n"
        "| ・ ・ ・ ・ ・ ・ ・ ・ ・|九\n"
        "+---------------------------+\n"
        "先手の持駒：金　\n"
        "手数----指手---------消費時間--\n"
        "   1 １三金打\n   2 同　桂(21)\n   3 ２三金(24)\n";
    const char *texts[2] = {ky, tsume};
    for (int t = 0; t < 2; t++) {
        kifu_record **recs = NULL;
        size_t n = 0;
        kifu_error err;
        if (read_all(texts[t], KIFU_FMT_KIFU, &recs, &n, &err)) {
            printf("  %d: %s\n", t, err.message);
            CHECK(0);
            continue;
        }
        round_trip(recs, n);
        free_all(recs, n);
    }
}

/* Records may start where no game goes: two pawns of one side on a file (real CSA and
 * KIF files start with nine). kifu writes such a start, so it reads it back, and the
 * entries after it (still with both pawns) follow by their moves. */
TEST(start_with_two_pawns_on_a_file_round_trips)
{
    static const char csa[] = "P+77FU73FU59OU\nP-51OU\nP+00HI\n+\n"
                              "+0055HI\n-5141OU\n+5551RY\n-4132OU\n%TORYO\n";
    kifu_record **recs = NULL;
    size_t n = 0;
    kifu_error err;
    if (read_all(csa, KIFU_FMT_CSA, &recs, &n, &err)) {
        printf("  %s\n", err.message);
        CHECK(0);
        return;
    }
    CHECK_INT(n, 1);
    round_trip(recs, n);
    /* Without `turn`, as another program writes it: sente to move (gote is not in
     * check), and the start is the board as given. */
    static const char bare[] =
        "[{\"bd\":\"oooovoooooooooooooooaoooooooooooooooooooooooooooooo"
        "oooooaooooooooooooooooooouoooo\",\"cb\":\"m\",\"cw\":\"\"}]";
    kifu_record **back = NULL;
    size_t m = 0;
    CHECK_INT(read_all(bare, KIFU_FMT_POSJSON, &back, &m, &err), 0);
    CHECK_INT(m, 1);
    if (m == 1) {
        kifu_board b0, b1;
        kifu_record_initial(recs[0], &b0);
        kifu_record_initial(back[0], &b1);
        CHECK_INT(b1.color, 0);
        CHECK(memcmp(b0.sq, b1.sq, sizeof b0.sq) == 0);
    }
    free_all(back, m);
    free_all(recs, n);
}

/* An ending followed by another (JKF tools keep a second KACHI after the first, as a
 * CSA file with two %KACHI lines reads): the second stays after the first, not a fork. */
TEST(ending_after_an_ending_round_trips)
{
    static const char jkf[] =
        "{\"header\":{},\"moves\":[{},"
        "{\"move\":{\"from\":{\"x\":7,\"y\":7},\"to\":{\"x\":7,\"y\":6},\"piece\":\"FU\"}"
        "},"
        "{\"special\":\"KACHI\",\"comments\":[\"first\"]},{\"special\":\"KACHI\"}]}";
    kifu_record **recs = NULL;
    size_t n = 0;
    kifu_error err;
    if (read_all(jkf, KIFU_FMT_JKF, &recs, &n, &err)) {
        printf("  %s\n", err.message);
        CHECK(0);
        return;
    }
    round_trip(recs, n);
    free_all(recs, n);
}

/* A catalogue: many unrelated positions (here every handicap start and positions from
 * engine games), one record each, all in one array; and two games in a row where the
 * second starts one legal move after the first ends stay two games (`game`). */
TEST(catalogue_round_trips)
{
    static const char *const sfens[] = {
        "startpos",
        "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        "8k/9/7GP/9/9/9/9/9/K8 b G2r2b2g4s4n4l16p 1",
        "4k4/9/4P4/9/9/9/9/9/4K4 b G2r2b3g4s4n4l17p 1",
    };
    size_t n = sizeof sfens / sizeof sfens[0];
    kifu_record *recs[8];
    for (size_t i = 0; i < n; i++) {
        kifu_error err;
        kifu_read_options o = {.format = KIFU_FMT_SFEN};
        recs[i] = kifu_read(sfens[i], strlen(sfens[i]), &o, &err);
        CHECK(recs[i] != NULL);
    }
    round_trip(recs, n);
    /* Game 2 starts where game 1 would be after 7g7f: still two games. */
    kifu_read_options so = {.format = KIFU_FMT_SFEN};
    kifu_record *two[2] = {kifu_read("startpos", 8, &so, NULL), kifu_record_new()};
    kifu_board b;
    kifu_position *p = t_position("startpos");
    t_play_usi(p, "7g7f");
    kifu_position_board(p, &b);
    kifu_record_set_initial(two[1], &b);
    round_trip(two, 2);
    kifu_position_free(p);
    for (size_t i = 0; i < n; i++)
        kifu_record_free(recs[i]);
    kifu_record_free(two[0]);
    kifu_record_free(two[1]);
}

/* What a program that knows only the document's keys writes: bd, cb, cw, sid, mv. The
 * moves come back (a promotion, a capture, a drop), and the side to move of a handicap
 * start is found from its first move. */
TEST(document_keys_only)
{
    static const char *const usi[] = {"3c3d", "7g7f", "2b8h+", "7i8h", "B*4e"};
    kifu_position *p =
        t_position("lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1");
    char text[8192];
    size_t len = 0;
    len += (size_t)snprintf(text + len, sizeof text - len, "[");
    for (size_t i = 0; i <= 5; i++) {
        if (i)
            t_play_usi(p, usi[i - 1]);
        kifu_board b;
        kifu_position_board(p, &b);
        /* The document's letters by kifu_piece number (FU KY KE GI KA HI KI OU TO NY NK
         * NG UM RY), typed in here as another program would have them. */
        static const char letters[2][16] = {"oacegkmiu1357qs", "obdfhlnjv2468rt"};
        char bd[82], cb[40] = "", cw[40] = "";
        size_t nb = 0, nw = 0;
        for (int k = 1; k <= 7; k++)
            for (int c = 0; c < b.hands[0][k]; c++)
                cb[nb++] = letters[0][k];
        for (int k = 1; k <= 7; k++)
            for (int c = 0; c < b.hands[1][k]; c++)
                cw[nw++] = letters[1][k];
        for (int y = 1; y <= 9; y++)
            for (int x = 9; x >= 1; x--) {
                int v = b.sq[KIFU_SQ(x, y)];
                bd[(y - 1) * 9 + (9 - x)] = letters[v >> 4 & 1][v & 15];
            }
        bd[81] = 0;
        len +=
            (size_t)snprintf(text + len, sizeof text - len,
                             "%s{\"bd\":\"%s\",\"cb\":\"%s\",\"cw\":\"%s\",\"sid\":%zu}",
                             i ? "," : "", bd, cb, cw, i);
    }
    snprintf(text + len, sizeof text - len, "]");
    kifu_record **recs = NULL;
    size_t n = 0;
    kifu_error err;
    CHECK_INT(read_all(text, KIFU_FMT_POSJSON, &recs, &n, &err), 0);
    CHECK_INT(n, 1);
    if (n == 1) {
        CHECK_INT(kifu_record_preset(recs[0]), KIFU_PRESET_KY);
        for (int i = 0; i < 5; i++) {
            const kifu_move *m = t_move_at(recs[0], i + 1);
            char buf[8];
            CHECK_STR(m ? kifu_move_usi(m, buf) : "", usi[i]);
        }
    }
    free_all(recs, n);
    kifu_position_free(p);
}

#define HIRATE_                                                                          \
    "dfhjvjhfdonooooolobbbbbbbbboooooooooooooooooooooooooooaaaaaaaaaokooooomocegiuigec"
static void expect_error(const char *text, const char *needle, int line)
{
    kifu_record **recs = NULL;
    size_t n = 0;
    kifu_error err;
    if (read_all(text, KIFU_FMT_POSJSON, &recs, &n, &err) == 0) {
        printf("  read, but expected an error with \"%s\"\n", needle);
        CHECK(0);
        free_all(recs, n);
        return;
    }
    if (!strstr(err.message, needle))
        printf("  message: %s\n", err.message);
    CHECK(strstr(err.message, needle) != NULL);
    CHECK_INT(err.line, line);
}

#define HIRATE                                                                           \
    "dfhjvjhfdonooooolobbbbbbbbboooooooooooooooooooooooooooaaaaaaaaaokooooomocegiuigec"

/* The document's sample 2 (tsume.html): positions with IDs (`sid`) that the page's prose
 * links to: a one-move problem, a failed answer, the right answer, and the start of an
 * even game out of the blue. The right answer's position is the document's own second
 * example (gote's king mated by the horse on 2四, the pawn on 2三 pinned by the dragon),
 * the even game its first; the problem has the horse on 3三. kifu keeps every given
 * sid, string or number, through read and write; `prev` may name the position an answer
 * follows by its sid. */
#define TSUME_CW "bbbbbbbbbbbbbbbbdddffffhhhhjjjln"
static const char sid_doc[] =
    "[\n"
    "{\"sid\":\"q1\",\"bd\":\"oooooooooooooooojdooooosqbvooooooooooooo"
    "oooaooooooooooooooooooooooooooooooooooooo\",\"cb\":\"\",\"cw\":\"" TSUME_CW "\"},\n"
    "{\"sid\":\"q1-ng\",\"bd\":\"ooooooooooooooooqdooooosobvooooooooooooo"
    "oooaooooooooooooooooooooooooooooooooooooo\",\"cb\":\"i\",\"cw\":\"" TSUME_CW "\"},\n"
    "{\"sid\":\"q1-ok\",\"prev\":\"q1\",\"bd\":\"oooooooooooooooojdooooosobvoooooooqooooo"
    "oooaooooooooooooooooooooooooooooooooooooo\",\"cb\":\"\",\"cw\":\"" TSUME_CW "\"},\n"
    "{\"sid\":7,\"bd\":\"" HIRATE_ "\",\"cb\":\"\",\"cw\":\"\"}\n"
    "]\n";

TEST(document_sids_are_kept)
{
    kifu_record **recs = NULL;
    size_t n = 0;
    kifu_error err;
    CHECK_INT(read_all(sid_doc, KIFU_FMT_POSJSON, &recs, &n, &err), 0);
    CHECK_INT(n, 2); /* the problem with its two answers; the even game's start */
    char *s = n == 2 ? write_all(recs, n) : NULL;
    CHECK(s && strict_json(s));
    CHECK(s && strstr(s, "\"sid\":\"q1\"") != NULL);
    CHECK(s && strstr(s, "\"sid\":\"q1-ng\"") != NULL);
    /* The right answer is a fork of the problem, not a record of its own. */
    CHECK(s && strstr(s, "\"sid\":\"q1-ok\",\"mv\":35") != NULL);
    CHECK(s && strstr(s, "\"sid\":7,") != NULL); /* a number stays a number */
    CHECK(s && strstr(s, "\"sid\":0") == NULL && strstr(s, "\"sid\":1") == NULL);
    if (s) {
        kifu_record **back = NULL;
        size_t m = 0;
        CHECK_INT(read_all(s, KIFU_FMT_POSJSON, &back, &m, &err), 0);
        char *again = write_all(back, m);
        CHECK_STR(again, s);
        kifu_free(again);
        free_all(back, m);
    }
    kifu_free(s);
    free_all(recs, n);
    /* A sid that is no ID, and a prev that names none. */
    expect_error("[{\"bd\":\"" HIRATE_ "\",\"sid\":[1]}]", "entry 0, sid", 1);
    /* An ending that is neither a word nor an object with one. */
    expect_error("[{\"bd\":\"" HIRATE_ "\",\"end\":[1]}]", "entry 0, end: not an ending",
                 1);
    expect_error("[{\"bd\":\"" HIRATE_ "\",\"end\":{\"comments\":[]}}]",
                 "entry 0, end: the ending has no word", 1);
    expect_error("[{\"bd\":\"" HIRATE_ "\",\"sid\":\"a\"},{\"bd\":\"" HIRATE_
                 "\",\"prev\":\"b\"}]",
                 "entry 1, prev", 1);
}

/* The warnings about sids (CSA and SFEN also name the forks they leave out). */
static int sid_warnings;
static char sid_warning[256];
static void on_sid_warn(void *ctx, const char *msg)
{
    (void)ctx;
    if (strstr(msg, "(sid)")) {
        sid_warnings++;
        snprintf(sid_warning, sizeof sid_warning, "%s", msg);
    }
}

/* Every other format has no place for a sid: writing the document's problem and its
 * answers there says so, once for the output, with the count and the first ID; posjson
 * itself says nothing. */
TEST(lost_sids_are_named_once)
{
    kifu_record **recs = NULL;
    size_t n = 0;
    kifu_error err;
    CHECK_INT(read_all(sid_doc, KIFU_FMT_POSJSON, &recs, &n, &err), 0);
    static const int formats[] = {KIFU_FMT_KIF, KIFU_FMT_KI2, KIFU_FMT_CSA, KIFU_FMT_JKF,
                                  KIFU_FMT_SFEN};
    for (size_t f = 0; f < sizeof formats / sizeof *formats && n == 2; f++) {
        kifu_write_options wo = {
            .format = formats[f], .encoding = KIFU_ENC_UTF8, .warn = on_sid_warn};
        sid_warnings = 0;
        sid_warning[0] = 0;
        /* one game: the problem with its two answers (three sids) */
        char *s = kifu_write(recs[0], &wo, NULL, &err);
        CHECK(s != NULL);
        kifu_free(s);
        CHECK_INT(sid_warnings, 1);
        CHECK(strstr(sid_warning, "sid") && strstr(sid_warning, "3 left out") &&
              strstr(sid_warning, "\"q1\""));
    }
    /* Both games in one CSA output: still one warning, for all four. */
    kifu_write_options wo = {.format = KIFU_FMT_CSA, .warn = on_sid_warn};
    sid_warnings = 0;
    char *s = n == 2
                  ? kifu_write_all((const kifu_record *const *)recs, n, &wo, NULL, &err)
                  : NULL;
    CHECK(s != NULL);
    kifu_free(s);
    CHECK_INT(sid_warnings, 1);
    CHECK(strstr(sid_warning, "4 left out") != NULL);
    wo.format = KIFU_FMT_POSJSON;
    sid_warnings = 0;
    s = n == 2 ? kifu_write_all((const kifu_record *const *)recs, n, &wo, NULL, &err)
               : NULL;
    CHECK(s != NULL);
    kifu_free(s);
    CHECK_INT(sid_warnings, 0);
    free_all(recs, n);
}

/* A record that starts at move 6 (a SFEN's `... w - 6`) writes ply 5 on its first entry
 * and reads its start number back from there; a document without ply starts at 1. */
TEST(ply_keeps_the_move_number)
{
    kifu_record **recs = NULL;
    size_t n = 0;
    kifu_error err;
    CHECK_INT(
        read_all("lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 6 "
                 "moves 3c3d",
                 KIFU_FMT_SFEN, &recs, &n, &err),
        0);
    CHECK_INT(n, 1);
    CHECK_INT(n ? kifu_record_start_number(recs[0]) : 0, 6);
    char *s = n ? write_all(recs, n) : NULL;
    CHECK(s && strstr(s, "\"ply\":5}") && strstr(s, "\"ply\":6,"));
    free_all(recs, n);
    recs = NULL;
    CHECK_INT(s ? read_all(s, KIFU_FMT_POSJSON, &recs, &n, &err) : -1, 0);
    CHECK_INT(n == 1 ? kifu_record_start_number(recs[0]) : 0, 6);
    kifu_write_options wo = {.format = KIFU_FMT_SFEN};
    char *sfen = n == 1 ? kifu_write(recs[0], &wo, NULL, &err) : NULL;
    CHECK_STR(sfen, "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/"
                    "LNSGKGSNL w - 6 moves 3c3d\n");
    kifu_free(sfen);
    kifu_free(s);
    free_all(recs, n);
    CHECK_INT(read_all(doc_example, KIFU_FMT_POSJSON, &recs, &n, &err), 0);
    CHECK_INT(n ? kifu_record_start_number(recs[0]) : 0, 1);
    free_all(recs, n);
    expect_error("[{\"bd\":\"" HIRATE_ "\",\"ply\":-1}]", "entry 0, ply", 1);
}

/* Nodes after the root along the main line (moves and endings). */
static int line_length(const kifu_record *r)
{
    int k = 0;
    for (const kifu_node *n = kifu_node_next(kifu_record_root(r)); n;
         n = kifu_node_next(n))
        k++;
    return k;
}

/* What a program that knows only bd, cb and cw keeps of kifu's file: the positions. */
static char *document_keys(const char *posjson)
{
    jv_doc v;
    if (jv_parse(&v, posjson, strlen(posjson), NULL, 0))
        return NULL;
    kifu__strbuf out;
    kifu__sb_init(&out);
    kifu__sb_putc(&out, '[');
    static const char *const keys[] = {"bd", "cb", "cw"};
    const jv *a = jv_root(&v);
    for (size_t i = 0; i < jv_size(a); i++) {
        const jv *e = jv_idx(a, i);
        /* an entry lacking one of them is left out */
        if (!jv_get(e, "bd") || !jv_get(e, "cb") || !jv_get(e, "cw"))
            continue;
        kifu__sb_puts(&out, out.len > 1 ? ", {" : "{");
        for (int k = 0; k < 3; k++) {
            kifu__sb_printf(&out, "%s\"%s\": ", k ? ", " : "", keys[k]);
            jv_write(&out, jv_get(e, keys[k]), JV_SPACED);
        }
        kifu__sb_putc(&out, '}');
    }
    kifu__sb_putc(&out, ']');
    jv_free(&v);
    char *s = kifu__sb_take(&out, NULL);
    char *copy = s ? strdup(s) : NULL; /* freed with free() */
    kifu__free(s);
    return copy;
}

/* An ending with a time and a comment rides on its move's entry: no entry repeats the
 * last board, so posjson -> posjson keeps one game, for kifu and for a reader that knows
 * only bd, cb and cw (it read the repeated board as a second game of 0 moves). */
TEST(ending_keeps_one_game)
{
    static const char kif[] = "手合割：平手\n手数----指手---------消費時間--\n"
                              "   1 ７六歩(77)   ( 0:01/00:00:01)\n"
                              "   2 ３四歩(33)   ( 0:02/00:00:02)\n"
                              "   3 投了   ( 0:03/00:00:04)\n*投了の前に長考\n"
                              "まで2手で後手の勝ち\n";
    kifu_record **recs = NULL;
    size_t n = 0;
    kifu_error err;
    CHECK_INT(read_all(kif, KIFU_FMT_KIFU, &recs, &n, &err), 0);
    char *s = n == 1 ? write_all(recs, n) : NULL;
    CHECK(s && strstr(s, "\"end\":{\"word\":\"TORYO\",\"time\":{\"now\":3,\"total\":4},"
                         "\"comments\":[\"投了の前に長考\"]}") != NULL);
    if (s) {
        round_trip(recs, n);
        for (int pass = 0; pass < 2; pass++) {
            char *plain = pass ? document_keys(s) : NULL;
            kifu_record **back = NULL;
            size_t m = 0;
            CHECK_INT(read_all(pass ? plain : s, KIFU_FMT_POSJSON, &back, &m, &err), 0);
            CHECK_INT(m, 1);
            CHECK_INT(m ? line_length(back[0]) : 0, pass ? 2 : 3);
            free_all(back, m);
            free(plain);
        }
    }
    kifu_free(s);
    free_all(recs, n);
}

TEST(errors_name_entry_and_field)
{
    expect_error("{\"bd\":\"" HIRATE "\"}", "JSON array", 1);
    expect_error("[\n{\"bd\":\"" HIRATE "\"},\n 3]", "entry 1, the entry", 3);
    expect_error("[\n{\"cb\":\"\"}]", "entry 0, bd: the board is missing", 2);
    expect_error("[{\"bd\":\"x" HIRATE "\"}]", "entry 0, bd: letter 1", 1);
    expect_error("[{\"bd\":\"dfhj\"}]", "the board is 4 letters long", 1);
    expect_error("[{\"bd\":\"" HIRATE "\",\"cb\":\"au\"}]", "entry 0, cb: letter 2", 1);
    expect_error("[{\"bd\":\"" HIRATE "\",\"turn\":\"x\"}]", "entry 0, turn", 1);
    expect_error("[{\"bd\":\"" HIRATE "\",\"mv\":82}]", "entry 0, mv", 1);
    expect_error("[{\"bd\":\"" HIRATE "\"},\n\n{\"bd\":\"" HIRATE "\",\"prev\":5}]",
                 "entry 1, prev", 3);
    expect_error("[{\"bd\":\"" HIRATE "\"},\n{\"bd\":\"" HIRATE "\",\"prev\":0}]",
                 "no legal move leads from entry 0", 2);
    /* An entry naming its move follows the one before it or is an error (a foul such as
     * 二歩 is not split off as a new record). */
    expect_error("[{\"bd\":\"" HIRATE "\"},\n{\"bd\":\"" HIRATE "\",\"usi\":\"P*5e\"}]",
                 "entry 1, usi: no legal move leads from entry 0", 2);
    expect_error("[{\"bd\":\"" HIRATE "\",\"comments\":\"x\"}]", "entry 0, comments", 1);
    expect_error("[{\"bd\":\"" HIRATE "\",\"time\":{\"now\":1}}]",
                 "only a move has a time", 1);
    /* Seconds past what a time holds (fuzz_posjson: 5e97 was cast to long). */
    expect_error("[{\"bd\":\"" HIRATE "\",\"time\":{\"now\":5.2e97}}]",
                 "seconds out of range", 1);
    expect_error("[{\"bd\":\"" HIRATE "\",\"time\":{\"now\":1,\"total\":-1}}]",
                 "seconds out of range", 1);
    expect_error("[{\"bd\":\"" HIRATE "\"", "JSON syntax", 1);
    /* Two kings for one side is no position. */
    expect_error(
        "[{\"bd\":\"dfhjvjhfdonooooolobbbbbbbbbooooooooooooooooooooooooooooaaaaaaaaao"
        "kooooomoceguuigec\"}]",
        "entry 0, bd", 1);
    /* A nineteenth pawn in a hand: the hand is named, not the board (issue 26). */
    expect_error("[{\"bd\":\"" HIRATE "\",\"cb\":\"a\"}]", "entry 0, cb: ", 1);
    expect_error("[{\"bd\":\"" HIRATE "\",\"cw\":\"b\"}]", "entry 0, cw: ", 1);
    expect_error("[{\"bd\":\"" HIRATE "\",\"cb\":\"mm\",\"cw\":\"n\"}]",
                 "entry 0, cb and cw: ", 1);
}

TEST(unknown_keys_warn)
{
    kifu_record **recs = NULL;
    size_t n = 0;
    kifu_error err;
    warnings = 0;
    CHECK_INT(read_all("[{\"bd\":\"" HIRATE "\",\"note\":\"x\"}]", KIFU_FMT_POSJSON,
                       &recs, &n, &err),
              0);
    CHECK_INT(warnings, 1);
    CHECK(strstr(last_warning, "\"note\"") != NULL);
    free_all(recs, n);
}

/* A .json file holding positions is posjson, one holding JKF is JKF. */
TEST(json_extension_detects_by_content)
{
    kifu_read_options o = {.source = "positions.json"};
    const char *text = "[{\"bd\":\"" HIRATE "\"}]";
    kifu_error err;
    kifu_record *r = kifu_read(text, strlen(text), &o, &err);
    CHECK(r != NULL);
    kifu_record_free(r);
    CHECK_INT(kifu_format_detect(text, strlen(text)), KIFU_FMT_POSJSON);
    const char *jkf = "{\"header\":{},\"moves\":[{}]}";
    CHECK_INT(kifu_format_detect(jkf, strlen(jkf)), KIFU_FMT_JKF);
}

int main(void)
{
    RUN(document_example_reads_and_writes_strict);
    RUN(game_with_forks_round_trips);
    RUN(handicap_and_tsume_round_trip);
    RUN(start_with_two_pawns_on_a_file_round_trips);
    RUN(ending_after_an_ending_round_trips);
    RUN(catalogue_round_trips);
    RUN(document_keys_only);
    RUN(errors_name_entry_and_field);
    RUN(unknown_keys_warn);
    RUN(json_extension_detects_by_content);
    RUN(document_sids_are_kept);
    RUN(ending_keeps_one_game);
    RUN(lost_sids_are_named_once);
    RUN(ply_keeps_the_move_number);
    return t_finish();
}
