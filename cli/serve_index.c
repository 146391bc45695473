/* serve_index.c: the index for one request of `kifu serve`. Handles are opened
 * read-only and kept in a pool between requests (an open reads the file's schema and
 * costs more than an explorer query; a handle keeps its prepared statements). A handle
 * sees what `kifu index add` commits by itself (each query is a read transaction, and
 * SQLite reads the WAL's newest commit at its start), so it is reused as long as the
 * file at the index's path is the one it has open (a file moved there, say, is opened
 * at the next request). One stat a request: reopening at every commit of a writer (the
 * file's size and times, as before) cost the server an open per worker and commit. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "serve.h"

/* At least the number of workers serve_http.c starts, so that none opens its own. */
enum { POOL = 32 };

typedef struct stamp {
    long long dev, ino;
} stamp;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
    kifu_index *ix;
    stamp at;
    long long dv; /* serve_stamp's */
} pool[POOL];
static size_t pooled;

/* Which file is at the index's path now (zeros for ClickHouse or no file). */
static stamp stamp_of(const serve_config *c)
{
    stamp s = {0, 0};
    struct stat st;
    if (!c->ch_url && !stat(c->kdb, &st))
        s.dev = (long long)st.st_dev, s.ino = (long long)st.st_ino;
    return s;
}

kifu_index *serve_open(const serve_config *c, serve_response *r, serve_stamp *at)
{
    stamp now = stamp_of(c);
    kifu_index *ix = NULL, *stale[POOL];
    size_t nstale = 0;
    pthread_mutex_lock(&lock);
    at->dv = -2;
    while (pooled && !ix) {
        pooled--;
        if (!memcmp(&pool[pooled].at, &now, sizeof now))
            ix = pool[pooled].ix, at->dv = pool[pooled].dv;
        else
            stale[nstale++] = pool[pooled].ix;
    }
    pthread_mutex_unlock(&lock);
    for (size_t i = 0; i < nstale; i++)
        kifu_index_close(stale[i], NULL);
    memcpy(at->bytes, &now, sizeof now);
    if (ix) {
        kifu_index_set_deadline(ix, c->query_ms);
        return ix;
    }
    kifu_error e = {0};
    ix = c->ch_url
             ? kifu_index_open_clickhouse(c->ch_url, KIFU_INDEX_READONLY, &c->cho, &e)
             : kifu_index_open(c->kdb, KIFU_INDEX_READONLY, &e);
    if (!ix)
        serve_error(r, 503, "the index cannot be read: %s", e.message);
    else
        kifu_index_set_deadline(ix, c->query_ms);
    return ix;
}

void serve_close(kifu_index *ix, const serve_stamp *at)
{
    if (!ix)
        return;
    kifu_index_set_deadline(ix, 0);
    pthread_mutex_lock(&lock);
    int into_pool = pooled < POOL;
    if (into_pool) {
        pool[pooled].ix = ix;
        memcpy(&pool[pooled].at, at->bytes, sizeof(stamp));
        pool[pooled].dv = at->dv;
        pooled++;
    }
    pthread_mutex_unlock(&lock);
    if (!into_pool)
        kifu_index_close(ix, NULL);
}

void serve_drain(void)
{
    pthread_mutex_lock(&lock);
    while (pooled)
        kifu_index_close(pool[--pooled].ix, NULL);
    pthread_mutex_unlock(&lock);
}
