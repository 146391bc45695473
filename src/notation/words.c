/* words.c: the vocabulary of shogi records, in one place: piece names (kanji in one or
 * two characters, CSA letters), digits and kanji numerals, handicap names, ending words,
 * and the BOD board diagram. The notation module (src/notation/) owns every word of the
 * domain and both directions of move text; it may call rules and core. */
#include "notation/words.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "kifu_private.h"
#include "rules/types.h"

static const struct {
    const char *name;
    int kind;
} jp_pieces[] = {
    /* Two-character names first so 成香 is not read as a lone 成. */
    {"成香", KIFU_NY}, {"成桂", KIFU_NK}, {"成銀", KIFU_NG}, {"歩", KIFU_FU},
    {"香", KIFU_KY},   {"桂", KIFU_KE},   {"銀", KIFU_GI},   {"金", KIFU_KI},
    {"角", KIFU_KA},   {"飛", KIFU_HI},   {"玉", KIFU_OU},   {"王", KIFU_OU},
    {"と", KIFU_TO},   {"杏", KIFU_NY},   {"圭", KIFU_NK},   {"全", KIFU_NG},
    {"馬", KIFU_UM},   {"龍", KIFU_RY},   {"竜", KIFU_RY},
};

size_t kifu__jp_piece(const char *s, const char *end, int *kind)
{
    /* Every name starts with a three-byte character from E3 (と) to E9 (銀 ...). */
    if (end - s < 3 || (unsigned char)s[0] < 0xE3 || (unsigned char)s[0] > 0xE9)
        return 0;
    if (memcmp(s, "成", 3) == 0) {
        for (size_t i = 0; i < 3; i++)
            if (end - s >= 6 && memcmp(s + 3, jp_pieces[i].name + 3, 3) == 0) {
                *kind = jp_pieces[i].kind;
                return 6;
            }
        return 0;
    }
    for (size_t i = 3; i < sizeof jp_pieces / sizeof jp_pieces[0]; i++)
        if (memcmp(s, jp_pieces[i].name, 3) == 0) {
            *kind = jp_pieces[i].kind;
            return 3;
        }
    return 0;
}

/* The piece names, by kind (FU .. RY): as moves write them, and in one character as
 * board diagrams do. Gote's king is 玉 too (玉 and 王 are both read). */
static const char *const move_names[15] = {
    "",   "歩", "香",   "桂",   "銀",   "角", "飛", "金",
    "玉", "と", "成香", "成桂", "成銀", "馬", "龍",
};
static const char *const bod_names[15] = {
    "・", "歩", "香", "桂", "銀", "角", "飛", "金",
    "玉", "と", "杏", "圭", "全", "馬", "龍",
};

const char *kifu__kanji_piece(int kind)
{
    return kind > 0 && kind < 15 ? move_names[kind] : "？";
}

const char *kifu__kanji_piece_one(int kind)
{
    return kind >= 0 && kind < 15 ? bod_names[kind] : "？";
}

/* CSA's and JKF's two-letter names, by kind; "" for none. */
const char kifu__csa_names[16][3] = {"",   "FU", "KY", "KE", "GI", "KA", "HI", "KI",
                                     "OU", "TO", "NY", "NK", "NG", "UM", "RY", ""};

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

static const char *const fw_digits[10] = {"０", "１", "２", "３", "４",
                                          "５", "６", "７", "８", "９"};
/* Kanji numerals 0 .. 18: ranks, hand counts, and 十 in larger counts. */
static const char *const kanji_numbers[19] = {
    "〇", "一",   "二",   "三",   "四",   "五",   "六",   "七",   "八",   "九",
    "十", "十一", "十二", "十三", "十四", "十五", "十六", "十七", "十八",
};

const char *kifu__zen_digit(int d)
{
    return d >= 0 && d <= 9 ? fw_digits[d] : "？";
}

const char *kifu__kanji_number(int n)
{
    return n >= 0 && n <= 18 ? kanji_numbers[n] : "";
}

