/* viewer.h: the key loop of the record viewers (`kifu replay` of a shogi record and of
 * an MSF file), so that both set up and restore the terminal, draw and read keys the
 * same way: the keys that mean the same in both (quit, redraw, flip, help, the go-to
 * prompt) are handled here, moving through the record is left to the viewer. */
#ifndef KIFU_VIEWER_H
#define KIFU_VIEWER_H

#include "term.h"

typedef struct cli_viewer cli_viewer;
struct cli_viewer {
    int positioned;   /* stdout is a terminal: the screen is drawn in place */
    int colour;       /* the board in colour (cli_colour_ok) */
    int flip;         /* the board seen from the second player's side */
    int help;         /* the key help is shown */
    char status[256]; /* the bottom row's message, cleared before each key */
    /* The viewer's own: draw the whole screen. */
    void (*draw)(cli_viewer *vw);
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
