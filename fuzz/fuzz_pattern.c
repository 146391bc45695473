/* fuzz_pattern.c: libFuzzer target for the board-pattern parsers (search/pattern.h). The
 * first byte picks the form (bit 0: grid or regular expression) and whether to match both
 * sides (bit 1); a pattern that compiles is matched against a few positions. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kifu.h"
#include "search/pattern.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    kifu_error err = {0};
    kifu__pattern *p;
    if (data[0] & 1) {
        p = kifu__pattern_grid((const char *)data + 1, size - 1, &err);
    } else {
        char *re = malloc(size);
        if (!re)
            return 0;
        memcpy(re, data + 1, size - 1);
        re[size - 1] = 0;
        p = kifu__pattern_regex(re, &err);
        free(re);
    }
    if (!p)
        return 0;
    kifu__pattern_both_sides(p, (data[0] & 2) != 0);
    static const char *const sfens[] = {
        "startpos", "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        "8k/9/7GP/9/9/9/9/9/K8 b G2r2b2g4s4n4l16p 1"};
    kifu_position *pos = kifu_position_new();
    for (size_t i = 0; pos && i < sizeof sfens / sizeof sfens[0]; i++) {
        kifu_board b;
        if (kifu_position_set_sfen(pos, sfens[i], NULL))
            continue;
        kifu_position_board(pos, &b);
        kifu__pattern_match(p, &b);
    }
    kifu_position_free(pos);
    kifu__pattern_free(p);
    return 0;
}
