/* test_html.c: the replay page (src/diagram/html.c): one document, the data block is JSON
 * whose positions are exactly what the posjson writer writes, text from a record cannot
 * end the page's elements, the options reach the page, --css replaces the stylesheet,
 * and running out of memory is an error. The page in a browser: tests/browser/. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "jsoncmp.h"
#include "jsonval.h"
#include "kifu_private.h"

static const char *const game =
    "先手：先手<太郎>\n後手：後手&花子\n手数----指手---------消費時間--\n"
    "*開始。</script><!-- #ply=2\n"
    "   1 ７六歩(77)   ( 0:05/00:00:05)\n"
    "   2 ３四歩(33)   ( 0:03/00:00:03)\n"
    "   3 ２二角成(88) ( 0:10/00:00:15)+\n"
    "*</style>角交換。\n"
    "   4 同　銀(31)   ( 0:04/00:00:07)\n"
    "   5 投了\n"
    "まで4手で後手の勝ち\n\n"
    "変化：3手\n   3 ２六歩(27)\n";

static size_t count(const char *s, const char *what)
{
    size_t n = 0;
    for (const char *p = s; (p = strstr(p, what)) != NULL; p += strlen(what))
        n++;
    return n;
}

static kifu_record *read_kif(const char *text)
{
    kifu_read_options ro = {.format = KIFU_FMT_KIF};
    return kifu_read(text, strlen(text), &ro, NULL);
}

/* The JSON of the page's data block (unload), or NULL. */
static jv_doc *data_of(const char *page)
{
    const char *open = "<script type=\"application/json\" id=\"kifu-data\">";
    const char *a = strstr(page, open);
    if (!a)
        return NULL;
    a += strlen(open);
    const char *b = strstr(a, "</script>");
    if (!b)
        return NULL;
    jv_doc *j = malloc(sizeof *j);
    char err[256];
    if (j && jv_parse(j, a, (size_t)(b - a), err, sizeof err)) {
        printf("  data block: %s\n", err);
        free(j);
        j = NULL;
    }
    return j;
}

static void unload(jv_doc *d)
{
    if (d)
        jv_free(d);
    free(d);
}

/* The document's value, or NULL. */
static const jv *R(const jv_doc *d)
{
    return d ? jv_root(d) : NULL;
}

TEST(page_embeds_the_posjson_of_each_record)
{
    kifu_record *r = read_kif(game);
    CHECK(r != NULL);
    const kifu_record *rs[2] = {r, r};
    kifu_error err = {0};
    size_t len = 0;
    char *page = kifu_html_write(rs, 2, NULL, &len, &err);
    CHECK(page != NULL);
    if (!page) {
        kifu_record_free(r);
        return;
    }
    CHECK_INT(len, strlen(page));
    CHECK(strncmp(page, "<!DOCTYPE html>\n", 16) == 0);
    CHECK(strstr(page, "</html>\n") != NULL);
    /* One data block and one script: the comment's "</script><!--" is not markup. */
    CHECK_INT(count(page, "</script"), 2);
    CHECK_INT(count(page, "<!--"), 0);
    CHECK_INT(count(page, "</style"), 1);
    /* No reference to anything outside the page. */
    CHECK_INT(count(page, "src="), 0);
    CHECK_INT(count(page, "<link"), 0);
    CHECK_INT(count(page, "http"), 1); /* the SVG namespace in the script, not a fetch */
    CHECK(strstr(page, "<title>先手&lt;太郎&gt; 対 後手&amp;花子</title>") != NULL);

    jv_doc *data = data_of(page);
    CHECK(data != NULL);
    kifu_write_options wo = {.format = KIFU_FMT_POSJSON};
    size_t pjlen = 0;
    char *pj = kifu_write(r, &wo, &pjlen, &err);
    CHECK(pj != NULL);
    const jv *records = jv_get(R(data), "records");
    CHECK_INT(jv_size(records), 2);
    for (size_t i = 0; pj && i < jv_size(records); i++) {
        char where[1024] = "";
        char *got = jv_dump(jv_get(jv_idx(records, i), "positions"), JV_SPACED);
        int same =
            got && jsoncmp_text(got, strlen(got), pj, pjlen, where, sizeof where) == 1;
        if (!same)
            printf("  record %zu: %s\n", i, where);
        CHECK(same);
        free(got);
    }
    /* The comment came through whole, markup and all. */
    const jv *first = jv_idx(jv_get(jv_idx(records, 0), "positions"), 0);
    CHECK_STR(jv_str(jv_idx(jv_get(first, "comments"), 0)), "開始。</script><!-- #ply=2");
    CHECK_STR(jv_str(jv_get(jv_get(R(data), "words"), "TORYO")), "投了");
    CHECK(jv_is(jv_get(R(data), "catalogue"), KIFU__JSON_FALSE));
    CHECK(jv_is(jv_get(jv_get(R(data), "options"), "intl"), KIFU__JSON_FALSE));
    unload(data);
    kifu_free(pj);
    kifu_free(page);
    kifu_record_free(r);
}

