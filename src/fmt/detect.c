/* detect.c: which format a file is, by its name or by its content. */
#include <string.h>
#include <strings.h>

#include "core/encoding.h"
#include "kifu_private.h"

static const struct {
    const char *name;
    int format;
} names[] = {
    {"jkf", KIFU_FMT_JKF},           {"json", KIFU_FMT_JKF},  {"csa", KIFU_FMT_CSA},
    {"kif", KIFU_FMT_KIF},           {"kifu", KIFU_FMT_KIFU}, {"ki2", KIFU_FMT_KI2},
    {"ki2u", KIFU_FMT_KI2U},         {"sfen", KIFU_FMT_SFEN}, {"usi", KIFU_FMT_SFEN},
    {"sfenlist", KIFU_FMT_SFENLIST},
};

const char *kifu_format_name(int format)
{
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].format == format)
            return names[i].name;
    return NULL;
}

int kifu_format_from_name(const char *name)
{
    if (!name)
        return KIFU_FMT_AUTO;
    if (*name == '.')
        name++;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcasecmp(names[i].name, name) == 0)
            return names[i].format;
    return KIFU_FMT_AUTO;
}

int kifu_format_from_path(const char *path)
{
    if (!path)
        return KIFU_FMT_AUTO;
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(slash ? slash : path, '.');
    return dot ? kifu_format_from_name(dot + 1) : KIFU_FMT_AUTO;
}

static int starts(const char *s, const char *end, const char *prefix)
{
    size_t n = strlen(prefix);
    return (size_t)(end - s) >= n && memcmp(s, prefix, n) == 0;
}

/* Looks at the lines of the text: the first that is not blank or a comment decides. */
int kifu_format_detect(const void *data, size_t len)
{
    const char *s = data, *end = s + len;
    s += kifu__bom_len(s, len);
    int kif_like = 0, sfen_lines = 0;
    while (s < end) {
        const char *eol = memchr(s, '\n', (size_t)(end - s));
        if (!eol)
            eol = end;
        const char *p = s;
        while (p < eol && (*p == ' ' || *p == '\t' || *p == '\r'))
            p++;
        if (p < eol) {
            if (*p == '{' || *p == '[')
                return KIFU_FMT_JKF;
            if (starts(p, eol, "position ") || starts(p, eol, "startpos") ||
                starts(p, eol, "sfen "))
                return KIFU_FMT_SFEN;
            if (*p == 'V' || *p == 'N' || *p == '$' ||
                (*p == 'P' && p + 1 < eol &&
                 (p[1] == 'I' || p[1] == '+' || p[1] == '-' ||
                  (p[1] >= '1' && p[1] <= '9'))) ||
                ((*p == '+' || *p == '-') && eol - p >= 7 && p[1] >= '0' && p[1] <= '9'))
                return KIFU_FMT_CSA;
            if (*p == '\'' && !kif_like)
                return KIFU_FMT_CSA;
            /* A SFEN line: nine ranks separated by '/', then a side letter. */
            const char *sl = memchr(p, '/', (size_t)(eol - p));
            const char *sp = memchr(p, ' ', (size_t)(eol - p));
            if (sl && sp && sl < sp && (unsigned char)*p < 0x80) {
                int slashes = 0;
                for (const char *q = p; q < sp; q++)
                    slashes += *q == '/';
                if (slashes == 8) {
                    sfen_lines++;
                    s = eol + 1;
                    continue;
                }
            }
            if (*p == '#' || *p == '*' || *p == '&') {
                kif_like = 1;
            } else if ((unsigned char)*p >= 0x80) {
                /* KIF move lines start with a number; KI2 lines with a ▲/△ mark. */
                kif_like = 1;
                if (starts(p, eol, "▲") || starts(p, eol, "△") || starts(p, eol, "☗") ||
                    starts(p, eol, "☖") || starts(p, eol, "▽"))
                    return KIFU_FMT_KI2U;
                if (starts(p, eol, "手数----"))
                    return KIFU_FMT_KIFU;
            } else if (*p >= '0' && *p <= '9') {
                return KIFU_FMT_KIFU;
            }
        }
        s = eol + 1;
    }
    if (sfen_lines == 1)
        return KIFU_FMT_SFEN;
    if (sfen_lines > 1)
        return KIFU_FMT_SFENLIST;
    return kif_like ? KIFU_FMT_KIFU : KIFU_FMT_AUTO;
}
