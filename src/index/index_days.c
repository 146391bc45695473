/* index_days.c: the games of a much played position by day. A date filter on the start
 * position of a million games would otherwise decode a million occurrences; with the
 * position's games and each move's counted per day, cumulatively, a date range is two
 * binary searches and a subtraction, and the latest games in it are the latest of its
 * last days. The explorer rows of positions played in kifu__index_dated games or more
 * carry these lists (index_runs.c writes them, index_explore.c reads them). */
#include <string.h>

#include "index/index_days.h"
#include "kifu_private.h"

#define WORDS 11 /* 32-bit words a day takes in a list */
#define TOP_BYTES 6

void kifu__days_init(kifu__days *d)
{
    memset(d, 0, sizeof *d);
}

void kifu__days_free(kifu__days *d)
{
    kifu__free(d->v), kifu__free(d->slot);
    kifu__days_init(d);
}

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static size_t hash(uint16_t move, uint32_t date, size_t mask)
{
    uint64_t h = ((uint64_t)move << 32 | date) * 0x9e3779b97f4a7c15u;
    return (size_t)(h >> 40) & mask;
}

/* Grow the table to twice the days at least, every day placed again. */
static int rehash(kifu__days *d)
{
    size_t n = d->nslot ? d->nslot * 2 : 64;
    uint32_t *s = kifu__calloc(n, sizeof *s);
    if (!s)
        return -1;
    for (size_t i = 0; i < d->n; i++) {
        size_t h = hash(d->v[i].move, d->v[i].date, n - 1);
        while (s[h])
            h = (h + 1) & (n - 1);
        s[h] = (uint32_t)i + 1;
    }
    kifu__free(d->slot);
    d->slot = s, d->nslot = n;
    return 0;
}

/* The day of (move, date), made when new; NULL on NOMEM. */
static kifu__day *day(kifu__days *d, uint16_t move, uint32_t date)
{
    if ((d->n + 1) * 2 > d->nslot && rehash(d))
        return NULL;
    size_t h = hash(move, date, d->nslot - 1);
    for (; d->slot[h]; h = (h + 1) & (d->nslot - 1)) {
        kifu__day *x = &d->v[d->slot[h] - 1];
        if (x->move == move && x->date == date)
            return x;
    }
    if (kifu__reserve(&d->v, &d->cap, d->n + 1, sizeof *d->v, 64))
        return NULL;
    kifu__day *x = &d->v[d->n];
    memset(x, 0, sizeof *x);
    x->move = move, x->date = date;
    d->slot[h] = (uint32_t)++d->n;
    return x;
}

/* Game `game` counted on its day of `move`, unless it was already (a repetition: the
 * game, the latest so far, heads the day's list). */
static int count(kifu__days *d, uint16_t move, uint32_t date, uint32_t game, int ply,
                 int result, int rating)
{
    kifu__day *x = day(d, move, date);
    if (!x)
        return -1;
    if (x->ntop && x->top[0].id == game)
        return 0;
    x->games++;
    x->res[result < 6 ? result : 0]++;
    if (rating > 0)
        x->rated++, x->rsum += (uint64_t)rating;
    int n = x->ntop < KIFU__INDEX_TOP ? x->ntop++ : KIFU__INDEX_TOP - 1;
    memmove(&x->top[1], &x->top[0], (size_t)n * sizeof x->top[0]);
    x->top[0].id = game, x->top[0].ply = (uint16_t)ply;
    return 0;
}

int kifu__days_add(kifu__days *d, const kifu__ipos *e, int rating)
{
    uint32_t date = e->fact >> 3;
    int result = (int)(e->fact & 7);
    if (count(d, KIFU__DAYS_POSITION, date, e->game, e->ply, result, rating))
        return -1;
    return e->move ? count(d, e->move, date, e->game, e->ply, result, rating) : 0;
}

