/* fmt.h: the per-format readers and writers behind kifu_read() and kifu_write().
 *
 * Readers take UTF-8 text without a BOM (decoding is done before them, in encoding.c),
 * with `opt->source` naming the input for errors. They append one record per game to
 * `out` and return 0, or -1 with err set (line, column, expected, found). They do not
 * normalize: kifu_read() calls kifu_normalize() afterwards unless told not to. A reader
 * may mark moves KIFU_MOVE_RAW and leave what its format does not say unset.
 *
 * Writers append UTF-8 text to `out`; kifu_write() encodes it afterwards when the target
 * encoding is CP932. They return 0, or -1 with err set. */
#ifndef KIFU_FMT_H
#define KIFU_FMT_H

#include "core/strbuf.h"
#include "kifu.h"
#include "record/records.h"

/* kifu_read_all, telling done of each record a reader finishes as it reads on (records
 * of readers that do not tell are for the caller to take from *out, where the records
 * done took are NULL). A done that normalizes wants KIFU_READ_NO_NORMALIZE, or the
 * records are normalized twice. On failure every record left is freed. */
int kifu__read_all_done(const void *data, size_t len, const kifu_read_options *opt,
                        int (*done)(void *ctx, kifu_record *r, size_t index),
                        void *done_ctx, kifu_record ***out, size_t *count,
                        kifu_error *err);

/* Every reader and writer has these parameters (the table in registry.c calls them). */
#define KIFU__READER_PARAMS                                                              \
    const char *text, size_t len, const kifu_read_options *opt, kifu__records *out,      \
        kifu_error *err
#define KIFU__WRITER_PARAMS                                                              \
    const kifu_record *r, const kifu_write_options *opt, kifu__strbuf *out,              \
        kifu_error *err
typedef int (*kifu__reader_fn)(KIFU__READER_PARAMS);
typedef int (*kifu__writer_fn)(KIFU__WRITER_PARAMS);

int kifu__read_jkf(KIFU__READER_PARAMS);
int kifu__read_csa(KIFU__READER_PARAMS);
/* KIF and KIFU (the same text format once decoded). */
int kifu__read_kif(KIFU__READER_PARAMS);
int kifu__read_ki2(KIFU__READER_PARAMS);
/* One SFEN, "startpos", or a USI `position ...` line (with moves). */
int kifu__read_sfen(KIFU__READER_PARAMS);
/* One SFEN per line: a start, then the position after each move (moves recovered). */
int kifu__read_sfenlist(KIFU__READER_PARAMS);
/* The position-list JSON format (seeds/002): an array of whole positions. */
int kifu__read_posjson(KIFU__READER_PARAMS);

/* A writer whose times are whole seconds (KIF, JKF) says when it cuts fractions (CSA V3.0
 * `T1.500`): through opt->warn, naming `fmt` and how many moves' times were cut. */
void kifu__warn_cut_times(const kifu_record *r, const kifu_write_options *opt,
                          const char *fmt);
/* An output of any format but posjson says when it leaves out the position IDs (`sid`)
 * a position-list document gave: once for the count records rs, through opt->warn. */
void kifu__warn_lost_sids(const kifu_record *const *rs, size_t count,
                          const kifu_write_options *opt, const char *fmt);
/* An output of a format with no move number (CSA, JKF) says when a record starts after
 * move 1 (a SFEN's `... b - 6`, a BOD's 手数＝5): once, through opt->warn. */
void kifu__warn_lost_number(const kifu_record *const *rs, size_t count,
                            const kifu_write_options *opt, const char *fmt);

int kifu__write_jkf(KIFU__WRITER_PARAMS);
int kifu__write_csa(KIFU__WRITER_PARAMS);
int kifu__write_kif(KIFU__WRITER_PARAMS);
int kifu__write_ki2(KIFU__WRITER_PARAMS);
/* A USI `position sfen|startpos moves ...` line of the main line. */
int kifu__write_sfen(KIFU__WRITER_PARAMS);
int kifu__write_sfenlist(KIFU__WRITER_PARAMS);
int kifu__write_posjson(KIFU__WRITER_PARAMS);
int kifu__write_posjson_many(const kifu_record *const *rs, size_t n,
                             const kifu_write_options *opt, kifu__strbuf *out,
                             kifu_error *err);
