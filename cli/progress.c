/* progress.c: the progress bar of progress.h. */
#include "progress.h"
#include "term.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#define BAR 20 /* cells in the bar */

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

/* Append s[0..n) to the line with control characters as '?': a file name must not move
 * the cursor or retitle the terminal. */
static void put_label(char *buf, size_t cap, size_t *len, const char *s, size_t n)
{
    for (size_t i = 0; i < n && *len + 1 < cap; i++) {
        unsigned char c = (unsigned char)s[i];
        /* C1 controls (U+0080..U+009F, CSI among them) too: both bytes become '?'. */
        int c1 = c == 0xC2 && i + 1 < n && (unsigned char)s[i + 1] < 0xA0;
        buf[(*len)++] = c < 0x20 || c == 0x7F || c1 ? '?' : (char)c;
        if (c1 && *len + 1 < cap) {
            buf[(*len)++] = '?';
            i++;
        }
    }
    buf[*len] = 0;
}

char *cli_progress_line(char *buf, size_t cap, size_t done, size_t total, double elapsed,
                        const char *label, int width)
{
    if (!cap)
        return buf;
    size_t cells = total ? done * BAR / total : BAR;
    char bar[BAR + 1];
    for (size_t i = 0; i < BAR; i++)
        bar[i] = i < cells ? '#' : '.';
    bar[BAR] = 0;
    int pct = total ? (int)(done * 100 / total) : 100;
    char rate[32] = "", left[32] = "";
    if (elapsed > 0.2 && done > 0) {
        double r = (double)done / elapsed;
        snprintf(rate, sizeof rate, r >= 100 ? "  %.0f/s" : "  %.1f/s", r);
        if (done < total) {
            long s = (long)((double)(total - done) / r + 0.5);
            if (s >= 3600)
                snprintf(left, sizeof left, "  %ld:%02ld:%02ld left", s / 3600,
                         s / 60 % 60, s % 60);
            else
                snprintf(left, sizeof left, "  %ld:%02ld left", s / 60, s % 60);
        }
    }
    int n =
        snprintf(buf, cap, "[%s] %3d%%  %zu/%zu%s%s", bar, pct, done, total, rate, left);
    size_t len = n < 0 ? 0 : (size_t)n < cap ? (size_t)n : cap - 1;
    int room = width - 1 - term_columns(buf, len) - 2; /* 2: the gap before the label */
    if (!label || !*label || room < 8)
        return buf;
    put_label(buf, cap, &len, "  ", 2);
    size_t ln = strlen(label);
    if (term_columns(label, ln) <= room) {
        put_label(buf, cap, &len, label, ln);
        return buf;
    }
    /* Keep a third of the room for the head and the rest for the tail, "…" between
     * (counted 2 columns wide: terminals set for CJK draw it so). */
    int head = (room - 2) / 3, tail = room - 2 - head;
    put_label(buf, cap, &len, label, term_fit(label, ln, head));
    put_label(buf, cap, &len, "\xE2\x80\xA6", 3);
    size_t t = term_fit_tail(label, ln, tail);
    put_label(buf, cap, &len, label + t, ln - t);
    return buf;
}

void cli_progress_update(cli_progress *p, size_t done, const char *label)
{
    if (!p->enabled)
        return;
    double now = cli_now();
    if (p->drawn && done < p->total && now - p->last_draw < 0.1)
        return;
    p->last_draw = now;
    char line[1024];
    int rows, cols;
    term_size_of(2, &rows, &cols);
    cli_progress_line(line, sizeof line, done, p->total, now - p->start, label, cols);
    /* \033[K clears what a longer previous line left behind. */
    fprintf(stderr, "\r%s\033[K", line);
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
