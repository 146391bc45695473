/* fuzz_ki2.c: the KI2 reader on any bytes, raw and normalized (which resolves every
 * source square with the engine); what reads raw is written as KI2 and read again. */
#include <stdint.h>
#include <stdlib.h>

#include "kifu.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    kifu_read_options o = {0};
    o.format = KIFU_FMT_KI2;
    o.flags = KIFU_READ_NO_NORMALIZE;
    kifu_record *r = kifu_read(data, size, &o, NULL);
    if (r) {
        kifu_write_options w = {0};
        w.format = KIFU_FMT_KI2U;
        size_t len = 0;
        char *s = kifu_write(r, &w, &len, NULL);
        if (s) {
            o.format = KIFU_FMT_KI2U;
            kifu_record_free(kifu_read(s, len, &o, NULL));
            kifu_free(s);
        }
        kifu_record_free(r);
    }
    o.format = KIFU_FMT_KI2;
    o.flags = 0;
    r = kifu_read(data, size, &o, NULL);
    if (r) {
        kifu_write_options w = {0};
        w.format = KIFU_FMT_KI2;
        kifu_free(kifu_write(r, &w, NULL, NULL));
        kifu_record_free(r);
    }
    return 0;
}
