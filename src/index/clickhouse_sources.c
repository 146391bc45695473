/* clickhouse_sources.c: the files an index on ClickHouse has read, as the SQLite index's
 * sources table keeps them: path, digest, games indexed and duplicates skipped. The games
 * table alone cannot tell a file whose records all failed, or whose games were all
 * indexed already from another path, from a file never read: such a file was read (and
 * its duplicates counted) again by every add, `index info` did not count it, and had no
 * duplicates to report. Rows are only ever inserted; a file read again gets a row with a
 * higher seq, and the latest row of a path is the file's (argMax). A file's row is
 * written after all its games, so a row with the file's digest means the file is whole in
 * the index (kifu__ch_source_known). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "index/clickhouse.h"
#include "index/index_private.h"
#include "kifu_private.h"

/* The latest digest of every path, sorted by path, loaded once per add. */
typedef struct kifu__ch_srcset {
    struct ch_src {
        char *path;
        uint64_t digest;
    } * v;
    size_t n, cap;
} kifu__ch_srcset;

static int nomem(kifu_error *err)
{
    return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
}

/* An index made before this table (ClickHouse's "Code: 60", unknown table): no rows. */
static int no_table(const kifu_error *e)
{
    return strstr(e->message, "Code: 60") != NULL;
}

void kifu__ch_sources_free(kifu__ch *ch)
{
    if (!ch->known)
        return;
    for (size_t i = 0; i < ch->known->n; i++)
        kifu__free(ch->known->v[i].path);
    kifu__free(ch->known->v);
    kifu__free(ch->known);
    ch->known = NULL;
}

static int by_path(const void *x, const void *y)
{
    return strcmp(((const struct ch_src *)x)->path, ((const struct ch_src *)y)->path);
}

static int load(kifu__ch *ch, kifu_error *err)
{
    if (!(ch->known = kifu__calloc(1, sizeof *ch->known)))
        return nomem(err);
    kifu__strbuf sql, out;
    kifu__sb_init(&sql), kifu__sb_init(&out);
    kifu__sb_puts(&sql, "SELECT path, argMax(digest, seq) FROM ");
    kifu__ch_name(ch, &sql, "sources", 0);
    kifu__sb_puts(&sql, " GROUP BY path FORMAT TabSeparated");
    kifu_error e;
    kifu_error_clear(&e);
    int rc = sql.failed ? nomem(err)
                        : kifu__ch_post_retry(ch, &ch->servers[0], "", sql.data, sql.len,
                                              &out, &e);
    if (rc && !sql.failed && !no_table(&e)) {
        kifu__ch_name_down(ch, &e);
        if (err)
            *err = e;
    }
    rc = rc && !sql.failed && no_table(&e) ? 0 : rc;
    kifu__ch_srcset *k = ch->known;
    size_t cap = 4096;
    char *buf = kifu__malloc(cap);
    if (!rc && !buf)
        rc = nomem(err);
    for (const char *p = out.data; !rc && p && *p;) {
        size_t line = strcspn(p, "\n");
        if (line >= cap) {
            char *nb = kifu__realloc(buf, line + 1);
            if (!nb) {
                rc = nomem(err);
                break;
            }
            buf = nb, cap = line + 1;
        }
        kifu__ch_field(&p, buf, cap);
        uint64_t digest = strtoull(p, (char **)&p, 10);
        p += strcspn(p, "\n");
        p += *p == '\n';
        if (kifu__reserve(&k->v, &k->cap, k->n + 1, sizeof *k->v, 64) ||
            !(k->v[k->n].path = kifu__strdup(buf))) {
            rc = nomem(err);
            break;
        }
        k->v[k->n++].digest = digest;
    }
    kifu__free(buf);
    if (!rc && k->n)
        qsort(k->v, k->n, sizeof *k->v, by_path);
    kifu__sb_free(&sql), kifu__sb_free(&out);
    if (rc)
        kifu__ch_sources_free(ch);
    return rc;
}

