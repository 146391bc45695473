/* words.h: the Japanese vocabulary KIF and KI2 share: piece names, digits and kanji
 * numerals, handicap names, ending words, and the BOD board diagram. All text is UTF-8;
 * scanners take [s, end) and return the number of bytes they matched (0: no match). */
#ifndef KIFU_NOTATION_WORDS_H
#define KIFU_NOTATION_WORDS_H

#include <stddef.h>
#include <string.h>

#include "core/strbuf.h"
#include "kifu.h"

/* A piece name as moves write it: 歩 香 桂 銀 金 角 飛 玉 王 と 成香 杏 成桂 圭 成銀 全 馬 龍
 * 竜 (also 仝 / 个 never: only what files use). *kind gets the kifu_piece. */
size_t kifu__jp_piece(const char *s, const char *end, int *kind);
/* A kind's name as moves write it ("歩" .. "龍", 成香 成桂 成銀 for the promoted minors);
 * "？" for no kind. */
/* The code point of the three-byte UTF-8 character at p, or 0. */
static inline unsigned kifu__jp_cp3(const char *p, const char *end)
{
    if (end - p < 3 || ((unsigned char)p[0] & 0xF0) != 0xE0)
        return 0;
    return ((unsigned)(p[0] & 0x0F) << 12) | ((unsigned)(p[1] & 0x3F) << 6) |
           (unsigned)(p[2] & 0x3F);
}

/* Lookups by a character's low code-point byte (distinct among the ranks 一 to 十, and
 * among the one-character piece names), checked against the whole code point: no branch
 * on which character it is, which records make unpredictable. Built once from the tables
 * of words.c by kifu__words_init (any thread, any number of times). */
typedef struct kifu__jp_cpv {
    unsigned short cp;
    unsigned char v;
} kifu__jp_cpv;
extern kifu__jp_cpv kifu__jp_ranks[256], kifu__jp_pieces[256];
void kifu__words_init(void);

/* What an error says was expected where a piece name was not found. */
#define KIFU__JP_PIECE_EXPECTED                                                          \
    "a piece name (歩 香 桂 銀 金 角 飛 玉 と 成香 成桂 成銀 馬 龍)"

const char *kifu__kanji_piece(int kind);
/* In one character, as BOD diagrams write it (杏 圭 全); "・" for 0 (an empty square). */
const char *kifu__kanji_piece_one(int kind);
/* CSA's and JKF's two-letter names by kind ("FU" .. "RY"; "" for 0 and 15). */
extern const char kifu__csa_names[16][3];
/* "１".."９" (0 gives "０"). */
const char *kifu__zen_digit(int d);
/* "〇" "一" .. "十八" for 0 .. 18, "" otherwise. */
const char *kifu__kanji_number(int n);

/* A file digit: full-width １..９ or ASCII 1..9. */
size_t kifu__jp_digit(const char *s, const char *end, int *v);
/* A rank: kanji 一..九, or a full-width or ASCII digit. */
size_t kifu__jp_rank(const char *s, const char *end, int *v);
/* A kanji count 1..99 (一 .. 九, 十, 十三, 二十 ...). */
size_t kifu__jp_count(const char *s, const char *end, int *v);
/* An unsigned decimal number in ASCII or full-width digits (at most 9 digits). */
size_t kifu__jp_number(const char *s, const char *end, long *v);
/* Append a kanji count (2 -> 二, 13 -> 十三, 20 -> 二十). */
void kifu__jp_put_count(kifu__strbuf *b, int n);

/* Spaces: ASCII space, tab, full-width space (U+3000). Returns bytes skipped. */
size_t kifu__jp_space(const char *s, const char *end);
/* Does [s, end) start with the UTF-8 literal w? Inline: with a literal the length folds
 * to a constant, and most calls fail on the first byte. */
static inline int kifu__jp_starts(const char *s, const char *end, const char *w)
{
    size_t n = strlen(w);
    return (size_t)(end - s) >= n && s[0] == w[0] && memcmp(s, w, n) == 0;
}

/* Preset of a 手合割 value (trailing spaces ignored), or KIFU_PRESET_NONE if unknown. */
int kifu__jp_preset(const char *s, const char *end);

/* JKF special of a KIF ending word, or NULL if the word has none (kept verbatim).
 * The foul words are from the view of the side to move at the ending (the KIF spec):
 * 反則勝ち, the move just made was a foul: the last mover acted illegally
 * (`+ILLEGAL_ACTION` after a sente move); 反則負け, the side to move lost by a foul:
 * `ILLEGAL_MOVE`, as json-kifu-format and CSA's %ILLEGAL_MOVE have it. */
const char *kifu__jp_special(const char *s, const char *end, int last_mover);
/* 封じ手, the sealed move of an adjourned game. No JKF special or CSA word holds it, so a
 * record keeps the word itself as its special (as any unknown word); JKF writes it as
 * CHUDAN marked `"kifu:sealed": true` (the peers read CHUDAN), CSA as %CHUDAN. */
#define KIFU__JP_SEALED "封じ手"
/* The KIF word of a JKF special written at a ply where `to_move` is to move: the foul
 * words by who acted illegally (±ILLEGAL_ACTION), the rest as kifu_special_text. */
const char *kifu__jp_special_word(const char *special, int to_move);
/* The JKF special of a USI ending word that engines and GUIs write after a move list
 * (resign, win, draw, rep_draw, rep_win, rep_lose, rep_sup, rep_inf, timeout, break),
 * with `to_move` the side to move there; NULL when s..end is no such word. *vague is set
 * to 1 for a word that names no result (rep_sup, rep_inf: read as CHUDAN, the caller
 * warns), else 0. */
const char *kifu__usi_special(const char *s, const char *end, int to_move, int *vague);

/* The BOD board diagram and the lines that go with it (持駒, 手番). */
typedef struct kifu__bod {
    kifu_board b;
    int rows;      /* board rows read so far */
    int seen;      /* any board row or hand line seen */
    int color_set; /* a 先手番/後手番 line was seen */
} kifu__bod;

enum { KIFU__BOD_NO = 0, KIFU__BOD_YES = 1, KIFU__BOD_ERR = -1 };
/* Is [s, end) a BOD's file labels, 9 down to 1 in full-width digits, half-width or
 * both? */
int kifu__bod_files(const char *s, const char *end);
/* Take one line (without its line end) if it belongs to a BOD: a hand line, the file
 * labels, a rule, a board row or a side-to-move line. KIFU__BOD_ERR sets *where to the
 * offending byte and *expected to what was wanted there. */
int kifu__bod_line(kifu__bod *bod, const char *s, const char *end, const char **where,
                   const char **expected);
/* A hand as KIF writes it, in buf: 飛 角 金 銀 桂 香 歩 with kanji counts ("角　歩十三"),
 * "なし" when empty; with trailing, a full-width space after every piece (BOD in KIF
 * files) instead of between them. Returns buf. */
char *kifu__hand_text(const kifu_board *b, int color, int trailing, char *buf,
                      size_t cap);
/* How kifu__bod_write draws. */
enum {
    KIFU__BOD_HANDICAP = 1, /* the sides are 上手/下手 */
    KIFU__BOD_FLIP = 2,     /* drawn from gote's side */
    KIFU__BOD_FILE = 4,     /* as KIF files write hands: a space after every piece */
};
/* Write a BOD of b: hands, file labels, the ruled board (v for gote), then `extra` (a
 * line such as 手数＝N, or NULL) and 後手番 when gote moves. */
void kifu__bod_write(kifu__strbuf *out, const kifu_board *b, unsigned flags,
                     const char *extra);

#endif
