/* formats.c: the format table (kifu_format_info) as the lists help texts show, and the
 * encodings' names as options take them. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

/* Is .ext (its k bytes) a word of the list so far? Two formats share .json (JKF and
 * posjson, told apart by content): it is listed once. */
static int listed(const char *list, const char *ext, size_t k)
{
    for (const char *p = list; (p = strchr(p, '.')) != NULL; p++)
        if (strncmp(p + 1, ext, k) == 0 && (p[1 + k] == ' ' || p[1 + k] == 0))
            return 1;
    return 0;
}

void cli_format_list(char *buf, size_t cap, int extensions)
{
    size_t len = 0;
    buf[0] = 0;
    for (size_t i = 0; i < kifu_format_count(); i++) {
        const kifu_format_info *f = kifu_format_info_at(i);
        if (!extensions) {
            len +=
                (size_t)snprintf(buf + len, cap - len, "%s%s", len ? " " : "", f->name);
        } else {
            for (const char *e = f->extensions; *e && len < cap;) {
                size_t k = strcspn(e, " ");
                if (!listed(buf, e, k))
                    len += (size_t)snprintf(buf + len, cap - len, "%s.%.*s",
                                            len ? " " : "", (int)k, e);
                e += k + (e[k] == ' ');
            }
        }
        if (len >= cap)
            break;
    }
}

int cli_parse_encoding(const char *s, int *out)
{
    int e = kifu_encoding_from_name(s);
    if (e < 0) {
        cli_err("kifu: unknown encoding '%s' (%s)\n", s, kifu_encoding_names());
        return -1;
    }
    *out = e;
    return 0;
}
