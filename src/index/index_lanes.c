/* index_lanes.c: a batch's positions made ready for the table on a helper thread while
 * the writing thread writes what it must (the games, the hot rows, the blocks' rows):
 * the rows put lane by lane (kifu__index_partition), then each lane sorted and its
 * buckets encoded (kifu__index_lane_into, _sort_bucket, kifu__block_encode) into one of
 * a few slots, which the writer takes in lane order (index_runs.c). The bytes are those
 * the writer would have made: the index is the same with or without the helper. */
#include <pthread.h>
#include <stdlib.h>

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
} slot;

struct kifu__lanes {
    kifu_index *ix;
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv; /* a slot was filled or freed, or the run stopped */
    int stop, failed;
    slot s[SLOTS];
};

/* Lane l sorted and encoded into s. 0, or -1 out of memory. */
static int fill(const kifu_index *ix, slot *s, unsigned l)
{
    size_t n = ix->lane_at[l + 1] - ix->lane_at[l];
    s->nblk = 0;
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
        size_t len = kifu__block_encode(v + i, j - i, s->bytes + off);
        s->blk[s->nblk++] =
            (kifu__lane_block){i, j, off, len, kifu__index_sum(s->bytes + off, len)};
        off += len;
    }
    return 0;
}

static void *helper(void *arg)
{
    struct kifu__lanes *h = arg;
    kifu_index *ix = h->ix;
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
        int bad = fill(ix, s, l);
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
    *o = (kifu__lane_out){s->b, s->blk, s->nblk, s->bytes};
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
        kifu__free(h->s[i].bytes), kifu__free(h->s[i].blk);
    }
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
