/* progress.h: a one-line progress bar on stderr for commands that work through many
 * files. It draws only when enabled (the caller decides: stderr is a terminal, enough
 * files, not quiet) and at most ten times a second, so it costs nothing measurable. */
#ifndef KIFU_CLI_PROGRESS_H
#define KIFU_CLI_PROGRESS_H

#include <stddef.h>

typedef struct cli_progress {
    int enabled;
    int drawn;        /* a bar is on screen and must be cleared before other output */
    size_t total;     /* number of items */
    double start;     /* seconds, monotonic */
    double last_draw; /* seconds, monotonic */
} cli_progress;

/* Monotonic time in seconds. */
double cli_now(void);
/* Start a bar over `total` items; draws nothing when enabled is 0. */
void cli_progress_start(cli_progress *p, size_t total, int enabled);
/* `done` items are finished; `label` (e.g. the current file, may be NULL) is shown cut to
 * fit. Redraws at most every 100 ms, and always for the last item. */
void cli_progress_update(cli_progress *p, size_t done, const char *label);
/* Erase the bar so a message can be printed; the next update draws it again. */
void cli_progress_clear(cli_progress *p);
/* Erase the bar for good. */
void cli_progress_end(cli_progress *p);

/* The bar's line for `done` of `total` items after `elapsed` seconds, fitted to `width`
 * columns: "[#####.....]  42%  420/1000  35.2/s  0:16 left  dir/…/name.kif". The label is
 * shortened in the middle (its head says where, its tail which file) and any control
 * character in it is shown as '?'. Returns buf. */
char *cli_progress_line(char *buf, size_t cap, size_t done, size_t total, double elapsed,
                        const char *label, int width);

#endif
