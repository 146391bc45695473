/* jp.h: what the KIF and KI2 readers (jp_read.c) and writers (jp_write.c) share: the
 * line-by-line reader state and the writers' header, notes, summary and fork order. The
 * words themselves are the notation module's (notation/words.h). */
#ifndef KIFU_FMT_JP_H
#define KIFU_FMT_JP_H

#include <stdint.h>
#include <string.h>

#include "core/strbuf.h"
#include "fmt/fmt.h"
#include "kifu_private.h"
#include "notation/words.h"

/* ---- What the KIF and KI2 readers share (jp_read.c) -------------------------------- */

/* A reader's state: the record, the BOD being read, and the node the next move follows. */
typedef struct kifu__jp_reader {
    kifu_record *r;
    kifu_error *err;
    const char *text; /* start of the input, for byte offsets in errors */
    const char *stop; /* its end (kifu__jp_column reads whole words up to it) */
    const char *line; /* start of the current line */
    int lineno;
    kifu__bod bod;
    int started;     /* the initial position has been applied */
    int preset;      /* from 手合割, KIFU_PRESET_NONE if absent or unknown */
    int first_color; /* side to move at the root */
    kifu_node *cur;  /* the node the next move follows */
    void (*warn)(void *, const char *); /* the caller's warnings, or NULL */
    void *warn_ctx;
    const char *col_at; /* a point of the current line and its column (kifu__jp_column) */
    int col;
    int trailer;    /* lines no reader knows, after an ending or a rule, are comments */
    unsigned flags; /* the caller's KIFU_READ_* */
} kifu__jp_reader;

/* The characters (bytes that are not UTF-8 continuation bytes 10xxxxxx) in the n bytes
 * at s, where the input goes on to stop. Up to 24 bytes (a KIF move's number and spaces,
 * a KI2 move and the spaces after it) are three masked words, no loop and no call: every
 * move's column is counted, and a byte loop there cost KI2 reading 5% of its time. */
static inline size_t kifu__jp_chars(const char *s, size_t n, const char *stop)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (n <= 24 && stop - s >= 24) {
        uint64_t w[3];
        memcpy(w, s, sizeof w);
        uint64_t sum = 0;
        for (size_t i = 0; i < 3; i++) {
            size_t k = n > 8 * i ? n - 8 * i : 0; /* the word's bytes that count */
            uint64_t v = w[i] & (k >= 8 ? ~0ull : (1ull << (8 * k)) - 1);
            sum += kifu__utf8_cont_lanes(v); /* lanes of at most 3 add up */
        }
        return n - kifu__utf8_lanes_sum(sum);
    }
#endif
    (void)stop;
    return (size_t)(kifu__utf8_column(s, n) - 1);
}

/* The column (characters, from 1) of `at` in the current line, counted on from the last
 * point asked for on the same line: a KI2 line of several moves is scanned once. Inline
 * for the KI2 reader's every move; kifu__jp_column is the same out of line. */
static inline int kifu__jp_column_at(kifu__jp_reader *rd, const char *at)
{
    if (!rd->col_at || rd->col_at < rd->line || at < rd->col_at) {
        rd->col_at = rd->line;
        rd->col = 1;
    }
    rd->col += (int)kifu__jp_chars(rd->col_at, (size_t)(at - rd->col_at), rd->stop);
    rd->col_at = at;
    return rd->col;
}
int kifu__jp_column(kifu__jp_reader *rd, const char *at);

/* The same for the one move of a KIF line: its number and spaces before it are mostly
 * fewer than 8 ASCII bytes, tested as one word here, in the caller. */
static inline int kifu__jp_column_kif(kifu__jp_reader *rd, const char *at)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    size_t n = (size_t)(at - rd->line);
    if (n < 8 && rd->stop - rd->line >= 8) {
        uint64_t w;
        memcpy(&w, rd->line, 8);
        if (!(w & ((1ull << (8 * n)) - 1) & 0x8080808080808080ull))
            return (int)n + 1;
    }
#endif
    return kifu__jp_column(rd, at);
}

/* Read one KIF or KI2 record: a reader on a new record calls line_fn on each line of the
 * text without its line end (LF, CR LF, CR CR LF), applies the start position, and hands
 * the record to out. 0, or -1 as soon as a line fails. */
int kifu__jp_read(const char *text, size_t len,
                  int (*line_fn)(kifu__jp_reader *, const char *, const char *),
                  const kifu_read_options *opt, kifu__records *out, kifu_error *err);
/* Report a syntax error at `at` in the current line. Returns -1. */
int kifu__jp_fail(kifu__jp_reader *rd, const char *at, const char *expected,
                  const char *what);
/* Report out of memory at the current line. Returns -1. */
int kifu__jp_nomem(kifu__jp_reader *rd);
/* Handle a line both formats share: `#`, header, BOD, `*` comment, `&` bookmark, `変化`.
 * 1 handled, 0 not such a line, -1 error. */
int kifu__jp_common_line(kifu__jp_reader *rd, const char *s, const char *end);
/* Apply the header and BOD as the initial position (once, before the first move). 0/-1. */
int kifu__jp_start(kifu__jp_reader *rd);
/* A move mark ▲ △ ☗ ☖ ▽ ▼: bytes, and *color (kif_read.c; KI2 reads its marks with
 * kifu__jp_mark_fast). */
size_t kifu__jp_mark(const char *s, const char *end, int *color);
/* The ending of a foul that names its side (`named` lost when foul_lose, else won):
 * 反則負け when the side to move lost, else the ±ILLEGAL_ACTION of the side that fouled. */
const char *kifu__jp_named_foul(const kifu__jp_reader *rd, int named, int foul_lose);
/* A line no reader knows after an ending (将棋ウォーズ's `後手時間切れ` under 投了), or a
 * rule of '-' under the moves and the lines after it (激指's `generated by` trailer): kept
 * as comments of the node before, with one warning. 1 handled, 0 not such a line, -1
 * NOMEM. */
int kifu__jp_trailer(kifu__jp_reader *rd, const char *s, const char *end);
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
/* Has ending `special` a まで form that the common KIF readers know (json-kifu-format's
 * grammar refuses a file with any other まで line: 入玉勝ち, 引き分け, unknown words)? */
int kifu__jp_summary_common(const char *special);
/* Write every line in the order Kifu for Windows uses: the main line, then the forks
 * along it from the deepest move back, each followed by its own forks, each after a
 * `変化：N手` line. `line` writes the nodes of one line (v[0]: root or a fork's first).
 * Out of memory (the walk's or the buffer's) is the error it returns. */
int kifu__jp_walk(const kifu_record *r, kifu__strbuf *out, kifu_error *err,
                  void (*line)(const kifu_record *, const kifu_node **, size_t,
                               kifu__strbuf *));

#endif