TEST(options_reach_the_page)
{
    kifu_record *r = read_kif(game);
    const kifu_record *rs[1] = {r};
    kifu_html_options o = {KIFU_HTML_INTL | KIFU_HTML_FLIP | KIFU_HTML_CATALOGUE,
                           "My <page>",
                           "body{color:red}</style><script>x()</script>",
                           NULL,
                           NULL,
                           0};
    char *page = kifu_html_write(rs, 1, &o, NULL, NULL);
    CHECK(page != NULL);
    if (!page) {
        kifu_record_free(r);
        return;
    }
    CHECK(strstr(page, "<title>My &lt;page&gt;</title>") != NULL);
    /* The user's stylesheet instead of the built-in one, unable to end <style>. */
    CHECK(strstr(page, "body{color:red}\\3c /style>\\3c script>x()\\3c /script>") !=
          NULL);
    CHECK(strstr(page, "--kifu-board") == NULL);
    CHECK_INT(count(page, "</style"), 1);
    CHECK_INT(count(page, "</script"), 2);
    jv_doc *data = data_of(page);
    const jv *opt = jv_get(R(data), "options");
    CHECK(jv_is(jv_get(opt, "intl"), KIFU__JSON_TRUE));
    CHECK(jv_is(jv_get(opt, "flip"), KIFU__JSON_TRUE));
    CHECK(jv_is(jv_get(opt, "twoChar"), KIFU__JSON_FALSE));
    /* Koma unless told plain; no size of its own unless given one. */
    CHECK_STR(jv_str(jv_get(opt, "pieces")), "koma");
    CHECK(strstr(page, "--kifu-piece-size: ") == NULL);
    CHECK(jv_is(jv_get(R(data), "catalogue"), KIFU__JSON_TRUE));
    unload(data);
    kifu_free(page);
    kifu_record_free(r);
}

/* --pieces plain and --piece-size: the data says the style, and the one size is set
 * after the stylesheet (the built-in or the user's), which lays out the rest from it. */
TEST(piece_style_and_size_reach_the_page)
{
    kifu_record *r = read_kif(game);
    const kifu_record *rs[1] = {r};
    kifu_html_options o = {.flags = KIFU_HTML_PLAIN, .piece_size = 32};
    char *page = kifu_html_write(rs, 1, &o, NULL, NULL);
    CHECK(page != NULL);
    jv_doc *data = page ? data_of(page) : NULL;
    CHECK_STR(jv_str(jv_get(jv_get(R(data), "options"), "pieces")), "plain");
    const char *size = page ? strstr(page, ":root { --kifu-piece-size: 32px; }") : NULL;
    CHECK(size != NULL);
    CHECK(size && size < strstr(page, "</style>"));
    /* The built-in stylesheet lays the viewer out from that size. */
    const char *css = kifu_html_asset("viewer.css");
    CHECK(count(css, "var(--kifu-piece-size)") >= 5);
    unload(data);
    kifu_free(page);
    kifu_record_free(r);
}

