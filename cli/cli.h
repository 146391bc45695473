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
int cmd_trace(int argc, char **argv);
void cmd_trace_usage(FILE *f);
int cmd_search(int argc, char **argv);
void cmd_search_usage(FILE *f);
int cmd_index(int argc, char **argv);
void cmd_index_usage(FILE *f);
int cmd_explore(int argc, char **argv);
void cmd_explore_usage(FILE *f);

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
/* Exit code for a library error code. */
int cli_exit_code(int kifu_code);

/* The format table as a list for help texts: names ("jkf csa ...") or, with extensions,
 * every extension (".jkf .json .csa ..."). Into buf. */
void cli_format_list(char *buf, size_t cap, int extensions);

/* Text on stdout (textout.c): a name (file names, players) with control characters as
 * '?', so that a record cannot drive the terminal; a JSON string (NULL: null), escaping
 * only what JSON requires (" \\ and control characters), UTF-8 kept. */
void cli_put_name(const char *s);
void cli_json_string(const char *s);
/* The start of a `kifu search --json` hit line, up to the header: file, game, ply, path,
 * sfen, bd, cb, cw, next (the text of what follows, NULL: null) and usi ("" for an
 * ending). The caller adds ,"header":{...}} and the newline. */
void cli_hit_json(const char *file, size_t game, int ply, const char *path,
                  const kifu_board *b, const char *next, const char *usi);

/* Write bytes to path atomically (temp file in the same directory, then rename), or to
 * stdout when path is "-" or NULL. 0, or -1 with a message printed. */
int cli_write_file(const char *path, const void *data, size_t len);
/* The same for an output too long to hold whole, written piece by piece: open (NULL with
 * a message), write (0, or -1: the error is told at close), then close, keeping the file
 * (0, or -1 with a message: nothing replaced) or not (keep 0: the temp file removed; a
 * device or FIFO has had what was written). */
typedef struct cli_stream cli_stream;
cli_stream *cli_stream_open(const char *path);
int cli_stream_write(cli_stream *w, const void *data, size_t len);
int cli_stream_close(cli_stream *w, int keep);

#endif