/* One decimal digit, ASCII or full-width (０-９ are EF BC 90-99). */
static size_t any_digit(const char *s, const char *end, int *v)
{
    if (s < end && *s >= '0' && *s <= '9') {
        *v = *s - '0';
        return 1;
    }
    if (end - s >= 3 && (unsigned char)s[0] == 0xEF && (unsigned char)s[1] == 0xBC &&
        (unsigned char)s[2] >= 0x90 && (unsigned char)s[2] <= 0x99) {
        *v = (unsigned char)s[2] - 0x90;
        return 3;
    }
    return 0;
}

size_t kifu__jp_digit(const char *s, const char *end, int *v)
{
    size_t n = any_digit(s, end, v);
    return n && *v >= 1 ? n : 0;
}

/* 一 to 十 (the numerals table), by the fast lookup. */
static size_t kanji_digit(const char *s, const char *end, int *v)
{
    kifu__words_init();
    unsigned cp = kifu__jp_cp3(s, end);
    const kifu__jp_cpv *e = &kifu__jp_ranks[cp & 0xFF];
    if (!cp || e->cp != cp || !e->v)
        return 0;
    *v = e->v;
    return 3;
}

kifu__jp_cpv kifu__jp_ranks[256], kifu__jp_pieces[256];

/* A slot already taken keeps its first character; the second is left to the slow path,
 * which gives the same answer. */
static void put_cpv(kifu__jp_cpv *tab, const char *name, int v)
{
    unsigned cp = kifu__jp_cp3(name, name + strlen(name));
    if (cp && !tab[cp & 0xFF].v)
        tab[cp & 0xFF] = (kifu__jp_cpv){(unsigned short)cp, (unsigned char)v};
}

static void build_fast(void)
{
    for (int n = 1; n <= 10; n++)
        put_cpv(kifu__jp_ranks, kanji_numbers[n], n);
    for (size_t i = 0; i < sizeof jp_pieces / sizeof jp_pieces[0]; i++)
        if (strlen(jp_pieces[i].name) == 3)
            put_cpv(kifu__jp_pieces, jp_pieces[i].name, jp_pieces[i].kind);
}

void kifu__words_init(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, build_fast);
}

size_t kifu__jp_rank(const char *s, const char *end, int *v)
{
    size_t n = kanji_digit(s, end, v);
    if (n && *v <= 9)
        return n;
    return kifu__jp_digit(s, end, v);
}

size_t kifu__jp_count(const char *s, const char *end, int *v)
{
    int a = 0, b = 0;
    size_t n = kanji_digit(s, end, &a);
    if (!n)
        return 0;
    if (a == 10) { /* 十, 十三 */
        size_t m = kanji_digit(s + n, end, &b);
        *v = m && b < 10 ? 10 + b : 10;
        return m && b < 10 ? n + m : n;
    }
    size_t m = kanji_digit(s + n, end, &b);
    if (m && b == 10) { /* 二十, 二十三 */
        int c = 0;
        size_t k = kanji_digit(s + n + m, end, &c);
        *v = a * 10 + (k && c < 10 ? c : 0);
        return n + m + (k && c < 10 ? k : 0);
    }
    *v = a;
    return n;
}

size_t kifu__jp_number(const char *s, const char *end, long *v)
{
    size_t used = 0, n;
    int d, digits = 0;
    long x = 0;
    while ((n = any_digit(s + used, end, &d)) != 0 && digits < 9) {
        x = x * 10 + d;
        used += n;
        digits++;
    }
    *v = x;
    return used;
}

void kifu__jp_put_count(kifu__strbuf *b, int n)
{
    if (n >= 20)
        kifu__sb_puts(b, kanji_numbers[n / 10 % 10]);
    if (n >= 10)
        kifu__sb_puts(b, kanji_numbers[10]);
    if (n % 10)
        kifu__sb_puts(b, kanji_numbers[n % 10]);
}

size_t kifu__jp_space(const char *s, const char *end)
{
    const char *p = s;
    for (;;) {
        if (p < end && (*p == ' ' || *p == '\t'))
            p++;
        else if (kifu__jp_starts(p, end, "　"))
            p += 3;
        else
            return (size_t)(p - s);
    }
}

