/* api.c: not written yet; stands in so the library links. */
#include <stdlib.h>

#include "kifu_private.h"
#include "rules/engine.h"

kifu_position *kifu_position_new(void) { return NULL; }
void kifu_position_free(kifu_position *p) { (void)p; }
int kifu_position_set_sfen(kifu_position *p, const char *text, kifu_error *err)
{
    (void)p;
    (void)text;
    return kifu__error(err, KIFU_ERR_UNSUPPORTED, 0, 0, 0, NULL, NULL, "no engine yet");
}
uint64_t kifu_perft(kifu_position *p, int depth)
{
    (void)p;
    (void)depth;
    return 0;
}
