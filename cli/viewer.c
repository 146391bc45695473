/* viewer.c: see viewer.h. */
#include "viewer.h"

#include <unistd.h>

#include "cli.h"
#include "record_cursor.h"

int cli_viewer_run(cli_viewer *vw, const char *cmd)
{
    if (term_open(isatty(STDOUT_FILENO)) < 0) {
        cli_err("kifu: %s: cannot set up the terminal\n", cmd);
        return EXIT_IO;
    }
    vw->positioned = isatty(STDOUT_FILENO);
    vw->colour = cli_colour_ok();
    int redraw = 1, quit = 0;
    while (!quit) {
        if (redraw)
            vw->draw(vw);
        redraw = 1;
        vw->status[0] = 0;
        int key = term_key(-1);
        term_nav nav = term_nav_of(key);
        char line[128];
        switch (nav) {
        case NAV_QUIT:
            quit = 1;
            break;
        case NAV_REDRAW:
            break;
        case NAV_IDLE:
            redraw = 0;
            break;
        case NAV_FLIP:
            vw->flip = !vw->flip;
            break;
        case NAV_HELP:
            vw->help = !vw->help;
            break;
        case NAV_GOTO: {
            int r = term_ask(vw->positioned, "go to ply or path: ", line, sizeof line);
            if (r == -2)
                quit = 1;
            else if (r == 0 && line[0])
                quit = vw->act(vw, nav, key, line);
            break;
        }
        default:
            quit = vw->act(vw, nav, key, NULL);
        }
    }
    term_close();
    return EXIT_OK;
}
