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

void cli_out_flush(cli_out *o)
{
    if (o->n)
        fwrite(o->b, 1, o->n, o->f);
    o->n = 0;
}

void cli_out_bytes(cli_out *o, const char *s, size_t n)
{
    if (n > sizeof o->b - o->n) {
        cli_out_flush(o);
        if (n > sizeof o->b) {
            fwrite(s, 1, n, o->f);
            return;
        }
    }
    memcpy(o->b + o->n, s, n);
    o->n += n;
}

void cli_out_str(cli_out *o, const char *s)
{
    cli_out_bytes(o, s, strlen(s));
}

void cli_out_int(cli_out *o, long long v)
{
    char d[24];
    size_t i = sizeof d;
    unsigned long long u = v < 0 ? 0 - (unsigned long long)v : (unsigned long long)v;
    do
        d[--i] = (char)('0' + u % 10);
    while (u /= 10);
    if (v < 0)
        d[--i] = '-';
    cli_out_bytes(o, d + i, sizeof d - i);
}

void cli_out_json(cli_out *o, const char *s)
{
    if (!s) {
        cli_out_bytes(o, "null", 4);
        return;
    }
    /* Runs of bytes that need no escape go out in one copy. The bytes that end a run by
     * a table (NUL and the control bytes 0x01-0x1f, quote, backslash, DEL): five tests a
     * byte were a sixth of the explorer's JSON. */
    static const unsigned char stop[256] = {
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,         1,          1,         1,
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, ['"'] = 1, ['\\'] = 1, [0x7f] = 1};
    cli_out_bytes(o, "\"", 1);
    while (*s) {
        size_t n = 0;
        while (!stop[(unsigned char)s[n]])
            n++;
        cli_out_bytes(o, s, n);
        s += n;
        if (!*s)
            break;
        unsigned char c = (unsigned char)*s++;
        char e[6] = {'\\', (char)c};
        if (c != '"' && c != '\\') {
            static const char hex[] = "0123456789abcdef";
            e[1] = 'u', e[2] = '0', e[3] = '0', e[4] = hex[c >> 4], e[5] = hex[c & 15];
        }
        cli_out_bytes(o, e, c == '"' || c == '\\' ? 2 : 6);
    }
    cli_out_bytes(o, "\"", 1);
}

void cli_json_fstring(FILE *f, const char *s)
{
    cli_out o;
    o.f = f, o.n = 0;
    cli_out_json(&o, s);
    cli_out_flush(&o);
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
