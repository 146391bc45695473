/* index.c: the public calls on an index, each passed to its backend's operations
 * (backend.h). Only the open functions (kifu_index_open in index_sqlite.c,
 * kifu_index_open_clickhouse in clickhouse_write.c) choose a backend; adding files
 * (index_build.c) and the explorer (index_explore.c) are shared and call the table too. */
#include <string.h>

#include "index/index_private.h"
#include "kifu_private.h"
#include "rules/engine.h"

kifu_index *kifu__index_new(const char *path, const kifu__index_ops *ops, kifu_error *err)
{
    kifu__rules_init();
    kifu_index *ix = kifu__calloc(1, sizeof *ix);
    if (!ix || !(ix->path = kifu__strdup(path))) {
        kifu__free(ix);
        kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
        return NULL;
    }
    ix->ops = ops;
    return ix;
}

void kifu__index_free(kifu_index *ix)
{
    if (ix)
        kifu__free(ix->path);
    kifu__free(ix);
}

int kifu_index_close(kifu_index *ix, kifu_error *err)
{
    if (!ix)
        return 0;
    int rc = ix->readonly ? 0 : kifu_index_flush(ix, err);
    kifu__index_batch_free(ix);
    kifu__free(ix->games), kifu__free(ix->pos), kifu__free(ix->sources);
    kifu__free(ix->lane[0]), kifu__free(ix->lane[1]), kifu__free(ix->facts);
    kifu_position_free(ix->replay);
    kifu__sb_free(&ix->json);
    kifu__dups_free(ix);
    kifu__free(ix->gtags);
    kifu_tags_free(ix->own_tagger);
    ix->ops->close(ix);
    kifu__index_free(ix);
    return rc;
}

int kifu_index_flush(kifu_index *ix, kifu_error *err)
{
    return ix->ops->flush(ix, err);
}

void kifu_index_set_read(kifu_index *ix, int encoding, unsigned flags)
{
    ix->encoding = encoding;
    ix->read_flags = flags & (KIFU_READ_LENIENT | KIFU_READ_REPAIR);
}

void kifu_index_set_tagger(kifu_index *ix, kifu_tagger *t)
{
    /* Queued games keep the names of the tagger that tagged them: written first. */
    if (ix->ngames && ix->tagger != t)
        kifu_index_flush(ix, NULL);
    ix->tagger = t;
    ix->tagger_set = 1;
}

const kifu_index_stats *kifu_index_stats_get(const kifu_index *ix)
{
    return &ix->stats;
}

int kifu_index_compact(kifu_index *ix, kifu_error *err)
{
    return ix->ops->compact(ix, err);
}

int kifu_index_info_get(kifu_index *ix, kifu_index_info *out, kifu_error *err)
{
    return ix->ops->info(ix, out, err);
}

long kifu_index_search(kifu_index *ix, kifu_search *s, kifu_index_hit_fn fn, void *ctx,
                       kifu_error *err)
{
    unsigned flags = 0;
    uint64_t keys[2] = {0, 0};
    int nkeys = kifu__index_search_keys(s, &flags, keys);
    return ix->ops->search(ix, s, flags, nkeys, keys, fn, ctx, err);
}

long kifu_index_search_filtered(kifu_index *ix, kifu_search *s,
                                const kifu_explore_options *o, kifu_index_hit_fn fn,
                                void *ctx, kifu_error *err)
{
    if (!ix->ops->search_where)
        return kifu__error(err, KIFU_ERR_UNSUPPORTED, 0, 0, 0, NULL, NULL,
                           "this index keeps no tags (SQLite indexes do)");
    unsigned flags = 0;
    uint64_t keys[2] = {0, 0};
    int nkeys = kifu__index_search_keys(s, &flags, keys);
    return ix->ops->search_where(ix, s, flags, nkeys, keys, o, fn, ctx, err);
}

int kifu_index_each_source(kifu_index *ix,
                           int (*fn)(void *ctx, const char *path, int games), void *ctx,
                           kifu_error *err)
{
    return ix->ops->each_source(ix, fn, ctx, err);
}

long kifu_index_find(kifu_index *ix, const kifu_position *p, kifu_index_row_fn fn,
                     void *ctx, kifu_error *err)
{
    return ix->ops->find(ix, kifu_position_hash(p), fn, ctx, err);
}

int kifu_index_export_book(kifu_index *ix, int format, const kifu_book_options *o,
                           kifu_output_fn out, void *ctx, kifu_error *err)
{
    return ix->ops->export_book(ix, format, o, out, ctx, err);
}

int kifu_index_check(kifu_index *ix, void (*fn)(void *ctx, const kifu_error *damage),
                     void *ctx, kifu_index_check_counts *out, kifu_error *err)
{
    kifu_index_check_counts none;
    memset(out ? out : &none, 0, sizeof none);
    if (!ix->ops->check)
        return kifu__error(err, KIFU_ERR_UNSUPPORTED, 0, 0, 0, NULL, NULL,
                           "index check is for index files: ClickHouse checks its own "
                           "parts (CHECK TABLE)");
    return ix->ops->check(ix, fn, ctx, out ? out : &none, err);
}
