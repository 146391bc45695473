/* message.c: every message the tool prints on stderr goes through cli_err, which shows
 * control characters as \xNN: file names and record text reach messages, and a file
 * must not be able to retitle the terminal, clear it or fake a line. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

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