/* The header's result names the winner, as kifu show does, in the record's words. */
static void expect_result_as(const char *text, int format, const char *want)
{
    kifu_read_options ro = {.format = format};
    kifu_record *r = kifu_read(text, strlen(text), &ro, NULL);
    CHECK(r != NULL);
    if (!r)
        return;
    const kifu_record *rs[1] = {r};
    char *page = kifu_html_write(rs, 1, NULL, NULL, NULL);
    jv_doc *data = page ? data_of(page) : NULL;
    const jv *rec = jv_idx(jv_get(R(data), "records"), 0);
    const char *got = jv_str(jv_get(rec, "result"));
    CHECK_STR(got ? got : "(none)", want);
    unload(data);
    kifu_free(page);
    kifu_record_free(r);
}

static void expect_result(const char *kif, const char *want)
{
    expect_result_as(kif, KIFU_FMT_KIF, want);
}

TEST(result_names_the_winner)
{
    expect_result(game, "まで4手で後手の勝ち");
    /* A handicap game: 上手 moves first and 下手 resigns at ply 3. */
    expect_result("手合割：香落ち\n上手：上手氏\n下手：下手氏\n   1 ３四歩(33)\n"
                  "   2 ７六歩(77)\n   3 ８四歩(83)\n   4 投了\n",
                  "まで3手で上手の勝ち");
    /* A foul says who won, and which foul. */
    expect_result("手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ７五歩(76)\n"
                  "   4 ３五歩(34)\n   5 ７四歩(75)\n   6 ３六歩(35)\n   7 ７三歩成(74)\n"
                  "   8 同　桂(81)\n   9 ２五歩打\n  10 反則負け\n",
                  "まで9手で後手の勝ち (先手の反則負け：二歩)");
    expect_result("手合割：平手\n   1 ７六歩(77)\n   2 切れ負け\n",
                  "まで1手で先手の勝ち (切れ負け)");
    expect_result("手合割：平手\n   1 ７六歩(77)\n   2 千日手\n", "まで1手で千日手");
    expect_result("手合割：平手\n   1 ７六歩(77)\n", "(none)");
    /* CSA's %ILLEGAL_MOVE: the side to move lost by a foul (as show, the KIF まで line and
     * the index have it); the signed words name the side that fouled. */
    expect_result_as("V2.2\nPI\n+\n+7776FU\n%ILLEGAL_MOVE\n", KIFU_FMT_CSA,
                     "まで1手で先手の勝ち (後手の反則負け)");
    expect_result_as("V2.2\nPI\n+\n+7776FU\n%+ILLEGAL_ACTION\n", KIFU_FMT_CSA,
                     "まで1手で後手の勝ち (先手の反則負け)");
    expect_result_as("V2.2\nPI\n+\n+7776FU\n%-ILLEGAL_ACTION\n", KIFU_FMT_CSA,
                     "まで1手で先手の勝ち (後手の反則負け)");
    /* A CSA handicap game names its sides by sign only: 下手/上手, as its board says. */
    expect_result_as("V2.2\nN+下手氏\nN-上手氏\nPI11KY\n-\n-3334FU\n+7776FU\n%TORYO\n",
                     KIFU_FMT_CSA, "まで2手で下手の勝ち");
}

/* The text the page and the viewers share: its length as snprintf gives it, cut to fit. */
TEST(result_text_cut_to_fit)
{
    kifu_record *r = read_kif("手合割：平手\n   1 ７六歩(77)\n   2 切れ負け\n");
    char small[8], full[64];
    size_t need = r ? kifu_record_result_text(r, small, sizeof small) : 0;
    CHECK(need > sizeof small && strlen(small) == sizeof small - 1);
    CHECK_INT(r ? (long)kifu_record_result_text(r, full, sizeof full) : 0, (long)need);
    CHECK_STR(full, "まで1手で先手の勝ち (切れ負け)");
    CHECK_STR(r ? kifu_record_side_word(r, KIFU_WHITE) : NULL, "後手");
    kifu_record_free(r);
    r = read_kif("手合割：平手\n   1 ７六歩(77)\n");
    CHECK_INT(r ? (long)kifu_record_result_text(r, full, sizeof full) : 1, 0);
    CHECK_STR(full, "");
    kifu_record_free(r);
}

