/* index_sort.c: a batch's rows put in the table's order, (key, game, ply), lane by lane
 * as the SQLite index writes its run of blocks (index_runs.c): the rows of each lane
 * together in place, then each lane radix-sorted while it is in the cache, then each
 * bucket's few rows that share the radix bits put in place. */
#include <stdint.h>
#include <string.h>

#include "index/index_private.h"
#include "kifu_private.h"

/* Does row a come before row b in the table's order (key, game, ply): kifu__ipos_cmp,
 * inline for the sorts below. The rows of one key reach their bucket in no particular
 * order (kifu__index_sort_lanes moves rows about), so the game and ply decide between them. */
static inline int before(const kifu__ipos *a, const kifu__ipos *b)
{
    if (a->key != b->key)
        return a->key < b->key;
    return a->game != b->game ? a->game < b->game : a->ply < b->ply;
}

/* Rows v[0..n) sorted by insertion, unless that takes more than `budget` moves: 0, or 1
 * (left part sorted). */
static int insertion(kifu__ipos *v, size_t n, size_t budget)
{
    for (size_t k = 1; k < n; k++) {
        if (!before(&v[k], &v[k - 1]))
            continue;
        kifu__ipos x = v[k];
        size_t m = k;
        for (; m > 0 && before(&x, &v[m - 1]); m--)
            v[m] = v[m - 1];
        v[m] = x;
        if (k - m > budget)
            return 1;
        budget -= k - m;
    }
    return 0;
}

/* Rows v[0..n) sorted: runs of 16 by insertion, then merged bottom-up through t (n
 * rows), the compare inline. Runs already in order are copied, not merged. */
#define RUN_ROWS 16
static void merge(kifu__ipos *v, size_t n, kifu__ipos *t)
{
    for (size_t s = 0; s < n; s += RUN_ROWS)
        insertion(v + s, n - s < RUN_ROWS ? n - s : RUN_ROWS, SIZE_MAX);
    kifu__ipos *a = v, *b = t;
    for (size_t w = RUN_ROWS; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            if (mid == hi || !before(&a[mid], &a[mid - 1])) {
                memcpy(b + lo, a + lo, (hi - lo) * sizeof *a);
                continue;
            }
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                b[k++] = before(&a[j], &a[i]) ? a[j++] : a[i++];
            while (i < mid)
                b[k++] = a[i++];
            while (j < hi)
                b[k++] = a[j++];
        }
        kifu__ipos *x = a;
        a = b, b = x;
    }
    if (a != v)
        memcpy(v, a, n * sizeof *v);
}

/* The batch is sorted by its keys' top 27 bits, the order of the table's buckets, in two
 * steps. kifu__index_partition puts the rows of each lane (the top 9 bits) together, in place: one
 * pass, each row moved once. kifu__index_lane then sorts one lane by the next 18 bits, 9
 * a pass (512 destinations a pass stay in the caches), through two buffers the size of a
 * lane that stay in the cache while the lane is written. What is left is to sort each
 * bucket by (key, game, ply) (kifu__index_sort_bucket, as the run is written): after the
 * 27 bits its rows are in order but for the few that share them (a hot key's rows are all
 * equal), which insertion puts in place; a bucket of many such rows is merge-sorted.
 * (A radix sort of the whole batch needed a second buffer of its size: a bulk build's
 * peak memory went from 1.79 to 0.77 GB without it, and its system time, the faults of
 * those pages, by about 3 s a million games. Two passes and qsort per bucket took twice
 * as long as the radix passes: calls through a pointer, byte-wise copies of rows.) */
#define RADIX_BITS 9
#define RADIX_SHIFT (64 - 3 * RADIX_BITS)
#define LANE(key) ((unsigned)((key) >> (64 - KIFU__LANE_BITS)))
_Static_assert(RADIX_SHIFT <= KIFU__BUCKET_SHIFT, "the radix passes cover the bucket");
_Static_assert(KIFU__LANE_BITS == RADIX_BITS, "a lane is the top radix digit");
size_t kifu__index_partition(kifu_index *ix)
{
    size_t n = ix->npos, *at = ix->lane_at, head[KIFU__LANES], big = 0;
    kifu__irow *v = ix->pos;
    memset(ix->lane_at, 0, sizeof ix->lane_at);
    for (size_t i = 0; i < n; i++)
        at[LANE(v[i].key) + 1]++;
    for (unsigned l = 0; l < KIFU__LANES; l++) {
        big = at[l + 1] > big ? at[l + 1] : big;
        at[l + 1] += at[l];
        head[l] = at[l];
    }
    /* Each row not in its lane goes to the next free place of its lane, and the row it
     * finds there is placed next: the lanes before l are full. */
    for (unsigned l = 0; l < KIFU__LANES; l++)
        while (head[l] < at[l + 1]) {
            kifu__irow x = v[head[l]];
            for (unsigned d; (d = LANE(x.key)) != l;) {
                kifu__irow y = v[head[d]];
                v[head[d]++] = x;
                x = y;
            }
            v[head[l]++] = x;
        }
    return big;
}

kifu__ipos *kifu__index_lane_into(const kifu_index *ix, unsigned l, size_t *np,
                                  kifu__ipos *a, kifu__ipos *b)
{
    const kifu__irow *v = ix->pos + ix->lane_at[l];
    size_t n = *np = ix->lane_at[l + 1] - ix->lane_at[l];
    if (!n)
        return NULL;
    const uint64_t mask = (1u << RADIX_BITS) - 1;
    size_t count[2][1 << RADIX_BITS];
    memset(count, 0, sizeof count);
    for (size_t i = 0; i < n; i++) {
        count[0][(v[i].key >> RADIX_SHIFT) & mask]++;
        count[1][(v[i].key >> (RADIX_SHIFT + RADIX_BITS)) & mask]++;
    }
    for (int p = 0; p < 2; p++)
        for (size_t d = 0, sum = 0; d <= mask; d++) {
            size_t c = count[p][d];
            count[p][d] = sum;
            sum += c;
        }
    /* The batch's games have consecutive ids from the first one's. */
    const uint32_t *facts = ix->facts, first = ix->games[0].id;
    for (size_t i = 0; i < n; i++) {
        const kifu__irow *r = &v[i];
        a[count[0][(r->key >> RADIX_SHIFT) & mask]++] =
            (kifu__ipos){r->key, r->game, r->ply, r->move, facts[r->game - first]};
    }
    for (size_t i = 0; i < n; i++)
        b[count[1][(a[i].key >> (RADIX_SHIFT + RADIX_BITS)) & mask]++] = a[i];
    return b;
}

kifu__ipos *kifu__index_lane(kifu_index *ix, unsigned l, size_t *np, kifu__ipos **t)
{
    *t = ix->lane[0];
    return kifu__index_lane_into(ix, l, np, ix->lane[0], ix->lane[1]);
}

void kifu__index_sort_bucket(kifu__ipos *v, size_t n, kifu__ipos *t)
{
    if (insertion(v, n, 4 * n))
        merge(v, n, t);
}
