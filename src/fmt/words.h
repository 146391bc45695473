/* words.h: the Japanese vocabulary KIF and KI2 share: piece names, digits and kanji
 * numerals, handicap names, ending words, and the BOD board diagram. All text is UTF-8;
 * scanners take [s, end) and return the number of bytes they matched (0: no match). */
#ifndef KIFU_WORDS_H
#define KIFU_WORDS_H

#include <stddef.h>
#include <string.h>

#include "core/strbuf.h"
#include "fmt/fmt.h"
#include "kifu.h"

/* A piece name as moves write it: 歩 香 桂 銀 金 角 飛 玉 王 と 成香 杏 成桂 圭 成銀 全 馬 龍
 * 竜 (also 仝 / 个 never: only what files use). *kind gets the kifu_piece. */
size_t kifu__jp_piece(const char *s, const char *end, int *kind);
/* The name KIF and KI2 moves use for a kind (成香 成桂 成銀 for the promoted minors). */
const char *kifu__jp_piece_name(int kind);
/* The one-character name of a kind for BOD diagrams (杏 圭 全). */
const char *kifu__jp_piece_char(int kind);

/* A file digit: full-width １..９ or ASCII 1..9. */
size_t kifu__jp_digit(const char *s, const char *end, int *v);
/* A rank: kanji 一..九, or a full-width or ASCII digit. */
size_t kifu__jp_rank(const char *s, const char *end, int *v);
/* A kanji count 1..99 (一 .. 九, 十, 十三, 二十 ...). */
size_t kifu__jp_count(const char *s, const char *end, int *v);
/* An unsigned decimal number in ASCII or full-width digits (at most 9 digits). */
size_t kifu__jp_number(const char *s, const char *end, long *v);
const char *kifu__jp_fw_digit(int d);    /* "１".."９" */
const char *kifu__jp_kanji_digit(int d); /* "一".."九" */
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
 * 反則勝ち needs the color of the player who moved last (who acted illegally, as the
 * corpus shows: `+ILLEGAL_ACTION` after a sente move). */
const char *kifu__jp_special(const char *s, const char *end, int last_mover);
/* KIF ending word of a JKF special (its own text when it has none). */
const char *kifu__jp_special_word(const char *special);

/* The BOD board diagram and the lines that go with it (持駒, 手番). */
typedef struct kifu__bod {
    kifu_board b;
    int rows;      /* board rows read so far */
    int seen;      /* any board row or hand line seen */
    int color_set; /* a 先手番/後手番 line was seen */
} kifu__bod;

enum { KIFU__BOD_NO = 0, KIFU__BOD_YES = 1, KIFU__BOD_ERR = -1 };
/* Take one line (without its line end) if it belongs to a BOD: a hand line, the file
 * labels, a rule, a board row or a side-to-move line. KIFU__BOD_ERR sets *where to the
 * offending byte and *expected to what was wanted there. */
int kifu__bod_line(kifu__bod *bod, const char *s, const char *end, const char **where,
                   const char **expected);
/* Write a BOD of b. `handicap` names the sides 上手/下手 instead of 先手/後手. */
void kifu__bod_write(kifu__strbuf *out, const kifu_board *b, int handicap);

/* ---- What the KIF and KI2 readers share (kif_read.c) ------------------------------- */

/* A reader's state: the record, the BOD being read, and the node the next move follows. */
typedef struct kifu__jp_reader {
    kifu_record *r;
    kifu_error *err;
    const char *text; /* start of the input, for byte offsets in errors */
    const char *line; /* start of the current line */
    int lineno;
    kifu__bod bod;
    int started;     /* the initial position has been applied */
    int preset;      /* from 手合割, KIFU_PRESET_NONE if absent or unknown */
    int first_color; /* side to move at the root */
    kifu_node *cur;  /* the node the next move follows */
} kifu__jp_reader;

/* Read one KIF or KI2 record: a reader on a new record calls line_fn on each line of the
 * text without its line end (LF, CR LF, CR CR LF), applies the start position, and hands
 * the record to out. 0, or -1 as soon as a line fails. */
int kifu__jp_read(const char *text, size_t len,
                  int (*line_fn)(kifu__jp_reader *, const char *, const char *),
                  kifu__records *out, kifu_error *err);
/* Report a syntax error at `at` in the current line. Returns -1. */
int kifu__jp_fail(kifu__jp_reader *rd, const char *at, const char *expected,
                  const char *what);
/* Handle a line both formats share: `#`, header, BOD, `*` comment, `&` bookmark, `変化`.
 * 1 handled, 0 not such a line, -1 error. */
int kifu__jp_common_line(kifu__jp_reader *rd, const char *s, const char *end);
/* Apply the header and BOD as the initial position (once, before the first move). 0/-1. */
int kifu__jp_start(kifu__jp_reader *rd);
/* A move mark ▲ △ ☗ ☖ ▽ ▼: bytes, and *color. */
size_t kifu__jp_mark(const char *s, const char *end, int *color);
/* Append a special ending after rd->cur (verbatim word or JKF name). NULL on NOMEM. */
kifu_node *kifu__jp_add_special(kifu__jp_reader *rd, const char *word, const char *wend);

/* ---- What the KIF and KI2 writers share (jp_write.c) -------------------------------- */

/* Display width: ASCII 1, other characters 2. */
int kifu__jp_width(const char *s);
/* Does the record name its sides 上手/下手 (handicap game or such header keys)? */
int kifu__jp_uses_handicap_names(const kifu_record *r);
/* Side to move at the start of the record. */
int kifu__jp_first_color(const kifu_record *r);
/* Header lines (手合割 added for a preset the header lacks) and the BOD of a non-preset
 * start. */
void kifu__jp_write_header(const kifu_record *r, kifu__strbuf *out);
/* Is move node n to the square of the move before it (written 同)? */
int kifu__jp_same_square(const kifu_node *n);
/* The `*comment` and `&bookmark` lines of a node. */
void kifu__jp_write_notes(const kifu_node *n, kifu__strbuf *out);
/* The `まで N手で…` line for a special node; the KI2 reader maps it back. */
void kifu__jp_write_summary(const kifu_record *r, const kifu_node *special,
                            kifu__strbuf *out);
/* Write every line in the order Kifu for Windows uses: the main line, then the forks
 * along it from the deepest move back, each followed by its own forks, each after a
 * `変化：N手` line. `line` writes the nodes of one line (v[0]: root or a fork's first). */
int kifu__jp_walk(const kifu_record *r, kifu__strbuf *out, kifu_error *err,
                  void (*line)(const kifu_record *, const kifu_node **, size_t,
                               kifu__strbuf *));

#endif
