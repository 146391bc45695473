/* viewer.h: the screen and key loop of the record viewers (`kifu replay` of a shogi
 * record and of an MSF file), so that both set up and restore the terminal, lay out the
 * screen and read keys the same way: the title row, the board and the status row are
 * drawn here, and the keys that mean the same in both (quit, redraw, flip, help, the
 * go-to prompt) are handled here; what the record says beside the board and moving
 * through the record are left to the viewer. */
#ifndef KIFU_VIEWER_H
#define KIFU_VIEWER_H

#include <stddef.h>
#include <stdio.h>

#include "kifu.h"
#include "term.h"

/* Where the cursor is, for the title row: "NAME  ply P/E  path X  fork F/N"; a record
 * that starts after move 1 adds its move numbers: "NAME  move M/ME (ply P)  path X". */
typedef struct cli_viewer_where {
    int ply, end;       /* the cursor's ply, and the last ply of its line */
    int first;          /* the number of the record's first move when not 1 (else 0) */
    size_t fork, forks; /* the cursor is fork `fork` (from 1) of the `forks` at its ply */
    char path[256];     /* the cursor's path, as the go-to prompt takes it */
} cli_viewer_where;

typedef struct cli_viewer cli_viewer;
struct cli_viewer {
    int positioned;   /* stdout is a terminal: the screen is drawn in place */
    int colour;       /* the board in colour (cli_colour_ok) */
    int flip;         /* the board seen from the second player's side */
    int help;         /* the key help is shown */
    char status[256]; /* the bottom row's message, cleared before each key */
    const char *name; /* the file, first on the title row */
    /* The viewer's own parts of the screen; the loop draws the rest (the title row, the
     * board at row 2, the status row) around them, composed in memory and written at
     * once. `where` says where the cursor is; `diagram` draws its board with the options
     * given (a new string for kifu_free, or NULL); `body` writes what goes beside and
     * under the board, from row `row` (the one under the board) of a rows x cols screen,
     * and may set the status. */
    void (*where)(cli_viewer *vw, cli_viewer_where *w);
    char *(*diagram)(cli_viewer *vw, const kifu_diagram_options *o);
    void (*body)(cli_viewer *vw, FILE *sb, int row, int rows, int cols);
    /* A key the loop leaves to the viewer: what it means and the key itself; for NAV_GOTO
     * `line` is what was typed at the prompt (never empty), else NULL. 0 to go on, 1 to
     * quit (end of input at a prompt of the viewer's own). */
    int (*act)(cli_viewer *vw, term_nav nav, int key, const char *line);
};

/* Run the viewer, embedded first in the caller's view, until quit: the terminal is set
 * up (raw keys; the alternate screen drawn in place when stdout is a terminal, else
 * plain lines, which a pipe or a test reads) and restored. EXIT_OK, or EXIT_IO when the
 * terminal cannot be set up (the error printed as `kifu: CMD: ...`). */
int cli_viewer_run(cli_viewer *vw, const char *cmd);

#endif
