/* inputs.h: the record files a command is given: files as named ("-" is stdin), and the
 * record files found under directories (recursively, in name order, hidden entries
 * skipped, by the extensions of the format table). */
#ifndef KIFU_CLI_INPUTS_H
#define KIFU_CLI_INPUTS_H

#include <stddef.h>

#include "kifu.h"

typedef struct cli_input {
    char *path; /* as given or found; "-" is stdin */
    char *rel;  /* name relative to its directory argument ("stdin" for "-") */
    int found;  /* found in a directory (not named): a file whose content is no record
                 * is skipped, not an error (cli_not_record) */
} cli_input;

typedef struct cli_inputs {
    cli_input *v;
    size_t n, cap;
    int dirs; /* a directory was named */
    /* Set by the caller: directories give files of other games than shogi too (the
     * format table's Xelto rows: .msf); otherwise only shogi records are taken. */
    int other_games;
    /* Entries under the directories that could not be looked at (a link to nothing, a
     * directory that does not open): each was named in a message. */
    size_t failed;
    /* The directories searched, by device and inode (inputs.c): a link back up the
     * tree, or a second way to a directory, is skipped and said. */
    struct cli_dir_id *seen;
    size_t nseen, capseen;
} cli_inputs;

/* Add a command-line argument: a directory's record files, or the file itself (taken
 * whatever its extension). EXIT_OK, or an exit code (a message was printed). */
int cli_inputs_add(cli_inputs *in, const char *arg);
void cli_inputs_free(cli_inputs *in);

/* Files skipped as no record (skipped.c): a file found in a directory that did not read
 * (not for want of memory, a read error or bad bytes) and whose content no format bids
 * on: a package.json or a README among records. Such a file is no failure and changes
 * no exit status; the summary names it once. */
int cli_not_record(const cli_input *in, int from, const kifu_error *e, const void *data,
                   size_t len);
typedef struct cli_skipped {
    size_t n;
    char *names[3]; /* the first three */
} cli_skipped;
/* Count a skipped file (its name kept among the first three). */
void cli_skipped_add(cli_skipped *s, const char *path);
/* One line on stderr when any was skipped ("kifu: 2 files skipped, not records by their
 * content: a/package.json, a/README.kif") unless quiet, then free. */
void cli_skipped_report(cli_skipped *s, int quiet);

/* Outputs never replace an input (input_guard.c): the inputs of the command (borrowed
 * until the command ends; one list and up to 4 more paths), and the test
 * cli_write_file makes: is path (through links) one of them, by device and inode? */
void cli_inputs_guard(const cli_inputs *in);
/* One more input that is not a record (a style sheet, a tag file): NULL is none. */
void cli_input_guard(const char *path);
int cli_is_input(const char *path);

#endif
