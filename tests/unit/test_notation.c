/* test_notation.c: readable move text of every move kind, ending words, and the parser of
 * typed moves (USI, KIF/KI2 Japanese, "77 76", drops) with promotion and errors. */
#include "harness.h"
#include "kifu.h"
#include "notation/notation.h"

static kifu_move mv(int color, int fx, int fy, int tx, int ty, int piece, int promote)
{
    kifu_move m = {0};
    m.color = (uint8_t)color;
    m.from_x = (uint8_t)fx;
    m.from_y = (uint8_t)fy;
    m.to_x = (uint8_t)tx;
    m.to_y = (uint8_t)ty;
    m.piece = (uint8_t)piece;
    m.promote = (int8_t)promote;
    m.same = -1;
    if (!fx)
        m.flags = KIFU_MOVE_DROP;
    return m;
}

static const char *text(const kifu_move *m, const kifu_move *prev, unsigned style)
{
    static char buf[128];
    return kifu_move_text(m, prev, style, buf, sizeof buf);
}

TEST(text_plain_move)
{
    kifu_move m = mv(KIFU_BLACK, 7, 7, 7, 6, KIFU_FU, -1);
    CHECK_STR(text(&m, NULL, KIFU_TEXT_KIF), "☗７六歩(77)");
    CHECK_STR(text(&m, NULL, KIFU_TEXT_KI2), "☗７六歩");
    CHECK_STR(text(&m, NULL, KIFU_TEXT_FROM), "７六歩(77)");
    CHECK_STR(text(&m, NULL, 0), "７六歩");
    kifu_move w = mv(KIFU_WHITE, 3, 3, 3, 4, KIFU_FU, -1);
    CHECK_STR(text(&w, &m, KIFU_TEXT_KIF), "☖３四歩(33)");
}

TEST(text_same)
{
    kifu_move prev = mv(KIFU_BLACK, 8, 8, 2, 2, KIFU_KA, 1);
    kifu_move m = mv(KIFU_WHITE, 3, 1, 2, 2, KIFU_GI, -1);
    CHECK_STR(text(&m, &prev, KIFU_TEXT_KIF), "☖同　銀(31)");
    CHECK_STR(text(&m, &prev, KIFU_TEXT_KI2), "☖同　銀");
    /* without prev the move's own `same` decides */
    m.same = 1;
    CHECK_STR(text(&m, NULL, KIFU_TEXT_KI2), "☖同　銀");
    m.same = -1;
    CHECK_STR(text(&m, NULL, KIFU_TEXT_KI2), "☖２二銀");
    /* a two-character name takes no spacer */
    kifu_move ny = mv(KIFU_BLACK, 2, 3, 2, 2, KIFU_NY, -1);
    CHECK_STR(text(&ny, &prev, KIFU_TEXT_KIF), "☗同成香(23)");
}

TEST(text_drop)
{
    kifu_move m = mv(KIFU_BLACK, 0, 0, 5, 5, KIFU_KA, -1);
    CHECK_STR(text(&m, NULL, KIFU_TEXT_KIF), "☗５五角打");
    /* KI2 writes 打 only when the relative word says so */
    CHECK_STR(text(&m, NULL, KIFU_TEXT_KI2), "☗５五角");
    m.relative[0] = 'H';
    CHECK_STR(text(&m, NULL, KIFU_TEXT_KI2), "☗５五角打");
    CHECK_STR(text(&m, NULL, KIFU_TEXT_KIF), "☗５五角打");
}