/* Trims trailing ASCII and full-width spaces. */
static const char *rtrim(const char *s, const char *end)
{
    for (;;) {
        if (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
            end--;
        else if (end - s >= 3 && memcmp(end - 3, "　", 3) == 0)
            end -= 3;
        else
            return end;
    }
}

/* Handicap presets in kifu_preset order: CSA's and JKF's names, and the 手合割 word. */
static const struct {
    const char *name;
    const char *japanese;
} presets[KIFU_PRESET_COUNT_] = {
    {"HIRATE", "平手"},    {"KY", "香落ち"},      {"KY_R", "右香落ち"},
    {"KA", "角落ち"},      {"HI", "飛車落ち"},    {"HIKY", "飛香落ち"},
    {"2", "二枚落ち"},     {"3", "三枚落ち"},     {"4", "四枚落ち"},
    {"5", "五枚落ち"},     {"5_L", "左五枚落ち"}, {"6", "六枚落ち"},
    {"7_L", "左七枚落ち"}, {"7_R", "右七枚落ち"}, {"8", "八枚落ち"},
    {"10", "十枚落ち"},    {"OTHER", "その他"},
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

int kifu__jp_preset(const char *s, const char *end)
{
    s += kifu__jp_space(s, end);
    end = rtrim(s, end);
    for (int p = 0; p < KIFU_PRESET_COUNT_; p++) {
        const char *name = kifu_preset_japanese(p);
        size_t n = strlen(name);
        if ((size_t)(end - s) == n && memcmp(s, name, n) == 0)
            return p;
    }
    /* Spellings without okurigana and older names seen in files. */
    static const struct {
        const char *name;
        int preset;
    } alt[] = {
        {"香落", KIFU_PRESET_KY},         {"右香落", KIFU_PRESET_KY_R},
        {"角落", KIFU_PRESET_KA},         {"飛落", KIFU_PRESET_HI},
        {"飛車落", KIFU_PRESET_HI},       {"飛香落", KIFU_PRESET_HIKY},
        {"二枚落", KIFU_PRESET_2},        {"三枚落", KIFU_PRESET_3},
        {"四枚落", KIFU_PRESET_4},        {"五枚落", KIFU_PRESET_5},
        {"左五枚落", KIFU_PRESET_5_L},    {"六枚落", KIFU_PRESET_6},
        {"左七枚落", KIFU_PRESET_7_L},    {"右七枚落", KIFU_PRESET_7_R},
        {"八枚落", KIFU_PRESET_8},        {"十枚落", KIFU_PRESET_10},
        {"飛車香落ち", KIFU_PRESET_HIKY},
    };
    for (size_t i = 0; i < sizeof alt / sizeof alt[0]; i++) {
        size_t n = strlen(alt[i].name);
        if ((size_t)(end - s) == n && memcmp(s, alt[i].name, n) == 0)
            return alt[i].preset;
    }
    return KIFU_PRESET_NONE;
}

/* Ending words by JKF special. The first word of a special is the one written and shown;
 * every word marked `read` is read (the others are names for display only, or need the
 * side that moved: 反則勝ち). */
static const struct {
    const char *special, *word;
    int read;
} endings[] = {
    {"TORYO", "投了", 1},
    {"CHUDAN", "中断", 1},
    {"SENNICHITE", "千日手", 1},
    {"TIME_UP", "切れ負け", 1},
    {"TIME_UP", "時間切れ", 1},
    {"ILLEGAL_MOVE", "反則負け", 1},
    {"+ILLEGAL_ACTION", "反則勝ち", 0},
    {"-ILLEGAL_ACTION", "反則勝ち", 0},
    {"JISHOGI", "持将棋", 1},
    {"KACHI", "入玉勝ち", 1},
    {"KACHI", "宣言勝ち", 1},
    {"HIKIWAKE", "引き分け", 1},
    {"HIKIWAKE", "引分け", 1},
    {"MATTA", "待った", 1},
    {"TSUMI", "詰み", 1},
    {"TSUMI", "詰", 1},
    {"FUZUMI", "不詰", 1},
    {"ERROR", "エラー", 1},
    {"MAX_MOVES", "最大手数", 0},
    {"OUTE_SENNICHITE", "王手千日手", 0},
};

const char *kifu__jp_special(const char *s, const char *end, int last_mover)
{
    size_t n = (size_t)(end - s);
    if (n == strlen("反則勝ち") && memcmp(s, "反則勝ち", n) == 0)
        return last_mover == KIFU_WHITE ? "-ILLEGAL_ACTION" : "+ILLEGAL_ACTION";
    for (size_t i = 0; i < sizeof endings / sizeof endings[0]; i++)
        if (endings[i].read && strlen(endings[i].word) == n &&
            memcmp(s, endings[i].word, n) == 0)
            return endings[i].special;
    return NULL;
}

const char *kifu__jp_special_word(const char *special, int to_move)
{
    if (special && (strcmp(special, "+ILLEGAL_ACTION") == 0 ||
                    strcmp(special, "-ILLEGAL_ACTION") == 0)) {
        int fouler = special[0] == '+' ? KIFU_BLACK : KIFU_WHITE;
        return fouler == to_move ? "反則負け" : "反則勝ち";
    }
    return kifu_special_text(special);
}

const char *kifu__usi_special(const char *s, const char *end, int to_move, int *vague)
{
    /* rep_win: the side to move wins by the other's perpetual check (a foul of the side
     * that just moved); rep_lose: the side to move loses so. */
    static const struct {
        const char *word, *special;
        int foul_by_mover, vague;
    } usi[] = {
        {"resign", "TORYO", 0, 0},    {"win", "KACHI", 0, 0},
        {"draw", "HIKIWAKE", 0, 0},   {"rep_draw", "SENNICHITE", 0, 0},
        {"rep_win", NULL, 1, 0},      {"rep_lose", NULL, 2, 0},
        {"rep_sup", "CHUDAN", 0, 1},  {"rep_inf", "CHUDAN", 0, 1},
        {"timeout", "TIME_UP", 0, 0}, {"break", "CHUDAN", 0, 0},
    };
    size_t n = (size_t)(end - s);
    for (size_t i = 0; i < sizeof usi / sizeof usi[0]; i++) {
        if (strlen(usi[i].word) != n || memcmp(s, usi[i].word, n) != 0)
            continue;
        *vague = usi[i].vague;
        if (!usi[i].foul_by_mover)
            return usi[i].special;
        int fouler = usi[i].foul_by_mover == 1 ? !to_move : to_move;
        return fouler == KIFU_BLACK ? "+ILLEGAL_ACTION" : "-ILLEGAL_ACTION";
    }
    return NULL;
}

const char *kifu_special_text(const char *special)
{
    if (!special)
        return "";
    for (size_t i = 0; i < sizeof endings / sizeof endings[0]; i++)
        if (strcmp(endings[i].special, special) == 0)
            return endings[i].word;
    return special; /* an unknown word is its own text */
}

/* ---- BOD ---------------------------------------------------------------------------- */

/* `先手の持駒：歩十三　香` and the like. Returns the color or -1. */
static int hand_owner(const char *s, const char *end, const char **rest)
{
    static const struct {
        const char *who;
        int color;
    } whos[] = {{"先手", KIFU_BLACK},
                {"下手", KIFU_BLACK},
                {"後手", KIFU_WHITE},
                {"上手", KIFU_WHITE}};
    for (size_t i = 0; i < 4; i++) {
        if (!kifu__jp_starts(s, end, whos[i].who))
            continue;
        const char *p = s + strlen(whos[i].who);
        if (kifu__jp_starts(p, end, "の"))
            p += 3;
        if (!kifu__jp_starts(p, end, "持駒"))
            return -1;
        p += 6;
        if (kifu__jp_starts(p, end, "："))
            p += 3;
        else if (p < end && *p == ':')
            p++;
        else
            return -1;
        *rest = p;
        return whos[i].color;
    }
    return -1;
}

static int parse_hand(kifu__bod *bod, int color, const char *p, const char *end,
                      const char **where, const char **expected)
{
    memset(bod->b.hands[color], 0, sizeof bod->b.hands[color]);
    p += kifu__jp_space(p, end);
    if (kifu__jp_starts(p, end, "なし"))
        p += kifu__jp_space(p + 6, end) + 6;
    while (p < end) {
        int kind = 0, count = 1;
        size_t n = kifu__jp_piece(p, end, &kind);
        if (!n || kind < KIFU_FU || kind > KIFU_KI) {
            *where = p;
            *expected = "a hand piece (歩 香 桂 銀 金 角 飛) or なし";
            return KIFU__BOD_ERR;
        }
        p += n;
        n = kifu__jp_count(p, end, &count);
        if (!n) {
            long c = 1;
            n = kifu__jp_number(p, end, &c);
            count = n ? (int)c : 1;
        }
        p += n;
        if (count > 18)
            count = 18;
        bod->b.hands[color][kind] = (uint8_t)(bod->b.hands[color][kind] + count);
        p += kifu__jp_space(p, end);
        if (kifu__jp_starts(p, end, "、"))
            p += 3;
    }
    bod->seen = 1;
    return KIFU__BOD_YES;
}

static int parse_row(kifu__bod *bod, const char *s, const char *end, const char **where,
                     const char **expected)
{
    const char *p = s + 1;
    if (bod->rows >= 9) {
        *where = s;
        *expected = "no more than nine board rows";
        return KIFU__BOD_ERR;
    }
    int y = bod->rows + 1;
    for (int x = 9; x >= 1; x--) {
        int color = KIFU_BLACK, kind = 0;
        if (p < end && (*p == 'v' || *p == 'V')) {
            color = KIFU_WHITE;
            p++;
        } else if (p < end && (*p == ' ' || *p == '^' || *p == '+')) {
            p++;
        }
        size_t n;
        if (kifu__jp_starts(p, end, "・")) {
            p += 3;
        } else if ((n = kifu__jp_piece(p, end, &kind)) == 3) {
            p += n;
            bod->b.sq[KIFU_SQ(x, y)] = (uint8_t)(kind | (color << 4));
        } else {
            *where = p;
            *expected = "a square: ・ or a piece name, v before gote's";
            return KIFU__BOD_ERR;
        }
    }
    if (p >= end || *p != '|') {
        *where = p;
        *expected = "| after nine squares";
        return KIFU__BOD_ERR;
    }
    bod->rows++;
    bod->seen = 1;
    return KIFU__BOD_YES;
}

int kifu__bod_files(const char *s, const char *end)
{
    /* `  ９ ８ ７ ６ ５ ４ ３ ２ １`, full-width as Kifu for Windows writes them; the KIF
     * document's own tsume sample has `  9 8 7 6 5 4 3 2 1`, and some writers mix the two.
     * Either way 9 down to 1, one digit each (a move line starts with its number and a
     * move: it fails at once). */
    const char *p = s;
    int files = 0, d;
    size_t n;
    while (p < end) {
        if ((n = kifu__jp_space(p, end)) != 0) {
            p += n;
        } else if ((n = kifu__jp_digit(p, end, &d)) != 0 && d == 9 - files) {
            p += n;
            files++;
            if (n == 1 && p < end && *p >= '0' && *p <= '9')
                return 0;
        } else {
            return 0;
        }
    }
    return files == 9;
}

int kifu__bod_line(kifu__bod *bod, const char *s, const char *end, const char **where,
                   const char **expected)
{
    const char *rest;
    int color = hand_owner(s, end, &rest);
    if (color >= 0)
        return parse_hand(bod, color, rest, end, where, expected);
    if (s < end && *s == '|')
        return parse_row(bod, s, end, where, expected);
    if (s < end && *s == '+') { /* +---------------------------+ */
        const char *p = s + 1;
        while (p < end && *p == '-')
            p++;
        if (p + 1 == end && *p == '+' && p - s > 1)
            return KIFU__BOD_YES;
        return KIFU__BOD_NO;
    }
    if (kifu__bod_files(s, end))
        return KIFU__BOD_YES;
    static const struct {
        const char *word;
        int color;
    } turns[] = {{"先手番", KIFU_BLACK},
                 {"下手番", KIFU_BLACK},
                 {"後手番", KIFU_WHITE},
                 {"上手番", KIFU_WHITE}};
    const char *e = s;
    while (e < end && *e != ' ')
        e++;
    e = rtrim(s, e);
    for (size_t i = 0; i < 4; i++)
        if ((size_t)(e - s) == strlen(turns[i].word) &&
            memcmp(s, turns[i].word, e - s) == 0) {
            bod->b.color = (uint8_t)turns[i].color;
            bod->color_set = 1;
            return KIFU__BOD_YES;
        }
    return KIFU__BOD_NO;
}

char *kifu__hand_text(const kifu_board *b, int color, int trailing, char *buf, size_t cap)
{
    /* KIF order: 飛 角 金 銀 桂 香 歩. */
    static const int order[7] = {KIFU_HI, KIFU_KA, KIFU_KI, KIFU_GI,
                                 KIFU_KE, KIFU_KY, KIFU_FU};
    kifu__strbuf sb;
    kifu__sb_init(&sb);
    for (int i = 0; i < 7; i++) {
        int k = order[i], c = b->hands[color & 1][k];
        if (!c)
            continue;
        if (sb.len && !trailing)
            kifu__sb_puts(&sb, "　");
        kifu__sb_puts(&sb, kifu__kanji_piece_one(k));
        if (c > 1)
            kifu__jp_put_count(&sb, c);
        if (trailing)
            kifu__sb_puts(&sb, "　");
    }
    snprintf(buf, cap, "%s", sb.len ? sb.data : "なし");
    kifu__sb_free(&sb);
    return buf;
}

static void put_hand(kifu__strbuf *out, const kifu_board *b, int color, unsigned flags)
{
    char text[128];
    int handicap = (flags & KIFU__BOD_HANDICAP) != 0;
    kifu__sb_printf(
        out, "%sの持駒：%s\n",
        color == KIFU_BLACK ? (handicap ? "下手" : "先手") : (handicap ? "上手" : "後手"),
        kifu__hand_text(b, color, (flags & KIFU__BOD_FILE) != 0, text, sizeof text));
}

void kifu__bod_write(kifu__strbuf *out, const kifu_board *b, unsigned flags,
                     const char *extra)
{
    int flip = (flags & KIFU__BOD_FLIP) != 0,
        handicap = (flags & KIFU__BOD_HANDICAP) != 0;
    int top = flip ? KIFU_BLACK : KIFU_WHITE;
    put_hand(out, b, top, flags);
    kifu__sb_puts(out, " ");
    for (int c = 0; c < 9; c++)
        kifu__sb_printf(out, " %s", kifu__zen_digit(flip ? c + 1 : 9 - c));
    kifu__sb_puts(out, "\n+---------------------------+\n");
    for (int r = 0; r < 9; r++) {
        int y = flip ? 9 - r : r + 1;
        kifu__sb_putc(out, '|');
        for (int c = 0; c < 9; c++) {
            int v = b->sq[KIFU_SQ(flip ? c + 1 : 9 - c, y)];
            if (!v) {
                kifu__sb_puts(out, " ・");
                continue;
            }
            kifu__sb_putc(out, (v >> 4) & 1 ? 'v' : ' ');
            kifu__sb_puts(out, kifu__kanji_piece_one(v & 15));
        }
        kifu__sb_putc(out, '|');
        kifu__sb_puts(out, kanji_numbers[y]);
        kifu__sb_putc(out, '\n');
    }
    kifu__sb_puts(out, "+---------------------------+\n");
    put_hand(out, b, !top, flags);
    if (extra)
        kifu__sb_puts(out, extra);
    if (b->color == KIFU_WHITE)
        kifu__sb_puts(out, handicap ? "上手番\n" : "後手番\n");
}
