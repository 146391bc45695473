/* test_svg.c: SVG diagrams (src/diagram/svg.c): one piece element per piece on the board,
 * both hands, the last move's squares, flipping, the tsume and international styles. The
 * XML itself is checked by a parser in tests/cli/svg.sh. */
#include <stdlib.h>
#include <string.h>

#include "diagram/diagram.h"
#include "harness.h"
#include "kifu_private.h"

static size_t count(const char *s, const char *what)
{
    size_t n = 0;
    for (const char *p = s; (p = strstr(p, what)) != NULL; p += strlen(what))
        n++;
    return n;
}

/* The SVG at the end of a USI line. New (free). */
static char *svg_of(const char *usi, const kifu__svg_options *o, int flip, kifu_board *b)
{
    kifu_read_options ro = {.format = KIFU_FMT_SFEN};
    kifu_record *r = kifu_read(usi, strlen(usi), &ro, NULL);
    kifu_player *pl = kifu_player_new(r, NULL);
    while (kifu_player_forward(pl))
        ;
    kifu__diagram d;
    kifu__diagram_from_player(pl, flip, &d);
    *b = d.board;
    kifu__strbuf sb;
    kifu__sb_init(&sb);
    kifu__diagram_svg(&d, o, &sb);
    kifu__sb_putc(&sb, 0);
    kifu_player_free(pl);
    kifu_record_free(r);
    return sb.data;
}

static int pieces_on(const kifu_board *b)
{
    int n = 0;
    for (int i = 0; i < 81; i++)
        n += b->sq[i] != 0;
    return n;
}

TEST(one_element_per_piece)
{
    kifu__svg_options o = {0};
    kifu_board b;
    const char *lines[] = {
        "startpos", "position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e",
        "position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e 4a3b 4e3d 8c8d "
        "3d2c+"};
    for (int i = 0; i < 3; i++) {
        char *s = svg_of(lines[i], &o, 0, &b);
        CHECK_INT(count(s, "class=\"piece"), pieces_on(&b));
        CHECK_INT(count(s, "<svg"), 1);
        CHECK_INT(count(s, "</svg>"), 1);
        CHECK(strstr(s, "<script") == NULL);
        CHECK(strstr(s, "href") == NULL); /* nothing external */
        free(s);
    }
}

TEST(last_move_hands_and_promotion)
{
    kifu__svg_options o = {0};
    kifu_board b;
    char *s = svg_of("position startpos moves 7g7f 3c3d 8h2b+", &o, 0, &b);
    CHECK_INT(count(s, "class=\"last\""), 1);
    CHECK_INT(count(s, "class=\"last-from\""), 1);
    CHECK_INT(count(s, "piece promoted"), 1); /* the horse */
    CHECK(strstr(s, ">馬<") != NULL);
    CHECK(strstr(s, "持駒 角") != NULL); /* sente took a bishop */
    CHECK(strstr(s, "持駒 なし") != NULL);
    free(s);
    o.no_mvlight = 1;
    s = svg_of("position startpos moves 7g7f 3c3d 8h2b+", &o, 0, &b);
    CHECK_INT(count(s, "class=\"last"), 0);
    free(s);
}

TEST(gote_pieces_turned_and_flip)
{
    kifu__svg_options o = {0};
    kifu_board b;
    char *s = svg_of("startpos", &o, 0, &b);
    CHECK_INT(count(s, "rotate(180"), 20);        /* gote's twenty pieces point down */
    CHECK(strstr(s, ">９<") < strstr(s, ">１<")); /* file 9 drawn first (left) */
    free(s);
    s = svg_of("startpos", &o, 1, &b);
    CHECK_INT(count(s, "rotate(180"), 20); /* now sente's point down */
    CHECK(strstr(s, ">１<") < strstr(s, ">９<"));
    free(s);
}

TEST(styles)
{
    kifu_board b;
    kifu__svg_options o = {.intl = 1};
    char *s = svg_of("position startpos moves 7g7f 3c3d 8h2b+", &o, 0, &b);
    CHECK(strstr(s, ">+B<") != NULL);
    CHECK(strstr(s, ">K<") != NULL);
    CHECK(strstr(s, "In hand: B") != NULL);
    free(s);
    kifu__svg_options t = {.tsume = 1, .caption = "第1図"};
    s = svg_of("position startpos moves 7g7f 3c3d 8h2b+", &t, 0, &b);
    CHECK_INT(count(s, "持駒"), 1); /* only the attacker's hand */
    CHECK(strstr(s, ">第1図<") != NULL);
    free(s);
    kifu__svg_options two = {.two_char = 1, .names = {"羽生 <A&B>", NULL}, .size = 199};
    s = svg_of(
        "position startpos moves 7g7f 3c3d 2g2f 4c4d 2f2e 4d4e 2e2d 4e4f 2d2c+ 4f4g+",
        &two, 0, &b);
    CHECK(strstr(s, "width=\"199\"") != NULL);
    CHECK(strstr(s, "羽生 &lt;A&amp;B&gt;") != NULL);
    CHECK_INT(count(s, "class=\"piece"), pieces_on(&b));
    free(s);
}

int main(void)
{
    RUN(one_element_per_piece);
    RUN(last_move_hands_and_promotion);
    RUN(gote_pieces_turned_and_flip);
    RUN(styles);
    return t_finish();
}
