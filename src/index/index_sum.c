/* index_sum.c: the digests of the index: of a file's content (sources.digest, to see a
 * changed file), and the checksum stored beside each block of positions (positions.sum)
 * and each game's line, its start and moves (games.moves_sum), checked on every read. A block emptied or
 * cut short, or a move changed, would otherwise decode to a plausible wrong answer (no
 * games, an illegal move, a short count) rather than fail; a mismatch is reported as
 * damage, with the way out (rebuild). */
#include <stdio.h>
#include <string.h>

#include "index/index_private.h"
#include "kifu_private.h"

uint64_t kifu__index_digest_fnv(const unsigned char *d, size_t n)
{
    uint64_t h = 0xcbf29ce484222325u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ d[i]) * 0x100000001b3u;
    return h;
}

static uint64_t load64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* The same, for SQLite indexes, 32 bytes a step in four independent lanes: FNV's one
 * multiply per byte, each waiting for the last, took a twentieth of a build. */
uint64_t kifu__index_digest_fast(const unsigned char *d, size_t n)
{
    const uint64_t m = 0x9e3779b97f4a7c15u;
    uint64_t h[4] = {n, n ^ 0x6a09e667f3bcc908u, n ^ 0xbb67ae8584caa73bu,
                     n ^ 0x3c6ef372fe94f82bu};
    size_t i = 0;
    for (; i + 32 <= n; i += 32)
        for (int k = 0; k < 4; k++) {
            uint64_t x = h[k] ^ load64(d + i + 8 * k);
            h[k] = (x << 29 | x >> 35) * m;
        }
    uint64_t r = kifu__index_digest_fnv(d + i, n - i);
    for (int k = 0; k < 4; k++) {
        r = (r ^ h[k]) * m;
        r ^= r >> 31;
    }
    return r;
}

int64_t kifu__index_sum(const void *p, size_t n)
{
    /* The digest of the sources' content: any one changed word always changes it
     * (each step is a bijection of the lane), and the length is its seed. Folded to 32
     * bits, which SQLite stores in 4 bytes where 64 take 8: a one-entry block is a few
     * bytes, and a collection has hundreds of thousands of them. */
    uint64_t h = kifu__index_digest_fast(p, n);
    return (int32_t)(uint32_t)(h ^ h >> 32);
}

int kifu__index_damaged(kifu_error *err, const char *path, const char *what,
                        const char *why)
{
    kifu__error(err, KIFU_ERR_IO, 0, 0, 0, NULL, NULL,
                "damaged: %s %s: rebuild with kifu index build", what, why);
    kifu__error_source(err, path);
    return -1;
}

int kifu__index_block(sqlite3_stmt *st, uint64_t id, const uint8_t **p, size_t *n,
                      const char *path, kifu_error *err)
{
    *p = sqlite3_column_blob(st, 0);
    *n = (size_t)sqlite3_column_bytes(st, 0);
    if (kifu__index_sum(*p, *n) == sqlite3_column_int64(st, 1))
        return 0;
    char what[64];
    snprintf(what, sizeof what, "positions row %llu", (unsigned long long)id);
    return kifu__index_damaged(err, path, what, "does not match its checksum");
}

int kifu__index_block_bad(int rc, uint64_t id, const char *path, kifu_error *err)
{
    if (rc == -2)
        return kifu__error(err, KIFU_ERR_NOMEM, 0, 0, 0, NULL, NULL, "out of memory");
    char what[64];
    snprintf(what, sizeof what, "positions row %llu", (unsigned long long)id);
    return kifu__index_damaged(err, path, what, "does not decode");
}

int64_t kifu__index_line_sum(const char *handicap, const char *start, const void *moves,
                             size_t bytes)
{
    uint64_t h = kifu__index_digest_fast(moves, bytes);
    uint64_t hc =
        handicap ? kifu__index_digest_fast((const void *)handicap, strlen(handicap)) : 1;
    uint64_t sf = start ? kifu__index_digest_fast((const void *)start, strlen(start)) : 2;
    /* Each part turned by its own amount, so that two parts swapped do not cancel. */
    h ^= (hc << 21 | hc >> 43) ^ (sf << 42 | sf >> 22);
    return (int32_t)(uint32_t)(h ^ h >> 32);
}

int kifu__index_moves(sqlite3_stmt *st, int col, long long game, const void **moves,
                      int *n, const char *path, kifu_error *err)
{
    *moves = sqlite3_column_blob(st, col);
    size_t bytes = (size_t)sqlite3_column_bytes(st, col);
    *n = (int)(bytes / 2);
    const char *handicap = (const char *)sqlite3_column_text(st, col - 2);
    const char *start = (const char *)sqlite3_column_text(st, col - 1);
    if (!(bytes & 1) && kifu__index_line_sum(handicap, start, *moves, bytes) ==
                            sqlite3_column_int64(st, col + 1))
        return 0;
    char what[64];
    snprintf(what, sizeof what, "the start and moves of game %lld", game);
    return kifu__index_damaged(err, path, what, "do not match their checksum");
}
