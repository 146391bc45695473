/* kifu.h: the one public header of libkifu, a library for shogi game records.
 *
 * Conventions:
 * - Every type but the small value structs (kifu_error, kifu_move, kifu_time, kifu_board,
 *   the option structs) is opaque.
 * - Functions that can fail take a `kifu_error *` (NULL allowed; the first error wins) and
 *   return NULL or -1 on failure.
 * - Ownership is stated on each function: "borrowed" pointers live as long as their owner;
 *   "new" strings and arrays are released with kifu_free(); records with kifu_record_free().
 * - All text crossing this API is UTF-8. Byte buffers given to readers may be in any
 *   supported encoding; writers return bytes in the encoding asked for.
 * - Threads: the library holds no mutable state shared between objects (its lookup tables
 *   are built once, under pthread_once, and never change after). Different objects
 *   (records, players, positions, walkers, searches, indexes) may be used in different
 *   threads at once; one object may be read from several threads at once (functions on a
 *   const pointer), but a call that changes it must not overlap any other use of it.
 *   `make tsan` checks this.
 * - Squares are (x, y) with x the file 1..9 (right to left from sente's side) and y the
 *   rank 1..9 (top to bottom), as in JKF and KIF.
 */
#ifndef KIFU_H
#define KIFU_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(KIFU_BUILDING) && defined(__GNUC__)
#define KIFU_EXPORT __attribute__((visibility("default")))
#else
#define KIFU_EXPORT
#endif

#define KIFU_VERSION_MAJOR 0
#define KIFU_VERSION_MINOR 1
#define KIFU_VERSION_PATCH 0
#define KIFU_VERSION_STRING "0.1.0"

/** The library's version string, e.g. "0.1.0" (borrowed, static). */
KIFU_EXPORT const char *kifu_version_string(void);

/** Release memory the library handed out as "new" (strings, arrays). NULL is fine. */
KIFU_EXPORT void kifu_free(void *p);

/* ------------------------------------------------------------------------------------ */
/* Errors                                                                                */

typedef enum kifu_code {
    KIFU_OK = 0,
    KIFU_ERR_NOMEM,       /* out of memory */
    KIFU_ERR_IO,          /* file could not be read or written */
    KIFU_ERR_ARG,         /* bad argument from the caller */
    KIFU_ERR_ENCODING,    /* bytes not valid in the encoding, or not representable */
    KIFU_ERR_SYNTAX,      /* text does not follow the format */
    KIFU_ERR_SCHEMA,      /* JSON is well-formed but not JKF */
    KIFU_ERR_SFEN,        /* malformed SFEN / USI */
    KIFU_ERR_ILLEGAL,     /* a move that the rules forbid */
    KIFU_ERR_AMBIGUOUS,   /* a move that names more than one piece (KI2) */
    KIFU_ERR_UNSUPPORTED, /* a construct or option this build does not handle */
    KIFU_ERR_BUSY,        /* another process is writing the index (kifu_index_open) */
} kifu_code;

/** Where and why something failed. Line and column are 1-based (0 = unknown); column counts
 *  characters, offset counts bytes from the start of the input. Strings are NUL-terminated
 *  and may be empty. */
typedef struct kifu_error {
    int code; /* kifu_code */
    int line;
    int column;
    size_t offset;
    char source[256];   /* file name or JSON path context, "" if none */
    char expected[128]; /* what the reader expected, "" if not applicable */
    char found[128];    /* what it found instead */
    char message[512]; /* one full human-readable sentence, without the position prefix */
} kifu_error;

/** Reset an error to "no error". */
KIFU_EXPORT void kifu_error_clear(kifu_error *err);

/** Format "source:line:column: message" into buf (always NUL-terminated). Returns buf. */
KIFU_EXPORT char *kifu_error_format(const kifu_error *err, char *buf, size_t cap);

/** Name of a code, e.g. "syntax error" (static). */
KIFU_EXPORT const char *kifu_code_name(int code);

/* ------------------------------------------------------------------------------------ */
/* Pieces, colors, squares                                                              */

typedef enum kifu_color { KIFU_BLACK = 0, KIFU_WHITE = 1 } kifu_color; /* sente, gote */

/* Piece kinds, numbered so that promoting is `| 8`. Hand pieces are FU..KI (1..7). */
typedef enum kifu_piece {
    KIFU_NO_PIECE = 0,
    KIFU_FU = 1,
    KIFU_KY = 2,
    KIFU_KE = 3,
    KIFU_GI = 4,
    KIFU_KA = 5,
    KIFU_HI = 6,
    KIFU_KI = 7,
    KIFU_OU = 8,
    KIFU_TO = 9,
    KIFU_NY = 10,
    KIFU_NK = 11,
    KIFU_NG = 12,
    KIFU_UM = 13,
    KIFU_RY = 14,
} kifu_piece;

/** CSA/JKF two-letter name of a kind ("FU" ... "RY"), or NULL. Static. */
KIFU_EXPORT const char *kifu_piece_csa(int piece);
/** Kind from a CSA/JKF name ("FU"), or KIFU_NO_PIECE. */
KIFU_EXPORT int kifu_piece_from_csa(const char *name);

/** A whole position as plain data: 81 squares, hands and side to move. Square (x, y) is
 *  sq[(x-1)*9 + (y-1)] (the JKF board[x-1][y-1] order). A square holds 0 when empty,
 *  else kind | (color << 4). hands[c][k] counts kind k (1..7) in color c's hand. */
typedef struct kifu_board {
    uint8_t sq[81];
    uint8_t hands[2][8];
    uint8_t color; /* side to move */
} kifu_board;

#define KIFU_SQ(x, y) (((x)-1) * 9 + ((y)-1))

/* ------------------------------------------------------------------------------------ */
/* Moves and times                                                                      */

/** A move as a record holds it: complete after normalization, partial before (a KI2 move
 *  knows only its target, piece and relative word; a CSA move gives the piece after the
 *  move). Fields mirror JKF's MoveFormat. */
typedef struct kifu_move {
    uint8_t color;          /* KIFU_BLACK or KIFU_WHITE */
    uint8_t from_x, from_y; /* 0, 0: a drop, or unknown before normalization */
    uint8_t to_x, to_y;     /* 0, 0 only when `same` is set and not yet resolved */
    uint8_t piece;          /* kind before the move (JKF `piece`) */
    uint8_t capture;        /* captured kind, 0 if none */
    int8_t promote;         /* -1 absent, 0 false (could promote, did not), 1 true */
    int8_t same;            /* -1 absent, 0 false, 1 true (JKF `same`) */
    char relative[3];       /* JKF relative ("", "L", "RU", "H"...) */
    uint8_t flags;          /* KIFU_MOVE_* below */
} kifu_move;

enum {
    KIFU_MOVE_PIECE_AFTER =
        1,                  /* `piece` is the kind after the move (CSA): to be resolved */
    KIFU_MOVE_DROP = 2,     /* known to be a drop (打, or from 00) */
    KIFU_MOVE_RAW = 4,      /* not normalized yet */
    KIFU_MOVE_NO_COLOR = 8, /* the source did not say the color */
};

/** A time span. h is -1 when the source gave no hour field (JKF `now` usually has none). */
typedef struct kifu_time {
    int h, m, s;
    int ms; /* fraction of a second in milliseconds (CSA V3.0 decimals), else 0 */
} kifu_time;

/** Time used by a move: `now` for this move, `total` for the player so far. */
typedef struct kifu_move_time {
    kifu_time now;
    kifu_time total;
    uint8_t has_total; /* 0 when the source gave only `now` (the normalizer fills total);
                    * total is then {-1, 0, 0, 0} as a record gives it */
} kifu_move_time;

/** Total seconds of a time (ignoring ms). */
KIFU_EXPORT long kifu_time_seconds(const kifu_time *t);
/** A time from seconds, with h >= 0 when with_hours, else h = -1 and m may exceed 59. */
KIFU_EXPORT kifu_time kifu_time_from_seconds(long seconds, int with_hours);

/* ------------------------------------------------------------------------------------ */
/* Records                                                                              */

typedef struct kifu_record kifu_record;
typedef struct kifu_node kifu_node;

/* Handicap presets, in JKF order. KIFU_PRESET_NONE: the record gave no initial position
 * (JKF `initial` absent, which means HIRATE). */
typedef enum kifu_preset {
    KIFU_PRESET_NONE = -1,
    KIFU_PRESET_HIRATE = 0,
    KIFU_PRESET_KY,
    KIFU_PRESET_KY_R,
    KIFU_PRESET_KA,
    KIFU_PRESET_HI,
    KIFU_PRESET_HIKY,
    KIFU_PRESET_2,
    KIFU_PRESET_3,
    KIFU_PRESET_4,
    KIFU_PRESET_5,
    KIFU_PRESET_5_L,
    KIFU_PRESET_6,
    KIFU_PRESET_7_L,
    KIFU_PRESET_7_R,
    KIFU_PRESET_8,
    KIFU_PRESET_10,
    KIFU_PRESET_OTHER,
    KIFU_PRESET_COUNT_ /* 17 presets */
} kifu_preset;

/** JKF name of a preset ("HIRATE", "KY", ..., "OTHER"), or NULL. Static. */
KIFU_EXPORT const char *kifu_preset_name(int preset);
/** Japanese name of a preset ("平手", "香落ち", ...), or NULL. Static. */
KIFU_EXPORT const char *kifu_preset_japanese(int preset);
/** Preset from a JKF name, or KIFU_PRESET_NONE. */
KIFU_EXPORT int kifu_preset_from_name(const char *name);
/** Fill `out` with the starting position of a preset (not OTHER). 0, or -1. */
KIFU_EXPORT int kifu_preset_board(int preset, kifu_board *out);
/** The preset whose starting position equals `b`, or KIFU_PRESET_OTHER. */
KIFU_EXPORT int kifu_preset_match(const kifu_board *b);

/** A new empty record: no header, no initial position, a root node without moves.
 *  New; free with kifu_record_free. NULL when out of memory. */
KIFU_EXPORT kifu_record *kifu_record_new(void);
/** Free a record and every node, string and array it owns. NULL is fine. */
KIFU_EXPORT void kifu_record_free(kifu_record *r);

/* Header: ordered key/value pairs, file order kept, duplicate keys allowed. */
KIFU_EXPORT size_t kifu_record_header_count(const kifu_record *r);
/** Key and value of entry i (borrowed). -1 if i is out of range. */
KIFU_EXPORT int kifu_record_header_at(const kifu_record *r, size_t i, const char **key,
                                      const char **value);
/** Value of the first entry with this key (borrowed), or NULL. */
KIFU_EXPORT const char *kifu_record_header_get(const kifu_record *r, const char *key);
/** Append an entry (key and value are copied). 0, or -1 on NOMEM. */
KIFU_EXPORT int kifu_record_header_add(kifu_record *r, const char *key,
                                       const char *value);
/** Replace the value of the first entry with this key, or append it. 0, or -1. */
KIFU_EXPORT int kifu_record_header_set(kifu_record *r, const char *key,
                                       const char *value);

/* Initial position. */
KIFU_EXPORT int kifu_record_preset(const kifu_record *r);
/** Set a preset (not OTHER); clears explicit data. 0, or -1 for a bad preset. */
KIFU_EXPORT int kifu_record_set_preset(kifu_record *r, int preset);
/** Set an explicit start (preset OTHER with data). The board is copied. 0, or -1. */
KIFU_EXPORT int kifu_record_set_initial(kifu_record *r, const kifu_board *b);
/** The start position as a board, preset or not (HIRATE when none was given). */
KIFU_EXPORT void kifu_record_initial(const kifu_record *r, kifu_board *out);
/** The number of the move to be made at the start position, as a SFEN gives it
 * (`... w b 6`: 6); 1 when the record did not say. The move of ply N is move number
 * start + N - 1. */
KIFU_EXPORT int kifu_record_start_number(const kifu_record *r);
/** Set it (1 to 999999999; anything else means 1). */
KIFU_EXPORT void kifu_record_set_start_number(kifu_record *r, int number);

/* The move tree. The root node stands for the initial position (JKF moves[0]): it holds
 * only comments. Every node's child 0 continues its line; children 1.. are forks, i.e.
 * alternatives to child 0 (JKF `forks` on child 0). */
typedef enum kifu_node_kind {
    KIFU_NODE_ROOT = 0,
    KIFU_NODE_MOVE = 1,
    KIFU_NODE_SPECIAL = 2, /* an ending: TORYO, CHUDAN, ... or an unknown word verbatim */
} kifu_node_kind;

/** The root node (borrowed; never NULL). */
KIFU_EXPORT kifu_node *kifu_record_root(const kifu_record *r);
/** Number of nodes ever created in the record (ids are 0 .. count-1; see kifu_node_id). */
KIFU_EXPORT size_t kifu_record_node_count(const kifu_record *r);

