/* record_cursor.h: what show, replay and play share: a record opened on a player, the
 * FILE [--ply N] [--path P] [--flip] options that say where to look, placing the cursor
 * there, and record text made safe for the terminal. */
#ifndef KIFU_RECORD_CURSOR_H
#define KIFU_RECORD_CURSOR_H

#include <stddef.h>
#include <stdio.h>

#include "kifu.h"

/* Colour and escapes only when stdout is a terminal and NO_COLOR is unset or empty. */
int cli_colour_ok(void);
/* Text from a record (a comment, a bookmark) made safe for the terminal: control
 * characters (escape sequences a file could carry) become '?'. Into buf; returns buf. */
char *cli_safe_text(const char *s, char *buf, size_t cap);
/* A decimal 0..100000000. 0, or -1. */
int cli_parse_int(const char *s, int *out);
/* Read a record (any format, "-" = stdin) and make a player on it; errors are printed.
 * NULL on failure (then *rec is NULL too and *code the exit code). With `lenient` not
 * NULL, an illegal move does not fail: the record is kept up to the last move that could
 * be played, the error printed, and *lenient set to its exit code (EXIT_OK: none). */
kifu_player *cli_open_player(const char *path, int *lenient, kifu_record **rec,
                             int *code);
/* The same for game `game` (from 1; 0: the first) of the file, read in `encoding`
 * (kifu_encoding). A path that names no file but ends in #N, as search and explore
 * print references (FILE#GAME), is game N of FILE; a file whose name has a '#' opens
 * as named. A game past the file's last is an error naming how many it holds. */
kifu_player *cli_open_game(const char *path, int encoding, int game, int *lenient,
                           kifu_record **rec, int *code);
/* Split a reference FILE#N when `arg` names no file (stat) but FILE does: *file is new
 * (free), *game N. Else *file is a copy of arg and *game 0. 0, or -1 (out of memory). */
int cli_game_ref(const char *arg, char **file, int *game);
/* The file of a FILE#N reference (cli_game_ref) in *path (free), and *game set to N;
 * an N other than a --game already given is a usage error. 0, or -1 with *code set. */
int cli_cursor_file(const char *arg, int *game, char **path, int *code);
/* cli_open_game from a file's bytes and its format (cli_input_read's). */
kifu_player *cli_open_player_from(const char *path, const void *data, size_t len,
                                  int format, int encoding, int game, int *lenient,
                                  kifu_record **rec, int *code);

/* The command line of a command that looks at one record at one position: FILE (or
 * FILE#GAME) --game N --input-encoding ENC --ply N --path P --flip. */
typedef struct cli_cursor_args {
    const char *file;
    const char *path;   /* --path P, or NULL */
    const char *format; /* --format F, or NULL; only accepted when asked for */
    int ply;            /* --ply N, or -1 */
    int flip;           /* --flip */
    int lenient;        /* --lenient (only accepted when asked for) */
    int encoding;       /* --input-encoding ENC (kifu_encoding; AUTO by default) */
    int game;           /* --game N (from 1), or 0 */
    /* with --format: the diagram's --size, --caption and KIFU_DIAGRAM_* style flags */
    int size;
    const char *caption;
    unsigned diagram;
} cli_cursor_args;

/* What a command accepts beyond FILE --ply --path --flip. */
enum { CLI_CURSOR_FORMAT = 1, CLI_CURSOR_LENIENT = 2 };
/* Parse the arguments of command `cmd` (argv[0] is the command name). EXIT_OK, or
 * EXIT_USAGE with the reason printed (and usage(stderr) for an unknown option or a
 * missing file). --format (and the diagram options) and --lenient are unknown options
 * unless `accepts` has CLI_CURSOR_FORMAT or CLI_CURSOR_LENIENT. */
int cli_cursor_args_parse(const char *cmd, int argc, char **argv, unsigned accepts,
                          void (*usage)(FILE *), cli_cursor_args *a);
/* Put the cursor at --path, or else at --ply, when given. 0, or -1 with the reason in
 * msg (the cursor is then where the player could get to: a ply past the end clamps). */
int cli_cursor_place(kifu_player *pl, const cli_cursor_args *a, char *msg, size_t cap);

#endif
