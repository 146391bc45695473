/* textout.c: record text on stdout (or a stream): names for the terminal and strings in JSON output. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

void cli_put_name(const char *s)
{
    cli_put_fname(stdout, s);
}

void cli_put_fname(FILE *f, const char *s)
{
    for (; *s; s++)
        putc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, f);
}

void cli_json_string(const char *s)
{
    cli_json_fstring(stdout, s);
}

void cli_json_fstring(FILE *f, const char *s)
{
    if (!s) {
        fputs("null", f);
        return;
    }
    /* Runs of bytes that need no escape go out in one write: a character at a time
     * (each putc taking the stream's lock) was a third of a served explorer answer.
     * The bytes that end a run by a table (NUL and the control bytes 0x01-0x1f, quote,
     * backslash, DEL): five tests a byte were a sixth of the explorer's JSON. */
    static const unsigned char stop[256] = {
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,         1,          1,         1,
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, ['"'] = 1, ['\\'] = 1, [0x7f] = 1};
    putc('"', f);
    while (*s) {
        size_t n = 0;
        while (!stop[(unsigned char)s[n]])
            n++;
        fwrite(s, 1, n, f);
        s += n;
        if (!*s)
            break;
        unsigned char c = (unsigned char)*s++;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else
            fprintf(f, "\\u%04x", c);
    }
    putc('"', f);
}

void cli_hit_json(FILE *f, const char *file, size_t game, int ply, const char *path,
                  const kifu_board *b, const char *next, const char *usi)
{
    char bd[82], cb[40], cw[40];
    kifu_board_to_bd(b, bd, cb, cw);
    kifu_position *p = kifu_position_new();
    char *sfen = NULL;
    if (p && kifu_position_set_board(p, b, NULL) == 0)
        sfen = kifu_position_sfen(p, ply + 1);
    fprintf(f, "{\"file\":");
    cli_json_fstring(f, file);
    fprintf(f, ",\"game\":%zu,\"ply\":%d,\"path\":\"%s\",\"sfen\":", game, ply, path);
    cli_json_fstring(f, sfen ? sfen : "");
    fprintf(f, ",\"bd\":\"%s\",\"cb\":\"%s\",\"cw\":\"%s\",\"next\":", bd, cb, cw);
    cli_json_fstring(f, next);
    fprintf(f, ",\"usi\":");
    cli_json_fstring(f, next ? usi : NULL);
    kifu_free(sfen);
    kifu_position_free(p);
}
