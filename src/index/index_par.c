/* index_par.c: kifu_index_file_prepare and _add (kifu.h): a file's games read and
 * tagged into a batch of its own (a kifu_index that is never opened: its games, rows,
 * tags and arena only) on any thread, then moved into the index on the thread that
 * adds, in input order. Everything that depends on the files before it (what the index
 * holds of the file, duplicates, ids, the batch's writes, counts and warnings) is done
 * only then, so the index is the same for any number of threads. */
#include <stdlib.h>
#include <string.h>

#include "index/index_par.h"
#include "index/index_private.h"
#include "kifu_private.h"
#include "tags/tags.h"

struct kifu_index_file {
    char *path;
    size_t len;
    uint64_t digest;
    int unread; /* the file could not be read: e says why */
    int failed; /* its games did not read, or NOMEM: e says why */
    kifu_error e;
    kifu_index *b; /* the file's batch: games numbered from 0, source 0 */
    /* The names its tags index (b->tagger's, copied: the tagger may be gone by the time
     * the file is added), NULL where no tag of the file has it. */
    char **names;
    size_t nnames;
    kifu__parsed r;
};

static int nomem(kifu_error *err)
{
    return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
}

void kifu_index_file_free(kifu_index_file *f)
{
    if (!f)
        return;
    if (f->b) {
        kifu__index_batch_free(f->b);
        kifu__free(f->b->games), kifu__free(f->b->pos), kifu__free(f->b->facts);
        kifu__free(f->b->sources), kifu__free(f->b->gtags);
        kifu_position_free(f->b->replay);
        kifu__sb_free(&f->b->json);
        kifu__free(f->b);
    }
    kifu__index_parsed_free(&f->r);
    kifu__free(f->names);
    kifu__free(f->path);
    kifu__free(f);
}

/* The names the file's tags use, copied into its batch's arena. 0, or -1 NOMEM. */
static int keep_names(kifu_index_file *f)
{
    kifu_index *b = f->b;
    if (!b->ngtags)
        return 0;
    const kifu_tagger *t = b->tagger;
    if (!(f->names = kifu__calloc(t->nnames, sizeof *f->names)))
        return -1;
    f->nnames = t->nnames;
    for (size_t i = 0; i < b->ngtags; i++) {
        size_t k = b->gtags[i].name;
        if (!f->names[k] && !(f->names[k] = kifu__arena_strdup(&b->text, t->names[k])))
            return -1;
    }
    return 0;
}

kifu_index_file *kifu_index_file_prepare(const kifu_index *ix, const char *path,
                                         kifu_tagger *tagger)
{
    kifu_index_file *f = kifu__calloc(1, sizeof *f);
    if (!f)
        return NULL;
    kifu_error_clear(&f->e);
    if (!(f->path = kifu__strdup(path)) || !(f->b = kifu__calloc(1, sizeof *f->b))) {
        kifu_index_file_free(f);
        return NULL;
    }
    kifu_index *b = f->b;
    kifu__arena_init(&b->text);
    kifu__sb_init(&b->json);
    b->ops = ix->ops;
    b->encoding = ix->encoding, b->read_flags = ix->read_flags;
    b->keep_dups = 1; /* duplicates are told in order, as the file is added */
    /* Tagged where the index would tag (ix->tagger is read only once set: the index
     * makes its own only when none was set, on the adding thread). */
    if (ix->ops->search_where && !(ix->tagger_set && !ix->tagger))
        b->tagger = tagger;
    unsigned char *data = kifu_file_read(path, &f->len, &f->e);
    if (!data) {
        f->unread = f->failed = 1;
        return f;
    }
    f->digest = ix->ops->digest(data, f->len);
    if (kifu__index_parse(b, path, data, f->len, 0, NULL, 0, &f->r, &f->e))
        f->failed = 1;
    kifu_free(data);
    if (!f->failed && keep_names(f)) {
        kifu__index_parsed_free(&f->r);
        f->failed = 1;
        nomem(&f->e);
        kifu__error_source(&f->e, path);
    }
    return f;
}

void kifu_index_set_jobs(kifu_index *ix, int jobs)
{
    if (ix)
        ix->jobs = jobs;
}

static int in_done(const kifu__known *k, uint32_t number)
{
    return k->ndone &&
           bsearch(&number, k->done, k->ndone, sizeof *k->done, kifu__cmp_u32) != NULL;
}

/* The index of the file's tag name k in ix's tagger, or -1 (the same definitions give
 * the same order: one comparison). */
static long tag_name(const kifu_index_file *f, const kifu_tagger *to, size_t k)
{
    const char *name = k < f->nnames ? f->names[k] : NULL;
    if (!name)
        return -1;
    if (k < to->nnames && strcmp(to->names[k], name) == 0)
        return (long)k;
    for (size_t i = 0; i < to->nnames; i++)
        if (strcmp(to->names[i], name) == 0)
            return (long)i;
    return -1;
}

/* Game g of the file's batch queued in ix as game id of source `source`, with its rows
 * and tags. 0, or -1 out of memory. */
