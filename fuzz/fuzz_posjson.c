/* fuzz_posjson.c: libFuzzer target for the position-list JSON reader and writer. Every
 * set of records read is written back and read again, which must give the same text: what
 * kifu writes, kifu reads. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kifu.h"

static char *write_all(kifu_record **rs, size_t n, size_t *len)
{
    kifu_write_options wo = {KIFU_FMT_POSJSON, KIFU_ENC_UTF8, 0, NULL, NULL};
    kifu_error err = {0};
    return kifu_write_all((const kifu_record *const *)rs, n, &wo, len, &err);
}

static void free_all(kifu_record **rs, size_t n)
{
    for (size_t i = 0; i < n; i++)
        kifu_record_free(rs[i]);
    kifu_free(rs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    kifu_read_options ro = {KIFU_FMT_POSJSON, KIFU_ENC_AUTO, 0, "fuzz", NULL, NULL};
    kifu_error err = {0};
    kifu_record **rs = NULL;
    size_t n = 0;
    if (kifu_read_all(data, size, &ro, &rs, &n, &err))
        return 0;
    size_t len = 0, len2 = 0;
    char *text = write_all(rs, n, &len);
    if (text) {
        kifu_record **back = NULL;
        size_t m = 0;
        if (kifu_read_all(text, len, &ro, &back, &m, &err)) {
            if (err.code != KIFU_ERR_NOMEM)
                __builtin_trap(); /* what we write must read back */
        } else {
            char *again = write_all(back, m, &len2);
            if (again && (len2 != len || memcmp(again, text, len) != 0))
                __builtin_trap(); /* and give the same positions */
            kifu_free(again);
            free_all(back, m);
        }
    }
    kifu_free(text);
    free_all(rs, n);
    return 0;
}