KIFU_EXPORT int kifu_node_kind_of(const kifu_node *n);
/** Stable small integer per node, unique in its record: index side tables with it. */
KIFU_EXPORT size_t kifu_node_id(const kifu_node *n);
/** Ply of the node: 0 for the root, 1 for the first move, ... (specials count). */
KIFU_EXPORT int kifu_node_ply(const kifu_node *n);
KIFU_EXPORT kifu_node *kifu_node_parent(const kifu_node *n);
KIFU_EXPORT size_t kifu_node_child_count(const kifu_node *n);
/** Child i (0 = main continuation, 1.. = forks), or NULL. Borrowed. */
KIFU_EXPORT kifu_node *kifu_node_child(const kifu_node *n, size_t i);
/** Child 0, or NULL at the end of the line. */
KIFU_EXPORT kifu_node *kifu_node_next(const kifu_node *n);
/** Index of n among its parent's children (0 for the root). */
KIFU_EXPORT size_t kifu_node_index(const kifu_node *n);

/** Copy the move of a MOVE node into *out (may be NULL) and return 1; 0 for other kinds
 *  (*out untouched). A value, not a pointer: a record keeps moves packed (a node is 10
 *  bytes), so a 1,000,000-move game takes about 10 MB. Change a move with
 *  kifu_node_set_move. */
KIFU_EXPORT int kifu_node_get_move(const kifu_node *n, kifu_move *out);
/** Replace the move of a MOVE node (copied). 0, or -1 when n is no MOVE node or a field
 *  is out of range (squares 0..9, kinds 0..15, `relative` other than JKF's letters). */
KIFU_EXPORT int kifu_node_set_move(kifu_record *r, kifu_node *n, const kifu_move *m);
/** Fouls: a move the rules forbid, kept in a record because the game ended on it. */
typedef enum kifu_foul {
    KIFU_FOUL_NONE = 0,
    KIFU_FOUL_LEFT_IN_CHECK, /* 王手放置: in check, and the move does not answer it */
    KIFU_FOUL_INTO_CHECK, /* the move puts its own king in check (a king or pinned move) */
    KIFU_FOUL_NIFU,       /* 二歩: a second unpromoted pawn of one side on a file */
    KIFU_FOUL_UCHIFUZUME, /* 打ち歩詰め: a pawn drop that mates */
    KIFU_FOUL_DEAD_PIECE, /* 行き所のない駒: a piece left where it can never move */
    /* 誤記: no foul but a record's error (KIFU_READ_REPAIR): the move as written could
     * not be played, and the node holds the one legal move of its piece to its square
     * (a relay's miscopied source square); the game goes on after it. */
    KIFU_FOUL_MISRECORDED,
} kifu_foul;

/** The foul of a MOVE node (kifu_foul), KIFU_FOUL_NONE for a legal move or another kind.
 *  The normalizer keeps a forbidden move, marked so, when it ends its line: followed only
 *  by an ending that records a foul (ILLEGAL_MOVE, ±ILLEGAL_ACTION; KIF 反則勝ち/反則負け),
 *  or by nothing (then it adds the ±ILLEGAL_ACTION ending, with a warning). The position
 *  after it is what the move did (players and walkers play it as played). */
KIFU_EXPORT int kifu_node_foul(const kifu_node *n);
/** "王手放置", "自玉への王手" (into check), "二歩", "打ち歩詰め", "行き所のない駒", "誤記"
 *  (MISRECORDED); "" for NONE. */
KIFU_EXPORT const char *kifu_foul_name(int foul);

/** The ending word of a SPECIAL node (borrowed), or NULL. */
KIFU_EXPORT const char *kifu_node_special(const kifu_node *n);

KIFU_EXPORT size_t kifu_node_comment_count(const kifu_node *n);
KIFU_EXPORT const char *kifu_node_comment(const kifu_node *n, size_t i);
/** Append a comment line (copied). 0, or -1. */
KIFU_EXPORT int kifu_node_add_comment(kifu_record *r, kifu_node *n, const char *text);
/** Remove all comments of n. */
KIFU_EXPORT void kifu_node_clear_comments(kifu_node *n);

/** KIF `&` bookmark names on the node. */
KIFU_EXPORT size_t kifu_node_bookmark_count(const kifu_node *n);
KIFU_EXPORT const char *kifu_node_bookmark(const kifu_node *n, size_t i);
KIFU_EXPORT int kifu_node_add_bookmark(kifu_record *r, kifu_node *n, const char *name);

/** Copy the time of the node into *out (may be NULL) and return 1, or return 0 when it has
 *  none (*out untouched). A value, not a pointer: a record keeps times packed (8 bytes
 *  a move in milliseconds, the fields as given when they do not fit that). */
KIFU_EXPORT int kifu_node_get_time(const kifu_node *n, kifu_move_time *out);
/** Set (copy) or, with NULL, remove the time. 0, or -1. */
KIFU_EXPORT int kifu_node_set_time(kifu_record *r, kifu_node *n, const kifu_move_time *t);

/** Add a MOVE child after all existing children of `parent` (child 0 if it had none, else
 *  a new fork). The move is copied. Returns the new node (borrowed), NULL on NOMEM, for a
 *  move kifu_node_set_move refuses, or past 33,554,431 plies. */
KIFU_EXPORT kifu_node *kifu_node_add_move(kifu_record *r, kifu_node *parent,
                                          const kifu_move *m);
/** Add a SPECIAL child the same way. `word` is copied. */
KIFU_EXPORT kifu_node *kifu_node_add_special(kifu_record *r, kifu_node *parent,
                                             const char *word);
/** Detach n (not the root) and its whole subtree from the tree. Its memory stays with the
 *  record until kifu_record_free; n must not be used afterwards. 0, or -1. */
KIFU_EXPORT int kifu_node_delete(kifu_record *r, kifu_node *n);
/** Move child i of `parent` to position j among its siblings (j = 0 makes it the main
 *  line). 0, or -1. */
KIFU_EXPORT int kifu_node_reorder(kifu_node *parent, size_t i, size_t j);

/** A deep copy of a record. New. */
KIFU_EXPORT kifu_record *kifu_record_clone(const kifu_record *r);

/* ------------------------------------------------------------------------------------ */
/* Formats: reading and writing                                                          */

typedef enum kifu_format {
    KIFU_FMT_AUTO = 0, /* from the file name, else from the content */
    KIFU_FMT_JKF,
    KIFU_FMT_CSA,
    KIFU_FMT_KIF,      /* KIF, Shift-JIS (CP932) by default */
    KIFU_FMT_KIFU,     /* KIF in UTF-8 */
    KIFU_FMT_KI2,      /* KI2, CP932 by default */
    KIFU_FMT_KI2U,     /* KI2 in UTF-8 */
    KIFU_FMT_SFEN,     /* one SFEN, USI `position` line or `startpos` */
    KIFU_FMT_SFENLIST, /* one SFEN per line: the position after each move */
    KIFU_FMT_POSJSON,  /* the position-list JSON format: a whole position per entry */
    KIFU_FMT_MSF,      /* Mino Seslax Format: a Xelto record (kifu_msf_*), not shogi */
    KIFU_FMT_COUNT_
} kifu_format;

typedef enum kifu_encoding {
    KIFU_ENC_AUTO = 0, /* detect: a BOM (UTF-8, UTF-16), UTF-16 by its zero bytes, valid
                        * UTF-8, a CSA encoding line, else CP932 or EUC-JP */
    KIFU_ENC_UTF8,
    KIFU_ENC_CP932, /* Shift-JIS as Windows writes it */
    KIFU_ENC_EUCJP,
    /* UTF-16 read by its BOM; without one, the byte order in which the text's ASCII has
     * its zero bytes, else big-endian (RFC 2781). Written little-endian with a BOM, as
     * Windows writes it. */
    KIFU_ENC_UTF16,
    KIFU_ENC_UTF16LE, /* no BOM written; one read is dropped */
    KIFU_ENC_UTF16BE,
} kifu_encoding;

/** Encoding from a name, in any case: auto, UTF-8 (utf8), Shift_JIS (Shift-JIS, SJIS,
 *  MS932, CP932, Windows-31J: all CP932), EUC-JP (eucjp), UTF-16, UTF-16LE, UTF-16BE.
 *  -1 for a name it does not know. */
KIFU_EXPORT int kifu_encoding_from_name(const char *name);
/** The usual name of an encoding ("UTF-8", "Shift_JIS", "EUC-JP", "UTF-16", "UTF-16LE",
 *  "UTF-16BE", "auto"), or NULL. Static. */
KIFU_EXPORT const char *kifu_encoding_name(int encoding);
/** The names kifu_encoding_from_name takes, for messages: "auto utf-8 shift_jis ...".
 *  Static. */
KIFU_EXPORT const char *kifu_encoding_names(void);

/** Short name of a format ("jkf", "csa", "kif", "kifu", "ki2", "ki2u", "sfen", "sfenlist"). */
KIFU_EXPORT const char *kifu_format_name(int format);
/** Format from a short name or a file extension ("kif", ".kif", "json"), or KIFU_FMT_AUTO. */
KIFU_EXPORT int kifu_format_from_name(const char *name);
/** Format from a path's extension, or KIFU_FMT_AUTO if unknown. */
KIFU_EXPORT int kifu_format_from_path(const char *path);
/** Format guessed from the content: the bytes are decoded (encoding detected) and every
 *  format's sniffer bids on the text; KIFU_FMT_AUTO if none fits. */
KIFU_EXPORT int kifu_format_detect(const void *data, size_t len);

/** What a format can hold (kifu_format_info.holds). */
enum {
    KIFU_HOLDS_FORKS = 1,    /* alternative lines */
    KIFU_HOLDS_COMMENTS = 2, /* comments on moves */
    KIFU_HOLDS_TIMES = 4,    /* time used per move */
    KIFU_HOLDS_GAMES = 8,    /* several games in one file */
};

/** A row of the format table: all static. */
typedef struct kifu_format_info {
    int format;             /* kifu_format */
    const char *name;       /* "kif" (what -f/-t take) */
    const char *extensions; /* space-separated, the one written first: "jkf json" */
    const char *description;
    int encoding;   /* default output encoding (kifu_encoding) */
    unsigned holds; /* KIFU_HOLDS_* */
    int game;       /* KIFU_GAME_*: which game its records are of */
} kifu_format_info;

/** The game a format records (kifu_format_info.game). kifu_read and kifu_write take
 *  shogi formats only; a Xelto format (MSF) is read and written with kifu_msf_*, and
 *  kifu_read on it fails with KIFU_ERR_UNSUPPORTED saying so. */
enum {
    KIFU_GAME_SHOGI = 0,
    KIFU_GAME_XELTO = 1,
};

/** Number of formats in the table; kifu_format_info_at(0 .. count-1) lists them. */
KIFU_EXPORT size_t kifu_format_count(void);
KIFU_EXPORT const kifu_format_info *kifu_format_info_at(size_t i);
/** The row of a format, or NULL. */
KIFU_EXPORT const kifu_format_info *kifu_format_info_of(int format);

/** A whole file, or standard input for "-", in new memory (kifu_free) with a NUL after
 *  its *len bytes. NULL with err (KIFU_ERR_IO naming the file, or NOMEM). */
KIFU_EXPORT void *kifu_file_read(const char *path, size_t *len, kifu_error *err);

enum {
    KIFU_READ_LENIENT = 1, /* on an illegal move keep the rest unnormalized, no error */
    /* return the record as the format gave it; it keeps (shares) the decoded input
     * until kifu_normalize or kifu_record_free, so an illegal move is reported at its
     * line and column then */
    KIFU_READ_NO_NORMALIZE = 2,
    /* the caller keeps the bytes given to kifu_read*, unchanged, until every record it
     * returned is normalized or freed: with NO_NORMALIZE, input that needs no decoding
     * (UTF-8 or ASCII without a BOM) is then read in place instead of being copied for
     * the records to keep (without NO_NORMALIZE it is read in place anyway) */
    KIFU_READ_BORROW = 4,
    /* with LENIENT: a move that cannot be played but that exactly one legal move of the
     * same piece to the same square explains (a source square miscopied, as relays
     * transcribe) is read as that move, marked KIFU_FOUL_MISRECORDED, and the game goes
     * on; the KIF reader drops a doubled time field. kifu_normalize then returns 0 when
     * every move was played (err, when given, holds the first repaired move's error, or
     * none), and -1 when a move stayed unplayed, with err naming it (the record usable
     * as with LENIENT alone). */
    KIFU_READ_REPAIR = 8,
};

typedef struct kifu_read_options {
    int format;     /* kifu_format; AUTO uses `source`'s extension, then the content */
    int encoding;   /* kifu_encoding */
    unsigned flags; /* KIFU_READ_* */
    const char *source; /* name used in error messages (a path), may be NULL */
    /* Called for what a reader accepted but the file should not have held (posjson's
     * trailing commas, an unknown key); may be NULL. */
    void (*warn)(void *ctx, const char *message);
    void *warn_ctx;
} kifu_read_options;

/** Read one record (the first, for files that hold several) from bytes: decode, parse and
 *  normalize. New, or NULL with err set. */
KIFU_EXPORT kifu_record *kifu_read(const void *data, size_t len,
                                   const kifu_read_options *opt, kifu_error *err);
/** Read every record in the bytes (CSA files may hold several separated by `/`). On
 *  success *out is a new array (kifu_free) of *count new records; 0, or -1. */
