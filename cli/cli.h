/* cli.h: what the subcommands of the kifu tool share. */
#ifndef KIFU_CLI_H
#define KIFU_CLI_H

#include <stdio.h>

#include "kifu.h"

/* Exit codes, distinct per kind of failure. */
enum {
    EXIT_OK = 0,
    EXIT_INPUT = 1,    /* an input was bad: syntax, encoding, illegal move, bad SFEN */
    EXIT_USAGE = 2,    /* bad command line */
    EXIT_IO = 3,       /* a file could not be read or written */
    EXIT_INTERNAL = 4, /* out of memory or a bug */
};

typedef int (*cli_command_fn)(int argc, char **argv);

int cmd_convert(int argc, char **argv);
void cmd_convert_usage(FILE *f);
int cmd_validate(int argc, char **argv);
void cmd_validate_usage(FILE *f);
int cmd_show(int argc, char **argv);
void cmd_show_usage(FILE *f);
int cmd_html(int argc, char **argv);
void cmd_html_usage(FILE *f);
int cmd_replay(int argc, char **argv);
void cmd_replay_usage(FILE *f);
int cmd_play(int argc, char **argv);
void cmd_play_usage(FILE *f);
int cmd_perft(int argc, char **argv);
void cmd_perft_usage(FILE *f);
int cmd_moves(int argc, char **argv);
void cmd_moves_usage(FILE *f);
int cmd_tags(int argc, char **argv);
void cmd_tags_usage(FILE *f);
int cmd_trace(int argc, char **argv);
void cmd_trace_usage(FILE *f);
int cmd_search(int argc, char **argv);
void cmd_search_usage(FILE *f);
int cmd_index(int argc, char **argv);
void cmd_index_usage(FILE *f);
int cmd_explore(int argc, char **argv);
/* cmd_index_players.c: `kifu index players` of an open index (like: a part of the key, or
 * NULL; tags: --tag specs, the games with them on the player's side), as text or JSON
 * Lines; an exit code. And explore's unknown player: 1 when no game has name's key (the
 * nearest keys said on stderr), 0 when some has. */
/* A player's tags (kifu_index_player.tags) as the JSON array `index players --json` and
 * serve's player page give. */
void cli_player_tags_json(FILE *f, const kifu_index_player *p);
/* "sente" or "gote" for a tag's side (KIFU_BLACK, KIFU_WHITE). */
const char *cli_tag_side_word(int side);
int cli_index_players(kifu_index *ix, const char *like, const char *const *tags,
                      size_t ntags, int json);
int cli_player_unknown(kifu_index *ix, const char *name);
/* distance.c: the characters (UTF-8 sequences, as numbers) of s into v, at most cap:
 * the count; and the edit distance of two short texts, in characters. */
size_t cli_chars(const char *s, unsigned *v, size_t cap);
size_t cli_distance(const char *a, const char *b);
/* tag_filter.c: --tag NAME / --tag sente:NAME (repeated: all of them) of explore, search
 * --index and serve. Check each spec's name against the shipped tags: 0, or 1 with
 * "no tag 'X'; did you mean ...?" in msg. */
int cli_tag_unknown(const char *const *specs, size_t n, char *msg, size_t cap);
/* A game's tags as kifu tags --json writes them: [{"name","family","side","ply"}...]. */
void cli_tags_json(FILE *f, const kifu_tag *tags, size_t n);
void cmd_explore_usage(FILE *f);
int cmd_serve(int argc, char **argv);
void cmd_serve_usage(FILE *f);

/* A message on stderr, printf-style, with control characters (from file names and
 * record text) shown as \xNN; every message of the tool goes through it. */
void cli_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Send this thread's cli_err messages to sink (a memory stream), or back to stderr
 * (NULL). */
void cli_err_capture(FILE *sink);
/* Print "kifu: <formatted error>" to stderr. */
void cli_print_error(const kifu_error *err);
/* A reader's or writer's warning about `source` (a path), as kifu_warn_fn. */
void cli_print_warning(void *source, const char *message);
/* The one answer of every command to an option it does not know: two lines ("kifu: CMD:
 * unknown option 'X'", "kifu: see 'kifu CMD --help'"), not the whole help. EXIT_USAGE. */
int cli_unknown_option(const char *cmd, const char *opt);
/* Exit code for a library error code. */
int cli_exit_code(int kifu_code);
/* The same for an index that cannot be opened or read: not an index, damaged, another
 * version are all "the index could not be read" (3), as the help says. */
int cli_index_exit_code(int kifu_code);
/* --timeout SECONDS of the ClickHouse options (a decimal number, 0.001 to 86400) into
 * *ms. 0, or -1 when it is not one. The default is CLI_CH_TIMEOUT_MS: a request that
 * takes longer than this is a server in trouble, not a busy one. */
int cli_timeout_ms(const char *s, int *ms);
#define CLI_CH_TIMEOUT_MS 30000
/* The options of the index on ClickHouse (ch_options.c), shared by every command that
 * takes --clickhouse: --clickhouse URL into *url, --database, --table, --cluster,
 * --timeout, --ca-file, --insecure-skip-tls-verify (warned about on stderr) and
 * --clickhouse-credentials FILE (read now) into o. argv[*i] is looked at, and its value
 * taken (*i moved past it): 1 taken, 0 not one of them, -1 a bad value (said; the
 * command exits with EXIT_USAGE). */
