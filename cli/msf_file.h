/* msf_file.h: Xelto records (MSF) in the commands: telling them from shogi records by
 * the format table, reading and checking them with every problem printed, and the
 * views show and replay give of them. */
#ifndef KIFU_CLI_MSF_FILE_H
#define KIFU_CLI_MSF_FILE_H

#include <stddef.h>
#include <stdio.h>

#include "kifu.h"
#include "record_cursor.h"

/* Is the input a record of another game than shogi (an MSF file)? The format is `from`
 * (a -f format) when not AUTO, else the content's (data, or the file at path when data
 * is NULL) when it is another game's, else the path's extension's. */
int cli_other_game(int from, const char *path, const void *data, size_t len);
/* Read and check an MSF record from data (flags: KIFU_MSF_*), printing every problem as
 * FILE:LINE:COLUMN: message. The record (kifu_msf_free), or NULL with *code set. */
kifu_msf *cli_msf_open(const char *name, const void *data, size_t len, unsigned flags,
                       int *code);
/* The same from a file ("-": standard input). */
kifu_msf *cli_msf_open_file(const char *path, int *code);
/* Number of nodes after the root, and of variations. */
void cli_msf_counts(const kifu_msf *m, size_t *moves, size_t *variations);

/* `kifu show` and `kifu replay` of an MSF file (msf_view.c, msf_replay.c). */
int cli_msf_show(const cli_cursor_args *a, const char *format);
int cli_msf_replay(const cli_cursor_args *a);
/* What the record says at node n: its time, comment, the moves that may follow (the one
 * `chosen` in brackets) and, at the end of a line, the line's result. */
void cli_msf_info(FILE *out, const kifu_msf *m, const kifu_msf_node *n,
                  const kifu_msf_node *chosen);
/* Put the cursor (a node) where --path or --ply say. The node, or NULL with the reason in
 * msg. */
kifu_msf_node *cli_msf_place(const kifu_msf *m, const cli_cursor_args *a, char *msg,
                             size_t cap);

#endif