KIFU_EXPORT int kifu_read_all(const void *data, size_t len, const kifu_read_options *opt,
                              kifu_record ***out, size_t *count, kifu_error *err);
/** kifu_read_all, handing each record to fn as it is read instead of keeping them all,
 *  so that a file of many games costs one game's memory at a time: fn takes record
 *  `index` (from 0), not normalized (kifu_normalize it there; the read options'
 *  KIFU_READ_NO_NORMALIZE is implied), and frees it with kifu_record_free. A nonzero
 *  return stops the calls (the rest is read for errors and freed). Records come in input
 *  order (those of a reader that finishes its games only at the end, after it). On a
 *  syntax error returns -1 with err set, fn having had the games before it. *count (may
 *  be NULL): the games read. */
KIFU_EXPORT int kifu_read_each(const void *data, size_t len, const kifu_read_options *opt,
                               int (*fn)(void *ctx, kifu_record *r, size_t index),
                               void *ctx, size_t *count, kifu_error *err);
/** kifu_read on a file's contents ("-" is stdin). */
KIFU_EXPORT kifu_record *kifu_read_file(const char *path, const kifu_read_options *opt,
                                        kifu_error *err);

/** The format kifu_read_all takes the bytes as with these options (NULL: none): the
 *  options' format when not AUTO, else the source's extension, overridden by a first line
 *  that only one format writes (SFEN, MSF) and chosen by the content among the formats
 *  sharing it (.json), else the content's (kifu_format_detect); KIFU_FMT_AUTO when nothing
 *  fits. kifu_read_all decides the same way: a caller that branches on the format's game
 *  (kifu_format_info.game: kifu_read_all for shogi, kifu_msf_read for Xelto) passes it
 *  on in the options, and the bytes are not looked at again. A file of a known extension
 *  costs the decoding of its first lines only. */
KIFU_EXPORT int kifu_format_decide(const void *data, size_t len,
                                   const kifu_read_options *opt);

/** Complete every move of the record (from, piece, capture, promote, same, relative,
 *  color, total times) and check it with the rules engine. On an illegal or ambiguous
 *  move returns -1 with err naming ply, branch, move and reason, and its line, column and
 *  byte offset when the record was read by kifu_read* (else 0); moves before it are
 *  normalized, the record stays valid and can be written. It releases the input text
 *  such a record kept (KIFU_READ_NO_NORMALIZE). With KIFU_READ_LENIENT it goes
 *  on with the other branches and returns 0. */
KIFU_EXPORT int kifu_normalize(kifu_record *r, unsigned flags, kifu_error *err);
/** kifu_normalize, telling warn (may be NULL) what it accepted but a careful writer would
 *  not have written (a foul with no ending after it). */
KIFU_EXPORT int kifu_normalize_warn(kifu_record *r, unsigned flags,
                                    void (*warn)(void *ctx, const char *message),
                                    void *ctx, kifu_error *err);

enum {
    KIFU_WRITE_PRETTY = 1, /* JKF: two-space indent */
    KIFU_WRITE_CSA_V3 = 2, /* CSA: V3.0 instead of V2.2 */
    KIFU_WRITE_CRLF = 4,   /* KIF, KI2, CSA: Windows line ends (CR LF), as Kifu for
                              Windows writes; other formats refuse it (KIFU_ERR_ARG) */
};

typedef void (*kifu_warn_fn)(void *ctx, const char *message);

typedef struct kifu_write_options {
    int format;   /* required: not AUTO */
    int encoding; /* AUTO: the format's own (UTF-8; CP932 for KIF/KI2) */
    unsigned flags;
    kifu_warn_fn
        warn; /* called for data the format cannot hold (a fork in CSA); may be NULL */
    void *warn_ctx;
} kifu_write_options;

/** Write a record. Returns new bytes (kifu_free), NUL-terminated, length in *len (may be
 *  NULL); NULL with err set on failure (e.g. a character CP932 cannot hold). */
KIFU_EXPORT char *kifu_write(const kifu_record *r, const kifu_write_options *opt,
                             size_t *len, kifu_error *err);
/** Write several games into one output, for formats that hold several
 *  (KIFU_HOLDS_GAMES: CSA with `/` lines between games, posjson in one array); any other
 *  format takes exactly one. As kifu_write otherwise. */
KIFU_EXPORT char *kifu_write_all(const kifu_record *const *rs, size_t count,
                                 const kifu_write_options *opt, size_t *len,
                                 kifu_error *err);
/** Game `index` (from 0) of a multi-game output, as kifu_write_all writes it there (with
 *  the separator before it when index > 0), or, r NULL, what ends the output (index: the
 *  number of games; "" but for posjson's closing bracket): the outputs for index 0, 1,
 *  2 ... and the end put end to end are kifu_write_all's bytes, so a long output can be
 *  written game by game. *state (NULL for a format other than posjson) carries what the
 *  next game needs (posjson's entry numbers): 0 before the first game. As kifu_write
 *  otherwise. */
KIFU_EXPORT char *kifu_write_nth(const kifu_record *r, size_t index, size_t *state,
                                 const kifu_write_options *opt, size_t *len,
                                 kifu_error *err);

/* ------------------------------------------------------------------------------------ */
/* Rules engine                                                                         */

typedef struct kifu_position kifu_position;

/** A new position at the standard start (hirate, sente to move). New; NULL on NOMEM. */
KIFU_EXPORT kifu_position *kifu_position_new(void);
KIFU_EXPORT void kifu_position_free(kifu_position *p);
/** A new position that is a copy of p (history included). */
KIFU_EXPORT kifu_position *kifu_position_clone(const kifu_position *p);

/** Set from a SFEN, "startpos", "sfen <SFEN>", or a USI line "position startpos|sfen ...
 *  [moves ...]" (the moves are played). Strict: errors name the field and the character
 *  offset. History is cleared. 0, or -1. */
KIFU_EXPORT int kifu_position_set_sfen(kifu_position *p, const char *text,
                                       kifu_error *err);
/** Set from a board; checks what SFEN checks. 0, or -1. */
KIFU_EXPORT int kifu_position_set_board(kifu_position *p, const kifu_board *b,
                                        kifu_error *err);
KIFU_EXPORT void kifu_position_board(const kifu_position *p, kifu_board *out);
/** SFEN of the position; move_number is its last field, the number of the next move: 1
 *  at the start, N + 1 after N moves (kifu_position_history_length(p) + 1 for a position
 *  that was played to). New string. */
KIFU_EXPORT char *kifu_position_sfen(const kifu_position *p, int move_number);
KIFU_EXPORT int kifu_position_side(const kifu_position *p);
/** Zobrist hash over board, hands and side to move. */
KIFU_EXPORT uint64_t kifu_position_hash(const kifu_position *p);

/** Legal moves, complete (from, piece, capture, promote set: 1 promoted, including a forced
 *  promotion as JKF writes it; 0 could promote and did not; -1 could not promote). Writes at
 *  most cap moves, returns the total count. 600 always suffice. */
KIFU_EXPORT size_t kifu_position_legal_moves(const kifu_position *p, kifu_move *out,
                                             size_t cap);
/** Is this move legal here? Uses from/to/piece/promote (and drop when from is 0,0; piece 0
 *  means the piece on `from`; promote -1 means promote exactly when forced). On an
 *  illegal move returns 0 and, when reason is not NULL, a static Japanese+English reason. */
KIFU_EXPORT int kifu_position_is_legal(const kifu_position *p, const kifu_move *m,
                                       const char **reason);
/** Play a legal move (checked; the move is completed in place: capture, promote). 0, -1. */
KIFU_EXPORT int kifu_position_play(kifu_position *p, kifu_move *m, kifu_error *err);
/** Take back the last move played. 0, or -1 when there is none. */
KIFU_EXPORT int kifu_position_undo(kifu_position *p);
/** Number of moves played since the position was set. */
KIFU_EXPORT int kifu_position_history_length(const kifu_position *p);

/** Parse a USI move ("7g7f", "8h2b+", "P*5e") for this position into a complete move.
 *  Does not check legality beyond there being a piece to move. 0, or -1. */
KIFU_EXPORT int kifu_position_parse_usi(const kifu_position *p, const char *usi,
                                        kifu_move *out, kifu_error *err);
/** USI text of a move into buf (>= 6 bytes). Returns buf. */
KIFU_EXPORT char *kifu_move_usi(const kifu_move *m, char *buf);

KIFU_EXPORT int kifu_position_in_check(const kifu_position *p);
/** In check with no legal move. */
KIFU_EXPORT int kifu_position_is_mate(const kifu_position *p);
KIFU_EXPORT int kifu_position_has_legal_move(const kifu_position *p);

typedef enum kifu_repetition {
    KIFU_REP_NONE = 0,
    KIFU_REP_DRAW,        /* 千日手: the same position the fourth time */
    KIFU_REP_BLACK_LOSES, /* perpetual check by sente: sente loses */
    KIFU_REP_WHITE_LOSES, /* perpetual check by gote */
} kifu_repetition;
/** How many times the current position occurred in the history (1 = first time). */
KIFU_EXPORT int kifu_position_repetition_count(const kifu_position *p);
/** Repetition verdict for the current position (kifu_repetition). */
KIFU_EXPORT int kifu_position_repetition(const kifu_position *p);
/** 入玉宣言 by the side to move under the CSA rule (27-point method): the king in the enemy
 *  camp (3 far ranks) and not in check, at least 10 other own pieces in the camp, and points
 *  (rook/bishop, promoted or not, 5, others 1; pieces in the camp plus pieces in hand) of at
 *  least 28 for sente, 27 for gote. 1 if the declaration wins, else 0. */
KIFU_EXPORT int kifu_position_can_declare(const kifu_position *p);

/** Number of leaf nodes at `depth` from p (legal moves only). */
KIFU_EXPORT uint64_t kifu_perft(kifu_position *p, int depth);

/* ------------------------------------------------------------------------------------ */
/* Player: a cursor over a record with the position at each node                         */

typedef struct kifu_player kifu_player;

/** A player over r (borrowed: r must outlive it; edits go through the player). The record
 *  should be normalized. New, or NULL with err set (bad initial position). */
KIFU_EXPORT kifu_player *kifu_player_new(kifu_record *r, kifu_error *err);
KIFU_EXPORT void kifu_player_free(kifu_player *pl);

KIFU_EXPORT kifu_record *kifu_player_record(const kifu_player *pl);
/** The node at the cursor (root at start). */
KIFU_EXPORT kifu_node *kifu_player_node(const kifu_player *pl);
/** The position at the cursor (borrowed, valid until the next cursor change). */
KIFU_EXPORT const kifu_position *kifu_player_position(const kifu_player *pl);
KIFU_EXPORT int kifu_player_ply(const kifu_player *pl);

/** Step along child 0. 1 when it moved, 0 at the end. Stepping onto an ending node
 *  (KIFU_NODE_SPECIAL: 投了 ...) counts as a ply, but the position stays that after the
 *  last move (see kifu_player_add_special); the text of the cursor's move with 同 is
 *  kifu_node_text(kifu_player_node(pl), ...). */
KIFU_EXPORT int kifu_player_forward(kifu_player *pl);
/** Step back. 1 when it moved, 0 at the root. */
KIFU_EXPORT int kifu_player_backward(kifu_player *pl);
/** Go to ply n on the current line (clamped). Returns the ply reached. */
KIFU_EXPORT int kifu_player_go(kifu_player *pl, int ply);
/** Go to a path. "PLY[,C1,C2...]": ply PLY, taking child Ck at the k-th node with forks met
 *  on the way from the root (0 = main line; 0 after the last choice): "12" is ply 12 of the
 *  main line, "12,0,1" takes the first fork at the second branching point. "/I/J/K...":
 *  child indices from the root, one per ply ("/" is the root). 0, or -1 (cursor unchanged). */
KIFU_EXPORT int kifu_player_go_path(kifu_player *pl, const char *path, kifu_error *err);
/** Number of alternatives at the cursor's ply (siblings including the current node). */
KIFU_EXPORT size_t kifu_player_fork_count(const kifu_player *pl);
/** Switch the cursor to sibling i (same ply). 0, or -1. */
KIFU_EXPORT int kifu_player_switch_fork(kifu_player *pl, size_t i);
/** Play m at the cursor: follow an identical child, or add a new child (continuation if
 *  none, else a fork). The cursor moves to it. 0, or -1 with err (illegal move). */
KIFU_EXPORT int kifu_player_add_move(kifu_player *pl, const kifu_move *m,
                                     kifu_error *err);
/** Delete the cursor's node and its subtree; the cursor moves to the parent. 0, or -1. */
KIFU_EXPORT int kifu_player_delete_branch(kifu_player *pl);
/** The node at `ply` on the current line (the line through the cursor, and ahead of it
 *  the forks last chosen, else child 0), or NULL past its end. Borrowed. */
KIFU_EXPORT kifu_node *kifu_player_line_node(const kifu_player *pl, int ply);
/** The last ply of the current line (an ending node counts: it has a ply). */
KIFU_EXPORT int kifu_player_line_end(const kifu_player *pl);
/** The cursor's path in kifu_player_go_path syntax ("12", or "12,0,1" off the main line)
 *  into buf. Returns buf. */
