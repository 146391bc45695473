/* distance.c: how far apart two short texts are, in characters: the nearest names
 * offered for a player (cmd_index_players.c) or a tag (tag_filter.c) no game has. */
#include <stddef.h>

#include "cli.h"

/* Characters (UTF-8 sequences) of s into v, at most cap; the count. */
size_t cli_chars(const char *s, unsigned *v, size_t cap)
{
    size_t n = 0;
    const unsigned char *p = (const unsigned char *)s;
    while (*p && n < cap) {
        unsigned c = *p++;
        while ((*p & 0xc0) == 0x80)
            c = c << 8 | *p++;
        v[n++] = c;
    }
    return n;
}

/* Edit distance over characters (Levenshtein), keys being short names. */
size_t cli_distance(const char *a, const char *b)
{
    unsigned x[64], y[64];
    size_t n = cli_chars(a, x, 64), m = cli_chars(b, y, 64), row[65];
    for (size_t j = 0; j <= m; j++)
        row[j] = j;
    for (size_t i = 1; i <= n; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= m; j++) {
            size_t up = row[j], best = diag + (x[i - 1] != y[j - 1]);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best, diag = up;
        }
    }
    return row[m];
}
