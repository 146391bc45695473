/* formats.c: the format table (kifu_format_info) as the lists help texts show. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

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
                len += (size_t)snprintf(buf + len, cap - len, "%s.%.*s", len ? " " : "",
                                        (int)k, e);
                e += k + (e[k] == ' ');
            }
        }
        if (len >= cap)
            break;
    }
}