TEST(text_promotion)
{
    kifu_move m = mv(KIFU_BLACK, 8, 8, 2, 2, KIFU_KA, 1);
    CHECK_STR(text(&m, NULL, KIFU_TEXT_KIF), "☗２二角成(88)");
    kifu_move prev = mv(KIFU_WHITE, 2, 1, 2, 2, KIFU_KE, -1);
    kifu_move no = mv(KIFU_BLACK, 3, 3, 2, 2, KIFU_GI, 0);
    CHECK_STR(text(&no, &prev, KIFU_TEXT_KIF), "☗同　銀不成(33)");
    CHECK_STR(text(&no, &prev, KIFU_TEXT_KI2), "☗同　銀不成");
    /* a forced promotion reads 成 even when promote says "no choice" */
    kifu_move p = mv(KIFU_BLACK, 1, 2, 1, 1, KIFU_FU, -1);
    CHECK_STR(text(&p, NULL, KIFU_TEXT_KIF), "☗１一歩成(12)");
    kifu_move k = mv(KIFU_WHITE, 2, 7, 3, 9, KIFU_KE, -1);
    CHECK_STR(text(&k, NULL, KIFU_TEXT_KIF), "☖３九桂成(27)");
    kifu_move k2 = mv(KIFU_WHITE, 2, 6, 3, 8, KIFU_KE, -1);
    CHECK_STR(text(&k2, NULL, KIFU_TEXT_KIF), "☖３八桂成(26)");
    kifu_move k3 = mv(KIFU_BLACK, 2, 5, 3, 3, KIFU_KE, -1);
    CHECK_STR(text(&k3, NULL, KIFU_TEXT_KIF), "☗３三桂(25)");
}

TEST(text_relative_and_promoted_pieces)
{
    kifu_move m = mv(KIFU_BLACK, 6, 9, 7, 8, KIFU_KI, -1);
    m.relative[0] = 'R';
    CHECK_STR(text(&m, NULL, KIFU_TEXT_KI2), "☗７八金右");
    CHECK_STR(text(&m, NULL, KIFU_TEXT_KIF), "☗７八金(69)"); /* KIF has no relative */
    kifu_move g = mv(KIFU_WHITE, 6, 1, 5, 2, KIFU_KI, -1);
    g.relative[0] = 'L';
    g.relative[1] = 'U';
    CHECK_STR(text(&g, NULL, KIFU_TEXT_KI2), "☖５二金左上");
    kifu_move c = mv(KIFU_BLACK, 5, 9, 5, 8, KIFU_GI, -1);
    c.relative[0] = 'C';
    CHECK_STR(text(&c, NULL, KIFU_TEXT_KI2), "☗５八銀直");
    kifu_move d = mv(KIFU_BLACK, 4, 4, 4, 5, KIFU_RY, -1);
    d.relative[0] = 'D';
    CHECK_STR(text(&d, NULL, KIFU_TEXT_KI2), "☗４五龍引");
    kifu_move h = mv(KIFU_WHITE, 1, 1, 5, 5, KIFU_UM, -1);
    h.relative[0] = 'M';
    CHECK_STR(text(&h, NULL, KIFU_TEXT_KIF), "☖５五馬(11)");
    CHECK_STR(text(&h, NULL, KIFU_TEXT_KI2), "☖５五馬寄");
    kifu_move t = mv(KIFU_BLACK, 3, 3, 3, 2, KIFU_TO, -1);
    CHECK_STR(text(&t, NULL, KIFU_TEXT_KIF), "☗３二と(33)");
    kifu_move ng = mv(KIFU_BLACK, 3, 3, 3, 2, KIFU_NG, -1);
    CHECK_STR(text(&ng, NULL, KIFU_TEXT_KIF), "☗３二成銀(33)");
    kifu_move ou = mv(KIFU_WHITE, 5, 1, 4, 2, KIFU_OU, -1);
    CHECK_STR(text(&ou, NULL, KIFU_TEXT_KIF), "☖４二玉(51)");
}

TEST(text_small_buffer)
{
    kifu_move m = mv(KIFU_BLACK, 7, 7, 7, 6, KIFU_FU, -1);
    char buf[8];
    kifu_move_text(&m, NULL, KIFU_TEXT_KIF, buf, sizeof buf);
    CHECK(strlen(buf) < sizeof buf);
    CHECK(kifu_move_text(NULL, NULL, KIFU_TEXT_KIF, buf, sizeof buf) == buf);
    CHECK_STR(buf, "");
}

