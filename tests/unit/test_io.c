/* test_io.c: kifu_read / kifu_write dispatch (format by name, extension and content,
 * decoding before the reader, errors naming the source) and the CLI's atomic write.
 * Tests that need a reader or writer still being written skip while it reports
 * KIFU_ERR_UNSUPPORTED. */
#define _XOPEN_SOURCE 700 /* cli/outfile.c, included below, uses realpath */
#include <dirent.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "kifu.h"
#include "testutil.h"

/* The CLI's atomic writer (and the message printer it uses) are small files; compile them
 * in rather than link the CLI. */
#include "../../cli/input_guard.c"
#include "../../cli/message.c"
#include "../../cli/outfile.c"

TEST(format_names_and_extensions)
{
    CHECK_STR(kifu_format_name(KIFU_FMT_JKF), "jkf");
    CHECK_STR(kifu_format_name(KIFU_FMT_KI2U), "ki2u");
    CHECK_STR(kifu_format_name(KIFU_FMT_SFENLIST), "sfenlist");
    CHECK(kifu_format_name(KIFU_FMT_AUTO) == NULL);
    CHECK_INT(kifu_format_from_name("KIF"), KIFU_FMT_KIF);
    CHECK_INT(kifu_format_from_name(".csa"), KIFU_FMT_CSA);
    CHECK_INT(kifu_format_from_name("json"), KIFU_FMT_JKF);
    CHECK_INT(kifu_format_from_name("usi"), KIFU_FMT_SFEN);
    CHECK_INT(kifu_format_from_name("pgn"), KIFU_FMT_AUTO);
    CHECK_INT(kifu_format_from_name(NULL), KIFU_FMT_AUTO);
    CHECK_INT(kifu_format_from_path("games/a.kifu"), KIFU_FMT_KIFU);
    CHECK_INT(kifu_format_from_path("A.KI2"), KIFU_FMT_KI2);
    CHECK_INT(kifu_format_from_path("x.ki2u"), KIFU_FMT_KI2U);
    /* A dot in a directory name is not an extension. */
    CHECK_INT(kifu_format_from_path("v1.kif/game"), KIFU_FMT_AUTO);
    CHECK_INT(kifu_format_from_path("README"), KIFU_FMT_AUTO);
    CHECK_INT(kifu_format_from_path(NULL), KIFU_FMT_AUTO);
}

static int detect(const char *s)
{
    return kifu_format_detect(s, strlen(s));
}

TEST(format_detection_by_content)
{
    CHECK_INT(detect("V2.2\nN+a\nPI\n+\n+7776FU\n"), KIFU_FMT_CSA);
    CHECK_INT(detect("'comment first\nPI\n+\n"), KIFU_FMT_CSA);
    CHECK_INT(detect("+\n+7776FU\n-3334FU\n"), KIFU_FMT_CSA);
    CHECK_INT(detect("  {\"header\":{},\"moves\":[{}]}"), KIFU_FMT_JKF);
    CHECK_INT(detect("\xEF\xBB\xBF{\"moves\":[]}"), KIFU_FMT_JKF);
    CHECK_INT(detect("position startpos moves 7g7f\n"), KIFU_FMT_SFEN);
    CHECK_INT(detect("startpos"), KIFU_FMT_SFEN);
    CHECK_INT(detect("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n"),
              KIFU_FMT_SFEN);
    CHECK_INT(
        detect("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n"
               "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2\n"),
        KIFU_FMT_SFENLIST);
    CHECK_INT(detect("# comment\n手合割：平手\n手数----指手---------消費時間--\n"
                     "   1 ７六歩(77)   ( 0:01/00:00:01)\n"),
              KIFU_FMT_KIFU);
    CHECK_INT(detect("手合割：平手\n\n▲７六歩    △３四歩\n"), KIFU_FMT_KI2U);
    CHECK_INT(detect("hello world\n"), KIFU_FMT_AUTO);
    CHECK_INT(detect(""), KIFU_FMT_AUTO);
}

