/* tags_plan.c: the definitions compiled for recognition (kifu__tagplan, tags.h). A board
 * pattern is, for the tagger, a set of square conditions (search/pattern.h's fixed form:
 * the pieces allowed on each square it names); they are filed by square, and on each
 * square the definitions that allow the same pieces are one group, so that a changed
 * square costs a look at the groups whose answer the change turns. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "kifu_private.h"
#include "tags/tags.h"

void kifu__tagplan_free(kifu__tagplan *p)
{
    if (!p)
        return;
    void *v[] = {p->kind,       p->base,       p->groups,     p->defs,
                 p->sig,        p->mdefs,      p->after,      p->by_order,
                 p->from_order, p->rook_defs,  p->rook_files, p->name_first,
                 p->group,      p->game_names, p->by_key,     p->from_key};
    for (size_t i = 0; i < sizeof v / sizeof *v; i++)
        kifu__free(v[i]);
    kifu__free(p);
}

/* How d's board is tested; its square conditions in *sq, *allow, their number in *n. */
static int board_kind(const kifu__tagdef *d, const uint8_t **sq, const uint32_t **allow,
                      int *n)
{
    *n = 0;
    if (!d->pat || d->game)
        return KIFU__TAG_FREE;
    if ((*n = kifu__pattern_constraints(d->pat, sq, allow)) < 0) {
        *n = 0;
        return KIFU__TAG_OTHER;
    }
    /* A board that meets every condition: the pattern says no only when it is one no
     * position has (wider than the board, or a square nothing may stand on). */
    uint8_t b[81] = {0};
    for (int i = 0; i < *n; i++) {
        if (!(*allow)[i])
            return *n = 0, KIFU__TAG_NEVER;
        b[(*sq)[i]] = (uint8_t)__builtin_ctz((*allow)[i]);
    }
    if (kifu__pattern_match_squares(d->pat, b) != 1)
        return *n = 0, KIFU__TAG_NEVER;
    return kifu__pattern_needs_board(d->pat) ? KIFU__TAG_HANDS : KIFU__TAG_SQUARES;
}

/* A square condition of one definition, to be grouped. */
typedef struct cond {
    uint32_t sq, allow, def;
} cond;

static int by_cond(const void *x, const void *y)
{
    const cond *a = x, *b = y;
    if (a->sq != b->sq)
        return a->sq < b->sq ? -1 : 1;
    if (a->allow != b->allow)
        return a->allow < b->allow ? -1 : 1;
    return (a->def > b->def) - (a->def < b->def);
}

/* The square conditions of every definition, grouped. 0, or -1 NOMEM. */
static int file_squares(kifu__tagplan *p, const kifu_tagger *t)
{
    size_t total = 0, n = 0;
    for (size_t i = 0; i < t->ndefs; i++) {
        const uint8_t *sq;
        const uint32_t *allow;
        int k;
        p->kind[i] = (uint8_t)board_kind(&t->defs[i], &sq, &allow, &k);
        total += (size_t)k;
    }
    cond *v = kifu__calloc(total + 1, sizeof *v);
    p->groups = kifu__calloc(total + 1, sizeof *p->groups);
    p->defs = kifu__calloc(total + 1, sizeof *p->defs);
    p->sig = kifu__calloc(81 * 32, sizeof *p->sig);
    if (!v || !p->groups || !p->defs || !p->sig) {
        kifu__free(v);
        return -1;
    }
    for (size_t i = 0; i < t->ndefs; i++) {
        const uint8_t *sq;
        const uint32_t *allow;
        int k;
        board_kind(&t->defs[i], &sq, &allow, &k);
        for (int s = 0; s < k; s++)
            v[n++] = (cond){sq[s], allow[s], (uint32_t)i};
    }
    qsort(v, n, sizeof *v, by_cond);
    size_t ng = 0;
    for (size_t i = 0; i < n; i++) {
        if (!i || v[i].sq != v[i - 1].sq || v[i].allow != v[i - 1].allow) {
            p->groups[ng++] = (kifu__taggroup){v[i].allow, (uint32_t)i, 0};
            p->at[v[i].sq + 1]++;
        }
        p->groups[ng - 1].n++;
        p->defs[i] = v[i].def;
    }
    kifu__free(v);
    for (int sq = 0; sq < 81; sq++)
        p->at[sq + 1] += p->at[sq];
    for (int sq = 0; sq < 81; sq++) {
        uint32_t g0 = p->at[sq], ng_sq = p->at[sq + 1] - g0;
        for (uint32_t g = 0; g < ng_sq && ng_sq <= 64; g++)
            for (int piece = 0; piece < 32; piece++)
                p->sig[sq * 32 + piece] |=
                    (uint64_t)(p->groups[g0 + g].allow >> piece & 1) << g;
    }
    return 0;
}