/* The movers' rated games and ratings summed, from the first day to day w (its words). */
static uint64_t rsum_of(const uint32_t *w)
{
    return (uint64_t)w[9] | (uint64_t)w[10] << 32;
}

/* The days in a list, and its size checked against them. 0, or -1. */
static int list_head(const uint8_t *p, size_t len, size_t *n, size_t *tops)
{
    if (len < 4)
        return -1;
    size_t r = get32(p);
    if (r > (len - 4) / (WORDS * 4))
        return -1;
    size_t t = r ? get32(p + 4 + (r - 1) * WORDS * 4 + 28) : 0;
    if (t > len || len != 4 + r * WORDS * 4 + t * TOP_BYTES)
        return -1;
    *n = r, *tops = t;
    return 0;
}

int kifu__days_load(kifu__days *d, uint16_t move, const void *blob, size_t len)
{
    const uint8_t *p = blob;
    size_t n, ntops;
    if (!p || list_head(p, len, &n, &ntops))
        return -1;
    const uint8_t *rec = p + 4, *tops = rec + n * WORDS * 4;
    uint32_t prev[7] = {0}, date = 0, prated = 0;
    uint64_t prsum = 0;
    for (size_t i = 0; i < n; i++, rec += WORDS * 4) {
        uint32_t w[WORDS];
        for (int k = 0; k < WORDS; k++)
            w[k] = get32(rec + 4 * k);
        if ((i && w[0] <= date) || w[7] < prev[6] || w[7] - prev[6] > KIFU__INDEX_TOP)
            return -1;
        date = w[0];
        size_t before = d->n;
        kifu__day *x = day(d, move, date);
        if (!x || d->n == before)
            return -1; /* NOMEM, or the day twice */
        uint32_t sum = 0;
        for (int k = 1; k < 7; k++) {
            if (w[k] < prev[k - 1])
                return -1;
            uint32_t v = w[k] - prev[k - 1];
            if (k == 1)
                x->games = v;
            else
                x->res[k - 1] = v, sum += v;
            prev[k - 1] = w[k];
        }
        if (sum > x->games)
            return -1;
        x->res[KIFU__RES_UNKNOWN] = x->games - sum;
        if (w[8] < prated || w[8] - prated > x->games || rsum_of(w) < prsum)
            return -1;
        x->rated = w[8] - prated, x->rsum = rsum_of(w) - prsum;
        prated = w[8], prsum = rsum_of(w);
        for (uint32_t t = prev[6]; t < w[7]; t++) {
            const uint8_t *q = tops + (size_t)t * TOP_BYTES;
            x->top[x->ntop].id = get32(q);
            x->top[x->ntop++].ply = (uint16_t)(q[4] | q[5] << 8);
        }
        prev[6] = w[7];
    }
    return 0;
}

static int by_move_date(const void *x, const void *y)
{
    const kifu__day *a = x, *b = y;
    if (a->move != b->move)
        return a->move < b->move ? -1 : 1;
    return (a->date > b->date) - (a->date < b->date);
}

void kifu__days_sort(kifu__days *d)
{
    if (d->n)
        qsort(d->v, d->n, sizeof *d->v, by_move_date);
    kifu__free(d->slot);
    d->slot = NULL, d->nslot = 0;
}

size_t kifu__days_of(const kifu__days *d, uint16_t move, size_t *first)
{
    size_t lo = 0, hi = d->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (d->v[mid].move < move)
            lo = mid + 1;
        else
            hi = mid;
    }
    *first = lo;
    size_t end = lo;
    while (end < d->n && d->v[end].move == move)
        end++;
    return end - lo;
}

size_t kifu__days_bound(size_t n)
{
    return 4 + n * (WORDS * 4 + KIFU__INDEX_TOP * TOP_BYTES);
}