TEST(unknown_content_is_an_error_naming_the_source)
{
    kifu_read_options o = {KIFU_FMT_AUTO, KIFU_ENC_AUTO, 0, "notes.txt", NULL, NULL};
    kifu_error err;
    kifu_error_clear(&err);
    const char text[] = "hello world\n";
    CHECK(kifu_read(text, sizeof text - 1, &o, &err) == NULL);
    CHECK_INT(err.code, KIFU_ERR_UNSUPPORTED);
    CHECK_STR(err.source, "notes.txt");
    CHECK(err.message[0] != 0);
    kifu_record *sentinel[1];
    kifu_record **all = sentinel; /* must be reset to NULL on failure */
    size_t n = 99;
    kifu_error_clear(&err);
    CHECK_INT(kifu_read_all(text, sizeof text - 1, &o, &all, &n, &err), -1);
    CHECK(all == NULL);
    CHECK_INT(n, 0);
    /* A NULL error pointer is allowed. */
    CHECK(kifu_read(text, sizeof text - 1, &o, NULL) == NULL);
}

TEST(missing_file_is_an_io_error)
{
    kifu_error err;
    kifu_error_clear(&err);
    CHECK(kifu_read_file("/nonexistent-dir/game.kif", NULL, &err) == NULL);
    CHECK_INT(err.code, KIFU_ERR_IO);
    CHECK_STR(err.source, "/nonexistent-dir/game.kif");
}

TEST(decoding_happens_before_the_reader)
{
    /* Bytes that are not UTF-8 (CP932 for 先手) read as forced UTF-8: an encoding error
     * whatever the KIF reader can do. */
    const char sjis[] = "\x90\xe6\x8e\xe8\x81\x46\x82\xa0\n";
    kifu_read_options o = {KIFU_FMT_KIF, KIFU_ENC_UTF8, 0, "a.kif", NULL, NULL};
    kifu_error err;
    kifu_error_clear(&err);
    CHECK(kifu_read(sjis, sizeof sjis - 1, &o, &err) == NULL);
    CHECK_INT(err.code, KIFU_ERR_ENCODING);
    CHECK_STR(err.source, "a.kif");
    CHECK_INT(err.line, 1);
    /* JKF is JSON, UTF-8 by definition: AUTO does not fall back to CP932 for it. */
    const char json[] = "{\"header\":{\"\x90\xe6\x8e\xe8\":\"x\"},\"moves\":[{}]}";
    kifu_read_options j = {KIFU_FMT_JKF, KIFU_ENC_AUTO, 0, "a.jkf", NULL, NULL};
    kifu_error_clear(&err);
    CHECK(kifu_read(json, sizeof json - 1, &j, &err) == NULL);
    CHECK_INT(err.code, KIFU_ERR_ENCODING);
}

TEST(write_needs_a_format)
{
    kifu_record *r = kifu_record_new();
    CHECK(r != NULL);
    kifu_error err;
    kifu_error_clear(&err);
    kifu_write_options w = {KIFU_FMT_AUTO, KIFU_ENC_AUTO, 0, NULL, NULL};
    size_t len = 7;
    CHECK(kifu_write(r, &w, &len, &err) == NULL);
    CHECK_INT(err.code, KIFU_ERR_ARG);
    kifu_error_clear(&err);
    CHECK(kifu_write(r, NULL, &len, &err) == NULL);
    CHECK_INT(err.code, KIFU_ERR_ARG);
    kifu_record_free(r);
}

/* Reads text as `format`; skips the test (returns NULL) when that reader is a stand-in.
 */
static kifu_record *read_or_skip(const char *text, int format, int *skip)
{
    kifu_read_options o = {format, KIFU_ENC_AUTO, 0, NULL, NULL, NULL};
    kifu_error err;
    kifu_error_clear(&err);
    kifu_record *r = kifu_read(text, strlen(text), &o, &err);
    *skip = !r && err.code == KIFU_ERR_UNSUPPORTED;
    if (!r && !*skip)
        printf("  read failed: %s\n", err.message);
    return r;
}