KIFU_EXPORT char *kifu_player_path(const kifu_player *pl, char *buf, size_t cap);
/** Add an ending (a JKF special: "TORYO", "TSUMI", ...) after the cursor, or follow an
 *  identical one, and move the cursor to it. On an ending node the position stays that of
 *  the move before it: kifu_player_position does not change, and kifu_player_ply is one
 *  more than the moves played (so a SFEN's move number is kifu_position_history_length
 *  + 1, not the ply + 1). 0, or -1 (NOMEM, or the cursor is already an ending). */
KIFU_EXPORT int kifu_player_add_special(kifu_player *pl, const char *word,
                                        kifu_error *err);

enum {
    KIFU_TEXT_MARK = 1,     /* prefix ☗/☖ */
    KIFU_TEXT_FROM = 2,     /* KIF style: append (77) source */
    KIFU_TEXT_RELATIVE = 4, /* KI2 style: relative words 右 左 直 上 引 寄 打 */
    KIFU_TEXT_KIF = KIFU_TEXT_MARK | KIFU_TEXT_FROM,
    KIFU_TEXT_KI2 = KIFU_TEXT_MARK | KIFU_TEXT_RELATIVE,
};
/** Readable text of a normalized move ("☗７六歩(77)", "☖同　銀", "☗５五角打") into buf
 *  (>= 64 bytes). `prev` is the move before (for 同), may be NULL. Returns buf. */
KIFU_EXPORT char *kifu_move_text(const kifu_move *m, const kifu_move *prev,
                                 unsigned style, char *buf, size_t cap);
/** Text of the move or ending at node n, KIF style, with 同 when it goes to the square of
 *  the move before it ("☗７六歩(77)", "☖同　銀(31)", "投了"); "" at the root. Into buf
 *  (>= 64 bytes); returns buf. */
KIFU_EXPORT char *kifu_node_text(const kifu_node *n, char *buf, size_t cap);

/** What kifu_position_parse_move returns when the text leaves promotion open. */
enum { KIFU_PARSE_ASK_PROMOTE = 1 };
/** Parse a move typed for the side to move of p: USI ("7g7f", "8h2b+", "P*5e"), KIF/KI2
 *  Japanese ("７六歩", "76歩", "同銀", "２二角成", "５五角打", "７八金右", with an
 *  optional ▲/△ mark and "(77)" source), or "FROM TO [PIECE] [+|=|naru|narazu]" with
 *  two-digit squares ("77 76", "7776", "00 55 kaku", "00 55 KA"). prev_to is the square
 *  (x*10+y) of the last move, for 同; 0 if none. Returns 0 with *out a complete legal
 *  move; KIFU_PARSE_ASK_PROMOTE when the text names a legal move that may promote or not
 *  without saying which (*out is the promoting one); -1 with err (KIFU_ERR_SYNTAX: not a
 *  move; KIFU_ERR_ILLEGAL with the engine's reason; KIFU_ERR_AMBIGUOUS naming the
 *  candidates). A promotion the rules force is applied. */
KIFU_EXPORT int kifu_position_parse_move(const kifu_position *p, const char *text,
                                         int prev_to, kifu_move *out, kifu_error *err);

/* ------------------------------------------------------------------------------------ */
/* Diagrams of the position at a player's cursor                                       */

typedef enum kifu_diagram_format {
    KIFU_DIAGRAM_TERM = 0, /* Unicode frame and full-width labels, for a terminal */
    KIFU_DIAGRAM_BOD = 1,  /* the KIF board text, with 手数 and side lines */
    KIFU_DIAGRAM_SVG = 2,  /* a self-contained SVG document */
} kifu_diagram_format;

enum {
    KIFU_DIAGRAM_FLIP = 1,     /* from gote's side */
    KIFU_DIAGRAM_COLOUR = 2,   /* TERM: ANSI colour (gote red, the last move's square) */
    KIFU_DIAGRAM_TWO_CHAR = 4, /* SVG: 成香 成桂 成銀 instead of 杏 圭 全 */
    KIFU_DIAGRAM_INTL = 8,     /* SVG: the international set (P L N S G B R K, +P ...) */
    KIFU_DIAGRAM_TSUME = 16,   /* SVG: 持駒 label, the defender's hand left out */
    KIFU_DIAGRAM_NO_LAST = 32, /* SVG: no highlight of the last move */
};

/** How to draw; all zero: a terminal diagram without colour. */
typedef struct kifu_diagram_options {
    int format;          /* kifu_diagram_format */
    unsigned flags;      /* KIFU_DIAGRAM_* */
    int size;            /* SVG width in px (the height follows); 0: 398 */
    const char *caption; /* SVG: a line under the board (図は▲７六歩まで), or NULL */
    const char *names[2]; /* SVG: side labels for sente and gote, or NULL: 先手 後手 */
} kifu_diagram_options;

/** The position at the cursor with both hands, the last move highlighted, and (TERM, BOD)
 *  the ply and the last move's text. New string (kifu_free), *len its length (may be
 *  NULL); NULL when memory ran out. */
KIFU_EXPORT char *kifu_player_diagram(const kifu_player *pl,
                                      const kifu_diagram_options *o, size_t *len);
/** The moves of the current line from `before` plies back to `after` ahead of the
 *  cursor, one per line ("   12 ☗２二角成(88)"), the cursor's line marked '>', a '+'
 *  after moves that have alternatives, each line after `indent`. New string, or NULL. */
KIFU_EXPORT char *kifu_player_moves_text(const kifu_player *pl, int before, int after,
                                         const char *indent);

/** Readable text of a special node's word (投了 for TORYO ...), static; a word it does not
 *  know is returned as given (borrowed from the argument). */
KIFU_EXPORT const char *kifu_special_text(const char *special);

/** The record's word for a side (static): 先手/後手, or 下手/上手 when the record names its
 *  sides so, or is a handicap game that names neither (CSA's N+/N- are no words). */
KIFU_EXPORT const char *kifu_record_side_word(const kifu_record *r, int color);
/** The main line's result as a KIF まで line and the viewers say it, in the record's side
 *  words: "まで117手で上手の勝ち", with how when not by resignation ("(切れ負け)",
 *  "(先手の反則負け：二歩)"), or the ending alone when it names no winner ("まで80手で
 *  千日手"). Written into buf as snprintf does: the length of the whole text (cut to
 *  fit cap when it is that or more), or 0 with "" when the line has no ending.
 *  A foul's loser: the side its sign names (±ILLEGAL_ACTION); for ILLEGAL_MOVE the side to
 *  move, unless the line ends on a move kept as a foul (kifu_node_foul): its mover. */
KIFU_EXPORT size_t kifu_record_result_text(const kifu_record *r, char *buf, size_t cap);

/* ------------------------------------------------------------------------------------ */
/* The HTML replay page                                                                 */

enum {
    KIFU_HTML_INTL = 1, /* boards in the international set at first (P L N ... +P) */
    KIFU_HTML_TWO_CHAR = 2, /* 成香 成桂 成銀 in two characters instead of 杏 圭 全 */
    KIFU_HTML_FLIP = 4,      /* boards drawn from gote's side at first */
    KIFU_HTML_CATALOGUE = 8, /* a grid of every record's first position, each opening the
                                viewer (for unrelated positions: a posjson catalogue) */
    KIFU_HTML_PLAIN = 16,    /* pieces as their names alone on the squares, instead of
                                koma (wooden pentagons, gote's turned: the default) */
};

/** How kifu_html_write builds the page; all zero: the defaults. */
typedef struct kifu_html_options {
    unsigned flags;    /* KIFU_HTML_* */
    const char *title; /* the page's title, or NULL: from the first record's header */
    const char *css;   /* a stylesheet used instead of the built-in one, or NULL */
    kifu_warn_fn warn; /* told what a page cannot show (an illegal move and what follows
                           it); may be NULL */
    void *warn_ctx;
    int piece_size; /* a square's size in CSS pixels, from which the stylesheet lays out
                       the whole viewer (--kifu-piece-size); 0: the stylesheet's own */
} kifu_html_options;

/** One self-contained HTML page (no network, no external file) that replays the records:
 *  each embedded as posjson (every position, with move texts, comments, times, forks and
 *  the header) and drawn by the built-in viewer script and stylesheet. Several records
 *  give one viewer and a list of the games to choose from, or with KIFU_HTML_CATALOGUE one
 *  grid of diagrams.
 *  New bytes (kifu_free), NUL-terminated, length in *len (may be NULL); NULL with err
 *  (KIFU_ERR_ARG for no record, KIFU_ERR_NOMEM). */
KIFU_EXPORT char *kifu_html_write(const kifu_record *const *rs, size_t count,
                                  const kifu_html_options *o, size_t *len,
                                  kifu_error *err);
/** kifu_html_write game by game, for more games than memory holds at once: the page's
 *  start (*head, new bytes: kifu_free; its title from `first`, its list of games when
 *  count > 1, o's KIFU_HTML_CATALOGUE decided by the caller), then each game's part
 *  (kifu_html_page_game, count of them, in order) and the end (kifu_html_page_end), put
 *  end to end, are kifu_html_write's page of those games. NULL with err as it. */
typedef struct kifu_html_page kifu_html_page;
KIFU_EXPORT kifu_html_page *kifu_html_page_new(const kifu_record *first, size_t count,
                                               const kifu_html_options *o, char **head,
                                               size_t *len, kifu_error *err);
KIFU_EXPORT char *kifu_html_page_game(kifu_html_page *p, const kifu_record *r,
                                      size_t *len, kifu_error *err);
KIFU_EXPORT char *kifu_html_page_end(kifu_html_page *p, size_t *len, kifu_error *err);
KIFU_EXPORT void kifu_html_page_free(kifu_html_page *p);
/** The page's built-in parts, static: "board.js" (a position drawn as SVG, every piece
 *  style: any page may use it alone), "viewer.js" (the replay viewer, which needs
 *  board.js before it), "viewer.css" (the stylesheet a --css file replaces),
 *  "gamelist.js" and "gamelist.css" (a page of several games: one viewer and a list of
 *  the games; empty header fields hidden); NULL for any other name. For pages that embed
 *  the viewer themselves and for styles made from the default one. */
KIFU_EXPORT const char *kifu_html_asset(const char *name);

/* ------------------------------------------------------------------------------------ */
/* Walking a record's tree                                                              */

typedef struct kifu_walker kifu_walker;

enum {
    KIFU_WALK_POSITIONS = 1, /* keep the position (and its hash) at every node */
};
enum { KIFU_WALK_DONE = 0, KIFU_WALK_ENTER = 1, KIFU_WALK_EXIT = 2 };

/** A walk over every node of r, depth-first without recursion (forks may nest to any
 *  depth): each node is ENTERed, then its children in order (child 0, the line's
 *  continuation, first; so the main line comes first, then the forks from the deepest
 *  back), then it is EXITed. r must outlive the walker and not change meanwhile. New
 *  (kifu_walk_free), or NULL with err. */
KIFU_EXPORT kifu_walker *kifu_walk_new(const kifu_record *r, unsigned flags,
                                       kifu_error *err);
KIFU_EXPORT void kifu_walk_free(kifu_walker *w);
/** The next event: KIFU_WALK_ENTER or KIFU_WALK_EXIT (kifu_walk_node says of which node),
 *  KIFU_WALK_DONE after the root's exit, or -1 when memory ran out. */
KIFU_EXPORT int kifu_walk_next(kifu_walker *w);
/** The node of the last event (borrowed). */
KIFU_EXPORT const kifu_node *kifu_walk_node(const kifu_walker *w);
/** After an ENTER: do not go into that node's children (its EXIT comes next). */
KIFU_EXPORT void kifu_walk_skip(kifu_walker *w);
/** With KIFU_WALK_POSITIONS: the position after the node's move (at an ending or the root:
 *  the position there), as a board, and its Zobrist hash (kifu_position_hash's). A move
 *  that was not normalized has no position: the walk does not go below it. -1 / 0 when
 *  the walker keeps no positions. */
KIFU_EXPORT int kifu_walk_board(const kifu_walker *w, kifu_board *out);
KIFU_EXPORT uint64_t kifu_walk_hash(const kifu_walker *w);

/* ------------------------------------------------------------------------------------ */
/* Position search                                                                      */

/** The position-list letters (posjson, seeds/002): 81 board letters from 9一 toward 1一,
 *  rank by rank (sente a c e g i k m 1 3 5 7 q s u, gote b d f h j l n 2 4 6 8 r t v for
 *  歩 香 桂 銀 金 角 飛 と 成香 成桂 成銀 馬 龍 玉, o empty), each hand one letter per
 *  piece. NUL-terminated. */
KIFU_EXPORT void kifu_board_to_bd(const kifu_board *b, char bd[82], char cb[40],
                                  char cw[40]);
/** The board of bd and the hands of cb, cw (NULL: empty); sente to move. 0, or -1 with
 *  err naming the letter. */
KIFU_EXPORT int kifu_board_from_bd(const char *bd, const char *cb, const char *cw,
                                   kifu_board *out, kifu_error *err);

typedef struct kifu_search kifu_search;

