/* message.c: every message the tool prints on stderr goes through cli_err, which shows
 * control characters as \xNN: file names and record text reach messages, and a file
 * must not be able to retitle the terminal, clear it or fake a line. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "cli.h"

/* Where this thread's messages go instead of stderr (cli_err_capture): a batch worker
 * keeps its messages until its file's turn comes, so the output keeps the input order. */
static _Thread_local FILE *capture;

void cli_err_capture(FILE *sink)
{
    capture = sink;
}

/* Bytes [s, s+n) with C0 controls (but the newline), DEL, C1 controls (U+0080..U+009F)
 * and bytes that are not UTF-8 written as \xNN. */
static void put_escaped(FILE *f, const unsigned char *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        unsigned c = s[i];
        if (c == '\n' || (c >= 0x20 && c < 0x7F)) {
            fputc((int)c, f);
            i++;
            continue;
        }
        size_t len = c >= 0xC2 && c <= 0xDF   ? 2
                     : c >= 0xE0 && c <= 0xEF ? 3
                     : c >= 0xF0 && c <= 0xF4 ? 4
                                              : 0;
        /* The second byte's range rules out overlong forms (an overlong C1 control
         * such as E0 82 9B, CSI, would reach a lenient terminal), surrogates and
         * code points past U+10FFFF. */
        unsigned lo = c == 0xE0 ? 0xA0 : c == 0xF0 ? 0x90 : 0x80;
        unsigned hi = c == 0xED ? 0x9F : c == 0xF4 ? 0x8F : 0xBF;
        size_t k = 1;
        if (len && i + 1 < n && (s[i + 1] < lo || s[i + 1] > hi))
            len = 0;
        while (len && k < len && i + k < n && (s[i + k] & 0xC0) == 0x80)
            k++;
        /* C2 80..C2 9F are the C1 controls (CSI is C2 9B). */
        if (len && k == len && !(c == 0xC2 && s[i + 1] < 0xA0)) {
            fwrite(s + i, 1, len, f);
            i += len;
            continue;
        }
        size_t bad = len && k == len ? len : 1;
        for (size_t j = 0; j < bad; j++)
            fprintf(f, "\\x%02X", s[i + j]);
        i += bad;
    }
}

/* Why memory ran out, for a message that says it did: the limit the process was given
 * (ulimit -v or -d), which a small resident size does not show, or else the machine.
 * Into buf ("" when it does not fit). */
static void memory_cause(char *buf, size_t cap)
{
    struct rlimit as, data;
    int has_as = getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY;
    int has_data = getrlimit(RLIMIT_DATA, &data) == 0 && data.rlim_cur != RLIM_INFINITY;
    if (has_as || has_data) {
        const struct rlimit *l =
            has_as && (!has_data || as.rlim_cur <= data.rlim_cur) ? &as : &data;
        snprintf(buf, cap, ": the process may use at most %.1f MB (ulimit -%c)",
                 (double)l->rlim_cur / (1024.0 * 1024.0), l == &as ? 'v' : 'd');
    } else {
        snprintf(buf, cap, ": the machine's memory is used up");
    }
}

/* A message that memory ran out names the cause before its line end. 0, or -1 when
 * text is no such message or the room is too small. */
static int with_cause(const char *text, size_t n, char *buf, size_t cap)
{
    if (n < 2 || text[n - 1] != '\n' || !strstr(text, "out of memory"))
        return -1;
    char cause[96];
    memory_cause(cause, sizeof cause);
    int m = snprintf(buf, cap, "%.*s%s\n", (int)(n - 1), text, cause);
    return m < 0 || (size_t)m >= cap ? -1 : 0;
}

void cli_err(const char *fmt, ...)
{
    char small[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    FILE *out = capture ? capture : stderr;
    char *text = small;
    if ((size_t)n >= sizeof small) {
        text = malloc((size_t)n + 1);
        if (!text) {
            put_escaped(out, (const unsigned char *)small, sizeof small - 1);
            fputc('\n', out);
            return;
        }
        va_start(ap, fmt);
        vsnprintf(text, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    char told[640];
    if (with_cause(text, (size_t)n, told, sizeof told) == 0)
        put_escaped(out, (const unsigned char *)told, strlen(told));
    else
        put_escaped(out, (const unsigned char *)text, (size_t)n);
    if (out == stderr)
        fflush(stderr);
    if (text != small)
        free(text);
}

int cli_unknown_option(const char *cmd, const char *opt)
{
    cli_err("kifu: %s: unknown option '%s'\nkifu: see 'kifu %s --help'\n", cmd, opt, cmd);
    return EXIT_USAGE;
}
