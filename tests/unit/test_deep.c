/* test_deep.c: every writer/reader pair of the format table on a record with 100,000
 * nested fork levels (issue 17: kifu wrote JKF deeper than about 680 levels that it could
 * not read back). Each format's text is read back (normalized) and written again: the
 * second text must equal the first, and a format that holds forks must give back every
 * node. Nothing on the way may recurse per level. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "kifu.h"
#include "testutil.h"

#define LEVELS 100000

static kifu_record *deep(void)
{
    kifu_record *r = t_nested_forks(LEVELS);
    kifu_error err;
    kifu_error_clear(&err);
    if (kifu_normalize(r, 0, &err))
        printf("    normalize: %s\n", err.message);
    return r;
}

static size_t main_line(const kifu_record *r)
{
    size_t n = 0;
    for (const kifu_node *x = kifu_node_next(kifu_record_root(r)); x;
         x = kifu_node_next(x))
        n++;
    return n;
}

TEST(every_format_round_trips_100000_nested_forks)
{
    kifu_record *r = deep();
    CHECK_INT(kifu_record_node_count(r), 2 * LEVELS + 1);
    for (size_t i = 0; i < kifu_format_count(); i++) {
        const kifu_format_info *fi = kifu_format_info_at(i);
        if (fi->game != KIFU_GAME_SHOGI)
            continue; /* another game's format (MSF): no shogi record to write */
        kifu_error err;
        size_t len = 0, len2 = 0;
        char *out = t_write_as(r, fi->format, KIFU_ENC_UTF8, &len, &err);
        CHECK(out != NULL);
        if (!out) {
            printf("    %s: write: %s\n", fi->name, err.message);
            continue;
        }
        kifu_record *back = t_read_text(out, len, fi->format, 0, &err);
        CHECK(back != NULL);
        if (!back) {
            printf("    %s: read back: %s\n", fi->name, err.message);
            kifu_free(out);
            continue;
        }
        if (fi->holds & KIFU_HOLDS_FORKS)
            CHECK_INT(kifu_record_node_count(back), 2 * LEVELS + 1);
        else
            CHECK_INT(main_line(back), 1); /* the main line: one dead end */
        char *again = t_write_as(back, fi->format, KIFU_ENC_UTF8, &len2, &err);
        CHECK(again != NULL);
        int same = again && len == len2 && memcmp(out, again, len) == 0;
        CHECK(same);
        if (!same)
            printf("    %s: the second text differs from the first\n", fi->name);
        kifu_free(again);
        kifu_record_free(back);
        kifu_free(out);
    }
    kifu_record_free(r);
}

int main(void)
{
    RUN(every_format_round_trips_100000_nested_forks);
    return t_finish();
}