enum {
    KIFU_SEARCH_ANY_SIDE = 1,   /* exact: either side to move */
    KIFU_SEARCH_BOARD_ONLY = 2, /* exact: the board alone, hands ignored */
    KIFU_SEARCH_FORKS = 4,      /* every fork too (default: the main line) */
    KIFU_SEARCH_FIRST = 8,      /* the first hit of a record only */
    KIFU_SEARCH_BOTH_SIDES = 16 /* patterns: also the colour-flipped position */
};

/** What to look for: a position (its board, hands and side to move, as flags say), a
 *  PCRE2 regular expression over the 81 board letters, or a grid a person types (nine
 *  rows like a BOD diagram with wildcards * ? ^? v?, optional hand and side lines; see
 *  kifu(1), "kifu search"). New (kifu_search_free), or NULL with err (for a pattern, the
 *  line and column of the fault). A search is not thread-safe: one per thread. */
KIFU_EXPORT kifu_search *kifu_search_position(const kifu_board *b, unsigned flags,
                                              kifu_error *err);
KIFU_EXPORT kifu_search *kifu_search_regex(const char *re, unsigned flags,
                                           kifu_error *err);
KIFU_EXPORT kifu_search *kifu_search_grid(const char *text, size_t len, unsigned flags,
                                          kifu_error *err);
KIFU_EXPORT void kifu_search_free(kifu_search *s);
/** A pattern's regular expression over the board letters (what a grid compiled to), or
 *  NULL for a position search. Borrowed. */
KIFU_EXPORT const char *kifu_search_expression(const kifu_search *s);

/** A position found: the node whose position it is (a move, or the root for the start;
 *  the move played next is its child 0), its ply, and the position. */
typedef struct kifu_search_hit {
    const kifu_node *node;
    int ply;
    kifu_board board;
} kifu_search_hit;
/** Called for each hit; return nonzero to stop searching this record. */
typedef int (*kifu_search_fn)(void *ctx, const kifu_search_hit *hit);

/** Search one record (normalized: a move the rules did not accept ends its line). Calls
 *  fn (may be NULL) per hit, in walk order (main line first). The number of hits, or -1
 *  with err. */
KIFU_EXPORT long kifu_search_record(kifu_search *s, const kifu_record *r,
                                    kifu_search_fn fn, void *ctx, kifu_error *err);

/** Does board b match s (as kifu_search_record tests each position)? 1 or 0. */
KIFU_EXPORT int kifu_search_board(kifu_search *s, const kifu_board *b);
/** Its KIFU_SEARCH_* flags into *flags, and for a position search its board into *b
 *  (either may be NULL). 1 for a position search, 0 for a pattern. */
KIFU_EXPORT int kifu_search_target(const kifu_search *s, kifu_board *b, unsigned *flags);
/** Called per hit of kifu_search_read: the record (borrowed, normalized; valid during the
 *  call only), its index among the input's `games` records (0-based) and the hit. Return
 *  nonzero to report no more hits of this record. */
typedef int (*kifu_search_read_fn)(void *ctx, const kifu_record *r, size_t game,
                                   size_t games, const kifu_search_hit *hit);

/** Read every record in the bytes as kifu_read_all does and search each one while it is
 *  normalized: one replay of the moves serves both, so searching files this way costs
 *  little more than reading them (kifu_read_all then kifu_search_record plays every move
 *  twice). The records are always normalized (KIFU_READ_NO_NORMALIZE is ignored). When
 *  the whole input reads, fn (may be NULL) is called per hit, record by record in the
 *  order of kifu_search_record, and the number of hits reported is returned; otherwise
 *  -1 with err as kifu_read_all sets it, and no hit is reported. *games (may be NULL)
 *  gets the number of records read. */
KIFU_EXPORT long kifu_search_read(kifu_search *s, const void *data, size_t len,
                                  const kifu_read_options *opt, kifu_search_read_fn fn,
                                  void *ctx, size_t *games, kifu_error *err);

/** The path of node n as `kifu show --path` takes it ("24" on the main line, "24,0,1"
 *  through forks: the child taken at each branching point, trailing zeros left out). Into
 *  buf; returns buf. */
KIFU_EXPORT char *kifu_node_path(const kifu_node *n, char *buf, size_t cap);

/* ------------------------------------------------------------------------------------ */
/* Piece traces: the path of one piece through a line of a record                       */

typedef struct kifu_trace kifu_trace;

/** One move of the traced piece: at ply `ply` it went from (from_x, from_y) (0, 0 for the
 *  drop that put it on the board) to (to_x, to_y); `piece` is its kind before the move,
 *  `promote` 1 when it promoted there, `capture` the kind it took (0: none). */
typedef struct kifu_trace_step {
    int ply;
    uint8_t from_x, from_y, to_x, to_y;
    uint8_t piece, promote, capture;
} kifu_trace_step;

/** How a trace ends: the line ran out (or reached an ending), or the piece was taken. */
typedef enum kifu_trace_end_kind {
    KIFU_TRACE_LINE_END = 0,
    KIFU_TRACE_CAPTURED = 1,
} kifu_trace_end_kind;

/** Trace the piece standing on (x, y) at ply `ply` of a line of r: the main line when
 *  `path` is NULL or "", else the line through that path (kifu_player_go_path syntax).
 *  The record should be normalized; it is not changed. New (kifu_trace_free), or NULL
 *  with err (no piece there, no such ply or path). */
KIFU_EXPORT kifu_trace *kifu_trace_square(const kifu_record *r, const char *path, int ply,
                                          int x, int y, kifu_error *err);
/** Trace the piece that moved at ply `ply` (>= 1) of the line, from the square it left
 *  (that move is the first step; for a drop, the drop is). New, or NULL with err. */
KIFU_EXPORT kifu_trace *kifu_trace_moved(const kifu_record *r, const char *path, int ply,
                                         kifu_error *err);
KIFU_EXPORT void kifu_trace_free(kifu_trace *t);
/** Where the piece stood when the trace starts, at which ply, and what it was (kind |
 *  color << 4). */
KIFU_EXPORT void kifu_trace_start(const kifu_trace *t, int *x, int *y, int *ply,
                                  int *piece);
/** Number of moves the piece made. */
KIFU_EXPORT size_t kifu_trace_count(const kifu_trace *t);
/** Move i (borrowed; valid while t lives), or NULL past the end. */
KIFU_EXPORT const kifu_trace_step *kifu_trace_step_at(const kifu_trace *t, size_t i);
/** How the trace ended (kifu_trace_end_kind) and at which ply (*ply may be NULL). */
KIFU_EXPORT int kifu_trace_end(const kifu_trace *t, int *ply);

/* ------------------------------------------------------------------------------------ */
/* Collection index and opening explorer (SQLite file; its tables in docs/index.md)     */

typedef struct kifu_index kifu_index;
typedef struct kifu_tagger kifu_tagger; /* the tags' (below) */

/** What a handle added so far (files by outcome, games and positions written). */
typedef struct kifu_index_stats {
    size_t files_added, files_replaced, files_unchanged, files_failed;
    size_t records_failed;
    size_t games, positions;
    size_t records_repaired; /* indexed with a move repaired (kifu_index_set_read) */
    size_t duplicates;       /* games skipped: the same game is in the index already */
} kifu_index_stats;

enum {
    KIFU_INDEX_CREATE = 1,   /* make the file when it does not exist */
    KIFU_INDEX_READONLY = 2, /* open for queries only (others may add meanwhile: WAL) */
    KIFU_INDEX_BULK = 4,     /* a new file no one else opens until it is closed (kifu
                                index build writes a temp file): no journal while it is
                                written, WAL from kifu_index_close on. A failure or a
                                kill meanwhile leaves the file unusable: remove it. */
    KIFU_INDEX_NOWAIT = 8,   /* another writer holds the index: fail at once with
                                KIFU_ERR_BUSY rather than wait for it (up to 30 s) */
    KIFU_INDEX_KEEP_DUPLICATES = 16, /* add a game the index holds already (the same
                                        moves from the same start, players by key, date)
                                        again; by default it is skipped and counted */
};

/** Open (or with KIFU_INDEX_CREATE make) an index file. A file that is not a kifu index,
 *  or a damaged one, is an error naming it. New (kifu_index_close), or NULL with err.
 *  A handle that writes (neither READONLY nor BULK) holds the index's writer lock until
 *  it is closed: one writer at a time; another waits up to 30 s, then fails with
 *  KIFU_ERR_BUSY ("index busy"). Readers are never held up. */
KIFU_EXPORT kifu_index *kifu_index_open(const char *path, unsigned flags,
                                        kifu_error *err);

/** The writer lock of an index file, held while a new index is built elsewhere (a BULK
 *  file beside it), then put in its place: adds to the old index wait meanwhile, so that
 *  nothing they write is lost to the new file. A path that does not exist is made (an
 *  empty file, removed again on release unless replaced); a link's target is locked and
 *  replaced. flags: KIFU_INDEX_NOWAIT. New (kifu_index_lock_release), or NULL with err
 *  (KIFU_ERR_BUSY: another writer). */
typedef struct kifu_index_lock kifu_index_lock;
KIFU_EXPORT kifu_index_lock *kifu_index_lock_take(const char *path, unsigned flags,
                                                  kifu_error *err);
/** The file locked: the path, or a link's target (borrowed). */
KIFU_EXPORT const char *kifu_index_lock_path(const kifu_index_lock *lk);
/** Rename `built` (a closed index, on the same file system) over the locked file. The
 *  old index's write-ahead log is folded into it and removed first, and the old file is
 *  held under SQLite's exclusive lock while it is renamed over, so that no log is
 *  replayed into the new one; while another process has the old index open that cannot
 *  be done: -1 with KIFU_ERR_BUSY, after waiting up to 30 s for it (at once when the
 *  lock was taken with KIFU_INDEX_NOWAIT). A file that is not
 *  an SQLite database is not replaced (KIFU_ERR_ARG). 0, or -1 with err (`built` left). */
KIFU_EXPORT int kifu_index_lock_replace(kifu_index_lock *lk, const char *built,
                                        kifu_error *err);
/** Release the lock. NULL is fine. */
KIFU_EXPORT void kifu_index_lock_release(kifu_index_lock *lk);
/** Write what is queued (kifu_index_flush) and close. NULL is fine. 0, or -1 with err (the
 *  handle is closed either way; a failed flush leaves the file as before it). */
KIFU_EXPORT int kifu_index_close(kifu_index *ix, kifu_error *err);

/** What kifu_index_add_file did with a file. */
enum { KIFU_INDEX_ADDED = 1, KIFU_INDEX_REPLACED = 2, KIFU_INDEX_UNCHANGED = 3 };

/** Queue the games of one record file (any format; every game of a multi-game file). A
 *  file already indexed under the same path with the same content is UNCHANGED; with other
 *  content its old games are replaced. A game that does not read or has an illegal move
 *  is reported through warn (may be NULL) and skipped; never half-indexed. A full queue
 *  (about 33 million positions) is written then, inside the transaction kifu_index_flush
 *  commits, so memory stays bounded. Returns KIFU_INDEX_*, or -1 with err when the file
 *  cannot be read at all (nothing queued) or a full queue could not be written (then
 *  everything since the last flush is rolled back). */
KIFU_EXPORT int kifu_index_add_file(kifu_index *ix, const char *path, kifu_warn_fn warn,
                                    void *warn_ctx, kifu_error *err);
/** A file read away from the index, for adding files on many threads: prepare reads
 *  it and makes its games' rows and tags with `tagger` (one per thread, with the
 *  definitions the index tags with; NULL: no tags), reading of ix only what was set
 *  before (kifu_index_set_read, _set_tagger), so files may be prepared on other threads
 *  while this one adds. kifu_index_file_add then queues it exactly as
 *  kifu_index_add_file would (what the index holds of it, duplicates, ids, warnings,
 *  counts and result are all decided there) and frees it. Added in input order, the
 *  index is the same for any number of threads. prepare: NULL only out of memory (add
 *  reports it). */
typedef struct kifu_index_file kifu_index_file;
KIFU_EXPORT kifu_index_file *
kifu_index_file_prepare(const kifu_index *ix, const char *path, kifu_tagger *tagger);
KIFU_EXPORT int kifu_index_file_add(kifu_index *ix, kifu_index_file *f, kifu_warn_fn warn,
                                    void *warn_ctx, kifu_error *err);
/** A prepared file not added. NULL is fine. */
KIFU_EXPORT void kifu_index_file_free(kifu_index_file *f);
/** Threads a write of the index may use (default 1, the calling thread only): with 2 or
 *  more a helper sorts and encodes a batch's positions while the calling thread writes
 *  them. The index written is the same for any number. */
KIFU_EXPORT void kifu_index_set_jobs(kifu_index *ix, int jobs);
/** How kifu_index_add_file reads files from now on: the encoding (kifu_encoding; AUTO,
 *  the default: detected per file), and flags KIFU_READ_LENIENT | KIFU_READ_REPAIR (a
 *  game whose every move plays after repairs is indexed, counted in records_repaired
 *  and told to warn; other flags are ignored). */
