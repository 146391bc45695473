/* test_stream.c: the pieces a long output is written in, game by game, are the whole
 * output: kifu_write_nth's parts and end are kifu_write_all's bytes for every format of
 * several games (posjson's entry numbers carried from game to game, UTF-16's BOM once),
 * kifu_html_page_*'s are kifu_html_write's page, and kifu_read_each hands every game in
 * order. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "kifu_private.h"

static const char *const csa3 =
    "V2.2\nN+a\nN-b\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n/\n"
    "V2.2\nN+c\nN-d\nPI\n+\n+2726FU\n'a comment\n-8384FU\n+2625FU\n%CHUDAN\n/\n"
    "V2.2\nN+e\nN-f\nPI\n+\n+5756FU\n%KACHI\n";

static int keep(void *ctx, kifu_record *r, size_t index)
{
    kifu_record **v = ctx;
    kifu_error err = {0};
    CHECK(kifu_normalize(r, 0, &err) == 0);
    v[index] = r;
    return 0;
}

static size_t read3(kifu_record **v)
{
    kifu_read_options ro = {.format = KIFU_FMT_CSA};
    size_t n = 0;
    CHECK(kifu_read_each(csa3, strlen(csa3), &ro, keep, v, &n, NULL) == 0);
    CHECK_INT((int)n, 3);
    return n;
}

/* Appends bytes (kifu_free'd) of *len (read after the call that made them) to *acc. */
static void append(char **acc, size_t *alen, char *bytes, const size_t *lenp)
{
    size_t len = *lenp;
    CHECK(bytes != NULL);
    if (!bytes)
        return;
    *acc = realloc(*acc, *alen + len + 1);
    memcpy(*acc + *alen, bytes, len);
    *alen += len;
    (*acc)[*alen] = 0;
    kifu_free(bytes);
}

static void parts_are_the_whole(int format, int encoding)
{
    kifu_record *v[3] = {0};
    size_t n = read3(v);
    kifu_write_options wo = {.format = format, .encoding = encoding};
    size_t wlen = 0, alen = 0, state = 0, len = 0;
    char *whole = kifu_write_all((const kifu_record *const *)v, n, &wo, &wlen, NULL);
    char *acc = NULL;
    for (size_t i = 0; i < n; i++)
        append(&acc, &alen, kifu_write_nth(v[i], i, &state, &wo, &len, NULL), &len);
    append(&acc, &alen, kifu_write_nth(NULL, n, &state, &wo, &len, NULL), &len);
    CHECK(whole != NULL);
    CHECK_INT((int)alen, (int)wlen);
    CHECK(whole && acc && memcmp(whole, acc, wlen) == 0);
    kifu_free(whole);
    free(acc);
    for (size_t i = 0; i < n; i++)
        kifu_record_free(v[i]);
}

TEST(write_nth_parts_are_write_all)
{
    parts_are_the_whole(KIFU_FMT_CSA, 0);
    parts_are_the_whole(KIFU_FMT_SFEN, 0);
    parts_are_the_whole(KIFU_FMT_POSJSON, 0);
    parts_are_the_whole(KIFU_FMT_CSA, KIFU_ENC_UTF16);
    parts_are_the_whole(KIFU_FMT_CSA, KIFU_ENC_CP932);
}

TEST(posjson_numbers_carry_over)
{
    kifu_record *v[3] = {0};
    read3(v);
    kifu_write_options wo = {.format = KIFU_FMT_POSJSON};
    size_t state = 0;
    char *a = kifu_write_nth(v[0], 0, &state, &wo, NULL, NULL);
    char *b = kifu_write_nth(v[1], 1, &state, &wo, NULL, NULL);
    CHECK(a && strncmp(a, "[\n", 2) == 0);
    /* game 1 has 3 entries (start, 2 moves with the ending riding on the last) */
    CHECK(b && strstr(b, "\"sid\":3,") != NULL && strstr(b, "\"game\":2") != NULL);
    kifu_free(a);
    kifu_free(b);
    for (size_t i = 0; i < 3; i++)
        kifu_record_free(v[i]);
}

TEST(html_page_parts_are_the_page)
{
    kifu_record *v[3] = {0};
    size_t n = read3(v);
    kifu_html_options o = {.title = "t"};
    size_t wlen = 0, alen = 0, len = 0;
    char *whole = kifu_html_write((const kifu_record *const *)v, n, &o, &wlen, NULL);
    char *head = NULL, *acc = NULL;
    kifu_html_page *p = kifu_html_page_new(v[0], n, &o, &head, &len, NULL);
    CHECK(p != NULL);
    append(&acc, &alen, head, &len);
    for (size_t i = 0; p && i < n; i++)
        append(&acc, &alen, kifu_html_page_game(p, v[i], &len, NULL), &len);
    if (p)
        append(&acc, &alen, kifu_html_page_end(p, &len, NULL), &len);
    kifu_html_page_free(p);
    CHECK(whole && acc && alen == wlen && memcmp(whole, acc, wlen) == 0);
    /* every ending word, after the records */
    CHECK(acc && strstr(acc, "\"TORYO\":") && strstr(acc, "\"CHUDAN\":") &&
          strstr(acc, "\"KACHI\":"));
    kifu_error err = {0};
    CHECK(kifu_html_page_new(NULL, 0, NULL, &head, NULL, &err) == NULL);
    CHECK_INT(err.code, KIFU_ERR_ARG);
    kifu_free(whole);
    free(acc);
    for (size_t i = 0; i < n; i++)
        kifu_record_free(v[i]);
}

static int stop_at_two(void *ctx, kifu_record *r, size_t index)
{
    size_t *seen = ctx;
    kifu_record_free(r);
    (*seen)++;
    return index == 1;
}

TEST(read_each_stops_when_told)
{
    kifu_read_options ro = {.format = KIFU_FMT_CSA};
    size_t seen = 0, n = 0;
    CHECK(kifu_read_each(csa3, strlen(csa3), &ro, stop_at_two, &seen, &n, NULL) == 0);
    CHECK_INT((int)seen, 2);
    CHECK_INT((int)n, 3);
}

int main(void)
{
    RUN(write_nth_parts_are_write_all);
    RUN(posjson_numbers_carry_over);
    RUN(html_page_parts_are_the_page);
    RUN(read_each_stops_when_told);
    return t_finish();
}
