/* index_taglist.c: a game's tags as one string, the form both stores hand them over in
 * where a row carries them as a field (the players' rows of either store; the games and
 * search rows of ClickHouse, whose arrays its query joins so): an entry per tag, each
 * the side digit (0 sente, 1 gote, 2 the game's), the family digit (kifu_tag_family)
 * and the name, entries separated by '\n' (no tag name holds one). Read back by
 * kifu__tag_list_next, and written as the JSON array kifu_index_hit.tags has. */
#include <string.h>

#include "index/index_private.h"
#include "kifu_private.h"

const char *kifu__tag_list_next(const char *p, kifu__tag_item *it)
{
    while (p && *p) {
        size_t len = strcspn(p, "\n");
        const char *next = p + len + (p[len] == '\n');
        /* A well-formed entry: two digits and a name; anything else is passed over. */
        if (len > 2 && p[0] >= '0' && p[0] <= '2' && p[1] >= '0' && p[1] <= '2') {
            it->side = p[0] - '0', it->family = p[1] - '0';
            it->name = p + 2, it->len = len - 2;
            return next;
        }
        p = next;
    }
    return NULL;
}

void kifu__tag_list_json(kifu__strbuf *b, const char *list)
{
    static const char *const sides[3] = {"sente", "gote", "game"};
    kifu__tag_item it;
    kifu__sb_putc(b, '[');
    int n = 0;
    char name[256];
    for (const char *p = list; (p = kifu__tag_list_next(p, &it)) != NULL; n++) {
        size_t len = it.len < sizeof name ? it.len : sizeof name - 1;
        memcpy(name, it.name, len);
        name[len] = 0;
        kifu__sb_puts(b, n ? ",{\"name\":" : "{\"name\":");
        kifu__sb_json_string(b, name);
        kifu__sb_printf(b, ",\"family\":\"%s\",\"side\":\"%s\"}",
                        kifu_tag_family_name(it.family), sides[it.side]);
    }
    kifu__sb_putc(b, ']');
}
