/* serve_cache.c: `kifu serve`'s answers kept for the next request of the same query, as
 * explorers keep their hot positions': /api/explore's answer (its JSON, byte for byte)
 * under its parameters, sorted. Bounded: a table of CACHE_SLOTS entries, one a hash (a new
 * answer replaces the slot's), and at most the bytes --cache gives in all.
 *
 * Never an answer older than the index: every entry carries the generation the cache
 * had before the request that made it looked at the index, and only an entry of the
 * current generation answers. A request looks (serve_cache_gen) with its handle's
 * kifu_index_data_version: when it differs from the handle's last (or the handle is
 * new), something committed since that handle's last look, and the generation moves
 * on. A commit is seen by the first look of any handle after it; a request that starts
 * after the commit looks after it, so the generation it compares with has moved past
 * every entry made from what the index held before. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "serve.h"

enum { CACHE_SLOTS = 4096 };

typedef struct cache_entry {
    char *key; /* key and body in one allocation */
    size_t klen, len;
    const char *body;
    long long gen;
} cache_entry;

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static cache_entry cache_table[CACHE_SLOTS];
static size_t cache_budget = (size_t)64 << 20, cache_held;
static long long cache_generation;

void serve_cache_setup(size_t bytes)
{
    cache_budget = bytes;
}

static long long cache_gen_now(void)
{
    return __atomic_load_n(&cache_generation, __ATOMIC_ACQUIRE);
}

long long serve_cache_gen(kifu_index *ix, serve_stamp *at)
{
    if (!cache_budget)
        return -1;
    long long g = cache_gen_now();
    long long v = kifu_index_data_version(ix);
    if (v < 0)
        return -1;
    if (v != at->dv) {
        __atomic_add_fetch(&cache_generation, 1, __ATOMIC_ACQ_REL);
        at->dv = v;
    }
    return g;
}

/* FNV-1a. */
static size_t cache_slot(const char *key, size_t klen)
{
    uint64_t h = 1469598103934665603u;
    for (size_t i = 0; i < klen; i++)
        h = (h ^ (unsigned char)key[i]) * 1099511628211u;
    return (size_t)(h % CACHE_SLOTS);
}

static void cache_drop(cache_entry *e)
{
    cache_held -= e->klen + e->len;
    free(e->key);
    e->key = NULL;
}

int serve_cache_get(const char *key, size_t klen, serve_response *r)
{
    cache_entry *e = &cache_table[cache_slot(key, klen)];
    char *copy = NULL;
    size_t len = 0;
    pthread_mutex_lock(&cache_lock);
    if (e->key && e->gen == cache_gen_now() && e->klen == klen &&
        !memcmp(e->key, key, klen) && (copy = malloc(e->len + 1))) {
        memcpy(copy, e->body, e->len + 1);
        len = e->len;
    }
    pthread_mutex_unlock(&cache_lock);
    if (!copy)
        return 0;
    free(r->owned);
    r->owned = copy, r->body = copy, r->len = len;
    r->status = 200, r->type = "application/json";
    return 1;
}

void serve_cache_put(const char *key, size_t klen, long long gen, const serve_response *r)
{
    if (gen < 0 || r->status != 200 || klen + r->len > cache_budget / 8)
        return;
    char *k = malloc(klen + r->len + 1);
    if (!k)
        return;
    memcpy(k, key, klen);
    memcpy(k + klen, r->body, r->len);
    k[klen + r->len] = 0;
    cache_entry *e = &cache_table[cache_slot(key, klen)];
    pthread_mutex_lock(&cache_lock);
    long long now = cache_gen_now();
    if (gen == now && e->key)
        cache_drop(e);
    /* Over the cache_budget: the entries of past generations go first, then the new one is
     * not kept. */
    if (gen == now && cache_held + klen + r->len > cache_budget)
        for (size_t i = 0; i < CACHE_SLOTS; i++)
            if (cache_table[i].key && cache_table[i].gen != now)
                cache_drop(&cache_table[i]);
    if (gen == now && !e->key && cache_held + klen + r->len <= cache_budget) {
        *e = (cache_entry){k, klen, r->len, k + klen, gen};
        cache_held += klen + r->len;
        k = NULL;
    }
    pthread_mutex_unlock(&cache_lock);
    free(k);
}

void serve_cache_drain(void)
{
    pthread_mutex_lock(&cache_lock);
    for (size_t i = 0; i < CACHE_SLOTS; i++)
        if (cache_table[i].key)
            cache_drop(&cache_table[i]);
    pthread_mutex_unlock(&cache_lock);
}

size_t serve_cache_key(const serve_request *q, char *key, size_t cap)
{
    /* The parameters in the order of their names (none is repeated: serve_check_params),
     * each "name=value" and a 0 byte; 0 when they do not fit (not cached). */
    const serve_param *p[SERVE_MAX_PARAMS];
    size_t n = q->nparams < SERVE_MAX_PARAMS ? q->nparams : SERVE_MAX_PARAMS;
    for (size_t i = 0; i < n; i++) {
        size_t k = i;
        while (k && strcmp(p[k - 1]->key, q->params[i].key) > 0) {
            p[k] = p[k - 1];
            k--;
        }
        p[k] = &q->params[i];
    }
    size_t at = 0;
    int w = snprintf(key, cap, "%s", q->path);
    if (w < 0 || (size_t)w + 1 >= cap)
        return 0;
    at = (size_t)w + 1;
    for (size_t i = 0; i < n; i++) {
        w = p[i]->value ? snprintf(key + at, cap - at, "%s=%s", p[i]->key, p[i]->value)
                        : snprintf(key + at, cap - at, "%s", p[i]->key);
        if (w < 0 || (size_t)w + 1 >= cap - at)
            return 0;
        at += (size_t)w + 1;
    }
    return at;
}
