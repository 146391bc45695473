/* index_block.c: the packed position lists of the `positions` table. A row holds every
 * occurrence whose key has the same top bits (its bucket), so a million games make about
 * a million rows instead of one row per position: SQLite's cost is per row, and a bucket
 * is read or written as one blob.
 *
 * A block is a run of groups in key order, one per key:
 *   varint  key delta (low bits of the key, from the previous group's; the first from 0)
 *   varint  entries in the group
 *   varint  bytes of the entries (a reader looking for one key skips a group unread)
 *   entries in (game, ply) order: varint game delta (the first from 0), varint
 *   ply << 3 | result, varint date (kifu__index_fact), two bytes of the compact move
 *   played from there (little-endian, 0: none). The date and result make a query by
 *   date, and the counts of any position, need no read of the games table.
 * A block is stored with its checksum, checked as it is read (index_sum.c). */
#include <string.h>

#include "index/index_private.h"
#include "kifu_private.h"

/* Most bytes one entry or group head takes. */
#define ENTRY_MAX (10 + 10 + 10 + 2)
#define HEAD_MAX 30

int kifu__ipos_cmp(const void *x, const void *y)
{
    const kifu__ipos *a = x, *b = y;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    if (a->game != b->game)
        return a->game < b->game ? -1 : 1;
    return (a->ply > b->ply) - (a->ply < b->ply);
}

size_t kifu__block_bound(size_t n)
{
    return n * (ENTRY_MAX + HEAD_MAX);
}

/* A group's entries from v[i] to v[j] at o. The end. */
static inline uint8_t *put_entries(uint8_t *o, const kifu__ipos *v, size_t i, size_t j)
{
    uint32_t game = 0;
    for (size_t k = i; k < j; k++) {
        kifu__put_varint(&o, v[k].game - game);
        game = v[k].game;
        kifu__put_varint(&o, (uint64_t)v[k].ply << 3 | (v[k].fact & 7));
        kifu__put_varint(&o, v[k].fact >> 3);
        *o++ = (uint8_t)(v[k].move & 0xff);
        *o++ = (uint8_t)(v[k].move >> 8);
    }
    return o;
}

/* Entries whose bytes (ENTRY_MAX each at most) always have a one-byte length. */
#define SHORT_GROUP (127 / ENTRY_MAX)

size_t kifu__block_encode(const kifu__ipos *v, size_t n, uint8_t *out)
{
    uint8_t *o = out;
    uint64_t prev = 0;
    for (size_t i = 0, j; i < n; i = j) {
        uint64_t key = v[i].key;
        for (j = i + 1; j < n && v[j].key == key; j++)
            ;
        uint64_t low = key & KIFU__BUCKET_LOW;
        kifu__put_varint(&o, low - prev);
        kifu__put_varint(&o, j - i);
        prev = low;
        if (j - i <= SHORT_GROUP) {
            /* Most groups are one entry: their length is one byte, filled in after. */
            uint8_t *len = o++;
            o = put_entries(o, v, i, j);
            *len = (uint8_t)(o - len - 1);
            continue;
        }
        /* The entries at their place after the longest length, moved back below. */
        uint8_t *e = put_entries(o + 10, v, i, j);
        size_t len = (size_t)(e - (o + 10));
        kifu__put_varint(&o, len);
        memmove(o, e - len, len);
        o += len;
    }
    return (size_t)(o - out);
}

