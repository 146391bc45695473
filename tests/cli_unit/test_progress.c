/* test_progress.c: the progress bar's line (cli/progress.c): percentage, rate, time left,
 * a long path shortened in the middle to the terminal's width, control characters hidden. */
#include <string.h>

#include "harness.h"
#include "progress.h"

/* Display columns as the bar counts them: CJK 2, others 1. */
static int cols(const char *s)
{
    int w = 0;
    for (; *s; s++)
        if (((unsigned char)*s & 0xC0) != 0x80)
            w += (unsigned char)*s >= 0xE1 ? 2 : 1;
    return w;
}

TEST(percentage_rate_and_time_left)
{
    char buf[512];
    cli_progress_line(buf, sizeof buf, 250, 1000, 10.0, "a.kif", 80);
    CHECK(strstr(buf, " 25%") != NULL);
    CHECK(strstr(buf, "250/1000") != NULL);
    CHECK(strstr(buf, "25.0/s") != NULL);
    CHECK(strstr(buf, "0:30 left") != NULL); /* 750 more at 25 per second */
    CHECK(strstr(buf, "[#####...............]") != NULL);
    CHECK(strstr(buf, "a.kif") != NULL);
    cli_progress_line(buf, sizeof buf, 10, 100000, 1.0, NULL, 80);
    CHECK(strstr(buf, "2:46:39 left") != NULL); /* 99990 s */
    cli_progress_line(buf, sizeof buf, 1000, 1000, 4.0, "x", 80);
    CHECK(strstr(buf, "100%") != NULL);
    CHECK(strstr(buf, "left") == NULL);
}

TEST(no_rate_before_any_time_passed)
{
    char buf[512];
    cli_progress_line(buf, sizeof buf, 0, 10, 0.0, "x.kif", 80);
    CHECK(strstr(buf, "/s") == NULL);
    CHECK(strstr(buf, "left") == NULL);
    CHECK(strstr(buf, "  0%") != NULL);
}

TEST(long_path_shortened_in_the_middle)
{
    const char *path = "records/2024/tournaments/the-long-club-championship-final-round/"
                       "game-000123-sente-wins.kif";
    char buf[512];
    for (int width = 80; width <= 140; width += 20) {
        cli_progress_line(buf, sizeof buf, 1, 3, 1.0, path, width);
        CHECK(cols(buf) <= width - 1);
        CHECK(strstr(buf, "records/") != NULL);       /* the head */
        CHECK(strstr(buf, "sente-wins.kif") != NULL); /* the tail */
        CHECK(strstr(buf, "\xE2\x80\xA6") != NULL);   /* … between */
    }
    /* Short enough: kept whole, no ellipsis. */
    cli_progress_line(buf, sizeof buf, 1, 3, 1.0, "dir/game.kif", 80);
    CHECK(strstr(buf, "dir/game.kif") != NULL);
    CHECK(strstr(buf, "\xE2\x80\xA6") == NULL);
    /* Too narrow for a useful label: none rather than a stub. */
    cli_progress_line(buf, sizeof buf, 1, 3, 1.0, path, 40);
    CHECK(strstr(buf, "kif") == NULL);
}

TEST(cjk_names_cut_on_characters)
{
    char buf[512];
    const char *path = "棋譜/第七十二期名人戦七番勝負/第一局から第七局まで/第三局.kif";
    cli_progress_line(buf, sizeof buf, 1, 3, 1.0, path, 80);
    CHECK(cols(buf) <= 79);
    CHECK(strstr(buf, "第三局.kif") != NULL);
    /* Every byte sequence still valid UTF-8: no lead byte cut from its trail. */
    for (const unsigned char *p = (const unsigned char *)buf; *p; p++)
        if (*p >= 0xE0) {
            CHECK((p[1] & 0xC0) == 0x80 && (p[2] & 0xC0) == 0x80);
            p += 2;
        }
}

TEST(control_characters_hidden)
{
    char buf[512];
    cli_progress_line(buf, sizeof buf, 1, 2, 1.0, "evil\033]0;title\007name.kif", 80);
    CHECK(strchr(buf, '\033') == NULL);
    CHECK(strchr(buf, '\007') == NULL);
    CHECK(strstr(buf, "evil?]0;title?name.kif") != NULL);
}

int main(void)
{
    RUN(percentage_rate_and_time_left);
    RUN(no_rate_before_any_time_passed);
    RUN(long_path_shortened_in_the_middle);
    RUN(cjk_names_cut_on_characters);
    RUN(control_characters_hidden);
    return t_finish();
}
