/* keycount.c: the key multiset. Linear probing; a slot whose count drops to 0 stays until
 * the next resize, which keeps only live keys, so the table tracks the history's size. */
#include <string.h>

#include "kifu_private.h"
#include "rules/keycount.h"

static size_t slot_of(const kifu__keycount *kc, uint64_t key)
{
    size_t mask = kc->cap - 1, i = (size_t)(key ^ (key >> 29)) & mask;
    while (kc->slots[i].used && kc->slots[i].key != key)
        i = (i + 1) & mask;
    return i;
}

void kifu__kc_free(kifu__keycount *kc)
{
    kifu__free(kc->slots);
    memset(kc, 0, sizeof *kc);
}

void kifu__kc_clear(kifu__keycount *kc)
{
    if (kc->slots)
        memset(kc->slots, 0, kc->cap * sizeof *kc->slots);
    kc->used = 0;
}

static int resize(kifu__keycount *kc, size_t cap)
{
    kifu__keyslot *s = kifu__calloc(cap, sizeof *s);
    if (!s)
        return -1;
    kifu__keycount n = {s, cap, 0};
    for (size_t i = 0; i < kc->cap; i++)
        if (kc->slots[i].used && kc->slots[i].count) {
            size_t j = slot_of(&n, kc->slots[i].key);
            n.slots[j] = kc->slots[i];
            n.used++;
        }
    kifu__free(kc->slots);
    *kc = n;
    return 0;
}

int kifu__kc_add(kifu__keycount *kc, uint64_t key)
{
    if ((kc->used + 1) * 2 > kc->cap) {
        size_t live = 0;
        for (size_t i = 0; i < kc->cap; i++)
            live += kc->slots[i].used && kc->slots[i].count;
        size_t cap = 64;
        while (cap < (live + 1) * 4)
            cap *= 2;
        if (resize(kc, cap) < 0)
            return -1;
    }
    size_t i = slot_of(kc, key);
    if (!kc->slots[i].used) {
        kc->slots[i].used = 1;
        kc->slots[i].key = key;
        kc->used++;
    }
    kc->slots[i].count++;
    return 0;
}

void kifu__kc_remove(kifu__keycount *kc, uint64_t key)
{
    if (!kc->cap)
        return;
    size_t i = slot_of(kc, key);
    if (kc->slots[i].used && kc->slots[i].count)
        kc->slots[i].count--;
}

uint32_t kifu__kc_get(const kifu__keycount *kc, uint64_t key)
{
    if (!kc->cap)
        return 0;
    size_t i = slot_of(kc, key);
    return kc->slots[i].used ? kc->slots[i].count : 0;
}

int kifu__kc_copy(kifu__keycount *dst, const kifu__keycount *src)
{
    memset(dst, 0, sizeof *dst);
    if (!src->cap)
        return 0;
    dst->slots = kifu__malloc(src->cap * sizeof *dst->slots);
    if (!dst->slots)
        return -1;
    memcpy(dst->slots, src->slots, src->cap * sizeof *dst->slots);
    dst->cap = src->cap;
    dst->used = src->used;
    return 0;
}