KIFU_EXPORT void kifu_index_set_read(kifu_index *ix, int encoding, unsigned flags);
/** The tagger kifu_index_add_file tags games with (the 戦法, 囲い and 備考 of each side,
 *  kept per game for --tag filters), in the replay that reading does: borrowed, it must
 *  live until the index is closed. NULL: games are added without tags. By default
 *  (never called) the shipped definitions. */
KIFU_EXPORT void kifu_index_set_tagger(kifu_index *ix, kifu_tagger *t);
/** Write the queued games and commit, in one transaction with the batches written since
 *  the last flush. Readers see all of it or none of it; a process killed meanwhile leaves
 *  the file as it was. 0, or -1 (all of it rolled back). */
KIFU_EXPORT int kifu_index_flush(kifu_index *ix, kifu_error *err);
/** Counts of what this handle added (borrowed). */
KIFU_EXPORT const kifu_index_stats *kifu_index_stats_get(const kifu_index *ix);
/** Merge the position runs into one, in one transaction after what is queued is written
 *  (kifu_index_flush): each add writes its positions as a run of its own (so that it
 *  costs what it adds) and small runs are merged as they pile up; compacting leaves the
 *  rows one build of the same games writes, and queries read one row per bucket. It
 *  writes the whole positions table again: minutes for millions of games. SQLite only.
 *  0, or -1 with err (the file as before). */
KIFU_EXPORT int kifu_index_compact(kifu_index *ix, kifu_error *err);

/** What an index holds. */
typedef struct kifu_index_info {
    long long games, positions, sources, hot_positions;
    long long bytes;      /* size of the file */
    long long duplicates; /* games skipped by adds as already indexed; -1: not kept */
} kifu_index_info;
KIFU_EXPORT int kifu_index_info_get(kifu_index *ix, kifu_index_info *out,
                                    kifu_error *err);

/** What kifu_index_check looked at: the rows of positions (blocks) and the games read,
 *  and the damaged items it found. */
typedef struct kifu_index_check_counts {
    long long blocks, games, damaged;
} kifu_index_check_counts;
/** Verify a whole SQLite index file: SQLite's own integrity check; every block of
 *  positions read against its checksum and decoded, each run's entries counted; every
 *  game's moves read against their checksum and replayed, its positions counted. Each
 *  damaged item is passed to fn (may be NULL) as an error whose source is the index and
 *  whose message names the item (a positions row, a game) and what is wrong with it, and
 *  counted in out. 1 when something is damaged, 0 when nothing is, -1 with err when the
 *  check could not be made (an SQLite error, NOMEM; KIFU_ERR_UNSUPPORTED on ClickHouse).
 *  The readers check the same checksums as they read: a damaged part fails their query
 *  (KIFU_ERR_IO, "damaged: ... rebuild with kifu index build") instead of answering. */
KIFU_EXPORT int kifu_index_check(kifu_index *ix,
                                 void (*fn)(void *ctx, const kifu_error *damage),
                                 void *ctx, kifu_index_check_counts *out,
                                 kifu_error *err);

/** Game results as the index and the explorer count them. */
typedef enum kifu_result {
    KIFU_RESULT_UNKNOWN = 0, /* unfinished, interrupted, or no ending recorded */
    KIFU_RESULT_SENTE = 1,   /* sente won */
    KIFU_RESULT_GOTE = 2,    /* gote won */
    KIFU_RESULT_SENNICHITE = 3,
    KIFU_RESULT_JISHOGI = 4,
    KIFU_RESULT_DRAW = 5, /* another draw */
} kifu_result;

/** Filters and choices of an explorer query; all zero: every game, 5 top games a move. */
typedef struct kifu_explore_options {
    const char *player;    /* a player: the games whose player key (kifu_index_player_key)
                              is this name's key, or NULL */
    int player_color;      /* with player: 0 either side, 1 as sente, 2 as gote */
    const char *date_from; /* "YYYY-MM-DD", inclusive, or NULL */
    const char *date_to;   /* "YYYY-MM-DD", inclusive, or NULL */
    const char *event;     /* a text the event name contains, or NULL */
    int min_rating;        /* both players rated at least this (games without ratings
                                  are left out when set), 0: no filter */
    int flip;              /* also the colour-flipped position (its moves flipped back) */
    int top;               /* games listed per move; 0: 5 */
    const char *player_like; /* a player whose key contains this text's key, or NULL
                                (player_color applies to it too) */
    /* Tags the games must all have, as the index stored them when the games were added
     * (kifu_index_set_tagger), each in kifu_tag_spec's form ("四間飛車", "gote:美濃囲い");
     * a side's filter also takes the game's tags (相居飛車 ...). NULL / 0: no filter. */
    const char *const *tags;
    size_t ntags;
} kifu_explore_options;

/** The key the index finds a player by, from a name as records write it: a subset of
 *  NFKC (full-width ASCII and spaces, half-width katakana, circled numbers and Roman
 *  numerals), Latin case folded, a leading ':' (Shogi Quest CSA), groups in parentheses
 *  (a rating, an affiliation) and ranks or titles before or after the name (二段, 女流初段,
 *  名人, 3dan …) taken out, and the spaces. Into key (cap bytes; 256 hold any); the rank
 *  the name carried into rank (may be NULL), its rating in parentheses into *rating (may
 *  be NULL; 0: none). Returns key. */
KIFU_EXPORT char *kifu_index_player_key(const char *name, char *key, size_t cap,
                                        char *rank, size_t rank_cap, int *rating);

/** A tag a player's side had (kifu_index_player.tags), with the player's results in the
 *  games that had it. */
typedef struct kifu_index_player_tag {
    const char *name;
    int family; /* KIFU_TAG_STRATEGY (戦法) or KIFU_TAG_CASTLE (囲い) */
    int side;   /* KIFU_BLACK: the player's as sente; KIFU_WHITE: as gote */
    long long games, wins, losses, draws;
} kifu_index_player_tag;
/** Tags kept per side and family of a player (kifu_index_player.tags). */
#define KIFU_INDEX_PLAYER_TAGS 5
/** One player of an index (kifu_index_players; borrowed during the callback only). */
typedef struct kifu_index_player {
    const char *key;
    const char *const *names; /* the names as written, sorted, each once */
    size_t nnames;
    long long games, wins, losses, draws; /* draws: 千日手, 持将棋 and others */
    int min_rating, max_rating;           /* 0: no rating known */
    char first_date[16], last_date[16];   /* "" when no game had a date */
    /* The 戦法 and 囲い the index stored on the player's side most often: as sente, then
     * as gote, 戦法 before 囲い, up to KIFU_INDEX_PLAYER_TAGS of each, the most games
     * first (ties by name). NULL / 0: none (or the index keeps no tags). */
    const kifu_index_player_tag *tags;
    size_t ntags;
} kifu_index_player;
typedef int (*kifu_index_player_fn)(void *ctx, const kifu_index_player *p);
/** Every player of the indexed games (or those whose key contains like's key), the most
 *  games first, then by key; nonzero from fn stops. 0, or -1 with err. */
KIFU_EXPORT int kifu_index_players(kifu_index *ix, const char *like,
                                   kifu_index_player_fn fn, void *ctx, kifu_error *err);
/** kifu_index_players over the games that pass o's tag filters (o->tags; its other
 *  filters are not applied) on the player's side: NAME the player's side's tag (or the
 *  game's), sente:NAME / gote:NAME that, in the player's games as that side. A player
 *  with no such game is left out; the counts and tags are of those games. */
KIFU_EXPORT int kifu_index_players_filtered(kifu_index *ix, const char *like,
                                            const kifu_explore_options *o,
                                            kifu_index_player_fn fn, void *ctx,
                                            kifu_error *err);

/** The player a name stands for among those kifu_index_players(ix, name, ...) lists: the
 *  first whose key or a spelling (kifu_index_player.names) is name, else the only one
 *  listed; given to fn, or nothing when there is no such player. Found by its key (a
 *  lookup) when its key or a spelling is name. 0, or -1 with err. */
KIFU_EXPORT int kifu_index_player_named(kifu_index *ix, const char *name,
                                        kifu_index_player_fn fn, void *ctx,
                                        kifu_error *err);

/** One indexed game as kifu_index_games lists it (strings borrowed during the callback
 *  only; NULL: the record does not say). */
typedef struct kifu_index_game {
    long long id;
    const char *source; /* the file it was indexed from */
    int number;         /* the game's number in that file, from 1 */
    const char *sente, *gote, *date, *event;
    int result;                    /* kifu_result */
    int plies;                     /* moves of its main line */
    int sente_rating, gote_rating; /* 0: none */
    const char *tags; /* its tags as JSON, [{"name","family","side"}...], or NULL: the
                       * index keeps none */
} kifu_index_game;
typedef int (*kifu_index_game_fn)(void *ctx, const kifu_index_game *g);
/** Orders of kifu_index_games: as indexed (by id), or by a field, ties by id. Missing
 *  text sorts as "" (first); a date compares as its text. */
typedef enum kifu_games_sort {
    KIFU_GAMES_INDEXED = 0,
    KIFU_GAMES_DATE,
    KIFU_GAMES_SENTE,
    KIFU_GAMES_GOTE,
    KIFU_GAMES_EVENT,
    KIFU_GAMES_RESULT, /* kifu_result's number */
    KIFU_GAMES_LENGTH, /* plies */
} kifu_games_sort;
/** A page of the indexed games that pass the explorer's filters (filter: player and
 *  colour, player_like, dates, event, min_rating; flip and top ignored; NULL: every
 *  game), sorted (kifu_games_sort; descending reverses the field's order, ties still by
 *  id), the games at [offset, offset + limit) given to fn in order (nonzero stops).
 *  The number of games that pass, or -1 with err. limit at most 1,000,000 with offset. */
KIFU_EXPORT long long kifu_index_games(kifu_index *ix, const kifu_explore_options *filter,
                                       int sort, int descending, long long offset,
                                       long long limit, kifu_index_game_fn fn, void *ctx,
                                       kifu_error *err);
/** Bound every query of ix from now on to ms milliseconds of work (0: none): a query
 *  that takes longer stops with KIFU_ERR_BUSY ("query interrupted: over N ms"). For a
 *  server that must answer, or refuse, in time. SQLite only (ClickHouse has --timeout). */
KIFU_EXPORT void kifu_index_set_deadline(kifu_index *ix, int ms);

/** A number that differs from the last call's on ix when another handle or process
 *  (`kifu index add`, say) has committed to the index in between: SQLite's data version,
 *  for a cache of answers that must not outlive a change. -1 when the index cannot tell
 *  (ClickHouse) or on an error. */
KIFU_EXPORT long long kifu_index_data_version(kifu_index *ix);

/** A game the explorer lists (strings borrowed from the result). */
typedef struct kifu_explore_game {
    long long id;
    const char *sente, *gote, *date, *event, *source;
    int number; /* the game's number in its source file, from 1 */
    int ply;    /* where it reached the position */
    int result; /* kifu_result */
} kifu_explore_game;

/** One move played from the position, with its counts. */
typedef struct kifu_explore_move {
    kifu_move move;
    char usi[8];
    char text[64]; /* KIF style without source: "☗７六歩" */
    long long games, sente_wins, gote_wins, sennichite, jishogi, draws, unknown;
    char last_date[16]; /* the latest date it was played, "" if no game had a date */
    size_t ntop;
    const kifu_explore_game *top; /* the latest games first */
    /* The players who made the move (the side to move here): their games that give
     * that player a rating (from the header or the name, as in "hashiryo(1788)"), and
     * the mean of those ratings, rounded (0 when rated is 0). */
    long long rated;
    int avg_rating;
} kifu_explore_move;

typedef struct kifu_explore kifu_explore;

/** Every move played from position p in the indexed games (transpositions merged: a
 *  position is found however it was reached), most played first. New
 *  (kifu_explore_free), or NULL with err. */
KIFU_EXPORT kifu_explore *kifu_index_explore(kifu_index *ix, const kifu_position *p,
                                             const kifu_explore_options *o,
                                             kifu_error *err);
KIFU_EXPORT void kifu_explore_free(kifu_explore *e);
/** Number of games that reached the position (those that ended there included). */
KIFU_EXPORT long long kifu_explore_games(const kifu_explore *e);
KIFU_EXPORT size_t kifu_explore_count(const kifu_explore *e);
/** Move i (borrowed, valid while e lives), or NULL. */
KIFU_EXPORT const kifu_explore_move *kifu_explore_move_at(const kifu_explore *e,
                                                          size_t i);

/** A position kifu_index_search found (borrowed: valid during the callback only). */
typedef struct kifu_index_hit {
    const char *source; /* the file as it was indexed */
    int number;         /* the game's number in it, from 1 */
    int games;          /* games indexed from that file */
    int ply;
    kifu_board board;
    const kifu_move *next; /* the move played from here, or NULL (the game ended) */
    char next_text[96];    /* as kifu_node_text words the node after the position: the
                              move (同 included), the ending word, or "" */
    const char *header;    /* the game's header as a JSON object */
    /* kifu_index_search_filtered only (else NULL): the game's stored tags, a JSON array
     * of {"name","family","side"} as kifu tags --json writes them ("sente", "gote" or
     * "game"; "戦法", "囲い" or "備考"), "[]" when it has none */
    const char *tags;
} kifu_index_hit;
/** Called per hit; nonzero stops searching that game. */
typedef int (*kifu_index_hit_fn)(void *ctx, const kifu_index_hit *hit);

