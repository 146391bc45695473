/* test_player_key.c: player names as records write them, turned into the index's key
 * (index_player.c): ranks, ratings, affiliations, colons, widths and spaces. */
#include "harness.h"
#include "index/index_private.h"

static void one(const char *name, const char *key, const char *rank, int rating)
{
    kifu__player p;
    kifu__player_parse(name, &p);
    CHECK_STR(p.key, key);
    CHECK_STR(p.rank, rank);
    CHECK_INT(p.rating, rating);
}

TEST(online_names)
{
    one("hashiryoma 二段", "hashiryoma", "二段", 0);
    one("hashiryoma", "hashiryoma", "", 0);
    one("hashiryo(1788)", "hashiryo", "", 1788);
    one(":NiisanBot(1662)", "niisanbot", "", 1662);
    one("NiisanBot 3dan", "niisanbot", "3dan", 0);
    one("Taro 5kyu", "taro", "5kyu", 0);
    one("taro3d", "taro3d", "", 0); /* English ranks only as words of their own */
    one("ＴａｒｏＢｏｔ（１５００）", "tarobot", "", 1500);
}

TEST(club_names)
{
    one("鎌田　睦生", "鎌田睦生", "", 0);
    one("鎌田　　睦生", "鎌田睦生", "", 0);
    one("鎌田睦生", "鎌田睦生", "", 0);
    one("五段　及川　直孝(北上)", "及川直孝", "五段", 0);
    one("及川直孝（北上）", "及川直孝", "", 0);
    one("初段 鎌田 睦生", "鎌田睦生", "初段", 0);
    one("女流二段　山田花子", "山田花子", "女流二段", 0);
    one("羽生善治名人", "羽生善治", "名人", 0);
    one("藤井聡太 竜王", "藤井聡太", "竜王", 0);
    one("ｶﾀｶﾅ", "カタカナ", "", 0);
    one("Ⅲ世", "iii世", "", 0);
}

TEST(what_is_only_a_rank_stays)
{
    one("名人", "名人", "", 0);
    one("", "", "", 0);
    one("  ", "", "", 0);
}

int main(void)
{
    RUN(online_names);
    RUN(club_names);
    RUN(what_is_only_a_rank_stays);
    return t_finish();
}
