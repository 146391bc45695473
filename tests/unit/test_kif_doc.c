/* test_kif_doc.c: issue 26, the KIF document (seed 001) to the letter: its own examples
 * read as printed. */
#include <stdlib.h>

#include "harness.h"
#include "kifu.h"
#include "testutil.h"
#include "tsume_001.h"

static kifu_error err;

static kifu_record *rd(const char *text, int format)
{
    kifu_record *r = t_read_text(text, strlen(text), format, 0, &err);
    if (!r)
        printf("  read error: %d:%d %s\n", err.line, err.column, err.message);
    return r;
}

/* The document's tsume sample header, as printed: file labels in half-width digits. */
static const char *const tsume = "作者:二代伊藤宗印\n"
                                 "出典:将棋精妙\n"
                                 "作品番号:1\n"
                                 "手数:33\n"
                                 "完全性:余詰\n"
                                 "後手の持駒:金四 銀二 香三 歩十三 \n" /* the board */
    TSUME_001_BOARD "先手の持駒:なし\n";

#define TSUME_SFEN TSUME_001_SFEN

static void expect_tsume(const char *text, int format, const char *what)
{
    kifu_record *r = rd(text, format);
    CHECK(r != NULL);
    if (!r) {
        printf("  (%s)\n", what);
        return;
    }
    kifu_board b;
    kifu_record_initial(r, &b);
    kifu_position *p = kifu_position_new();
    CHECK(p && kifu_position_set_board(p, &b, NULL) == 0);
    char *s = p ? kifu_position_sfen(p, 1) : NULL;
    CHECK_STR(s, TSUME_SFEN);
    CHECK_STR(kifu_record_header_get(r, "作者"), "二代伊藤宗印");
    kifu_free(s);
    kifu_position_free(p);
    kifu_record_free(r);
}

/* s with every `from` replaced by `to` (free()). */
static char *replaced(const char *s, const char *from, const char *to)
{
    size_t fl = strlen(from), tl = strlen(to), n = 0;
    for (const char *q = s; (q = strstr(q, from)); q += fl)
        n++;
    char *out = malloc(strlen(s) + n * tl + 1), *o = out;
    for (const char *q; (q = strstr(s, from)); s = q + fl) {
        memcpy(o, s, (size_t)(q - s));
        o += q - s;
        memcpy(o, to, tl);
        o += tl;
    }
    strcpy(o, s);
    return out;
}

TEST(tsume_sample_as_printed)
{
    expect_tsume(tsume, KIFU_FMT_KIF, "KIF");
    expect_tsume(tsume, KIFU_FMT_KI2, "KI2");
    /* Full-width as Kifu for Windows writes, and mixed. */
    char *full = replaced(tsume, "  9 8 7 6 5 4 3 2 1", "  ９ ８ ７ ６ ５ ４ ３ ２ １");
    char *mixed = replaced(tsume, "  9 8 7 6 5 4 3 2 1", "  ９ 8 ７ 6 ５ 4 ３ 2 １");
    expect_tsume(full, KIFU_FMT_KIF, "full-width");
    expect_tsume(mixed, KIFU_FMT_KIF, "mixed");
    /* With moves after it: the labels are no move 9. */
    char *moves = malloc(strlen(tsume) + 200);
    strcpy(moves, tsume);
    strcat(moves, "手数----指手---------消費時間--\n   1 ７二飛成(76)\n");
    kifu_record *r = rd(moves, KIFU_FMT_KIF);
    CHECK(r != NULL);
    const kifu_move *m = r ? t_move_at(r, 1) : NULL;
    CHECK(m && m->from_x == 7 && m->from_y == 6 && m->promote == 1);
    kifu_record_free(r);
    free(full);
    free(mixed);
    free(moves);
}

/* `(00)` after a drop is its from-square as some writers put it, not a time; only the
 * document's time syntax (with ':' or '/') is a time. */
TEST(drop_from_00_is_no_time)
{
    const char *kif = "手合割：平手\n手数----指手---------消費時間--\n"
                      "   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２二角成(88)\n"
                      "   4 同　銀(31)\n   5 ５五角打(00)\n   6 ２八飛(22)(00)\n";
    /* The last line is bad on purpose: a board move has no (00); read up to it. */
    kifu_record *r = rd(kif, KIFU_FMT_KIFU);
    CHECK(r == NULL);
    CHECK_INT(err.line, 8);
    char ok[400];
    snprintf(ok, sizeof ok, "%.*s", (int)(strstr(kif, "   6 ") - kif), kif);
    r = rd(ok, KIFU_FMT_KIFU);
    CHECK(r != NULL);
    const kifu_move *m = r ? t_move_at(r, 5) : NULL;
    CHECK(m && (m->flags & KIFU_MOVE_DROP) && m->to_x == 5 && m->to_y == 5);
    kifu_move_time t;
    CHECK(r && !kifu_node_get_time(t_node_at(r, 5), &t));
    kifu_record_free(r);
    /* (00) straight after the piece, without 打, is a drop too. */
    r = rd("手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n"
           "   3 ２二角成(88)\n   4 同　銀(31)\n   5 ５五角(00)\n",
           KIFU_FMT_KIFU);
    m = r ? t_move_at(r, 5) : NULL;
    CHECK(m && (m->flags & KIFU_MOVE_DROP));
    kifu_record_free(r);
    /* (5) is no 5 seconds. */
    r = rd("手数----指手---------消費時間--\n   1 ７六歩(77) (5)\n", KIFU_FMT_KIFU);
    CHECK(r == NULL);
    CHECK_INT(err.line, 2);
    CHECK_INT(err.column, 14);
    CHECK(strstr(err.message, "bad move time") != NULL);
    /* The real forms are times: mm:ss, mm:ss/, mm:ss/hh:mm:ss. */
    r = rd("手数----指手---------消費時間--\n   1 ７六歩(77) ( 0:16/00:00:16)\n"
           "   2 ３四歩(33) (0:07)\n   3 ２六歩(27) ( 0:5/)\n",
           KIFU_FMT_KIFU);
    CHECK(r != NULL);
    for (int ply = 1; r && ply <= 3; ply++) {
        CHECK(kifu_node_get_time(t_node_at(r, ply), &t));
        CHECK_INT(kifu_time_seconds(&t.now), ply == 1 ? 16 : ply == 2 ? 7 : 5);
    }
    kifu_record_free(r);
}

