/* sfen_read.c: not written yet; stands in so the library links. */
#include "kifu_private.h"
#include "fmt/fmt.h"

int kifu__read_sfen(const char *text, size_t len, const kifu_read_options *opt, kifu__records *out, kifu_error *err)
{
    (void)text; (void)len; (void)opt; (void)out;
    return kifu__error(err, KIFU_ERR_UNSUPPORTED, 0, 0, 0, NULL, NULL, "the SFEN reader is not implemented yet");
}
int kifu__read_sfenlist(const char *text, size_t len, const kifu_read_options *opt, kifu__records *out, kifu_error *err)
{
    (void)text; (void)len; (void)opt; (void)out;
    return kifu__error(err, KIFU_ERR_UNSUPPORTED, 0, 0, 0, NULL, NULL, "the sfenlist reader is not implemented yet");
}