/* A handicap game without names: its sides are 下手 and 上手 on the board, as its KIF
 * says them; an even game leaves the page's own 先手 and 後手. */
TEST(handicap_sides_in_the_records_words)
{
    static const char *const texts[2] = {"手合割：香落ち\n   1 ３四歩(33)\n",
                                         "手合割：平手\n   1 ７六歩(77)\n"};
    for (int k = 0; k < 2; k++) {
        kifu_record *r = read_kif(texts[k]);
        const kifu_record *rs[1] = {r};
        char *page = r ? kifu_html_write(rs, 1, NULL, NULL, NULL) : NULL;
        jv_doc *data = page ? data_of(page) : NULL;
        const jv *rec = jv_idx(jv_get(R(data), "records"), 0);
        const jv *words = jv_get(rec, "sideWords");
        CHECK(rec != NULL);
        if (k == 0)
            CHECK(jv_is(words, KIFU__JSON_ARRAY) &&
                  strcmp(jv_str(jv_idx(words, 0)), "下手") == 0 &&
                  strcmp(jv_str(jv_idx(words, 1)), "上手") == 0);
        else
            CHECK(words == NULL);
        unload(data);
        kifu_free(page);
        kifu_record_free(r);
    }
}

TEST(assets_are_the_files)
{
    const char *js = kifu_html_asset("viewer.js");
    const char *css = kifu_html_asset("viewer.css");
    CHECK(js && css);
    CHECK(kifu_html_asset("viewer.html") == NULL);
    CHECK(kifu_html_asset(NULL) == NULL);
    /* Compiled from src/diagram/assets/ at build time: the same bytes. */
    char path[1024];
    snprintf(path, sizeof path, "%s/../src/diagram/assets/viewer.js", KIFU_TESTS_DIR);
    size_t n = 0;
    char *file = t_read_file(path, &n);
    CHECK(file != NULL);
    CHECK(file && js && strcmp(file, js) == 0);
    free(file);
    /* The script can sit in a <script> element as it is. */
    CHECK(js && strstr(js, "</script") == NULL && strstr(js, "<!--") == NULL);
    /* The board's own script, for every page that draws a position. */
    const char *board = kifu_html_asset("board.js");
    snprintf(path, sizeof path, "%s/../src/diagram/assets/board.js", KIFU_TESTS_DIR);
    file = t_read_file(path, &n);
    CHECK(file && board && strcmp(file, board) == 0);
    free(file);
    CHECK(board && strstr(board, "</script") == NULL && strstr(board, "<!--") == NULL);
    CHECK(css && strchr(css, '<') == NULL);
}

TEST(no_record_is_an_argument_error)
{
    kifu_error err = {0};
    CHECK(kifu_html_write(NULL, 0, NULL, NULL, &err) == NULL);
    CHECK_INT(err.code, KIFU_ERR_ARG);
}

TEST(out_of_memory_is_an_error)
{
    kifu_record *r = read_kif(game);
    const kifu_record *rs[1] = {r};
    int failures = 0;
    for (long n = 1; n < 400; n++) {
        kifu_error err = {0};
        kifu__alloc_fail_after(n);
        char *page = kifu_html_write(rs, 1, NULL, NULL, &err);
        kifu__alloc_fail_after(0);
        if (!page) {
            failures++;
            CHECK_INT(err.code, KIFU_ERR_NOMEM);
        }
        kifu_free(page);
    }
    CHECK(failures > 0);
    kifu_record_free(r);
}

int main(void)
{
    RUN(page_embeds_the_posjson_of_each_record);
    RUN(options_reach_the_page);
    RUN(piece_style_and_size_reach_the_page);
    RUN(result_names_the_winner);
    RUN(result_text_cut_to_fit);
    RUN(handicap_sides_in_the_records_words);
    RUN(assets_are_the_files);
    RUN(no_record_is_an_argument_error);
    RUN(out_of_memory_is_an_error);
    return t_finish();
}
