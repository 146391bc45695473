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

/* The NFKC mappings of index_nfkc.c, each against what NFKC (with lower case) gives:
 * half-width katakana with their voiced marks joined, a combining mark after a
 * full-width kana, full-width Latin, enclosed numbers, letters, katakana and
 * ideographs, era squares, ligatures, Roman numerals, superscripts, half-width
 * punctuation. */
TEST(nfkc_mappings)
{
    one("ｶﾞｯｺｳ", "ガッコウ", "", 0);
    one("ﾊﾟﾋﾟﾌﾟﾍﾟﾎﾟ", "パピプペポ", "", 0);
    one("ｳﾞｨｸﾀｰ", "ヴィクター", "", 0);
    one("ﾊﾞｶﾞﾎﾞﾝﾄﾞ", "バガボンド", "", 0);
    one("カ\u3099ク", "ガク", "", 0);
    one("か\u3099", "が", "", 0);
    one("ア\u3099", "ア\u3099", "", 0); /* no voiced ア: the mark stays */
    one("ＴａｒｏＢｏｔ", "tarobot", "", 0);
    one("①②⑳㉑㊿", "12202150", "", 0);
    one("Ⓐⓩ", "az", "", 0);
    one("㍻", "平成", "", 0);
    one("㊤㊥", "上中", "", 0);
    one("㋐㋾", "アヲ", "", 0);
    one("ﬁ", "fi", "", 0);
    one("Ⅻⅿ", "xiim", "", 0);
    one("x²³", "x23", "", 0);
    one("ﾀﾛｳ｡", "タロウ。", "", 0);
    one("羽生\u2003善治", "羽生善治", "", 0); /* an em space too */
    /* A rank written half-width or enclosed is a rank once folded. */
    one("ﾀﾛｳ ③段", "タロウ", "3段", 0);
    int out[4];
    CHECK_INT(kifu__nfkc_fold(0xff9e, out), 1);
    CHECK_INT(out[0], 0x3099);
    CHECK_INT(kifu__nfkc_fold(0x337f, out), 4); /* ㍿: 株式会社 */
    CHECK_INT(out[3], 0x793e);
    CHECK_INT(kifu__nfkc_compose(0x30cf, 0x309a), 0x30d1); /* ハ゜: パ */
    CHECK_INT(kifu__nfkc_compose(0x30ab, 0x309a), 0);      /* no カ゜ */
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
    RUN(nfkc_mappings);
    return t_finish();
}
