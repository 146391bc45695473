/* serve_index.c: the index for one request of `kifu serve`. Handles are opened
 * read-only and kept in a small pool between requests (an open reads the file's schema
 * and costs more than an explorer query); a handle is reused only while the file and its
 * WAL are as they were when it was opened (size and modification time), so games that
 * `kifu index add` commits are answered by a fresh handle at the next request. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "serve.h"

enum { POOL = 8 };

typedef struct stamp {
    long long size[2], mtime[2];
} stamp;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
    kifu_index *ix;
    stamp at;
} pool[POOL];
static size_t pooled;

/* What the file and its WAL look like now (zeros for ClickHouse or a missing WAL). */
static stamp stamp_of(const serve_config *c)
{
    stamp s;
    memset(&s, 0, sizeof s);
    if (c->ch_url)
        return s;
    size_t n = strlen(c->kdb) + 8;
    char *wal = malloc(n);
    const char *paths[2] = {c->kdb, wal};
    if (wal)
        snprintf(wal, n, "%s-wal", c->kdb);
    for (int i = 0; i < 2; i++) {
        struct stat st;
        if (paths[i] && !stat(paths[i], &st)) {
            s.size[i] = (long long)st.st_size;
            s.mtime[i] = (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
        }
    }
    free(wal);
    return s;
}

kifu_index *serve_open(const serve_config *c, serve_response *r, serve_stamp *at)
{
    stamp now = stamp_of(c);
    kifu_index *ix = NULL, *stale[POOL];
    size_t nstale = 0;
    pthread_mutex_lock(&lock);
    while (pooled && !ix) {
        pooled--;
        if (!memcmp(&pool[pooled].at, &now, sizeof now))
            ix = pool[pooled].ix;
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
