/* pieces.c: the public piece-name calls, handicap presets and their starting boards,
 * time helpers. */
#include <string.h>

#include "kifu_private.h"
#include "notation/words.h"
#include "rules/types.h"

const char *kifu_piece_csa(int piece)
{
    return piece > 0 && piece < PIECE_KIND_NB ? kifu__csa_names[piece] : NULL;
}

int kifu_piece_from_csa(const char *name)
{
    if (!name)
        return KIFU_NO_PIECE;
    for (int k = 1; k < PIECE_KIND_NB; k++)
        if (strcmp(kifu__csa_names[k], name) == 0)
            return k;
    return KIFU_NO_PIECE;
}

/* Presets in kifu_preset order. Handicaps take pieces from gote (上手), who moves first. */
static const struct {
    const char *name;
    const char *japanese;
    const char *top; /* SFEN of ranks 1 and 2; the rest is the hirate start */
} presets[KIFU_PRESET_COUNT_] = {
    {"HIRATE", "平手", "lnsgkgsnl/1r5b1"},
    {"KY", "香落ち", "lnsgkgsn1/1r5b1"},
    {"KY_R", "右香落ち", "1nsgkgsnl/1r5b1"},
    {"KA", "角落ち", "lnsgkgsnl/1r7"},
    {"HI", "飛車落ち", "lnsgkgsnl/7b1"},
    {"HIKY", "飛香落ち", "lnsgkgsn1/7b1"},
    {"2", "二枚落ち", "lnsgkgsnl/9"},
    {"3", "三枚落ち", "lnsgkgsn1/9"},
    {"4", "四枚落ち", "1nsgkgsn1/9"},
    {"5", "五枚落ち", "2sgkgsn1/9"},
    {"5_L", "左五枚落ち", "1nsgkgs2/9"},
    {"6", "六枚落ち", "2sgkgs2/9"},
    {"7_L", "左七枚落ち", "2sgkg3/9"},
    {"7_R", "右七枚落ち", "3gkgs2/9"},
    {"8", "八枚落ち", "3gkg3/9"},
    {"10", "十枚落ち", "4k4/9"},
    {"OTHER", "その他", NULL},
};

const char *kifu_preset_name(int preset)
{
    return preset >= 0 && preset < KIFU_PRESET_COUNT_ ? presets[preset].name : NULL;
}

const char *kifu_preset_japanese(int preset)
{
    return preset >= 0 && preset < KIFU_PRESET_COUNT_ ? presets[preset].japanese : NULL;
}

int kifu_preset_from_name(const char *name)
{
    for (int i = 0; name && i < KIFU_PRESET_COUNT_; i++)
        if (strcmp(presets[i].name, name) == 0)
            return i;
    return KIFU_PRESET_NONE;
}

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
    fill_ranks(out, presets[preset].top, 1);
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

long kifu_time_seconds(const kifu_time *t)
{
    return (t->h > 0 ? t->h : 0) * 3600L + t->m * 60L + t->s;
}

kifu_time kifu_time_from_seconds(long seconds, int with_hours)
{
    kifu_time t = {-1, 0, 0, 0};
    if (with_hours) {
        t.h = (int)(seconds / 3600);
        seconds %= 3600;
    }
    t.m = (int)(seconds / 60);
    t.s = (int)(seconds % 60);
    return t;
}

const char *kifu_version_string(void)
{
    return KIFU_VERSION_STRING;
}
