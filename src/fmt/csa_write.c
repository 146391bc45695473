/* csa_write.c: not written yet; stands in so the library links. */
#include "kifu_private.h"
#include "fmt/fmt.h"

int kifu__write_csa(const kifu_record *r, const kifu_write_options *opt, kifu__strbuf *out, kifu_error *err)
{
    (void)r; (void)opt; (void)out;
    return kifu__error(err, KIFU_ERR_UNSUPPORTED, 0, 0, 0, NULL, NULL, "the CSA writer is not implemented yet");
}
