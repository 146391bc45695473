/* msf_sniff.c: the format table's bid for MSF, a Xelto record (src/msf/ reads it). A JSON
 * object whose first key is one of MSF's own top-level keys outbids JKF's bid on any
 * JSON object. */
#include <string.h>

#include "fmt/fmt.h"
#include "kifu_private.h"

int kifu__sniff_msf(const char *text, size_t len, size_t *at)
{
    static const char *const keys[] = {"\"aptex\"", "\"kit\"", "\"fixt\"", "\"seslax\""};
    const char *s = text, *eol, *p = kifu__next_line(&s, text + len, &eol);
    if (!p || *p != '{')
        return 0;
    const char *q = p + 1, *end = text + len;
    while (q < end && (*q == ' ' || *q == '\t' || *q == '\r' || *q == '\n'))
        q++;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        size_t n = strlen(keys[i]);
        if ((size_t)(end - q) >= n && memcmp(q, keys[i], n) == 0) {
            *at = (size_t)(p - text);
            return 20;
        }
    }
    return 0;
}
