/* bd.c: the position-list letters (see bd.h). */
#include "notation/bd.h"

#include <string.h>

/* By kind 1..14 (FU KY KE GI KA HI KI OU TO NY NK NG UM RY): sente's letter; gote's is
 * the next one in ASCII (a b, c d, ..., 1 2, ...), as the format pairs them. */
static const char sente_letter[15] = {0,   'a', 'c', 'e', 'g', 'k', 'm', 'i',
                                      'u', '1', '3', '5', '7', 'q', 's'};

char kifu__bd_letter(int cpiece)
{
    int kind = cpiece & 15, color = cpiece >> 4;
    if (kind < 1 || kind > 14)
        return KIFU__BD_EMPTY;
    return (char)(sente_letter[kind] + color);
}

int kifu__bd_piece(char c)
{
    if (c == KIFU__BD_EMPTY)
        return 0;
    for (int kind = 1; kind <= 14; kind++) {
        if (c == sente_letter[kind])
            return kind;
        if (c == sente_letter[kind] + 1)
            return kind | (KIFU_WHITE << 4);
    }
    return -1;
}

void kifu__bd_write(const kifu_board *b, char bd[82], char cb[40], char cw[40])
{
    for (int y = 1; y <= 9; y++)
        for (int x = 9; x >= 1; x--)
            bd[kifu__bd_index(x, y) - 1] = kifu__bd_letter(b->sq[KIFU_SQ(x, y)]);
    bd[81] = 0;
    /* The format's hand order: 歩 香 桂 銀 金 角 飛. */
    static const int order[7] = {KIFU_FU, KIFU_KY, KIFU_KE, KIFU_GI,
                                 KIFU_KI, KIFU_KA, KIFU_HI};
    char *hands[2] = {cb, cw};
    for (int c = 0; c < 2; c++) {
        size_t n = 0;
        for (int i = 0; i < 7; i++)
            for (int k = 0; k < b->hands[c][order[i]] && n < 39; k++)
                hands[c][n++] = kifu__bd_letter(order[i] | (c << 4));
        hands[c][n] = 0;
    }
}

int kifu__bd_read_board(const char *bd, size_t len, kifu_board *b, size_t *bad)
{
    if (len != 81) {
        /* Point at the first letter past 81, or at the end of a short string. */
        *bad = len > 81 ? 81 : len;
        return -1;
    }
    for (size_t i = 0; i < 81; i++) {
        int p = kifu__bd_piece(bd[i]);
        if (p < 0) {
            *bad = i;
            return -1;
        }
        int x, y;
        kifu__bd_square((int)i + 1, &x, &y);
        b->sq[KIFU_SQ(x, y)] = (uint8_t)p;
    }
    return 0;
}

int kifu__bd_read_hand(const char *s, size_t len, int color, kifu_board *b, size_t *bad)
{
    for (size_t i = 0; i < len; i++) {
        int p = kifu__bd_piece(s[i]);
        int kind = p & 15;
        if (p <= 0 || kind > KIFU_KI || b->hands[color][kind] >= 18) {
            *bad = i;
            return -1;
        }
        b->hands[color][kind]++;
    }
    return 0;
}
