/* preset.c: the starting boards of the handicap presets (kifu_preset_board), and the
 * preset a board is. Their names are the notation module's (notation/words.c). */
#include <string.h>

#include "kifu_private.h"
#include "rules/types.h"

/* Presets in kifu_preset order: the SFEN of ranks 1 and 2 (the rest is the hirate start).
 * Handicaps take pieces from gote (上手), who moves first. */
static const char *const preset_top[KIFU_PRESET_OTHER] = {
    "lnsgkgsnl/1r5b1", /* HIRATE */
    "lnsgkgsn1/1r5b1", /* KY */
    "1nsgkgsnl/1r5b1", /* KY_R */
    "lnsgkgsnl/1r7",   /* KA */
    "lnsgkgsnl/7b1",   /* HI */
    "lnsgkgsn1/7b1",   /* HIKY */
    "lnsgkgsnl/9",     /* 2 */
    "lnsgkgsn1/9",     /* 3 */
    "1nsgkgsn1/9",     /* 4 */
    "2sgkgsn1/9",      /* 5 */
    "1nsgkgs2/9",      /* 5_L */
    "2sgkgs2/9",       /* 6 */
    "2sgkg3/9",        /* 7_L */
    "3gkgs2/9",        /* 7_R */
    "3gkg3/9",         /* 8 */
    "4k4/9",           /* 10 */
};

static int sfen_kind(char c)
{
    static const char letters[] = "plnsbrgk";
    const char *p = strchr(letters, c | 0x20);
    return p && c ? (int)(p - letters) + 1 : 0;
}

/* Fills ranks from a SFEN board fragment; the fragments above are trusted constants. */
static void fill_ranks(kifu_board *b, const char *s, int y)
{
    int x = 9;
    for (; *s; s++) {
        if (*s == '/') {
            y++;
            x = 9;
        } else if (*s >= '1' && *s <= '9') {
            x -= *s - '0';
        } else {
            int color = (*s >= 'a') ? WHITE : BLACK;
            b->sq[SQ(x, y)] = CPIECE(sfen_kind(*s), color);
            x--;
        }
    }
}

int kifu_preset_board(int preset, kifu_board *out)
{
    if (preset < 0 || preset >= KIFU_PRESET_OTHER)
        return -1;
    memset(out, 0, sizeof *out);
    fill_ranks(out, preset_top[preset], 1);
    fill_ranks(out, "ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL", 3);
    out->color = preset == KIFU_PRESET_HIRATE ? BLACK : WHITE;
    return 0;
}

int kifu_preset_match(const kifu_board *b)
{
    kifu_board p;
    for (int i = 0; i < KIFU_PRESET_OTHER; i++) {
        kifu_preset_board(i, &p);
        if (memcmp(p.sq, b->sq, sizeof p.sq) == 0 &&
            memcmp(p.hands, b->hands, sizeof p.hands) == 0 && p.color == b->color)
            return i;
    }
    return KIFU_PRESET_OTHER;
}
