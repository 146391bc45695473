/* index_lanes.c: a batch's positions made ready for the table on a helper thread while
 * the writing thread writes what it must (the games, the hot rows, the blocks' rows):
 * the rows put lane by lane (kifu__index_partition), then each lane sorted and its
 * buckets encoded (kifu__index_lane_into, _sort_bucket, kifu__block_encode) into one of
 * a few slots, which the writer takes in lane order (index_runs.c). The bytes are those
 * the writer would have made: the index is the same with or without the helper. */
#include <pthread.h>
#include <stdlib.h>

#include "index/index_agg.h"
#include "index/index_private.h"
#include "kifu_private.h"

/* Lanes ready ahead of the writer: a few, so a slow SQLite write does not stall the
 * helper, and small next to the batch (a lane of a full batch is a few megabytes). */
#define SLOTS 4

typedef struct slot {
    int lane; /* the lane it holds, ready; -1: free */
    kifu__ipos *a, *b;
    size_t capa, capb;
    uint8_t *bytes;
    size_t capbytes;
    kifu__lane_block *blk;
    size_t nblk, capblk;
    kifu__lane_hot *hot;
    size_t nhot, caphot;
    kifu__lane_count *count; /* hot's rows counted (when the helper counts) */
    size_t ncount, capcount;
} slot;

struct kifu__lanes {
    kifu_index *ix;
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv; /* a slot was filled or freed, or the run stopped */
    int stop, failed;
    slot s[SLOTS];
    /* A bulk build's first batch: the hot keys' rows counted here too (index_runs.c
     * takes them when the batch is the index's first run), with the movers' ratings of
     * the batch's games (ids first ..). */
    int counting;
    int32_t (*ratings)[2];
    uint32_t first;
    size_t ngames;
};

/* The keys of the sorted rows v[i..j) (one bucket) played in KIFU__INDEX_HOT games or
 * more, appended to s->hot: the keys the writer gives hot rows when the index has none
 * yet (index_runs.c, append_lane), found here rather than on the writing thread, which
 * would scan every row of the batch for them. 0, or -1 out of memory. */
static int hot_keys(const struct kifu__lanes *h, slot *s, const kifu__ipos *v, size_t i,
                    size_t j)
{
    for (size_t k = i, e; k < j; k = e) {
        size_t games = 1;
        for (e = k + 1; e < j && v[e].key == v[k].key; e++)
            games += v[e].game != v[e - 1].game;
        if (games < KIFU__INDEX_HOT)
            continue;
        if (kifu__reserve(&s->hot, &s->caphot, s->nhot + 1, sizeof *s->hot, 256))
            return -1;
        s->hot[s->nhot++] = (kifu__lane_hot){k, e};
        if (!h->counting)
            continue;
        /* Counted as the writer's hot_full counts a key with no earlier entries. */
        if (kifu__reserve(&s->count, &s->capcount, s->ncount + 1, sizeof *s->count, 64))
            return -1;
        kifu__lane_count *c = &s->count[s->ncount++];
        kifu__agg_init(&c->a);
        kifu__days_init(&c->d);
        c->games = (long)games;
        for (size_t x = k; x < e; x++) {
            char date[11];
            int rating = 0;
            uint32_t g = v[x].game - h->first;
            kifu__index_fact_date(v[x].fact, date);
            if (v[x].move && g < h->ngames)
                rating = h->ratings[g][v[x].ply & 1];
            if (kifu__agg_add(&c->a, v[x].move, v[x].game, v[x].ply, (int)(v[x].fact & 7),
                              date, rating) ||
                kifu__days_add(&c->d, &v[x], rating))
                return -1;
        }
    }
    return 0;
}

static void free_counts(slot *s)
{
    for (size_t k = 0; k < s->ncount; k++) {
        kifu__agg_free(&s->count[k].a);
        kifu__days_free(&s->count[k].d);
    }
    s->ncount = 0;
}

/* Lane l sorted and encoded into s. 0, or -1 out of memory. */
static int fill(const struct kifu__lanes *h, slot *s, unsigned l)
{
    const kifu_index *ix = h->ix;
    size_t n = ix->lane_at[l + 1] - ix->lane_at[l];
    free_counts(s);
    s->nblk = s->nhot = 0;
    if (!n)
        return 0;
    if (kifu__reserve(&s->a, &s->capa, n, sizeof *s->a, 1 << 12) ||
        kifu__reserve(&s->b, &s->capb, n, sizeof *s->b, 1 << 12) ||
        kifu__reserve(&s->bytes, &s->capbytes, kifu__block_bound(n), 1, 1 << 16))
        return -1;
    kifu__ipos *v = kifu__index_lane_into(ix, l, &n, s->a, s->b), *t = s->a;
    size_t off = 0;
    for (size_t i = 0, j; i < n; i = j) {
        uint64_t b = v[i].key >> KIFU__BUCKET_SHIFT;
        for (j = i; j < n && v[j].key >> KIFU__BUCKET_SHIFT == b; j++)
            ;
        kifu__index_sort_bucket(v + i, j - i, t + i);
        if (kifu__reserve(&s->blk, &s->capblk, s->nblk + 1, sizeof *s->blk, 256))
            return -1;
        size_t len = kifu__block_encode(v + i, j - i, s->bytes + off), hot0 = s->nhot;
        if (hot_keys(h, s, v, i, j))
            return -1;
        s->blk[s->nblk++] = (kifu__lane_block){
            i, j, off, len, kifu__index_sum(s->bytes + off, len), hot0, s->nhot - hot0};
        off += len;
    }
    return 0;
}