/** Search the main lines of the indexed games as kifu_search_record searches a record
 *  (KIFU_SEARCH_FORKS is not available: the index holds main lines): a position search
 *  is answered from the position keys (both sides' keys with ANY_SIDE), a pattern or
 *  BOARD_ONLY search replays every stored game. Hits come by file (in the order files
 *  were first indexed), game and ply, each verified against its board. On ClickHouse
 *  the same, from its games table (the answer of the query, every game's moves for a
 *  pattern, is held in memory). The number of hits, or -1 with err. */
KIFU_EXPORT long kifu_index_search(kifu_index *ix, kifu_search *s, kifu_index_hit_fn fn,
                                   void *ctx, kifu_error *err);

/** kifu_index_search over the games that pass o's tag filters (o->tags; its other
 *  filters are not applied here), each hit carrying its game's tags (hit->tags). The
 *  number of hits, or -1 with err. */
KIFU_EXPORT long kifu_index_search_filtered(kifu_index *ix, kifu_search *s,
                                            const kifu_explore_options *o,
                                            kifu_index_hit_fn fn, void *ctx,
                                            kifu_error *err);

/** Call fn with each indexed file (its path and games indexed), in the order files were
 *  first indexed; nonzero from fn stops. 0, or -1 with err. */
KIFU_EXPORT int kifu_index_each_source(kifu_index *ix,
                                       int (*fn)(void *ctx, const char *path, int games),
                                       void *ctx, kifu_error *err);

/** Book formats kifu_index_export_book writes. */
typedef enum kifu_book_format {
    KIFU_BOOK_YANEURAOU = 1, /* YaneuraOu's DB2016 text book, sorted by SFEN */
    KIFU_BOOK_APERY = 2,     /* Apery's binary book: 16-byte entries (key, move, count,
                                score 0) by Apery's position key, little-endian */
} kifu_book_format;

/** Which positions go into a book: those reached at plies min_ply..max_ply (0 is the
 *  start) in at least min_games games (0 counts as 1); all zero: plies 0..40. */
typedef struct kifu_book_options {
    int min_ply, max_ply, min_games;
} kifu_book_options;

/** Called with the next piece of output; returns 0, or -1 to stop (a write error). */
typedef int (*kifu_output_fn)(void *ctx, const char *data, size_t len);

/** An opening book from the explorer counts of the indexed games: per position, every move
 *  played from it with how many games played it (value and depth 0). 0, or -1 with err. */
KIFU_EXPORT int kifu_index_export_book(kifu_index *ix, int format,
                                       const kifu_book_options *o, kifu_output_fn out,
                                       void *ctx, kifu_error *err);

/* ------------------------------------------------------------------------------------ */
/* Xelto records: the Mino Seslax Format (MSF 0.2)                                      */
/*
 * MSF is a JSON record format for Xelto (シェルト), a 7x7 game; nothing about shogi
 * applies. A record (kifu_msf) has tags (`aptex`), a root node (`kit`: `fala`, the start
 * state), a result (`fixt`) and its main line (`seslax`). Every node after the root holds
 * a move (`ov`) and the state after it (`slax`); a node's variations (`mit`) are lines of
 * their own, each with its result, that start from that node's state (alternatives to the
 * node after it). Squares are (alsia, soom), both 0..6: alsia from the left, soom from
 * the top row (velm).
 */

typedef struct kifu_msf kifu_msf;
typedef struct kifu_msf_node kifu_msf_node;
typedef struct kifu_msf_line kifu_msf_line;

/** Sides (`Player`). */
enum { KIFU_MSF_ARXE = 0, KIFU_MSF_SORN = 1 };

/** Pieces are numbered 1..29: the 14 of arxe (1..14: pal ful mik fav zan gil ruj dyu lis
 *  mel ser dia vio ral), the 14 of sorn (15..28: din rez kun mat lax jil tan rav nen pin
 *  mir ket lin len), and tem (29). 0 is no piece. The first seven of each side and tem
 *  are turnable (Piece.Turnable). */
enum { KIFU_MSF_NONE = 0, KIFU_MSF_TEM = 29, KIFU_MSF_PIECES = 29 };

/** Three-letter name of piece 1..29 ("pal", ..., "tem"), or NULL. Static. */
KIFU_EXPORT const char *kifu_msf_piece_name(int piece);
/** Piece number of a name, or KIFU_MSF_NONE when it is not a piece name. */
KIFU_EXPORT int kifu_msf_piece_from_name(const char *name);
/** KIFU_MSF_ARXE or KIFU_MSF_SORN for a side's piece; -1 for tem and non-pieces. */
KIFU_EXPORT int kifu_msf_piece_side(int piece);
/** 1 when the piece is turnable (a vanguard or tem), else 0. */
KIFU_EXPORT int kifu_msf_piece_turnable(int piece);

/** A state (`State`) as plain data. Lists keep the file's order; txifol[s] and evol[s]
 *  are what side s captured (so pieces of the other side). */
typedef struct kifu_msf_state {
    uint8_t sast;          /* side to move */
    uint8_t ele[7][7];     /* ele[soom][alsia]: a piece, or KIFU_MSF_NONE */
    uint8_t txifol[2][16]; /* hands, ntxifol[s] pieces each */
    uint8_t ntxifol[2];
    uint8_t evol[2];   /* the piece each side set on tem, or KIFU_MSF_NONE (null) */
    uint8_t korol[16]; /* turned pieces, nkorol of them */
    uint8_t nkorol;
} kifu_msf_state;

/** The start state of the format document (arxe to move). */
KIFU_EXPORT void kifu_msf_state_start(kifu_msf_state *out);

typedef struct kifu_msf_square {
    uint8_t alsia, soom;
} kifu_msf_square;

/** Kinds of move (`pit`). */
enum {
    KIFU_MSF_LEIM = 1, /* a piece moves (from[0] -> to[0]) */
    KIFU_MSF_OKKE = 2, /* two vanguards move together (from[0..1] -> to[0..1]) */
    KIFU_MSF_KOR = 3,  /* a vanguard turns (ka) */
    KIFU_MSF_EV = 4,   /* a piece from the hand is set on tem (evol) */
    KIFU_MSF_SED = 5,  /* the piece set on tem is taken back */
};

/** A move (`Move`); pit 0 at the root. */
typedef struct kifu_msf_move {
    uint8_t pit;
    kifu_msf_square from[2], to[2]; /* luul[k].i and luul[k].a */
    kifu_msf_square ka;
    uint8_t evol;
} kifu_msf_move;

/** Kinds of result (`Result`). */
enum {
    KIFU_MSF_DAIM = 0,        /* anything else (an unfinished line) */
    KIFU_MSF_XELTSOLDES = 1,  /* the moon piece was taken */
    KIFU_MSF_TEOMSAST = 2,    /* repetition */
    KIFU_MSF_ARTANSOLDES = 3, /* every magic piece was taken; ito is the score */
};

/** A result. im and oprens are NULL when absent; from a getter they are borrowed from the
 *  record, to a setter they are copied. vastan (a side) is ignored for DAIM, ito (0..4)
 *  for all but ARTANSOLDES. */
typedef struct kifu_msf_result {
    uint8_t pit;
    uint8_t vastan;
    uint8_t ito;
    const char *im;
    const char *oprens;
} kifu_msf_result;

enum {
    KIFU_MSF_NO_TRANSITIONS = 1, /* check the document's types and states only */
};

/** Called for every problem a check finds (the error is borrowed for the call). */
typedef void (*kifu_msf_problem_fn)(void *ctx, const kifu_error *problem);

typedef struct kifu_msf_read_options {
    unsigned flags;              /* KIFU_MSF_* */
    const char *source;          /* the name errors carry (a path), may be NULL */
    kifu_msf_problem_fn problem; /* every problem, in file order (may be NULL) */
    void *ctx;
} kifu_msf_read_options;

/** Read and check an MSF document (UTF-8 JSON; o may be NULL). Every violation of the
 *  format (docs/msf.md) is reported through o->problem with its JSON path
 *  ("seslax[14].slax.korol[2]: ...") in the message and its line and column (the first
 *  200; then one message says how many more there were); the first is also put in err (KIFU_ERR_SYNTAX for bad JSON, KIFU_ERR_SCHEMA for the document's
 *  types, KIFU_ERR_ILLEGAL for a state that does not follow from the one before). New
 *  (kifu_msf_free), or NULL when anything was wrong. */
KIFU_EXPORT kifu_msf *kifu_msf_read(const void *data, size_t len,
                                    const kifu_msf_read_options *o, kifu_error *err);
/** A new record starting from `start` (copied; NULL: the start state): no tags, fala 0,
 *  result daim, no moves. NULL on NOMEM, or when `start` holds a value out of range (a
 *  piece past 29, more than 14 pieces in a hand or 15 in korol, sast past 1). */
KIFU_EXPORT kifu_msf *kifu_msf_new(const kifu_msf_state *start);
/** Free a record with all its nodes, lines and strings. NULL is fine. */
KIFU_EXPORT void kifu_msf_free(kifu_msf *m);
/** Check a record (one built or edited through this API) as kifu_msf_read checks a file:
 *  states, and with flags 0 the transitions too. Problems go to fn (may be NULL); the
 *  number found is returned (0: valid), the first also in err. */
KIFU_EXPORT int kifu_msf_check(const kifu_msf *m, unsigned flags, kifu_msf_problem_fn fn,
                               void *ctx, kifu_error *err);

/** Canonical MSF: the key order of the format document, two-space indent, one board row
 *  per line. Reading it gives the same record, and any valid file read and written gives
 *  the same JSON value. New bytes (kifu_free), *len their length (may be NULL); NULL on
 *  NOMEM. */
KIFU_EXPORT char *kifu_msf_write(const kifu_msf *m, size_t *len, kifu_error *err);
/** JSON Lines: one line per node in walk order (a line's nodes, then its variations),
 *  {"path":"seslax[3]","ply":4,"ov":{...},"slax":{...}} (no "ov" at the root). New bytes
 *  (kifu_free), or NULL on NOMEM. */
KIFU_EXPORT char *kifu_msf_write_states(const kifu_msf *m, size_t *len, kifu_error *err);

/* Tags (`aptex`): string pairs in file order. */
KIFU_EXPORT size_t kifu_msf_tag_count(const kifu_msf *m);
/** Key and value of tag i (borrowed). 0, or -1 when i is out of range. */
KIFU_EXPORT int kifu_msf_tag_at(const kifu_msf *m, size_t i, const char **key,
                                const char **value);
/** Value of a tag (borrowed), or NULL. */
KIFU_EXPORT const char *kifu_msf_tag_get(const kifu_msf *m, const char *key);
/** Set a tag's value, or append the tag (both copied). 0, or -1 on NOMEM. */
KIFU_EXPORT int kifu_msf_tag_set(kifu_msf *m, const char *key, const char *value);

/** Moves played before the record starts (`kit.fala`). */
KIFU_EXPORT long kifu_msf_fala(const kifu_msf *m);
/** Set fala (0..2147483647). 0, or -1 when out of range. */
KIFU_EXPORT int kifu_msf_set_fala(kifu_msf *m, long fala);

/** The root node (`kit`; borrowed, never NULL) and the main line (`seslax` with the
 *  record's `fixt`; borrowed, never NULL). */
KIFU_EXPORT kifu_msf_node *kifu_msf_root(const kifu_msf *m);
KIFU_EXPORT kifu_msf_line *kifu_msf_main_line(const kifu_msf *m);

/** Number of nodes of a line, and node i (borrowed), or NULL. */
KIFU_EXPORT size_t kifu_msf_line_count(const kifu_msf_line *l);
KIFU_EXPORT kifu_msf_node *kifu_msf_line_node(const kifu_msf_line *l, size_t i);
/** The node a line starts from: the root for the main line and the root's variations. */
KIFU_EXPORT kifu_msf_node *kifu_msf_line_from(const kifu_msf_line *l);
/** A line's result into *out (its strings borrowed from the record), and setting it (the
 *  strings copied): 0, or -1 on NOMEM or a value out of range (pit past 3, vastan past 1,
 *  ito past 4). */
KIFU_EXPORT void kifu_msf_line_result(const kifu_msf_line *l, kifu_msf_result *out);
KIFU_EXPORT int kifu_msf_line_set_result(kifu_msf *m, kifu_msf_line *l,
                                         const kifu_msf_result *res);