int kifu__block_decode(const uint8_t *p, size_t n, uint64_t bucket, uint64_t only,
                       int all, kifu__ipos **v, size_t *nv, size_t *cap)
{
    const uint8_t *end = p + n;
    uint64_t low = 0;
    while (p < end) {
        uint64_t d, count, len;
        if (kifu__get_varint(&p, end, &d) || kifu__get_varint(&p, end, &count) ||
            kifu__get_varint(&p, end, &len) || len > (uint64_t)(end - p) ||
            low + d < low || ((low + d) & ~KIFU__BUCKET_LOW))
            return -1;
        low += d;
        uint64_t key = (bucket << KIFU__BUCKET_SHIFT) | low;
        const uint8_t *q = p, *gend = p + len;
        p = gend;
        if (!all && key != only)
            continue;
        if (count > len)
            return -1;
        if (kifu__reserve(v, cap, *nv + count, sizeof **v, 256))
            return -2;
        uint32_t game = 0;
        for (uint64_t k = 0; k < count; k++) {
            uint64_t g, ply, date;
            if (kifu__get_varint(&q, gend, &g) || kifu__get_varint(&q, gend, &ply) ||
                kifu__get_varint(&q, gend, &date) || gend - q < 2 ||
                ply >> 3 > UINT16_MAX || date > UINT32_MAX >> 3 || g > UINT32_MAX - game)
                return -1;
            game += (uint32_t)g;
            uint16_t mv = (uint16_t)(q[0] | q[1] << 8);
            q += 2;
            (*v)[(*nv)++] = (kifu__ipos){key, game, (uint16_t)(ply >> 3), mv,
                                         (uint32_t)(date << 3 | (ply & 7))};
        }
        if (!all)
            return 0;
    }
    return 0;
}

uint32_t kifu__index_fact(const char *date, int result)
{
    uint32_t d = 0;
    if (date && strlen(date) >= 10) {
        unsigned y = 0, m = 0, day = 0;
        for (int i = 0; i < 4; i++)
            y = y * 10 + (unsigned)(date[i] - '0');
        m = (unsigned)(date[5] - '0') * 10 + (unsigned)(date[6] - '0');
        day = (unsigned)(date[8] - '0') * 10 + (unsigned)(date[9] - '0');
        if (y <= 9999 && m >= 1 && m <= 12 && day >= 1 && day <= 31)
            d = y << 9 | m << 5 | day;
    }
    return d << 3 | (uint32_t)(result & 7);
}

void kifu__index_fact_date(uint32_t fact, char out[11])
{
    uint32_t d = fact >> 3;
    if (!d) {
        out[0] = 0;
        return;
    }
    unsigned y = d >> 9, m = (d >> 5) & 15, day = d & 31;
    out[0] = (char)('0' + y / 1000), out[1] = (char)('0' + y / 100 % 10);
    out[2] = (char)('0' + y / 10 % 10), out[3] = (char)('0' + y % 10);
    out[4] = '-', out[5] = (char)('0' + m / 10), out[6] = (char)('0' + m % 10);
    out[7] = '-', out[8] = (char)('0' + day / 10), out[9] = (char)('0' + day % 10);
    out[10] = 0;
}

int kifu__index_entries(sqlite3_stmt *block, uint64_t key, kifu__ipos **v, size_t *nv,
                        size_t *cap, const char *path, kifu_error *err)
{
    uint64_t bucket = key >> KIFU__BUCKET_SHIFT;
    sqlite3_bind_int64(block, 1, (sqlite3_int64)bucket);
    int s = SQLITE_DONE, rc = 0;
    /* The runs oldest first: their games are in id order, so the entries stay in (game,
     * ply) order. */
    while (!rc && (s = sqlite3_step(block)) == SQLITE_ROW) {
        const uint8_t *p;
        size_t n;
        uint64_t id = (uint64_t)sqlite3_column_int64(block, 2);
        if ((rc = kifu__index_block(block, id, &p, &n, path, err)))
            break;
        if ((rc = kifu__block_decode(p, n, bucket, key, 0, v, nv, cap)))
            rc = kifu__index_block_bad(rc, id, path, err);
    }
    if (!rc && s != SQLITE_DONE)
        rc = kifu__index_sqlite_error(sqlite3_db_handle(block), path,
                                      "cannot read the index", err);
    sqlite3_reset(block);
    return rc;
}
