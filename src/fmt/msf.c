/* msf.c: the format table's entries for MSF, a Xelto record (kifu_msf_read in src/msf/
 * reads it into its own model). Its bid: a JSON object whose first key is one of MSF's
 * own top-level keys, which no other format's first line can be (the row is sure of it,
 * so the content wins over any file name), outbidding JKF's bid on any JSON object. Its
 * reader entry: kifu_read refuses another game's record, saying which it is. */
#include <string.h>

#include "fmt/fmt.h"
#include "kifu_private.h"

int kifu__read_msf(KIFU__READER_PARAMS)
{
    (void)text;
    (void)len;
    (void)opt;
    (void)out;
    /* The words of the table's row, written here: the table calls this reader, so
     * asking the table back would make the two files call each other. */
    return kifu__error(err, KIFU_ERR_UNSUPPORTED, 0, 0, 0, "a shogi record", "msf",
                       "this is Mino Seslax Format 0.2 (Xelto records, not shogi), a "
                       "record of another game than shogi");
}

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
