/* ki2_read.c: not written yet; stands in so the library links. */
#include "kifu_private.h"
#include "fmt/fmt.h"

int kifu__read_ki2(const char *text, size_t len, const kifu_read_options *opt, kifu__records *out, kifu_error *err)
{
    (void)text; (void)len; (void)opt; (void)out;
    return kifu__error(err, KIFU_ERR_UNSUPPORTED, 0, 0, 0, NULL, NULL, "the KI2 reader is not implemented yet");
}