/* 対局日, the document's alternative to 開始日時, is CSA's $START_TIME when there is no
 * 開始日時; read back, the start is 開始日時. With both, 開始日時 is the start. */
TEST(taikyokubi_is_the_start_time)
{
    kifu_record *r = rd("対局日：1999/07/15(木)\n手数----指手---------消費時間--\n"
                        "   1 ７六歩(77)\n",
                        KIFU_FMT_KIFU);
    char *csa = r ? t_write_as(r, KIFU_FMT_CSA, KIFU_ENC_UTF8, NULL, &err) : NULL;
    CHECK(csa && strstr(csa, "\n$START_TIME:1999/07/15(木)\n") != NULL);
    CHECK(csa && !strstr(csa, "対局日"));
    kifu_record *back = csa ? rd(csa, KIFU_FMT_CSA) : NULL;
    CHECK_STR(back ? kifu_record_header_get(back, "開始日時") : NULL, "1999/07/15(木)");
    kifu_record_free(back);
    kifu_free(csa);
    kifu_record_free(r);
    r = rd("開始日時：1999/07/15 19:07:12\n対局日：1999/07/15(木)\n"
           "手数----指手---------消費時間--\n   1 ７六歩(77)\n",
           KIFU_FMT_KIFU);
    csa = r ? t_write_as(r, KIFU_FMT_CSA, KIFU_ENC_UTF8, NULL, &err) : NULL;
    CHECK(csa &&
          strstr(csa, "\n$START_TIME:1999/07/15 19:07:12\n'対局日：1999/07/15(木)\n"));
    kifu_free(csa);
    kifu_record_free(r);
}

static char said[2048];
static int nsaid;
static void collect(void *ctx, const char *msg)
{
    (void)ctx;
    size_t l = strlen(said);
    snprintf(said + l, sizeof said - l, "%s\n", msg);
    nsaid++;
}

static void written(const kifu_record *r, int format)
{
    kifu_write_options o = {format, KIFU_ENC_UTF8, 0, collect, NULL};
    said[0] = 0;
    nsaid = 0;
    kifu_error e;
    kifu_error_clear(&e);
    char *s = kifu_write(r, &o, NULL, &e);
    CHECK(s != NULL);
    kifu_free(s);
}

/* Every writer says what its format cannot hold (issue 26): SFEN and sfenlist the header,
 * times, bookmarks and the ending; KI2 the times; KIF and JKF fractions of seconds. */
TEST(writers_say_what_they_leave_out)
{
    kifu_record *r = rd("開始日時：2020/01/01\n先手：A\n手合割：平手\n"
                        "手数----指手---------消費時間--\n"
                        "   1 ７六歩(77) ( 0:16/00:00:16)\n&mark\n   2 中断\n",
                        KIFU_FMT_KIFU);
    CHECK(r != NULL);
    if (!r)
        return;
    for (int f = 0; f < 2; f++) {
        written(r, f ? KIFU_FMT_SFENLIST : KIFU_FMT_SFEN);
        const char *name = f ? "sfenlist" : "SFEN";
        char want[128];
        CHECK_INT(nsaid, 4);
        snprintf(want, sizeof want, "%s holds no header: 2 entries left out\n", name);
        CHECK(strstr(said, want) != NULL); /* 手合割 is the position itself */
        snprintf(want, sizeof want, "%s holds no times: the times of 1 move(s)", name);
        CHECK(strstr(said, want) != NULL);
        snprintf(want, sizeof want, "%s holds no bookmarks: 1 left out", name);
        CHECK(strstr(said, want) != NULL);
        snprintf(want, sizeof want, "%s holds no ending: 中断 left out", name);
        CHECK(strstr(said, want) != NULL);
        if (nsaid != 4)
            printf("%s", said);
    }
    written(r, KIFU_FMT_KI2U);
    CHECK_INT(nsaid, 1);
    CHECK(strstr(said, "KI2 holds no times: the times of 1 move(s) left out") != NULL);
    written(r, KIFU_FMT_KIFU);
    CHECK_INT(nsaid, 0);
    written(r, KIFU_FMT_JKF);
    CHECK_INT(nsaid, 0);
    kifu_record_free(r);
    /* CSA V3.0 fractions: KIF and JKF cut them and say so; CSA V3.0 keeps them. */
    r = rd("V3.0\nPI\n+\n+7776FU\nT1.500\n-3334FU\nT2\n", KIFU_FMT_CSA);
    CHECK(r != NULL);
    written(r, KIFU_FMT_KIFU);
    CHECK_INT(nsaid, 1);
    CHECK(strstr(said,
                 "KIF has no fractions of a second: the times of 1 move(s) were cut") !=
          NULL);
    written(r, KIFU_FMT_JKF);
    CHECK_INT(nsaid, 1);
    CHECK(strstr(said, "JKF has no fractions of a second") != NULL);
    kifu_record_free(r);
}

int main(void)
{
    RUN(writers_say_what_they_leave_out);
    RUN(taikyokubi_is_the_start_time);
    RUN(drop_from_00_is_no_time);
    RUN(tsume_sample_as_printed);
    return t_finish();
}
