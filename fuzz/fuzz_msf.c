/* fuzz_msf.c: libFuzzer target for the MSF (Xelto record) reader. Every input is read
 * twice, with and without the transition checks; a record read is written as canonical
 * MSF, which must read back (with the same checks) and write the same bytes, and as JSON Lines; every node is
 * found again by its path and drawn. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kifu.h"

static void exercise(const kifu_msf *m, const kifu_msf_read_options *o)
{
    kifu_error err = {0};
    size_t len = 0, len2 = 0;
    char *text = kifu_msf_write(m, &len, &err);
    if (text) {
        kifu_msf *back = kifu_msf_read(text, len, o, &err);
        if (!back) {
            if (err.code != KIFU_ERR_NOMEM)
                __builtin_trap(); /* what we write must read back */
        } else {
            char *again = kifu_msf_write(back, &len2, NULL);
            if (again && (len2 != len || memcmp(again, text, len) != 0))
                __builtin_trap(); /* canonical MSF is a fixed point */
            kifu_free(again);
            kifu_msf_free(back);
        }
    }
    kifu_free(text);
    kifu_free(kifu_msf_write_states(m, NULL, NULL));
    /* the main line's nodes: found by their paths, drawn both ways */
    const kifu_msf_line *l = kifu_msf_main_line(m);
    for (size_t i = 0; i <= kifu_msf_line_count(l) && i < 64; i++) {
        const kifu_msf_node *n = i ? kifu_msf_line_node(l, i - 1) : kifu_msf_root(m);
        char path[512];
        if (kifu_msf_find(m, kifu_msf_node_path(n, path, sizeof path), NULL) != n)
            __builtin_trap();
        kifu_diagram_options d = {KIFU_DIAGRAM_TERM, KIFU_DIAGRAM_FLIP, 0, NULL, {0}};
        kifu_free(kifu_msf_diagram(n, &d, NULL));
        d.format = KIFU_DIAGRAM_SVG;
        kifu_free(kifu_msf_diagram(n, &d, NULL));
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    for (unsigned flags = 0; flags <= KIFU_MSF_NO_TRANSITIONS; flags++) {
        kifu_msf_read_options o = {flags, "fuzz", NULL, NULL};
        kifu_error err = {0};
        kifu_msf *m = kifu_msf_read(data, size, &o, &err);
        if (m) {
            exercise(m, &o);
            kifu_msf_free(m);
        } else if (!err.code) {
            __builtin_trap(); /* a failed read says why */
        }
    }
    return 0;
}
