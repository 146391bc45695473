/* msf_file.h: Xelto records (MSF) in the commands: an input's format asked of the
 * library once and the commands branching on its game, reading and checking MSF with
 * every problem printed, and the views show and replay give of them. */
#ifndef KIFU_CLI_MSF_FILE_H
#define KIFU_CLI_MSF_FILE_H

#include <stddef.h>
#include <stdio.h>

#include "kifu.h"
#include "record_cursor.h"

/* Is the format (kifu_format_decide's answer) another game's than shogi (MSF)? */
int cli_other_game(int format);
/* A file's bytes ("-": standard input), in new memory (kifu_free), and in *format what
 * they are (read in `encoding`, a kifu_encoding), decided once by the library (kifu_format_decide) for the reading to be told.
 * NULL with err set (not printed: a command checks its options first) and *format the
 * path's extension's. */
char *cli_input_read(const char *path, int encoding, size_t *len, int *format,
                     kifu_error *err);
/* Read and check an MSF record from data (flags: KIFU_MSF_*), printing every problem as
 * FILE:LINE:COLUMN: message. The record (kifu_msf_free), or NULL with *code set. */
kifu_msf *cli_msf_open(const char *name, const void *data, size_t len, unsigned flags,
                       int *code);
/* Number of nodes after the root, and of variations. */
void cli_msf_counts(const kifu_msf *m, size_t *moves, size_t *variations);

/* `kifu show` and `kifu replay` of an MSF file's bytes (msf_view.c, msf_replay.c);
 * show's data NULL: the file did not read, and after the options are checked err says
 * why. */
int cli_msf_show(const cli_cursor_args *a, const char *format, const void *data,
                 size_t len, const kifu_error *err);
int cli_msf_replay(const cli_cursor_args *a, const void *data, size_t len);
/* What the record says at node n: its time, comment, the moves that may follow (the one
 * `chosen` in brackets) and, at the end of a line, the line's result. */
void cli_msf_info(FILE *out, const kifu_msf *m, const kifu_msf_node *n,
                  const kifu_msf_node *chosen);
/* Put the cursor (a node) where --path or --ply say. The node, or NULL with the reason in
 * msg. */
kifu_msf_node *cli_msf_place(const kifu_msf *m, const cli_cursor_args *a, char *msg,
                             size_t cap);

#endif
