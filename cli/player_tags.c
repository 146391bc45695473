/* player_tags.c: a player's tags (kifu_index_player.tags) as JSON, for `kifu index players
 * --json` and serve's player page alike. */
#include <stdio.h>

#include "cli.h"

const char *cli_tag_side_word(int side)
{
    return side == KIFU_BLACK ? "sente" : "gote";
}

void cli_player_tags_json(FILE *f, const kifu_index_player *p)
{
    fputc('[', f);
    for (size_t i = 0; i < p->ntags; i++) {
        const kifu_index_player_tag *t = &p->tags[i];
        fprintf(f, "%s{\"name\":", i ? "," : "");
        cli_json_fstring(f, t->name);
        fprintf(f,
                ",\"family\":\"%s\",\"side\":\"%s\",\"games\":%lld,\"wins\":%lld,"
                "\"losses\":%lld,\"draws\":%lld}",
                kifu_tag_family_name(t->family), cli_tag_side_word(t->side), t->games,
                t->wins, t->losses, t->draws);
    }
    fputc(']', f);
}