static size_t line_moves(const kifu_record *r)
{
    size_t n = 0;
    for (const kifu_node *nd = kifu_node_next(kifu_record_root(r)); nd;
         nd = kifu_node_next(nd))
        n += kifu_node_kind_of(nd) == KIFU_NODE_MOVE;
    return n;
}

TEST(sfen_through_jkf_and_back)
{
    int skip;
    kifu_record *r =
        read_or_skip("position startpos moves 7g7f 3c3d 8h2b+", KIFU_FMT_AUTO, &skip);
    if (skip)
        SKIP("SFEN reader or normalizer not in this build");
    CHECK(r != NULL);
    if (!r)
        return;
    CHECK_INT(line_moves(r), 3);
    kifu_write_options w = {KIFU_FMT_JKF, KIFU_ENC_AUTO, 0, NULL, NULL};
    kifu_error err;
    kifu_error_clear(&err);
    size_t len = 0;
    char *json = kifu_write(r, &w, &len, &err);
    if (!json && err.code == KIFU_ERR_UNSUPPORTED) {
        kifu_record_free(r);
        SKIP("JKF writer not in this build");
    }
    CHECK(json != NULL);
    CHECK(json && len == strlen(json));
    kifu_record *back = json ? read_or_skip(json, KIFU_FMT_AUTO, &skip) : NULL;
    CHECK(back != NULL);
    if (back) {
        CHECK_INT(line_moves(back), 3);
        const kifu_node *third =
            kifu_node_next(kifu_node_next(kifu_node_next(kifu_record_root(back))));
        const kifu_move *m = third ? t_move(third) : NULL;
        CHECK(m != NULL);
        if (m) {
            CHECK_INT(m->from_x, 8);
            CHECK_INT(m->from_y, 8);
            CHECK_INT(m->to_x, 2);
            CHECK_INT(m->to_y, 2);
            CHECK_INT(m->piece, KIFU_KA);
            CHECK_INT(m->promote, 1);
            CHECK_INT(m->capture, KIFU_KA);
        }
    }
    kifu_free(json);
    kifu_record_free(back);
    kifu_record_free(r);
}

static const void *contains(const char *hay, size_t n, const char *needle, size_t k)
{
    for (size_t i = 0; i + k <= n; i++)
        if (memcmp(hay + i, needle, k) == 0)
            return hay + i;
    return NULL;
}

TEST(kif_is_written_in_cp932_unless_asked)
{
    kifu_record *r = kifu_record_new();
    kifu_record_header_add(r, "先手", "歩");
    kifu_write_options w = {KIFU_FMT_KIF, KIFU_ENC_AUTO, 0, NULL, NULL};
    kifu_error err;
    kifu_error_clear(&err);
    size_t len;
    char *kif = kifu_write(r, &w, &len, &err);
    if (!kif && err.code == KIFU_ERR_UNSUPPORTED) {
        kifu_record_free(r);
        SKIP("KIF writer not in this build");
    }
    CHECK(kif != NULL);
    /* 先手 in CP932 is 90 E6 8E E8; in UTF-8 it would start E5 85 88. */
    CHECK(kif && contains(kif, len, "\x90\xe6\x8e\xe8", 4) != NULL);
    CHECK(kif && contains(kif, len, "\xe5\x85\x88", 3) == NULL);
    kifu_free(kif);
    w.format = KIFU_FMT_KIFU;
    kif = kifu_write(r, &w, &len, &err);
    CHECK(kif && contains(kif, len, "先手", strlen("先手")) != NULL);
    kifu_free(kif);
    kifu_record_free(r);
}

