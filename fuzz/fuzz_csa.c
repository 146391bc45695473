/* fuzz_csa.c: libFuzzer target for the CSA reader. The first byte picks the options (read
 * with or without normalization, lenient, the encoding); every record read is then
 * written as CSA V2.2, CSA V3.0 and JKF, and the CSA V2.2 text is read back. */
#include <stddef.h>
#include <stdint.h>

#include "kifu.h"

static void ignore(void *ctx, const char *msg)
{
    (void)ctx;
    (void)msg;
}

static void write_all(const kifu_record *r)
{
    static const kifu_write_options opts[] = {
        {KIFU_FMT_CSA, KIFU_ENC_UTF8, 0, ignore, NULL},
        {KIFU_FMT_CSA, KIFU_ENC_UTF8, KIFU_WRITE_CSA_V3, ignore, NULL},
        {KIFU_FMT_JKF, KIFU_ENC_UTF8, 0, ignore, NULL},
    };
    for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++) {
        size_t len;
        char *s = kifu_write(r, &opts[i], &len, NULL);
        if (s && i == 0) {
            kifu_read_options ro = {KIFU_FMT_CSA, KIFU_ENC_UTF8, KIFU_READ_NO_NORMALIZE,
                                    NULL,         NULL,          NULL};
            kifu_record_free(kifu_read(s, len, &ro, NULL));
        }
        kifu_free(s);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    unsigned sel = data[0];
    static const unsigned flags[] = {KIFU_READ_NO_NORMALIZE, 0, KIFU_READ_LENIENT,
                                     KIFU_READ_NO_NORMALIZE};
    static const int encs[] = {KIFU_ENC_UTF8, KIFU_ENC_AUTO, KIFU_ENC_CP932,
                               KIFU_ENC_EUCJP};
    kifu_read_options o = {
        KIFU_FMT_CSA, encs[(sel >> 2) & 3], flags[sel & 3], "fuzz.csa", NULL, NULL};
    kifu_record **all = NULL;
    size_t n = 0;
    kifu_error err;
    kifu_error_clear(&err);
    if (kifu_read_all(data + 1, size - 1, &o, &all, &n, &err) == 0) {
        for (size_t i = 0; i < n; i++) {
            write_all(all[i]);
            kifu_record_free(all[i]);
        }
        kifu_free(all);
    }
    return 0;
}
