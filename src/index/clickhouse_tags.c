/* clickhouse_tags.c: the games' tags on ClickHouse (schema 3). Each game's tags (the
 * 戦法, 囲い and 備考 the tagger recognised as it was added, index_build.c, as for the
 * SQLite index's game_tags) are three arrays of its games row, entry by entry: tags (the
 * names), tag_sides (0 sente, 1 gote, 2 the game's) and tag_families (kifu_tag_family),
 * sorted by side, family and name: the order the SQLite index answers in
 * (KIFU__TAGS_COLUMN). The --tag filters are conditions on them (has, arrayExists), and
 * the rows read them back as a tag list (index_taglist.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "index/clickhouse.h"
#include "index/index_private.h"
#include "kifu_private.h"
#include "tags/tags.h"

/* One tag of a game being written, for sorting. */
typedef struct tag_ref {
    const char *name;
    int side, family;
} tag_ref;

static int by_side_family_name(const void *x, const void *y)
{
    const tag_ref *a = x, *b = y;
    if (a->side != b->side)
        return a->side - b->side;
    if (a->family != b->family)
        return a->family - b->family;
    return strcmp(a->name, b->name);
}

/* s as a string of an array in a TabSeparated field: quoted, with \ ' and the TSV's
 * control characters escaped. */
static void array_string(kifu__strbuf *b, const char *s)
{
    kifu__sb_putc(b, '\'');
    for (; *s; s++) {
        if (*s == '\\' || *s == '\'')
            kifu__sb_putc(b, '\\'), kifu__sb_putc(b, *s);
        else if (*s == '\t')
            kifu__sb_puts(b, "\\t");
        else if (*s == '\n')
            kifu__sb_puts(b, "\\n");
        else
            kifu__sb_putc(b, *s);
    }
    kifu__sb_putc(b, '\'');
}

int kifu__ch_tags_row(kifu__strbuf *b, const kifu_index *ix, const kifu__igame *g)
{
    tag_ref *v = NULL;
    size_t n = 0;
    if (g->ntags && ix->tagger) {
        if (!(v = kifu__calloc(g->ntags, sizeof *v)))
            return -1;
        for (uint32_t j = 0; j < g->ntags; j++) {
            const kifu__igtag *t = &ix->gtags[g->tag0 + j];
            v[n++] = (tag_ref){ix->tagger->names[t->name], t->side,
                               ix->tagger->family[t->name]};
        }
        qsort(v, n, sizeof *v, by_side_family_name);
    }
    kifu__sb_puts(b, "\t[");
    for (size_t i = 0; i < n; i++) {
        if (i)
            kifu__sb_putc(b, ',');
        array_string(b, v[i].name);
    }
    kifu__sb_puts(b, "]\t[");
    for (size_t i = 0; i < n; i++)
        kifu__sb_printf(b, i ? ",%d" : "%d", v[i].side);
    kifu__sb_puts(b, "]\t[");
    for (size_t i = 0; i < n; i++)
        kifu__sb_printf(b, i ? ",%d" : "%d", v[i].family);
    kifu__sb_putc(b, ']');
    kifu__free(v);
    return 0;
}

/* s as an SQL string literal. */
static void sql_string(kifu__strbuf *b, const char *s)
{
    kifu__sb_putc(b, '\'');
    for (; *s; s++) {
        if (*s == '\\' || *s == '\'')
            kifu__sb_putc(b, '\\');
        kifu__sb_putc(b, *s);
    }
    kifu__sb_putc(b, '\'');
}

void kifu__ch_tag_where(kifu__strbuf *b, const kifu_explore_options *o, int flipped)
{
    for (size_t i = 0; o && i < o->ntags; i++) {
        int side;
        const char *name = kifu_tag_spec(o->tags[i], &side);
        if (flipped && side >= 0)
            side = !side; /* the flipped position's sente was the stored gote */
        if (side < 0) {
            kifu__sb_puts(b, " AND has(tags, ");
            sql_string(b, name);
            kifu__sb_putc(b, ')');
            continue;
        }
        /* One side's, or the game's: any side but the other. */
        kifu__sb_puts(b, " AND arrayExists((n, s) -> n = ");
        sql_string(b, name);
        kifu__sb_printf(b, " AND s != %d, tags, tag_sides)", side == KIFU_BLACK);
    }
}

int kifu__ch_tags_check(kifu__ch *ch, kifu_error *err)
{
    char sql[512];
    snprintf(sql, sizeof sql,
             "SELECT uniqExactIf(table, name = 'id'), uniqExactIf(table, name = 'tags') "
             "FROM system.columns WHERE database = '%s' AND table IN ('%s_games', "
             "'%s_games_local') FORMAT TabSeparated",
             ch->database, ch->table, ch->table);
    kifu__strbuf out;
    kifu__sb_init(&out);
    int rc = kifu__ch_sql(ch, &ch->servers[0], sql, &out, err);
    long long games = 0, tagged = 0;
    if (!rc && out.data)
        sscanf(out.data, "%lld\t%lld", &games, &tagged);
    kifu__sb_free(&out);
    if (rc || games == tagged)
        return rc;
    return kifu__error(err, KIFU_ERR_UNSUPPORTED, 0, 0, 0, "schema 3", "schema 2",
                       "the kifu index %s.%s_* on %.200s was made by an older kifu "
                       "(schema 2: no tags in %s_games): drop its tables (kifu index "
                       "schema --clickhouse names them) and index the records again",
                       ch->database, ch->table, ch->servers[0].url, ch->table);
}
