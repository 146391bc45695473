/* tag_filter.c: the --tag filters' names checked against the tags kifu knows (the
 * shipped definitions, the names an index stores), so that a misspelt name is told with
 * the nearest names instead of matching no game; and a game's tags as JSON. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

/* The names nearest `want` among the tagger's (at most 5, by distance), into buf. */
static void nearest(const kifu_tagger *t, const char *want, char *buf, size_t cap)
{
    struct {
        const char *name;
        size_t d;
    } best[5];
    size_t n = 0, len = cli_distance(want, "");
    size_t limit = len / 2 > 1 ? len / 2 : 1;
    for (size_t i = 0; i < kifu_tags_count(t); i++) {
        const char *name;
        int family;
        kifu_tags_at(t, i, &name, &family);
        size_t d = cli_distance(want, name);
        if (strstr(name, want) || strstr(want, name))
            d = d < 1 ? d : 1; /* a part of the other: 美濃 for 美濃囲い */
        if (d > limit || (n == 5 && best[4].d <= d))
            continue;
        size_t k = n < 5 ? n++ : 4;
        for (; k > 0 && best[k - 1].d > d; k--)
            best[k] = best[k - 1];
        best[k].name = name, best[k].d = d;
    }
    buf[0] = 0;
    for (size_t i = 0; i < n; i++) {
        size_t at = strlen(buf);
        snprintf(buf + at, cap - at, "%s%s", i ? ", " : "", best[i].name);
    }
}

int cli_tag_unknown(const char *const *specs, size_t n, char *msg, size_t cap)
{
    if (!n)
        return 0;
    kifu_error e = {0};
    kifu_tagger *t = kifu_tags_new(&e);
    if (!t)
        return 0; /* no tagger to check with: the index answers (no games) */
    int unknown = 0;
    for (size_t i = 0; i < n && !unknown; i++) {
        int side;
        const char *name = kifu_tag_spec(specs[i], &side);
        int found = 0;
        for (size_t k = 0; k < kifu_tags_count(t) && !found; k++) {
            const char *have;
            int family;
            kifu_tags_at(t, k, &have, &family);
            found = !strcmp(have, name);
        }
        if (found)
            continue;
        unknown = 1;
        char near[512];
        nearest(t, name, near, sizeof near);
        snprintf(msg, cap, "no tag '%s'%s%s%s (kifu tags --list shows them)", name,
                 near[0] ? "; did you mean " : "", near, near[0] ? "?" : "");
    }
    kifu_tags_free(t);
    return unknown;
}

void cli_tags_json(FILE *f, const kifu_tag *tags, size_t n)
{
    static const char *const side[] = {"sente", "gote", "game"};
    fputc('[', f);
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "%s{\"name\":", i ? "," : "");
        cli_json_fstring(f, tags[i].name);
        fprintf(f, ",\"family\":\"%s\",\"side\":\"%s\",\"ply\":%d}",
                kifu_tag_family_name(tags[i].family),
                side[tags[i].side < 0 ? 2 : tags[i].side], tags[i].ply);
    }
    fputc(']', f);
}