int kifu__ch_source_known(kifu_index *ix, const char *path, uint64_t dig, kifu_error *err)
{
    kifu__ch *ch = ix->ch;
    if (!ch->known && load(ch, err))
        return -1;
    struct ch_src key = {.path = (char *)path};
    const struct ch_src *s =
        ch->known->n ? bsearch(&key, ch->known->v, ch->known->n, sizeof key, by_path)
                     : NULL;
    return s && s->digest == dig;
}

int kifu__ch_sources_write(kifu_index *ix, kifu_error *err)
{
    kifu__ch *ch = ix->ch;
    if (!ix->nsources)
        return 0;
    kifu__strbuf sql, out, params;
    kifu__sb_init(&sql), kifu__sb_init(&out), kifu__sb_init(&params);
    kifu__sb_puts(&sql, "SELECT max(seq) FROM ");
    kifu__ch_name(ch, &sql, "sources", 0);
    kifu_error e;
    kifu_error_clear(&e);
    int rc = sql.failed ? nomem(err)
                        : kifu__ch_post_retry(ch, &ch->servers[0], "", sql.data, sql.len,
                                              &out, &e);
    if (rc && !sql.failed && no_table(&e)) {
        /* An index made before the table, opened without KIFU_INDEX_CREATE: its
         * files are told by their games alone, as they were. */
        kifu__sb_free(&sql), kifu__sb_free(&out);
        return 0;
    }
    if (rc && !sql.failed && err)
        *err = e;
    unsigned long long seq = out.data ? strtoull(out.data, NULL, 10) + 1 : 1;
    sql.len = 0, out.len = 0;
    for (size_t i = 0; i < ix->nsources; i++) {
        const struct kifu__isource *s = &ix->sources[i];
        kifu__ch_tsv(&out, s->path);
        kifu__sb_printf(&out, "\t%llu\t%u\t%u\t%llu\n", (unsigned long long)s->digest,
                        (unsigned)s->games, (unsigned)s->dups, seq);
    }
    kifu__sb_puts(&sql, "INSERT INTO ");
    kifu__ch_name(ch, &sql, "sources", 0);
    kifu__sb_puts(&sql, " (path, digest, games, duplicates, seq) FORMAT TabSeparated");
    kifu__sb_puts(&params, "query=");
    kifu__ch_urlencode(&params, sql.data ? sql.data : "");
    if (!rc)
        rc = sql.failed || out.failed || params.failed
                 ? nomem(err)
                 : kifu__ch_post_retry(ch, &ch->servers[0], params.data, out.data,
                                       out.len, NULL, err);
    if (rc)
        kifu__ch_name_down(ch, err);
    kifu__sb_free(&sql), kifu__sb_free(&out), kifu__sb_free(&params);
    /* Read again at the next lookup, with these rows. */
    kifu__ch_sources_free(ch);
    return rc;
}

int kifu__ch_sources_info(kifu_index *ix, long long *sources, long long *dups)
{
    kifu__ch *ch = ix->ch;
    kifu__strbuf sql, out;
    kifu__sb_init(&sql), kifu__sb_init(&out);
    kifu__sb_puts(&sql, "SELECT (SELECT uniqExact(path) FROM (SELECT path FROM ");
    kifu__ch_name(ch, &sql, "games", 0);
    kifu__sb_puts(&sql, " UNION ALL SELECT path FROM ");
    kifu__ch_name(ch, &sql, "sources", 0);
    kifu__sb_puts(&sql,
                  ")), (SELECT sum(d) FROM (SELECT argMax(duplicates, seq) AS d FROM ");
    kifu__ch_name(ch, &sql, "sources", 0);
    kifu__sb_puts(&sql, " GROUP BY path)) FORMAT TabSeparated");
    kifu_error e;
    kifu_error_clear(&e);
    int rc = sql.failed ? -1 : kifu__ch_sql(ch, &ch->servers[0], sql.data, &out, &e);
    if (!rc && out.data)
        rc = sscanf(out.data, "%lld\t%lld", sources, dups) == 2 ? 0 : -1;
    kifu__sb_free(&sql), kifu__sb_free(&out);
    return rc;
}