TEST(csa_file_with_two_games_reads_both)
{
    const char two[] = "PI\n+\n+7776FU\n-3334FU\n%TORYO\n/\nPI\n+\n+2726FU\n%CHUDAN\n";
    kifu_read_options o = {KIFU_FMT_CSA, KIFU_ENC_AUTO, 0, "two.csa", NULL, NULL};
    kifu_error err;
    kifu_error_clear(&err);
    kifu_record **all = NULL;
    size_t n = 0;
    if (kifu_read_all(two, sizeof two - 1, &o, &all, &n, &err) != 0) {
        if (err.code == KIFU_ERR_UNSUPPORTED)
            SKIP("CSA reader or normalizer not in this build");
        printf("  %s\n", err.message);
    }
    CHECK_INT(n, 2);
    if (n == 2) {
        CHECK_INT(line_moves(all[0]), 2);
        CHECK_INT(line_moves(all[1]), 1);
    }
    for (size_t i = 0; i < n; i++)
        kifu_record_free(all[i]);
    kifu_free(all);
    /* kifu_read keeps the first game only. */
    kifu_error_clear(&err);
    kifu_record *first = kifu_read(two, sizeof two - 1, &o, &err);
    CHECK(first != NULL);
    if (first)
        CHECK_INT(line_moves(first), 2);
    kifu_record_free(first);
}

/* ---- atomic write (cli/outfile.c) ----------------------------------------------------
 */

static char tmpdir[64];

static size_t entries(const char *dir)
{
    DIR *d = opendir(dir);
    size_t n = 0;
    struct dirent *de;
    while (d && (de = readdir(d)))
        n += de->d_name[0] != '.';
    if (d)
        closedir(d);
    return n;
}

TEST(atomic_write_creates_and_replaces)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/kifu-test-io-XXXXXX");
    CHECK(mkdtemp(tmpdir) != NULL);
    char path[128];
    snprintf(path, sizeof path, "%s/out.jkf", tmpdir);
    CHECK_INT(cli_write_file(path, "first", 5), 0);
    size_t len;
    char *got = t_read_file(path, &len);
    CHECK(got && len == 5 && memcmp(got, "first", 5) == 0);
    free(got);
    CHECK_INT(cli_write_file(path, "second\n", 7), 0);
    got = t_read_file(path, &len);
    CHECK(got && len == 7 && memcmp(got, "second\n", 7) == 0);
    free(got);
    /* An empty output is a file of zero bytes, not a missing one. */
    CHECK_INT(cli_write_file(path, "", 0), 0);
    struct stat st;
    CHECK(stat(path, &st) == 0 && st.st_size == 0);
    /* No temporary file is left beside it. */
    CHECK_INT(entries(tmpdir), 1);
    /* A new file gets the mode fopen would give it; a replaced one keeps its own. */
    mode_t mask = umask(022);
    unlink(path);
    CHECK_INT(cli_write_file(path, "x", 1), 0);
    CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0644);
    CHECK_INT(chmod(path, 0604), 0);
    CHECK_INT(cli_write_file(path, "y", 1), 0);
    CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0604);
    umask(mask);
    unlink(path);
}

TEST(atomic_write_failure_leaves_nothing)
{
    char path[160];
    snprintf(path, sizeof path, "%s/no-such-dir/out.jkf", tmpdir);
    CHECK_INT(cli_write_file(path, "data", 4), -1);
    struct stat st;
    CHECK(stat(path, &st) != 0);
    /* A directory in the way: the rename fails and the temp file is removed. */
    char dir[160];
    snprintf(dir, sizeof dir, "%s/taken", tmpdir);
    CHECK_INT(mkdir(dir, 0700), 0);
    CHECK_INT(cli_write_file(dir, "data", 4), -1);
    CHECK(stat(dir, &st) == 0 && S_ISDIR(st.st_mode));
    CHECK_INT(entries(tmpdir), 1);
    rmdir(dir);
    rmdir(tmpdir);
}