/** The state at a node (after its move; the start state at the root). Borrowed. */
KIFU_EXPORT const kifu_msf_state *kifu_msf_node_state(const kifu_msf_node *n);
/** The node's move (pit 0 at the root). Borrowed. */
KIFU_EXPORT const kifu_msf_move *kifu_msf_node_move(const kifu_msf_node *n);
/** `im` and `oprens` (borrowed), NULL when absent; set (copied) or remove (NULL). */
KIFU_EXPORT const char *kifu_msf_node_im(const kifu_msf_node *n);
KIFU_EXPORT const char *kifu_msf_node_oprens(const kifu_msf_node *n);
KIFU_EXPORT int kifu_msf_node_set_im(kifu_msf *m, kifu_msf_node *n, const char *im);
KIFU_EXPORT int kifu_msf_node_set_oprens(kifu_msf *m, kifu_msf_node *n, const char *text);
/** The node's variations (`mit`): count and line i (borrowed), or NULL. */
KIFU_EXPORT size_t kifu_msf_node_variation_count(const kifu_msf_node *n);
KIFU_EXPORT kifu_msf_line *kifu_msf_node_variation(const kifu_msf_node *n, size_t i);
/** The line that holds n (NULL for the root) and n's index in it. */
KIFU_EXPORT kifu_msf_line *kifu_msf_node_line(const kifu_msf_node *n);
KIFU_EXPORT size_t kifu_msf_node_index(const kifu_msf_node *n);
/** The node before n (the one whose state its move starts from), NULL at the root. */
KIFU_EXPORT kifu_msf_node *kifu_msf_node_parent(const kifu_msf_node *n);
/** Moves from the root to n (0 at the root). */
KIFU_EXPORT int kifu_msf_node_ply(const kifu_msf_node *n);
/** The moves that may follow n: child 0 is the next node of n's line, then the first
 *  node of each non-empty variation of n. Count, and child i (borrowed) or NULL. */
KIFU_EXPORT size_t kifu_msf_node_child_count(const kifu_msf_node *n);
KIFU_EXPORT kifu_msf_node *kifu_msf_node_child(const kifu_msf_node *n, size_t i);
/** n's JSON path ("kit", "seslax[3]", "seslax[3].mit[0].seslax[1]") into buf; returns
 *  buf. */
KIFU_EXPORT char *kifu_msf_node_path(const kifu_msf_node *n, char *buf, size_t cap);
/** The node at a path: a JSON path as kifu_msf_node_path writes it, "PLY[,C1,C2...]"
 *  (ply PLY, taking child Ck at the k-th node with several children on the way, 0
 *  after the last choice), or "/I/J..." (child indices from the root). Borrowed, or
 *  NULL with err. */
KIFU_EXPORT kifu_msf_node *kifu_msf_find(const kifu_msf *m, const char *path,
                                         kifu_error *err);

/** Append a move with the state it leads to (both copied) to line l, after its last
 *  node. Only the values are checked here (a kind 1..5, squares 0..6, an ev piece other
 *  than tem, the state as for kifu_msf_new); the rules are kifu_msf_check's. The new
 *  node (borrowed), or NULL on NOMEM or a value out of range. */
KIFU_EXPORT kifu_msf_node *kifu_msf_append(kifu_msf *m, kifu_msf_line *l,
                                           const kifu_msf_move *mv,
                                           const kifu_msf_state *after);
/** Add an empty variation (result daim) after n's others. The line (borrowed), or NULL. */
KIFU_EXPORT kifu_msf_line *kifu_msf_add_variation(kifu_msf *m, kifu_msf_node *n);

/** Text of a move into buf (>= 32 bytes): "leim 5,0-3,0", "okke 1,4-2,4 1,5-2,5",
 *  "kor 1,3", "ev lax", "sed"; "" at the root. Returns buf. */
KIFU_EXPORT char *kifu_msf_move_text(const kifu_msf_move *mv, char *buf, size_t cap);

/** A diagram of the state at n, with both hands and evol, the side to move and the move
 *  that led there: KIFU_DIAGRAM_TERM (a 7x7 grid of piece names: arxe's plain, sorn's
 *  after a 'v', a turned piece followed by '*', tem as TEM) or KIFU_DIAGRAM_SVG (a
 *  self-contained SVG document, o->size its width). KIFU_DIAGRAM_FLIP draws it from
 *  sorn's side, KIFU_DIAGRAM_COLOUR colours the terminal one. New string (kifu_free),
 *  *len its length (may be NULL); NULL on NOMEM or a format it does not draw. */
KIFU_EXPORT char *kifu_msf_diagram(const kifu_msf_node *n, const kifu_diagram_options *o,
                                   size_t *len);
/** One position of an indexed game, as exact search finds it. */
typedef struct kifu_index_row {
    long long game;     /* the game's id in the index */
    int ply;            /* where it stood in the position (0: the start) */
    const char *source; /* the file it was indexed from (borrowed for the call) */
    int number;         /* the game's number in that file, from 1 */
} kifu_index_row;
/** Called for each hit; return nonzero to stop. */
typedef int (*kifu_index_row_fn)(void *ctx, const kifu_index_row *hit);
/** Exact search: every indexed position equal to p (board, hands and side to move, by its
 *  64-bit key), by game and ply. Returns the number of hits, or -1 with err. */
KIFU_EXPORT long kifu_index_find(kifu_index *ix, const kifu_position *p,
                                 kifu_index_row_fn fn, void *ctx, kifu_error *err);

/* ------------------------------------------------------------------------------------ */
/* The index on ClickHouse (docs/clickhouse.md): the same kifu_index calls
 * on a ClickHouse server, or on a cluster of shards behind Distributed tables.            */

/** Where the tables are and how hard to try; all zero: database and tables "kifu", one
 *  server, 4 retries from 200 ms, 300 s a request. */
typedef struct kifu_clickhouse_options {
    const char *database; /* NULL: "kifu" */
    const char *table; /* prefix of the table names (TABLE_positions...); NULL: "kifu" */
    const char *cluster;  /* remote_servers name: the tables are Distributed over its
                             shards; NULL: one server */
    const char *user;     /* NULL: $KIFU_CLICKHOUSE_USER, else ClickHouse's default */
    const char *password; /* NULL: $KIFU_CLICKHOUSE_PASSWORD */
    int retries;          /* more tries of a failed batch; 0: 4, -1: none */
    int backoff_ms;       /* wait before the first retry, doubled each time; 0: 200 */
    int timeout_ms;       /* one request; 0: 300000 */
    /* https:// URLs: the certificate is verified against the system's CAs, or these */
    const char *ca_file; /* PEM file of the CAs to trust instead; NULL: the system's */
    int insecure_skip_tls_verify; /* nonzero: no verification at all (testing only) */
} kifu_clickhouse_options;

/** The DDL of the tables (CREATE DATABASE, TABLE and MATERIALIZED VIEW statements, each
 *  ending with ";\n"), for an operator to review and run; with o->cluster the statements
 *  every shard runs: local tables and the Distributed tables over them. New (kifu_free),
 *  or NULL with err (a database, table or cluster name that is not [A-Za-z0-9_]+). */
KIFU_EXPORT char *kifu_clickhouse_schema(const kifu_clickhouse_options *o,
                                         kifu_error *err);
/** Open the index on ClickHouse. urls: "http://HOST:PORT" or "https://HOST:PORT" (ports
 *  8123 and 8443 by default), or for a cluster every shard's
 *  URL in the order of remote_servers, separated by commas (the first answers queries;
 *  each shard receives its positions directly, by key modulo the number of shards, which
 *  is how the Distributed tables are sharded). Credentials never go in a URL. With
 *  KIFU_INDEX_CREATE the tables are made where missing (on every shard). The handle then
 *  works with kifu_index_add_file, _flush, _close, _info_get, _explore and _find as a
 *  file would, except: a file indexed before with other content is reported and skipped
 *  (not replaced), and book export is not supported. A game already indexed (same path,
 *  content and number) is skipped, so adding the same files again changes no count. A
 *  request the server did not get whole, or answered with an empty 5xx, is retried with
 *  backoff (never one whose answer was lost); a batch that still failed is repaired at the
 *  next open without KIFU_INDEX_READONLY (its counts and rows taken back), so adding its
 *  files again counts them once. An unreachable server or shard is named in err. One
 *  writer at a time (ids and repairs are not coordinated between writers); readers open
 *  with KIFU_INDEX_READONLY.
 *  New (kifu_index_close), or NULL with err. */
KIFU_EXPORT kifu_index *kifu_index_open_clickhouse(const char *urls, unsigned flags,
                                                   const kifu_clickhouse_options *o,
                                                   kifu_error *err);

/* ------------------------------------------------------------------------------------ */
/* Tags: the openings (戦法), castles (囲い) and classes (備考) a game shows               */

/* Definitions are data: a text format of named board patterns with conditions (which
 * ply, for how long, pieces moved or not, the rook's file, tags implied or excluded),
 * described in docs/tags.md. The shipped set is compiled in; a user's file adds to it or
 * replaces some of it. A kifu_tagger (declared with the index, which tags the games
 * it adds) holds them. */

/** Families of tags, as the KIF header keys name them (先手の戦法, 先手の囲い, 先手の備考). */
typedef enum kifu_tag_family {
    KIFU_TAG_STRATEGY = 0, /* 戦法 */
    KIFU_TAG_CASTLE = 1,   /* 囲い */
    KIFU_TAG_NOTE = 2, /* 備考: 居飛車, 振り飛車, 相居飛車, 対抗形 ... */
} kifu_tag_family;

/** The family's Japanese word ("戦法", "囲い", "備考"), or NULL. Static. */
KIFU_EXPORT const char *kifu_tag_family_name(int family);

/** A tagger with the shipped definitions. New (kifu_tags_free), or NULL with err. A
 *  tagger tags one game at a time (it keeps its scratch): one per thread. */
KIFU_EXPORT kifu_tagger *kifu_tags_new(kifu_error *err);
/** Read definitions (UTF-8 text in the format of docs/tags.md; `source` names it in
 *  errors, may be NULL): a name the tagger has already is replaced (all its
 *  alternatives), a new one is added after the others. On an error (its line and column
 *  in err) the tagger is unchanged. 0, or -1. */
KIFU_EXPORT int kifu_tags_add(kifu_tagger *t, const char *text, size_t len,
                              const char *source, kifu_error *err);
KIFU_EXPORT void kifu_tags_free(kifu_tagger *t);
/** Number of distinct tag names the tagger knows, and each one's name and family
 *  (borrowed, valid while t lives). -1 when i is out of range. */
KIFU_EXPORT size_t kifu_tags_count(const kifu_tagger *t);
KIFU_EXPORT int kifu_tags_at(const kifu_tagger *t, size_t i, const char **name,
                             int *family);

/** One tag a game was given. */
typedef struct kifu_tag {
    const char *name; /* borrowed from the tagger */
    int family;       /* kifu_tag_family */
    int side; /* KIFU_BLACK or KIFU_WHITE; -1: the game's (相居飛車, 対抗形 ...) */
    int ply;  /* where it was first recognised on the main line (0: the start) */
} kifu_tag;

/** The tags of a record's main line (the record normalized), sente's first, then gote's,
 *  then the game's, each side's in the order of the definitions. *out is a new array
 *  (kifu_free) of *count tags; 0, or -1 with err (an illegal move on the main line). */
KIFU_EXPORT int kifu_tags_record(kifu_tagger *t, const kifu_record *r, kifu_tag **out,
                                 size_t *count, kifu_error *err);

/** kifu_normalize_warn and kifu_tags_record in one replay of the moves: normalize r and
 *  tag its main line as the normalizer plays it. On success *out is a new array
 *  (kifu_free) of *count tags; 0, or -1 with err as kifu_normalize_warn (no tags). */
KIFU_EXPORT int kifu_tags_normalize(kifu_tagger *t, kifu_record *r, unsigned flags,
                                    void (*warn)(void *, const char *), void *warn_ctx,
                                    kifu_tag **out, size_t *count, kifu_error *err);
/** Write tags into r's header as KIF exports of online games do: 先手の戦法, 先手の囲い,
 *  先手の備考, 後手の戦法, 後手の囲い, 後手の備考, each a list "A, B" (the game's tags, such
 *  as 対抗形, go into both sides' 備考). A key the record already has is kept as it is,
 *  unless `replace`: then every such key is removed first. 0, or -1 (out of memory). */
KIFU_EXPORT int kifu_tags_to_header(kifu_record *r, const kifu_tag *tags, size_t count,
                                    int replace);

/** A tag filter as the CLI's --tag takes it: "NAME" (either side, or the game's), or
 *  "sente:NAME" / "gote:NAME" (also 先手:, 後手:, black:, white:) for one side. The name
 *  (a pointer into spec), the side in *side (KIFU_BLACK, KIFU_WHITE, or -1: either). */
KIFU_EXPORT const char *kifu_tag_spec(const char *spec, int *side);

/** Called per record of kifu_tags_read, once the whole input has read: the record
 *  (borrowed, normalized; valid during the call, and the callee may change it, to add
 *  the tags to its header say), its index among the input's `games` records, and its tags
 *  (borrowed). Nonzero stops. */
typedef int (*kifu_tags_read_fn)(void *ctx, kifu_record *r, size_t game, size_t games,
                                 const kifu_tag *tags, size_t count);
/** Read every record in the bytes as kifu_read_all does and tag each one while it is
 *  normalized: one replay of the moves serves both. 0, or -1 with err (as kifu_read_all:
 *  the first bad record; then fn is not called). */
KIFU_EXPORT int kifu_tags_read(kifu_tagger *t, const void *data, size_t len,
                               const kifu_read_options *opt, kifu_tags_read_fn fn,
                               void *ctx, kifu_error *err);

#ifdef __cplusplus
}
#endif
#endif /* KIFU_H */