/* Game `index` (from 0) of a posjson array, the array's "[" before the first; r NULL:
 * the array's end, index being the number of games. *sid: the entries so far (0 at the
 * start). */
int kifu__write_posjson_part(const kifu_record *r, size_t index, size_t *sid,
                             const kifu_write_options *opt, kifu__strbuf *out,
                             kifu_error *err);

/* A sniffer bids on decoded UTF-8 text (BOM removed): 0 when the text does not look like
 * its format, else a strength (higher: surer), with *at the byte offset of the evidence
 * (registry.c picks the earliest). */
typedef int (*kifu__sniff_fn)(const char *text, size_t len, size_t *at);

/* A row of the format table (registry.c). */
typedef struct kifu__format {
    kifu_format_info info;
    int (*read)(const char *text, size_t len, const kifu_read_options *opt,
                kifu__records *out, kifu_error *err);
    int (*write)(const kifu_record *r, const kifu_write_options *opt, kifu__strbuf *out,
                 kifu_error *err);
    kifu__sniff_fn sniff; /* NULL: never guessed from content (a twin row sniffs) */
    int json;             /* JSON: UTF-8 by definition, never decoded otherwise */
    /* Several games in one output (KIFU_HOLDS_GAMES): a writer of game `index` (r NULL:
     * what ends the output) carrying *state from game to game, or the text between two
     * games' outputs; neither: one game per output. */
    int (*write_part)(const kifu_record *r, size_t index, size_t *state,
                      const kifu_write_options *opt, kifu__strbuf *out, kifu_error *err);
    const char *between;
    /* Its sniffer's bid on the first line of a file overrides the file's extension (a
     * .kif that holds a USI position line); for formats whose first line cannot be
     * anything else. */
    int sure;
} kifu__format;

/* The row of a format, or NULL. */
const kifu__format *kifu__format_get(int format);
/* `format` came from path's extension: when other formats list that extension too
 * (`.json`), the content chooses among them; a format sure of its first line (SFEN)
 * takes any file; else format. */
int kifu__format_refine(int format, const char *path, const char *text, size_t len);
/* Do several rows list path's extension (`.json`)? Then the content chooses among them. */
int kifu__format_ext_shared(const char *path);
/* The format of decoded text by the sniffers' bids, or KIFU_FMT_AUTO. */
int kifu__format_sniff(const char *text, size_t len);

/* The legal move that leads from p to the position `target` (board and hands; the side to
 * move follows): played on p and returned in *m. `to` (1 + KIFU_SQ of a square, 0: none)
 * names the destination when known, to try those moves first. 0, -1 when no legal move
 * leads there, -2 when memory ran out. */
/* Start r at b: its preset when b is one (handicaps by name), else b itself. 0, or -1
 * when memory ran out. */
int kifu__record_start(kifu_record *r, const kifu_board *b);

int kifu__move_between(kifu_position *p, const kifu_board *target, int to, kifu_move *m);
/* The move that turns board a into b, read from what changed, for a change no legal move
 * makes: a forbidden move that ended a game (二歩, 王手放置 ...; kifu writes such a game as
 * positions too). Raw: the normalizer checks it and marks the foul. 0, or -1 when the
 * change is no single move of a's side to move. */
int kifu__move_by_change(const kifu_board *a, const kifu_board *b, kifu_move *m);

int kifu__sniff_posjson(const char *text, size_t len, size_t *at);
/* MSF (a Xelto record): only sniffed here, read and written by src/msf/. */
int kifu__sniff_msf(const char *text, size_t len, size_t *at);
/* Another game's reader entry (msf.c): refuses, naming the game (kifu_msf_read reads it). */
int kifu__read_msf(KIFU__READER_PARAMS);
int kifu__sniff_jkf(const char *text, size_t len, size_t *at);
int kifu__sniff_csa(const char *text, size_t len, size_t *at);
int kifu__sniff_kif(const char *text, size_t len, size_t *at);
int kifu__sniff_ki2(const char *text, size_t len, size_t *at);
int kifu__sniff_sfen(const char *text, size_t len, size_t *at);
int kifu__sniff_sfenlist(const char *text, size_t len, size_t *at);

#endif