TEST(special_words)
{
    CHECK_STR(kifu_special_text("TORYO"), "投了");
    CHECK_STR(kifu_special_text("CHUDAN"), "中断");
    CHECK_STR(kifu_special_text("SENNICHITE"), "千日手");
    CHECK_STR(kifu_special_text("TIME_UP"), "切れ負け");
    CHECK_STR(kifu_special_text("ILLEGAL_MOVE"), "反則負け");
    CHECK_STR(kifu_special_text("+ILLEGAL_ACTION"), "反則勝ち");
    CHECK_STR(kifu_special_text("-ILLEGAL_ACTION"), "反則勝ち");
    CHECK_STR(kifu_special_text("JISHOGI"), "持将棋");
    CHECK_STR(kifu_special_text("KACHI"), "入玉勝ち");
    CHECK_STR(kifu_special_text("HIKIWAKE"), "引き分け");
    CHECK_STR(kifu_special_text("MATTA"), "待った");
    CHECK_STR(kifu_special_text("TSUMI"), "詰み");
    CHECK_STR(kifu_special_text("FUZUMI"), "不詰");
    CHECK_STR(kifu_special_text("封じ手"), "封じ手"); /* unknown words are kept */
    CHECK_STR(kifu_special_text(NULL), "");
}

/* ---- typed moves ---- */

static kifu_position *pos(const char *sfen)
{
    kifu_position *p = kifu_position_new();
    kifu_error err = {0};
    if (p && kifu_position_set_sfen(p, sfen, &err)) {
        printf("  bad test position %s: %s\n", sfen, err.message);
        kifu_position_free(p);
        return NULL;
    }
    return p;
}

/* Parse and give "USI" of the result, "ASK:USI" for a promotion question, or "ERR<code>".
 */
static const char *typed(const kifu_position *p, const char *s, int prev_to)
{
    static char out[64];
    kifu_move m;
    kifu_error err = {0};
    int rc = kifu_position_parse_move(p, s, prev_to, &m, &err);
    char usi[8];
    if (rc < 0)
        snprintf(out, sizeof out, "%s",
                 err.code == KIFU_ERR_SYNTAX      ? "ERR:syntax"
                 : err.code == KIFU_ERR_ILLEGAL   ? "ERR:illegal"
                 : err.code == KIFU_ERR_AMBIGUOUS ? "ERR:ambiguous"
                                                  : "ERR:other");
    else if (rc == KIFU_PARSE_ASK_PROMOTE)
        snprintf(out, sizeof out, "ASK:%s", kifu_move_usi(&m, usi));
    else
        snprintf(out, sizeof out, "%s", kifu_move_usi(&m, usi));
    return out;
}

