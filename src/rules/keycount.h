/* keycount.h: how many times each position key occurs in a game's history, so repetition
 * counts are O(1) however long the game. A small open-addressing hash multiset. */
#ifndef KIFU_RULES_KEYCOUNT_H
#define KIFU_RULES_KEYCOUNT_H

#include <stddef.h>
#include <stdint.h>

typedef struct kifu__keyslot {
    uint64_t key;
    uint32_t count;
    uint32_t used;
} kifu__keyslot;

typedef struct kifu__keycount {
    kifu__keyslot *slots;
    size_t cap;  /* a power of two, or 0 */
    size_t used; /* slots holding a key (count may have dropped to 0) */
} kifu__keycount;

void kifu__kc_free(kifu__keycount *kc);
void kifu__kc_clear(kifu__keycount *kc);
/* Count one more occurrence. 0, or -1 when out of memory (nothing changed). */
int kifu__kc_add(kifu__keycount *kc, uint64_t key);
/* Count one occurrence less (the key must have been added). */
void kifu__kc_remove(kifu__keycount *kc, uint64_t key);
uint32_t kifu__kc_get(const kifu__keycount *kc, uint64_t key);
/* dst = a copy of src (dst empty). 0, or -1 when out of memory. */
int kifu__kc_copy(kifu__keycount *dst, const kifu__keycount *src);

#endif
