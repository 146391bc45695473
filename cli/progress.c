/* progress.c: the progress bar of progress.h. */
#include "progress.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#define BAR 24   /* cells in the bar */
#define LABEL 36 /* bytes of the label shown, so the line fits 80 columns */

double cli_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void cli_progress_start(cli_progress *p, size_t total, int enabled)
{
    memset(p, 0, sizeof *p);
    p->enabled = enabled && total > 0;
    p->total = total;
    p->start = p->last_draw = cli_now();
}

/* The tail of a path fits better than its head: the file name is what tells files apart.
 * Cut at a UTF-8 character boundary. */
static const char *tail(const char *s)
{
    size_t n = strlen(s);
    if (n <= LABEL)
        return s;
    const char *t = s + n - LABEL;
    while (*t && ((unsigned char)*t & 0xC0) == 0x80)
        t++;
    return t;
}

void cli_progress_update(cli_progress *p, size_t done, const char *label)
{
    if (!p->enabled)
        return;
    double now = cli_now();
    if (p->drawn && done < p->total && now - p->last_draw < 0.1)
        return;
    p->last_draw = now;
    size_t cells = p->total ? done * BAR / p->total : BAR;
    char bar[BAR + 1];
    for (size_t i = 0; i < BAR; i++)
        bar[i] = i < cells ? '#' : '.';
    bar[BAR] = 0;
    /* \033[K clears what a longer previous line left behind. */
    fprintf(stderr, "\r[%s] %zu/%zu %s\033[K", bar, done, p->total,
            label ? tail(label) : "");
    fflush(stderr);
    p->drawn = 1;
}

void cli_progress_clear(cli_progress *p)
{
    if (p->enabled && p->drawn) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
        p->drawn = 0;
    }
}

void cli_progress_end(cli_progress *p)
{
    cli_progress_clear(p);
    p->enabled = 0;
}