TEST(typed_start_position)
{
    kifu_position *p = pos("startpos");
    if (!p)
        SKIP("no engine");
    const char *same[] = {"7g7f",        "７六歩",   "76歩",     "7六歩",   "▲７六歩",
                          "☗７六歩(77)", "77 76",    "7776",     "77-76",   " 77　76 ",
                          "77 76 fu",    "77 76 FU", "77 76 歩", "77 76 P", "７六歩上"};
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
        const char *got = typed(p, same[i], 0);
        if (strcmp(got, "7g7f") != 0)
            printf("  input: %s\n", same[i]);
        CHECK_STR(got, "7g7f");
    }
    /* two golds reach ５八: ambiguous without 右/左 */
    CHECK_STR(typed(p, "５八金", 0), "ERR:ambiguous");
    CHECK_STR(typed(p, "５八金右", 0), "4i5h");
    CHECK_STR(typed(p, "５八金左", 0), "6i5h");
    CHECK_STR(typed(p, "58金(49)", 0), "4i5h");
    CHECK_STR(typed(p, "７八金", 0), "6i7h");
    CHECK_STR(typed(p, "６八銀", 0), "7i6h");
    CHECK_STR(typed(p, "４八銀", 0), "3i4h");
    /* 上 / 寄 pick among the king's moves */
    CHECK_STR(typed(p, "５八玉", 0), "5i5h");
    CHECK_STR(typed(p, "４八玉", 0), "5i4h");
    /* errors */
    CHECK_STR(typed(p, "７五歩", 0), "ERR:illegal");
    CHECK_STR(typed(p, "55角打", 0), "ERR:illegal");
    CHECK_STR(typed(p, "00 55 kaku", 0), "ERR:illegal");
    CHECK_STR(typed(p, "77 75", 0), "ERR:illegal");
    CHECK_STR(typed(p, "76 75", 0), "ERR:illegal");     /* no piece there */
    CHECK_STR(typed(p, "33 34", 0), "ERR:illegal");     /* not yours */
    CHECK_STR(typed(p, "77 76 gin", 0), "ERR:illegal"); /* the piece is a pawn */
    CHECK_STR(typed(p, "同歩", 0), "ERR:syntax");       /* no previous move */
    CHECK_STR(typed(p, "", 0), "ERR:syntax");
    CHECK_STR(typed(p, "hello", 0), "ERR:syntax");
    CHECK_STR(typed(p, "7g7", 0), "ERR:syntax");
    CHECK_STR(typed(p, "00 55", 0), "ERR:syntax");     /* a drop needs its piece */
    CHECK_STR(typed(p, "00 55 to", 0), "ERR:illegal"); /* と cannot be dropped */
    CHECK_STR(typed(p, "7776 fu fu fu", 0), "ERR:syntax");
    CHECK_STR(typed(p, "７六歩歩", 0), "ERR:syntax");
    CHECK_STR(typed(p, "\xff\xfe", 0), "ERR:syntax");
    kifu_position_free(p);
}

TEST(typed_same_promotion_and_drops)
{
    /* after 7g7f 3c3d: the bishop can take on ２二 promoting or not */
    kifu_position *p = pos("position startpos moves 7g7f 3c3d");
    if (!p)
        SKIP("no engine");
    CHECK_STR(typed(p, "２二角", 0), "ASK:8h2b+");
    CHECK_STR(typed(p, "88 22", 0), "ASK:8h2b+");
    CHECK_STR(typed(p, "２二角成", 0), "8h2b+");
    CHECK_STR(typed(p, "２二角不成", 0), "8h2b");
    CHECK_STR(typed(p, "２二角生", 0), "8h2b");
    CHECK_STR(typed(p, "8h2b+", 0), "8h2b+");
    CHECK_STR(typed(p, "8h2b", 0), "8h2b"); /* USI says exactly */
    CHECK_STR(typed(p, "88 22 +", 0), "8h2b+");
    CHECK_STR(typed(p, "88 22 naru", 0), "8h2b+");
    CHECK_STR(typed(p, "88 22 narazu", 0), "8h2b");
    CHECK_STR(typed(p, "88 22 UM", 0), "8h2b+");
    CHECK_STR(typed(p, "88 22 kaku =", 0), "8h2b");
    CHECK_STR(typed(p, "７七角成", 0), "ERR:illegal"); /* cannot promote there */
    kifu_position_free(p);

    p = pos("position startpos moves 7g7f 3c3d 8h2b+");
    CHECK_STR(typed(p, "同銀", 22), "3a2b");
    CHECK_STR(typed(p, "同　銀", 22), "3a2b");
    CHECK_STR(typed(p, "△同銀", 22), "3a2b");
    CHECK_STR(typed(p, "２二銀", 0), "3a2b");
    CHECK_STR(typed(p, "同飛", 22), "8b2b");
    CHECK_STR(typed(p, "同金", 22), "ERR:illegal");
    kifu_position_free(p);

    /* black holds a bishop: drops in every notation */
    p = pos("position startpos moves 7g7f 3c3d 8h2b+ 3a2b");
    const char *drops[] = {"00 55 kaku", "00 55 KA", "00 55 角", "B*5e",
                           "５五角打",   "55角",     "５五角"};
    for (size_t i = 0; i < sizeof drops / sizeof drops[0]; i++) {
        const char *got = typed(p, drops[i], 22);
        if (strcmp(got, "B*5e") != 0)
            printf("  input: %s\n", drops[i]);
        CHECK_STR(got, "B*5e");
    }
    CHECK_STR(typed(p, "00 55 hi", 22), "ERR:illegal");   /* no rook in hand */
    CHECK_STR(typed(p, "00 57 kaku", 22), "ERR:illegal"); /* occupied */
    kifu_position_free(p);
}

