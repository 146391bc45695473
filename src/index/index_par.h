/* index_par.h: adding a file split in two (index_build.c): its games read into a batch
 * (kifu__index_parse), and the file's row and counts queued once the games are in
 * (kifu__index_queued). kifu_index_add_file does both on the index; index_par.c reads
 * on any thread into a batch of the file's own and moves it into the index in order. */
#ifndef KIFU_INDEX_PAR_H
#define KIFU_INDEX_PAR_H

#include <stddef.h>
#include <stdint.h>

#include "index/backend.h"
#include "kifu.h"

/* A game that did not index, or was indexed repaired (code OK): reported once the file
 * has read. */
struct kifu__failed_game {
    kifu_error e;
    size_t index; /* 0-based, in the file */
};

/* What reading a file's games made. */
typedef struct kifu__parsed {
    struct kifu__failed_game *failed; /* in game order */
    size_t nfailed;
    size_t records;        /* the games of the file (for the warnings' wording) */
    size_t added, skipped; /* games queued, and games skipped as indexed already */
    size_t repaired, dups; /* games queued repaired; games found indexed already */
} kifu__parsed;

/* The file's games read from data (source id `source`; game numbers in done skipped)
 * into ix's batch, tagged with ix->tagger. 0; or -1 with err (nothing of the file
 * queued: it does not read, or NOMEM). */
int kifu__index_parse(kifu_index *ix, const char *path, const unsigned char *data,
                      size_t len, uint32_t source, const uint32_t *done, size_t ndone,
                      kifu__parsed *r, kifu_error *err);
void kifu__index_parsed_free(kifu__parsed *r);
/* What ix holds of the file (path, digest dig) in *k, the identities of its old games
 * forgotten: KIFU_INDEX_UNCHANGED (counted; nothing in *k), _REPLACED or _ADDED, or
 * -1 with err. */
int kifu__index_known(kifu_index *ix, const char *path, uint64_t dig, kifu__known *k,
                      kifu_error *err);
/* The failed games reported, the old games of a replaced file (k->gone, freed) given to
 * the backend, the file's row queued and a full batch written. r is freed. KIFU_INDEX_*,
 * or -1 with err. */
int kifu__index_queued(kifu_index *ix, const char *path, uint64_t dig, size_t len,
                       uint32_t id, int status, kifu__known *k, kifu__parsed *r,
                       kifu_warn_fn warn, void *warn_ctx, kifu_error *err);
/* The index's own tagger (the shipped definitions) made unless one was set, where the
 * backend keeps tags. 0, or -1 with err. */
int kifu__index_default_tagger(kifu_index *ix, kifu_error *err);

#endif