static void *helper(void *arg)
{
    struct kifu__lanes *h = arg;
    kifu_index *ix = h->ix;
    if (h->counting && (h->ratings = kifu__movers_ratings(ix->games, ix->ngames)))
        h->first = ix->games[0].id, h->ngames = ix->ngames;
    h->counting = h->ratings != NULL;
    kifu__index_partition(ix);
    for (unsigned l = 0; l < KIFU__LANES; l++) {
        slot *s = &h->s[l % SLOTS];
        pthread_mutex_lock(&h->mu);
        while (s->lane >= 0 && !h->stop)
            pthread_cond_wait(&h->cv, &h->mu);
        int stop = h->stop;
        pthread_mutex_unlock(&h->mu);
        if (stop)
            break;
        int bad = fill(h, s, l);
        pthread_mutex_lock(&h->mu);
        if (bad)
            h->failed = 1;
        else
            s->lane = (int)l;
        pthread_cond_broadcast(&h->cv);
        pthread_mutex_unlock(&h->mu);
        if (bad)
            break;
    }
    return NULL;
}

int kifu__lanes_start(kifu_index *ix)
{
    struct kifu__lanes *h = kifu__calloc(1, sizeof *h);
    if (!h)
        return -1;
    h->ix = ix;
    /* The first batch of a bulk build (a new file): no run before it. */
    h->counting = ix->bulk && !ix->stats.positions;
    for (int i = 0; i < SLOTS; i++)
        h->s[i].lane = -1;
    if (pthread_mutex_init(&h->mu, NULL)) {
        kifu__free(h);
        return -1;
    }
    if (pthread_cond_init(&h->cv, NULL)) {
        pthread_mutex_destroy(&h->mu);
        kifu__free(h);
        return -1;
    }
    if (pthread_create(&h->thread, NULL, helper, h)) {
        pthread_cond_destroy(&h->cv);
        pthread_mutex_destroy(&h->mu);
        kifu__free(h);
        return -1;
    }
    ix->lanes = h;
    return 0;
}

int kifu__lanes_get(kifu_index *ix, unsigned l, kifu__lane_out *o)
{
    struct kifu__lanes *h = ix->lanes;
    slot *s = &h->s[l % SLOTS];
    pthread_mutex_lock(&h->mu);
    while (s->lane != (int)l && !h->failed)
        pthread_cond_wait(&h->cv, &h->mu);
    int ready = s->lane == (int)l;
    pthread_mutex_unlock(&h->mu);
    if (!ready)
        return -1;
    *o = (kifu__lane_out){s->b,     s->blk, s->nblk,
                          s->bytes, s->hot, h->counting ? s->count : NULL};
    return 0;
}

void kifu__lanes_release(kifu_index *ix, unsigned l)
{
    struct kifu__lanes *h = ix->lanes;
    pthread_mutex_lock(&h->mu);
    h->s[l % SLOTS].lane = -1;
    pthread_cond_broadcast(&h->cv);
    pthread_mutex_unlock(&h->mu);
}

void kifu__lanes_stop(kifu_index *ix)
{
    struct kifu__lanes *h = ix->lanes;
    if (!h)
        return;
    pthread_mutex_lock(&h->mu);
    h->stop = 1;
    pthread_cond_broadcast(&h->cv);
    pthread_mutex_unlock(&h->mu);
    pthread_join(h->thread, NULL);
    pthread_cond_destroy(&h->cv);
    pthread_mutex_destroy(&h->mu);
    for (int i = 0; i < SLOTS; i++) {
        kifu__free(h->s[i].a), kifu__free(h->s[i].b);
        kifu__free(h->s[i].bytes), kifu__free(h->s[i].blk), kifu__free(h->s[i].hot);
        free_counts(&h->s[i]);
        kifu__free(h->s[i].count);
    }
    kifu__free(h->ratings);
    kifu__free(h);
    ix->lanes = NULL;
}

int kifu__index_sort_lanes(kifu_index *ix)
{
    /* With threads to spare, the helper above partitions, sorts and encodes the lanes
     * while this thread writes the batch's games; else partitioned here, and each lane
     * sorted as it is written (kifu__index_lane). */
    if (ix->jobs > 1 && ix->npos && kifu__lanes_start(ix) == 0)
        return 0;
    size_t big = kifu__index_partition(ix);
    for (int i = 0; i < 2; i++)
        if (kifu__reserve(&ix->lane[i], &ix->caplane[i], big ? big : 1, sizeof **ix->lane,
                          1 << 12))
            return -1;
    return 0;
}