TEST(typed_forced_promotion_and_board_vs_hand)
{
    /* a pawn on １二 must promote on １一; a knight on ２三 must promote on １一 */
    kifu_position *p = pos("4k4/8P/7N1/9/9/9/9/9/4K4 b G 1");
    if (!p)
        SKIP("no engine");
    CHECK_STR(typed(p, "1b1a", 0), "1b1a+");
    CHECK_STR(typed(p, "１一歩", 0), "1b1a+");
    CHECK_STR(typed(p, "１一歩成", 0), "1b1a+");
    CHECK_STR(typed(p, "１一歩不成", 0), "ERR:illegal");
    CHECK_STR(typed(p, "12 11", 0), "1b1a+");
    CHECK_STR(typed(p, "12 11 =", 0), "ERR:illegal");
    CHECK_STR(typed(p, "１一桂", 0), "2c1a+");
    /* a gold in hand and none on the board that reaches: the drop is meant */
    CHECK_STR(typed(p, "５二金", 0), "G*5b");
    kifu_move m;
    kifu_error err = {0};
    CHECK_INT(kifu_position_parse_move(p, "１一歩", 0, &m, &err), 0);
    char buf[64];
    CHECK_STR(kifu_move_text(&m, NULL, KIFU_TEXT_KIF, buf, sizeof buf), "☗１一歩成(12)");
    kifu_position_free(p);

    /* a gold on the board that can reach ５二 and one in hand: without 打 it is the board
     */
    p = pos("4k4/9/4G4/9/9/9/9/9/4K4 b G 1");
    CHECK_STR(typed(p, "５二金", 0), "5c5b");
    CHECK_STR(typed(p, "５二金打", 0), "G*5b");
    kifu_position_free(p);
}

TEST(typed_white_relative)
{
    /* gote golds on ６一 and ４一: for gote, 右 is the larger file */
    kifu_position *p = pos("4k4/9/9/9/9/9/9/9/4K4 w - 1");
    if (!p)
        SKIP("no engine");
    kifu_position_free(p);
    p = pos("3gkg3/9/9/9/9/9/9/9/4K4 w - 1");
    CHECK_STR(typed(p, "５二金", 0), "ERR:ambiguous");
    CHECK_STR(typed(p, "５二金右", 0), "6a5b");
    CHECK_STR(typed(p, "５二金左", 0), "4a5b");
    CHECK_STR(typed(p, "５二金直", 0), "ERR:illegal");
    kifu_position_free(p);
}

int main(void)
{
    RUN(text_plain_move);
    RUN(text_same);
    RUN(text_drop);
    RUN(text_promotion);
    RUN(text_relative_and_promoted_pieces);
    RUN(text_small_buffer);
    RUN(special_words);
    RUN(typed_start_position);
    RUN(typed_same_promotion_and_drops);
    RUN(typed_forced_promotion_and_board_vs_hand);
    RUN(typed_white_relative);
    return t_finish();
}