/* The definitions whose moved or unmoved names each square. 0, or -1 NOMEM. */
static int file_moves(kifu__tagplan *p, const kifu_tagger *t)
{
    size_t total = 0;
    for (int pass = 0; pass < 2; pass++) {
        uint32_t fill[81];
        if (pass) {
            for (int sq = 0; sq < 81; sq++)
                p->mat[sq + 1] += p->mat[sq];
            memcpy(fill, p->mat, sizeof fill);
            if (!(p->mdefs = kifu__calloc(total + 1, sizeof *p->mdefs)))
                return -1;
        }
        for (size_t i = 0; i < t->ndefs; i++) {
            const kifu__tagdef *d = &t->defs[i];
            for (int sq = 0; sq < 81 && !d->game; sq++) {
                uint64_t bit = 1ull << (sq & 63);
                if (!((d->moved[sq >> 6] | d->unmoved[sq >> 6]) & bit))
                    continue;
                if (pass)
                    p->mdefs[fill[sq]++] = (uint32_t)i;
                else
                    p->mat[sq + 1]++, total++;
            }
        }
    }
    return 0;
}

/* v[0..n) by key (insertion sort: stable, the lists are short). */
static void sort_by(uint32_t *v, size_t n, const kifu__tagdef *defs, int from)
{
    for (size_t i = 1; i < n; i++) {
        uint32_t x = v[i];
        int key = from ? defs[x].from : defs[x].by;
        size_t j = i;
        for (; j > 0 && (from ? defs[v[j - 1]].from : defs[v[j - 1]].by) > key; j--)
            v[j] = v[j - 1];
        v[j] = x;
    }
}

/* Each name's definitions (they come by name), groups, the names of games. */
static void file_names(kifu__tagplan *p, const kifu_tagger *t)
{
    for (size_t i = 0, x = 0; x <= t->nnames; x++) {
        p->name_first[x] = (uint32_t)i;
        while (i < t->ndefs && t->defs[i].name == (int)x)
            i++;
    }
    for (size_t i = 0; i < t->ndefs; i++) {
        const kifu__tagdef *d = &t->defs[i];
        p->group[i] = -1;
        for (size_t j = 0; j <= i && d->group && p->group[i] < 0; j++)
            if (t->defs[j].group && strcmp(t->defs[j].group, d->group) == 0)
                p->group[i] = (int)j;
        if (d->game)
            p->game_names[d->name / 64] |= 1ull << (d->name % 64);
    }
}

int kifu__tagplan_make(kifu_tagger *t)
{
    kifu__tagplan_free(t->plan);
    kifu__tagplan *p = t->plan = kifu__calloc(1, sizeof *p);
    size_t n = t->ndefs;
    int ok = p && (p->kind = kifu__calloc(n + 1, 1)) &&
             (p->base = kifu__calloc(n + 1, 1)) &&
             (p->by_order = kifu__calloc(n + 1, sizeof(uint32_t))) &&
             (p->from_order = kifu__calloc(n + 1, sizeof(uint32_t))) &&
             (p->by_key = kifu__calloc(n + 1, sizeof(int))) &&
             (p->from_key = kifu__calloc(n + 1, sizeof(int))) &&
             (p->after = kifu__calloc(n + 1, sizeof(uint32_t))) &&
             (p->rook_defs = kifu__calloc(n + 1, sizeof(uint32_t))) &&
             (p->rook_files = kifu__calloc(n + 1, sizeof(uint16_t))) &&
             (p->name_first = kifu__calloc(t->nnames + 2, sizeof(uint32_t))) &&
             (p->group = kifu__calloc(n + 1, sizeof(int))) &&
             (p->game_names = kifu__calloc(t->nnames / 64 + 1, sizeof(uint64_t))) &&
             file_squares(p, t) == 0 && file_moves(p, t) == 0;
    if (!ok) {
        kifu__tagplan_free(t->plan);
        t->plan = NULL;
        return -1;
    }
    static const uint64_t none[2] = {0, 0};
    for (size_t i = 0; i < n; i++) {
        const kifu__tagdef *d = &t->defs[i];
        p->wait_capture |= d->capture != 0;
        if (d->game)
            continue;
        p->base[i] =
            (uint8_t)((d->from > 0) + (d->capture == 2) + !kifu__tag_moves_ok(d, none));
        if (d->by >= 0)
            p->by_order[p->nby++] = (uint32_t)i;
        if (d->from > 0)
            p->from_order[p->nfrom++] = (uint32_t)i;
        if (d->capture == 2)
            p->after[p->nafter++] = (uint32_t)i;
        if (d->rook_lo) {
            p->rook_files[i] = (uint16_t)((2u << d->rook_hi) - (1u << d->rook_lo));
            p->rook_defs[p->nrook++] = (uint32_t)i;
        }
    }
    file_names(p, t);
    sort_by(p->by_order, p->nby, t->defs, 0);
    sort_by(p->from_order, p->nfrom, t->defs, 1);
    for (size_t k = 0; k <= p->nby; k++)
        p->by_key[k] = k < p->nby ? t->defs[p->by_order[k]].by : INT_MAX;
    for (size_t k = 0; k <= p->nfrom; k++)
        p->from_key[k] = k < p->nfrom ? t->defs[p->from_order[k]].from : INT_MAX;
    return 0;
}