size_t kifu__days_encode(const kifu__day *v, size_t n, int tops, uint8_t *out)
{
    uint32_t cum[8] = {0};
    uint64_t rsum = 0;
    put32(out, (uint32_t)n);
    uint8_t *rec = out + 4, *t = rec + n * WORDS * 4;
    for (size_t i = 0; i < n; i++, rec += WORDS * 4) {
        cum[0] += v[i].games;
        for (int k = 1; k < 6; k++)
            cum[k] += v[i].res[k];
        cum[7] += v[i].rated, rsum += v[i].rsum;
        for (int k = 0; tops && k < v[i].ntop; k++, t += TOP_BYTES) {
            put32(t, v[i].top[k].id);
            t[4] = (uint8_t)v[i].top[k].ply, t[5] = (uint8_t)(v[i].top[k].ply >> 8);
            cum[6]++;
        }
        put32(rec, v[i].date);
        for (int k = 0; k < 8; k++)
            put32(rec + 4 + 4 * k, cum[k]);
        put32(rec + 36, (uint32_t)rsum), put32(rec + 40, (uint32_t)(rsum >> 32));
    }
    return (size_t)(t - out);
}

/* Does a game of date d (not 0) pass the lower bound, the upper one? The explorer's text
 * comparisons (index_explore.c), on the date as text: both are monotone in d. */
static int after_from(uint32_t d, const char *from)
{
    char s[11];
    kifu__index_fact_date(d << 3, s);
    return !from || strcmp(s, from) >= 0;
}

static int before_to(uint32_t d, const char *to)
{
    char s[11];
    kifu__index_fact_date(d << 3, s);
    return !to || strncmp(s, to, 10) <= 0;
}

int kifu__days_range(const void *blob, size_t len, const char *from, const char *to,
                     kifu__days_sum *out)
{
    const uint8_t *p = blob;
    size_t n, ntops;
    memset(out, 0, sizeof *out);
    if (!p || list_head(p, len, &n, &ntops))
        return -1;
    const uint8_t *rec = p + 4, *tops = rec + n * WORDS * 4;
#define AT(i, k) get32(rec + (size_t)(i)*WORDS * 4 + 4 * (k))
    /* a: the first day that passes the lower bound (an unknown date passes no bound);
     * b: the first that fails the upper one. */
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        uint32_t d = AT(mid, 0);
        if ((from || to) && (!d || !after_from(d, from)))
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t a = lo;
    hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (before_to(AT(mid, 0), to))
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t b = lo;
    if (b <= a)
        return 0;
    long long sum = 0;
    for (int k = 0; k < 6; k++) {
        long long v = (long long)AT(b - 1, 1 + k) - (a ? (long long)AT(a - 1, 1 + k) : 0);
        if (k == 0)
            out->games = v;
        else
            out->res[k] = v, sum += v;
    }
    out->res[KIFU__RES_UNKNOWN] = out->games - sum;
    out->rated = (long long)AT(b - 1, 8) - (a ? (long long)AT(a - 1, 8) : 0);
    uint64_t rs_b = (uint64_t)AT(b - 1, 9) | (uint64_t)AT(b - 1, 10) << 32;
    uint64_t rs_a = a ? (uint64_t)AT(a - 1, 9) | (uint64_t)AT(a - 1, 10) << 32 : 0;
    out->rating_sum = (long long)(rs_b - rs_a);
    kifu__index_fact_date(AT(b - 1, 0) << 3, out->last_date);
    /* The latest games: each day's own, latest first, from the last day back. */
    for (size_t i = b; i > a && out->ntop < KIFU__INDEX_TOP; i--) {
        uint32_t t0 = i > 1 ? AT(i - 2, 7) : 0, t1 = AT(i - 1, 7);
        if (t1 < t0 || t1 > ntops)
            return -1;
        for (uint32_t t = t0; t < t1 && out->ntop < KIFU__INDEX_TOP; t++) {
            const uint8_t *q = tops + (size_t)t * TOP_BYTES;
            out->top[2 * out->ntop] = (int32_t)get32(q);
            out->top[2 * out->ntop++ + 1] = q[4] | q[5] << 8;
        }
    }
#undef AT
    return 0;
}
