/* normalize.c: not written yet; stands in so the library links. */
#include "kifu_private.h"


int kifu_normalize(kifu_record *r, unsigned flags, kifu_error *err)
{
    (void)r; (void)flags;
    return kifu__error(err, KIFU_ERR_UNSUPPORTED, 0, 0, 0, NULL, NULL, "the normalizer is not implemented yet");
}
