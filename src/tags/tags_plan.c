/* tags_plan.c: the definitions compiled for recognition. A board pattern is, for the
 * tagger, a set of square conditions (search/pattern.h's fixed form: the pieces allowed
 * on each square it names). They are filed by square, so that a game's run (tags_run.c)
 * keeps, per definition and side, the number of its squares that are wrong, and touches
 * after a move only the definitions that look at the squares the move changed: the
 * position is not matched again against every definition after every move. */
#include <string.h>

#include "kifu_private.h"
#include "tags/tags.h"

void kifu__tagplan_free(kifu__tagplan *p)
{
    if (!p)
        return;
    kifu__free(p->kind);
    kifu__free(p->nsquares);
    kifu__free(p->on);
    kifu__free(p->by_order);
    kifu__free(p->rook_defs);
    kifu__free(p->rook_files);
    kifu__free(p);
}

/* How d's board is tested; its square conditions in *sq, *allow, their number in *n. */
static int board_kind(const kifu__tagdef *d, const uint8_t **sq, const uint32_t **allow,
                      int *n)
{
    *n = 0;
    if (!d->pat)
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

int kifu__tagplan_make(kifu_tagger *t)
{
    kifu__tagplan_free(t->plan);
    kifu__tagplan *p = t->plan = kifu__calloc(1, sizeof *p);
    size_t n = t->ndefs, total = 0;
    if (p &&
        (!(p->kind = kifu__calloc(n + 1, 1)) || !(p->nsquares = kifu__calloc(n + 1, 1)) ||
         !(p->by_order = kifu__calloc(n + 1, sizeof *p->by_order)) ||
         !(p->rook_defs = kifu__calloc(n + 1, sizeof *p->rook_defs)) ||
         !(p->rook_files = kifu__calloc(n + 1, sizeof *p->rook_files))))
        p = NULL;
    for (size_t i = 0; p && i < n; i++) {
        const uint8_t *sq;
        const uint32_t *allow;
        int k;
        p->kind[i] = (uint8_t)board_kind(&t->defs[i], &sq, &allow, &k);
        p->nsquares[i] = (uint8_t)k;
        for (int s = 0; s < k; s++)
            p->at[sq[s] + 1]++;
        total += (size_t)k;
        p->wait_capture |= t->defs[i].capture != 0;
        const kifu__tagdef *d = &t->defs[i];
        if (d->rook_lo && !d->game) {
            p->rook_files[i] = (uint16_t)((2u << d->rook_hi) - (1u << d->rook_lo));
            p->rook_defs[p->nrook++] = (uint32_t)i;
        }
    }
    if (p && !(p->on = kifu__calloc(total + 1, sizeof *p->on)))
        p = NULL;
    if (!p) {
        kifu__tagplan_free(t->plan);
        t->plan = NULL;
        return -1;
    }
    for (int sq = 0; sq < 81; sq++)
        p->at[sq + 1] += p->at[sq];
    uint32_t fill[81];
    memcpy(fill, p->at, sizeof fill);
    for (size_t i = 0; i < n; i++) {
        const uint8_t *sq;
        const uint32_t *allow;
        int k =
            p->nsquares[i] ? kifu__pattern_constraints(t->defs[i].pat, &sq, &allow) : 0;
        for (int s = 0; s < k; s++)
            p->on[fill[sq[s]]++] = (kifu__tagsq){(uint32_t)i, allow[s]};
    }
    /* The definitions with a last move, by it (insertion sort: stable, lists short). */
    for (size_t i = 0; i < n; i++) {
        if (t->defs[i].by < 0 || t->defs[i].game)
            continue;
        size_t j = p->nby++;
        for (; j > 0 && t->defs[p->by_order[j - 1]].by > t->defs[i].by; j--)
            p->by_order[j] = p->by_order[j - 1];
        p->by_order[j] = (uint32_t)i;
    }
    return 0;
}
