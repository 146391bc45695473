/* fuzz_kif.c: the KIF reader on any bytes (decoded by the encoding boundary), without and
 * with normalization; a record read raw is written as KIF and must read back, and its
 * tree must come back with the same shape. */
#include <stdint.h>
#include <stdlib.h>

#include "kifu.h"

/* Number of nodes reachable from n, without recursion per move. */
static size_t count_nodes(const kifu_node *n)
{
    size_t count = 0;
    const kifu_node *stack[64];
    size_t top = 0;
    stack[top++] = n;
    while (top) {
        const kifu_node *c = stack[--top];
        for (; c; c = kifu_node_next(c)) {
            count++;
            for (size_t i = 1; i < kifu_node_child_count(c); i++)
                if (top < 64)
                    stack[top++] = kifu_node_child(c, i);
        }
    }
    return count;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    kifu_read_options o = {0};
    o.format = KIFU_FMT_KIF;
    o.flags = KIFU_READ_NO_NORMALIZE;
    kifu_error err;
    kifu_error_clear(&err);
    kifu_record *r = kifu_read(data, size, &o, &err);
    if (r) {
        kifu_write_options w = {0};
        w.format = KIFU_FMT_KIFU;
        size_t len = 0;
        char *s = kifu_write(r, &w, &len, NULL);
        if (s) {
            o.format = KIFU_FMT_KIFU;
            kifu_record *back = kifu_read(s, len, &o, NULL);
            if (back &&
                count_nodes(kifu_record_root(back)) != count_nodes(kifu_record_root(r)))
                abort(); /* the writer lost or invented moves */
            kifu_record_free(back);
            kifu_free(s);
        }
        kifu_record_free(r);
    }
    o.format = KIFU_FMT_KIF;
    o.flags = KIFU_READ_LENIENT;
    r = kifu_read(data, size, &o, NULL);
    kifu_record_free(r);
    return 0;
}
