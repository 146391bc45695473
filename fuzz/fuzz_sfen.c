/* fuzz_sfen.c: libFuzzer target for the SFEN/USI reader. Any input must be either rejected
 * with an error or give a position whose legal moves play and undo cleanly and whose SFEN
 * reads back to the same position. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kifu.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = 0;
    kifu_position *p = kifu_position_new();
    kifu_error err;
    kifu_error_clear(&err);
    if (p && kifu_position_set_sfen(p, text, &err) == 0) {
        uint64_t h = kifu_position_hash(p);
        char *sfen = kifu_position_sfen(p, 1);
        kifu_position *q = kifu_position_new();
        if (sfen && q &&
            (kifu_position_set_sfen(q, sfen, NULL) != 0 || kifu_position_hash(q) != h))
            abort(); /* what we write must read back as the same position */
        static kifu_move moves[600];
        size_t n = kifu_position_legal_moves(p, moves, 600);
        if (n > 600)
            abort();
        for (size_t i = 0; i < n; i++) {
            kifu_move m = moves[i];
            char usi[8];
            kifu_move_usi(&m, usi);
            if (!kifu_position_is_legal(p, &m, NULL) ||
                kifu_position_play(p, &m, NULL) != 0)
                abort(); /* a generated move must be legal */
            kifu_position_in_check(p);
            kifu_position_repetition(p);
            kifu_position_undo(p);
            if (kifu_position_hash(p) != h)
                abort();
            kifu_move u;
            if (kifu_position_parse_usi(p, usi, &u, NULL) != 0)
                abort();
        }
        kifu_position_is_mate(p);
        kifu_position_can_declare(p);
        if (n < 60)
            kifu_perft(p, 2);
        kifu_free(sfen);
        kifu_position_free(q);
    } else if (err.code == 0 || err.message[0] == 0) {
        abort(); /* a failure always says why */
    }
    kifu_position_free(p);
    free(text);
    return 0;
}
