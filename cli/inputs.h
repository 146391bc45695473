/* inputs.h: the record files a command is given: files as named ("-" is stdin), and the
 * record files found under directories (recursively, in name order, hidden entries
 * skipped, by the extensions of the format table). */
#ifndef KIFU_CLI_INPUTS_H
#define KIFU_CLI_INPUTS_H

#include <stddef.h>

typedef struct cli_input {
    char *path; /* as given or found; "-" is stdin */
    char *rel;  /* name relative to its directory argument ("stdin" for "-") */
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

/* Outputs never replace an input (input_guard.c): the inputs of the command (borrowed
 * until the command ends; one list and one more path at most), and the test
 * cli_write_file makes: is path (through links) one of them, by device and inode? */
void cli_inputs_guard(const cli_inputs *in);
void cli_input_guard(const char *path);
int cli_is_input(const char *path);

#endif
