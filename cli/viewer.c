/* viewer.c: see viewer.h. */
#include "viewer.h"

#include <stdlib.h>
#include <unistd.h>

#include "cli.h"
#include "record_cursor.h"

/* The title row: the file, the cursor's ply and its line's last, its path and fork. */
static void draw_title(cli_viewer *vw, FILE *sb)
{
    cli_viewer_where w = {0};
    vw->where(vw, &w);
    term_put_at(sb, vw->positioned, 1, 1);
    if (w.first > 1) /* a record that starts at move 6: its own numbers, as the list */
        fprintf(sb, "%s  move %d/%d (ply %d)  path %s", vw->name, w.first - 1 + w.ply,
                w.first - 1 + w.end, w.ply, w.path);
    else
        fprintf(sb, "%s  ply %d/%d  path %s", vw->name, w.ply, w.end, w.path);
    if (w.forks > 1 && w.fork)
        fprintf(sb, "  fork %zu/%zu", w.fork, w.forks);
    term_end_line(sb, vw->positioned);
}

/* The board from row 2, flipped and coloured as the viewer says; the row under it. */
static int draw_board(cli_viewer *vw, FILE *sb)
{
    kifu_diagram_options o = {KIFU_DIAGRAM_TERM,
                              (vw->flip ? KIFU_DIAGRAM_FLIP : 0u) |
                                  (vw->colour ? KIFU_DIAGRAM_COLOUR : 0u),
                              0,
                              NULL,
                              {NULL, NULL}};
    char *board = vw->diagram(vw, &o);
    int row = term_put_lines(sb, vw->positioned, board ? board : "", 2, 1, 1);
    kifu_free(board);
    return row;
}

static void draw(cli_viewer *vw)
{
    /* The whole screen is composed in memory and written at once: no flicker. */
    char *text = NULL;
    size_t len = 0;
    FILE *sb = open_memstream(&text, &len);
    if (!sb)
        return;
    int rows, cols;
    term_size(&rows, &cols);
    fputs(vw->positioned ? "\033[H\033[2J" : "----\n", sb);
    draw_title(vw, sb);
    int row = draw_board(vw, sb);
    vw->body(vw, sb, row, rows, cols);
    /* last, as the body may have set the status */
    term_put_at(sb, vw->positioned, rows, 1);
    fprintf(sb, "%s", vw->status[0] ? vw->status : "? help  q quit");
    term_end_line(sb, vw->positioned);
    if (fclose(sb) == 0 && text)
        term_show(text, len);
    free(text);
}

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
            draw(vw);
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
