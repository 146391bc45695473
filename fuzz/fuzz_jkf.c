/* fuzz_jkf.c: libFuzzer target for the JKF reader: read raw and normalized (lenient and
 * strict); every record read is written back (pretty and compact) and read again. */
#include <stddef.h>
#include <stdint.h>

#include "kifu.h"

static void write_both(const kifu_record *r)
{
    for (unsigned f = 0; f < 2; f++) {
        kifu_write_options wo = {KIFU_FMT_JKF, KIFU_ENC_UTF8, f ? KIFU_WRITE_PRETTY : 0u,
                                 NULL, NULL};
        kifu_error err = {0};
        size_t len = 0;
        char *out = kifu_write(r, &wo, &len, &err);
        if (out) {
            /* What we write must read back as JKF. */
            kifu_read_options ro = {KIFU_FMT_JKF, KIFU_ENC_UTF8, KIFU_READ_NO_NORMALIZE,
                                    NULL,         NULL,          NULL};
            kifu_error e2 = {0};
            kifu_record *again = kifu_read(out, len, &ro, &e2);
            if (!again && e2.code != KIFU_ERR_NOMEM)
                __builtin_trap();
            kifu_record_free(again);
        }
        kifu_free(out);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const unsigned modes[] = {KIFU_READ_NO_NORMALIZE, 0, KIFU_READ_LENIENT};
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
        kifu_read_options ro = {KIFU_FMT_JKF, KIFU_ENC_AUTO, modes[i],
                                "fuzz.jkf",   NULL,          NULL};
        kifu_error err = {0};
        kifu_record *r = kifu_read(data, size, &ro, &err);
        if (r)
            write_both(r);
        kifu_record_free(r);
    }
    return 0;
}