int cli_ch_option(int argc, char **argv, int *i, const char **url,
                  kifu_clickhouse_options *o);
/* Their lines of a --help, after the command's own --clickhouse line. */
#define CLI_CH_HELP CLI_CH_HELP_NAMES CLI_CH_HELP_TIMEOUT CLI_CH_HELP_TLS
#define CLI_CH_HELP_NAMES                                                                \
    "  --database NAME    its database (default kifu)\n"                                 \
    "  --table PREFIX     its table names PREFIX_positions... (default kifu)\n"          \
    "  --cluster NAME     the remote_servers cluster of the Distributed tables\n"
#define CLI_CH_HELP_TIMEOUT                                                              \
    "  --timeout SECONDS  the longest a ClickHouse request may take, answer\n"           \
    "                     included (default 30)\n"
#define CLI_CH_HELP_TLS                                                                  \
    "  --ca-file FILE     https: trust the CAs in FILE (PEM) instead of the\n"           \
    "                     system's\n"                                                    \
    "  --insecure-skip-tls-verify  https without checking the server's\n"                \
    "                     certificate: for testing only, warned about each run\n"        \
    "  --clickhouse-credentials FILE  the user and password, as user=NAME and\n"         \
    "                     password=SECRET lines, from a file only its owner may\n"       \
    "                     read (default: KIFU_CLICKHOUSE_USER and\n"                     \
    "                     KIFU_CLICKHOUSE_PASSWORD; never on the command line)\n"

/* The format table as a list for help texts: names ("jkf csa ...") or, with extensions,
 * every extension (".jkf .json .csa ..."). Into buf. */
void cli_format_list(char *buf, size_t cap, int extensions);
/* An encoding's name as --input-encoding and --encoding take it (kifu_encoding_from_name)
 * into *out. 0, or -1 with the names it knows printed. */
int cli_parse_encoding(const char *s, int *out);

/* Text on stdout (textout.c): a name (file names, players) with control characters as
 * '?', so that a record cannot drive the terminal; a JSON string (NULL: null), escaping
 * only what JSON requires (" \\ and control characters), UTF-8 kept. */
void cli_put_name(const char *s);
void cli_put_fname(FILE *f, const char *s);
void cli_json_string(const char *s);
void cli_json_fstring(FILE *f, const char *s);
/* A stream's bytes gathered in a buffer and written to it in large pieces (textout.c):
 * what a writer of many small pieces (the explorer's JSON) uses instead of a stdio call
 * for each. Set f and n = 0 (the buffer needs no clearing); flush at the end. */
typedef struct cli_out {
    FILE *f;
    size_t n;
    char b[8192];
} cli_out;
void cli_out_flush(cli_out *o);
void cli_out_bytes(cli_out *o, const char *s, size_t n);
void cli_out_str(cli_out *o, const char *s);
void cli_out_int(cli_out *o, long long v);
/* s as a JSON string (NULL: null), as cli_json_fstring writes it. */
void cli_out_json(cli_out *o, const char *s);
/* The object `kifu explore --json` prints (sfen, games, moves with counts and, unless
 * no_games, top games), on f; `kifu serve` answers /api/explore with the same
 * (explore_json.c). */
void cli_explore_json(FILE *f, const char *sfen, const kifu_explore *x, int no_games);
/* The move number an SFEN (or a USI line's) ends its position with: 1 when none
 * (explore_json.c). */
int cli_sfen_number(const char *s);
/* The start of a `kifu search --json` hit line on f, up to the header: file, game, ply, path,
 * sfen, bd, cb, cw, next (the text of what follows, NULL: null) and usi ("" for an
 * ending). The caller adds ,"header":{...}} and the newline. */
void cli_hit_json(FILE *f, const char *file, size_t game, int ply, const char *path,
                  const kifu_board *b, const char *next, const char *usi);

/* Write bytes to path atomically (temp file in the same directory, then rename), or to
 * stdout when path is "-" or NULL. 0, or -1 with a message printed. */
int cli_write_file(const char *path, const void *data, size_t len);
/* Flushes standard output: 0, or -1 with "cannot write to standard output" and the cause
 * said (main's last flush says nothing for a command that returns EXIT_IO). */
int cli_flush_stdout(void);
/* The name of a temp file beside path: path then suffix, the file name's start cut (at a
 * UTF-8 character's start) when the whole would be longer than NAME_MAX less `reserve`
 * bytes (room for what SQLite appends). 0, or -1 when it does not fit in buf. */
int cli_temp_name(char *buf, size_t cap, const char *path, const char *suffix,
                  size_t reserve);
/* An index being built: NAME.kifu-build-PID (cmd_index.c). */
#define CLI_BUILD_MARK ".kifu-build-"
/* Removes the temp files that processes now gone left in dir (outputs being written,
 * indexes being built): once per run and directory. */
void cli_clean_leftovers(const char *dir);
/* cli_clean_leftovers of the directory path is in. */
void cli_clean_beside(const char *path);
/* The same for an output too long to hold whole, written piece by piece: open (NULL with
 * a message), write (0, or -1: the error is told at close), then close, keeping the file
 * (0, or -1 with a message: nothing replaced) or not (keep 0: the temp file removed; a
 * device or FIFO has had what was written). */
typedef struct cli_stream cli_stream;
cli_stream *cli_stream_open(const char *path);
int cli_stream_write(cli_stream *w, const void *data, size_t len);
int cli_stream_close(cli_stream *w, int keep);

#endif
