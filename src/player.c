/* player.c: not written yet; stands in so the library links. */
#include "kifu_private.h"

kifu_player *kifu_player_new(kifu_record *r, kifu_error *err)
{
    (void)r;
    kifu__error(err, KIFU_ERR_UNSUPPORTED, 0, 0, 0, NULL, NULL, "the player is not implemented yet");
    return NULL;
}

void kifu_player_free(kifu_player *pl) { (void)pl; }