/* Detection runs on decoded text: a CP932 KI2 without a name (standard input) is KI2. */
TEST(cp932_ki2_without_a_name_reads_as_ki2)
{
    const char *ki2 = "手合割：平手\n先手：甲\n\n▲７六歩    △３四歩    ▲２二角成\n"
                      "△同　銀    ▲４五角打\nまで5手で中断\n";
    kifu_read_options u = {.format = KIFU_FMT_KI2U};
    kifu_error err;
    kifu_error_clear(&err);
    kifu_record *r = kifu_read(ki2, strlen(ki2), &u, &err);
    CHECK(r != NULL);
    if (!r)
        return;
    kifu_write_options w = {.format = KIFU_FMT_KI2}; /* CP932 */
    size_t len;
    char *bytes = kifu_write(r, &w, &len, &err);
    CHECK(bytes != NULL && memchr(bytes, 0x81, len) != NULL); /* Shift-JIS lead bytes */
    CHECK_INT(kifu_format_detect(bytes, len), KIFU_FMT_KI2U);
    kifu_read_options none = {0};
    kifu_record *back = kifu_read(bytes, len, &none, &err);
    CHECK(back != NULL);
    if (back) {
        const kifu_node *n = kifu_record_root(back);
        int moves = 0;
        while ((n = kifu_node_next(n)) != NULL)
            moves += t_move(n) != NULL;
        CHECK_INT(moves, 5);
        CHECK_STR(kifu_record_header_get(back, "先手"), "甲");
    }
    kifu_record_free(back);
    kifu_free(bytes);
    kifu_record_free(r);
}

/* The format table: every row named, with extensions that lead back to it. */
/* Lines ending in CR alone (old Mac files) read as lines in every line-based format. */
TEST(cr_only_line_ends)
{
    static const struct {
        int fmt;
        const char *text;
        size_t moves;
    } cases[] = {
        {KIFU_FMT_KIFU,
         "先手：甲\r後手：乙\r手数----指手---------消費時間--\r   1 ７六歩(77)   ( "
         "0:01/)\r"
         "   2 ３四歩(33)   ( 0:02/)\r*a comment\r",
         2},
        {KIFU_FMT_KI2U, "先手：甲\r後手：乙\r\r▲７六歩    △３四歩\r▲２六歩\r", 3},
        {KIFU_FMT_CSA, "N+甲\rPI\r+\r+7776FU\r-3334FU\r", 2},
        {KIFU_FMT_SFEN, "position startpos moves 7g7f 3c3d\r", 2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        kifu_read_options o = {.format = cases[i].fmt};
        kifu_error err;
        kifu_error_clear(&err);
        kifu_record *r = kifu_read(cases[i].text, strlen(cases[i].text), &o, &err);
        CHECK(r != NULL);
        if (!r) {
            printf("  case %zu: %s\n", i, err.message);
            continue;
        }
        CHECK_INT(line_moves(r), cases[i].moves);
        if (cases[i].fmt != KIFU_FMT_SFEN) {
            const char *who = kifu_record_header_get(r, "先手");
            CHECK(who && strcmp(who, "甲") == 0);
        }
        kifu_record_free(r);
    }
    /* A KIF whose line ends were all lost is an error, not a header and an empty game. */
    const char joined[] = "先手：甲 後手：乙 手数----指手---- 1 ７六歩(77)";
    kifu_read_options o = {.format = KIFU_FMT_KIFU};
    kifu_error err;
    kifu_error_clear(&err);
    CHECK(kifu_read(joined, sizeof joined - 1, &o, &err) == NULL);
    CHECK_INT(err.line, 1);
    CHECK_INT(err.column, 6);
    CHECK(strstr(err.message, "line ends") != NULL);
    /* One line of KI2 moves is a record. */
    const char moves[] = "▲７六歩 △３四歩";
    o.format = KIFU_FMT_KI2U;
    kifu_record *r = kifu_read(moves, sizeof moves - 1, &o, &err);
    CHECK(r && line_moves(r) == 2);
    kifu_record_free(r);
}

/* An input of nothing, or of white space only, is one error whatever the format. */
TEST(empty_input_is_an_error_in_every_format)
{
    const char *inputs[] = {"", "\n\n", " \r\n\t"};
    for (int f = KIFU_FMT_AUTO; f < KIFU_FMT_COUNT_; f++) {
        for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
            kifu_read_options o = {.format = f, .source = "empty"};
            kifu_error err;
            kifu_error_clear(&err);
            kifu_record *r = kifu_read(inputs[i], strlen(inputs[i]), &o, &err);
            CHECK(r == NULL);
            kifu_record_free(r);
            CHECK_INT(err.code, KIFU_ERR_SYNTAX);
            CHECK_STR(err.message, "the input is empty");
        }
    }
    /* A SFEN hand count with too many digits says so. */
    const char sfen[] = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b "
                        "99999999999P 1";
    kifu_read_options o = {.format = KIFU_FMT_SFEN};
    kifu_error err;
    kifu_error_clear(&err);
    CHECK(kifu_read(sfen, sizeof sfen - 1, &o, &err) == NULL);
    CHECK(strstr(err.message, "count of 11 digits") != NULL);
}