static int move_game(kifu_index *ix, const kifu_index_file *f, size_t i, size_t *row,
                     uint32_t source)
{
    const kifu_index *b = f->b;
    kifu__igame g = b->games[i];
    size_t r0 = *row;
    while (*row < b->npos && b->pos[*row].game == b->games[i].id)
        (*row)++;
    if (kifu__reserve(&ix->games, &ix->capgames, ix->ngames + 1, sizeof *ix->games,
                      256) ||
        kifu__reserve(&ix->facts, &ix->capfacts, ix->ngames + 1, sizeof *ix->facts,
                      256) ||
        kifu__reserve(&ix->pos, &ix->cappos, ix->npos + (*row - r0) + 1, sizeof *ix->pos,
                      ix->bulk ? kifu__index_batch + 4096 : 256) ||
        kifu__reserve(&ix->gtags, &ix->capgtags, ix->ngtags + g.ntags + 1,
                      sizeof *ix->gtags, 1024))
        return -1;
    g.id = ix->next_game++;
    g.source = source;
    uint32_t t0 = g.tag0;
    g.tag0 = (uint32_t)ix->ngtags, g.ntags = 0;
    for (uint32_t t = 0; ix->tagger && t < b->games[i].ntags; t++) {
        kifu__igtag tag = b->gtags[t0 + t];
        long k = tag_name(f, ix->tagger, tag.name);
        if (k < 0 || k > UINT16_MAX)
            continue;
        tag.name = (uint16_t)k;
        ix->gtags[ix->ngtags++] = tag, g.ntags++;
    }
    for (size_t r = r0; r < *row; r++) {
        kifu__irow p = b->pos[r];
        p.game = g.id;
        ix->pos[ix->npos++] = p;
    }
    ix->facts[ix->ngames] = b->facts[i];
    ix->games[ix->ngames++] = g;
    return 0;
}

/* Is game `number` of the file a failure kept to be told (f->r.failed from *at on, in
 * game order)? Its entry, or NULL. */
static struct kifu__failed_game *failed_at(kifu_index_file *f, size_t *at,
                                           uint32_t number)
{
    while (*at < f->r.nfailed && f->r.failed[*at].index + 1 < number)
        (*at)++;
    return *at < f->r.nfailed && f->r.failed[*at].index + 1 == number ? &f->r.failed[*at]
                                                                      : NULL;
}

/* The file's games not in k->done moved into ix's batch in order, each a duplicate
 * (kifu__dups_check) or queued with source id; its failures of games in k->done dropped
 * (they were indexed before). The counts in f->r. 0, or -1 with err (NOMEM). */
static int move_batch(kifu_index *ix, kifu_index_file *f, const kifu__known *k,
                      uint32_t id, kifu_error *err)
{
    kifu_index *b = f->b;
    size_t skipped = 0, added = 0, dups = 0, repaired = 0, row = 0, at = 0;
    for (size_t i = 0; i < b->ngames; i++) {
        const kifu__igame *g = &b->games[i];
        const struct kifu__failed_game *fg = failed_at(f, &at, g->number);
        if (in_done(k, g->number)) {
            skipped++;
            while (row < b->npos && b->pos[row].game == g->id)
                row++;
            continue;
        }
        int seen = ix->keep_dups ? 0 : kifu__dups_check(ix, g->ident, ix->next_game, err);
        if (seen < 0)
            return -1;
        if (seen) {
            dups++;
            while (row < b->npos && b->pos[row].game == g->id)
                row++;
            continue;
        }
        if (move_game(ix, f, i, &row, id))
            return nomem(err);
        added++;
        repaired += fg && fg->e.code == KIFU_OK;
    }
    /* Failures of games indexed before are not told again: they were not read. */
    size_t nf = 0;
    for (size_t i = 0; i < f->r.nfailed; i++) {
        if (in_done(k, (uint32_t)(f->r.failed[i].index + 1)))
            skipped += f->r.failed[i].e.code != KIFU_OK;
        else
            f->r.failed[nf++] = f->r.failed[i];
    }
    f->r.nfailed = nf;
    f->r.added = added, f->r.skipped = skipped, f->r.dups = dups;
    f->r.repaired = repaired;
    /* The strings and moves the games point to go with them. */
    kifu__arena_adopt(&ix->text, &b->text);
    b->ngames = b->npos = b->ngtags = 0;
    return 0;
}

int kifu_index_file_add(kifu_index *ix, kifu_index_file *f, kifu_warn_fn warn,
                        void *warn_ctx, kifu_error *err)
{
    if (!f)
        return nomem(err);
    if (f->failed && f->e.code == KIFU_ERR_NOMEM) {
        /* Out of memory where it was prepared (other files were in memory then): read
         * again here, as kifu_index_add_file, whose error names the file. */
        char *path = f->path;
        f->path = NULL;
        kifu_index_file_free(f);
        int rc = kifu_index_add_file(ix, path, warn, warn_ctx, err);
        kifu__free(path);
        return rc;
    }
    int rc = -1;
    kifu__known k = {0};
    if (ix->readonly) {
        kifu__error(err, KIFU_ERR_ARG, 0, 0, 0, NULL, NULL,
                    "the index was opened read-only");
    } else if (f->unread) {
        /* Unreadable: as kifu_index_add_file, before asking the index. */
        if (err && !err->code)
            *err = f->e;
        kifu__error_source(err, f->path);
        ix->stats.files_failed++;
    } else if (kifu__index_default_tagger(ix, err) == 0 &&
               (rc = kifu__index_known(ix, f->path, f->digest, &k, err)) >= 0 &&
               rc != KIFU_INDEX_UNCHANGED) {
        int status = rc;
        uint32_t id = k.id ? k.id : ix->next_source++;
        rc = -1;
        if (f->failed) {
            /* as kifu_index_add_file: the id is taken */
            if (err && !err->code)
                *err = f->e;
            kifu__error_source(err, f->path);
            ix->stats.files_failed++;
        } else if (move_batch(ix, f, &k, id, err)) {
            ix->stats.files_failed++;
        } else {
            rc = kifu__index_queued(ix, f->path, f->digest, f->len, id, status, &k, &f->r,
                                    warn, warn_ctx, err);
        }
    }
    kifu__free(k.done), kifu__free(k.gone);
    kifu_index_file_free(f);
    return rc;
}