static void count_warning(void *ctx, const char *message)
{
    (void)message;
    ++*(int *)ctx;
}

/* A NUL byte is an error at its place; lenient reading replaces it and warns. */
TEST(nul_bytes)
{
    const char text[] =
        "先手：甲\0乙\n手数----指手----\n   1 ７六歩(77)\n   2 ３四\0歩(33)\n";
    kifu_read_options o = {.format = KIFU_FMT_KIFU};
    kifu_error err;
    kifu_error_clear(&err);
    CHECK(kifu_read(text, sizeof text - 1, &o, &err) == NULL);
    CHECK_INT(err.line, 1);
    CHECK_INT(err.column, 5);
    CHECK(strstr(err.message, "NUL") != NULL);
    int warnings = 0;
    o.flags = KIFU_READ_LENIENT | KIFU_READ_NO_NORMALIZE;
    o.warn = count_warning;
    o.warn_ctx = &warnings;
    kifu_error_clear(&err);
    /* The header keeps what follows the NUL; the move line says what it found. */
    kifu_record *r = kifu_read(text, sizeof text - 1, &o, &err);
    CHECK(r == NULL);
    CHECK_INT(err.line, 4);
    CHECK(strstr(err.message, "\xEF\xBF\xBD") != NULL);
    CHECK_INT(warnings, 1);
    const char header_only[] = "先手：甲\0乙\n手数----指手----\n   1 ７六歩(77)\n";
    r = kifu_read(header_only, sizeof header_only - 1, &o, &err);
    CHECK(r != NULL);
    if (r) {
        const char *who = kifu_record_header_get(r, "先手");
        CHECK(who && strcmp(who, "甲\xEF\xBF\xBD乙") == 0);
    }
    kifu_record_free(r);
}

TEST(format_table)
{
    CHECK(kifu_format_count() >= 8);
    for (size_t i = 0; i < kifu_format_count(); i++) {
        const kifu_format_info *f = kifu_format_info_at(i);
        CHECK(f && f->name && f->extensions && f->description);
        CHECK(kifu_format_info_of(f->format) == f);
        CHECK_INT(kifu_format_from_name(f->name), f->format);
        char first[16];
        snprintf(first, sizeof first, "%.*s", (int)strcspn(f->extensions, " "),
                 f->extensions);
        char path[32];
        snprintf(path, sizeof path, "dir/game.%s", first);
        CHECK_INT(kifu_format_from_path(path), f->format);
    }
    CHECK(kifu_format_info_at(kifu_format_count()) == NULL);
    CHECK((kifu_format_info_of(KIFU_FMT_JKF)->holds & KIFU_HOLDS_FORKS) != 0);
    CHECK((kifu_format_info_of(KIFU_FMT_CSA)->holds & KIFU_HOLDS_FORKS) == 0);
    CHECK_INT(kifu_format_info_of(KIFU_FMT_KIF)->encoding, KIFU_ENC_CP932);
}

int main(void)
{
    RUN(cp932_ki2_without_a_name_reads_as_ki2);
    RUN(format_table);
    RUN(cr_only_line_ends);
    RUN(nul_bytes);
    RUN(empty_input_is_an_error_in_every_format);
    RUN(format_names_and_extensions);
    RUN(format_detection_by_content);
    RUN(unknown_content_is_an_error_naming_the_source);
    RUN(missing_file_is_an_io_error);
    RUN(decoding_happens_before_the_reader);
    RUN(write_needs_a_format);
    RUN(sfen_through_jkf_and_back);
    RUN(kif_is_written_in_cp932_unless_asked);
    RUN(csa_file_with_two_games_reads_both);
    RUN(atomic_write_creates_and_replaces);
    RUN(atomic_write_failure_leaves_nothing);
    return t_finish();
}
